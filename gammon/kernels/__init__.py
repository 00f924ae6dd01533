"""Compiled hot paths. :class:`TrackKernel` is the bridge the rules objects use."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from gammon.kernels import tracks


def kernel_array(array: Any, dtype: Any) -> np.ndarray:
    """``array`` as every kernel is compiled for it: C-contiguous, of ``dtype`` and
    writable, copied only where it is not. numba compiles a kernel again for each new
    type of array it is handed, at that call: a read-only array (``np.frombuffer`` of
    bytes, ``np.broadcast_to``, an array Ray or a pickle shared) would stall the caller
    15 s for the move generator alone, and ``gammon prepare`` compiles one type."""
    return np.require(array, dtype, ["C", "W"])


def writable_boards(data: bytes, size: int | None = None) -> np.ndarray:
    """``data`` as int8 boards for the kernels (:func:`kernel_array`): ``size`` bytes a
    row, or one flat board."""
    array = np.frombuffer(bytearray(data), np.int8)
    return array if size is None else array.reshape(-1, size)


class TrackKernel:
    """Move generation for one track variant's rules vector.

    Whole compiled games are not played here: how turns follow each other differs by
    variant (Multi-Gam's four players, acey-deucey's extra rolls), so each variant's
    ``random_playouts`` is the one entry point to its own playout kernel.
    """

    def __init__(self, rules: np.ndarray, players: int, slots: int, pins: int = 0) -> None:
        self.rules = rules
        self.players = players
        self.slots = slots
        #: Bytes of the pin row after the counts (the points, in the games that pin).
        self.pins = pins
        self.size = players * slots + pins
        self._local = threading.local()

    def __getstate__(self) -> dict[str, object]:
        # Work arrays belong to a thread of one process: a copy (a state sent to a bot's
        # worker process) makes its own.
        state = self.__dict__.copy()
        del state["_local"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._local = threading.local()

    def workspace(self) -> tuple[np.ndarray, np.ndarray]:
        """This thread's work arrays for the compiled functions over these boards."""
        work = getattr(self._local, "work", None)
        if work is None:
            work = self._local.work = tracks.workspace(self.players, self.slots, self.pins)
        return work

    def plays(self, board: bytes, player: int, *dice: int, head_limit: int = 1) -> np.ndarray:
        """One row per legal play of ``dice`` (two or three): resulting board, (source,
        destination, hit) x 4, length.

        ``head_limit`` caps the checkers leaving the head (variants with a head rule). In
        the games that pin, ``board`` is the counts and the pin row together, and so is
        the board of a row; a move's hit flag then says that it pinned.
        """
        blob, count, width = self.play_bytes(board, player, dice, head_limit)
        return np.frombuffer(bytearray(blob), np.int8).reshape(count, width)

    def play_bytes(self, board: bytes, player: int, dice: tuple[int, ...],
                   head_limit: int = 1) -> tuple[bytes, int, int]:
        """:meth:`plays` as the rows' bytes, their number and the width of a row (what
        :class:`gammon.core.variant.LegalPlays` reads, with no array made)."""
        plays, words = self.workspace()
        third = dice[2] if len(dice) == 3 else 0
        count = tracks.generate_throw(writable_boards(board), player, dice[0], dice[1], third,
                                      head_limit, self.rules, plays, words)
        return plays[:count].tobytes(), count, plays.shape[1]

