"""Compiled random games of Gul bara: two-player turns with cascading doubles.

Checker moves come from :func:`gammon.kernels.tracks.generate_plays` with the variant's
rules vector (Long Nardy's board, nothing hit), which plays at most four dice; the
cascade is further plays of the same player within the turn. From the mover's turn
``cascade_from`` on (a player's first turn is 1), a rolled double *d* played in full
(all four moves) is followed by the double *d* + 1, and so on up to 6-6; a double of the
turn not played in full ends the turn, and with ``to_opponent`` hands the doubles above
it to the opponent, who plays them as a cascade (the rest lost at the first not played
in full) before throwing for their own turn.

The turn structure is written twice, here and in :mod:`gammon.variants.gulbara` (the
reference). Tied by ``tests/test_rules_gulbara.py`` (the traced games replayed play by
play through the Python rules, every play legal there and the results equal) and
``tests/test_invariants_nardy.py::test_gul_bara_compiled_games_keep_the_invariants``
(the rules page's moves and turn order checked over the traces).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.kernels.cache import refresh_when_changed
from gammon.kernels.tracks import (
    MAX_DICE,
    after_lot,
    generate_plays,
    opening_lot,
    turn_end,
    winner_points,
)

# Columns of a trace row (one per decision and one per opening lot).
T_GAME = 0  # game number in the batch
T_PLAYER = 1  # who played; -1 for the opening lot (the dice are player 0's and 1's)
T_DIE1 = 2  # the dice played (for a cascade's double: its number, twice)
T_DIE2 = 3
T_MOVES = 4  # checker moves in the play
T_PATH = 5  # (source, destination, hit) x MAX_DICE, as tracks' play rows
T_BOARD = T_PATH + 3 * MAX_DICE  # the whole board after the play


@njit(cache=True)
def random_playouts(games, start, rules, cascade_from, by_game, to_opponent, max_plays, plays,
                    words, trace):
    """Play ``games`` two-player games of Gul bara with uniformly random plays.

    The opening lot (one die each, ties thrown again) picks the starter, who throws
    afresh; then the players take turns of one throw of two dice and, after doubles
    from their ``cascade_from``-th turn on (with ``by_game``, from the game's
    ``cascade_from``-th throw), the cascade (handed over to the opponent
    where it breaks, with ``to_opponent``). Returns ``(games, 3)``: winner
    (-1 when ``max_plays`` ran out), points won, plays made. ``trace`` receives, as far
    as it has room, a row per lot and per play (the ``T_*`` columns); returns the rows
    written as well.
    """
    size = start.shape[0]
    length_col = size + 3 * MAX_DICE
    out = np.zeros((games, 3), np.int64)
    board = np.empty_like(start)
    turns = np.zeros(2, np.int64)
    n = 0
    for g in range(games):
        board[:] = start
        a, b = opening_lot()
        if n < trace.shape[0]:
            trace[n, T_GAME], trace[n, T_PLAYER], trace[n, T_DIE1], trace[n, T_DIE2] = (
                g, -1, a, b)
            n += 1
        player, a, b = after_lot(a, b, rules)
        starter = player
        turns[:] = 0
        made = 0
        winner = -1
        while made < max_plays:
            turns[player] += 1
            high = max(a, b)
            low = min(a, b)
            given = False  # the doubles being played were handed over by the opponent
            while True:
                count = generate_plays(board, player, high, low, np.int64(1), rules, plays, words)
                row = np.random.randint(0, count)
                used = plays[row, length_col]
                board[:] = plays[row, :size]
                made += 1
                if n < trace.shape[0]:
                    trace[n, T_GAME], trace[n, T_PLAYER] = g, player
                    trace[n, T_DIE1], trace[n, T_DIE2] = high, low
                    trace[n, T_MOVES] = used
                    trace[n, T_PATH:T_BOARD] = plays[row, size:length_col]
                    trace[n, T_BOARD:] = board
                    n += 1
                winner, _ = turn_end(board, player, starter, False, rules)
                if winner != -1 or made >= max_plays:
                    break
                thrown = turns[0] + turns[1] if by_game else turns[player]
                cascading = high == low and high < 6 and (given or thrown >= cascade_from)
                if cascading and used == MAX_DICE:
                    high += 1
                    low += 1
                elif cascading and to_opponent and not given:
                    player = 1 - player
                    high += 1
                    low += 1
                    given = True
                else:
                    break
            if winner != -1:
                break
            if not given:  # else the receiver of handed-over doubles throws next
                player = 1 - player
            a = np.random.randint(1, 7)
            b = np.random.randint(1, 7)
        out[g, 0] = winner
        out[g, 1] = winner_points(board, winner, rules) if winner >= 0 else 0
        out[g, 2] = made
    return out, n


# Kernels above inline other modules' code: recompile them when it changes.
refresh_when_changed(globals())
