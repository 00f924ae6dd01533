"""Invariants of whole random games of the two-player track games: Long Nardy, short
backgammon and Caucasian, Fevga and Moultezim (checked as Long Nardy is, the six-block
only where the rule is on: their own rules are checked on these games in
tests/test_rules_fevga.py and test_rules_moultezim.py), and backgammon, nackgammon, hypergammon,
Portes and Tavla (for which the checks below that name no variant apply; Tavla's own
rule is checked against the oracle in tests/test_rules_tavla.py).

Games are played by :func:`play_and_check`, a compiled loop that throws the dice exactly
as the kernel's ``random_playouts`` does (same generator, same draws in the same order),
so a seed gives the same games, and that checks after every single checker move:

* checkers are conserved (15 per side, borne off included); nothing stands on a bar in
  Long Nardy;
* Long Nardy: no point ever holds checkers of both sides; no run of six points held by
  the mover lacks an opposing checker ahead of it where the six-block rule is in force
  (docs/rules/long-nardy.md, LN-SIX-BLOCK, written out again here from the page, not
  taken from the kernel);
  no more checkers leave the head in a turn than the head rule allows, and on a first
  roll of 6-6, 4-4 or 3-3 exactly two do; the head limit recognised from the position
  (LN-HEAD-DOUBLES, and LN-HEAD-WIDE when that option is on) is the one the kernel's
  loop uses; a checker bears off only when its whole side is home;
* short backgammon and Caucasian: in some way of telling alike checkers apart, no
  checker that hit this turn moves on to a point its owner holds (SHORT-NO-HIDE,
  SHORT-COVERED-HITTER), nor, where the rule is on, is borne off
  (SHORT-NO-BEAR-OFF-HITTER); with CAU-HOME-ONLY only hits in the home board count;
  a hit takes exactly one opposing checker to the bar;
* Plakoto (the games that pin, docs/rules/plakoto.md, written out again from the page):
  no pinned checker moves (PLAKOTO-PINNED-STAYS); no checker lands where the other side
  stands on top, and a landing marked as a pin finds a lone free checker
  (PLAKOTO-OPEN-POINT, PLAKOTO-PIN), and is so marked exactly where the pin stays
  (PLAKOTO-PASSING); the pin row says which checker is underneath
  wherever both sides share a point, and nowhere else; nothing on a bar; bearing off
  only with the whole side home and, with PLAKOTO-BEAROFF-PINNED, none pinned at home;
  the game ends at the mother as the page says (PLAKOTO-MOTHER, PLAKOTO-MOTHER-WAIT,
  PLAKOTO-MOTHERS-DRAW);
* every move's replay gives the board the kernel wrote; every game ends (no game hits
  the turn limit); the points are those the rules page gives for the final board.

The loop's results must then equal the variant's own ``random_playouts`` row for row.
The default run plays 1,000 games per variant; ``pytest -m slow`` plays 10,000. Gul
bara, whose turns (cascading doubles) are its own, has its own kernel and is checked at
the end from that kernel's traces, move by move and turn by turn.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import gammon
from gammon import Position, Roll
from gammon.kernels import tracks
from gammon.kernels.cache import refresh_when_changed

NARDY, HITTERS, PINS = 0, 1, 2
#: Counters returned by play_and_check, by name.
CHECKS = (
    "conservation", "bar", "shared point", "six-block", "head rule", "head doubles forced",
    "head limit (position vs kernel)", "bear-off not home", "hide after hit", "bad hit",
    "replay", "score", "unfinished", "pinned moved", "closed landing", "pin row", "mother",
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
def _page_head_limit(board, player, a, b, slots, head, checkers, both, wide):
    """LN-HEAD-DOUBLES and LN-HEAD-WIDE as the page words them: two on a first roll
    (the mover's whole side on the head) of 6-6, 4-4 or 3-3 (the starter's only unless
    ``both``); with ``wide``, two on the second player's first 5-5 or 6-2 after the
    starter's 2-1, 6-2 or 5-5 took one checker to their 21, 16 or 4."""
    if board[player * slots + head] != checkers:
        return 1
    other = (1 - player) * slots
    if a == b and (a == 6 or a == 4 or a == 3) and (both or board[other + head] == checkers):
        return 2
    wide_roll = (a == 5 and b == 5) or (max(a, b) == 6 and min(a, b) == 2)
    if wide and wide_roll and board[other + head] == checkers - 1:
        for s in (head - 3, head - 8, head - 20):
            if board[other + s] == 1:
                return 2
    return 1


