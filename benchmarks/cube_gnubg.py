"""Our cube decisions against GNU Backgammon's, on positions from gnubg's self-play, in
money play and at match scores.

    .venv/bin/python benchmarks/cube_gnubg.py --positions 500 --seed 1 [--match] [--json FILE]

Positions are taken from money games that gnubg (0-ply) plays against itself: the
position before every third roll, after the opening. For each, gnubg's cube decision at
2 plies (``cfevaluate``) is compared with ours: the shipped network's cubeless chances
(0 ply, or one roll ahead with ``--ours 1``, the default, as the bots decide) turned into
cubeful equities (:mod:`gammon.agents.cube`: Janowski's model in money play, and in
match-winning chances at a match score). Money: the cube in the middle, no Jacoby rule.
``--match``: each position at a match score drawn from the seed: a match to 3, 5, 7 or
9, any score (Crawford and post-Crawford games included), the cube in the middle or
owned at 2 by the player on roll. A decision agrees when both say the same on double or
not, and on take or pass. Printed: the agreement overall and by gnubg's decision, the
mean error of our decisions in gnubg's equities (its cubeful figures at 2 plies,
thousandths of a point, normalised for matches as gnubg does), and the positions where
they differ.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


import gammon  # noqa: E402
from gammon.agents import make_agent  # noqa: E402
from gammon.agents.cube import CubeView  # noqa: E402
from gammon.agents.gnubg import bridge, to_gnubg  # noqa: E402
from gammon.agents.search import BoardSearch  # noqa: E402
from gammon.agents.stakes import view_of  # noqa: E402
from gammon.nn.evaluator import NeuralEvaluator, load_evaluator  # noqa: E402
from gammon.notation import position_id  # noqa: E402
from gammon.stakes import MatchScore  # noqa: E402
from gammon.stakes.cube import CubeState  # noqa: E402

RULES = gammon.variant("backgammon")


def gnubg_positions(count: int, seed: int) -> list[gammon.Position]:
    """Positions before a roll (after the opening) from gnubg's own games."""
    rules = gammon.variant("backgammon")
    players = [make_agent("gnubg:0", rules, seed), make_agent("gnubg:0", rules, seed + 1)]
    rng = random.Random(seed)
    positions: list[gammon.Position] = []
    rolls = 0
    while len(positions) < count:
        state = rules.initial_state()
        while not state.is_terminal and len(positions) < count:
            if state.is_chance:
                if not state.opening:
                    rolls += 1
                    if rolls % 3 == 0:
                        positions.append(state.position)
                state = state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                action = legal[0] if len(legal) == 1 else players[state.current_player].choose(
                    state)
                state = state.apply(action)
    return positions


def match_setting(rng: random.Random) -> dict[str, Any]:
    """A match score for the player on roll and the other, and the cube."""
    length = rng.choice((3, 5, 7, 9))
    mine, theirs = rng.randrange(length), rng.randrange(length)
    one_away = (mine == length - 1) + (theirs == length - 1)
    crawford = one_away == 1 and rng.random() < 0.5
    cube, owner = 1, -1
    if not crawford and rng.random() < 0.4:
        cube, owner = 2, 0  # the player on roll owns it: a redouble
    return {"length": length, "score": [mine, theirs], "crawford": crawford,
            "cube": cube, "owner": owner}


def cube_state(position: gammon.Position, setting: dict[str, Any] | None) -> CubeState:
    """The cube decision of the side to roll at ``position``: money play (``setting``
    None, the cube in the middle) or a match setting of :func:`match_setting` (the score
    and the cube's owner seen from the side to roll)."""
    if setting is None:
        return CubeState.midgame(RULES, position)
    mine, theirs = setting["score"]
    score = MatchScore.match(setting["length"],
                             (mine, theirs) if position.turn == 0 else (theirs, mine),
                             crawford=setting["crawford"])
    return CubeState.midgame(RULES, position, score=score, cube_value=setting["cube"],
                             cube_owner=None if setting["owner"] < 0 else position.turn)


def ours(evaluator: NeuralEvaluator, search: BoardSearch | None, position: gammon.Position,
         setting: dict[str, Any] | None, plies: int = 1) -> CubeView:
    """Our view of the cube decision of the side to roll, as the bots decide it
    (:func:`gammon.agents.stakes.view_of`): the network's chances at 0 ply, or ``plies``
    rolls ahead with ``search``."""
    return view_of(cube_state(position, setting), evaluator, position.turn, search, plies)[1]


