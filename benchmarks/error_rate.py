"""Bots measured as the backgammon world measures them: the equity they lose on a fixed
benchmark of positions rated by gnubg at 2 plies (`benchmarks/build_positions.py`), then
at 3 plies where it matters (`benchmarks/rerate_positions.py`: the plays within 0.10 of
the best, and every cube decision), deeper than any bot measured here, then, where
`benchmarks/rollout_positions.py` has run, by gnubg's rollouts (the plays near the best
and the cube decisions). The reference is named as the rows record it: "gnubg rollouts
(settings)" or "gnubg 3-ply", per set where they differ.

    .venv/bin/python benchmarks/error_rate.py [--agents neural:0,neural:1,neural:2,...]
        [--positions benchmarks/positions] [--jobs 2] [--limit N] [--json FILE]

For each agent, side by side on the same positions:

- **checker play**: its play in each position of `checker.jsonl`; the loss is the
  reference's equity of the best play less that of the agent's (cubeless, money, points);
  the mean loss a decision in thousandths of a point, and the share of errors (a loss of
  0.08 or more) and of blunders (0.16 or more), gnubg's marks;
- **cube decisions**: its cube action in each position of `cube.jsonl` (money play or the
  match score there), as the player to roll and, where gnubg would double, as the taker;
  the share where it agrees with the reference, and the mean loss by gnubg's cubeful
  equities (the doubler's a position, the taker's a double), in thousandths.

Agents default to the networks at 0, 1 and 2 plies, `expectimax:2`, `pubeval` and gnubg
at 0, 1 and 2 plies (on positions rated at 2 plies only, gnubg:2 would score zero).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cube_gnubg import agrees, cube_state, errors  # noqa: E402
from rerate_positions import load_sets  # noqa: E402

import gammon  # noqa: E402
from gammon.agents import make_agent  # noqa: E402
from gammon.analysis.review import BLUNDER, ERROR  # noqa: E402
from gammon.nn.kinds import KIND_NAMES, kind_codes  # noqa: E402
from gammon.notation import parse_position_id  # noqa: E402
from gammon.notation.movetext import format_play  # noqa: E402
from gammon.stakes.cube import CubeAction  # noqa: E402

AGENTS = "neural:0,neural:1,neural:2,expectimax:2,pubeval,gnubg:0,gnubg:1,gnubg:2"
RULES = gammon.variant("backgammon")
HERE = Path(__file__).resolve().parent / "positions"
#: The kinds of position the checker errors are broken down by, in the order shown.
KIND_ORDER = ("contact", "crashed", "race", "bearoff")


def checker_losses(spec: str, rows: list[dict]) -> tuple[list[float], float]:
    """The agent's loss in each checker position, and the seconds it took."""
    agent = make_agent(spec, RULES, 1)
    losses = []
    thinking = 0.0
    for row in rows:
        state = RULES.state(parse_position_id(row["position"]), tuple(row["dice"]))
        rated = dict(row["plays"])
        best = max(rated.values())
        began = time.perf_counter()
        play = agent.choose(state)
        thinking += time.perf_counter() - began
        text = format_play(next(p for p in state.legal_actions() if p == play))
        losses.append(best - rated[text])
    return losses, thinking


def cube_results(spec: str, rows: list[dict]) -> list[tuple[bool, float, float | None, bool]]:
    """For each cube position: whether the agent agrees with gnubg, the doubler's loss,
    (where gnubg doubles) the taker's, and whether it is at a match score."""
    agent = make_agent(spec, RULES, 1)
    out = []
    for row in rows:
        state = cube_state(parse_position_id(row["position"]), row["match"])
        # No decision at all where nobody may double (the Crawford game, a dead cube).
        legal = [] if state.is_chance else list(state.legal_actions())
        double = CubeAction.DOUBLE in legal and agent.choose(state) is CubeAction.DOUBLE
        take = True
        if CubeAction.DOUBLE in legal:
            answer = agent.choose(state.apply(CubeAction.DOUBLE))
            take = answer in (CubeAction.TAKE, CubeAction.BEAVER)
        doubler, taker = errors(double, take, row["equities"])
        text = row["decision"].lower()
        gnubg_doubles = text.startswith(("double", "redouble"))
        out.append((agrees((double, take), row["decision"]),
                    0.0 if "dead cube" in text else doubler,
                    taker if gnubg_doubles else None, row["match"] is not None))
    return out


