"""One test per rule and option of docs/rules/fevga.md, named after the rule's label.

Positions are written in each player's own numbering (24 = the start, 1 = the last point
before bearing off; our point n is the opponent's n + 12, counted round); checkers not
placed are borne off. Expected plays are move text worked out by hand from the rules
page. At the end the compiled move generator is compared with a brute-force reading of
the page (:func:`oracle_results`, which shares no code with the kernel) over positions
of random games, and the kernel's random games are checked for the page's invariants.
"""

from __future__ import annotations

import json
from fractions import Fraction

import answers
import layouts
import numpy as np
import oracle
import pytest
from layouts import position
from test_invariants_nardy import run_checked
from typer.testing import CliRunner

import gammon
from gammon import Phase, Position, Roll
from gammon.cli.main import app
from gammon.notation.movetext import find_play
from gammon.stakes import MatchScore, StakeRules, cube_game
from gammon.stakes.rules import cube_default

FV = gammon.variant("fevga")
plays, holding, end_state = layouts.rule_helpers(FV)
LN = gammon.variant("long-nardy")
OPEN = gammon.variant("fevga", start_quarter=False)
FRONT = gammon.variant("fevga", front_prime=True)
#: Long Nardy's six-block rule and every single move judged: the reading before the audit.
WALLED = gammon.variant("fevga", six_block=True, quarters_each_move=True)
EACH_MOVE = gammon.variant("fevga", quarters_each_move=True)
#: Six points in a row once 13/8 is played: our 11, 10, 9, 7, 6 and a checker on 13.
BLOCK_BASE = {24: 9, 13: 1, 11: 1, 10: 1, 9: 1, 7: 1, 6: 1}


# --- board and start -------------------------------------------------------------------


def test_fv_board_long_nardys():
    for point in range(1, 25):
        assert FV.shared_slot(0, point, 1) == LN.shared_slot(0, point, 1) == (point + 11) % 24 + 1
    assert FV.notation == LN.notation == "nardy" and FV.move_text == "nardy"
    assert FV.game_type.board == "track" and FV.game_type.checkers


def test_fv_start_fifteen_on_the_24_point():
    start = FV.start_position()
    for player in (0, 1):
        assert {s: n for s, n in enumerate(start.row(player)) if n} == {24: 15}
    assert start.count(1, FV.shared_slot(0, 12, 1)) == 15  # their start is our 12
    assert not FV.contact.hitting and FV.contact.block == 1 and not FV.head.slot


def test_fv_opening_starter_throws_again():
    state = FV.initial_state()
    assert state.opening and len(state.chance_outcomes()) == 30
    after = state.apply(Roll((2, 5), opening=True))
    assert after.phase is Phase.CHANCE and not after.opening and after.position.turn == 1
    assert dict((r.dice, p) for r, p in after.chance_outcomes())[(6, 6)] == Fraction(1, 36)
    assert after.apply(Roll((5, 5))).dice == (5, 5)


# --- moving -----------------------------------------------------------------------------


def test_fv_dice_as_in_long_nardy():
    # Both dice, one checker, each stop open: our 14 is closed (their 2), so 20/19/13.
    assert plays(position({20: 1}, {2: 1}), (6, 1)) == {"20/13"}
    # Only one die can be played, either one: the higher.
    assert plays(position({20: 1}, {21: 1}), (6, 5)) == {"20/14"}
    # A double four times, as many as possible: 20/16/12 would stop on their checker.
    assert plays(position({20: 1}, {24: 15}), (4, 4)) == {"20/16"}
    # No move at all: the one empty play.
    only = FV.state(position({20: 1}, {2: 1}), (6, 6)).legal_actions()
    assert len(only) == 1 and only[0].moves == ()


