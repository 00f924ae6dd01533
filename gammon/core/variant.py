"""The rules object of the track games, and the registry of variants.

A :class:`TrackVariant` states the rules of one game: board size, start layout, who
meets whom, hitting and blocking, entering, bearing off, the opening, scoring. Shared
mechanics live here once; a variant module overrides only the fields and hooks in
which its game differs. Options of a variant are the dataclass fields of its class:
named, typed, validated in ``__post_init__`` and listed by ``gammon variants``.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import types
import typing
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Protocol, overload

import numpy as np

from gammon.core.dice import Outcomes, Roll, dice_text, is_decisive, opening_throws, throws
from gammon.core.errors import IllegalOutcomeError, IllegalPlayError, InvalidOptionError
from gammon.core.play import Move, Play
from gammon.core.position import Position
from gammon.core.protocol import GameType, Phase, RandomSource, Rules
from gammon.kernels import TrackKernel, tracks, writable_boards
from gammon.rules.blocks import (
    BLOCKS,
    AfterHit,
    BearingOff,
    Blocking,
    Contact,
    Dice,
    Ending,
    Entering,
    Head,
    Track,
    rules_vector,
)

#: Memo of a game whose starter has borne off and whose other player has one last turn.
LAST_ROLL = "last roll"
#: Memo of a game drawn because both sides' mothers lie pinned (Plakoto, Tapa).
MOTHERS_PINNED = "both mothers pinned"
#: Memo of a state whose dice are the complement of a double just played (``Dice``'s
#: ``complement``, Russian backgammon).
COMPLEMENT = "complement"
#: Memo of the starter's choice after the opening lot (``Dice``'s ``lot_choice``).
LOT = "the lot"


@dataclass(frozen=True, slots=True)
class LotChoice:
    """The starter's decision after the opening lot (``Dice``'s ``lot_choice``): play
    the two dice of the lot (``keep``) or throw both dice again. ``label`` is what a
    person types; ``str`` is how a record writes it."""

    keep: bool

    @property
    def label(self) -> str:
        return "play" if self.keep else "throw"

    def __str__(self) -> str:
        return "play the lot" if self.keep else "throw again"


#: The two choices, in the order they are offered.
LOT_CHOICES = (LotChoice(True), LotChoice(False))



@dataclass(frozen=True, slots=True)
class GameState:
    """Everything needed to continue a game.

    ``position.turn`` is the player to move at DECIDE, and the player about to roll at
    CHANCE (during the opening roll it is 0 and has no meaning). ``dice`` are the dice
    the player must play at DECIDE. ``moves`` counts the plays made so far. ``memo`` is
    what a variant must remember beyond that (first-roll flags, a pending extra roll,
    finishing order...): an immutable value of the variant's own choosing, None when the
    variant needs nothing.
    """

    variant: TrackVariant
    position: Position
    phase: Phase = Phase.CHANCE
    dice: tuple[int, ...] = ()
    opening: bool = True
    moves: int = 0
    memo: Any = None
    #: The legal plays once computed (states are values, so they never change).
    _legal: Sequence[Any] | None = field(default=None, compare=False, repr=False)

    @property
    def current_player(self) -> int | None:
        """The player to act at DECIDE; None at CHANCE and TERMINAL."""
        return self.position.turn if self.phase is Phase.DECIDE else None

    @property
    def players(self) -> int:
        return self.position.players

    @property
    def is_chance(self) -> bool:
        return self.phase is Phase.CHANCE

    @property
    def is_terminal(self) -> bool:
        return self.phase is Phase.TERMINAL

    def chance_outcomes(self) -> Sequence[tuple[Roll, Fraction]]:
        """Every outcome of the pending throw with its exact probability."""
        if self.phase is not Phase.CHANCE:
            raise ValueError(f"no dice to throw in the {self.phase.value} phase")
        return self.variant.chance_outcomes(self)

    def legal_actions(self) -> Sequence[Any]:
        """The legal actions of the player to move: the plays of the dice, one per
        distinct resulting position (a :class:`~gammon.core.variant.LegalPlays`), or a
        variant's own choices."""
        if self.phase is not Phase.DECIDE:
            raise ValueError(f"no decision to make in the {self.phase.value} phase")
        legal = self._legal
        if legal is None:
            legal = self.variant.legal_plays(self)
            object.__setattr__(self, "_legal", legal)
        return legal

    def apply(self, outcome_or_action: Any) -> GameState:
        """The state after a chance outcome (at CHANCE) or an action (at DECIDE)."""
        if self.phase is Phase.CHANCE:
            return self.variant.apply_roll(self, outcome_or_action)
        if self.phase is Phase.DECIDE:
            return self.variant.apply_action(self, outcome_or_action)
        raise ValueError("the game is over")

    def returns(self) -> tuple[float, ...]:
        """Each player's result: zero until the game is over."""
        if self.phase is not Phase.TERMINAL:
            return (0.0,) * self.position.players
        return self.variant.returns(self)

    @property
    def winner(self) -> int | None:
        """The player with the best result once the game is over; None before, and for
        a draw (everyone's result the same)."""
        if self.phase is not Phase.TERMINAL:
            return None
        results = self.returns()
        if min(results) == max(results):
            return None
        return max(range(len(results)), key=results.__getitem__)

    def sample_chance(self, rng: RandomSource) -> Roll:
        """Draw a chance outcome with its probability, with one ``rng.random()``."""
        outcomes = self.chance_outcomes()
        if not isinstance(outcomes, Outcomes):
            outcomes = Outcomes(outcomes)
        return outcomes.draw(rng.random())


