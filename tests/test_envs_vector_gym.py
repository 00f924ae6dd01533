"""The compiled vector environment as a gymnasium.vector.VectorEnv
(gammon.envs.vector_gym, docs/vector.md): Gymnasium's vector wrappers run on it, its
episode statistics are the games' own, its auto-reset is the one it declares, and its
games are VectorEnv's."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from gammon.core.errors import GammonError, IllegalPlayError
from gammon.envs import GymnasiumVectorEnv
from gammon.envs.vector import VectorEnv
from gammon.kernels.vector import DICE_UNITS


def random_legal(rng, mask):
    """One random legal action per env, read from the masks alone."""
    counts = mask.sum(axis=1)
    assert (mask == (np.arange(mask.shape[1])[None, :] < counts[:, None])).all()
    return (rng.random(mask.shape[0]) * counts).astype(np.int64)


def test_record_episode_statistics_are_the_games_own_count():
    """RecordEpisodeStatistics wraps it (it needs a gymnasium.vector.VectorEnv and the
    declared auto-reset mode) and reports, for every game that ends, the plays and the
    points that a count made here, step by step, gives."""
    envs = 6
    raw = GymnasiumVectorEnv("hypergammon", envs, max_actions=128)
    assert isinstance(raw, gymnasium.vector.VectorEnv)
    assert raw.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    env = RecordEpisodeStatistics(raw)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    plays = np.zeros(envs, int)
    points = np.zeros(envs)
    ended = 0
    for _ in range(600):
        movers = info["to_play"]
        obs, rewards, terminated, truncated, info = env.step(
            random_legal(rng, info["action_mask"]))
        assert not truncated.any()
        plays += 1
        points += rewards
        np.testing.assert_array_equal(rewards, info["rewards"][np.arange(envs), movers])
        if terminated.any():
            stats = info["episode"]
            np.testing.assert_array_equal(info["_episode"], terminated)
            np.testing.assert_array_equal(stats["l"][terminated], plays[terminated])
            np.testing.assert_array_equal(stats["r"][terminated], points[terminated])
            np.testing.assert_array_equal(stats["l"][terminated], info["turns"][terminated])
            # The game's winner made the last play and won 1 to 3 points.
            assert set(stats["r"][terminated]) <= {1.0, 2.0, 3.0}
            ended += int(terminated.sum())
            plays[terminated] = 0
            points[terminated] = 0
        assert (rewards[~terminated] == 0).all()
    assert ended >= 20 and env.episode_count == ended
    assert list(env.length_queue)[-1] > 0


def test_same_step_autoreset_gives_the_next_game_and_the_final_observation():
    """What SAME_STEP promises: the observation of an env whose game ended is its next
    game's first decision, and the ended game's last observation is in final_obs. A
    VectorEnv with the same seed and actions beside it gives the same games, and the last
    boards (tied to the Python engine in test_envs_vector.py) that final_obs encodes."""
    env = GymnasiumVectorEnv("hypergammon", 4, max_actions=128)
    twin = VectorEnv("hypergammon", 4)
    obs, info = env.reset(seed=2)
    np.testing.assert_array_equal(obs, twin.reset(seed=2)[0])
    rng = np.random.default_rng(2)
    seen = 0
    while seen < 5:
        movers = info["to_play"]
        actions = random_legal(rng, info["action_mask"])
        obs, rewards, terminated, _, info = env.step(actions)
        twin_obs, both, dones, twin_info = twin.step(actions)
        np.testing.assert_array_equal(obs, twin_obs)
        np.testing.assert_array_equal(terminated, dones)
        np.testing.assert_array_equal(info["rewards"], both)
        if not terminated.any():
            assert "final_obs" not in info
            continue
        assert (env.games.turns[terminated] == 0).all()  # a new game, no play made yet
        np.testing.assert_array_equal(info["_final_obs"], terminated)
        np.testing.assert_array_equal(info["_final_info"], terminated)
        for e in np.flatnonzero(terminated):
            final = info["final_obs"][e]
            assert env.single_observation_space.contains(final)
            assert not final[-DICE_UNITS:].any()  # no dice once the game is over
            expected = twin.encoder.encode(twin_info["final_boards"][e:e + 1],
                                           movers[e:e + 1])[0]
            np.testing.assert_array_equal(final[:-DICE_UNITS], expected)
            assert not np.array_equal(final, obs[e])
            # Hypergammon ends on the winner's play: the winner is the player who ended it.
            assert info["final_info"]["winner"][e] == movers[e]
            assert rewards[e] > 0
        assert all(info["final_obs"][e] is None for e in np.flatnonzero(~terminated))
        seen += int(terminated.sum())


def test_spaces_masks_and_refusals():
    env = GymnasiumVectorEnv("backgammon", 3, seed=1, max_actions=1024)
    obs, info = env.reset()
    assert env.observation_space.shape == (3, env.games.observation_size)
    assert env.observation_space.contains(obs)
    assert env.single_action_space == gymnasium.spaces.Discrete(1024)
    assert env.action_space.shape == (3,)
    mask = info["action_mask"]
    assert mask.dtype == np.bool_ and mask.shape == (3, 1024)
    np.testing.assert_array_equal(mask.sum(axis=1), info["counts"])
    assert GymnasiumVectorEnv("backgammon", 2).single_action_space.n == env.games.max_actions
    before = env.games.boards.copy()
    with pytest.raises(IllegalPlayError, match="nothing was applied"):
        env.step(info["counts"])  # one past the last legal action in every env
    np.testing.assert_array_equal(env.games.boards, before)
    with pytest.raises(GammonError, match="reset takes no options"):
        env.reset(options={"reset_mask": np.ones(3, bool)})
    for bad in (0, True, 2.5, "64", env.games.max_actions + 1):
        with pytest.raises(GammonError, match="max_actions is a whole number, 1 to"):
            GymnasiumVectorEnv("backgammon", 2, max_actions=bad)


def test_a_decision_wider_than_max_actions_is_refused_not_cut():
    env = GymnasiumVectorEnv("backgammon", 4, seed=0, max_actions=2)
    with pytest.raises(GammonError, match=r"legal actions, more than max_actions=2"):
        env.reset()


def test_record_episode_statistics_over_whole_matches():
    """With ``match`` and ``whole_match`` an episode is a whole match: RecordEpisodeStatistics
    reports the steps of the match (plays and cube decisions) and the sum of the deciders'
    rewards, their gains of match equity as each game ended, as a count made here gives;
    the games inside end without terminating the episode."""
    envs = 6
    raw = GymnasiumVectorEnv("hypergammon", envs, max_actions=128, match=3, whole_match=True)
    assert raw.single_observation_space.shape == (raw.games.observation_size,)
    env = RecordEpisodeStatistics(raw)
    obs, info = env.reset(seed=8)
    rng = np.random.default_rng(8)
    steps = np.zeros(envs, int)
    total = np.zeros(envs)
    games = np.zeros(envs, int)
    ended = 0
    for _ in range(500):
        movers = info["to_play"]
        obs, rewards, terminated, truncated, info = env.step(
            random_legal(rng, info["action_mask"]))
        assert obs in raw.observation_space
        steps += 1
        total += rewards
        games += info["game_over"]
        np.testing.assert_array_equal(rewards, info["rewards"][np.arange(envs), movers])
        np.testing.assert_array_equal(terminated, info["match_over"])
        assert not (terminated & ~info["game_over"]).any()
        if terminated.any():
            stats = info["episode"]
            np.testing.assert_array_equal(stats["l"][terminated], steps[terminated])
            np.testing.assert_allclose(stats["r"][terminated], total[terminated], atol=1e-5)
            final = info["final_info"]
            assert (final["final_score"][terminated].max(axis=1) >= 3).all()
            assert set(final["match_winner"][terminated]) <= {0, 1}
            ended += int(terminated.sum())
            steps[terminated] = 0
            total[terminated] = 0
    assert ended >= 5 and env.episode_count == ended
    assert games.sum() > ended  # matches of more than one game met
