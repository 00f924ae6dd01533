"""One test per rule and option of docs/rules/long-nardy.md, named after the rule's label.

Positions are written in each player's own numbering (24 = the head, 1 = the last point
before bearing off); checkers not placed are borne off. Expected plays are given as move
text, worked out by hand from the rules page. At the end the compiled move generator is
compared with a brute-force reading of the page over positions from random games.
"""

from __future__ import annotations

import re
from fractions import Fraction

import answers
import layouts
import oracle
import pytest
from layouts import position

import gammon
from gammon import GameState, Phase, Position, Roll
from gammon.core.dice import two_dice
from gammon.core.errors import IllegalOutcomeError
from gammon.notation.movetext import format_play
from gammon.stakes import CubeAction, StakeRules
from gammon.stakes.cube import CubeState

LN = gammon.variant("long-nardy")
plays, holding, end_state = layouts.rule_helpers(LN)
ROLLS = [roll.dice for roll, _ in two_dice()]


def first_roll(turn: int = 0, dice: tuple[int, int] = (6, 6), rules=LN) -> GameState:
    """A real game's state: ``turn`` won the opening and threw ``dice``."""
    opening = (6, 1) if turn == 0 else (1, 6)
    state = rules.initial_state().apply(Roll(opening, opening=True))
    return state.apply(Roll(dice))


def texts(state: GameState) -> set[str]:
    return {format_play(play) for play in state.legal_actions()}


# --- board and start -----------------------------------------------------------------


def test_ln_board_same_direction_from_opposite_heads():
    assert LN.shared_slot(0, 24, 1) == 12 and LN.shared_slot(1, 24, 0) == 12
    assert LN.shared_slot(0, 13, 1) == 1 and LN.shared_slot(0, 1, 1) == 13
    for point in range(1, 25):
        there = LN.shared_slot(0, point, 1)
        assert LN.shared_slot(1, there, 0) == point
        assert there == (point + 11) % 24 + 1
    # Home boards: each player's 1-6 is the other's 13-18.
    assert {LN.shared_slot(0, p, 1) for p in range(1, 7)} == set(range(13, 19))


def test_ln_start_fifteen_on_the_head():
    start = LN.start_position()
    for player in (0, 1):
        assert {s: n for s, n in enumerate(start.row(player)) if n} == {24: 15}
        assert start.pips(player) == 360
    assert LN.checkers == 15 and not LN.contact.hitting


# --- turns and dice ------------------------------------------------------------------


def test_ln_opening_lot_chooses_the_starter_who_then_rolls():
    state = LN.initial_state()
    assert state.opening and len(state.chance_outcomes()) == 30  # equal dice: again
    with pytest.raises(IllegalOutcomeError):
        state.apply(Roll((3, 3), opening=True))
    after = state.apply(Roll((2, 5), opening=True))
    # The lot only says who starts: player 1 now throws both dice afresh.
    assert after.phase is Phase.CHANCE and not after.opening and after.position.turn == 1
    outcomes = after.chance_outcomes()
    assert len(outcomes) == 21
    assert dict((r.dice, p) for r, p in outcomes)[(6, 6)] == Fraction(1, 36)
    rolled = after.apply(Roll((6, 6)))  # the first roll may be a double
    assert rolled.current_player == 1 and rolled.dice == (6, 6)


def test_ln_turns_alternate_with_two_dice():
    state = first_roll(0, (6, 5))
    state = state.apply(state.legal_actions()[0])
    assert state.phase is Phase.CHANCE and state.position.turn == 1
    assert len(state.chance_outcomes()) == 21


def test_ln_move_one_checker_may_take_both_dice():
    assert plays(position({20: 1}, {1: 15}), (3, 2)) == {"20/15"}
    # Each partial move must be legal: our 17 is closed (their 5), so the checker goes
    # 20/18/15, and with our 18 closed too (their 6) it cannot take both dice at all.
    assert plays(position({20: 1}, {5: 1}), (3, 2)) == {"20/15"}
    assert plays(position({20: 1, 8: 1}, {5: 1, 6: 1}), (3, 2)) == {"8/3"}


