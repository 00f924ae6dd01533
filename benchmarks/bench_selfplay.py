"""Network self-play speed: gammon's compiled TD(lambda) self-play against gnubg's own
0-ply self-play, in the same run on the same machine.

    .venv/bin/python benchmarks/bench_selfplay.py [--seconds 10] [--json]

gammon: :meth:`gammon.training.train.Trainer.play_compiled` on two networks, each on its own:
a copy of the shipped backgammon network (256 hidden units, with the contact features)
and a network of ``gammon train``'s default size (128 hidden units, the raw inputs,
after 2,000 games of learning):
every play chosen by the network over all legal plays, and a gradient step after each
game; games per second over ``--seconds`` after a warm-up (numba's compilation is not
counted). gnubg: a cubeless rollout of the starting
position at 0 ply with no truncation and no variance reduction, one thread
(``benchmarks/gnubg_scripts/selfplay_speed.py``): gnubg playing whole games against
itself with its own network. Both run one after the other on one core each; the ratio
is gammon's games per second over gnubg's. Target: above 1.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from threadpoolctl import threadpool_limits  # noqa: E402

import gammon  # noqa: E402
from gammon.agents.gnubg import gnubg_path  # noqa: E402
from gammon.nn import load_network  # noqa: E402
from gammon.training.train import Settings, Trainer  # noqa: E402

SCRIPT = Path(__file__).resolve().parent / "gnubg_scripts" / "selfplay_speed.py"


def ours(seconds: float, shipped: bool) -> tuple[int, float]:
    rules = gammon.variant("backgammon")
    settings = Settings(rules.name, rules.options())
    trainer = Trainer(settings, load_network(rules).copy() if shipped else None)
    # Compile (or load numba's cache); a fresh network first learns for 2,000 games,
    # so that it plays games of a sensible length, as a trained one does.
    trainer.play_compiled(5 if shipped else 2000)
    games, began = 0, time.perf_counter()
    while time.perf_counter() - began < seconds:
        trainer.play_compiled(50)
        games += 50
    return games, time.perf_counter() - began


def gnubg(seconds: float) -> tuple[int, float]:
    path = gnubg_path()
    if path is None:
        sys.exit("gnubg is not installed (make test installs it)")
    trials = max(100, int(300 * seconds))
    env = dict(os.environ, GAMMON_TRIALS=str(trials))
    run = subprocess.run([path, "-q", "-t", "-p", str(SCRIPT)], env=env, capture_output=True,
                         text=True, check=True)
    line = next(x for x in run.stderr.splitlines() if x.startswith("RESULT"))
    _, games, elapsed = line.split()
    return int(games), float(elapsed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    with threadpool_limits(limits=1):
        shipped_games, shipped_time = ours(args.seconds, shipped=True)
        our_games, our_time = ours(args.seconds, shipped=False)
    their_games, their_time = gnubg(args.seconds)
    shipped = shipped_games / shipped_time
    mine, theirs = our_games / our_time, their_games / their_time
    figures = {"shipped_games_per_s": round(shipped, 1), "gammon_games_per_s": round(mine, 1),
               "gnubg_games_per_s": round(theirs, 1), "shipped_ratio": round(shipped / theirs, 2),
               "ratio": round(mine / theirs, 2), "gammon_games": our_games,
               "gnubg_games": their_games}
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"gammon compiled self-play with learning, shipped network (256 hidden, "
              f"contact features): {shipped:,.0f} games/s ({shipped_games:,} games in "
              f"{shipped_time:.1f} s)")
        print(f"gammon compiled self-play with learning, gammon train's default (128 "
              f"hidden): {mine:,.0f} games/s ({our_games:,} games in {our_time:.1f} s)")
        print(f"gnubg 0-ply self-play (rollout): {theirs:,.0f} games/s "
              f"({their_games:,} games in {their_time:.1f} s)")
        print(f"ratios: shipped {shipped / theirs:.2f}x, default {mine / theirs:.2f}x "
              "(target > 1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
