"""Compiled random games: one entry point per variant, ``rules.random_playouts``.

Each variant plays its own turn in its own kernel (two players alternating, Multi-Gam's
four seats, acey-deucey's extra rolls, Acedrex's combats). The shared move generator
(:class:`gammon.kernels.TrackKernel`) plays no whole games, so nobody can play a
two-player game on Multi-Gam's board by reaching past the variant.
"""

from __future__ import annotations

import numpy as np
import pytest

import gammon
from gammon.core.variant import TrackVariant, variant_classes

NAMES = [cls.name for cls in variant_classes()]


@pytest.mark.parametrize("name", NAMES)
def test_every_variant_plays_whole_random_games_from_its_own_entry_point(name: str) -> None:
    rules = gammon.variant(name)
    rows = rules.random_playouts(40, 11)
    assert isinstance(rows, np.ndarray) and rows.shape[0] == 40 and rows.shape[1] >= 3
    winners = rows[:, 0]
    # Finished games name a winner among the players (-1: cut off, -2: a draw).
    assert set(winners.tolist()) <= {-2, -1, *range(rules.players)}
    assert (winners >= 0).sum() >= 30
    assert (rows[winners >= 0, 1] > 0).all()  # the winner scores
    assert (rows[:, 2] > 0).all()  # decisions were made
    again = rules.random_playouts(40, 11)
    assert (again == rows).all()  # the seed fixes the games


def test_the_move_generator_plays_no_whole_games() -> None:
    for name in NAMES:
        rules = gammon.variant(name)
        if isinstance(rules, TrackVariant):
            assert not hasattr(rules.kernel, "random_playouts")


def test_multigam_games_are_four_player_games() -> None:
    rows = gammon.variant("multi-gam").random_playouts(300, 5)
    assert set(rows[:, 0].tolist()) == {0, 1, 2, 3}  # every seat wins some
