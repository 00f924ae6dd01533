"""What an evaluator is: the protocols the search and the bots score states with, and
what every evaluator shares.

An **evaluator** scores states for every player: ``evaluator.evaluate(states)``
returns an array of shape ``(len(states), players)`` holding each player's expected
return (in the units of ``state.returns()``: points in backgammon, places in Multi-Gam,
money in Acedrex). The hand-written evaluators live in this package, the networks in
:mod:`gammon.nn`; both sit below the bots (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from gammon.core.protocol import Phase


class Evaluator(Protocol):
    """Scores states: one row per state, one column per player (expected returns)."""

    players: int

    def evaluate(self, states: Sequence[Any]) -> np.ndarray: ...


@runtime_checkable
class ChanceEvaluator(Protocol):
    """An evaluator that also gives two-player winning chances, for cube decisions."""

    def chances(self, boards: np.ndarray, to_move: int) -> tuple[np.ndarray, ...]:
        """Player 0's chance to win and each player's gammon rate, for boards (rows of
        board bytes) with ``to_move`` to roll."""
        ...


@runtime_checkable
class BoardEvaluator(ChanceEvaluator, Evaluator, Protocol):
    """An evaluator of raw board rows of a two-player track game, which the compiled
    board search (:class:`gammon.agents.search.BoardSearch`) scores in batches."""

    def values(self, boards: np.ndarray, to_roll: int) -> np.ndarray:
        """Each player's value (columns) of each board (rows), ``to_roll`` to roll."""
        ...

    def terminal_value(self, board: bytes, winner: int) -> np.ndarray:
        """Each player's result of a finished board that ``winner`` has borne off."""
        ...


def finished_returns(states: Sequence[Any], players: int) -> tuple[np.ndarray, list[int]]:
    """Rows of each player's result, filled for the finished states (exactly, by their
    returns), and the indices of the others, which an evaluator is to fill."""
    out = np.zeros((len(states), players))
    live = []
    for i, state in enumerate(states):
        if state.phase is Phase.TERMINAL:
            out[i] = state.returns()
        else:
            live.append(i)
    return out, live


def two_player_chances(win: np.ndarray, win_gammon: np.ndarray, lose_gammon: np.ndarray,
                       to_move: np.ndarray, floor: float
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The :class:`ChanceEvaluator` answer from chances seen by the player to move (to
    win, to win a gammon or better, to lose one): player 0's chance to win, and the share
    of each player's wins that are gammons or better (a share of less than ``floor``
    wins counts as of ``floor``)."""
    zero = to_move == 0
    win0 = np.where(zero, win, 1.0 - win)
    gammon0 = np.where(zero, win_gammon, lose_gammon)
    gammon1 = np.where(zero, lose_gammon, win_gammon)
    return (win0, np.clip(gammon0 / np.maximum(win0, floor), 0.0, 1.0),
            np.clip(gammon1 / np.maximum(1.0 - win0, floor), 0.0, 1.0))
