"""The compiled move generator agrees with the brute-force oracle (:mod:`oracle`).

For every position and roll checked here, the kernel's legal plays
(``variant.state(position, dice).legal_actions()``) must be exactly the oracle's set of
resulting boards, each board listed once, and every play's moves, replayed one die at a
time by the oracle's rules from the start position, must be legal, hit exactly when they
say they hit, use as many dice as the roll allows and lead to the play's result.

Positions come from three places: hand-made positions for the rules that are easy to get
wrong (each with its answer worked out by hand, so the oracle is checked too), positions
from seeded random games of backgammon, nackgammon and hypergammon with 1, 2 and 3
checkers (all 21 rolls on each; the oracle's answers to them are stored in
tests/data/answers, see :mod:`answers`, and asked afresh in ``make long``), and
hypothesis-generated positions with checkers on the bar, bear-offs, closed boards and
contact in the home board.

Run: ``.venv/bin/pytest tests/test_movegen_oracle.py``.
"""

from __future__ import annotations

import answers
import oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gammon
from gammon.core.dice import two_dice

ROLLS = [roll.dice for roll, _ in two_dice()]
BAR = 25

#: Positions from random games per variant (each checked with all 21 rolls).
GAME_SAMPLES = {
    "backgammon": 1000,
    "nackgammon": 300,
    "hypergammon-1": 150,
    "hypergammon-2": 300,
    "hypergammon-3": 400,
}


def describe(position) -> str:
    return (
        f"Position.from_checkers([{list(position.row(0))}, {list(position.row(1))}], "
        f"turn={position.turn})"
    )


def rows_of(board: bytes) -> str:
    half = len(board) // 2
    return f"{list(board[:half])} | {list(board[half:])}"


def replays(position, dice: tuple[int, int], play) -> bool:
    """Whether ``play.moves`` can be played with the dice, in some order, to ``play.result``."""
    def play_on(board, moves, dice_left: list[int]) -> bool:
        if not moves:
            return oracle.engine_bytes(board, position.turn) == play.result.board
        move = moves[0]
        for die in set(dice_left):
            # A move onto a point says its die; only bearing off may take a larger one.
            if move.destination != oracle.OFF and move.source - move.destination != die:
                continue
            step = oracle.single_move(board, move.source, die)
            if step is not None and step[1:] == (move.destination, move.hit):
                rest = list(dice_left)
                rest.remove(die)
                if play_on(step[0], moves[1:], rest):
                    return True
        return False

    return play_on(oracle.board_of(position), play.moves,
                   [dice[0]] * 4 if dice[0] == dice[1] else list(dice))


def check(variant, position, dice: tuple[int, int]) -> None:
    """The kernel's plays for ``dice`` in ``position`` are the oracle's, and replay."""
    plays = list(variant.state(position, dice).legal_actions())
    where = f"{variant.name} {describe(position)} dice {dice[0]}-{dice[1]}"
    results = [play.result.board for play in plays]
    assert len(results) == len(set(results)), f"{where}: a resulting board is listed twice"
    expected, used = oracle.solve(position, dice)
    got = set(results)
    if got != expected:
        missing = "\n  ".join(rows_of(b) for b in sorted(expected - got))
        extra = "\n  ".join(rows_of(b) for b in sorted(got - expected))
        pytest.fail(
            f"{where}: kernel has {len(got)} plays, oracle {len(expected)}\n"
            f" missing:\n  {missing}\n extra:\n  {extra}"
        )
    for play in plays:
        assert play.result.turn == position.turn
        assert len(play.moves) == used, f"{where}: {play.moves} should use {used} dice"
        assert replays(position, dice, play), f"{where}: {play.moves} does not replay"


# --- Hand-made positions -----------------------------------------------------------------


def make(mine: dict[int, int], theirs: dict[int, int], checkers: int = 15) -> gammon.Position:
    """Player 0 (``mine``) to move; each side's checkers not placed are off."""
    rows = []
    for layout in (mine, theirs):
        row = [0] * 26
        for slot, count in layout.items():
            row[slot] += count
        row[0] += checkers - sum(row)
        rows.append(row)
    return gammon.Position.from_checkers(rows, turn=0)


def after(mine: dict[int, int], theirs: dict[int, int], checkers: int = 15) -> bytes:
    return make(mine, theirs, checkers).board


def kernel_results(position, dice, name: str = "backgammon") -> set[bytes]:
    variant = gammon.variant(name)
    check(variant, position, dice)
    return {play.result.board for play in variant.state(position, dice).legal_actions()}


