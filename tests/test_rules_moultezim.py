"""One test per rule and option of docs/rules/moultezim.md, named after the rule's label.

Positions are written in each player's own numbering (24 = the start, 1 = the last point
before bearing off; our point n is the opponent's n + 12, counted round), checkers not
placed are borne off. Expected plays are move text worked out by hand from the rules
page. At the end the compiled move generator is compared with the brute-force reading
of the page in tests/oracle.py (:func:`oracle.same_way_results`, which shares no code
with the kernel), and the kernel's random games are checked for the page's invariants.
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
from gammon.notation.movetext import find_play, format_play
from gammon.stakes import MatchScore, StakeRules, cube_game
from gammon.stakes.rules import cube_default

MZ = gammon.variant("moultezim")
plays, holding, end_state = layouts.rule_helpers(MZ)
FV = gammon.variant("fevga")
EACH_MOVE = gammon.variant("moultezim", quarters_each_move=True)
#: Four points of their starting quarter (our 11..8) and a checker on 13 that a 6 would
#: take to 7, a fifth.
FOUR = {24: 10, 13: 1, 11: 1, 10: 1, 9: 1, 8: 1}
#: A 1 from 7 makes a prime of our 6..1 with all fifteen of theirs behind it.
PRIME = {24: 9, 7: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 1}
#: Our 11, 10, 9, 7, 6 and a checker on 13: 13/8 holds the six points just past their start.
FRONT = {24: 9, 13: 1, 11: 1, 10: 1, 9: 1, 7: 1, 6: 1}
QUARTER = {19, 20, 21, 22, 23, 24}


# --- board and start ------------------------------------------------------------------


def test_mz_board_is_fevgas():
    for point in range(1, 25):
        assert MZ.shared_slot(0, point, 1) == FV.shared_slot(0, point, 1) == (point + 11) % 24 + 1
    assert MZ.notation == "nardy" and MZ.move_text == "nardy" and MZ.family == "nardy"
    assert isinstance(MZ, type(FV)) and MZ.name == "moultezim"


def test_mz_start_fifteen_on_the_24_point():
    start = MZ.start_position()
    for player in (0, 1):
        assert {s: n for s, n in enumerate(start.row(player)) if n} == {24: 15}
    assert start.count(1, MZ.shared_slot(0, 12, 1)) == 15
    assert not MZ.contact.hitting and MZ.contact.block == 1 and not MZ.head.slot


def test_mz_opening_starter_throws_again():
    state = MZ.initial_state()
    assert state.opening and len(state.chance_outcomes()) == 30
    after = state.apply(Roll((6, 1), opening=True))
    assert after.phase is Phase.CHANCE and after.position.turn == 0
    assert dict((r.dice, p) for r, p in after.chance_outcomes())[(4, 4)] == Fraction(1, 36)
    assert after.apply(Roll((4, 4))).dice == (4, 4)


# --- moving ---------------------------------------------------------------------------


def test_mz_dice_as_in_fevga():
    assert plays(position({20: 1}, {2: 1}), (6, 1)) == {"20/13"}  # our 14 is their 2
    assert plays(position({20: 1}, {21: 1}), (6, 5)) == {"20/14"}  # the higher die
    only = MZ.state(position({20: 1}, {2: 1}), (6, 6)).legal_actions()
    assert len(only) == 1 and only[0].moves == ()


def test_mz_closed_by_a_single_checker():
    pos = position({24: 14, 10: 1}, {5: 1, 24: 14})  # their 5 is our 17
    assert "24/17" not in plays(pos, (4, 3))
    assert "24/20 10/7" in plays(pos, (4, 3))
    assert all(p.hits == 0 for p in MZ.state(pos, (4, 3)).legal_actions())
    assert "24/16(2)" in plays(pos, (4, 4))  # passing over our 17


def test_mz_first_checker_alone_until_past():
    start = MZ.start_position(0)
    assert plays(start, (6, 6)) == {"24/18"}  # 18/12 would land on their start
    assert plays(start, (5, 5)) == {"24/4", "24/9 24/19"}
    assert plays(position({24: 14, 16: 1}, {24: 15}), (2, 1)) == {"16/13"}


# --- blocks ---------------------------------------------------------------------------


def test_mz_opponent_quarter_at_most_four():
    pos = position(FOUR, {24: 15})
    five = gammon.variant("moultezim", opponent_quarter=5)
    # 13/7 would hold a fifth point of 7..12 (their 19..24); with the 1 first emptying
    # one of ours there it is the fourth again.
    assert "24/23 13/7" not in plays(pos, (6, 1))
    assert "24/23 13/7" in plays(pos, (6, 1), five)
    with pytest.raises(gammon.IllegalPlayError, match="holds 5 points of the opponent's "
                       "starting quarter \\(7 to 12\\); at most 4"):
        find_play(MZ.state(pos, (6, 1)), "24/23 13/7")
    assert {"13/7 8/7", "13/7 11/10", "13/7 10/9", "13/7 9/8"} <= plays(pos, (6, 1))
    for play in MZ.state(pos, (6, 1)).legal_actions():
        assert sum(1 for s in range(7, 13) if play.result.row(0)[s]) <= 4, format_play(play)
    # Landing on a point already held counts nothing new.
    assert "24/22 13/9" in plays(pos, (4, 2))
    # 6 lifts the rule: all six may be held once their start is empty.
    all_six = gammon.variant("moultezim", opponent_quarter=6)
    gone = position({24: 9, 13: 1, 12: 1, 11: 1, 10: 1, 9: 1, 8: 1}, {2: 15})
    assert holding(gone, (6, 1), {7, 8, 9, 10, 11, 12}, all_six)
    assert not holding(gone, (6, 1), {7, 8, 9, 10, 11, 12}, five)


#: Four points of their starting quarter (our 11, 10, 8, 7), two checkers on 10.
SHUFFLE = position({24: 8, 14: 1, 11: 1, 10: 2, 8: 1, 7: 1, 3: 1}, {24: 15})


def test_mz_quarters_at_end_judges_the_board_a_play_leaves():
    """threemountaingames, BrainKing, gamerz and fibs say *occupy*, *hold* or *cover*:
    where checkers stand once the play is over. 13/7/6 touches down
    on 7 as a fifth point and goes on; 14/13 10/9(2) 3/2 holds 9 and 10 together for a
    moment, and starts and ends with four points of the quarter."""
    assert "13/6" in plays(position(FOUR, {24: 15}), (6, 1))
    assert "14/13 10/9(2) 3/2" in plays(SHUFFLE, (1, 1))
    assert "14/13 10/9(2) 3/2" not in plays(SHUFFLE, (1, 1), EACH_MOVE)


def test_mz_open_prime_option():
    """open_prime=True: Fevga's duty to open a prime that shuts every opposing checker
    in."""
    primed = position({24: 9, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 1}, {24: 15})
    home = {1, 2, 3, 4, 5, 6}
    assert "24/21" in holding(primed, (2, 1), home)
    assert not holding(primed, (2, 1), home, gammon.variant("moultezim", open_prime=True))


def test_mz_quarters_each_move_option():
    """quarters_each_move=True, the reading before the audit: the limit holds after
    every single move, so 13/7/6 may not touch down on 7 as a fifth point."""
    pos = position(FOUR, {24: 15})
    assert "13/6" not in plays(pos, (6, 1), EACH_MOVE)
    assert "13/6" in plays(pos, (6, 1), gammon.variant(
        "moultezim", quarters_each_move=True, opponent_quarter=5))
    # Both limits: the touch-down on 19 with 20..24 held is refused too.
    stuck = position({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1},
                     {6: 1, 5: 1, 4: 1, 3: 1, 1: 11})
    assert plays(stuck, (5, 5)) == {"24/4", "24/14(2)"}
    assert plays(stuck, (5, 5), EACH_MOVE) == {"no move"}


def test_mz_start_quarter_never_all_six():
    pos = position({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {5: 15})
    assert holding(pos, (5, 4), QUARTER) == set()
    assert "24/19 5/1" not in plays(pos, (5, 4))
    free = gammon.variant("moultezim", start_quarter=False)
    assert "24/19 5/1" in plays(pos, (5, 4), free)


def test_mz_primes_allowed():
    # Every one of theirs is behind our 6..1 (on their 24, our 12): the six-block rule
    # forbids the prime, Moultezim does not, and has no duty to open it later.
    pos = position(PRIME, {24: 15})
    assert holding(pos, (2, 1), {1, 2, 3, 4, 5, 6}) == {"24/22 7/6"}
    assert holding(pos, (2, 1), {1, 2, 3, 4, 5, 6},
                   gammon.variant("moultezim", six_block=True)) == set()
    primed = position({24: 9, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 1}, {24: 15})
    assert "24/21" in holding(primed, (2, 1), {1, 2, 3, 4, 5, 6})
    assert "24/21" not in holding(primed, (2, 1), {1, 2, 3, 4, 5, 6}, FV)


def test_mz_six_block_option():
    pos = position(PRIME, {24: 15})
    walled = gammon.variant("moultezim", six_block=True)
    assert holding(pos, (2, 1), {1, 2, 3, 4, 5, 6}, walled) == set()
    # With one of theirs ahead (their 10, our 22, past our 6..1 = their 18..13), the
    # prime stands.
    ahead = position(PRIME, {24: 14, 10: 1})
    assert holding(ahead, (3, 1), {1, 2, 3, 4, 5, 6}, walled) == {"24/21 7/6"}


def test_mz_front_prime_option():
    front = {11, 10, 9, 8, 7, 6}
    five = gammon.variant("moultezim", opponent_quarter=5)
    closed = gammon.variant("moultezim", opponent_quarter=5, front_prime=True)
    pos = position(FRONT, {24: 14, 16: 1})
    assert holding(pos, (5, 1), front, five) == {"24/23 13/8"}
    assert holding(pos, (5, 1), front, closed) == set()
    assert holding(pos, (5, 1), front) == set()  # five points of 7..12 besides


# --- bearing off, score, cube ---------------------------------------------------------


def test_mz_bearoff_as_in_fevga():
    assert plays(position({7: 1, 3: 1}, {24: 15}), (6, 3)) == {"7/1 3/off", "7/off"}
    assert plays(position({4: 1, 3: 1}, {24: 15}), (6, 5)) == {"4/off 3/off"}


def test_mz_score_one_point_a_game():
    assert end_state({1: 1}, {1: 14}).returns() == (1.0, -1.0)
    end = end_state({1: 1}, {24: 15})
    assert end.phase is Phase.TERMINAL and end.winner == 0 and end.returns() == (1.0, -1.0)
    assert MZ.random_playouts(200, seed=3)[:, 1].max() == 1


def test_mz_double_game_option():
    double = gammon.variant("moultezim", double_game=True)
    assert end_state({1: 1}, {24: 15}, double).returns() == (2.0, -2.0)
    assert end_state({1: 1}, {1: 14}, double).returns() == (1.0, -1.0)
    assert double.result_name(2) == "a double game"


def test_mz_no_cube():
    assert not cube_default(MZ)
    assert not cube_game(MZ, score=MatchScore(length=5, score=(0, 0))).cube_in_play
    assert StakeRules(cube=True).cube_for(MZ)


# --- positions and options ------------------------------------------------------------


def test_mz_positions_checked():
    shared = Position.from_checkers(
        [[0] * 13 + [1] + [0] * 10 + [14, 0], [0, 1] + [0] * 22 + [14, 0]], 0)
    with pytest.raises(gammon.InvalidOptionError, match="both players"):
        MZ.state(shared, (3, 1))
    bar = Position.from_checkers([[0] * 24 + [14, 1], [0] * 24 + [15, 0]], 0)
    with pytest.raises(gammon.InvalidOptionError, match="moultezim has no bar"):
        MZ.state(bar, (3, 1))


def test_mz_options_are_named_and_typed():
    assert MZ.options() == {"start_quarter": True, "open_prime": False, "six_block": False,
                            "front_prime": False, "quarters_each_move": False,
                            "opponent_quarter": 4, "double_game": False}
    assert not MZ.blocking.prime_must_open and MZ.blocking.quarters_at_end
    assert MZ.blocking.opponent_quarter_limit == 4 and not MZ.ending.gammons
    assert MZ.head.first_past
    assert gammon.variant("moultezim", opponent_quarter=6).blocking.opponent_quarter_limit == 0
    for bad in (0, 7):
        with pytest.raises(gammon.InvalidOptionError, match="1 to 6, not"):
            gammon.variant("moultezim", opponent_quarter=bad)
    with pytest.raises(gammon.InvalidOptionError, match="takes a whole number"):
        gammon.variant("moultezim", opponent_quarter=True)
    assert gammon.variant("multezim").name == "moultezim"
    assert gammon.variant("mueltezim", six_block=True).blocking.six_block
    assert MZ.table_options == {"opponent_quarter": (1, 6)}  # a web table may set it


# --- the kernel against a brute-force reading of the page -----------------------------


def oracle_results(rules, pos: Position, dice: tuple[int, int]) -> set[bytes]:
    """The page's legal results (tests/oracle.py), under ``rules``'s options."""
    return oracle.same_way_results(
        pos, dice, start_quarter=rules.start_quarter, six_block=rules.six_block,
        front_prime=rules.front_prime, opponent_quarter=rules.opponent_quarter,
        quarters_at_end=not rules.quarters_each_move, open_prime=rules.open_prime)


HAND_MADE = [
    MZ.start_position(0), position({24: 15}, {24: 14, 13: 1}),
    position(FOUR, {24: 15}), position(PRIME, {24: 15}), position(PRIME, {24: 14, 10: 1}),
    position(FRONT, {24: 14, 16: 1}),
    position({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {6: 1, 5: 1, 4: 1, 3: 1, 1: 11}),
    position({24: 9, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 1}, {24: 15}),
    position({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {5: 15}),
    position({24: 9, 13: 1, 12: 1, 11: 1, 10: 1, 9: 1, 8: 1}, {2: 15}), SHUFFLE,
]


def agree(rules, positions: list[Position]) -> int:
    """Check every roll of ``positions``; return the position-rolls checked."""
    return oracle.agree(rules, positions, lambda pos, dice: oracle_results(rules, pos, dice))


@pytest.mark.parametrize("options", [
    {}, {"opponent_quarter": 5, "six_block": True}, {"opponent_quarter": 6,
                                                     "start_quarter": False},
    {"opponent_quarter": 5, "front_prime": True}, {"opponent_quarter": 2},
    {"quarters_each_move": True}, {"open_prime": True},
])
@answers.AFRESH
def test_mz_kernel_agrees_with_the_rules_page(options, afresh):
    """The oracle's answers stored (:mod:`answers`), asked afresh in make long."""
    rules = gammon.variant("moultezim", **options)
    count = 140 if not options else 40
    checked = answers.agree_on_random_games(
        answers.name_of("moultezim", options), rules,
        lambda pos, dice: oracle_results(rules, pos, dice), afresh=afresh, count=count,
        seed=34, hand_made=HAND_MADE)
    assert checked >= (3000 if not options else 1000)


