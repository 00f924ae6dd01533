"""Compiled random playouts of Acedrex Backgammon.

The Python engine (:mod:`gammon.variants.acedrex`) is the reference; this kernel plays
whole games between random players over small integer arrays, for self-play statistics
and benchmarks. A random player chooses uniformly among the legal actions other than
resigning, and resigns with probability ``resign_rate`` at each decision, exactly as
:func:`gammon.variants.acedrex.random_action` does. A game can be recorded as a trace
(every throw and every action) that the engine replays.

So the rules are written twice, here and in the engine. Tied by
``tests/test_invariants_acedrex.py::test_kernel_games_replay_in_the_engine`` (traced
games under every option set replayed in the engine: every throw and action legal there,
the same money) and ``test_kernel_playouts_statistics``.

The board numbers live here and the variant module imports them, so compiled and Python
code share one definition.
"""

from __future__ import annotations

import numpy as np
from numba import njit

PLAYERS = 4
SLOTS = 9
PIECES = 9
STOPS = SLOTS + 1
RING = PLAYERS * STOPS
JACKPOT = 3
SIDES = 20
HAND = -1
#: The block of the ring (in the order of travel) holding each player's territory.
BLOCK = (0, 3, 2, 1)
_BLOCK = np.array(BLOCK, np.int64)
TERRITORY_AT = np.array([BLOCK.index(b) for b in range(PLAYERS)], np.int64)

# The rules vector (built by the rules object).
R_SPLIT, R_BOARD, R_FOREIGN_HAND, R_TIES_DEFENDER, R_VICTIM = 0, 1, 2, 3, 4
R_THRESHOLD, R_END, R_CAP, R_STAKE = 5, 6, 7, 8
RULES = 9

# How a game ended.
END_CAPTURES, END_RESIGNATIONS, END_CAP, END_STALLED = 0, 1, 2, 3
# Result columns. The first three are those of the track games' playouts: the winner
# (the player with the most money, the first of equals; -1 when the turn cap stopped the
# game), what the winner won, and the decisions made.
C_WINNER, C_POINTS, C_DECISIONS, C_END, C_TURNS, C_MONEY, C_CAPTURES = 0, 1, 2, 3, 4, 5, 9
COLUMNS = 13

# Trace rows: (code, a, b).
T_THROW, T_STEP, T_JUMP, T_NO_JUMP, T_KEEP, T_REROLL, T_PASS, T_RESIGN = range(8)


@njit(cache=True)
def _d20() -> int:
    return 1 + int(np.random.random() * SIDES)


@njit(cache=True)
def _record(trace, n, code, a, b):
    if n < trace.shape[0]:
        trace[n, 0] = code
        trace[n, 1] = a
        trace[n, 2] = b
    return n + 1


@njit(cache=True)
def _choose(options, resign_rate):
    """-1 to resign, else an index among ``options`` (uniform)."""
    if resign_rate > 0.0 and np.random.random() < resign_rate:
        return -1
    return int(np.random.random() * options)


@njit(cache=True)
def points(n):
    return 0 if n <= 0 else 1 << (n - 1)


@njit(cache=True)
def _first_stop(p):
    return _BLOCK[p] * STOPS


@njit(cache=True)
def mover_index(stack, height, s, p, tapped):
    """Index of the piece ``p`` would move from stop ``s``, or -1 (see mover_index in the
    engine: the outermost untapped one, none if an opponent is there)."""
    found = -1
    for i in range(height[s]):
        x = stack[s, i]
        if x // PIECES != p:
            return -1
        if tapped[x] == 0:
            found = i
    return found