def test_ln_doubles_play_four_times():
    # Four moves of 2 shared between the checkers on 20 and 16 (20/16 16/14 is 20/14 16/16:
    # the same result as 20/14 16/14, listed once).
    found = plays(position({20: 1, 16: 1}, {1: 15}), (2, 2))
    assert found == {"20/12", "20/14 16/14", "20/18 16/10", "16/8"}


def test_ln_one_play_deduplicated_by_result():
    state = LN.state(position({20: 2, 16: 2}, {1: 15}), (2, 1))
    results = [play.result for play in state.legal_actions()]
    assert len(results) == len(set(results))


# --- where a checker may land --------------------------------------------------------


def test_ln_closed_point_any_opposing_checker():
    # One opposing checker on our 17 (their 5) closes it; nothing is hit; passing is fine.
    pos = position({20: 1}, {5: 1})
    assert plays(pos, (3, 2)) == {"20/15"}  # 20/18/15 passes over 17
    assert plays(position({20: 1}, {5: 1, 3: 1}), (3, 2)) == {"20/18"}
    for play in LN.state(pos, (3, 2)).legal_actions():
        assert play.hits == 0 and play.result.bar(1) == 0


def test_ln_stack_any_number_of_own_checkers():
    state = LN.state(position({20: 14, 18: 1}, {1: 15}), (2, 2))
    assert "20/18(4)" in texts(state)
    assert any(play.result.count(0, 18) == 5 for play in state.legal_actions())


# --- the head ------------------------------------------------------------------------


def test_ln_head_one_checker_per_turn():
    pos = position({24: 13, 18: 2}, {24: 13, 20: 2})
    for dice in ROLLS:
        for play in LN.state(pos, dice).legal_actions():
            assert sum(move.source == 24 for move in play.moves) <= 1
    # 5-5 after the first roll: one checker leaves the head, the other fives go elsewhere.
    assert plays(position({24: 14, 20: 1}, {24: 15}), (5, 5)) == {
        "24/4", "24/9 20/15", "24/14 20/10", "24/19 20/5",
    }


def test_ln_head_doubles_first_roll_starter():
    assert plays(LN.start_position(0), (6, 6)) == {"24/18(2)"}
    assert plays(LN.start_position(0), (4, 4)) == {"24/16(2)"}
    assert plays(LN.start_position(0), (3, 3)) == {"24/18(2)", "24/15 24/21"}
    # The same through a real game: the starter's first roll.
    assert texts(first_roll(0, (6, 6))) == {"24/18(2)"}
    assert texts(first_roll(1, (4, 4))) == {"24/16(2)"}


def test_ln_head_doubles_first_roll_second_player():
    # The starter played 6-5 (24/13); the other player's first roll is 6-6, 4-4 or 3-3.
    after = position({24: 15}, {24: 14, 13: 1})
    assert plays(after, (6, 6)) == {"24/18(2)"}
    assert plays(after, (4, 4)) == {"24/16(2)"}
    assert plays(after, (3, 3)) == {"24/18(2)", "24/15 24/21"}
    # Through a real game: starter 6-5, then the second player's 3-3.
    state = first_roll(0, (6, 5))
    state = state.apply(state.legal_actions()[0]).apply(Roll((3, 3)))
    assert state.current_player == 1
    assert texts(state) == {"24/18(2)", "24/15 24/21"}


def test_ln_head_doubles_second_player_blocked():
    # The starter's 5-5 went 24/4, onto the other's 16: the second player's 4-4 takes two
    # checkers to 20 and cannot play the other two fours.
    assert plays(position({24: 15}, {24: 14, 4: 1}), (4, 4)) == {"24/20(2)"}


def test_ln_head_doubles_only_listed_doubles():
    start = LN.start_position(0)
    assert plays(start, (5, 5)) == {"24/4"}
    assert plays(start, (2, 2)) == {"24/16"}
    assert plays(start, (1, 1)) == {"24/20"}
    assert plays(start, (6, 5)) == {"24/13"}


def test_ln_head_doubles_only_on_the_first_roll():
    # Once a checker has left the head, 6-6 takes only one more from it.
    pos = position({24: 14, 10: 1}, {24: 14, 13: 1})
    assert plays(pos, (6, 6)) == {"24/18 10/4"}


