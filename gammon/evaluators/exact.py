"""Hypergammon solved: the exact value of every position, and the evaluator that reads it.

Hypergammon with one, two or three checkers a side is small enough to solve outright:
every position before a roll, with either side to roll, gets its exact cubeless money
equity for the player to roll (gammons and backgammons counted) under perfect play by
both sides, and the chances behind it (to win, to win a gammon or better, to lose one)
under that play. :func:`solve` computes them by value iteration over every position
(``V(s) = sum over the 21 rolls of P(roll) * max over the legal plays of`` what the play
wins at once, or ``-V`` of the position it leaves the opponent), from the engine's own
compiled move generator, until no value moves by more than ``tolerance``; the chances
are then worked out the same way under the plays that equity chose. One and two
checkers take seconds and ship (``data/hypergammon-N.npz``, written by
``benchmarks/solve_hypergammon.py``); three checkers (7,953,353 positions, 890 million
plays) take about eight minutes on two cores and 6.6 GB of memory, and ``gammon solve 3``
builds that table where :func:`solved_path` says.

A position is its two sides' checkers, each a sorted tuple of slots in that side's own
numbering (0 off, 1-24 the points, 25 the bar), the player to roll first; the tables are
dense arrays over every pair of such tuples (not all can happen: a point never holds
both sides' checkers), indexed by the two tuples' places in
``combinations_with_replacement(range(26), n)`` without the all-off one.
"""

from __future__ import annotations

import functools
import itertools
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from gammon.core.errors import InvalidOptionError
from gammon.core.position import Position
from gammon.core.variant import variant
from gammon.evaluators.base import finished_returns, two_player_chances
from gammon.kernels import tracks
from gammon.kernels.cache import refresh_when_changed

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
    return int(rules.winner_points(Position(board, 2, winner), winner))


def _ranks(checkers: int) -> tuple[np.ndarray, np.ndarray]:
    """Each side's placings as rows of slots (``(M, checkers)``), and the dense lookup
    from a sorted placing, read as a number in base 26, to its index (-1: all off)."""
    combos, index = sides(checkers)
    rank = np.full(SLOTS ** checkers, -1, np.int64)
    for combo, i in index.items():
        rank[sum(s * SLOTS ** (checkers - 1 - j) for j, s in enumerate(combo))] = i
    return np.array(combos, np.int64).reshape(len(combos), checkers), rank


@njit(cache=True, nogil=True)
def _code(row, player, rank):  # pragma: no cover
    """The base-26 key of ``player``'s sorted slots on a board row."""
    key = 0
    for s in range(SLOTS):
        for _ in range(row[player * SLOTS + s]):
            key = key * SLOTS + s
    return rank[key]


@njit(cache=True, nogil=True)
def _transitions(first, states, combos, rank, rules, plays, words, counts,
                 codes):  # pragma: no cover
    """Where each legal play of each roll leads, from ``states[first]`` on, until the
    buffers are full: ``counts[k * 21 + r]`` plays of roll ``r``, their codes in
    ``codes`` one after the other (``c >= 0``: the opponent to roll at position ``c``;
    ``c < 0``: the game won at once for ``-c`` points). Returns the next state to do
    and the codes written."""
    m = combos.shape[0]
    checkers = combos.shape[1]
    board = np.zeros(2 * SLOTS, np.int8)
    mover_seat, one = np.int64(0), np.int64(1)  # typed, not literals: one compiled kernel
    written = 0
    rolls = 0
    k = first
    while k < states.shape[0]:
        # Room for one more position's plays (a roll of three checkers a side has fewer
        # than 64 plays).
        if (k - first + 1) * 21 > counts.shape[0] or written + 21 * 64 > codes.shape[0]:
            break
        mover, other = states[k] // m, states[k] % m
        board[:] = 0
        for j in range(checkers):
            board[combos[mover, j]] += 1
            board[SLOTS + combos[other, j]] += 1
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                n = tracks.generate_plays(board, mover_seat, d1, d2, one, rules, plays, words)
                for i in range(n):
                    row = plays[i]
                    if row[0] == checkers:
                        codes[written] = -tracks.winner_points(row, 0, rules)
                    else:
                        codes[written] = (_code(row, 1, rank) * m
                                          + _code(row, 0, rank))
                    written += 1
                counts[rolls] = n
                rolls += 1
        k += 1
    return k, written