def theirs(position: gammon.Position, plies: int, setting: dict[str, Any] | None
           ) -> tuple[bool, bool, str, list[float]]:
    request: dict[str, Any] = {"op": "cube", "board": to_gnubg(position), "plies": plies}
    if setting is not None:
        request["match"] = setting
    answer = bridge().ask(request)
    text = answer["decision"]
    lower = text.lower()
    double = lower.startswith(("double", "redouble"))
    take = "take" in lower or "beaver" in lower
    return double, take, text, answer["equities"]


def agrees(mine: tuple[bool, bool], text: str) -> bool:
    """Whether our (double, take) is gnubg's decision ``text``: both parts, where an
    "optional" double may be made or not, and the take of a double gnubg would never make
    (a dead cube, the Crawford game) is not asked."""
    lower = text.lower()
    double = lower.startswith(("double", "redouble"))
    take = "take" in lower or "beaver" in lower
    same_double = mine[0] == double or lower.startswith("optional")
    same_take = mine[1] == take or "dead cube" in lower
    return same_double and same_take


def errors(double: bool, take: bool, equities: list[float]) -> tuple[float, float]:
    """The doubler's and the taker's equity lost by ``double`` and ``take``, by gnubg's
    figures (no double, double/take, double/pass; the doubler's)."""
    no_double, double_take, double_pass = equities
    answered = min(double_take, double_pass)
    doubler = max(no_double, answered) - (answered if double else no_double)
    taker = (double_take if take else double_pass) - answered
    return doubler, taker


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plies", type=int, default=2, help="gnubg's plies")
    parser.add_argument("--match", action="store_true", help="at match scores")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--net", type=Path, help="our network (default: the shipped one)")
    parser.add_argument("--ours", type=int, default=2, choices=(0, 1, 2),
                        help="our plies: the network's chances now (0) or one or two "
                             "rolls ahead (as neural:1 and neural:2 decide)")
    args = parser.parse_args(argv)
    evaluator = load_evaluator(RULES, args.net)
    assert isinstance(evaluator, NeuralEvaluator)
    search = BoardSearch(RULES, evaluator) if args.ours else None
    positions = gnubg_positions(args.positions, args.seed)
    settings = random.Random(args.seed + 7)
    agree = doubled = 0
    lost = [0.0, 0.0]
    by_decision: Counter[str] = Counter()
    agreed: Counter[str] = Counter()
    differ = []
    for position in positions:
        setting = match_setting(settings) if args.match else None
        double, take, text, equities = theirs(position, args.plies, setting)
        view = ours(evaluator, search, position, setting, args.ours)
        mine = (view.double, view.taker_takes)
        by_decision[text] += 1
        doubler, taker = errors(*mine, equities)
        if "dead cube" not in text.lower():  # else there is no double to make
            lost[0] += doubler
        if double:  # the taker's answer, where gnubg doubles
            doubled += 1
            lost[1] += taker
        if agrees(mine, text):
            agree += 1
            agreed[text] += 1
        else:
            differ.append({"position": position_id(position), "gnubg": text,
                           "setting": setting,
                           "ours": ("double" if mine[0] else "no double") + ", "
                           + ("take" if mine[1] else "pass")})
    share = agree / len(positions)
    where = "at match scores" if args.match else "in money play"
    print(f"{len(positions)} positions from gnubg 0-ply self-play (seed {args.seed}) {where}: "
          f"our {args.ours}-ply cube decision agrees with gnubg {args.plies}-ply on {agree} "
          f"({share:.1%}); mean error by gnubg's figures: doubler "
          f"{1000 * lost[0] / len(positions):.1f} thousandths a decision, taker "
          f"{1000 * lost[1] / max(doubled, 1):.1f} a double ({doubled} doubles)")
    for text, n in by_decision.most_common():
        print(f"  gnubg says {text!r}: {n} positions, we agree on {agreed[text]}")
    for row in differ[:20]:
        print(f"  {row['position']} {row['setting'] or ''}: gnubg {row['gnubg']}, "
              f"ours {row['ours']}")
    if args.json:
        args.json.write_text(json.dumps({
            "positions": len(positions), "seed": args.seed, "gnubg_plies": args.plies,
            "our_plies": args.ours, "match": args.match,
            "agree": agree, "share": share, "doubler_error": lost[0] / len(positions),
            "taker_error": lost[1] / max(doubled, 1), "doubles": doubled,
            "by_decision": dict(by_decision),
            "agreed": dict(agreed), "differ": differ}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