def _plies(rows: list[dict]) -> int:
    return max((row.get("rated", {}).get("plies", 2) for row in rows), default=2)


def rollout_words(settings: dict[str, Any]) -> str:
    """A rollout's settings as a row records them (rollout_positions.py), in words."""
    depth = (f"truncated after {settings['truncation']} plies with a {settings['at']}-ply "
             "evaluation there" if settings["truncation"] else "to the end")
    return (f"{settings['trials']} trials, {settings['plies']}-ply checker play, {depth}, "
            "variance reduction")


def set_reference(kind: str, rows: list[dict]) -> str:
    """What rated one set's positions, as their rows say: gnubg's rollouts
    (rollout_positions.py) or its evaluation at some plies (rerate_positions.py)."""
    rolled = [row for row in rows if "rollout" in row.get("rated", {})]
    if not rolled:
        plies = _plies(rows)
        return f"gnubg {plies}-ply" + (" (the plays within 0.10 of the best; the rest 2-ply)"
                                       if kind == "checker" and plies > 2 else "")
    settings = rolled[0]["rated"]["rollout"]
    words = f"gnubg rollouts ({'cubeless' if kind == 'checker' else 'cubeful'}, "
    words += rollout_words(settings)
    if kind == "checker":
        words += ("; the plays near the best at 3 plies, the others' 3-ply values moved by "
                  "the rollouts' mean change")
    words += ")"
    rest = [row for row in rows if "rollout" not in row.get("rated", {})]
    if rest:
        dead = sum("dead cube" in row.get("decision", "") for row in rest)
        words += (f", {len(rest)} at gnubg {_plies(rest)}-ply"
                  + (f" ({dead} with a dead cube)" if dead else ""))
    return words


def reference(sets: dict[str, list[dict]]) -> str:
    """What rated the positions, as their rows say."""
    if not any("rollout" in row.get("rated", {}) for rows in sets.values() for row in rows):
        deepest = _plies([row for rows in sets.values() for row in rows])
        if deepest == 2:
            return "gnubg 2-ply"
        return (f"gnubg {deepest}-ply (checker plays: those within 0.10 of the best; the "
                "rest 2-ply)")
    return "; ".join(f"{kind}: {set_reference(kind, rows)}"
                     for kind, rows in sets.items() if rows)


def position_kind(row: dict) -> str:
    """The kind of a checker position (gammon.nn.kinds): contact, race, crashed or
    bearoff, read from the board before the play."""
    board = np.frombuffer(parse_position_id(row["position"]).board, np.int8)[None, :]
    return KIND_NAMES[int(kind_codes(board)[0])]


