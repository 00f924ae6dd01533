"""Compiled move generation and random playouts for the track games.

A board is a flat ``int8`` array: player ``p``'s slot ``s`` is ``board[p * slots + s]``,
in each player's own numbering (slot 0 = off, 1..N = points, N+1 = bar; see
:mod:`gammon.core.position`). In the games that pin (``R_PINS``: Plakoto, Tapa) the
counts are followed by the pin row, one byte per point of player 0's numbering
(``board[players * slots + point - 1]``: 0, or ``p + 1`` when player ``p``'s checker lies
pinned there); it is hashed, copied and compared like any other byte of the board.
Everything a variant may change is a field of the ``rules`` vector (the ``R_*`` indices
below, laid out by the rules blocks of :mod:`gammon.rules`), so one kernel serves every
track variant and each rule lives in one place. After the fields, ``rules`` holds the
crossing table: ``rules[CROSS + (p * players + q) * slots + s]`` is player ``q``'s slot
for player ``p``'s slot ``s`` (the same physical point).

The kernels are iterative (no recursion) so that numba's on-disk cache works, and they
write into two work arrays allocated once (:func:`workspace`), so a call allocates
nothing and crosses the Python boundary with few arguments.

Move generation is the one implementation of every track rule: the Python rules objects
call :func:`generate_plays` and :func:`head_limit` too. The compiled kernels that play
whole two-player games (the playouts here, the vector environment, the compiled
self-play) share :func:`opening`, :func:`turn_end` and :func:`winner_points`; what is
written twice is that turn flow, which :class:`gammon.core.variant.TrackVariant` also
states for the Python API. Tied by
``tests/test_invariants_nardy.py::test_kernel_games_replay_through_the_python_rules``
(the kernel's games replayed through the Python rules, the same results); the generator
itself by ``tests/test_movegen_oracle.py`` (a brute-force oracle) and
``tests/test_gnubg_legal.py`` (gnubg's legal plays).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.kernels.cache import refresh_when_changed
from gammon.rules.blocks import RULES_LENGTH, slot

# The rules vector's fields, by their names in the rules blocks (gammon.rules): the
# layout is generated there, and numba freezes these module constants into the kernels.
R_POINTS = slot("points")
R_HOME = slot("home")
R_HITTING = slot("hitting")
R_BLOCK = slot("block")
R_ENTER_FIRST = slot("enter_first")
R_BEAR_LARGER = slot("bear_off_larger")
R_CHECKERS = slot("checkers")
R_GAMMONS = slot("gammons")
R_BACKGAMMONS = slot("backgammons")
R_PLAYERS = slot("players")
R_HEAD = slot("head")
R_HEAD_DOUBLES = slot("head_doubles")
R_SIX_BLOCK = slot("six_block")
R_NO_HIT_AND_HIDE = slot("no_hit_and_hide")
R_HOME_LOCK = slot("home_lock")
R_BEAR_ALL_HOME = slot("bear_off_all_home")
R_HOME_ONLY_BEAR = slot("home_only_bear_off")
R_HEAD_DOUBLES_BOTH = slot("head_doubles_both")
R_OPENING_PLAYS_LOT = slot("opening_plays_lot")
R_LAST_ROLL = slot("last_roll")
R_LOT_CHOICE = slot("lot_choice")
R_DOUBLES_COMPLEMENT = slot("doubles_complement")
R_DOUBLES_AGAIN = slot("doubles_again")
R_DOUBLES_PLAIN_ENTERING = slot("doubles_plain_entering")
R_NO_HITTER_OFF = slot("no_bear_off_hitter")
R_HITS_HOME_ONLY = slot("hitter_home_only")
R_MUST_ENTER = slot("must_enter")
R_ACEY_MOVES_ON = slot("acey_moves_on")
R_HEAD_WIDE_AFTER = slot("head_wide_after")
R_HEAD_WIDE_ROLLS = slot("head_wide_rolls")
R_FIRST_PAST = slot("first_past")
R_START_QUARTER = slot("start_quarter_open")
R_NO_HIT_AND_RUN = slot("no_hit_and_run")
R_FRONT_PRIME = slot("front_prime_open")
R_OPPONENT_QUARTER = slot("opponent_quarter_limit")
R_PINS = slot("pins")
R_PINNED_HOLDS_OFF = slot("pinned_holds_bear_off")
R_MOTHER = slot("mother")
R_QUARTERS_AT_END = slot("quarters_at_end")
R_OPEN_PRIME = slot("prime_must_open")
R_DICE_COUNT = slot("dice_count")
R_HOLD_HALF = slot("hold_half")
CROSS = RULES_LENGTH  # start of the crossing table

MAX_DICE = 4  # moves in one play (a double)
# The orders in which three dice may be played: the dice sorted high to low, by index.
ORDERS_OF_THREE = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]],
                           np.int64)
# A move refused by a rule that other moves of the same play could lift (six-block, no
# hit-and-hide, no hit-and-run, the hitter not borne off, only bear off once home, Fevga's
# first checker, and the quarter limits where each move is judged): a double is then
# searched in every order, and with the hitter rules also with either of two alike
# checkers on a covered hitter's point taken as the hitter.
REFUSED_FOR_NOW = -2
# What the search found at a depth, when not a row of the work array holding a board:
NO_LEAF = -1  # nothing to record
COMPLETING = -2  # a move that completes the play: its board is the parent's plus the move
DESCENDED = -3  # a move to search on from
# Distinct results of one roll are bounded by the non-increasing source sequences of a
# double: multisets of 4 sources out of 25 (C(28, 4) = 20475), plus shorter leaves.
MAX_PLAYS = 24576
TABLE_BITS = 16  # open-addressing table, more than twice MAX_PLAYS
MAX_COUNT = 32  # checker counts a slot can hold in the hash keys

# Layout of a play row in the int8 work array: the resulting board, then the moves as
# (source, destination, hit) triples, then the number of moves.
# Layout of the int64 work array:
W_HASH = 0
W_FLAGS = W_HASH + MAX_PLAYS  # table slot * 2 + 1 if the play began with the high die
W_TABLE = W_FLAGS + MAX_PLAYS
W_SCRATCH = W_TABLE + (1 << TABLE_BITS)  # next source, moved flag, hash per depth
CANDIDATES = 32  # candidate source slots per depth (occupied slots + destinations)
DEPTH_WORDS = 8  # per-depth scalars kept in the scratch area
# A double searched in every order (see generate_plays) reaches the same board after the
# same number of moves, with the same hitters, by many orders: the search nodes it has
# expanded are remembered, each once, so that a node met again is not searched twice.
# The table holds an entry number + 1 per slot; an entry is the board's hash, the rest of
# the node's key and its table slot, and its board is kept in a row of the plays array
# after the search stack (MEMO_ROW + entry), so that a node is known by its whole board,
# never by its hash alone.
MEMO_BITS = 13
MEMO_ENTRIES = 4096  # nodes remembered per decision; more are searched, not remembered
MEMO_ROW = MAX_PLAYS + MAX_DICE + 1
W_MEMO_TABLE = W_SCRATCH + DEPTH_WORDS * (MAX_DICE + 1) + CANDIDATES * (MAX_DICE + 1)
W_MEMO = W_MEMO_TABLE + (1 << MEMO_BITS)  # per entry: hash, key, table slot
W_ZOBRIST = W_MEMO + 3 * MEMO_ENTRIES


def row_width(players: int, slots: int, pins: int = 0) -> int:
    return players * slots + pins + 3 * MAX_DICE + 1


def workspace(players: int, slots: int, pins: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The two work arrays for boards of ``players`` x ``slots`` (and a pin row of
    ``pins`` bytes in the games that pin)."""
    size = players * slots + pins
    plays = np.zeros((MEMO_ROW + MEMO_ENTRIES, row_width(players, slots, pins)), np.int8)
    words = np.zeros(W_ZOBRIST + size * MAX_COUNT, np.int64)
    # Fixed random keys: a board's hash is the xor of one key per (slot, count).
    rng = np.random.default_rng(0x6A6D6D6E)
    words[W_ZOBRIST:] = rng.integers(-(2**63), 2**63 - 1, size=size * MAX_COUNT, dtype=np.int64)
    return plays, words