def test_fv_closed_by_a_single_checker():
    pos = position({24: 14, 10: 1}, {5: 1, 24: 14})  # their 5 is our 17
    assert "24/17" not in plays(pos, (4, 3))
    assert "24/20 10/7" in plays(pos, (4, 3)) and "24/21 10/6" in plays(pos, (4, 3))
    for play in FV.state(pos, (4, 3)).legal_actions():
        assert play.hits == 0 and play.result.bar(1) == 0
    # Passing over it is fine (24/20/16 crosses our 17), and own checkers stack.
    fours = plays(pos, (4, 4))
    assert "24/16(2)" in fours and "24/20(4)" in fours


def test_fv_first_checker_alone_until_past():
    start = FV.start_position(0)
    # 6-6: 24/18, then 18/12 lands on their start and no second checker may leave.
    assert plays(start, (6, 6)) == {"24/18"}
    assert plays(start, (3, 3)) == {"24/15"}
    assert plays(start, (4, 4)) == {"24/16"}
    assert plays(start, (6, 5)) == {"24/13"}
    # Long Nardy plays the same 6-6 with two checkers off the head.
    assert plays(LN.start_position(0), (6, 6), LN) == {"24/18(2)"}
    # One checker out on 16, none past their start (our 12): only it moves, unless it
    # passes with the first die.
    out = position({24: 14, 16: 1}, {24: 15})
    assert plays(out, (2, 1)) == {"16/13"}
    assert plays(out, (6, 5)) == {"24/19 16/10", "24/18 16/11", "16/5"}
    # Read from the position: two out and none past binds as well.
    assert plays(position({24: 13, 20: 1, 16: 1}, {24: 15}), (1, 1)) == {
        "20/16", "20/17 16/15", "20/18 16/14", "20/19 16/13"}


def test_fv_first_checker_same_turn():
    # 5-5: three fives take the first checker to our 9, past their start; the fourth may
    # then take a second checker off the 24-point.
    assert plays(FV.start_position(0), (5, 5)) == {"24/4", "24/9 24/19"}
    # The second player's first roll, after the starter's 6-5 (their 13 = our 1).
    assert plays(position({24: 15}, {24: 14, 13: 1}), (5, 5)) == {"24/4", "24/9 24/19"}


def test_fv_no_head_rule_once_past():
    past = position({24: 14, 10: 1}, {24: 15})
    assert plays(past, (6, 6)) == {"24/18(4)", "24/18(3) 10/4"}
    assert max(sum(m.source == 24 for m in p.moves)
               for p in FV.state(past, (3, 3)).legal_actions()) == 4


# --- blocks -----------------------------------------------------------------------------


