"""What ``gammon duel`` prints: a progress bar, then the table (or JSON).

The command itself is a thin entry in :mod:`gammon.cli.main`; it calls :func:`run_duel`.
"""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from gammon.agents.duel import GAME, MATCH, MONEY, DuelResult, duel
from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import Rules


def run_duel(rules: Rules, players: str, games: int, seed: int, jobs: int, as_json: bool,
             console: Console, errors: Console, ray: str | None = None,
             journal: Path | None = None, contest: str = GAME, length: int = 0
             ) -> DuelResult:
    """Play the duel with a progress bar on ``errors`` and print the result; ``ray``
    plays its games on a Ray cluster (:mod:`gammon.agents.parallel`); ``journal`` keeps
    the games as they end, so that the duel can go on after a stop; ``contest`` and
    ``length``: what a game is (:data:`gammon.agents.duel.CONTESTS`)."""
    specs = [p.strip() for p in players.split(",") if p.strip()]
    if len(specs) < 2:
        first = specs[0] if specs else "heuristic"
        example = f"{first},{'random' if first == 'heuristic' else 'heuristic'}"
        raise InvalidOptionError(
            f"a duel compares agents: give two or more, e.g. --players {example} (got "
            f"{players!r}); when there are fewer than seats, they take the seats in turn")
    with Progress(
        TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(), TimeRemainingColumn(), console=errors, transient=True,
        disable=as_json,
    ) as progress:
        task = progress.add_task(f"{rules.name}: {' vs '.join(specs)}", total=games)
        result = duel(rules, specs, games, seed=seed, jobs=jobs, ray=ray, journal=journal,
                      progress=lambda done, total: progress.update(task, completed=done),
                      contest=contest, length=length)
    if as_json:
        print(json.dumps(result.as_dict(), indent=2))
    else:
        console.print(duel_table(result))
        console.print(duel_footer(result))
    return result


#: What a duel's figures are, by what its games are.
UNITS = {GAME: ("games", "points per game"),
         MONEY: ("money games with the cube", "points per game"),
         MATCH: ("{length}-point matches with the cube", "matches won")}


def _units(result: DuelResult) -> tuple[str, str]:
    games, per = UNITS[result.contest]
    return games.format(length=result.length), per


def duel_table(result: DuelResult) -> Table:
    options = ", ".join(f"{k}={v}" for k, v in result.options.items())
    name = f"{result.variant} ({options})" if options else result.variant
    games, per = _units(result)
    table = Table(title=f"{name}: {result.games} {games}, seed {result.seed}, seats rotated")
    table.add_column("agent", style="bold", no_wrap=True)
    table.add_column("seats", justify="right")
    table.add_column(per, justify="right")
    table.add_column("95% interval", justify="right", no_wrap=True)
    table.add_column("win rate", justify="right")
    table.add_column("s per move", justify="right")
    for agent in result.agents:
        p = agent.points
        if result.contest == MATCH:  # a share of the matches, not points
            shown = f"{p.mean:.1%}", f"[{p.low:.1%}, {p.high:.1%}]"
        else:
            shown = f"{p.mean:+.3f}", f"[{p.low:+.3f}, {p.high:+.3f}]"
        table.add_row(agent.name, str(agent.seats), *shown, f"{agent.win_rate:.1%}",
                      f"{agent.seconds_per_move:.4f}")
    return table


def duel_footer(result: DuelResult) -> str:
    lines = []
    if result.margin is not None:
        m = result.margin
        first, second = result.agents[0].name, result.agents[1].name
        games, per = _units(result)
        lines.append(f"{first} - {second}: {m.mean:+.3f} {per}, 95% interval "
                     f"[{m.low:+.3f}, {m.high:+.3f}]")
    rate = "matches/s" if result.contest == MATCH else "games/s"
    lines.append(f"{result.games} {_units(result)[0]} in {result.seconds:.1f} s: "
                 f"{result.games_per_second:.2f} {rate} with {result.jobs} job(s)"
                 + (f" on {result.backend}" if result.backend.startswith("Ray") else "")
                 + (f", {result.unfinished} unfinished" if result.unfinished else ""))
    return "\n".join(lines)
