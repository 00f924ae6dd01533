"""Hypergammon solved: the exact value of every position, and the evaluator that reads it.

Hypergammon with one or two checkers a side is small enough to solve outright: every
position before a roll, with either side to roll, gets its exact cubeless money equity
for the player to roll (gammons and backgammons counted) under perfect play by both
sides, and the chances behind it (to win, to win a gammon or better, to lose one) under
that play. :func:`solve` computes them by value iteration over every position
(``V(s) = sum over the 21 rolls of P(roll) * max over the legal plays of`` what the play
wins at once, or ``-V`` of the position it leaves the opponent), from the engine's own
move generator, until no value moves by more than ``tolerance``; the chances are then
worked out the same way under the plays that equity chose. ``benchmarks/
solve_hypergammon.py`` writes the tables that ship (``data/hypergammon-N.npz``); for one
and two checkers it takes seconds and a minute.

A position is its two sides' checkers, each a sorted tuple of slots in that side's own
numbering (0 off, 1-24 the points, 25 the bar), the player to roll first; the tables are
dense arrays over every pair of such tuples (not all can happen: a point never holds
both sides' checkers), indexed by the two tuples' places in
``combinations_with_replacement(range(26), n)`` without the all-off one.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from gammon.core.errors import InvalidOptionError

DATA = Path(__file__).resolve().parent / "data"
SLOTS = 26
#: Each of the 21 rolls with its probability (in 36ths).
ROLLS = [(a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)]
#: The columns of a table: equity, chance to win, to win a gammon or more, to lose one.
EQUITY, WIN, WIN_GAMMON, LOSE_GAMMON = range(4)


@functools.cache
def sides(checkers: int) -> tuple[tuple[tuple[int, ...], ...], dict[tuple[int, ...], int]]:
    """Every placing of one side's ``checkers`` checkers that is not all borne off, and
    each one's index."""
    combos = tuple(c for c in itertools.combinations_with_replacement(range(SLOTS), checkers)
                   if any(c))
    return combos, {c: i for i, c in enumerate(combos)}


def side_of(board: bytes | np.ndarray, player: int) -> tuple[int, ...]:
    """The sorted slots of ``player``'s checkers on a two-player board."""
    row = np.frombuffer(bytes(board), np.int8)[player * SLOTS:(player + 1) * SLOTS]
    return tuple(int(s) for s in np.repeat(np.arange(SLOTS), row))


def board_of(mover: Sequence[int], other: Sequence[int]) -> np.ndarray:
    """The board (player 0 to roll) of the two sides' checkers."""
    board = np.zeros(2 * SLOTS, np.int8)
    for slot in mover:
        board[slot] += 1
    for slot in other:
        board[SLOTS + slot] += 1
    return board


def _points(rules: Any, board: bytes, winner: int) -> int:
    from gammon.core.position import Position

    return int(rules.winner_points(Position(board, 2, winner), winner))


def _possible(mover: Sequence[int], other: Sequence[int]) -> bool:
    """Whether no point holds checkers of both sides."""
    taken = {s for s in mover if 1 <= s <= 24}
    return not any(1 <= s <= 24 and 25 - s in taken for s in other)


