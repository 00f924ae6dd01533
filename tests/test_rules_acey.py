"""One test per rule of docs/rules/acey-deucey.md, named after the rule's label.

Positions are built by hand: each player's checkers as ``{slot: count}`` in that
player's own numbering (25 = off the board, waiting to enter; checkers not placed are
borne off). The expected plays are written out from the rules page.
"""

from __future__ import annotations

import dataclasses
import json
import random
from fractions import Fraction

import pytest
from layouts import position
from typer.testing import CliRunner

import gammon
from gammon import IllegalPlayError, InvalidOptionError, Phase, Play, Position, Roll
from gammon.cli.main import app
from gammon.core.errors import IllegalOutcomeError
from gammon.variants.acey import (
    ACEY_DOUBLES,
    CHOOSE,
    EXTRA,
    NUMBER,
    AceyMemo,
    DoublesChoice,
)

AD = gammon.variant("acey-deucey")
RESTRICTIVE = gammon.variant("acey-deucey-restrictive")
#: The standard game with every opening rule switched off: any roll enters or moves,
#: and nothing has to enter first (the game before the source's opening was the default).
LENIENT = gammon.variant("acey-deucey", start_on_doubles=False, enter_all_first=False,
                         hit_enters_first=False)
OPENING = ("start_on_doubles", "enter_all_first", "hit_enters_first")
FLAGS = ("start_on_doubles", "enter_all_first", "roll_for_doubles", "forfeit_unplayed",
         "home_freeze", "exact_bear_off")


def layouts(variant, pos: Position, dice: tuple[int, int]) -> set[tuple]:
    """The mover's layout (slot, count), off omitted, after each legal play."""
    state = variant.state(pos, dice)
    return {_layout(play.result.row(pos.turn)) for play in state.legal_actions()}


def _layout(row) -> tuple:
    return tuple((slot, n) for slot, n in enumerate(row) if n and slot > 0)


def lay(**points: int) -> tuple:
    """Layout from keyword form p24=2, bar=1 (off omitted)."""
    slots = {25 if key == "bar" else int(key[1:]): n for key, n in points.items()}
    return tuple(sorted(slots.items()))


def in_game(variant, pos: Position, dice: tuple[int, int], entered: tuple[bool, bool]):
    """A state of a game in progress in which both players have started, and
    ``entered[p]`` says whether all of player p's checkers have entered once (the memo a
    game keeps; a position typed by hand cannot tell a hit checker from one that never
    entered)."""
    return dataclasses.replace(variant.state(pos, dice),
                               memo=AceyMemo((True, True), "", entered))


def play_to(state, **points: int) -> Play:
    """The legal play of ``state`` whose mover's layout is ``points``."""
    wanted = lay(**points)
    mover = state.position.turn
    for play in state.legal_actions():
        if _layout(play.result.row(mover)) == wanted:
            return play
    raise AssertionError(f"no legal play gives {wanted}")


# --- board and start -----------------------------------------------------------------


def test_ad_board_numbering_is_backgammons():
    for slot in range(1, 25):
        assert AD.shared_slot(0, slot, 1) == 25 - slot
    assert AD.points == 24 and AD.home == 6 and AD.checkers == 15


def test_ad_start_all_fifteen_off_the_board():
    start = AD.start_position()
    for player in (0, 1):
        assert start.bar(player) == 15 and start.on_board(player) == 0
        assert start.off(player) == 0 and start.pips(player) == 375


def test_ad_opening_lot_only_picks_the_starter():
    state = AD.initial_state()
    assert state.opening and len(state.chance_outcomes()) == 30  # equal dice: again
    with pytest.raises(IllegalOutcomeError):
        state.apply(Roll((3, 3), opening=True))
    after = state.apply(Roll((2, 5), opening=True))
    # The starter throws both dice afresh: all 21 rolls, doubles and 1-2 included.
    assert after.is_chance and not after.opening and after.position.turn == 1
    outcomes = dict((r.dice, p) for r, p in after.chance_outcomes())
    assert len(outcomes) == 21 and outcomes[(2, 1)] == Fraction(1, 18)
    rolled = after.apply(Roll((2, 1)))
    assert rolled.current_player == 1 and rolled.dice == (2, 1)


