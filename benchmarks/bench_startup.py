"""How long a person waits for the first board, as ``make play`` runs it on a fresh
install: ``gammon prepare backgammon`` (the first game's kernels, compiled into an empty
numba cache) and then ``gammon play`` to its first decision; the same game started again
with the cache filled (a warm start); and the first move of the default bot in a fresh
process (imports, network and search included). Also how long ``gammon prepare`` takes
for every variant, the work ``make play`` leaves to the background.

Each run is a fresh process that plays the first decision of a game and quits, so the
times include Python's start, the imports and the loading (or compiling) of the kernels.
The cold runs use an empty ``NUMBA_CACHE_DIR`` of their own. The ratio cold/warm is what
the first run costs beyond a later one.

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


BOT_MOVE = """
import sys, time
started = time.perf_counter()
import gammon
from gammon.agents import make_agent
from gammon.agents.offered import offered
rules = gammon.variant(sys.argv[1])
bot = make_agent(offered(rules).bots[0], rules, 1)
state = rules.initial_state()
while state.is_chance or len(state.legal_actions()) < 2:
    state = state.apply(state.chance_outcomes()[3][0] if state.is_chance
                        else state.legal_actions()[0])
bot.choose(state)
print(time.perf_counter() - started)
"""


def first_bot_move(variant: str, cache: Path) -> float:
    """A fresh process to the default bot's first decision (as printed by itself)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", BOT_MOVE, variant], env=env, check=True,
                          capture_output=True, text=True)
    return float(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", default=["backgammon"])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gammon-startup-"))
    try:
        everything = timed([*GAMMON, "prepare"], root / "all")
        print(f"gammon prepare, every variant, cold cache: {everything:.1f} s "
              "(make play does this in the background)")
        print(f"{'variant':<14} {'first run s':>12} {'warm s':>8} {'first/warm':>11} "
              f"{'bot move s':>11}")
        for variant in args.variants:
            first, warm, bot = [], [], []
            for run in range(args.runs):
                cache = root / f"cold-{variant}-{run}"
                first.append(timed([*GAMMON, "prepare", variant], cache)
                             + first_board(variant, cache))
                warm.append(first_board(variant, cache))
                bot.append(first_bot_move(variant, cache))
            f, w, b = (statistics.median(x) for x in (first, warm, bot))
            print(f"{variant:<14} {f:>12.1f} {w:>8.2f} {f / w:>10.1f}x {b:>11.2f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