def _transitions(rules: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For every possible position and roll, where each legal play leads: the states as
    ``mover * M + other`` codes, the successors of each (state, roll) as a slice of a flat
    array of codes (``c >= 0``: the opponent to roll at position ``c``; ``c < 0``: the
    game won at once for ``-c`` points)."""
    combos, index = sides(rules.checkers_per_side)
    m = len(combos)
    kernel = rules.kernel
    states, starts, codes = [], [0], []
    for a, mover in enumerate(combos):
        for b, other in enumerate(combos):
            if not _possible(mover, other):
                continue
            states.append(a * m + b)
            board = board_of(mover, other).tobytes()
            for d1, d2, _ in ROLLS:
                rows = kernel.plays(board, 0, d1, d2)
                for row in rows[:, :2 * SLOTS]:
                    after = row.tobytes()
                    mine, theirs = side_of(after, 0), side_of(after, 1)
                    if not any(mine):
                        codes.append(-_points(rules, after, 0))
                    else:
                        codes.append(index[theirs] * m + index[mine])
                starts.append(len(codes))
    return (np.array(states, np.int64), np.array(starts, np.int64),
            np.array(codes, np.int64), np.array([w for _, _, w in ROLLS], np.float64) / 36)


@njit(cache=True)
def _iterate(states, starts, codes, weights, values, tolerance, most):  # pragma: no cover
    """Gauss-Seidel value iteration in place; the number of sweeps made."""
    rolls = weights.shape[0]
    for sweep in range(most):
        change = 0.0
        for k in range(states.shape[0]):
            total = 0.0
            for r in range(rolls):
                lo, hi = starts[k * rolls + r], starts[k * rolls + r + 1]
                best = -1e9
                for j in range(lo, hi):
                    c = codes[j]
                    v = -c if c < 0 else -values[c]
                    if v > best:
                        best = v
                total += weights[r] * best
            s = states[k]
            change = max(change, abs(total - values[s]))
            values[s] = total
        if change < tolerance:
            return sweep + 1
    return most


@njit(cache=True)
def _chances(states, starts, codes, weights, values, table, tolerance,
             most):  # pragma: no cover
    """The chances under the plays the values choose (columns WIN, WIN_GAMMON,
    LOSE_GAMMON of ``table``), by the same iteration; the number of sweeps."""
    rolls = weights.shape[0]
    for sweep in range(most):
        change = 0.0
        for k in range(states.shape[0]):
            win = gammon = lose_gammon = 0.0
            for r in range(rolls):
                lo, hi = starts[k * rolls + r], starts[k * rolls + r + 1]
                best, chosen = -1e9, lo
                for j in range(lo, hi):
                    c = codes[j]
                    v = -c if c < 0 else -values[c]
                    if v > best:
                        best, chosen = v, j
                c = codes[chosen]
                w = weights[r]
                if c < 0:
                    win += w
                    gammon += w if -c >= 2 else 0.0
                else:
                    win += w * (1.0 - table[c, 0])
                    gammon += w * table[c, 2]
                    lose_gammon += w * table[c, 1]
            s = states[k]
            change = max(change, abs(win - table[s, 0]), abs(gammon - table[s, 1]),
                         abs(lose_gammon - table[s, 2]))
            table[s, 0], table[s, 1], table[s, 2] = win, gammon, lose_gammon
        if change < tolerance:
            return sweep + 1
    return most


def solve(checkers: int, tolerance: float = 1e-10, most: int = 10_000
          ) -> tuple[np.ndarray, int]:
    """The exact table of hypergammon with ``checkers`` a side (module text): a
    ``(M * M, 4)`` float64 array (NaN where no position is), and the sweeps made."""
    from gammon.core.variant import variant

    rules = variant("hypergammon", checkers_per_side=checkers)
    states, starts, codes, weights = _transitions(rules)
    m = len(sides(checkers)[0])
    values = np.zeros(m * m)
    sweeps = _iterate(states, starts, codes, weights, values, tolerance, most)
    chances = np.zeros((m * m, 3))
    sweeps += _chances(states, starts, codes, weights, values, chances, tolerance, most)
    table = np.full((m * m, 4), np.nan)
    table[states, EQUITY] = values[states]
    table[states, 1:] = chances[states]
    return table, sweeps


@functools.cache
def table(checkers: int) -> np.ndarray:
    """The shipped table of hypergammon with ``checkers`` a side."""
    path = DATA / f"hypergammon-{checkers}.npz"
    if not path.exists():
        raise InvalidOptionError(f"hypergammon with {checkers} checkers a side is not solved "
                                 "here: one and two are (benchmarks/solve_hypergammon.py)")
    with np.load(path) as data:
        return np.asarray(data["table"], np.float64)


class ExactEvaluator:
    """Hypergammon's exact values and chances (the evaluator protocols of
    :mod:`gammon.agents.base`): :func:`solve`'s table, read."""

    def __init__(self, rules: Any) -> None:
        self.variant = rules
        self.checkers = int(rules.checkers_per_side)
        self.table = table(self.checkers)
        self.combos, self.index = sides(self.checkers)
        self.players = 2

    def rows(self, boards: np.ndarray, to_roll: np.ndarray | int) -> np.ndarray:
        """The table's row of each board, ``to_roll`` to roll (none is finished)."""
        n = boards.shape[0]
        movers = np.broadcast_to(np.asarray(to_roll, np.int64), (n,))
        m = len(self.combos)
        out = np.empty((n, 4))
        for k in range(n):
            board = boards[k].tobytes()
            mover = int(movers[k])
            key = self.index[side_of(board, mover)] * m + self.index[side_of(board, 1 - mover)]
            out[k] = self.table[key]
        return out

    def values(self, boards: np.ndarray, to_roll: np.ndarray | int) -> np.ndarray:
        """Each player's exact equity (columns) of boards where ``to_roll`` rolls."""
        n = boards.shape[0]
        sides_ = np.broadcast_to(np.asarray(to_roll, np.int64), (n,))
        mine = self.rows(boards, sides_)[:, EQUITY]
        v0 = np.where(sides_ == 0, mine, -mine)
        return np.stack([v0, -v0], axis=1)

    def chances(self, boards: np.ndarray, to_move: np.ndarray | int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Player 0's chance to win, and the share of each player's wins that are
        gammons or better."""
        n = boards.shape[0]
        sides_ = np.broadcast_to(np.asarray(to_move, np.int64), (n,))
        rows = self.rows(boards, sides_)
        zero = sides_ == 0
        win0 = np.where(zero, rows[:, WIN], 1.0 - rows[:, WIN])
        gammon0 = np.where(zero, rows[:, WIN_GAMMON], rows[:, LOSE_GAMMON])
        gammon1 = np.where(zero, rows[:, LOSE_GAMMON], rows[:, WIN_GAMMON])
        return (win0, np.clip(gammon0 / np.maximum(win0, 1e-12), 0.0, 1.0),
                np.clip(gammon1 / np.maximum(1.0 - win0, 1e-12), 0.0, 1.0))

    def terminal_value(self, board: bytes, winner: int) -> np.ndarray:
        points = float(_points(self.variant, board, winner))
        value = np.full(2, -points)
        value[winner] = points
        return value

    def evaluate(self, states: Sequence[Any]) -> np.ndarray:
        """Each player's exact equity of each state (a state at DECIDE counts as the
        position before its roll is played: use it at CHANCE states)."""
        from gammon.evaluators.base import finished_returns

        out, live = finished_returns(states, 2)
        if live:
            boards = np.frombuffer(b"".join(states[i].position.board for i in live),
                                   np.int8).reshape(len(live), 2 * SLOTS)
            sides_ = np.array([states[i].position.turn for i in live], np.int64)
            out[live] = self.values(boards, sides_)
        return out
