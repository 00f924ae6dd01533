"""Search averages over the dice with their exact probabilities; the engines agree."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

import gammon
from gammon.agents import evaluator_for, make_agent
from gammon.agents.base import chance_children
from gammon.agents.search import BoardSearch, StateSearch, board_search_applies, roll_table
from gammon.core.dice import two_dice
from gammon.core.position import Position
from gammon.core.state import GameState, Phase


def midgame(variant_name: str, plays: int = 12, seed: int = 4) -> GameState:
    """A CHANCE state reached by random play (the last one if the game ends first)."""
    rules = gammon.variant(variant_name)
    rng = random.Random(seed)
    state = rules.initial_state()
    made = 0
    last = None
    while True:
        if state.is_terminal:
            assert last is not None
            return last
        if state.is_chance:
            if not state.opening:
                last = state
                if made >= plays:
                    return state
            state = state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
        made += 1


def test_roll_table_is_exact():
    rolls, probs = roll_table(6)
    assert len(rolls) == 21
    exact = dict((r.dice, p) for r, p in two_dice(6))
    for roll, p in zip(rolls, probs, strict=True):
        assert p == float(exact[roll])
        assert exact[roll] == (Fraction(1, 36) if roll[0] == roll[1] else Fraction(1, 18))
    assert sum(exact.values()) == 1


@pytest.mark.parametrize("variant_name", ["backgammon", "long-nardy", "hypergammon-3"])
def test_depth_one_is_the_exact_expectation(variant_name):
    """Depth 1 = sum over the 21 rolls, each with its exact probability, of the value of
    the roller's best reply by the evaluator."""
    state = midgame(variant_name)
    rules = state.variant
    evaluator = evaluator_for(rules)
    search = BoardSearch(rules, evaluator)
    roller = state.position.turn
    board = np.frombuffer(state.position.board, np.int8)[None, :]
    expected = 0.0
    for roll, probability in two_dice(rules.sides):
        rows = rules.kernel.plays(state.position.board, roller, *roll.dice)
        values = evaluator.values(rows[:, : board.shape[1]], 1 - roller)[:, roller]
        expected += float(probability) * values.max()
    got = search.value(board, roller, 1)[0]
    mine = got if roller == 0 else -got
    assert mine == pytest.approx(expected, abs=1e-12)


def test_state_search_agrees_with_board_search():
    state = midgame("backgammon", plays=9, seed=8)
    rules = state.variant
    evaluator = evaluator_for(rules)
    board = np.frombuffer(state.position.board, np.int8)[None, :]
    fast = BoardSearch(rules, evaluator).value(board, state.position.turn, 1)[0]
    slow = StateSearch(evaluator).value(state, 1)[0]
    assert slow == pytest.approx(fast, abs=1e-12)


def test_depth_two_searches_the_chosen_replies():
    state = midgame("hypergammon-3", plays=4, seed=3)
    rules = state.variant
    evaluator = evaluator_for(rules)
    search = BoardSearch(rules, evaluator)
    roller = state.position.turn
    size = 2 * rules.slots
    expected = 0.0
    for roll, probability in two_dice(6):
        rows = rules.kernel.plays(state.position.board, roller, *roll.dice)[:, :size]
        leaf = search.leaf(np.ascontiguousarray(rows), roller)
        sign = 1.0 if roller == 0 else -1.0
        best = int(np.argmax(sign * leaf))
        reply = rows[best : best + 1]
        if search.finished(reply, roller)[0]:
            value = leaf[best]
        else:
            value = search.value(np.ascontiguousarray(reply), 1 - roller, 1)[0]
        expected += float(probability) * value
    board = np.frombuffer(state.position.board, np.int8)[None, :]
    assert search.value(board, roller, 2)[0] == pytest.approx(expected, abs=1e-12)


def test_compiled_evaluation_matches_numpy():
    for name in ("backgammon", "long-nardy", "acey-deucey", "hypergammon-2"):
        rules = gammon.variant(name)
        evaluator = evaluator_for(rules)
        states = [midgame(name, plays=p, seed=s) for p in (3, 20, 40) for s in (1, 2)]
        boards = np.array([np.frombuffer(s.position.board, np.int8) for s in states])
        turns = np.array([s.position.turn for s in states])
        for a, b in zip(evaluator.chances(boards, turns), evaluator.chances_numpy(boards, turns),
                        strict=True):
            np.testing.assert_allclose(a, b, atol=1e-12)


def test_values_are_zero_sum_and_bounded():
    rules = gammon.variant("backgammon")
    evaluator = evaluator_for(rules)
    states = [midgame("backgammon", plays=p, seed=p) for p in range(2, 40, 6)]
    values = evaluator.evaluate(states)
    np.testing.assert_allclose(values[:, 0], -values[:, 1])
    assert np.all(np.abs(values) <= 3.0)


