"""Cube decisions for bots, and bots playing games and matches with the stakes layer."""

from __future__ import annotations

import random

import pytest

import gammon
from gammon.agents import make_agent
from gammon.agents.cube import CubePolicy, action_kind, cube_choice, match_equity
from gammon.stakes import CubeAction, Match, StakeRules, cube_game

POLICY = CubePolicy()


def test_money_thresholds():
    assert POLICY.take_point() == 0.25
    assert POLICY.should_take(0.3, -0.4)
    assert not POLICY.should_take(0.2, -0.6)
    assert not POLICY.should_double(0.6, 0.2)
    assert POLICY.should_double(0.72, 0.45)
    assert not POLICY.should_double(0.9, 1.4)  # too good: play on for the gammon
    assert not POLICY.should_double(0.8, 0.6, crawford=True)
    assert POLICY.should_beaver(0.55, 0.1)


def test_match_equities():
    for n in range(1, 8):
        assert match_equity(n, n) == pytest.approx(0.5)
        for m in range(1, 8):
            assert match_equity(n, m) + match_equity(m, n) == pytest.approx(1.0)
    assert match_equity(2, 5) > match_equity(3, 5) > match_equity(4, 5)
    assert 0.0 < POLICY.take_point(5, 3) < 0.5


def test_cube_actions_are_recognised():
    assert action_kind(CubeAction.DOUBLE) == "double"
    assert action_kind(CubeAction.ROLL) == "no double"
    assert action_kind(CubeAction.TAKE) == "take"
    assert action_kind(CubeAction.DROP) == "drop"
    assert action_kind(CubeAction.BEAVER) == "beaver"
    legal = [CubeAction.TAKE, CubeAction.DROP]
    assert cube_choice(legal, 0.3, -0.4) is CubeAction.TAKE
    assert cube_choice(legal, 0.1, -0.9) is CubeAction.DROP
    assert cube_choice([CubeAction.ROLL, CubeAction.DOUBLE], 0.75, 0.5) is CubeAction.DOUBLE

    class Pass:  # another game's "pass" is not a cube decision
        def __str__(self) -> str:
            return "pass"

    assert cube_choice([Pass()], 0.1, -0.9) is None


@pytest.mark.parametrize("specs", [("heuristic", "expectimax:1"), ("pubeval", "random"),
                                   ("mcts:30", "heuristic")])
def test_bots_play_a_money_game_with_the_cube(specs):
    rules = gammon.variant("backgammon")
    agents = [make_agent(spec, rules, i) for i, spec in enumerate(specs)]
    rng = random.Random(7)
    state = cube_game(rules, StakeRules(cube=True, beaver=True, jacoby=True))
    while not state.is_terminal:
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
        else:
            action = agents[state.current_player].choose(state)
            assert action in list(state.legal_actions())
            state = state.apply(action)
    assert sum(state.returns()) == 0 and max(state.returns()) > 0


def test_bots_play_a_match():
    rules = gammon.variant("backgammon")
    agents = [make_agent("heuristic", rules, 1), make_agent("expectimax:1", rules, 2)]
    match = Match(rules, 3)
    winner = match.play(lambda s: agents[s.current_player].choose(s), random.Random(2))
    assert match.is_over and match.score.score[winner] >= 3
