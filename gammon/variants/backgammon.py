"""Standard backgammon and the games gnubg plays on its board.

Backgammon is the shared mechanics of :class:`TrackVariant` with its start position;
nackgammon and hypergammon differ only in where the checkers start. Short backgammon
(:mod:`gammon.variants.short`) and the Caucasian game build on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from gammon.core.errors import InvalidOptionError
from gammon.core.variant import TrackVariant, register


@register
@dataclass(frozen=True)
class Backgammon(TrackVariant):
    name = "backgammon"
    summary = "Standard (international) backgammon: 15 checkers, hitting, gammons and backgammons."
    aliases: ClassVar[tuple[str, ...]] = ("standard",)
    #: gnubg and pubeval play the standard game; a subclass with other rules restates it.
    #: The network two rolls deep beat expectimax:2 (docs/strength.md, Networks).
    bots: ClassVar[tuple[str, ...]] = (
        "neural", "expectimax", "gnubg", "pubeval", "mcts", "heuristic", "random")
    bot_options: ClassVar[Mapping[str, str]] = {"neural": "2"}
    #: neural:2's slowest move of 30 took 0.70 to 1.08 s on the idle 2-core machine.
    think_seconds: ClassVar[float] = 1.1

    def start_layout(self) -> dict[int, int]:
        return {24: 2, 13: 5, 8: 3, 6: 5}


@register
@dataclass(frozen=True)
class Nackgammon(TrackVariant):
    name = "nackgammon"
    summary = "Nack Ballard's backgammon: two more back checkers (24, 23) to start."
    #: The network a roll deep beat expectimax:2 (docs/strength.md, Networks).
    bots = ("neural", "expectimax", "pubeval", "mcts", "heuristic", "random")
    bot_options = {"neural": "1"}

    def start_layout(self) -> dict[int, int]:
        return {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}


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

    def start_layout(self) -> dict[int, int]:
        return {24 - i: 1 for i in range(self.checkers_per_side)}

    # The game is solved: the perfect player leads (gammon.evaluators.exact). One and two
    # checkers ship solved; three are solved on the machine by `gammon solve 3`, and until
    # then the bot that leads is the network two rolls deep, which beat expectimax:2
    # (docs/strength.md, Networks; gammon.agents.registry.default_bot). The bots depend
    # on the checkers, so these are properties where the base class has class attributes.
    @property
    def bots(self) -> tuple[str, ...]:  # type: ignore[override]
        if self.checkers_per_side == 3:
            return ("perfect", "neural", "expectimax", "mcts", "heuristic", "random")
        return ("perfect", *TrackVariant.bots)

    @property
    def bot_options(self) -> Mapping[str, str]:  # type: ignore[override]
        return {"neural": "2"} if self.checkers_per_side == 3 else {}