def test_ln_head_doubles_forced():
    # "May take two" is in practice "must": a lone checker off the head plays at most one
    # six, two fours or three threes before the opponent's head (our 12) stops it, and
    # the rule to play as many dice as possible then takes the second checker.
    for dice, one in (((6, 6), 1), ((4, 4), 2), ((3, 3), 3)):
        for state in (LN.state(LN.start_position(0), dice), first_roll(1, dice)):
            for play in state.legal_actions():
                assert sum(move.source == 24 for move in play.moves) == 2
                assert len(play.moves) > one


def test_ln_head_doubles_both_option_starter_only():
    starter_only = gammon.variant("long-nardy", head_doubles_both=False)
    assert plays(starter_only.start_position(0), (6, 6), starter_only) == {"24/18(2)"}
    # The second player's first roll takes one checker off the head, which then plays
    # what it can before their head (our 12) stops it.
    after = position({24: 15}, {24: 14, 13: 1})
    assert plays(after, (6, 6), starter_only) == {"24/18"}
    assert plays(after, (4, 4), starter_only) == {"24/16"}
    assert plays(after, (3, 3), starter_only) == {"24/15"}
    # Through a real game, with player 1 as the starter.
    assert texts(first_roll(1, (3, 3), starter_only)) == {"24/18(2)", "24/15 24/21"}
    state = first_roll(1, (6, 5), starter_only)
    state = state.apply(state.legal_actions()[0]).apply(Roll((6, 6)))
    assert state.current_player == 0 and texts(state) == {"24/18"}


WIDE = gammon.variant("long-nardy", wide_head_exception=True)
#: The starter's first play, as the other player sees it: one checker off the head to
#: the starter's 21 (2-1), 16 (6-2, also 5-3 and 2-2) or 4 (5-5).
AFTER = {"2-1": {24: 14, 21: 1}, "6-2": {24: 14, 16: 1}, "5-5": {24: 14, 4: 1}}


@pytest.mark.parametrize(("starter", "dice", "default", "wide"), [
    # The starter's checker on our 9 stops a lone 5-5 at 14: two checkers play all four.
    ("2-1", (5, 5), {"24/14"}, {"24/14(2)"}),
    ("2-1", (6, 2), {"24/16"}, {"24/16", "24/22 24/18"}),
    # On our 4: a lone 5-5 stops at 9.
    ("6-2", (5, 5), {"24/9"}, {"24/14(2)", "24/9 24/19"}),
    ("6-2", (6, 2), {"24/16"}, {"24/16", "24/22 24/18"}),
    # On our 16: a lone 6-2 plays only the 6.
    ("5-5", (6, 2), {"24/18"}, {"24/22 24/18"}),
    ("5-5", (5, 5), {"24/4"}, {"24/4", "24/14(2)", "24/9 24/19"}),
    # Other rolls: no exception.
    ("2-1", (6, 5), {"24/13"}, {"24/13"}),
    ("6-2", (5, 4), {"24/15"}, {"24/15"}),
])
def test_ln_head_wide(starter, dice, default, wide):
    pos = position({24: 15}, AFTER[starter])
    assert plays(pos, dice) == default
    assert plays(pos, dice, WIDE) == wide


def test_ln_head_wide_only_after_those_first_plays():
    # After the starter's 6-5 (24/13) nothing changes; nor for the starter's own roll,
    # nor on a later roll of the second player.
    after = position({24: 15}, {24: 14, 13: 1})
    for dice in ((5, 5), (6, 2)):
        assert plays(after, dice, WIDE) == plays(after, dice)
        assert plays(WIDE.start_position(0), dice, WIDE) == plays(LN.start_position(0), dice)
    later = position({24: 14, 18: 1}, {24: 13, 16: 1, 10: 1})
    assert plays(later, (5, 5), WIDE) == plays(later, (5, 5))
    # Through a real game: the starter throws 6-2 (24/16), the other 5-5.
    state = first_roll(0, (6, 2), WIDE)
    state = state.apply(state.legal_actions()[0]).apply(Roll((5, 5)))
    assert state.current_player == 1 and texts(state) == {"24/14(2)", "24/9 24/19"}
    assert WIDE.head_limit(state) == 2 and LN.head_limit(
        LN.state(state.position, (5, 5))) == 1


