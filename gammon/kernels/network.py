"""The network's forward pass in compiled code, for the self-play and the evaluator.

A network's first layer reads a few dozen non-zero inputs of a couple of hundred (a
point holds one side's checkers or none), so each row's hidden layer is summed from the
rows of the weights those inputs pick, not multiplied out in full; and ``tanh`` is
computed without a call into libm, so the loops over the hidden units vectorise. Both
matter in the search, which values tens of thousands of boards a move: numpy's dense
product and ``tanh`` over the same rows take several times as long.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.kernels.cache import refresh_when_changed
from gammon.kernels.encoding import PIP_SCALE, UNITS


@njit(cache=True, inline="always")
def tanh(x):
    """``tanh`` without a call into libm, so that a layer's loop vectorises: the
    [9/8] Pade approximant of tanh (Lambert's continued fraction) at half the argument,
    clamped to [-4.5, 4.5], then the double-angle formula ``2t / (1 + t^2)``, in
    ``float32`` like the layer it serves. Its largest error is a few units of float32's
    last place (``tests/test_nn.py`` checks it against numpy's, which the numpy
    training steps use)."""
    y = np.float32(0.5) * min(max(np.float32(x), np.float32(-9.0)), np.float32(9.0))
    y2 = y * y
    t = (y * (np.float32(34459425.0) + y2 * (np.float32(4729725.0) + y2 * (
        np.float32(135135.0) + y2 * (np.float32(990.0) + y2))))
         / (np.float32(34459425.0) + y2 * (np.float32(16216200.0) + y2 * (
             np.float32(945945.0) + y2 * (np.float32(13860.0) + y2 * np.float32(45.0))))))
    return np.float32(2.0) * t / (np.float32(1.0) + t * t)


@njit(cache=True, fastmath=True, error_model="numpy", inline="always")
def outputs(hidden, w2t, b2, out):
    """The hidden layer's sums through ``tanh`` (in place), then the sigmoid outputs
    into ``out``: ``w2t`` is the output layer's weights transposed (a row per output,
    so that its sums run along memory)."""
    for j in range(hidden.shape[0]):
        hidden[j] = tanh(hidden[j])
    for k in range(w2t.shape[0]):
        z = b2[k]
        for j in range(hidden.shape[0]):
            z += hidden[j] * w2t[k, j]
        z = min(max(z, -30.0), 30.0)
        out[k] = 1.0 / (1.0 + np.exp(-z))


@njit(cache=True, fastmath=True, error_model="numpy")
def forward_row(x, w1, b1, w2t, b2, hidden, out, picked):
    """One input row ``x`` through the network: ``hidden`` and ``out`` filled.
    ``w2t`` is the output layer's weights transposed (a row per output, so that its sums
    run along memory); ``picked``, as long as ``x``, is work space for the places of
    the non-zero inputs."""
    n = 0
    for i in range(x.shape[0]):
        if x[i] != 0.0:
            picked[n] = i
            n += 1
    n_hidden = w1.shape[1]
    for j in range(n_hidden):
        hidden[j] = b1[j]
    for k in range(n):
        i = picked[k]
        v = x[i]
        for j in range(n_hidden):
            hidden[j] += v * w1[i, j]
    outputs(hidden, w2t, b2, out)


@njit(cache=True, fastmath=True, error_model="numpy")
def forward_rows(x, w1, b1, w2t, b2, out):
    """Every row of ``x`` through the network (:func:`forward_row`) into ``out``."""
    hidden = np.empty(w1.shape[1], np.float32)
    value = np.empty(w2t.shape[0], np.float32)
    picked = np.empty(x.shape[1], np.int64)
    for r in range(x.shape[0]):
        forward_row(x[r], w1, b1, w2t, b2, hidden, value, picked)
        out[r, :] = value


@njit(cache=True)
def point_tables(w1, points, most):
    """What each point's checkers add to the hidden layer of a network on the raw track
    inputs (:func:`gammon.kernels.encoding.encode_track`): row ``(2 * s + side) * (most +
    1) + c`` sums the first-layer weights of Tesauro's units for ``c`` checkers (0 to
    ``most``) of ``side`` (0 the player's own, 1 the opponent's) on the player's point
    ``s + 1``. With them a board's hidden layer is a sum of one row per point
    (:func:`track_forward`)."""
    hidden = w1.shape[1]
    table = np.zeros((points * 2 * (most + 1), hidden), np.float32)
    for s in range(points):
        for side in range(2):
            at = (s * 2 + side) * UNITS
            for c in range(1, most + 1):
                extra = np.float32((c - 3) / 2.0) if c > 3 else np.float32(0.0)
                row = (s * 2 + side) * (most + 1) + c
                for j in range(hidden):
                    v = w1[at, j]
                    if c >= 2:
                        v += w1[at + 1, j]
                    if c >= 3:
                        v += w1[at + 2, j]
                    table[row, j] = v + extra * w1[at + 3, j]
    return table


@njit(cache=True, fastmath=True, error_model="numpy")
def track_forward(boards, perspective, slots, points, checkers, cross, table, w1, b1, w2t,
                  b2, out):
    """The outputs of a network on the raw track inputs for board rows, the inputs never
    written out: each point's row of :func:`point_tables`, then the seven inputs after
    the points (bars, checkers off, pips, contact: ``w1``'s rows from ``points * 8``),
    as :func:`gammon.kernels.encoding.encode_track` defines them. The same outputs as
    encoding and :func:`forward_rows`, summed in another order (so equal to float32's
    rounding): for the pruning network, whose values only rank plays."""
    n_hidden = b1.shape[0]
    counts = table.shape[0] // (2 * points)
    hidden = np.empty(n_hidden, np.float32)
    bar = slots - 1
    tail = points * 2 * UNITS
    for i in range(boards.shape[0]):
        p = perspective[i]
        mine = p * slots
        theirs = (1 - p) * slots
        hidden[:] = b1
        my_pips = 0
        their_pips = 0
        my_back = 0
        their_front = points + 1
        for s in range(1, points + 1):
            c = np.int64(boards[i, mine + s])
            o = np.int64(boards[i, theirs + cross[p, s]])
            if c > 0:
                row = (2 * s - 2) * counts + c
                for j in range(n_hidden):
                    hidden[j] += table[row, j]
                my_pips += c * s
                my_back = s
            if o > 0:
                row = (2 * s - 1) * counts + o
                for j in range(n_hidden):
                    hidden[j] += table[row, j]
                their_pips += o * cross[p, s]
                if s < their_front:
                    their_front = s
        my_bar = np.int64(boards[i, mine + bar])
        their_bar = np.int64(boards[i, theirs + bar])
        my_pips += my_bar * (points + 1)
        their_pips += their_bar * (points + 1)
        contact = my_bar > 0 or their_bar > 0 or my_back > their_front
        extras = (np.float32(my_bar / 2.0), np.float32(their_bar / 2.0),
                  np.float32(boards[i, mine] / checkers),
                  np.float32(boards[i, theirs] / checkers),
                  np.float32(my_pips / PIP_SCALE), np.float32(their_pips / PIP_SCALE),
                  np.float32(1.0) if contact else np.float32(0.0))
        for k in range(7):
            v = extras[k]
            if v != 0.0:
                for j in range(n_hidden):
                    hidden[j] += v * w1[tail + k, j]
        outputs(hidden, w2t, b2, out[i])


# The kernels above inline the encoding's constants: recompile them when it changes.
refresh_when_changed(globals())