@njit(cache=True)
def _targets(source, start, low, left, die, first, gates_open, held, acts, n):
    for k in range(low, left + 1):
        t = (start + k) % RING
        if t % STOPS == SLOTS:
            if gates_open:
                acts[n, 0] = source
                acts[n, 1] = k
                acts[n, 2] = t
                acts[n, 3] = 0
                n += 1
            continue
        if held[t] < 2:
            acts[n, 0] = source
            acts[n, 1] = k
            acts[n, 2] = t
            acts[n, 3] = 0
            n += 1
        elif first and k == die:
            acts[n, 0] = source
            acts[n, 1] = k
            acts[n, 2] = t
            acts[n, 3] = 1
            n += 1
    return n


@njit(cache=True)
def steps(stack, height, tapped, hn, jn, p, die, left, parts, split, held, acts, most=-1):
    """The steps of the part of the die to spend into ``acts`` (source, steps, target,
    charge), in the engine's order; their count. ``most`` (-1: all): stop once that
    many are listed (the count is then at least ``most``)."""
    first = parts == 0
    if split:
        if left == 0:
            return 0
        low = 1
    else:
        if not first:
            return 0
        low = left
    for s in range(RING):
        held[s] = 0
        for i in range(height[s]):
            held[s] = 1
            if stack[s, i] // PIECES != p:
                held[s] = 2
                break
    gates_open = jn < JACKPOT
    n = 0
    if hn[p] > 0:
        n = _targets(HAND, _first_stop(p) - 1, low, left, die, first, gates_open, held, acts, n)
    base = _first_stop(p)
    for off in range(RING):
        if 0 <= most <= n:
            break
        s = (base + off) % RING
        if held[s] == 1 and mover_index(stack, height, s, p, tapped) >= 0:
            n = _targets(s, s, low, left, die, first, gates_open, held, acts, n)
    return n


@njit(cache=True)
def jumps(stack, height, tapped, p, acts):
    n = 0
    for s in range(RING):
        if height[s] == 0 or mover_index(stack, height, s, p, tapped) < 0:
            continue
        for t in range(RING):
            if t == s:
                continue
            ok = False
            for i in range(height[t]):
                x = stack[t, i]
                if x // PIECES == p and tapped[x] == 0:
                    ok = True
                    break
            if ok:
                acts[n, 0] = s
                acts[n, 1] = t
                n += 1
    return n


@njit(cache=True)
def take(stack, height, s, i):
    """Remove the piece at index ``i`` of stop ``s``; returns it."""
    x = stack[s, i]
    for j in range(i, height[s] - 1):
        stack[s, j] = stack[s, j + 1]
    height[s] -= 1
    stack[s, height[s]] = -1
    return x


@njit(cache=True)
def put(stack, height, s, x):
    stack[s, height[s]] = x
    height[s] += 1


@njit(cache=True)
def fighting_pair(stack, height, s, tapped):
    for i in range(height[s] - 1, 0, -1):
        a = stack[s, i]
        d = stack[s, i - 1]
        if tapped[a] != 0 or tapped[d] != 0:
            return -1
        if a // PIECES != d // PIECES:
            return i
    return -1


@njit(cache=True)
def _owes(rules, took, capn, i, j):
    """What ``j`` pays ``i`` when they settle (ACE-PAYOUT)."""
    if rules[R_VICTIM]:
        diff = points(took[i, j]) - points(took[j, i])
    else:
        diff = points(capn[i]) - points(capn[j])
    return diff * rules[R_STAKE]


@njit(cache=True)
def settle_all(rules, took, capn, out, money):
    for i in range(PLAYERS):
        for j in range(i + 1, PLAYERS):
            if out[i] == 0 and out[j] == 0:
                owed = _owes(rules, took, capn, i, j)
                money[i] += owed
                money[j] -= owed


@njit(cache=True)
def next_player(out, p):
    for k in range(1, PLAYERS + 1):
        q = (p + k) % PLAYERS
        if out[q] == 0:
            return q
    return -1


