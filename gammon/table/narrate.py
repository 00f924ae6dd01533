"""What happened at a table, in words: the lines every face shows.

:func:`narrate` turns a :class:`~gammon.table.table.Step` into :class:`Line` values:
plain text, each about one seat (whose name a face puts first, styled its own way) or
about nobody in particular. What the stakes layer and the variant add (a double, an
extra roll, a combat's result) comes from them: the stakes record
(:func:`gammon.stakes.record.describe`) and the variant's ``announce``.
:func:`record` is the game's record, a line per play or decision: a view of the steps
the series keeps for the game (:class:`~gammon.stakes.record.GameRecord`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gammon.core.dice import Roll
from gammon.core.play import Play
from gammon.core.protocol import State
from gammon.core.words import agree
from gammon.notation.events import describe
from gammon.notation.movetext import NO_MOVE
from gammon.stakes.cube import (
    CubeAction,
    CubeState,
    Resign,
    ResignAnswer,
    base_of,
    cube_value,
    stakes_of,
)
from gammon.stakes.match import Match
from gammon.stakes.prompt import cube_text, result_text, score_text
from gammon.stakes.session import Session
from gammon.table.table import ACTION, MATCH, MONEY, NEW_GAME, THROW, TIMEOUT, Step, Table

#: Kinds of line.
GAME, OPENING, ROLL, PLAY, CHOICE, CUBE, NOTE, RESULT = (
    "game", "opening", "roll", "play", "choice", "cube", "note", "result")

PLACES = ("1st", "2nd", "3rd", "4th")


@dataclass(frozen=True)
class Line:
    """One line of narration: ``seat`` is who it is about (their name goes first; None
    for a line about nobody in particular), ``text`` the words after the name."""

    seat: int | None
    text: str
    kind: str
    #: The line as a message of the pages' catalogues (``n.<message>``) and its values,
    #: for faces that speak other languages: a value named ``*_seat`` is a seat (its
    #: name is put in), ``*_seats`` several, ``*_result`` a result's name (a gammon, a
    #: mars), ``throws`` a list of (seat, die). Empty for a line only English tells (a
    #: variant's own notes).
    message: str = ""
    values: dict[str, object] = field(default_factory=dict)


def narrate(table: Table, step: Step, names: Sequence[str]) -> list[Line]:
    """The lines that tell ``step``; ``names`` are the seats' names."""
    if step.kind == NEW_GAME:
        return _new_game(table, step, names)
    if step.kind == TIMEOUT:
        return timeout_lines(table, names)
    before, after = step.before, step.after
    assert before is not None  # only a new game starts from nothing
    if step.kind == THROW:
        assert isinstance(step.taken, Roll)
        lines = _throw(step.taken, before, after, names)
    else:
        assert step.kind == ACTION and step.seat is not None
        lines = _action(table, step.seat, step.taken, before, after)
        if step.note:
            lines.append(Line(None, step.note, NOTE))
    rules = base_of(before).variant
    lines += [Line(seat, text, NOTE)
              for seat, text in rules.announce(base_of(before), step.taken, base_of(after))]
    if after.is_terminal and not before.is_terminal:
        lines += result_lines(table, after, names)
    return lines


def _new_game(table: Table, step: Step, names: Sequence[str]) -> list[Line]:
    state = step.after
    lines = []
    if table.kind == "match":
        lines.append(Line(None, f"Game {step.game} of the {table.length}-point match", GAME,
                          "match_game", {"game": step.game, "length": table.length}))
        if isinstance(state, CubeState) and state.score.crawford:  # as a match's are
            lines.append(Line(None, "The Crawford game: no doubling in this game.", NOTE,
                              "crawford"))
    elif table.kind == "money":
        lines.append(Line(None, f"Game {step.game}, at {table.stake} a point", GAME,
                          "money_game", {"game": step.game, "stake": table.stake}))
    if (stakes := stakes_of(state)) is not None and table.kind != "game":
        score = score_text(stakes, names) + "; " if table.kind == "match" else ""
        lines.append(Line(None, score + cube_text(stakes, names), GAME))
    return lines


def timeout_lines(table: Table, names: Sequence[str]) -> list[Line]:
    """How a table that a seat lost on time ended."""
    assert table.timed_out is not None
    lost = {MATCH: "the match", MONEY: "the game, and play ends"}.get(table.kind, "the game")
    lines = [Line(table.timed_out, f"did not come and loses {lost} by forfeit.", RESULT,
                  f"forfeit_{table.kind}") if table.forfeited else
             Line(table.timed_out, f"ran out of time and loses {lost}.", RESULT,
                  f"timeout_{table.kind}")]
    if table.kind == MONEY and isinstance(table.series, Session) and table.series.ledger:
        lines.append(Line(None, "Money so far: " + ", ".join(
            f"{name} {amount:+g}" for name, amount in zip(names, table.series.balances(),
                                                          strict=True)), RESULT))
    return lines