@njit(cache=True)
def _hitter_masks(masks, n, work, base, src, dst, hit, home, no_hide, no_off, home_only):
    """The possible sets (bit masks of points) of where hitters stand after one move,
    from the ``n`` possible sets before it; a point's checkers are alike, so one leaving
    a point where a hitter stands with another may be either. Returns how many."""
    out = np.zeros(64, np.int64)
    m = 0
    for i in range(n):
        mask = masks[i]
        choices = np.zeros(2, np.int64)
        c = 0
        if (mask >> src) & 1:
            if work[base + src] >= 2:
                choices[c] = mask  # the cover moves
                c += 1
            hides = no_hide and dst > 0 and work[base + dst] > 0
            if not hides and not (no_off and dst == 0):
                moved = mask & ~(1 << src)
                if dst > 0:
                    moved |= 1 << dst
                choices[c] = moved  # the hitter moves
                c += 1
        else:
            choices[c] = mask
            c += 1
        for k in range(c):
            after = choices[k]
            if hit and (not home_only or dst <= home):
                after |= 1 << dst
            known = False
            for j in range(m):
                if out[j] == after:
                    known = True
            if not known and m < 64:
                out[m] = after
                m += 1
    for i in range(m):
        masks[i] = out[i]
    return m


@njit(cache=True)
def _pin_at(player, s, slots, cross):
    """Where the pin row (after the counts) holds ``player``'s point ``s``: the row is
    numbered as player 0 counts."""
    return 2 * slots + (s if player == 0 else cross[1, s]) - 1


@njit(cache=True)
def _page_mother(board, player, slots, points, cross, wins):
    """PLAKOTO-MOTHER, -MOTHER-WAIT and -MOTHERS-DRAW after ``player``'s play, from the
    page (without ``wins``, TAPA-NO-MOTHER: only the draw): -1 the game goes on, -2 a
    draw, else the winner."""
    other = 1 - player
    theirs = board[other * slots + points] == 1 and \
        board[_pin_at(other, points, slots, cross)] == other + 1
    mine = board[player * slots + points] == 1 and \
        board[_pin_at(player, points, slots, cross)] == player + 1
    if theirs and mine:
        return -2
    if wins and theirs and board[player * slots + points] == 0:
        return player
    return -1


