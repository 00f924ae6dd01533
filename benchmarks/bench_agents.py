"""Time per move of every agent at its default setting, in every variant.

    python benchmarks/bench_agents.py                     # all variants, all agents
    python benchmarks/bench_agents.py --variants backgammon --positions 40 --json

For each variant the same decision states (reached by seeded games of the heuristic
against random, only states with more than one legal action) are given to each agent
that plays the variant, each agent built at its default setting (``gammon agents``
lists them). It prints the mean, median, 90th percentile and largest
time of a move in milliseconds, and the machine's load while it ran: the bots are
single-threaded, so on a shared machine the times grow with the load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gammon  # noqa: E402
from gammon.agents import make_agent, supported  # noqa: E402

VARIANTS = ["backgammon", "nackgammon", "hypergammon-1", "hypergammon-2", "hypergammon-3",
            "short", "caucasian", "long-nardy", "acey-deucey", "multi-gam", "acedrex"]
AGENTS = ["random", "heuristic", "expectimax", "mcts", "rollout", "pubeval", "gnubg", "neural",
          "neural:1", "neural:2"]


def decision_states(rules, count: int, seed: int) -> list:
    """``count`` decision states with a real choice, from heuristic-vs-random games."""
    rng = random.Random(seed)
    agents = [make_agent("heuristic" if p % 2 == 0 else "random", rules, f"{seed}:{p}")
              for p in range(rules.players)]
    states: list = []
    game = 0
    while len(states) < count:
        state = rules.initial_state()
        every = 1 + game % 3  # spread the samples over the game
        seen = 0
        while not state.is_terminal and len(states) < count:
            if state.is_chance:
                state = state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if len(legal) > 1:
                seen += 1
                if seen % every == 0:
                    states.append(state)
            state = state.apply(agents[state.current_player].choose(state))
        game += 1
    return states


def time_agent(spec: str, rules, states: list) -> dict:
    agent = make_agent(spec, rules, 1)
    agent.choose(states[0])  # warm up (compiled code, caches of the first position)
    times = []
    for state in states:
        began = time.perf_counter()
        agent.choose(state)
        times.append(1000 * (time.perf_counter() - began))
    times.sort()
    return {
        "agent": agent.name, "moves": len(times), "mean_ms": statistics.fmean(times),
        "median_ms": statistics.median(times),
        "p90_ms": times[min(len(times) - 1, int(0.9 * len(times)))], "max_ms": times[-1],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--agents", default=",".join(AGENTS))
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    rows = []
    for name in args.variants.split(","):
        rules = gammon.variant(name)
        states = decision_states(rules, args.positions, args.seed)
        for spec in args.agents.split(","):
            if not supported(spec, rules):
                continue
            try:
                row = time_agent(spec, rules, states)
            except gammon.GammonError as error:  # e.g. gnubg not installed
                print(f"{name} {spec}: skipped ({error})", file=sys.stderr)
                continue
            row["variant"] = name
            rows.append(row)
            if not args.json:
                print(f"{name:15s} {row['agent']:12s} mean {row['mean_ms']:8.1f} ms  "
                      f"median {row['median_ms']:8.1f}  p90 {row['p90_ms']:8.1f}  "
                      f"max {row['max_ms']:8.1f}", flush=True)
    load = {"before": load_before, "after": os.getloadavg()[0], "cores": os.cpu_count()}
    if args.json:
        print(json.dumps({"load": load, "results": rows}, indent=2))
    else:
        print(f"load average {load['before']:.1f} before, {load['after']:.1f} after, "
              f"{load['cores']} cores")


if __name__ == "__main__":
    main()