def _throw(roll: Roll, before: State, after: State, names: Sequence[str]) -> list[Line]:
    """An opening throw, or a roll that the player who threw now plays (in every game
    the throw that ends in a decision is that player's); other throws (a combat's) are
    the variant's to announce."""
    if roll.opening:
        return [_opening(roll, before, after, names)]
    player = after.current_player
    if player is not None:
        dice = "-".join(map(str, roll.dice))
        return [Line(player, "rolls " + dice, ROLL, "rolls", {"dice": dice})]
    return []


def _opening(roll: Roll, before: State, after: State, names: Sequence[str]) -> Line:
    throwers = roll.players or tuple(range(len(roll.dice)))
    throws = ", ".join(f"{names[p]} {agree(names[p], 'throws')} {d}"
                       for p, d in zip(throwers, roll.dice, strict=True))
    label = "Roll-off" if roll.players else "Opening roll"
    text = f"{label}: {throws}"
    values: dict[str, object] = {"throws": [[p, d] for p, d in zip(throwers, roll.dice,
                                                                 strict=True)]}
    state = base_of(after)
    if cube_value(after) != cube_value(before):
        text += f" — equal dice: automatic double, the cube is now {cube_value(after)}"
        message = "opening_double"
        values["cube"] = cube_value(after)
    elif state.is_chance and state.opening:
        best = max(roll.dice)
        tied = [p for p, d in zip(throwers, roll.dice, strict=True) if d == best]
        text += f" — a tie for the highest: {' and '.join(names[p] for p in tied)} throw again"
        message = "opening_tie"
        values["tied_seats"] = tied
    elif state.is_chance:  # the opening only chose who starts
        first = names[state.position.turn]
        text += f" — {first} {agree(first, 'goes')} first and {agree(first, 'rolls')}"
        message = "opening_rolls"
        values["first_seat"] = state.position.turn
    else:
        first = names[state.position.turn]
        text += (f" — {first} {agree(first, 'goes')} first with "
                 f"{state.dice[0]}-{state.dice[1]}")
        message = "opening_plays"
        values.update(first_seat=state.position.turn, dice=f"{state.dice[0]}-{state.dice[1]}")
    if roll.players:
        message = "rolloff" + message.removeprefix("opening")
    return Line(None, text + ".", OPENING, message, values)


def _action(table: Table, seat: int, action: object, before: State,
            after: State) -> list[Line]:
    if isinstance(action, CubeAction | Resign | ResignAnswer):
        return [Line(event.player if event.player is not None else seat, event.text, CUBE,
                     *_cube_message(event.kind, after))
                for event in describe(before, action, after)
                if event.kind != "result"]
    if isinstance(action, Play):
        if not action.moves:
            state = base_of(before)
            reason = state.variant.no_move_reason(state)
            if reason:
                return [Line(seat, f"cannot move: {reason}", PLAY, "cannot_move_because",
                             {"reason": reason})]
            return [Line(seat, "cannot move", PLAY, "cannot_move")]
        play = table.describe(before, action)
        if len(base_of(before).legal_actions()) == 1:
            return [Line(seat, f"plays {play}, the only legal play", PLAY, "plays_only",
                         {"play": play})]
        return [Line(seat, f"plays {play}", PLAY, "plays", {"play": play})]
    return [Line(seat, str(action), CHOICE)]


def _cube_message(kind: str, after: State) -> tuple[str, dict[str, object]]:
    """A cube event's message and values (the pages word doubles, takes and drops)."""
    if not isinstance(after, CubeState):  # pragma: no cover - cube events carry stakes
        return "", {}
    if kind in ("double", "beaver", "raccoon") and after.offer is not None:
        return kind, {"value": after.offer.value}
    if kind == "take":
        return kind, {"cube": after.cube_value}
    return "", {}


