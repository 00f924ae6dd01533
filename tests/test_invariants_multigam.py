"""Multi-Gam over many random games, and the compiled move generator against an oracle.

- The compiled playouts (:mod:`gammon.kernels.multigam`) play 10,000 seeded games,
  recording every play; numpy checks the invariants on all of them at once: 20 checkers
  conserved, never two players on one point, finished players never move again, ranks a
  permutation, scores 5/3/2/1, every game ends.
- The Python rules (GameState) play 1,000 games with the same checks at every step (and
  10,000 under ``-m slow``).
- A brute-force generator written from the rules page, sharing no code with the kernel,
  gives the same plays as the kernel on positions taken from those games, for every roll
  (with the duty to enter, and without it).
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import gammon
from gammon import Roll
from gammon.core.position import Position
from gammon.kernels import multigam as kernel
from gammon.variants.multigam import SCORES

MG = gammon.variant("multi-gam")
PLAYERS, SLOTS, CHECKERS = 4, 8, 5
ROLLS = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]


@pytest.fixture(scope="module")
def traced_games():
    rows, trace = kernel.traced(10_000, MG.start_position().board, MG.kernel.rules, SCORES, 2024)
    return rows, trace


# --- the compiled playouts -------------------------------------------------------------------


def test_kernel_games_all_end_with_ranks_and_scores(traced_games):
    rows, _ = traced_games
    assert len(rows) == 10_000
    assert (rows[:, kernel.WINNER] >= 0).all()  # every game ended
    first = kernel.FIRST_SCORE
    scores = rows[:, first : first + PLAYERS]
    places = rows[:, first + PLAYERS : first + 2 * PLAYERS]
    assert (np.sort(places, axis=1) == [1, 2, 3, 4]).all()  # ranks are a permutation
    assert (np.sort(scores, axis=1) == [1, 2, 3, 5]).all()  # and score 5/3/2/1
    assert (scores == np.array(SCORES)[places - 1]).all()
    winners = rows[:, kernel.WINNER]
    assert (places[np.arange(len(rows)), winners] == 1).all()
    assert (rows[:, kernel.POINTS] == 5).all()
    assert set(np.unique(rows[:, kernel.STARTER])) == {0, 1, 2, 3}


def test_kernel_invariants_after_every_play(traced_games):
    rows, trace = traced_games
    lengths = rows[:, kernel.PLAYS]
    assert len(trace) == lengths.sum()
    movers = trace[:, 0].astype(np.int64)
    dice = trace[:, 1:3]
    boards = trace[:, 3:].astype(np.int64).reshape(-1, PLAYERS, SLOTS)
    assert ((dice >= 1) & (dice <= 6)).all()
    # 20 checkers, five a player, after every play.
    assert (boards.sum(axis=2) == CHECKERS).all()
    # Never two players on one point.
    assert ((boards[:, :, 1 : SLOTS - 1] > 0).sum(axis=1) <= 1).all()
    # The first play of each game is the split opening: never a double.
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    assert (dice[starts, 0] != dice[starts, 1]).all()
    assert (movers[starts] == rows[:, kernel.STARTER]).all()
    # Finished players never move again: the mover of each play has not finished
    # before it, and a finished row stays as it is to the end of its game.
    game = np.repeat(np.arange(len(rows)), lengths)
    before = np.empty_like(boards)
    before[1:] = boards[:-1]
    before[starts] = np.frombuffer(MG.start_position().board, np.int8).reshape(PLAYERS, SLOTS)
    done_before = before[:, :, 0] == CHECKERS
    assert not done_before[np.arange(len(trace)), movers].any()
    # Only the mover's checkers and hit checkers change: others only gain on the BAR.
    changed = boards != before
    others = np.ones((len(trace), PLAYERS), bool)
    others[np.arange(len(trace)), movers] = False
    lost = (before - boards).clip(min=0)
    assert not (lost[:, :, 0] > 0).any()  # nobody loses a checker borne off
    hit = lost[:, :, 1 : SLOTS - 1].sum(axis=2)
    gained_bar = boards[:, :, SLOTS - 1] - before[:, :, SLOTS - 1]
    assert ((hit == gained_bar) | ~others).all()
    assert not (changed.any(axis=2) & others & (hit == 0)).any()
    # Places follow the order in which players bore their last checker off.
    places = rows[:, kernel.FIRST_SCORE + PLAYERS :]
    finishing = (boards[np.arange(len(trace)), movers, 0] == CHECKERS)
    order = [[] for _ in range(len(rows))]
    for g, mover in zip(game[finishing], movers[finishing], strict=True):
        order[g].append(int(mover))
    for g in range(0, len(rows), 97):
        assert len(order[g]) == 3
        assert [int(places[g, p]) for p in order[g]] == [1, 2, 3]
    # A game ends with the play that finishes the third player.
    ends = np.cumsum(lengths) - 1
    assert finishing[ends].all()


def test_kernel_games_replay_through_the_python_rules(traced_games):
    """The first compiled games, play by play through the rules object's states: each
    traced play is legal there (MG-MUST-ENTER included), turns pass as the kernel passed
    them, and each game ends with the kernel's scores."""
    replay_kernel_games(*traced_games, games=40)


