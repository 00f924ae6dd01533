"""The web lobby's bot levels on the players' rating scale, measured by duels.

Each two-player variant's levels (beginner, fast, best: the server's menu) play their
neighbours in cubeless single games, seats rotated; a share of wins ``p`` is a rating
difference of ``400 log10(p / (1 - p))``, the scale Glicko-2 expects a player of a
settled rating to score on. The beginner level is anchored at 1500, a newcomer's
rating, so a person sees at once whether a bot is stronger than a new player. The levels
of two variants share no games: a rating compares levels of one variant.

    python benchmarks/bot_ratings.py --games 100          # all two-player variants
    python benchmarks/bot_ratings.py --variants backgammon --games 200

Every game goes into a journal under ``benchmarks/bot_ratings/`` (git-ignored) as it
ends, so an interrupted run goes on where it stopped; the ratings are written to
``gammon/web/data/bot_ratings.json``, which the server reads (``make bot-ratings`` runs
this in the background).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

from gammon.agents.duel import Summary, duel
from gammon.core.variant import variant, variant_names
from gammon.web.config import ServerConfig

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "gammon" / "web" / "data" / "bot_ratings.json"
JOURNALS = Path(__file__).resolve().parent / "bot_ratings"
ANCHOR = 1500.0


def difference(share: float, games: int) -> float:
    """The rating difference that wins ``share`` of ``games`` (clipped off 0 and 1)."""
    edge = 1.0 / (games + 1)
    p = min(max(share, edge), 1.0 - edge)
    return 400.0 * math.log10(p / (1.0 - p))


def pair(name: str, weaker: str, stronger: str, games: int, seed: int,
         jobs: int) -> dict[str, Any]:
    """A duel of two levels' agents: the stronger one's share of wins and its interval,
    and the rating difference it gives."""
    JOURNALS.mkdir(exist_ok=True)
    journal = JOURNALS / f"{name}-{weaker}-{stronger}.jsonl".replace(":", "_")
    result = duel(variant(name), [stronger, weaker], games, seed=seed, jobs=jobs,
                  journal=journal)
    wins = [1.0 if game.returns[game.seating.index(0)] > 0 else 0.0
            for game in result.results]
    share = Summary.of(wins, block=2)
    return {"stronger": stronger, "weaker": weaker, "games": len(wins),
            "share": round(share.mean, 4), "ci95": [round(share.low, 4), round(share.high, 4)],
            "difference": round(difference(share.mean, len(wins)), 1),
            "seconds_per_move": [round(a.seconds_per_move, 4) for a in result.agents]}


def rate_variant(name: str, games: int, seed: int, jobs: int) -> dict[str, Any]:
    levels = list(ServerConfig().menu(variant(name)).values())
    order = ["beginner", "fast", "best"]
    levels.sort(key=lambda level: order.index(level.name) if level.name in order else 9)
    ratings = {levels[0].name: ANCHOR}
    duels = []
    for below, above in zip(levels, levels[1:], strict=False):
        if above.spec == below.spec:
            ratings[above.name] = ratings[below.name]
            continue
        found = pair(name, below.spec, above.spec, games, seed, jobs)
        duels.append(found)
        ratings[above.name] = ratings[below.name] + found["difference"]
        print(f"{name}: {above.name} ({above.spec}) beats {below.name} ({below.spec}) "
              f"{found['share']:.1%} of {found['games']} -> {ratings[above.name]:.0f}",
              flush=True)
    return {"levels": {level.name: {"bot": level.spec, "rating": round(ratings[level.name])}
                       for level in levels}, "duels": duels}


def markdown(table: dict[str, Any]) -> str:
    """The ratings as a table: each variant's levels, and the duels that placed them."""
    rows = ["| variant | beginner | fast | best | duels (the stronger's wins, 95% interval) |",
            "| --- | --- | --- | --- | --- |"]
    for name, found in table["variants"].items():
        levels = found["levels"]
        shown = [f"{levels[level]['rating']} ({levels[level]['bot']})" if level in levels
                 else "none" for level in ("beginner", "fast", "best")]
        duels = "; ".join(f"{d['stronger']} over {d['weaker']} {d['share']:.0%} "
                          f"[{d['ci95'][0]:.0%}, {d['ci95'][1]:.0%}] of {d['games']}"
                          for d in found["duels"])
        rows.append(f"| {name} | {' | '.join(shown)} | {duels} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default="", help="comma-separated (default: every "
                        "two-player variant)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--markdown", action="store_true",
                        help="print the ratings measured so far as docs/strength.md's table")
    args = parser.parse_args()
    if args.markdown:
        print(markdown(json.loads(OUT.read_text())))
        return
    names = [n for n in (args.variants.split(",") if args.variants else variant_names())
             if variant(n).players == 2]
    table = json.loads(OUT.read_text()) if OUT.exists() else {"variants": {}}
    started = time.time()
    for name in names:
        table["variants"][name] = rate_variant(name, args.games, args.seed, args.jobs)
        table["command"] = (f"python benchmarks/bot_ratings.py --games {args.games} "
                            f"--seed {args.seed}")
        table["anchor"] = f"the beginner level at {ANCHOR:g}"
        OUT.parent.mkdir(exist_ok=True)
        OUT.write_text(json.dumps(table, indent=1) + "\n")
    print(f"{len(names)} variants in {time.time() - started:.0f} s -> {OUT}")


if __name__ == "__main__":
    main()