# GameState made without the frozen dataclass's ``object.__setattr__`` by name (half the
# time): the states every roll and play of every game makes.
_new = object.__new__
_FIELDS = tuple(GameState.__dict__[name].__set__ for name in (
    "variant", "position", "phase", "dice", "opening", "moves", "memo", "_legal"))


def made_state(variant: TrackVariant, position: Position, phase: Phase,
               dice: tuple[int, ...], moves: int, memo: Any) -> GameState:
    """``GameState(variant, position, phase, dice, False, moves, memo)``, made fast: a
    state past the opening, from parts the rules made."""
    state = _new(GameState)
    set_variant, set_position, set_phase, set_dice, set_opening, set_moves, set_memo, \
        set_legal = _FIELDS
    set_variant(state, variant)
    set_position(state, position)
    set_phase(state, phase)
    set_dice(state, dice)
    set_opening(state, False)
    set_moves(state, moves)
    set_memo(state, memo)
    set_legal(state, None)
    return state


def most_plays(checkers: int, dice: int = 2) -> int:
    """A bound no decision of a track game exceeds: the distinct legal plays of one roll
    of ``dice`` dice (two or three) for a mover with ``checkers`` checkers, the size of
    the environments' action space.

    A play is at most four moves of one die (a double) and the move generator lists
    distinct results. Of a double, a result is fixed by how many of its moves each
    checker makes (a checker moved ``k`` times by the die goes the one way there is, and
    what it hits, pins or passes is fixed by that way), so the plays of ``m`` moves are at
    most the multisets of ``m`` checkers, ``C(checkers + m - 1, m)``; of two different
    dice, ``2 * checkers`` plays of one move and ``checkers ** 2 + checkers`` of two (one
    checker takes either die first). Summing the double's lengths 1 to 4 (so that plays
    of different lengths would be covered too) gives ``C(c + 3, 4) + C(c + 2, 3) +
    C(c + 1, 2) + c``, more than the two dice's ``c ** 2 + 3 * c``: 3,875 for fifteen
    checkers, 125 for Multi-Gam's five, 34 for three. Never more than the generator holds
    (:data:`gammon.kernels.tracks.MAX_PLAYS`). The largest decision found: 2,140 plays of
    1-1 for backgammon (fifteen checkers spread on fifteen points, by a search of random
    and then improved layouts; ``tests/test_envs_vector_gym.py`` plays one of 2,066).

    Of three dice, a play of ``m`` moves takes ``m`` of the dice in some order, each by
    a checker: at most ``3! / (3 - m)! * c ** m`` results, 21,645 for fifteen checkers
    (those of a triple, a double's multisets of three, are fewer).
    """
    if dice == 3:
        bound = sum(math.perm(3, moves) * math.prod([checkers] * moves) for moves in (1, 2, 3))
        return max(1, min(bound, tracks.MAX_PLAYS))
    doubles = sum(math.comb(checkers + moves - 1, moves)
                  for moves in range(1, tracks.MAX_DICE + 1))
    bound = max(doubles, checkers * checkers + 3 * checkers)
    return max(1, min(bound, tracks.MAX_PLAYS))

