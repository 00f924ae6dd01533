"""The compiled vector environment as a gymnasium.vector.VectorEnv
(gammon.envs.vector_gym, docs/vector.md): Gymnasium's vector wrappers run on it, its
episode statistics are the games' own, its auto-reset is the one it declares (SAME_STEP,
or NEXT_STEP for the wrappers that require it), its seeds are Gymnasium's (one, or one
per env), gymnasium.make_vec makes it, and its games are VectorEnv's."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.wrappers.vector import NormalizeObservation, RecordEpisodeStatistics
from layouts import position

from gammon.core.errors import GammonError, IllegalPlayError, InvalidOptionError
from gammon.core.variant import variant_names
from gammon.envs import GammonGymEnv, GymnasiumVectorEnv, env_id
from gammon.envs.vector import VectorEnv, supported_variants
from gammon.kernels import vector as kernel
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
    env = GymnasiumVectorEnv("backgammon", 3, seed=1, max_actions=4000)
    obs, info = env.reset()
    assert env.observation_space.shape == (3, env.games.observation_size)
    assert env.observation_space.contains(obs)
    assert env.single_action_space == gymnasium.spaces.Discrete(4000)
    assert env.action_space.shape == (3,)
    mask = info["action_mask"]
    assert mask.dtype == np.bool_ and mask.shape == (3, 4000)
    np.testing.assert_array_equal(mask.sum(axis=1), info["counts"])
    assert GymnasiumVectorEnv("backgammon", 2).single_action_space.n == 3875
    before = env.games.boards.copy()
    with pytest.raises(IllegalPlayError, match="nothing was applied"):
        env.step(info["counts"])  # one past the last legal action in every env
    np.testing.assert_array_equal(env.games.boards, before)
    with pytest.raises(GammonError, match="reset takes no options"):
        env.reset(options={"reset_mask": np.ones(3, bool)})
    for bad in (0, True, 2.5, "64", 2, 3874):
        with pytest.raises(GammonError, match="max_actions is a whole number, 3875 or more"):
            GymnasiumVectorEnv("backgammon", 2, max_actions=bad)


def test_a_max_actions_below_the_variants_largest_decision_is_refused_at_construction():
    """docs/envs.md showed max_actions=1024 for backgammon, and the environment raised
    after 10 to 70 seconds of play at a decision of more than 1,024 plays, the step
    already applied. Now it is refused when made, saying the least it takes."""
    with pytest.raises(GammonError, match=r"3875 or more \(.* a decision of backgammon "
                                          r"can list up to 3,875 plays.*not 1024"):
        GymnasiumVectorEnv("backgammon", 256, max_actions=1024)
    assert GymnasiumVectorEnv("hypergammon", 2, max_actions=34).max_actions == 34
    with pytest.raises(GammonError, match="34 or more"):
        GymnasiumVectorEnv("hypergammon", 2, max_actions=33)


#: Fifteen checkers on fifteen points, all free to move with 1-1: 2,066 distinct plays.
SPREAD = (3, 4, 5, 7, 9, 10, 12, 13, 16, 17, 18, 20, 21, 22, 23)


def test_a_step_to_a_decision_of_over_a_thousand_plays_masks_and_plays_it():
    """A step that leads to a decision of 2,066 plays (more than the 1,024 the docs once
    showed) returns its whole mask, and its last play is the Python engine's last legal
    play. Env 0 is set up by hand: player 1 bears off from its ace point (one play) and
    player 0's next roll, drawn from env 0's counter, is made 1-1."""
    env = GymnasiumVectorEnv("backgammon", 2, seed=0)
    _, info = env.reset()
    games = env.games
    rules = games.rules
    start = position({1: 15}, dict.fromkeys(SPREAD, 1), turn=1)
    games.boards[0] = np.frombuffer(start.board, np.int8)
    games._state[0, kernel.S_PLAYER] = 1
    games._state[0, kernel.S_HIGH], games._state[0, kernel.S_LOW] = 6, 5
    kernel._generate(0, games.boards, games._state, games._rules, games._cand, games.keep,
                     games._plays[0], games._words[0])
    assert games.counts[0] == 1
    for counter in range(10_000):  # a counter whose next throw is 1-1
        rng, state = games._rng.copy(), games._state.copy()
        rng[0] = counter
        kernel._roll(0, state, rng)
        if state[0, kernel.S_HIGH] == state[0, kernel.S_LOW] == 1:
            games._rng[0] = counter
            break
    _, _, terminated, _, info = env.step(np.array([0, 0]))
    assert not terminated[0] and info["to_play"][0] == 0
    after = rules.state(start, (6, 5)).legal_actions()[0].result
    assert games.boards[0].tobytes() == after.board
    legal = rules.state(after.with_turn(0), (1, 1)).legal_actions()
    assert len(legal) == info["counts"][0] == 2066
    mask = info["action_mask"]
    assert mask.shape == (2, 3875) and mask[0].sum() == 2066 and mask[0, 2065]
    env.step(np.array([2065, 0]))
    assert games.boards[0].tobytes() == legal[2065].result.board


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


def test_whole_matches_give_each_seats_return_in_final_info():
    """RecordEpisodeStatistics' return over a whole match sums the deciders' rewards, both
    seats' mixed; final_info["returns"] gives each seat's: +1 for the match's winner and
    -1 for its loser (match equity from 0-0 to the end), what a count of info["rewards"]
    made here gives, zeros in the rows that go on."""
    envs = 6
    env = RecordEpisodeStatistics(GymnasiumVectorEnv("hypergammon", envs, match=3,
                                                     whole_match=True))
    _, info = env.reset(seed=8)
    rng = np.random.default_rng(8)
    seats = np.zeros((envs, 2))
    ended, mixed = 0, 0
    for _ in range(400):
        _, _, terminated, _, info = env.step(random_legal(rng, info["action_mask"]))
        seats += info["rewards"]
        if not terminated.any():
            assert "final_info" not in info
            continue
        returns = info["final_info"]["returns"]
        assert returns.shape == (envs, 2) and not returns[~terminated].any()
        for e in np.flatnonzero(terminated):
            winner = info["final_info"]["match_winner"][e]
            np.testing.assert_allclose(returns[e], seats[e], atol=1e-5)
            np.testing.assert_allclose(returns[e, winner], 1.0, atol=1e-5)
            np.testing.assert_allclose(returns[e, 1 - winner], -1.0, atol=1e-5)
            mixed += not np.isclose(info["episode"]["r"][e], returns[e]).any()
        seats[terminated] = 0.0
        ended += int(terminated.sum())
    assert ended >= 5 and mixed > 0  # the wrapper's r was no seat's return


def test_normalize_observation_wraps_the_next_step_mode_and_refuses_same_step():
    """NormalizeObservation refused the environment (SAME_STEP only); with
    autoreset_mode=NEXT_STEP it and RecordEpisodeStatistics wrap it and run 300 steps:
    normalized finite observations, and for every game that ends the plays it took
    (the step that shows the next game counted in none), its points, as counted here."""
    with pytest.raises(ValueError, match="NEXT_STEP"):
        NormalizeObservation(GymnasiumVectorEnv("hypergammon", 2))
    envs = 8
    raw = GymnasiumVectorEnv("hypergammon", envs, autoreset_mode="NextStep")
    assert raw.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert GymnasiumVectorEnv.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert GymnasiumVectorEnv("hypergammon", 2).metadata["autoreset_mode"] \
        is AutoresetMode.SAME_STEP
    stats = RecordEpisodeStatistics(raw)
    env = NormalizeObservation(stats)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    plays = np.zeros(envs, int)
    waiting = np.zeros(envs, bool)
    ended = 0
    for _ in range(300):
        obs, rewards, terminated, _, info = env.step(random_legal(rng, info["action_mask"]))
        assert obs.dtype == np.float32 and np.isfinite(obs).all()
        assert not (rewards[waiting] != 0).any() and not terminated[waiting].any()
        plays[~waiting] += 1
        if terminated.any():
            episode = info["episode"]
            np.testing.assert_array_equal(episode["l"][terminated], plays[terminated])
            np.testing.assert_array_equal(episode["l"][terminated], info["turns"][terminated])
            np.testing.assert_array_equal(episode["r"][terminated], rewards[terminated])
            assert set(rewards[terminated]) <= {1.0, 2.0, 3.0}
            plays[terminated] = 0
            ended += int(terminated.sum())
        waiting = terminated
    assert ended >= 40 and stats.episode_count == ended
    assert env.obs_rms.count == pytest.approx(301 * envs, abs=1)  # every observation seen
    assert abs(float(obs.mean())) < 1.0  # normalized, not the raw units


def _decisions_same_step(env, seed, choices, steps):
    """Each env's decisions under SAME_STEP, in order: the observation, the action
    (``choices[e, k]`` of its legal ones at its ``k``-th), the reward, the end, the
    observation after (the final one when the episode ended) and its seats' returns."""
    obs, info = env.reset(seed=seed)
    log = [[] for _ in range(env.num_envs)]
    for t in range(steps):
        actions = (choices[:, t] * info["counts"]).astype(np.int64)
        after, rewards, terminated, _, info = env.step(actions)
        for e in range(env.num_envs):
            shown = info["final_obs"][e] if terminated[e] else after[e]
            returns = info["final_info"]["returns"][e] if terminated[e] else None
            log[e].append((obs[e], actions[e], rewards[e], terminated[e], shown, returns))
        obs = after
    return log


