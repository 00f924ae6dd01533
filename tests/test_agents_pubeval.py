"""pubeval: Tesauro's weights, his input encoding, and the play they give."""

from __future__ import annotations

import numpy as np
import pytest

import gammon
from gammon.agents import duel, make_agent
from gammon.agents.pubeval import CONTACT, RACE, WINS, encode, is_race, pubeval
from gammon.core.position import Position
from gammon.notation.movetext import format_play

BG = gammon.variant("backgammon")


def test_the_published_weights():
    assert RACE.shape == CONTACT.shape == (122,)
    # Spot checks against pubeval.c, and sums that catch any slip in a transcription.
    assert (CONTACT[0], CONTACT[1], CONTACT[120], CONTACT[121]) == (0.25696, -0.66937, 5.62596,
                                                                    -2.75800)
    assert (RACE[1], RACE[94], RACE[119], RACE[121]) == (-0.17160, 5.35000, -12.32252, 3.42040)
    assert round(float(RACE.sum()), 5) == -31.29905
    assert round(float(CONTACT.sum()), 5) == -6.72565
    # pubeval.c's race table has no weight for an opponent's blot (the race has none).
    assert all(RACE[5 * k] == 0.0 for k in range(24))


def test_the_encoding_of_the_start():
    board = np.frombuffer(BG.start_position().board, np.int8)[None, :]
    x = encode(board, 0)[0]
    block = {24 - k: x[5 * k : 5 * k + 5] for k in range(24)}
    assert list(block[24]) == [0, 0, 1, 0, 0]  # two checkers
    assert list(block[13]) == [0, 0, 1, 0, 1.0]  # five: made, (5 - 3) / 2
    assert list(block[8]) == [0, 0, 1, 1, 0]  # three
    assert list(block[1]) == [0, 0, 0, 0, 0]  # the opponent's two checkers: not an input
    assert x[120] == 0 and x[121] == 0


def test_blots_bar_and_off_inputs():
    mine = [3] + [0] * 25
    mine[6], mine[5], mine[25] = 10, 1, 1
    theirs = [0] + [0] * 25
    theirs[24], theirs[20], theirs[25] = 13, 1, 1
    position = Position(bytes(mine + theirs), 2, 0)
    x = encode(np.frombuffer(position.board, np.int8)[None, :], 0)[0]
    assert x[5 * (24 - 5) + 1] == 1  # our blot on 5
    assert x[5 * (24 - 6) + 4] == pytest.approx((10 - 3) / 2)
    assert x[120] == 0.5  # one of theirs on the bar
    assert x[121] == pytest.approx(3 / 15)


def test_race_and_winning_scores():
    assert not is_race(BG.start_position().board, 0)
    mine = [10] + [0] * 25
    mine[3] = 5
    theirs = [10] + [0] * 25
    theirs[4] = 5
    assert is_race(bytes(mine + theirs), 0)
    won = [15] + [0] * 25
    board = np.frombuffer(bytes(won + theirs), np.int8)[None, :]
    assert pubeval(board, 0, True)[0] == WINS


@pytest.mark.parametrize("dice, play", [((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"),
                                        ((6, 1), "13/7 8/7"), ((5, 3), "8/3 6/3"),
                                        ((6, 5), "24/13")])
def test_pubeval_plays_the_standard_openings(dice, play):
    agent = make_agent("pubeval", BG, 1)
    assert format_play(agent.choose(BG.state(BG.start_position(), dice))) == play


def test_pubeval_beats_random():
    result = duel(BG, ["pubeval", "random"], 24, seed=3)
    pub = result.agents[0]
    assert pub.points.low > 1.0  # random loses about 2.5 points a game, mostly gammons
    assert pub.win_rate > 0.85
