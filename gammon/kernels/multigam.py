"""Compiled random playouts of Multi-Gam: four players, opening split, finishing ranks.

Moves come from the shared track move generator (:func:`gammon.kernels.tracks.
generate_plays`), which already handles any number of players through the rules vector's
crossing table; this module adds only what Multi-Gam does between plays: the opening
roll-off, turns passing clockwise past finished players, and the ranking. Like
:mod:`gammon.kernels.tracks` it is iterative and cached on disk, and draws from numba's
generator (seeded with :func:`gammon.kernels.tracks.seed_kernels`).

The turn flow is written twice, here and in :mod:`gammon.variants.multigam` (the
reference). Tied by ``tests/test_invariants_multigam.py::
test_kernel_games_replay_through_the_python_rules`` (traced games replayed through the
Python rules: every play legal, the same ranks and scores) and
``test_kernel_matches_the_oracle`` (the kernel's plays against a brute-force generator).
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit

from gammon.kernels import tracks
from gammon.kernels.cache import refresh_when_changed

#: Columns of a playout row before the per-seat scores and places.
WINNER, POINTS, PLAYS, STARTER = 0, 1, 2, 3
FIRST_SCORE = 4


@njit(cache=True)
def opening(players, sides, table):
    """Throw the opening: everyone one die, then the tied-for-highest again until one
    is highest. ``table`` receives the die in front of each player. Returns
    ``(starter, high die, low die)``: the winning die and the lowest die of the others.
    """
    rolling = np.ones(players, np.bool_)
    while True:
        best = 0
        for p in range(players):
            if rolling[p]:
                table[p] = np.random.randint(1, sides + 1)
                if table[p] > best:
                    best = table[p]
        tied = 0
        starter = -1
        for p in range(players):
            if rolling[p] and table[p] == best:
                tied += 1
                starter = p
            else:
                rolling[p] = False
        if tied == 1:
            break
    low = sides + 1
    for p in range(players):
        if p != starter and table[p] < low:
            low = table[p]
    return starter, best, low


@njit(cache=True)
def _game(board, rules, max_turns, plays, words, table, place, trace, traced):
    """One random game on ``board`` (changed in place), the opening included.

    ``place[p]`` receives each player's place (1 = first; 0 when ``max_turns`` plays
    ran out first). When ``trace`` has rows, row ``traced + k`` receives the ``k``-th
    play as (mover, die, die, board after the play...) while rows last. Returns
    ``(starter, plays made, players placed)``.
    """
    place[:] = 0
    player, a, b = opening(rules[tracks.R_PLAYERS], 6, table)
    turns, finished = _play_on(board, player, a, b, np.int64(0), rules, max_turns, plays,
                               words, place, trace, traced, np.bool_(False))
    return player, turns, finished


@njit(cache=True)
def _greedy(plays, count, player, players, slots):
    """The play a simple greedy player makes among the first ``count`` rows of
    ``plays``: each scores 3 for every opponent's checker on the bar, -1 for every blot
    of its own that an opponent's checker behind it could reach with one die, and 0.5
    for every point it holds with two or more; the best score wins, ties at random."""
    best = 0
    best_score = -1e9
    bar = slots - 1
    for i in range(count):
        row = plays[i]
        score = np.random.random() * 0.01
        for q in range(players):
            if q != player:
                score += 3.0 * row[q * slots + bar]
        # Slot s is the same point for everyone; a checker behind it is at a higher slot.
        for s in range(1, bar):
            mine = row[player * slots + s]
            if mine >= 2:
                score += 0.5
            elif mine == 1:
                for q in range(players):
                    if q == player:
                        continue
                    threat = False
                    for t in range(s + 1, min(s + 7, slots)):
                        if row[q * slots + t] > 0:
                            threat = True
                            break
                    if threat:
                        score -= 1.0
                        break
        if score > best_score:
            best_score = score
            best = i
    return best


@njit(cache=True)
def _play_on(board, player, a, b, finished, rules, max_turns, plays, words, place, trace,
             traced, greedy):
    """Random plays (or :func:`_greedy` ones) from ``board`` (changed in place),
    ``player`` to play ``a``-``b``, ``finished`` players already placed in ``place``;
    returns (plays made, players placed), and ``place`` is cleared when ``max_turns``
    ran out first."""
    size = board.shape[0]
    players = rules[tracks.R_PLAYERS]
    slots = rules[tracks.R_POINTS] + 2
    checkers = rules[tracks.R_CHECKERS]
    turns = 0
    while turns < max_turns:
        count = tracks.generate_plays(board, player, a, b, np.int64(1), rules, plays, words)
        if count <= 1:
            choice = 0
        elif greedy:
            choice = _greedy(plays, count, player, players, slots)
        else:
            choice = np.random.randint(0, count)
        board[:] = plays[choice, :size]
        row = traced + turns
        if row < trace.shape[0]:
            trace[row, 0] = player
            trace[row, 1] = a
            trace[row, 2] = b
            trace[row, 3:] = board
        turns += 1
        if board[player * slots] == checkers:
            finished += 1
            place[player] = finished
            if finished == players - 1:
                for p in range(players):
                    if place[p] == 0:
                        place[p] = players
                finished = players
                break
        # Clockwise to the next player still playing.
        player = (player + 1) % players
        while place[player] != 0:
            player = (player + 1) % players
        a = np.random.randint(1, 7)
        b = np.random.randint(1, 7)
    if finished < players:
        place[:] = 0  # cut off: nobody is ranked
    return turns, finished


@njit(cache=True)
def mean_scores(games, start, to_roll, ranked, rules, scores, max_turns, plays, words,
                greedy=False):
    """Each seat's mean score over ``games`` random continuations of ``start``, where
    ``to_roll`` rolls next and ``ranked`` lists the players already finished, in order
    (games cut off by ``max_turns`` count as every seat scoring 0)."""
    players = rules[tracks.R_PLAYERS]
    total = np.zeros(players)
    board = np.empty_like(start)
    place = np.zeros(players, np.int64)
    trace = np.zeros((0, 3 + start.shape[0]), np.int8)
    for _ in range(games):
        board[:] = start
        place[:] = 0
        for k in range(ranked.shape[0]):
            place[ranked[k]] = k + 1
        _play_on(board, to_roll, np.random.randint(1, 7), np.random.randint(1, 7),
                 ranked.shape[0], rules, max_turns, plays, words, place, trace, np.int64(0),
                 greedy)
        for p in range(players):
            if place[p] > 0:
                total[p] += scores[place[p] - 1]
    return total / games


@njit(cache=True)
def _playouts(games, start, rules, scores, max_turns, plays, words, trace):
    players = rules[tracks.R_PLAYERS]
    out = np.zeros((games, FIRST_SCORE + 2 * players), np.int64)
    board = np.empty_like(start)
    table = np.zeros(players, np.int64)
    place = np.zeros(players, np.int64)
    traced = np.int64(0)  # typed: a literal here would compile _game twice
    for g in range(games):
        board[:] = start
        starter, turns, finished = _game(
            board, rules, max_turns, plays, words, table, place, trace, traced
        )
        traced += turns
        out[g, WINNER] = -1
        out[g, PLAYS] = turns
        out[g, STARTER] = starter
        for p in range(players):
            out[g, FIRST_SCORE + players + p] = place[p]
            if place[p] > 0:
                out[g, FIRST_SCORE + p] = scores[place[p] - 1]
            if place[p] == 1:
                out[g, WINNER] = p
                out[g, POINTS] = scores[0]
    return out


@njit(cache=True)
def random_playouts(games, start, rules, scores, max_turns, plays, words):
    """Play ``games`` whole games with uniformly random plays.

    ``scores[k]`` is what place ``k + 1`` scores. Returns ``(games, 4 + 2 * players)``
    rows: winner (first place, -1 when ``max_turns`` plays ran out), its score, plays
    made, the starter, then each seat's score, then each seat's place (1 = first; 0
    in a game cut off).
    """
    trace = np.zeros((0, 3 + start.shape[0]), np.int8)
    return _playouts(games, start, rules, scores, max_turns, plays, words, trace)


@njit(cache=True)
def traced_playouts(games, start, rules, scores, max_turns, plays, words, trace):
    """As :func:`random_playouts`, also writing every play into ``trace`` (games one
    after the other, as many rows as it has): mover, the two dice, board after."""
    return _playouts(games, start, rules, scores, max_turns, plays, words, trace)


_local = threading.local()


def workspace(players: int, slots: int) -> tuple[np.ndarray, np.ndarray]:
    """The move generator's work arrays for this thread, allocated once per board shape."""
    cache = getattr(_local, "work", None)
    if cache is None:
        cache = _local.work = {}
    key = (players, slots)
    if key not in cache:
        cache[key] = tracks.workspace(players, slots)
    return cache[key]


