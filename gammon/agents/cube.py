"""Cube decisions for bots, from their winning chances.

A bot doubles and takes by simple, documented thresholds on its evaluator's cubeless
chances, the textbook rules of thumb rather than a cubeful evaluation:

- **Take** when the doubled game is worth more than dropping. In money play dropping
  costs the cube's value and taking risks twice the cubeless equity ``E`` (points per
  cube value, gammons included), so take when ``2 E > -1``, i.e. ``E >= -0.5``: the
  classic 25% take point when there are no gammons. In a match the take point comes
  from the match equities: ``(ME(drop) - ME(take, lose)) / (ME(take, win) -
  ME(take, lose))``, with ``ME`` from :func:`match_equity`.
- **Double** when the opponent's take is close to a mistake: the chance to win reaches
  the *double point*, ``1 - take point - 0.05`` (70% in money play: the window below
  the opponent's 75% drop point, as a player with cube access should keep). Never in
  the Crawford game, and not when **too good**: when the opponent would drop but
  playing on for a gammon is worth more than the point a drop gives (``E > 1``).
- **Beaver** (money play, when allowed) when the doubler is wrong by a wide margin:
  the taker's equity is positive.

:class:`CubePolicy` holds the thresholds; :func:`cube_choice` picks among the cube
actions of a state (duck-typed by their names: double, no double / roll, take, drop /
pass, beaver), so bots can play cube games and matches of the stakes layer.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

#: Margin below the opponent's drop point at which a bot doubles.
WINDOW = 0.05
#: Gammon rate per win assumed by the match equity table.
GAMMON_RATE = 0.2


@functools.cache
def match_equity(need: int, other: int, gammon_rate: float = GAMMON_RATE) -> float:
    """Chance to win a match needing ``need`` points against ``other`` needing
    ``other``, between equal players, each game won by either side with equal chances
    and a share ``gammon_rate`` of wins worth two points. Once one player needs a single
    point (post-Crawford) the other doubles at once, so their wins count twice. A simple
    table, not a reference one: it is what the take points are computed from."""
    if need <= 0:
        return 1.0
    if other <= 0:
        return 0.0
    single = 1.0 - gammon_rate
    mine = 2 if other == 1 and need > 1 else 1  # the trailer's free cube
    theirs = 2 if need == 1 and other > 1 else 1
    win = single * match_equity(need - mine, other, gammon_rate) + gammon_rate * match_equity(
        need - 2 * mine, other, gammon_rate)
    lose = single * match_equity(need, other - theirs, gammon_rate) + (
        gammon_rate * match_equity(need, other - 2 * theirs, gammon_rate))
    return 0.5 * win + 0.5 * lose


@dataclass(frozen=True)
class CubePolicy:
    """The thresholds of a bot's cube play (see the module text)."""

    window: float = WINDOW
    money_take_equity: float = -0.5
    too_good_equity: float = 1.0
    gammon_rate: float = GAMMON_RATE

    def take_point(self, taker_away: int = 0, doubler_away: int = 0, cube: int = 1) -> float:
        """The least chance to win at which a take is right: 0.25 in money play
        (``taker_away`` 0), else from :func:`match_equity` (a dead cube)."""
        if not taker_away:
            return 0.25
        me = functools.partial(match_equity, gammon_rate=self.gammon_rate)
        drop = me(taker_away, doubler_away - cube)
        lose = me(taker_away, doubler_away - 2 * cube)
        win = me(taker_away - 2 * cube, doubler_away)
        if win <= lose:
            return 0.0
        return min(max((drop - lose) / (win - lose), 0.0), 1.0)

    def should_take(self, win: float, equity: float, taker_away: int = 0,
                    doubler_away: int = 0, cube: int = 1) -> bool:
        """Take with chance ``win`` and cubeless ``equity`` (per cube value)?"""
        if not taker_away:
            return equity >= self.money_take_equity
        return win >= self.take_point(taker_away, doubler_away, cube)

    def should_double(self, win: float, equity: float, doubler_away: int = 0,
                      taker_away: int = 0, cube: int = 1, crawford: bool = False) -> bool:
        """Double with chance ``win`` and cubeless ``equity`` (per cube value)?"""
        if crawford:
            return False
        if doubler_away and doubler_away <= cube:
            return False  # the cube's value already wins the match: nothing to gain
        take_point = self.take_point(taker_away, doubler_away, cube)
        if win < 1.0 - take_point - self.window:
            return False
        opponent_drops = (1.0 - win) < take_point
        return not (opponent_drops and equity > self.too_good_equity)

    def should_beaver(self, win: float, equity: float) -> bool:
        """Beaver (money play) when the taker is the favourite."""
        return equity > 0.0


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


def cube_choice(actions: list[Any], win: float, equity: float, policy: CubePolicy | None = None,
                doubler_away: int = 0, taker_away: int = 0, cube: int = 1,
                crawford: bool = False) -> Any | None:
    """The cube action to take among ``actions`` with the chance ``win`` and cubeless
    ``equity`` of the player to act, or None when none of them is a cube action."""
    policy = policy or CubePolicy()
    kinds = {action_kind(a): a for a in actions}
    kinds.pop(None, None)
    if not kinds.keys() & {"double", "take", "beaver"}:
        return None  # not a cube decision (a "pass" or "reroll" of another game)
    if "take" in kinds or "drop" in kinds:
        if "beaver" in kinds and policy.should_beaver(win, equity):
            return kinds["beaver"]
        if "take" in kinds and policy.should_take(win, equity, taker_away, doubler_away, cube):
            return kinds["take"]
        return kinds.get("drop", kinds.get("take"))
    if "double" in kinds:
        if policy.should_double(win, equity, doubler_away, taker_away, cube, crawford):
            return kinds["double"]
        return kinds.get("no double")
    return None
