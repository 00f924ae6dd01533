"""Checker play that knows the score (gammon.agents.match_play): at double match point a
play is worth its chance to win alone; at other scores gammons weigh what the match
equity table says; money play is unchanged."""

from __future__ import annotations

import random

import numpy as np
import pytest

import gammon
from gammon.agents import make_agent
from gammon.agents.base import play_rows
from gammon.agents.cube import match_equity
from gammon.agents.match_play import MatchContext, match_context
from gammon.stakes.cube import CubeState
from gammon.stakes.score import MatchScore

BG = gammon.variant("backgammon")


def test_at_double_match_point_every_win_is_plus_one_and_every_loss_minus_one():
    weights = MatchContext((1, 1), 1, True).weights()
    assert weights == pytest.approx([1, 1, 1, -1, -1, -1])


def test_gammons_weigh_what_the_match_equity_table_says():
    # Money-like at the start of a long match: a gammon is worth about two singles.
    start = MatchContext((25, 25), 1, False).weights()
    assert start[0] == pytest.approx(1) and 1.8 < start[1] < 2.2
    # The trailer needing two against one, after the Crawford game: a gammon wins the
    # match, a single only reaches double match point (post-Crawford row).
    trailer = MatchContext((2, 1), 1, True)
    assert trailer.equity(0, 2) == 1.0
    assert trailer.equity(0, 1) == pytest.approx(0.5)
    assert trailer.equity(0, -1) == 0.0
    high, low = 0.5, 0.0
    assert trailer.weights()[1] == pytest.approx((2 * 1.0 - high - low) / (high - low))
    # A free-drop cube at 4 away 2 away: match_equity read for the scores after the game.
    context = MatchContext((4, 2), 2, False)
    assert context.equity(0, 2) == pytest.approx(match_equity(2, 2))
    assert context.equity(0, -2) == 0.0


def test_match_context_reads_the_stakes_state():
    state = CubeState.midgame(BG, BG.start_position(), (3, 1),
                              score=MatchScore(7, (4, 6), crawford=True))
    assert match_context(state) == MatchContext((3, 1), 1, True)
    money = CubeState.midgame(BG, BG.start_position(), (3, 1))
    assert match_context(money) is None and match_context(money.base) is None


def positions(count: int, seed: int) -> list:
    """Decisions of a few seeded games between neural:0 bots, with contact."""
    rng = random.Random(seed)
    bot = make_agent("neural:0", BG, seed=seed)
    found = []
    while len(found) < count:
        state = BG.initial_state()
        while not state.is_terminal and len(found) < count:
            if state.is_chance:
                state = state.apply(state.sample_chance(rng))
                continue
            if len(state.legal_actions()) > 4:
                found.append(state)
            state = state.apply(bot.choose(state) if rng.random() < 0.8 else
                                rng.choice(list(state.legal_actions())))
    return found


def test_at_double_match_point_the_bot_plays_for_the_win_alone():
    bot = make_agent("neural:0", BG, seed=0)
    evaluator = bot.evaluator
    differs = 0
    for base in positions(60, seed=3):
        mover = base.position.turn
        dmp = CubeState.midgame(BG, base.position, base.dice,
                                score=MatchScore(7, (6, 6)))
        money = CubeState.midgame(BG, base.position, base.dice)
        legal = list(base.legal_actions())
        rows = play_rows(base.legal_actions())
        boards = np.ascontiguousarray(rows[:, : evaluator.size])
        # The chance to win after each play: the opponent's outputs, flipped.
        wins = 1.0 - evaluator.outputs(boards, np.full(len(legal), 1 - mover))[:, 0]
        chosen = bot.choose(dmp)
        assert wins[legal.index(chosen)] == pytest.approx(wins.max(), abs=1e-9)
        differs += bot.choose(money).result != chosen.result
    # Gammons change some plays: money play is not what double match point plays.
    assert differs > 0
