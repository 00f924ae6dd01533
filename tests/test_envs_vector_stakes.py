"""The vector environment with the cube and matches (``stakes``, ``match``,
``whole_match``; docs/vector.md): its cube decisions, scores and rewards are the Python
engine's (``gammon.stakes``), its observations the PettingZoo environment's, and it hides
the dice, refuses and resets as documented."""

from __future__ import annotations

import math

import numpy as np
import pytest

import gammon
from gammon.core.dice import Roll
from gammon.core.errors import IllegalPlayError, InvalidOptionError
from gammon.core.play import Play
from gammon.envs.games import match_equity, new_game
from gammon.envs.observe import EXTRA_UNITS, TrackObserver
from gammon.envs.vector import (
    DOUBLE,
    DOUBLE_OR_ROLL,
    DROP,
    PLAY,
    ROLL,
    TAKE,
    TAKE_OR_DROP,
    VectorEnv,
)
from gammon.kernels.vector import S_HIGH, S_LOW
from gammon.stakes.cube import CubeAction, cube_game
from gammon.stakes.score import MatchScore

# How often the random policy doubles and drops (uniform choices would end most games
# by a drop before the cube meets a played-out game).
DOUBLE_RATE, DROP_RATE = 0.25, 0.3


def choose(env, rng):
    """Random legal actions: plays uniformly, cube decisions with the rates above (a
    beaver or raccoon now and then where offered)."""
    counts, phase = env.counts, env.phase
    actions = (rng.random(env.num_envs) * counts).astype(np.int64)
    draw = rng.random(env.num_envs)
    actions[phase == DOUBLE_OR_ROLL] = (draw < DOUBLE_RATE)[phase == DOUBLE_OR_ROLL]
    answer = phase == TAKE_OR_DROP
    actions[answer] = np.where(draw < DROP_RATE, DROP,
                               np.where((draw > 0.9) & (counts == 3), 2, TAKE))[answer]
    return actions


def roll_on(state, env, e):
    """The engine's roll of the dice the env drew (shown once the env is at the play)."""
    if state.is_chance:
        assert env.phase[e] == PLAY
        high, low = env.dice[e]
        state = state.apply(Roll((int(high), int(low))))
    return state


def engine_game(rules, stakes, score, env, e):
    """The engine's game that env ``e`` has just opened, at ``score``: the cube doubled
    by the equal throws that doubled it, then the decisive opening throw."""
    state = cube_game(rules, stakes, score)
    for _ in range(int(round(math.log2(env.cube_value[e])))):
        state = state.apply(Roll((1, 1), opening=True))
    state = state.apply(Roll(tuple(int(d) for d in env.opening_throws[e]), opening=True))
    return roll_on(state, env, e)


def decision_phase(state):
    first = state.legal_actions()[0]
    if isinstance(first, Play):
        return PLAY
    return DOUBLE_OR_ROLL if first in (CubeAction.ROLL, CubeAction.DOUBLE) else TAKE_OR_DROP


