"""The rules of the track games, declared in blocks.

A track game is a handful of small frozen blocks, each with one meaning: the
:class:`Track` (its points, its start and who meets whom), the :class:`Dice`, how
checkers enter (:class:`Entering`), what happens on contact (:class:`Contact`: hitting,
blocking or pinning) and what a checker that hit may do next (:class:`AfterHit`), the
:class:`Head` a side starts from, the points and primes a side may hold
(:class:`Blocking`), :class:`BearingOff`, and the game's :class:`Ending` and score.
Each block's defaults are standard backgammon's; a game states only the blocks, and in
them the fields, in which it differs (:class:`gammon.core.variant.TrackVariant` composes
them).

The compiled move generator reads the rules as one vector of integers. Its layout is
generated here, from the blocks' fields marked :func:`compiled`: the kernels name a
field by its block and field name (:func:`slot`), never by a number written by hand, and
:func:`rules_vector` fills the vector from a game's blocks in the same order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

#: Backgammon's start: each side's checkers as (own point, count).
BACKGAMMON_START = ((24, 2), (13, 5), (8, 3), (6, 5))


def compiled(default: Any, *, encode: Callable[[Any], int] = int,
             name: str | None = None) -> Any:
    """A block field the compiled move generator reads: one integer of the rules
    vector, ``encode(value)``, called ``name`` in the layout (the field's own name by
    default)."""
    return field(default=default, metadata={"compiled": (encode, name)})


def _bits(values: Iterable[int]) -> int:
    return sum(1 << v for v in values)


def _checkers(start: Iterable[tuple[int, int]]) -> int:
    return sum(count for _, count in start)


def _first_plays(plays: Iterable[tuple[int, int]]) -> int:
    # Bit n: a first play that took one checker n pips off the head (4n for a double,
    # which moves it four times).
    return _bits(4 * a if a == b else a + b for a, b in plays)


def _rolls(rolls: Iterable[tuple[int, int]]) -> int:
    return _bits(8 * max(a, b) + min(a, b) for a, b in rolls)


MOTHER_RULES = ("none", "wins", "draw")


@dataclass(frozen=True, slots=True)
class Track:
    """The board: points on each side's track and in its home board, the players, each
    side's start as (own point, checkers), and who meets whom.

    ``meeting``: ``"opposite"``, the sides go round the same points in opposite
    directions (one's point n is the other's 25 - n); ``"same-way"``, both go the same
    way round from opposite corners (one's point n is the other's n + 12, round);
    ``"shared"``, one track that every side goes round from the same end (a point is the
    same for everyone). A start on point ``points + 1`` is off the board, waiting to
    enter."""

    points: int = compiled(24)
    home: int = compiled(6)
    players: int = compiled(2)
    start: tuple[tuple[int, int], ...] = compiled(BACKGAMMON_START, encode=_checkers,
                                                  name="checkers")
    meeting: Literal["opposite", "same-way", "shared"] = "opposite"

    @property
    def checkers(self) -> int:
        return _checkers(self.start)

    def shared_slot(self, player: int, slot: int, other: int) -> int:
        """``other``'s number for ``player``'s point ``slot``."""
        if self.meeting == "shared":
            return slot
        if self.meeting == "same-way":
            half = self.points // 2
            return (slot - 1 + half) % self.points + 1
        return self.points + 1 - slot


@dataclass(frozen=True, slots=True)
class Dice:
    """The dice: ``sides`` faces each, ``count`` a throw (two, or three as in Tabula).
    The opening throw (one die each) picks who starts; with ``opening_plays_lot`` the
    starter plays those two dice, else throws afresh; with ``lot_choice`` the starter
    chooses which. A throw of three dice plays each die once, alike dice included (a
    lot of two dice is no such throw: the starter of a three-dice game throws afresh).

    A double of two dice is played four times. With ``complement``, a double played in full is
    followed, in the same turn, by its complement (each die's opposite face, ``sides +
    1 - n``) four times; with ``again``, a double played in full (and its complement,
    where there is one) earns the same player another throw. ``plain_entering``: a
    double thrown while a checker of the thrower waits to enter is played four times
    and nothing more. A part not played in full ends the turn."""

    sides: int = 6
    count: int = compiled(2, name="dice_count")
    opening_plays_lot: bool = compiled(True)
    lot_choice: bool = compiled(False)
    complement: bool = compiled(False, name="doubles_complement")
    again: bool = compiled(False, name="doubles_again")
    plain_entering: bool = compiled(False, name="doubles_plain_entering")

    def __post_init__(self) -> None:
        if self.count not in (2, 3):
            raise ValueError(f"a throw of {self.count} dice: two or three are played")
        if self.count == 3 and (self.opening_plays_lot or self.lot_choice
                                or self.follow_doubles):
            raise ValueError("three dice: the starter throws afresh, and no double is "
                             "followed (set opening_plays_lot, lot_choice, complement and "
                             "again off)")

    @property
    def follow_doubles(self) -> bool:
        """Whether a double can be followed by more in the same turn."""
        return self.complement or self.again


@dataclass(frozen=True, slots=True)
class Entering:
    """Checkers on the bar (or waiting off the board) coming onto the track.

    ``enter_first``: nothing else moves while one waits; ``must_enter``: a play must
    enter one when some play can, though not first; ``moves_on``: with ``enter_first``,
    in a roll of 2-1 the checker entered with one die may go on with the other
    (acey-deucey); ``hold_half``: while one of its side waits, no checker goes on into
    the second half of its way (points ``points / 2`` and below: Tabula's start without
    ``enter_first``)."""

    enter_first: bool = compiled(True)
    must_enter: bool = compiled(False)
    moves_on: bool = compiled(False, name="acey_moves_on")
    hold_half: bool = compiled(False)


@dataclass(frozen=True, slots=True)
class Contact:
    """What a checker meets: ``block`` opposing checkers close a point; with
    ``hitting`` a lone opposing checker landed on goes to the bar, without it any
    opposing checker blocks, unless ``pinning``: a lone opposing checker landed on lies
    pinned under the lander, unable to move until every checker on top has left, the
    point closed to its owner (positions carry a pin row).

    With pinning, ``pinned_holds_bear_off``: a pinned checker in its owner's home board
    keeps the owner from bearing off; ``mother``: the last checker on a side's start
    pinned there, ``"wins"`` for the pinner once the pinner's own start is empty (both
    so pinned: a draw), ``"draw"`` only the draw, ``"none"`` neither."""

    hitting: bool = compiled(True)
    block: int = compiled(2)
    pinning: bool = compiled(False, name="pins")
    pinned_holds_bear_off: bool = compiled(False)
    mother: Literal["none", "wins", "draw"] = compiled("none", encode=MOTHER_RULES.index)


@dataclass(frozen=True, slots=True)
class AfterHit:
    """What a checker that hit may not do in the same turn: ``no_hide``, go on to a
    point its owner holds; ``no_bear_off``, be borne off; ``no_run``, move again.
    ``home_only``: these bind only a checker that hit in its owner's home board."""

    no_hide: bool = compiled(False, name="no_hit_and_hide")
    no_bear_off: bool = compiled(False, name="no_bear_off_hitter")
    no_run: bool = compiled(False, name="no_hit_and_run")
    home_only: bool = compiled(False, name="hitter_home_only")


