"""Cube decisions for bots: cubeful equities from cubeless winning chances.

A bot's evaluator gives cubeless chances: the chance ``p`` to win, and the share of
each side's wins that are gammons (or better). From them, :class:`Chances` has the
average value of a win ``W`` and of a loss ``L`` (a gammon counts two).

**Money play** follows Janowski's model (as gnubg does): the cubeful equity is the
dead-cube equity ``p W - (1 - p) L`` and the equity of a perfectly live cube mixed by
the cube efficiency ``x`` (:data:`EFFICIENCY`, about two thirds in backgammon):
``E = (1 - x) E_dead + x E_live``. With a live cube the taker's take point is
``TP = (L - 1/2) / (W + L + 1/2)`` and the doubler's cash point
``CP = (L + 1) / (W + L + 1/2)``; the live equity is linear in ``p`` between the
points where the cube changes hands: owning the cube, from ``(0, -L)`` to ``(CP, 1)``;
with the cube in the middle, from ``(TP, -1)`` to ``(CP, 1)``; with the opponent
owning it, from ``(TP, -1)`` to ``(1, W)`` (flat beyond, where someone cashes).

The player on roll doubles when doubling is worth more than not: ``min(2 E_them, 1) >
E_now``, where ``E_them`` is the cubeful equity once the opponent owns the cube at
twice the value and 1 is what a drop pays (so a position too good to double, whose
``E_now`` is above 1, plays on for the gammon). The taker takes when owning the cube at
twice the value, ``2 E_mine``, is worth at least -1, and beavers when it is worth more
than nothing. Under the Jacoby rule (money, cube in the middle) and where the variant
counts every win single with the cube in play, gammons count single where they do.

**Match play** reads the Kazaross-XG2 match equity table (:func:`match_equity`; gnubg's
default, figures by Neil Kazaross, see ``gammon/stakes/data/kazaross-xg2.json``): each
decision compares the match-winning chances of no double, double/take and double/pass
with the cube dead after the double (no recube counted), gammons counted by the
match's needs. No doubling in the Crawford game; a cube that already wins the match is
not turned.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Janowski's cube efficiency: how much of a perfectly live cube's value play keeps.
EFFICIENCY = 0.68
#: Where the match equity table lies.
MET_FILE = Path(__file__).resolve().parent.parent / "stakes" / "data" / "kazaross-xg2.json"


@dataclass(frozen=True)
class Chances:
    """Cubeless chances of one player: ``win``, and the share of their wins and of their
    losses that are gammons (or better)."""

    win: float
    gammons: float = 0.0
    gammons_against: float = 0.0

    @property
    def win_value(self) -> float:
        """``W``: the average points of a win."""
        return 1.0 + self.gammons

    @property
    def lose_value(self) -> float:
        """``L``: the average points of a loss."""
        return 1.0 + self.gammons_against

    @property
    def equity(self) -> float:
        """Cubeless equity, points per cube value (the dead cube's)."""
        return self.win * self.win_value - (1.0 - self.win) * self.lose_value

    def flipped(self) -> Chances:
        """The same chances from the other side."""
        return Chances(1.0 - self.win, self.gammons_against, self.gammons)

    def single(self) -> Chances:
        """Every win counts one (Jacoby, no mars with the cube)."""
        return Chances(self.win)


# --- money --------------------------------------------------------------------------------

ME, CENTRE, THEM = "me", "centre", "them"


def live_equity(c: Chances, owner: str) -> float:
    """Equity per cube value with a perfectly live cube owned by ``owner`` (``ME``,
    ``CENTRE``, ``THEM``): Janowski's lines (module text)."""
    w, lose = c.win_value, c.lose_value
    take = (lose - 0.5) / (w + lose + 0.5)
    cash = (lose + 1.0) / (w + lose + 0.5)
    p = c.win
    if owner == ME:
        return 1.0 if p >= cash else -lose + (1.0 + lose) * p / cash
    if owner == THEM:
        return -1.0 if p <= take else -1.0 + (w + 1.0) * (p - take) / (1.0 - take)
    if p <= take:
        return -1.0
    if p >= cash:
        return 1.0
    return -1.0 + 2.0 * (p - take) / (cash - take)


def cubeful_equity(c: Chances, owner: str, efficiency: float = EFFICIENCY) -> float:
    """Janowski's cubeful equity per cube value: dead and live mixed by ``efficiency``."""
    return (1.0 - efficiency) * c.equity + efficiency * live_equity(c, owner)


@dataclass(frozen=True)
class CubeView:
    """What a cube decision is worth, in the units of the decision (money: points per
    current cube value; match: the chance to win the match): not doubling, double and
    take, double and pass, from the doubler's side."""

    no_double: float
    take: float
    drop: float

    @property
    def double(self) -> bool:
        """Whether the doubler should double."""
        return min(self.take, self.drop) > self.no_double

    @property
    def taker_takes(self) -> bool:
        """Whether the taker should take (the doubler's take worth no more than a drop)."""
        return self.take <= self.drop


def money_view(c: Chances, owner: str, jacoby: bool = False,
               efficiency: float = EFFICIENCY) -> CubeView:
    """The doubler's view in money play, with chances ``c`` and the cube at ``owner``
    (``CENTRE`` or ``ME``) before the double; ``jacoby``: the Jacoby rule is on."""
    now = c.single() if jacoby and owner == CENTRE else c
    return CubeView(cubeful_equity(now, owner, efficiency),
                    2.0 * cubeful_equity(c, THEM, efficiency), 1.0)


# --- match ----------------------------------------------------------------------------------


@functools.cache
def _table() -> tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]:
    data = json.loads(MET_FILE.read_text())
    pre = tuple(tuple(float(v) for v in row) for row in data["pre_crawford"])
    return pre, tuple(float(v) for v in data["post_crawford"])