def test_multigam_values_are_expected_scores():
    states = [midgame("multi-gam", plays=p, seed=p) for p in (4, 10, 16)]
    values = evaluator_for(states[0].variant).evaluate(states)
    assert values.shape == (3, 4)
    assert np.all((values >= 1.0) & (values <= 5.0))


def test_chance_outcomes_thrown_again_are_renormalised():
    """In Acedrex a combat throw of 1 is thrown again: the search sees 19 outcomes of
    1/19 each, the exact conditional distribution."""
    rules = gammon.variant("acedrex")
    rng = random.Random(5)
    state = rules.initial_state()
    for _ in range(20000):
        if state.phase is Phase.CHANCE and state.stage == "attack":
            break
        if state.is_terminal:
            state = rules.initial_state()
        elif state.is_chance:
            state = state.apply(state.sample_chance(rng))
        else:
            legal = [a for a in state.legal_actions() if type(a).__name__ != "Resign"]
            state = state.apply(legal[rng.randrange(len(legal))] if legal else
                                state.legal_actions()[0])
    assert state.stage == "attack"
    children = chance_children(state)
    assert len(children) == 19
    assert all(p == pytest.approx(1 / 19) for _, p in children)


def test_board_search_applies_only_to_alternating_games():
    assert board_search_applies(gammon.variant("backgammon"))
    assert board_search_applies(gammon.variant("long-nardy"))
    assert not board_search_applies(gammon.variant("long-nardy", last_roll=True))
    assert not board_search_applies(gammon.variant("acey-deucey"))
    assert not board_search_applies(gammon.variant("multi-gam"))
    assert not board_search_applies(gammon.variant("acedrex"))


@pytest.mark.parametrize("spec", ["heuristic", "expectimax:1", "expectimax:2", "mcts:50"])
def test_a_bot_takes_the_win(spec):
    """One checker each side left: the play that bears off the last checker wins."""
    rules = gammon.variant("backgammon")
    mine = [14] + [0] * 25
    mine[3] = 1
    theirs = [14] + [0] * 25
    theirs[6] = 1
    position = Position(bytes(mine + theirs), 2, 0)
    state = rules.state(position, (4, 1))
    play = make_agent(spec, rules, 1).choose(state)
    assert play.result.off(0) == 15


def test_expectimax_plays_the_standard_openings():
    rules = gammon.variant("backgammon")
    agent = make_agent("expectimax:2", rules, 1)
    from gammon.notation.movetext import format_play

    start = rules.start_position()
    assert format_play(agent.choose(rules.state(start, (3, 1)))) == "8/5 6/5"
    assert format_play(agent.choose(rules.state(start, (4, 2)))) == "8/4 6/4"
    assert format_play(agent.choose(rules.state(start, (6, 1)))) == "13/7 8/7"


def test_cutoff_drops_candidates_far_behind_the_best():
    """gnubg's move filter: of the ``width`` best, only those within ``cutoff`` of the
    best by depth 0 are searched further; without a cutoff all ``width`` are."""
    from gammon.agents.search import _keep

    base = np.array([0.10, 0.50, 0.45, -0.20, 0.30])
    assert list(_keep(base, 3)) == [1, 2, 4]
    assert list(_keep(base, 3, 0.16)) == [1, 2]
    assert list(_keep(base, 3, 0.0)) == [1]
    state = midgame("backgammon", plays=9)
    state = state.apply(state.chance_outcomes()[5][0])
    scores = BoardSearch(state.variant, evaluator_for(state.variant)).scores(
        state, 1, 8, 0.05)
    searched = np.isfinite(scores)
    assert 1 <= searched.sum() <= 8


def test_cube_chances_look_as_far_ahead_as_the_search():
    """The chances a cube decision reads a roll ahead: a side that bears off its last
    checker with any roll has won, and a gammon when the other has borne nothing off;
    from the other side, the evaluator's chances after its best play of each roll."""
    from gammon.agents.stakes import view_of
    from gammon.stakes.cube import CubeState

    rules = gammon.variant("backgammon")
    search = BoardSearch(rules, evaluator_for(rules))
    rows = [[0] * 26, [0] * 26]
    rows[0][0], rows[0][1] = 14, 1
    rows[1][19] = 15
    position = gammon.Position.from_checkers(rows)
    c, _ = view_of(CubeState.midgame(rules, position), search.evaluator, 0, search, 1)
    assert (c.win, c.gammons, c.gammons_against) == (pytest.approx(1.0), pytest.approx(1.0),
                                                     0.0)
    rows[1][0], rows[1][19] = 1, 14
    position = gammon.Position.from_checkers(rows)
    c, _ = view_of(CubeState.midgame(rules, position), search.evaluator, 0, search, 1)
    assert c.win == pytest.approx(1.0) and c.gammons == pytest.approx(0.0)
    # With the other side to roll: its chances after its best play of each roll, small.
    mirror = CubeState.midgame(rules, position.with_turn(1))
    c, _ = view_of(mirror, search.evaluator, 1, search, 1)
    assert 0.0 <= c.win < 0.5 and 0.0 <= c.gammons <= 1.0

