"""The strength table of docs/strength.md: runs its duels and writes the table.

    python benchmarks/strength.py --out docs/strength/cells   # every cell, seed 2026, 2 jobs
    python benchmarks/strength.py --out results/ --seed 7 --only backgammon
    python benchmarks/strength.py --out docs/strength/cells --table  # the table from saved results

Each cell is one ``gammon duel``; its JSON (what ``gammon duel --json`` prints) is saved
as ``OUT/NAME.json``, and a cell whose file exists is not played again. While a cell
plays, its games are written down one by one in ``OUT/games/NAME.jsonl`` (a duel's
journal), so a run stopped part way goes on from the last game written. ``--table``
prints the Markdown table from the files in ``OUT`` (missing cells are left out, a cell
still playing shows its games so far); the
cells behind docs/strength.md are kept in docs/strength/cells. Running everything takes
about three hours on two cores for the search cells, and as long again for the
networks' cells (``neural:2`` in backgammon thinks about 0.2 s a move).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gammon.agents import duel  # noqa: E402
from gammon.agents.duel import journal_summary  # noqa: E402


class Cell(NamedTuple):
    name: str
    variant: str
    players: str
    games: int
    why: str  # which target the cell measures
    #: How the target is met: "interval" (A - B's 95% interval above ``level``), "reach"
    #: (the interval reaches ``level`` or above), "mean" (A - B's mean at least
    #: ``level``), "edge" (the mean at least ``level`` and the interval above zero) or
    #: "none" (a yardstick, reported only).
    rule: str = "interval"
    level: float = 0.0
    #: What a game is: a cubeless game, a money game with the cube, or a whole match
    #: with the cube to ``length`` points (gammon.agents.duel.CONTESTS).
    contest: str = "game"
    length: int = 0


#: Each variant's short name in the cells' file names, and its best search agent.
BEST_SEARCH = {
    "backgammon": ("bg", "expectimax:2"),
    "nackgammon": ("nack", "expectimax:2"),
    "hypergammon-1": ("hyp1", "expectimax:2"),
    "hypergammon-2": ("hyp2", "expectimax:2"),
    "hypergammon-3": ("hyp3", "expectimax:2"),
    "short": ("short", "expectimax:2"),
    "caucasian": ("cauc", "expectimax:2"),
    "long-nardy": ("nardy", "expectimax:2"),
    "acey-deucey": ("acey", "expectimax:1"),
    "multi-gam": ("mg", "rollout"),
    "acedrex": ("ace", "expectimax:1"),
}
FOUR_PLAYERS = ("multi-gam", "acedrex")
#: The neural agent each variant's network cell seats.
BEST_NEURAL = {variant: "neural:1" for variant in BEST_SEARCH}
BEST_NEURAL.update({name: "neural:2" for name in
                    ("backgammon", "hypergammon-1", "hypergammon-2", "hypergammon-3")})
#: Games of the search cell where luck is large against the search's edge: hypergammon
#: with one checker a side is a pure race, a Multi-Gam game lasts four turns, and an
#: Acedrex game's money swings by hundreds of stakes.
MORE_GAMES = {"hypergammon-1": 40_000, "multi-gam": 3000, "acedrex": 1600}
#: Games of a network cell beyond the targets' 2,000: hypergammon-1's two bots play
#: alike, and its row of docs/strength.md was measured over 4,000.
MORE_NETWORK_GAMES = {"hypergammon-1": 4000}


def _cells() -> list[Cell]:
    cells = []
    for variant, (short, search) in BEST_SEARCH.items():
        four = variant in FOUR_PLAYERS
        games = 400 if four else 1000
        rest = ",heuristic,heuristic,heuristic" if four else ",heuristic"
        cells.append(Cell(f"{short}_h_r", variant,
                          "heuristic" + rest.replace("heuristic", "random"), games,
                          "heuristic beats random"))
        label = search.replace("expectimax:", "x").replace("rollout", "ro")
        cells.append(Cell(f"{short}_{label}_h", variant, search + rest,
                          MORE_GAMES.get(variant, games), "search beats heuristic"))
    cells += [
        Cell("bg_h_pub", "backgammon", "heuristic,pubeval", 1000, "against the yardstick",
             "none"),
        Cell("bg_x2_pub", "backgammon", "expectimax:2,pubeval", 1000,
             "best agent at least even with pubeval", "mean"),
        Cell("pub_gnubg", "backgammon", "pubeval,gnubg:0", 1000,
             "the yardstick against gnubg", "none"),
    ]
    # The networks (issue 14): neural:0 against pubeval, the best neural setting under a
    # second a move against gnubg:0, and a network against today's best agent elsewhere.
    cells += [
        Cell("bg_nn0_pub", "backgammon", "neural:0,pubeval", 2000,
             "neural:0 at least +0.45 against pubeval", "mean", 0.45),
        Cell("bg_nn_gnubg", "backgammon", f"{BEST_NEURAL['backgammon']},gnubg:0", 2000,
             "the best neural setting beats gnubg:0"),
        # Issue 28: gnubg 2-ply, "world class", as the next yardstick.
        Cell("bg_nn_gnubg2", "backgammon", "neural:2,gnubg:2", 1000,
             "neural:2 within reach of gnubg:2 (interval reaches zero)", "reach"),
    ]
    for variant, (short, search) in BEST_SEARCH.items():
        four = variant in FOUR_PLAYERS
        rest = f",{search},{search},{search}" if four else f",{search}"
        cells.append(Cell(f"{short}_nn_best", variant, BEST_NEURAL[variant] + rest,
                          800 if four else MORE_NETWORK_GAMES.get(variant, 2000),
                          "the network beats today's best agent"))
    # Issue 34: Acedrex's default bot since, `money` (games that end), against the bots
    # before it: the heuristic and the old default expectimax:1, three seats of them.
    cells += [
        Cell("ace_money_h", "acedrex", "money,heuristic,heuristic,heuristic", 800,
             "the money bot beats the heuristic in money"),
        Cell("ace_money_x1", "acedrex", "money,expectimax:1,expectimax:1,expectimax:1", 800,
             "the money bot beats the old default expectimax:1 in money"),
    ]
    # Issue 33: the tables games of Greece and Turkey, a network each trained by
    # self-play, the default bot where it beats expectimax:2.
    cells += [Cell(f"{short}_nn_x2", variant, "neural:1,expectimax:2", 2000,
                   "the network beats expectimax:2")
              for variant, short in (("portes", "portes"), ("fevga", "fevga"),
                                     ("tavla", "tavla"), ("plakoto", "plak"),
                                     ("tapa", "tapa"), ("moultezim", "mz"))]
    # Gul bara's cascades are turns of their own, so its search goes over states (not the
    # compiled board search) and thinks about a second a decision at two rolls: its
    # default bot searched one roll, as acey-deucey's does, and the network meets that.
    cells.append(Cell("gul_nn_x1", "gul-bara", "neural:1,expectimax:1", 2000,
                      "the network beats expectimax:1, the default before"))
    # The games that pin, whose default bot was the heuristic (blind to the pins, as the
    # search on it): their networks, which read the pins, against it.
    cells += [Cell(f"{short}_nn_h", variant, "neural:1,heuristic", 2000,
                   "the network beats the heuristic, the default before")
              for variant, short in (("plakoto", "plak"), ("tapa", "tapa"))]
    # With the cube (issue 28): money play, and 7-point matches (a match won counts one,
    # so A - B is the difference of the shares of matches won).
    cells += [
        Cell("bg_nn_gnubg_money", "backgammon", "neural,gnubg:0", 1000,
             "neural beats gnubg:0 in money play with the cube", contest="money"),
        Cell("bg_nn_gnubg_m7", "backgammon", "neural,gnubg:0", 400,
             "neural wins at least half its 7-point matches against gnubg:0", "mean", 0.0,
             contest="match", length=7),
    ]
    # Issue 48's targets against gnubg 2-ply: cubeless games (+0.05 a game or more, the
    # interval above zero), and 7-point matches (at least half of 400).
    cells += [
        Cell("bg_nn2_gnubg2_3k", "backgammon", "neural:2,gnubg:2", 3000,
             "neural:2 − gnubg:2 +0.05 a game or more, the interval above zero",
             "edge", 0.05),
        Cell("bg_nn_gnubg2_m7", "backgammon", "neural,gnubg:2", 400,
             "neural wins at least half its 7-point matches against gnubg:2", "mean", 0.0,
             contest="match", length=7),
    ]
    return cells


CELLS = _cells()
BY_NAME = {cell.name: cell for cell in CELLS}


def run(out: Path, seed: int, jobs: int, only: str | None, names: list[str],
        most: int | None = None) -> None:
    """Play the cells not yet in ``out``: those of ``names`` in that order, else all."""
    out.mkdir(parents=True, exist_ok=True)
    for cell in [BY_NAME[name] for name in names] if names else CELLS:
        path = out / f"{cell.name}.json"
        if path.exists() or (only and cell.variant != only):
            continue
        games = min(cell.games, most) if most else cell.games
        print(f"{cell.name}: {cell.variant} {cell.players}, {games} games", flush=True)
        journal = out / "games" / f"{cell.name}.jsonl"
        result = duel(cell.variant, cell.players.split(","), games, seed=seed, jobs=jobs,
                      journal=journal, contest=cell.contest, length=cell.length)
        path.write_text(json.dumps(result.as_dict(), indent=2))


def _interval(summary: dict) -> str:
    low, high = summary["ci95"]
    return f"{summary['mean']:+.3f} [{low:+.3f}, {high:+.3f}]"


def table(out: Path) -> str:
    """The Markdown table of the saved cells, in the order of :data:`CELLS`."""
    lines = [
        "| variant | A vs B | games | A − B per game, 95% interval | A's points per game "
        "| A's win rate | target | met |",
        "|---|---|---:|---|---|---:|---|:---:|",
    ]
    for cell in CELLS:
        path = out / f"{cell.name}.json"
        journal = out / "games" / f"{cell.name}.jsonl"
        if path.exists():
            data = json.loads(path.read_text())
        elif journal.exists():
            data = journal_summary(journal).as_dict()
        else:
            continue
        if not data["games"]:
            continue
        playing = not path.exists()
        first, second = data["agents"][0], data["agents"][1]
        margin = data["margin"]
        low = margin["ci95"][0]
        target = cell.why
        if cell.rule == "mean":
            met = "yes" if margin["mean"] >= cell.level else "no"
        elif cell.rule == "reach":
            met = "yes" if margin["ci95"][1] >= cell.level else "no"
        elif cell.rule == "edge":
            met = "yes" if margin["mean"] >= cell.level and low > 0 else "no"
        elif cell.rule == "none":
            met = "–"
        else:
            met = "yes" if low > cell.level else "no"
        if playing:
            met = "(under way)"
        versus = f"{first['agent']} vs {second['agent']}"
        if len(data["players"]) > 2:
            versus += " ×3"
        variant = cell.variant + {"money": " (money, cube)",
                                  "match": f" ({cell.length}-point matches)"}.get(
                                      cell.contest, "")
        lines.append(
            f"| {variant} | {versus} | {data['games']} | {_interval(margin)} "
            f"| {_interval(first['points'])} | {first['win_rate']:.1%} | {target} | {met} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="folder of the cells' JSON (all but --list)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", help="only the cells of this variant")
    parser.add_argument("--table", action="store_true", help="print the table and stop")
    parser.add_argument("--cells", nargs="*", default=[],
                        help="only these cells (by name, see --list), in this order")
    parser.add_argument("--list", action="store_true", help="list the cells and stop")
    parser.add_argument("--most", type=int, help="at most this many games a cell: a pilot "
                        "(the table shows the games played; targets ask for the full count)")
    args = parser.parse_args(argv)
    if args.list:
        for cell in CELLS:
            print(f"{cell.name:14} {cell.variant:16} {cell.players:40} {cell.games:>6}")
        return
    if args.out is None:
        parser.error("--out FOLDER is needed: where the cells' results are (or go)")
    unknown = [name for name in args.cells if name not in BY_NAME]
    if unknown:
        parser.error(f"no cell called {', '.join(unknown)} (--list shows the cells)")
    if not args.table:
        run(args.out, args.seed, args.jobs, args.only, args.cells, args.most)
    print(table(args.out))


if __name__ == "__main__":
    main()
