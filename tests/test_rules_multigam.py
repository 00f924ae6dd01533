"""One test per rule of docs/rules/multi-gam.md, named after the rule's label.

Positions are written here as in the rules page's notation, one string per player with
a character per checker (0 = BAR, 1-6 = points, 7 = OFF), through a helper of this file
so that these tests do not rest on the notation module.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

import gammon
from gammon import Phase, Position, Roll
from gammon.core.errors import IllegalOutcomeError
from gammon.kernels import tracks
from gammon.variants.multigam import SCORES, MultiGamMemo, RollOff

MG = gammon.variant("multi-gam")


def pos(*players: str, turn: int = 0) -> Position:
    """Player ``p``'s checkers as a string of board numbers: ``"00136"``."""
    rows = []
    for checkers in players:
        row = [0] * 8
        for char in checkers:
            row[7 - int(char)] += 1
        rows.append(row)
    return Position.from_checkers(rows, turn)


def written(position: Position) -> str:
    """The board in the same form, players joined by '/'."""
    return "/".join(
        "".join(str(7 - s) * position.count(p, s) for s in range(7, -1, -1))
        for p in range(position.players)
    )


def results(position: Position, dice: tuple[int, int], ranking=None) -> set[str]:
    """The boards the legal plays of ``dice`` lead to."""
    state = MG.state(position, dice, ranking)
    return {written(play.result) for play in state.legal_actions()}


def opened(*throws: Roll):
    state = MG.initial_state()
    for roll in throws:
        state = state.apply(roll)
    return state


# --- board -------------------------------------------------------------------------------


def test_mg_board_numbering():
    assert (MG.players, MG.points, MG.slots) == (4, 6, 8)
    for p, q in itertools.permutations(range(4), 2):
        for slot in range(1, 7):
            assert MG.shared_slot(p, slot, q) == slot  # a point is the same for everyone
    # Point p is slot 7 - p: a die d enters a checker on point d.
    state = MG.state(pos("07777", "77777", "77777", "00000"), (4, 4))
    (play,) = state.legal_actions()
    assert [(m.source, m.destination) for m in play.moves] == [(7, 3), (3, 0)]
    assert written(play.result).startswith("77777/")


def test_mg_start():
    start = MG.start_position()
    assert MG.checkers == 5
    assert written(start) == "00000/00000/00000/00000"
    for p in range(4):
        assert start.bar(p) == 5 and start.pips(p) == 35


# --- the opening -------------------------------------------------------------------------


def test_mg_opening_one_die_each_highest_starts():
    state = MG.initial_state()
    assert state.is_chance and state.opening
    outcomes = state.chance_outcomes()
    # Four equal dice are all thrown again, so they are no outcome of their own.
    assert len(outcomes) == 6**4 - 6 and sum(p for _, p in outcomes) == 1
    assert all(p == Fraction(1, 1290) and len(r.dice) == 4 for r, p in outcomes)
    with pytest.raises(IllegalOutcomeError, match="thrown again"):
        state.apply(Roll((4, 4, 4, 4), opening=True))
    after = state.apply(Roll((3, 5, 2, 4), opening=True))
    assert after.phase is Phase.DECIDE and not after.opening
    assert after.current_player == 1 and after.dice == (5, 2)
    assert after.memo == MultiGamMemo(table=(3, 5, 2, 4), rolling=(), ranking=())


def test_mg_opening_is_chance_and_follows_the_seed():
    def opening(seed):
        rng = random.Random(seed)
        state, throws = MG.initial_state(), []
        while state.is_chance and state.opening:
            roll = state.sample_chance(rng)
            throws.append(str(roll))
            state = state.apply(roll)
        return throws, state.position.turn, state.dice

    assert opening(5) == opening(5)
    seen = {opening(seed)[1] for seed in range(40)}
    assert seen == {0, 1, 2, 3}
    # Some seed goes through a tie, and the re-throw is in the record.
    tied = next(opening(s) for s in range(200) if len(opening(s)[0]) > 1)
    assert tied[0][1].startswith("P")


