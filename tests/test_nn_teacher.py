"""Training on a teacher's evaluations (gammon.training.teacher): sampling positions, gnubg's
labels, the supervised fit, and `gammon train --teacher` resuming where it stopped."""

from __future__ import annotations

import json

import numpy as np
import pytest
from gnubg_runner import require_gnubg
from typer.testing import CliRunner

import gammon
from gammon.cli.main import app
from gammon.core.errors import InvalidOptionError
from gammon.core.position import Position
from gammon.nn import load_network
from gammon.nn.evaluator import NeuralEvaluator, equity
from gammon.nn.network import Network
from gammon.training.teacher import (
    Adam,
    GnubgTeacher,
    TeacherPlan,
    TeacherRun,
    TeacherSpec,
    data_path,
    epoch_rate,
    equity_error,
    fit_epoch,
    sample_positions,
)
from gammon.training.train import Settings, new_network

BG = gammon.variant("backgammon")
runner = CliRunner()


def test_the_teacher_is_gnubg_at_zero_to_two_plies():
    assert TeacherSpec.parse("gnubg") == TeacherSpec("gnubg", 0)
    assert str(TeacherSpec.parse("GNUBG:2")) == "gnubg:2"
    for bad in ("pubeval", "gnubg:3", "gnubg:x"):
        with pytest.raises(InvalidOptionError, match="gnubg"):
            TeacherSpec.parse(bad)


def test_sampled_positions_are_distinct_and_have_a_player_to_roll():
    evaluator = NeuralEvaluator(BG, load_network(BG))
    boards, turns = sample_positions(BG, evaluator, 4, seed=3)
    assert boards.shape == (len(turns), evaluator.size) and len(turns) > 100
    assert len({(b.tobytes(), t) for b, t in zip(boards, turns, strict=True)}) == len(turns)
    for board, turn in zip(boards[:50], turns[:50], strict=True):
        position = Position(board.tobytes(), 2, int(turn))
        assert position.off(0) < 15 and position.off(1) < 15  # nobody has won yet
    again, _ = sample_positions(BG, evaluator, 4, seed=3)
    assert np.array_equal(again, boards)  # the seed fixes the games
    greedy, _ = sample_positions(BG, evaluator, 4, seed=3, explore=0.0)
    assert not np.array_equal(greedy[:len(boards)], boards[:len(greedy)])


def test_the_rate_holds_then_comes_down_to_a_small_last_step():
    rates = [epoch_rate(1e-3, e, 10) for e in range(10)]
    assert rates[:7] == [1e-3] * 7
    assert rates[7] > rates[8] > rates[9] > 0