@njit(cache=True)
def play_and_check(games, start, rules, max_turns, plays, words, kind, head, mars, koks, page,
                   fails, seen, trace):
    """Random games as the kernel plays them, checked move by move (``fails`` counts
    each violated invariant, in the order of :data:`CHECKS`); ``head``, ``mars``,
    ``koks`` and ``page`` (no hide, hitter not borne off, home hits only, head doubles
    for both, wide head exception, the six-block rule) come from the rules page, not
    from ``rules``.
    ``seen[0]`` counts first rolls where the wide head exception applied. ``trace``
    receives, as far as it has room, a row per throw: game, player (-1 for the opening
    lot, whose dice are player 0's and player 1's), the dice, the board after the play;
    ``seen[1]`` the rows written. Returns the kernel's rows: winner (-1 unfinished, -2
    drawn), points, plays."""
    no_hide, no_off, home_only = page[0] == 1, page[1] == 1, page[2] == 1
    both, wide, walls = page[3] == 1, page[4] == 1, page[5] == 1
    pinned_holds, mother, draw = page[6] == 1, page[7] == 1, page[8] == 1
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
    masks = np.zeros(64, np.int64)
    n = 0
    for g in range(games):
        board[:] = start
        while True:
            a = np.random.randint(1, 7)
            b = np.random.randint(1, 7)
            if a != b:
                break
        if n < trace.shape[0]:
            trace[n, 0], trace[n, 1], trace[n, 2], trace[n, 3] = g, -1, a, b
            n += 1
        player = 0 if a > b else 1
        starter = player
        if rules[tracks.R_OPENING_PLAYS_LOT] == 0:
            a = np.random.randint(1, 7)
            b = np.random.randint(1, 7)
        turns = 0
        winner = -1
        last_roll = False
        while turns < max_turns:
            limit = tracks.head_limit(board, player, a, b, rules)
            if kind == NARDY:
                by_position = _page_head_limit(board, player, a, b, slots, head, checkers,
                                               both, wide)
                if by_position != limit:
                    fails[6] += 1
                if by_position == 2 and not (a == b and (a == 6 or a == 4 or a == 3)):
                    seen[0] += 1
            count = tracks.generate_plays(board, player, a, b, limit, rules, plays, words)
            row = np.random.randint(0, count)
            # Replay the play's moves one at a time, checking each.
            work[:] = board
            masks[0] = 0
            n_masks = 1
            left_head = 0
            base = player * slots
            other = 1 - player
            landed = 0  # bit s: a move landed on a lone free checker on the mover's s
            for k in range(plays[row, size + 3 * tracks.MAX_DICE]):
                src = plays[row, size + 3 * k]
                dst = plays[row, size + 3 * k + 1]
                hit = plays[row, size + 3 * k + 2]
                if dst == 0:
                    outside = 0
                    for s in range(home + 1, slots):
                        outside += work[base + s]
                    if kind == PINS and pinned_holds:
                        for s in range(1, home + 1):
                            if work[_pin_at(player, s, slots, cross)] == player + 1:
                                outside += 1
                    if outside > 0:
                        fails[7] += 1
                if kind == PINS:
                    if work[_pin_at(player, src, slots, cross)] == player + 1:
                        fails[13] += 1
                    if dst > 0:
                        pin = _pin_at(player, dst, slots, cross)
                        there = work[other * slots + cross[player, dst]]
                        if there >= 2 or (there == 1 and work[pin] == player + 1):
                            fails[14] += 1
                        lone = there == 1 and work[pin] == 0
                        if hit and not lone:
                            fails[9] += 1
                        if lone:
                            work[pin] = other + 1
                            landed |= 1 << dst
                    work[base + src] -= 1
                    work[base + dst] += 1
                    if work[base + src] == 0 and work[_pin_at(player, src, slots, cross)] != 0:
                        work[_pin_at(player, src, slots, cross)] = 0
                    for s in range(1, points + 1):
                        mine = work[base + s]
                        theirs = work[other * slots + cross[player, s]]
                        pin = work[_pin_at(player, s, slots, cross)]
                        if mine > 0 and theirs > 0:
                            if not ((pin == player + 1 and mine == 1)
                                    or (pin == other + 1 and theirs == 1)):
                                fails[15] += 1
                        elif pin != 0:
                            fails[15] += 1
                    continue
                if src == head and head > 0:
                    left_head += 1
                if kind == HITTERS and n_masks > 0:
                    n_masks = _hitter_masks(masks, n_masks, work, base, src, dst, hit == 1,
                                            home, no_hide, no_off, home_only)
                    if n_masks == 0:
                        fails[8] += 1
                work[base + src] -= 1
                work[base + dst] += 1
                if hit:
                    there = other * slots + cross[player, dst]
                    if kind == NARDY or work[there] != 1:
                        fails[9] += 1
                    work[there] -= 1
                    work[other * slots + points + 1] += 1
                if kind == NARDY:
                    for s in range(1, points + 1):
                        if work[base + s] > 0 and work[other * slots + cross[player, s]] > 0:
                            fails[2] += 1
                    if walls and _six_block_broken(work, player, slots, points,
                                                   cross[player]):
                        fails[3] += 1
            for i in range(size):
                if work[i] != plays[row, i]:
                    fails[10] += 1
                    break
            if kind == PINS:
                # A landing is marked as a pin exactly where the pin stays (PLAKOTO-PASSING).
                starred = 0
                for k in range(plays[row, size + 3 * tracks.MAX_DICE]):
                    if plays[row, size + 3 * k + 2] == 1:
                        starred |= 1 << plays[row, size + 3 * k + 1]
                for s in range(1, points + 1):
                    if (landed >> s) & 1 and (
                        (work[_pin_at(player, s, slots, cross)] == other + 1)
                        != ((starred >> s) & 1 == 1)
                    ):
                        fails[9] += 1
            if kind == NARDY:
                if left_head > limit:
                    fails[4] += 1
                if limit == 2 and a == b and (a == 6 or a == 4 or a == 3) and left_head != 2:
                    fails[5] += 1
            board[:] = plays[row, :size]
            if n < trace.shape[0]:
                trace[n, 0], trace[n, 1], trace[n, 2], trace[n, 3] = g, player, a, b
                trace[n, 4:] = board
                n += 1
            for p in range(2):
                total = 0
                for s in range(slots):
                    total += board[p * slots + s]
                if total != checkers:
                    fails[0] += 1
                if kind != HITTERS and board[p * slots + points + 1] != 0:
                    fails[1] += 1
            turns += 1
            if kind == PINS and (mother or draw):
                ended = _page_mother(board, player, slots, points, cross, mother)
                page_end = ended if ended != -1 else (
                    player if board[player * slots] == checkers else -1)
                if page_end != tracks.turn_end(board, player, starter, False, rules)[0]:
                    fails[16] += 1
                if ended != -1:
                    winner = ended
                    break
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
    seen[1] = n
    return out


