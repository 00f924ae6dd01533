"""The step action encoding of the Gymnasium environment (gammon.envs.steps,
docs/envs.md): each number is the same checker step in every state, the steps of a turn
reach exactly the engine's legal plays and never strand the player, and Gymnasium's
checker passes."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gammon
from gammon.core.errors import GammonError
from gammon.core.play import Play
from gammon.core.position import Position
from gammon.core.protocol import play_on
from gammon.envs import GammonGymEnv
from gammon.envs.steps import STAKES_ACTIONS, StepEncoding, TurnInSteps
from gammon.notation.movetext import Completions
from gammon.stakes.cube import CubeAction

TRACKS = ["backgammon", "nackgammon", "hypergammon-3", "short", "caucasian", "long-nardy",
          "fevga", "plakoto", "tapa"]


def play_decisions(name, count, seed):
    """``count`` play decisions met in random games of ``name``."""
    rules = gammon.variant(name)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = rules.initial_state()
        while not state.is_terminal and len(found) < count:
            state = play_on(state, rng)
            if state.is_terminal:
                break
            if rng.random() < 0.3:
                found.append(state)
            state = state.apply(rng.choice(list(state.legal_actions())))
    return rules, found


def every_step_path(turn):
    """Every play the legal steps of ``turn`` lead to, and the number of steps each took;
    fails if a sequence of legal steps ever stops short of a legal play."""
    reached: dict[bytes, set[int]] = {}
    seen = set()
    stack = [(turn.board, turn.dice, 0)]
    while stack:
        board, dice, taken = stack.pop()
        if (board, dice, taken) in seen:
            continue
        seen.add((board, dice, taken))
        turn.board, turn.dice = board, dice
        done = turn.done()
        if done is not None and taken:
            reached.setdefault(done.result.board, set()).add(taken)
            continue
        steps = turn.legal_steps()
        assert steps, "legal steps stranded the player short of a legal play"
        for source, die in steps:
            turn.board, turn.dice = board, dice
            turn.take(source, die)
            stack.append((turn.board, turn.dice, taken + 1))
    return reached


@pytest.mark.parametrize("name", TRACKS)
def test_the_steps_of_a_turn_reach_exactly_the_legal_plays(name):
    """From 25 play decisions of random games, every sequence of legal steps ends on a
    legal play, every legal play is reached, and by as many steps as it has moves."""
    _, states = play_decisions(name, 25, seed=len(name))
    for state in states:
        legal = list(state.legal_actions())
        turn = TurnInSteps(state)
        if len(legal) == 1 and not legal[0].moves:
            assert turn.done() == legal[0] and turn.legal_steps() == []
            continue
        reached = every_step_path(turn)
        assert set(reached) == {play.result.board for play in legal}, state
        for play in legal:
            assert reached[play.result.board] == {len(play.moves)}


@pytest.mark.parametrize("name", TRACKS)
def test_the_compiled_steps_are_the_completions_steps(name):
    """The compiled search (gammon.kernels.stepping) answers the legal steps of every
    board a turn in steps passes, as the Python search of Completions does (the steps,
    then whether a legal play can follow each)."""
    _, states = play_decisions(name, 20, seed=7 + len(name))
    for state in states:
        turn = TurnInSteps(state)
        python = Completions(state)
        stack = [(turn.board, turn.dice)]
        seen = set()
        while stack:
            board, dice = stack.pop()
            if (board, dice) in seen or not dice:
                continue
            seen.add((board, dice))
            expected = [(source, die) for source, die in python.steps(board, dice)
                        if python.play(*python.after(board, dice, source, die)) is not None]
            assert turn.completions.legal_steps(board, dice) == expected, (state, board, dice)
            stack += [python.after(board, dice, source, die) for source, die in expected]


def blocked_state():
    """Backgammon, player 0 on the bar against a closed board: no roll enters."""
    mine = [14] + [0] * 24 + [1]  # 14 off, one on the bar
    theirs = [0] + [2] * 6 + [0] * 6 + [3] + [0] * 11 + [0]  # their 1..6, and 3 on 13
    return gammon.variant("backgammon").state(Position.from_checkers([mine, theirs]), (6, 5))


def test_a_number_means_the_same_step_in_every_state():
    encoding = StepEncoding(gammon.variant("backgammon"))
    assert encoding.size == 25 * 6 + 1 + len(STAKES_ACTIONS) == 162
    assert encoding.step_of(encoding.index(13, 5)) == (13, 5)
    assert encoding.meaning(encoding.index(25, 3)) == "bar by 3"
    assert encoding.meaning(encoding.pass_index) == "pass (no move)"
    # Through the environment: a step number moves one of the learner's checkers from
    # its source, die pips on (or off), whatever the position.
    single = GammonGymEnv(action_encoding="step", opponents="random")
    rng = np.random.default_rng(1)
    checked = 0
    for seed in range(4):
        single.reset(seed=seed)
        terminated = False
        while not terminated:
            masks = single.action_masks()
            action = int(rng.choice(np.flatnonzero(masks)))
            before = single.steps.position(single.game).row(0)
            game = single.game
            _, _, terminated, _, _ = single.step(action)
            if action < encoding.steps and single.game is game:  # a step, the turn goes on
                source, die = encoding.step_of(action)
                after = single.steps.position(game).row(0)
                change = [b - a for a, b in zip(before, after, strict=True)]
                assert change[source] == -1 and change[max(source - die, 0)] == 1
                assert sum(abs(c) for c in change) == 2
                checked += 1
    assert checked > 50


def test_the_player_who_cannot_move_passes():
    state = blocked_state()
    encoding = StepEncoding(state.variant)
    assert encoding.legal(state) == [encoding.pass_index]
    chosen = encoding.take(state, encoding.pass_index)
    assert isinstance(chosen, Play) and not chosen.moves and chosen in state.legal_actions()


def test_cube_decisions_have_numbers_of_their_own():
    single = GammonGymEnv(action_encoding="step", stakes={}, opponents="random")
    single.reset(seed=0)
    game = single.game
    assert set(game.legal_actions()) == {CubeAction.ROLL, CubeAction.DOUBLE}
    numbers = single.steps.legal(game)
    assert sorted(single.steps.meaning(k) for k in numbers) == ["double", "roll"]
    assert all(k > single.steps.pass_index for k in numbers)
    roll = next(k for k in numbers if single.steps.meaning(k) == "roll")
    single.step(roll)
    assert single.game is not game  # rolled: the learner now plays, in steps
    assert all(k < single.steps.steps for k in single.steps.legal(single.game))


@pytest.mark.parametrize(("name", "kwargs"), [("backgammon", {"stakes": {}}),
                                              ("long-nardy", {}), ("hypergammon", {}),
                                              ("plakoto", {})])
def test_gymnasium_check_env_passes_with_steps(name, kwargs):
    check_env(GammonGymEnv(name, action_encoding="step", **kwargs), skip_render_check=True)


@pytest.mark.parametrize("name", ["long-nardy", "plakoto"])
def test_whole_games_in_steps_end_with_the_engines_result(name):
    """Masked random steps play whole games: the steps inside a turn pay 0 and show the
    board so far and one die fewer left; each game ends with the engine's returns."""
    single = GammonGymEnv(name, action_encoding="step", opponents="random")
    rng = np.random.default_rng(4)
    for seed in range(3):
        obs, _ = single.reset(seed=seed)
        terminated = False
        while not terminated:
            left = obs["observation"][-6:].sum() * 4
            game = single.game
            obs, reward, terminated, _, info = single.step(
                int(rng.choice(np.flatnonzero(single.action_masks()))))
            assert "illegal_action" not in info
            if single.game is game:
                assert reward == 0 and not terminated
                assert obs["observation"][-6:].sum() * 4 == left - 1
                assert single.observation_space.contains(obs)
        assert reward == single.game.returns()[single.seat]


