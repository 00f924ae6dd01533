"""GNU Backgammon as an opponent: its plays are legal, its games end with the right score."""

from __future__ import annotations

import random

import pytest
from gnubg_runner import require_gnubg

import gammon
from gammon.agents import duel, make_agent
from gammon.notation.movetext import format_play

pytestmark = pytest.mark.gnubg


@pytest.fixture(autouse=True)
def gnubg_installed() -> None:
    require_gnubg()

BG = gammon.variant("backgammon")


def test_gnubg_opening_plays():
    agent = make_agent("gnubg:0", BG, 1)
    start = BG.start_position()
    assert format_play(agent.choose(BG.state(start, (3, 1)))) == "8/5 6/5"
    assert format_play(agent.choose(BG.state(start, (6, 1)))) == "13/7 8/7"


def test_a_gnubg_game_runs_to_the_end_with_the_right_score():
    agents = [make_agent("gnubg:0", BG, 1), make_agent("random", BG, 2)]
    rng = random.Random(1)
    state = BG.initial_state()
    while not state.is_terminal:
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
            continue
        action = agents[state.current_player].choose(state)
        assert action in state.legal_actions()
        state = state.apply(action)
    returns = state.returns()
    winner = state.winner
    position = state.position
    assert position.off(winner) == 15
    loser = 1 - winner
    expected = 1
    if position.off(loser) == 0:
        expected = 2
        if position.bar(loser) or any(position.count(loser, s) for s in range(19, 25)):
            expected = 3
    assert returns[winner] == expected and returns[loser] == -expected


def test_noise_is_deterministic():
    noisy = make_agent("gnubg:0:noise=0.4", BG, 1)
    state = BG.state(BG.start_position(), (5, 2))
    assert len({format_play(noisy.choose(state)) for _ in range(3)}) == 1


def test_gnubg_games_in_parallel_processes():
    result = duel(BG, ["gnubg:0", "random"], 2, seed=3, jobs=2)
    assert result.unfinished == 0
    assert result.agents[0].points.mean > 0


def test_gnubg_plays_the_cube_by_its_own_cubeful_decisions():
    """gnubg doubles a race it is far ahead in, holds the cube in an even position, and
    answers doubles by its own take points, at money and at a match score."""
    from gammon.core.position import Position
    from gammon.notation import situation_from_text
    from gammon.stakes.cube import CubeAction, CubeState
    from gammon.stakes.score import MatchScore

    agent = make_agent("gnubg:0", BG, 1)

    def race(mine: dict[int, int], theirs: dict[int, int]) -> Position:
        rows = [[0] * 26, [0] * 26]
        for row, points in zip(rows, (mine, theirs), strict=True):
            for point, count in points.items():
                row[point] = count
        return Position.from_checkers(rows, 0)

    ahead = CubeState.midgame(BG, race({1: 5, 2: 5, 3: 5}, {6: 5, 5: 5, 4: 5}))
    assert agent.choose(ahead) is CubeAction.DOUBLE
    assert agent.choose(ahead.apply(CubeAction.DOUBLE)) is CubeAction.DROP
    close = CubeState.midgame(BG, race({4: 5, 5: 5, 6: 5}, {6: 3, 5: 4, 4: 3, 3: 5}))
    assert agent.choose(close) is CubeAction.ROLL
    assert agent.choose(close.apply(CubeAction.DOUBLE)) is CubeAction.TAKE
    opening = situation_from_text("4HPhASjQc+QBMA").position
    three = CubeState.midgame(BG, opening, score=MatchScore.match(3, (0, 0)))
    assert agent.choose(three) is CubeAction.ROLL  # gnubg: no double, take