VARIANTS = {
    "backgammon": ("backgammon", {}, HITTERS),
    "nackgammon": ("nackgammon", {}, HITTERS),
    "hypergammon-1": ("hypergammon", {"checkers_per_side": 1}, HITTERS),
    "hypergammon-2": ("hypergammon", {"checkers_per_side": 2}, HITTERS),
    "hypergammon-3": ("hypergammon", {"checkers_per_side": 3}, HITTERS),
    "long-nardy": ("long-nardy", {}, NARDY),
    "long-nardy-options": (
        "long-nardy", {"head_doubles_both": False, "koks": True, "last_roll": True}, NARDY
    ),
    "long-nardy-oin": ("long-nardy", {"mars": False}, NARDY),
    "long-nardy-wide": ("long-nardy", {"wide_head_exception": True}, NARDY),
    "fevga": ("fevga", {}, NARDY),
    "moultezim": ("moultezim", {}, NARDY),
    "moultezim-six-block": ("moultezim", {"six_block": True, "double_game": True}, NARDY),
    "short": ("short", {}, HITTERS),
    "short-koks": ("short", {"koks": True, "no_bear_off_hitter": False}, HITTERS),
    "caucasian": ("caucasian", {}, HITTERS),
    "caucasian-home-only": (
        "caucasian", {"no_hide_home_only": True, "no_bear_off_hitter": True}, HITTERS
    ),
    "portes": ("portes", {}, HITTERS),
    "tavla": ("tavla", {}, HITTERS),
    "plakoto": ("plakoto", {}, PINS),
    "plakoto-options": (
        "plakoto", {"pinned_holds_bear_off": False, "reroll_opening": False}, PINS),
    "tapa": ("tapa", {}, PINS),
}


