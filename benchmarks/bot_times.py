"""How long the four-player games' default bots take to decide, over whole games (issue
49, item 4: under a second at worst on the 2-core machine).

    .venv/bin/python benchmarks/bot_times.py [--games 2] [--seed 1]
        [--variants acedrex,multi-gam] [--person heuristic] [--json FILE]

Each game seats a person's stand-in (``--person``, the heuristic by default: its
decisions are not timed) and three of the variant's default bot
(``gammon.agents.default_bot``: what ``gammon play`` and the web's best level seat), each
built at its default setting as the terminal builds it. Every bot decision is timed (wall
clock, one process, nothing else running): the median, the 90th percentile, the worst, and
how many, by variant. The process's first decision loads the compiled code (what `gammon
prepare` built); it is reported apart as ``first_s`` and not counted in the others.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gammon  # noqa: E402
from gammon.agents import make_agent  # noqa: E402
from gammon.agents.registry import default_bot  # noqa: E402


def times(name: str, games: int, seed: int, person: str) -> dict[str, object]:
    rules = gammon.variant(name)
    spec = default_bot(rules)
    taken: list[float] = []
    rng = random.Random(seed)
    for game in range(games):
        agents = [make_agent(person if p == 0 else spec, rules, f"{seed}:{game}:{p}")
                  for p in range(rules.players)]
        state = rules.initial_state()
        while not state.is_terminal:
            if state.is_chance:
                state = state.apply(state.sample_chance(rng))
                continue
            player = state.current_player
            began = time.perf_counter()
            action = agents[player].choose(state)
            if player != 0:
                taken.append(time.perf_counter() - began)
            state = state.apply(action)
    first = taken.pop(0)
    ordered = sorted(taken)
    return {"variant": name, "bot": spec, "person": person, "games": games,
            "decisions": len(taken), "first_s": round(first, 3),
            "median_s": round(statistics.median(ordered), 3),
            "p90_s": round(ordered[int(0.9 * (len(ordered) - 1))], 3),
            "worst_s": round(ordered[-1], 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", default="acedrex,multi-gam")
    parser.add_argument("--person", default="heuristic")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    rows = [times(name.strip(), args.games, args.seed, args.person)
            for name in args.variants.split(",")]
    print("| variant | default bot | games | decisions | median s | p90 s | worst s | first s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        print(f"| {row['variant']} | {row['bot']} | {row['games']} | {row['decisions']} | "
              f"{row['median_s']} | {row['p90_s']} | {row['worst_s']} | {row['first_s']} |")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
