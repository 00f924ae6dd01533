"""The actions of Acedrex Backgammon and the stages of a turn."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from gammon.core.dice import Outcomes, Roll
from gammon.kernels.acedrex import RING, SIDES
from gammon.variants.acedrex.board import is_gate, stop_name


@dataclass(frozen=True, slots=True)
class Step:
    """Move one piece ``steps`` stops (one part of the die). ``source`` is a ring stop or
    HAND. ``target`` and ``charge`` describe the landing (for display; not compared)."""

    source: int
    steps: int
    target: int = field(default=-1, compare=False)
    charge: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        target = self.target if self.target >= 0 else (self.source + self.steps) % RING
        land = "jackpot" if is_gate(target) else stop_name(target)
        return f"{stop_name(self.source)}+{self.steps}>{land}{'*' if self.charge else ''}"


@dataclass(frozen=True, slots=True)
class Jump:
    """ACE-JUMP: teleport the piece on ``source`` to ``target`` (after a 20)."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"jump {stop_name(self.source)}>{stop_name(self.target)}"


@dataclass(frozen=True, slots=True)
class NoJump:
    def __str__(self) -> str:
        return "no jump"


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep a movement roll of 1 (ACE-ONE-MOVE)."""

    def __str__(self) -> str:
        return "keep 1"


@dataclass(frozen=True, slots=True)
class Reroll:
    """Throw a movement roll of 1 again (ACE-ONE-MOVE)."""

    def __str__(self) -> str:
        return "reroll"


@dataclass(frozen=True, slots=True)
class Pass:
    """Nothing can move (ACE-NO-MOVE)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Resign:
    """ACE-RESIGN: leave the game and settle now."""

    def __str__(self) -> str:
        return "resign"


NO_JUMP, KEEP, REROLL, PASS, RESIGN = NoJump(), Keep(), Reroll(), Pass(), Resign()
Action = Step | Jump | NoJump | Keep | Reroll | Pass | Resign

#: One D20: every throw in the game (ACE-FIRST, ACE-ROLL, ACE-COMBAT-ROLL).
D20 = Outcomes((Roll((d,)), Fraction(1, SIDES)) for d in range(1, SIDES + 1))

# Stages of a turn.
START = "start"  # CHANCE: a starting throw (ACE-FIRST)
ROLL = "roll"  # CHANCE: the movement die
ONE = "one"  # DECIDE: keep or re-roll a 1
MOVE = "move"  # DECIDE: spend the die
JUMP = "jump"  # DECIDE: jump after a 20
ATTACK = "attack"  # CHANCE: the attacker's combat throw
DEFEND = "defend"  # CHANCE: the defender's combat throw
OVER = "over"  # TERMINAL
