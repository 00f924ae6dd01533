"""Every variant as an OpenSpiel game (gammon.envs.openspiel, docs/envs.md): OpenSpiel's own
checks pass on each, its MCTS bot plays a game through it, the step numbers make exactly
gammon's legal plays, chance has gammon's exact probabilities, and bad input is refused."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pyspiel
import pytest
from kinds import by_kind
from open_spiel.python.algorithms import mcts

import gammon
from gammon.core.errors import GammonError, IllegalOutcomeError, IllegalPlayError
from gammon.core.variant import variant_names
from gammon.envs import GammonGymEnv
from gammon.envs import openspiel as gos


@pytest.mark.parametrize("variant", by_kind(variant_names()))
def test_openspiel_random_sim_test_passes_on_every_variant(variant):
    """OpenSpiel's own test of a game: legal actions sorted and in range, unique action
    strings, clones equal, serialization round trips, chance probabilities, observation
    tensors of the declared size, returns within the utilities and summing as declared,
    the game length within the bound."""
    game = gos.load(variant)
    assert game.get_type().short_name == gos.game_name(variant)
    assert game.num_players() == gammon.variant(variant).players
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_every_variant_is_registered_under_its_name():
    names = set(pyspiel.registered_names())
    for variant in variant_names():
        assert gos.game_name(variant) in names
    assert pyspiel.load_game("gammon_long_nardy").num_players() == 2


def random_game(game, seed):
    """Every state met in a random game of ``game``, with the action taken at each."""
    rng = random.Random(seed)
    state, path = game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            numbers, probabilities = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(numbers, probabilities)[0]
        else:
            action = rng.choice(state.legal_actions())
        path.append((state.clone(), action))
        state.apply_action(action)
    return path, state


@pytest.mark.parametrize("variant", ["backgammon", "long-nardy", "hypergammon"])
def test_steps_of_a_turn_make_one_of_gammons_legal_plays(variant):
    """Whenever the steps end a turn, the new position is the result of one of the legal
    plays of gammon's state where the turn began; a player never changes mid-turn."""
    game = gos.load(variant)
    path, final = random_game(game, seed=3)
    turns = 0
    for (before, _), (after, _) in zip(path, path[1:] + [(final, None)], strict=True):
        if before.is_chance_node():
            continue
        begun, reached = before.node.state, after.node.state
        if reached is begun:  # a step of a turn that goes on: the same player acts
            assert after.current_player() == before.current_player()
            continue
        turns += 1
        results = {play.result.board for play in begun.legal_actions()}
        assert reached.position.board in results
    assert turns > 5 and final.is_terminal()


def test_the_step_numbers_are_the_gymnasium_environments():
    """A policy trained on GammonGymEnv(action_encoding='step') reads the same numbers:
    at the learner's decision, OpenSpiel's legal actions are the env's mask."""
    env = GammonGymEnv("backgammon", action_encoding="step")
    game = gos.load("backgammon")
    assert game.num_distinct_actions() == env.action_space.n == 162
    for seed in range(5):
        env.reset(seed=seed)
        state = game.new_initial_state()
        state.node = gos.Node(env.game, gos.new_turn(env.game))
        assert state.legal_actions() == list(np.flatnonzero(env.action_masks()))
        first = state.legal_actions()[0]
        assert state.action_to_string(first) == env.steps.meaning(first)


def test_chance_has_gammons_outcomes_and_exact_probabilities():
    game = gos.load("backgammon")
    state = game.new_initial_state()
    opening = dict(state.chance_outcomes())
    assert len(opening) == 30 and all(p == pytest.approx(1 / 30) for p in opening.values())
    assert 0 not in opening  # a tied opening throw is thrown again: 1-1 never comes
    state.apply_action(1 + 0 * 6)  # player 0 throws a 2, player 1 a 1
    assert state.node.state.dice == (2, 1) and state.current_player() == 0
    regular = gammon.variant("backgammon").initial_state()
    regular = regular.apply(regular.chance_outcomes()[0][0])
    while not regular.is_terminal and not regular.is_chance:
        regular = regular.apply(regular.legal_actions()[0])
    state.node = gos.Node(regular, None)
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 21 and sum(outcomes.values()) == pytest.approx(1.0)
    six_five = 5 + 4 * 6  # the dice as gammon writes them, high first, base 6
    exact = dict(regular.chance_outcomes())
    assert outcomes[six_five] == float(next(p for roll, p in exact.items()
                                            if roll.dice == (6, 5)))
    assert outcomes[six_five] == float(Fraction(1, 18))
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, six_five) == "throw 6-5"