# --- the opening -----------------------------------------------------------------------


def test_ad_start_doubles():
    state = AD.initial_state().apply(Roll((5, 2), opening=True))
    rolled = state.apply(Roll((6, 5)))
    assert [p.moves for p in rolled.legal_actions()] == [()]
    assert AD.no_move_reason(rolled) is not None
    state = rolled.apply(rolled.legal_actions()[0])
    assert state.position.turn == 1
    # O starts with a double, plays it at once, then moves with any roll.
    rolled = state.apply(Roll((4, 4)))
    assert all(len(p.moves) == 4 for p in rolled.legal_actions())
    state = rolled.apply(rolled.legal_actions()[0])
    assert state.position.turn == 1 and state.memo.started == (False, True)
    rolled = state.apply(Roll((6, 3)))
    assert all(len(p.moves) == 2 for p in rolled.legal_actions())
    state = rolled.apply(rolled.legal_actions()[0])
    # X is still bound; a 1-2 starts X too.
    rolled = state.apply(Roll((6, 3)))
    assert [p.moves for p in rolled.legal_actions()] == [()]
    state = rolled.apply(rolled.legal_actions()[0]).apply(Roll((5, 1)))
    state = state.apply(state.legal_actions()[0])
    rolled = state.apply(Roll((2, 1)))
    assert all(len(p.moves) == 2 for p in rolled.legal_actions())
    # The command line's view of the start: 6-5 lists only "no move".
    result = CliRunner().invoke(app, ["legal", "acey-deucey", "--dice", "65", "--json"])
    assert result.exit_code == 0, result.output
    assert [p["move"] for p in json.loads(result.output)["plays"]] == ["no move"]
    # Without the option, any roll enters.
    rules = gammon.variant("acey-deucey", start_on_doubles=False)
    assert layouts(rules, rules.start_position(), (5, 3)) == {lay(bar=13, p22=1, p20=1)}
    assert all(len(p.moves) == 2 for p in LENIENT.state(LENIENT.start_position(), (5, 3))
               .legal_actions())


def test_ad_enter_all():
    pos = position({25: 14, 13: 1}, {1: 15})
    found = layouts(AD, pos, (6, 5))
    # Both dice must enter checkers; the 13 stays.
    assert found == {lay(bar=12, p20=1, p19=1, p13=1)}
    # Option off: checkers on the board move while others wait, even for the whole game.
    rules = gammon.variant("acey-deucey", enter_all_first=False)
    found = layouts(rules, pos, (6, 5))
    assert lay(bar=14, p2=1) in found  # 13/7/2: the 13 moves, fourteen still wait
    assert lay(bar=13, p19=1, p8=1) in found  # or one enters and the 13 moves
    assert lay(bar=12, p20=1, p19=1, p13=1) in found  # or two enter
    assert layouts(LENIENT, pos, (6, 5)) == found


def test_ad_acey_same_checker():
    # The 1-2 moves one checker one point and one two, which may be the same checker:
    # bar/22 (by way of 24 or 23) while fourteen still wait, in the standard game and in
    # the restrictive one.
    for rules in (AD, RESTRICTIVE):
        start = rules.start_position()
        assert layouts(rules, start, (2, 1)) == {lay(bar=13, p24=1, p23=1),
                                                  lay(bar=14, p22=1)}
    # Only the checker that entered: with one already on the board, the 2 may not move
    # it while others wait.
    pos = position({25: 14, 13: 1}, {7: 15})
    assert layouts(AD, pos, (2, 1)) == {lay(bar=12, p24=1, p23=1, p13=1),
                                        lay(bar=13, p22=1, p13=1)}
    # Other rolls are no exception: 3-1 enters two.
    assert layouts(AD, pos, (3, 1)) == {lay(bar=12, p24=1, p22=1, p13=1)}


# --- entering and moving ---------------------------------------------------------------