@dataclass(frozen=True)
class TrackVariant:
    """A game in which checkers race along a track of points, moved by two dice.

    The rules are the blocks of :mod:`gammon.rules.blocks` (``track``, ``contact``,
    ``ending``...), class attributes a variant states where its game differs; dataclass
    fields of subclasses are the options a player may set, and an option that changes
    a rule replaces that block's field (:meth:`_set_blocks`).
    """

    name: ClassVar[str]
    summary: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    #: Other names that also set options, such as ``hypergammon-2``.
    presets: ClassVar[dict[str, dict[str, Any]]] = {}
    #: How turns go (a static fact, as OpenSpiel's GameType states them): ``alternate``,
    #: the sides take turns of one roll of two dice each, the turn ending with the play
    #: (what the compiled board search and kernels assume); ``own``: the variant's module
    #: has turns of its own (extra rolls, a choice of doubles, more players' order).
    turns: ClassVar[str] = "alternate"

    # The rules, in blocks (gammon.rules.blocks), standard backgammon's by default: a
    # game states the blocks in which it differs, and a block an option changes is
    # replaced in its ``__post_init__`` (:meth:`_set_blocks`).
    track: ClassVar[Track] = Track()
    dice: ClassVar[Dice] = Dice()
    entering: ClassVar[Entering] = Entering()
    contact: ClassVar[Contact] = Contact()
    after_hit: ClassVar[AfterHit] = AfterHit()
    head: ClassVar[Head] = Head()
    blocking: ClassVar[Blocking] = Blocking()
    bearing_off: ClassVar[BearingOff] = BearingOff()
    ending: ClassVar[Ending] = Ending()

    # What the variant is, for the layers above (:class:`gammon.core.protocol.Rules`).
    board: ClassVar[str] = "track"
    notation: ClassVar[str] = "gnu"
    move_text: ClassVar[str] = "gnubg"
    evaluator: ClassVar[str] = "track"
    think_seconds: ClassVar[float] = 0.1
    cube: ClassVar[bool] = True
    table_options: ClassVar[Mapping[str, tuple[int, int]]] = {}
    #: The family of games whose evaluation (weights, network) fits this one:
    #: ``backgammon``, ``hypergammon``, ``nardy``, ``acey`` or ``multigam``.
    family: ClassVar[str] = "backgammon"
    #: What each place scores with more than two players (first place first); empty
    #: for two-player games, which score by ``winner_points``.
    place_scores: ClassVar[tuple[int, ...]] = ()

    def _set_blocks(self, **changes: Any) -> None:
        """Replace fields of the rule blocks as a variant's options say (from its
        ``__post_init__``: the rules object is frozen once made):
        ``self._set_blocks(ending={"gammons": False})``."""
        for block, fields in changes.items():
            object.__setattr__(self, block, dataclasses.replace(getattr(self, block), **fields))
        for fact in ("players", "points", "home", "sides", "checkers", "slots", "throws",
                     "thrown", "turn_rules", "crossings"):
            self.__dict__.pop(fact, None)

    def blocks(self) -> dict[str, Any]:
        """The game's rule blocks, by name (what :func:`gammon.rules.rules_vector`
        compiles)."""
        return {name: getattr(self, name) for name in BLOCKS}

    # The board's plain facts, read everywhere (and on the Python API's every step),
    # from the track and the dice; kept once read, until a block is replaced.
    @functools.cached_property
    def players(self) -> int:
        return self.track.players

    @functools.cached_property
    def points(self) -> int:
        return self.track.points

    @functools.cached_property
    def home(self) -> int:
        return self.track.home

    @functools.cached_property
    def sides(self) -> int:
        return self.dice.sides

    @functools.cached_property
    def checkers(self) -> int:
        return self.track.checkers

    @functools.cached_property
    def throws(self) -> Outcomes:
        """The throws of a turn after the opening (21 of two dice, 56 of three)."""
        return throws(self.dice.count, self.sides)

    @functools.cached_property
    def thrown(self) -> dict[Roll, tuple[int, ...]]:
        """Each throw of :attr:`throws` and its dice, high to low: a throw found here
        needs no checking."""
        return {roll: roll.dice for roll, _ in self.throws}

    @functools.cached_property
    def turn_rules(self) -> tuple[bool, bool, bool]:
        """What a play's end asks of the rules: whether a pinned mother may end the game,
        whether the last roll is played, whether a double may be followed."""
        return (self.contact.mother != "none", self.ending.last_roll,
                self.dice.follow_doubles)

    @property
    def result_names(self) -> tuple[str, str, str]:
        return self.ending.result_names

    def result_name(self, level: int, article: bool = True) -> str:
        """``"a gammon"``: what a win of ``level`` (1-3) is called in this game."""
        if not 1 <= level <= len(self.result_names):
            return f"{level} points"
        name = self.result_names[level - 1]
        if not article:
            return name
        return ("an " if name[0] in "aeiou" else "a ") + name

    def start_layout(self) -> dict[int, int]:
        """Each player's starting checkers as ``{own slot: count}``."""
        return dict(self.track.start)

    # --- what people are told (gammon.core.protocol.Rules); variants add to it ---------

    def decision_prompt(self, state: GameState) -> str | None:
        """What a person is asked at a decision that is not a play: the starter's choice
        after the lot, where the dice allow one."""
        if state.memo == LOT and state.phase is Phase.DECIDE:
            high, low = state.dice
            return f"play the lot's {high}-{low} (play) or throw both dice again (throw)"
        return None

    def announce(self, before: GameState, taken: Any,
                 after: GameState) -> list[tuple[int | None, str]]:
        """What the rules made of a step that a player should be told: what follows a
        double, in the games where more may (``Dice``'s ``complement`` and ``again``)."""
        if (not self.dice.follow_doubles or before.phase is not Phase.DECIDE
                or after.is_terminal or not isinstance(taken, Play)):
            return []
        if len(before.dice) != 2 or before.dice[0] != before.dice[1]:
            return []
        high, low = before.dice
        mover = before.position.turn
        what = "the complement " if before.memo == COMPLEMENT else ""
        if after.phase is Phase.DECIDE and after.position.turn == mover:
            n = after.dice[0]
            return [(mover, f"played {high}-{low} in full: the complement {n}-{n} follows.")]
        if after.phase is Phase.CHANCE and after.position.turn == mover:
            return [(mover, f"played {what}{high}-{low} in full: another throw.")]
        if taken.moves and len(taken.moves) < tracks.MAX_DICE:
            return [(mover, f"could not play all four moves of {what}{high}-{low}: the "
                            "turn ends.")]
        return []

    def no_move_reason(self, state: GameState) -> str | None:
        """Why the player to move cannot move when a rule, not the board, stops them."""
        return None

    def ranking(self, state: GameState) -> tuple[int, ...]:
        """The players who have finished, in the order they finished (here: those with
        every checker off, in player order; a variant that keeps the order says so)."""
        position = state.position
        return tuple(p for p in range(position.players) if position.off(p) == self.checkers)

    def in_play(self, state: GameState, player: int) -> bool:
        """Whether ``player`` still plays in this game: not all borne off."""
        return not state.is_terminal and state.position.off(player) < self.checkers

    def shared_slot(self, player: int, slot: int, other: int) -> int:
        """``other``'s slot number for ``player``'s point ``slot`` (the track's
        ``meeting``)."""
        return self.track.shared_slot(player, slot, other)

    @functools.cached_property
    def crossings(self) -> dict[tuple[int, int], tuple[int, ...]]:
        """For each ``(player, other)``: ``other``'s slot of each of ``player``'s points
        (index 0 unused), :meth:`shared_slot` read once."""
        return {(p, q): (0, *(self.shared_slot(p, slot, q) for slot in range(1, self.points + 1)))
                for p in range(self.players) for q in range(self.players) if p != q}

    # --- derived rules -----------------------------------------------------------

    @functools.cached_property
    def slots(self) -> int:
        return self.points + 2

    def options(self) -> dict[str, Any]:
        """The options this rules object was built with."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @functools.cached_property
    def game_type(self) -> GameType:
        follow = self.dice.follow_doubles
        count = self.dice.count
        # A turn of more than one throw, a decision that is not a play, or a throw of
        # three dice, is not the turn the compiled board search and environment play.
        own = follow or self.dice.lot_choice or count != 2
        return GameType(
            players=self.players, turns="own" if own else self.turns, board=self.board,
            checkers=True, cascades=follow, dice=count,
            stakes=self.players == 2, max_actions=most_plays(self.checkers, count),
            chance=f"{'two' if count == 2 else 'three'} {self.sides}-sided dice a turn"
            + (", one each to open" if self.players == 2 else ""),
            results=1 + int(self.ending.gammons) + int(self.ending.gammons
                                                      and self.ending.backgammons),
            pins=self.contact.pinning, last_roll=self.ending.last_roll)

    @functools.cached_property
    def kernel(self) -> TrackKernel:
        fields = np.array(rules_vector(self.blocks()), np.int64)
        cross = np.zeros((self.players, self.players, self.slots), np.int64)
        for p in range(self.players):
            for q in range(self.players):
                if p != q:
                    for s in range(1, self.points + 1):
                        cross[p, q, s] = self.shared_slot(p, s, q)
        return TrackKernel(np.concatenate([fields, cross.ravel()]), self.players, self.slots,
                           self.points if self.contact.pinning else 0)

    def random_playouts(
        self, games: int, seed: int | None, max_turns: int = 10000
    ) -> np.ndarray:
        """``games`` whole random games in the compiled kernel, from the start.

        Rows of (winner, points won, plays made); winner -1 when ``max_turns`` ran out,
        -2 for a draw. ``seed`` reseeds the compiled generator; None continues its stream.
        The compiled turn is the two-player alternation of this class: a variant whose
        turns go otherwise overrides this with its own kernel.
        """
        plays, words = self.kernel.workspace()
        if seed is not None:
            tracks.seed_kernels(seed)
        start = np.frombuffer(self.start_position().kernel_row, np.int8).copy()
        rows: np.ndarray = tracks.random_playouts(games, start, self.kernel.rules, max_turns,
                                                  plays, words)
        return rows

    # --- states ------------------------------------------------------------------

    def start_position(self, turn: int = 0) -> Position:
        start = Position.from_points([self.start_layout()] * self.players, self.points, turn)
        return self.with_pin_row(start)

    def with_pin_row(self, position: Position) -> Position:
        """``position`` with the pin row a game that pins keeps (nothing pinned, where
        it has none); any other game's positions as they are."""
        if self.contact.pinning and not position.pins:
            return Position(position.board, position.players, position.turn,
                            bytes(self.points))
        return position

    def initial_state(self) -> GameState:
        """A new game, before the opening roll."""
        return GameState(self, self.start_position())

    def state(self, position: Position, dice: tuple[int, ...] | None = None) -> GameState:
        """A mid-game state: ``position.turn`` to play ``dice`` (as many as the game
        throws), or to roll if None."""
        position = self.with_pin_row(position)
        self.check_position(position)
        done = [p for p in range(self.players) if position.off(p) == self.checkers]
        # With the last roll, one side off may be the other side's turn to roll once more.
        if done and self.players == 2 and not (self.ending.last_roll and len(done) == 1):
            raise InvalidOptionError(f"the game is over in this position: player {done[0]} has "
                                     "borne off every checker; give a position still in play")
        if dice is None:
            return GameState(self, position, Phase.CHANCE, opening=False)
        if len(dice) != self.dice.count:
            raise InvalidOptionError(f"dice {dice}: {self.name} throws {self.dice.count} dice")
        if not all(1 <= d <= self.sides for d in dice):
            raise InvalidOptionError(f"dice {dice}: each die is 1 to {self.sides}")
        return GameState(self, position, Phase.DECIDE, tuple(sorted(dice, reverse=True)),
                         opening=False)

    def check_position(self, position: Position) -> None:
        """Raise if ``position`` does not fit this variant's board and checkers."""
        if position.players != self.players or position.points != self.points:
            raise InvalidOptionError(
                f"{self.name} needs {self.players} players on {self.points} points, "
                f"not {position.players} on {position.points}"
            )
        for p in range(self.players):
            if sum(position.row(p)) != self.checkers:
                raise InvalidOptionError(
                    f"player {p} has {sum(position.row(p))} checkers; {self.name} has "
                    f"{self.checkers}"
                )
        if self.contact.pinning:
            self.check_pins(position)
        elif position.pins:
            raise InvalidOptionError(f"{self.name} pins nothing: give a position without pins")

    def pinned_on(self, position: Position, player: int, slot: int) -> int | None:
        """The player whose checker lies pinned on ``player``'s point ``slot`` (the pin
        row counts as player 0 does), or None: always, in a game that does not pin."""
        if not position.pins:
            return None
        return position.pinned(slot if player == 0 else self.shared_slot(player, slot, 0))

    def pins_after(self, before: Position, board: bytes) -> bytes:
        """The pin row once the player on turn in ``before`` has moved its checkers to
        the counts ``board`` (empty in a game that does not pin). Where both sides share
        a point, the one that stood there before lies underneath: a checker pinned before
        stays pinned, and a lone checker of the other side landed on is pinned. A view
        for the faces that move checkers one at a time; the plays themselves come with
        their pins from the move generator."""
        if not self.contact.pinning:
            return b""
        mover, other = before.turn, 1 - before.turn
        slots = self.slots
        row = bytearray(self.points)
        for point in range(1, self.points + 1):
            mine = point if mover == 0 else self.shared_slot(0, point, mover)
            theirs = point if other == 0 else self.shared_slot(0, point, other)
            if board[mover * slots + mine] and board[other * slots + theirs]:
                row[point - 1] = before.pins[point - 1] or other + 1
        return bytes(row)

    def check_pins(self, position: Position) -> None:
        """Raise unless each point of ``position`` holds one side's checkers, or one
        pinned checker under one or more of the other side's, as its pin row says."""
        if len(position.pins) != self.points:
            raise InvalidOptionError(
                f"{self.name} pins checkers: the position needs a pin row of {self.points} "
                "bytes, one per point")
        for point in range(1, self.points + 1):
            counts = [position.count(p, self.shared_slot(0, point, p) if p else point)
                      for p in range(self.players)]
            pinned = position.pinned(point)
            if pinned is None:
                if all(counts):
                    raise InvalidOptionError(
                        f"player 0's point {point} holds checkers of both sides, so one of "
                        "them must be pinned there: the pin row says none is")
                continue
            if counts[pinned] != 1 or not counts[1 - pinned]:
                raise InvalidOptionError(
                    f"player 0's point {point}: a pinned checker lies alone under one or "
                    f"more of the other side's, not {counts[pinned]} of player {pinned} "
                    f"under {counts[1 - pinned]}")

    # --- chance ------------------------------------------------------------------

    def chance_outcomes(self, state: GameState) -> Sequence[tuple[Roll, Fraction]]:
        """The opening's decisive throws (equal dice are thrown again, so they are no
        outcome of their own), else the throws of the game's dice (21 of two, 56 of
        three)."""
        if state.opening:
            return opening_throws(self.players, self.sides)
        return self.throws

    def check_roll(self, roll: Any, dice: int, opening: bool) -> tuple[int, ...]:
        """The dice of ``roll`` when it is a throw of ``dice`` dice of this variant (an
        opening throw when ``opening``); else :class:`IllegalOutcomeError` saying why."""
        if not isinstance(roll, Roll):
            raise IllegalOutcomeError(f"the dice are to be thrown, not {roll!r}")
        if roll.opening != opening or len(roll.dice) != dice or (roll.players and not opening):
            count = {1: "one die", 2: "two dice", 3: "three dice"}.get(dice, f"{dice} dice")
            what = (f"the opening throw, one die for each of the {dice} players" if opening
                    else f"a throw of {count}")
            raise IllegalOutcomeError(f"{roll} is not {what}")
        sides = self.sides
        for d in roll.dice:
            if d.__class__ is not int or not 1 <= d <= sides:
                raise IllegalOutcomeError(f"{roll}: each die shows 1 to {sides}")
        return roll.dice

    def apply_roll(self, state: GameState, roll: Roll) -> GameState:
        if state.opening:
            dice = self.check_roll(roll, self.players, True)
            if not is_decisive(dice):
                raise IllegalOutcomeError(
                    f"{roll}: equal highest dice are thrown again, so they are not an "
                    "outcome of the opening throw")
            return self.apply_opening(state, roll)
        try:
            known = self.thrown.get(roll)
        except TypeError:  # not a throw at all (dice in a list...): check_roll says why
            known = None
        dice = known if known is not None else tuple(
            sorted(self.check_roll(roll, self.dice.count, False), reverse=True))
        return made_state(self, state.position, Phase.DECIDE, dice, state.moves, state.memo)

    def apply_opening(self, state: GameState, roll: Roll) -> GameState:
        """Each player threw one die (a decisive throw): the highest moves first with
        both dice, or rolls afresh where the opening only picks the starter."""
        best = max(roll.dice)
        starter = roll.dice.index(best)
        if self.dice.lot_choice:
            second = max(d for d in roll.dice if d != best)
            return GameState(self, state.position.with_turn(starter), Phase.DECIDE,
                             (best, second), False, 0, LOT)
        if not self.dice.opening_plays_lot:
            position = state.position.with_turn(starter)
            return GameState(self, position, Phase.CHANCE, (), False, 0, state.memo)
        second = max(d for d in roll.dice if d != best)
        return GameState(
            self, state.position.with_turn(starter), Phase.DECIDE, (best, second), False, 0,
            state.memo,
        )

    # --- decisions ---------------------------------------------------------------

    def legal_plays(self, state: GameState) -> Sequence[Any]:
        """The legal actions at ``state``: here the plays of its dice (a variant may
        also offer decisions of its own)."""
        if state.memo == LOT:
            return LOT_CHOICES
        position = state.position
        limit = self.head_limit(state) if self.head.slot else 1
        blob, count, width = self.kernel.play_bytes(position.kernel_row, position.turn,
                                                    state.dice, limit)
        return LegalPlays.of_bytes(blob, count, width, position)

    def head_limit(self, state: GameState) -> int:
        """How many checkers may leave the head in this turn (head rule only).

        Two on a player's first roll when it is one of the head's ``doubles`` (the
        starter's only, unless ``doubles_both``), or one of the second player's wider
        exceptions; else one. A first roll is recognised by the
        position: the mover's whole side still stands on the head (a first roll always
        moves one off); the starter's is the one where the opponent's head is full too.
        This holds for positions set up by hand as well as in games. The compiled
        :func:`gammon.kernels.tracks.head_limit` decides, for every caller.
        """
        if not self.head.slot:
            return 1
        position = state.position
        board = writable_boards(position.board)
        high, low = state.dice
        return int(tracks.head_limit(board, position.turn, high, low, self.kernel.rules))

    def apply_action(self, state: GameState, action: Any) -> GameState:
        if state.memo == LOT:
            if not isinstance(action, LotChoice):
                raise IllegalPlayError(
                    f"{action!r}: first choose to play the lot's dice (play) or throw both "
                    "dice again (throw)")
            if action.keep:
                return GameState(self, state.position, Phase.DECIDE, state.dice, False, 0)
            return GameState(self, state.position, Phase.CHANCE, (), False, 0)
        if not isinstance(action, Play):
            raise IllegalPlayError(f"{action!r} is not a play")
        legal = state.legal_actions()
        play = (legal.find(action) if isinstance(legal, LegalPlays)
                else play_leading_to(legal, action.result))
        if play is None:
            raise IllegalPlayError(
                f"that play is not legal for {dice_text(state.dice)}"
                f" ({len(legal)} legal plays)"
            )
        return self.after_play(state, play)

    def after_play(self, state: GameState, play: Play) -> GameState:
        """Pass the dice on, or end the game when the mover has borne everything off.

        With ``last_roll``, the starter finishing first hands the other player one more
        turn (the memo says so) before the game ends.
        """
        mover = state.position.turn
        board, pins = play.result.board, play.result.pins
        mother, last_roll, follow_doubles = self.turn_rules
        if mother:
            ended = int(tracks.mother_end(writable_boards(board + pins), mover,
                                          self.kernel.rules))
            if ended != -1:
                memo = MOTHERS_PINNED if ended == -2 else state.memo
                position = Position.unchecked(board, self.players, mover, pins)
                return made_state(self, position, Phase.TERMINAL, (), state.moves + 1, memo)
        finished = board[mover * self.slots] == self.checkers
        if last_roll and finished and state.moves % 2 == 0 and state.memo != LAST_ROLL:
            position = Position(board, self.players, (mover + 1) % self.players, pins)
            return GameState(
                self, position, Phase.CHANCE, (), False, state.moves + 1, LAST_ROLL
            )
        if finished or state.memo == LAST_ROLL:
            position = Position.unchecked(board, self.players, mover, pins)
            return made_state(self, position, Phase.TERMINAL, (), state.moves + 1, state.memo)
        follow = self.after_double(state, play) if follow_doubles else ""
        if follow == COMPLEMENT:
            n = self.sides + 1 - state.dice[0]
            position = Position.unchecked(board, self.players, mover, pins)
            return GameState(self, position, Phase.DECIDE, (n, n), False, state.moves + 1,
                             COMPLEMENT)
        thrower = mover if follow else (mover + 1) % self.players
        position = Position.unchecked(board, self.players, thrower, pins)
        memo = None if state.memo == COMPLEMENT else state.memo
        return made_state(self, position, Phase.CHANCE, (), state.moves + 1, memo)

    def after_double(self, state: GameState, play: Play) -> str:
        """What follows ``play`` in the same turn (``Dice``'s ``complement``, ``again``
        and ``plain_entering``): ``COMPLEMENT``, the double's complement; ``"again"``,
        another throw of the same player; ``""``, nothing. Only a double played in full
        is followed; one thrown with a checker waiting to enter is not, under
        ``plain_entering``. The compiled :func:`gammon.kernels.tracks.after_double`
        decides the same in the playouts."""
        dice = self.dice
        if (not dice.follow_doubles or state.dice[0] != state.dice[1]
                or len(play.moves) < tracks.MAX_DICE):
            return ""
        complement = state.memo == COMPLEMENT
        if not complement:
            if dice.plain_entering and state.position.bar(state.position.turn):
                return ""
            if dice.complement:
                return COMPLEMENT
        return "again" if dice.again else ""

    def why_no_cube(self, state: GameState) -> str:
        """Why the game itself allows no cube action before this roll ("" when it does).

        The last roll (``last_roll``): the other player's one more turn after the
        starter has borne everything off. The game is then decided but for a draw, so
        neither player may double (LN-LAST-ROLL-NO-CUBE).
        """
        if state.memo == LAST_ROLL:
            return "the last roll after the starter finished: the cube is not turned"
        return ""

    # --- scoring -----------------------------------------------------------------

    def winner_points(self, position: Position, winner: int) -> int:
        """1 for a single game, 2 for a gammon, 3 for a backgammon (see the kernel's
        ``winner_points``, which the compiled playouts score with too)."""
        board = writable_boards(position.board)
        return int(tracks.winner_points(board, winner, self.kernel.rules))

    def returns(self, state: GameState) -> tuple[float, ...]:
        if state.memo == MOTHERS_PINNED:
            return (0.0,) * self.players
        if state.memo == LAST_ROLL:
            # The last turn is over: the starter has won, unless the other finished too.
            other = state.position.turn
            if state.position.off(other) == self.checkers:
                return (0.0,) * self.players
            winner = (other + 1) % self.players
            position = state.position.with_turn(winner)
            points = float(self.winner_points(position, winner))
            return tuple(points if p == winner else -points for p in range(self.players))
        winner = state.position.turn
        points = float(self.winner_points(state.position, winner))
        return tuple(points if p == winner else -points for p in range(self.players))


