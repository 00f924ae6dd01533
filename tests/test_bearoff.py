"""The bearoff databases (gammon.evaluators.bearoff): exact where gnubg's are, read by
the network evaluator at every ply, and the cube decision of the issue's bearoff."""

from __future__ import annotations

import json
import os
import random
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

import gammon
from gammon.analysis.hint import rate_cube
from gammon.evaluators import bearoff
from gammon.nn import load_network
from gammon.nn.evaluator import NeuralEvaluator
from gammon.notation import Situation
from gammon.stakes.cube import CubeState

BG = gammon.variant("backgammon")
DRIVER = Path(__file__).resolve().parent / "gnubg_scripts" / "eval_driver.py"


def side(rng: random.Random, most: int) -> list[int]:
    """Counts on points 1-6 of a random side of 1 to ``most`` checkers."""
    counts = [0] * 6
    for _ in range(rng.randint(1, most)):
        counts[rng.randrange(6)] += 1
    return counts


def board_row(mine: list[int], theirs: list[int], to_roll: int = 0) -> np.ndarray:
    """A two-player board row: ``mine`` are the counts of the side ``to_roll``."""
    row = np.zeros(52, np.int8)
    for player, counts in ((to_roll, mine), (1 - to_roll, theirs)):
        row[player * 26 + 1: player * 26 + 7] = counts
        row[player * 26] = 15 - sum(counts)
    return row


def index_of(counts: list[int]) -> int:
    keys, order = bearoff.sides(15)[1]
    key = sum(n * 16 ** p for p, n in enumerate(counts))
    return int(order[np.searchsorted(keys, key)])


def race(mine: list[int], theirs: list[int]) -> tuple[float, float, float]:
    """The race's chances from the one-sided table, summed the long way (module text):
    to win, to win a gammon, to lose one."""
    table = bearoff.one_sided().astype(np.float64)
    a, fa = table[index_of(mine)]
    b, fb = table[index_of(theirs)]
    rolls = range(bearoff.MAX_ROLLS)
    win = sum(a[n] * b[n:].sum() for n in rolls)
    gammon = sum(a[n] * fb[n:].sum() for n in rolls)
    lose_gammon = sum(b[m] * fa[m + 1:].sum() for m in rolls)
    return win, gammon, lose_gammon


def ours(pairs: list[tuple[list[int], list[int]]]) -> np.ndarray:
    boards = np.stack([board_row(m, t) for m, t in pairs])
    return bearoff.Bearoff().outputs(boards, np.zeros(len(pairs), np.int64))


def test_the_symmetric_bearoff_of_the_issue_is_gnubgs_65_42_percent_no_double_take():
    mine = theirs = [0, 0, 0, 2, 2, 2]
    assert ours([(mine, theirs)])[0, 0] == pytest.approx(0.65418, abs=1e-4)
    position = gammon.Position.from_checkers(
        [[9, 0, 0, 0, 2, 2, 2] + [0] * 19, [9, 0, 0, 0, 2, 2, 2] + [0] * 19], turn=0)
    state = CubeState.from_situation(Situation(position), BG)
    evaluator = NeuralEvaluator(BG, load_network(BG))
    for plies in (0, 1):
        hint = rate_cube(state, evaluator, plies)
        assert hint.decision == "No double, take"
        assert hint.chances.win == pytest.approx(0.6542, abs=1e-3)


def test_one_sided_distributions_add_up_and_one_checker_takes_one_and_a_quarter_rolls():
    table = bearoff.one_sided()
    assert np.allclose(table.sum(axis=2), 1.0, atol=1e-5)
    mean = (table[index_of([0, 0, 0, 0, 0, 1])][0] * np.arange(bearoff.MAX_ROLLS)).sum()
    assert mean == pytest.approx(1.25)  # 11, 21, 31, 41, 32 fail: 9 rolls in 36


