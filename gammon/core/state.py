"""Game states: immutable values with explicit chance.

A state is in one of three phases. At CHANCE the dice are to be thrown:
:meth:`GameState.chance_outcomes` lists every outcome with its exact probability and
:meth:`GameState.apply` takes the one that happened. At DECIDE a player chooses one of
:meth:`GameState.legal_actions`. At TERMINAL :meth:`GameState.returns` gives each
player's result. ``apply`` never changes a state; it returns the next one.

The state holds what the rules need to go on; the rules themselves live in the variant
(:class:`gammon.core.variant.TrackVariant`), which every method here defers to, so a
variant changes behaviour in one place.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gammon.core.dice import Outcomes, Roll
from gammon.core.position import Position

if TYPE_CHECKING:
    from gammon.core.protocol import RandomSource
    from gammon.core.variant import TrackVariant


class Phase(enum.Enum):
    CHANCE = "chance"
    DECIDE = "decide"
    TERMINAL = "terminal"


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
