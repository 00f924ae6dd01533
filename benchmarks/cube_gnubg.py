"""Our cube decisions against GNU Backgammon's, on positions from gnubg's self-play.

    .venv/bin/python benchmarks/cube_gnubg.py --positions 500 --seed 1 [--json FILE]

Positions are taken from money games that gnubg (0-ply) plays against itself: the
position before every third roll, after the opening. For each, gnubg's cube decision at
2 plies (``cfevaluate``: cube in the middle, no Jacoby rule) is compared with ours: the
shipped network's cubeless chances at 0 ply (:class:`gammon.nn.evaluator.
NeuralEvaluator`) turned into cubeful equities by Janowski's model
(:func:`gammon.agents.cube.money_view`). A decision agrees when both say the same on
double or not, and on take or pass. Printed: the agreement overall and by gnubg's
decision, and the positions where they differ.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

import gammon  # noqa: E402
from gammon.agents import make_agent  # noqa: E402
from gammon.agents.cube import CENTRE, Chances, money_view  # noqa: E402
from gammon.agents.gnubg import bridge, to_gnubg  # noqa: E402
from gammon.agents.search import BoardSearch  # noqa: E402
from gammon.nn import load_network  # noqa: E402
from gammon.nn.evaluator import NeuralEvaluator  # noqa: E402
from gammon.notation import position_id  # noqa: E402


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


def ours(evaluator: NeuralEvaluator, search: BoardSearch | None,
         position: gammon.Position) -> tuple[bool, bool]:
    """(double, take) by our cube model for the side to roll: the network's chances at
    0 ply, or one roll ahead with ``search``."""
    if search is not None:
        win0, g0, g1 = search.rolled_chances(position.board, position.turn)
    else:
        board = np.frombuffer(position.board, np.int8)[None, :]
        win0, g0, g1 = (float(x[0]) for x in evaluator.chances(board, position.turn))
    chances = Chances(win0, g0, g1) if position.turn == 0 else Chances(win0, g0, g1).flipped()
    view = money_view(chances, CENTRE)
    return view.double, view.taker_takes


def theirs(position: gammon.Position, plies: int) -> tuple[bool, bool, str]:
    answer = bridge().ask({"op": "cube", "board": to_gnubg(position), "plies": plies})
    text = answer["decision"]
    lower = text.lower()
    double = lower.startswith(("double", "redouble"))
    take = "take" in lower or "beaver" in lower
    return double, take, text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plies", type=int, default=2, help="gnubg's plies")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--net", type=Path, help="our network (default: the shipped one)")
    parser.add_argument("--ours", type=int, default=1, choices=(0, 1),
                        help="our plies: the network's chances now (0) or a roll ahead (1)")
    args = parser.parse_args(argv)
    rules = gammon.variant("backgammon")
    evaluator = NeuralEvaluator(rules, load_network(rules, args.net))
    search = BoardSearch(rules, evaluator) if args.ours else None
    positions = gnubg_positions(args.positions, args.seed)
    agree = 0
    by_decision: Counter[str] = Counter()
    agreed: Counter[str] = Counter()
    differ = []
    for position in positions:
        double, take, text = theirs(position, args.plies)
        mine = ours(evaluator, search, position)
        by_decision[text] += 1
        same = mine == (double, take)
        if same:
            agree += 1
            agreed[text] += 1
        else:
            differ.append({"position": position_id(position), "gnubg": text,
                           "ours": ("double" if mine[0] else "no double") + ", "
                           + ("take" if mine[1] else "pass")})
    share = agree / len(positions)
    print(f"{len(positions)} positions from gnubg 0-ply self-play (seed {args.seed}): our "
          f"{args.ours}-ply cube decision agrees with gnubg {args.plies}-ply on {agree} "
          f"({share:.1%})")
    for text, n in by_decision.most_common():
        print(f"  gnubg says {text!r}: {n} positions, we agree on {agreed[text]}")
    for row in differ[:20]:
        print(f"  {row['position']}: gnubg {row['gnubg']}, ours {row['ours']}")
    if args.json:
        args.json.write_text(json.dumps({
            "positions": len(positions), "seed": args.seed, "gnubg_plies": args.plies,
            "our_plies": args.ours,
            "agree": agree, "share": share, "by_decision": dict(by_decision),
            "agreed": dict(agreed), "differ": differ}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