@pytest.mark.parametrize("stakes", [{}, {"stakes": {"beaver": True}},
                                    {"match": 3, "whole_match": True}],
                         ids=["plain", "cube", "whole-match"])
def test_next_step_autoreset_plays_the_same_games_one_step_later_per_ended_game(stakes):
    """NEXT_STEP, as Gymnasium defines it: the step that ends an episode returns its final
    observation (the one SAME_STEP puts in final_obs) with the reward and termination;
    the env's next step ignores its action (here one no decision has legal) and returns
    the first observation of the next game, reward 0, not terminated. Each env's k-th
    decision is SAME_STEP's k-th decision of the same seed: the same games, shifted
    (with the cube, whose decisions are left alone too, and over whole matches)."""
    envs, steps, seed = 4, 240, 9
    choices = np.random.default_rng(seed).random((envs, steps))
    same = _decisions_same_step(GymnasiumVectorEnv("hypergammon", envs, **stakes), seed,
                                choices, steps)
    env = GymnasiumVectorEnv("hypergammon", envs, autoreset_mode=AutoresetMode.NEXT_STEP,
                             **stakes)
    inputs = env.games.encoder.inputs
    obs, info = env.reset(seed=seed)
    made = np.zeros(envs, int)  # each env's decisions so far
    waited = np.zeros(envs, int)  # and steps that showed its next game
    waiting = np.zeros(envs, bool)
    ignored = env.max_actions - 1  # beyond every hypergammon decision: refused if applied
    for _ in range(steps):
        k = np.minimum(made, steps - 1)
        actions = np.where(waiting, ignored,
                           (choices[np.arange(envs), k] * info["counts"]).astype(np.int64))
        before = obs
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for e in range(envs):
            if waiting[e]:  # the first decision of the next game, SAME_STEP's next one
                np.testing.assert_array_equal(obs[e], same[e][made[e]][0])
                assert rewards[e] == 0 and not terminated[e]
                assert info["counts"][e] >= 1 and info["winner"][e] == -1
                waited[e] += 1
                continue
            seen, action, reward, ended, shown, returns = same[e][made[e]]
            np.testing.assert_array_equal(before[e], seen)
            assert actions[e] == action
            assert rewards[e] == reward and terminated[e] == ended
            np.testing.assert_array_equal(obs[e], shown)
            if ended:  # the final observation: no dice; only action 0 offered, ignored
                assert not obs[e][inputs:].any()
                assert info["counts"][e] == 1 and info["action_mask"][e].sum() == 1
                assert info["action_mask"][e, 0]
                np.testing.assert_array_equal(info["returns"][e], returns)
            made[e] += 1
        assert "final_obs" not in info
        waiting = terminated
    assert waited.min() >= 3 and (made + waited == steps).all()