def test_ad_enter_counts_the_starting_point_as_one():
    start = AD.start_position()
    # 1s enter on the 24-point, 2s on the 23-point (the 1-2 may take one checker on to
    # the 22, AD-ACEY-SAME-CHECKER).
    assert layouts(AD, start, (2, 1)) == {lay(bar=13, p24=1, p23=1), lay(bar=14, p22=1)}
    assert layouts(AD, start, (1, 1)) == {lay(bar=11, p24=4)}
    assert layouts(AD, start, (6, 6)) == {lay(bar=11, p19=4)}
    assert layouts(LENIENT, start, (6, 5)) == {lay(bar=13, p19=1, p20=1), lay(bar=14, p14=1)}


def test_ad_enter_blocked_and_hitting():
    # O holds its 5-point (our 20) and has a blot on its 3-point (our 22).
    pos = position({25: 15}, {5: 2, 3: 1, 1: 12})
    for rules in (AD, LENIENT):
        for play in in_game(rules, pos, (5, 3), (False, True)).legal_actions():
            assert play.result.count(0, 20) == 0  # a 5 never enters on the held 20
    # The 3 enters on 22 and hits; the 5 cannot enter. In the opening the entered
    # checker may not move on (AD-ENTER-ALL), so only the 3 is played ...
    state = in_game(AD, pos, (5, 3), (False, True))
    assert {(_layout(p.result.row(0)), p.result.bar(1)) for p in state.legal_actions()} == {
        (lay(bar=14, p22=1), 1)
    }
    # ... while the lenient rules move it on with the 5.
    state = in_game(LENIENT, pos, (5, 3), (False, True))
    assert {(_layout(p.result.row(0)), p.result.bar(1)) for p in state.legal_actions()} == {
        (lay(bar=14, p17=1), 1)
    }


def test_ad_dice_both_higher_and_doubles_max():
    # Both dice when possible: 24/19/13 (the 5 first) though 24/18 is blocked.
    pos = position({24: 1}, {7: 2, 1: 13})
    assert layouts(AD, pos, (6, 5)) == {lay(p13=1)}
    # With our 13 closed as well only the 5 can be played, and it is.
    pos = position({24: 1}, {7: 2, 12: 2, 1: 11})
    assert layouts(AD, pos, (6, 5)) == {lay(p19=1)}
    # Doubles max: two checkers on 24, our 12 closed (their 13): 24/18(2) and no more.
    pos = position({24: 2}, {13: 2, 1: 13})
    assert layouts(AD, pos, (6, 6)) == {lay(p18=2)}
    # No move at all (O's home board closed, our home checkers locked): the empty play.
    closed = {p: 2 for p in range(1, 7)} | {7: 3}
    state = AD.state(position({25: 1, 6: 14}, closed), (6, 6))
    assert len(state.legal_actions()) == 1 and state.legal_actions()[0].moves == ()


def test_ad_hit_checker_goes_back_off_the_board():
    pos = position({13: 1, 8: 14}, {20: 1, 13: 2, 1: 12})
    state = AD.state(pos, (5, 3))
    hits = [p for p in state.legal_actions() if p.result.bar(1) == 1]
    hit = play_to(state, p5=1, p8=14)  # 13/8/5* hits O's blot on its 20 (our 5)
    assert hit in hits and hit.result.count(1, 20) == 0
    # It waits on the bar slot, to enter as every checker did at the start (AD-ENTER).
    after = state.apply(hit).apply(Roll((4, 2)))
    assert after.position.bar(1) == 1 and after.current_player == 1
    assert any(p.moves[0].source == 25 for p in after.legal_actions())