def _result_message(state: CubeState) -> tuple[str, dict[str, object]]:
    """A won game's message and values (the result's name, as the variant calls it, in
    ``*_result``); none for the rarer endings English alone tells."""
    winner = state.winner
    assert winner is not None
    points = state.returns()[winner]
    ending = state.ending
    if ending is not None and ending.how == "drop":
        return "wins_drop", {"points": f"{points:g}"}
    names = state.variant.result_names
    if ending is not None:
        return "wins_resigned", {"kind_result": names[ending.level - 1], "points": f"{points:g}"}
    if state.result_level > 1 and points == state.cube_value:
        return "", {}
    values: dict[str, object] = {"kind_result": names[state.result_level - 1],
                                 "points": f"{points:g}"}
    if state.cube_value != 1:
        return "wins_cube", {**values, "cube": state.cube_value}
    return "wins", values


@dataclass(frozen=True)
class Turn:
    """One line of a game's record: who did what with which dice."""

    player: int
    dice: tuple[int, ...]
    text: str
    #: A decision made in parts (an Acedrex throw spent step by step): the next part of
    #: the same player's joins this line.
    parts: bool = False


@dataclass(frozen=True)
class Record:
    """A game's record: one :class:`Turn` per play or decision, and with more than two
    players the throws of the opening that chose who starts (each throw's ``(seat,
    die)`` pairs)."""

    turns: list[Turn]
    opening: list[list[tuple[int, int]]]


def record(table: Table) -> Record:
    """The record of the game the table plays (or played last): a view of the game's
    steps as the series keeps them (:class:`~gammon.stakes.record.GameRecord`)."""
    turns: list[Turn] = []
    opening: list[list[tuple[int, int]]] = []
    games = table.series.games
    if not games:
        return Record(turns, opening)
    states = games[-1].replay()
    state = next(states)
    for taken, after in zip(games[-1].taken(), states, strict=True):
        whole, state = state, after
        before = base_of(whole)
        if whole.is_chance:
            if isinstance(taken, Roll) and taken.opening and table.variant.players > 2:
                throwers = taken.players or range(len(taken.dice))
                opening.append(list(zip(throwers, taken.dice, strict=True)))
            continue
        seat = whole.current_player
        if isinstance(taken, Play):
            turns.append(Turn(seat, before.dice,
                              table.describe(whole, taken) if taken.moves else NO_MOVE))
        elif turns and turns[-1].player == seat and turns[-1].parts:
            # The parts of one decision (an Acedrex throw spent in parts) share a line.
            dice = turns[-1].dice
            thrown = getattr(before, "die", None)
            if thrown is not None and dice and thrown != dice[-1]:
                dice += (thrown,)  # thrown again (a reroll): both throws shown
            turns[-1] = Turn(seat, dice, f"{turns[-1].text}, {taken}", True)
        else:
            thrown = getattr(before, "die", None)  # Acedrex: the throw being spent
            turns.append(Turn(seat, () if thrown is None else (thrown,), str(taken),
                              thrown is not None))
    return Record(turns, opening)


def result_lines(table: Table, state: State, names: Sequence[str]) -> list[Line]:
    """How a finished game came out: who won what; places or money for more players;
    and the score of a match or the money so far."""
    lines = []
    if (stakes := stakes_of(state)) is not None:
        text = result_text(stakes, names) + "."
        winner = stakes.winner
        if winner is not None and text.startswith(names[winner] + " "):
            lines.append(Line(winner, text[len(names[winner]) + 1:], RESULT,
                              *_result_message(stakes)))
        else:
            lines.append(Line(None, text, RESULT))
    else:
        returns = state.returns()
        order = sorted(range(len(returns)), key=lambda p: -returns[p])
        money = sum(returns) == 0
        lines.append(Line(None, "Money at the end:" if money else "Final ranking:", RESULT,
                          "money_end" if money else "ranking"))
        for place, p in enumerate(order):
            value = returns[p]
            worth = f"{value:+g}" if money else f"{value:g} point{'s' if value != 1 else ''}"
            lines.append(Line(p, f"{PLACES[place]}: {worth}", RESULT,
                              "place_money" if money else "place_points",
                              {"place": place + 1, "worth": f"{value:+g}" if money
                               else f"{value:g}"}))
    series = table.series
    if isinstance(series, Match):
        score = series.score
        each = ", ".join(f"{names[p]} {s}" for p, s in enumerate(score.score))
        note = " (the next game is the Crawford game)" if score.crawford else ""
        lines.append(Line(None, f"Score: {each} in a {score.length}-point match{note}.",
                          RESULT))
    elif table.kind == "money":
        balances = ", ".join(f"{names[p]} {b:+g}" for p, b in enumerate(series.balances()))
        played = len(series.ledger)
        lines.append(Line(None, f"After {played} game{'s' if played != 1 else ''} at "
                          f"{table.stake} a point: {balances}.", RESULT))
    return lines
