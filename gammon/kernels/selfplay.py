"""Compiled TD(lambda) self-play for two-player track games whose turns simply alternate.

:func:`train_games` plays whole games of a network against itself and learns from each,
exactly as :mod:`gammon.training.train` does through the game protocol, but in one compiled
loop: for each roll every legal play comes from :func:`gammon.kernels.tracks.
generate_plays`, each resulting board is encoded from the side of the player to roll
next (:func:`gammon.kernels.encoding.encode_track`) and valued by the network, and the mover
takes the best (a finished game is worth its exact points, a game ended at the mother in
the games that pin too). When the game ends, the
lambda-returns of the kept positions are computed backwards from the result and one
gradient step (cross-entropy on the sigmoid outputs, summed over the game's positions)
updates the weights in place.

The network's layer is computed from the inputs that are not zero (most are: a point
holds checkers of one side at most), so it costs the occupied points, not the inputs.

What is written twice, the game's turn (here and in :func:`gammon.kernels.tracks.
random_playouts`'s loop) and the learning step (here and in :class:`gammon.nn.network.
Network` with :func:`gammon.training.train.lambda_targets`), is tied by
``tests/test_nn.py::test_compiled_self_play_chooses_and_learns_as_the_python_trainer``:
a traced game replayed through the rules objects, every play the best by the Python
evaluator, and the weights after it equal to the numpy step's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.kernels import tracks
from gammon.kernels.cache import refresh_when_changed
from gammon.kernels.encoding import encode_contact, encode_pins, encode_track
from gammon.kernels.network import forward_row

#: Two-player outputs (as :mod:`gammon.nn.evaluator`).
WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = 0, 1, 2, 3, 4


@njit(cache=True)
def _equity(out):
    return (2.0 * out[WIN] - 1.0 + out[WIN_GAMMON] + out[WIN_BACKGAMMON]
            - out[LOSE_GAMMON] - out[LOSE_BACKGAMMON])


@njit(cache=True)
def _flip(source, target):
    target[WIN] = 1.0 - source[WIN]
    target[WIN_GAMMON] = source[LOSE_GAMMON]
    target[WIN_BACKGAMMON] = source[LOSE_BACKGAMMON]
    target[LOSE_GAMMON] = source[WIN_GAMMON]
    target[LOSE_BACKGAMMON] = source[WIN_BACKGAMMON]


@njit(cache=True)
def _outcome(target, winner, points, side):
    """What the outputs should have been from ``side`` (winner -2: a draw)."""
    target[:] = 0.0
    if winner == -2:
        target[WIN] = 0.5
    elif winner == side:
        target[WIN] = 1.0
        target[WIN_GAMMON] = 1.0 if points >= 2 else 0.0
        target[WIN_BACKGAMMON] = 1.0 if points >= 3 else 0.0
    else:
        target[LOSE_GAMMON] = 1.0 if points >= 2 else 0.0
        target[LOSE_BACKGAMMON] = 1.0 if points >= 3 else 0.0


@njit(cache=True, fastmath=True)
def _learn(xs, hiddens, outs, sides, kept, winner, points, lam, rate, w1, b1, w2, b2,
           targets, grad1, grad_b1, grad2, grad_b2, delta_hidden):
    """Lambda-returns of the ``kept`` positions and one summed gradient step."""
    n_out = w2.shape[1]
    n_hidden = w1.shape[1]
    mixed = np.empty(n_out, np.float32)
    _outcome(targets[kept - 1], winner, points, sides[kept - 1])
    for t in range(kept - 2, -1, -1):
        for k in range(n_out):
            mixed[k] = (1.0 - lam) * outs[t + 1, k] + lam * targets[t + 1, k]
        if sides[t + 1] != sides[t]:
            _flip(mixed, targets[t])
        else:
            targets[t, :] = mixed
    grad1[:, :] = 0.0
    grad_b1[:] = 0.0
    grad2[:, :] = 0.0
    grad_b2[:] = 0.0
    for t in range(kept):
        for j in range(n_hidden):
            delta_hidden[j] = 0.0
        for k in range(n_out):
            delta = outs[t, k] - targets[t, k]
            grad_b2[k] += delta
            for j in range(n_hidden):
                grad2[j, k] += hiddens[t, j] * delta
                delta_hidden[j] += delta * w2[j, k]
        for j in range(n_hidden):
            delta_hidden[j] *= 1.0 - hiddens[t, j] * hiddens[t, j]
            grad_b1[j] += delta_hidden[j]
        for i in range(xs.shape[1]):
            v = xs[t, i]
            if v != 0.0:
                for j in range(n_hidden):
                    grad1[i, j] += v * delta_hidden[j]
    for i in range(w1.shape[0]):
        for j in range(n_hidden):
            w1[i, j] -= rate * grad1[i, j]
    for j in range(n_hidden):
        b1[j] -= rate * grad_b1[j]
        for k in range(n_out):
            w2[j, k] -= rate * grad2[j, k]
    for k in range(n_out):
        b2[k] -= rate * grad_b2[k]


@njit(cache=True)
def _encode(boards, perspective, slots, points, home, checkers, cross, contact, escapes, pins,
            x):
    """The network's inputs of one board row (:class:`gammon.nn.encoders.TrackEncoder`)."""
    encode_track(boards, perspective, slots, points, checkers, cross, x)
    if contact:
        encode_contact(boards, perspective, slots, points, home, cross, escapes, x, contact)
    if pins:
        encode_pins(boards, perspective, slots, points, cross, x, pins)


