"""The record of a game with stakes: every roll, play, cube action and resignation.

:class:`GameRecord` applies chance outcomes and actions to a :class:`CubeState` and
keeps what was applied (``steps``, enough to replay the game exactly): the one record of
the game's steps. A step (:class:`Taken`) also keeps who took it and what a face wrote
of it (the table's log entry), so no face keeps the steps again. The lines for people
are a view of the steps, written by :mod:`gammon.notation.events`; an :class:`Event` is
one of them, and :func:`result_event` the last line of a finished game.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from gammon.stakes.cube import (
    DROP,
    CubeState,
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


@dataclass(slots=True)
class Taken:
    """One step of a game: the chance outcome or action ``taken``; the seat that took
    it (None for a throw, or where no table seats the players), a ``note`` a face gave
    it, and the face's own writing of it (``entry``: the table's JSON log entry,
    :mod:`gammon.table.log`), which the face sets once the step is applied."""

    taken: object
    seat: int | None = None
    note: str = ""
    entry: dict[str, object] | None = None


@dataclass
class GameRecord:
    """A game being played (or played) with its record.

    ``start`` is usually a :class:`CubeState`; any state with the protocol of a game
    state works (a four-player game, Acedrex): its events are then its rolls and actions
    as text.
    """

    start: Any
    steps: list[Taken] = field(default_factory=list)
    state: Any = None

    def __post_init__(self) -> None:
        if self.state is None:
            self.state = self.start

    def apply(self, outcome_or_action: Any) -> Any:
        """Apply a chance outcome or an action to the current state and record it."""
        before = self.state
        after = before.apply(outcome_or_action)
        self.steps.append(Taken(outcome_or_action))
        self.state = after
        return after

    def taken(self) -> list[object]:
        """The chance outcomes and actions applied, in order."""
        return [step.taken for step in self.steps]

    def replay(self) -> Iterator[Any]:
        """Every state of the game, from the start, by applying the steps again."""
        state = self.start
        yield state
        for step in self.steps:
            state = state.apply(step.taken)
            yield state

    @property
    def is_over(self) -> bool:
        return self.state.is_terminal


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
    return Event(winner, "result", f"{how}: {points_text(points)}")


def points_text(points: float) -> str:
    """``1 point``, ``2 points``, ``1.5 points``."""
    n = int(points) if float(points).is_integer() else points
    return f"{n} point{'s' if n != 1 else ''}"