def replay_kernel_games(rows: np.ndarray, trace: np.ndarray, games: int) -> None:
    """The first ``games`` traced compiled games through the rules object's states."""
    start = 0
    for g in range(games):
        length = int(rows[g, kernel.PLAYS])
        game = trace[start : start + length]
        start += length
        first = game[0]
        state = MG.state(MG.start_position().with_turn(int(first[0])),
                         (int(first[1]), int(first[2])))
        for row in game:
            mover, a, b = (int(x) for x in row[:3])
            if state.is_chance:
                state = state.apply(Roll((a, b)))
            assert state.current_player == mover and state.dice == (max(a, b), min(a, b))
            legal = state.legal_actions()
            index = legal.index_of(Position(row[3:].astype(np.int8).tobytes(), PLAYERS,
                                            mover))
            assert index is not None, (g, row)
            state = state.apply(legal[index])
        assert state.is_terminal
        first_score = kernel.FIRST_SCORE
        assert state.returns() == tuple(float(x) for x in
                                        rows[g, first_score : first_score + PLAYERS])


def test_kernel_playouts_follow_the_seed():
    a = MG.random_playouts(300, 9)
    b = MG.random_playouts(300, 9)
    c = MG.random_playouts(300, 10)
    assert (a == b).all() and not (a == c).all()
    # Same stream with and without tracing.
    rows, _ = kernel.traced(300, MG.start_position().board, MG.kernel.rules, SCORES, 9)
    assert (rows == a).all()


def test_kernel_cut_off_games_are_unranked():
    rows = MG.random_playouts(200, 1, max_turns=10)
    assert (rows[:, kernel.WINNER] == -1).all() and (rows[:, kernel.PLAYS] == 10).all()
    assert (rows[:, kernel.FIRST_SCORE :] == 0).all()


# --- the Python rules ----------------------------------------------------------------------


