"""One test per rule and option of docs/rules/jacquet.md, named after the rule's label.

Positions are written in each player's own numbering (24 = the talon, 1 = the last point
before bearing off; our point n is the opponent's n + 12, counted round); checkers not
placed are borne off. Expected plays are move text worked out by hand from the rules
page. At the end the compiled move generator is compared with a brute-force reading of
the page (:func:`oracle_results`: the same-way-round games' oracle of
:mod:`oracle`, which shares no code with the kernel, with the courier's point) over
positions of random games, and whole games are checked for the page's invariants.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import answers
import layouts
import numpy as np
import oracle
import pytest
from layouts import position
from typer.testing import CliRunner

import gammon
from gammon import Phase, Position, Roll
from gammon.cli.main import app
from gammon.stakes import MatchScore, cube_game
from gammon.stakes.rules import cube_default

JQ = gammon.variant("jacquet")
plays, holding, end_state = layouts.rule_helpers(JQ)
FEVGA_RUN = gammon.variant("jacquet", courier_to="opponent-start")
NO_MARCHE = gammon.variant("jacquet", marche=False)
POINTS, HOME, TALON = 24, 6, 24


# --- board and start -------------------------------------------------------------------


def test_jq_board_long_nardys():
    nardy = gammon.variant("long-nardy")
    for point in range(1, 25):
        assert JQ.shared_slot(0, point, 1) == nardy.shared_slot(0, point, 1)
    assert JQ.notation == "nardy" and JQ.move_text == "nardy" and JQ.home == HOME


def test_jq_start_fifteen_on_the_talon():
    start = JQ.start_position()
    for player in (0, 1):
        assert {s: n for s, n in enumerate(start.row(player)) if n} == {TALON: 15}
    assert start.count(1, JQ.shared_slot(0, 12, 1)) == 15  # their talon is our 12


def test_jq_opening_starter_throws_again():
    state = JQ.initial_state()
    assert state.opening and len(state.chance_outcomes()) == 30
    after = state.apply(Roll((6, 2), opening=True))
    assert after.phase is Phase.CHANCE and not after.opening and after.position.turn == 0
    assert dict((r.dice, p) for r, p in after.chance_outcomes())[(4, 4)] == Fraction(1, 36)


# --- moving -----------------------------------------------------------------------------


def test_jq_dice():
    # One checker takes both dice only through an open stop: our 14 is their 2.
    assert plays(position({20: 1}, {2: 1}), (6, 1)) == {"20/13"}
    # Only one die can be played: the higher.
    assert plays(position({20: 1}, {21: 1}), (6, 5)) == {"20/14"}
    # A double four times, as many as can be: the third four would stop on their 24.
    assert plays(position({20: 1}, {24: 15}), (4, 4)) == {"20/16"}
    only = JQ.state(position({20: 1}, {2: 1}), (6, 6)).legal_actions()
    assert len(only) == 1 and only[0].moves == ()


def test_jq_closed_by_a_single_checker():
    pos = position({24: 14, 5: 1}, {5: 1, 24: 14})  # their 5 is our 17
    assert all("24/17" not in p for p in plays(pos, (4, 3)))
    for play in JQ.state(pos, (4, 3)).legal_actions():
        assert play.hits == 0 and play.result.bar(1) == 0
    # Passing over it is fine, and own checkers stack.
    assert "24/16(2)" in plays(pos, (4, 4))
    assert not JQ.contact.hitting and JQ.contact.block == 1


def test_jq_courier_alone_until_the_last_quarter():
    start = JQ.start_position(0)
    assert plays(start, (6, 6)) == {"24/18"}
    assert plays(start, (5, 3)) == {"24/16"}
    assert plays(start, (5, 5)) == {"24/4"}
    # The courier out on 10: only it moves, though Fevga's rule would free the talon.
    out = position({24: 14, 10: 1}, {24: 15})
    assert plays(out, (2, 1)) == {"10/7"}
    assert "24/22 10/9" in plays(out, (2, 1), FEVGA_RUN)
    # Read from the position: two out and none in the last quarter binds as well.
    assert plays(position({24: 13, 20: 1, 9: 1}, {24: 15}), (1, 1)) == {
        "20/16", "20/17 9/8", "20/18 9/7", "20/19 9/6", "24/23 9/6", "9/5"}


def test_jq_courier_same_turn():
    # 4 takes the courier from 10 to 6, the last quarter: the 3 may leave the talon.
    assert plays(position({24: 14, 10: 1}, {24: 15}), (4, 3)) == {
        "24/21 10/6", "10/3"}


def test_jq_courier_once_home_frees_every_checker():
    home = position({24: 14, 6: 1}, {24: 15})
    assert plays(home, (6, 6)) == {"24/18(4)"}
    assert max(sum(m.source == 24 for m in p.moves)
               for p in JQ.state(home, (3, 3)).legal_actions()) == 4


def test_jq_courier_option():
    assert FEVGA_RUN.head.first_past == 12 and JQ.head.first_past == 7
    assert plays(FEVGA_RUN.start_position(0), (5, 5), FEVGA_RUN) == {"24/4", "24/9 24/19"}
    with pytest.raises(gammon.InvalidOptionError, match="last-quarter"):
        gammon.variant("jacquet", courier_to="home")


def test_jq_bouchon_allowed():
    # 8/6 makes six points in a row, 11 to 6, right in front of the opponent's talon
    # (our 12), every opposing checker shut in behind them.
    before = position({24: 8, 11: 1, 10: 1, 9: 1, 8: 2, 7: 1, 5: 1}, {24: 15})
    assert "24/23 8/6" in plays(before, (2, 1))
    wall = position({24: 15}, {24: 7, 23: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1},
                    turn=1)
    stuck = JQ.state(wall, (6, 1)).legal_actions()
    assert len(stuck) == 1 and stuck[0].moves == ()  # shut in: they pass
    # Nothing makes the builder open it: plays that keep all six stay legal.
    mine = position({24: 7, 23: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1}, {24: 15})
    kept = [p for p in JQ.state(mine, (1, 1)).legal_actions()
            if all(p.result.count(0, point) for point in range(6, 12))]
    assert len(kept) > 1
    assert not JQ.blocking.six_block and not JQ.blocking.prime_must_open


# --- bearing off and scoring ------------------------------------------------------------


def test_jq_bear_off():
    assert plays(position({7: 1, 3: 1}, {24: 15}), (6, 3)) == {"7/1 3/off", "7/off"}
    assert plays(position({4: 1, 3: 1}, {24: 15}), (6, 5)) == {"4/off 3/off"}
    assert plays(position({6: 1, 2: 1}, {24: 15}), (2, 1)) == {"6/3", "6/4 2/1", "6/5 2/off"}


def test_jq_marche():
    assert end_state({1: 1}, {1: 14}).returns() == (1.0, -1.0)
    assert end_state({1: 1}, {1: 15}).returns() == (2.0, -2.0)
    assert end_state({1: 1}, {24: 15}).returns() == (2.0, -2.0)
    assert JQ.result_name(2) == "a marche"
    nm = NO_MARCHE.state(position({1: 1}, {1: 15}), (1, 1))
    assert nm.apply(nm.legal_actions()[0]).returns() == (1.0, -1.0)


def test_jq_no_cube():
    assert not cube_default(JQ)
    assert not cube_game(JQ, score=MatchScore(length=5, score=(0, 0))).cube_in_play


def test_jq_options_are_named_and_typed():
    assert JQ.options() == {"courier_to": "last-quarter", "marche": True}
    with pytest.raises(gammon.InvalidOptionError, match="takes true or false"):
        gammon.variant("jacquet", marche=1)
    assert gammon.variant("jaquet").name == gammon.variant("postillon").name == "jacquet"
    bar = Position.from_checkers([[0] * 24 + [14, 1], [0] * 24 + [15, 0]], 0)
    with pytest.raises(gammon.InvalidOptionError, match="jacquet has no bar"):
        JQ.state(bar, (3, 1))


# --- the kernel against a brute-force reading of the page -------------------------------


def oracle_results(pos: Position, dice: tuple[int, int], courier: int = 7) -> set[bytes]:
    """Every legal resulting board of ``dice``, from the page alone (JQ-DICE, JQ-CLOSED,
    JQ-COURIER, JQ-COURIER-SAME-TURN, JQ-BOUCHON, JQ-BEAR-OFF): the brute-force reading
    of the same-way-round games (:func:`oracle.same_way_results`), ``courier`` the point
    the courier must pass before a second checker leaves the talon, no block rule."""
    return oracle.same_way_results(pos, dice, first_past=courier, start_quarter=False)


HAND_MADE = [
    JQ.start_position(0), position({24: 15}, {24: 14, 16: 1}),
    position({24: 14, 10: 1}, {24: 15}), position({24: 13, 20: 1, 9: 1}, {24: 15}),
    position({24: 14, 6: 1}, {24: 15}),
    position({24: 8, 11: 1, 10: 1, 9: 1, 8: 2, 7: 1, 5: 1}, {24: 15}),
    position({7: 1, 3: 1, 2: 5}, {24: 15}),
]


@pytest.mark.parametrize("options", [{}, {"courier_to": "opponent-start"}])
@answers.AFRESH
def test_jq_kernel_agrees_with_the_rules_page(options, afresh):
    """The oracle's answers stored (:mod:`answers`), asked afresh in make long."""
    rules = gammon.variant("jacquet", **options)
    courier = rules.head.first_past
    count = 140 if not options else 45
    checked = answers.agree_on_random_games(
        answers.name_of("jacquet", options), rules,
        lambda pos, dice: oracle_results(pos, dice, courier), afresh=afresh, count=count,
        seed=41, hand_made=HAND_MADE)
    assert checked >= (3000 if not options else 1000)