class _MoveTable(dict[tuple[int, int, int], Move]):
    """Every move a kernel row can hold, made once: moves are values, so plays share
    them (building each anew was a fifth of a random game's time)."""

    def __missing__(self, key: tuple[int, int, int]) -> Move:
        move = self[key] = Move(key[0], key[1], key[2] == 1)
        return move


_MOVES = _MoveTable()
# A Play made from a row, fast (a frozen dataclass's setattr by name costs twice).
_play_moves, _play_result = (Play.__dict__[name].__set__ for name in ("moves", "result"))


class LegalPlays(Sequence[Play]):
    """The legal plays of a state, built from the kernel's rows when first looked at.

    A row is the board (and pin row), then (source, destination, hit) per move, then the
    number of moves; every value is small and not negative, so the rows' bytes read them
    without numpy. The rows as an array (:attr:`rows`, for the bots' batches) are made
    when first asked for."""

    __slots__ = ("_rows", "_position", "_size", "_pins", "_plays", "_index", "_blob",
                 "_width")

    def __init__(self, rows: np.ndarray, position: Position) -> None:
        self._setup(rows.tobytes(), len(rows), rows.shape[1], position)
        self._rows: np.ndarray | None = rows

    @classmethod
    def of_bytes(cls, blob: bytes, count: int, width: int, position: Position) -> LegalPlays:
        """The plays of ``count`` rows of ``width`` bytes (the generator's rows' bytes)."""
        legal = _new(cls)
        legal._setup(blob, count, width, position)
        legal._rows = None
        return legal

    def _setup(self, blob: bytes, count: int, width: int, position: Position) -> None:
        self._position = position
        self._size = len(position.board)
        self._pins = len(position.pins)  # the pin row after the counts (games that pin)
        self._plays: list[Play | None] = [None] * count
        self._index: dict[bytes, int] | None = None
        self._blob = blob
        self._width = width

    @property
    def rows(self) -> np.ndarray:
        """The generator's rows, one a play in this order (writable, as every kernel is
        compiled for)."""
        if self._rows is None:
            self._rows = np.frombuffer(bytearray(self._blob), np.int8).reshape(
                len(self._plays), self._width)
        return self._rows

    def __len__(self) -> int:
        return len(self._plays)

    @overload
    def __getitem__(self, i: int) -> Play: ...
    @overload
    def __getitem__(self, i: slice) -> list[Play]: ...
    def __getitem__(self, i: int | slice) -> Play | list[Play]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        play = self._plays[i]
        if play is None:
            blob, width = self._blob, self._width
            start = (i if i >= 0 else i + len(self._plays)) * width
            at = start + self._size
            after = at + self._pins
            moves = tuple([_MOVES[blob[m], blob[m + 1], blob[m + 2]]
                           for m in range(after, after + 3 * blob[start + width - 1], 3)])
            result = Position.unchecked(blob[start:at], self._position.players,
                                        self._position.turn, blob[at:after])
            play = self._plays[i] = _new(Play)
            _play_moves(play, moves)
            _play_result(play, result)
        return play

    def __iter__(self) -> Iterator[Play]:
        return (self[i] for i in range(len(self)))

    def find(self, play: Play) -> Play | None:
        """The legal play that ``play`` is (itself, or the one with the same result)."""
        for known in self._plays:
            if known is play:
                return known
        index = self.index_of(play.result)
        return None if index is None else self[index]

    def index_of(self, result: Position) -> int | None:
        """Which play leads to ``result`` (by board), or None. The counts tell the plays
        of one roll apart in the games that pin too: where both sides share a point
        after a play, the one that stood there before is the one underneath."""
        if self._index is None:
            blob, width, size = self._blob, self._width, self._size
            self._index = {blob[at:at + size]: i
                           for i, at in enumerate(range(0, len(self._plays) * width, width))}
        return self._index.get(result.board)

    def __contains__(self, play: object) -> bool:
        return isinstance(play, Play) and self.find(play) is not None


