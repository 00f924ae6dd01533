"""Compiled answers for a turn taken one checker step at a time.

A turn in steps (:mod:`gammon.envs.steps`, the OpenSpiel games, a play typed in parts)
moves one checker by one die at a time. A step is legal when some legal whole play of
the turn can still be reached from the board it leaves with the dice left
(:class:`gammon.notation.movetext.Completions` states the rule). Searching that in
Python took most of a step decision's time; :func:`legal_steps` searches it here, over
the same moved geometry: a step takes a checker of the mover from ``source`` to
``max(source - die, 0)``, never onto a ``closed`` point, and a lone opposing checker
where it lands goes to the bar (it stays, in the games that pin: their boards are
compared by their counts alone). The legal plays' result boards come as their hashes
(:func:`gammon.kernels.tracks.board_hash` over the counts); a node of the search (a
board and the dice left) is remembered by its hash and its dice, so a node met again
is not searched twice. Tied to the Python search by
``tests/test_envs_steps.py::test_the_compiled_steps_are_the_completions_steps``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.kernels.cache import refresh_when_changed
from gammon.kernels.tracks import CROSS, R_PINS, R_PLAYERS, R_POINTS, board_hash

MEMO_BITS = 13  # search nodes remembered in a turn (open addressing)
MEMO_MOST = 3 << (MEMO_BITS - 2)  # kept at most: the table three quarters full


def memo() -> tuple[np.ndarray, np.ndarray]:
    """A turn's table of answered search nodes (keys, answers), empty: one for every
    call of :func:`legal_steps` in the turn, since a node's answer cannot change in it.
    The answers' last entry counts the nodes kept."""
    return np.zeros(1 << MEMO_BITS, np.int64), np.zeros((1 << MEMO_BITS) + 1, np.int64)
MAX_STEPS = 4  # dice a turn in steps holds at most


@njit(cache=True)
def _dice_key(dice, used):
    # The dice left as a number (sorted digits): the same multiset, the same key.
    key = 0
    for die in range(1, 7):
        for k in range(dice.shape[0]):
            if used[k] == 0 and dice[k] == die:
                key = key * 8 + die
    return key


@njit(cache=True)
def _move(board, player, source, die, rules):
    """Move one checker; returns ``(destination, index of an opposing checker sent to
    the bar or -1)``. ``board`` is changed."""
    points = rules[R_POINTS]
    slots = points + 2
    base = player * slots
    dst = source - die
    if dst < 0:
        dst = 0
    board[base + source] -= 1
    board[base + dst] += 1
    sent = -1
    if dst > 0 and rules[R_PINS] == 0:
        players = rules[R_PLAYERS]
        for q in range(players):
            if q == player:
                continue
            index = q * slots + rules[CROSS + (player * players + q) * slots + dst]
            if board[index] == 1:
                board[index] = 0
                board[q * slots + slots - 1] += 1
                sent = index
    return dst, sent