def test_a_list_of_seeds_gives_each_env_a_seed_of_its_own():
    """reset(seed=[...]) as Gymnasium's vector environments take it, through
    RecordEpisodeStatistics: env e given seed s plays the game env 0 of reset(seed=s)
    plays, two envs given one seed play the same game, a None entry a fresh one; a list
    of another length, or an entry that is no whole number, is refused."""
    env = RecordEpisodeStatistics(GymnasiumVectorEnv("hypergammon", 4))
    alone = {s: VectorEnv("hypergammon", 1) for s in (5, 11)}
    obs, info = env.reset(seed=[5, None, 5, np.int64(11)])
    single = {s: twin.reset(seed=s)[0][0] for s, twin in alone.items()}
    rng = np.random.default_rng(0)
    fresh_differs = False
    for _ in range(120):
        np.testing.assert_array_equal(obs[0], single[5])
        np.testing.assert_array_equal(obs[2], single[5])
        np.testing.assert_array_equal(obs[3], single[11])
        fresh_differs |= not np.array_equal(obs[1], obs[0])
        share = rng.random()  # one fraction of the legal actions for every env
        obs, _, _, _, info = env.step((share * info["counts"]).astype(np.int64))
        for s, twin in alone.items():
            single[s] = twin.step((share * twin.counts).astype(np.int64))[0][0]
    assert fresh_differs
    for bad, says in (([1, 2, 3], r"one per env: 4 of them \(whole numbers or None\), "
                                  r"not 3"),
                      ([1, 2.5, None, 3], r"seed\[1\] \(env 1's seed\) is a whole number "
                                          r"or None, not 2.5"),
                      ([True, 1, 2, 3], r"seed\[0\]"),
                      ("1234", "seed is a whole number, None, or a list of 4 seeds"),
                      ({1, 2, 3, 4}, "a list of 4 seeds")):
        with pytest.raises(InvalidOptionError, match=says):
            env.reset(seed=bad)


