"""Compiled hot paths of the bots: expanding positions over all rolls, and the
features of the track heuristic.

Search spends its time in two places: generating the plays of every roll from many
positions, and scoring every resulting board. Both run here, over whole batches, so
that Python is crossed once per batch rather than once per position or board. The
kernels are iterative and cached on disk like those of :mod:`gammon.kernels.tracks`,
whose move generator they call.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.kernels import tracks
from gammon.kernels.cache import refresh_when_changed


@njit(cache=True)
def expand(boards, player, rolls, rules, plays, words, out, starts):
    """Every play of ``player`` for each roll from each board, stacked into ``out``.

    ``starts[k * len(rolls) + r]`` receives where the plays of board ``k`` and roll
    ``r`` begin. Returns the number of rows written, or -1 when ``out`` is too small
    (the caller grows it and calls again). The head rule (Long Nardy) limits each roll
    as :func:`gammon.kernels.tracks.head_limit` says.
    """
    size = boards.shape[1]
    total = 0
    g = 0
    cap = out.shape[0]
    for k in range(boards.shape[0]):
        board = boards[k]
        for r in range(rolls.shape[0]):
            d1 = rolls[r, 0]
            d2 = rolls[r, 1]
            limit = tracks.head_limit(board, player, d1, d2, rules)
            count = tracks.generate_plays(board, player, d1, d2, limit, rules, plays, words)
            if total + count > cap:
                return -1
            starts[g] = total
            g += 1
            for i in range(count):
                for j in range(size):
                    out[total + i, j] = plays[i, j]
            total += count
    return total


@njit(cache=True)
def game_ends(boards, player, rules, out):
    """How each of ``boards``, just played by ``player``, stands (into ``out``): -1 while
    the game goes on, -2 drawn, else the winner, as the turn's end says
    (:func:`gammon.kernels.tracks.turn_end`) for a player who is not the starter: a side
    borne off counts as won even where the last roll (Long Nardy's option) may yet draw,
    which is what the searches assume."""
    for k in range(boards.shape[0]):
        out[k] = tracks.turn_end(boards[k], player, -1, False, rules)[0]


#: Columns of :func:`pair_features`.
FEATURES = ("exposure", "exposure_board", "blocks", "prime", "home_bar", "anchors",
            "stacks", "bar", "back", "home_points", "blots", "off", "pips", "pips_squared")
#: After :data:`FEATURES`, one column per point: the player holds it (1) or not (0).
HELD = len(FEATURES)


@njit(cache=True)
def pair_features(boards, p, q, slots, points, home, made_at, checkers, cross, shots,
                  prime_value, enter_first, features, contact, pips, extra):
    """The features of ``p`` against ``q`` on every board (see
    :mod:`gammon.evaluators.track`, columns :data:`FEATURES`) into ``features``;
    whether ``q`` still has to pass a checker of ``p`` into ``contact`` (or-ed); ``p``'s
    pip count into ``pips``. ``extra[k]`` receives, for ``p`` on board ``k``: the pips to
    bring every checker home, the points held in the home board, the checkers borne off
    and those on the bar (what the gammon estimate needs). Columns ``HELD + b - 1``
    receive whether ``p`` holds point ``b`` (1..N).

    ``cross[s]``: ``q``'s slot of ``p``'s slot ``s`` (its bar included). ``shots[d]``:
    the chance one checker hits a blot ``d`` pips away (all zero without hitting).
    ``enter_first``: while ``q`` has checkers on the bar its other checkers cannot move
    until they are in, so they shoot much less (not at all with two on the bar).
    """
    t_slots = np.empty(slots, np.int64)
    t_count = np.empty(slots, np.float64)
    for k in range(boards.shape[0]):
        touch, pip = board_features(boards[k], p, q, slots, points, home, made_at, checkers,
                                    cross, shots, prime_value, enter_first, features[k],
                                    extra[k], t_slots, t_count)
        if touch:
            contact[k] = True
        pips[k] = pip


@njit(cache=True)
def board_features(board, p, q, slots, points, home, made_at, checkers, cross, shots,
                   prime_value, enter_first, row, extra, t_slots, t_count):
    """:func:`pair_features` of one board into ``row`` (zeroed here) and ``extra``;
    returns (contact, pips). ``t_slots``/``t_count`` are work space."""
    bar = points + 1
    own_base = p * slots
    opp_base = q * slots
    for j in range(row.shape[0]):
        row[j] = 0.0
    nt = 0
    their_back = 0
    their_board = 0
    for t in range(1, slots):
        c = board[opp_base + t]
        if c > 0:
            t_slots[nt] = t
            t_count[nt] = c
            nt += 1
            if t > their_back:
                their_back = t
            if t <= home and c >= made_at:
                their_board += 1
    their_bar = board[opp_base + bar]
    pip = 0.0
    to_home = 0.0
    min_cross = 1 << 30
    expo = 0.0
    blocks = 0.0
    run = 0
    longest = 0
    home_points = 0
    anchors = 0
    stack = 0.0
    back = 0.0
    blots = 0.0
    trapped = False
    for b in range(1, slots):
        c = board[own_base + b]
        pip += b * c
        if b > home:
            to_home += (b - home) * c
        if c == 0:
            run = 0
            continue
        cb = cross[b]
        if cb < min_cross:
            min_cross = cb
        if b == bar:
            continue
        if 1 <= cb <= home:
            back += c
        if c > 3:
            stack += c - 3
        if c == 1:
            blots += 1.0
            lam = 0.0
            for i in range(nt):
                d = t_slots[i] - cb
                if 1 <= d <= 24:
                    if enter_first and their_bar > 0 and t_slots[i] != bar:
                        if their_bar == 1:
                            lam += 0.4 * shots[d]
                    else:
                        lam += shots[d]
            if lam > 0.0:
                expo += (1.0 - np.exp(-lam)) * (bar - b) / bar
        if c >= made_at:
            row[HELD + b - 1] = 1.0
            run += 1
            if run > longest:
                longest = run
            if b <= home:
                home_points += 1
            if 1 <= cb <= home:
                anchors += 1
            for i in range(nt):
                d = t_slots[i] - cb
                if d >= 1:
                    trapped = True
                    if d <= 6:
                        blocks += t_count[i]
                    elif d <= 12:
                        blocks += 0.5 * t_count[i]
        else:
            run = 0
    touch = their_back > min_cross
    row[0] = expo
    row[1] = expo * their_board
    row[2] = blocks / checkers
    row[3] = prime_value[min(longest, prime_value.shape[0] - 1)] if trapped else 0.0
    row[4] = home_points * min(their_bar, 2)
    row[5] = min(anchors, 2) if touch else 0.0
    row[6] = stack
    row[7] = board[own_base + bar]
    row[8] = back
    row[9] = home_points
    row[10] = blots
    row[11] = board[own_base]
    row[12] = pip / 100.0
    row[13] = (pip / 100.0) ** 2
    extra[0] = to_home
    extra[1] = home_points
    extra[2] = board[own_base]
    extra[3] = board[own_base + bar]
    return touch, pip


@njit(cache=True)
def _logistic(z):
    return 1.0 / (1.0 + np.exp(-z))


@njit(cache=True)
def _race_z(lead, total, mean_roll, roll_sd, logistic):
    sigma = roll_sd * np.sqrt(max(total, 1.0) / mean_roll)
    return logistic * lead / sigma


@njit(cache=True)
def two_player_chances(boards, to_move, ints, floats, cross01, cross10, shots, prime_value,
                       mover_w, roller_w, gammon_win, gammon_lose, win0, gammon0, gammon1):
    """Player 0's chance to win and each player's gammon rate on every board, the whole
    two-player evaluation of :class:`gammon.evaluators.track.TrackHeuristic` in
    one compiled pass (see there for the model).

    ``ints``: slots, points, home, made_at, enter_first, gammons, fitted gammon models
    (0/1). ``floats``: checkers, race weight, bias, tempo, mean roll, roll spread,
    logistic scale.
    """
    slots, points, home, made_at = ints[0], ints[1], ints[2], ints[3]
    enter_first, gammons, fitted = ints[4], ints[5], ints[6]
    checkers, race_w, bias, tempo = floats[0], floats[1], floats[2], floats[3]
    mean_roll, roll_sd, logistic = floats[4], floats[5], floats[6]
    n = boards.shape[0]
    width = mover_w.shape[0]
    f0 = np.zeros(width)
    f1 = np.zeros(width)
    e0 = np.zeros(4)
    e1 = np.zeros(4)
    t_slots = np.empty(slots, np.int64)
    t_count = np.empty(slots, np.float64)
    first, second = np.int64(0), np.int64(1)  # typed, not literals: one compiled kernel
    for k in range(n):
        c0, pips0 = board_features(boards[k], first, second, slots, points, home, made_at, checkers,
                                   cross01, shots, prime_value, enter_first, f0, e0, t_slots,
                                   t_count)
        c1, pips1 = board_features(boards[k], second, first, slots, points, home, made_at, checkers,
                                   cross10, shots, prime_value, enter_first, f1, e1, t_slots,
                                   t_count)
        touching = c0 or c1
        t = tempo if to_move[k] == 0 else -tempo
        race = _race_z(pips1 - pips0 + t, pips0 + pips1, mean_roll, roll_sd, logistic)
        zero_moved = to_move[k] == 1
        if zero_moved:
            fm, fr, em, er = f0, f1, e0, e1
        else:
            fm, fr, em, er = f1, f0, e1, e0
        if touching:
            s = bias
            for j in range(width):
                s += mover_w[j] * fm[j] + roller_w[j] * fr[j]
            race_m = race if zero_moved else -race
            z_m = race_w * race_m + s
            z = z_m if zero_moved else -z_m
        else:
            z = race
        win0[k] = _logistic(z)
        g0 = 0.0
        g1 = 0.0
        if gammons == 1:
            # The race to bear off a first checker, with a floor for contact.
            for side in range(2):
                if side == 0:
                    winner, loser, wpips, lead = e0, e1, pips0, t
                else:
                    winner, loser, wpips, lead = e1, e0, pips1, -t
                if loser[2] > 0:
                    g = 0.0
                else:
                    need = loser[0] + 4.0
                    g = _logistic(_race_z(need - wpips + lead, need + wpips, mean_roll,
                                          roll_sd, logistic))
                    if touching:
                        floor = min(0.12 + 0.08 * min(loser[3], 3.0) + 0.03 * winner[1], 0.6)
                        g = max(g, floor)
                if side == 0:
                    g0 = g
                else:
                    g1 = g
            if fitted == 1 and touching:
                race_m = race if zero_moved else -race
                zw = gammon_win[0] + gammon_win[1] * race_m
                zl = gammon_lose[0] + gammon_lose[1] * race_m
                for j in range(width):
                    zw += gammon_win[2 + j] * fm[j] + gammon_win[2 + width + j] * fr[j]
                    zl += gammon_lose[2 + j] * fm[j] + gammon_lose[2 + width + j] * fr[j]
                gw = 0.0 if er[2] > 0 else _logistic(zw)  # the roller has borne none off
                gl = 0.0 if em[2] > 0 else _logistic(zl)
                if zero_moved:
                    g0, g1 = gw, gl
                else:
                    g0, g1 = gl, gw
        gammon0[k] = g0
        gammon1[k] = g1


@njit(cache=True)
def keep_best(scores, starts, least, keep):
    """Mark in ``keep`` the best-scored rows of each group (a group runs from one of
    ``starts`` to the next): ``least`` plus the base-2 logarithm of the group's size,
    rounded down, or the whole group when it is smaller (gnubg's pruning: the more plays
    a roll has, the more of them a rough score may misplace)."""
    keep[:] = False
    groups = starts.shape[0]
    for g in range(groups):
        begin = starts[g]
        end = starts[g + 1] if g + 1 < groups else scores.shape[0]
        size = end - begin
        if size <= 0:
            continue
        kept = least
        n = size
        while n > 1:
            n >>= 1
            kept += 1
        if kept >= size:
            keep[begin:end] = True
            continue
        order = np.argsort(-scores[begin:end], kind="mergesort")
        for k in range(kept):
            keep[begin + order[k]] = True


#: A random odd 64-bit multiplier for each byte of a row (:func:`distinct_rows`).
ROW_MULTIPLIERS = np.random.default_rng(0x6A3D).integers(
    0, 2**63, 256, dtype=np.int64).astype(np.uint64) * np.uint64(2) + np.uint64(1)


@njit(cache=True)
def distinct_rows(rows):
    """The first of each distinct row of small integers, and which of them each row is
    (``first``, ``inverse``: ``rows[first][inverse]`` is ``rows``), in one pass: rows are
    told apart by a 64-bit hash (each byte times its own random odd multiplier, summed:
    independent products, not a chain, so the row's bytes are read at once) kept in an
    open-addressed table, no sorting. Rows of up to 256 bytes (a board row has 76 at
    most)."""
    if rows.shape[1] > ROW_MULTIPLIERS.shape[0]:
        raise ValueError("distinct_rows: rows of more than 256 bytes")
    n = rows.shape[0]
    bits = 6
    while (1 << bits) < 2 * n:
        bits += 1
    size = 1 << bits
    keys = np.zeros(size, np.uint64)
    slot_of = np.full(size, -1, np.int64)
    first = np.empty(n, np.int64)
    inverse = np.empty(n, np.int64)
    count = 0
    for i in range(n):
        h = np.uint64(0)
        for j in range(rows.shape[1]):
            h += np.uint64(rows[i, j] & 0xFF) * ROW_MULTIPLIERS[j]
        h ^= h >> np.uint64(29)
        at = np.int64((h * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits))
        while True:
            seen = slot_of[at]
            if seen < 0:
                slot_of[at] = count
                keys[at] = h
                first[count] = i
                inverse[i] = count
                count += 1
                break
            if keys[at] == h:
                inverse[i] = seen
                break
            at = (at + 1) & (size - 1)
    return first[:count], inverse


# Kernels above inline other modules' code: recompile them when it changes.
refresh_when_changed(globals())