def test_mg_tie_rerolls_among_the_tied_only():
    tie = opened(Roll((6, 2, 6, 1), opening=True))
    assert tie.is_chance and tie.opening
    # The tied dice are thrown again, so the table forgets them.
    assert tie.memo.rolling == (0, 2) and tie.memo.table == (0, 2, 0, 1)
    outcomes = tie.chance_outcomes()
    # Tied again would be thrown again: the 30 unequal re-throws, 1/30 each.
    assert len(outcomes) == 30 and all(p == Fraction(1, 30) for _, p in outcomes)
    assert all(isinstance(r, RollOff) and r.players == (0, 2) for r, _ in outcomes)
    # Only the tied players throw: an all-player throw or other players are refused.
    with pytest.raises(IllegalOutcomeError, match="roll-off among the tied players P0, P2"):
        tie.apply(Roll((1, 2, 3, 4), opening=True))
    with pytest.raises(IllegalOutcomeError, match="roll-off"):
        tie.apply(RollOff((3, 4), opening=True, players=(0, 1)))
    with pytest.raises(IllegalOutcomeError, match="thrown again"):
        tie.apply(RollOff((4, 4), opening=True, players=(0, 2)))
    # Player 2 wins the roll-off with a 5; players 1 and 3 never threw again.
    done = tie.apply(RollOff((3, 5), opening=True, players=(0, 2)))
    assert done.current_player == 2 and done.memo.table == (3, 2, 5, 1)
    # A three-way tie: 216 throws among the three, less the 6 all equal.
    three = opened(Roll((6, 6, 6, 1), opening=True))
    assert three.memo.rolling == (0, 1, 2) and len(three.chance_outcomes()) == 210
    # Two of the three tie again: a new, smaller roll-off.
    two = three.apply(RollOff((5, 2, 5), opening=True, players=(0, 1, 2)))
    assert two.memo.rolling == (0, 2) and two.memo.table == (0, 2, 0, 1)
    assert str(RollOff((3, 5), opening=True, players=(0, 2))) == "P0:3 P2:5"


def test_mg_split_winning_die_and_lowest_on_the_table():
    # The page's example: 6, 6, 5, 1, then 2-1 between players 0 and 1. Player 2's 5
    # stays on the table, higher than the winning 2.
    state = opened(Roll((6, 6, 5, 1), opening=True), RollOff((2, 1), True, (0, 1)))
    assert state.current_player == 0 and state.dice == (2, 1)
    assert state.memo.table == (2, 1, 5, 1)
    # The re-throw winner may be lower than a die kept from the first throw.
    state = opened(Roll((6, 6, 5, 3), opening=True), RollOff((2, 1), True, (0, 1)))
    assert state.current_player == 0 and state.dice == (2, 1)
    state = opened(Roll((6, 6, 5, 3), opening=True), RollOff((1, 4), True, (0, 1)))
    assert state.current_player == 1 and state.dice == (4, 1)
    # Never a double: every first throw, and every roll-off after it.
    for roll, _ in MG.initial_state().chance_outcomes():
        state = MG.initial_state().apply(roll)
        steps = [state]
        if state.is_chance:
            steps = [state.apply(r) for r, _ in state.chance_outcomes()]
        for after in steps:
            if after.is_chance:
                continue
            starter = after.current_player
            high, low = after.dice
            table = after.memo.table
            assert high == table[starter] > low
            assert low == min(table[p] for p in range(4) if p != starter)


# --- turns and dice ----------------------------------------------------------------------


def test_mg_turns_pass_clockwise():
    state = opened(Roll((2, 1, 6, 3), opening=True))  # player 2 starts with 6-1
    assert state.current_player == 2
    order = []
    for _ in range(6):
        state = state.apply(state.legal_actions()[0])
        assert state.is_chance and not state.opening
        assert len(state.chance_outcomes()) == 21
        order.append(state.position.turn)
        state = state.apply(Roll((5, 3)))
    assert order == [3, 0, 1, 2, 3, 0]