def test_the_autoreset_mode_is_checked():
    for bad in ("Disabled", AutoresetMode.DISABLED):
        with pytest.raises(InvalidOptionError, match="auto-reset cannot be disabled"):
            GymnasiumVectorEnv("hypergammon", 2, autoreset_mode=bad)
    for bad in ("next_step", 1, None):
        with pytest.raises(InvalidOptionError, match="autoreset_mode is AutoresetMode"
                                                     r".SAME_STEP or .*'NextStep'"):
            GymnasiumVectorEnv("hypergammon", 2, autoreset_mode=bad)


def test_make_vec_gives_the_compiled_env_and_sync_mode_single_envs_against_bots():
    """gymnasium.make_vec of a variant the compiled environment plays gives it (self-play,
    the same games as GymnasiumVectorEnv made directly, its options and the variant's
    passed on); the options of one seat against bots are refused, pointing to
    vectorization_mode="sync", which gives SyncVectorEnv of GammonGymEnv against them.
    The other variants have no vector entry point: make_vec gives them sync mode."""
    env = gymnasium.make_vec("gammon/Backgammon-v0", num_envs=8)
    assert isinstance(env, GymnasiumVectorEnv) and env.num_envs == 8
    assert env.games.rules.name == "backgammon"
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=0)
    np.testing.assert_array_equal(obs, GymnasiumVectorEnv("backgammon", 8).reset(seed=0)[0])
    _, _, _, _, info = env.step(np.zeros(8, np.int64))
    assert info["action_mask"].shape == (8, 3875)
    nardy = gymnasium.make_vec("gammon/LongNardy-v0", 2, autoreset_mode="NextStep",
                               last_roll=True, max_actions=4000)
    assert nardy.games.rules.last_roll and nardy.max_actions == 4000
    assert nardy.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    for option in ({"opponents": "heuristic"}, {"seat": 1}, {"action_encoding": "step"},
                   {"render_mode": "ansi"}, {"illegal_reward": -5.0}):
        name = next(iter(option))
        with pytest.raises(InvalidOptionError, match=f"takes no {name}; .*"
                                                     r'vectorization_mode="sync"'):
            gymnasium.make_vec("gammon/Backgammon-v0", 2, **option)
    sync = gymnasium.make_vec("gammon/Hypergammon-v0", 2, vectorization_mode="sync",
                              opponents="heuristic", seat=1)
    assert isinstance(sync, SyncVectorEnv)
    assert all(isinstance(e.unwrapped, GammonGymEnv) and e.unwrapped.seat == 1
               and e.unwrapped.opponent_names == ["heuristic"] for e in sync.envs)
    obs, info = sync.reset(seed=3)
    for _ in range(5):
        obs, *_ = sync.step(np.argmax(obs["action_mask"], axis=1))  # the first legal
        assert obs["observation"].shape == (2, sync.envs[0].unwrapped.observation_size)
    compiled = set(supported_variants())
    for name in variant_names():
        spec = gymnasium.spec(env_id(name))
        assert (spec.vector_entry_point is not None) == (name in compiled), name
    assert {"acey-deucey", "plakoto"} <= set(variant_names()) - compiled
    assert isinstance(gymnasium.make_vec("gammon/AceyDeucey-v0", 2), SyncVectorEnv)