@njit(cache=True, nogil=True)
def _sweep(states, starts, counts, codes, weights, values):  # pragma: no cover
    """One Gauss-Seidel sweep of value iteration over ``states`` in place; the largest
    change."""
    change = 0.0
    for k in range(states.shape[0]):
        total = 0.0
        j = starts[k]
        for r in range(21):
            best = -1e9
            for _ in range(counts[k * 21 + r]):
                c = codes[j]
                v = -c if c < 0 else -values[c]
                if v > best:
                    best = v
                j += 1
            total += weights[r] * best
        s = states[k]
        change = max(change, abs(total - values[s]))
        values[s] = total
    return change


@njit(cache=True, nogil=True)
def _chances_sweep(states, starts, counts, codes, weights, values,
                   table):  # pragma: no cover
    """One sweep of the chances (columns WIN, WIN_GAMMON, LOSE_GAMMON of ``table``)
    under the plays the values choose, in place; the largest change."""
    change = 0.0
    for k in range(states.shape[0]):
        win = gammon = lose_gammon = 0.0
        j = starts[k]
        for r in range(21):
            best, chosen = -1e9, j
            for _ in range(counts[k * 21 + r]):
                c = codes[j]
                v = -c if c < 0 else -values[c]
                if v > best:
                    best, chosen = v, j
                j += 1
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
    return change


class _Part(NamedTuple):
    """One thread's share of the positions, and where each one's plays lead."""

    states: np.ndarray
    starts: np.ndarray
    counts: np.ndarray
    codes: np.ndarray


def _possible_states(combos: np.ndarray) -> np.ndarray:
    """The codes ``mover * M + other`` of every position where no point holds both
    sides, fewest pips (both sides together) first: a play that hits nothing leaves
    fewer, so one sweep in this order already settles every position without contact."""
    m = len(combos)
    points = np.zeros((m, 25), bool)  # the physical points each placing holds
    for i, combo in enumerate(combos):
        for s in combo:
            if 1 <= s <= 24:
                points[i, s] = True
    mirrored = points[:, ::-1]  # slot s of one side is slot 25 - s of the other
    clash = (points[:, 1:].astype(np.uint8) @ mirrored[:, :24].T.astype(np.uint8)) > 0
    mover, other = np.nonzero(~clash)
    pips = combos.sum(axis=1)
    order = np.argsort(pips[mover] + pips[other], kind="stable")
    return (mover[order] * m + other[order]).astype(np.int64)


def _part(states: np.ndarray, combos: np.ndarray, rank: np.ndarray, rules: Any) -> _Part:
    kernel = rules.kernel
    plays, words = kernel.workspace()
    counts = np.empty(21 * len(states), np.uint8)
    chunks = []
    first = 0
    buffer = np.empty(1 << 24, np.int32)
    while first < len(states):
        done, written = _transitions(first, states, combos, rank, kernel.rules, plays, words,
                                     counts[21 * first:], buffer)
        chunks.append(buffer[:written].copy())
        first = done
    codes = np.concatenate(chunks) if chunks else np.empty(0, np.int32)
    del chunks
    per_state = counts.reshape(-1, 21).sum(axis=1, dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(per_state)[:-1]]).astype(np.int64)
    return _Part(states, starts, counts, codes)


