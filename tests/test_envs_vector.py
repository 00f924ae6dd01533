"""The compiled vector environment (gammon.envs.vector, docs/vector.md): its games are the
Python engine's, its observations the encoder's, and it resets, seeds and refuses as
documented."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gammon
from gammon.core.dice import Roll
from gammon.core.errors import GammonError, IllegalPlayError, InvalidOptionError
from gammon.envs.vector import VectorEnv, supported_variants
from gammon.nn.encoders import TrackEncoder

ROOT = Path(__file__).resolve().parents[1]
# A seed whose Long Nardy games (last roll) meet a draw within SEED_STEPS steps of 8 envs.
DRAW_SEED, SEED_STEPS = 2, 130


def engine_start(rules, opening, dice):
    """The Python engine's game after the env's opening throw (and fresh roll)."""
    state = rules.initial_state().apply(Roll(tuple(int(d) for d in opening), opening=True))
    if state.is_chance:
        state = state.apply(Roll((int(dice[0]), int(dice[1]))))
    return state


def expected_observation(rules, board, player, dice):
    encoder = TrackEncoder(rules)
    x = encoder.encode(board[None, :], np.array([player]))[0]
    units = np.zeros(12, np.float32)
    units[dice[0] - 1] = 1.0
    units[6 + dice[1] - 1] = 1.0
    return np.concatenate([x, units])


def play_along(name, options, keep, envs=4, steps=300, seed=7):
    """Step the env with random actions and the Python engine with the same dice and
    action indices; compare everything at every step. Returns the finished games'
    winners (-2: a draw)."""
    rules = gammon.variant(name, **options)
    env = VectorEnv(name, envs, seed=seed, keep=keep, **options)
    rng = np.random.default_rng(seed)
    obs, info = env.observation(), {"counts": env.counts}
    dice = env.dice
    states = [engine_start(rules, env.opening_throws[e], dice[e]) for e in range(envs)]
    finished = []
    for _ in range(steps):
        boards, dice, counts, to_play = env.boards.copy(), env.dice, env.counts, env.to_play
        np.testing.assert_array_equal(info["counts"], counts)
        after, offsets = env.afterstate_boards()
        for e, state in enumerate(states):
            assert state.current_player == to_play[e]
            assert state.position.board == boards[e].tobytes()
            assert state.dice == (dice[e, 0], dice[e, 1])
            legal = state.legal_actions()
            assert len(legal) == counts[e]
            rows = after[offsets[e]:offsets[e + 1]]
            assert [p.result.board for p in legal] == [r.tobytes() for r in rows]
            np.testing.assert_array_equal(
                obs[e], expected_observation(rules, boards[e], to_play[e], dice[e]))
        actions = (rng.random(envs) * counts).astype(np.int64)
        obs, rewards, dones, info = env.step(actions)
        dice = env.dice
        for e in range(envs):
            state = states[e].apply(states[e].legal_actions()[actions[e]])
            if dones[e]:
                assert state.is_terminal
                assert info["final_boards"][e].tobytes() == state.position.board
                assert state.returns() == tuple(float(r) for r in rewards[e])
                winner = state.winner
                assert info["winner"][e] == (-2 if winner is None else winner)
                assert info["turns"][e] == state.moves
                state = engine_start(rules, env.opening_throws[e], dice[e])
                finished.append(int(info["winner"][e]))
            else:
                assert not state.is_terminal
                assert info["winner"][e] == -1
                assert (rewards[e] == 0).all() and not info["final_boards"][e].any()
                state = state.apply(Roll((int(dice[e, 0]), int(dice[e, 1]))))
            states[e] = state
    return finished


@pytest.mark.parametrize(("name", "options", "keep", "steps"), [
    ("backgammon", {}, 64, 250),
    ("backgammon", {}, 0, 120),  # every decision generated again at its step
    ("nackgammon", {}, 3, 120),  # kept and generated again, mixed
    ("hypergammon", {}, 64, 150),
    ("hypergammon-1", {}, 64, 60),
    ("short", {}, 64, 120),
    ("caucasian", {}, 64, 120),
    ("long-nardy", {}, 64, 250),
])
def test_seeded_games_agree_with_the_python_engine(name, options, keep, steps):
    finished = play_along(name, options, keep, steps=steps)
    if name.startswith("hypergammon") or steps >= 250:
        assert finished


def test_long_nardy_last_roll_and_its_draws_agree_with_the_python_engine():
    """With the last roll the other player's one more turn, and a draw when it bears off
    too (about one random game in fourteen): this seed meets both."""
    finished = play_along("long-nardy", {"last_roll": True, "mars": True}, 8, envs=8,
                          steps=SEED_STEPS, seed=DRAW_SEED)
    assert -2 in finished and {0, 1} <= set(finished)


def test_observations_are_the_encoder_and_the_dice_units():
    env = VectorEnv("backgammon", 6, seed=3)
    rules = gammon.variant("backgammon")
    obs, info = env.reset(seed=3)
    assert obs.dtype == np.float32 and obs.shape == (6, env.observation_size)
    assert env.observation_size == TrackEncoder(rules).inputs + 12
    for e in range(6):
        np.testing.assert_array_equal(
            obs[e], expected_observation(rules, env.boards[e], env.to_play[e], env.dice[e]))
    dice_units = obs[:, -12:]
    assert (dice_units.sum(axis=1) == 2).all()
    mask = env.action_mask()
    assert mask.shape == (6, rules.game_type.max_actions) and mask.dtype == bool
    np.testing.assert_array_equal(mask.sum(axis=1), info["counts"])
    assert mask[np.arange(6), info["counts"] - 1].all()
    x, offsets = env.afterstates()
    assert x.shape == (info["counts"].sum(), TrackEncoder(rules).inputs)
    boards, _ = env.afterstate_boards()
    movers = np.repeat(env.to_play, info["counts"])
    np.testing.assert_array_equal(x, TrackEncoder(rules).encode(boards, movers))


def test_finished_games_reset_at_once():
    env = VectorEnv("hypergammon", 16, seed=11)
    rules = gammon.variant("hypergammon")
    start = np.frombuffer(rules.start_position().board, np.int8)
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(200):
        obs, rewards, dones, info = env.step((rng.random(16) * env.counts).astype(np.int64))
        for e in np.flatnonzero(dones):
            seen += 1
            assert rewards[e].sum() == 0 and rewards[e, info["winner"][e]] in (1, 2, 3)
            assert env.turns[e] == 0
            np.testing.assert_array_equal(env.boards[e], start)
            np.testing.assert_array_equal(
                obs[e], expected_observation(rules, start, env.to_play[e], env.dice[e]))
    assert seen > 10


def run_actions(env, steps, seed):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        obs, rewards, dones, info = env.step(
            (rng.random(env.num_envs) * env.counts).astype(np.int64))
        out.append((obs, rewards, dones, env.boards.copy()))
    return out


def test_same_seed_same_games_whatever_the_threads_and_keeping():
    runs = [run_actions(VectorEnv("backgammon", 9, seed=5, threads=t, keep=k), 60, 1)
            for t, k in ((1, 64), (2, 64), (3, 0))]
    for other in runs[1:]:
        for a, b in zip(runs[0], other, strict=True):
            for x, y in zip(a, b, strict=True):
                np.testing.assert_array_equal(x, y)
    env = VectorEnv("backgammon", 9, seed=5)
    first = env.boards.copy(), env.dice
    env.reset(seed=6)
    assert not (np.array_equal(first[0], env.boards) and np.array_equal(first[1], env.dice))
    env.reset(seed=5)
    np.testing.assert_array_equal(first[1], env.dice)
    # Env e's dice come from (seed, e) alone: a bigger batch starts alike.
    wide = VectorEnv("backgammon", 20, seed=5)
    np.testing.assert_array_equal(wide.dice[:9], first[1])


def test_an_illegal_action_raises_and_changes_nothing():
    env = VectorEnv("backgammon", 4, seed=2)
    boards, counts, dice = env.boards.copy(), env.counts, env.dice
    actions = np.zeros(4, np.int64)
    actions[2] = counts[2]
    with pytest.raises(IllegalPlayError, match=f"env 2: action {counts[2]} of {counts[2]} legal"):
        env.step(actions)
    with pytest.raises(GammonError, match="4 integers"):
        env.step([0, 0])
    with pytest.raises(GammonError):
        env.step(np.full(4, -1))
    np.testing.assert_array_equal(env.boards, boards)
    np.testing.assert_array_equal(env.counts, counts)
    np.testing.assert_array_equal(env.dice, dice)
    env.step(np.zeros(4, np.int64))  # still usable


def test_vector_env_steps_only_the_envs_marked_active():
    """VectorEnv.step(actions, active): the envs left out keep their state and
    observation whatever their actions, the others play on as a twin stepping them."""
    games, twin = VectorEnv("hypergammon", 3, seed=2), VectorEnv("hypergammon", 3, seed=2)
    before = games.observation()
    active = np.array([True, False, True])
    obs, rewards, dones, info = games.step(np.array([0, 999, 0]), active=active)
    twin_obs = twin.step(np.zeros(3, np.int64))[0]
    np.testing.assert_array_equal(obs[1], before[1])
    np.testing.assert_array_equal(obs[active], twin_obs[active])
    assert not rewards[1].any() and not dones[1] and info["winner"][1] == -1
    with pytest.raises(IllegalPlayError, match="env 0: action 999"):
        games.step(np.array([999, 0, 0]), active=active)
    for bad in ([1, 0, 1], np.ones(2, bool)):
        with pytest.raises(InvalidOptionError, match="active is 3 booleans, one per env"):
            games.step(np.zeros(3, np.int64), active=bad)


def test_a_list_of_seeds_is_taken_as_a_tuple_an_array_and_by_the_constructor():
    """VectorEnv.reset and the constructor take one seed per env (tests/
    test_envs_vector_gym.py checks the games through Gymnasium): env e given seed s plays
    env 0's game of seed s, whatever form the list has; a float is refused."""
    games = VectorEnv("hypergammon", 3)
    alone = VectorEnv("hypergammon", 1, seed=7)
    for seeds in ((7, 8, 7), np.array([7, 8, 7]), [7, np.uint64(8), 7]):
        games.reset(seed=seeds)
        np.testing.assert_array_equal(games.observation()[0], alone.observation()[0])
        np.testing.assert_array_equal(games.observation()[2], alone.observation()[0])
        np.testing.assert_array_equal(games.opening_throws[0], alone.opening_throws[0])
    assert not np.array_equal(games.observation()[1], games.observation()[0])
    assert VectorEnv("hypergammon", 2, seed=[3, 3]).observation()[1].tolist() == \
        VectorEnv("hypergammon", 1, seed=3).observation()[0].tolist()
    with pytest.raises(InvalidOptionError, match="a list of 2 seeds"):
        VectorEnv("hypergammon", 2, seed=1.5)
    with pytest.raises(InvalidOptionError, match=r"seed\[0\] \(env 0's seed\) is a whole "
                                                 r"number or None, not 1.0"):
        games.reset(seed=np.array([1.0, 2.0, 3.5]))