@njit(cache=True)
def board_hash(board, words):
    h = 0
    for i in range(board.shape[0]):
        h ^= words[W_ZOBRIST + i * MAX_COUNT + board[i]]
    return h


@njit(cache=True, inline="always")
def _pin_index(player, slot, rules):
    """Where the pin row holds player ``player``'s point ``slot`` (1..points): the row
    follows the counts and is numbered as player 0 counts its points."""
    points = rules[R_POINTS]
    slots = points + 2
    players = rules[R_PLAYERS]
    point = slot if player == 0 else rules[CROSS + player * players * slots + slot]
    return players * slots + point - 1


@njit(cache=True)
def mother_end(board, player, rules):
    """Plakoto's mother, after ``player``'s play: -1 while the game goes on, ``player``
    when it has pinned the other side's last checker on that side's starting point (its
    24-point, which a checker never returns to, so a checker pinned there never left)
    and has none left on its own, -2 (a draw) when both sides' mothers lie pinned. While
    the pinner still has checkers on its own start its mother may yet be pinned, so the
    game goes on. With ``R_MOTHER == 2`` (Tapa) only the draw: two pinned mothers hold
    each other for ever (each side's pinners stand on its own 1-point, whence they may
    only bear off, which the other pinned mother forbids). Two players. The Python rules
    (``TrackVariant.after_play``) and the compiled turn end (:func:`turn_end`) both ask
    this function."""
    points = rules[R_POINTS]
    slots = points + 2
    other = 1 - player
    theirs_pinned = (board[other * slots + points] == 1
                     and board[_pin_index(other, points, rules)] == other + 1)
    if not theirs_pinned:
        return -1
    mine = board[player * slots + points]
    if mine == 1 and board[_pin_index(player, points, rules)] == player + 1:
        return -2
    if mine == 0 and rules[R_MOTHER] == 1:
        return player
    return -1


@njit(cache=True)
def _six_block_ok(plays, row, player, src, dst, rules):
    """Whether the mover's points after ``src -> dst`` leave every opponent a way out.

    A run of six or more consecutive points along an opponent's path is allowed only
    while at least one of that opponent's checkers is ahead of it (past it or off).
    """
    points = rules[R_POINTS]
    slots = points + 2
    players = rules[R_PLAYERS]
    base = player * slots
    for q in range(players):
        if q == player:
            continue
        held = 0  # bit t: the mover holds the opponent's point t after the move
        for s in range(1, points + 1):
            n = plays[row, base + s] - (1 if s == src else 0) + (1 if s == dst else 0)
            if n > 0:
                held |= 1 << rules[CROSS + (player * players + q) * slots + s]
        run = 0
        for t in range(points, 0, -1):
            if (held >> t) & 1:
                run += 1
                if run >= 6:
                    # The block reaches down to t: is any checker of q below it?
                    ahead = False
                    for u in range(0, t):
                        if plays[row, q * slots + u] > 0:
                            ahead = True
                            break
                    if not ahead:
                        return False
            else:
                run = 0
    return True


@njit(cache=True)
def _first_past(plays, row, player, rules):
    """Whether another checker may leave the mover's starting point (Fevga's first
    checker, Jacquet's courier): yes once one of the mover's checkers stands past the
    head's ``first_past`` point (or is off), or while none has left the start at all."""
    points = rules[R_POINTS]
    base = player * (points + 2)
    gate = rules[R_FIRST_PAST]
    for s in range(0, gate):
        if plays[row, base + s] > 0:
            return True
    alone = True  # no checker out between the start and the gate
    for s in range(gate, points):
        if plays[row, base + s] > 0:
            alone = False
            break
    return alone


@njit(cache=True)
def _fills_start_quarter(plays, row, player, src, dst, rules):
    """Whether the move ``src -> dst`` leaves the mover holding every point of its
    starting quarter (the ``home`` points farthest from bearing off)."""
    points = rules[R_POINTS]
    base = player * (points + 2)
    for s in range(points - rules[R_HOME] + 1, points + 1):
        n = plays[row, base + s] - (1 if s == src else 0) + (1 if s == dst else 0)
        if n <= 0:
            return False
    return True