# --- the six-block -------------------------------------------------------------------
# Our 11..6 are the opponent's 23..18. Their head (our 12) is behind such a block; a
# checker on their 16 (our 4) or lower, or borne off, is ahead of it.


BLOCK_BASE = {13: 1, 11: 1, 10: 1, 9: 1, 7: 1, 6: 1}


def test_ln_six_block_without_checker_ahead_is_illegal():
    pos = position({16: 1, **BLOCK_BASE}, {24: 15})
    assert holding(pos, (5, 1), {11, 10, 9, 8, 7, 6}) == set()
    assert "16/11" not in plays(pos, (5, 1))


def test_ln_six_block_with_checker_ahead_is_legal():
    ahead = position({16: 1, **BLOCK_BASE}, {24: 14, 16: 1})  # their 16 = our 4
    assert holding(ahead, (5, 1), {11, 10, 9, 8, 7, 6}) == {"16/15 13/8"}
    off = position({16: 1, **BLOCK_BASE}, {24: 14})  # one of theirs borne off
    assert holding(off, (5, 1), {11, 10, 9, 8, 7, 6}) == {"16/15 13/8"}


def test_ln_six_block_not_even_for_a_moment():
    # 13/7 with 5-1: 13/12 is closed (their head), so the checker must go 13/8/7, and
    # 13/8 makes 11..6 for a moment. Illegal with nothing ahead, legal with one ahead.
    assert "13/7" not in plays(position(BLOCK_BASE, {24: 15}), (5, 1))
    assert "13/7" in plays(position(BLOCK_BASE, {24: 14, 16: 1}), (5, 1))
    # Some order is enough: with 5-5, 11/6 first, then 13/8/3 makes only five in a row.
    assert "13/3 11/6 9/4" in plays(position(BLOCK_BASE, {24: 15}), (5, 5))


def test_ln_six_block_longer_runs_too():
    # Seven in a row (our 11..5) is a block of six as well.
    seven = {16: 1, 13: 1, 11: 1, 10: 1, 9: 1, 7: 1, 6: 1, 5: 1}
    assert holding(position(seven, {24: 15}), (5, 1), set(range(5, 12))) == set()
    assert holding(position(seven, {24: 14}), (5, 1), set(range(5, 12))) == {"16/15 13/8"}


def test_ln_six_block_not_across_the_seam():
    # Our 15..10 are their 3, 2, 1 and 24, 23, 22: two runs of three on their way, not a
    # block, although every one of their checkers (on their 10 = our 22) is behind 15.
    pos = position({20: 1, 16: 1, 15: 1, 14: 1, 13: 1, 11: 1, 10: 1}, {10: 15})
    assert "20/19 16/12" in holding(pos, (4, 1), {15, 14, 13, 12, 11, 10})


def test_ln_six_block_five_is_not_a_block():
    # Five in a row with nothing ahead is fine, and so is six with a gap.
    pos = position({16: 1, 13: 1, 11: 1, 10: 1, 9: 1, 7: 1}, {24: 15})
    assert holding(pos, (5, 1), {11, 10, 9, 8, 7}) == {"16/15 13/8"}
    gap = position({16: 1, 13: 1, 11: 1, 10: 1, 9: 1, 6: 1, 5: 1}, {24: 15})
    assert holding(gap, (5, 1), {11, 10, 9, 8, 6, 5}) == {"16/15 13/8"}


# --- bearing off ---------------------------------------------------------------------


def test_ln_bearoff_home_required():
    # 3/off first is illegal while the 7 is out: 7/1 then 3/off, or 7/4 then 4/off.
    assert plays(position({7: 1, 3: 1}, {24: 15}), (6, 3)) == {"7/1 3/off", "7/off"}


def test_ln_bearoff_exact():
    # 6/off 3/off, or 6/3 and then a 3-point checker off with the 6 (the highest).
    assert plays(position({6: 1, 3: 1}, {24: 15}), (6, 3)) == {"6/off 3/off", "6/off"}


