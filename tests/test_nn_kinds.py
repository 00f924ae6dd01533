"""Networks by kind of position (issue 48, item 2): which boards are races, which are
bearoffs, the evaluator reading each row by the network of its kind, the files found
beside the main network, and the teacher runs that train one kind alone."""

from __future__ import annotations

import numpy as np
import pytest
from gnubg_runner import require_gnubg
from typer.testing import CliRunner

import gammon
from gammon.agents import make_agent
from gammon.cli.main import app
from gammon.core.errors import InvalidOptionError
from gammon.core.position import Position
from gammon.nn import load_network, shipped_network
from gammon.nn.evaluator import NeuralEvaluator, load_evaluator
from gammon.nn.kinds import CRASHED, RACE, bearoffs, crashed, races, select, sibling
from gammon.nn.network import Network
from gammon.training.teacher import TeacherPlan, TeacherRun
from gammon.training.train import Settings, new_network

BG = gammon.variant("backgammon")
runner = CliRunner()


def board(mine: dict[int, int], theirs: dict[int, int]) -> np.ndarray:
    """A board row from each side's checkers by point of its own numbering (25: the
    bar); the rest borne off."""
    row = np.zeros(52, np.int8)
    for side, points in enumerate((mine, theirs)):
        for point, count in points.items():
            row[side * 26 + point] = count
        row[side * 26] = 15 - sum(points.values())
    return row


RACE_ROW = board({12: 3, 8: 4, 6: 4, 3: 4}, {13: 2, 9: 5, 5: 8})  # 12 + 13 = 25: passed
CONTACT_ROW = board({13: 3, 8: 4, 6: 4, 3: 4}, {13: 2, 9: 5, 5: 8})  # 13 + 13: behind
BAR_ROW = board({25: 1, 6: 14}, {5: 15})  # a checker to enter
BEAROFF_ROW = board({6: 5, 4: 5, 1: 5}, {5: 10, 2: 5})


def test_kind_race_is_no_checker_behind_an_opponents_and_none_on_the_bar():
    rows = np.stack([RACE_ROW, CONTACT_ROW, BAR_ROW, BEAROFF_ROW])
    assert races(rows).tolist() == [True, False, False, True]
    start = np.frombuffer(BG.start_position().board, np.int8)[None, :]
    assert not races(start).any()


def test_kind_bearoff_is_every_checker_home_and_the_race_network_leaves_it_to_the_tables():
    rows = np.stack([RACE_ROW, CONTACT_ROW, BEAROFF_ROW])
    assert bearoffs(rows).tolist() == [False, False, True]
    assert select(RACE, rows).tolist() == [True, False, False]
    with pytest.raises(InvalidOptionError, match="race"):
        select("crashed-ish", rows)


#: Six checkers left to play with once the ones buried on the 1- and 2-points are set
#: aside (six on the ace, three of four on the deuce), and in contact.
CRASHED_ROW = board({1: 6, 2: 4, 4: 1, 18: 2, 13: 2}, {24: 2, 13: 5, 8: 3, 6: 5})
#: One more checker in play: seven.
STANDING_ROW = board({1: 5, 2: 4, 4: 2, 18: 2, 13: 2}, {24: 2, 13: 5, 8: 3, 6: 5})


def test_kind_crashed_is_contact_with_six_checkers_or_fewer_to_play_with():
    few_left = board({25: 1, 6: 3}, {24: 2, 13: 5, 8: 3, 6: 5})  # 11 off, one to enter
    rows = np.stack([CRASHED_ROW, STANDING_ROW, few_left, CONTACT_ROW,
                     board({1: 10, 2: 5}, {5: 15})])  # buried, but a race
    assert crashed(rows).tolist() == [True, False, True, False, False]
    assert select(CRASHED, rows).tolist() == crashed(rows).tolist()
    assert not (select(CRASHED, rows) & select(RACE, rows)).any()  # one network a row


def _race_network(seed: int = 5) -> Network:
    network = Network.create(199, 8, 5, seed=seed, variant="backgammon", encoder="track",
                             kind=RACE)
    network.b2[:] = 3.0  # far from the main network's outputs
    return network


def test_the_evaluator_reads_each_row_by_the_network_of_its_kind():
    main = load_network(BG)
    race = _race_network()
    plain = NeuralEvaluator(BG, main)
    kinded = NeuralEvaluator(BG, main, {RACE: race})
    rows = np.stack([RACE_ROW, CONTACT_ROW, BEAROFF_ROW, RACE_ROW])
    sides = np.array([0, 1, 0, 1])
    out = kinded.outputs(rows, sides)
    both = plain.outputs(rows, sides)
    alone = race.forward(kinded._readers[1][1].encode(rows[[0, 3]], sides[[0, 3]]))
    assert np.allclose(out[[0, 3]], alone) and not np.allclose(out[[0, 3]], both[[0, 3]])
    assert np.allclose(out[[1, 2]], both[[1, 2]])  # contact: the main; bearoff: tables
    # A batch of one kind is read by its network at once; an empty batch is empty.
    assert np.allclose(kinded.outputs(rows[[0, 3]], sides[[0, 3]]), alone)
    assert kinded.outputs(rows[:0], 0).shape == (0, 5)
    # Equities and the search's values go through the same rows.
    assert np.allclose(kinded.values(rows, sides)[1], plain.values(rows, sides)[1])