def play_along(name, options=None, *, stakes=None, match=0, whole_match=False, envs=6,
               steps=300, seed=7, threads=1):
    """Step the env with random actions and the Python engine (``CubeState``) with the
    same dice and decisions; compare everything at every step. Returns what was met:
    counts of doubles, drops, raises, games, matches, Crawford games."""
    options = options or {}
    rules = gammon.variant(name, **options)
    env = VectorEnv(name, envs, seed=seed, stakes=stakes, match=match,
                    whole_match=whole_match, threads=threads, **options)
    assert env.observation_size == TrackObserver(rules).size
    observer = TrackObserver(rules)
    first = new_game(rules, stakes, match)
    stake_rules, start_score = first.stakes, first.score
    rng = np.random.default_rng(seed)
    obs = env.observation()
    states = [engine_game(rules, stake_rules, start_score, env, e) for e in range(envs)]
    met = dict.fromkeys(("double", "drop", "raise", "game", "match", "crawford",
                         "crawford_doubles", "gammon", "auto_doubled", "draw"), 0)
    returns = np.zeros((envs, 2))
    for _ in range(steps):
        counts, to_play, phase, dice = env.counts, env.to_play, env.phase, env.dice
        after, offsets = env.afterstate_boards()
        for e, state in enumerate(states):
            assert state.current_player == to_play[e]
            assert decision_phase(state) == phase[e]
            assert len(state.legal_actions()) == counts[e]
            assert state.position.board == env.boards[e].tobytes()
            assert state.cube_value == env.cube_value[e]
            assert (-1 if state.cube_owner is None else state.cube_owner) == env.cube_owner[e]
            if whole_match:
                assert state.score.score == tuple(env.score[e])
                assert state.score.crawford == env.crawford[e]
                met["crawford"] += bool(env.crawford[e])
                met["crawford_doubles"] += bool(env.crawford[e] and phase[e] != PLAY)
            if phase[e] == PLAY:
                assert state.dice == tuple(dice[e])
                rows = after[offsets[e]:offsets[e + 1]]
                assert [p.result.board for p in state.legal_actions()] == [
                    r.tobytes() for r in rows]
            else:
                assert state.dice == () and not dice[e].any()
                assert offsets[e] == offsets[e + 1]
            np.testing.assert_array_equal(obs[e], observer.observe(state, int(to_play[e])))
        actions = choose(env, rng)
        met["double"] += int(((phase == DOUBLE_OR_ROLL) & (actions == DOUBLE)).sum())
        met["raise"] += int(((phase == TAKE_OR_DROP) & (actions == 2)).sum())
        obs, rewards, dones, info = env.step(actions)
        returns += rewards
        for e in range(envs):
            state = states[e].apply(states[e].legal_actions()[actions[e]])
            if not state.is_terminal:
                assert not info["game_over"][e] and not dones[e]
                assert info["winner"][e] == -1 and (rewards[e] == 0).all()
                states[e] = roll_on(state, env, e)
                continue
            met["game"] += 1
            met["drop"] += state.ending is not None
            met["gammon"] += state.result_level > 1 and state.ending is None
            assert info["game_over"][e]
            assert info["dropped"][e] == (state.ending is not None)
            winner = state.winner
            met["draw"] += winner is None
            assert info["winner"][e] == (-2 if winner is None else winner)
            assert info["points"][e] == (0 if winner is None else state.returns()[winner])
            assert info["turns"][e] == state.moves
            assert info["final_boards"][e].tobytes() == state.position.board
            score = state.result_score
            if whole_match:
                for seat in (0, 1):
                    gained = match_equity(score, seat) - match_equity(state.score, seat)
                    assert rewards[e, seat] == pytest.approx(gained, abs=1e-6)
                assert tuple(info["final_score"][e]) == score.score
                assert dones[e] == score.is_over == info["match_over"][e]
                if score.is_over:
                    met["match"] += 1
                    assert info["match_winner"][e] == score.winner
                    assert returns[e, score.winner] == pytest.approx(1.0, abs=1e-5)
                    assert returns[e, 1 - score.winner] == pytest.approx(-1.0, abs=1e-5)
                    returns[e] = 0.0
                    score = start_score
            else:
                assert dones[e]
                assert tuple(rewards[e]) == state.returns()
                score = start_score  # each episode one game from the start
            states[e] = engine_game(rules, stake_rules, score, env, e)
            met["auto_doubled"] += bool(env.cube_value[e] > 1)
    return met


@pytest.mark.parametrize(("name", "options", "stakes", "steps"), [
    ("backgammon", {}, {}, 300),
    ("backgammon", {}, {"jacoby": True, "beaver": True, "raccoon": True}, 250),
    ("backgammon", {}, {"auto_doubles": 2, "max_cube": 8}, 200),
    ("backgammon", {}, {"progression": "arithmetic", "max_cube": 3, "cube": True}, 300),
    ("short", {}, {"max_cube": 2}, 300),  # no mars with the cube: every win single
    ("long-nardy", {}, {"max_cube": 4}, 300),  # the starter may double before the first roll
    ("hypergammon", {}, {"max_cube": 2}, 150),
])
def test_money_games_with_the_cube_agree_with_the_python_engine(name, options, stakes, steps):
    met = play_along(name, options, stakes=stakes, steps=steps)
    assert met["double"] and met["drop"] and met["game"] > met["drop"]
    if stakes.get("beaver"):
        assert met["raise"]
    if stakes.get("auto_doubles"):  # equal opening throws met, the cube raised
        assert met["auto_doubled"]


def test_whole_matches_agree_with_the_python_engine_crawford_included():
    met = play_along("hypergammon", stakes=None, match=5, whole_match=True, envs=8,
                     steps=350, seed=3)
    assert met["match"] >= 3 and met["crawford"] and met["double"] and met["drop"]
    assert met["crawford_doubles"] == 0  # no double offered in the Crawford game


