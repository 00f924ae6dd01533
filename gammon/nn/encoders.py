"""What a network sees: the inputs of each family of games, from one player's side.

Every input row is written from the side of one player, the *perspective* (the player
to act or to roll), so one network serves both sides and learns half as much:

- :class:`TrackEncoder`, two-player track games (backgammon and its family, short and
  Caucasian backgammon, Long Nardy, acey-deucey): for each of the perspective player's
  points, in their own numbering, four units for their checkers there and four for
  the opponent's on the same physical point (Tesauro's: at least one, at least two, at
  least three, half of those above three); each side's bar (or waiting checkers) and
  borne-off checkers; each side's pip count, and whether the two sides are still in
  contact (a pure race is another game).
- :class:`QuarterEncoder`, Multi-Gam's four players on one quarter board: for each
  seat in turn order from the perspective player, their checkers on each point (the
  same four units), on the bar and off, and whether they have finished.

An encoder's :meth:`~TrackEncoder.encode` takes board rows (the ``bytes`` of
:class:`~gammon.core.position.Position`, as an ``int8`` array) and the perspective
player of each row, and writes one ``float32`` row of inputs per board, in compiled
code: the move generator's rows go straight in.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from gammon.core.variant import TrackVariant

#: Units per checker count on a point.
UNITS = 4
#: Scale of the pip counts (a side's pips are divided by this).
PIP_SCALE = 200.0


@njit(cache=True)
def _units(out, row, at, count):
    """Tesauro's four units for ``count`` checkers, written at ``out[row, at:at+4]``."""
    if count >= 1:
        out[row, at] = 1.0
    if count >= 2:
        out[row, at + 1] = 1.0
    if count >= 3:
        out[row, at + 2] = 1.0
    if count > 3:
        out[row, at + 3] = (count - 3) / 2.0


@njit(cache=True)
def encode_track(boards, perspective, slots, points, checkers, cross, out):
    """Inputs of two-player track boards (see :class:`TrackEncoder`); ``cross[p, s]`` is
    the opponent's slot of ``p``'s point ``s``."""
    bar = slots - 1
    for i in range(boards.shape[0]):
        p = perspective[i]
        q = 1 - p
        mine = p * slots
        theirs = q * slots
        out[i, :] = 0.0
        my_pips = 0.0
        their_pips = 0.0
        my_back = 0  # my rearmost checker (own numbering)
        their_front = points + 1  # their checker nearest my start, in my numbering
        for s in range(1, points + 1):
            c = boards[i, mine + s]
            o = boards[i, theirs + cross[p, s]]
            _units(out, i, (s - 1) * 2 * UNITS, c)
            _units(out, i, (s - 1) * 2 * UNITS + UNITS, o)
            my_pips += c * s
            their_pips += o * cross[p, s]
            if c > 0:
                my_back = s
            if o > 0 and s < their_front:
                their_front = s
        my_bar = boards[i, mine + bar]
        their_bar = boards[i, theirs + bar]
        my_pips += my_bar * (points + 1)
        their_pips += their_bar * (points + 1)
        at = points * 2 * UNITS
        out[i, at] = my_bar / 2.0
        out[i, at + 1] = their_bar / 2.0
        out[i, at + 2] = boards[i, mine] / checkers
        out[i, at + 3] = boards[i, theirs] / checkers
        out[i, at + 4] = my_pips / PIP_SCALE
        out[i, at + 5] = their_pips / PIP_SCALE
        # In contact while a checker of mine is still behind one of theirs (or either
        # side has a checker waiting to enter).
        contact = my_bar > 0 or their_bar > 0 or my_back > their_front
        out[i, at + 6] = 1.0 if contact else 0.0


@njit(cache=True)
def encode_quarter(boards, perspective, slots, points, checkers, players, out):
    """Inputs of Multi-Gam boards (see :class:`QuarterEncoder`)."""
    per_seat = points * UNITS + 3
    for i in range(boards.shape[0]):
        out[i, :] = 0.0
        for k in range(players):
            seat = (perspective[i] + k) % players
            base = seat * slots
            at = k * per_seat
            for s in range(1, points + 1):
                _units(out, i, at + (s - 1) * UNITS, boards[i, base + s])
            off = boards[i, base]
            out[i, at + points * UNITS] = boards[i, base + slots - 1] / checkers
            out[i, at + points * UNITS + 1] = off / checkers
            out[i, at + points * UNITS + 2] = 1.0 if off == checkers else 0.0


class TrackEncoder:
    """Inputs of a two-player track game (module text)."""

    family = "track"

    def __init__(self, variant: TrackVariant) -> None:
        if variant.players != 2:
            raise ValueError(f"{variant.name} has {variant.players} players, not two")
        self.slots = variant.slots
        self.points = variant.points
        self.checkers = variant.checkers
        self.size = 2 * variant.slots
        self.cross = np.zeros((2, variant.slots), np.int64)
        for p in (0, 1):
            for s in range(1, variant.points + 1):
                self.cross[p, s] = variant.shared_slot(p, s, 1 - p)
        self.inputs = self.points * 2 * UNITS + 7

    def encode(self, boards: np.ndarray, perspective: np.ndarray) -> np.ndarray:
        boards = np.ascontiguousarray(boards, dtype=np.int8)
        out = np.empty((boards.shape[0], self.inputs), np.float32)
        encode_track(boards, np.ascontiguousarray(perspective, dtype=np.int64), self.slots,
                     self.points, float(self.checkers), self.cross, out)
        return out


class QuarterEncoder:
    """Inputs of Multi-Gam (module text)."""

    family = "quarter"

    def __init__(self, variant: TrackVariant) -> None:
        self.slots = variant.slots
        self.points = variant.points
        self.checkers = variant.checkers
        self.players = variant.players
        self.size = variant.players * variant.slots
        self.inputs = self.players * (self.points * UNITS + 3)

    def encode(self, boards: np.ndarray, perspective: np.ndarray) -> np.ndarray:
        boards = np.ascontiguousarray(boards, dtype=np.int8)
        out = np.empty((boards.shape[0], self.inputs), np.float32)
        encode_quarter(boards, np.ascontiguousarray(perspective, dtype=np.int64), self.slots,
                       self.points, float(self.checkers), self.players, out)
        return out


def encoder_for(variant: Any) -> TrackEncoder | QuarterEncoder:
    """The encoder of ``variant``'s family of boards."""
    if not isinstance(variant, TrackVariant):
        raise ValueError(f"no board encoder for {variant.name}")
    if variant.players == 2:
        return TrackEncoder(variant)
    return QuarterEncoder(variant)