@dataclass(frozen=True, slots=True)
class Head:
    """Leaving the start.

    ``slot``: the head, the point only one checker may leave a turn (0: no head rule);
    ``doubles``: first-roll doubles that may take two from it (the starter's only,
    unless ``doubles_both``); ``wide_after`` and ``wide_rolls``: the second player's
    wider exception, after the starter's first play was one of ``wide_after`` a first
    roll among ``wide_rolls`` may take two; ``first_past``: no second checker leaves the
    start before one has gone past this point of its owner's (0: no such rule; Fevga's
    12, the opponent's start; Jacquet's 7, the courier into the last quarter)."""

    slot: int = compiled(0, name="head")
    doubles: tuple[int, ...] = compiled((), encode=_bits, name="head_doubles")
    doubles_both: bool = compiled(True, name="head_doubles_both")
    wide_after: tuple[tuple[int, int], ...] = compiled((), encode=_first_plays,
                                                       name="head_wide_after")
    wide_rolls: tuple[tuple[int, int], ...] = compiled((), encode=_rolls,
                                                       name="head_wide_rolls")
    first_past: int = compiled(0)


@dataclass(frozen=True, slots=True)
class Blocking:
    """The points and primes a side may hold.

    ``six_block``: no six points in a row unless an opposing checker is ahead of them;
    ``prime_must_open``: six in a row with every opposing checker behind them are opened
    by the next play that can; ``start_quarter_open``: never all six points of the own
    starting quarter; ``front_prime_open``: not the six points just past an opponent's
    start while it holds checkers; ``opponent_quarter_limit``: at most that many points
    of an opponent's starting quarter (0: any); ``quarters_at_end``: the quarter limits
    judge the board a play leaves, not each single move."""

    six_block: bool = compiled(False)
    prime_must_open: bool = compiled(False)
    start_quarter_open: bool = compiled(False)
    front_prime_open: bool = compiled(False)
    opponent_quarter_limit: int = compiled(0)
    quarters_at_end: bool = compiled(False)