def test_ln_bearoff_higher_from_the_highest_point_only():
    # A die larger than every occupied point bears off from the highest one.
    assert plays(position({4: 1, 3: 1}, {24: 15}), (6, 5)) == {"4/off 3/off"}
    assert plays(position({5: 2, 3: 1}, {24: 15}), (6, 6)) == {"5/off(2) 3/off"}
    # While a higher point is occupied the die must move inside instead: 6/1 then the 4
    # bears off the 2; or 6/2 then the 5 bears off a 2.
    assert plays(position({6: 1, 2: 1}, {24: 15}), (5, 4)) == {"6/1 2/off", "6/off"}
    # From below: with checkers on 5 and 3, a 6 bears off the 5, then a 4 the 3.
    assert plays(position({5: 1, 3: 1}, {24: 15}), (6, 4)) == {"5/off 3/off", "5/1 3/off"}


def test_ln_bearoff_optional():
    # Bearing off is never forced while the dice can be played inside the home board.
    assert plays(position({6: 1, 2: 1}, {24: 15}), (2, 1)) == {"6/3", "6/4 2/1", "6/5 2/off"}


# --- using the dice ------------------------------------------------------------------


def test_ln_both_dice_must_be_played():
    # Our 14 is closed (their 2): 20/14 is impossible, so 20/19/13 is the only play.
    assert plays(position({20: 1}, {2: 1}), (6, 1)) == {"20/13"}


def test_ln_higher_die_when_only_one_can_be_played():
    # Our 9 closed (their 21): either die moves the checker, then the other is stopped.
    assert plays(position({20: 1}, {21: 1}), (6, 5)) == {"20/14"}
    # Our 14 closed too (their 2): only the 5 can be played at all, so it is.
    assert plays(position({20: 1}, {21: 1, 2: 1}), (6, 5)) == {"20/15"}


def test_ln_doubles_max():
    # 4-4 with one checker: 20/16/12 would end on their head; one four only.
    assert plays(position({20: 1}, {24: 15}), (4, 4)) == {"20/16"}


def test_ln_no_move_gives_one_empty_play():
    state = LN.state(position({20: 1}, {2: 1}), (6, 6))
    only = state.legal_actions()
    assert len(only) == 1 and only[0].moves == ()
    assert state.apply(only[0]).position.turn == 1


# --- end and score -------------------------------------------------------------------


def test_ln_win_no_draw():
    end = end_state({1: 1}, {1: 15})
    assert end.phase is Phase.TERMINAL and end.winner == 0


def test_ln_score_oin():
    assert end_state({1: 1}, {1: 14}).returns() == (1.0, -1.0)


def test_ln_score_mars():
    assert end_state({1: 1}, {1: 15}).returns() == (2.0, -2.0)
    # Even with checkers still on the head: without the koks option it is a mars.
    assert end_state({1: 1}, {24: 1, 1: 14}).returns() == (2.0, -2.0)


def test_ln_mars_option_off_plays_the_oin_game():
    oin = gammon.variant("long-nardy", mars=False)
    assert end_state({1: 1}, {24: 3, 1: 12}, oin).returns() == (1.0, -1.0)
    with pytest.raises(gammon.InvalidOptionError, match="koks"):
        gammon.variant("long-nardy", mars=False, koks=True)


@pytest.mark.parametrize(
    ("loser", "points"),
    [({24: 1, 1: 14}, 3), ({19: 1, 1: 14}, 3), ({18: 1, 1: 14}, 2), ({14: 2, 1: 13}, 2),
     ({1: 15}, 2), ({24: 1, 1: 13}, 1)],
)
def test_ln_koks_option(loser, points):
    koks = gammon.variant("long-nardy", koks=True)
    assert end_state({1: 1}, loser, koks).returns() == (points, -points)


def play_out(rules, starter_finishes: dict[int, int], other: dict[int, int], dice) -> GameState:
    """Starter (player 0, who moved first: ``moves`` even) bears off; the other rolls."""
    state = GameState(rules, position(starter_finishes, other), Phase.DECIDE, (6, 5), False, 10)
    state = state.apply(state.legal_actions()[0])
    if state.is_terminal:
        return state
    state = state.apply(Roll(dice))
    return state.apply(state.legal_actions()[0])