@njit(cache=True)
def train_games(games, start, rules, cross, checkers, contact, escapes, pins, w1, b1, w2,
                b2, lam, rate, max_turns, plays, words, trace):
    """Play and learn from ``games`` games (see the module text); the weights change in
    place. ``contact`` (the column they start at, or 0: none) adds the contact features
    (:func:`gammon.kernels.encoding.encode_contact`, with the ``escapes`` table);
    ``pins`` (likewise) the pin units of the games that pin
    (:func:`gammon.kernels.encoding.encode_pins`; ``start`` then carries the pin row).
    Returns ``(games, 3)``: winner (-1: ``max_turns`` ran out; such a game is not learnt
    from), points, plays. ``trace`` (rows of dice, mover and the chosen board,
    one per play of the first game) is filled when it has rows."""
    size = start.shape[0]
    slots = rules[tracks.R_POINTS] + 2
    points_n = rules[tracks.R_POINTS]
    home = rules[tracks.R_HOME]
    n_in = w1.shape[0]
    n_hidden = w1.shape[1]
    n_out = w2.shape[1]
    out = np.zeros((games, 3), np.int64)
    board = np.empty_like(start)
    xs = np.zeros((max_turns, n_in), np.float32)
    hiddens = np.zeros((max_turns, n_hidden), np.float32)
    outs = np.zeros((max_turns, n_out), np.float32)
    sides = np.zeros(max_turns, np.int64)
    targets = np.zeros((max_turns, n_out), np.float32)
    grad1 = np.zeros_like(w1)
    grad_b1 = np.zeros_like(b1)
    grad2 = np.zeros_like(w2)
    grad_b2 = np.zeros_like(b2)
    delta_hidden = np.zeros(n_hidden, np.float32)
    x = np.zeros((1, n_in), np.float32)
    picked = np.zeros(n_in, np.int64)
    w2t = np.ascontiguousarray(w2.T)
    persp = np.zeros(1, np.int64)
    hidden = np.zeros(n_hidden, np.float32)
    value = np.zeros(n_out, np.float32)
    best_hidden = np.zeros(n_hidden, np.float32)
    best_value = np.zeros(n_out, np.float32)
    best_x = np.zeros(n_in, np.float32)
    traced = 0
    for g in range(games):
        board[:] = start
        player, a, b = tracks.opening(rules)
        starter = player
        turns = 0
        kept = 0
        winner = -1
        while turns < max_turns:
            limit = tracks.head_limit(board, player, a, b, rules)
            count = tracks.generate_plays(board, player, a, b, limit, rules, plays, words)
            other = 1 - player
            choice = 0
            best = -1e9
            for c in range(count):
                row = plays[c, :size]
                # A play that ends the game (borne off, or at the mother in the games that
                # pin) is worth its exact points; a draw, none.
                ended, _ = tracks.turn_end(row, player, starter, False, rules)
                if ended != -1:
                    score = 10.0 + tracks.winner_points(row, player, rules) if ended >= 0 else 0.0
                    if score > best:
                        best = score
                        choice = c
                    continue
                if count == 1:
                    break
                persp[0] = other
                _encode(plays[c:c + 1, :size], persp, slots, points_n, home, checkers, cross,
                        contact, escapes, pins, x)
                forward_row(x[0], w1, b1, w2t, b2, hidden, value, picked)
                score = -_equity(value)
                if score > best:
                    best = score
                    choice = c
                    best_hidden[:] = hidden
                    best_value[:] = value
                    best_x[:] = x[0]
            board[:] = plays[choice, :size]
            if g == 0 and traced < trace.shape[0]:
                trace[traced, 0] = a
                trace[traced, 1] = b
                trace[traced, 2] = player
                trace[traced, 3:] = board
                traced += 1
            turns += 1
            winner, _ = tracks.turn_end(board, player, starter, False, rules)
            if winner != -1:
                break
            if count == 1:  # not valued above: value the forced play for the record
                persp[0] = other
                _encode(plays[0:1, :size], persp, slots, points_n, home, checkers, cross,
                        contact, escapes, pins, x)
                forward_row(x[0], w1, b1, w2t, b2, best_hidden, best_value, picked)
                best_x[:] = x[0]
            xs[kept, :] = best_x
            hiddens[kept, :] = best_hidden
            outs[kept, :] = best_value
            sides[kept] = other
            kept += 1
            player = other
            a = np.random.randint(1, 7)
            b = np.random.randint(1, 7)
        points = tracks.winner_points(board, winner, rules) if winner >= 0 else 0
        out[g, 0] = winner
        out[g, 1] = points
        out[g, 2] = turns
        if winner >= 0 and kept > 0:
            _learn(xs, hiddens, outs, sides, kept, winner, points, lam, rate, w1, b1, w2, b2,
                   targets, grad1, grad_b1, grad2, grad_b2, delta_hidden)
            w2t[:, :] = w2.T
    return out


# Kernels above inline other modules' code: recompile them when it changes.
refresh_when_changed(globals())