def test_the_compiled_race_sums_the_distributions_as_the_long_way_does():
    rng = random.Random(2)
    pairs = [(side(rng, 15), side(rng, 15)) for _ in range(40)]
    # All fifteen on board: the side on roll, far behind, may be gammoned.
    pairs.append(([0, 0, 0, 0, 0, 15], [5, 5, 5, 0, 0, 0]))
    got = ours(pairs)
    for (mine, theirs), row in zip(pairs, got, strict=True):
        if sum(mine) > 6 or sum(theirs) > 6:
            assert row[[0, 1, 3]] == pytest.approx(race(mine, theirs), abs=1e-5)
    assert got[-1, 3] > 0


def test_a_side_on_roll_with_less_to_do_wins_more_and_symmetric_races_favour_the_roller():
    rng = random.Random(5)
    for _ in range(50):
        counts = side(rng, 6)
        win = ours([(counts, counts)])[0, 0]
        assert win >= 0.5  # the same side each: rolling first never hurts
    # Fewer checkers than the other, on the same points: wins at least as often.
    assert ours([([0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 2])])[0, 0] > \
        ours([([0, 0, 0, 0, 0, 2], [0, 0, 0, 0, 0, 1])])[0, 0]


def test_the_evaluator_reads_the_tables_for_bearoffs_and_the_network_elsewhere():
    evaluator = NeuralEvaluator(BG, load_network(BG))
    race = board_row([0, 0, 0, 2, 2, 2], [0, 0, 0, 2, 2, 2])
    start = np.frombuffer(BG.start_position().board, np.int8)
    boards = np.stack([race, start])
    out = evaluator.outputs(boards, np.zeros(2, np.int64))
    assert out[0, 0] == pytest.approx(0.65418, abs=1e-4) and not out[0, 1:].any()
    raw = evaluator.network.forward(evaluator.encoder.encode(boards, np.zeros(2, np.int64)))
    assert np.allclose(out[1], raw[1])  # the opening is no bearoff
    assert bearoff.bearoff_for(gammon.variant("nackgammon")) is not None
    assert bearoff.bearoff_for(gammon.variant("hypergammon")) is None
    assert bearoff.bearoff_for(gammon.variant("long-nardy")) is None


@pytest.mark.gnubg
def test_the_tables_agree_with_gnubgs_databases():
    from gnubg_runner import require_gnubg

    gnubg = require_gnubg()
    rng = random.Random(11)
    pairs = [(side(rng, 6), side(rng, 6)) for _ in range(150)]
    pairs += [(side(rng, 15), side(rng, 15)) for _ in range(150)]
    pairs += [([0, 0, 0, 0, 0, 15], [0, 0, 0, 0, 0, 15]), ([5, 5, 5, 0, 0, 0],
                                                          [0, 0, 0, 5, 5, 5])]
    jobs = [[t + [0] * 19, m + [0] * 19] for m, t in pairs]
    with tempfile.TemporaryDirectory() as folder:
        job_file, out_file = Path(folder) / "jobs.json", Path(folder) / "out.json"
        job_file.write_text(json.dumps(jobs))
        env = {**os.environ, "GAMMON_GNUBG_JOBS": str(job_file),
               "GAMMON_GNUBG_OUT": str(out_file)}
        subprocess.run([gnubg, "-q", "-t", "-p", str(DRIVER)], env=env, check=True,
                       stdout=subprocess.DEVNULL, timeout=300)
        theirs = np.array(json.loads(out_file.read_text()))
    mine = ours(pairs)
    small = np.array([sum(m) <= 6 and sum(t) <= 6 for m, t in pairs])
    # gnubg keeps its chances in 16 bits; its one-sided database, like ours, plays each
    # side for its fewest rolls.
    assert np.abs(mine[small, 0] - theirs[small, 0]).max() < 2e-4
    assert np.abs(mine[~small, 0] - theirs[~small, 0]).max() < 1e-3
    assert np.abs(mine[:, 1] - theirs[:, 1]).max() < 1e-3  # gammons
    assert np.abs(mine[:, 3] - theirs[:, 3]).max() < 1e-3
