"""Train every network that ships with gammon, resumably.

Each network is trained by the ``gammon train`` command into
``gammon/nn/weights/NAME.npz`` (with ``NAME.json`` beside it: how it was made, the
commands, the learning curve), its learning curve drawn in ``docs/networks/NAME.png``.
A network already trained as far as its target is skipped; one part trained goes on
from where it stopped (``--resume``). Stop the script at any time and run it again.

Usage::

    .venv/bin/python benchmarks/train_networks.py              # all of them, one at a time
    .venv/bin/python benchmarks/train_networks.py --jobs 2 short caucasian
    .venv/bin/python benchmarks/train_networks.py --list
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS = ROOT / "gammon" / "nn" / "weights"
CURVES = ROOT / "docs" / "networks"
#: The ``gammon`` command of this checkout (run as a module from its root, so that a
#: second worktree trains with its own code, not the one the environment installed).
GAMMON = [sys.executable, "-m", "gammon"]

#: Each network: its name (a variant or preset), the self-play games it trains to, and
#: the settings of ``gammon train`` that differ from the defaults.
NETWORKS: dict[str, tuple[int, list[str]]] = {
    "nackgammon": (100_000, []),
    "hypergammon-1": (20_000, ["--hidden", "64"]),
    "hypergammon-2": (300_000, ["--check-every", "100000", "--check-games", "400"]),
    "hypergammon-3": (300_000, ["--check-every", "100000", "--check-games", "400"]),
    "short": (100_000, []),
    "caucasian": (100_000, []),
    "long-nardy": (100_000, []),
    "multi-gam": (60_000, ["--hidden", "64"]),
    "acey-deucey": (15_000, []),
    "acey-deucey-restrictive": (15_000, []),
    "portes": (100_000, []),
    "tavla": (100_000, []),
    "fevga": (100_000, []),
    "moultezim": (200_000, []),
    "gul-bara": (100_000, []),
    "plakoto": (100_000, []),
    "tapa": (100_000, []),
    # A correction to the heuristic (docs/networks.md): 200 games at a small rate, the
    # best of its checks (at 300 it lost more).
    "acedrex": (200, ["--hidden", "64", "--rate", "0.00002", "--check-every", "100",
                      "--check-games", "40"]),
}


#: Networks trained on a teacher's evaluations (``gammon train --teacher``, see
#: docs/networks.md): the epochs they fit for, and the rest of the command. The
#: positions and labels are kept next to the network while it trains (NAME.data.npz,
#: ignored by git), so a stopped run resumes without asking gnubg again.
TEACHER: dict[str, tuple[int, list[str]]] = {
    "backgammon": (40, ["--teacher", "gnubg:0", "--contact", "--hidden", "256",
                        "--games", "40000", "--teacher-processes", "48"]),
    # Networks by kind of position (docs/networks.md): the main network's weights fitted
    # to gnubg 2-ply's evaluations of the races (or crashed positions) of its own games.
    "backgammon.race": (20, ["--teacher", "gnubg:2", "--kind", "race", "--init",
                             str(WEIGHTS / "backgammon.npz"), "--games", "20000",
                             "--rate", "0.0002", "--seed", "2026",
                             "--teacher-processes", "2"]),
    "backgammon.crashed": (20, ["--teacher", "gnubg:2", "--kind", "crashed", "--init",
                                str(WEIGHTS / "backgammon.npz"), "--games", "20000",
                                "--rate", "0.0002", "--seed", "2027",
                                "--teacher-processes", "2"]),
    # The pruning network (docs/networks.md): 32 units on the raw inputs, taught by the
    # shipped networks above; a search values only each roll's best few plays by it.
    "backgammon.prune": (14, ["--prune", "--hidden", "32", "--games", "15000",
                              "--rate", "0.003", "--seed", "2028"]),
}


def trained_games(path: Path) -> int:
    if not path.exists():
        return 0
    sys.path.insert(0, str(ROOT))
    from gammon.nn.network import Network

    return int(Network.load(path).meta.get("games", 0))


def fitted_epochs(path: Path) -> int:
    if not path.exists():
        return 0
    sys.path.insert(0, str(ROOT))
    from gammon.nn.network import Network

    return int(Network.load(path).meta.get("teacher", {}).get("epochs_done", 0))


def run(name: str, command: list[str]) -> int:
    log = CURVES / f"{name}.log"
    with log.open("a") as file:
        return subprocess.run(command, stdout=file, stderr=subprocess.STDOUT, cwd=ROOT,
                              env={"OPENBLAS_NUM_THREADS": "1", "PATH": "/usr/bin:/bin",
                                   "COLUMNS": "100"}).returncode


#: Networks trained on after their first stretch, each further stretch to more games
#: at a lower learning rate (a resumed run's settings but the rate stay as they were).
LATER: dict[str, list[tuple[int, list[str]]]] = {
    "acey-deucey-restrictive": [(30_000, ["--rate", "0.002", "--check-every", "3000"])],
    "hypergammon-2": [(500_000, ["--rate", "0.001", "--check-every", "100000"])],
    "hypergammon-3": [(500_000, ["--rate", "0.001", "--check-every", "100000"])],
    # Issue 48: its curve was still rising at 200,000 games.
    "moultezim": [(400_000, ["--rate", "0.002", "--check-every", "20000"])],
}


def train(name: str) -> str:
    out = WEIGHTS / f"{name}.npz"
    log = (CURVES / f"{name}.log").relative_to(ROOT)
    plot = ["--out", str(out), "--plot", str(CURVES / f"{name}.png")]
    if name in TEACHER:
        epochs, extra = TEACHER[name]
        if fitted_epochs(out) < epochs:
            resume = ["--resume", str(out)] if out.with_suffix(".data.npz").exists() else []
            if resume:  # the run goes on from its own weights
                at = extra.index("--init") if "--init" in extra else len(extra)
                extra = extra[:at] + extra[at + 2:]
            variant = name.split(".")[0]  # NAME.KIND: a network of a kind of NAME's
            code = run(name, [*GAMMON, "train", variant, "--epochs", str(epochs), *plot,
                              *extra, *resume])
            if code:
                return f"{name}: exit {code} (log {log})"
        return f"{name}: fitted for {fitted_epochs(out)} epochs (log {log})"
    for games, extra in [NETWORKS[name], *LATER.get(name, [])]:
        done = trained_games(out)
        if done >= games:
            continue
        command = [*GAMMON, "train", name, "--games", str(games), *plot, *extra]
        if done:
            command += ["--resume", str(out)]
        code = run(name, command)
        if code:
            return f"{name}: exit {code} (log {log})"
    return f"{name}: trained to {trained_games(out):,} games (log {log})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="networks to train (default: all)")
    parser.add_argument("--jobs", type=int, default=1, help="networks trained side by side")
    parser.add_argument("--list", action="store_true", help="list the networks and stop")
    args = parser.parse_args(argv)
    known = [*TEACHER, *NETWORKS]
    names = args.names or known
    unknown = [n for n in names if n not in known]
    if unknown:
        parser.error(f"unknown networks {unknown}; known: {', '.join(known)}")
    if args.list:
        for name in names:
            if name in TEACHER:
                epochs, extra = TEACHER[name]
                done = fitted_epochs(WEIGHTS / f"{name}.npz")
                print(f"{name:26} {done:>8,} / {epochs:,} epochs {' '.join(extra)}")
                continue
            games, extra = ([NETWORKS[name], *LATER.get(name, [])])[-1]
            done = trained_games(WEIGHTS / f"{name}.npz")
            print(f"{name:26} {done:>8,} / {games:,} games  {' '.join(extra)}")
        return 0
    CURVES.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(args.jobs) as pool:
        for line in pool.map(train, names):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