def test_fitting_brings_a_network_to_its_teachers_values():
    """A network fitted to another's outputs on the same inputs ends up giving nearly
    the same equities."""
    evaluator = NeuralEvaluator(BG, load_network(BG))
    boards, turns = sample_positions(BG, evaluator, 20, seed=1)
    x = evaluator.encoder.encode(boards, turns.astype(np.int64))
    y = evaluator.network.forward(x)
    student = Network.create(x.shape[1], 32, 5, seed=4)
    adam = Adam(student)
    before = equity_error(student, x, y)
    rng = np.random.default_rng(0)
    for epoch in range(30):
        fit_epoch(student, adam, x, y, epoch_rate(3e-3, epoch, 30), 64, rng)
    assert equity_error(student, x, y) < before / 5
    assert adam.steps == 30 * -(-len(x) // 64)


def test_adam_saves_and_loads_its_moments(tmp_path):
    net = Network.create(6, 4, 5, seed=1)
    adam = Adam(net)
    x = np.random.default_rng(1).random((8, 6)).astype(np.float32)
    fit_epoch(net, adam, x, np.full((8, 5), 0.3, np.float32), 1e-2, 4,
              np.random.default_rng(2))
    adam.save(tmp_path / "adam.npz")
    again = Adam.load(tmp_path / "adam.npz", net)
    assert again.steps == adam.steps == 2
    for mine, theirs in zip(adam.first + adam.second, again.first + again.second,
                            strict=True):
        assert np.array_equal(mine, theirs)


# --- with gnubg --------------------------------------------------------------------------


@pytest.mark.gnubg
def test_gnubgs_labels_are_its_evaluation_of_the_player_on_roll():
    require_gnubg()
    from gammon.agents.gnubg import GnubgAgent

    start = np.frombuffer(BG.start_position().board, np.int8)
    boards, turns = np.stack([start, start]), np.array([0, 1], np.int8)
    teacher = GnubgTeacher(0, 2)
    try:
        labels = teacher.label(boards, turns)
    finally:
        teacher.close()
    # The start is the same for either player to roll: even chances, a few gammons.
    assert np.allclose(labels[0], labels[1], atol=1e-6)
    assert 0.45 < labels[0][0] < 0.55 and 0.05 < labels[0][1] < 0.4
    from gammon.notation.movetext import find_play

    opening = BG.state(BG.start_position(), (3, 1))
    state = opening.apply(find_play(opening, "8/5 6/5"))
    after = np.frombuffer(state.position.board, np.int8)[None, :]
    other = np.array([state.position.turn], np.int8)
    teacher = GnubgTeacher(0, 1)
    try:
        label = teacher.label(after, other)[0]
    finally:
        teacher.close()
    expected = GnubgAgent(BG).probabilities(BG.state(state.position, (2, 1)))
    assert np.allclose(label, expected, atol=1e-5)
    assert equity(label[None, :])[0] < 0  # facing the 5-point made, the roller is behind


@pytest.mark.gnubg
def test_a_teacher_run_labels_only_what_is_missing_and_fits(tmp_path):
    require_gnubg()
    out = tmp_path / "bg.npz"
    settings = Settings("backgammon", {}, hidden=8, seed=2, contact=True)
    plan = TeacherPlan("gnubg:0", games=2, epochs=2, processes=2, check_every=0)
    run = TeacherRun(BG, new_network(settings), plan, 2, 2, out)
    boards, turns, labels = run.positions()
    assert np.isnan(labels).all() and data_path(out).exists()
    # As if stopped half-way: the first half labelled (by someone we can recognise).
    half = len(labels) // 2
    labels[:half] = 0.25
    run._write(boards, turns, labels)
    events = []
    run = TeacherRun(BG, Network.load(out), plan, 2, 2, out,
                     lambda *event: events.append(event))
    run.run()
    with np.load(data_path(out)) as data:
        done = data["labels"]
    assert (done[:half] == 0.25).all() and not np.isnan(done).any()
    assert not (done[half:] == 0.25).all()
    network = Network.load(out)
    assert network.meta["encoder"] == "track+contact" and network.inputs == 217
    assert network.meta["teacher"]["epochs_done"] == 2
    # Which network played the games is kept: the shipped one may change later.
    assert network.meta["teacher"]["sampler"]["hidden"] == load_network(BG).hidden
    assert [e[1]["epoch"] for e in events if e[0] == "epoch"] == [1, 2]
    assert [e[1]["epochs"] for e in events if e[0] == "check"] == [2]  # after the last


@pytest.mark.gnubg
def test_gammon_train_with_a_teacher_writes_a_network_a_curve_and_resumes(tmp_path):
    require_gnubg()
    out = tmp_path / "bg.npz"
    args = ["train", "backgammon", "--teacher", "gnubg:0", "--contact", "--games", "2",
            "--epochs", "2", "--hidden", "8", "--check-games", "2",
            "--teacher-processes", "2", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "gnubg:0's evaluations" in result.output and "epoch 2" in result.output
    assert out.exists() and out.with_suffix(".png").exists()
    about = json.loads(out.with_suffix(".json").read_text())
    assert about["teacher"]["teacher"] == "gnubg:0" and about["encoder"] == "track+contact"
    assert len(about["commands"]) == 1  # the command line that made it
    # The agent plays with it (the contact features read from the file's encoder).
    from gammon.agents import make_agent

    agent = make_agent(f"neural:1:net={out}", BG, 1)
    state = BG.state(BG.start_position(), (6, 5))
    assert agent.choose(state) in state.legal_actions()
    # Again without --resume: the run's data is there, so it says how to go on.
    again = runner.invoke(app, args)
    assert again.exit_code != 0 and "--resume" in again.output
    # More epochs on the same positions: only the new epochs run.
    more = runner.invoke(app, [*args[:8], "3", *args[9:], "--resume", str(out)])
    assert more.exit_code == 0, more.output
    assert "epoch 3" in more.output and "epoch 1:" not in more.output
    assert Network.load(out).meta["teacher"]["epochs_done"] == 3


def test_a_teacher_for_a_variant_gnubg_does_not_play_is_refused(tmp_path):
    result = runner.invoke(app, ["train", "long-nardy", "--teacher", "gnubg", "--games", "1",
                                 "--out", str(tmp_path / "n.npz")])
    assert result.exit_code != 0 and "gnubg" in result.output
