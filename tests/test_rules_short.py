"""Short backgammon (docs/rules/short.md): one test per rule, named after its label.

The no-hide rule and its finer points are short backgammon's, and the Caucasian game
builds on short backgammon (docs/rules/caucasian.md), so those tests run for both
variants. Positions are in each player's own numbering (our point n is the opponent's
25 - n; 25 is the bar); checkers not placed are borne off. Each case is checked against
the international game (``backgammon``) too, so that the difference is exactly the rule.
"""

from __future__ import annotations

import json

import layouts
import oracle
import pytest
from layouts import position
from typer.testing import CliRunner

import gammon
from gammon import Position, Roll
from gammon.cli.main import app
from gammon.core.dice import two_dice
from gammon.notation import format_position, parse_position
from gammon.notation.movetext import find_play
from gammon.stakes import CubeAction, StakeRules, cube_game
from gammon.stakes.cube import CubeState

SHORT = gammon.variant("short")
plays, _, _ = layouts.rule_helpers(SHORT)
CAU = gammon.variant("caucasian")
BG = gammon.variant("backgammon")
ROLLS = [roll.dice for roll, _ in two_dice()]
#: The variants the no-hide rule holds in, by name (for the test ids).
HIDERS = {"short": SHORT, "caucasian": CAU}
hiders = pytest.mark.parametrize("rules", list(HIDERS.values()), ids=list(HIDERS))


def results(pos: Position, dice: tuple[int, int], rules=SHORT) -> set[tuple]:
    """Each legal play as (the mover's points, opposing checkers sent to the bar)."""
    found = set()
    for play in rules.state(pos, dice).legal_actions():
        row = play.result.row(pos.turn)
        found.add((tuple((s, n) for s, n in enumerate(row) if n and s), play.hits))
    return found


def layout(**points: int) -> tuple:
    return tuple(sorted((25 if key == "bar" else int(key[1:]), n) for key, n in points.items()))


def final(state, loser: dict[int, int]) -> tuple[float, ...]:
    """Player 0 bears off the last checker (on the 1-point, with 2-1) against ``loser``."""
    rows = [[0] * 26, [0] * 26]
    rows[0][1], rows[0][0] = 1, 14
    for slot, n in loser.items():
        rows[1][slot] = n
    rows[1][0] = 15 - sum(rows[1])
    game = state.state(Position.from_checkers(rows, 0), (2, 1))
    return game.apply(game.legal_actions()[0]).returns()


# An opposing blot on our 10 (their 15); the rest of theirs far away on their 1 (our 24).
BLOT_10 = {15: 1, 1: 14}


# --- names, base, notation ------------------------------------------------------------


def test_short_names():
    for name in ("short", "short-backgammon", "short-nardy"):
        short = gammon.variant(name)
        assert type(short) is type(SHORT) and short.name == "short"
    for name in ("backgammon", "standard"):
        assert gammon.variant(name).name == "backgammon"
        assert not gammon.variant(name).after_hit.no_hide
    assert SHORT.options() == {"no_bear_off_hitter": True, "koks": False}


def test_short_base_is_backgammon():
    assert SHORT.start_position() == BG.start_position()
    assert SHORT.after_hit.no_hide and not BG.after_hit.no_hide
    # Nothing can hit from the start with one roll and go on to hide, so every opening
    # play is backgammon's.
    for dice in ROLLS:
        assert plays(SHORT.start_position(), dice) == plays(BG.start_position(), dice, BG)
    # Entering first, bearing off with a higher die: backgammon's (BG-ENTER-FIRST,
    # BG-BEAROFF-HIGHER).
    pos = position({25: 1, 13: 5}, {1: 15})
    assert plays(pos, (3, 1)) == plays(pos, (3, 1), BG) == {"bar/22 13/12", "bar/21"}
    pos = position({3: 2}, {1: 15})
    assert plays(pos, (6, 5)) == plays(pos, (6, 5), BG) == {"3/off(2)"}


