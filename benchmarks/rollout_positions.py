"""The benchmark of positions rated by gnubg's rollouts: a reference stronger than the
gnubg 2-ply player it measures, and than the 3-ply ratings it had (issue 48, item 5).

    .venv/bin/python benchmarks/rollout_positions.py --jobs 2
        [--trials 216] [--plies 1] [--truncation 7] [--at 2] [--window 0.08] [--most 5]
        [--seed 1] [--sets checker,cube] [--positions benchmarks/positions]

What is rolled out, as gnubg's own benchmark databases were built (Joseph Heled's
``sagnubg`` rolled out the leading candidates of a deeper evaluation, not every play):

- **checker plays**: in each position of ``checker.jsonl`` the plays within ``--window``
  points of the best by the ratings the row has (3 plies, `rerate_positions.py`), at most
  ``--most`` and at least two of them. Each is rolled out from the position after it, the
  opponent on roll, **cubeless** (the benchmark's checker equities are cubeless money
  equities, as the bots measured play); every candidate of a position with the same seed,
  so the same dice, which takes the luck they share out of their differences. A play that
  ends the game keeps its exact value. The other plays keep their earlier ratings moved by
  ``shift``, the mean change the rollouts made to the candidates' (so that their distance
  to the candidates stays the deeper evaluation's, not a mix of two scales).
- **cube decisions**: each position of ``cube.jsonl`` rolled out **cubefully** at its money
  or match setting by gnubg's cube rollout (no double and double/take, on the same dice),
  which gives gnubg's decision words and its equities [no double, double/take,
  double/pass], as the 3-ply rows had them. The positions whose cube is dead (the Crawford
  game and the like, "(dead cube)": nobody may double, so no decision is measured) keep
  their 3-ply rows.

**The rollout** (gnubg 1.07's, settings in ``"rated"``): variance reduction, quasi-random
dice, checker play at ``--plies`` (1: gnubg's 1-ply, with its default move filter), cube
decisions at 2 plies, truncated after ``--truncation`` plies (7) with a ``--at``-ply
evaluation there (2), races to the end by gnubg's bearoff databases (exact where both
sides are in the two-sided one), ``--trials`` games (216: six times the 36 first rolls).
Why this is a reference stronger than gnubg at 2 plies: its value is the 2-ply evaluation
seven plies (three and a half rolls each) later, averaged over the dice, reached by
1-ply play, with each roll's luck measured and taken out (variance reduction); a 2-ply
evaluation is that evaluation now. gnubg's manual: truncation's remaining error is
correlated between the plays of one position, so truncated rollouts compare plays better
than they give absolute equities, which is what the benchmark asks of them;
eXtreme Gammon's authors advise against truncating at fewer than 7 plies. A rollout has
its statistical error: each row records each rolled play's standard error (``"se"``);
over four seeds at 72 trials the differences between two plays of a position varied by
0.003 to 0.017 (0.0075 typically), about as much as one play's own error, so at 216
trials about 0.004.

**Cost** (one core of the 2-core machine, another job on the other): at the defaults
4.4 s a rolled-out play (the first 33 positions of the full run, 110 plays; 4.6 s on 10
random ones), 3.3 plays a position, about 245 checker positions an hour; 6,583 candidate
plays in the 2,000 checker positions, so about 8 hours; a cube decision 14.5 s (4 random
ones), 411 of them, under 2 hours. About 10 core-hours in all (docs/strength.md).

The rows are written back in place, the rolled-out plays first, best first, then the
others (best first; one of them may rate above a candidate the rollout found worse than
3 plies did), each row saying how it was rated:
``"rated": {"rollout": {...settings...}, "seed": s, "deep": k, "shift": x, "rest":
{earlier "rated"}}`` and ``"se": [...]`` (the first ``k`` plays' standard errors) for a
checker row; ``"rated": {"rollout": {...}, "seed": s}`` and ``"se": [no double,
double/take]`` for a cube row. Work is journaled, one line a position, under
``--journal`` (a file named by the settings): a stopped run resumes where it was with the
same command; the positions are written back only when all are rated
(`rerate_positions.py`'s journal). The journal's default folder,
``benchmarks/positions/journal``, is in the repository: a run of ten core-hours spans
sessions on machines whose untracked files do not last, so the journal is committed as
it grows (``git add benchmarks/positions/journal``) and removed once the positions are
written back.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cube_gnubg import cube_state  # noqa: E402
from rerate_positions import (  # noqa: E402
    load_sets,
    rate_journaled,
    read_journal,
    write_back,
)

from gammon.agents.gnubg import GnubgError, bridge  # noqa: E402
from gammon.core.variant import track_variant  # noqa: E402
from gammon.notation import parse_position_id  # noqa: E402
from gammon.notation.gnuid import state_gnubg_id  # noqa: E402
from gammon.notation.movetext import format_play  # noqa: E402
from gammon.stakes.cube import CubeState  # noqa: E402

HERE = Path(__file__).resolve().parent / "positions"
RULES = track_variant("backgammon")


def settings_of(args: argparse.Namespace) -> dict[str, Any]:
    """The rollout's settings, as the rows record them."""
    return {"by": "gnubg 1.07", "trials": args.trials, "plies": args.plies,
            "truncation": args.truncation, "at": args.at, "cube_plies": 2,
            "variance_reduction": True, "quasi_random_dice": True}


