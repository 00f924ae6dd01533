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
points where the game can stop: the game's ends ``(0, -L)`` and ``(1, W)``, and, for
whoever may double, the point where the other passes: ``(CP, 1)`` when the cube is the
player's or in the middle, ``(TP, -1)`` when it is the opponent's or in the middle.
Beyond a cash point the holder of the cube may cash or play on for the gammon, so the
line goes on to the game's end (gnubg's lines).

The player on roll doubles when doubling is worth more than not: ``min(2 E_them, 1) >
E_now``, where ``E_them`` is the cubeful equity once the opponent owns the cube at
twice the value and 1 is what a drop pays (so a position too good to double, whose
``E_now`` is above 1, plays on for the gammon). The taker takes when owning the cube at
twice the value, ``2 E_mine``, is worth at least -1, and beavers when it is worth more
than nothing. Under the Jacoby rule (money, cube in the middle) and where the variant
counts every win single with the cube in play, gammons count single where they do.

**Match play** is the same model in match-winning chances (gnubg's way), from the
Kazaross-XG2 match equity table (:func:`match_equity`; gnubg's default, figures by Neil
Kazaross, see ``gammon/stakes/data/kazaross-xg2.json``). The dead cube's chance to win
the match is linear in ``p`` between losing and winning this game at the cube's value,
gammons counted by the match's needs. With a perfectly live cube it is linear between
the points where the cube changes hands, as in money play, but each point comes from the
table: a player's take point at a cube of ``2v`` is where owning that cube (with the
right to redouble at their own cash point, the opponent's take point at ``4v``) is worth
what a drop at ``v`` leaves; the recursion ends where a cube can no longer change who
wins the match (:func:`live_match_equity`). The cubeful chance mixes the two by the cube
efficiency, and each decision compares no double (the cube where it is, still alive),
double/take (the opponent owning it at twice the value) and double/pass. No doubling in
the Crawford game; post-Crawford the leader's cube is dead.

**Looking ahead** (gnubg's cubeful search): a bot that searches reads the decision one
or two rolls deep (:func:`view_ahead`). The positions after each roll, played, form a
tree (:class:`Ahead`); at every position below the root the side on roll doubles where
that pays and the other takes or drops, and the model above values only the leaves,
each with its own cube efficiency (:func:`efficiency`: gnubg's figures for contact,
races and bear-offs). Averaging cubeful equities instead of chances sees what the model
on averaged chances cannot: a roll that passes the cash point loses the doubler's
market, a bad one gives the opponent a redouble.
"""

from __future__ import annotations

import functools
import itertools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Cube equities closer than this (a ten-thousandth of a point, or of a match) are
#: taken as equal.
TIE = 0.0001
#: Janowski's cube efficiency: how much of a perfectly live cube's value play keeps
#: (gnubg's figure for positions with contact).
EFFICIENCY = 0.68
#: gnubg's efficiency in a race: ``0.55 + 0.00125`` a pip of the side on roll, kept
#: between 0.6 and 0.7 (a long race leaves the cube more time to turn), and in a bear-off.
RACE_EFFICIENCY = (0.55, 0.00125, 0.6, 0.7)
BEAROFF_EFFICIENCY = 0.6
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
    points = [(0.0, -lose)]
    if owner in (THEM, CENTRE):
        points.append((take, -1.0))
    if owner in (ME, CENTRE):
        points.append((cash, 1.0))
    points.append((1.0, w))
    return along(points, c.win)


def along(points: list[tuple[float, float]], p: float) -> float:
    """The piecewise-linear line through ``points`` (sorted by ``p``) at ``p``."""
    for (p0, v0), (p1, v1) in itertools.pairwise(points):
        if p <= p1:
            return v0 if p1 <= p0 else v0 + (v1 - v0) * (p - p0) / (p1 - p0)
    return points[-1][1]


def where(points: list[tuple[float, float]], value: float) -> float:
    """The first ``p`` at which the rising line through ``points`` reaches ``value`` (its
    ends when the line is all above or all below)."""
    if value <= points[0][1]:
        return points[0][0]
    for (p0, v0), (p1, v1) in itertools.pairwise(points):
        if value <= v1:
            return p0 if v1 <= v0 else p0 + (p1 - p0) * (value - v0) / (v1 - v0)
    return points[-1][0]


def cubeful_equity(c: Chances, owner: str, efficiency: float = EFFICIENCY) -> float:
    """Janowski's cubeful equity per cube value: dead and live mixed by ``efficiency``."""
    return (1.0 - efficiency) * c.equity + efficiency * live_equity(c, owner)


def efficiency(race: bool, bearoff: bool, pips: int) -> float:
    """The cube efficiency of a position (gnubg's): in contact :data:`EFFICIENCY`; in a
    race rising with the pip count ``pips`` of the side on roll; in a bear-off (both
    sides home) :data:`BEAROFF_EFFICIENCY`."""
    if bearoff:
        return BEAROFF_EFFICIENCY
    if not race:
        return EFFICIENCY
    base, per_pip, low, high = RACE_EFFICIENCY
    return min(max(base + per_pip * pips, low), high)


@dataclass(frozen=True)
class CubeView:
    """What a cube decision is worth, in the units of the decision (money: points per
    current cube value; match: the chance to win the match): not doubling, double and
    take, double and pass, from the doubler's side."""

    no_double: float
    take: float
    drop: float
    #: Whether a double can change anything (not in the Crawford game, not with a cube
    #: that a single win already cashes): when not, the doubler never doubles, and a
    #: take is what the taker would say.
    live: bool = True

    @property
    def double(self) -> bool:
        """Whether the doubler should double: when that is worth more, or as much (within
        :data:`TIE`) where the opponent should pass, as in a sure win without gammons:
        doubling ends the game there for what playing on would win."""
        answered = min(self.take, self.drop)
        return self.live and (answered > self.no_double
                              or (answered == self.drop and answered > self.no_double - TIE))

    @property
    def taker_takes(self) -> bool:
        """Whether the taker should take (the doubler's take worth no more than a drop)."""
        return not self.live or self.take <= self.drop


def money_view(c: Chances, owner: str, jacoby: bool = False,
               efficiency: float = EFFICIENCY) -> CubeView:
    """The doubler's view in money play, with chances ``c`` and the cube at ``owner``
    (``CENTRE`` or ``ME``) before the double; ``jacoby``: the Jacoby rule is on."""
    return view_ahead(Ahead(c, efficiency), MoneyStakes(jacoby), 1, owner)


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


@dataclass(frozen=True)
class Score:
    """A match seen from one player: the points they ``need``, the points the ``other``
    needs, and whether the Crawford game has been played (``post``: the table's
    post-Crawford row for the trailer against a leader needing one)."""

    need: int
    other: int
    post: bool = False

    def equity(self, need: int, other: int) -> float:
        """The chance to win the match from ``need`` against ``other``."""
        return match_equity(need, other, self.post and (need == 1 or other == 1))

    def swapped(self) -> Score:
        return Score(self.other, self.need, self.post)

    def win(self, c: Chances, cube: int) -> float:
        """The chance to win the match after winning this game at ``cube``."""
        return ((1.0 - c.gammons) * self.equity(self.need - cube, self.other)
                + c.gammons * self.equity(self.need - 2 * cube, self.other))

    def lose(self, c: Chances, cube: int) -> float:
        """... after losing it."""
        return ((1.0 - c.gammons_against) * self.equity(self.need, self.other - cube)
                + c.gammons_against * self.equity(self.need, self.other - 2 * cube))

    def may_double(self, cube: int, crawford: bool) -> bool:
        """Whether this player's double of ``cube`` can change the match: not in the
        Crawford game, nor when a single win at ``cube`` already wins it."""
        return not crawford and self.need > cube and self.other > 0


def dead_match_equity(c: Chances, need: int, other: int, cube: int,
                      post_crawford: bool) -> float:
    """The chance to win the match playing this game out at ``cube``, no one doubling
    again: wins and losses, single and gammon, weighted by the chances. A player who
    reaches one point away plays the Crawford game next (the table's pre-Crawford row
    for one away is that game's value)."""
    score = Score(need, other, post_crawford)
    return c.win * score.win(c, cube) + (1.0 - c.win) * score.lose(c, cube)


@functools.lru_cache(maxsize=4096)
def _take_point(c: Chances, score: Score, cube: int, crawford: bool) -> float:
    """The taker's (``score``'s player, chances ``c``) take point, as their chance to win
    this game, when doubled to ``cube`` (they then own it): where their live chance of
    the match owning it equals what dropping at ``cube // 2`` leaves (0 when a drop is
    worth no more than losing the game, 1 when it is worth more than winning it)."""
    drop = score.equity(score.need, score.other - cube // 2)
    return where(_live_line(c, score, cube, ME, crawford), drop)


def _live_line(c: Chances, score: Score, cube: int, owner: str,
               crawford: bool) -> list[tuple[float, float]]:
    """The points ``(p, match chance)`` through which the live cube's chance to win the
    match runs linearly, for ``score``'s player with chances ``c`` (its win chance
    ``p``), the cube at ``cube`` owned by ``owner``: the game's ends, the point where the
    opponent would pass this player's double, and the point where this player would
    pass the opponent's."""
    points = [(0.0, score.lose(c, cube))]
    them = score.swapped()
    if owner in (THEM, CENTRE) and them.may_double(cube, crawford):
        points.append((_take_point(c, score, 2 * cube, crawford),
                       score.equity(score.need, score.other - cube)))
    if owner in (ME, CENTRE) and score.may_double(cube, crawford):
        their_take = _take_point(c.flipped(), them, 2 * cube, crawford)
        points.append((1.0 - their_take, score.equity(score.need - cube, score.other)))
    points.append((1.0, score.win(c, cube)))
    # Where both cash points cross (each would double the other out), no p is played on.
    if len(points) == 4 and points[2][0] < points[1][0]:
        middle = (points[1][0] + points[2][0]) / 2
        points[1], points[2] = (middle, points[1][1]), (middle, points[2][1])
    return points


def live_match_equity(c: Chances, score: Score, cube: int, owner: str,
                      crawford: bool = False) -> float:
    """The chance to win the match with a perfectly live cube (module text)."""
    return along(_live_line(c, score, cube, owner, crawford), c.win)


def cubeful_match_equity(c: Chances, score: Score, cube: int, owner: str,
                         crawford: bool = False, efficiency: float = EFFICIENCY) -> float:
    """Janowski's interpolation in match-winning chances: the dead cube's and the live
    cube's mixed by ``efficiency``."""
    dead = dead_match_equity(c, score.need, score.other, cube, score.post)
    if crawford:
        return dead
    live = live_match_equity(c, score, cube, owner, crawford)
    return (1.0 - efficiency) * dead + efficiency * live


def match_view(c: Chances, need: int, other: int, cube: int,
               post_crawford: bool = False, owner: str = CENTRE, crawford: bool = False,
               efficiency: float = EFFICIENCY) -> CubeView:
    """The doubler's view of a match cube decision (chances of winning the match), the
    cube at ``cube`` owned by ``owner`` (``CENTRE`` or ``ME``) before the double."""
    return view_ahead(Ahead(c, efficiency), MatchStakes(Score(need, other, post_crawford),
                                                        crawford), cube, owner)


# --- looking ahead ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Ahead:
    """A position before a roll, as a cube decision looks at it: the doubler's cubeless
    ``chances`` there, the cube ``efficiency``, whether the game is ``over``, and, where
    the look goes deeper, the positions after each of the roller's rolls (played) with
    their probabilities. The root is the doubler's; each level down the other side
    rolls."""

    chances: Chances
    efficiency: float = EFFICIENCY
    over: bool = False
    rolls: tuple[tuple[float, Ahead], ...] = ()

    def averaged(self) -> Chances:
        """The doubler's cubeless chances as deep as the tree goes: the leaves' chances
        averaged over the rolls (gammons as shares of the averaged wins and losses)."""
        win, won_gammons, lost_gammons = self._sums()
        return Chances(win, won_gammons / max(win, 1e-9),
                       lost_gammons / max(1.0 - win, 1e-9))

    def _sums(self) -> tuple[float, float, float]:
        if not self.rolls:
            c = self.chances
            return c.win, c.win * c.gammons, (1.0 - c.win) * c.gammons_against
        sums = [0.0, 0.0, 0.0]
        for probability, child in self.rolls:
            for k, value in enumerate(child._sums()):
                sums[k] += probability * value
        return sums[0], sums[1], sums[2]


class MoneyStakes:
    """Money play seen from the doubler: equity in points (the root cube counts one)."""

    def __init__(self, jacoby: bool = False) -> None:
        self.jacoby = jacoby

    def leaf(self, c: Chances, x: float, value: int, owner: str) -> float:
        return value * cubeful_equity(c.single() if self.jacoby and owner == CENTRE else c,
                                      owner, x)

    def drop(self, value: int, doubler_drops: bool) -> float:
        return -value if doubler_drops else value

    def may_double(self, doubler: bool, value: int) -> bool:
        return True


class MatchStakes:
    """A match seen from the doubler: the chance to win the match."""

    def __init__(self, score: Score, crawford: bool = False) -> None:
        self.score, self.crawford = score, crawford
        self.them = score.swapped()

    def leaf(self, c: Chances, x: float, value: int, owner: str) -> float:
        return cubeful_match_equity(c, self.score, value, owner, self.crawford, x)

    def drop(self, value: int, doubler_drops: bool) -> float:
        need, other = self.score.need, self.score.other
        if doubler_drops:
            return self.score.equity(need, other - value)
        return self.score.equity(need - value, other)

    def may_double(self, doubler: bool, value: int) -> bool:
        return (self.score if doubler else self.them).may_double(value, self.crawford)


def _played_on(node: Ahead, stakes: MoneyStakes | MatchStakes, doubler_rolls: bool,
               value: int, owner: str) -> float:
    """The doubler's value of playing ``node``'s roll with the cube at ``value`` held by
    ``owner``: Janowski's at a leaf, else the average over the rolls, where the next
    roller may double and the other answer."""
    if not node.rolls:
        return stakes.leaf(node.chances, node.efficiency, value, owner)
    return sum(probability * _decided(child, stakes, not doubler_rolls, value, owner)
               for probability, child in node.rolls)


def _decided(node: Ahead, stakes: MoneyStakes | MatchStakes, doubler_rolls: bool,
             value: int, owner: str) -> float:
    """The doubler's value at ``node`` before a roll, the roller doubling where that is
    worth more to them than rolling, the other taking or dropping, whichever is worth
    more to them."""
    kept = _played_on(node, stakes, doubler_rolls, value, owner)
    roller_holds = ME if doubler_rolls else THEM
    if node.over or owner not in (CENTRE, roller_holds) \
            or not stakes.may_double(doubler_rolls, value):
        return kept
    taken = _played_on(node, stakes, doubler_rolls, 2 * value, THEM if doubler_rolls else ME)
    dropped = stakes.drop(value, not doubler_rolls)
    if doubler_rolls:
        return max(kept, min(taken, dropped))
    return min(kept, max(taken, dropped))


def view_ahead(root: Ahead, stakes: MoneyStakes | MatchStakes, cube: int,
               owner: str) -> CubeView:
    """The doubler's view at ``root`` (gnubg's cubeful search, as deep as ``root``'s
    rolls go): no double, double/take and double/pass, where at every position below
    the side to roll may double and the other answer; Janowski's model at the leaves.
    Unlike the model applied to averaged chances, this sees the market that a strong
    roll would lose and the redouble a bad one would give. Money figures are per cube
    value (``cube`` counts one)."""
    value = 1 if isinstance(stakes, MoneyStakes) else cube
    return CubeView(_played_on(root, stakes, True, value, owner),
                    _played_on(root, stakes, True, 2 * value, THEM),
                    stakes.drop(value, False), stakes.may_double(True, value))


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