@njit(cache=True)
def _closes_a_start(plays, row, player, src, dst, rules):
    """Whether the move ``src -> dst`` leaves the mover holding the six points just past
    an opponent's starting point (the opponent's 23 to 18) while that opponent still has
    checkers on it."""
    points = rules[R_POINTS]
    slots = points + 2
    players = rules[R_PLAYERS]
    base = player * slots
    for q in range(players):
        if q == player or plays[row, q * slots + points] == 0:
            continue
        gate = rules[CROSS + (q * players + player) * slots + points]
        if not gate - 6 <= dst < gate:
            continue
        closed = True
        for s in range(gate - 6, gate):
            n = plays[row, base + s] - (1 if s == src else 0) + (1 if s == dst else 0)
            if s < 1 or n <= 0:
                closed = False
                break
        if closed:
            return True
    return False


@njit(cache=True)
def _crowds_a_start_quarter(plays, row, player, src, dst, rules, anywhere=False):
    """Whether the move ``src -> dst`` lands in an opponent's starting quarter (the
    opponent's ``home`` points farthest from bearing off) and leaves the mover holding
    more than ``R_OPPONENT_QUARTER`` of its points (Moultezim); with ``anywhere``,
    whether the mover then holds more than that of any opponent's quarter, wherever the
    move lands."""
    points = rules[R_POINTS]
    slots = points + 2
    players = rules[R_PLAYERS]
    base = player * slots
    for q in range(players):
        if q == player:
            continue
        lands = anywhere
        for t in range(points - rules[R_HOME] + 1, points + 1):
            if rules[CROSS + (q * players + player) * slots + t] == dst:
                lands = True
        if not lands:
            continue
        held = 0
        for t in range(points - rules[R_HOME] + 1, points + 1):
            s = rules[CROSS + (q * players + player) * slots + t]
            if plays[row, base + s] - (1 if s == src else 0) + (1 if s == dst else 0) > 0:
                held += 1
        if held > rules[R_OPPONENT_QUARTER]:
            return True
    return False


@njit(cache=True)
def _quarters_kept(plays, row, player, src, dst, rules):
    """Whether board ``row`` after ``src -> dst`` (or as it is, with ``src = -1``) keeps
    the starting-quarter limits: not all of the mover's own starting quarter held
    (``R_START_QUARTER``), no more than ``R_OPPONENT_QUARTER`` points of an opponent's.
    With ``R_QUARTERS_AT_END`` they judge only the board a play leaves."""
    if rules[R_START_QUARTER] == 1 and _fills_start_quarter(plays, row, player, src, dst, rules):
        return False
    return not (rules[R_OPPONENT_QUARTER] > 0 and _crowds_a_start_quarter(
        plays, row, player, src, dst, rules, True))


@njit(cache=True, inline="always")
def _check_move(
    plays, row, h, player, src, die, outside, heads, head_limit, hitters, free_src, rules,
    words,
):
    """Whether one checker of board ``row`` may move ``die`` pips from ``src``.

    ``outside`` is how many of the mover's checkers are not home yet, ``heads`` how many
    left the head this turn (at most ``head_limit``), ``hitters`` the slots (bits) where
    a checker that hit this turn stands (alone, or covered by another that may leave in
    its place), ``free_src`` a slot whose checker may move although checkers wait on
    the bar (acey-deucey's 2-1), or -1. Returns ``(destination, or -1 if illegal,
    or REFUSED_FOR_NOW, index of a hit checker or -1, hash after the move)`` without
    writing anything:
    most generated moves end in a leaf whose board is written once, straight into its
    result row.
    """
    points = rules[R_POINTS]
    slots = points + 2
    bar = points + 1
    base = player * slots
    count = plays[row, base + src]
    if count == 0:
        return -1, -1, h
    if (
        src != bar and src != free_src and rules[R_ENTER_FIRST] == 1
        and plays[row, base + bar] > 0
    ):
        return -1, -1, h
    if rules[R_HEAD] == src and heads >= head_limit:
        return -1, -1, h
    if (
        rules[R_HOLD_HALF] == 1 and src - die <= points // 2 and src > points // 2
        and plays[row, base + bar] > 0
    ):
        return -1, -1, h  # none goes on into the second half while one waits to enter
    if (
        rules[R_PINS] == 1 and src <= points
        and plays[row, _pin_index(player, src, rules)] == player + 1
    ):
        return -1, -1, h  # pinned: it stays until every pinner has left
    if rules[R_FIRST_PAST] > 0 and src == points and not _first_past(plays, row, player, rules):
        return REFUSED_FOR_NOW, -1, h
    if rules[R_NO_HIT_AND_RUN] == 1 and (hitters >> src) & 1 and count == 1:
        return REFUSED_FOR_NOW, -1, h  # the hitter alone on its point stays there
    if rules[R_HOME_LOCK] == 1 and src <= rules[R_HOME] and outside > 0:
        return -1, -1, h
    dst = src - die
    hit_index = -1
    if dst <= 0:
        if outside > 0 and rules[R_BEAR_ALL_HOME] == 1:
            return -1, -1, h
        if dst < 0:
            if rules[R_BEAR_LARGER] == 0:
                return -1, -1, h
            # Only from the farthest checker: none further back, the bar included.
            for s in range(src + 1, bar + 1):
                if plays[row, base + s] > 0:
                    return -1, -1, h
        if rules[R_NO_HITTER_OFF] == 1 and (hitters >> src) & 1 and count == 1:
            return REFUSED_FOR_NOW, -1, h
        dst = 0
    else:
        if rules[R_HOME_ONLY_BEAR] == 1 and outside == 0:
            return REFUSED_FOR_NOW, -1, h
        players = rules[R_PLAYERS]
        for q in range(players):
            if q == player:
                continue
            index = q * slots + rules[CROSS + (player * players + q) * slots + dst]
            there = plays[row, index]
            if there == 0:
                continue
            if rules[R_PINS] == 1:
                # Closed when they stand on top: two or more, or one on a checker of ours.
                pin = _pin_index(player, dst, rules)
                if there >= rules[R_BLOCK] or plays[row, pin] == player + 1:
                    return -1, -1, h
                if plays[row, pin] == 0:  # a lone checker of theirs: pinned from now on
                    hit_index = pin
                    z = W_ZOBRIST + pin * MAX_COUNT
                    h ^= words[z] ^ words[z + q + 1]
                continue
            if there >= rules[R_BLOCK] or rules[R_HITTING] == 0:
                return -1, -1, h
            hit_index = index
            bar_index = q * slots + bar
            waiting = plays[row, bar_index]
            h ^= words[W_ZOBRIST + index * MAX_COUNT + 1] ^ words[W_ZOBRIST + index * MAX_COUNT]
            h ^= (
                words[W_ZOBRIST + bar_index * MAX_COUNT + waiting]
                ^ words[W_ZOBRIST + bar_index * MAX_COUNT + waiting + 1]
            )
        if (
            rules[R_NO_HIT_AND_HIDE] == 1 and (hitters >> src) & 1 and count == 1
            and plays[row, base + dst] > 0
        ):
            return REFUSED_FOR_NOW, -1, h
        if rules[R_SIX_BLOCK] == 1 and not _six_block_ok(plays, row, player, src, dst, rules):
            return REFUSED_FOR_NOW, -1, h
        if (
            rules[R_START_QUARTER] == 1 and dst > points - rules[R_HOME]
            and rules[R_QUARTERS_AT_END] == 0
            and _fills_start_quarter(plays, row, player, src, dst, rules)
        ):
            return REFUSED_FOR_NOW, -1, h
        if rules[R_FRONT_PRIME] == 1 and _closes_a_start(plays, row, player, src, dst, rules):
            return REFUSED_FOR_NOW, -1, h
        if (
            rules[R_OPPONENT_QUARTER] > 0 and rules[R_QUARTERS_AT_END] == 0
            and _crowds_a_start_quarter(plays, row, player, src, dst, rules)
        ):
            return REFUSED_FOR_NOW, -1, h
    zsrc = W_ZOBRIST + (base + src) * MAX_COUNT
    h ^= words[zsrc + count] ^ words[zsrc + count - 1]
    if rules[R_PINS] == 1 and count == 1 and src <= points:
        # The last of ours leaves a point where one of theirs lies pinned: it is free.
        pin = _pin_index(player, src, rules)
        held = plays[row, pin]
        if held != 0:
            z = W_ZOBRIST + pin * MAX_COUNT
            h ^= words[z + held] ^ words[z]
    landed = plays[row, base + dst]
    zdst = W_ZOBRIST + (base + dst) * MAX_COUNT
    h ^= words[zdst + landed] ^ words[zdst + landed + 1]
    return dst, hit_index, h


