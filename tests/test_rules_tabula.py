"""One test per rule and option of docs/rules/tabula.md, named after the rule's label.

Positions are written in each player's numbering, which in this game is the same for
both (24 = the far end of the first quarter, 1 = the last point before bearing off; 25
the bar, where checkers wait to enter); checkers not placed are borne off. Expected
plays are move text worked out by hand from the rules page. The compiled move generator
is compared with a brute-force reading of the page (:func:`oracle_results`, written
here and sharing no code with the kernel; :func:`oracle.finished_plays` walks the dice
in one order) over positions of random games, for every throw of three dice.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from itertools import permutations

import answers
import layouts
import numpy as np
import oracle
import pytest
from layouts import position
from typer.testing import CliRunner

import gammon
from gammon import Phase, Roll
from gammon.cli.main import app
from gammon.core.errors import IllegalOutcomeError
from gammon.stakes import MatchScore, cube_game
from gammon.stakes.rules import cube_default

TB = gammon.variant("tabula")
FREE = gammon.variant("tabula", enter_first=False)
plays, holding, end_state = layouts.rule_helpers(TB)
BAR, HOME, HALF = 25, 6, 12
#: The first quarter held by the opponent, two checkers a point: nothing enters.
SHUT = {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}


# --- board and start -------------------------------------------------------------------


def test_tb_board_one_track_numbered_alike():
    for point in range(1, 25):
        assert TB.shared_slot(0, point, 1) == TB.shared_slot(1, point, 0) == point
    assert TB.points == 24 and TB.home == HOME and TB.contact.hitting
    assert gammon.variant("alea").name == "tabula"


def test_tb_start_off_the_board():
    start = TB.start_position()
    for player in (0, 1):
        assert {s: n for s, n in enumerate(start.row(player)) if n} == {BAR: 15}


def test_tb_opening_the_starter_throws_three_dice():
    state = TB.initial_state()
    assert state.opening and len(state.chance_outcomes()) == 30
    thrown = state.apply(Roll((2, 4), opening=True))
    assert thrown.phase is Phase.CHANCE and thrown.position.turn == 1
    outcomes = dict((r.dice, p) for r, p in thrown.chance_outcomes())
    assert len(outcomes) == 56 and sum(outcomes.values()) == 1
    assert outcomes[(6, 6, 6)] == Fraction(1, 216)
    assert outcomes[(6, 6, 5)] == Fraction(3, 216)
    assert outcomes[(6, 5, 2)] == Fraction(6, 216)
    dealt = thrown.apply(Roll((2, 6, 5)))
    assert dealt.phase is Phase.DECIDE and dealt.dice == (6, 5, 2)
    with pytest.raises(IllegalOutcomeError, match="three dice"):
        thrown.apply(Roll((6, 5)))


# --- the dice ----------------------------------------------------------------------------


def test_tb_dice_three_moves_shared_as_the_player_likes():
    start = TB.start_position(0)
    assert plays(start, (6, 3, 1)) == {"bar/24 bar/22 bar/19"}
    one = position({20: 1}, {1: 15})
    assert plays(one, (5, 3, 1)) == {"20/11"}
    # Seven pips shared between two checkers in every way the dice allow: the one on 20
    # takes 0 to 7 of them, the other the rest (some lead to the same points).
    two = position({20: 1, 18: 1}, {1: 15})
    held = {tuple(point for point in range(1, 25) if p.result.count(0, point))
            for p in TB.state(two, (4, 2, 1)).legal_actions()}
    assert held == {(11, 20), (12, 19), (13, 18), (14, 17), (15, 16)}
    assert len(TB.state(two, (4, 2, 1)).legal_actions()) == 5


def test_tb_dice_alike_dice_once_each():
    one = position({20: 1}, {1: 15})
    assert plays(one, (4, 4, 4)) == {"20/8"}
    assert plays(one, (4, 4, 2)) == {"20/10"}
    assert all(len(p.moves) == 3 for p in TB.state(position({20: 3}, {1: 15}),
                                                   (5, 5, 5)).legal_actions())


def test_tb_whole_throw_any_dice_when_not_all_can_be_used():
    # From 20 the 6 and the 4 may each be played, the 5 never (15 is closed), and
    # nothing goes on from 14 or 16: one die only, and either is legal.
    pos = position({20: 1}, {15: 2, 9: 2, 10: 2, 11: 2})
    assert plays(pos, (6, 5, 4)) == {"20/14", "20/16"}
    # Two dice of three: 20/14/10 is closed, 20/16/10 too; the 1 then the 6 or 4 go on.
    pos = position({20: 1}, {15: 2, 10: 2, 9: 2, 8: 2})
    assert {len(p.moves) for p in TB.state(pos, (6, 4, 1)).legal_actions()} == {2}
    # Nothing at all: the player passes.
    assert plays(position({BAR: 1, 10: 14}, SHUT), (3, 2, 1)) == {"no move"}


# --- entering and moving ------------------------------------------------------------------


def test_tb_enter():
    assert plays(position({BAR: 15}, {19: 2, 22: 1, BAR: 12}), (6, 3, 3)) == {
        "bar/22*(2)"}
    assert plays(position({BAR: 15}, {BAR: 15}), (5, 5, 5)) == {"bar/20(3)"}


def test_tb_enter_first():
    pos = position({BAR: 2, 20: 13}, {BAR: 15})
    assert all(sum(m.source == BAR for m in p.moves) == 2
               for p in TB.state(pos, (4, 3, 1)).legal_actions())
    assert "bar/22 bar/21 20/19" in plays(pos, (4, 3, 1))
    # A checker hit later waits as well: nothing moves before it enters.
    hit = position({BAR: 1, 10: 14}, {5: 2, 6: 2, 19: 11})
    assert all(p.moves[0].source == BAR for p in TB.state(hit, (5, 2, 1)).legal_actions())
    assert plays(position({BAR: 1, 14: 14}, SHUT), (3, 2, 1)) == {"no move"}


def test_tb_hold_half():
    # The others move while one waits, but not on into the second half.
    waiting = position({BAR: 1, 20: 14}, {1: 15})
    assert "20/19 20/18 20/17" in plays(waiting, (3, 2, 1), FREE)
    assert "20/19 20/18 20/17" not in plays(waiting, (3, 2, 1))
    shut_out = position({BAR: 1, 14: 14}, SHUT)
    assert plays(shut_out, (3, 2, 1), FREE) == {"14/13"}
    # Once it has entered, the rest of the throw may cross.
    crossing = position({BAR: 1, 16: 14}, {1: 15})
    assert "bar/19 16/12 16/11" in plays(crossing, (6, 5, 4), FREE)
    # Checkers already in the second half move on.
    beyond = position({BAR: 1, 10: 14}, SHUT)
    assert "10/4" in plays(beyond, (3, 2, 1), FREE)


def test_tb_move_same_way():
    pos = position({20: 1}, {14: 2, 17: 1, 1: 12})
    # 20/14 is closed to the 6 first; the 3 hits on 17, or the 2 and the 3 go round.
    assert plays(pos, (6, 3, 2)) == {"20/17*/9", "20/9"}


def test_tb_hit():
    state = TB.state(position({20: 1, 1: 14}, {17: 1, 2: 14}), (3, 1, 1))
    hit = [p for p in state.legal_actions() if p.hits]
    assert hit and all(p.result.bar(1) == 1 and p.result.count(1, 17) == 0 for p in hit)
    assert plays(state.position, (3, 1, 1)) == {"20/17*/15", "20/15"}


# --- bearing off and scoring ----------------------------------------------------------------


def test_tb_bear_off():
    assert plays(position({7: 1, 3: 1}, {20: 15}), (6, 3, 1)) >= {"7/1 3/off"}
    assert "7/off" in plays(position({7: 1, 3: 1}, {20: 15}), (6, 3, 1))
    assert plays(position({4: 1, 3: 1}, {20: 15}), (6, 5, 5)) == {"4/off 3/off"}
    # Not before all fifteen are in the last quarter.
    assert all("off" not in p for p in plays(position({9: 1, 5: 1}, {20: 15}), (2, 1, 1)))


def test_tb_exact_bear_off():
    exact = gammon.variant("tabula", exact_bear_off=True)
    assert plays(position({4: 1, 3: 1}, {20: 15}), (6, 5, 5), exact) == {"no move"}
    assert plays(position({4: 1, 3: 1}, {20: 15}), (4, 3, 3), exact) == {
        "4/off 3/off", "4/1 3/off"}


def test_tb_score():
    assert end_state({1: 1}, {1: 14}).returns() == (1.0, -1.0)
    assert end_state({1: 1}, {1: 15}).returns() == (1.0, -1.0)
    assert end_state({1: 1}, {1: 14, BAR: 1}).returns() == (1.0, -1.0)


def test_tb_gammons():
    rules = gammon.variant("tabula", gammons=True)
    assert end_state({1: 1}, {1: 14}, rules).returns() == (1.0, -1.0)
    assert end_state({1: 1}, {1: 15}, rules).returns() == (2.0, -2.0)
    assert end_state({1: 1}, {1: 14, 20: 1}, rules).returns() == (3.0, -3.0)
    assert end_state({1: 1}, {1: 14, BAR: 1}, rules).returns() == (3.0, -3.0)
    assert rules.game_type.results == 3 and TB.game_type.results == 1


def test_tb_no_cube():
    assert not cube_default(TB)
    assert not cube_game(TB, score=MatchScore(length=5, score=(0, 0))).cube_in_play


def test_tb_options_are_named_and_typed():
    assert TB.options() == {"enter_first": True, "exact_bear_off": False, "gammons": False}
    with pytest.raises(gammon.InvalidOptionError, match="takes true or false"):
        gammon.variant("tabula", gammons="yes")
    with pytest.raises(gammon.InvalidOptionError, match="throws 3 dice"):
        TB.state(TB.start_position(), (6, 5))


# --- the kernel against a brute-force reading of the page -------------------------------


def oracle_results(pos, dice: tuple[int, ...], *, enter_first: bool = True,
                   exact: bool = False) -> set[bytes]:
    """Every legal resulting board of the three ``dice``, from the page alone (TB-DICE,
    TB-WHOLE-THROW, TB-ENTER, TB-ENTER-FIRST or TB-HOLD-HALF, TB-MOVE, TB-HIT, TB-BEAR-OFF
    or TB-EXACT-BEAR-OFF): one track numbered alike for both sides."""
    mover = pos.turn

    def step(state: tuple[tuple[int, ...], tuple[int, ...]], source: int, die: int):
        mine, theirs = state
        if not mine[source]:
            return None
        waiting = mine[BAR] and source != BAR
        if waiting and (enter_first or source > HALF >= source - die):
            return None
        target = source - die
        if target >= 1:
            if theirs[target] >= 2:
                return None
        else:
            if source == BAR or any(mine[HOME + 1:]):
                return None
            if target < 0 and (exact or any(mine[source + 1:HOME + 1])):
                return None
            target = 0
        moved, other = list(mine), list(theirs)
        moved[source] -= 1
        moved[target] += 1
        if target and other[target] == 1:
            other[target] = 0
            other[BAR] += 1
        return tuple(moved), tuple(other)

    def moves(state, die: int):
        return [m for m in (step(state, s, die) for s in range(1, BAR + 1)) if m]

    start = (tuple(pos.row(mover)), tuple(pos.row(1 - mover)))
    stops: dict = {}
    for order in set(permutations(dice)):
        for board, used in oracle.finished_plays(start, list(order), moves).items():
            stops[board] = max(stops.get(board, 0), used)
    most = max(stops.values())
    out = set()
    for (mine, theirs), used in stops.items():
        if used == most:
            rows = [theirs, theirs]
            rows[mover] = mine
            out.add(bytes(rows[0] + rows[1]))
    return out


HAND_MADE = [
    TB.start_position(0), position({BAR: 15}, {19: 2, 22: 1, BAR: 12}),
    position({BAR: 1, 20: 14}, {1: 15}), position({BAR: 1, 14: 14}, SHUT),
    position({BAR: 1, 10: 14}, SHUT), position({20: 1}, {15: 2, 9: 2, 10: 2, 11: 2}),
    position({20: 1}, {14: 2, 17: 1, 1: 12}), position({7: 1, 3: 1}, {20: 15}),
]
OPTIONS = [{}, {"enter_first": False}, {"exact_bear_off": True}]


@answers.AFRESH
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: answers.name_of("tabula", o))
def test_tb_kernel_agrees_with_the_rules_page(afresh, options):
    """The oracle's answers stored (:mod:`answers`), asked afresh in make long."""
    rules = gammon.variant("tabula", **options)
    checked = answers.agree_on_random_games(
        answers.name_of("tabula", options), rules,
        lambda pos, dice: oracle_results(pos, dice, enter_first=rules.enter_first,
                                         exact=rules.exact_bear_off),
        afresh=afresh, count=40, seed=53, hand_made=HAND_MADE)
    assert checked >= 2500


