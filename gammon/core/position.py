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

Games that pin instead of hitting (Plakoto, Tapa) add a second string, ``pins``: one
byte per point in player 0's numbering, 0 when nothing is pinned there and ``p + 1``
when player ``p``'s checker lies pinned under the other side's. Counts alone cannot say
which of two sides sharing a point is on top; the pinned checker stays counted in its
owner's row, so counts, pips and conservation read as in every other game. Every other
game leaves ``pins`` empty (docs/architecture.md, "Pins").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

OFF = 0



@dataclass(frozen=True, slots=True, repr=False)
class Position:
    """Checker counts per player per slot, and whose turn it is.

    ``board[p * slots + s]`` is the number of player ``p``'s checkers on slot ``s`` of
    ``p``'s own numbering (0 = off, 1..N = points, N+1 = bar). ``pins[point - 1]`` is
    ``p + 1`` when player ``p``'s checker is pinned on player 0's ``point`` (games that
    pin only; empty otherwise).
    """

    board: bytes
    players: int = 2
    turn: int = 0
    pins: bytes = b""

    def __post_init__(self) -> None:
        size, players = len(self.board), self.players
        if players >= 1 and size % players == 0 and size >= 3 * players \
                and 0 <= self.turn < players and not self.pins:
            return  # one test on the hot path; the ones below say what is wrong
        if self.players < 1 or len(self.board) % self.players:
            raise ValueError("the board must hold the same number of slots for every player")
        if len(self.board) // self.players < 3:
            raise ValueError("a track needs an off slot, at least one point and a bar")
        if not 0 <= self.turn < self.players:
            raise ValueError(f"turn {self.turn} is not a player of this position")
        if self.pins:
            if len(self.pins) != self.points:
                raise ValueError(f"the pins need one byte per point ({self.points}), not "
                                 f"{len(self.pins)}")
            if any(pin > self.players for pin in self.pins):
                raise ValueError("a pin byte is 0 (nothing pinned) or the pinned player + 1")

    def __repr__(self) -> str:
        # The pins only where a game keeps them: every other game's text stays as it was.
        pins = f", pins={self.pins!r}" if self.pins else ""
        return (f"Position(board={self.board!r}, players={self.players!r}, "
                f"turn={self.turn!r}{pins})")

    @classmethod
    def unchecked(cls, board: bytes, players: int, turn: int, pins: bytes = b"") -> Position:
        """A position from parts known to fit (a board the move generator wrote), made
        without the checks of the constructor: the play-by-play path of every game."""
        position = _new(cls)
        _board(position, board)
        _players(position, players)
        _turn(position, turn)
        _pins(position, pins)
        return position

    @classmethod
    def from_checkers(cls, rows: Iterable[Iterable[int]], turn: int = 0,
                      pins: bytes = b"") -> Position:
        """Build a position from one row of slot counts per player (and the pins, in a
        game that pins)."""
        lists = [list(row) for row in rows]
        if any(len(row) != len(lists[0]) for row in lists):
            raise ValueError("every player needs the same number of slots (off, points, bar)")
        flat = [count for row in lists for count in row]
        if any(not 0 <= count <= 127 for count in flat):
            raise ValueError("checker counts must lie between 0 and 127")
        return cls(bytes(flat), len(lists), turn, pins)

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

    @property
    def kernel_row(self) -> bytes:
        """The position as the compiled kernels read a board row: the counts, then the
        pin row in the games that pin (:mod:`gammon.kernels.tracks`)."""
        return self.board + self.pins

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

    def pinned(self, point: int) -> int | None:
        """The player whose checker lies pinned on player 0's ``point``, or None."""
        if not self.pins or not self.pins[point - 1]:
            return None
        return self.pins[point - 1] - 1

    def with_turn(self, turn: int) -> Position:
        return Position(self.board, self.players, turn, self.pins)


# The slots' own setters, for :meth:`Position.unchecked`: half the time of the frozen
# dataclass's ``object.__setattr__`` by name, on every play of every game.
_new = object.__new__
_board, _players, _turn, _pins = (Position.__dict__[name].__set__
                                  for name in ("board", "players", "turn", "pins"))
