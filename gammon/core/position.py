"""The checkers on a track board, as an immutable value.

Every player's checkers are counted from that player's own point of view, the way
backgammon players count pips: slot 0 is *off* (borne off), slots 1..N are the points
numbered by distance from bearing off, and slot N+1 is the *bar* (checkers waiting to
enter; variants that start off the board put their checkers there). Which physical point
a player's slot is, and so who meets whom, is the variant's business
(:meth:`gammon.core.variant.TrackVariant.shared_slot`).

The counts are kept as one ``bytes`` string (player after player), which hashes and
compares fast and converts to and from the compiled kernels' arrays without copying
element by element.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

OFF = 0

_set = object.__setattr__


@dataclass(frozen=True, slots=True)
class Position:
    """Checker counts per player per slot, and whose turn it is.

    ``board[p * slots + s]`` is the number of player ``p``'s checkers on slot ``s`` of
    ``p``'s own numbering (0 = off, 1..N = points, N+1 = bar).
    """

    board: bytes
    players: int = 2
    turn: int = 0

    def __post_init__(self) -> None:
        size, players = len(self.board), self.players
        if players >= 1 and size % players == 0 and size >= 3 * players \
                and 0 <= self.turn < players:
            return  # one test on the hot path; the ones below say what is wrong
        if self.players < 1 or len(self.board) % self.players:
            raise ValueError("the board must hold the same number of slots for every player")
        if len(self.board) // self.players < 3:
            raise ValueError("a track needs an off slot, at least one point and a bar")
        if not 0 <= self.turn < self.players:
            raise ValueError(f"turn {self.turn} is not a player of this position")

    @classmethod
    def unchecked(cls, board: bytes, players: int, turn: int) -> Position:
        """A position from parts known to fit (a board the move generator wrote), made
        without the checks of the constructor: the play-by-play path of every game."""
        position = object.__new__(cls)
        _set(position, "board", board)
        _set(position, "players", players)
        _set(position, "turn", turn)
        return position

    @classmethod
    def from_checkers(cls, rows: Iterable[Iterable[int]], turn: int = 0) -> Position:
        """Build a position from one row of slot counts per player."""
        lists = [list(row) for row in rows]
        if any(len(row) != len(lists[0]) for row in lists):
            raise ValueError("every player needs the same number of slots (off, points, bar)")
        flat = [count for row in lists for count in row]
        if any(not 0 <= count <= 127 for count in flat):
            raise ValueError("checker counts must lie between 0 and 127")
        return cls(bytes(flat), len(lists), turn)

    @classmethod
    def from_points(
        cls, layouts: Iterable[Mapping[int, int]], points: int = 24, turn: int = 0
    ) -> Position:
        """Build a position from ``{slot: count}`` per player (own numbering)."""
        rows = []
        for layout in layouts:
            row = [0] * (points + 2)
            for slot, count in layout.items():
                if not 0 <= slot <= points + 1:
                    raise ValueError(f"slot {slot} is outside 0..{points + 1}")
                row[slot] += count
            rows.append(row)
        return cls.from_checkers(rows, turn)

    @property
    def slots(self) -> int:
        return len(self.board) // self.players

    @property
    def points(self) -> int:
        """Number of points on a player's track (24 in backgammon)."""
        return self.slots - 2

    @property
    def bar_slot(self) -> int:
        return self.slots - 1

    @property
    def checkers(self) -> tuple[tuple[int, ...], ...]:
        """Slot counts, one tuple per player."""
        n = self.slots
        return tuple(tuple(self.board[p * n : (p + 1) * n]) for p in range(self.players))

    def row(self, player: int) -> tuple[int, ...]:
        n = self.slots
        return tuple(self.board[player * n : (player + 1) * n])

    def count(self, player: int, slot: int) -> int:
        return self.board[player * self.slots + slot]

    def bar(self, player: int) -> int:
        return self.count(player, self.bar_slot)

    def off(self, player: int) -> int:
        return self.count(player, OFF)

    def on_board(self, player: int) -> int:
        """Checkers on the points (not off, not on the bar)."""
        n = self.slots
        return sum(self.board[player * n + 1 : (player + 1) * n - 1])

    def pips(self, player: int) -> int:
        """Pip count: the distance all of ``player``'s checkers still have to travel."""
        return sum(slot * count for slot, count in enumerate(self.row(player)))

    def with_turn(self, turn: int) -> Position:
        return Position(self.board, self.players, turn)