def test_ad_hit_enter_first():
    # Both players past the opening (every checker entered once). X hits O's blot; O's
    # hit checker must enter before any other O checker moves.
    pos = position({13: 1, 8: 14}, {20: 1, 13: 2, 1: 12})
    for rules, must in ((AD, True), (LENIENT, False),
                        (gammon.variant("acey-deucey", hit_enters_first=False), False)):
        state = in_game(rules, pos, (5, 3), (True, True))
        state = state.apply(play_to(state, p5=1, p8=14)).apply(Roll((4, 2)))
        plays = state.legal_actions()
        assert all(p.moves[0].source == 25 for p in plays) is must
        assert any(p.result.bar(1) == 0 for p in plays)
        assert any(p.result.bar(1) == 1 for p in plays) is not must
    # After the opening a 1-2 is no exception: two hit checkers both enter ...
    pos = position({25: 2, 13: 1, 8: 12}, {7: 15})
    state = in_game(AD, pos, (2, 1), (True, True))
    assert {_layout(p.result.row(0)) for p in state.legal_actions()} == {
        lay(p24=1, p23=1, p13=1, p8=12)}
    # ... while in the opening the 1-2 may take the entered checker on (the same
    # position, read as checkers that never entered: AD-ACEY-SAME-CHECKER).
    state = in_game(AD, pos, (2, 1), (False, True))
    assert lay(bar=1, p22=1, p13=1, p8=12) in {
        _layout(p.result.row(0)) for p in state.legal_actions()}
    # In a lenient opening (enter_all_first=false) a checker hit before all have entered
    # waits with the others: nothing has to enter first until the last one is in.
    rules = gammon.variant("acey-deucey", enter_all_first=False)
    pos = position({25: 3, 13: 1, 8: 11}, {1: 15})
    opening = {_layout(p.result.row(0))
               for p in in_game(rules, pos, (6, 5), (False, True)).legal_actions()}
    assert lay(bar=3, p2=1, p8=11) in opening  # 13/7/2 with three waiting
    later = {_layout(p.result.row(0))
             for p in in_game(rules, pos, (6, 5), (True, True)).legal_actions()}
    assert later == {lay(bar=1, p20=1, p19=1, p13=1, p8=11)}


# --- doubles and the acey-deucey -------------------------------------------------------


def test_ad_doubles_four_moves_then_roll_again():
    state = AD.state(AD.start_position(), (3, 3))
    plays = state.legal_actions()
    assert all(len(p.moves) == 4 for p in plays)
    after = state.apply(play_to(state, bar=11, p22=4))
    assert after.is_chance and after.position.turn == 0
    assert after.memo.stage == EXTRA
    # And again after the extra roll's doubles; an ordinary roll passes the dice.
    again = after.apply(Roll((5, 5)))
    again = again.apply(again.legal_actions()[0])
    assert again.is_chance and again.position.turn == 0
    ordinary = again.apply(Roll((4, 2)))
    ordinary = ordinary.apply(ordinary.legal_actions()[0])
    assert ordinary.is_chance and ordinary.position.turn == 1
    assert ordinary.memo.stage == ""


def test_ad_acey_one_two_then_chosen_doubles_then_roll_again():
    state = AD.initial_state().apply(Roll((6, 2), opening=True)).apply(Roll((1, 2)))
    assert state.dice == (2, 1) and state.current_player == 0
    state = state.apply(play_to(state, bar=13, p24=1, p23=1))
    # A decision, not a throw: the same player names the number.
    assert state.phase is Phase.DECIDE and state.current_player == 0
    assert state.memo.stage == CHOOSE and state.dice == ()
    assert list(state.legal_actions()) == [DoublesChoice(n) for n in range(1, 7)]
    with pytest.raises(IllegalPlayError, match="choice of doubles"):
        state.apply(state.legal_actions)  # not an action at all
    doubles = state.apply(DoublesChoice(4))
    assert doubles.dice == (4, 4) and doubles.current_player == 0
    assert doubles.memo.stage == ACEY_DOUBLES
    assert all(len(p.moves) == 4 for p in doubles.legal_actions())
    with pytest.raises(IllegalPlayError, match="no doubles number to choose"):
        doubles.apply(DoublesChoice(4))
    after = doubles.apply(play_to(doubles, bar=9, p24=1, p23=1, p21=4))
    assert after.is_chance and after.position.turn == 0 and after.memo.stage == EXTRA
    assert after.moves == 2  # two plays; the choice is not a play
    # A plain number is accepted as the choice too.
    assert state.apply(6).dice == (6, 6)


