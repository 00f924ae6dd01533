"""Hypergammon solved: the tables hold the exact values of the engine's own game (each
value is what the best play of every roll is worth, by the engine's legal plays and
results), and the perfect bot plays by them.

Three checkers' table is built on the machine (``gammon solve 3``, minutes and 6 GB):
the tests marked ``solved`` read it, and ``make hypergammon`` builds it and runs them.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import gammon
from gammon.agents import make_agent
from gammon.agents.offered import offered
from gammon.agents.registry import default_bot
from gammon.cli.main import app
from gammon.core.errors import InvalidOptionError
from gammon.core.position import Position
from gammon.evaluators import exact
from gammon.evaluators.exact import ROLLS, ExactEvaluator, board_of, sides, solve, table

THREE = pytest.param(3, marks=pytest.mark.solved)


def value_after(evaluator: ExactEvaluator, state, play) -> float:
    """What ``play`` is worth to its mover by the table (or at once, when it wins)."""
    after = state.apply(play)
    if after.is_terminal:
        return float(after.returns()[state.current_player])
    board = np.frombuffer(play.result.board, np.int8)[None, :]
    return float(evaluator.values(board, 1 - state.current_player)[0][state.current_player])


@pytest.mark.parametrize("checkers", [1, 2, THREE])
def test_every_value_is_the_best_play_of_every_roll(checkers):
    """The Bellman equation, checked against the engine on random positions."""
    rules = gammon.variant("hypergammon", checkers_per_side=checkers)
    evaluator = ExactEvaluator(rules)
    combos, index = sides(checkers)
    m = len(combos)
    known = np.flatnonzero(~np.isnan(table(checkers)[:, 0]))
    rng = random.Random(checkers)
    for key in rng.sample(list(known), 150):
        mover, other = combos[key // m], combos[key % m]
        board = board_of(mover, other).tobytes()
        total = 0.0
        for d1, d2, weight in ROLLS:
            state = rules.state(Position(board, 2, 0), (d1, d2))
            total += weight / 36 * max(value_after(evaluator, state, p)
                                       for p in state.legal_actions())
        assert total == pytest.approx(table(checkers)[key, 0], abs=2e-5)


def test_the_tables_know_the_ends_of_the_game():
    t = table(1)
    combos, index = sides(1)
    m = len(combos)
    # On the ace point against a checker still on the way: a gammon next roll.
    assert t[index[(1,)] * m + index[(1,)]].tolist() == pytest.approx([2.0, 1.0, 1.0, 0.0])
    # Both on their 24 point (the start): the roller is ahead.
    start = t[index[(24,)] * m + index[(24,)]]
    assert 0.0 < start[0] < 1.0 and 0.5 < start[1] < 0.7
    assert np.isnan(t[index[(1,)] * m + index[(24,)]]).all()  # one point, two sides


@pytest.mark.parametrize("name", ["hypergammon-1", "hypergammon-2",
                                  pytest.param("hypergammon-3", marks=pytest.mark.solved)])
def test_the_perfect_bot_plays_a_best_play_and_leads_the_list(name):
    rules = gammon.variant(name)
    assert offered(rules).bots[0] == "perfect" and default_bot(rules) == "perfect"
    agent = make_agent("perfect", rules, 1)
    evaluator = ExactEvaluator(rules)
    rng = random.Random(5)
    other = make_agent("heuristic", rules, 2)
    state = rules.initial_state()
    checked = 0
    while not state.is_terminal:
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        choice = agent.choose(state)
        if len(legal) > 1:
            values = [value_after(evaluator, state, p) for p in legal]
            assert value_after(evaluator, state, choice) == pytest.approx(max(values))
            checked += 1
        state = state.apply(choice if checked % 2 else other.choose(state))
    assert checked >= 1


@pytest.mark.parametrize("checkers", [1, 2])
def test_the_compiled_solver_gives_the_shipped_tables(checkers):
    """The solver that builds three checkers' table, run on the tables that ship."""
    solved, sweeps = solve(checkers)
    shipped = table(checkers)
    assert sweeps > 2
    assert (np.isnan(solved) == np.isnan(shipped)).all()
    assert np.nanmax(np.abs(solved - shipped)) < 1e-6


@pytest.fixture
def data_folder(tmp_path, monkeypatch):
    """An empty folder for the tables this machine builds."""
    monkeypatch.setenv("GAMMON_DATA", str(tmp_path))
    exact.table.cache_clear()
    yield tmp_path
    exact.table.cache_clear()


def test_three_checkers_lead_with_the_network_until_solved_here(data_folder):
    assert "perfect" in offered(gammon.variant("hypergammon-3")).bots
    assert default_bot("hypergammon-3") == "neural"
    with pytest.raises(InvalidOptionError, match="gammon solve 3"):
        make_agent("perfect", "hypergammon-3", 1)
    (data_folder / "hypergammon-3.npy").touch()
    assert default_bot("hypergammon-3") == "perfect"


def test_gammon_solve_writes_the_table_where_the_bot_reads_it(data_folder):
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["solve", "1"])
    assert result.exit_code == 0, result.output
    assert "is solved" in result.output
    built = np.load(data_folder / "hypergammon-1.npy")
    assert np.allclose(built, table(1), equal_nan=True)
    assert CliRunner().invoke(app, ["solve", "4"]).exit_code != 0