@pytest.mark.slow
def test_jq_kernel_agrees_with_the_rules_page_20000_position_rolls():
    positions = oracle.random_game_positions(JQ, 960, seed=2041)
    assert oracle.agree(JQ, positions, oracle_results) >= 20_000


# --- whole games ------------------------------------------------------------------------


def courier_kept(pos: Position) -> bool:
    """JQ-COURIER on a board: no side has two checkers out of the talon and none in the
    last quarter (or off)."""
    for p in (0, 1):
        mine = pos.row(p)
        if not any(mine[0:7]) and sum(mine[7:TALON]) > 1:
            return False
    return True


def test_jq_games_keep_the_rules():
    """Random games through the Python API: the courier rule after every play, no
    shared point, scores 1 or 2; the compiled playouts finish every game with the same
    scores."""
    rng = random.Random(7)
    for _ in range(40):
        state = JQ.initial_state()
        while not state.is_terminal:
            if state.is_chance:
                state = state.apply(state.sample_chance(rng))
                continue
            state = state.apply(rng.choice(list(state.legal_actions())))
            assert courier_kept(state.position), state.position
            JQ.check_position(state.position)
        assert abs(state.returns()[0]) in (1.0, 2.0)
    rows = JQ.random_playouts(500, seed=5)
    assert (rows[:, 0] >= 0).all() and set(rows[:, 1]) <= {1, 2}
    assert np.array_equal(rows, JQ.random_playouts(500, seed=5))


# --- faces --------------------------------------------------------------------------------


def test_jq_command_line():
    runner = CliRunner()
    result = runner.invoke(app, ["selfplay", "jacquet", "--games", "100", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["games"] == 100 and stats["unfinished"] == 0 and stats["draws"] == 0
    result = runner.invoke(app, ["legal", "jacquet", "--dice", "55"])
    assert result.exit_code == 0 and "24/4" in result.output, result.output
    result = runner.invoke(app, ["play", "jacquet", "--seats", "random,random", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "goes first and rolls" in " ".join(result.output.split())


def test_jq_bots_beat_random():
    """The heuristic, seats rotated, wins clearly over 40 games against random play; the
    search (the default bot) over a few (docs/strength.md has the longer duels)."""
    for players, games in (("heuristic,random", 40), ("expectimax:1,random", 4)):
        points = layouts.duel_points("jacquet", players, games)
        assert points["ci95"][0] > 0 and points["mean"] >= 1.0, points
