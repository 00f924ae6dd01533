"""Acedrex's compiled search (issue 49, item 1) gives the Python search's scores to the
bit: every decision of seeded games, under every option of the rules, at the depths the
bots use; and the chance states' values. The games mix the search's choices with a
random player's, resignations included, so that states with players out, full jackpots,
jumps and every stage of combat come up."""

from __future__ import annotations

import random

import numpy as np
import pytest

import gammon
from gammon.agents import make_agent
from gammon.agents.acedrex_search import AcedrexSearch, compiled_search, encode
from gammon.agents.search import make_search
from gammon.agents.state_search import StateSearch
from gammon.evaluators.acedrex import AcedrexEndgame, AcedrexHeuristic
from gammon.kernels import acedrex_search as kernel
from gammon.variants.acedrex import RESIGN

OPTIONS = [
    {},
    {"split_die": False},
    {"combat_scope": "board"},
    {"foreign_defender": "captured"},
    {"ties": "defender"},
    {"payout": "victim", "stake": 3},
    {"threshold": 8, "captures_to_end": 3},
    {"turn_cap": 25},
]


def _pair(rules):
    python = StateSearch(AcedrexHeuristic(rules), wide=12)
    compiled = AcedrexSearch(AcedrexHeuristic(rules), wide=12)
    return python, compiled


def _same(python, compiled, state, depth, width=4):
    actions, scores, value = python.decide(state, depth, width, None)
    actions2, scores2, value2 = compiled.decide(state, depth, width, None)
    assert [str(a) for a in actions] == [str(a) for a in actions2]
    np.testing.assert_array_equal(scores2, scores)
    np.testing.assert_array_equal(value2, value)
    return actions, scores


def _play(rules, seed, decisions, depth, check_chance=False, wild=0.3):
    """A seeded game, every decision searched by both; returns what it went through."""
    python, compiled = _pair(rules)
    rng = random.Random(seed)
    state = rules.initial_state()
    seen = {"decisions": 0, "stages": set(), "out": 0}
    while not state.is_terminal and seen["decisions"] < decisions:
        seen["stages"].add(state.stage)
        if state.is_chance:
            if check_chance and state.stage != "start":
                np.testing.assert_array_equal(compiled.value(state, 1), python.value(state, 1))
            state = state.apply(state.sample_chance(rng))
            continue
        actions, scores = _same(python, compiled, state, depth)
        seen["decisions"] += 1
        if rng.random() < 0.004:
            action = RESIGN
        elif rng.random() < wild:
            action = rng.choice(list(actions))
        else:
            action = actions[int(np.argmax(scores))]
        state = state.apply(action)
        seen["out"] = sum(state.out)
    return seen


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "default")
def test_every_decision_scores_as_the_python_search(options):
    rules = gammon.variant("acedrex", **options)
    seen = _play(rules, 11, 70, depth=1)
    assert seen["decisions"] > 0


def test_a_long_game_goes_through_every_stage_with_the_same_scores():
    seen = _play(gammon.variant("acedrex"), 7, 260, depth=1, check_chance=True, wild=0.5)
    assert {"roll", "one", "move", "jump", "attack", "defend"} <= seen["stages"]
    assert seen["out"] == 2  # and players who left: their territories fight later


def test_depth_zero_and_two_score_as_the_python_search():
    rules = gammon.variant("acedrex")
    _play(rules, 3, 120, depth=0)
    python, compiled = _pair(rules)
    rng = random.Random(8)
    state = rules.initial_state()
    searched = 0
    while searched < 3:
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
            continue
        if state.stage == "move" and len(state.legal_actions()) <= 12:
            _same(python, compiled, state, 2, width=2)
            searched += 1
        state = state.apply(rng.choice([a for a in state.legal_actions() if a is not RESIGN]))


def test_the_bots_take_the_compiled_search_for_the_heuristic_alone():
    rules = gammon.variant("acedrex")
    assert isinstance(make_search(rules, AcedrexHeuristic(rules), 12), AcedrexSearch)
    assert isinstance(make_agent("expectimax:1", rules, 1).search, AcedrexSearch)
    # The money bots' evaluator scores otherwise: the Python search.
    assert compiled_search(AcedrexEndgame(rules), 12) is None
    assert not isinstance(make_agent("money", rules, 1).search, AcedrexSearch)
    # Money past what the compiled state's numbers hold.
    rich = gammon.variant("acedrex", stake=kernel.MOST_STAKE + 1)
    assert compiled_search(AcedrexHeuristic(rich), 12) is None


def test_the_compiled_actions_are_the_engine_s_in_its_order():
    rules = gammon.variant("acedrex")
    rng = random.Random(2)
    state = rules.initial_state()
    listed = 0
    while listed < 200 and not state.is_terminal:
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
            continue
        legal = [a for a in state.legal_actions() if a is not RESIGN]
        rows = kernel.actions_of(encode(state), rules.kernel_rules())
        assert len(rows) == len(legal)
        for row, action in zip(rows, legal, strict=True):
            if state.stage == "move" and hasattr(action, "steps"):
                assert (row[0], row[1], row[2], bool(row[3])) == (
                    action.source, action.steps, action.target, action.charge)
        listed += 1
        state = state.apply(rng.choice(legal))
