"""The package people install (issue 51): the version in one place, and the sdist and the
wheel built from the sources, the wheel installed alone in a fresh virtual environment,
away from the checkout, where the commands and the environments work.

The build and the fresh environment take about a minute (numba compiles the kernels
afresh there): those tests are ``slow``, run by ``make long``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import tomllib
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gammon
from gammon.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
VERSION = gammon.__version__
START_ID = "4HPwATDgc/ABMA"


def test_the_version_is_in_one_place():
    """pyproject.toml reads the version from gammon.__version__, and `gammon --version`
    prints it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "gammon.__version__"}
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output == f"gammon {VERSION}\n"


def test_the_changelog_has_this_version_and_an_unreleased_section():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in changelog
    assert f"## [{VERSION}] - " in changelog


# --- The built package, installed in a fresh environment (slow). ---

def _uv() -> str:
    """uv, which the project's Makefile installs beside its Python."""
    beside = Path(sys.executable).with_name("uv")
    found = str(beside) if beside.exists() else shutil.which("uv")
    assert found, "uv is needed (make test installs it into .venv)"
    return found


def _sources(into: Path) -> Path:
    """The checkout's files as a fresh clone would hold them, with the uncommitted changes
    (tracked and untracked files that git does not ignore), copied to ``into``: building
    there leaves nothing (gammon.egg-info...) in the checkout, and uses nothing ignored."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: nothing to build the package from")
    for name in listed.decode().split("\0"):
        source = ROOT / name
        if name and source.is_file():  # a tracked file deleted in the work tree is left out
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    return into


@dataclass(frozen=True)
class Built:
    sdist: Path
    wheel: Path


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Built:
    """The sdist and the wheel (the wheel built from the sdist, as pip would from PyPI).

    `uv build`, not `python -m build`: both make the same two files through setuptools
    in an isolated environment, but uv takes its setuptools from its cache, 4.5 s here
    against 8.8 s for build's pip (measured on the 2-core machine); uv is already the
    project's installer. The README tells users `python -m build` (the test extra has it).
    """
    source = _sources(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([_uv(), "build", "--quiet", "--python", sys.executable, "--sdist",
                    "--wheel", "--out-dir", str(out), str(source)], check=True, cwd=source)
    return Built(sdist=out / f"gammon-{VERSION}.tar.gz",
                 wheel=out / f"gammon-{VERSION}-py3-none-any.whl")


@dataclass(frozen=True)
class Fresh:
    """A virtual environment with the wheel alone installed, and a cwd outside the
    checkout, with none of the checkout's Python settings (PYTHONPATH...)."""

    venv: Path
    cwd: Path

    @property
    def env(self) -> dict[str, str]:
        kept = {key: value for key, value in os.environ.items()
                if not key.startswith(("PYTHON", "VIRTUAL_ENV", "NUMBA_", "GAMMON_"))}
        bin_dir = str(self.venv / "bin")
        return {**kept, "VIRTUAL_ENV": str(self.venv),
                "PATH": os.pathsep.join([bin_dir, kept.get("PATH", "")])}

    def command(self, name: str) -> str:
        return str(self.venv / "bin" / name)

    def run(self, *args: str, timeout: float = 240) -> str:
        done = subprocess.run([self.command(args[0]), *args[1:]], cwd=self.cwd, env=self.env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=timeout)
        assert done.returncode == 0, f"{args}: exit {done.returncode}\n{done.stdout}{done.stderr}"
        return done.stdout

    def install(self, requirement: str) -> None:
        subprocess.run([_uv(), "pip", "install", "--quiet", "--python",
                        self.command("python"), requirement], check=True, cwd=self.cwd,
                       env=self.env)


@pytest.fixture(scope="module")
def fresh(built, tmp_path_factory) -> Fresh:
    """The wheel in a new virtual environment (uv installs its dependencies from its
    cache), without the extras: the commands need none."""
    root = tmp_path_factory.mktemp("fresh")
    venv, cwd = root / "venv", root / "cwd"
    cwd.mkdir()
    subprocess.run([_uv(), "venv", "--quiet", "--python", sys.executable, str(venv)],
                   check=True, cwd=cwd)
    made = Fresh(venv=venv, cwd=cwd)
    made.install(str(built.wheel))
    return made


