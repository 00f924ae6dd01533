"""Compiled network inputs of the track games (see :mod:`gammon.nn.encoders` for what
they mean): the move generator's rows go straight in, here and in the compiled
self-play (:mod:`gammon.kernels.selfplay`).
"""

from __future__ import annotations

from numba import njit

#: Units per checker count on a point.
UNITS = 4
#: Scale of the pip counts (a side's pips are divided by this).
PIP_SCALE = 200.0


@njit(cache=True)
def _units(out, row, at, count):
    """Tesauro's four units for ``count`` checkers, written at ``out[row, at:at+4]``."""
    if count >= 1:
        out[row, at] = 1.0
    if count >= 2:
        out[row, at + 1] = 1.0
    if count >= 3:
        out[row, at + 2] = 1.0
    if count > 3:
        out[row, at + 3] = (count - 3) / 2.0


@njit(cache=True)
def encode_track(boards, perspective, slots, points, checkers, cross, out):
    """Inputs of two-player track boards (see :class:`TrackEncoder`); ``cross[p, s]`` is
    the opponent's slot of ``p``'s point ``s``."""
    bar = slots - 1
    for i in range(boards.shape[0]):
        p = perspective[i]
        q = 1 - p
        mine = p * slots
        theirs = q * slots
        out[i, :] = 0.0
        my_pips = 0.0
        their_pips = 0.0
        my_back = 0  # my rearmost checker (own numbering)
        their_front = points + 1  # their checker nearest my start, in my numbering
        for s in range(1, points + 1):
            c = boards[i, mine + s]
            o = boards[i, theirs + cross[p, s]]
            _units(out, i, (s - 1) * 2 * UNITS, c)
            _units(out, i, (s - 1) * 2 * UNITS + UNITS, o)
            my_pips += c * s
            their_pips += o * cross[p, s]
            if c > 0:
                my_back = s
            if o > 0 and s < their_front:
                their_front = s
        my_bar = boards[i, mine + bar]
        their_bar = boards[i, theirs + bar]
        my_pips += my_bar * (points + 1)
        their_pips += their_bar * (points + 1)
        at = points * 2 * UNITS
        out[i, at] = my_bar / 2.0
        out[i, at + 1] = their_bar / 2.0
        out[i, at + 2] = boards[i, mine] / checkers
        out[i, at + 3] = boards[i, theirs] / checkers
        out[i, at + 4] = my_pips / PIP_SCALE
        out[i, at + 5] = their_pips / PIP_SCALE
        # In contact while a checker of mine is still behind one of theirs (or either
        # side has a checker waiting to enter).
        contact = my_bar > 0 or their_bar > 0 or my_back > their_front
        out[i, at + 6] = 1.0 if contact else 0.0


@njit(cache=True)
def encode_quarter(boards, perspective, slots, points, checkers, players, out):
    """Inputs of Multi-Gam boards (see :class:`QuarterEncoder`)."""
    per_seat = points * UNITS + 3
    for i in range(boards.shape[0]):
        out[i, :] = 0.0
        for k in range(players):
            seat = (perspective[i] + k) % players
            base = seat * slots
            at = k * per_seat
            for s in range(1, points + 1):
                _units(out, i, at + (s - 1) * UNITS, boards[i, base + s])
            off = boards[i, base]
            out[i, at + points * UNITS] = boards[i, base + slots - 1] / checkers
            out[i, at + points * UNITS + 1] = off / checkers
            out[i, at + points * UNITS + 2] = 1.0 if off == checkers else 0.0
