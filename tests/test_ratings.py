"""Glicko-2 (gammon.table.ratings) against Glickman's worked example, and its sense."""

from __future__ import annotations

import pytest

from gammon.table.ratings import Rating, idle, rate


def test_glickmans_worked_example():
    """The paper's player, 1500 with deviation 200, beats 1400/30 and loses to 1550/100
    and 1700/300: about 1464.06, deviation 151.52, volatility 0.05999."""
    after = rate(Rating(1500, 200, 0.06),
                 [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)])
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_period_without_games_widens_the_deviation_only():
    before = Rating(1700, 80, 0.06)
    after = idle(before)
    assert after.rating == 1700 and after.deviation > 80
    assert rate(before, []) == after


def test_a_win_raises_a_loss_lowers_a_draw_between_equals_keeps():
    newcomer = Rating()
    assert rate(newcomer, [(Rating(), 1.0)]).rating > 1500
    assert rate(newcomer, [(Rating(), 0.0)]).rating < 1500
    assert rate(newcomer, [(Rating(), 0.5)]).rating == pytest.approx(1500)
    # Beating a much stronger player moves the rating more than beating a weaker one.
    strong, weak = Rating(1900, 50), Rating(1100, 50)
    assert rate(newcomer, [(strong, 1.0)]).rating > rate(newcomer, [(weak, 1.0)]).rating
    # A sure rating moves less than a newcomer's for the same result.
    assert rate(Rating(1500, 50), [(Rating(), 1.0)]).rating < rate(newcomer,
                                                                   [(Rating(), 1.0)]).rating


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="scores 1"):
        rate(Rating(), [(Rating(), 2.0)])
    with pytest.raises(ValueError, match="positive deviation"):
        Rating(1500, 0)
