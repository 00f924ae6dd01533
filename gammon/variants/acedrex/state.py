"""The state of an Acedrex game: an immutable value that follows the game protocol."""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gammon.core.dice import Outcomes, Roll
from gammon.core.errors import IllegalOutcomeError
from gammon.core.protocol import Phase, RandomSource
from gammon.kernels.acedrex import HAND, PIECES, PLAYERS, SIDES
from gammon.variants.acedrex.actions import ATTACK, D20, DEFEND, MOVE, START
from gammon.variants.acedrex.board import owner, points

if TYPE_CHECKING:
    from gammon.variants.acedrex.actions import Action
    from gammon.variants.acedrex.rules import Acedrex

def _make(variant: Acedrex, ring: tuple[tuple[int, ...], ...], tapped: int,
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

    variant: Acedrex
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
        if self.stage == ATTACK:
            return _attack_outcomes(self)
        if self.stage == DEFEND:
            return _defend_outcomes(self)
        if self.stage == START:
            return _start_outcomes(self)
        return D20

    def legal_actions(self) -> list[Action]:
        """The actions of the player to move; ``resign`` is always last."""
        if self.phase is not Phase.DECIDE:
            raise ValueError(f"no decision to make in the {self.phase.value} phase")
        if not self._legal:
            self._legal.append(_legal(self))
        return self._legal[0]

    def has_more_actions_than(self, count: int) -> bool:
        """Whether the player to move has more than ``count`` actions: found by listing
        no more of them than it takes (a search asks it of every leaf to see whether
        the leaf is too wide to search, and most are)."""
        if self._legal or self.stage != MOVE:
            return len(self.legal_actions()) > count
        return _more_actions_than(self, count)

    def apply(self, outcome_or_action: Any) -> AcedrexState:
        """The state after a throw (at CHANCE) or an action (at DECIDE)."""
        if self.phase is Phase.CHANCE:
            roll = outcome_or_action
            if (not isinstance(roll, Roll) or roll.opening or roll.players
                    or len(roll.dice) != 1 or roll.dice[0].__class__ is not int
                    or not 1 <= roll.dice[0] <= SIDES):
                raise IllegalOutcomeError(f"one D20 is to be thrown, not {roll!r}")
            return _throw(self, roll.dice[0])
        if self.phase is Phase.DECIDE:
            return _act(self, outcome_or_action)
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
            _settle_all(self.variant, self.captured, self.out, money)
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


def _replace(state: AcedrexState, **changes: Any) -> AcedrexState:
    # The fields in order by one attrgetter call, then the changes by position: the
    # rules build hundreds of thousands of states a game (a search's children).
    values = list(_GET_FIELDS(state))
    for name, value in changes.items():
        values[_INDEX[name]] = value
    return _make(*values)


_FIELDS = [f.name for f in dataclasses.fields(AcedrexState) if f.name != "_legal"]
_GET_FIELDS = operator.attrgetter(*_FIELDS)
_INDEX = {name: i for i, name in enumerate(_FIELDS)}


# The rules the state's methods call: they build states in turn, so they are
# imported once the state is defined (the package imports this module first).
from gammon.variants.acedrex.chance import _throw  # noqa: E402
from gammon.variants.acedrex.combat import (  # noqa: E402
    _attack_outcomes,
    _defend_outcomes,
    _start_outcomes,
    fighting_pair,
)
from gammon.variants.acedrex.moves import _act, _legal, _more_actions_than  # noqa: E402
from gammon.variants.acedrex.turns import _settle_all  # noqa: E402
