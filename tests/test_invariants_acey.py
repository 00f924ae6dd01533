"""Invariants of acey-deucey over many seeded random games of the compiled playouts.

The kernel (:mod:`gammon.kernels.acey`) traces every decision: who decided, the dice,
the moves and the board after. :func:`check_games` walks those traces on its own, move
by move from the starting board, and counts what breaks a rule:

- checkers are conserved (15 a side, no negative count) and each move replays to the
  traced board: one checker, one die, exact bear-off, no landing on a held point, a hit
  exactly where a lone opposing checker stood;
- extra rolls only when earned: after doubles, or after an acey-deucey's doubles, the
  same player again (under ``forfeit_unplayed`` only when played in full); after a 1-2
  the doubles number (chosen, or thrown on one die) and its doubles; else the other
  player;
- no checker leaves the home board before all have arrived (standard home lock), none
  bears off before all are home; with the opening rules, nothing moves before a first
  doubles or 1-2, and no checker on the board moves while one is still to enter (but
  a 1-2's entering checker may move on with the other die) until all fifteen have
  entered once, after which a hit checker enters before any other moves; under the
  restrictive flags, once all are home only bearing off;
- every game terminates: it ends the moment a side has borne off all fifteen, with that
  side the winner, and the figures the kernel reports agree with the trace.

A few games are also replayed through the Python rules (``GameState``): every traced
play and doubles choice must be legal there and lead to the same states.

The default run checks 2,000 games per rule set (a few seconds); ``pytest -m slow``
checks 10,000 per rule set, the number the issue asks for.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import gammon
from gammon import Phase, Position, Roll
from gammon.kernels import acey as K
from gammon.kernels.cache import refresh_when_changed
from gammon.variants.acey import DoublesChoice

GAMES = 2_000
SLOW_GAMES = 10_000
CHUNK = 500
ROWS_PER_GAME = 400  # room in the trace; about 216 decisions a game (sd 50)

RULE_SETS = {
    "standard": gammon.variant("acey-deucey"),
    "restrictive": gammon.variant("acey-deucey-restrictive"),
    "lenient": gammon.variant("acey-deucey", start_on_doubles=False, enter_all_first=False,
                              hit_enters_first=False),
    "free-opening": gammon.variant("acey-deucey", enter_all_first=False),
}

# What check_games counts.
CONSERVED, REPLAY, DICE, HOME_LOCK, BEAR_OFF_HOME, EXTRA, TERMINATE = range(7)
ENTER_FIRST, START, FREEZE = 7, 8, 9
NAMES = ("conserved", "replay", "dice", "home lock", "bear off home", "extra roll",
         "terminate", "enter first", "start on doubles", "home freeze")
# Figures it returns after the violations.
FRESH, DOUBLES, ACEYS, EXTRAS = 10, 11, 12, 13
WIDTH = 14

SLOTS = 26
BAR = 25
HOME = 6
CHECKERS = 15


@njit(cache=True)
def check_games(trace, results, start, options):
    """Count rule violations in traced games (see the module); also some figures."""
    home_lock, enter_first, start_doubles, forfeit, roll_number, freeze, hit_first = (
        options[0], options[1], options[2], options[3], options[4], options[5], options[6]
    )
    out = np.zeros(WIDTH, np.int64)
    size = start.shape[0]
    board = np.zeros(size, np.int64)
    dice = np.zeros(4, np.int64)
    rows = trace.shape[0]
    i = 0
    for g in range(results.shape[0]):
        for s in range(size):
            board[s] = start[s]
        j = i
        while j < rows and trace[j, K.T_GAME] == g:
            j += 1
        started = 0 if start_doubles else 3
        entered = 0  # bit p: all of p's checkers have entered once
        expect_player = -1
        expect_kind = K.KIND_PLAY
        expect_die = 0
        after_acey = False
        plays = 0
        extras = 0
        finished = False
        for r in range(i, j):
            player = trace[r, K.T_PLAYER]
            kind = trace[r, K.T_KIND]
            d1 = trace[r, K.T_DIE1]
            d2 = trace[r, K.T_DIE2]
            other = 1 - player
            if finished:
                out[TERMINATE] += 1  # a decision after the game was won
            if (expect_player >= 0 and player != expect_player) or kind != expect_kind:
                out[EXTRA] += 1
            if expect_die > 0 and (d1 != expect_die or d2 != expect_die):
                out[EXTRA] += 1
            if kind != K.KIND_PLAY:
                # The doubles number of an acey-deucey: chosen, or thrown on one die.
                if (kind == K.KIND_NUMBER) != (roll_number == 1):
                    out[EXTRA] += 1
                if not 1 <= d1 <= 6 or d1 != d2:
                    out[DICE] += 1
                for s in range(size):
                    if trace[r, K.T_BOARD + s] != board[s]:
                        out[REPLAY] += 1
                        break
                expect_player = player
                expect_kind = K.KIND_PLAY
                expect_die = d1
                after_acey = True
                continue
            plays += 1
            if not (1 <= d2 <= d1 <= 6):
                out[DICE] += 1
            fresh = not after_acey
            if fresh:
                out[FRESH] += 1
                if d1 == d2:
                    out[DOUBLES] += 1
                if d1 == 2 and d2 == 1:
                    out[ACEYS] += 1
                if d1 == d2 or (d1 == 2 and d2 == 1):
                    started |= 1 << player
            moves = trace[r, K.T_MOVES]
            if moves > 0 and (started >> player) & 1 == 0:
                out[START] += 1
            n = 4 if d1 == d2 else 2
            for k in range(4):
                dice[k] = d1 if (d1 == d2 or k == 0) else (d2 if k == 1 else 0)
            if moves > n:
                out[DICE] += 1
            base = player * SLOTS
            obase = other * SLOTS
            opening = (entered >> player) & 1 == 0
            enter_now = enter_first if opening else hit_first
            one_two = fresh and d1 == 2 and d2 == 1 and opening and enter_first
            for k in range(moves):
                src = trace[r, K.T_PATH + 3 * k]
                dst = trace[r, K.T_PATH + 3 * k + 1]
                hit = trace[r, K.T_PATH + 3 * k + 2]
                distance = src - dst
                used = -1
                for m in range(n):
                    if dice[m] == distance and used < 0:
                        used = m
                if used < 0 or not (0 <= dst < src <= BAR):
                    out[DICE] += 1
                else:
                    dice[used] = 0
                if board[base + src] <= 0:
                    out[REPLAY] += 1
                outside = 0
                for s in range(HOME + 1, BAR + 1):
                    outside += board[base + s]
                if home_lock and src <= HOME and outside > 0:
                    out[HOME_LOCK] += 1
                if dst == 0 and outside > 0:
                    out[BEAR_OFF_HOME] += 1
                if enter_now and src != BAR and board[base + BAR] > 0:
                    # The 1-2's checker entered by the first die may move on.
                    first_src = trace[r, K.T_PATH]
                    first_dst = trace[r, K.T_PATH + 1]
                    if not (one_two and k == 1 and first_src == BAR and src == first_dst):
                        out[ENTER_FIRST] += 1
                if freeze and outside == 0 and dst != 0:
                    out[FREEZE] += 1
                board[base + src] -= 1
                board[base + dst] += 1
                if dst > 0:
                    there = obase + BAR - dst  # the same point in the opponent's numbering
                    count = board[there]
                    if count >= 2 or (count == 1) != (hit == 1):
                        out[REPLAY] += 1
                    if count == 1:
                        board[there] = 0
                        board[obase + BAR] += 1
                elif hit:
                    out[REPLAY] += 1
            for s in range(size):
                if trace[r, K.T_BOARD + s] != board[s]:
                    out[REPLAY] += 1
                    break
            if board[base + BAR] == 0:
                entered |= 1 << player
            for p in range(2):  # on the board the kernel wrote
                total = 0
                for s in range(SLOTS):
                    count = trace[r, K.T_BOARD + p * SLOTS + s]
                    if count < 0:
                        out[CONSERVED] += 1
                    total += count
                if total != CHECKERS:
                    out[CONSERVED] += 1
            if board[base] == CHECKERS:
                finished = True
                if results[g, K.O_WINNER] != player:
                    out[TERMINATE] += 1
                continue
            # Who decides next, and what.
            started_now = (started >> player) & 1 == 1
            expect_die = 0
            expect_kind = K.KIND_PLAY
            if fresh and d1 == 2 and d2 == 1 and started_now:
                if forfeit and moves < 2:
                    expect_player = other
                else:
                    expect_player = player
                    expect_kind = K.KIND_NUMBER if roll_number else K.KIND_CHOICE
            elif d1 == d2 and started_now and not (forfeit and moves < 4):
                expect_player = player
                extras += 1
            else:
                expect_player = other
            after_acey = False
        if not finished or results[g, K.O_WINNER] < 0:
            out[TERMINATE] += 1
        if results[g, K.O_PLAYS] != plays:
            out[TERMINATE] += 1
        if results[g, K.O_EXTRA] != extras:
            out[EXTRA] += 1
        out[EXTRAS] += extras
        i = j
    if i != rows:
        out[TERMINATE] += 1
    return out


def _options(rules) -> np.ndarray:
    return np.array([
        rules.bearing_off.home_lock, rules.enter_all_first, rules.start_on_doubles,
        rules.forfeit_unplayed, rules.roll_for_doubles, rules.home_freeze,
        rules.hit_enters_first,
    ], np.int64)


def run_checks(rules, games: int, seed: int) -> np.ndarray:
    start = np.frombuffer(rules.start_position().board, np.int8).astype(np.int64)
    total = np.zeros(WIDTH, np.int64)
    for first in range(0, games, CHUNK):
        n = min(CHUNK, games - first)
        results, trace = rules.traced_playouts(
            n, seed if first == 0 else None, 10_000, n * ROWS_PER_GAME
        )
        assert (results[:, K.O_WINNER] >= 0).all()
        total += check_games(trace, results, start, _options(rules))
    return total


def check_invariants(name: str, games: int) -> None:
    rules = RULE_SETS[name]
    figures = run_checks(rules, games, seed=2024)
    broken = {NAMES[k]: int(figures[k]) for k in range(10) if figures[k]}
    assert not broken, broken
    # The dice are fair: doubles 1/6 and 1-2 1/18 of the fresh rolls (5 sigma).
    fresh = figures[FRESH]
    for count, p in ((figures[DOUBLES], 1 / 6), (figures[ACEYS], 1 / 18)):
        assert abs(count / fresh - p) < 5 * np.sqrt(p * (1 - p) / fresh)
    assert figures[EXTRAS] > games  # extra rolls do happen, many per game


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_invariants(name):
    check_invariants(name, GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RULE_SETS))
def test_invariants_over_10000_games(name):
    check_invariants(name, SLOW_GAMES)


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_checker_catches_broken_games(name):
    """The checker is not blind: corrupt a trace and it counts."""
    rules = RULE_SETS[name]
    start = np.frombuffer(rules.start_position().board, np.int8).astype(np.int64)
    results, trace = rules.traced_playouts(20, 9, 10_000, 20 * ROWS_PER_GAME)
    assert not check_games(trace, results, start, _options(rules))[:10].any()
    plays = np.flatnonzero((trace[:, K.T_KIND] == K.KIND_PLAY) & (trace[:, K.T_MOVES] > 0))
    row = plays[len(plays) // 2]
    lost = trace.copy()
    lost[row:, K.T_BOARD + 3] += 1  # a checker appears from nowhere
    assert check_games(lost, results, start, _options(rules))[CONSERVED] > 0
    # A turn handed to the wrong player.
    passes = np.flatnonzero(trace[1:, K.T_PLAYER] != trace[:-1, K.T_PLAYER]) + 1
    same = trace.copy()
    same[passes[3], K.T_PLAYER] = 1 - same[passes[3], K.T_PLAYER]
    assert check_games(same, results, start, _options(rules))[EXTRA] > 0


def test_checker_catches_games_played_under_other_opening_rules():
    """Games of the lenient rules break the standard opening; games whose hit checkers
    wait break AD-HIT-ENTER-FIRST once the opening is over; and the 1-2's exception is
    used (the standard games pass only because the checker allows it)."""
    def violations(played, checked) -> np.ndarray:
        rules, judge = RULE_SETS[played], RULE_SETS[checked]
        start = np.frombuffer(rules.start_position().board, np.int8).astype(np.int64)
        results, trace = rules.traced_playouts(200, 5, 10_000, 200 * ROWS_PER_GAME)
        return check_games(trace, results, start, _options(judge))

    lenient = violations("lenient", "standard")
    assert lenient[START] > 0 and lenient[ENTER_FIRST] > 0
    late = gammon.variant("acey-deucey", enter_all_first=False, hit_enters_first=False)
    RULE_SETS["late-hits"] = late
    try:
        assert violations("late-hits", "free-opening")[ENTER_FIRST] > 0
    finally:
        del RULE_SETS["late-hits"]
    standard = RULE_SETS["standard"]
    results, trace = standard.traced_playouts(200, 5, 10_000, 200 * ROWS_PER_GAME)
    plays = trace[trace[:, K.T_KIND] == K.KIND_PLAY]
    same = ((plays[:, K.T_DIE1] == 2) & (plays[:, K.T_DIE2] == 1) & (plays[:, K.T_MOVES] == 2)
            & (plays[:, K.T_PATH] == BAR) & (plays[:, K.T_PATH + 3] == plays[:, K.T_PATH + 1]))
    board = plays[:, K.T_BOARD:]
    waiting = np.where(plays[:, K.T_PLAYER] == 0, board[:, BAR], board[:, SLOTS + BAR])
    assert (same & (waiting > 0)).any()  # bar/22 with others still waiting


def test_parallel_serial_and_traced_playouts_agree():
    rules = RULE_SETS["standard"]
    parallel = rules.traced_playouts(300, 11)[0]
    serial = rules.traced_playouts(300, 11, parallel=False)[0]
    traced, trace = rules.traced_playouts(300, 11, 10_000, 300 * ROWS_PER_GAME)
    assert (parallel == serial).all() and (traced == serial).all()
    assert (np.diff(trace[:, K.T_GAME]) >= 0).all()  # the games in order
    assert (trace[:, K.T_KIND] == K.KIND_PLAY).sum() == serial[:, K.O_PLAYS].sum()
    # The stream continues without a seed, and a seed replays it.
    more = rules.random_playouts(50, None)
    again = rules.traced_playouts(350, 11)[0]
    assert (again[300:, :3] == more).all()


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_kernel_games_replay_through_the_python_rules(name):
    replay_kernel_games(RULE_SETS[name], 25, seed=3)


def replay_kernel_games(rules, games: int, seed: int) -> None:
    """Traced compiled games, play by play through the rules object's states."""
    results, trace = rules.traced_playouts(games, seed, 10_000, games * ROWS_PER_GAME)
    for g in range(games):
        rows = trace[trace[:, K.T_GAME] == g]
        first = int(rows[0, K.T_PLAYER])
        state = rules.initial_state().apply(
            Roll((6, 1) if first == 0 else (1, 6), opening=True)
        )
        for row in rows:
            player, kind = int(row[K.T_PLAYER]), int(row[K.T_KIND])
            d1, d2 = int(row[K.T_DIE1]), int(row[K.T_DIE2])
            if state.is_chance:
                if kind == K.KIND_NUMBER:
                    state = state.apply(Roll((d1,)))
                    continue
                state = state.apply(Roll((d1, d2)))
            assert state.phase is Phase.DECIDE and state.current_player == player
            legal = state.legal_actions()
            if kind == K.KIND_CHOICE:
                assert DoublesChoice(d1) in legal
                state = state.apply(DoublesChoice(d1))
                continue
            assert state.dice == (d1, d2)
            board = row[K.T_BOARD:].astype(np.int8).tobytes()
            index = legal.index_of(Position(board, 2, player))
            assert index is not None
            assert len(legal[index].moves) == row[K.T_MOVES]
            state = state.apply(legal[index])
        assert state.is_terminal and state.winner == results[g, K.O_WINNER]
        assert state.returns()[state.winner] == results[g, K.O_POINTS]


# Kernels above inline other modules' code: recompile them when it changes.
refresh_when_changed(globals())
