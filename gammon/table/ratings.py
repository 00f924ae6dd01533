"""Glicko-2 ratings (Mark E. Glickman, "Example of the Glicko-2 system", 2012).

A player's strength is a :class:`Rating`: the rating itself, its deviation (how sure it
is; 350 for a newcomer) and its volatility (how erratic the player's results are).
:func:`rate` is one rating period of Glickman's algorithm: every game the player played
in the period, against opponents as they stood at its start, each scored 1 for a win,
0 for a loss and 0.5 for a draw; a period without games only widens the deviation
(:func:`idle`). ``tau`` bounds how fast volatility may change (Glickman suggests 0.3 to
1.2; 0.5 here).

Written here rather than taken from a package: the algorithm is the paper's few
formulas, and of the packages on PyPI none is both maintained and typed; the tests
check it against the paper's worked example.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The Glicko-2 scale: ratings are 1500 + 173.7178 x the internal value.
SCALE = 173.7178
#: How finely the volatility is solved for (Glickman's epsilon).
EPSILON = 1e-6
TAU = 0.5


@dataclass(frozen=True)
class Rating:
    """A player's rating, its deviation and its volatility (a newcomer's by default)."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06

    def __post_init__(self) -> None:
        if not (math.isfinite(self.rating) and self.deviation > 0 and self.volatility > 0):
            raise ValueError(f"a rating needs a finite value and a positive deviation and "
                             f"volatility, not {self}")

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of the player's strength: two deviations either way."""
        return self.rating - 2 * self.deviation, self.rating + 2 * self.deviation


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / math.pi ** 2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def idle(player: Rating) -> Rating:
    """A rating period without games: the rating stays, its deviation widens."""
    phi = player.deviation / SCALE
    widened = math.sqrt(phi * phi + player.volatility ** 2)
    return Rating(player.rating, widened * SCALE, player.volatility)


def rate(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player`` after one rating period of ``results``: (opponent, score) pairs, the
    score 1, 0.5 or 0 from the player's side (Glickman's steps 1 to 8)."""
    if not results:
        return idle(player)
    for _, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a game scores 1 (a win), 0.5 (a draw) or 0, not {score}")
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    games = [((o.rating - 1500.0) / SCALE, o.deviation / SCALE, s) for o, s in results]
    # Steps 3 and 4: the estimated variance of the rating from the games alone, and the
    # improvement they suggest.
    v = 1.0 / sum(_g(phi_j) ** 2 * _expected(mu, mu_j, phi_j)
                  * (1.0 - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, _ in games)
    improvement = sum(_g(phi_j) * (s - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, s in games)
    delta = v * improvement
    # Step 5: the new volatility, by the Illinois algorithm on f(x) = 0.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    sigma_new = math.exp(low / 2.0)
    # Steps 6 to 8: the deviation widened by the volatility, then narrowed by the games.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / phi_star ** 2 + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(1500.0 + SCALE * mu_new, SCALE * phi_new, sigma_new)
