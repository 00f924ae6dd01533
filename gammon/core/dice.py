"""Dice rolls as chance outcomes with exact probabilities."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import accumulate

from gammon.core.errors import InvalidNotationError, InvalidOptionError


@dataclass(frozen=True, slots=True)
class Roll:
    """A chance outcome: the dice thrown.

    For an ordinary roll ``dice`` is the two dice, higher first. For an opening roll
    (``opening=True``) it is one die per player, in player order; ``players`` names the
    throwers when only some throw (a re-throw among tied players), in the same order.
    """

    dice: tuple[int, ...]
    opening: bool = False
    players: tuple[int, ...] = ()

    def __str__(self) -> str:
        return "".join(str(d) for d in self.dice)

    @property
    def is_double(self) -> bool:
        return len(self.dice) == 2 and self.dice[0] == self.dice[1]


class Outcomes(tuple[tuple[Roll, Fraction], ...]):
    """Chance outcomes with exact probabilities; also keeps their cumulative sums as
    floats, so that drawing one is a bisection rather than Fraction arithmetic."""

    cumulative: list[float]

    def __new__(cls, pairs: Iterable[tuple[Roll, Fraction]]) -> Outcomes:
        self = super().__new__(cls, pairs)
        if sum(p for _, p in self) != 1:
            raise ValueError("chance outcome probabilities must sum to 1")
        self.cumulative = list(accumulate(float(p) for _, p in self))
        return self

    def draw(self, point: float) -> Roll:
        """The outcome at ``point`` in [0, 1) of the cumulative distribution."""
        return self[min(bisect_right(self.cumulative, point), len(self) - 1)][0]


@cache
def two_dice(sides: int = 6) -> Outcomes:
    """The distinct rolls of two dice (21 for d6), higher die first, with probabilities."""
    total = sides * sides
    return Outcomes(
        (Roll((high, low)), Fraction(1 if high == low else 2, total))
        for high in range(sides, 0, -1)
        for low in range(high, 0, -1)
    )


@cache
def three_dice(sides: int = 6) -> Outcomes:
    """The distinct throws of three dice (56 for d6), high to low, with probabilities:
    each is as likely as the orders its dice may fall in."""
    total = sides ** 3
    return Outcomes(
        (Roll((a, b, c)), Fraction(6 // _alike_orders((a, b, c)), total))
        for a in range(sides, 0, -1)
        for b in range(a, 0, -1)
        for c in range(b, 0, -1)
    )


def _alike_orders(dice: tuple[int, ...]) -> int:
    # The orders of three dice that read the same: 6 for a triple, 2 for a pair, else 1.
    return {1: 6, 2: 2, 3: 1}[len(set(dice))]


def throws(count: int, sides: int = 6) -> Outcomes:
    """The throws of ``count`` dice (two or three) a turn."""
    return three_dice(sides) if count == 3 else two_dice(sides)


def dice_text(dice: tuple[int, ...]) -> str:
    """Dice as a person reads them: ``6-5``, ``6-5-1``."""
    return "-".join(str(d) for d in dice)


def _throws(players: int, sides: int) -> list[tuple[int, ...]]:
    throws: list[tuple[int, ...]] = [()]
    for _ in range(players):
        throws = [dice + (d,) for dice in throws for d in range(1, sides + 1)]
    return throws


def _equally_likely(throws: list[tuple[int, ...]]) -> Outcomes:
    p = Fraction(1, len(throws))
    return Outcomes((Roll(dice, opening=True), p) for dice in throws)


@cache
def one_die_each(players: int, sides: int = 6) -> Outcomes:
    """Every ordered throw of one die per player, equally likely (ties included: the
    stakes layer's automatic doubles are made of them)."""
    return _equally_likely(_throws(players, sides))


@cache
def opening_throws(players: int, sides: int = 6) -> Outcomes:
    """The throws that decide an opening of one die per player whose equal highest dice
    are thrown again: those whose highest die is one player's alone, equally likely
    (for two players, the 30 unequal throws, 1/30 each). Leaving out the throws that are
    thrown again keeps the distribution of what happens exact, and keeps a chance node
    from leading back to itself."""
    return _equally_likely([t for t in _throws(players, sides) if t.count(max(t)) == 1])


def is_decisive(dice: tuple[int, ...]) -> bool:
    """Whether an opening throw decides who starts (its highest die is one player's)."""
    return dice.count(max(dice)) == 1


def agreed_roll(written: tuple[int, ...] | None, text: str | None,
                sides: int = 6, count: int = 2) -> tuple[int, ...] | None:
    """The roll given as ``text`` (``--dice``) or ``written`` in a position's ID; both may
    be given only when they agree (:class:`InvalidOptionError` otherwise)."""
    rolled = None if text is None else parse_dice(text, sides, count)
    if rolled is not None and written is not None and rolled != tuple(written):
        raise InvalidOptionError(f"the ID has the dice {''.join(map(str, written))} but "
                                 f"--dice says {text}: give one")
    return rolled or written


def parse_dice(text: str, sides: int = 6, count: int = 2) -> tuple[int, ...]:
    """Read ``count`` dice (two or three) written ``31``, ``3-1``, ``3 1`` or ``3,1``
    (``631``, ``6-3-1``); highest first."""
    # A separator only between the dice: "-31" is not the roll 31.
    found = re.fullmatch(r"\s*(\d)" + r"\s*[-,/]?\s*(\d)" * (count - 1) + r"\s*", text)
    if found is None:
        example = "31, 3-1 or 66" if count == 2 else "631, 6-3-1 or 555"
        raise InvalidNotationError(
            f"dice {text!r}: write {'two' if count == 2 else 'three'} dice such as {example}")
    dice = [int(d) for d in found.groups()]
    for d in dice:
        if not 1 <= d <= sides:
            raise InvalidNotationError(f"dice {text!r}: each die is 1 to {sides}")
    return tuple(sorted(dice, reverse=True))
