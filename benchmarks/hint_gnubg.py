"""Our best play against GNU Backgammon's, on positions from gnubg's own games.

    .venv/bin/python benchmarks/hint_gnubg.py --positions 500 --plies 2 [--json FILE]

Positions with dice are taken from money games that gnubg (0 ply) plays against itself:
every decision with more than one legal play, every third one. For each, our choice at
``--plies`` (the ``neural`` agent: expectimax on the shipped network) is compared with
gnubg's hint at ``--gnubg-plies`` (2 by default): agreement is our play being gnubg's
best; the equity difference is gnubg's own equity of its best play less that of ours
(0 when we agree), averaged over all positions.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from gnubg_runner import run_gnubg  # noqa: E402

import gammon  # noqa: E402
from gammon.agents import make_agent  # noqa: E402
from gammon.agents.gnubg import to_gnubg  # noqa: E402

DRIVER = Path(__file__).resolve().parent / "gnubg_scripts" / "hint_driver.py"


def decisions(count: int, seed: int) -> list:
    rules = gammon.variant("backgammon")
    players = [make_agent("gnubg:0", rules, seed), make_agent("gnubg:0", rules, seed + 1)]
    rng = random.Random(seed)
    found, seen = [], 0
    while len(found) < count:
        state = rules.initial_state()
        while not state.is_terminal and len(found) < count:
            if state.is_chance:
                state = state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if len(legal) > 1:
                seen += 1
                if seen % 3 == 0:
                    found.append(state)
            action = legal[0] if len(legal) == 1 else players[state.current_player].choose(state)
            state = state.apply(action)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--plies", type=int, default=2, help="our plies")
    parser.add_argument("--gnubg-plies", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    rules = gammon.variant("backgammon")
    states = decisions(args.positions, args.seed)
    ours = make_agent(f"neural:{args.plies}", rules, 1)
    chosen = [ours.choose(state) for state in states]
    jobs = [{"board": to_gnubg(s.position), "dice": list(s.dice), "plies": args.gnubg_plies}
            for s in states]
    answers, seconds = run_gnubg(DRIVER, jobs, processes=2, timeout=3600)
    agree, lost, compared = 0, 0.0, 0
    for state, play, answer in zip(states, chosen, answers, strict=True):
        if "error" in answer or not answer["plays"]:
            continue
        mine = to_gnubg(play.result.with_turn(state.position.turn))
        entry = next((p for p in answer["plays"] if p["board"] == mine), None)
        if entry is None:
            continue
        compared += 1
        best = answer["plays"][0]
        agree += entry is best or entry["board"] == best["board"]
        lost += best["equity"] - entry["equity"]
    figures = {"positions": compared, "our_plies": args.plies, "gnubg_plies": args.gnubg_plies,
               "agree": agree, "share": agree / compared, "mean_equity_lost": lost / compared}
    print(f"{compared} positions from gnubg self-play: neural:{args.plies}'s play is gnubg "
          f"{args.gnubg_plies}-ply's best in {agree} ({agree / compared:.1%}); mean equity "
          f"lost by gnubg's evaluation {lost / compared:.4f} points")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