@pytest.mark.parametrize(("name", "match", "steps"), [
    pytest.param("backgammon", 3, 250, marks=pytest.mark.slow),  # 40 s
    ("long-nardy", 2, 200)])
def test_whole_matches_of_other_variants_agree(name, match, steps):
    met = play_along(name, match=match, whole_match=True, steps=steps, seed=5, threads=2)
    assert met["game"] and met["double"]


def test_a_game_of_a_match_per_episode_agrees():
    """``match`` without ``whole_match``: every episode is one game at 0-0 of the match,
    rewarded with its points (the engine's ``returns()``), as the other environments."""
    met = play_along("hypergammon", match=3, steps=150)
    assert met["game"] and met["double"]


def test_no_dice_are_shown_at_a_cube_decision():
    env = VectorEnv("backgammon", 16, seed=4, stakes={})
    rng = np.random.default_rng(0)
    seen = 0
    inputs = env.encoder.inputs
    for _ in range(60):
        phase = env.phase
        cube = np.flatnonzero(phase != PLAY)
        obs = env.observation()
        assert not env.dice[cube].any()
        assert not obs[cube, inputs:inputs + 12].any()
        assert (obs[phase == PLAY, inputs:inputs + 12].sum(axis=1) == 2).all()
        at_roll = np.flatnonzero(phase == DOUBLE_OR_ROLL)
        if at_roll.size:  # the dice drawn are shown once the player rolls
            seen += at_roll.size
            hidden = env._state[at_roll][:, [S_HIGH, S_LOW]].copy()  # drawn, not shown
            actions = choose(env, rng)
            actions[at_roll] = ROLL
            obs, _, _, _ = env.step(actions)
            np.testing.assert_array_equal(env.dice[at_roll], hidden)
            assert (env.phase[at_roll] == PLAY).all()
        else:
            env.step(choose(env, rng))
    assert seen > 20


def test_illegal_cube_actions_are_refused_saying_what_is_allowed():
    env = VectorEnv("backgammon", 8, seed=2, stakes={})
    rng = np.random.default_rng(1)
    while not (env.phase == DOUBLE_OR_ROLL).any():
        env.step(choose(env, rng))
    e = int(np.flatnonzero(env.phase == DOUBLE_OR_ROLL)[0])
    boards, phase = env.boards.copy(), env.phase
    actions = np.where(phase == PLAY, 0, ROLL)
    actions[e] = 2
    with pytest.raises(IllegalPlayError, match=f"env {e}: action 2 of 2 legal "
                                               r"\(0 roll, 1 double: a cube decision"):
        env.step(actions)
    np.testing.assert_array_equal(env.boards, boards)
    np.testing.assert_array_equal(env.phase, phase)
    actions[e] = DOUBLE
    env.step(actions)
    assert env.phase[e] == TAKE_OR_DROP and env.counts[e] == 2
    actions = np.where(env.phase == PLAY, 0, TAKE)
    actions[e] = 2
    with pytest.raises(IllegalPlayError, match=r"action 2 of 2 legal \(0 take, 1 drop: "
                                               "the answer to a double to 2"):
        env.step(actions)
    actions[e] = -1
    with pytest.raises(IllegalPlayError):
        env.step(actions)


def test_a_dropped_double_ends_the_game_at_the_old_value():
    env = VectorEnv("backgammon", 8, seed=6, stakes={})
    rng = np.random.default_rng(2)
    dropped = 0
    for _ in range(200):
        phase, cube, to_play = env.phase, env.cube_value, env.to_play
        actions = choose(env, rng)
        obs, rewards, dones, info = env.step(actions)
        drop = (phase == TAKE_OR_DROP) & (actions == DROP)
        for e in np.flatnonzero(drop):
            dropped += 1
            doubler = 1 - to_play[e]
            assert dones[e] and info["dropped"][e] and info["winner"][e] == doubler
            assert info["points"][e] == cube[e]  # the value before the double
            assert rewards[e, doubler] == cube[e] and rewards[e, to_play[e]] == -cube[e]
            assert env.cube_value[e] == 1 and env.cube_owner[e] == -1 and env.turns[e] == 0
        assert not info["dropped"][~drop].any()
    assert dropped > 5


