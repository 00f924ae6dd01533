"""Tavla (docs/rules/tavla.md): one test per rule, named after its label.

Tavla is Portes with no hit-and-run in the home board; each case is checked against
``portes`` too, so that the difference is exactly the rule, and the compiled generator
is compared with the brute-force oracle (:func:`oracle.hitter_results` with ``no_run``)
over positions of random games. Positions are in each player's own numbering (our point
n is the opponent's 25 - n; 25 is the bar); checkers not placed are borne off.
"""

from __future__ import annotations

import json

import layouts
import oracle
import pytest
from layouts import position
from test_invariants_nardy import check_variant, replay_kernel_games
from typer.testing import CliRunner

import gammon
from gammon import Phase, Roll
from gammon.cli.main import app
from gammon.core.dice import two_dice
from gammon.stakes.rules import cube_default

TAVLA = gammon.variant("tavla")
plays, _, _ = layouts.rule_helpers(TAVLA)
EVERY_HIT = gammon.variant("tavla", home_only=False)
PORTES = gammon.variant("portes")
ROLLS = [roll.dice for roll, _ in two_dice()]
#: An opposing blot on our 4 (their 21) and our checker on 8, the rest far away.
BLOT_4 = position({8: 1, 13: 5, 6: 5, 24: 4}, {21: 1, 1: 14})


def test_tavla_portes_rules():
    assert TAVLA.start_position() == PORTES.start_position()
    assert not cube_default(TAVLA) and TAVLA.contact.hitting
    state = TAVLA.initial_state().apply(Roll((2, 5), opening=True))
    assert state.phase is Phase.CHANCE and state.position.turn == 1  # the starter rolls
    end = TAVLA.state(position({1: 1}, {20: 1, 6: 14}), (2, 1))
    assert end.apply(end.legal_actions()[0]).returns() == (2.0, -2.0)  # no backgammon
    assert TAVLA.result_name(2) == "a mars"
    assert TAVLA.options() == {"reroll_opening": True, "triple_game": False, "home_only": True}
    assert gammon.variant("turkish-backgammon").name == "tavla"


def test_tavla_no_hit_and_run():
    # 8/4* hits in the home board: the hitter may not go on to 2 (Portes lets it).
    assert "8/4*/2" in plays(BLOT_4, (4, 2), PORTES)
    assert "8/4*/2" not in plays(BLOT_4, (4, 2))
    assert "8/4* 6/4" in plays(BLOT_4, (4, 2))  # the other die moves another checker
    assert plays(BLOT_4, (4, 2)) == plays(BLOT_4, (4, 2), PORTES) - {"8/4*/2"}
    # Nor may it be borne off: 4/3* with the 1, then the 3 bears off another checker.
    home = position({4: 1, 1: 13}, {22: 1, 1: 14})
    assert "4/3*/off" in plays(home, (3, 1), PORTES)
    assert plays(home, (3, 1)) == plays(home, (3, 1), PORTES) - {"4/3*/off"}
    # Covered by another checker, one of the two may leave: 13/5* 9/5 5/1.
    covered = position({9: 1, 13: 1, 24: 13}, {20: 1, 1: 14})
    fours = plays(covered, (4, 4))
    assert "13/5*/1 9/5" in fours and "24/16 9/5*/1" not in fours
    assert "24/16 9/5*/1" in plays(covered, (4, 4), PORTES)


def test_tavla_home_only():
    # A hit outside the home board (our 10, their 15) does not bind by default.
    outside = position({13: 1, 6: 2}, {15: 1, 1: 14})
    assert "13/10*/8" in plays(outside, (3, 2))
    assert "13/10*/8" not in plays(outside, (3, 2), EVERY_HIT)
    assert plays(outside, (3, 2), EVERY_HIT) == plays(outside, (3, 2)) - {"13/10*/8"}
    with pytest.raises(gammon.InvalidOptionError, match="home_only"):
        gammon.variant("tavla", home_only="no")


@pytest.mark.parametrize("rules", [TAVLA, EVERY_HIT], ids=["home-only", "every-hit"])
def test_tavla_no_hit_and_run_kernel_agrees_with_the_oracle(rules):
    positions = oracle.random_game_positions(rules, 80, seed=34)
    positions += [BLOT_4, position({9: 1, 13: 1, 24: 13}, {20: 1, 1: 14}),
                  position({4: 1, 1: 13}, {22: 1, 1: 14})]
    checked = 0
    for pos in positions:
        for dice in ROLLS:
            got = [play.result.board for play in rules.state(pos, dice).legal_actions()]
            assert len(got) == len(set(got))
            want = oracle.hitter_results(pos, dice, no_run=True, no_hide=False,
                                         home_only=rules.after_hit.home_only)
            assert set(got) == want, (pos, dice)
            checked += 1
    assert checked >= 1700


@pytest.mark.slow
def test_tavla_kernel_agrees_with_the_oracle_20000_position_rolls():
    def expected(pos, dice):
        return oracle.hitter_results(pos, dice, no_run=True, no_hide=False,
                                     home_only=TAVLA.after_hit.home_only)

    positions = oracle.random_game_positions(TAVLA, 960, seed=2036)
    assert oracle.agree(TAVLA, positions, expected) >= 20_000


def test_tavla_no_hit_and_run_compiled_games():
    # The invariants of every track game (conservation, hits, replay, score) over the
    # kernel's random games, and those games replayed through the Python rules.
    rows = check_variant("tavla", 500, seed=33)
    assert (rows[:, 0] >= 0).all() and set(rows[:, 1]) <= {1, 2}
    replay_kernel_games("tavla", 30, seed=3)


def test_tavla_command_line(tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["selfplay", "tavla", "--games", "100", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["games"] == 100 and stats["unfinished"] == 0
    result = runner.invoke(app, ["legal", "tavla", "--dice", "42"])
    assert result.exit_code == 0 and "8/4 6/4" in result.output, result.output
    result = runner.invoke(app, ["duel", "tavla", "--players", "heuristic,random",
                                 "--games", "4"])
    assert result.exit_code == 0, result.output
    # No network ships for this game yet: hint reads one trained here for a few games.
    net = tmp_path / "tavla.npz"
    result = runner.invoke(app, ["train", "tavla", "--games", "3", "--out", str(net),
                                 "--check-every", "0"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["hint", "4HPwATDgc/ABMA", "--variant", "tavla", "--dice", "42",
                                 "--net", str(net), "--plies", "0", "--json"])
    assert result.exit_code == 0, result.output
    assert "8/4 6/4" in result.output