def playouts(
    games: int, start: bytes, rules: np.ndarray, scores: tuple[int, ...],
    seed: int | None, max_turns: int = 10000,
) -> np.ndarray:
    """``games`` random games from ``start`` (see :func:`random_playouts` for the rows).

    ``seed`` reseeds the compiled generator; None continues its stream.
    """
    players = int(rules[tracks.R_PLAYERS])
    slots = int(rules[tracks.R_POINTS]) + 2
    plays, words = workspace(players, slots)
    if seed is not None:
        tracks.seed_kernels(seed)
    board = np.frombuffer(start, np.int8).copy()
    return random_playouts(
        games, board, rules, np.asarray(scores, np.int64), max_turns, plays, words
    )


def traced(
    games: int, start: bytes, rules: np.ndarray, scores: tuple[int, ...],
    seed: int | None, max_turns: int = 10000,
) -> tuple[np.ndarray, np.ndarray]:
    """``games`` random games as :func:`playouts`, and every play made: rows of
    (mover, die, die, board after the play), the games one after the other (the
    playout rows' ``PLAYS`` column says how many rows each game has)."""
    players = int(rules[tracks.R_PLAYERS])
    slots = int(rules[tracks.R_POINTS]) + 2
    plays, words = workspace(players, slots)
    if seed is not None:
        tracks.seed_kernels(seed)
    board = np.frombuffer(start, np.int8).copy()
    capacity = games * 96  # random games average about 33 plays and seldom pass 80
    trace = np.zeros((capacity, 3 + board.shape[0]), np.int8)
    rows = traced_playouts(games, board, rules, np.asarray(scores, np.int64), max_turns,
                           plays, words, trace)
    total = int(rows[:, PLAYS].sum())
    if total > capacity:
        raise RuntimeError(f"{total} plays in {games} games overflow the trace; trace fewer")
    return rows, trace[:total]


# Kernels above inline other modules' code: recompile them when it changes.
refresh_when_changed(globals())
