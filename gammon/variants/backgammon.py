"""Standard backgammon and the games gnubg plays on its board.

Backgammon is :class:`TrackVariant` with every rule block at its default;
nackgammon and hypergammon differ only in where the checkers start. Short backgammon
(:mod:`gammon.variants.short`) and the Caucasian game build on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gammon.core.errors import InvalidOptionError
from gammon.core.variant import TrackVariant, register
from gammon.rules import Track


@register
@dataclass(frozen=True)
class Backgammon(TrackVariant):
    name = "backgammon"
    summary = "Standard (international) backgammon: 15 checkers, hitting, gammons and backgammons."
    aliases: ClassVar[tuple[str, ...]] = ("standard",)
    #: neural:2's slowest move of 30 took 0.70 to 1.08 s on the idle 2-core machine.
    think_seconds: ClassVar[float] = 1.1


@register
@dataclass(frozen=True)
class Nackgammon(TrackVariant):
    name = "nackgammon"
    summary = "Nack Ballard's backgammon: two more back checkers (24, 23) to start."
    track = Track(start=((24, 2), (23, 2), (13, 4), (8, 3), (6, 4)))


@register
@dataclass(frozen=True)
class Hypergammon(TrackVariant):
    name = "hypergammon"
    summary = "Backgammon with 1, 2 or 3 checkers each, starting on the 24, 23, 22 points."
    presets = {f"hypergammon-{n}": {"checkers_per_side": n} for n in (1, 2, 3)}
    family = "hypergammon"

    checkers_per_side: int = 3

    def __post_init__(self) -> None:
        if self.checkers_per_side not in (1, 2, 3):
            raise InvalidOptionError(
                f"hypergammon is played with 1, 2 or 3 checkers, not {self.checkers_per_side}"
            )
        self._set_blocks(track={"start": tuple((24 - i, 1)
                                               for i in range(self.checkers_per_side))})