def test_mg_move_one_checker_may_take_both_dice():
    assert results(pos("17777", "77777", "00000", "00000"), (2, 1)) == {
        "47777/77777/00000/00000"
    }
    # Two checkers: one die each, or one checker takes both.
    found = results(pos("11777", "77777", "00000", "00000"), (3, 1))
    assert found == {"15777/77777/00000/00000", "24777/77777/00000/00000"}


def test_mg_doubles_play_four_times():
    # Four 1s between two checkers entering on 1: k and 4 - k pips.
    found = results(pos("00777", "77777", "00000", "66666"), (1, 1))
    assert found == {"04777/77777/00000/66666", "13777/77777/00000/66666",
                     "22777/77777/00000/66666"}


def test_mg_max_dice_both_dice_when_possible():
    # Z holds 4: 1/4 is closed, so the only play using both dice is 1/2/5.
    found = results(pos("17777", "77777", "00000", "44777"), (3, 1))
    assert found == {"57777/77777/00000/44777"}


def test_mg_higher_die_when_only_one_can_be_played():
    # O holds 5, Y holds 6: 1/4 or 1/3 can be played, never both (6 is closed): the 3.
    found = results(pos("17777", "55777", "66777", "00000"), (3, 2))
    assert found == {"47777/55777/66777/00000"}
    # When only the lower die can be played at all, it is played (1/4 is closed).
    found = results(pos("17777", "44557", "66777", "00000"), (3, 1))
    assert found == {"27777/44557/66777/00000"}


def test_mg_no_move_passes_the_turn():
    # Points 1, 2 and 3 are held by three opponents: a 3 cannot enter.
    state = MG.state(pos("00777", "11777", "22777", "33777"), (3, 3))
    (play,) = state.legal_actions()
    assert play.moves == ()
    after = state.apply(play)
    assert after.is_chance and after.position.turn == 1


def test_mg_one_play_per_distinct_result():
    # From the start, 2-1: enter two checkers, or one that goes on to 3 (by two routes).
    state = MG.state(MG.start_position(), (2, 1))
    found = [written(play.result) for play in state.legal_actions()]
    assert sorted(found) == ["00003/00000/00000/00000", "00012/00000/00000/00000"]


# --- where a checker may land ------------------------------------------------------------


def test_mg_one_owner_per_point():
    with pytest.raises(gammon.InvalidOptionError, match="point 3 holds checkers of players"):
        MG.state(pos("37777", "37777", "00000", "00000"), (2, 1))
    # A hit replaces the owner: afterwards the point is the mover's alone.
    state = MG.state(pos("17777", "37777", "00000", "00000"), (2, 1))
    for play in state.legal_actions():
        for slot in range(1, 7):
            assert sum(1 for p in range(4) if play.result.count(p, slot)) <= 1


def test_mg_stack_any_number_of_own_checkers():
    found = results(MG.start_position(), (3, 3))
    assert "03333/00000/00000/00000" in found  # four on point 3
    MG.state(pos("33333", "00000", "00000", "00000"), (1, 1))  # five on one point


def test_mg_prime_blocks_but_can_be_jumped():
    # O holds 2 and 3: the 1 cannot move 1/2; the 4 jumps the prime, then 5/6.
    found = results(pos("17777", "22337", "00000", "00000"), (4, 1))
    assert found == {"67777/22337/00000/00000"}
    # A point of two checkers closes it whoever they belong to; nothing lands on it.
    state = MG.state(pos("17777", "00000", "44777", "00000"), (3, 3))
    assert {written(p.result) for p in state.legal_actions()} == {"17777/00000/44777/00000"}


def test_mg_hit_sends_the_blot_to_its_owners_bar():
    # O's blot on 3: 1/3*/4 hits it (O goes to the BAR), 1/2/4 passes it by.
    found = results(pos("17777", "37777", "00000", "00000"), (2, 1))
    assert found == {"47777/07777/00000/00000", "47777/37777/00000/00000"}
    # Hitting and staying: the hitter holds the point; blots of two players, two hits.
    found = results(pos("11777", "27777", "00000", "37777"), (2, 1))
    assert "23777/07777/00000/07777" in found