def _job(task: tuple[str, str, list[dict]]) -> tuple[str, str, Any]:
    spec, kind, rows = task
    if kind == "checker":
        return spec, kind, checker_losses(spec, rows)
    return spec, kind, cube_results(spec, rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", default=AGENTS)
    parser.add_argument("--positions", type=Path, default=HERE)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, help="only the first N positions of each set")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--sets", default="checker,cube",
                        help="which sets: checker, cube or both")
    parser.add_argument("--paired", default="",
                        help="pairs A/B of the agents (comma-separated): A's checker error "
                             "less B's with its 95%% interval, position by position")
    args = parser.parse_args(argv)
    pairs = [tuple(pair.split("/")) for pair in args.paired.split(",") if pair.strip()]
    specs = [s.strip() for s in args.agents.split(",") if s.strip()]
    for pair in pairs:
        if len(pair) != 2 or not set(pair) <= set(specs):
            parser.error(f"--paired takes pairs A/B of the agents measured ({', '.join(specs)}), "
                         f"not {'/'.join(pair)!r}")
    kinds = [k.strip() for k in args.sets.split(",") if k.strip() in ("checker", "cube")]
    sets = load_sets(args.positions, kinds)
    if args.limit:
        sets = {kind: rows[:args.limit] for kind, rows in sets.items()}
    chunk = 100
    tasks = [(spec, kind, rows[i:i + chunk]) for spec in specs for kind, rows in sets.items()
             for i in range(0, len(rows), chunk)]
    checker: dict[str, list[float]] = {s: [] for s in specs}
    seconds: dict[str, float] = dict.fromkeys(specs, 0.0)
    cube: dict[str, list[tuple[bool, float, float | None, bool]]] = {s: [] for s in specs}
    with ProcessPoolExecutor(args.jobs) as pool:  # the tasks come back in order
        for spec, kind, result in pool.map(_job, tasks):
            if kind == "checker":
                checker[spec] += result[0]
                seconds[spec] += result[1]
            else:
                cube[spec] += result
    kinds = [position_kind(row) for row in sets["checker"]]
    figures = []
    for spec in specs:
        losses = checker[spec]
        by_kind = {kind: [loss for loss, k in zip(losses, kinds, strict=True) if k == kind]
                   for kind in KIND_ORDER}
        answers = cube[spec]
        takers = [t for _, _, t, _ in answers if t is not None]
        money = [a for a, _, _, match in answers if not match]
        matches = [a for a, _, _, match in answers if match]
        figures.append({
            "agent": spec, "checker_positions": len(losses),
            "checker_error": 1000 * sum(losses) / max(len(losses), 1),
            "errors": sum(loss >= ERROR for loss in losses) / max(len(losses), 1),
            "blunders": sum(loss >= BLUNDER for loss in losses) / max(len(losses), 1),
            "seconds_per_move": seconds[spec] / max(len(losses), 1),
            "cube_positions": len(answers),
            "cube_agree": sum(a for a, _, _, _ in answers) / max(len(answers), 1),
            "money_agree": sum(money) / max(len(money), 1),
            "match_agree": sum(matches) / max(len(matches), 1),
            "doubler_error": 1000 * sum(d for _, d, _, _ in answers) / max(len(answers), 1),
            "taker_error": 1000 * sum(takers) / max(len(takers), 1), "doubles": len(takers),
            "checker_error_by_kind": {kind: {"positions": len(part),
                                             "error": 1000 * sum(part) / max(len(part), 1)}
                                      for kind, part in by_kind.items()},
            # Each position's loss, in the set's order: two agents are compared position
            # by position (--paired, benchmarks/judge_network.py), which takes out what
            # the positions themselves make hard.
            "checker_losses": [round(loss, 6) for loss in losses]})
    rated_by = {kind: set_reference(kind, rows) for kind, rows in sets.items() if rows}
    for f in figures:
        f["reference"] = rated_by
    print(f"{len(sets['checker'])} checker plays and {len(sets['cube'])} cube decisions rated "
          f"by {reference(sets)} (thousandths of a point a decision):")
    print("| agent | checker error | errors ≥ 0.08 | blunders ≥ 0.16 | s a move | cube agrees "
          "(money, match) | doubler error | taker error a double |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for f in figures:
        print(f"| {f['agent']} | {f['checker_error']:.1f} | {f['errors']:.1%} | "
              f"{f['blunders']:.1%} | {f['seconds_per_move']:.3f} | {f['cube_agree']:.1%} "
              f"({f['money_agree']:.1%}, {f['match_agree']:.1%}) | "
              f"{f['doubler_error']:.1f} | {f['taker_error']:.1f} |")
    counts = {kind: kinds.count(kind) for kind in KIND_ORDER}
    print("\nChecker error by kind of position (gammon.nn.kinds; positions of each):")
    print("| agent | " + " | ".join(f"{kind} ({counts[kind]})" for kind in KIND_ORDER) + " |")
    print("|---|" + "---:|" * len(KIND_ORDER))
    for f in figures:
        parts = f["checker_error_by_kind"]
        print(f"| {f['agent']} | " + " | ".join(f"{parts[kind]['error']:.1f}"
                                                for kind in KIND_ORDER) + " |")
    if pairs:
        print("\nChecker error of one agent less another's, position by position "
              "(thousandths a decision, 95% interval):")
        for first, second in pairs:
            mean, half = paired_difference(checker[first], checker[second])
            print(f"- {first} less {second}: {mean:+.2f} [{mean - half:+.2f}, "
                  f"{mean + half:+.2f}]")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


def paired_difference(first: list[float], second: list[float]) -> tuple[float, float]:
    """The mean of the per-position differences of two agents' losses, in thousandths,
    and its 95% interval's half-width (the positions' own spread, which both meet
    alike, taken out)."""
    differences = [1000 * (a - b) for a, b in zip(first, second, strict=True)]
    count = len(differences)
    mean = sum(differences) / max(count, 1)
    if count < 2:
        return mean, math.inf
    variance = sum((d - mean) ** 2 for d in differences) / (count - 1)
    return mean, 1.96 * math.sqrt(variance / count)


if __name__ == "__main__":
    sys.exit(main())