@pytest.mark.slow
def test_tb_kernel_agrees_with_the_rules_page_20000_position_rolls():
    positions = oracle.random_game_positions(TB, 360, seed=2053)
    assert oracle.agree(TB, positions, oracle_results) >= 20_000


# --- the compiled games ---------------------------------------------------------------


@pytest.mark.heavy
def test_tb_compiled_games_follow_the_rules():
    """The compiled random games throw three dice as the Python rules do: they end, are
    single games, and last as long as the Python rules' random games."""
    lengths = layouts.random_game_lengths(TB, 40, seed=3)
    # Three dice are searched in up to six orders: 4 ms a compiled game, so a few hundred.
    rows = TB.random_playouts(300, seed=3)
    assert (rows[:, 0] >= 0).all() and set(rows[:, 1]) == {1}
    # Game lengths vary by 16%: the means of 40 and 300 games agree within 10% (4 sd).
    assert abs(np.mean(lengths) / rows[:, 2].mean() - 1) < 0.1, (np.mean(lengths),
                                                                  rows[:, 2].mean())


# --- faces --------------------------------------------------------------------------------


def test_tb_command_line():
    runner = CliRunner()
    result = runner.invoke(app, ["selfplay", "tabula", "--games", "100", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["games"] == 100 and stats["unfinished"] == 0 and stats["draws"] == 0
    result = runner.invoke(app, ["legal", "tabula", "--dice", "631"])
    assert result.exit_code == 0 and "bar/24 bar/22 bar/19" in result.output, result.output
    result = runner.invoke(app, ["legal", "tabula", "--dice", "63"])
    assert result.exit_code != 0 and "three dice" in result.output, result.output
    result = runner.invoke(app, ["play", "tabula", "--seats", "random,random", "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert re.search(r"rolls \d-\d-\d and plays", result.output), result.output


@pytest.mark.heavy
def test_tb_bots_beat_random():
    """The heuristic, seats rotated, wins clearly over 20 games against random play, and
    the search (the default bot) both of two."""
    for players, games in (("heuristic,random", 20), ("expectimax:1,random", 2)):
        points = layouts.duel_points("tabula", players, games)
        assert points["ci95"][0] > 0 and points["mean"] >= 0.5, points