@njit(cache=True, inline="always")
def _write_move(plays, row, out, size, slots, player, src, dst, hit_index, points, rules):
    """Row ``out`` := board ``row`` after the move checked by :func:`_check_move`.

    ``hit_index`` is the hit checker's count, or in the games that pin a byte of the pin
    row (past the counts): the lone checker landed on is pinned."""
    for i in range(size):
        plays[out, i] = plays[row, i]
    base = player * slots
    plays[out, base + src] -= 1
    plays[out, base + dst] += 1
    counts = rules[R_PLAYERS] * slots
    if hit_index >= counts:
        plays[out, hit_index] = 2 - player  # the other player's checker (+ 1) is pinned
    elif hit_index >= 0:
        plays[out, hit_index] -= 1
        plays[out, (hit_index // slots) * slots + points + 1] += 1
    if rules[R_PINS] == 1 and src <= points and plays[out, base + src] == 0:
        plays[out, _pin_index(player, src, rules)] = 0  # the last pinner left


@njit(cache=True, inline="always")
def _seen_before(plays, row, size, h, key, remembered, words):
    """Whether the search node whose board is ``plays[row]`` (hash ``h``) and whose other
    state is ``key`` was expanded before in this search; if not, it is remembered (while
    there is room). Returns ``(seen, remembered)``, the count of entries after it."""
    mask = (1 << MEMO_BITS) - 1
    index = (h ^ (key * 0x9E3779B97F4A7C15)) & mask
    while words[W_MEMO_TABLE + index] != 0:
        entry = words[W_MEMO_TABLE + index] - 1
        at = W_MEMO + 3 * entry
        if words[at] == h and words[at + 1] == key:
            same = True
            for i in range(size):
                if plays[MEMO_ROW + entry, i] != plays[row, i]:
                    same = False
                    break
            if same:
                return True, remembered
        index = (index + 1) & mask
    if remembered < MEMO_ENTRIES:
        at = W_MEMO + 3 * remembered
        words[at] = h
        words[at + 1] = key
        words[at + 2] = index
        words[W_MEMO_TABLE + index] = remembered + 1
        for i in range(size):
            plays[MEMO_ROW + remembered, i] = plays[row, i]
        remembered += 1
    return False, remembered


@njit(cache=True, inline="always")
def _order_seen(dice, order):
    """Whether an earlier order of three dice plays them in the same sequence (alike
    dice)."""
    for earlier in range(order):
        same = True
        for depth in range(3):
            if dice[ORDERS_OF_THREE[earlier, depth]] != dice[ORDERS_OF_THREE[order, depth]]:
                same = False
        if same:
            return True
    return False


@njit(cache=True, inline="always")
def _swap_seen(dice, order):
    """Whether the order of three dice with its first two swapped (two different dice)
    came before ``order``."""
    first = dice[ORDERS_OF_THREE[order, 0]]
    second = dice[ORDERS_OF_THREE[order, 1]]
    third = dice[ORDERS_OF_THREE[order, 2]]
    if first == second:
        return False
    for earlier in range(order):
        if (dice[ORDERS_OF_THREE[earlier, 0]] == second
                and dice[ORDERS_OF_THREE[earlier, 1]] == first
                and dice[ORDERS_OF_THREE[earlier, 2]] == third):
            return True
    return False


@njit(cache=True)
def generate_plays(board, player, die1, die2, head_limit, rules, plays, words):
    """Every legal play of ``player`` for the roll ``die1``-``die2``
    (:func:`generate_throw` of two dice)."""
    return generate_throw(board, player, die1, die2, 0, head_limit, rules, plays, words)


@njit(cache=True)
def generate_throw(board, player, die1, die2, die3, head_limit, rules, plays, words):
    """Every legal play of ``player`` for the throw ``die1``-``die2``, with a third die
    ``die3`` (0: a throw of two dice).

    ``head_limit`` is how many checkers may leave the head this turn (head rule only).

    Writes one row per play into ``plays`` (see :func:`row_width`) and returns their
    number. Plays are distinct by resulting board; they use as many dice as can be used
    and, when only one of two different dice can be played, the larger one if it can
    (and, with ``R_MUST_ENTER``, enter a checker from the bar when one of those can).
    Three dice are played once each, in any order, alike dice too; of them the plays
    that use the most dice are kept, whichever dice they use. A position with no legal
    move yields one empty play.

    Compiled callers pass typed values (``np.int64(1)``, not ``1``) and Python callers
    writable arrays (:func:`gammon.kernels.kernel_array`): numba compiles a kernel again
    for each literal argument or read-only array, 15 s of one core for this one.
    """
    size = board.shape[0]
    points = rules[R_POINTS]
    slots = points + 2
    home = rules[R_HOME]
    length_col = size + 3 * MAX_DICE
    three = die3 > 0
    double = die1 == die2 and (not three or die3 == die1)
    high = max(die1, die2)
    low = min(die1, die2)
    # Three dice, high to low, and their orders (ORDERS_OF_THREE) that differ.
    third = low
    if three:
        high, low, third = die1, die2, die3
        if high < low:
            high, low = low, high
        if low < third:
            low, third = third, low
        if high < low:
            high, low = low, high
    sorted_dice = (high, low, third)
    ndice = 3 if three else (MAX_DICE if double else 2)
    mask = (1 << TABLE_BITS) - 1
    # Per depth: the index of the next candidate source to try, whether any move was
    # found, the board hash, the move made; and the candidate sources, highest first:
    # the slots the mover occupies (a move adds at most its destination).
    next_src = W_SCRATCH
    moved = next_src + MAX_DICE + 1
    hstack = moved + MAX_DICE + 1
    path = hstack + MAX_DICE + 1
    ncand = path + MAX_DICE + 1
    outside = ncand + MAX_DICE + 1
    heads = outside + MAX_DICE + 1
    hitters = heads + MAX_DICE + 1
    cand = W_SCRATCH + DEPTH_WORDS * (MAX_DICE + 1)
    stack = MAX_PLAYS
    base = player * slots
    count = 0
    remembered = 0  # search nodes remembered by the every-order pass
    best = 0
    high_first = 0  # bit s: the high die moves a checker from slot s of the start board
    first_dst = -1

    n = 0
    away = 0
    for s in range(slots - 1, 0, -1):
        if board[base + s] > 0:
            words[cand + n] = s
            n += 1
            if s > home:
                away += board[base + s]
            elif (
                rules[R_PINS] == 1 and rules[R_PINNED_HOLDS_OFF] == 1
                and board[_pin_index(player, s, rules)] == player + 1
            ):
                away += 1  # pinned at home: no bearing off until it is free
    words[ncand] = n
    words[outside] = away
    words[heads] = 0
    words[hitters] = 0
    # Low-then-high plays whose high move was legal from the start are found high-first
    # too, unless a rule refuses moves by what other moves did: the six-block, and
    # "only bear off once home" while one move could bring the last checker home.
    prune = (not three and rules[R_SIX_BLOCK] == 0 and rules[R_FIRST_PAST] == 0
             and (rules[R_HOME_ONLY_BEAR] == 0 or away >= 2))

    # A double's moves are tried in non-increasing source order, which reaches every
    # result unless a move was refused for a rule that other moves can lift (six-block,
    # hit and hide): then a second pass tries every order. Under the hitter rules that
    # pass also tries, from a point where a hitter stands covered, the hitter itself
    # leaving (the candidates are walked twice: ``alt`` is the second walk): alike
    # checkers may have moved in either order.
    passes = 1 if double else (6 if three else 2)
    refused = False
    hitter_rules = rules[R_NO_HIT_AND_HIDE] == 1 or rules[R_NO_HITTER_OFF] == 1
    # Acey-deucey's 2-1 under enter-first: the checker entered by the first die may move
    # on with the second.
    moves_on = rules[R_ACEY_MOVES_ON] == 1 and not three and high == 2 and low == 1
    # With the quarter limits judged at the play's end, a play may pass through a board
    # they forbid: every board on the way is a play of its own if they allow it, and the
    # most dice used is counted over those alone.
    at_end = rules[R_QUARTERS_AT_END] == 1
    # Three dice: a second move of another checker, legal from the start, reaches what
    # the order with the first two dice swapped reaches, where that order came earlier:
    # under rules that judge a move by the board it is made on, such moves commute.
    commute = (three and not double and not hitter_rules and not at_end
               and rules[R_SIX_BLOCK] == 0 and rules[R_FIRST_PAST] == 0
               and rules[R_HOME_ONLY_BEAR] == 0 and rules[R_NO_HIT_AND_RUN] == 0
               and rules[R_PINS] == 0 and rules[R_HEAD] == 0 and rules[R_HOLD_HALF] == 0
               and rules[R_START_QUARTER] == 0 and rules[R_FRONT_PRIME] == 0
               and rules[R_OPPONENT_QUARTER] == 0 and rules[R_MUST_ENTER] == 0)
    # Per die of the three, high to low, bit s: it moves a checker from slot s at the start
    # (scalars, not an array: a call of two dice allocates nothing).
    from_high = from_low = from_third = 0
    order = 0
    while order < passes:
        if three and not double and _order_seen(sorted_dice, order):
            order += 1
            continue
        swapped_before = commute and _swap_seen(sorted_dice, order)
        every_order = double and order == 1
        branch = every_order and hitter_rules
        first = high if order == 0 else low
        second = high if double or order == 1 else low
        for i in range(size):
            plays[stack, i] = board[i]
        words[hstack] = board_hash(board, words)
        words[next_src] = 0
        words[moved] = 0
        depth = 0
        while depth >= 0:
            # Find the next legal move at this depth. A move that completes the play is
            # recorded on the spot; any other is descended into.
            leaf_row = NO_LEAF
            h = 0
            descended = False
            if depth < ndice:
                if three and not double:
                    die = sorted_dice[ORDERS_OF_THREE[order, depth]]
                else:
                    die = first if depth == 0 else second
                row = cand + depth * CANDIDATES
                j = words[next_src + depth]
                end = words[ncand + depth]
                stop = 2 * end if branch else end
                parent = stack + depth
                free_src = -1
                if moves_on and depth == 1 and words[path] // 512 == slots - 1:
                    free_src = (words[path] // 2) % 256
                while j < stop:
                    alt = j >= end
                    src = words[row + (j - end if alt else j)]
                    j += 1
                    if alt and not (
                        (words[hitters + depth] >> src) & 1 and plays[parent, base + src] >= 2
                    ):
                        continue  # no covered hitter here
                    dst, hit_index, h = _check_move(
                        plays, parent, words[hstack + depth], player, src, die,
                        words[outside + depth], words[heads + depth], head_limit,
                        words[hitters + depth], free_src, rules, words,
                    )
                    if dst < 0:
                        if dst == REFUSED_FOR_NOW:
                            refused = True
                        continue
                    if alt and (
                        (
                            dst > 0 and rules[R_NO_HIT_AND_HIDE] == 1
                            and plays[parent, base + dst] > 0
                        )
                        or (dst == 0 and rules[R_NO_HITTER_OFF] == 1)
                        or rules[R_NO_HIT_AND_RUN] == 1
                    ):
                        continue  # the hitter may not go there; its cover may (first walk)
                    if order == 0 and depth == 0:
                        high_first |= 1 << src
                    elif (
                        prune and not double and order == 1 and depth == 1
                        and (high_first >> src) & 1
                        and src != first_dst
                    ):
                        # Low then an independent high move: the high-first order already
                        # reached this result. It still proves both dice can be played.
                        words[moved + depth] = 1
                        continue
                    if three and depth == 0:
                        if die == high:
                            from_high |= 1 << src
                        elif die == low:
                            from_low |= 1 << src
                        else:
                            from_third |= 1 << src
                    elif (
                        swapped_before and depth == 1
                        and ((from_high if die == high else from_low if die == low
                              else from_third) >> src) & 1
                        and src != first_dst
                    ):
                        words[moved + depth] = 1  # the swapped order searched it
                        continue
                    words[moved + depth] = 1
                    words[path + depth] = (src * 256 + dst) * 2 + (1 if hit_index >= 0 else 0)
                    if depth == 0:
                        first_dst = dst
                    if depth + 1 == ndice:
                        leaf_row = COMPLETING
                        break
                    _write_move(
                        plays, parent, parent + 1, size, slots, player, src, dst, hit_index,
                        points, rules,
                    )
                    words[next_src + depth] = j
                    # The child's candidates: these plus the destination, highest first.
                    child = row + CANDIDATES
                    k = 0
                    start = 0
                    inserted = dst == 0
                    for i in range(end):
                        value = words[row + i]
                        if not inserted and dst >= value:
                            inserted = True
                            if dst > value:
                                words[child + k] = dst
                                k += 1
                        # A double's moves go in non-increasing source order: that
                        # reaches every distinct result without its reorderings.
                        if value > src:
                            start = k + 1
                        words[child + k] = value
                        k += 1
                    if not inserted:
                        words[child + k] = dst
                        k += 1
                    depth += 1
                    words[ncand + depth] = k
                    words[outside + depth] = words[outside + depth - 1] - (
                        1 if src > home and dst <= home else 0
                    )
                    words[heads + depth] = words[heads + depth - 1] + (
                        1 if src == rules[R_HEAD] else 0
                    )
                    standing = words[hitters + depth - 1]
                    if (standing >> src) & 1 and (alt or plays[parent, base + src] == 1):
                        standing &= ~(1 << src)  # the hitter moved (the cover stays)
                        if dst > 0:
                            standing |= 1 << dst
                    if hit_index >= 0 and (rules[R_HITS_HOME_ONLY] == 0 or dst <= home):
                        standing |= 1 << dst
                    words[hitters + depth] = standing
                    words[hstack + depth] = h
                    if every_order:
                        # Every order reaches many nodes again (module text, MEMO_BITS): a
                        # node's search depends on its board, the moves made, the checkers
                        # still outside, those off the head and the hitters, nothing else
                        # (a double has no free source). A node met before found every
                        # result below it then, with the same number of moves: skip it.
                        key = (standing | (words[outside + depth] << 32)
                               | (words[heads + depth] << 44) | (depth << 56))
                        seen, remembered = _seen_before(plays, parent + 1, size, h, key,
                                                        remembered, words)
                        if seen:
                            depth -= 1
                            continue
                    words[next_src + depth] = start if double and not every_order else 0
                    words[moved + depth] = 0
                    leaf_row = DESCENDED
                    break
                if leaf_row == DESCENDED:
                    if not at_end:
                        continue
                    leaf_row = stack + depth  # the board just reached may end the play
                    h = words[hstack + depth]
                    descended = True
                elif leaf_row == COMPLETING:
                    words[next_src + depth] = j
                elif words[moved + depth] == 0:
                    leaf_row = stack + depth  # no move at all from here: a short play
                    h = words[hstack + depth]
            else:
                leaf_row = stack + depth
                h = words[hstack + depth]
            completing = leaf_row == COMPLETING
            length = depth + 1 if completing else depth
            kept_here = leaf_row != NO_LEAF and length >= best
            if kept_here and at_end:
                if completing:
                    packed = words[path + depth]
                    kept_here = _quarters_kept(plays, stack + depth, player, packed // 512,
                                               (packed // 2) % 256, rules)
                else:
                    kept_here = _quarters_kept(plays, leaf_row, player, -1, -1, rules)
            if kept_here:
                best = length
                if completing:
                    # Written only now, and straight into a new result row if it is new.
                    packed = words[path + depth]
                    src = packed // 512
                    dst = (packed // 2) % 256
                    hit_index = -1
                    if packed % 2 == 1 and rules[R_PINS] == 1:
                        hit_index = _pin_index(player, dst, rules)
                    elif packed % 2 == 1:
                        for q in range(rules[R_PLAYERS]):
                            if q != player:
                                index = q * slots + rules[
                                    CROSS + (player * rules[R_PLAYERS] + q) * slots + dst
                                ]
                                if plays[stack + depth, index] == 1:
                                    hit_index = index
                index = h & mask
                existing = -1
                while words[W_TABLE + index] != 0:
                    candidate = words[W_TABLE + index] - 1
                    if words[W_HASH + candidate] == h:
                        if leaf_row == COMPLETING:
                            leaf_row = stack + depth + 1
                            _write_move(
                                plays, stack + depth, leaf_row, size, slots, player, src, dst,
                                hit_index, points, rules,
                            )
                        same = True
                        for i in range(size):
                            if plays[candidate, i] != plays[leaf_row, i]:
                                same = False
                                break
                        if same:
                            existing = candidate
                            break
                    index = (index + 1) & mask
                if existing < 0:
                    existing = count
                    count += 1
                    words[W_TABLE + index] = count
                    words[W_HASH + existing] = h
                    words[W_FLAGS + existing] = index * 2
                    plays[existing, length_col] = -1
                if length > plays[existing, length_col]:
                    if leaf_row == COMPLETING:  # not written yet
                        _write_move(
                            plays, stack + depth, existing, size, slots, player, src, dst,
                            hit_index, points, rules,
                        )
                    else:
                        for i in range(size):
                            plays[existing, i] = plays[leaf_row, i]
                    for k in range(length):
                        packed = words[path + k]
                        landed = (packed // 2) % 256
                        hit = packed % 2
                        if (
                            hit == 1 and rules[R_PINS] == 1
                            and plays[existing, _pin_index(player, landed, rules)] == 0
                        ):
                            hit = 0  # the pinner moved on: the checker landed on is free
                        plays[existing, size + 3 * k] = packed // 512
                        plays[existing, size + 3 * k + 1] = landed
                        plays[existing, size + 3 * k + 2] = hit
                    plays[existing, length_col] = length
                    flag = words[W_FLAGS + existing]
                    words[W_FLAGS + existing] = (flag // 2) * 2 + (1 if order == 0 else 0)
            if not completing and not descended:
                depth -= 1
        order += 1
        if double and refused:
            passes = 2

    for i in range(count):
        words[W_TABLE + words[W_FLAGS + i] // 2] = 0
    for i in range(remembered):
        words[W_MEMO_TABLE + words[W_MEMO + 3 * i + 2]] = 0
    # Keep the plays that use the most dice; with one die of two, the larger if possible.
    need_high = False
    if not double and not three and best == 1:
        for i in range(count):
            if plays[i, length_col] == 1 and words[W_FLAGS + i] % 2 == 1:
                need_high = True
                break
    # With the duty to enter (Multi-Gam): when some such play enters a checker from the
    # bar (the bar holds fewer afterwards), only those that do.
    bar_slot = base + points + 1
    need_enter = False
    if rules[R_MUST_ENTER] == 1 and board[bar_slot] > 0:
        for i in range(count):
            if (
                plays[i, length_col] == best
                and not (need_high and words[W_FLAGS + i] % 2 == 0)
                and plays[i, bar_slot] < board[bar_slot]
            ):
                need_enter = True
                break
    kept = 0
    for i in range(count):
        if plays[i, length_col] != best or (need_high and words[W_FLAGS + i] % 2 == 0):
            continue
        if need_enter and plays[i, bar_slot] == board[bar_slot]:
            continue
        if kept != i:
            for j in range(plays.shape[1]):
                plays[kept, j] = plays[i, j]
        kept += 1
    if kept == 0:  # every play ends on a board the quarter limits forbid: none is made
        for i in range(size):
            plays[0, i] = board[i]
        plays[0, length_col] = 0
        kept = 1
    if rules[R_OPEN_PRIME] == 1 and not _six_block_ok(plays, stack, player, -1, -1, rules):
        # A prime shuts every opposing checker in: the plays that open it, if any.
        opening = 0
        for i in range(kept):
            if _six_block_ok(plays, i, player, -1, -1, rules):
                if opening != i:
                    for j in range(plays.shape[1]):
                        plays[opening, j] = plays[i, j]
                opening += 1
        if opening > 0:
            kept = opening
    return kept


@njit(cache=True)
def seed_kernels(seed):
    """Seed the random generator the compiled playouts draw from."""
    np.random.seed(seed)


@njit(cache=True)
def winner_points(board, winner, rules):
    """Points the winner of a two-player game scores.

    1 for a single game; 2 (gammon, mars) when the loser has borne nothing off; 3
    (backgammon, koks) when besides the loser still has a checker on the bar or in the
    last quarter of their way (their own farthest ``home`` points: the winner's home
    board in backgammon, the loser's starting quarter in Long Nardy).
    """
    points = rules[R_POINTS]
    slots = points + 2
    loser = (1 - winner) * slots
    if board[loser] > 0 or rules[R_GAMMONS] == 0:
        return 1
    if rules[R_BACKGAMMONS] == 1:
        for s in range(points - rules[R_HOME] + 1, slots):
            if board[loser + s] > 0:
                return 3
    return 2


@njit(cache=True)
def turn_end(board, player, starter, last_roll, rules):
    """The two-player turn flow after ``player``'s play on ``board``, written once for
    every kernel that plays whole games (the playouts here, the vector environment, the
    compiled self-play): ``(winner, last_roll)``, where winner is -1 while the game goes
    on, -2 for a draw, else the player who won; and whether the other player now has
    the one more turn of ``R_LAST_ROLL`` (``last_roll`` says whether this play was it).

    With ``R_LAST_ROLL``, the starter bearing off the last checker hands the other
    player one more turn; the game is drawn if they finish then too, and the starter's
    otherwise. With ``R_MOTHER`` (the games that pin) the mothers are looked at first
    (:func:`mother_end`).
    """
    if rules[R_MOTHER] != 0:
        ended = mother_end(board, player, rules)
        if ended != -1:
            return ended, False
    finished = board[player * (rules[R_POINTS] + 2)] == rules[R_CHECKERS]
    if last_roll:
        return (-2 if finished else 1 - player), False
    if finished:
        if rules[R_LAST_ROLL] == 1 and player == starter:
            return -1, True
        return player, False
    return -1, False


@njit(cache=True)
def head_limit(board, player, die1, die2, rules):
    """How many checkers may leave the head in ``player``'s play of ``die1``-``die2``.

    One, except on a player's first roll, recognised by the position: all the mover's
    checkers still stand on the head (a first roll always takes one off). Then two for
    a double among ``R_HEAD_DOUBLES`` (the starter's first roll only, unless
    ``R_HEAD_DOUBLES_BOTH``; the starter's is the one where the opponent's head is full
    too); and two for the second player's first roll among ``R_HEAD_WIDE_ROLLS`` when
    the starter's first play took one checker a number of pips in ``R_HEAD_WIDE_AFTER``
    off the head (where 2-1, 6-2 or 5-5 leave it). Python's rules objects, the search's
    expansion and the playouts all ask this one function.
    """
    head = rules[R_HEAD]
    if head == 0:
        return 1
    slots = rules[R_POINTS] + 2
    checkers = rules[R_CHECKERS]
    if board[player * slots + head] != checkers:
        return 1
    other = ((player + 1) % rules[R_PLAYERS]) * slots
    other_full = board[other + head] == checkers
    high = max(die1, die2)
    low = min(die1, die2)
    if (
        high == low and (rules[R_HEAD_DOUBLES] >> high) & 1
        and (rules[R_HEAD_DOUBLES_BOTH] == 1 or other_full)
    ):
        return 2
    if (
        (rules[R_HEAD_WIDE_ROLLS] >> (8 * high + low)) & 1
        and board[other + head] == checkers - 1
    ):
        for s in range(1, head):
            if board[other + s] == 1:
                return 2 if (rules[R_HEAD_WIDE_AFTER] >> (head - s)) & 1 else 1
    return 1


@njit(cache=True)
def opening(rules):
    """The opening of a two-player game: ``(starter, die1, die2)``. One die each (equal
    dice thrown again, :func:`opening_lot`), the higher starts with those two dice, or
    with a fresh roll without ``R_OPENING_PLAYS_LOT`` (:func:`after_lot`)."""
    a, b = opening_lot()
    return after_lot(a, b, rules)


@njit(cache=True)
def opening_lot():
    """The lot for the first turn: one die each, equal dice thrown again; ``(player 0's
    die, player 1's)``."""
    while True:
        a = np.random.randint(1, 7)
        b = np.random.randint(1, 7)
        if a != b:
            return a, b


@njit(cache=True)
def after_lot(a, b, rules):
    """``(starter, die1, die2)`` after the lot ``a``, ``b``: the higher die starts, with
    the lot's two dice or, without ``R_OPENING_PLAYS_LOT``, a fresh roll; with
    ``R_LOT_CHOICE`` the starter picks one of the two at random."""
    player = 0 if a > b else 1
    if rules[R_OPENING_PLAYS_LOT] == 0 or (
            rules[R_LOT_CHOICE] == 1 and np.random.randint(0, 2) == 1):
        a = np.random.randint(1, 7)
        b = np.random.randint(1, 7)
    return player, a, b


@njit(cache=True)
def third_die(rules):
    """A fresh throw's third die: 0 in a game of two dice (``R_DICE_COUNT``)."""
    return np.random.randint(1, 7) if rules[R_DICE_COUNT] == 3 else 0


@njit(cache=True)
def random_playouts(games, start, rules, max_turns, plays, words):
    """Play ``games`` two-player games with uniformly random plays.

    Each game opens with one die per player (ties re-rolled); the higher die moves first,
    playing those two dice or, without ``R_OPENING_PLAYS_LOT``, a fresh roll. Then the
    players alternate throws of two dice (three with ``R_DICE_COUNT``); a double played
    in full may be followed by more in the same turn (:func:`after_double`). With
    ``R_LAST_ROLL`` the second player gets one more turn after the starter finishes, and
    finishing too makes a draw. Returns
    ``(games, 3)``: winner (-1 if ``max_turns`` ran out, -2 for a draw), points won,
    plays made.
    """
    size = start.shape[0]
    bar = rules[R_POINTS] + 1
    length_col = size + 3 * MAX_DICE
    out = np.zeros((games, 3), np.int64)
    board = np.empty_like(start)
    for g in range(games):
        board[:] = start
        player, a, b = opening(rules)
        c = third_die(rules)
        starter = player
        turns = 0
        winner = -1
        last_roll = False
        complement = False  # the dice to play are a double's complement
        plain = False  # the double was thrown with a checker waiting to enter
        while turns < max_turns:
            if a == b and not complement:  # only a double can be followed
                plain = board[player * (bar + 1) + bar] > 0
            limit = head_limit(board, player, a, b, rules)
            count = generate_throw(board, player, a, b, c, limit, rules, plays, words)
            pick = np.random.randint(0, count)
            full = plays[pick, length_col] == MAX_DICE
            board[:] = plays[pick, :size]
            turns += 1
            winner, last_roll = turn_end(board, player, starter, last_roll, rules)
            if winner != -1:
                break
            follow = after_double(a == b and full and not last_roll, complement, plain, rules)
            complement = follow == 1
            if complement:
                a = b = 7 - a
                continue
            if follow != 2:
                player = 1 - player
            a = np.random.randint(1, 7)
            b = np.random.randint(1, 7)
            c = third_die(rules)
        out[g, 0] = winner
        out[g, 1] = winner_points(board, winner, rules) if winner >= 0 else 0
        out[g, 2] = turns
    return out


@njit(cache=True)
def after_double(full_double, complement, plain, rules):
    """What follows a play in the same turn: 0 nothing (the other player throws), 1 the
    double's complement, 2 another throw of the same player. ``full_double``: the play
    was a double played in full; ``complement``: it was a complement; ``plain``: the
    double was thrown with a checker waiting to enter (``R_DOUBLES_PLAIN_ENTERING``;
    never so of a complement, which only a double thrown with none waiting earns)."""
    if not full_double:
        return 0
    if not complement:
        if plain and rules[R_DOUBLES_PLAIN_ENTERING] == 1:
            return 0
        if rules[R_DOUBLES_COMPLEMENT] == 1:
            return 1
    return 2 if rules[R_DOUBLES_AGAIN] == 1 else 0


# The layout of the rules vector is frozen into the kernels above: recompile them when
# the rules blocks change.
refresh_when_changed(globals())
