"""Compiled random games of acey-deucey.

The whole game runs here: the opening lot, two-dice rolls, the extra roll after doubles
and after a 1-2, the doubles number of a 1-2 (drawn uniformly among the legal choices,
or thrown on one die under ``F_ROLL_FOR_DOUBLES``), and the restrictive flags. Checker
moves come from :func:`gammon.kernels.tracks.generate_plays` with the variant's rules
vectors (entering from the bar slot, the home lock, exact bear-off, enter-first and the
1-2's exception to it are fields of those vectors): row 0 for a player still in the
opening (some checker never entered), row 1 once all fifteen have entered, as the
Python rules object's ``kernel`` and ``later_kernel``. This module adds only the turn
structure, whose flags are a second small vector (the ``F_*`` indices).

A game can be traced: one row per decision (see the ``T_*`` columns), so that tests can
check the rules over many games with numpy instead of replaying them in Python.

The turn structure is written twice, here and in :mod:`gammon.variants.acey` (the
reference). Tied by ``tests/test_invariants_acey.py::
test_kernel_games_replay_through_the_python_rules`` (traced games replayed play by play
through the Python rules, every play legal there and the results equal) and
``test_invariants`` (the rules page's clauses checked over every traced decision).
"""

from __future__ import annotations

import threading

import numba
import numpy as np
from numba import get_thread_id, njit, prange

from gammon.kernels import tracks
from gammon.kernels.cache import refresh_when_changed
from gammon.kernels.tracks import (
    MAX_DICE,
    R_CHECKERS,
    R_POINTS,
    generate_plays,
    winner_points,
)

# Fields of the acey-deucey flags vector.
F_START_ON_DOUBLES = 0  # 1: no checker moves until the player has rolled doubles or 1-2
F_ROLL_FOR_DOUBLES = 1  # 1: a 1-2's doubles number is thrown on one die, not chosen
F_FORFEIT = 2  # 1: a 1-2 or doubles not played in full ends the turn (no doubles, no roll)
FIELDS = 3

# Columns of a trace row (one per decision).
T_GAME = 0  # game number in the batch
T_PLAYER = 1  # who decided
T_KIND = 2  # KIND_*
T_DIE1 = 3  # the dice played (high, low); for a number: the number, twice
T_DIE2 = 4
T_MOVES = 5  # checker moves in the play
T_PATH = 6  # (source, destination, hit) x MAX_DICE, as tracks' play rows
T_BOARD = T_PATH + 3 * MAX_DICE  # the whole board after the decision

KIND_PLAY = 0  # a play of a roll (or of an acey-deucey's doubles)
KIND_CHOICE = 1  # the doubles number chosen after a 1-2
KIND_NUMBER = 2  # the doubles number thrown on one die after a 1-2 (restrictive)

# Columns of a result row.
O_WINNER = 0  # -1: the play limit ran out
O_POINTS = 1
O_PLAYS = 2  # plays made (choices not counted)
O_EXTRA = 3  # extra rolls earned
O_ACEY = 4  # acey-deuceys rolled by a player allowed to move
RESULT_COLUMNS = 5


def flags(start_on_doubles: bool, roll_for_doubles: bool, forfeit: bool) -> np.ndarray:
    """The flags vector for :func:`playouts`."""
    vector = np.zeros(FIELDS, np.int64)
    vector[F_START_ON_DOUBLES] = start_on_doubles
    vector[F_ROLL_FOR_DOUBLES] = roll_for_doubles
    vector[F_FORFEIT] = forfeit
    return vector


_local = threading.local()
# The stream that ``seed=None`` continues: the last seed and the next game's number.
_stream = {"seed": 0, "next": 0}
_MASK = (1 << 64) - 1


def _workspaces(players: int, slots: int, threads: int) -> tuple[np.ndarray, np.ndarray]:
    """One pair of :func:`tracks.workspace` arrays per thread, stacked; kept per thread."""
    cache = getattr(_local, "work", None)
    if cache is None:
        cache = _local.work = {}
    key = (players, slots, threads)
    if key not in cache:
        plays, words = tracks.workspace(players, slots)
        cache[key] = (
            np.repeat(plays[np.newaxis], threads, axis=0),
            np.repeat(words[np.newaxis], threads, axis=0),
        )
    return cache[key]


