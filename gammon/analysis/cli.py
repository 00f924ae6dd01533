"""What ``gammon hint``, ``gammon rollout`` and ``gammon analyze`` print.

The commands are thin entries in :mod:`gammon.cli.main`; they call the functions here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from gammon.analysis.hint import CubeHint, Rated, rate_cube, rate_plays
from gammon.analysis.review import html, plot, review
from gammon.analysis.rollout import RolloutResult, rollout
from gammon.core.errors import InvalidOptionError
from gammon.nn.evaluator import NeuralEvaluator, load_evaluator

#: Column names of the two-player result probabilities.
PROBS = ("win", "win\ng", "win\nbg", "lose\ng", "lose\nbg")


def network_evaluator(rules: Any, net: Path | None) -> NeuralEvaluator:
    """The network evaluator of ``rules`` (its shipped network, or ``net``)."""
    if not rules.game_type.checkers:
        raise InvalidOptionError(f"{rules.name} has no network yet: hint, rollout and "
                                 "analyze need one")
    evaluator = load_evaluator(rules, net)
    assert isinstance(evaluator, NeuralEvaluator)  # a board of checkers (checked above)
    return evaluator


def read_state(rules: Any, text: str, dice: str | None) -> Any:
    """The state a position's text describes (a CubeState for backgammon's IDs, with the
    cube and score they give), the dice of ``dice`` or of the ID."""
    from dataclasses import replace

    from gammon.core.dice import agreed_roll
    from gammon.notation import parse_position, situation_from_text
    from gammon.stakes.cube import CubeState

    if rules.notation == "gnu" and rules.players == 2:
        situation = situation_from_text(text, checkers=rules.checkers)
        pair = agreed_roll(situation.dice, dice or None, rules.sides)
        roll = None if pair is None else (pair[0], pair[1])  # a GNU ID's two dice
        return CubeState.from_situation(replace(situation, dice=roll), rules)
    thrown = agreed_roll(None, dice or None, rules.sides, rules.game_type.dice)
    return rules.state(parse_position(rules, text), thrown)


def print_hint(console: Console, rules: Any, state: Any, evaluator: NeuralEvaluator,
               plies: int, as_json: bool, limit: int = 10) -> None:
    from gammon.stakes.cube import base_of, stakes_of

    base = base_of(state)
    if base.is_chance:
        if stakes_of(state) is None:
            raise InvalidOptionError("no dice: give them with --dice (the cube decision is "
                                     "for backgammon positions given by their ID)")
        _print_cube(console, rate_cube(state, evaluator, plies), as_json)
        return
    search, units = match_search(rules, state, evaluator)
    rated = rate_plays(base, evaluator, plies, search=search)
    if as_json:
        print(json.dumps([{"play": r.text, "equity": round(r.equity, 4), "plies": r.plies,
                           "probs": [round(p, 4) for p in r.probs]} for r in rated], indent=1))
        return
    _print_plays(console, rated[:limit], base, plies, len(rated))
    if units:
        console.print(units, style="dim")


def match_search(rules: Any, state: Any, evaluator: Any) -> tuple[Any, str]:
    """The search that rates plays at ``state``'s score (by match equity in a match:
    :mod:`gammon.agents.match_play`; else the money search) and a line saying which
    (empty for money)."""
    from gammon.agents.match_play import MatchSearches
    from gammon.agents.search import make_search

    searches = MatchSearches(rules, evaluator, make_search(rules, evaluator))
    context = searches.context(state)
    if context is None:
        return searches.money, ""
    away = "-".join(str(n) for n in context.needs)
    return searches.at(state), (
        f"Equities by match equity at {away} away, cube {context.cube} (normalised: a "
        "single win +1, a single loss -1).")


def _print_plays(console: Console, rated: list[Rated], state: Any, plies: int,
                 total: int) -> None:
    dice = "-".join(map(str, state.dice))
    best = rated[0].equity if rated else 0.0
    rows = [[str(k), r.text, str(r.plies), f"{r.equity:+.3f}",
             "" if k == 1 else f"{r.equity - best:+.3f}"] for k, r in enumerate(rated, 1)]
    headers = ["#", "play", "ply", "equity", "diff"]
    two = bool(rated and rated[0].probs)
    if two:
        headers += list(PROBS)
        for row, r in zip(rows, rated, strict=True):
            row += [f"{p:.1%}" for p in r.probs]
    # Numbers are never cut: where the chances do not fit the console, they are left
    # out (--json has them all).
    keep = len(headers)
    if two and _width(headers, rows) > console.width:
        keep = 5
    table = Table(title=f"{total} legal plays of {dice}, best first ({plies}-ply)",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    for name in headers[:keep]:
        if name == "play":
            table.add_column(name, style="bold", overflow="fold")
        else:
            table.add_column(name, justify="right", no_wrap=True)
    for row in rows:
        table.add_row(*row[:keep])
    console.print(table)
    if two and keep == len(headers):
        console.print("Probabilities: the network's after each play, for the player on "
                      "roll, at the play's plies (those of its equity).", style="dim")
    elif two:
        console.print("The chances are left out at this width: widen the console or use "
                      "--json.", style="dim")


def _width(headers: list[str], rows: list[list[str]]) -> int:
    """The width a borderless table of these cells takes, two spaces between columns."""
    widths = [max([*map(len, h.splitlines()), *(len(row[k]) for row in rows)])
              for k, h in enumerate(headers)]
    return sum(widths) + 2 * (len(widths) - 1)


def _print_cube(console: Console, hint: CubeHint, as_json: bool) -> None:
    view, c = hint.view, hint.chances
    if as_json:
        print(json.dumps({"decision": hint.decision, "no_double": view.no_double,
                          "double_take": view.take, "double_pass": view.drop,
                          "win": c.win, "gammons": c.gammons,
                          "gammons_against": c.gammons_against, "units": hint.units}))
        return
    table = Table(title=f"Cube decision ({hint.units})")
    table.add_column("action")
    table.add_column("equity", justify="right")
    for name, value in (("no double", view.no_double), ("double, take", view.take),
                        ("double, pass", view.drop)):
        table.add_row(name, f"{value:+.3f}")
    console.print(table)
    console.print(f"Chances: win {c.win:.1%}; gammons {c.gammons:.1%} of wins, "
                  f"{c.gammons_against:.1%} of losses.")
    console.print(f"[bold]{hint.decision}[/bold]")


def run_rollout(console: Console, rules: Any, state: Any, evaluator: NeuralEvaluator,
                games: int, seed: int, jobs: int, plays: list[str] | None,
                as_json: bool, ray: str | None = None) -> list[RolloutResult]:
    from gammon.core.play import Play
    from gammon.notation import move_text_for
    from gammon.stakes.cube import base_of

    base = base_of(state)
    player = base.position.turn  # the player on roll: to roll, or to play the dice
    if base.is_chance:
        if plays:
            raise InvalidOptionError("--plays needs the dice (--dice) to play them with")
        starts = [("position", base)]
    else:
        text = move_text_for(rules)
        legal = list(base.legal_actions())
        chosen = ([text.find_play(base, p) for p in plays] if plays
                  else [r.action for r in rate_plays(base, evaluator, 0)[:3]])
        starts = [(text.format_action(a) if isinstance(a, Play) and a.moves else "no move",
                   base.apply(a)) for a in chosen if a in legal]
    with Progress(TextColumn("rollout"), BarColumn(), TextColumn("{task.completed}/"
                  "{task.total} games"), TimeElapsedColumn(), TimeRemainingColumn(),
                  console=console, disable=as_json, transient=True) as progress:
        task = progress.add_task("rollout", total=games)
        results = rollout(rules, evaluator, starts, player, games, seed, jobs,
                          lambda done, total: progress.update(task, completed=done), ray)
    if as_json:
        print(json.dumps([{"label": r.label, "equity": r.equity.__dict__,
                           "probs": [p.__dict__ for p in r.probs]} for r in results],
                         indent=1))
        return results
    table = Table(title=f"Cubeless rollout, {games} games each (the same dice for each; "
                  "luck-adjusted where it can be), for the player on roll",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("start", style="bold", overflow="fold")
    table.add_column("equity", justify="right", no_wrap=True)
    two = bool(results and results[0].probs)
    if two:
        for name in PROBS:
            table.add_column(name, justify="right", no_wrap=True)
    for r in results:
        e = r.equity
        cells = [r.label, f"{e.mean:+.3f}\n±{(e.high - e.low) / 2:.3f}"]
        if two:
            cells += [f"{p.mean:.1%}\n±{(p.high - p.low) / 2:.1%}" for p in r.probs]
        table.add_row(*cells)
    console.print(table)
    console.print("Under each figure: half its 95% interval.", style="dim")
    return results


def run_analyze(console: Console, path: Path, net: Path | None, plies: int,
                picture: Path | None, page: Path | None, as_json: bool) -> None:
    """Review a match file (.mat, gnubg's .sgf) or a table's log (.json)."""
    records, rules, names, theirs = _load_records(path)
    evaluator = network_evaluator(rules, net)
    reviewed = review(records, evaluator, names, plies)
    if picture is not None:
        fmt = picture.suffix.lstrip(".").lower() or "png"
        if fmt not in ("png", "svg"):
            raise InvalidOptionError(f"the plot is a .png or .svg file, not {picture.name!r}")
        plot(reviewed, picture, fmt)
    if page is not None:
        page.write_text(html(reviewed, f"Review of {path.name}"))
    if as_json:
        print(json.dumps({"summary": reviewed.summary(), "decisions": [
            {"game": d.game, "number": d.number, "player": d.player, "kind": d.kind,
             "dice": list(d.dice), "played": d.played, "best": d.best,
             "loss": round(d.loss, 4), "mark": d.mark} for d in reviewed.decisions],
            "gnubg": theirs}, indent=1))
        return
    # Names and file names are the user's text: escaped, never read as markup.
    table = Table(title=f"Review of {escape(path.name)} ({plies}-ply, {len(records)} game(s))",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("player", overflow="fold")
    for column in ("plays", "error\nrate", "cube", "error\nrate", "PR", "errors\nblund.",
                   "luck", "result\nadj."):
        table.add_column(column, justify="right", no_wrap=True)
    for row in reviewed.summary():
        table.add_row(escape(row["player"]), str(row["checker_decisions"]),
                      f"{row['checker_error_rate']:.1f}", str(row["cube_decisions"]),
                      f"{row['cube_error_rate']:.1f}", f"{row['pr']:.1f}",
                      f"{row['errors']}/{row['blunders']}", f"{row['luck']:+.2f}",
                      f"{row['points']:+g}\n{row['luck_adjusted']:+.2f}")
    console.print(table)
    if reviewed.match_chances:
        console.print("In match terms, the errors cost " + "; ".join(
            f"{escape(row['player'])} {row['match_lost']:.1%}" for row in reviewed.summary())
            + " of match-winning chances.")
    console.print("Plays and cube decisions with a choice; error rate: the equity lost a "
                  "decision, in thousandths of a point; PR: the loss per counted decision "
                  "times 500 (XG's performance rating); luck: what the rolls gave, in "
                  "points; the result, and below it the result less the luck.", style="dim")
    worst = Table(title="The worst decisions")
    for column in ("game", "#", "player", "dice", "played", "best", "lost", "mark"):
        worst.add_column(column)
    for d in reviewed.worst():
        worst.add_row(str(d.game), str(d.number), escape(reviewed.names[d.player]),
                      "".join(map(str, d.dice)), d.played, d.best, f"{d.loss:.3f}", d.mark)
    console.print(worst)
    if theirs is not None:
        console.print("gnubg's analysis kept in the file: " + "; ".join(
            f"{escape(name)}: error rate {_per_play(mine)}, cube error "
            f"{mine['cube_error']:.3f}, luck {mine['luck']:+.2f}"
            for name, mine in zip(names, theirs, strict=True)) + ".")
    for what, where in (("plot", picture), ("page", page)):
        if where is not None:
            console.print(f"The {what} is in {escape(str(where))}.")


def _per_play(figures: dict[str, float]) -> str:
    unforced = figures["unforced"]
    return f"{1000 * figures['checker_error'] / unforced:.1f}" if unforced else "-"


def _load_records(path: Path) -> tuple[list[Any], Any, list[str], Any]:
    """A match file's or a table log's games, their rules, the players' names, and the
    figures of gnubg's analysis where an .sgf file keeps them (else None)."""
    from gammon.core.variant import track_variant
    from gammon.notation.mat import read_match, replay_match
    from gammon.notation.sgf import gnubg_statistics, read_sgf
    from gammon.table.table import Table as GameTable

    try:
        text = path.read_text()
    except OSError as error:
        raise InvalidOptionError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise InvalidOptionError(f"{path} is not a match file (.mat, .sgf) or a table's "
                                 "log (.json): it is not text") from None
    if path.suffix == ".json" or text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidOptionError(f"{path} is not JSON: {error}") from None
        table = GameTable.from_json(data)
        names = [s.name or s.kind for s in table.seats]
        return list(table.series.games), table.variant, names, None
    theirs = None
    if path.suffix == ".sgf" or text.lstrip().startswith("(;"):
        sgf = read_sgf(text)
        match, theirs = sgf.match, gnubg_statistics(sgf)
    else:
        match = read_match(text)
    rules = track_variant("backgammon")
    records = replay_match(match, rules)
    names = [n or f"player {p + 1}" for p, n in enumerate(match.names)]
    return records, rules, names, theirs
