"""Scale-out: the same seed gives the same numbers in this process, in local processes
and on Ray (a local instance, ``ray.init(num_cpus=2)``), for duels, rollouts, random
self-play and data-parallel training; and the CLI reads ``--ray`` with or without its
address."""

from __future__ import annotations

import json
import random
import sys

import numpy as np
import pytest
from typer.testing import CliRunner

import gammon
from gammon.agents import duel
from gammon.agents.parallel import run_tasks, task_seed
from gammon.agents.playouts import CHUNK, random_games
from gammon.analysis.cli import network_evaluator
from gammon.analysis.hint import rate_plays
from gammon.analysis.rollout import rollout
from gammon.cli.main import app, ray_argv
from gammon.core.errors import InvalidOptionError
from gammon.nn.network import Network
from gammon.training.train import Rounds, Settings, Trainer

runner = CliRunner()
HYPER = "hypergammon-2"


@pytest.fixture(scope="module")
def ray_local():
    """One local Ray instance for the module: every ``ray=...`` below joins it (Ray is
    started only where it is not running yet)."""
    ray = pytest.importorskip("ray")  # the test extra installs it
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    yield "local"
    ray.shutdown()


def _key(result):
    return [(r.index, r.seating, r.returns, r.decisions, r.finished) for r in result.results]


def test_tasks_come_back_in_order_on_every_backend(ray_local):
    arguments = list(range(7))
    expected = [task_seed(a) for a in arguments]
    seen: list[int] = []
    assert run_tasks(task_seed, arguments) == expected
    assert run_tasks(task_seed, arguments, jobs=2) == expected
    assert run_tasks(task_seed, arguments, ray=ray_local,
                     done=lambda i, _: seen.append(i)) == expected
    assert sorted(seen) == arguments
    # Shared data reaches every task.
    assert run_tasks(task_seed, [1, 2], ray=ray_local, shared=5) == [task_seed(5, 1),
                                                                     task_seed(5, 2)]


def test_a_duel_is_the_same_locally_and_on_ray(ray_local):
    local = duel(HYPER, ["heuristic", "random"], 8, seed=3, jobs=2)
    remote = duel(HYPER, ["heuristic", "random"], 8, seed=3, ray=ray_local)
    assert _key(local) == _key(remote)
    assert local.agents[0].points == remote.agents[0].points
    assert local.margin == remote.margin
    assert remote.backend.startswith("Ray") and local.backend == "2 processes"


def test_selfplay_is_the_same_on_every_backend(ray_local):
    rules = gammon.variant(HYPER)
    games = CHUNK + 300  # two chunks, the second with a seed of its own
    one = random_games(rules, games, 4, 10_000)
    assert np.array_equal(one, random_games(rules, games, 4, 10_000, jobs=2))
    assert np.array_equal(one, random_games(rules, games, 4, 10_000, ray=ray_local))
    # Up to a chunk, the games are those of one seeded call of the compiled playouts.
    assert np.array_equal(one[:CHUNK], rules.random_playouts(CHUNK, 4, 10_000))


def test_a_rollout_is_the_same_locally_and_on_ray(ray_local):
    evaluator = network_evaluator(gammon.variant(HYPER), None)
    rules = evaluator.variant
    start = rules.initial_state()
    while start.is_chance:
        start = start.apply(start.sample_chance(random.Random(3)))
    starts = [(r.text, start.apply(r.action)) for r in rate_plays(start, evaluator)[:2]]
    local = rollout(rules, evaluator, starts, start.position.turn, 12, seed=5, jobs=2)
    remote = rollout(rules, evaluator, starts, start.position.turn, 12, seed=5,
                     ray=ray_local)
    assert local == remote


def _weights(trainer: Trainer) -> list[np.ndarray]:
    net = trainer.network
    return [net.w1.copy(), net.b1.copy(), net.w2.copy(), net.b2.copy()]


