"""The state of an Acedrex game: an immutable value that follows the game protocol."""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from gammon.core.dice import Outcomes, Roll
from gammon.core.errors import IllegalOutcomeError
from gammon.core.protocol import Phase, RandomSource, Rules
from gammon.kernels.acedrex import HAND, PIECES, PLAYERS, SIDES
from gammon.variants.acedrex.actions import ATTACK, D20, DEFEND, MOVE, START
from gammon.variants.acedrex.board import fighting_pair, owner, points

if TYPE_CHECKING:
    from gammon.variants.acedrex.actions import Action


class StateRules(Rules, Protocol):
    """What a state reads of its rules (the rules object, :class:`~gammon.variants.
    acedrex.Acedrex`): the options the moves, the combat and the turns read, and the
    rules a state defers to, so that the state knows no module that builds states."""

    @property
    def stake(self) -> int: ...

    @property
    def captures_to_end(self) -> int: ...

    @property
    def turn_cap(self) -> int: ...

    @property
    def split_die(self) -> bool: ...

    @property
    def combat_scope(self) -> str: ...

    @property
    def foreign_defender(self) -> str: ...

    @property
    def ties(self) -> str: ...

    @property
    def payout(self) -> str: ...

    @property
    def threshold(self) -> int: ...

    def throws_of(self, state: AcedrexState) -> Sequence[tuple[Roll, Fraction]]:
        """The outcomes of a combat's or a starting throw."""
        ...

    def actions_of(self, state: AcedrexState) -> list[Action]: ...

    def wider_than(self, state: AcedrexState, count: int) -> bool: ...

    def after_throw(self, state: AcedrexState, die: int) -> AcedrexState: ...

    def after_action(self, state: AcedrexState, action: Any) -> AcedrexState: ...

    def settle(self, captured: tuple[tuple[int, ...], ...], out: tuple[bool, ...],
               money: list[int]) -> None: ...


def make_state(variant: StateRules, ring: tuple[tuple[int, ...], ...], tapped: int,
          hands: tuple[tuple[int, ...], ...], jackpot: tuple[int, ...],
          captured: tuple[tuple[int, ...], ...], removed: tuple[int, ...],
          out: tuple[bool, ...], money: tuple[int, ...], turn: int, phase: Phase, stage: str,
          die: int, left: int, parts: int, queue: tuple[int, ...], fight: int, attack: int,
          turns: int, contenders: tuple[int, ...], throws: tuple[int, ...],
          ended: str = "") -> AcedrexState:
    state = object.__new__(AcedrexState)
    setter = object.__setattr__
    setter(state, "variant", variant)
    setter(state, "ring", ring)
    setter(state, "tapped", tapped)
    setter(state, "hands", hands)
    setter(state, "jackpot", jackpot)
    setter(state, "captured", captured)
    setter(state, "removed", removed)
    setter(state, "out", out)
    setter(state, "money", money)
    setter(state, "turn", turn)
    setter(state, "phase", phase)
    setter(state, "stage", stage)
    setter(state, "die", die)
    setter(state, "left", left)
    setter(state, "parts", parts)
    setter(state, "queue", queue)
    setter(state, "fight", fight)
    setter(state, "attack", attack)
    setter(state, "turns", turns)
    setter(state, "contenders", contenders)
    setter(state, "throws", throws)
    setter(state, "ended", ended)
    setter(state, "_legal", [])
    return state