@pytest.mark.parametrize("name", ["acey-deucey", "multi-gam", "acedrex"])
def test_unsupported_variants_say_what_is_supported(name):
    with pytest.raises(InvalidOptionError, match="Supported: backgammon, nackgammon"):
        VectorEnv(name, 2)
    assert "long-nardy" in supported_variants() and name not in supported_variants()


def test_the_training_example_runs_and_reports():
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_vector.py"), "--games", "40",
         "--duel-games", "20", "--envs", "8", "--hidden", "8"],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "points per game against random" in result.stdout


def test_the_training_examples_curve_is_printed_and_written(tmp_path):
    """``--curve N``: a duel before training and after each N-th of it, printed and in
    the CSV, at the games trained so far."""
    out = tmp_path / "curve.csv"
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_vector.py"), "--games", "40",
         "--duel-games", "10", "--envs", "8", "--hidden", "8", "--curve", "2",
         "--curve-games", "12", "--curve-out", str(out)],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    printed = [line for line in result.stdout.splitlines() if line.startswith("curve:")]
    rows = out.read_text().splitlines()
    assert rows[0] == "games,points_per_game,half_width_95,duel_games"
    assert [row.split(",")[0] for row in rows[1:]] == ["0", "20", "40"]
    assert len(printed) == 3 and all(row.endswith(",12") for row in rows[1:])
    refused = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_vector.py"), "--curve", "-1"],
        capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert refused.returncode == 2 and "--curve is 0" in refused.stderr