@pytest.mark.slow
def test_the_wheel_holds_the_package_its_data_and_nothing_else(built):
    with zipfile.ZipFile(built.wheel) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(f"gammon-{VERSION}.dist-info/METADATA").decode()
    info = f"gammon-{VERSION}.dist-info/"
    assert all(name.startswith(("gammon/", info)) for name in names), \
        sorted(name for name in names if not name.startswith(("gammon/", info)))
    # Every file of the package in the checkout: modules, networks, static files, data.
    tracked = subprocess.run(["git", "ls-files", "gammon"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    assert set(tracked) - names == set()
    for name in ("gammon/py.typed", "gammon/nn/weights/backgammon.npz",
                 "gammon/nn/weights/backgammon.json", "gammon/web/static/lobby.html",
                 "gammon/web/static/table.js", "gammon/web/static/i18n/ru.json",
                 "gammon/evaluators/data/hypergammon-2.npz",
                 "gammon/stakes/data/kazaross-xg2.json", "gammon/web/data/bot_ratings.json"):
        assert name in names
    pages = {f"gammon/docs/rules/{page.name}" for page in (ROOT / "docs" / "rules").glob("*.md")}
    assert "gammon/docs/rules/backgammon.md" in pages and pages <= names
    assert f"\nVersion: {VERSION}\n" in metadata and "Provides-Extra: rl" in metadata
    with tarfile.open(built.sdist) as sdist:
        inside = {name.partition("/")[2] for name in sdist.getnames()}
    assert {"pyproject.toml", "setup.py", "README.md", "CHANGELOG.md",
            "docs/rules/backgammon.md", "gammon/__init__.py"} <= inside
    assert not any(name.startswith(("tests/", "benchmarks/", "examples/")) for name in inside)


@pytest.mark.slow
def test_the_fresh_environment_reads_gammon_and_its_pages_from_the_install(fresh):
    assert fresh.run("gammon", "--version") == f"gammon {VERSION}\n"
    where = fresh.run("python", "-c", "import gammon; from gammon.core.pages import "
                      "rules_pages; print(gammon.__file__); print(rules_pages()['stakes'])")
    package, page = (Path(line) for line in where.split())
    assert package.is_relative_to(fresh.venv) and page.is_relative_to(fresh.venv)
    assert page.parent.parts[-3:] == ("gammon", "docs", "rules")


@pytest.mark.slow
def test_hint_rates_the_plays_on_the_shipped_network(fresh):
    # The first command compiles the kernels it needs (half a minute on a fresh install).
    plays = json.loads(fresh.run("gammon", "hint", START_ID, "--dice", "31", "--plies", "0",
                                 "--json"))
    assert len(plays) == 16 and plays[0]["play"] == "8/5 6/5"
    assert all(len(play["probs"]) == 5 for play in plays)


@pytest.mark.slow
def test_play_seats_bots_alone_to_the_end_of_a_game(fresh):
    text = fresh.run("gammon", "play", "hypergammon", "--seats", "neural:0,random",
                     "--seed", "1")
    assert "wins" in text


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, ""


@pytest.mark.slow
def test_serve_answers_the_lobby_its_static_files_and_a_rules_page(fresh):
    port = _free_port()
    log = fresh.cwd / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [fresh.command("gammon"), "serve", "--port", str(port), "--database",
             f"sqlite:///{fresh.cwd / 'tables.db'}"],
            cwd=fresh.cwd, env=fresh.env, stdin=subprocess.DEVNULL, stdout=out,
            stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            with contextlib.suppress(OSError):
                status, lobby = _get(f"{base}/")
                break
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.5)
        assert status == 200 and "lobby.js" in lobby
        assert _get(f"{base}/static/lobby.js")[0] == 200
        assert _get(f"{base}/static/i18n/en.json")[0] == 200
        status, page = _get(f"{base}/rules/backgammon")
        assert status == 200 and "**BG-" in page
        assert _get(f"{base}/rules/nosuch")[0] == 404
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


ENVS = """
import gymnasium
import gammon.envs
from gammon.envs import env

game = env("hypergammon")
game.reset(seed=1)
steps = 0
for agent in game.agent_iter(max_iter=12):
    obs, reward, done, cut, info = game.last()
    game.step(None if done or cut else 0)
    steps += 1
single = gymnasium.make("gammon/Hypergammon-v0", opponents="random")
single.reset(seed=1)
for _ in range(5):
    obs, reward, done, cut, info = single.step(0)
    if done or cut:
        single.reset()
print(steps, single.action_space)
"""


@pytest.mark.slow
def test_the_environments_step_with_the_rl_extra(fresh, built):
    fresh.install(f"{built.wheel}[rl]")
    steps, space = fresh.run("python", "-c", ENVS).split(maxsplit=1)
    assert steps == "12" and space.startswith("Discrete(")
