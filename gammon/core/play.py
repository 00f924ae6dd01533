"""Checker moves and whole plays."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from gammon.core.position import Position


class Move(NamedTuple):
    """One checker moved by one die, in the mover's own numbering (0 = off, N+1 = bar).

    A named tuple rather than a dataclass: every legal play of every roll is made of
    them, and a tuple is built several times faster."""

    source: int
    destination: int
    hit: bool = False


@dataclass(frozen=True, slots=True, eq=False)
class Play:
    """A whole play for a roll: its moves in order and the board they lead to.

    Two plays are the same action when they lead to the same board, whatever the order
    or route of their moves (``8/5 6/5`` and ``6/5 8/5`` are one play).
    """

    moves: tuple[Move, ...]
    result: Position

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and other.result == self.result

    def __hash__(self) -> int:
        return hash(self.result)

    def __len__(self) -> int:
        return len(self.moves)

    @property
    def hits(self) -> int:
        return sum(move.hit for move in self.moves)