@dataclass(frozen=True, slots=True)
class BearingOff:
    """Bearing off: ``all_home``, only once every checker is in the home board;
    ``larger``, a die above the highest point bears off the highest checker;
    ``home_only``, once all are home checkers only bear off; ``home_lock``, a checker
    at home may not move until the whole side is home."""

    all_home: bool = compiled(True, name="bear_off_all_home")
    larger: bool = compiled(True, name="bear_off_larger")
    home_only: bool = compiled(False, name="home_only_bear_off")
    home_lock: bool = compiled(False)


@dataclass(frozen=True, slots=True)
class Ending:
    """The game's end and its score: the first side off wins 1, 2 with ``gammons``
    when the loser has borne off nothing, 3 with ``backgammons`` when the loser also
    still has a checker on the bar or in the winner's home board; ``last_roll``: after
    the starter finishes the other side has one more turn, finishing then a draw;
    ``no_mars_with_cube``: with the cube in play every win counts single (the stakes'
    default); ``result_names``: what a win of 1, 2 and 3 is called."""

    gammons: bool = compiled(True)
    backgammons: bool = compiled(True)
    last_roll: bool = compiled(False)
    no_mars_with_cube: bool = False
    result_names: tuple[str, str, str] = ("single game", "gammon", "backgammon")


#: The blocks of a track game, by the name a game holds each under.
BLOCKS: Mapping[str, type] = {
    "track": Track, "dice": Dice, "entering": Entering, "contact": Contact,
    "after_hit": AfterHit, "head": Head, "blocking": Blocking,
    "bearing_off": BearingOff, "ending": Ending,
}


def _layout() -> dict[str, tuple[str, str, Callable[[Any], int]]]:
    layout: dict[str, tuple[str, str, Callable[[Any], int]]] = {}
    for block_name, block in BLOCKS.items():
        for spec in dataclasses.fields(block):
            if "compiled" not in spec.metadata:
                continue
            encode, name = spec.metadata["compiled"]
            name = name or spec.name
            if name in layout:
                raise TypeError(f"two compiled rules called {name}")
            layout[name] = (block_name, spec.name, encode)
    return layout


#: The compiled rules in the order of the vector: name -> (block, field, encoder).
LAYOUT = _layout()
#: The rules vector's length; the kernels keep their crossing table after it.
RULES_LENGTH = len(LAYOUT)


def slot(name: str) -> int:
    """The index of the compiled rule ``name`` in the rules vector."""
    return list(LAYOUT).index(name)


def rules_vector(blocks: Mapping[str, Any]) -> list[int]:
    """The compiled rules of a game whose blocks are ``blocks`` (by :data:`BLOCKS`'
    names), in the layout's order."""
    return [int(encode(getattr(blocks[block], name)))
            for block, name, encode in LAYOUT.values()]