def seed_of(seed: int, kind: str, index: int) -> int:
    """The seed of one position's rollouts: the same for each of its plays."""
    return zlib.crc32(f"{seed}:{kind}:{index}".encode()) & 0x7FFFFFFF


def _gnubg_settings(settings: dict[str, Any], seed: int) -> dict[str, Any]:
    return {"trials": settings["trials"], "seed": seed, "plies": settings["plies"],
            "truncation": settings["truncation"], "truncation_plies": settings["at"],
            "cube_plies": settings["cube_plies"]}


def candidates(row: dict, window: float, most: int) -> list[str]:
    """The plays of a checker row to roll out: within ``window`` of the best, at most
    ``most``, at least two (where it has two)."""
    best = row["plays"][0][1]
    near = [text for text, value in row["plays"][:most] if value >= best - window]
    return [text for text, _ in row["plays"][:max(len(near), 2)]]


def rollout_checker(row: dict, settings: dict[str, Any], seed: int, window: float,
                    most: int) -> dict:
    """``row`` with its leading plays rolled out (module text)."""
    state = RULES.state(parse_position_id(row["position"]), tuple(row["dice"]))
    mover = state.current_player
    assert mover is not None  # a checker play to choose
    by_text = {format_play(play): play for play in state.legal_actions()}
    before = dict(row["plays"])
    rated: dict[str, tuple[float, float]] = {}
    asked, ids = [], []
    for text in candidates(row, window, most):
        after = state.apply(by_text[text])
        if after.is_terminal:
            rated[text] = (float(after.returns()[mover]), 0.0)
        else:
            asked.append(text)
            ids.append(state_gnubg_id(CubeState.midgame(
                RULES, by_text[text].result.with_turn(1 - mover))))
    if ids:
        answer = bridge(terminal=True).ask(
            {"op": "rollout", "ids": ids, "settings": _gnubg_settings(settings, seed)})
        for text, result in zip(asked, answer["results"], strict=True):
            rated[text] = (-result["equity"], result["se"])  # the opponent's, negated
    moved = [rated[text][0] - before[text] for text in asked]
    shift = sum(moved) / len(moved) if moved else 0.0
    deep = sorted(rated.items(), key=lambda item: -item[1][0])
    rest = sorted(([text, round(value + shift, 5)] for text, value in row["plays"]
                   if text not in rated), key=lambda play: -play[1])
    return {**row, "plays": [[text, round(value, 5)] for text, (value, _) in deep] + rest,
            "se": [round(se, 5) for _, (_, se) in deep],
            "rated": {"rollout": settings, "seed": seed, "deep": len(deep),
                      "shift": round(shift, 5), "rest": row.get("rated", {"plies": 2})}}