def test_data_parallel_training_gives_the_same_weights_everywhere(ray_local):
    rules = gammon.variant(HYPER)
    settings = Settings(rules.name, rules.options(), hidden=8, seed=7)
    before = _weights(Trainer(settings))
    ends = []
    for jobs, ray in ((1, None), (2, None), (1, ray_local)):
        trainer = Trainer(settings, rounds=Rounds(shards=3, games=2, jobs=jobs, ray=ray))
        trainer.advance(6)  # a full round
        trainer.advance(4)  # a short one, shared out over the shards alike
        assert trainer.games == 10
        ends.append(_weights(trainer))
    for end in ends[1:]:
        assert all(np.array_equal(a, b) for a, b in zip(ends[0], end, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(before, ends[0], strict=True))


def test_data_parallel_training_needs_the_compiled_self_play():
    with pytest.raises(InvalidOptionError, match="compiled self-play"):
        Trainer(Settings("multi-gam", hidden=4), rounds=Rounds(2, 1))


def test_the_ray_flag_takes_an_optional_address():
    assert ray_argv(["duel", "--ray"]) == ["duel", "--ray", "local"]
    assert ray_argv(["duel", "--ray", "--games", "3"]) == ["duel", "--ray", "local",
                                                          "--games", "3"]
    assert ray_argv(["duel", "--ray", HYPER]) == ["duel", "--ray", "local", HYPER]
    for address in ("auto", "local", "ray://head:10001", "127.0.0.1:6379", "head:6379"):
        assert ray_argv(["duel", "--ray", address]) == ["duel", "--ray", address]
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"
    assert ray_argv(["rollout", "--ray", xgid]) == ["rollout", "--ray", "local", xgid]
    assert ray_argv(["duel", "--", "--ray"]) == ["duel", "--", "--ray"]


def test_the_cli_runs_on_ray(ray_local, tmp_path):
    base = ["duel", HYPER, "--games", "4", "--seed", "2", "--json"]
    local = json.loads(runner.invoke(app, [*base, "--jobs", "2"]).output)
    for flag in (["--ray"], ["--ray", "auto"]):  # Ray is running: --ray joins it
        result = runner.invoke(app, [*base, *flag])
        assert result.exit_code == 0, result.output
        remote = json.loads(result.output)
        assert remote["agents"][0]["points"] == local["agents"][0]["points"]
        assert remote["margin"] == local["margin"]
    # --ray alone before the variant's name.
    result = runner.invoke(app, ["duel", "--ray", HYPER, "--games", "4", "--seed", "2",
                                 "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["margin"] == local["margin"]
    play = ["selfplay", HYPER, "--games", "300", "--seed", "4", "--json"]
    one = json.loads(runner.invoke(app, play).output)
    on_ray = json.loads(runner.invoke(app, [*play, "--ray"]).output)
    assert one["players"] == on_ray["players"] and one["mean_plays"] == on_ray["mean_plays"]
    # Training in rounds: the weights of --shards alone (this process) are Ray's.
    nets = []
    for name, flag in (("here", []), ("ray", ["--ray"])):
        out = tmp_path / f"{name}.npz"
        result = runner.invoke(app, ["train", HYPER, "--games", "6", "--hidden", "4",
                                     "--check-every", "0", "--shards", "3",
                                     "--shard-games", "2", "--out", str(out), *flag])
        assert result.exit_code == 0, result.output
        nets.append(Network.load(out))
    assert np.array_equal(nets[0].w1, nets[1].w1) and np.array_equal(nets[0].b2, nets[1].b2)
    assert nets[1].meta["stretches"][-1]["rounds"] == {"shards": 3, "games": 2}


def test_without_ray_the_message_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` fails
    with pytest.raises(InvalidOptionError, match=r"pip install 'gammon\[ray\]'"):
        duel(HYPER, ["heuristic", "random"], 2, ray="local")
    result = runner.invoke(app, ["duel", HYPER, "--games", "2", "--ray"])
    assert result.exit_code == 2 and "pip install" in result.output


# --- joining a cluster by its address (issue 32) --------------------------------------------


@pytest.mark.parametrize("address", ["garbage", ":6379", "head:port", "a b:6379", "h/x:1"])
def test_a_malformed_address_says_what_an_address_is(address):
    from gammon.agents.parallel import check_address

    with pytest.raises(InvalidOptionError, match="--ray takes auto, HOST:PORT"):
        check_address(address)
    result = runner.invoke(app, ["duel", HYPER, "--games", "2", f"--ray={address}"])
    assert result.exit_code == 2 and "--ray takes auto" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("address", ["ray://head:10001", "ray://:1"])
def test_rays_client_is_refused_clearly(address):
    """`--ray ray://HOST:10001` needed ray[client], which gammon[ray] does not install
    (and the head serves Ray Client only with it): it is refused, saying what to use."""
    result = runner.invoke(app, ["duel", HYPER, "--games", "2", "--ray", address])
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert "Ray Client (ray://) is not supported" in text and "--ray HEAD:6379" in text


@pytest.fixture
def listener():
    """What listens on a free port of this machine: nothing, a socket that never answers,
    or an HTTP server (which answers, but not as Ray): ``listener(kind) -> port``."""
    import http.server
    import socket
    import threading

    servers: list = []

    def start(kind: str) -> int:
        if kind == "http":
            server = http.server.HTTPServer(("127.0.0.1", 0),
                                            http.server.BaseHTTPRequestHandler)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            servers.append(server)
            return int(server.server_address[1])
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
        if kind == "closed":
            sock.close()
        else:
            sock.listen()  # the kernel accepts connections; nobody ever answers them
            servers.append(sock)
        return port

    yield start
    for server in servers:
        if isinstance(server, http.server.HTTPServer):
            server.shutdown()
            server.server_close()
        else:
            server.close()


@pytest.mark.parametrize(("kind", "why"), [
    ("closed", "Connection refused"),
    ("silent", "a connection, but no answer as a Ray head"),
    ("http", "something answers there, but not as a Ray head"),
])
def test_a_wrong_address_fails_within_seconds(listener, kind, why):
    """`--ray 127.0.0.1:9999` waited ten minutes; so did an address where something other
    than a Ray head listens (Ray waits for a gRPC answer). Both are said within seconds
    (run in its own process: this module's Ray may be running here)."""
    import subprocess
    import time

    port = listener(kind)
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "gammon", "duel", HYPER, "--games", "2",
                           "--ray", f"127.0.0.1:{port}"], capture_output=True, text=True,
                          timeout=120)
    took = time.perf_counter() - began
    text = " ".join(done.stderr.split())
    assert done.returncode == 2, done.stderr[-2000:]
    assert f"no Ray head at 127.0.0.1:{port} ({why}" in text and "ray start --head" in text
    assert took < 30


@pytest.mark.slow  # about 40 s: the head starts, then the duel joins it
def test_a_duel_joins_a_cluster_started_by_ray_start_at_its_address():
    """`ray start --head` in a process of its own (token authentication on, as Ray makes
    it since 2.59), then a duel given its address: it joins with this machine's token and
    gives the numbers of a local run."""
    import os
    import shutil
    import signal
    import socket
    import subprocess
    import tempfile
    import time
    from pathlib import Path

    ray_cli = shutil.which("ray", path=str(Path(sys.executable).parent))
    assert ray_cli is not None, "the test extra installs Ray, and its ray command with it"
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="gr", dir="/tmp")  # Ray's socket paths are short
    head = subprocess.Popen([ray_cli, "start", "--head", "--block", f"--port={port}",
                             "--num-cpus=1", "--include-dashboard=false",
                             "--disable-usage-stats", f"--temp-dir={folder}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.time() + 90
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(1)
        time.sleep(3)  # the head's services behind its port
        base = ["duel", HYPER, "--games", "4", "--seed", "2", "--json"]
        done = subprocess.run([sys.executable, "-m", "gammon", *base, "--ray",
                               f"127.0.0.1:{port}"], capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        local = json.loads(runner.invoke(app, base).output)
        assert json.loads(done.stdout)["margin"] == local["margin"]
    finally:
        try:
            os.killpg(head.pid, signal.SIGTERM)
            head.wait(timeout=60)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(head.pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)
