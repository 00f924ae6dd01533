"""Our review's figures beside gnubg's own analysis of the same matches.

    .venv/bin/python benchmarks/review_gnubg.py --matches 6 --length 5 --plies 0

Bots play matches with the cube (``--players``, seats as in ``gammon duel``); each is
written as a .mat file, reviewed by ``gammon analyze``'s review at ``--plies`` on the
shipped network, and analysed by gnubg (``analyse match``) at the same plies. For each
player, summed over the matches: the checker-play error rate (the equity lost per
unforced play, thousandths), the cube error rate (per cube decision that counts: ours
near the doubling window, gnubg's "close" ones) and the luck of the rolls (points; gnubg's
normalised equity), ours and gnubg's side by side.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from gnubg_runner import run_gnubg  # noqa: E402

import gammon  # noqa: E402
from gammon.analysis.cli import network_evaluator  # noqa: E402
from gammon.analysis.review import review  # noqa: E402
from gammon.notation.mat import read_match, replay_match, write_match  # noqa: E402
from gammon.table.table import MATCH, Table  # noqa: E402

DRIVER = Path(__file__).resolve().parent.parent / "tests" / "gnubg_scripts" / "mat_driver.py"


def compare(players: list[str], matches: int, length: int, plies: int, seed: int,
            folder: Path) -> list[dict]:
    """Per player: our figures and gnubg's, summed over the matches."""
    rules = gammon.variant("backgammon")
    evaluator = network_evaluator(rules, None)
    totals = [{"player": name, "plays": 0, "lost": 0.0, "cube": 0, "cube_lost": 0.0,
               "luck": 0.0, "g_plays": 0, "g_lost": 0.0, "g_cube": 0, "g_cube_lost": 0.0,
               "g_luck": 0.0} for name in players]
    jobs = []
    reviews = []
    for k in range(matches):
        seats = players if k % 2 == 0 else players[::-1]
        table = Table(rules, seats, kind=MATCH, length=length, seed=seed + k)
        table.run()
        path = folder / f"match{k}.mat"
        path.write_text(write_match(length, seats, table.series.games))
        records = replay_match(read_match(path.read_text()))
        reviews.append((seats, review(records, evaluator, seats, plies)))
        jobs.append({"analyse": str(path), "plies": plies})
    results, _ = run_gnubg(DRIVER, jobs, processes=2, timeout=3600)
    for (seats, reviewed), result in zip(reviews, results, strict=True):
        if "error" in result:
            raise SystemExit(f"gnubg: {result['error']}")
        for seat, (row, side) in enumerate(zip(reviewed.summary(), "XO", strict=True)):
            total = totals[players.index(seats[seat])]
            mine = [d for d in reviewed.decisions if d.player == seat]
            total["plays"] += row["checker_decisions"]
            total["lost"] += sum(d.loss for d in mine if d.kind == "play")
            counted = [d for d in mine if d.kind == "cube" and d.counted]
            total["cube"] += len(counted)
            total["cube_lost"] += sum(d.loss for d in counted)
            total["luck"] += row["luck"]
            theirs = result["stats"][side]
            total["g_plays"] += theirs["moves"]["unforced-moves"]
            total["g_lost"] += theirs["moves"]["error-skill"]
            total["g_cube"] += theirs["cube"]["close-cube"]
            total["g_cube_lost"] += theirs["cube"]["error-skill"]
            total["g_luck"] += theirs["dice"]["luck"]
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="heuristic,neural:0")
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--length", type=int, default=5)
    parser.add_argument("--plies", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    players = [p.strip() for p in args.players.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        totals = compare(players, args.matches, args.length, args.plies, args.seed,
                         Path(folder))
    print(f"{args.matches} {args.length}-point matches, {' against '.join(players)}, "
          f"our review and gnubg's analysis both at {args.plies} plies:")
    print("| player | plays (ours, gnubg) | checker error rate (ours, gnubg) | cube "
          "decisions counted | cube error rate | luck |")
    print("|---|---:|---:|---:|---:|---:|")
    for t in totals:
        def rate(lost: float, count: int) -> str:
            return f"{1000 * lost / count:.1f}" if count else "-"
        print(f"| {t['player']} | {t['plays']}, {t['g_plays']} | {rate(t['lost'], t['plays'])}"
              f", {rate(t['g_lost'], t['g_plays'])} | {t['cube']}, {t['g_cube']} | "
              f"{rate(t['cube_lost'], t['cube'])}, {rate(t['g_cube_lost'], t['g_cube'])} | "
              f"{t['luck']:+.2f}, {t['g_luck']:+.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