def test_ln_last_roll_option():
    last = gammon.variant("long-nardy", last_roll=True)
    # Without the option the starter's last checker ends the game at once.
    assert play_out(LN, {1: 1}, {2: 1, 1: 1}, (2, 1)).returns() == (1.0, -1.0)
    # With it the other player rolls once more; bearing off everything draws.
    after = GameState(last, position({1: 1}, {2: 1, 1: 1}), Phase.DECIDE, (6, 5), False, 10)
    after = after.apply(after.legal_actions()[0])
    assert after.phase is Phase.CHANCE and after.position.turn == 1
    drawn = play_out(last, {1: 1}, {2: 1, 1: 1}, (2, 1))
    assert drawn.is_terminal and drawn.returns() == (0.0, 0.0)
    # Failing to finish: the starter wins, scored after that roll.
    assert play_out(last, {1: 1}, {6: 2, 1: 1}, (2, 1)).returns() == (1.0, -1.0)
    # A loser who bears off a first checker in the last roll is no longer mars.
    assert play_out(last, {1: 1}, {6: 15}, (6, 5)).returns() == (1.0, -1.0)
    assert play_out(last, {1: 1}, {6: 15}, (2, 1)).returns() == (2.0, -2.0)


def test_ln_last_roll_no_cube():
    last = gammon.variant("long-nardy", last_roll=True)
    # With the cube: the starter bears off the last checker; the other's last roll
    # follows with no cube decision for anyone, and a double is refused.
    state = CubeState.midgame(last, position({1: 1}, {2: 1, 1: 1}), (6, 5),
                              stakes=StakeRules(cube=True))
    state = state.apply(state.legal_actions()[0])
    assert state.phase is Phase.CHANCE and not state.preroll and state.position.turn == 1
    assert not state.may_double(1) and not state.may_double(0)
    assert "last roll" in state.why_no_double(1)
    with pytest.raises(gammon.IllegalPlayError, match="last roll"):
        state.apply(CubeAction.DOUBLE)
    end = state.apply(Roll((2, 1)))
    end = end.apply(end.legal_actions()[0])
    assert end.is_terminal and end.returns() == (0.0, 0.0)
    # On an ordinary turn the same player may double.
    state = CubeState.midgame(last, position({20: 2}, {2: 1, 1: 1}), (6, 5),
                              stakes=StakeRules(cube=True))
    state = state.apply(state.legal_actions()[0])
    assert state.preroll and state.legal_actions() == (CubeAction.ROLL, CubeAction.DOUBLE)


def test_ln_last_roll_only_for_the_second_player():
    last = gammon.variant("long-nardy", last_roll=True)
    # The second player (moves odd) finishing first wins at once.
    state = GameState(last, position({1: 1}, {6: 15}), Phase.DECIDE, (6, 5), False, 11)
    end = state.apply(state.legal_actions()[0])
    assert end.is_terminal and end.returns() == (2.0, -2.0)


# --- positions and options -----------------------------------------------------------


def test_ln_positions_checked():
    shared = Position.from_checkers(
        [[0] * 13 + [1] + [0] * 10 + [14, 0], [0, 1] + [0] * 22 + [14, 0]], 0
    )
    with pytest.raises(gammon.InvalidOptionError, match="both players"):
        LN.state(shared, (3, 1))
    bar = Position.from_checkers([[0] * 24 + [14, 1], [0] * 24 + [15, 0]], 0)
    with pytest.raises(gammon.InvalidOptionError, match="no bar"):
        LN.state(bar, (3, 1))


def test_ln_options_are_named_and_typed():
    assert LN.options() == {
        "head_doubles_both": True, "last_roll": False, "mars": True, "koks": False,
        "wide_head_exception": False,
    }
    with pytest.raises(gammon.InvalidOptionError, match="takes true or false, not 1"):
        gammon.variant("long-nardy", koks=1)
    with pytest.raises(gammon.InvalidOptionError, match="no option"):
        gammon.variant("long-nardy", hitting=True)
    for alias in ("long", "long-backgammon", "narde", "long-narde"):
        assert gammon.variant(alias).name == "long-nardy"


# --- the kernel against a brute-force reading of the page -----------------------------