def test_match_rewards_add_up_to_the_match_result():
    env = VectorEnv("hypergammon", 12, seed=9, match=3, whole_match=True)
    rng = np.random.default_rng(3)
    totals = np.zeros((12, 2))
    ended = 0
    for _ in range(300):
        obs, rewards, dones, info = env.step(choose(env, rng))
        totals += rewards
        np.testing.assert_allclose(rewards.sum(axis=1), 0.0, atol=1e-6)
        assert not (dones & ~info["game_over"]).any()
        for e in np.flatnonzero(dones):
            ended += 1
            winner = info["match_winner"][e]
            assert info["final_score"][e, winner] >= 3 > info["final_score"][e, 1 - winner]
            np.testing.assert_allclose(totals[e], [1, -1] if winner == 0 else [-1, 1],
                                       atol=1e-5)
            totals[e] = 0
            assert not env.score[e].any() and not env.crawford[e]
        assert (np.abs(totals) < 1 + 1e-5).all()
    assert ended > 5


def test_the_same_seed_and_actions_give_the_same_matches():
    def run(threads, keep):
        env = VectorEnv("backgammon", 7, seed=12, stakes={"beaver": True}, threads=threads,
                        keep=keep)
        rng = np.random.default_rng(5)
        out = [env.observation()]
        for _ in range(80):
            obs, rewards, dones, info = env.step(choose(env, rng))
            out += [obs, rewards, dones, info["cube_value"], info["phase"], env.boards.copy()]
        return out

    first = run(1, 64)
    for other in (run(1, 64), run(2, 0)):
        for a, b in zip(first, other, strict=True):
            np.testing.assert_array_equal(a, b)
    env = VectorEnv("backgammon", 5, seed=1, match=5, whole_match=True)
    first_obs = env.observation()
    env.reset(seed=1)
    np.testing.assert_array_equal(env.observation(), first_obs)


def test_the_default_environment_is_unchanged_by_the_option():
    plain = VectorEnv("backgammon", 3, seed=1)
    assert plain.observation_size == 211 and plain.stakes is None and not plain.staked
    _, info = plain.reset(seed=1)
    assert set(info) == {"counts", "to_play"}
    staked = VectorEnv("backgammon", 3, seed=1, stakes={})
    assert staked.observation_size == 211 + EXTRA_UNITS
    # Backgammon's opening throw is the starter's roll: no cube decision before it.
    assert (staked.phase == PLAY).all()
    np.testing.assert_array_equal(staked.observation()[:, :211], plain.observation())


@pytest.mark.parametrize(("options", "message"), [
    ({"stakes": "yes"}, "stakes is a StakeRules"),
    ({"stakes": {"cubes": True}}, "stakes: "),
    ({"stakes": {"jacoby": 1}}, "jacoby is true or false"),
    ({"match": "7"}, "match is a whole number"),
    ({"match": -1}, "match is a whole number, 0 or more"),
    ({"match": 2.0}, "match is a whole number"),
    ({"whole_match": 1, "match": 3}, "whole_match is True or False"),
    ({"whole_match": True}, "give its length too"),
    ({"match": 5, "stakes": {"jacoby": True}}, "for money play only"),
    ({"stakes": {"list_resignations": True}}, "offers no resignations"),
])
def test_bad_stake_options_say_what_is_allowed(options, message):
    with pytest.raises(InvalidOptionError, match=message):
        VectorEnv("backgammon", 2, **options)


def test_the_engine_agrees_the_crawford_game_has_no_cube():
    """The Crawford rule as the env applies it is the engine's: at 4-2 in a 5-point
    match the leader's opponent may not double."""
    env = VectorEnv("hypergammon", 1, seed=0, match=5, whole_match=True)
    env._score[0] = (4, 2)
    env._crawford[0] = True
    assert not env._may_double(np.array([0]))[0]
    state = cube_game(gammon.variant("hypergammon"), None, MatchScore.match(5, (4, 2)))
    assert state.score.crawford and not state.may_double(0) and not state.may_double(1)


def test_long_nardy_last_roll_in_whole_matches_agrees_draws_included():
    """Long Nardy with the last roll: no cube on the other player's one more turn, and a
    draw moves the score not at all (no equity gained); this seed meets draws."""
    met = play_along("long-nardy", {"last_roll": True}, match=3, whole_match=True, envs=8,
                     steps=300, seed=2)
    assert met["draw"] and met["match"] and met["double"]