@pytest.mark.slow
def test_the_documented_learning_curve_is_what_the_example_draws():
    """docs/vector.md's curve, first and last points: the untrained network and the one
    trained 1,200 games, each within its stated interval of what the command prints
    (intervals overlap: training in floating point differs between machines)."""
    import re

    text = (ROOT / "docs" / "vector.md").read_text()
    stated = re.findall(r"^\| ([\d,]+) \| ([+-]\d\.\d{3}) ± (\d\.\d{3}) \|$", text,
                        re.MULTILINE)
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "train_vector.py"),
                           "--games", "1200", "--curve", "6"], capture_output=True,
                          text=True, check=True, cwd=ROOT)
    drawn = re.findall(r"curve:\s+(\d+) self-play games: ([+-]\d\.\d{3}) \+- (\d\.\d{3})",
                       done.stdout)
    assert [int(g.replace(",", "")) for g, _, _ in stated] == [int(g) for g, _, _ in drawn]
    for (_, said, said_half), (_, measured, half) in zip([stated[0], stated[-1]],
                                                         [drawn[0], drawn[-1]], strict=True):
        assert abs(float(measured) - float(said)) <= float(half) + float(said_half)
    assert float(drawn[-1][1]) - float(drawn[-1][2]) > float(drawn[0][1]) + float(drawn[0][2])


@pytest.mark.slow
def test_the_readmes_figures_of_the_vector_example():
    """The README's figures for both runs of the example are what the example prints,
    within their stated intervals. Training in floating point does not give the same
    digits on every machine (issue 43: +2.645 +- 0.035 in the README, +2.599 +- 0.039
    on another machine), so the check is that the two 95% intervals overlap: a
    network that failed to learn lands far outside (the untrained one scores +1.226)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    readme = " ".join((root / "README.md").read_text().split())
    figure = r"([+-]\d\.\d{3}) (?:±|\+-) (\d\.\d{3})"
    for args, before in (([], "6,000 hypergammon games"), (["--variant", "backgammon"],
                                                            "`--variant backgammon`")):
        done = subprocess.run([sys.executable, str(root / "examples" / "train_vector.py"),
                               *args], capture_output=True, text=True, check=True)
        trained = re.search(r"trained network: " + figure, done.stdout.splitlines()[-1])
        assert trained is not None, done.stdout
        stated = re.search(figure, readme[readme.index(before):])
        assert stated is not None, readme[readme.index(before):][:400]
        measured, half = float(trained[1]), float(trained[2])
        said, said_half = float(stated[1]), float(stated[2])
        assert abs(measured - said) <= half + said_half, (trained[0], stated[0])
