"""Invariants of whole random games of Long Nardy, Caucasian and short backgammon.

Games are played by :func:`play_and_check`, a compiled loop that throws the dice exactly
as the kernel's ``random_playouts`` does (same generator, same draws in the same order),
so a seed gives the same games, and that checks after every single checker move:

* checkers are conserved (15 per side, borne off included); nothing stands on a bar in
  Long Nardy;
* Long Nardy: no point ever holds checkers of both sides; no run of six points held by
  the mover lacks an opposing checker ahead of it (docs/rules/long-nardy.md,
  LN-SIX-BLOCK, written out again here from the page, not taken from the kernel);
  no more checkers leave the head in a turn than the head rule allows, and on a first
  roll of 6-6, 4-4 or 3-3 exactly two do; the head limit recognised from the position
  (LN-HEAD-DOUBLES) is the one the kernel's loop uses; a checker bears off only when
  its whole side is home;
* Caucasian: a checker that hit this turn and stands alone never moves on to a point its
  owner holds (CAU-NO-HIDE); a hit takes exactly one opposing checker to the bar;
* every move's replay gives the board the kernel wrote; every game ends (no game hits
  the turn limit); the points are those the rules page gives for the final board.

The loop's results must then equal the variant's own ``random_playouts`` row for row.
The default run plays 1,000 games per variant; ``pytest -m slow`` plays 10,000.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import gammon
from gammon.kernels import tracks
from gammon.kernels.cache import refresh_when_changed

NARDY, CAUCASIAN = 0, 1
#: Counters returned by play_and_check, by name.
CHECKS = (
    "conservation", "bar", "shared point", "six-block", "head rule", "head doubles forced",
    "head limit (position vs kernel)", "bear-off not home", "hide after hit", "bad hit",
    "replay", "score", "unfinished",
)


@njit(cache=True)
def _six_block_broken(board, mover, slots, points, cross_pq):
    """Some run of six points of ``mover`` (six consecutive points of the opponent's way)
    has no opposing checker ahead of it, that is on a lower point of the opponent or off.
    ``cross_pq[s]`` is the opponent's number of the mover's point ``s``."""
    other = 1 - mover
    held = np.zeros(points + 1, np.bool_)
    for s in range(1, points + 1):
        if board[mover * slots + s] > 0:
            held[cross_pq[s]] = True
    for low in range(1, points - 4):
        whole = True
        for k in range(6):
            if not held[low + k]:
                whole = False
                break
        if whole:
            ahead = 0
            for u in range(0, low):
                ahead += board[other * slots + u]
            if ahead == 0:
                return True
    return False


@njit(cache=True)
def _points_won(board, winner, slots, points, home, mars, koks):
    """The rules pages' scores: 1; 2 when the loser bore nothing off (mars, gammon);
    3 when besides a checker of the loser is in their first quarter (own points 19-24)
    or on the bar (koks, backgammon)."""
    loser = 1 - winner
    if board[loser * slots] > 0 or not mars:
        return 1
    if koks:
        for s in range(points - home + 1, points + 2):
            if board[loser * slots + s] > 0:
                return 3
    return 2


@njit(cache=True)
def play_and_check(games, start, rules, max_turns, plays, words, kind, head, mars, koks, fails):
    """Random games as the kernel plays them, checked move by move (``fails`` counts
    each violated invariant, in the order of :data:`CHECKS`); ``head``, ``mars`` and
    ``koks`` come from the rules page, not from ``rules``. Returns the kernel's rows:
    winner (-1 unfinished, -2 drawn), points, plays."""
    size = start.shape[0]
    points = rules[tracks.R_POINTS]
    slots = points + 2
    home = rules[tracks.R_HOME]
    checkers = rules[tracks.R_CHECKERS]
    cross = np.zeros((2, slots), np.int64)
    for p in range(2):
        for s in range(1, points + 1):
            cross[p, s] = rules[tracks.CROSS + (p * 2 + (1 - p)) * slots + s]
    out = np.zeros((games, 3), np.int64)
    board = np.empty_like(start)
    work = np.empty_like(start)
    hitters = np.zeros(slots, np.bool_)
    for g in range(games):
        board[:] = start
        while True:
            a = np.random.randint(1, 7)
            b = np.random.randint(1, 7)
            if a != b:
                break
        player = 0 if a > b else 1
        starter = player
        if rules[tracks.R_OPENING_ROLL_AGAIN] == 1:
            a = np.random.randint(1, 7)
            b = np.random.randint(1, 7)
        turns = 0
        winner = -1
        last_roll = False
        while turns < max_turns:
            limit = 1
            if (
                turns < 2 and a == b and (rules[tracks.R_HEAD_DOUBLES] >> a) & 1
                and (rules[tracks.R_HEAD_DOUBLES_BOTH] == 1 or player == starter)
            ):
                limit = 2
            if kind == NARDY:
                # LN-HEAD-DOUBLES as the page words it: the mover's whole side on the head.
                by_position = 1
                if (
                    a == b and (a == 6 or a == 4 or a == 3)
                    and board[player * slots + head] == checkers
                    and (
                        rules[tracks.R_HEAD_DOUBLES_BOTH] == 1
                        or board[(1 - player) * slots + head] == checkers
                    )
                ):
                    by_position = 2
                if by_position != limit:
                    fails[6] += 1
            count = tracks.generate_plays(board, player, a, b, limit, rules, plays, words)
            row = np.random.randint(0, count)
            # Replay the play's moves one at a time, checking each.
            work[:] = board
            hitters[:] = False
            left_head = 0
            base = player * slots
            other = 1 - player
            for k in range(plays[row, size + 3 * tracks.MAX_DICE]):
                src = plays[row, size + 3 * k]
                dst = plays[row, size + 3 * k + 1]
                hit = plays[row, size + 3 * k + 2]
                if dst == 0:
                    outside = 0
                    for s in range(home + 1, slots):
                        outside += work[base + s]
                    if outside > 0:
                        fails[7] += 1
                if src == head and head > 0:
                    left_head += 1
                if kind == CAUCASIAN:
                    if (
                        hitters[src] and work[base + src] == 1 and dst > 0
                        and work[base + dst] > 0
                    ):
                        fails[8] += 1
                    if hitters[src] and work[base + src] == 1:
                        hitters[src] = False
                        if dst > 0:
                            hitters[dst] = True
                work[base + src] -= 1
                work[base + dst] += 1
                if hit:
                    there = other * slots + cross[player, dst]
                    if kind == NARDY or work[there] != 1:
                        fails[9] += 1
                    work[there] -= 1
                    work[other * slots + points + 1] += 1
                    hitters[dst] = True
                if kind == NARDY:
                    for s in range(1, points + 1):
                        if work[base + s] > 0 and work[other * slots + cross[player, s]] > 0:
                            fails[2] += 1
                    if _six_block_broken(work, player, slots, points, cross[player]):
                        fails[3] += 1
            for i in range(size):
                if work[i] != plays[row, i]:
                    fails[10] += 1
                    break
            if kind == NARDY:
                if left_head > limit:
                    fails[4] += 1
                if limit == 2 and left_head != 2:
                    fails[5] += 1
            board[:] = plays[row, :size]
            for p in range(2):
                total = 0
                for s in range(slots):
                    total += board[p * slots + s]
                if total != checkers:
                    fails[0] += 1
                if kind == NARDY and board[p * slots + points + 1] != 0:
                    fails[1] += 1
            turns += 1
            if last_roll:
                if board[player * slots] == checkers:
                    winner = -2
                break
            if board[player * slots] == checkers:
                winner = player
                if rules[tracks.R_LAST_ROLL] == 0 or player != starter:
                    break
                last_roll = True
            player = 1 - player
            a = np.random.randint(1, 7)
            b = np.random.randint(1, 7)
        out[g, 0] = winner
        out[g, 2] = turns
        if winner == -1:
            fails[12] += 1
        if winner >= 0:
            out[g, 1] = _points_won(board, winner, slots, points, home, mars, koks)
    return out


VARIANTS = {
    "long-nardy": ("long-nardy", {}, NARDY),
    "long-nardy-options": (
        "long-nardy", {"head_doubles_both": False, "koks": True, "last_roll": True}, NARDY
    ),
    "long-nardy-oin": ("long-nardy", {"mars": False}, NARDY),
    "caucasian": ("caucasian", {}, CAUCASIAN),
    "short": ("short", {}, -1),  # neither family's extra checks
}


def run_checked(key: str, games: int, seed: int) -> tuple[np.ndarray, dict[str, int]]:
    name, options, kind = VARIANTS[key]
    rules = gammon.variant(name, **options)
    plays, words = tracks.workspace(rules.players, rules.slots)
    start = np.frombuffer(rules.start_position().board, np.int8).copy()
    fails = np.zeros(len(CHECKS), np.int64)
    tracks.seed_kernels(seed)
    rows = play_and_check(
        games, start, rules.kernel.rules, 10000, plays, words, kind, rules.head,
        rules.gammons, rules.backgammons, fails,
    )
    return rows, dict(zip(CHECKS, fails.tolist(), strict=True))


def check_variant(key: str, games: int, seed: int) -> np.ndarray:
    rows, fails = run_checked(key, games, seed)
    assert not any(fails.values()), {k: v for k, v in fails.items() if v}
    name, options, _ = VARIANTS[key]
    rules = gammon.variant(name, **options)
    # The same games through the variant's own playouts: identical rows.
    again = rules.random_playouts(games, seed)
    assert np.array_equal(rows, again)
    return rows


@pytest.mark.parametrize("key", list(VARIANTS))
def test_invariants_1000_games(key):
    rows = check_variant(key, 1000, seed=2024)
    assert (rows[:, 0] != -1).all()


@pytest.mark.slow
@pytest.mark.parametrize("key", list(VARIANTS))
def test_invariants_10000_games(key):
    rows = check_variant(key, 10_000, seed=7)
    assert (rows[:, 0] != -1).all()


def test_scores_take_the_values_the_rules_page_gives():
    rows = check_variant("long-nardy", 500, seed=99)
    assert set(np.unique(rows[:, 1])) == {1, 2}  # oin and mars both occur
    rows = check_variant("long-nardy-oin", 200, seed=99)
    assert set(np.unique(rows[:, 1])) == {1}
    rows = check_variant("long-nardy-options", 500, seed=99)
    drawn = rows[:, 0] == -2
    assert drawn.any() and (rows[drawn, 1] == 0).all()
    assert set(np.unique(rows[~drawn, 1])) <= {1, 2, 3}


def broken(name: str, kind: int, games: int, **fields: int) -> dict[str, int]:
    """Violations counted when the kernel plays ``name`` with some rule fields changed."""
    rules = gammon.variant(name)
    vector = rules.kernel.rules.copy()
    for field, value in fields.items():
        vector[getattr(tracks, field)] = value
    plays, words = tracks.workspace(rules.players, rules.slots)
    start = np.frombuffer(rules.start_position().board, np.int8).copy()
    fails = np.zeros(len(CHECKS), np.int64)
    tracks.seed_kernels(1)
    play_and_check(games, start, vector, 10000, plays, words, kind, rules.head, True, False, fails)
    return {k: v for k, v in zip(CHECKS, fails.tolist(), strict=True) if v}


def test_the_checks_catch_broken_rules():
    assert "head limit (position vs kernel)" in broken("long-nardy", NARDY, 300, R_HEAD_DOUBLES=0)
    assert "head rule" in broken("long-nardy", NARDY, 300, R_HEAD=0)
    assert "bear-off not home" in broken("long-nardy", NARDY, 100, R_BEAR_ALL_HOME=0)
    hits = broken("long-nardy", NARDY, 100, R_HITTING=1, R_BLOCK=2)
    assert "bad hit" in hits and "bar" in hits
    assert "hide after hit" in broken("caucasian", CAUCASIAN, 300, R_NO_HIT_AND_HIDE=0)


@pytest.mark.slow
def test_the_six_block_check_catches_a_missing_rule():
    # Random play rarely builds a six-block with nothing ahead: about one game in 400.
    assert "six-block" in broken("long-nardy", NARDY, 5000, R_SIX_BLOCK=0)


# The checkers above inline the move generator: recompile them when it changes.
refresh_when_changed(
    "test_invariants_nardy", (_six_block_broken, _points_won, play_and_check), (tracks,)
)