@njit(cache=True)
def _undo(board, player, source, dst, sent, rules):
    slots = rules[R_POINTS] + 2
    board[player * slots + source] += 1
    board[player * slots + dst] -= 1
    if sent >= 0:
        board[sent] = 1
        board[(sent // slots) * slots + slots - 1] -= 1


@njit(cache=True)
def _good(board, player, dice, used, closed, targets, rules, words, memo_keys, memo_values):
    """Whether a legal play's board is reachable from ``board`` with the dice not
    ``used``. Iterative (numba's cache keeps no recursive kernel reliably): a stack of at
    most :data:`MAX_STEPS` nodes, each with the step it tries next (:func:`_next_step`)."""
    slots = rules[R_POINTS] + 2
    base = player * slots
    mask = (1 << MEMO_BITS) - 1
    # Per depth: the node's memo slot and key, the step it tries next (source, die) and
    # the move it made (die index, destination, checker sent to the bar).
    slot_at = np.zeros(MAX_STEPS + 1, np.int64)
    key_at = np.zeros(MAX_STEPS + 1, np.int64)
    source_at = np.zeros(MAX_STEPS + 1, np.int64)
    die_at = np.zeros(MAX_STEPS + 1, np.int64)
    k_at = np.zeros(MAX_STEPS + 1, np.int64)
    dst_at = np.zeros(MAX_STEPS + 1, np.int64)
    sent_at = np.zeros(MAX_STEPS + 1, np.int64)
    depth = 0
    entering = True
    result = False
    while True:
        if entering:
            entering = False
            h = board_hash(board, words)
            pos = np.searchsorted(targets, h)
            left = 0
            for j in range(dice.shape[0]):
                left += 1 - used[j]
            if pos < targets.shape[0] and targets[pos] == h:
                result = True
            elif left == 0:
                result = False
            else:
                key = h ^ (_dice_key(dice, used) * 0x9E3779B97F4A7C15)
                slot = key & mask
                known = 0
                while memo_values[slot] != 0:
                    if memo_keys[slot] == key:
                        known = memo_values[slot]
                        break
                    slot = (slot + 1) & mask
                if known != 0:
                    result = known == 2
                else:
                    slot_at[depth] = slot
                    key_at[depth] = key
                    source_at[depth] = 1
                    die_at[depth] = 1
                    if _next_step(board, base, slots, dice, used, closed, source_at, die_at,
                                  k_at, depth):
                        k = k_at[depth]
                        dst_at[depth], sent_at[depth] = _move(
                            board, player, source_at[depth], dice[k], rules)
                        used[k] = 1
                        depth += 1
                        entering = True
                        continue
                    _remember(memo_keys, memo_values, slot, key, 1)
                    result = False
        # ``result`` answers the node at ``depth``: hand it to its parent.
        if depth == 0:
            return result
        depth -= 1
        used[k_at[depth]] = 0
        _undo(board, player, source_at[depth], dst_at[depth], sent_at[depth], rules)
        if result:
            _remember(memo_keys, memo_values, slot_at[depth], key_at[depth], 2)
            continue
        if _next_step(board, base, slots, dice, used, closed, source_at, die_at, k_at,
                      depth):
            k = k_at[depth]
            dst_at[depth], sent_at[depth] = _move(board, player, source_at[depth], dice[k],
                                                  rules)
            used[k] = 1
            depth += 1
            entering = True
            continue
        _remember(memo_keys, memo_values, slot_at[depth], key_at[depth], 1)
        result = False


@njit(cache=True)
def _remember(memo_keys, memo_values, slot, key, answer):
    # Answers are kept while the table has room: past that, nodes are searched again.
    if memo_values[slot] == 0 and memo_values[-1] < MEMO_MOST:
        memo_keys[slot] = key
        memo_values[slot] = answer
        memo_values[-1] += 1


@njit(cache=True)
def _next_step(board, base, slots, dice, used, closed, source_at, die_at, k_at, depth):
    """Advance the node at ``depth`` to its next step to try, from ``(source_at, die_at)``
    on (by source, then die value): True with ``source_at``, ``k_at`` set to it, and
    ``die_at`` past it; False when none is left."""
    source = source_at[depth]
    die = die_at[depth]
    while source < slots:
        if board[base + source] > 0:
            while die <= 6:
                k = -1
                for j in range(dice.shape[0]):
                    if used[j] == 0 and dice[j] == die:
                        k = j
                        break
                dst = source - die
                if dst < 0:
                    dst = 0
                if k >= 0 and not (closed >> dst) & 1:
                    source_at[depth] = source
                    die_at[depth] = die + 1
                    k_at[depth] = k
                    return True
                die += 1
        source += 1
        die = 1
    source_at[depth] = source
    die_at[depth] = die
    return False


@njit(cache=True)
def legal_steps(board, player, dice, closed, targets, rules, words, memo_keys, memo_values,
                out):
    """The legal steps from ``board`` (the counts, ``int8``) with ``dice`` (``int64``, the
    dice left): writes ``(source, die)`` pairs into ``out`` (``int64``, 2 a step), by
    source then die, lowest first, each die once a source; returns how many.
    ``closed``: bit ``p`` set for each point ``p`` the mover may not land on;
    ``targets``: the sorted hashes of the legal plays' result counts; ``memo_keys`` and
    ``memo_values``: the turn's table of answered nodes (:func:`memo`)."""
    work = board.copy()
    used = np.zeros(dice.shape[0], np.int64)
    base = player * (rules[R_POINTS] + 2)
    # The root's steps, in the order the search tries a node's (one entry of its stack).
    source_at = np.ones(1, np.int64)
    die_at = np.ones(1, np.int64)
    k_at = np.zeros(1, np.int64)
    count = 0
    while _next_step(work, base, rules[R_POINTS] + 2, dice, used, closed, source_at, die_at,
                     k_at, 0):
        source, k = source_at[0], k_at[0]
        dst, sent = _move(work, player, source, dice[k], rules)
        used[k] = 1
        if _good(work, player, dice, used, closed, targets, rules, words, memo_keys,
                 memo_values):
            out[2 * count] = source
            out[2 * count + 1] = dice[k]
            count += 1
        used[k] = 0
        _undo(work, player, source, dst, sent, rules)
    return count


@njit(cache=True)
def result_hashes(blob_rows, size, words):
    """The sorted hashes of the first ``size`` bytes (the counts) of each row."""
    out = np.empty(blob_rows.shape[0], np.int64)
    for i in range(blob_rows.shape[0]):
        out[i] = board_hash(blob_rows[i, :size], words)
    out.sort()
    return out


refresh_when_changed(globals())
