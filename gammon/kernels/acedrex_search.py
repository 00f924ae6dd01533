"""Expectimax for Acedrex Backgammon in compiled code: the search of
:class:`gammon.agents.state_search.StateSearch` with the heuristic of
:class:`gammon.evaluators.acedrex.AcedrexHeuristic`, over one small integer array a
state (issue 49).

The rules are those of the compiled playouts (:mod:`gammon.kernels.acedrex`: its move
listing, its combat and jackpot, its turn order), now split into functions that list the
actions of a decision, apply one, throw a chance outcome and score a state. What the
search must keep of the Python search, to choose the same action every time:

- the actions in the engine's order (the search takes the first of equal scores);
- the chance outcomes in the engine's order, with the same probabilities (a throw
  that is thrown again is no outcome: :mod:`gammon.variants.acedrex.combat`), summed in
  that order;
- the heuristic's sums in the same order, term by term, so that equal positions score
  to the same bit and near ties fall the same way;
- the search's own rules: inner decisions keep their best reply, a decision of few
  actions is looked through into the same player's next one, a wide decision with no
  depth left is scored as it stands.

``tests/test_acedrex_search.py`` plays seeded games with both searches and requires every
score to be equal. Pieces keep their numbers (a piece entering from hand may be
another of the same owner's than in the engine: nothing reads which).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.kernels.acedrex import (
    JACKPOT,
    PIECES,
    PLAYERS,
    R_CAP,
    R_END,
    R_FOREIGN_HAND,
    R_SPLIT,
    R_STAKE,
    R_TIES_DEFENDER,
    RING,
    SIDES,
    SLOTS,
    STOPS,
    TERRITORY_AT,
    bonuses,
    combat_order,
    fight_result,
    fighting_pair,
    fill_jackpot,
    jumps,
    mover_index,
    next_player,
    points,
    put,
    settle_all,
    stalled,
    steps,
    take,
)
from gammon.kernels.cache import refresh_when_changed

#: Pieces in all; a stop can hold every one of them.
ALL = PLAYERS * PIECES

# A state is one integer array: the stops' stacks (centre first), their heights, a tapped
# flag a piece, the hands, the jackpot, who captured how many of whose, the captures,
# who is out, the money settled, then the scalars of the turn.
S_STACK = 0
S_HEIGHT = S_STACK + RING * ALL
S_TAPPED = S_HEIGHT + RING
S_HAND = S_TAPPED + ALL
S_HN = S_HAND + ALL
S_JP = S_HN + PLAYERS
S_TOOK = S_JP + JACKPOT
S_CAPN = S_TOOK + PLAYERS * PLAYERS
S_OUT = S_CAPN + PLAYERS
S_MONEY = S_OUT + PLAYERS
S_JN = S_MONEY + PLAYERS
S_TURN = S_JN + 1
S_STAGE = S_TURN + 1
S_DIE = S_STAGE + 1
S_LEFT = S_DIE + 1
S_PARTS = S_LEFT + 1
#: The next of the turn's combat stops (``combat_order``) still to solve: the engine's
#: ``queue`` is what follows it.
S_QPOS = S_PARTS + 1
S_FIGHT = S_QPOS + 1
S_ATTACK = S_FIGHT + 1
S_TURNS = S_ATTACK + 1
SIZE = S_TURNS + 1
#: A state's numbers: int32 keeps a copy (the search makes one a node) to 6 KB; money
#: fits while the stake is at most ``MOST_STAKE``.
DTYPE = np.int32
MOST_STAKE = 100_000

# Stages (the engine's, less the starting throws, which come before any decision).
ROLL, ONE, MOVE, JUMP, ATTACK, DEFEND, OVER = range(7)
STAGES = {"roll": ROLL, "one": ONE, "move": MOVE, "jump": JUMP, "attack": ATTACK,
          "defend": DEFEND, "over": OVER}

#: An action row that is no step or jump: pass, or no jump.
NOTHING = -2
#: More actions than a decision can have (a step of every piece and the hand for every
#: part of the die, and pass).
MOST_ACTIONS = (ALL + 1) * SIDES + 1

# The search's settings (an int64 vector).
P_DEPTH, P_WIDTH, P_INNER, P_FOLLOW, P_WIDE, P_CUTOFF = range(6)
# What a node of the search computes.
M_VALUE, M_DECIDE, M_NO_FOLLOW, M_ROOT = range(4)

#: No piece tapped: a fight of a later turn is weighed as if none were.
_UNTAPPED = np.zeros(ALL, DTYPE)
_NOBODY_OUT = np.zeros(PLAYERS, DTYPE)

# The heuristic's constants (gammon.evaluators.acedrex): later fights, the jackpot, forces.
LATER = 0.5
JACKPOT_WEIGHT = 0.6
PIECE = 1.0
IN_HAND = 0.3


@njit(cache=True)
def _views(s):
    return (s[S_STACK:S_HEIGHT].reshape((RING, ALL)), s[S_HEIGHT:S_TAPPED],
            s[S_TAPPED:S_HAND], s[S_HAND:S_HN].reshape((PLAYERS, PIECES)), s[S_HN:S_JP],
            s[S_JP:S_TOOK], s[S_TOOK:S_CAPN].reshape((PLAYERS, PLAYERS)),
            s[S_CAPN:S_OUT], s[S_OUT:S_MONEY], s[S_MONEY:S_JN])


@njit(cache=True)
def _deciding(stage):
    return ONE <= stage <= JUMP  # the three stages of a decision, numbered in a row


# --- the game ---------------------------------------------------------------------------


@njit(cache=True)
def _step_list(s, rules, held, work, most):
    """The steps of the part of the die at ``s`` (``most``: see ``steps``)."""
    stack, height, tapped, _, hn, _, _, _, _, _ = _views(s)
    return steps(stack, height, tapped, hn, s[S_JN], s[S_TURN], s[S_DIE], s[S_LEFT],
                  s[S_PARTS], rules[R_SPLIT] != 0, held, work, most)


@njit(cache=True)
def _actions(s, rules, held, work):
    """The actions of the decision at ``s`` into ``work``, in the engine's order, resign
    left out (the bots' candidates); their count."""
    stage = s[S_STAGE]
    if stage == ONE:  # keep, reroll
        work[0, 0] = 0
        work[1, 0] = 1
        return 2
    if stage == JUMP:
        stack, height, tapped, _, _, _, _, _, _, _ = _views(s)
        n = jumps(stack, height, tapped, s[S_TURN], work)
        work[n, 0] = NOTHING  # no jump
        return n + 1
    n = _step_list(s, rules, held, work, -1)
    if n == 0:
        work[0, 0] = NOTHING  # pass
        return 1
    return n


@njit(cache=True)
def _wider_than(s, rules, count, held, work):
    """Whether the engine lists more than ``count`` actions here, resign counted."""
    stage = s[S_STAGE]
    if stage == ONE:
        return count < 3
    if stage == JUMP:
        stack, height, tapped, _, _, _, _, _, _, _ = _views(s)
        return jumps(stack, height, tapped, s[S_TURN], work) + 2 > count
    n = _step_list(s, rules, held, work, count + 1)
    return (n + 1 if n else 2) > count


@njit(cache=True)
def _finish(s, rules):
    """ACE-END: settle every open pair and stop."""
    _, _, _, _, _, _, took, capn, out, money = _views(s)
    settle_all(rules, took, capn, out, money)
    s[S_STAGE] = OVER
    s[S_QPOS] = 0
    s[S_FIGHT] = -1
    s[S_ATTACK] = 0
    s[S_LEFT] = 0


@njit(cache=True)
def _next_turn(s, rules, player):
    """ACE-UNTAP and the roll of ``player``'s turn, or the end (stalled, the cap)."""
    stack, height, tapped, _, hn, jp, _, _, _, _ = _views(s)
    if stalled(height, stack, hn, jp, s[S_JN]):
        _finish(s, rules)
        return
    if rules[R_CAP] and s[S_TURNS] >= rules[R_CAP]:
        _finish(s, rules)
        return
    for x in range(player * PIECES, (player + 1) * PIECES):
        tapped[x] = 0
    s[S_TURN] = player
    s[S_STAGE] = ROLL
    s[S_DIE] = 0
    s[S_LEFT] = 0
    s[S_PARTS] = 0
    s[S_QPOS] = 0
    s[S_FIGHT] = -1
    s[S_ATTACK] = 0
    s[S_TURNS] += 1


@njit(cache=True)
def _solve_jackpot(s, rules):
    """ACE-JACKPOT-FILL, then the next turn (the filler's own when it paid)."""
    _, _, _, hand, hn, jp, took, capn, out, _ = _views(s)
    if s[S_JN] < JACKPOT:
        _next_turn(s, rules, next_player(out, s[S_TURN]))
        return
    q = fill_jackpot(jp, hand, hn, took, capn)
    s[S_JN] = 0
    if capn[q] >= rules[R_END]:
        _finish(s, rules)
        return
    _next_turn(s, rules, q)


@njit(cache=True)
def _next_fight(s, rules):
    """The next of this turn's combats from ``S_QPOS`` on (waiting for its throws), or
    the jackpot and the next turn when none is left."""
    stack, height, tapped, _, _, _, _, _, out, _ = _views(s)
    order = np.empty(RING, np.int64)
    n = combat_order(rules, s[S_TURN], out, order)
    for k in range(s[S_QPOS], n):
        stop = order[k]
        if height[stop] > 1 and fighting_pair(stack, height, stop, tapped) >= 0:
            s[S_STAGE] = ATTACK
            s[S_QPOS] = k + 1
            s[S_FIGHT] = stop
            s[S_ATTACK] = 0
            s[S_LEFT] = 0
            return
    _solve_jackpot(s, rules)


@njit(cache=True)
def _combats(s, rules):
    s[S_QPOS] = 0
    _next_fight(s, rules)


@njit(cache=True)
def _end_movement(s, rules, work):
    """ACE-JUMP after a 20 when a jump is possible, else the turn's combats."""
    stack, height, tapped, _, _, _, _, _, _, _ = _views(s)
    if s[S_DIE] == SIDES and jumps(stack, height, tapped, s[S_TURN], work) > 0:
        s[S_STAGE] = JUMP
        s[S_LEFT] = 0
        return
    _combats(s, rules)


@njit(cache=True)
def _act(s, rules, action, held, work):
    """Apply the decision's ``action`` (a row of :func:`_actions`) to ``s``."""
    stage = s[S_STAGE]
    p = s[S_TURN]
    stack, height, tapped, hand, hn, jp, _, _, _, _ = _views(s)
    if stage == ONE:  # ACE-ONE-MOVE
        if action[0] == 0:
            s[S_STAGE] = MOVE
            s[S_DIE] = 1
            s[S_LEFT] = 1
            s[S_PARTS] = 0
        else:
            s[S_STAGE] = ROLL
            s[S_DIE] = 0
        return
    if stage == JUMP:
        if action[0] != NOTHING:
            source, target = action[0], action[1]
            x = take(stack, height, source, mover_index(stack, height, source, p, tapped))
            put(stack, height, target, x)
            tapped[x] = 1
        _combats(s, rules)
        return
    if action[0] == NOTHING:  # pass
        _end_movement(s, rules, work)
        return
    source, k, target, charge = action[0], action[1], action[2], action[3]
    if source == -1:  # from hand
        hn[p] -= 1
        x = hand[p, hn[p]]
    else:
        x = take(stack, height, source, mover_index(stack, height, source, p, tapped))
    if target % STOPS == SLOTS:  # ACE-JACKPOT-ENTER
        jp[s[S_JN]] = x
        s[S_JN] += 1
        tapped[x] = 0
    else:
        put(stack, height, target, x)
        tapped[x] = 1  # ACE-TAP
    s[S_LEFT] = 0 if charge else s[S_LEFT] - k
    s[S_PARTS] += 1
    if s[S_LEFT] > 0 and _step_list(s, rules, held, work, 1) > 0:
        return
    _end_movement(s, rules, work)


@njit(cache=True)
def _fighters(s):
    """The combat under way: the attacker's index in its stop and both bonuses."""
    stack, height, tapped, _, _, _, _, _, _, _ = _views(s)
    stop = s[S_FIGHT]
    i = fighting_pair(stack, height, stop, tapped)
    a_bonus, d_bonus = bonuses(stack, height, stop, i, tapped)
    return i, a_bonus, d_bonus


@njit(cache=True)
def _answers(tie, reroll):
    """The defender's throws (2-20) that answer an attack, the one that ties
    (``tie``) left out when ties are thrown again (ACE-TIE)."""
    if reroll and 2 <= tie <= SIDES:
        return SIDES - 2
    return SIDES - 1


@njit(cache=True)
def _throws(s, rules, throws, chances):
    """The outcomes of the throw due at ``s`` with their probabilities, in the engine's
    order (gammon.variants.acedrex.combat); their count."""
    stage = s[S_STAGE]
    if stage == ROLL:
        for d in range(1, SIDES + 1):
            throws[d - 1] = d
            chances[d - 1] = 1 / SIDES
        return SIDES
    reroll = rules[R_TIES_DEFENDER] == 0
    _, a_bonus, d_bonus = _fighters(s)
    offset = a_bonus - d_bonus
    n = 0
    if stage == ATTACK:  # weighted by the defender's answers that do not tie
        total = 0
        for a in range(2, SIDES + 1):
            total += _answers(a + offset, reroll)
        for a in range(2, SIDES + 1):
            count = _answers(a + offset, reroll)
            if count:
                throws[n] = a
                chances[n] = count / total
                n += 1
        return n
    tie = s[S_ATTACK] + offset if reroll else -1
    for d in range(2, SIDES + 1):
        if d != tie:
            throws[n] = d
            n += 1
    for k in range(n):
        chances[k] = 1 / n
    return n


@njit(cache=True)
def _throw(s, rules, value):
    """Apply a throw of ``value`` at the chance state ``s``."""
    stage = s[S_STAGE]
    if stage == ROLL:
        if value == 1:
            s[S_STAGE] = ONE
            s[S_DIE] = 1
        else:
            s[S_STAGE] = MOVE
            s[S_DIE] = value
            s[S_LEFT] = value
            s[S_PARTS] = 0
        return
    if stage == ATTACK:
        s[S_STAGE] = DEFEND
        s[S_ATTACK] = value
        return
    stack, height, tapped, hand, hn, _, took, capn, _, _ = _views(s)
    i, a_bonus, d_bonus = _fighters(s)
    w = fight_result(rules, stack, height, tapped, hand, hn, took, capn, s[S_FIGHT], i,
                      s[S_ATTACK] + a_bonus, value + d_bonus)
    if w >= 0 and capn[w] >= rules[R_END]:
        _finish(s, rules)
        return
    _next_fight(s, rules)


# --- the heuristic ------------------------------------------------------------------------


@njit(cache=True)
def _add(value, weight, gains, taker):
    for p in range(PLAYERS):
        value[p] += weight * gains[taker, p]


@njit(cache=True)
def _heuristic(s, rules, ace, drex, value):
    """``AcedrexHeuristic.value`` of ``s`` into ``value``, term by term in its order."""
    stack, height, tapped, _, hn, jp, _, capn, out, money = _views(s)
    stage = s[S_STAGE]
    if stage == OVER:
        for p in range(PLAYERS):
            value[p] = money[p]
        return
    stake = rules[R_STAKE]
    active = 0
    total = 0
    for p in range(PLAYERS):
        if out[p] == 0:
            active += 1
            total += points(capn[p])
    for p in range(PLAYERS):
        value[p] = float(money[p])
    for p in range(PLAYERS):
        if out[p] == 0:
            value[p] += (active * points(capn[p]) - total) * stake
    gains = np.zeros((PLAYERS, PLAYERS))
    for taker in range(PLAYERS):
        delta = (points(capn[taker] + 1) - points(capn[taker])) * stake
        for p in range(PLAYERS):
            if out[p] == 0:
                gains[taker, p] = delta * (active - 1) if p == taker else -delta
    # The fights of this turn (a bit a stop): at a decision, the mover's stops as if
    # nobody had left (the heuristic reads them so: the territories of players who
    # left count as later fights); the one being thrown for and those after it during
    # combat; none before a roll.
    now = 0
    if _deciding(stage):
        order = np.empty(RING, np.int64)
        n = combat_order(rules, s[S_TURN], _NOBODY_OUT, order)
        for k in range(n):
            now |= 1 << order[k]
    elif stage != ROLL:
        order = np.empty(RING, np.int64)
        n = combat_order(rules, s[S_TURN], out, order)
        for k in range(s[S_QPOS], n):
            now |= 1 << order[k]
        now |= 1 << s[S_FIGHT]
    for stop in range(RING):
        if height[stop] < 2:
            continue
        current = now >> stop & 1 == 1
        if current:
            i = fighting_pair(stack, height, stop, tapped)
            if i < 0:
                continue
            a_bonus, d_bonus = bonuses(stack, height, stop, i, tapped)
        else:
            i = fighting_pair(stack, height, stop, _UNTAPPED)
            if i < 0:
                continue
            a_bonus, d_bonus = bonuses(stack, height, stop, i, _UNTAPPED)
        a_side = stack[stop, i] // PIECES
        d_side = stack[stop, i - 1] // PIECES
        thrown = s[S_ATTACK] if (stop == s[S_FIGHT] and stage == DEFEND) else 0
        weight = 1.0 if current else LATER
        if TERRITORY_AT[stop // STOPS] == d_side or rules[R_FOREIGN_HAND] != 0:
            value[d_side] -= weight * ace[a_bonus, d_bonus, thrown] * IN_HAND
        else:
            _add(value, weight * ace[a_bonus, d_bonus, thrown], gains, a_side)
        _add(value, weight * drex[a_bonus, d_bonus, thrown], gains, d_side)
    jn = s[S_JN]
    if jn > 0:
        if jn >= JACKPOT:
            filler = jp[jn - 1] // PIECES
            taken = 0
            for j in range(jn):
                if jp[j] // PIECES != filler:
                    taken += 1
            if taken:
                delta = (points(capn[filler] + taken) - points(capn[filler])) * stake
                for p in range(PLAYERS):
                    if out[p] == 0:
                        value[p] += delta * (active - 1) if p == filler else -delta
        else:
            for j in range(jn):
                for p in range(PLAYERS):
                    if out[p] == 0 and p != jp[j] // PIECES:
                        _add(value, JACKPOT_WEIGHT / active, gains, p)
    force = np.zeros(PLAYERS)
    for stop in range(RING):
        for i in range(height[stop]):
            force[stack[stop, i] // PIECES] += PIECE
    for p in range(PLAYERS):
        force[p] += hn[p] * (PIECE - IN_HAND)
    for j in range(jn):
        force[jp[j] // PIECES] += PIECE
    if active > 1:
        mean = 0.0
        for p in range(PLAYERS):
            if out[p] == 0:
                mean += force[p]
        mean = mean / active
        for p in range(PLAYERS):
            if out[p] == 0:
                value[p] += (force[p] - mean) * stake


# --- the search ---------------------------------------------------------------------------


@njit(cache=True)
def _best_first(base, count, cutoff, use_cutoff):
    """The ``count`` best of ``base`` (ties by index), less those more than ``cutoff``
    below the best, as a mask: ``move_filter`` in gammon.agents.state_search."""
    n = base.shape[0]
    kept = np.zeros(n, np.bool_)
    top = base[np.argmax(base)]
    for _ in range(min(max(count, 1), n)):
        best = -1
        for i in range(n):
            if not kept[i] and (best < 0 or base[i] > base[best]):
                best = i
        if use_cutoff and base[best] < top - cutoff:
            break
        kept[best] = True
    return kept


@njit(cache=True)
def _node(s, depth, mode, rules, params, cutoff, ace, drex, held, work, scores):
    """Each player's value of ``s``: ``StateSearch.value(s, depth)`` (M_VALUE), or its
    ``decide`` (M_DECIDE; M_NO_FOLLOW without looking through small decisions; M_ROOT
    with the root's width and cutoff, the mover's score of each action into
    ``scores``, -inf for those not searched)."""
    # The recursive calls pass typed values, never literals: each literal would make
    # another compiled version, which numba's cache cannot load back.
    by_value = np.int64(M_VALUE)
    no_follow = np.int64(M_NO_FOLLOW)
    zero = np.int64(0)
    value = np.zeros(PLAYERS)
    stage = s[S_STAGE]
    if mode == M_VALUE:
        if stage == OVER:
            _heuristic(s, rules, ace, drex, value)
            return value
        wide = params[P_WIDE]
        if (depth <= 0 and wide >= 0 and _deciding(stage)
                and _wider_than(s, rules, wide, held, work)):
            _heuristic(s, rules, ace, drex, value)
            return value
        if not _deciding(stage):
            if depth <= 0:
                _heuristic(s, rules, ace, drex, value)
                return value
            throws = np.empty(SIDES, np.int64)
            chances = np.empty(SIDES)
            n = _throws(s, rules, throws, chances)
            for k in range(n):
                child = s.copy()
                _throw(child, rules, throws[k])
                value = value + chances[k] * _node(child, depth - 1, by_value, rules, params,
                                                   cutoff, ace, drex, held, work, scores)
            return value
        mode = M_DECIDE
    player = s[S_TURN]
    n = _actions(s, rules, held, work)
    actions = work[:n].copy()
    values = np.empty((n, PLAYERS))
    same = np.zeros(n, np.bool_)
    for i in range(n):
        child = s.copy()
        _act(child, rules, actions[i], held, work)
        _heuristic(child, rules, ace, drex, values[i])
        same[i] = _deciding(child[S_STAGE]) and child[S_TURN] == player
    searched = np.zeros(n, np.bool_)  # values[i] is already the value searched at depth
    if mode != M_NO_FOLLOW and n <= params[P_FOLLOW]:
        for i in range(n):
            if same[i]:
                child = s.copy()
                _act(child, rules, actions[i], held, work)
                if depth <= 0:
                    values[i] = _node(child, zero, no_follow, rules, params, cutoff, ace,
                                      drex, held, work, scores)
                else:
                    values[i] = _node(child, depth, by_value, rules, params, cutoff, ace,
                                      drex, held, work, scores)
                    searched[i] = True
    base = values[:, player].copy()
    if depth <= 0 or n == 1:
        if mode == M_ROOT:
            scores[:n] = base
        return values[np.argmax(base)].copy()
    root = mode == M_ROOT
    kept = _best_first(base, params[P_WIDTH] if root else params[P_INNER], cutoff,
                       root and params[P_CUTOFF] != 0)
    found = np.full(n, -np.inf)
    for i in range(n):
        if not kept[i]:
            continue
        if not searched[i]:
            child = s.copy()
            _act(child, rules, actions[i], held, work)
            values[i] = _node(child, depth, by_value, rules, params, cutoff, ace, drex, held,
                              work, scores)
        found[i] = values[i, player]
    if root:
        scores[:n] = found
    return values[np.argmax(found)].copy()


@njit(cache=True)
def search(s, mode, rules, params, cutoff, ace, drex):
    """A node of the search from outside: its value and, at the root, each action's
    score (M_ROOT: the actions in :func:`_actions`' order)."""
    held = np.zeros(RING, np.int64)
    work = np.zeros((MOST_ACTIONS, 4), np.int64)
    scores = np.full(MOST_ACTIONS, -np.inf)
    value = _node(s, params[P_DEPTH], mode, rules, params, cutoff, ace, drex, held, work,
                  scores)
    n = 0
    if mode == M_ROOT:
        n = _actions(s, rules, held, work)
    return value, scores[:n].copy()


@njit(cache=True)
def actions_of(s, rules):
    """The actions of the decision at ``s``, as rows (for tests and the wrapper)."""
    held = np.zeros(RING, np.int64)
    work = np.zeros((MOST_ACTIONS, 4), np.int64)
    n = _actions(s, rules, held, work)
    return work[:n].copy()


refresh_when_changed(globals())