def match_equity(need: int, other: int, post_crawford: bool = False) -> float:
    """The chance to win a match needing ``need`` points against ``other`` needing
    ``other`` (Kazaross-XG2); ``post_crawford``: the Crawford game has been played (the
    table's post-Crawford row, for the trailer against a leader needing one point)."""
    if need <= 0:
        return 1.0
    if other <= 0:
        return 0.0
    pre, post = _table()
    if post_crawford and (need == 1) != (other == 1):
        if need == 1:
            return 1.0 - post[min(other, len(post)) - 1]
        return post[min(need, len(post)) - 1]
    size = len(pre)
    return pre[min(need, size) - 1][min(other, size) - 1]


def dead_match_equity(c: Chances, need: int, other: int, cube: int,
                      post_crawford: bool) -> float:
    """The chance to win the match playing this game out at ``cube``, no one doubling
    again: wins and losses, single and gammon, weighted by the chances. A player who
    reaches one point away plays the Crawford game next (the table's pre-Crawford row
    for one away is that game's value)."""
    def me(a: int, b: int) -> float:
        return match_equity(a, b, post_crawford and (a == 1 or b == 1))

    win = ((1.0 - c.gammons) * me(need - cube, other)
           + c.gammons * me(need - 2 * cube, other))
    lose = ((1.0 - c.gammons_against) * me(need, other - cube)
            + c.gammons_against * me(need, other - 2 * cube))
    return c.win * win + (1.0 - c.win) * lose


def match_view(c: Chances, need: int, other: int, cube: int,
               post_crawford: bool = False) -> CubeView:
    """The doubler's view of a match cube decision (chances of winning the match)."""
    def me(a: int, b: int) -> float:
        return match_equity(a, b, post_crawford and (a == 1 or b == 1))

    return CubeView(dead_match_equity(c, need, other, cube, post_crawford),
                    dead_match_equity(c, need, other, 2 * cube, post_crawford),
                    me(need - cube, other))


# --- the bot's choice --------------------------------------------------------------------


def action_kind(action: Any) -> str | None:
    """``double``, ``no double``, ``take``, ``drop``, ``beaver``, ``raccoon`` or None,
    read from an action's class name or text."""
    text = f"{type(action).__name__} {action}".lower().replace("_", " ")
    for word, kind in (("no double", "no double"), ("nodouble", "no double"),
                       ("raccoon", "raccoon"), ("beaver", "beaver"), ("redouble", "double"),
                       ("double", "double"), ("take", "take"), ("accept", "take"),
                       ("drop", "drop"), ("pass", "drop"), ("decline", "drop"),
                       ("roll", "no double")):
        if word in text:
            return kind
    return None


def cube_choice(actions: list[Any], view: CubeView, answering: bool,
                beaver_worth: float | None = None) -> Any | None:
    """The cube action among ``actions``, or None when none of them is one.

    ``view`` is the doubler's (:func:`money_view`, :func:`match_view`); ``answering``:
    the player to act is the taker. ``beaver_worth``: in money play, the taker's
    equity per current cube value after taking (they beaver when it is above zero)."""
    kinds = {action_kind(a): a for a in actions}
    kinds.pop(None, None)
    if not kinds.keys() & {"double", "take", "beaver"}:
        return None  # not a cube decision (a "pass" or "reroll" of another game)
    if answering:
        if "beaver" in kinds and beaver_worth is not None and beaver_worth > 0.0:
            return kinds["beaver"]
        if "take" in kinds and view.taker_takes:
            return kinds["take"]
        return kinds.get("drop", kinds.get("take"))
    if "double" in kinds and view.double:
        return kinds["double"]
    return kinds.get("no double", kinds.get("double"))
