"""How Acedrex games between bots end: by captures, resignations or the turn cap.

    python benchmarks/acedrex_ends.py --seats heuristic --games 4 --seed 3
    python benchmarks/acedrex_ends.py --seats random,expectimax,expectimax,expectimax \\
        --games 20 --seed 5 --journal results/ends.jsonl
    python benchmarks/acedrex_ends.py --journal results/ends.jsonl --report   # figures only

Issue 34's targets: among the default bots (four seats) and with one random seat and
three default bots, at least 90% of games end by captures or resignations (not the turn
cap), with a median game of at most 200 turns, and a decision under a second in the
worst case. The seats rotate game by game as in a duel (``gammon.agents.duel``), and
each game has its own dice (``seeded_rng(seed, "dice", game)``: bots that choose alike
would play a duel's block of four games as one game four times), and each is written
as one JSON line to ``--journal`` as it ends, so a run stopped part way goes on from
the last game written. The report gives the share of games by end reason, the turns
(median, mean, largest), captures per game, and each agent's decision times (mean and
largest, in milliseconds) and money per game. ``--options`` passes rules options
(``captures_to_end=4,turn_cap=300``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gammon.agents import make_agent  # noqa: E402
from gammon.agents.base import seeded_rng  # noqa: E402
from gammon.agents.duel import seat_specs, seating  # noqa: E402
from gammon.core.protocol import play_on  # noqa: E402
from gammon.core.variant import variant  # noqa: E402


def play(rules: Any, specs: list[str], game: int, seed: int) -> dict[str, Any]:
    """Game ``game`` of the run: its end, turns, captures, and per seat the agent, the
    money, the decisions and the seconds of the slowest and of all of them."""
    order = seating(game, len(specs))
    agents = [make_agent(specs[order[s]], rules, f"{seed}:{game}:{s}")
              for s in range(len(specs))]
    dice = seeded_rng(seed, "dice", game)
    decisions = [0] * len(specs)
    total = [0.0] * len(specs)
    slowest = [0.0] * len(specs)

    def choose(state: Any) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        p = state.current_player
        began = time.perf_counter()
        action = agents[p].choose(state)
        spent = time.perf_counter() - began
        decisions[p] += 1
        total[p] += spent
        slowest[p] = max(slowest[p], spent)
        return action

    last = play_on(rules.initial_state(), dice, choose)
    return {"game": game, "seats": [specs[i] for i in order], "ended": last.ended,
            "turns": last.turns, "captures": [len(c) for c in last.captured],
            "out": [bool(o) for o in last.out], "money": list(last.money),
            "decisions": decisions, "seconds": total, "slowest": slowest}


def report(rows: list[dict[str, Any]]) -> str:
    """The figures of the games in ``rows``."""
    if not rows:
        return "no games yet"
    n = len(rows)
    reasons: dict[str, int] = {}
    for row in rows:
        reasons[row["ended"]] = reasons.get(row["ended"], 0) + 1
    turns = [row["turns"] for row in rows]
    ended = sum(reasons.get(r, 0) for r in ("captures", "resignations", "stalled"))
    lines = [f"{n} games: " + ", ".join(f"{k} {v} ({v / n:.0%})"
                                        for k, v in sorted(reasons.items())),
             f"ended before the cap: {ended / n:.1%}; turns median {statistics.median(turns):g}, "
             f"mean {statistics.fmean(turns):.1f}, largest {max(turns)}",
             f"captures a game: {statistics.fmean(sum(r['captures']) for r in rows):.2f}; "
             f"resignations a game: {statistics.fmean(sum(r['out']) for r in rows):.2f}"]
    agents: dict[str, dict[str, float]] = {}
    for row in rows:
        for s, spec in enumerate(row["seats"]):
            a = agents.setdefault(spec, {"seats": 0, "money": 0.0, "decisions": 0,
                                         "seconds": 0.0, "slowest": 0.0})
            a["seats"] += 1
            a["money"] += row["money"][s]
            a["decisions"] += row["decisions"][s]
            a["seconds"] += row["seconds"][s]
            a["slowest"] = max(a["slowest"], row["slowest"][s])
    for spec, a in agents.items():
        mean_ms = 1000 * a["seconds"] / max(1, a["decisions"])
        lines.append(f"{spec}: money {a['money'] / a['seats']:+.1f} a seat, "
                     f"{a['decisions'] / a['seats']:.0f} decisions a game, "
                     f"{mean_ms:.1f} ms a decision, slowest {1000 * a['slowest']:.0f} ms")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", default="expectimax",
                        help="agents, one per seat or a list dividing the four seats")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="", help="rules options, name=value,...")
    parser.add_argument("--journal", type=Path, help="one JSON line a game; kept games "
                        "are not played again")
    parser.add_argument("--report", action="store_true", help="report the journal and stop")
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    for part in filter(None, args.options.split(",")):
        key, _, value = part.partition("=")
        options[key.strip()] = int(value) if value.strip().lstrip("-").isdigit() else value
    rows: list[dict[str, Any]] = []
    if args.journal and args.journal.exists():
        rows = [json.loads(line) for line in args.journal.read_text().splitlines()
                if line.strip()]
    if not args.report:
        rules = variant("acedrex", **options)
        specs = seat_specs(args.seats.split(","), rules.players)
        done = {row["game"] for row in rows}
        for game in range(args.games):
            if game in done:
                continue
            row = play(rules, specs, game, args.seed)
            rows.append(row)
            if args.journal:
                args.journal.parent.mkdir(parents=True, exist_ok=True)
                with args.journal.open("a") as file:
                    file.write(json.dumps(row) + "\n")
            print(f"game {game}: {row['ended']} after {row['turns']} turns, captures "
                  f"{row['captures']}, money {row['money']}", flush=True)
    print(report(rows))


if __name__ == "__main__":
    main()
