"""The rollout agent: compiled random games from each candidate (Multi-Gam)."""

from __future__ import annotations

import numpy as np
import pytest

import gammon
from gammon.agents import make_agent
from gammon.core.errors import InvalidOptionError
from gammon.notation.multigam import format_play, parse_position
from gammon.variants.multigam import SCORES

MG = gammon.variant("multi-gam")


def rolled(text: str, ranking=None):
    """A CHANCE state of a game under way: the player to move rolls next."""
    return MG.state(parse_position(MG, text), None, ranking)


def test_rollout_values_share_out_the_places():
    values = MG.rollout_values(rolled("00000/00000/00000/00000:2"), 4000, seed=1)
    assert values.sum() == pytest.approx(sum(SCORES))
    assert values.min() >= min(SCORES) and values.max() <= max(SCORES)


def test_rollout_values_keep_the_places_already_won():
    values = MG.rollout_values(rolled("77777/77777/00000/12345:2", ranking=(1, 0)), 500,
                               seed=2)
    assert values[1] == SCORES[0] and values[0] == SCORES[1]
    assert values[2] + values[3] == pytest.approx(SCORES[2] + SCORES[3])
    # Player 3 is far ahead in the race for third place.
    assert values[3] > values[2]


def test_rollout_values_repeat_with_a_seed_and_refuse_a_decision():
    state = rolled("01234/00000/55555/00000:1")
    assert np.array_equal(MG.rollout_values(state, 300, seed=5),
                          MG.rollout_values(state, 300, seed=5))
    with pytest.raises(ValueError, match="game under way"):
        MG.rollout_values(MG.initial_state(), 10)
    with pytest.raises(ValueError, match="DECIDE"):
        MG.rollout_values(MG.state(parse_position(MG, "01234/00000/55555/00000:1"), (3, 1)),
                          10)


def test_rollout_agent_takes_the_first_place_on_offer():
    """6-1 with checkers on 1 and 6: both off wins first place; 1/2/off leaves one."""
    state = MG.state(parse_position(MG, "16777/00000/00000/00000:0"), (6, 1))
    assert len(state.legal_actions()) > 1
    choice = make_agent("rollout:200", MG, 3).choose(state)
    assert format_play(choice) in {"1/off 6/off", "6/off 1/off"}


def test_rollout_agent_is_seeded_and_multi_gam_only():
    state = MG.state(parse_position(MG, "00000/00000/00000/00000:0"), (4, 2))
    first = {format_play(make_agent("rollout:100", MG, 7).choose(state)) for _ in range(3)}
    assert len(first) == 1
    with pytest.raises(InvalidOptionError, match="does not play"):
        make_agent("rollout", "backgammon")
    with pytest.raises(InvalidOptionError, match="at least 1"):
        make_agent("rollout:0", MG)


def test_greedy_rollout_player_hits_when_it_can():
    """1/4*/5 or 1/2/5 with 3-1: the greedy player of the rollouts takes the hit."""
    from gammon.kernels import multigam, tracks

    state = MG.state(parse_position(MG, "17777/47777/00000/00000:0"), (3, 1))
    plays, words = multigam.workspace(MG.players, MG.slots)
    board = np.frombuffer(state.position.board, np.int8).copy()
    count = tracks.generate_plays(board, 0, 3, 1, 1, MG.kernel.rules, plays, words)
    assert count == 2
    for _ in range(5):
        chosen = plays[multigam._greedy(plays, count, 0, MG.players, MG.slots)]
        assert chosen[1 * MG.slots + MG.slots - 1] == 1  # player 1's checker on the BAR


def test_greedy_rollouts_share_out_the_places():
    values = MG.rollout_values(rolled("00000/00000/00000/00000:1"), 2000, seed=3, greedy=True)
    assert values.sum() == pytest.approx(sum(SCORES))
    with pytest.raises(InvalidOptionError, match="policy is 'random' or 'greedy'"):
        make_agent("rollout:10:policy=smart", MG)
    assert make_agent("rollout", MG, 1).greedy
    assert not make_agent("rollout:10:policy=random", MG, 1).greedy
