"""Caucasian backgammon: short backgammon where a checker that hits may not hide.

Everything is standard (short) backgammon except one rule, the kernel's
``no_hit_and_hide``: in the turn a checker hits, it may not go on to a point its owner
already holds. docs/rules/caucasian.md states the precise reading with examples.
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.core.variant import register
from gammon.variants.backgammon import Backgammon


@register
@dataclass(frozen=True)
class Caucasian(Backgammon):
    name = "caucasian"
    summary = (
        "Caucasian backgammon: short backgammon in which a checker that hits may not "
        "hide on its own point in the same turn."
    )
    aliases = ("caucasian-backgammon", "caucasian-nardy")
    no_hit_and_hide = True
    #: pubeval reads the board; gnubg would play moves the rule forbids.
    bots = ("expectimax", "pubeval", "mcts", "heuristic", "random")
