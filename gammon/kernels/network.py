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


@njit(cache=True, fastmath=True)
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
    for j in range(n_hidden):
        hidden[j] = tanh(hidden[j])
    for k in range(w2t.shape[0]):
        z = b2[k]
        for j in range(n_hidden):
            z += hidden[j] * w2t[k, j]
        z = min(max(z, -30.0), 30.0)
        out[k] = 1.0 / (1.0 + np.exp(-z))


@njit(cache=True, fastmath=True)
def forward_rows(x, w1, b1, w2t, b2, out):
    """Every row of ``x`` through the network (:func:`forward_row`) into ``out``."""
    hidden = np.empty(w1.shape[1], np.float32)
    value = np.empty(w2t.shape[0], np.float32)
    picked = np.empty(x.shape[1], np.int64)
    for r in range(x.shape[0]):
        forward_row(x[r], w1, b1, w2t, b2, hidden, value, picked)
        out[r, :] = value