# --- the BAR -----------------------------------------------------------------------------


def test_mg_enter_on_the_point_of_the_die():
    found = results(pos("00777", "77777", "00000", "00000"), (5, 2))
    # Both enter (2 and 5), or one enters and bears off (2+5 = 7), by either die first.
    assert found == {"25777/77777/00000/00000", "07777/77777/00000/00000"}
    for die in range(1, 7):
        state = MG.state(pos("07777", "00000", "00000", "00000"), (die, die))
        assert any(p.moves[0].source == 7 and p.moves[0].destination == 7 - die
                   for p in state.legal_actions())


def test_mg_loose_bar_other_checkers_move_too():
    # A checker enters and the other die moves a checker already on the board (1/3, in
    # either order), or the entered one (bar/1/2 or bar/2 1/2 give the same board).
    found = results(pos("01777", "77777", "00000", "66777"), (2, 1))
    assert found == {"13777/77777/00000/66777", "22777/77777/00000/66777"}
    # The BAR need not be cleared: with two waiting and 6-1, bar/1 and 1/off (the
    # checker that was on 1, or the one just entered: the same board) leave one there.
    assert results(pos("00127", "77777", "00000", "66777"), (6, 1)) == {
        "01277/77777/00000/66777"}
    # Entry on 1 and 2 is closed: the checker on 4 still moves, 4/5/off.
    found = results(pos("04777", "11227", "00000", "00000"), (2, 1))
    assert found == {"07777/11227/00000/00000"}


def test_mg_must_enter():
    free = gammon.variant("multi-gam", must_enter=False)
    assert MG.must_enter and MG.options() == {"must_enter": True}
    # Entry is open: every play enters a checker. Without the duty the checker on 1 may
    # take both dice and leave the BAR as it was (1/4).
    position = pos("01777", "77777", "00000", "66777")
    assert "04777/77777/00000/66777" not in results(position, (2, 1))
    assert {written(p.result) for p in free.state(position, (2, 1)).legal_actions()} == \
        results(position, (2, 1)) | {"04777/77777/00000/66777"}
    # Two waiting, 6-1: 2/3 1/off would enter nobody; bar/1 1/off enters one.
    position = pos("00127", "77777", "00000", "66777")
    assert {written(p.result) for p in free.state(position, (6, 1)).legal_actions()} == {
        "00377/77777/00000/66777", "01277/77777/00000/66777"}
    assert results(position, (6, 1)) == {"01277/77777/00000/66777"}
    # The dice come first: when no play that uses both dice enters, those plays stand.
    # With 3-2, bar/2 leaves the 3 unplayable (3 and 5 are primes); 2/4*/off plays both.
    position = pos("00227", "00067", "45577", "03333")
    assert results(position, (3, 2)) == {"00277/00067/05577/03333"}
    assert any(p.result.bar(0) == 1 for p in MG.state(position, (2, 2)).legal_actions())
    # And the compiled playouts honour it: a traced game never leaves an open entry
    # unused while a play could have entered (checked move by move in the invariants).
    assert MG.kernel.rules[tracks.R_MUST_ENTER] == 1
    assert free.kernel.rules[tracks.R_MUST_ENTER] == 0


def test_mg_snipe_enter_and_bear_off_in_one_turn():
    state = MG.state(pos("03777", "00000", "00000", "00000"), (6, 1))
    found = {written(p.result): p for p in state.legal_actions()}
    # bar/6/off (or bar/1/off: the same result), and bar/6 3/4.
    assert set(found) == {"37777/00000/00000/00000", "46777/00000/00000/00000"}
    snipe = found["37777/00000/00000/00000"]
    assert snipe.moves[0].source == 7 and snipe.moves[-1].destination == 0
    assert len(snipe.moves) == 2 and snipe.moves[0].destination == snipe.moves[1].source


# --- bearing off -------------------------------------------------------------------------