@njit(cache=True)
def _resign(rules, p, stack, height, tapped, hn, jp, jn, took, capn, out, money):
    """ACE-RESIGN; returns the new jackpot count."""
    for s in range(RING):
        i = 0
        while i < height[s]:
            if stack[s, i] // PIECES == p:
                tapped[stack[s, i]] = 0
                take(stack, height, s, i)
            else:
                i += 1
    m = 0
    for i in range(jn):
        if jp[i] // PIECES != p:
            jp[m] = jp[i]
            m += 1
    hn[p] = 0
    for j in range(PLAYERS):
        if j != p and out[j] == 0:
            owed = _owes(rules, took, capn, p, j)
            money[p] += owed
            money[j] -= owed
    out[p] = 1
    return m


@njit(cache=True)
def combat_order(rules, p, out, order):
    """ACE-SCOPE: the stops a turn of ``p`` solves, in order, into ``order``; the count."""
    n = 0
    if rules[R_BOARD] != 0:
        base = _first_stop(p)
        for off in range(RING):
            s = (base + off) % RING
            if s % STOPS != SLOTS:
                order[n] = s
                n += 1
        return n
    first = p
    q = (p - 1) % PLAYERS
    while out[q] != 0 and q != p:
        first = q
        q = (q - 1) % PLAYERS
    t = first
    while True:
        for k in range(SLOTS):
            order[n] = _first_stop(t) + k
            n += 1
        if t == p:
            return n
        t = (t + 1) % PLAYERS


