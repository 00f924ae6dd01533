"""Hypergammon's bots measured against perfect play: the exact equity each one loses.

    .venv/bin/python benchmarks/hyper_error.py [--positions 2000] [--seed 1]
        [--agents neural:0,neural:1,neural:2,expectimax:1,expectimax:2,heuristic,mcts,random]
        [--variants hypergammon-1,hypergammon-2,hypergammon-3]

Hypergammon is solved (gammon.evaluators.exact; three checkers once `gammon solve 3`
has built their table):
every play of every position has its exact cubeless equity. Positions are decisions with
two legal plays or more from games of `expectimax:1` against `heuristic` (the dice from
the seed); each agent plays each of them, and loses the exact equity of the best play
less that of its own. Printed per variant and agent: the mean loss a decision in
thousandths of a point, the share of errors (0.08 or more) and blunders (0.16 or more),
and the share of decisions where it chose a best play.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

import gammon  # noqa: E402
from gammon.agents import make_agent  # noqa: E402
from gammon.analysis.review import BLUNDER, ERROR  # noqa: E402
from gammon.evaluators.exact import ExactEvaluator  # noqa: E402

AGENTS = "neural:0,neural:1,neural:2,expectimax:1,expectimax:2,heuristic,mcts,random"


def positions(rules: object, count: int, seed: int) -> list:
    """Decisions with two legal plays or more from seeded games."""
    rng = random.Random(seed)
    players = [make_agent("expectimax:1", rules, seed), make_agent("heuristic", rules, seed)]
    found: list = []
    game = 0
    while len(found) < count:
        state = rules.initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal and len(found) < count:
            if state.is_chance:
                state = state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if len(legal) > 1:
                found.append(state)
            state = state.apply(legal[0] if len(legal) == 1
                                else players[(state.current_player + game) % 2].choose(state))
        game += 1
    return found


def exact_values(evaluator: ExactEvaluator, state: object) -> dict:
    """Each legal play's exact equity for its mover, by its resulting board."""
    values = {}
    for play in state.legal_actions():  # type: ignore[attr-defined]
        after = state.apply(play)  # type: ignore[attr-defined]
        mover = state.current_player  # type: ignore[attr-defined]
        if after.is_terminal:
            values[play.result.board] = float(after.returns()[mover])
        else:
            board = np.frombuffer(play.result.board, np.int8)[None, :]
            values[play.result.board] = float(evaluator.values(board, 1 - mover)[0][mover])
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agents", default=AGENTS)
    parser.add_argument("--variants", default="hypergammon-1,hypergammon-2,hypergammon-3")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    figures = []
    for name in [v.strip() for v in args.variants.split(",") if v.strip()]:
        rules = gammon.variant(name)
        evaluator = ExactEvaluator(rules)
        states = positions(rules, args.positions, args.seed)
        rated = [exact_values(evaluator, state) for state in states]
        print(f"{name}: {len(states)} decisions, rated exactly")
        print("| agent | mean loss | errors ≥ 0.08 | blunders ≥ 0.16 | best play |")
        print("|---|---:|---:|---:|---:|")
        for spec in [s.strip() for s in args.agents.split(",") if s.strip()]:
            agent = make_agent(spec, rules, args.seed)
            losses = []
            for state, values in zip(states, rated, strict=True):
                play = agent.choose(state)
                losses.append(max(values.values()) - values[play.result.board])
            n = len(losses)
            row = {"variant": name, "agent": spec, "mean_loss": 1000 * sum(losses) / n,
                   "errors": sum(x >= ERROR for x in losses) / n,
                   "blunders": sum(x >= BLUNDER for x in losses) / n,
                   "best": sum(x < 1e-9 for x in losses) / n}
            figures.append(row)
            print(f"| {spec} | {row['mean_loss']:.1f} | {row['errors']:.1%} | "
                  f"{row['blunders']:.1%} | {row['best']:.1%} |", flush=True)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