def page_flags(rules) -> np.ndarray:
    """The rules page's options of ``rules`` for :func:`play_and_check`."""
    return np.array([
        rules.after_hit.no_hide, rules.after_hit.no_bear_off, rules.after_hit.home_only,
        rules.head.doubles_both, bool(rules.head.wide_rolls),
        rules.blocking.six_block, rules.contact.pinned_holds_bear_off,
        rules.contact.mother == "wins", rules.contact.mother != "none",
    ], np.int64)


def run_checked(
    key: str, games: int, seed: int, trace_rows: int = 0
) -> tuple[np.ndarray, dict[str, int], np.ndarray]:
    name, options, kind = VARIANTS[key]
    rules = gammon.variant(name, **options)
    plays, words = tracks.workspace(rules.players, rules.slots, rules.kernel.pins)
    begin = rules.start_position()
    start = np.frombuffer(begin.board + begin.pins, np.int8).copy()
    fails = np.zeros(len(CHECKS), np.int64)
    seen = np.zeros(2, np.int64)
    trace = np.zeros((trace_rows, 4 + len(start)), np.int64)
    tracks.seed_kernels(seed)
    rows = play_and_check(
        games, start, rules.kernel.rules, 10000, plays, words, kind, rules.head.slot,
        rules.ending.gammons, rules.ending.backgammons, page_flags(rules), fails, seen, trace,
    )
    result = dict(zip(CHECKS, fails.tolist(), strict=True))
    return rows, result | {"wide head exceptions": int(seen[0])}, trace[: seen[1]]


def check_variant(key: str, games: int, seed: int) -> np.ndarray:
    rows, fails, _ = run_checked(key, games, seed)
    wide = fails.pop("wide head exceptions")
    assert not any(fails.values()), {k: v for k, v in fails.items() if v}
    if key == "long-nardy-wide":
        assert wide > 0  # the option was exercised
    name, options, _ = VARIANTS[key]
    rules = gammon.variant(name, **options)
    # The same games through the variant's own playouts: identical rows.
    again = rules.random_playouts(games, seed)
    assert np.array_equal(rows, again)
    return rows


#: The option sets checked on 1,000 games in make test: one of each kind of game and the
#: options that change the most (every set gets 10,000 games in make long).
QUICK = {"backgammon", "hypergammon-1", "caucasian-home-only", "tavla", "long-nardy-wide",
         "moultezim-six-block", "plakoto-options"}


@pytest.mark.parametrize("key", [key if key in QUICK else pytest.param(
    key, marks=pytest.mark.slow) for key in VARIANTS])
def test_invariants_1000_games(key):
    rows = check_variant(key, 1000, seed=2024)
    assert (rows[:, 0] != -1).all()


@pytest.mark.slow
@pytest.mark.parametrize("key", list(VARIANTS))
def test_invariants_10000_games(key):
    rows = check_variant(key, 10_000, seed=7)
    assert (rows[:, 0] != -1).all()


@pytest.mark.parametrize("key", list(VARIANTS))
def test_kernel_games_replay_through_the_python_rules(key):
    """The compiled games, replayed through the rules object's states: every throw and
    play is legal there (head limit, hitter rules), and each game ends where and as the
    kernel says (the last roll, the score)."""
    replay_kernel_games(key, 40, seed=11)


def replay_kernel_games(key: str, games: int, seed: int) -> None:
    """:func:`test_kernel_games_replay_through_the_python_rules` on ``games`` games."""
    rows, _, trace = run_checked(key, games, seed=seed, trace_rows=games * 400)
    name, options, _ = VARIANTS[key]
    rules = gammon.variant(name, **options)
    assert len(trace) < games * 400  # every game traced whole
    state = None
    for row in trace:
        g, player, a, b = (int(x) for x in row[:4])
        if player == -1:
            if state is not None:
                assert state.is_terminal
                assert _result(state) == tuple(rows[g - 1, :2])
            state = rules.initial_state().apply(Roll((a, b), opening=True))
            continue
        if state.is_chance:
            state = state.apply(Roll((a, b)))
        assert state.current_player == player and state.dice == (max(a, b), min(a, b))
        legal = state.legal_actions()
        board = row[4:].astype(np.int8).tobytes()
        counts = 2 * rules.slots  # then the pin row, in the games that pin
        index = legal.index_of(Position(board[:counts], 2, player))
        assert index is not None, (key, g)
        assert legal[index].result.pins == board[counts:], (key, g)
        state = state.apply(legal[index])
    assert state is not None and state.is_terminal
    assert _result(state) == tuple(rows[games - 1, :2])


