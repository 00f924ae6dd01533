"""The record of a game with stakes: every roll, play, cube action and resignation.

:class:`GameRecord` applies chance outcomes and actions to a :class:`CubeState` and
keeps both what was applied (``steps``, enough to replay the game exactly) and a line
for people per event (``events``): the opening throw, each roll and play, each double,
take, drop, beaver and raccoon, automatic doubles, resignations and their answers, and
the result (**RECORD-EVENTS**).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from gammon.core.dice import Roll
from gammon.core.play import Play
from gammon.stakes.cube import (
    DROP,
    CubeAction,
    CubeState,
    Resign,
    ResignAnswer,
)


@dataclass(frozen=True)
class Event:
    """One line of a game record.

    ``player`` acted (None for the opening throw); ``kind`` is one of ``opening``,
    ``auto-double``, ``roll``, ``play``, ``double``, ``take``, ``drop``, ``beaver``,
    ``raccoon``, ``resign``, ``accept``, ``reject``, ``choice`` (a variant's own
    decision) and ``result``; ``text`` says it for people; ``dice`` are the dice of a
    roll or play.
    """

    player: int | None
    kind: str
    text: str
    dice: tuple[int, ...] = ()


@dataclass
class GameRecord:
    """A game being played (or played) with its record.

    ``start`` is usually a :class:`CubeState`; any state with the protocol of a game
    state works (a four-player game, Acedrex): its events are then its rolls and actions
    as text.
    """

    start: Any
    steps: list[Any] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    state: Any = None

    def __post_init__(self) -> None:
        if self.state is None:
            self.state = self.start

    def apply(self, outcome_or_action: Any) -> Any:
        """Apply a chance outcome or an action to the current state and record it."""
        before = self.state
        after = before.apply(outcome_or_action)
        self.steps.append(outcome_or_action)
        self.events.extend(describe(before, outcome_or_action, after))
        self.state = after
        return after

    def replay(self) -> Iterator[Any]:
        """Every state of the game, from the start, by applying the steps again."""
        state = self.start
        yield state
        for step in self.steps:
            state = state.apply(step)
            yield state

    @property
    def is_over(self) -> bool:
        return self.state.is_terminal

    def lines(self, names: list[str] | None = None) -> list[str]:
        """The record as numbered lines of text."""
        players = len(self.start.returns())
        names = names or [f"player {p}" for p in range(players)]
        width = max(len(n) for n in names)
        out = []
        for number, event in enumerate(self.events, 1):
            who = names[event.player] if event.player is not None else ""
            dice = "".join(map(str, event.dice))
            out.append(f"{number:>3}  {who:<{width}}  {dice:<2}  {event.text}".rstrip())
        return out


def describe(before: Any, x: Any, after: Any) -> list[Event]:
    """The record's events for ``x`` applied to ``before`` giving ``after``."""
    if not isinstance(before, CubeState):
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
                events.append(Event(player, "drop", f"drops and gives up {_points(stake)}"))
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
            from gammon.notation.movetext import format_play

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
        from gammon.notation.movetext import format_play

        text = format_play(x, before.variant.points) if x.moves else "cannot move"
        events.append(Event(before.current_player, "play", text, before.dice))
    else:
        events.append(Event(before.current_player, "choice", str(x)))
    if after.is_terminal and not before.is_terminal:
        results = ", ".join(_points(r) for r in after.returns())
        events.append(Event(None, "result", f"the game is over: {results}"))
    return events


def result_event(state: CubeState) -> Event:
    """The last line of a finished game: who won what."""
    winner = state.winner
    if winner is None:
        return Event(None, "result", "the game is drawn")
    points = state.returns()[winner]
    ending = state.ending
    if ending is not None and ending.how == DROP:
        how = "wins: the cube was dropped"
    elif ending is not None:
        how = f"wins {state.variant.result_name(ending.level)} by resignation"
    elif state.base.position.players == 2:
        how = f"wins {state.variant.result_name(state.result_level)}"
    else:
        how = "comes first"
    return Event(winner, "result", f"{how}: {_points(points)}")


def _points(points: float) -> str:
    n = int(points) if float(points).is_integer() else points
    return f"{n} point{'s' if n != 1 else ''}"
