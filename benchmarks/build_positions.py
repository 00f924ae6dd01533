"""The benchmark of positions: checker plays and cube decisions from real games, each
rated by GNU Backgammon at 2 plies (what `benchmarks/error_rate.py` measures bots on).

    .venv/bin/python benchmarks/build_positions.py --checker 2000 --cube 500 --seed 1
        [--out benchmarks/positions]

Games: half of them gnubg (0-ply) against itself, half our `neural:0` against itself,
the dice from the seed. From them:

- **checker plays**: a decision with two legal plays or more, one in four at random;
  every legal play of it rated by gnubg at 2 plies (its cubeless money equity for the
  player who plays, the opponent's evaluation of the position after the play, negated;
  a play that ends the game is worth what it wins). `checker.jsonl`: one line a position,
  `{"position": GNU Position ID (the mover on roll), "dice": [a, b], "source": "gnubg" or
  "neural", "plays": [[move text as gnubg writes it, equity], ...]}`, the best first.
- **cube decisions**: a position before a roll (not the opening) where the player to roll
  has between 50% and 95% to win by gnubg's 0-ply, one in three at random, half in money
  play (the cube in the middle) and half at a match score drawn from the seed (a match to
  3, 5, 7 or 9, any score, Crawford and post-Crawford included, the cube in the middle or
  owned at 2 by the roller); rated by gnubg's cubeful evaluation at 2 plies. `cube.jsonl`:
  `{"position": ..., "match": null or {"length", "score": [roller, other], "crawford",
  "cube", "owner"}, "decision": gnubg's words, "equities": [no double, double/take,
  double/pass]}` (the roller's, per cube value; normalised for matches as gnubg does).

The same seed gives the same positions; gnubg's ratings are deterministic. Building the
whole set takes about half an hour on one core (the 2-ply ratings).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import gammon  # noqa: E402
from gammon.agents import make_agent  # noqa: E402
from gammon.agents.gnubg import bridge, to_gnubg  # noqa: E402
from gammon.notation import position_id  # noqa: E402
from gammon.notation.movetext import format_play  # noqa: E402

PLIES = 2
RULES = gammon.variant("backgammon")


def equity(probs: list[float]) -> float:
    """Cubeless money equity from gnubg's five probabilities (gammons include
    backgammons)."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = probs
    return (2 * win - 1) + (win_gammon - lose_gammon) + (win_backgammon - lose_backgammon)


def rate_plays(state: Any) -> list[tuple[str, float]]:
    """Every legal play of ``state`` with its 2-ply equity for the mover, best first."""
    plays = list(state.legal_actions())
    rated: list[tuple[str, float] | None] = [None] * len(plays)
    asked, boards = [], []
    for k, play in enumerate(plays):
        after = state.apply(play)
        if after.is_terminal:
            rated[k] = (format_play(play), float(after.returns()[state.current_player]))
        else:
            asked.append(k)  # the opponent's evaluation, the opponent on roll
            boards.append(to_gnubg(play.result.with_turn(1 - state.current_player)))
    if boards:
        answer = bridge().ask({"op": "evaluate_many", "boards": boards, "plies": PLIES})
        for k, probs in zip(asked, answer["probs"], strict=True):
            rated[k] = (format_play(plays[k]), -equity(probs))
    done = [r for r in rated if r is not None]
    return sorted(done, key=lambda r: -r[1])


def match_setting(rng: random.Random) -> dict[str, Any]:
    from cube_gnubg import match_setting as draw

    return draw(rng)


def build(checker: int, cube: int, seed: int) -> tuple[list[dict], list[dict]]:
    rng = random.Random(seed)
    settings = random.Random(seed + 7)
    checkers: list[dict] = []
    cubes: list[dict] = []
    sources = ["gnubg", "neural"]
    game = 0
    began = time.monotonic()
    while len(checkers) < checker or len(cubes) < cube:
        source = sources[game % 2]
        spec = "gnubg:0" if source == "gnubg" else "neural:0"
        agents = [make_agent(spec, RULES, f"{seed}:{game}:{p}") for p in range(2)]
        state = RULES.initial_state()
        while not state.is_terminal:
            if state.is_chance:
                if not state.opening and len(cubes) < cube and rng.random() < 1 / 3:
                    entry = rate_cube(state.position, settings, source, len(cubes) % 2 == 1)
                    if entry is not None:
                        cubes.append(entry)
                state = state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and len(checkers) < checker and rng.random() < 0.25:
                checkers.append({"position": position_id(state.position),
                                 "dice": list(state.dice), "source": source,
                                 "plays": [[text, round(value, 5)]
                                           for text, value in rate_plays(state)]})
            action = legal[0] if len(legal) == 1 else agents[state.current_player].choose(
                state)
            state = state.apply(action)
        game += 1
        print(f"game {game}: {len(checkers)} checker plays, {len(cubes)} cube decisions, "
              f"{time.monotonic() - began:.0f} s", file=sys.stderr, flush=True)
    return checkers, cubes


def rate_cube(position: Any, settings: random.Random, source: str,
              at_match: bool) -> dict | None:
    """gnubg's 2-ply cube decision for the roller, when the position is in the range
    where cube decisions are made (module text); None otherwise."""
    board = to_gnubg(position)
    win = bridge().ask({"op": "evaluate", "board": board, "plies": 0})["probs"][0]
    if not 0.5 <= win <= 0.95:
        return None
    setting = match_setting(settings) if at_match else None
    request: dict[str, Any] = {"op": "cube", "board": board, "plies": PLIES}
    if setting is not None:
        request["match"] = setting
    answer = bridge().ask(request)
    return {"position": position_id(position), "source": source, "match": setting,
            "decision": answer["decision"],
            "equities": [round(x, 5) for x in answer["equities"]]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checker", type=int, default=2000)
    parser.add_argument("--cube", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent / "positions")
    args = parser.parse_args(argv)
    checkers, cubes = build(args.checker, args.cube, args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, rows in (("checker.jsonl", checkers), ("cube.jsonl", cubes)):
        (args.out / name).write_text("".join(json.dumps(row, separators=(",", ":")) + "\n"
                                             for row in rows))
    print(f"{len(checkers)} checker plays and {len(cubes)} cube decisions in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
