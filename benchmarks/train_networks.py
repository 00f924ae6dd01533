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
GAMMON = Path(sys.executable).parent / "gammon"

#: Each network: its name (a variant or preset), the self-play games it trains to, and
#: the settings of ``gammon train`` that differ from the defaults.
NETWORKS: dict[str, tuple[int, list[str]]] = {
    "backgammon": (200_000, ["--check-every", "20000", "--check-games", "400"]),
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
    "acedrex": (4_000, ["--hidden", "64", "--check-every", "1000", "--check-games", "40"]),
}


def trained_games(path: Path) -> int:
    if not path.exists():
        return 0
    sys.path.insert(0, str(ROOT))
    from gammon.nn.network import Network

    return int(Network.load(path).meta.get("games", 0))


#: Networks trained on after their first stretch, each further stretch to more games
#: at a lower learning rate (a resumed run's settings but the rate stay as they were).
LATER: dict[str, list[tuple[int, list[str]]]] = {
    "backgammon": [(300_000, ["--rate", "0.002", "--check-every", "50000"]),
                   (400_000, ["--rate", "0.001", "--check-every", "100000"]),
                   (1_000_000, ["--rate", "0.001", "--check-every", "200000"])],
    "acey-deucey-restrictive": [(30_000, ["--rate", "0.002", "--check-every", "3000"])],
    "hypergammon-2": [(500_000, ["--rate", "0.001", "--check-every", "100000"])],
    "hypergammon-3": [(500_000, ["--rate", "0.001", "--check-every", "100000"])],
}


def train(name: str) -> str:
    out = WEIGHTS / f"{name}.npz"
    log = CURVES / f"{name}.log"
    for games, extra in [NETWORKS[name], *LATER.get(name, [])]:
        done = trained_games(out)
        if done >= games:
            continue
        command = [str(GAMMON), "train", name, "--games", str(games), "--out", str(out),
                   "--plot", str(CURVES / f"{name}.png"), *extra]
        if done:
            command += ["--resume", str(out)]
        with log.open("a") as file:
            result = subprocess.run(command, stdout=file, stderr=subprocess.STDOUT,
                                    env={"OPENBLAS_NUM_THREADS": "1", "PATH": "/usr/bin:/bin",
                                         "COLUMNS": "100"})
        if result.returncode:
            return f"{name}: exit {result.returncode} (log {log.relative_to(ROOT)})"
    return f"{name}: trained to {trained_games(out):,} games (log {log.relative_to(ROOT)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="networks to train (default: all)")
    parser.add_argument("--jobs", type=int, default=1, help="networks trained side by side")
    parser.add_argument("--list", action="store_true", help="list the networks and stop")
    args = parser.parse_args(argv)
    names = args.names or list(NETWORKS)
    unknown = [n for n in names if n not in NETWORKS]
    if unknown:
        parser.error(f"unknown networks {unknown}; known: {', '.join(NETWORKS)}")
    if args.list:
        for name in names:
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