def test_a_clone_plays_on_apart_inside_a_turn():
    game = gos.load("backgammon")
    state = game.new_initial_state()
    state.apply_action(5 + 0 * 6)  # 6-1 to player 0
    legal = state.legal_actions()
    clone = state.clone()
    clone.apply_action(legal[0])
    assert clone.current_player() == 0 and str(clone) != str(state)
    assert state.legal_actions() == legal
    assert clone.legal_actions() != legal


def test_the_game_takes_the_variants_options_as_parameters():
    game = pyspiel.load_game("gammon_hypergammon(checkers_per_side=2)")
    state = game.new_initial_state()
    assert sum(state.node.state.position.board) == 4
    assert game.get_parameters() == {"checkers_per_side": 2}



def test_games_and_states_pickle_and_round_trip_as_openspiels_python_games_do():
    """``pickle.dumps(pyspiel.load_game("gammon_backgammon"))`` failed: the game classes
    were made at registration and pickle could not find them by name. A game now comes
    back equal, with its parameters; a state (inside a turn in steps too) with its game,
    history, legal actions and board; and a fresh interpreter unpickles them."""
    game = pyspiel.load_game("gammon_backgammon")
    again = pickle.loads(pickle.dumps(game))
    assert again == game and str(again) == "gammon_backgammon()"
    assert again.num_distinct_actions() == game.num_distinct_actions()
    small = pyspiel.load_game("gammon_hypergammon(checkers_per_side=2)")
    assert pickle.loads(pickle.dumps(small)).get_parameters() == {"checkers_per_side": 2}
    rng = random.Random(3)
    state = game.new_initial_state()
    while state.is_chance_node() or state.current_player() != 0 or len(state.history()) < 6:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.node.turn is not None  # the turn in steps is under way or about to be
    state.apply_action(state.legal_actions()[0])  # a step: the turn may be half played
    copied = pickle.loads(pickle.dumps(state))
    assert copied.history() == state.history() and str(copied) == str(state)
    assert copied.legal_actions() == state.legal_actions()
    assert copied.get_game() == game
    script = ("import pickle, sys; game, state = pickle.loads(sys.stdin.buffer.read()); "
              "print(game, len(state.history()), state.legal_actions() != [])")
    fresh = subprocess.run([sys.executable, "-c", script], input=pickle.dumps((game, state)),
                           capture_output=True, check=True)
    assert fresh.stdout.decode().split() == ["gammon_backgammon()",
                                             str(len(state.history())), "True"]

@pytest.mark.heavy
def test_mcts_plays_a_game_of_hypergammon_through_the_adapter():
    """OpenSpiel's MCTS bot (chance nodes sampled by their probabilities, random
    rollouts) plays seat 0 against random legal actions to the end; each of its choices
    is legal, and the history replays to the same end."""
    game = gos.load("hypergammon")
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=20,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    chosen = 0
    while not state.is_terminal():
        if state.is_chance_node():
            numbers, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(numbers, p=probabilities)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            chosen += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    returns = state.returns()
    assert chosen > 3
    assert returns[0] == -returns[1] and abs(returns[0]) in (1.0, 2.0, 3.0)
    replay = game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert str(replay) == str(state) and replay.returns() == returns


def test_bad_input_is_refused_with_what_is_allowed():
    with pytest.raises(GammonError, match="unknown variant 'nope'"):
        gos.load("nope")
    game = gos.load("hypergammon")
    state = game.new_initial_state()
    with pytest.raises(IllegalOutcomeError, match="cannot happen here"):
        state.apply_action(0)  # 1-1 does not open a game
    state.apply_action(1)
    with pytest.raises(IllegalPlayError, match="legal: 22 by 1"):
        state.apply_action(161)
    with pytest.raises(GammonError, match="option"):
        gos.load("hypergammon", checkers_per_side=True)
