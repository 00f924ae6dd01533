"""The soak run (``make soak``): millions of random games of every variant, the rules'
invariants checked at every step, and the compiled games replayed through the Python
engine. Zero violations is the target; any violation is a bug to fix.

Per variant, three parts (each a check the test suite runs on fewer games):

- **compiled**: ``--games`` random games in the compiled kernel, in chunks of
  ``--chunk`` with seeds ``seed, seed + 1, ...``, through the compiled checkers of
  ``tests/test_invariants_*.py``: after every move, checkers are conserved, no point
  holds two players' checkers, the variant's own rules hold (head, six-block, hitters,
  acey-deucey's opening, Multi-Gam's ranks), every game ends and scores what the rules
  pages say; the checked loop's results equal the variant's own ``random_playouts``.
  Acedrex's compiled games are checked by their results (every game ends, money sums to
  zero) and by the replays below.
- **python**: ``--python-games`` random games through the Python engine (the game
  protocol), every state checked: each player keeps their checkers, a point holds one
  player's checkers, chance outcomes' probabilities sum to one, a decision has legal
  actions, and the returns of a finished game sum to zero (two players, Acedrex's
  money) or are the places' scores (Multi-Gam). Acedrex's states go through the full
  checker of ``tests/test_invariants_acedrex.py``.
- **replay**: ``--replays`` compiled games, traced, replayed play by play through the
  Python engine: every traced play is legal there and each game ends as the kernel says.

A violation stops its chunk and is recorded with its message. Each variant's result is
kept in ``--out`` (rerun to resume); the table goes to ``docs/soak.md``.

Usage::

    make soak                                       # 10^6 / 10^4 / 1,000 a variant
    .venv/bin/python benchmarks/soak.py --games 20000 --python-games 200 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import gammon  # noqa: E402
from gammon.core.variant import TrackVariant, variant_names  # noqa: E402

#: The tests' names for the variants their compiled checkers know.
TRACK_KEYS = {"hypergammon": "hypergammon-3", "hypergammon-1": "hypergammon-1",
              "hypergammon-2": "hypergammon-2", "hypergammon-3": "hypergammon-3"}
ACEY_KEYS = {"acey-deucey": "standard", "acey-deucey-restrictive": "restrictive"}


# --- the compiled games ---------------------------------------------------------------------


def compiled_chunk(name: str, games: int, seed: int) -> None:
    """``games`` compiled games of ``name`` through its checker; AssertionError if any
    invariant breaks."""
    if name in ACEY_KEYS:
        import test_invariants_acey as acey

        figures = acey.run_checks(acey.RULE_SETS[ACEY_KEYS[name]], games, seed)
        broken = {acey.NAMES[k]: int(figures[k]) for k in range(10) if figures[k]}
        assert not broken, broken
    elif name == "multi-gam":
        import test_invariants_multigam as mg

        from gammon.kernels import multigam as kernel
        from gammon.variants.multigam import SCORES

        rows, trace = kernel.traced(games, mg.MG.start_position().board, mg.MG.kernel.rules,
                                    SCORES, seed)
        mg.test_kernel_invariants_after_every_play((rows, trace))
        assert (rows[:, kernel.WINNER] >= 0).all(), "a game did not end"
    elif name == "acedrex":
        from gammon.kernels import acedrex as kernel

        rows = gammon.variant(name).random_playouts(games, seed, resign_rate=0.002)
        money = rows[:, kernel.C_MONEY:kernel.C_MONEY + 4]
        assert (money.sum(axis=1) == 0).all(), "money that does not sum to zero"
        assert (rows[:, kernel.C_END] >= 0).all(), "a game without an end"
    else:
        import test_invariants_nardy as track

        key = TRACK_KEYS.get(name, name)
        track.check_variant(key, games, seed)


# --- the Python engine ------------------------------------------------------------------------


def check_track_state(rules: TrackVariant, state: Any) -> None:
    position = state.position
    for p in range(rules.players):
        assert sum(position.row(p)) == rules.checkers, f"player {p}'s checkers"
    for p in range(rules.players):
        for slot in range(1, rules.points + 1):
            if position.count(p, slot):
                for q in range(rules.players):
                    if q != p:
                        assert not position.count(q, rules.shared_slot(p, slot, q)), \
                            f"a point of players {p} and {q}"


def python_games(name: str, games: int, seed: int) -> None:
    """``games`` random games of ``name`` through the Python engine, every state checked."""
    if name == "acedrex":
        import test_invariants_acedrex as ace

        ends = ace.run_games(games, seed, resign_rate=0.002)
        assert sum(ends.values()) == games
        return
    rules = gammon.variant(name)
    assert isinstance(rules, TrackVariant)
    rng = random.Random(seed)
    for _ in range(games):
        state = rules.initial_state()
        for _step in range(20_000):
            if state.is_terminal:
                break
            if state.is_chance:
                assert sum(p for _, p in state.chance_outcomes()) == Fraction(1)
                state = state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                assert len(legal) > 0, "a decision without actions"
                state = state.apply(legal[rng.randrange(len(legal))])
            check_track_state(rules, state)
        assert state.is_terminal, "a game that did not end"
        returns = state.returns()
        if name == "multi-gam":
            from gammon.variants.multigam import SCORES

            assert sorted(returns) == sorted(float(s) for s in SCORES), returns
        else:
            assert sum(returns) == 0, returns


# --- the compiled games replayed in Python ----------------------------------------------------


def replays(name: str, games: int, seed: int) -> None:
    if name in ACEY_KEYS:
        import test_invariants_acey as acey

        acey.replay_kernel_games(acey.RULE_SETS[ACEY_KEYS[name]], games, seed)
    elif name == "multi-gam":
        import test_invariants_multigam as mg

        from gammon.kernels import multigam as kernel
        from gammon.variants.multigam import SCORES

        rows, trace = kernel.traced(games, mg.MG.start_position().board, mg.MG.kernel.rules,
                                    SCORES, seed)
        mg.replay_kernel_games(rows, trace, games)
    elif name == "acedrex":
        import test_invariants_acedrex as ace

        ace.replay_kernel_games(gammon.variant(name), games, seed)
    else:
        import test_invariants_nardy as track

        track.replay_kernel_games(TRACK_KEYS.get(name, name), games, seed)


# --- running and reporting -------------------------------------------------------------------


def timed_parts(run: Callable[[int, int], None], total: int, chunk: int,
                seed: int) -> dict[str, Any]:
    """``run(games, seed)`` over ``total`` games in chunks; violations with messages."""
    started = time.perf_counter()
    violations: list[str] = []
    done = 0
    for index, first in enumerate(range(0, total, chunk)):
        n = min(chunk, total - first)
        try:
            run(n, seed + index)
        except AssertionError as error:
            violations.append(f"seed {seed + index}: {error or traceback.format_exc(1)}")
        done += n
    return {"games": done, "seconds": round(time.perf_counter() - started, 1),
            "violations": violations}


def soak_variant(name: str, args: argparse.Namespace) -> dict[str, Any]:
    path = Path(args.out) / f"{name}.json"
    if path.exists():
        return json.loads(path.read_text())
    result = {
        "variant": name,
        "compiled": timed_parts(lambda n, s: compiled_chunk(name, n, s), args.games,
                                args.chunk, args.seed),
        "python": timed_parts(lambda n, s: python_games(name, n, s), args.python_games,
                              max(1, args.python_games // 20), args.seed),
        "replay": timed_parts(lambda n, s: replays(name, n, s), args.replays,
                              max(1, args.replays // 5), args.seed),
    }
    path.write_text(json.dumps(result, indent=1))
    return result


def table(results: list[dict[str, Any]], args: argparse.Namespace) -> str:
    lines = [
        "| variant | compiled games | s | python games | s | replayed | s | violations |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        parts = [r[k] for k in ("compiled", "python", "replay")]
        bad = sum(len(p["violations"]) for p in parts)
        cells = " | ".join(f"{p['games']:,} | {p['seconds']:,.0f}" for p in parts)
        lines.append(f"| {r['variant']} | {cells} | {bad} |")
    total = sum(p["seconds"] for r in results for p in (r["compiled"], r["python"],
                                                          r["replay"]))
    notes = [f"- {r['variant']} {part}: {v}" for r in results
             for part in ("compiled", "python", "replay") for v in r[part]["violations"]]
    return "\n".join([*lines, "", f"Total time: {total / 60:,.0f} minutes of one core "
                      f"(run with --jobs {args.jobs}).", "", *(notes or ["No violations."])])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", default=variant_names())
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--python-games", type=int, default=10_000)
    parser.add_argument("--replays", type=int, default=1_000)
    parser.add_argument("--chunk", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default="soak-results", help="results per variant")
    parser.add_argument("--doc", default=None, help="write the table into this file")
    args = parser.parse_args()
    Path(args.out).mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = {name: pool.submit(soak_variant, name, args) for name in args.variants}
        results = []
        for name, future in futures.items():
            results.append(future.result())
            print(f"{name}: done", flush=True)
    text = table(results, args)
    print(text)
    if args.doc:
        doc = Path(args.doc)
        old = doc.read_text() if doc.exists() else ""
        head = old.split("<!-- soak table -->")[0] if old else ""
        doc.write_text(f"{head}<!-- soak table -->\n{text}\n")
    bad = any(r[p]["violations"] for r in results for p in ("compiled", "python", "replay"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