def oracle_results(rules, pos: Position, dice: tuple[int, int]) -> set[bytes]:
    """Every legal resulting board, from the rules page and nothing else."""
    mover, other = pos.turn, 1 - pos.turn
    theirs = pos.row(other)

    def theirs_at(point: int) -> int:  # the opponent's checkers on our ``point``
        return theirs[(point + 11) % 24 + 1]

    two_from_head = (
        dice[0] == dice[1] and dice[0] in (6, 4, 3) and pos.count(mover, 24) == 15
        and (rules.head_doubles_both or pos.count(other, 24) == 15)
    )
    # LN-HEAD-WIDE: the second player's first 5-5 or 6-2 after the starter's first play
    # left its checker on the starter's 21, 16 or 4.
    two_from_head = two_from_head or (
        rules.wide_head_exception and sorted(dice) in ([5, 5], [2, 6])
        and pos.count(mover, 24) == 15 and pos.count(other, 24) == 14
        and any(pos.count(other, point) == 1 for point in (21, 16, 4))
    )
    limit = 2 if two_from_head else 1

    def six_block(mine: list[int]) -> bool:
        # Our points as the opponent numbers them; a run of six of them with none of
        # the opponent's checkers on a lower point of theirs, or off.
        held = {(s + 11) % 24 + 1 for s in range(1, 25) if mine[s]}
        for low in range(1, 20):
            if all(low + k in held for k in range(6)) and not any(theirs[: low]):
                return True
        return False

    def step(mine: list[int], heads: int, source: int, die: int):
        if not mine[source] or (source == 24 and heads >= limit):
            return None
        target = source - die
        if target <= 0:
            if any(mine[7:]):
                return None
            if target < 0 and any(mine[source + 1 : 7]):
                return None
            target = 0
        elif theirs_at(target):
            return None
        after = list(mine)
        after[source] -= 1
        after[target] += 1
        if target and six_block(after):
            return None
        return after, heads + (source == 24)

    def finish(order: list[int]) -> dict[tuple, int]:
        stopped: dict[tuple, int] = {}
        frontier = {(tuple(pos.row(mover)), 0)}
        for used, die in enumerate(order):
            following = set()
            for mine, heads in frontier:
                moves = [step(list(mine), heads, s, die) for s in range(1, 25)]
                moves = [(tuple(m), h) for m_h in moves if m_h for m, h in [m_h]]
                if not moves:
                    stopped[mine] = max(stopped.get(mine, 0), used)
                following.update(moves)
            frontier = following
        for mine, _ in frontier:
            stopped[mine] = len(order)
        return stopped

    high, low = max(dice), min(dice)
    if high == low:
        found = finish([high] * 4)
        most = max(found.values())
        boards = {m for m, n in found.items() if n == most}
    else:
        first, second = finish([high, low]), finish([low, high])
        most = max(max(first.values()), max(second.values()))
        if most == 1:
            boards = {m for m, n in first.items() if n == 1} or {
                m for m, n in second.items() if n == 1
            }
        else:
            boards = {m for m, n in {**first, **second}.items() if n == most}
            boards = {m for m in boards if first.get(m) == most or second.get(m) == most}
    rows = [theirs, theirs]
    out = set()
    for mine in boards:
        rows[mover] = mine
        out.add(bytes(rows[0] + rows[1]))
    return out



@pytest.mark.parametrize("options", [{}, {"head_doubles_both": False},
                                     {"wide_head_exception": True}])
@answers.AFRESH
def test_ln_kernel_agrees_with_the_rules_page(options, afresh):
    """The oracle's answers stored (:mod:`answers`), asked afresh in make long."""
    rules = gammon.variant("long-nardy", **options)

    def questions():
        positions = oracle.random_game_positions(rules, 60, seed=5)
        positions += [rules.start_position(0), position({24: 15}, {24: 14, 13: 1}),
                      position({24: 15}, {24: 14, 4: 1}), position(BLOCK_BASE, {24: 15}),
                      position({16: 1, **BLOCK_BASE}, {24: 14, 16: 1})]
        return positions + [position({24: 15}, after) for after in AFTER.values()]

    assert answers.agree(
        answers.name_of("long-nardy", options), rules,
        lambda pos, dice: oracle_results(rules, pos, dice), afresh=afresh,
        questions=questions, about=f"long-nardy {options}: 60 positions of random games "
        "(seed 5) and the hand-made ones") >= 60 * 21