def _check_python_games(games: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(games):
        state = MG.initial_state()
        finished: list[int] = []
        plays = 0
        while not state.is_terminal:
            if state.is_chance:
                state = state.apply(state.sample_chance(rng))
                continue
            mover = state.current_player
            assert mover not in finished
            legal = state.legal_actions()
            frozen = {p: state.position.row(p) for p in finished}
            state = state.apply(legal[rng.randrange(len(legal))])
            plays += 1
            position = state.position
            assert sum(position.board) == PLAYERS * CHECKERS
            assert all(sum(position.row(p)) == CHECKERS for p in range(PLAYERS))
            for slot in range(1, SLOTS - 1):
                assert sum(1 for p in range(PLAYERS) if position.count(p, slot)) <= 1
            assert all(position.row(p) == row for p, row in frozen.items())
            if position.off(mover) == CHECKERS and mover not in finished:
                finished.append(mover)
            assert list(state.memo.ranking[: len(finished)]) == finished[: len(
                state.memo.ranking)]
            assert plays < 1000
        ranking = state.memo.ranking
        assert sorted(ranking) == [0, 1, 2, 3] and list(ranking[:3]) == finished
        assert sorted(state.returns()) == [1.0, 2.0, 3.0, 5.0]


def test_python_games_keep_the_invariants():
    _check_python_games(1_000, 7)


@pytest.mark.slow
def test_python_games_keep_the_invariants_10000():
    _check_python_games(10_000, 8)


# --- the oracle --------------------------------------------------------------------------------


def _oracle(counts: list[list[int]], player: int, dice: tuple[int, int],
            must_enter: bool = True) -> set[tuple]:
    """Every legal result, by the rules page alone. ``counts[p][n]`` is how many of
    player ``p``'s checkers are on board number ``n`` (0 = BAR, 1-6 = points, 7 = OFF).
    ``must_enter``: MG-MUST-ENTER, among the plays the dice rules keep."""

    def move(board, n, die):
        mine = board[player]
        if mine[n] == 0 or n == 7:
            return None
        target = n + die
        if target > 7:
            # Overshoot: only with no checker further back (a lower point or the BAR).
            if any(mine[k] for k in range(n)):
                return None
            target = 7
        new = [list(row) for row in board]
        if target < 7:
            for q in range(PLAYERS):
                if q != player and new[q][target] >= 2:
                    return None  # a prime
            for q in range(PLAYERS):
                if q != player and new[q][target] == 1:
                    new[q][target] = 0
                    new[q][0] += 1  # hit: to its owner's BAR
        new[player][n] -= 1
        new[player][target] += 1
        return tuple(tuple(row) for row in new)

    start = tuple(tuple(row) for row in counts)
    high, low = max(dice), min(dice)
    orders = [(high,) * 4] if high == low else [(high, low), (low, high)]
    ends: list[tuple[tuple, int, bool]] = []  # (board, dice used, began with high)
    for order in orders:
        stack = [(start, 0)]
        while stack:
            board, used = stack.pop()
            nexts = [] if used == len(order) else [
                after for n in range(8) if (after := move(board, n, order[used])) is not None
            ]
            if not nexts:
                ends.append((board, used, used > 0 and order[0] == high))
            stack.extend((after, used + 1) for after in nexts)
    best = max(used for _, used, _ in ends)
    kept = [(board, began) for board, used, began in ends if used == best]
    if best == 1 and high != low and any(began for _, began in kept):
        kept = [(board, began) for board, began in kept if began]
    results = {board for board, _ in kept}
    entering = {board for board in results if board[player][0] < start[player][0]}
    if must_enter and entering:
        return entering
    return results


def _counts(position: Position) -> list[list[int]]:
    return [[position.count(p, 7 - n) for n in range(8)] for p in range(PLAYERS)]


def test_kernel_matches_the_oracle(traced_games):
    _, trace = traced_games
    rng = np.random.default_rng(5)
    picks = rng.choice(len(trace) - 1, size=150, replace=False)
    positions = [MG.start_position()]
    for i in picks:
        board = trace[i, 3:].astype(np.int8).tobytes()
        after_mover = int(trace[i + 1, 0])
        position = Position(board, PLAYERS, after_mover)
        if len(MG.finished(position)) < 3 and after_mover not in MG.finished(position):
            positions.append(position)
    compared = 0
    for position in positions:
        counts = _counts(position)
        for roll in ROLLS:
            state = MG.state(position, roll)
            got = {tuple(map(tuple, _counts(p.result))) for p in state.legal_actions()}
            assert got == _oracle(counts, position.turn, roll), (position, roll)
            compared += 1
    assert compared > 2500


@pytest.mark.parametrize("must_enter", [True, False])
@pytest.mark.parametrize("roll", [(6, 1), (5, 5), (3, 2)])
def test_kernel_matches_the_oracle_on_crowded_boards(roll, must_enter):
    rules = gammon.variant("multi-gam", must_enter=must_enter)
    rng = random.Random(sum(roll))
    checked = 0
    while checked < 200:
        # Random boards: each player's checkers anywhere, a point to one owner.
        rows = [[0] * 8 for _ in range(PLAYERS)]
        owner = {}
        for p, _ in itertools.product(range(PLAYERS), range(CHECKERS)):
            n = rng.choice([0, 0, 1, 2, 3, 4, 5, 6, 7])
            if 1 <= n <= 6 and owner.setdefault(n, p) != p:
                n = 0
            rows[p][n] += 1
        position = Position.from_checkers([[row[7 - s] for s in range(8)] for row in rows],
                                          rng.randrange(PLAYERS))
        if len(MG.finished(position)) >= 3 or position.turn in MG.finished(position):
            continue
        state = rules.state(position, roll)
        got = {tuple(map(tuple, _counts(p.result))) for p in state.legal_actions()}
        assert got == _oracle(rows, position.turn, roll, must_enter)
        checked += 1
