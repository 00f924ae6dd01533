"""Portes (docs/rules/portes.md): one test per rule, named after its label.

Portes is backgammon without the cube and the triple game, whose opening lot only picks
the starter; each test checks the difference against ``backgammon`` too, so that it is
exactly the rule. Positions are in each player's own numbering (25 the bar); checkers
not placed are borne off.
"""

from __future__ import annotations

import json
import random

import oracle
import pytest
from layouts import position
from typer.testing import CliRunner

import gammon
from gammon import Phase, Position, Roll
from gammon.cli.main import app
from gammon.core.dice import two_dice
from gammon.stakes import MatchScore, StakeRules, cube_game
from gammon.stakes.rules import cube_default

PORTES = gammon.variant("portes")
BG = gammon.variant("backgammon")
ROLLS = [roll.dice for roll, _ in two_dice()]


def final(rules, loser: dict[int, int]) -> tuple[float, ...]:
    """Player 0 bears off its last checker (on the 1-point, with 2-1) against ``loser``."""
    state = rules.state(position({1: 1}, loser), (2, 1))
    return state.apply(state.legal_actions()[0]).returns()


def test_portes_rules_are_backgammons_moves():
    assert PORTES.start_position() == BG.start_position()
    assert PORTES.contact.hitting and PORTES.contact.block == 2 and PORTES.checkers == 15
    # The legal plays of positions from random games are backgammon's, and the brute-force
    # oracle's (written from backgammon's rules), for every roll.
    positions = oracle.random_game_positions(PORTES, 60, seed=33)
    positions += [position({25: 1, 6: 2}, {1: 2, 2: 2, 3: 2, 4: 1}),  # on the bar
                  position({6: 3, 3: 2, 1: 1}, {24: 1, 20: 14})]  # bearing off
    for pos in positions:
        for dice in ROLLS:
            ours = {play.result.board for play in PORTES.state(pos, dice).legal_actions()}
            theirs = {play.result.board for play in BG.state(pos, dice).legal_actions()}
            assert ours == theirs == oracle.legal_results(pos, dice), (pos, dice)


@pytest.mark.slow
def test_portes_kernel_agrees_with_the_oracle_20000_position_rolls():
    positions = oracle.random_game_positions(PORTES, 960, seed=2035)
    assert oracle.agree(PORTES, positions, oracle.legal_results) >= 20_000


def test_portes_opening_starter_throws_again():
    state = PORTES.initial_state().apply(Roll((2, 5), opening=True))
    # The lot only picks the starter (player 1), who throws two dice: a double may come.
    assert state.phase is Phase.CHANCE and not state.opening and state.position.turn == 1
    assert len(state.chance_outcomes()) == 21
    assert state.apply(Roll((4, 4))).dice == (4, 4)
    # The option plays the lot's dice at once, as backgammon does.
    lot = gammon.variant("portes", reroll_opening=False)
    state = lot.initial_state().apply(Roll((2, 5), opening=True))
    assert state.phase is Phase.DECIDE and state.dice == (5, 2) and state.current_player == 1
    assert BG.initial_state().apply(Roll((2, 5), opening=True)).phase is Phase.DECIDE


def test_portes_no_cube():
    assert not PORTES.cube and BG.cube
    assert not cube_default(PORTES) and cube_default(BG)
    assert not StakeRules().cube_for(PORTES)
    five = MatchScore(length=5, score=(0, 0))
    assert cube_game(BG, score=five).cube_in_play
    game = cube_game(PORTES, score=five)
    assert not game.cube_in_play
    state = game.apply(Roll((6, 1), opening=True)).apply(Roll((3, 1)))
    assert all(isinstance(action, gammon.Play) for action in state.legal_actions())
    # Asked for, the cube is there: the option belongs to the stakes.
    assert StakeRules(cube=True).cube_for(PORTES)


@pytest.mark.parametrize(("loser", "points", "backgammon"), [
    ({6: 3}, 1, 1),  # borne off twelve: a single game
    ({6: 15}, 2, 2),  # nothing off: a double game
    ({20: 1, 6: 14}, 2, 3),  # one still in the winner's home board: no triple game
    ({25: 1, 6: 14}, 2, 3),  # on the bar: the same
])
def test_portes_score_no_triple_game(loser, points, backgammon):
    assert final(PORTES, loser) == (points, -points)
    assert final(BG, loser) == (backgammon, -backgammon)
    assert PORTES.result_name(2) == "a double game"


def test_portes_triple_option():
    triple = gammon.variant("portes", triple_game=True)
    assert final(triple, {20: 1, 6: 14}) == (3, -3)
    assert final(triple, {25: 1, 6: 14}) == (3, -3)
    assert final(triple, {6: 15}) == (2, -2)
    assert PORTES.options() == {"reroll_opening": True, "triple_game": False}
    with pytest.raises(gammon.InvalidOptionError, match="triple_game"):
        gammon.variant("portes", triple_game="yes")


def test_portes_compiled_games_score_one_or_two():
    rows = PORTES.random_playouts(400, seed=33)
    assert (rows[:, 0] >= 0).all()  # every game finished, no draw
    assert set(rows[:, 1]) <= {1, 2} and 2 in set(rows[:, 1])
    # Replayed through the Python rules a seeded random game ends the same way twice.
    rng = random.Random(4)
    state = PORTES.initial_state()
    while not state.is_terminal:
        state = state.apply(state.sample_chance(rng) if state.is_chance
                            else rng.choice(state.legal_actions()))
    assert sorted(state.returns()) in ([-1.0, 1.0], [-2.0, 2.0])
    assert isinstance(state.position, Position)


def test_portes_command_line(tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["selfplay", "portes", "--games", "100", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["games"] == 100 and stats["unfinished"] == 0
    assert all(p["backgammons"] == 0 for p in stats["players"])
    result = runner.invoke(app, ["legal", "portes", "--dice", "31"])
    assert result.exit_code == 0 and "8/5 6/5" in result.output, result.output
    result = runner.invoke(app, ["duel", "portes", "--players", "heuristic,random",
                                 "--games", "4"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["play", "tavli-portes", "--seats", "random,random",
                                 "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "goes first and rolls" in " ".join(result.output.split())
    # No network ships for this game yet: hint reads one trained here for a few games.
    net = tmp_path / "portes.npz"
    result = runner.invoke(app, ["train", "portes", "--games", "3", "--out", str(net),
                                 "--check-every", "0"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["hint", "4HPwATDgc/ABMA", "--variant", "portes", "--dice", "31",
                                 "--net", str(net), "--plies", "0", "--json"])
    assert result.exit_code == 0, result.output
    assert "8/5 6/5" in result.output