def test_ln_compiled_generator_alone_finds_every_double():
    # 11/6 must come before 13/8 (else 11..6 is a block for a moment): 13/3 11/6 9/4.
    pos = position(BLOCK_BASE, {24: 15})
    rows = LN.kernel.plays(pos.board, 0, 5, 5)
    assert {rows[i, :52].tobytes() for i in range(len(rows))} == oracle_results(LN, pos, (5, 5))


# --- faces: the terminal board, the terminal game, the command line --------------------


def test_ln_board_drawn_with_both_heads():
    from test_render import read_board

    from gammon.render import board_text

    state = LN.state(LN.start_position(), (6, 5))
    text = board_text(state)
    lines = text.splitlines()
    assert lines[0].split() == [str(n) for n in range(13, 25)]
    assert lines[14].split() == [str(n) for n in range(12, 0, -1)]
    seen = read_board(text)
    # Our head top right, theirs diagonally opposite, bottom left; no bar.
    assert seen[24] == ("X", 15) and seen[12] == ("O", 15)
    assert "BAR" not in text and text.count("head 15") == 2
    assert "heads X 24, O 12" in lines[15] and "◄ along the top, ► along the bottom" in lines[15]
    seen = read_board(board_text(state, viewer=1))
    assert seen[24] == ("O", 15) and seen[12] == ("X", 15)


def test_ln_terminal_game_to_the_end():
    import io

    from rich.console import Console

    from gammon.cli.play import run_game

    def play(seed, rules=LN):
        console = Console(file=io.StringIO(), width=110, color_system=None)
        return run_game(rules, ["random", "random"], seed, console), console.file.getvalue()

    result, out = play(3)
    assert result.finished and result.points in (1, 2)
    # The opening lot only picks the starter, who then rolls (no "goes first with 6-5").
    opening = re.search(r"Opening roll: random \(seat 1\) throws (\d), random \(seat 2\) "
                        r"throws (\d) — random \(seat (\d)\) goes first and rolls\.",
                        " ".join(out.split()))
    assert opening is not None, out[:400]
    thrown = int(opening[1]), int(opening[2])
    assert int(opening[3]) == (1 if thrown[0] > thrown[1] else 2)
    result, out = play(3, gammon.variant("long-nardy", last_roll=True))
    assert result.finished and result.winner is None and result.points == 0
    assert "The game is drawn." in out


@pytest.mark.parametrize("kind", ["match", "money"])
def test_ln_opening_line_under_stakes_names_the_starter_who_rolls(kind):
    import io

    from rich.console import Console

    from gammon.cli.play import run_match, run_session

    console = Console(file=io.StringIO(), width=110, color_system=None)
    if kind == "match":
        run_match(LN, ["random", "random"], 1, seed=3, console=console)
    else:
        run_session(LN, ["random", "random"], stake=2, seed=3, console=console, games=1)
    out = " ".join(console.file.getvalue().split())
    assert "goes first with ." not in out
    assert re.search(r"random \(seat \d\) goes first and rolls\.", out), out[:400]


def test_ln_command_line():
    import json

    from typer.testing import CliRunner

    from gammon.cli.main import app

    runner = CliRunner()
    result = runner.invoke(app, ["selfplay", "long-nardy", "--games", "200", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["games"] == 200 and stats["unfinished"] == 0 and stats["draws"] == 0
    assert sum(p["wins"] for p in stats["players"]) == 200
    assert all(p["backgammons"] == 0 for p in stats["players"])  # no koks by default
    result = runner.invoke(app, ["selfplay", "narde", "--games", "200", "--json",
                                 "-o", "last_roll=true", "-o", "koks=yes"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["options"]["koks"] is True
    result = runner.invoke(app, ["legal", "long-nardy", "--dice", "66"])
    assert result.exit_code == 0 and "24/18(2)" in result.output
    result = runner.invoke(app, ["variants"])
    assert "long-nardy" in result.output and "caucasian" in result.output
