"""One test per rule of docs/rules/backgammon.md, named after the rule's label."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from layouts import position

import gammon
from gammon import Phase, Play, Position, Roll
from gammon.core.errors import IllegalOutcomeError

BG = gammon.variant("backgammon")


def outcomes(pos: Position, dice: tuple[int, int]) -> set[tuple]:
    """Each legal play as (mover's layout, opponent's bar count)."""
    state = BG.state(pos, dice)
    mover, other = pos.turn, 1 - pos.turn
    found = set()
    for play in state.legal_actions():
        row = play.result.row(mover)
        layout = tuple((slot, n) for slot, n in enumerate(row) if n and slot > 0)
        found.add((layout, play.result.bar(other)))
    return found


def layout(**points: int) -> tuple:
    """Layout tuple from keyword form p24=2, bar=1 (off omitted)."""
    slots = {}
    for key, n in points.items():
        slots[25 if key == "bar" else int(key[1:])] = n
    return tuple(sorted(slots.items()))


def test_bg_board_numbering_is_mirrored():
    for slot in range(1, 25):
        assert BG.shared_slot(0, slot, 1) == 25 - slot


def test_bg_start():
    start = BG.start_position()
    for player in (0, 1):
        row = start.row(player)
        assert {s: n for s, n in enumerate(row) if n} == {24: 2, 13: 5, 8: 3, 6: 5}
        assert start.pips(player) == 167


def test_bg_opening_ties_rethrown_and_higher_die_starts():
    state = BG.initial_state()
    outcomes_ = state.chance_outcomes()
    # Equal dice are thrown again, so the outcomes are the 30 unequal throws.
    assert len(outcomes_) == 30 and sum(p for _, p in outcomes_) == 1
    assert all(p == Fraction(1, 30) for _, p in outcomes_)
    assert all(r.dice[0] != r.dice[1] for r, _ in outcomes_)
    with pytest.raises(IllegalOutcomeError, match="thrown again"):
        state.apply(Roll((4, 4), opening=True))
    for bad in (Roll((0, 3), opening=True), Roll((3, 1, 2), opening=True), Roll((7, 1),
                opening=True), Roll((3, 1))):
        with pytest.raises(IllegalOutcomeError):
            state.apply(bad)
    after = state.apply(Roll((2, 5), opening=True))
    assert after.phase is Phase.DECIDE
    assert after.current_player == 1 and after.dice == (5, 2)


def test_bg_turns_alternate_with_two_dice():
    state = BG.initial_state().apply(Roll((6, 1), opening=True))
    state = state.apply(state.legal_actions()[0])
    assert state.phase is Phase.CHANCE and state.position.turn == 1
    outcomes_ = state.chance_outcomes()
    assert len(outcomes_) == 21 and sum(p for _, p in outcomes_) == 1
    assert dict((r.dice, p) for r, p in outcomes_)[(6, 5)] == Fraction(2, 36)
    assert dict((r.dice, p) for r, p in outcomes_)[(3, 3)] == Fraction(1, 36)
    rolled = state.apply(Roll((6, 5)))
    assert rolled.current_player == 1 and rolled.dice == (6, 5)
    for bad in (Roll((6, 0)), Roll((6,)), Roll((6, 5, 4)), Roll((6, 5), opening=True), 30):
        with pytest.raises(IllegalOutcomeError):
            state.apply(bad)


def test_bg_move_one_checker_may_take_both_dice():
    found = outcomes(position({24: 1}, {6: 15}), (2, 1))
    assert found == {(layout(p21=1), 0)}


def test_bg_doubles_play_four_times():
    found = outcomes(position({24: 1, 13: 1}, {6: 15}), (2, 2))
    # Four moves of 2 between the two checkers: 24 moves k times, 13 moves 4-k times.
    assert {f[0] for f in found} == {
        tuple(sorted({24 - 2 * k: 1, 13 - 2 * (4 - k): 1}.items())) for k in range(5)
    }


def test_bg_one_play_deduplicated_by_result():
    state = BG.state(BG.start_position(), (3, 1))
    results = [play.result for play in state.legal_actions()]
    assert len(results) == len(set(results)) == 16


def test_bg_blocked_point_cannot_be_landed_on():
    # 24-point checker, the opponent holds our 18-point (their 7): a 6 cannot move it.
    found = outcomes(position({24: 1, 2: 1}, {7: 2, 1: 13}), (6, 6))
    assert all(dict(f[0]).get(18, 0) == 0 for f in found)
    # The 2-point checker cannot bear off (the 24 is not home) and the 24 is stuck.
    assert found == {(layout(p24=1, p2=1), 0)}


def test_bg_hit_sends_blot_to_bar_and_may_continue():
    # Opponent blot on our 20 (their 5).
    found = outcomes(position({24: 1}, {5: 1, 1: 14}), (4, 2))
    assert (layout(p18=1), 1) in found  # 24/20*/18
    assert (layout(p18=1), 0) in found  # 24/22/18 passes without hitting


def test_bg_enter_on_opponents_home_board():
    found = outcomes(position({25: 1, 13: 1}, {6: 2, 5: 13}), (5, 5))
    # Our 20 is their 5, closed; a 5 cannot enter, so nothing moves.
    assert found == {(layout(bar=1, p13=1), 0)}
    found = outcomes(position({25: 1}, {1: 15}), (3, 1))
    assert layout(p21=1) in {f[0] for f in found}  # bar/22/21 or bar/24/21


def test_bg_enter_first():
    found = outcomes(position({25: 1, 13: 1}, {1: 15}), (6, 5))
    # Entering first is forced; only then may the 13 move.
    for mover, _ in found:
        assert dict(mover).get(25, 0) == 0
    assert (layout(p19=1, p8=1)) in {f[0] for f in found}
    assert (layout(p20=1, p7=1)) in {f[0] for f in found}
    # With two on the bar and one entry possible, nothing else moves.
    found = outcomes(position({25: 2, 13: 1}, {6: 2, 1: 13}), (6, 5))
    assert found == {(layout(bar=1, p20=1, p13=1), 0)}


def test_bg_bearoff_home_required():
    found = outcomes(position({7: 1, 3: 1}, {1: 15}), (6, 3))
    # 3/off first is illegal while the 7 is out: the 7 must come home first.
    assert found == {(layout(p1=1), 0), (layout(p3=1), 0)}


def test_bg_bearoff_exact():
    found = outcomes(position({6: 1, 3: 1}, {1: 15}), (6, 3))
    # 6/off 3/off uses each die exactly (the 3 cannot be a larger die: the 6 is higher).
    assert found == {((), 0), (layout(p3=1), 0)}


def test_bg_bearoff_higher_die_from_highest_point_only():
    # A 6 and a 5 with the highest checker on 4: both bear off.
    found = outcomes(position({4: 1, 3: 1}, {1: 15}), (6, 5))
    assert found == {((), 0)}
    # A 5 or 4 may not bear off the 2 while the 6-point is occupied: 6/1 2/off, 6/2 2/off.
    found = outcomes(position({6: 1, 2: 1}, {1: 15}), (5, 4))
    assert found == {(layout(p1=1), 0), (layout(p2=1), 0)}


def test_bg_both_dice_must_be_played():
    # 6-1: playing the 6 first (13/7) blocks nothing; 24/23 then... both must be used.
    found = outcomes(position({13: 1}, {1: 15}), (6, 1))
    assert found == {(layout(p6=1), 0)}
    # Only a route via the 1 first lets both dice play: 8/7/1 (7-point path open via 1).
    # Opponent holds our 2 (their 23): 8/2 is blocked, but 8/7/1 uses both dice.
    found = outcomes(position({8: 1}, {23: 2, 1: 13}), (6, 1))
    assert found == {(layout(p1=1), 0)}


def test_bg_higher_die_when_only_one_can_be_played():
    # Either die alone moves the lone checker, but the other die is then blocked on our
    # 13 (their 12): the 6 must be played.
    found = outcomes(position({24: 1}, {12: 2, 1: 13}), (6, 5))
    assert found == {(layout(p18=1), 0)}
    # When only the lower die can be played at all (our 18 is closed too), it is played.
    found = outcomes(position({24: 1}, {7: 2, 12: 2, 1: 11}), (6, 5))
    assert found == {(layout(p19=1), 0)}


def test_bg_doubles_max():
    # 6-6 with two checkers on 24 and our 12 closed: 24/18(2), the other two 6s are lost.
    found = outcomes(position({24: 2}, {13: 2, 1: 13}), (6, 6))
    assert found == {(layout(p18=2), 0)}
    # Three of four: 24/20/16 and 20/16, then the 12 is closed to both checkers.
    found = outcomes(position({24: 1, 20: 1}, {13: 2, 1: 13}), (4, 4))
    assert found == {(layout(p16=2), 0)}


def test_bg_no_move_gives_one_empty_play():
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 3}  # their home board, our 19-24
    state = BG.state(position({25: 1, 6: 14}, closed), (6, 6))
    plays = state.legal_actions()
    assert len(plays) == 1 and plays[0].moves == ()
    after = state.apply(plays[0])
    assert after.position.turn == 1 and after.phase is Phase.CHANCE


def test_bg_win_when_last_checker_is_off():
    state = BG.state(position({1: 1}, {1: 15}), (2, 1))
    plays = state.legal_actions()
    assert len(plays) == 1
    end = state.apply(plays[0])
    assert end.phase is Phase.TERMINAL and end.winner == 0


@pytest.mark.parametrize(
    ("loser", "points"),
    [({19: 1, 0: 14}, 1), ({6: 15}, 2), ({19: 15}, 3), ({25: 1, 6: 14}, 3), ({18: 15}, 2)],
)
def test_bg_score_single_gammon_backgammon(loser, points):
    rows = [[0] * 26, [0] * 26]
    rows[0][1] = 1
    rows[0][0] = 14
    for slot, n in loser.items():
        rows[1][slot] = n
    state = BG.state(Position.from_checkers(rows, 0), (2, 1))
    end = state.apply(state.legal_actions()[0])
    # The loser's layout is from their own view: 19-24 is the winner's home board.
    assert end.returns() == (points, -points)


def test_nack_start():
    nack = gammon.variant("nackgammon")
    row = nack.start_position().row(0)
    assert {s: n for s, n in enumerate(row) if n} == {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}


@pytest.mark.parametrize("n", [1, 2, 3])
def test_hyper_start_and_bearoff_with_few_checkers(n):
    hyper = gammon.variant(f"hypergammon-{n}")
    assert hyper.checkers == n
    row = hyper.start_position().row(1)
    assert {s: c for s, c in enumerate(row) if c} == {24 - i: 1 for i in range(n)}
    # Bear-off needs only the n checkers home.
    rows = [[0] * 26, [0] * 26]
    rows[0][2] = n
    rows[1][24] = n
    state = hyper.state(Position.from_checkers(rows, 0), (2, 2))
    assert any(play.result.off(0) == n for play in state.legal_actions())
    with pytest.raises(gammon.InvalidOptionError, match="1, 2 or 3"):
        gammon.variant("hypergammon", checkers_per_side=4)


def test_random_games_are_deterministic_under_a_seed():
    def game(seed):
        rng = random.Random(seed)
        state = BG.initial_state()
        record = []
        while not state.is_terminal:
            if state.is_chance:
                roll = state.sample_chance(rng)
                record.append(str(roll))
                state = state.apply(roll)
            else:
                plays = state.legal_actions()
                state = state.apply(plays[rng.randrange(len(plays))])
        return record, state.returns()

    assert game(7) == game(7)
    assert game(7) != game(8)


def test_apply_rejects_illegal_play_with_reason():
    state = BG.state(BG.start_position(), (3, 1))
    other = BG.state(BG.start_position(), (6, 5)).legal_actions()[0]
    with pytest.raises(gammon.IllegalPlayError, match="not legal for 3-1"):
        state.apply(other)
    with pytest.raises(gammon.IllegalPlayError):
        state.apply("13/10")
    assert isinstance(state.legal_actions()[0], Play)