def _result(state) -> tuple[int, int]:
    """(winner or -2 for a draw, points) of a finished game, as the kernel's rows."""
    returns = state.returns()
    if max(returns) == 0:
        return (-2, 0)
    winner = returns.index(max(returns))
    return (winner, int(returns[winner]))


def test_scores_take_the_values_the_rules_page_gives():
    rows = check_variant("long-nardy", 500, seed=99)
    assert set(np.unique(rows[:, 1])) == {1, 2}  # oin and mars both occur
    rows = check_variant("long-nardy-oin", 200, seed=99)
    assert set(np.unique(rows[:, 1])) == {1}
    rows = check_variant("long-nardy-options", 500, seed=99)
    drawn = rows[:, 0] == -2
    assert drawn.any() and (rows[drawn, 1] == 0).all()
    assert set(np.unique(rows[~drawn, 1])) <= {1, 2, 3}


def broken(name: str, kind: int, games: int, options: dict | None = None,
           **fields: int) -> dict[str, int]:
    """Violations counted when the kernel plays ``name`` with some rule fields changed."""
    rules = gammon.variant(name, **(options or {}))
    vector = rules.kernel.rules.copy()
    for field, value in fields.items():
        vector[getattr(tracks, field)] = value
    plays, words = tracks.workspace(rules.players, rules.slots, rules.kernel.pins)
    begin = rules.start_position()
    start = np.frombuffer(begin.board + begin.pins, np.int8).copy()
    fails = np.zeros(len(CHECKS), np.int64)
    tracks.seed_kernels(1)
    play_and_check(games, start, vector, 10000, plays, words, kind, rules.head.slot, True, False,
                   page_flags(rules), fails, np.zeros(2, np.int64),
                   np.zeros((0, 4 + len(start)), np.int64))
    return {k: v for k, v in zip(CHECKS, fails.tolist(), strict=True) if v}


def test_the_checks_catch_broken_rules():
    assert "head limit (position vs kernel)" in broken("long-nardy", NARDY, 300, R_HEAD_DOUBLES=0)
    assert "head limit (position vs kernel)" in broken(
        "long-nardy", NARDY, 1000, {"wide_head_exception": True}, R_HEAD_WIDE_ROLLS=0)
    assert "head rule" in broken("long-nardy", NARDY, 300, R_HEAD=0)
    assert "bear-off not home" in broken("long-nardy", NARDY, 100, R_BEAR_ALL_HOME=0)
    hits = broken("long-nardy", NARDY, 100, R_HITTING=1, R_BLOCK=2)
    assert "bad hit" in hits and "bar" in hits
    assert "hide after hit" in broken("caucasian", HITTERS, 300, R_NO_HIT_AND_HIDE=0)
    assert "hide after hit" in broken("short", HITTERS, 2000, R_NO_HITTER_OFF=0)
    assert "hide after hit" in broken(
        "caucasian", HITTERS, 300, {"no_hide_home_only": True}, R_HITS_HOME_ONLY=0,
        R_NO_HIT_AND_HIDE=0)
    assert "bar" in broken("plakoto", PINS, 50, R_PINS=0, R_HITTING=1)
    assert "bear-off not home" in broken("plakoto", PINS, 300, R_PINNED_HOLDS_OFF=0)
    assert "mother" in broken("plakoto", PINS, 100, R_MOTHER=0)