def play_leading_to(legal: Sequence[Any], result: Position) -> Play | None:
    """The play among ``legal`` (a state's legal actions) that leads to ``result``."""
    if isinstance(legal, LegalPlays):
        index = legal.index_of(result)
        return None if index is None else legal[index]
    return next((a for a in legal if isinstance(a, Play) and a.result == result), None)


class Named(Protocol):
    """What the registry reads of a variant class: the names it is known by."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]]
    presets: ClassVar[dict[str, dict[str, Any]]]


_V = typing.TypeVar("_V")

#: Every name a variant is known by: its class (a dataclass of :class:`Rules` whose
#: fields are its options) and the options the name sets.
_REGISTRY: dict[str, tuple[type[Any], dict[str, Any]]] = {}


def register(cls: type[_V]) -> type[_V]:
    """Class decorator: make a variant available to :func:`variant` under its names
    (its ``name``, ``aliases`` and ``presets``, which also set options)."""
    # A subclass's own ``aliases = (...)`` narrows the declared type, which no
    # protocol bound accepts; the attributes are read as the Named protocol says.
    named = typing.cast(Named, cls)
    for key in (named.name, *named.aliases):
        _REGISTRY[key] = (cls, {})
    for key, preset in named.presets.items():
        _REGISTRY[key] = (cls, preset)
    return cls


def variant_classes() -> list[type[Any]]:
    """Every registered variant class, once each, in registration order."""
    return list(dict.fromkeys(cls for cls, _ in _REGISTRY.values()))


def variant_names() -> list[str]:
    """Every variant by the names ``gammon variants`` lists: each class's name and its
    presets (not the other aliases)."""
    names: list[str] = []
    for cls in variant_classes():
        names += [cls.name, *cls.presets]
    return names


def registered() -> Mapping[str, tuple[type[Any], dict[str, Any]]]:
    """Every name a variant is registered by, with its class and the options the name
    sets (read only)."""
    return types.MappingProxyType(_REGISTRY)


def preset_name(name: str, options: dict[str, Any]) -> str | None:
    """The name a variant ``name`` played with ``options`` is listed by: ``name`` with
    no options, the preset that sets exactly these (``hypergammon`` with three checkers
    is ``hypergammon-3``), or None when no listed name plays it."""
    found = _REGISTRY.get(name)
    if found is None:
        return None
    cls, preset = found
    if {**preset, **options} == preset:
        return name
    named = typing.cast(Named, cls)
    return next((key for key, values in named.presets.items()
                 if values == {**preset, **options}), None)


def track_variant(name: str, **options: Any) -> TrackVariant:
    """:func:`variant`, for callers that need a game on a track (the stakes layer, move
    text): raises :class:`InvalidOptionError` for a game that is not one."""
    rules = variant(name, **options)
    if not isinstance(rules, TrackVariant):
        raise InvalidOptionError(
            f"{rules.name} is not played with checkers on a track; this needs one of: "
            + ", ".join(cls.name for cls in variant_classes() if issubclass(cls, TrackVariant))
        )
    return rules


def variant_from(rules: Rules | str, **options: Any) -> Rules:
    """A rules object given as one or by name (with ``options``)."""
    if isinstance(rules, str):
        return variant(rules, **options)
    if options:
        return variant(rules.name, **{**rules.options(), **options})
    return rules


#: How an option's type is named to a person.
_KINDS = {bool: "true or false", int: "a whole number", float: "a number", str: "a word"}


#: The type of each option of a variant's class, by class (``typing.get_type_hints``
#: takes a millisecond a call: the web's lobby asks for variants by the hundred).
_OPTION_TYPES: dict[type, dict[str, Any]] = {}


def variant(name: str, **options: Any) -> Rules:
    """The rules object of the variant ``name`` with the given options."""
    key = name.strip().lower().replace("_", "-")
    if key not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY))
        raise InvalidOptionError(f"unknown variant {name!r}; known names: {known}")
    cls, preset = _REGISTRY[key]
    options = {**preset, **options}
    allowed = [f.name for f in dataclasses.fields(cls)]
    hints = _OPTION_TYPES.get(cls)
    if hints is None:
        hints = _OPTION_TYPES[cls] = typing.get_type_hints(cls)
    for option, value in options.items():
        if option not in allowed:
            names = ", ".join(allowed) or "none"
            raise InvalidOptionError(
                f"{cls.name} has no option {option!r}; its options: {names}"
            )
        expected = hints[option]
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise InvalidOptionError(
                f"option {option} of {cls.name} takes {_KINDS.get(expected, expected.__name__)}"
                f", not {value!r}"
            )
    rules: Rules = cls(**options)
    return rules
