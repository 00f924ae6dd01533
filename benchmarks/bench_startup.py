"""How long a person waits for the first board: ``gammon play`` started cold (numba's
cache empty, as on a fresh install before ``gammon prepare``) and warm (the cache
filled, as ``make play`` leaves it), and how long ``gammon prepare`` itself takes.

Each run is a fresh process that plays the first decision of a game and quits, so the
times include Python's start, the imports and the loading (or compiling) of the kernels.
The cold runs use an empty ``NUMBA_CACHE_DIR`` of their own; the warm ones reuse the
cache that ``gammon prepare`` filled. The ratio cold/warm is what ``prepare`` saves.

Usage::

    python benchmarks/bench_startup.py                  # backgammon, 3 runs each
    python benchmarks/bench_startup.py --runs 5 long-nardy multi-gam
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMMON = [sys.executable, "-m", "gammon"]


def timed(args: list[str], cache: Path, stdin: str = "") -> float:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    started = time.perf_counter()
    subprocess.run(args, input=stdin, text=True, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def first_board(variant: str, cache: Path) -> float:
    """A game to its first decision, one play typed (1), then quit."""
    return timed([*GAMMON, "play", variant, "--seed", "3"], cache, stdin="1\n1\nquit\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", default=["backgammon"])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gammon-startup-"))
    try:
        warm_cache = root / "warm"
        prepare = timed([*GAMMON, "prepare"], warm_cache)
        print(f"gammon prepare, every variant, cold cache: {prepare:.1f} s")
        print(f"{'variant':<14} {'cold s':>8} {'warm s':>8} {'cold/warm':>10}")
        for variant in args.variants:
            cold, warm = [], []
            for run in range(args.runs):
                cold.append(first_board(variant, root / f"cold-{variant}-{run}"))
                warm.append(first_board(variant, warm_cache))
            c, w = statistics.median(cold), statistics.median(warm)
            print(f"{variant:<14} {c:>8.2f} {w:>8.2f} {c / w:>9.1f}x")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