@njit(cache=True)
def stalled(height, stack, hn, jp, jn):
    """ACE-END: no capture can happen any more (see ``stalled`` in the engine)."""
    players = 0
    movable = False
    for s in range(RING):
        for i in range(height[s]):
            players |= 1 << (stack[s, i] // PIECES)
            movable = True
    for p in range(PLAYERS):
        if hn[p] > 0:
            players |= 1 << p
            movable = True
    for i in range(jn):
        players |= 1 << (jp[i] // PIECES)
    return not movable or players & (players - 1) == 0


@njit(cache=True)
def bonuses(stack, height, s, i, tapped):
    """ACE-MODIFIERS: the attacker's (at index ``i`` of stop ``s``) and the defender's
    bonus, one for each other untapped piece of their side in the slot."""
    a_side = stack[s, i] // PIECES
    d_side = stack[s, i - 1] // PIECES
    a_bonus = -1
    d_bonus = -1
    for j in range(height[s]):
        x = stack[s, j]
        if tapped[x] == 0:
            if x // PIECES == a_side:
                a_bonus += 1
            elif x // PIECES == d_side:
                d_bonus += 1
    return a_bonus, d_bonus


@njit(cache=True)
def fight_result(rules, stack, height, tapped, hand, hn, took, capn, s, i, at, dt):
    """The combat on stop ``s`` (attacker at index ``i``, its defender below) with the
    totals ``at`` and ``dt``, never a tie (ACE-COMBAT-WIN, ACE-DODGE, ACE-PARRY): the
    loser leaves (to its hand, or captured) or the two change places. Returns the side
    that captured, or -1."""
    attacker = stack[s, i]
    defender = stack[s, i - 1]
    a_side = attacker // PIECES
    d_side = defender // PIECES
    if at > dt:
        if at < rules[R_THRESHOLD]:  # ACE-DODGE
            stack[s, i] = defender
            stack[s, i - 1] = attacker
            return -1
        take(stack, height, s, i - 1)
        tapped[defender] = 0
        if TERRITORY_AT[s // STOPS] == d_side or rules[R_FOREIGN_HAND] != 0:
            hand[d_side, hn[d_side]] = defender
            hn[d_side] += 1
            return -1
        winner, loser = a_side, d_side
    else:
        if dt < rules[R_THRESHOLD]:  # ACE-PARRY
            return -1
        take(stack, height, s, i)
        tapped[attacker] = 0
        winner, loser = d_side, a_side
    took[winner, loser] += 1
    capn[winner] += 1
    return winner


@njit(cache=True)
def fill_jackpot(jp, hand, hn, took, capn):
    """ACE-JACKPOT-FILL: the full jackpot goes to the owner of its last piece, who takes
    their own pieces back into hand and captures the others; returns that player."""
    q = jp[JACKPOT - 1] // PIECES
    for j in range(JACKPOT):
        x = jp[j]
        if x // PIECES == q:
            hand[q, hn[q]] = x
            hn[q] += 1
        else:
            took[q, x // PIECES] += 1
            capn[q] += 1
    return q


@njit(cache=True)
def _game(rules, resign_rate, trace, result):
    """One random game from the start; fills ``result`` and returns the trace length."""
    split = rules[R_SPLIT] != 0
    end_at = rules[R_END]
    cap = rules[R_CAP]
    stack = np.full((RING, PLAYERS * PIECES), -1, np.int64)
    height = np.zeros(RING, np.int64)
    for p in range(PLAYERS):
        for k in range(SLOTS):
            put(stack, height, _first_stop(p) + k, p * PIECES + k)
    tapped = np.zeros(PLAYERS * PIECES, np.int64)
    hand = np.zeros((PLAYERS, PIECES), np.int64)
    hn = np.zeros(PLAYERS, np.int64)
    jp = np.zeros(JACKPOT, np.int64)
    jn = 0
    took = np.zeros((PLAYERS, PLAYERS), np.int64)
    capn = np.zeros(PLAYERS, np.int64)
    out = np.zeros(PLAYERS, np.int64)
    money = np.zeros(PLAYERS, np.int64)
    held = np.zeros(RING, np.int64)
    acts = np.zeros((RING * SIDES + 1, 4), np.int64)
    n = 0
    decisions = 0
    turns = 0
    ended = -1

    # ACE-FIRST
    contenders = np.arange(PLAYERS)
    nc = PLAYERS
    throws = np.zeros(PLAYERS, np.int64)
    while nc > 1:
        best = 0
        for c in range(nc):
            v = _d20()
            n = _record(trace, n, T_THROW, v, 0)
            throws[c] = v
            best = max(best, v)
        m = 0
        for c in range(nc):
            if throws[c] == best:
                contenders[m] = contenders[c]
                m += 1
        nc = m
    player = contenders[0]

    order = np.zeros(RING, np.int64)
    while ended < 0:
        if stalled(height, stack, hn, jp, jn):
            ended = END_STALLED
            break
        if cap > 0 and turns >= cap:
            ended = END_CAP
            break
        turns += 1
        p = player
        for x in range(p * PIECES, (p + 1) * PIECES):  # ACE-UNTAP
            tapped[x] = 0
        resigned = False
        die = 0
        while True:  # ACE-ROLL, ACE-ONE-MOVE
            v = _d20()
            n = _record(trace, n, T_THROW, v, 0)
            if v != 1:
                die = v
                break
            decisions += 1
            c = _choose(2, resign_rate)
            if c < 0:
                resigned = True
                break
            if c == 0:
                n = _record(trace, n, T_KEEP, 0, 0)
                die = 1
                break
            n = _record(trace, n, T_REROLL, 0, 0)
        left = die
        parts = 0
        while not resigned:  # ACE-MOVE, ACE-SPLIT
            na = steps(stack, height, tapped, hn, jn, p, die, left, parts, split, held, acts)
            if na == 0:
                if parts == 0:
                    decisions += 1
                    if _choose(1, resign_rate) < 0:
                        resigned = True
                    else:
                        n = _record(trace, n, T_PASS, 0, 0)
                break
            decisions += 1
            c = _choose(na, resign_rate)
            if c < 0:
                resigned = True
                break
            source, k, target, charge = acts[c, 0], acts[c, 1], acts[c, 2], acts[c, 3]
            n = _record(trace, n, T_STEP, source, k)
            if source == HAND:
                hn[p] -= 1
                x = hand[p, hn[p]]
            else:
                x = take(stack, height, source, mover_index(stack, height, source, p, tapped))
            if target % STOPS == SLOTS:
                jp[jn] = x
                jn += 1
                tapped[x] = 0
            else:
                put(stack, height, target, x)
                tapped[x] = 1
            parts += 1
            left = 0 if charge else left - k
            if left == 0:
                break
        if not resigned and die == SIDES:  # ACE-JUMP
            nj = jumps(stack, height, tapped, p, acts)
            if nj > 0:
                decisions += 1
                c = _choose(nj + 1, resign_rate)
                if c < 0:
                    resigned = True
                elif c < nj:
                    s, t = acts[c, 0], acts[c, 1]
                    n = _record(trace, n, T_JUMP, s, t)
                    x = take(stack, height, s, mover_index(stack, height, s, p, tapped))
                    put(stack, height, t, x)
                    tapped[x] = 1
                else:
                    n = _record(trace, n, T_NO_JUMP, 0, 0)
        if resigned:
            n = _record(trace, n, T_RESIGN, 0, 0)
            jn = _resign(rules, p, stack, height, tapped, hn, jp, jn, took, capn, out, money)
            active = 0
            for q in range(PLAYERS):
                if out[q] == 0:
                    active += 1
            if active == 1:
                ended = END_RESIGNATIONS
                break
            player = next_player(out, p)
            continue

        # ACE-SCOPE: the combats of this turn
        stops = combat_order(rules, p, out, order)
        for o in range(stops):
            s = order[o]
            if height[s] < 2:
                continue
            i = fighting_pair(stack, height, s, tapped)
            if i < 0:
                continue
            while True:
                a = 1
                while a == 1:  # ACE-COMBAT-ONE
                    a = _d20()
                    n = _record(trace, n, T_THROW, a, 0)
                d = 1
                while d == 1:
                    d = _d20()
                    n = _record(trace, n, T_THROW, d, 0)
                a_bonus, d_bonus = bonuses(stack, height, s, i, tapped)
                at = a + a_bonus
                dt = d + d_bonus
                if at == dt and rules[R_TIES_DEFENDER] == 0:
                    continue  # ACE-TIE: throw again
                break
            w = fight_result(rules, stack, height, tapped, hand, hn, took, capn, s, i, at, dt)
            if w >= 0 and capn[w] >= end_at:
                ended = END_CAPTURES
                break
        if ended >= 0:
            break
        # ACE-JACKPOT-FILL
        if jn == JACKPOT:
            q = fill_jackpot(jp, hand, hn, took, capn)
            jn = 0
            if capn[q] >= end_at:
                ended = END_CAPTURES
                break
            player = q
        else:
            player = next_player(out, p)

    settle_all(rules, took, capn, out, money)
    best = 0
    for q in range(1, PLAYERS):
        if money[q] > money[best]:
            best = q
    result[C_WINNER] = -1 if ended == END_CAP else best
    result[C_POINTS] = 0 if ended == END_CAP else money[best]
    result[C_END] = ended
    result[C_TURNS] = turns
    result[C_DECISIONS] = decisions
    for q in range(PLAYERS):
        result[C_MONEY + q] = money[q]
        result[C_CAPTURES + q] = capn[q]
    return n


@njit(cache=True)
def seed(value):
    np.random.seed(value)


@njit(cache=True)
def random_playouts(rules, games, resign_rate):
    """``games`` random games; one row of COLUMNS per game."""
    results = np.zeros((games, COLUMNS), np.int64)
    no_trace = np.zeros((0, 3), np.int64)
    for g in range(games):
        _game(rules, resign_rate, no_trace, results[g])
    return results


@njit(cache=True)
def traced_game(rules, resign_rate, trace):
    """One random game recorded in ``trace`` (rows of code, a, b); returns the result
    row and the trace length (more than ``len(trace)`` when it did not fit)."""
    result = np.zeros(COLUMNS, np.int64)
    n = _game(rules, resign_rate, trace, result)
    return result, n