def test_ad_choice_most_moves():
    # One checker left, on the 6-point: 1s play four moves; 2, 3 and 6 bear it off
    # (complete: the game is won); 4 and 5 play one move and then cannot bear off.
    state = AD.state(position({6: 1}, {25: 15}), (2, 1))
    assert AD.doubles_choices(state) == [1, 2, 3, 6]
    # Nothing can be played with any number: all six may be named.
    closed = {p: 2 for p in range(1, 7)} | {7: 3}
    nothing = position({25: 1, 6: 14}, closed)
    assert all(AD.kernel.plays(nothing.board, 0, n, n)[0, -1] == 0 for n in range(1, 7))
    assert AD.doubles_choices(AD.state(nothing, (2, 1))) == [1, 2, 3, 4, 5, 6]
    # Some numbers blocked: a lone checker on 24, 14 locked at home, O holding our 18:
    # 1s, 4s and 5s play four moves (24/20, 24/8, 24/4); 2s two (24/20, then 18 is
    # held), 3s one (24/21) and 6s none.
    pos = position({24: 1, 6: 14}, {7: 2, 1: 13})
    assert AD.doubles_choices(AD.state(pos, (2, 1))) == [1, 4, 5]
    chooser = dataclasses.replace(AD.state(pos, (2, 1)), dice=(), memo=AceyMemo(
        (True, True), CHOOSE, (True, True)))
    assert list(chooser.legal_actions()) == [DoublesChoice(1), DoublesChoice(4),
                                             DoublesChoice(5)]
    with pytest.raises(IllegalPlayError, match="not a legal choice"):
        chooser.apply(DoublesChoice(2))


def test_ad_earned_even_when_unplayable():
    # The 1 and the 2 cannot be played: O holds our 24 and 23 (their 1 and 2), and our
    # only checker waits to enter; the rest are home and locked.
    pos = position({25: 1, 6: 14}, {1: 2, 2: 2, 12: 11})
    state = AD.state(pos, (2, 1))
    assert [p.moves for p in state.legal_actions()] == [()]
    chooser = state.apply(state.legal_actions()[0])
    assert chooser.memo.stage == CHOOSE and chooser.current_player == 0
    # A double of which only some moves can be played still earns the roll.
    pos = position({24: 2, 6: 13}, {13: 2, 12: 11})
    state = AD.state(pos, (6, 6))
    assert all(len(p.moves) == 2 for p in state.legal_actions())
    after = state.apply(state.legal_actions()[0])
    assert after.is_chance and after.position.turn == 0


# --- home and bearing off --------------------------------------------------------------


def test_ad_home_lock():
    pos = position({13: 1, 6: 1}, {25: 15})
    # The 6 may not move while the 13 is out: 13/9 (via 10 or 12) is the only play.
    assert layouts(AD, pos, (3, 1)) == {lay(p9=1, p6=1)}
    # Checkers waiting to enter count as not arrived.
    pos = position({25: 1, 6: 14}, {12: 15})
    assert layouts(AD, pos, (3, 1)) == {lay(p21=1, p6=14)}
    # The last arrival frees the others within the same play.
    pos = position({7: 1, 6: 1}, {25: 15})
    found = layouts(AD, pos, (2, 1))
    assert lay(p6=1, p4=1) in found  # 7/6 then 6/4, or 7/5/4
    assert lay(p5=2) in found  # 7/5 6/5
    assert all(dict(f).get(7, 0) == 0 for f in found)


def test_ad_bearoff_home():
    pos = position({7: 1, 3: 1}, {25: 15})
    # 3/off first is illegal while the 7 is out; once 7/4 arrives, the 3 bears off.
    assert layouts(AD, pos, (4, 3)) == {lay(p3=1)}  # 7/4 4/off or 7/3 3/off


def test_ad_bearoff_exact():
    # A 6-5 with the highest checkers on 4 and 3: nothing bears off, nothing moves.
    pos = position({4: 1, 3: 1}, {25: 15})
    assert layouts(AD, pos, (6, 5)) == {lay(p4=1, p3=1)}
    # 5-4 with checkers on 4 and 3: the 4 bears off the 4; the 5 moves nothing.
    pos = position({4: 1, 3: 1}, {25: 15})
    assert layouts(AD, pos, (5, 4)) == {lay(p3=1)}
    # Exact dice bear off: 6/off 2/off.
    pos = position({6: 1, 2: 1}, {25: 15})
    assert layouts(AD, pos, (6, 2)) == {()}
    # Backgammon's rule with the option off.
    loose = gammon.variant("acey-deucey", exact_bear_off=False)
    assert layouts(loose, position({4: 1, 3: 1}, {25: 15}), (6, 5)) == {()}