def random_playouts(
    rules: np.ndarray,
    acey_flags: np.ndarray,
    start: bytes,
    players: int,
    games: int,
    seed: int | None,
    max_plays: int = 10000,
    trace_rows: int = 0,
    parallel: bool | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``games`` random games from ``start``; ``(results, trace)``.

    ``rules`` holds two rules vectors: the opening's and the one after it (see the
    module). ``results`` has one row per game (the ``O_*`` columns). With ``trace_rows``,
    ``trace`` holds the games' decisions in order (``T_*`` columns, ``int16``; at most
    32767 games a call), each block of games with an equal share of ``trace_rows``
    (ValueError if a block makes more decisions than that). Without, ``trace`` is
    empty. Each game draws
    its dice from its own generator, seeded by ``seed`` and the game's number in the
    stream, so the results do not depend on the threads. ``seed=None`` continues the
    stream of the last call. The blocks run on numba's threads
    (``numba.set_num_threads``); ``parallel=False`` plays all the games as one block on
    one thread.
    """
    board = np.frombuffer(start, np.int8).copy()
    slots = len(board) // players
    if seed is not None:
        _stream["seed"] = seed & _MASK
        _stream["next"] = 0
    first = _stream["next"]
    _stream["next"] += games
    base = np.uint64(_stream["seed"])
    # Every thread numba may start, not only those in use now: numba sets it at import.
    threads = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
    plays, words = _workspaces(players, slots, threads)
    width = T_BOARD + len(board)
    if parallel is None:
        parallel = numba.get_num_threads() > 1
    if trace_rows and games > np.iinfo(np.int16).max:
        raise ValueError("a traced call plays at most 32767 games")
    blocks = max(1, min(games, 4 * threads)) if parallel else 1
    bounds = np.linspace(0, games, blocks + 1).astype(np.int64)
    share = -(-trace_rows // blocks)
    traces = np.zeros((blocks, share, width), np.int16)
    results, written = playouts(games, board, rules, acey_flags, max_plays, base, first,
                                plays, words, traces, bounds)
    if not trace_rows:
        return results, np.zeros((0, width), np.int16)
    if (written > share).any():
        raise ValueError(
            f"a block of games made {written.max()} decisions; the trace holds {share} a "
            f"block ({trace_rows} in all): give more trace_rows"
        )
    return results, np.concatenate([traces[c, : written[c]] for c in range(blocks)])


# --- dice ------------------------------------------------------------------------------
#
# splitmix64, one generator per game: the same seed gives the same games on any number
# of threads.


@njit(cache=True, inline="always")
def _next(rng):
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _below(rng, n):
    """A uniform integer in ``[0, n)``, ``n`` < 2**32."""
    return np.int64(((_next(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def _seed_game(rng, seed, game):
    rng[0] = seed ^ (np.uint64(game) * np.uint64(0xD1B54A32D192ED03))
    _next(rng)


# --- the game --------------------------------------------------------------------------


@njit(cache=True)
def _record(trace, n, game, player, kind, die1, die2, plays, k, size, board):
    """Write trace row ``n`` (when there is room) and return ``n + 1``."""
    if n < trace.shape[0]:
        trace[n, T_GAME] = game
        trace[n, T_PLAYER] = player
        trace[n, T_KIND] = kind
        trace[n, T_DIE1] = die1
        trace[n, T_DIE2] = die2
        if k >= 0:
            trace[n, T_MOVES] = plays[k, size + 3 * MAX_DICE]
            for i in range(3 * MAX_DICE):
                trace[n, T_PATH + i] = plays[k, size + i]
        for i in range(size):
            trace[n, T_BOARD + i] = board[i]
    return n + 1


@njit(cache=True)
def _full_length(board, player, count, rules, plays):
    """How many moves the doubles just generated play, a play that bears off the last
    checker counting as all four."""
    size = board.shape[0]
    slots = rules[R_POINTS] + 2
    length = plays[0, size + 3 * MAX_DICE]
    if length < MAX_DICE:
        for k in range(count):
            if plays[k, player * slots] == rules[R_CHECKERS]:
                return MAX_DICE
    return length


@njit(cache=True)
def _choose_number(board, player, rules, plays, words, rng):
    """A uniformly random legal doubles number after a 1-2, and how many plays it has
    (generated in ``plays``). The legal numbers are those whose doubles play the most
    moves: trying the numbers in a random order, the first that plays all four is a
    uniform draw among them, usually after one try."""
    order = np.arange(1, 7)
    for i in range(5, 0, -1):
        j = _below(rng, i + 1)
        order[i], order[j] = order[j], order[i]
    lengths = np.zeros(7, np.int64)
    for i in range(6):
        n = order[i]
        count = generate_plays(board, player, n, n, np.int64(1), rules, plays, words)
        lengths[n] = _full_length(board, player, count, rules, plays)
        if lengths[n] == MAX_DICE:
            return n, count
    best = lengths.max()
    m = 0
    for n in range(1, 7):
        if lengths[n] == best:
            m += 1
    pick = _below(rng, m)
    for n in range(1, 7):
        if lengths[n] == best:
            if pick == 0:
                return n, generate_plays(board, player, n, n, np.int64(1), rules, plays, words)
            pick -= 1
    return 0, 0  # not reached


@njit(cache=True)
def _game(g, start, board, phases, acey, max_plays, plays, words, trace, n, rng, out):
    """Play game ``g`` into ``out[g]``; returns the trace rows written so far.
    ``phases`` are the two rules vectors (the opening's, and the one after it)."""
    size = start.shape[0]
    slots = phases[0, R_POINTS] + 2
    checkers = phases[0, R_CHECKERS]
    length_col = size + 3 * MAX_DICE
    roll_number = acey[F_ROLL_FOR_DOUBLES] == 1
    forfeit = acey[F_FORFEIT] == 1
    board[:] = start
    while True:
        a = _below(rng, 6) + 1
        b = _below(rng, 6) + 1
        if a != b:
            break
    player = 0 if a > b else 1
    started = 0 if acey[F_START_ON_DOUBLES] == 1 else 3  # bit p: player p may move
    entered = 0  # bit p: every checker of player p has entered once (opening over)
    made = 0
    extra = 0
    aceys = 0
    winner = -1
    while made < max_plays:
        a = _below(rng, 6) + 1
        b = _below(rng, 6) + 1
        high = max(a, b)
        low = min(a, b)
        acey_deucey = high == 2 and low == 1
        double = high == low
        if acey_deucey or double:
            started |= 1 << player
        rules = phases[(entered >> player) & 1]
        if (started >> player) & 1 == 0:
            # Not started: the only play is the empty one.
            n = _record(trace, n, g, player, KIND_PLAY, high, low, plays, -1, size, board)
            made += 1
            player = 1 - player
            continue
        if acey_deucey:
            aceys += 1
            count = generate_plays(board, player, high, low, np.int64(1), rules, plays, words)
            k = _below(rng, count)
            used = plays[k, length_col]
            board[:] = plays[k, :size]
            n = _record(trace, n, g, player, KIND_PLAY, 2, 1, plays, k, size, board)
            made += 1
            if board[player * slots] == checkers:
                winner = player
                break
            if board[player * slots + slots - 1] == 0 and (entered >> player) & 1 == 0:
                entered |= 1 << player
                rules = phases[1]
            if forfeit and used < 2:
                player = 1 - player
                continue
            if roll_number:
                high = _below(rng, 6) + 1
                n = _record(trace, n, g, player, KIND_NUMBER, high, high, plays, -1, size,
                            board)
                count = generate_plays(board, player, high, high, np.int64(1), rules, plays, words)
            else:
                high, count = _choose_number(board, player, rules, plays, words, rng)
                n = _record(trace, n, g, player, KIND_CHOICE, high, high, plays, -1, size,
                            board)
            low = high
            double = True
        else:
            count = generate_plays(board, player, high, low, np.int64(1), rules, plays, words)
        k = _below(rng, count)
        used = plays[k, length_col]
        board[:] = plays[k, :size]
        n = _record(trace, n, g, player, KIND_PLAY, high, low, plays, k, size, board)
        made += 1
        if board[player * slots] == checkers:
            winner = player
            break
        if board[player * slots + slots - 1] == 0:
            entered |= 1 << player
        if double and not (forfeit and used < MAX_DICE):
            extra += 1  # the same player throws again
        else:
            player = 1 - player
    out[g, O_WINNER] = winner
    out[g, O_POINTS] = winner_points(board, winner, phases[0]) if winner >= 0 else 0
    out[g, O_PLAYS] = made
    out[g, O_EXTRA] = extra
    out[g, O_ACEY] = aceys
    return n


@njit(cache=True, parallel=True)
def playouts(games, start, rules, acey, max_plays, seed, first, plays, words, traces, bounds):
    """Play ``games`` random games of acey-deucey from ``start``.

    Game ``first + g`` of the stream of ``seed`` opens with one die per player (ties
    thrown again); the higher die starts and throws two dice. Every play is drawn
    uniformly among the distinct legal plays, and a 1-2's doubles number uniformly among
    the legal numbers. ``rules`` are the variant's two rules vectors (the opening's,
    then the one after it), ``acey`` the ``F_*`` flags.

    The games are cut into blocks run on numba's threads (one workspace each:
    ``plays[t]``, ``words[t]``): block ``c`` plays games ``bounds[c]`` to
    ``bounds[c + 1] - 1`` and traces their decisions into ``traces[c]`` as far as it
    has room. Returns the results (a row per game, ``O_*`` columns) and how many
    decisions each block made.
    """
    out = np.zeros((games, RESULT_COLUMNS), np.int64)
    blocks = traces.shape[0]
    written = np.zeros(blocks, np.int64)
    boards = np.empty((plays.shape[0], start.shape[0]), start.dtype)
    rngs = np.zeros((plays.shape[0], 1), np.uint64)
    for c in prange(blocks):
        t = get_thread_id()
        n = np.int64(0)  # typed: a literal here would compile _game twice
        for g in range(bounds[c], bounds[c + 1]):
            _seed_game(rngs[t], seed, first + g)
            n = _game(g, start, boards[t], rules, acey, max_plays, plays[t], words[t],
                      traces[c], n, rngs[t], out)
        written[c] = n
    return out, written


# Kernels above inline other modules' code: recompile them when it changes.
refresh_when_changed(globals())