@dataclass(frozen=True, slots=True)
class AcedrexState:
    """Everything an Acedrex game needs to go on; an immutable value.

    ``ring``: 40 stops, each the pieces on it from the centre out. ``tapped``: a bit per
    piece. ``hands``/``captured``: per player (pieces in hand / pieces they captured).
    ``jackpot``: pieces in the order placed. ``removed``: pieces of resigned players.
    ``out``: who resigned. ``money``: settled so far. ``turn``: the player on turn (at
    START the next to throw is ``contenders[len(throws)]``). ``stage``: what is pending
    (see the stage constants). ``die``/``left``/``parts``: the die, what is left of it and
    how many parts were spent. ``queue``: stops whose combat is still to solve this turn;
    ``fight``: the stop fighting now (-1 none) and ``attack`` the attacker's throw.
    ``turns``: turns begun. ``ended``: why the game ended (``captures``, ``resignations``,
    ``stalled`` or ``cap``).
    """

    variant: StateRules
    ring: tuple[tuple[int, ...], ...]
    tapped: int
    hands: tuple[tuple[int, ...], ...]
    jackpot: tuple[int, ...]
    captured: tuple[tuple[int, ...], ...]
    removed: tuple[int, ...]
    out: tuple[bool, ...]
    money: tuple[int, ...]
    turn: int
    phase: Phase
    stage: str
    die: int
    left: int
    parts: int
    queue: tuple[int, ...]
    fight: int
    attack: int
    turns: int
    contenders: tuple[int, ...]
    throws: tuple[int, ...]
    ended: str = ""
    _legal: list[Any] = field(default_factory=list, compare=False, repr=False)

    # --- the protocol ------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        """The player to act at DECIDE; None at CHANCE and TERMINAL."""
        return self.turn if self.phase is Phase.DECIDE else None

    @property
    def is_chance(self) -> bool:
        return self.phase is Phase.CHANCE

    @property
    def is_terminal(self) -> bool:
        return self.phase is Phase.TERMINAL

    @property
    def players(self) -> int:
        return PLAYERS

    def chance_outcomes(self) -> Sequence[tuple[Roll, Fraction]]:
        """Every outcome of the pending throw (one D20) with its exact probability.

        A throw that is thrown again is no outcome: a combat 1 (ACE-COMBAT-ONE), a
        defender's throw that ties the attacker's (ACE-TIE, which throws both again),
        the last starting throw that ties every other (ACE-FIRST). The outcomes left
        carry the probability of what eventually happens, so the attacker's throws are
        weighted by how often the defender's answer does not tie, and a starting throw
        that could still end in an all-round tie is weighted likewise."""
        if self.phase is not Phase.CHANCE:
            raise ValueError(f"no dice to throw in the {self.phase.value} phase")
        if self.stage in (ATTACK, DEFEND, START):
            return self.variant.throws_of(self)
        return D20

    def legal_actions(self) -> list[Action]:
        """The actions of the player to move; ``resign`` is always last."""
        if self.phase is not Phase.DECIDE:
            raise ValueError(f"no decision to make in the {self.phase.value} phase")
        if not self._legal:
            self._legal.append(self.variant.actions_of(self))
        return self._legal[0]

    def has_more_actions_than(self, count: int) -> bool:
        """Whether the player to move has more than ``count`` actions: found by listing
        no more of them than it takes (a search asks it of every leaf to see whether
        the leaf is too wide to search, and most are)."""
        if self._legal or self.stage != MOVE:
            return len(self.legal_actions()) > count
        return self.variant.wider_than(self, count)

    def apply(self, outcome_or_action: Any) -> AcedrexState:
        """The state after a throw (at CHANCE) or an action (at DECIDE)."""
        if self.phase is Phase.CHANCE:
            roll = outcome_or_action
            if (not isinstance(roll, Roll) or roll.opening or roll.players
                    or len(roll.dice) != 1 or roll.dice[0].__class__ is not int
                    or not 1 <= roll.dice[0] <= SIDES):
                raise IllegalOutcomeError(f"one D20 is to be thrown, not {roll!r}")
            return self.variant.after_throw(self, roll.dice[0])
        if self.phase is Phase.DECIDE:
            return self.variant.after_action(self, outcome_or_action)
        raise ValueError("the game is over")

    def returns(self) -> tuple[float, ...]:
        """Each player's money (ACE-RETURNS): zero until the game is over."""
        if self.phase is not Phase.TERMINAL:
            return (0.0,) * PLAYERS
        return tuple(float(m) for m in self.money)

    def settled_returns(self) -> tuple[float | None, ...]:
        """The money of each player who resigned, final from then on (ACE-RESIGN: they
        settled with everyone and take no further part), None for those still playing.
        The game's money sums to zero (ACE-PAYOUT), so the players still in it will
        share the rest between them."""
        return tuple(float(m) if gone else None for m, gone in zip(self.money, self.out,
                                                                   strict=True))

    @property
    def winner(self) -> int | None:
        """The player with the most money at the end (the first of equals)."""
        if self.phase is not Phase.TERMINAL:
            return None
        return max(range(PLAYERS), key=self.money.__getitem__)

    def sample_chance(self, rng: RandomSource) -> Roll:
        """Draw a throw with its probability, with one ``rng.random()``."""
        outcomes = self.chance_outcomes()
        assert isinstance(outcomes, Outcomes)
        return outcomes.draw(rng.random())

    # --- views -------------------------------------------------------------------------

    def active(self) -> list[int]:
        """Players still in the game."""
        return [p for p in range(PLAYERS) if not self.out[p]]

    def is_tapped(self, piece: int) -> bool:
        return bool(self.tapped >> piece & 1)

    def captures(self, player: int) -> int:
        return len(self.captured[player])

    def scores(self) -> tuple[int, ...]:
        """ACE-SCORE: each player's points for the pieces they captured."""
        return tuple(points(len(c)) for c in self.captured)

    def standing(self) -> tuple[int, ...]:
        """Money if the game ended now: what is settled plus the open settlements."""
        money = list(self.money)
        if self.phase is not Phase.TERMINAL:
            self.variant.settle(self.captured, self.out, money)
        return tuple(money)

    def pieces_of(self, player: int) -> list[int]:
        """Where ``player``'s pieces are, as ring stops (HAND for hand, -2 jackpot, -3
        captured, -4 out of play)."""
        where = [-4] * PIECES
        for stop, stack in enumerate(self.ring):
            for x in stack:
                if owner(x) == player:
                    where[x % PIECES] = stop
        for x in self.hands[player]:
            where[x % PIECES] = HAND
        for x in self.jackpot:
            if owner(x) == player:
                where[x % PIECES] = -2
        for group in self.captured:
            for x in group:
                if owner(x) == player:
                    where[x % PIECES] = -3
        return where

    def fighters(self) -> tuple[int, int] | None:
        """(attacker, defender) of the combat being thrown for, or None."""
        if self.fight < 0:
            return None
        stack = self.ring[self.fight]
        i = fighting_pair(stack, self.tapped)
        return stack[i], stack[i - 1]

    def combat(self) -> tuple[int, int]:
        """(attacker, defender) of the combat under way (the ATTACK and DEFEND stages)."""
        fighters = self.fighters()
        if fighters is None:
            raise ValueError("no combat is under way")
        return fighters


def changed(state: AcedrexState, **changes: Any) -> AcedrexState:
    # The fields in order by one attrgetter call, then the changes by position: the
    # rules build hundreds of thousands of states a game (a search's children).
    values = list(_GET_FIELDS(state))
    for name, value in changes.items():
        values[_INDEX[name]] = value
    return make_state(*values)


_FIELDS = [f.name for f in dataclasses.fields(AcedrexState) if f.name != "_legal"]
_GET_FIELDS = operator.attrgetter(*_FIELDS)
_INDEX = {name: i for i, name in enumerate(_FIELDS)}
