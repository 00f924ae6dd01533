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

from gammon.core.variant import TrackVariant
from gammon.kernels.encoding import UNITS, encode_quarter, encode_track


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
