"""A game's record in words: one line for people per event (**RECORD-EVENTS**).

The record itself (:class:`~gammon.stakes.record.GameRecord`) keeps only the steps; the
events are a view of them: the opening throw, each roll and play (in gnubg's move
text), each double, take, drop, beaver and raccoon, automatic doubles, resignations and
their answers, and the result. The terminal's narration and a match's summary read
them.
"""

from __future__ import annotations

from typing import Any

from gammon.core.dice import Roll
from gammon.core.play import Play
from gammon.notation.movetext import format_play
from gammon.stakes.cube import CubeAction, Resign, ResignAnswer, stakes_of
from gammon.stakes.record import Event, GameRecord, points_text, result_event


def events(record: GameRecord) -> list[Event]:
    """Every event of ``record``'s game, in order."""
    out: list[Event] = []
    state = record.start
    for step in record.taken():
        after = state.apply(step)
        out.extend(describe(state, step, after))
        state = after
    return out


def lines(record: GameRecord, names: list[str] | None = None) -> list[str]:
    """The record as numbered lines of text."""
    players = len(record.start.returns())
    names = names or [f"player {p}" for p in range(players)]
    width = max(len(n) for n in names)
    out = []
    for number, event in enumerate(events(record), 1):
        who = names[event.player] if event.player is not None else ""
        dice = "".join(map(str, event.dice))
        out.append(f"{number:>3}  {who:<{width}}  {dice:<2}  {event.text}".rstrip())
    return out


def describe(before: Any, x: Any, after: Any) -> list[Event]:
    """The record's events for ``x`` applied to ``before`` giving ``after``."""
    if stakes_of(before) is None:
        return _describe_plain(before, x, after)
    events: list[Event] = []
    if isinstance(x, Roll):
        if x.opening:
            throws = ", ".join(f"player {p} {d}" for p, d in enumerate(x.dice))
            tie = after.base.opening
            events.append(Event(None, "opening", f"opening throw: {throws}"
                                + (" (equal: throw again)" if tie else ""), x.dice))
            if after.cube_value != before.cube_value:
                events.append(Event(None, "auto-double",
                                    f"automatic double: the cube is now {after.cube_value}"))
        elif after.base.dice:
            events.append(Event(before.base.position.turn, "roll",
                                f"rolls {'-'.join(map(str, after.base.dice))}", after.base.dice))
    else:
        player = before.current_player
        if isinstance(x, CubeAction):
            offer = before.offer
            if x is CubeAction.DOUBLE:
                events.append(Event(player, "double", f"doubles to {after.offer.value}"))
            elif x is CubeAction.TAKE:
                events.append(Event(player, "take", f"takes: the cube is {after.cube_value}"))
            elif x is CubeAction.DROP:
                stake = offer.stake if offer is not None else before.cube_value
                events.append(Event(player, "drop", f"drops and gives up {points_text(stake)}"))
            elif x is CubeAction.BEAVER:
                events.append(Event(player, "beaver", f"beavers to {after.offer.value}"))
            elif x is CubeAction.RACCOON:
                events.append(Event(player, "raccoon", f"raccoons to {after.offer.value}"))
        elif isinstance(x, Resign):
            given = before.variant.result_name(x.level)
            events.append(Event(player, "resign", f"offers to resign {given}"))
        elif isinstance(x, ResignAnswer):
            level = before.resignation[1] if before.resignation else 1
            given = before.variant.result_name(level, article=False)
            events.append(Event(player, x.value, f"{x.value}s the {given}"))
        elif isinstance(x, Play):
            dice = before.base.dice
            text = format_play(x, before.base.variant.points) if x.moves else "cannot move"
            events.append(Event(player, "play", text, dice))
        else:
            events.append(Event(player, "choice", str(x), before.base.dice))
    if after.is_terminal and not before.is_terminal:
        events.append(result_event(after))
    return events


def _describe_plain(before: Any, x: Any, after: Any) -> list[Event]:
    """Events of a game without the stakes layer: each throw and action as text."""
    events = []
    if isinstance(x, Roll):
        events.append(Event(None, "opening" if x.opening else "roll",
                            f"throws {'-'.join(map(str, x.dice))}", x.dice))
    elif isinstance(x, Play):
        text = format_play(x, before.variant.points) if x.moves else "cannot move"
        events.append(Event(before.current_player, "play", text, before.dice))
    else:
        events.append(Event(before.current_player, "choice", str(x)))
    if after.is_terminal and not before.is_terminal:
        results = ", ".join(points_text(r) for r in after.returns())
        events.append(Event(None, "result", f"the game is over: {results}"))
    return events