def test_only_one_die_playable_takes_the_larger():
    # 20/14 or 20/15, but the 9 point (their 16) is closed: 14/9 and 15/9 are blocked, and
    # the checkers on the 1 point cannot bear off. Either die alone: the 6 must be played.
    start = make({20: 1, 1: 14}, {16: 2})
    assert kernel_results(start, (6, 5)) == {after({14: 1, 1: 14}, {16: 2})}
    assert oracle.legal_results(start, (6, 5)) == {after({14: 1, 1: 14}, {16: 2})}


def test_only_the_smaller_die_playable_is_played():
    # As above with the 14 point (their 11) closed too: the 6 cannot move, so the 5 must.
    start = make({20: 1, 1: 14}, {16: 2, 11: 2})
    assert kernel_results(start, (6, 5)) == {after({15: 1, 1: 14}, {16: 2, 11: 2})}


def test_larger_die_bears_off_only_from_the_highest_point():
    # 6-1 from the 5 and 2 points: 5/off 2/1, or 5/4 4/off. Never 2/off with the 6.
    start = make({5: 1, 2: 1}, {6: 2})
    assert kernel_results(start, (6, 1)) == {after({1: 1}, {6: 2}), after({2: 1}, {6: 2})}
    # 6-5 from the 3 and 2 points: both off.
    assert kernel_results(make({3: 1, 2: 1}, {6: 2}), (6, 5)) == {after({}, {6: 2})}


def test_no_bear_off_while_a_checker_is_outside():
    # 6-6: the 1 point cannot bear off until the 8 has come home; then 2/off must come
    # before 1/off (the highest point first): 8/2/off 1/off(2) is the only play.
    start = make({8: 1, 1: 14}, {6: 2})
    assert kernel_results(start, (6, 6)) == {after({1: 12}, {6: 2})}


def test_double_partially_played():
    # 4-4 from the bar: their home is closed but for their 4 point (our 21), our 13 point
    # (their 12) is closed: bar/21/17 and nothing else moves. Two of the four dice.
    theirs = {1: 2, 2: 2, 3: 2, 5: 2, 6: 2, 12: 2}
    start = make({25: 1, 1: 14}, theirs)
    assert kernel_results(start, (4, 4)) == {after({17: 1, 1: 14}, theirs)}
    assert oracle.most_dice(start, (4, 4)) == 2


def test_entering_with_closed_points():
    # Two on the bar, their 1-5 points closed: the 6 enters, the 5 cannot be played.
    theirs = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2}
    start = make({25: 2, 6: 13}, theirs)
    assert kernel_results(start, (6, 5)) == {after({25: 1, 19: 1, 6: 13}, theirs)}
    # A closed board: no legal move, one empty play leaving the board as it was.
    closed = {**theirs, 6: 2}
    start = make({25: 2, 6: 13}, closed)
    for dice in ROLLS:
        assert kernel_results(start, dice) == {start.board}
    # One on the bar, only the 6 enters, then the 5 moves on: bar/19/14 or bar/19 6/1.
    start = make({25: 1, 6: 14}, theirs)
    assert kernel_results(start, (6, 5)) == {
        after({14: 1, 6: 14}, theirs),
        after({19: 1, 6: 13, 1: 1}, theirs),
    }


def test_hit_and_continue_with_the_same_checker():
    # A blot on our 10 point (their 15): 13/10*/8 hits on the way, 13/11/8 does not.
    start = make({13: 1, 6: 14}, {15: 1, 24: 2})
    results = kernel_results(start, (3, 2))
    hit = after({8: 1, 6: 14}, {25: 1, 24: 2})
    assert hit in results
    assert after({8: 1, 6: 14}, {15: 1, 24: 2}) in results
    play = next(
        p
        for p in gammon.variant("backgammon").state(start, (3, 2)).legal_actions()
        if p.result.board == hit
    )
    assert [m.hit for m in play.moves] == [True, False]
    assert [(m.source, m.destination) for m in play.moves] == [(13, 10), (10, 8)]


def test_last_checker_off_before_the_dice_are_used():
    start = make({2: 1}, {6: 2})
    done = after({}, {6: 2})
    for dice in ROLLS:
        assert kernel_results(start, dice) == {done}
    state = gammon.variant("backgammon").state(start, (6, 6))
    assert [len(play) for play in state.legal_actions()] == [1]
    state = gammon.variant("backgammon").state(start, (1, 1))
    assert [len(play) for play in state.legal_actions()] == [2]  # 2/1/off
    # 5-2 from the 4 point: 4/off with the 5 uses one die, 4/2/off uses both.
    state = gammon.variant("backgammon").state(make({4: 1}, {6: 2}), (5, 2))
    assert [len(play) for play in state.legal_actions()] == [2]


def test_hit_then_bear_off_in_hypergammon():
    # One checker each, theirs a blot on our 2 point (their 23): 3/2*/off or 3/1/off.
    start = make({3: 1}, {23: 1}, checkers=1)
    assert kernel_results(start, (2, 1), "hypergammon-1") == {
        after({}, {23: 1}, checkers=1),
        after({}, {25: 1}, checkers=1),
    }