@pytest.mark.slow
def test_mz_kernel_agrees_with_the_rules_page_20000_position_rolls():
    assert agree(MZ, oracle.random_game_positions(MZ, 960, seed=2034)) >= 20_000


# --- the kernel's random games --------------------------------------------------------


def test_mz_compiled_games_keep_the_rules():
    """Compiled random games (checked move by move by the Long Nardy invariants, the
    six-block excepted: no shared point, no bar, bear-off only home, conservation,
    replay, score), and after every play: at most four points of the opponent's starting
    quarter, not all six of one's own, and no side with two checkers out while none is
    past the other's start."""
    rows, fails, trace = run_checked("moultezim", 300, seed=5, trace_rows=300 * 400)
    fails.pop("wide head exceptions")
    assert not any(fails.values()), {k: v for k, v in fails.items() if v}
    assert (rows[:, 0] >= 0).all() and set(rows[:, 1]) == {1}
    assert len(trace) < 300 * 400
    for row in trace[trace[:, 1] >= 0]:
        board = row[4:]
        for p in (0, 1):
            mine = board[p * 26:(p + 1) * 26]
            assert not all(mine[19:25]), row
            assert sum(1 for s in range(7, 13) if mine[s]) <= 4, row
            if not mine[0:12].any():
                assert mine[12:24].sum() <= 1, row
    assert np.array_equal(rows, MZ.random_playouts(300, seed=5))


# --- faces ----------------------------------------------------------------------------


def test_mz_command_line():
    runner = CliRunner()
    result = runner.invoke(app, ["selfplay", "moultezim", "--games", "100", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["games"] == 100 and stats["unfinished"] == 0 and stats["draws"] == 0
    assert all(p["gammons"] == 0 and p["backgammons"] == 0 for p in stats["players"])
    result = runner.invoke(app, ["legal", "moultezim", "--dice", "55"])
    assert result.exit_code == 0 and "24/9 24/19" in result.output, result.output
    result = runner.invoke(app, ["duel", "moultezim", "--players", "heuristic,random",
                                 "--games", "4"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["play", "moultezim", "--seats", "random,random",
                                 "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "goes first and rolls" in " ".join(result.output.split())