def test_networks_by_kind_are_found_beside_the_main_file_and_checked(tmp_path):
    main = tmp_path / "bg.npz"
    load_network(BG).save(main)
    assert load_evaluator(BG, main).kinds == {}  # type: ignore[union-attr]
    _race_network().save(sibling(main, RACE))
    assert sibling(main, RACE).name == "bg.race.npz"
    evaluator = load_evaluator(BG, main)
    assert isinstance(evaluator, NeuralEvaluator) and set(evaluator.kinds) == {RACE}
    # The agents see it: neural:net=FILE brings the race network along.
    agent = make_agent(f"neural:0:net={main}", BG, 1)
    state = BG.state(Position(RACE_ROW.tobytes(), 2, 0), (6, 5))
    assert agent.choose(state) in state.legal_actions()
    unmarked = _race_network()
    del unmarked.meta["kind"]
    unmarked.save(sibling(main, RACE))
    with pytest.raises(InvalidOptionError, match="not a network of race positions"):
        load_evaluator(BG, main)
    # The shipped network has its race and crashed networks beside it.
    shipped = load_evaluator(BG)
    assert isinstance(shipped, NeuralEvaluator) and set(shipped.kinds) == {RACE, CRASHED}


def test_networks_by_kind_are_refused_where_no_kinds_apply():
    nardy = gammon.variant("long-nardy")
    with pytest.raises(ValueError, match="no kinds of position"):
        NeuralEvaluator(nardy, load_network(nardy), {RACE: _race_network()})


def test_kind_needs_a_teacher_and_a_known_kind(tmp_path):
    out = str(tmp_path / "n.npz")
    result = runner.invoke(app, ["train", "backgammon", "--kind", "race", "--games", "1",
                                 "--out", out])
    assert result.exit_code != 0 and "--teacher" in result.output
    result = runner.invoke(app, ["train", "backgammon", "--teacher", "gnubg", "--kind",
                                 "prime", "--games", "1", "--out", out])
    assert result.exit_code != 0 and "unknown kind of position 'prime'" in result.output


@pytest.mark.gnubg
def test_a_teacher_run_of_one_kind_labels_and_fits_only_that_kind(tmp_path):
    require_gnubg()
    load_network(BG).save(tmp_path / "bg.npz")
    out = sibling(tmp_path / "bg.npz", RACE)
    settings = Settings("backgammon", {}, hidden=8, seed=2, contact=False)
    plan = TeacherPlan("gnubg:0", games=40, epochs=1, processes=2, kind=RACE)
    events: list[tuple[object, ...]] = []
    run = TeacherRun(BG, new_network(settings), plan, 2, 2, out,
                     lambda *event: events.append(event))
    run.run()
    network = Network.load(out)
    teacher = network.meta["teacher"]
    assert network.meta["kind"] == RACE and teacher["kind"] == RACE
    assert 0 < teacher["positions"] < teacher["sampled"]
    with np.load(out.with_suffix(".data.npz")) as data:
        assert select(RACE, data["boards"]).all() and not np.isnan(data["labels"]).any()
    assert not [e for e in events if e[0] == "check"]  # no games of a race network alone
    assert teacher["main_equity_error"] >= 0  # the shipped network's, on the same rows
    assert set(load_evaluator(BG, tmp_path / "bg.npz").kinds) == {RACE}  # type: ignore[union-attr]


def test_a_kind_network_may_start_from_the_main_network_and_fit_labels_already_there(
        tmp_path):
    """--init: the shipped network's weights, size and inputs as the start, the positions
    and labels of an earlier run beside OUT fitted (no gnubg asked: all are labelled)."""
    out = sibling(tmp_path / "bg.npz", RACE)
    rows = np.stack([RACE_ROW] * 60 + [board({11: 2, 7: 5, 5: 8}, {14: 3, 9: 4, 4: 8})] * 60)
    labels = np.tile(np.array([[0.7, 0.01, 0, 0.02, 0]], np.float32), (len(rows), 1))
    np.savez(out.with_suffix(".data.npz"), boards=rows, turns=np.zeros(len(rows), np.int8),
             labels=labels)
    args = ["train", "backgammon", "--teacher", "gnubg:2", "--kind", "race", "--init",
            str(shipped_network(BG)), "--epochs", "1", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    network = Network.load(out)
    main = load_network(BG)
    assert network.meta["kind"] == RACE and network.meta["encoder"] == main.meta["encoder"]
    assert network.hidden == main.hidden and not np.array_equal(network.w1, main.w1)
    assert network.meta["initialised_from"]["file"] == shipped_network(BG).name
    teacher = network.meta["teacher"]
    assert teacher["positions"] == 120 and teacher["epochs_done"] == 1
    assert teacher["main_equity_error"] > 0  # the main network's, to be beaten
    again = runner.invoke(app, [*args, "--resume", str(out)])
    assert again.exit_code != 0 and "give one of them" in again.output
    alone = runner.invoke(app, ["train", "backgammon", "--init", str(out), "--out",
                                str(tmp_path / "x.npz")])
    assert alone.exit_code != 0 and "--teacher" in alone.output