# --- end and score ---------------------------------------------------------------------


def test_ad_win_ends_the_game_at_once():
    # A 1-2 that bears off the last checkers: no doubles to name, the game is over.
    state = AD.state(position({2: 1, 1: 1}, {25: 15}), (2, 1))
    end = state.apply(state.legal_actions()[0])
    assert end.is_terminal and end.winner == 0
    state = AD.state(position({1: 2}, {25: 15}), (1, 1))
    end = state.apply(state.legal_actions()[0])
    assert end.is_terminal and end.winner == 0


@pytest.mark.parametrize(
    ("scoring", "loser", "points"),
    [
        ("single", {25: 15}, 1),
        ("single", {6: 14}, 1),
        ("gammon", {6: 14}, 1),
        ("gammon", {6: 15}, 2),
        ("gammon", {25: 15}, 2),
        ("backgammon", {6: 15}, 2),
        ("backgammon", {19: 1, 6: 14}, 3),
        ("backgammon", {25: 1, 6: 14}, 3),  # a checker that never entered
    ],
)
def test_ad_score(scoring, loser, points):
    rules = gammon.variant("acey-deucey", scoring=scoring)
    state = rules.state(position({1: 1}, loser), (2, 1))
    end = state.apply(state.legal_actions()[0])
    assert end.is_terminal and end.returns() == (points, -points)


def test_ad_score_option_is_checked():
    with pytest.raises(InvalidOptionError, match="single, gammon, backgammon"):
        gammon.variant("acey-deucey", scoring="triple")


def test_ad_no_cube():
    assert not any("cube" in name for name in AD.options())
    rng = random.Random(5)
    state = AD.initial_state()
    kinds = set()
    while not state.is_terminal:
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
            continue
        action = rng.choice(state.legal_actions())
        kinds.add(type(action))
        state = state.apply(action)
    assert kinds <= {Play, DoublesChoice}


# --- the restrictive variant -----------------------------------------------------------


def test_adr_preset_sets_every_flag():
    assert all(getattr(RESTRICTIVE, flag) for flag in FLAGS)
    assert RESTRICTIVE.hit_enters_first
    # The standard game has the source's opening; the restrictive rules are options.
    assert all(getattr(AD, flag) for flag in OPENING) and AD.exact_bear_off
    assert not any(getattr(AD, flag) for flag in ("roll_for_doubles", "forfeit_unplayed",
                                                  "home_freeze"))
    assert RESTRICTIVE.name == "acey-deucey" and RESTRICTIVE.scoring == "single"
    one = gammon.variant("acey-deucey", forfeit_unplayed=True)
    assert one.forfeit_unplayed and one.start_on_doubles and not one.home_freeze
    assert not any(getattr(LENIENT, flag) for flag in OPENING)


def test_adr_roll_number():
    rules = gammon.variant("acey-deucey", roll_for_doubles=True)
    state = rules.state(rules.start_position(), (2, 1))
    state = state.apply(play_to(state, bar=14, p22=1))
    assert state.is_chance and state.memo.stage == NUMBER and state.position.turn == 0
    outcomes = state.chance_outcomes()
    assert [r.dice for r, _ in outcomes] == [(n,) for n in range(1, 7)]
    assert all(p == Fraction(1, 6) for _, p in outcomes)
    with pytest.raises(IllegalOutcomeError, match="one die"):
        state.apply(Roll((5, 3)))
    doubles = state.apply(Roll((5,)))
    assert doubles.dice == (5, 5) and doubles.current_player == 0
    after = doubles.apply(doubles.legal_actions()[0])
    assert after.is_chance and after.position.turn == 0 and after.memo.stage == EXTRA


