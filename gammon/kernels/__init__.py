"""Compiled hot paths. :class:`TrackKernel` is the bridge the rules objects use."""

from __future__ import annotations

import threading

import numpy as np

from gammon.kernels import tracks


class TrackKernel:
    """Move generation and playouts for one track variant's rules vector."""

    def __init__(self, rules: np.ndarray, players: int, slots: int) -> None:
        self.rules = rules
        self.players = players
        self.slots = slots
        self.size = players * slots
        self._local = threading.local()

    def _workspace(self) -> tuple[np.ndarray, np.ndarray]:
        work = getattr(self._local, "work", None)
        if work is None:
            work = self._local.work = tracks.workspace(self.players, self.slots)
        return work

    def plays(
        self, board: bytes, player: int, die1: int, die2: int, head_limit: int = 1
    ) -> np.ndarray:
        """One row per legal play: resulting board, (source, destination, hit) x 4, length.

        ``head_limit`` caps the checkers leaving the head (variants with a head rule).
        """
        plays, words = self._workspace()
        array = np.frombuffer(board, np.int8)
        count = tracks.generate_plays(
            array, player, die1, die2, head_limit, self.rules, plays, words
        )
        return plays[:count].copy()

    def random_playouts(
        self, games: int, start: bytes, seed: int | None, max_turns: int = 10000
    ) -> np.ndarray:
        """``games`` random games from ``start``: rows of (winner, points, plays).

        ``seed`` reseeds the compiled generator; None continues its stream.
        """
        plays, words = self._workspace()
        if seed is not None:
            tracks.seed_kernels(seed)
        array = np.frombuffer(start, np.int8).copy()
        return tracks.random_playouts(games, array, self.rules, max_turns, plays, words)