def solve(checkers: int, tolerance: float = 1e-10, most: int = 10_000, threads: int = 2,
          progress: Any = None) -> tuple[np.ndarray, int]:
    """The exact table of hypergammon with ``checkers`` a side (module text): a
    ``(M * M, 4)`` float64 array (NaN where no position is), and the sweeps made.

    The plays of every position and roll are generated once by the engine's compiled
    move generator (:func:`gammon.kernels.tracks.generate_plays`) and kept, then swept
    over by ``threads`` threads at once, each over its own positions in the same order
    (the values they share are read and written in place, which only hastens the
    iteration). ``progress`` is called with a line of text after each stage and sweep.
    """
    rules = variant("hypergammon", checkers_per_side=checkers)
    combos, rank = _ranks(checkers)
    m = len(combos)
    states = _possible_states(combos)
    # Blocks of positions dealt out in turn, so that each thread's share runs through
    # the same order of pips.
    block = 4096
    blocks = np.arange(len(states)) // block % threads
    say = progress or (lambda text: None)
    with ThreadPoolExecutor(threads) as pool:
        parts = list(pool.map(lambda t: _part(states[blocks == t], combos, rank, rules),
                              range(threads)))
        say(f"{len(states)} positions, {sum(len(p.codes) for p in parts)} plays")
        weights = np.array([w for _, _, w in ROLLS], np.float64) / 36
        values = np.zeros(m * m)
        sweeps = 0
        while sweeps < most:
            sweeps += 1
            change = max(pool.map(lambda p: _sweep(p.states, p.starts, p.counts, p.codes,
                                                   weights, values), parts))
            say(f"sweep {sweeps}: largest change {change:.2e}")
            if change < tolerance:
                break
        chances = np.zeros((m * m, 3))
        while sweeps < 2 * most:
            sweeps += 1
            change = max(pool.map(lambda p: _chances_sweep(
                p.states, p.starts, p.counts, p.codes, weights, values, chances), parts))
            say(f"sweep {sweeps} (chances): largest change {change:.2e}")
            if change < tolerance:
                break
    table = np.full((m * m, 4), np.nan)
    table[states, EQUITY] = values[states]
    table[states, 1:] = chances[states]
    return table, sweeps


def solved_path(checkers: int) -> Path:
    """Where ``gammon solve`` keeps a table it builds (too large to ship: three
    checkers make 171 MB): ``$GAMMON_DATA``, else ``$XDG_DATA_HOME/gammon``, else
    ``~/.local/share/gammon``."""
    folder = os.environ.get("GAMMON_DATA") or Path(
        os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "gammon"
    return Path(folder) / f"hypergammon-{checkers}.npy"


def is_solved(checkers: int) -> bool:
    """Whether the table of ``checkers`` a side ships or has been built here."""
    return (DATA / f"hypergammon-{checkers}.npz").exists() or solved_path(checkers).exists()


def write_table(checkers: int, path: Path, progress: Any = None) -> tuple[np.ndarray, int]:
    """Solve and write the table (float32) to ``path``, whole or not at all: ``.npz``
    compressed (the tables that ship), ``.npy`` to be read in place."""
    solved, sweeps = solve(checkers, progress=progress)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.stem + ".partial" + path.suffix)
    if path.suffix == ".npz":
        np.savez_compressed(partial, table=solved.astype(np.float32))
    else:
        np.save(partial, solved.astype(np.float32))
    partial.replace(path)
    return solved, sweeps


@functools.cache
def table(checkers: int) -> np.ndarray:
    """The table of hypergammon with ``checkers`` a side, shipped or built here
    (float32; a built one is read from disk as it is used)."""
    shipped = DATA / f"hypergammon-{checkers}.npz"
    if shipped.exists():
        with np.load(shipped) as data:
            return np.asarray(data["table"])
    built = solved_path(checkers)
    if built.exists():
        return np.load(built, mmap_mode="r")
    raise InvalidOptionError(
        f"hypergammon with {checkers} checkers a side is not solved on this machine: "
        f"`gammon solve {checkers}` builds its table (about 8 minutes and 6.6 GB of "
        f"memory for three checkers) into {built}")


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
        return two_player_chances(rows[:, WIN], rows[:, WIN_GAMMON], rows[:, LOSE_GAMMON],
                                  sides_, 1e-12)

    def terminal_value(self, board: bytes, winner: int) -> np.ndarray:
        points = float(_points(self.variant, board, winner))
        value = np.full(2, -points)
        value[winner] = points
        return value

    def evaluate(self, states: Sequence[Any]) -> np.ndarray:
        """Each player's exact equity of each state (a state at DECIDE counts as the
        position before its roll is played: use it at CHANCE states)."""
        out, live = finished_returns(states, 2)
        if live:
            boards = np.frombuffer(b"".join(states[i].position.board for i in live),
                                   np.int8).reshape(len(live), 2 * SLOTS)
            sides_ = np.array([states[i].position.turn for i in live], np.int64)
            out[live] = self.values(boards, sides_)
        return out


# Kernels above inline other modules' code: recompile them when it changes.
refresh_when_changed(globals())