@pytest.mark.slow
def test_the_six_block_check_catches_a_missing_rule():
    # Random play rarely builds a six-block with nothing ahead: about one game in 400.
    assert "six-block" in broken("long-nardy", NARDY, 5000, R_SIX_BLOCK=0)


# --- Gul bara: its own turns, in their own kernel ------------------------------------------


@pytest.mark.parametrize("options", [{}, {"unplayed": "opponent"}, {"cascade_from": 1}],
                         ids=["lost", "opponent", "from-1"])
def test_gul_bara_compiled_games_keep_the_invariants(options):
    """Gul bara's compiled random games (:mod:`gammon.kernels.gulbara`), checked move by
    move and turn by turn from docs/rules/gul-bara.md, not from the kernel: conservation,
    no bar, no point shared, each move one die of the play's dice from an own checker to
    a point free of the opponent, bearing off only with the whole side home (a larger
    die from the farthest point); the plays' order: the lot's winner throws first,
    turns alternate, a double below 6-6 of a cascading turn played in full (four moves)
    is followed by the next double of the same player, and one not played in full ends
    the turn, or (``unplayed="opponent"``) hands the next double to the other player,
    whose own throw follows their handed-over doubles. Every game ends."""
    from gammon.kernels import gulbara as gk

    rules = gammon.variant("gul-bara", **options)
    games = 300
    rows, trace = rules.traced_playouts(games, seed=12, trace_rows=games * 600)
    assert len(trace) < games * 600 and (rows[:, 0] >= 0).all()
    give = rules.unplayed == "opponent"
    cascades = 0
    board = throws = expect = None
    for row in trace:
        player, high, low = (int(x) for x in row[gk.T_PLAYER:gk.T_MOVES])
        after = row[gk.T_BOARD:]
        if player == -1:  # the lot: a new game
            board = np.frombuffer(rules.start_position().board, np.int8).astype(np.int64)
            throws = [0, 0]
            expect = ("throw", 0 if high > low else 1, None, False)
            continue
        kind, who, dice, given = expect
        assert player == who, row[:4]
        if kind == "throw":
            throws[player] += 1
        else:
            assert (high, low) == dice, row[:4]
            cascades += 1
        moves = int(row[gk.T_MOVES])
        dice_left = [high] * 4 if high == low else [high, low]
        work = board.copy()
        mine = player * 26
        for k in range(moves):
            src, dst, hit = (int(x) for x in row[gk.T_PATH + 3 * k:gk.T_PATH + 3 * k + 3])
            assert hit == 0 and work[mine + src] > 0 and 1 <= src <= 24
            if dst > 0:
                assert src - dst in dice_left
                dice_left.remove(src - dst)
                assert work[(1 - player) * 26 + (dst + 11) % 24 + 1] == 0  # closed
            else:
                assert not work[mine + 7:mine + 26].any()  # all home
                exact = [d for d in dice_left if d == src]
                larger = [d for d in dice_left if d > src
                          and not work[mine + src + 1:mine + 7].any()]
                assert exact or larger, row[:4]
                dice_left.remove(exact[0] if exact else larger[0])
            work[mine + src] -= 1
            work[mine + dst] += 1
        assert np.array_equal(work, after), row[:4]
        for p in (0, 1):
            assert after[p * 26:(p + 1) * 26].sum() == 15 and after[p * 26 + 25] == 0
        for s in range(1, 25):
            assert not (after[s] and after[26 + (s + 11) % 24 + 1])
        board = after.copy()
        if board[mine] == 15:
            expect = None  # the game is over: a lot comes next
            continue
        cascading = high == low and high < 6 and (given or throws[player] >= rules.cascade_from)
        if cascading and moves == 4:
            expect = ("cascade", player, (high + 1, high + 1), given)
        elif cascading and give and not given:
            expect = ("cascade", 1 - player, (high + 1, high + 1), True)
        else:
            expect = ("throw", player if given else 1 - player, None, False)
    assert cascades > 0


# Kernels above inline other modules' code: recompile them when it changes.
refresh_when_changed(globals())