def test_fv_start_quarter_never_all_six():
    quarter = {19, 20, 21, 22, 23, 24}
    pos = position({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {5: 15})
    assert holding(pos, (5, 4), quarter) == set()
    assert "24/19 5/1" not in plays(pos, (5, 4))
    assert "24/19 5/1" in plays(pos, (5, 4), OPEN)
    assert holding(pos, (5, 4), quarter, OPEN)
    # The 24-point counts only while it holds checkers: with 24 empty, 19..23 is fine.
    empty_head = position({23: 1, 22: 1, 21: 1, 20: 2, 18: 10}, {5: 15})
    assert "20/19 18/16" in holding(empty_head, (2, 1), {19, 20, 21, 22, 23})


#: Their checkers on our 18..15 stop every five but one from 24, which must touch down
#: on 19 with 20..24 held.
STUCK = position({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {6: 1, 5: 1, 4: 1, 3: 1, 1: 11})


def test_fv_quarter_at_end_judges_the_board_a_play_leaves():
    """bkgm.com, BrainKing, Condos and i-smartsolutions say a player may not *occupy* or
    *hold* all six points of the starting quarter: a checker touching down on 19 on its
    way on holds nothing once the play is over. 24/19/14/9/4 ends with 19 empty again,
    and so does 24/19/14 twice."""
    assert plays(STUCK, (5, 5)) == {"24/4", "24/14(2)"}
    # A play that ends holding all six is refused whatever it passed through, and says so.
    assert "24/19 5/1" not in plays(STUCK, (5, 4))
    with pytest.raises(gammon.IllegalPlayError, match="all 6 points of your starting "
                       "quarter"):
        find_play(FV.state(STUCK, (5, 4)), "24/19 5/1")


def test_fv_quarter_each_move_option():
    """quarters_each_move=True, the reading before the audit: every single move judged,
    so no touch-down on 19 with all six held, and no move at all."""
    assert plays(STUCK, (5, 5), EACH_MOVE) == {"no move"}
    assert "24/4" in plays(STUCK, (5, 5), gammon.variant(
        "fevga", quarters_each_move=True, start_quarter=False))


def test_fv_primes_allowed():
    """bkgm.com, BrainKing, dorogaved, i-smartsolutions and itavli all allow a prime
    outside one's starting quarter: 7/6 5/2 with 1-1 builds 11..6 in front of the
    opponent's fifteen on their start (our 12)."""
    pos = position({24: 8, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2, 5: 1}, {24: 15})
    assert "7/6 5/2" in plays(pos, (1, 1))
    assert "7/6 5/2" not in plays(pos, (1, 1), WALLED)
    with pytest.raises(gammon.IllegalPlayError, match="no six points in a row while none"):
        find_play(WALLED.state(pos, (1, 1)), "7/6 5/2")


PRIMED = position({24: 8, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1}, {24: 15})
PRIME = {11, 10, 9, 8, 7, 6}


def test_fv_open_prime_once_all_are_behind_it():
    """bkgm.com, BrainKing, dorogaved, i-smartsolutions: a player whose prime has every
    opposing checker behind it must open it. The duty falls on the next play: no play of
    2-1 or of 6-6 here keeps all of 11..6."""
    assert plays(PRIMED, (2, 1)) and not holding(PRIMED, (2, 1), PRIME)
    with pytest.raises(gammon.IllegalPlayError, match="points 11 to 6 shut every opposing "
                       "checker in: you must open them"):
        find_play(FV.state(PRIMED, (2, 1)), "24/21")
    assert plays(PRIMED, (6, 6)) and not holding(PRIMED, (6, 6), PRIME)
    no_duty = gammon.variant("fevga", open_prime=False)
    assert "24/21" in holding(PRIMED, (2, 1), PRIME, no_duty)
    # A checker of theirs ahead (their 16 = our 4): no duty, the prime may stay.
    escaped = position({24: 8, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1}, {24: 14, 16: 1})
    assert "24/21" in holding(escaped, (2, 1), PRIME)


def test_fv_open_prime_only_when_the_dice_allow():
    """Where no legal play opens the prime, the player plays as the dice allow: with a
    prime on 6..1 and checkers still on 24, 6-6 can only run from 24 (no bearing off
    yet), and the prime stays; 2-1 opens it."""
    home = {6, 5, 4, 3, 2, 1}
    pos = position({24: 9, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 1}, {24: 15})
    assert plays(pos, (6, 6)) == holding(pos, (6, 6), home) == {"24/18(4)"}
    assert plays(pos, (2, 1)) and not holding(pos, (2, 1), home)


def test_fv_six_block_option():
    """six_block=True: Long Nardy's rule, the reading before the audit."""
    pos = position(BLOCK_BASE, {24: 15})
    assert holding(pos, (5, 1), PRIME, WALLED) == set()
    assert "13/7" not in plays(pos, (5, 1), WALLED)  # 13/8 would make the block for a moment
    assert holding(pos, (5, 1), PRIME) == {"24/23 13/8"}
    # With one of theirs ahead (their 16 = our 4), the block is legal.
    ahead = position(BLOCK_BASE, {24: 14, 16: 1})
    assert holding(ahead, (5, 1), PRIME, WALLED) == {"24/23 13/8"}
    assert "13/7" in plays(ahead, (5, 1), WALLED)


def test_fv_front_prime_option():
    front = {11, 10, 9, 8, 7, 6}
    # One of theirs has escaped (their 16 = our 4), fourteen remain on their start: the
    # six-block rule allows 11..6, the option does not.
    ahead = position(BLOCK_BASE, {24: 14, 16: 1})
    assert holding(ahead, (5, 1), front) == {"24/23 13/8"}
    assert holding(ahead, (5, 1), front, FRONT) == set()
    assert "13/7" not in plays(ahead, (5, 1), FRONT)  # not for a moment either
    # Their start empty (all past, on their 16 and lower): the six may stand.
    gone = position(BLOCK_BASE, {16: 1, 10: 14})
    assert holding(gone, (5, 1), front, FRONT) == {"24/23 13/8"}


# --- bearing off, score, cube ---------------------------------------------------------


def test_fv_bearoff_as_in_long_nardy():
    assert plays(position({7: 1, 3: 1}, {24: 15}), (6, 3)) == {"7/1 3/off", "7/off"}
    assert plays(position({4: 1, 3: 1}, {24: 15}), (6, 5)) == {"4/off 3/off"}
    assert plays(position({6: 1, 2: 1}, {24: 15}), (2, 1)) == {"6/3", "6/4 2/1", "6/5 2/off"}


def test_fv_score_single_or_double_never_triple():
    assert end_state({1: 1}, {1: 14}).returns() == (1.0, -1.0)
    assert end_state({1: 1}, {1: 15}).returns() == (2.0, -2.0)
    assert end_state({1: 1}, {24: 1, 1: 14}).returns() == (2.0, -2.0)
    end = end_state({1: 1}, {24: 15})
    assert end.phase is Phase.TERMINAL and end.winner == 0 and end.returns() == (2.0, -2.0)
    assert FV.result_name(2) == "a double game"


def test_fv_no_cube():
    assert not cube_default(FV) and cube_default(LN)
    game = cube_game(FV, score=MatchScore(length=5, score=(0, 0)))
    assert not game.cube_in_play
    assert StakeRules(cube=True).cube_for(FV)


# --- positions and options ----------------------------------------------------------------


def test_fv_positions_checked():
    shared = Position.from_checkers(
        [[0] * 13 + [1] + [0] * 10 + [14, 0], [0, 1] + [0] * 22 + [14, 0]], 0)
    with pytest.raises(gammon.InvalidOptionError, match="both players"):
        FV.state(shared, (3, 1))
    bar = Position.from_checkers([[0] * 24 + [14, 1], [0] * 24 + [15, 0]], 0)
    with pytest.raises(gammon.InvalidOptionError, match="fevga has no bar"):
        FV.state(bar, (3, 1))


def test_fv_options_are_named_and_typed():
    assert FV.options() == {"start_quarter": True, "open_prime": True, "six_block": False,
                            "front_prime": False, "quarters_each_move": False}
    assert FRONT.blocking.front_prime_open and not FV.blocking.front_prime_open
    assert FV.blocking.prime_must_open and FV.blocking.quarters_at_end
    assert not WALLED.blocking.prime_must_open and not WALLED.blocking.quarters_at_end
    assert FV.blocking.start_quarter_open and FV.head.first_past and not FV.blocking.six_block
    assert not OPEN.blocking.start_quarter_open and WALLED.blocking.six_block
    with pytest.raises(gammon.InvalidOptionError, match="takes true or false, not 1"):
        gammon.variant("fevga", six_block=1)
    with pytest.raises(gammon.InvalidOptionError, match="no option"):
        gammon.variant("fevga", head_doubles_both=True)
    assert gammon.variant("tavli-fevga").name == "fevga"


# --- the kernel against a brute-force reading of the page -------------------------------


def oracle_results(rules, pos: Position, dice: tuple[int, int]) -> set[bytes]:
    """Every legal resulting board, from the rules page and nothing else: the oracle of
    the same-way-round games (FV-CLOSED, FV-FIRST-CHECKER, FV-START-QUARTER, FV-SIX-BLOCK,
    FV-FRONT-PRIME, FV-OPEN-PRIME, FV-QUARTER-AT-END) with this table's options."""
    return oracle.same_way_results(
        pos, dice, start_quarter=rules.start_quarter, six_block=rules.six_block,
        front_prime=rules.front_prime, quarters_at_end=not rules.quarters_each_move,
        open_prime=rules.open_prime)


HAND_MADE = [
    FV.start_position(0), position({24: 15}, {24: 14, 13: 1}),
    position({24: 14, 16: 1}, {24: 15}), position({24: 13, 20: 1, 16: 1}, {24: 15}),
    position(BLOCK_BASE, {24: 15}), position(BLOCK_BASE, {24: 14, 16: 1}),
    position({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {5: 15}),
    position({24: 14, 10: 1}, {24: 15}), STUCK, PRIMED,
    position({24: 8, 11: 1, 10: 1, 9: 1, 8: 1, 7: 2, 5: 1}, {24: 15}),
]


def agree(rules, positions: list[Position]) -> int:
    """Check every roll of ``positions``; return the position-rolls checked."""
    return oracle.agree(rules, positions, lambda pos, dice: oracle_results(rules, pos, dice))


@pytest.mark.parametrize("options", [
    {}, {"start_quarter": False, "open_prime": False},
    {"six_block": True, "quarters_each_move": True}, {"front_prime": True},
    {"quarters_each_move": True},
])
@answers.AFRESH
def test_fv_kernel_agrees_with_the_rules_page(options, afresh):
    """The oracle's answers stored (:mod:`answers`), asked afresh in make long."""
    rules = gammon.variant("fevga", **options)
    count = 140 if not options else 40
    checked = answers.agree_on_random_games(
        answers.name_of("fevga", options), rules,
        lambda pos, dice: oracle_results(rules, pos, dice), afresh=afresh, count=count,
        seed=33, hand_made=HAND_MADE)
    assert checked >= (3000 if not options else 1000)


@pytest.mark.slow
def test_fv_kernel_agrees_with_the_rules_page_20000_position_rolls():
    assert agree(FV, oracle.random_game_positions(FV, 960, seed=2033)) >= 20_000


# --- the kernel's random games ------------------------------------------------------------


def test_fv_compiled_games_keep_the_rules():
    """Compiled random games (checked move by move by the Long Nardy invariants: no shared
    point, no bar, no six-block, bear-off only home, conservation, replay, score), and
    after every play: no one holds all six points of their starting quarter, and no
    side has two checkers out while none is past the other's start."""
    rows, fails, trace = run_checked("fevga", 300, seed=5, trace_rows=300 * 400)
    fails.pop("wide head exceptions")
    assert not any(fails.values()), {k: v for k, v in fails.items() if v}
    assert (rows[:, 0] >= 0).all() and set(rows[:, 1]) <= {1, 2}
    assert len(trace) < 300 * 400
    for row in trace[trace[:, 1] >= 0]:
        board = row[4:]
        for p in (0, 1):
            mine = board[p * 26:(p + 1) * 26]
            assert not all(mine[19:25]), row
            if not mine[0:12].any():
                assert mine[12:24].sum() <= 1, row
    again = FV.random_playouts(300, seed=5)
    assert np.array_equal(rows, again)


# --- faces --------------------------------------------------------------------------------


def test_fv_command_line(tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["selfplay", "fevga", "--games", "100", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["games"] == 100 and stats["unfinished"] == 0 and stats["draws"] == 0
    assert all(p["backgammons"] == 0 for p in stats["players"])
    result = runner.invoke(app, ["legal", "fevga", "--dice", "55"])
    assert result.exit_code == 0 and "24/9 24/19" in result.output, result.output
    result = runner.invoke(app, ["duel", "fevga", "--players", "heuristic,random",
                                 "--games", "4"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["play", "fevga", "--seats", "random,random", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "goes first and rolls" in " ".join(result.output.split())
    # No network ships for this game yet: hint reads one trained here for a few games.
    net = tmp_path / "fevga.npz"
    result = runner.invoke(app, ["train", "fevga", "--games", "3", "--out", str(net),
                                 "--check-every", "0"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["hint", "o...........O...........:0", "--variant", "fevga",
                                 "--dice", "55", "--net", str(net), "--plies", "0", "--json"])
    assert result.exit_code == 0, result.output
    assert "24/9 24/19" in result.output