def test_mg_bearoff_exact_die():
    for point in range(1, 7):
        state = MG.state(pos(f"{point}7777", "00000", "00000", "00000"), (7 - point, 7 - point))
        (play,) = state.legal_actions()
        assert [(m.source, m.destination) for m in play.moves] == [(7 - point, 0)]
    # Exact bear-off is allowed with checkers further back: 5/off with the 2, 1/2.
    found = results(pos("15777", "00000", "00000", "00000"), (2, 1))
    assert "27777/00000/00000/00000" in found


def test_mg_overshoot_without_checker_further_back():
    # Nothing behind 5 (O holds 6): the 6 bears the checker off from 5.
    assert results(pos("57777", "66777", "00000", "00000"), (6, 6)) == {
        "77777/66777/00000/00000"
    }
    # 5 and 6, 4-3: the 5 may overshoot (the 6 is ahead of it, not behind); the 6 may
    # overshoot only once the 5 is off. Either way both go off.
    assert results(pos("56777", "00000", "00000", "00000"), (4, 3)) == {
        "77777/00000/00000/00000"
    }


def test_mg_overshoot_with_checker_further_back():
    # A checker on the BAR is further back: 5/off with a 6 is illegal (entry on 6 closed).
    assert results(pos("05777", "66777", "00000", "00000"), (6, 6)) == {
        "05777/66777/00000/00000"
    }
    # A checker on a lower point too: the 5s cannot bear off from 5 while 1 is behind.
    assert results(pos("15777", "66777", "00000", "00000"), (5, 5)) == {
        "15777/66777/00000/00000"
    }


def test_mg_bearoff_anytime_with_checkers_on_the_bar():
    # Entry on 1 and 2 is closed; 5/off (the 2, exact) is played with a checker on the BAR.
    # (5/6 with the 1 would leave the 2 unplayable, and the higher die must be played.)
    assert results(pos("05777", "11227", "00000", "00000"), (2, 1)) == {
        "07777/11227/00000/00000"
    }


# --- end and score -----------------------------------------------------------------------


def test_mg_finish_ranks_and_skips_the_player():
    state = MG.state(pos("00000", "67777", "00000", "00000", turn=1), (3, 1))
    (play,) = state.legal_actions()
    state = state.apply(play)
    assert state.memo.ranking == (1,) and state.position.turn == 2
    assert state.position.off(1) == 5 and not state.is_terminal
    turns = []
    for _ in range(7):
        state = state.apply(Roll((2, 1)))
        turns.append(state.current_player)
        state = state.apply(state.legal_actions()[0])
    assert turns == [2, 3, 0, 2, 3, 0, 2]
    # A state cannot make a finished player move.
    with pytest.raises(gammon.InvalidOptionError, match="no longer plays"):
        MG.state(pos("00000", "77777", "00000", "00000", turn=1), (3, 1))


def test_mg_end_when_the_third_player_finishes():
    position = pos("77777", "67777", "77777", "00000", turn=1)
    state = MG.state(position, (1, 1), ranking=(2, 0))
    end = state.apply(state.legal_actions()[0])
    assert end.is_terminal and end.memo.ranking == (2, 0, 1, 3)
    assert end.position.bar(3) == 5  # the fourth never moved again
    assert end.returns() == (3.0, 2.0, 5.0, 1.0) and end.winner == 2
    with pytest.raises(gammon.InvalidOptionError, match="finished players"):
        MG.state(position, (1, 1), ranking=(2,))


def test_mg_score_five_three_two_one():
    assert SCORES == (5, 3, 2, 1)
    rng = random.Random(3)
    for _ in range(20):
        state = MG.initial_state()
        while not state.is_terminal:
            if state.is_chance:
                state = state.apply(state.sample_chance(rng))
            else:
                plays = state.legal_actions()
                state = state.apply(plays[rng.randrange(len(plays))])
        returns = state.returns()
        assert sorted(returns) == [1.0, 2.0, 3.0, 5.0]
        for place, player in enumerate(state.memo.ranking):
            assert returns[player] == SCORES[place]
        assert state.winner == state.memo.ranking[0]
    assert MG.initial_state().returns() == (0.0,) * 4