def test_short_ids_gnu_position_ids():
    pos = position({13: 1, 8: 2}, BLOT_10)
    text = format_position(SHORT, pos)
    assert text == format_position(BG, pos)
    assert parse_position(SHORT, text) == pos
    assert format_position(SHORT, SHORT.start_position()) == "4HPwATDgc/ABMA"
    # The command line: legal plays from the start, a whole game, the variants list.
    runner = CliRunner()
    result = runner.invoke(app, ["legal", "short", "--dice", "31", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["position_id"] == "4HPwATDgc/ABMA" and data["count"] == 16
    assert "8/5 6/5" in {play["move"] for play in data["plays"]}
    result = runner.invoke(app, ["play", "short", "--seats", "random,random", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "wins" in result.output
    listed = runner.invoke(app, ["variants"]).output
    assert "short-nardy" in listed and "no_bear_off_hitter" in listed


# --- the no-hide rule -----------------------------------------------------------------


@hiders
def test_short_no_hide(rules):
    # 13/10* and on to our own 8 with the 2: forbidden; backgammon allows it.
    pos = position({13: 1, 8: 2}, BLOT_10)
    assert "13/10*/8" in plays(pos, (3, 2), BG)
    assert "13/10*/8" not in plays(pos, (3, 2), rules)
    assert (layout(p8=3), 1) not in results(pos, (3, 2), rules)
    # Without hitting, the same checker may go 13/11/8.
    assert (layout(p8=3), 0) in results(pos, (3, 2), rules)
    # Typed, the refusal names the rule (issue 31: it said only "not legal").
    with pytest.raises(gammon.IllegalPlayError, match="may not hide"):
        find_play(rules.state(pos, (3, 2)), "13/10*/8")


@hiders
def test_short_hit_then_cover(rules):
    pos = position({13: 1, 12: 1, 8: 2}, BLOT_10)
    assert "13/10* 12/10" in plays(pos, (3, 2), rules)


@hiders
def test_short_hit_then_move_on_to_an_empty_point(rules):
    pos = position({13: 1, 6: 2}, BLOT_10)
    assert "13/10*/8" in plays(pos, (3, 2), rules)


@hiders
def test_short_hit_then_hit_again(rules):
    pos = position({13: 1, 6: 2}, {15: 1, 17: 1, 1: 13})  # blots on our 10 and 8
    assert "13/10*/8*" in plays(pos, (3, 2), rules)


@hiders
def test_short_other_checkers_unaffected(rules):
    pos = position({13: 1, 8: 2, 6: 2}, BLOT_10)
    assert "13/10* 8/6" in plays(pos, (3, 2), rules)


@hiders
def test_short_hit_then_hide_later_in_the_turn(rules):
    # 2-2: 14/12*/10 onto an empty point is fine, going on to our own 8 is hiding.
    pos = position({24: 1, 14: 1, 8: 2}, {13: 1, 1: 14})
    assert (layout(p22=1, p8=3), 1) in results(pos, (2, 2), BG)
    assert (layout(p22=1, p8=3), 1) not in results(pos, (2, 2), rules)
    assert (layout(p20=1, p10=1, p8=2), 1) in results(pos, (2, 2), rules)  # stopping on 10
    assert "24/20 14/12*/10" in plays(pos, (2, 2), rules)
    assert "24/22 14/12*/8" in plays(pos, (2, 2), BG)
    assert "24/22 14/12*/8" not in plays(pos, (2, 2), rules)


@hiders
def test_short_covered_hitter_either_checker_moves_on(rules):
    # 2-2, two checkers on 14, our 10 empty: 14/12*, 14/12, and both on to 10. In one
    # order of the alike checkers the hitter went on to the empty 10 first and the other
    # joined it: legal.
    pos = position({14: 2, 6: 2}, {13: 1, 1: 14})
    assert "14/12*/10(2)" in plays(pos, (2, 2), rules)
    # With ours already on 10, whichever of the two is the hitter would hide: illegal.
    # One of them may go on (call it the cover), the other stays on 12.
    pos = position({14: 2, 10: 1, 6: 2}, {13: 1, 1: 14})
    assert (layout(p12=1, p10=2, p6=1, p4=1), 1) in results(pos, (2, 2), rules)
    assert "14/12*/10 14/12 6/4" in plays(pos, (2, 2), rules)
    assert (layout(p10=3, p6=2), 1) in results(pos, (2, 2), BG)
    assert (layout(p10=3, p6=2), 1) not in results(pos, (2, 2), rules)
    assert "14/12*/10(2)" in plays(pos, (2, 2), BG)
    assert "14/12*/10(2)" not in plays(pos, (2, 2), rules)


@hiders
def test_short_covered_hitter_from_the_bar(rules):
    # The same pattern entering: two on the bar, 4-4, a blot on our 21. Both must enter
    # before either moves on (BG-ENTER-FIRST), so the cover comes before the hitter
    # moves on; they are alike, so the one moving on first may be the hitter.
    pos = position({25: 2, 6: 13}, {4: 1, 1: 14})
    assert "bar/21*/17(2)" in plays(pos, (4, 4), rules)
    assert "bar/21*/17(2)" in plays(pos, (4, 4), BG)
    # With ours on 17 it is hiding whichever goes first.
    pos = position({25: 2, 17: 1, 6: 12}, {4: 1, 1: 14})
    assert "bar/21*/17(2)" not in plays(pos, (4, 4), rules)
    assert "bar/21*/17 bar/21 6/2" in plays(pos, (4, 4), rules)
    # 1-1 with blots on our 24 and 23: both enter on 24 (hitting), then both go on to 23,
    # the first hitting again. If the one that hit on 24 hits on 23 as well, the other
    # (never a hitter) joins it: legal.
    pos = position({25: 2, 6: 13}, {1: 1, 2: 1, 19: 13})
    assert "bar/24*/23*(2)" in plays(pos, (1, 1), rules)
    assert plays(pos, (1, 1), rules) == plays(pos, (1, 1), BG)


@hiders
def test_short_point_held_at_that_moment(rules):
    # 2-2: 14/12*, then 10/8 empties our 10, then the hitter 12/10 lands on an empty
    # point: allowed (only in that order), and 24/22 plays the last two.
    pos = position({24: 1, 14: 1, 10: 1}, {13: 1, 1: 14})
    assert (layout(p22=1, p10=1, p8=1), 1) in results(pos, (2, 2), rules)
    assert "24/22 14/12*/8" in plays(pos, (2, 2), rules)
    # Onto 10 while our checker is still there: hiding.
    assert "24/20 14/12*/10" in plays(pos, (2, 2), BG)
    assert "24/20 14/12*/10" not in plays(pos, (2, 2), rules)


@hiders
def test_short_entering_hitter(rules):
    # bar/22* hits; going on to our 20 with the 2 is hiding; bar/23/20 does not hit.
    pos = position({25: 1, 20: 2}, {3: 1, 1: 14})
    assert (layout(p20=3), 1) in results(pos, (3, 2), BG)
    assert (layout(p20=3), 1) not in results(pos, (3, 2), rules)
    assert (layout(p20=3), 0) in results(pos, (3, 2), rules)
    assert (layout(p22=1, p18=1, p20=1), 1) in results(pos, (3, 2), rules)
    assert plays(pos, (3, 2), rules) == {"bar/20", "bar/22* 20/18", "bar/23 20/17"}
    assert plays(pos, (3, 2), BG) - plays(pos, (3, 2), rules) == {"bar/22*/20"}


@hiders
def test_short_dice_use_counts_only_legal_plays(rules):
    # Our 11, 6 and 5 closed: the only way to play both dice is 13/10*/8, hiding, so one
    # die is played: the 3 (13/10*); backgammon plays both.
    pos = position({13: 1, 8: 2}, {15: 1, 14: 2, 19: 2, 20: 2, 1: 8})
    assert plays(pos, (3, 2), BG) == {"13/10*/8"}
    assert plays(pos, (3, 2), rules) == {"13/10*"}


# --- the hitter is not borne off ------------------------------------------------------


def test_short_no_bear_off_hitter():
    # All home, a blot on our 3: 5/3* hits; bearing that checker off with the 3 is not
    # allowed (the Caucasian game allows it); the 3 bears off from the 5-point instead.
    pos = position({5: 1, 2: 2}, {22: 1, 1: 14})
    assert "5/3*/off" in plays(pos, (3, 2), CAU)
    assert plays(pos, (3, 2)) == {"5/off"}
    # The cover may be borne off, but not both of the pair: with two on our 6 and 3-3,
    # 6/3* hits, 6/3 covers, one of the two goes off (the cover), 4/1 plays the last 3.
    # The Caucasian game also lets the second one (the hitter) off.
    pos = position({6: 2, 4: 1}, {22: 1, 1: 14})  # a blot on our 3
    assert plays(pos, (3, 3)) == {"6/3*/off 6/3 4/1"}
    assert plays(pos, (3, 3), CAU) == {"6/3*/off 6/3 4/1", "6/3*/off(2)"}
    assert plays(pos, (3, 3), BG) == plays(pos, (3, 3), CAU)
    # Option: no_bear_off_hitter=False lifts it.
    lifted = gammon.variant("short", no_bear_off_hitter=False)
    assert plays(pos, (3, 3), lifted) == plays(pos, (3, 3), CAU)


# --- scoring and stakes ---------------------------------------------------------------


@pytest.mark.parametrize(("loser", "points"), [({19: 1}, 1), ({6: 15}, 2), ({19: 15}, 2),
                                                ({25: 1, 6: 14}, 2)])
def test_short_score_oin_and_mars_no_third(loser, points):
    assert final(SHORT, loser) == (points, -points)
    assert SHORT.result_name(1) == "an oin" and SHORT.result_name(2) == "a mars"
    assert SHORT.ending.gammons and not SHORT.ending.backgammons


@pytest.mark.parametrize(("loser", "points"), [({19: 1}, 1), ({6: 15}, 2), ({19: 15}, 3),
                                                ({25: 1, 6: 14}, 3)])
def test_short_koks_option(loser, points):
    koks = gammon.variant("short", koks=True)
    assert final(koks, loser) == (points, -points)
    assert koks.result_name(3) == "a koks"


def _mars_with(rules: StakeRules, variant=SHORT, cube_value=1, cube_owner=None):
    """A mars (loser has borne nothing off) about to be played, with the stakes."""
    rows = [[0] * 26, [0] * 26]
    rows[0][1], rows[0][0] = 1, 14
    rows[1][6] = 15
    state = CubeState.midgame(variant, Position.from_checkers(rows, 0), (2, 1), stakes=rules,
                              cube_value=cube_value, cube_owner=cube_owner)
    return state.apply(state.legal_actions()[0])


def test_short_no_mars_with_cube():
    # The cube in play (the default of a game with stakes): the mars counts one.
    assert StakeRules().no_mars_for(SHORT) and StakeRules().no_mars_for(CAU)
    assert not StakeRules().no_mars_for(BG)
    assert _mars_with(StakeRules()).returns() == (1, -1)
    assert _mars_with(StakeRules(), cube_value=4, cube_owner=1).returns() == (4, -4)
    # Backgammon keeps its gammon.
    assert _mars_with(StakeRules(), BG).returns() == (2, -2)
    # Without the cube the mars is paid double; the option can also switch the house rule
    # off.
    assert _mars_with(StakeRules(cube=False)).returns() == (2, -2)
    assert _mars_with(StakeRules(no_mars_with_cube=False)).returns() == (2, -2)
    # A new game with stakes starts with it on.
    game = cube_game("short")
    assert game.cube_in_play and game.no_mars_applies


def test_short_jacoby_as_written():
    # The Jacoby rule of the text: a mars counts one while no dave has been announced
    # (the cube centred); once a double is taken, it counts double again.
    rules = StakeRules(jacoby=True, no_mars_with_cube=False)
    assert _mars_with(rules).returns() == (1, -1)
    assert _mars_with(rules, cube_value=2, cube_owner=1).returns() == (4, -4)
    # An announced dave is taken or dropped: taken, the cube has an owner.
    state = cube_game("short", rules)
    state = state.apply(Roll((6, 1), opening=True))
    state = state.apply(state.legal_actions()[0])
    assert state.legal_actions() == (CubeAction.ROLL, CubeAction.DOUBLE)
    state = state.apply(CubeAction.DOUBLE).apply(CubeAction.TAKE)
    assert not state.jacoby_applies


# --- the compiled generator against a brute-force reading of the page -----------------


HAND_MADE = [
    position({13: 1, 8: 2}, BLOT_10), position({24: 1, 14: 1, 8: 2}, {13: 1, 1: 14}),
    position({14: 2, 10: 1, 6: 2}, {13: 1, 1: 14}), position({24: 1, 14: 1, 10: 1}, {13: 1, 1: 14}),
    position({25: 1, 20: 2}, {3: 1, 1: 14}), position({14: 2, 6: 2}, {13: 1, 1: 14}),
    position({25: 2, 6: 13}, {4: 1, 1: 14}), position({25: 2, 17: 1, 6: 12}, {4: 1, 1: 14}),
    position({25: 2, 6: 13}, {1: 1, 2: 1, 19: 13}), position({5: 1, 2: 2}, {22: 1, 1: 14}),
    position({6: 2, 4: 1}, {22: 1, 1: 14}), position({7: 1, 3: 2, 6: 3}, {20: 1, 1: 14}),
]


@pytest.mark.parametrize(("name", "options", "no_off", "home_only"), [
    ("short", {}, True, False),
    ("caucasian", {}, False, False),
    ("caucasian", {"no_hide_home_only": True, "no_bear_off_hitter": True}, True, True),
])
def test_short_kernel_agrees_with_the_rules_page(name, options, no_off, home_only):
    rules = gammon.variant(name, **options)
    positions = oracle.random_game_positions(rules, 60, seed=3) + HAND_MADE
    bearing = [p for p in oracle.random_game_positions(rules, 4000, seed=5)
               if oracle.bearing_off(p)][:30]
    for pos in positions + bearing:
        for dice in ROLLS:
            got = [p.result.board for p in rules.state(pos, dice).legal_actions()]
            assert len(got) == len(set(got))
            want = oracle.hitter_results(pos, dice, no_off=no_off, home_only=home_only)
            assert set(got) == want, (pos, dice)


def test_short_compiled_generator_alone_finds_every_double():
    for pos in (position({24: 1, 14: 1, 10: 1}, {13: 1, 1: 14}),
                position({25: 2, 6: 13}, {4: 1, 1: 14})):
        dice = (2, 2) if pos.bar(0) == 0 else (4, 4)
        rows = SHORT.kernel.plays(pos.board, 0, *dice)
        assert {rows[i, :52].tobytes() for i in range(len(rows))} == oracle.hitter_results(
            pos, dice, no_off=True)