def rollout_cube(row: dict, settings: dict[str, Any], seed: int) -> dict:
    """``row``'s cube decision rolled out, cubefully, at its money or match setting."""
    gnubg_id = state_gnubg_id(cube_state(parse_position_id(row["position"]), row["match"]))
    answer = bridge(terminal=True).ask(
        {"op": "rollout_cube", "id": gnubg_id, "settings": _gnubg_settings(settings, seed)})
    return {**row, "decision": answer["decision"],
            "equities": [round(x, 5) for x in answer["equities"]],
            "se": [round(x, 5) for x in answer["se"]],
            "rated": {"rollout": settings, "seed": seed}}


def dead_cube(row: dict) -> bool:
    """A cube position where nobody may double: its decision is not rolled out."""
    return "dead cube" in row["decision"]


#: Positions a gnubg process rolls out before it is started afresh (its memory kept small).
FRESH_EVERY = 200
_rolled = 0


def _job(task: tuple[str, int, dict, dict, int, float, int]) -> tuple[str, int, dict]:
    global _rolled
    kind, index, row, settings, seed, window, most = task
    _rolled += 1
    if _rolled % FRESH_EVERY == 0:
        bridge(terminal=True).close()
    for attempt in (1, 2):  # a gnubg that stopped answering is started again, once
        try:
            if kind == "checker":
                return kind, index, rollout_checker(row, settings, seed, window, most)
            return kind, index, rollout_cube(row, settings, seed)
        except GnubgError as error:
            if attempt == 2:
                raise
            print(f"{kind} {index}: {error}; again with a new gnubg", file=sys.stderr,
                  flush=True)
            bridge(terminal=True).close()
    raise AssertionError("unreachable")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=216)
    parser.add_argument("--plies", type=int, default=1, help="checker play in the rollout")
    parser.add_argument("--truncation", type=int, default=7,
                        help="plies before the rollout stops (0: to the end)")
    parser.add_argument("--at", type=int, default=2, help="the evaluation's plies there")
    parser.add_argument("--window", type=float, default=0.08)
    parser.add_argument("--most", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sets", default="checker,cube")
    parser.add_argument("--positions", type=Path, default=HERE)
    parser.add_argument("--journal", type=Path, default=HERE / "journal")
    parser.add_argument("--so-far", type=Path, metavar="FOLDER",
                        help="rate nothing: write the positions the journal has rolled out "
                             "so far to FOLDER/rolled, and the same positions as the "
                             "benchmark has them now to FOLDER/before (for error_rate.py)")
    args = parser.parse_args(argv)
    kinds = [kind for kind in ("checker", "cube") if kind in args.sets.split(",")]
    settings = settings_of(args)
    sets = load_sets(args.positions)
    name = (f"rollout-t{args.trials}-p{args.plies}-trunc{args.truncation}-at{args.at}"
            f"-w{args.window:g}-m{args.most}-seed{args.seed}.jsonl")
    journal = args.journal / name
    done = read_journal(journal)
    if args.so_far:
        return write_so_far(args.so_far, sets, done)
    tasks = [(kind, i, row, settings, seed_of(args.seed, kind, i), args.window, args.most)
             for kind in kinds for i, row in enumerate(sets[kind])
             if (kind, i) not in done and row.get("rated", {}).get("rollout") != settings
             and not (kind == "cube" and dead_cube(row))]
    rate_journaled(tasks, _job, journal, done, args.jobs,
                   sum(len(sets[kind]) for kind in kinds), every=1)
    write_back(args.positions, sets, done)
    print(f"every position rolled out ({', '.join(kinds)}) in {args.positions}")
    return 0


def write_so_far(folder: Path, sets: dict[str, list[dict]],
                 done: dict[tuple[str, int], dict]) -> int:
    """The rolled-out rows so far, and the same positions' rows before: two benchmarks
    of the same positions that differ in their reference alone."""
    for name, pick in (("rolled", lambda kind, i: done[kind, i]),
                       ("before", lambda kind, i: sets[kind][i])):
        (folder / name).mkdir(parents=True, exist_ok=True)
        for kind, rows in sets.items():
            chosen = [pick(kind, i) for i in range(len(rows)) if (kind, i) in done]
            (folder / name / f"{kind}.jsonl").write_text(
                "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in chosen))
    counts = {kind: sum(1 for k, _ in done if k == kind) for kind in sets}
    print(f"{counts} rolled out so far: {folder / 'rolled'} and {folder / 'before'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
