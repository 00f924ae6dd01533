"""Compiled network inputs of the track games (see :mod:`gammon.nn.encoders` for what
they mean): the move generator's rows go straight in, here and in the compiled
self-play (:mod:`gammon.kernels.selfplay`).
"""

from __future__ import annotations

import numpy as np
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


#: Pin units per point (:func:`encode_pins`): a checker of mine pinned there, one of theirs.
PIN_UNITS = 2


@njit(cache=True)
def encode_pins(boards, perspective, slots, points, cross, out, at):
    """The pins of two-player boards of the games that pin (see
    :class:`~gammon.nn.encoders.TrackEncoder`), from the side of ``perspective[i]``: for
    each of its points ``s`` in its own numbering, at ``out[i, at + 2 * (s - 1)]`` whether
    its own checker lies pinned there and at the next unit whether the opponent's does
    (pinned by the perspective player). The pin row follows the counts and numbers the
    points as player 0 does (:mod:`gammon.kernels.tracks`): ``cross[1, s]`` is player
    0's point of player 1's ``s``."""
    row = 2 * slots
    for i in range(boards.shape[0]):
        p = perspective[i]
        for s in range(1, points + 1):
            point = s if p == 0 else cross[1, s]
            pinned = boards[i, row + point - 1]
            out[i, at + 2 * (s - 1)] = 1.0 if pinned == p + 1 else 0.0
            out[i, at + 2 * (s - 1) + 1] = 1.0 if pinned == 2 - p else 0.0


#: Contact features per side (:func:`encode_contact`).
CONTACT = 9
#: How many points in front of a checker the escape count looks at.
ESCAPE_REACH = 12


@njit(cache=True)
def escape_table():
    """``table[mask]``: of the 36 rolls, how many carry a checker past every blocked point
    among the twelve in front of it, where bit ``12 - d`` of ``mask`` is set when the
    point ``d`` pips ahead is blocked (so that a board's blocked points, one bit a
    point, give a checker's mask by a shift). A move may not land on a blocked point; a
    roll of doubles moves the checker up to four times."""
    table = np.zeros(1 << ESCAPE_REACH, np.int64)
    for mask in range(1 << ESCAPE_REACH):
        far = 0
        for d in range(1, ESCAPE_REACH + 1):
            if mask >> (ESCAPE_REACH - d) & 1:
                far = d
        if far == 0:
            table[mask] = 36
            continue
        count = 0
        for a in range(1, 7):
            for b in range(1, 7):
                if a == b:
                    moved = 0
                    for _ in range(4):
                        moved += a
                        if moved <= ESCAPE_REACH and mask >> (ESCAPE_REACH - moved) & 1:
                            break
                        if moved > far:
                            count += 1
                            break
                elif a > far or b > far or a + b > far and (not mask >> (ESCAPE_REACH - a) & 1
                                      or not mask >> (ESCAPE_REACH - b) & 1):
                    count += 1
        table[mask] = count
    return table


@njit(cache=True)
def _shots(attackers, defenders, top, entering):
    """Of the 36 rolls, how many let a checker of ``attackers`` land on a lone checker of
    ``defenders`` (both indexed by the defender's points 1 .. ``top - 1``; the attacker's
    checkers move up from 0, their bar, the defender's move down). Points the defender
    holds with two or more block the way; with ``entering`` only the checkers on the
    bar attack (they must come in first). A checker past every blot can hit none: it
    is left out (on 24 points no blot is more than 24 pips ahead of a checker)."""
    last = 0
    for v in range(top - 1, 0, -1):
        if defenders[v] == 1:
            last = v
            break
    sources = np.empty(top, np.int64)
    n = 0
    for u in range(min(1 if entering else top, last)):
        if attackers[u] > 0:
            sources[n] = u
            n += 1
    count = 0
    for a in range(1, 7):
        for b in range(a, 7):
            hit = False
            for k in range(n):
                u = sources[k]
                if a == b:
                    at = u
                    for _ in range(4):
                        at += a
                        if at >= top or defenders[at] >= 2:
                            break
                        if defenders[at] == 1:
                            hit = True
                            break
                elif ((u + a < top and defenders[u + a] == 1)
                      or (u + b < top and defenders[u + b] == 1)
                      or (u + a + b < top and defenders[u + a + b] == 1
                          and (defenders[u + a] < 2 or defenders[u + b] < 2))):
                    hit = True
                if hit:
                    break
            if hit:
                count += 1 if a == b else 2
    return count


@njit(cache=True)
def _contact_side(me, op, points, home, table, out, at):
    """The contact features of the side whose checkers are ``me`` (their points 1 ..
    ``points``, their bar at ``points + 1``) against ``op`` (on the same points, their bar
    at 0), written at ``out[at:at + CONTACT]``."""
    bar = points + 1
    back = 0
    anchor = 0
    blots = 0
    for s in range(bar, 0, -1):
        if me[s] > 0 and back == 0:
            back = s
        if me[s] >= 2 and anchor == 0 and points // 2 < s <= points:
            anchor = s
        if me[s] == 1 and s <= points:
            blots += 1
    # Bit ESCAPE_REACH + s: the other side holds point s, so a checker on point s has
    # the twelve points below it at bits s .. s + ESCAPE_REACH - 1.
    blocked = 0
    longest = 0
    run = 0
    closed = 0
    front = -1
    for s in range(0, bar):
        if front < 0 and op[s] > 0:
            front = s
        if s > 0 and op[s] >= 2:
            blocked |= 1 << (ESCAPE_REACH + s)
            run += 1
            longest = max(longest, run)
            if s > points - home:
                closed += 1
        else:
            run = 0
    mask = (1 << ESCAPE_REACH) - 1
    out[at] = _shots(op, me, bar, op[0] > 0) / 36.0 if blots > 0 else 0.0
    out[at + 1] = back / bar
    out[at + 2] = anchor / points
    out[at + 3] = table[(blocked >> back) & mask] / 36.0 if back > 0 else 1.0
    least = 36
    for s in range(points - home - 3, bar):
        least = min(least, table[(blocked >> s) & mask])
    out[at + 4] = 1.0 - least / 36.0
    out[at + 5] = min(longest, home) / home
    out[at + 6] = closed / home
    if front < 0:
        front = bar
    behind = 0
    for s in range(front + 1, bar + 1):
        behind += me[s] * (s - front)
    out[at + 7] = behind / PIP_SCALE
    out[at + 8] = blots / home


@njit(cache=True)
def encode_contact(boards, perspective, slots, points, home, cross, table, out, at):
    """The contact features of two-player boards whose sides run in opposite directions
    (see :class:`~gammon.nn.encoders.TrackEncoder`), from the side of ``perspective[i]``
    and then of the other player, at ``out[i, at:at + 2 * CONTACT]``."""
    me = np.zeros(points + 2, np.int64)
    op = np.zeros(points + 2, np.int64)
    bar = slots - 1
    for i in range(boards.shape[0]):
        for k in range(2):
            p = perspective[i] if k == 0 else 1 - perspective[i]
            mine = p * slots
            theirs = (1 - p) * slots
            for s in range(1, points + 1):
                me[s] = boards[i, mine + s]
                op[s] = boards[i, theirs + cross[p, s]]
            me[points + 1] = boards[i, mine + bar]
            op[0] = boards[i, theirs + bar]
            op[points + 1] = 0
            me[0] = 0
            _contact_side(me, op, points, home, table, out[i], at + k * CONTACT)
