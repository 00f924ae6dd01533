"""The learning environments (gammon.envs): PettingZoo's and Gymnasium's own checkers on
every variant, and what the adapters promise on top (docs/envs.md)."""

from __future__ import annotations

import importlib
import random
import re
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, performance_benchmark, seed_test

import gammon
import gammon.envs
from gammon.core.errors import GammonError, IllegalPlayError, InvalidOptionError
from gammon.core.variant import variant_names
from gammon.envs import GammonEnv, GammonGymEnv, env, env_id, max_actions
from gammon.envs.observe import DICE_UNITS
from gammon.kernels import tracks
from gammon.stakes.cube import CubeAction, CubeState
from gammon.stakes.match import ROTATIONS
from gammon.stakes.rules import StakeRules

VARIANTS = variant_names()
ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("name", VARIANTS)
def test_pettingzoo_api_and_seed_tests_pass(name):
    api_test(env(name), num_cycles=300)
    seed_test(lambda: env(name), num_cycles=300)


@pytest.mark.parametrize("kwargs", [{"stakes": {"beaver": True, "jacoby": True}},
                                    {"match": 5}, {"stakes": {"list_resignations": True}}])
def test_pettingzoo_tests_pass_with_the_cube(kwargs):
    api_test(env("backgammon", **kwargs), num_cycles=300)
    seed_test(lambda: env("backgammon", **kwargs), num_cycles=300)


@pytest.mark.heavy
def test_pettingzoo_performance_benchmark_runs(capsys):
    """The benchmark itself (five seconds a variant) is benchmarks/bench_envs.py; here it
    runs on one variant to prove it works with the environments."""
    performance_benchmark(env("hypergammon"))
    out = capsys.readouterr().out
    assert float(out.split(" turns per second")[0].split()[-1]) > 100


@pytest.mark.parametrize("name", VARIANTS)
def test_gymnasium_check_env_passes(name):
    check_env(gymnasium.make(env_id(name)).unwrapped)


def random_aec_game(name: str, seed: int, **kwargs):
    e = env(name, **kwargs)
    e.reset(seed=seed)
    rng = random.Random(seed)
    final: dict[str, float] = {}
    trail = []
    for agent in e.agent_iter():
        obs, reward, done, cut, _ = e.last()
        if done or cut:
            final[agent] = reward
            e.step(None)
            continue
        legal = int(obs["action_mask"].sum())
        assert obs["action_mask"][:legal].all() and not obs["action_mask"][legal:].any()
        action = rng.randrange(legal)
        trail.append((agent, action))
        e.step(action)
    return final, trail


def test_an_aec_game_is_the_engines_game_with_the_same_dice_and_choices():
    """Action k is legal_actions()[k]; the dice are drawn by the seeded generator; the
    rewards are the engine's returns."""
    final, trail = random_aec_game("long-nardy", 7)
    rules = gammon.variant("long-nardy")
    dice, choices = random.Random(7), iter(trail)
    state = rules.initial_state()
    while not state.is_terminal:
        if state.is_chance:
            state = state.apply(state.sample_chance(dice))
            continue
        agent, action = next(choices)
        assert agent == f"player_{state.current_player}"
        state = state.apply(state.legal_actions()[action])
    assert final == {f"player_{p}": r for p, r in enumerate(state.returns())}
    assert sum(final.values()) == 0 and max(final.values()) > 0


def test_a_seed_replays_the_same_game_and_another_seed_another():
    assert random_aec_game("backgammon", 3) == random_aec_game("backgammon", 3)
    assert random_aec_game("backgammon", 3)[1] != random_aec_game("backgammon", 4)[1]


@pytest.mark.parametrize("name", ["multi-gam", "acedrex", "acey-deucey"])
def test_four_player_and_special_choice_games_end_with_the_engines_returns(name):
    final, _ = random_aec_game(name, 11)
    assert len(final) == gammon.variant(name).players
    if name == "multi-gam":
        assert sorted(final.values()) == [1.0, 2.0, 3.0, 5.0]
    else:
        assert sum(final.values()) == 0


def test_the_observation_is_the_networks_inputs_then_the_dice():
    e = GammonEnv("backgammon")
    e.reset(seed=1)
    state = e.game
    player = state.current_player
    obs = e.observe(f"player_{player}")["observation"]
    units = e.observer.board_units
    board = np.frombuffer(state.position.board, np.int8)[None, :]
    assert np.array_equal(obs[:units], e.observer.encoder.encode(board, np.array([player]))[0])
    high, low = state.dice
    dice = obs[units:units + DICE_UNITS]
    assert dice[high - 1] == 1 and dice[6 + low - 1] == 1 and dice.sum() == 2
    # The other player sees the same board from their side, and the same (public) roll.
    other = e.observe(f"player_{1 - player}")
    assert not other["action_mask"].any()
    theirs = e.observer.encoder.encode(board, np.array([1 - player]))[0]
    assert np.array_equal(other["observation"][:units], theirs)
    assert np.array_equal(other["observation"][units:units + DICE_UNITS], dice)