# --- Positions from random games ---------------------------------------------------------


def engine_plays(variant, replayed: set):
    """The engine's plays as the stored answers hold them: each play's board and the
    dice it uses, after checking, in the positions ``replayed``, that its moves replay by
    the oracle's rules."""
    def plays(position, dice):
        found = list(variant.state(position, dice).legal_actions())
        for play in found:
            assert play.result.turn == position.turn
            assert position not in replayed or replays(position, dice, play), (
                f"{position!r} {dice}: {play.moves} does not replay")
        return [(play.result.board, len(play.moves)) for play in found]
    return plays


def oracle_plays(position, dice):
    expected, used = oracle.solve(position, dice)
    return {(board, used) for board in expected}


@answers.AFRESH
@pytest.mark.parametrize("name", GAME_SAMPLES)
def test_random_game_positions(name, afresh):
    """Positions of seeded random games, every roll, against the oracle's answers
    (stored; asked afresh in make long)."""
    variant = gammon.variant(name)
    # Replaying every play's moves costs more than finding them: 250 positions of each
    # variant in make test, all of them in make long.
    replayed = {p for p, _ in answers.stored(f"movegen-{name}")[:None if afresh else 250]}
    positions = answers.check(
        f"movegen-{name}", engine_plays(variant, replayed),
        answers.each_position(oracle_plays),
        afresh=afresh, about=f"{name}: {GAME_SAMPLES[name]} positions of random games "
        "(seed 20240611) against tests/oracle.py",
        questions=lambda: oracle.random_game_positions(
            variant, GAME_SAMPLES[name], seed=20240611))
    assert len(positions) == GAME_SAMPLES[name]
    if variant.checkers > 1:
        assert any(oracle.on_bar(p) for p in positions)
    assert any(oracle.bearing_off(p) for p in positions)


# --- Hypothesis-generated positions ------------------------------------------------------


def conflicts(row: list[int], point: int) -> bool:
    """Whether the other side's ``point`` (in its own numbering) is taken in ``row``."""
    return 1 <= point <= 24 and row[25 - point] > 0


@st.composite
def positions(draw, checkers: int):
    """A legal-looking position: the sides never share a point, someone still to move."""
    kind = draw(st.sampled_from(["any", "bar", "closed", "bearoff"]))
    mine = [0] * 26
    theirs = [0] * 26
    # Their made points in their home board (our 19..24).
    held = []
    if kind == "closed" and checkers >= 2:
        held = draw(st.lists(st.integers(1, 6), unique=True, max_size=min(6, checkers // 2)))
        for point in held:
            theirs[point] = 2
    spare = checkers - 2 * len(held)
    # Ours: some on the bar, some off, the rest on a few points.
    most_on_bar = min(4, checkers) if kind in ("bar", "closed") else 0
    mine[BAR] = draw(st.integers(1 if most_on_bar else 0, most_on_bar))
    mine[0] = draw(st.integers(0, checkers - mine[BAR] - (0 if mine[BAR] else 1)))
    ours = [p for p in range(1, 7 if kind == "bearoff" else 25) if not conflicts(theirs, p)]
    ours = draw(st.lists(st.sampled_from(ours), min_size=1, max_size=6, unique=True))
    for _ in range(checkers - mine[BAR] - mine[0]):
        mine[draw(st.sampled_from(ours))] += 1
    # Theirs: the rest, at least one still on the board.
    theirs[BAR] = draw(st.integers(0, min(2, spare)))
    theirs[0] = draw(st.integers(0, max(0, spare - theirs[BAR] - (0 if held else 1))))
    free = [p for p in range(1, 25) if not conflicts(mine, p)]
    spots = draw(st.lists(st.sampled_from(free), min_size=1, max_size=8, unique=True))
    for _ in range(spare - theirs[BAR] - theirs[0]):
        theirs[draw(st.sampled_from(spots))] += 1
    turn = draw(st.integers(0, 1))
    rows = [mine, theirs] if turn == 0 else [theirs, mine]
    return gammon.Position.from_checkers(rows, turn=turn)


@pytest.mark.parametrize(
    ("name", "examples"),
    [
        ("backgammon", 200),
        pytest.param("backgammon", 600, marks=pytest.mark.slow),
        ("nackgammon", 100),
        ("hypergammon-1", 100),
        ("hypergammon-2", 150),
        ("hypergammon-3", 200),
    ],
)
def test_generated_positions(name, examples):
    variant = gammon.variant(name)

    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(position=positions(variant.checkers))
    def run(position):
        for dice in ROLLS:
            check(variant, position, dice)

    run()