@pytest.mark.parametrize(("kwargs", "why"), [
    ({"action_encoding": "steps"}, "action_encoding is 'play' .* or 'step'"),
    ({"action_encoding": 1}, "action_encoding is 'play'"),
    ({"variant": "acey-deucey", "action_encoding": "step"}, "Supported: backgammon"),
    ({"variant": "multi-gam", "action_encoding": "step", "opponents": "random"},
     "has 4 players"),
    ({"variant": "acedrex", "action_encoding": "step"}, "not a game of checkers"),
])
def test_the_step_encoding_refuses_what_it_does_not_encode(kwargs, why):
    with pytest.raises(GammonError, match=why):
        GammonGymEnv(**kwargs)


def test_an_illegal_step_ends_the_episode_and_names_the_legal_ones():
    single = GammonGymEnv(action_encoding="step")
    single.reset(seed=2)
    legal = single.steps.legal(single.game)
    wrong = next(k for k in range(single.steps.steps) if k not in legal)
    _, reward, terminated, _, info = single.step(wrong)
    assert terminated and reward == single.illegal_reward
    assert "the legal numbers are" in info["illegal_action"]
    assert single.steps.meaning(legal[0]) in info["illegal_action"]


def test_render_draws_the_turn_as_the_steps_leave_it():
    single = GammonGymEnv(action_encoding="step", render_mode="ansi")
    single.reset(seed=3)
    before = single.render()
    assert "X to play [3] [2]" in before
    single.step(single.steps.index(6, 2))
    after = single.render()
    assert "X to play [3] (played 2)" in after and after != before


def test_a_step_that_pins_shows_the_pin():
    """Plakoto: a step onto a lone opposing checker pins it; the position so far, the
    observation and the play the steps complete all carry the pin."""
    from test_rules_plakoto import pins

    rules = gammon.variant("plakoto")
    # The mover's checkers on 24 and 13; the other side's lone checker on the mover's 20.
    state = rules.state(pins({24: 14, 13: 1}, {5: 1, 24: 14}), (4, 1))
    encoding = StepEncoding(rules)
    observer = GammonGymEnv("plakoto", action_encoding="step").observer
    before = encoding.observe(observer, state, 0)
    encoding.take(state, encoding.index(24, 4))
    turn = encoding.turn(state)
    assert turn.position.pins[20 - 1] == 2  # player 1's checker, pinned on point 20
    after = encoding.observe(observer, state, 0)
    assert not np.array_equal(before, after)
    # The same counts with the pin the other way round are another observation: the
    # counts alone cannot say which of two lone checkers on a point holds the other.
    mine = pins({24: 14, 13: 1}, {12: 1, 24: 14}, me=(13,))
    theirs = pins({24: 14, 13: 1}, {12: 1, 24: 14}, them=(13,))
    assert mine.board == theirs.board
    assert not np.array_equal(observer.encode(mine, 0), observer.encode(theirs, 0))
    assert not np.array_equal(observer.encode(mine, 1), observer.encode(theirs, 1))
    play = encoding.take(state, encoding.index(20, 1))
    assert play is not None and play.result.pins[20 - 1] == 0  # the pinner moved on
