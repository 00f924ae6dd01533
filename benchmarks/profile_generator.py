"""Where the compiled random games spend their time: the move generator by kind of roll.

The vector environment's step and a variant's compiled random playouts are almost all
move generation (``cProfile`` of ``benchmarks/bench_vector.py``'s loop puts 97% of the
time inside the compiled ``step``; the playouts are the generator plus a die and a
choice). Neither cProfile nor a sampling profiler sees inside numba's code, so this script
times :func:`gammon.kernels.tracks.generate_plays` itself on positions met in random
games of a variant, split into doubles and other rolls, with the variant's rules and with
the hitter rules (no hit-and-hide, the hitter not borne off) switched off, which is what
sends a double's search through every order of its moves. CPU time of this process,
so the figures are one core's even on a busy machine.

Usage::

    python benchmarks/profile_generator.py caucasian backgammon
    python benchmarks/profile_generator.py --positions 8000 short
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np

import gammon
from gammon.kernels import tracks


def positions(rules: Any, count: int, seed: int) -> list[tuple[np.ndarray, int, int, int]]:
    """``count`` decisions met in random games of ``rules`` (board, player, dice)."""
    rng = random.Random(seed)
    found: list[tuple[np.ndarray, int, int, int]] = []
    while len(found) < count:
        state = rules.initial_state()
        while not state.is_terminal and len(found) < count:
            if state.is_chance:
                state = state.apply(state.sample_chance(rng))
                continue
            if len(state.dice) == 2:  # a roll to play (acey-deucey also asks other things)
                board = np.frombuffer(state.position.board, np.int8).copy()
                found.append((board, state.position.turn, state.dice[0], state.dice[1]))
            state = state.apply(rng.choice(list(state.legal_actions())))
    return found


def generator_seconds(cases: list[tuple[np.ndarray, int, int, int]], rules: np.ndarray,
                      plays: np.ndarray, words: np.ndarray, repeats: int) -> float:
    """CPU seconds of one pass of the generator over ``cases`` (best of ``repeats``)."""
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        for board, player, die1, die2 in cases:
            limit = tracks.head_limit(board, player, die1, die2, rules)
            tracks.generate_plays(board, player, die1, die2, limit, rules, plays, words)
        best = min(best, time.process_time() - started)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", default=["caucasian", "backgammon"])
    parser.add_argument("--positions", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    for name in args.variants:
        variant = gammon.variant(name)
        plays, words = variant.kernel.workspace()
        rules = variant.kernel.rules
        without = rules.copy()
        without[tracks.R_NO_HIT_AND_HIDE] = 0
        without[tracks.R_NO_HITTER_OFF] = 0
        found = positions(variant, args.positions, args.seed)
        generator_seconds(found[:20], rules, plays, words, 1)  # compile or load the cache
        generator_seconds(found[:20], without, plays, words, 1)
        doubles = [case for case in found if case[2] == case[3]]
        others = [case for case in found if case[2] != case[3]]
        total = 0.0
        rows = []
        for kind, cases in (("doubles", doubles), ("other rolls", others)):
            own = generator_seconds(cases, rules, plays, words, args.repeats)
            lifted = generator_seconds(cases, without, plays, words, args.repeats)
            total += own
            rows.append((kind, len(cases), own, lifted))
        for kind, count, own, lifted in rows:
            print(f"{name}: {kind}: {count} decisions, {own / count * 1e6:.1f} us each "
                  f"({own / total:.0%} of the generator's time); hitter rules off "
                  f"{lifted / count * 1e6:.1f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