def test_the_cube_and_the_match_are_observed():
    e = GammonEnv("backgammon", match=7)
    e.reset(seed=2)
    obs = e.observe(e.agent_selection)["observation"]
    extra = obs[e.observer.board_units + DICE_UNITS:]
    assert extra[5:9].tolist() == [0.0, 1.0, 0.0, 0.0]  # cube 1, centred
    assert extra[10:13].tolist() == pytest.approx([7 / 25, 7 / 25, 0.0])
    # The first decision is a play: no one doubles before the opening roll is played.
    assert extra[0] == 1.0


def test_the_action_space_is_the_proved_bound_on_a_decision_and_the_mask_a_prefix():
    """The action space is gammon.core.variant.most_plays of the mover's checkers (3,875
    for fifteen), with room for the resignation offers when the stakes list them."""
    e = env("acey-deucey")
    e.reset(seed=5)
    assert e.action_space(e.agent_selection).n == max_actions(gammon.variant("acey-deucey"))
    assert max_actions(gammon.variant("backgammon")) == 3875 < tracks.MAX_PLAYS
    assert max_actions(gammon.variant("hypergammon")) == 34
    assert max_actions(gammon.variant("multi-gam")) == 125
    mask = e.observe(e.agent_selection)["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (3875,)
    assert len(e.unwrapped.legal_actions()) == mask.sum()
    listing = env("backgammon", stakes={"list_resignations": True})
    assert listing.action_space("player_0").n == 3875 + 3


def test_an_illegal_action_is_refused_with_its_reason_and_changes_nothing():
    e = GammonEnv("backgammon")
    e.reset(seed=1)
    before, legal = e.game, len(e.game.legal_actions())
    for bad in (legal, -1, 2.5, "x", None):
        with pytest.raises(IllegalPlayError, match="legal|number"):
            e.step(bad)
        assert e.game is before
    assert issubclass(IllegalPlayError, GammonError)


def test_afterstates_are_the_encoded_results_of_every_play():
    e = GammonEnv("hypergammon")
    e.reset(seed=4)
    rows = e.afterstates()
    legal = e.game.legal_actions()
    assert rows.shape == (len(legal), e.observer.board_units)
    boards = np.array([np.frombuffer(p.result.board, np.int8) for p in legal])
    expected = e.observer.encoder.encode(boards, np.full(len(legal), e.game.current_player))
    assert np.array_equal(rows, expected)


@pytest.mark.parametrize("name", ["backgammon", "long-nardy", "plakoto", "multi-gam"])
def test_the_gymnasium_envs_afterstates_are_the_aec_envs_for_the_same_position(name):
    """GammonGymEnv.afterstates() (through Gymnasium's wrappers, get_wrapper_attr) at the
    learner's decisions of a game against a bot: the AEC environment's afterstates() of
    that same state, one row per legal action, the encoded results from the learner's
    side (the pins too in Plakoto; Multi-Gam's four seats)."""
    gym = gymnasium.make(env_id(name), opponents="random", seat=1)
    aec = GammonEnv(name)
    aec.reset(seed=0)
    _, info = gym.reset(seed=7)
    rng = random.Random(7)
    raw = gym.unwrapped
    for _ in range(6):
        rows = gym.get_wrapper_attr("afterstates")()
        aec.game = raw.game  # the AEC environment at the same state
        np.testing.assert_array_equal(rows, aec.afterstates())
        legal = raw.legal_actions()
        assert rows.shape == (len(legal), raw.observer.board_units) == \
            (info["legal_actions"], aec.observer.board_units)
        assert raw.game.current_player == 1
        k = rng.randrange(len(legal))
        np.testing.assert_array_equal(rows[k], raw.observer.encode(legal[k].result, 1))
        _, _, done, _, info = gym.step(k)
        if done:
            break


def test_the_gymnasium_envs_afterstates_refuse_as_the_aec_envs_do():
    """The same refusals, from the one shared function: before reset, at a cube decision,
    for Acedrex, once the game is over; and once an illegal action ended the episode."""
    with pytest.raises(InvalidOptionError, match=r"call reset\(\) before afterstates"):
        GammonGymEnv("backgammon").afterstates()
    cube = GammonGymEnv("backgammon", stakes={}, opponents="random")
    cube.reset(seed=1)
    while not cube.game.is_terminal and not any(
            isinstance(a, CubeAction) for a in cube.game.legal_actions()):
        cube.step(0)  # roll (action 0) until a cube decision comes
    assert not cube.game.is_terminal
    aec = GammonEnv("backgammon", stakes={})
    aec.reset(seed=1)
    aec.game = cube.game
    for either in (cube, aec):
        with pytest.raises(InvalidOptionError, match="this decision is not a play"):
            either.afterstates()
    ring = GammonGymEnv("acedrex")
    ring.reset(seed=0)
    with pytest.raises(InvalidOptionError, match="afterstates are given for a track game"):
        ring.afterstates()
    over = GammonGymEnv("hypergammon", opponents="random")
    over.reset(seed=2)
    done = False
    while not done:
        _, _, done, _, _ = over.step(0)
    assert over.game.is_terminal
    with pytest.raises(InvalidOptionError, match="the game is over: no afterstates"):
        over.afterstates()
    over.reset(seed=2)
    over.step(over.action_space.n - 1)  # illegal: the episode ends
    with pytest.raises(InvalidOptionError, match="an illegal action ended the episode: no "
                                                 "afterstates"):
        over.afterstates()


def test_bad_settings_are_refused_with_what_is_allowed():
    with pytest.raises(InvalidOptionError, match="render_mode"):
        GammonEnv("backgammon", render_mode="rgb")
    with pytest.raises(GammonError, match="1, 2 or 3 checkers"):
        GammonEnv("hypergammon", checkers_per_side=9)
    with pytest.raises(InvalidOptionError, match="stakes"):
        GammonEnv("acedrex", stakes={})
    with pytest.raises(InvalidOptionError, match="opponent"):
        GammonGymEnv("multi-gam", opponents=["random"])
    with pytest.raises(InvalidOptionError, match="seat"):
        GammonGymEnv("backgammon", seat=2)
    with pytest.raises(InvalidOptionError, match="unknown agent"):
        GammonGymEnv("backgammon", opponents="nobody")


def test_the_docs_name_only_ids_and_games_that_exist():
    """docs/envs.md listed 13 Gymnasium ids of 21 variants, and the environments' pages and
    docstrings listed the vector environment's variants by hand (6 of 13): those lists
    now point to variant_names() and supported_variants(), with examples. Every
    Gymnasium id and OpenSpiel game name the pages and gammon/envs name is a variant's."""
    ids = {env_id(name) for name in [*VARIANTS, *ROTATIONS]}
    games = {"gammon_" + name.replace("-", "_") for name in VARIANTS}
    games.add(GammonEnv.metadata["name"])  # PettingZoo's name of the environment
    texts = [ROOT / "docs" / "envs.md", ROOT / "docs" / "vector.md", ROOT / "README.md",
             *sorted((ROOT / "gammon" / "envs").glob("*.py"))]
    named_ids, named_games = set(), set()
    for path in texts:
        text = path.read_text()
        named_ids |= set(re.findall(r"gammon/[A-Za-z0-9]+-v0", text))
        named_games |= set(re.findall(r"\bgammon_[a-z0-9_]+", text))
    assert named_ids and named_ids <= ids, named_ids - ids
    assert named_games and named_games <= games, named_games - games
    vector = (ROOT / "docs" / "vector.md").read_text()
    assert "supported_variants()` lists them" in vector


def test_every_variant_has_a_gymnasium_id():
    for name in VARIANTS:
        spec = gymnasium.spec(env_id(name))
        assert spec.kwargs["variant"] == name
    assert env_id("long-nardy") == "gammon/LongNardy-v0"
    # The module:id form imports the package that registers them.
    assert gymnasium.make("gammon.envs:gammon/Backgammon-v0").unwrapped.rules.name == \
        "backgammon"


def test_gymnasium_game_against_a_bot_ends_with_the_learners_result():
    e = gymnasium.make("gammon/Hypergammon-v0", opponents="expectimax:1", seat=1)
    obs, info = e.reset(seed=9)
    rng = random.Random(0)
    total, done, steps = 0.0, False, 0
    while not done:
        legal = int(obs["action_mask"].sum())
        assert legal == info["legal_actions"] > 0
        obs, reward, done, cut, info = e.step(rng.randrange(legal))
        total += reward
        steps += 1
        assert not cut
    assert total != 0 and steps > 1
    assert e.unwrapped.game.returns()[1] == total


def test_gymnasium_illegal_action_ends_the_episode_below_any_result():
    e = gymnasium.make("gammon/Backgammon-v0")
    obs, _ = e.reset(seed=1)
    legal = int(obs["action_mask"].sum())
    _, reward, done, _, info = e.step(legal)
    assert done and reward < -3 and "not legal" in info["illegal_action"]
    multigam = GammonGymEnv("multi-gam")
    assert multigam.illegal_reward < 1  # below the last place's score


def test_gymnasium_seeds_replay_the_bots_and_the_dice():
    def game(seed):
        e = GammonGymEnv("backgammon", opponents="expectimax:1")
        obs, _ = e.reset(seed=seed)
        seen = [obs["observation"]]
        done = False
        while not done:
            obs, _, done, _, _ = e.step(0)
            seen.append(obs["observation"])
        return np.array(seen)

    assert np.array_equal(game(5), game(5))


def test_render_shows_the_board_as_text():
    e = GammonEnv("backgammon", render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text is not None and "player_0" in text and "\x1b[" not in text
    ring = GammonEnv("acedrex", render_mode="ansi")
    ring.reset(seed=1)
    assert "player_3" in (ring.render() or "")


def test_a_long_match_stays_inside_the_observation_space():
    e = GammonEnv("hypergammon-1", match=64)
    e.reset(seed=3)
    obs = e.observe(e.agent_selection)
    assert e.observation_space(e.agent_selection).contains(obs)


def test_a_decision_larger_than_the_action_space_is_refused_not_cut():
    from gammon.envs.observe import action_mask

    assert action_mask(3, 5).tolist() == [1, 1, 1, 0, 0]
    with pytest.raises(InvalidOptionError, match="does not fit the action space of 5"):
        action_mask(6, 5)


# --- issue 32: the defects a researcher met -------------------------------------------------


def test_state_is_pettingzoos_global_view():
    """env.state() raised TypeError: 'GameState' object is not callable."""
    e = gammon.envs.env("backgammon")
    e.reset(seed=1)
    state = e.unwrapped.state()
    assert state.shape == e.unwrapped.state_space.shape
    assert e.unwrapped.state_space.contains(state)
    assert e.unwrapped.game.is_chance is False  # the engine's state keeps its own name


@pytest.mark.parametrize(("make", "why"), [
    (lambda: gammon.envs.env("backgammon", stakes="yes"), "stakes is a StakeRules"),
    (lambda: gammon.envs.env("backgammon", match="7"), "match is a whole number"),
    (lambda: gammon.envs.env(42), "the variant is a name"),
    (lambda: gymnasium.make("gammon/Backgammon-v0", match=True), "match is a whole number"),
    (lambda: gammon.envs.env("backgammon", stakes={"beavers": True}), "stakes:"),
    (lambda: gammon.envs.VectorEnv("backgammon", num_envs="4"), "num_envs is a whole"),
    (lambda: gammon.envs.VectorEnv("backgammon", num_envs=4, seed=1.7), "seed is a whole"),
    # What still gave raw exceptions or was taken as something else:
    (lambda: GammonGymEnv(seat=True), "seat is a whole number, 0 to 1"),
    (lambda: GammonGymEnv(opponents=3), "opponents is a bot's name .* not 3"),
    (lambda: GammonGymEnv(opponents=[3]), "opponents is a bot's name"),
    (lambda: GammonGymEnv("multi-gam", opponents=["random"]),
     r"one name per other seat \(3 in multi-gam\)"),
    (lambda: GammonGymEnv(illegal_reward="x"), "illegal_reward is a finite number, not 'x'"),
    (lambda: GammonGymEnv(illegal_reward=True), "illegal_reward is a finite number"),
    (lambda: GammonGymEnv(illegal_reward=float("nan")), "illegal_reward is a finite"),
    (lambda: GammonGymEnv(render_mode=1), "render_mode 1: choose one of ansi or None"),
    (lambda: gammon.envs.env("backgammon", match=2.0), "match is a whole number"),
    (lambda: gammon.envs.VectorEnv(42), "the variant is a name"),
    (lambda: gammon.envs.VectorEnv("backgammon", num_envs=True), "num_envs is a whole"),
    (lambda: gammon.envs.VectorEnv("backgammon", 2, threads=1.5), "threads is a whole"),
    (lambda: gammon.envs.VectorEnv("backgammon", 2).action_mask(2.5), "width is a whole"),
    (lambda: gammon.envs.VectorEnv("backgammon", 2).action_mask("30"), "width is a whole"),
])
def test_wrong_types_are_refused_with_what_is_allowed(make, why):
    with pytest.raises(GammonError, match=why):
        make()


def test_a_seed_is_a_whole_number():
    e = gammon.envs.env("backgammon")
    with pytest.raises(GammonError, match="seed is a whole number"):
        e.reset(seed=1.7)
    single = gymnasium.make("gammon/Backgammon-v0").unwrapped
    with pytest.raises(GammonError, match="seed is a whole number"):
        single.reset(seed=1.7)


def test_in_a_match_an_illegal_action_never_pays_and_ends_the_episode():
    """match=5 set the illegal-action reward to -4, while a legal game can cost 24 (a
    backgammon at cube 8); after an illegal action ended the episode, step played on.
    The penalty is now -4 times the cube (test_the_illegal_action_penalty_...)."""
    single = gymnasium.make("gammon/Backgammon-v0", opponents="heuristic", match=5).unwrapped
    assert single.illegal_reward == -4.0
    single.reset(seed=0)
    _, reward, terminated, _, info = single.step(single.max_actions - 1)
    assert terminated and reward == -4.0 and "illegal_action" in info
    with pytest.raises(GammonError, match="illegal action ended the episode"):
        single.step(0)


def test_a_match_is_drawn_with_its_cube_score_and_question():
    """Match and cube games rendered "O to roll" while the other side had to take or
    drop, and drew no cube or score."""
    e = gammon.envs.env("backgammon", match=5, render_mode="ansi")
    e.reset(seed=3)
    game = e.unwrapped
    text = game.render()
    assert "cube 1, in the middle" in text and "match to 5" in text
    # Double, and the other side is asked.
    legal = game.legal_actions()
    while not any(str(a) == "double" for a in legal):
        e.step(0)
        legal = game.legal_actions()
    e.step(next(k for k, a in enumerate(legal) if str(a) == "double"))
    text = game.render()
    taker = game.agent_selection
    doubler = game.possible_agents[1 - game.possible_agents.index(taker)]
    assert f"{taker} to decide: {doubler} doubles to 2: take or drop?" in text
    assert "(double to 2 offered)" in text
    # The board itself (as `gammon play` draws it) says who answers, and shows the cube
    # and the score: it said "X to roll" while O had to take or drop.
    mark = "XO"[game.possible_agents.index(taker)]
    assert f"{mark} to answer the double to 2" in text and "to roll" not in text
    assert "5-point match: X 0, O 0" in text and " 1  cube" in text


def test_the_learners_cube_decision_is_drawn_with_who_must_answer():
    """The Gymnasium environment draws through the same board: the learner asked to
    take is named, on the board and under it."""
    single = GammonGymEnv(opponents="random", match=3, render_mode="ansi")
    single.reset(seed=0)
    for _ in range(200):  # the learner plays its first legal action; random doubles at times
        if single.game.offer is not None or single.game.is_terminal:
            break
        single.step(0)
    assert single.game.offer is not None, "the random opponent never doubled"
    text = single.render()
    assert "X to answer the double to 2" in text and "to roll" not in text
    assert "player_0 to decide: player_1 doubles to 2: take or drop?" in text
    assert "3-point match" in text


@pytest.mark.parametrize("action", [True, 1.5, "1", None, np.array([1])])
def test_an_action_that_is_no_whole_number_is_refused_not_read_as_one(action):
    """`step(True)` played action 1 and `step(1.5)` was taken for an illegal choice: they
    are the calling code's slips, refused in both environments with what is allowed."""
    aec = gammon.envs.env("backgammon")
    aec.reset(seed=1)
    before = aec.unwrapped.game
    with pytest.raises(IllegalPlayError, match="an action is a whole number, here 0 to"):
        aec.step(action)
    assert aec.unwrapped.game is before
    single = GammonGymEnv()
    single.reset(seed=1)
    before = single.game
    with pytest.raises(IllegalPlayError, match="an action is a whole number, here 0 to"):
        single.step(action)
    assert single.game is before
    _, _, terminated, _, _ = single.step(np.array(0))  # a 0-d integer array is a number
    assert single.game is not before


@pytest.mark.parametrize("name", ["backgammon", "acey-deucey", "acedrex"])
def test_action_masks_as_maskable_ppo_asks_for_them(name):
    """sb3-contrib's MaskablePPO calls ``action_masks()`` (through Gymnasium's wrappers,
    ``get_wrapper_attr``) and wants booleans, one per action of the action space. Random
    actions drawn from those masks play whole games without an illegal one."""
    made = gymnasium.make(env_id(name), opponents="random", stakes={} if name ==
                          "backgammon" else None)
    single = made.unwrapped
    with pytest.raises(GammonError, match="call reset"):
        single.action_masks()
    action_masks = made.get_wrapper_attr("action_masks")
    rng = np.random.default_rng(3)
    for seed in range(3):
        obs, info = made.reset(seed=seed)
        terminated = False
        while not terminated:
            masks = action_masks()
            assert isinstance(masks, np.ndarray) and masks.dtype == np.bool_
            assert masks.shape == (made.action_space.n,)
            np.testing.assert_array_equal(masks, obs["action_mask"].astype(bool))
            assert masks.sum() == len(single.legal_actions()) == info["legal_actions"]
            obs, reward, terminated, _, info = made.step(int(rng.choice(np.flatnonzero(masks))))
            assert "illegal_action" not in info
        assert reward == single.game.returns()[single.seat]
        assert not action_masks().any()  # nothing to do once the episode is over


def test_action_masks_are_empty_after_an_illegal_action():
    single = GammonGymEnv()
    obs, _ = single.reset(seed=1)
    assert single.action_masks().sum() == obs["action_mask"].sum() > 0
    obs, _, terminated, _, _ = single.step(single.max_actions - 1)
    assert terminated and not single.action_masks().any() and not obs["action_mask"].any()


# --- whole matches (issue 32) ----------------------------------------------------------


def test_a_whole_match_is_one_episode_rewarded_in_match_equity():
    """``whole_match``: game after game at the new score (the Crawford rule as in a
    match), a reward at each game's end (the learner's gain of match equity), +1 or -1
    in all; the episode ends with the match, not with its first game."""
    learner = GammonGymEnv("backgammon", opponents="heuristic", match=5, whole_match=True)
    games_seen = set()
    for seed in range(4):
        observation, _ = learner.reset(seed=seed)
        rewards, done = [], False
        while not done:
            action = int(np.flatnonzero(observation["action_mask"])[-1])
            observation, reward, done, truncated, _ = learner.step(action)
            assert not truncated
            if reward:
                rewards.append(reward)
        score = learner.game.result_score
        assert score.is_over and max(score.score) >= 5
        won = score.winner == learner.seat
        assert sum(rewards) == pytest.approx(1.0 if won else -1.0)
        games_seen.add(len(rewards))
        with pytest.raises(GammonError, match="episode has ended"):
            learner.step(0)
    assert max(games_seen) > 1  # some match took more than one game


def test_a_whole_match_in_the_multi_agent_environment():
    match_env = env("backgammon", match=3, whole_match=True)
    api_test(match_env, num_cycles=200)
    match_env.reset(seed=5)
    totals = dict.fromkeys(match_env.possible_agents, 0.0)
    for agent in match_env.agent_iter():
        observation, reward, terminated, truncated, _ = match_env.last()
        totals[agent] += reward
        action = None if terminated or truncated else \
            int(np.flatnonzero(observation["action_mask"])[0])
        match_env.step(action)
    assert sorted(totals.values()) == pytest.approx([-1.0, 1.0])


@pytest.mark.parametrize("kwargs, word", [
    ({"whole_match": True}, "length"), ({"whole_match": "yes", "match": 3}, "True or False"),
])
def test_whole_match_options_are_checked(kwargs, word):
    for make in (lambda: GammonGymEnv("backgammon", **kwargs),
                 lambda: GammonEnv("backgammon", **kwargs)):
        with pytest.raises(InvalidOptionError, match=word):
            make()


# --- the step encoding in the multi-agent environment (issue 32) -------------------------


@pytest.mark.parametrize("name", ["backgammon", "hypergammon", "long-nardy"])
def test_the_multi_agent_environment_passes_pettingzoos_checks_in_steps(name):
    api_test(env(name, action_encoding="step"), num_cycles=300)
    seed_test(lambda: env(name, action_encoding="step"), num_cycles=100)


def test_a_game_in_steps_makes_the_engines_plays_and_a_bad_step_is_refused():
    stepped = env("backgammon", action_encoding="step")
    stepped.reset(seed=3)
    rng = random.Random(3)
    plays = 0
    for agent in stepped.agent_iter(max_iter=3000):
        observation, reward, terminated, truncated, _ = stepped.last()
        if terminated or truncated:
            stepped.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal) and observation["observation"].shape == \
            stepped.observation_space(agent)["observation"].shape
        before = stepped.unwrapped.game
        if before.legal_actions() and hasattr(before.legal_actions()[0], "moves"):
            illegal = next(k for k in range(stepped.unwrapped.max_actions) if k not in legal)
            with pytest.raises(IllegalPlayError, match="legal numbers"):
                stepped.unwrapped.step(int(illegal))  # env() would end the game
        stepped.step(int(rng.choice(legal)))
        after = stepped.unwrapped.game
        if after is not before and hasattr(before.legal_actions()[0], "moves"):
            plays += 1
    assert stepped.unwrapped.game.is_terminal and plays > 20


def test_the_step_encoding_is_refused_where_turns_do_not_simply_alternate():
    with pytest.raises(InvalidOptionError, match="action_encoding='step'"):
        GammonEnv("multi-gam", action_encoding="step")
    with pytest.raises(InvalidOptionError, match="'play'"):
        GammonEnv("backgammon", action_encoding="steps")


# PettingZoo's state_test module: its functions are called, not collected (state_test
# itself also wants a parallel environment, which a game taken in turns has not).
STATE_TEST = importlib.import_module("pettingzoo.test.state_test")


@pytest.mark.parametrize("name, kwargs", [("backgammon", {}),
                                          ("backgammon", {"stakes": {"beaver": True}}),
                                          ("long-nardy", {}), ("multi-gam", {}),
                                          ("backgammon", {"action_encoding": "step"})])
def test_pettingzoo_state_test_passes_with_unmasked_random_actions(name, kwargs):
    """PettingZoo's state test steps with action_space(agent).sample(), masks ignored: as
    shipped, env() raised at the first illegal sample. Wrapped as PettingZoo's classic
    games are, an illegal action ends the game and the test runs on; its api_test too."""
    STATE_TEST.test_state_space(env(name, **kwargs))
    STATE_TEST.test_state(env(name, **kwargs), num_cycles=40)
    api_test(env(name, **kwargs), num_cycles=100)


def test_env_is_wrapped_as_pettingzoos_classic_games_and_raw_env_is_not():
    """env() is OrderEnforcing(AssertOutOfBounds(TerminateIllegal(raw_env))), as chess's
    env(); an illegal action there ends the game for all, the agent who tried it losing
    the penalty and the others nothing, where raw_env raises and changes nothing."""
    from pettingzoo.utils import wrappers

    e = env("backgammon")
    chain = [e, e.env, e.env.env]
    assert isinstance(chain[0], wrappers.OrderEnforcingWrapper)
    assert isinstance(chain[1], wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(chain[2], wrappers.TerminateIllegalWrapper)
    assert type(e.unwrapped) is gammon.envs.raw_env
    e.reset(seed=4)
    agent = e.agent_selection
    legal = int(e.observe(agent)["action_mask"].sum())
    e.step(legal)  # the first number outside the mask
    assert all(e.terminations.values())
    assert e.rewards[agent] == -4.0
    assert all(r == 0.0 for a, r in e.rewards.items() if a != agent)
    final = {}
    for each in e.agent_iter():  # the game is over: each agent reads its reward, steps out
        final[each] = e.last()[1]
        e.step(None)
    assert not e.agents and final == {a: -4.0 if a == agent else 0.0 for a in final}
    assert len(final) == 2
    with pytest.raises(IllegalPlayError, match="outside the action space: 0 to 3874"):
        fresh = env("backgammon")
        fresh.reset(seed=4)
        fresh.step(3875)
    raw = gammon.envs.raw_env("backgammon")
    raw.reset(seed=4)
    before = raw.game
    with pytest.raises(IllegalPlayError, match="is not legal here"):
        raw.step(len(before.legal_actions()))
    assert raw.game is before


def cube_at(rules, value: int) -> CubeState:
    """A money game with the cube at ``value``, player 0 to play 6-5 from the start."""
    return CubeState.midgame(rules, rules.start_position().with_turn(0), (6, 5),
                             stakes=StakeRules(), cube_value=value, cube_owner=1)


def test_the_illegal_action_penalty_is_one_scale_across_stakes():
    """With the cube (stakes) or in a one-game match the default penalty was -193 (a
    backgammon at the cube's highest, 64, and one), 48 times the -4 of a game without
    the cube. Now it is -4 points times the cube's value at the illegal action: -4 at a
    cube of 1 in money play with the cube, in a 1-point and in a 5-point match, and -8,
    -32 at 2 and 8 (below the -6 and -24 of a backgammon there), in both environments;
    -2 with whole_match, and a given illegal_reward is multiplied alike."""
    for kwargs in ({}, {"stakes": {}}, {"stakes": {"jacoby": True}}, {"match": 1},
                   {"match": 5}):
        single = GammonGymEnv(**kwargs)
        assert single.illegal_reward == -4.0, kwargs
        single.reset(seed=1)
        _, reward, terminated, _, _ = single.step(single.max_actions - 1)
        assert terminated and reward == -4.0, kwargs
    assert GammonGymEnv(match=3, whole_match=True).illegal_reward == -2.0
    for value, expected in ((2, -8.0), (8, -32.0)):
        single = GammonGymEnv(stakes={})
        single.reset(seed=1)
        single.game = cube_at(single.rules, value)
        _, reward, terminated, _, _ = single.step(single.max_actions - 1)
        assert terminated and reward == expected < -3 * value
        aec = env("backgammon", stakes={})
        aec.reset(seed=1)
        aec.unwrapped.game = cube_at(aec.unwrapped.rules, value)
        aec.unwrapped.agent_selection = "player_0"
        aec.step(aec.unwrapped.max_actions - 1)
        assert aec.rewards["player_0"] == expected and aec.rewards["player_1"] == 0.0
    given = GammonGymEnv(stakes={}, illegal_reward=-1)
    given.reset(seed=1)
    given.game = cube_at(given.rules, 4)
    assert given.step(0 + given.max_actions - 1)[1] == -4.0
    multigam = GammonGymEnv("multi-gam")
    assert multigam.illegal_reward == -1.0  # below the last place's score, no cube


# --- tavli: a rotation's match as one episode (issue 47) --------------------------------


def test_a_tavli_match_is_one_episode_of_its_games_in_turn_each_by_its_own_rules():
    """``env("tavli", match=5, whole_match=True)``: Portes, Plakoto and Fevga in turn
    (docs/rules/tavli.md), each game's actions its own variant's legal ones, the
    observation saying which game is played; +1 and -1 in match equity over the
    episode."""
    match_env = env("tavli", match=5, whole_match=True)
    api_test(match_env, num_cycles=300)
    rotation = ["portes", "plakoto", "fevga"]
    rng = random.Random(3)
    for seed in range(3):
        match_env.reset(seed=seed)
        played = []
        totals = dict.fromkeys(match_env.possible_agents, 0.0)
        for agent in match_env.agent_iter():
            observation, reward, terminated, truncated, _ = match_env.last()
            totals[agent] += reward
            if terminated or truncated:
                match_env.step(None)
                continue
            game = match_env.game
            name = game.variant.name
            if not played or played[-1] != name:
                played.append(name)
            units = observation["observation"][-3:]
            assert units.tolist() == [float(n == name) for n in rotation]
            legal = game.legal_actions()
            assert observation["action_mask"].sum() == len(legal)
            match_env.step(rng.randrange(len(legal)))
        assert sorted(totals.values()) == pytest.approx([-1.0, 1.0])
        assert played == [rotation[g % 3] for g in range(len(played))]
        score = match_env.game.result_score
        assert score.is_over and max(score.score) >= 5 and len(played) > 1


def test_in_tavli_the_winner_of_a_game_starts_the_next():
    """The rotation's ``winner_starts`` (docs/rules/tavli.md), in the environment: the
    first decision of every game after the first is the last game's winner's."""
    match_env = env("tavli", match=7, whole_match=True)
    checked = 0
    for seed in range(4):
        match_env.reset(seed=seed)
        last, variant = match_env.game, match_env.game.variant.name
        for _agent in match_env.agent_iter():
            observation, _, terminated, truncated, _ = match_env.last()
            if terminated or truncated:
                match_env.step(None)
                continue
            game = match_env.game
            if game.variant.name != variant:  # a new game: the previous one was won
                winner = 0 if game.score.score[0] > last.score.score[0] else 1
                assert game.current_player == winner
                checked += 1
                variant = game.variant.name
            last = game
            match_env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert checked >= 4


def test_tavli_against_bots_is_played_by_each_games_bot_to_the_end_of_the_match():
    """``gymnasium.make("gammon/Tavli-v0")``: a whole 5-point match unless asked."""
    assert gymnasium.spec("gammon/Tavli-v0").kwargs["match"] == 5
    check_env(GammonGymEnv("tavli", match=3, whole_match=True), skip_render_check=True)
    learner = gymnasium.make("gammon/Tavli-v0", opponents="heuristic", match=3).unwrapped
    observation, _ = learner.reset(seed=11)
    names, total, done = set(), 0.0, False
    while not done:
        names.add(learner.game.variant.name)
        afterstates = learner.unwrapped.afterstates()
        assert afterstates.shape == (observation["action_mask"].sum(),
                                     learner.observer.board_units)
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, reward, done, _, _ = learner.step(action)
        total += reward
    assert abs(total) == pytest.approx(1.0)
    assert learner.game.result_score.is_over
    assert "portes" in names and learner.observation_space["observation"].shape == (
        learner.observer.size,)
    assert learner.observer.size == learner.observer.board_units + DICE_UNITS + 13 + 3


@pytest.mark.parametrize("kwargs, word", [
    ({}, "match=N"), ({"match": 3}, "whole_match=True"),
    ({"match": 3, "whole_match": True, "pinning": False}, "no variant options"),
    ({"match": 3, "whole_match": True, "action_encoding": "step"}, "action_encoding='play'"),
])
def test_tavli_in_the_environments_is_refused_as_anything_but_a_whole_match(kwargs, word):
    for make in (lambda: GammonGymEnv("tavli", **kwargs), lambda: GammonEnv("tavli", **kwargs)):
        with pytest.raises(InvalidOptionError, match=re.escape(word)):
            make()


@pytest.mark.heavy
@pytest.mark.parametrize("page", ["envs.md", "vector.md"])
def test_the_pages_python_examples_run_as_written(page, capsys):
    """Every ```python block of docs/envs.md and docs/vector.md, in the page's order and
    one namespace (a page's later blocks use what its earlier ones imported), as a
    reader pastes them."""
    text = (ROOT / "docs" / page).read_text()
    blocks = re.findall(r"^```python\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
    assert blocks
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for block in blocks:
        exec(compile(block, f"docs/{page}", "exec"), namespace)
    if page == "vector.md":  # the Gymnasium example prints its ended episodes
        assert capsys.readouterr().out.strip()
