"""Boards drawn for people in the terminal (rich), one kind per board a variant names.

A variant names its board (``rules.board``): ``track`` (the two-player backgammon
board, :mod:`gammon.render.terminal`), ``quarter`` (Multi-Gam's quarter board,
:mod:`gammon.render.quarter`) or ``ring`` (Acedrex's ring, :mod:`gammon.render.acedrex`).
:func:`board_for` gives the :class:`Board` that draws it, with one signature for every
kind, so a face draws any variant without knowing which it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from rich.console import RenderableType
from rich.text import Text

from gammon.core.errors import InvalidOptionError
from gammon.core.position import Position
from gammon.core.protocol import Rules
from gammon.render.acedrex import LETTERS, render_ring, style
from gammon.render.quarter import render_quarter
from gammon.render.terminal import board_text, checker, render_board


class Board(Protocol):
    """Draws one kind of board, and the token that stands for each player.

    ``state`` and ``highlight`` are Any: each kind draws the states of its own games and
    marks their moves (a track game's play, the stops of Acedrex's), which the name of
    the board, not a type, picks.
    """

    def draw(self, state: Any, *, viewer: int | None, names: Sequence[str],
             highlight: Any = None, position: Position | None = None,
             dice_left: Sequence[int] | None = None) -> RenderableType:
        """The board of ``state`` from ``viewer``'s side (None: the player on turn);
        ``highlight`` marks the last move, ``position`` and ``dice_left`` draw a play
        being typed in parts."""
        ...

    def token(self, player: int) -> Text:
        """The player's mark, coloured: their checker letter or colour."""
        ...


class TrackBoard:
    def draw(self, state: Any, *, viewer: int | None, names: Sequence[str],
             highlight: Any = None, position: Position | None = None,
             dice_left: Sequence[int] | None = None) -> RenderableType:
        return render_board(state, viewer, names=names, highlight=highlight,
                            position=position, dice_left=dice_left)

    def token(self, player: int) -> Text:
        return checker(player)


class QuarterBoard(TrackBoard):
    def draw(self, state: Any, *, viewer: int | None, names: Sequence[str],
             highlight: Any = None, position: Position | None = None,
             dice_left: Sequence[int] | None = None) -> RenderableType:
        return render_quarter(state, names=names, highlight=highlight, position=position,
                              dice_left=dice_left)


class RingBoard:
    def draw(self, state: Any, *, viewer: int | None, names: Sequence[str],
             highlight: Any = None, position: Position | None = None,
             dice_left: Sequence[int] | None = None) -> RenderableType:
        return render_ring(state, names, highlight or ())

    def token(self, player: int) -> Text:
        return Text(LETTERS[player], style=style(player))


#: The boards, by the name a variant gives (``rules.board``).
BOARDS: dict[str, Board] = {"track": TrackBoard(), "quarter": QuarterBoard(),
                            "ring": RingBoard()}


def board_for(rules: Rules) -> Board:
    """The board that draws ``rules``' games: the one it names."""
    board = BOARDS.get(rules.board)
    if board is None:
        raise InvalidOptionError(
            f"{rules.name} names the board {rules.board!r}; known: {', '.join(BOARDS)}")
    return board


__all__ = ["BOARDS", "Board", "board_for", "board_text", "render_board"]