def test_adr_forfeit():
    rules = gammon.variant("acey-deucey", forfeit_unplayed=True)
    # The 1-2 only partly playable: O holds our 23 (their 2), so only the 1 enters...
    pos = position({25: 1, 6: 14}, {2: 2, 3: 2, 12: 11})
    state = rules.state(pos, (2, 1))
    assert {len(p.moves) for p in state.legal_actions()} == {1}
    after = state.apply(state.legal_actions()[0])
    assert after.is_chance and after.position.turn == 1  # no doubles, no roll
    # ... while the standard rules still give the doubles.
    assert AD.state(pos, (2, 1)).apply(AD.state(pos, (2, 1)).legal_actions()[0]) \
        .memo.stage == CHOOSE
    # A double with fewer than four moves ends the turn.
    pos = position({24: 2, 6: 13}, {13: 2, 12: 11})
    state = rules.state(pos, (6, 6))
    after = state.apply(state.legal_actions()[0])
    assert after.is_chance and after.position.turn == 1
    # Also in the bear-off: 6-6 with three on the 6-point and two on the 1-point.
    state = rules.state(position({6: 3, 1: 2}, {25: 15}), (6, 6))
    assert layouts(rules, state.position, (6, 6)) == {lay(p1=2)}
    after = state.apply(state.legal_actions()[0])
    assert after.is_chance and after.position.turn == 1
    # A double played in full still earns the roll.
    state = rules.state(rules.start_position(), (3, 3))
    after = state.apply(state.legal_actions()[0])
    assert after.is_chance and after.position.turn == 0
    # The doubles of a 1-2, not played in full, end the turn as well: the 1 and 2 bring
    # the 9 home; the checker waiting to enter finds O's home board closed, and the
    # home checkers are locked, so no number moves anything. (Without the opening rules,
    # so that the 9 may move while a checker waits.)
    closed = {p: 2 for p in range(1, 7)} | {7: 3}
    pos = position({25: 1, 9: 1, 6: 13}, closed)
    free = {"start_on_doubles": False, "enter_all_first": False, "hit_enters_first": False}
    for options, next_player in (({"forfeit_unplayed": True}, 1), ({}, 0)):
        variant = gammon.variant("acey-deucey", **free, **options)
        chooser = variant.state(pos, (2, 1))
        chooser = chooser.apply(play_to(chooser, bar=1, p6=14))
        assert chooser.memo.stage == CHOOSE and len(chooser.legal_actions()) == 6
        doubles = chooser.apply(DoublesChoice(1))
        assert [p.moves for p in doubles.legal_actions()] == [()]
        after = doubles.apply(doubles.legal_actions()[0])
        assert after.is_chance and after.position.turn == next_player


def test_adr_home_freeze():
    rules = gammon.variant("acey-deucey", home_freeze=True)
    # While the 13 is out, the 6 may move inside the home board (contrast AD-HOME-LOCK).
    pos = position({13: 1, 6: 1}, {25: 15})
    found = layouts(rules, pos, (3, 1))
    assert lay(p13=1, p2=1) in found and lay(p12=1, p3=1) in found
    # Once all are home, only bearing off: 2-1 with checkers on 6 and 4 cannot move.
    pos = position({6: 1, 4: 1}, {25: 15})
    assert layouts(rules, pos, (2, 1)) == {lay(p6=1, p4=1)}
    assert lay(p4=1, p3=1) in layouts(AD, pos, (2, 1))  # the standard rules move 6/3
    # The last arrival freezes the rest within the play: 7/6 then only 2/off; or first
    # 2/1 inside the home board while the 7 is out, then 7/5. (7/5 first would leave
    # the 1 unplayable: nothing may move inside, nothing is on the 1-point.)
    pos = position({7: 1, 2: 1}, {25: 15})
    assert layouts(rules, pos, (2, 1)) == {lay(p6=1), lay(p5=1, p1=1)}


def test_adr_exact():
    pos = position({4: 1}, {25: 15})
    assert layouts(RESTRICTIVE, pos, (6, 5)) == {lay(p4=1)}
    loose = gammon.variant("acey-deucey-restrictive", exact_bear_off=False)
    assert layouts(loose, pos, (6, 5)) == {()}
