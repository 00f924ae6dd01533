"""Tavla, Turkey's backgammon: Portes's rules (no cube, a win worth 1 or 2, the starter
throwing afresh) and one of its own, stated here in its rule blocks:

- a checker that hits a blot in its own home board may not move again in that turn, no
  "hit and run" (the after-hit ``no_run``, bound to home-board hits by ``home_only``;
  the option ``home_only=False`` binds every hit).

docs/rules/tavla.md states the rules, the sources and the readings chosen.
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.core.variant import register
from gammon.rules import AfterHit, Ending
from gammon.variants.portes import Portes


@register
@dataclass(frozen=True)
class Tavla(Portes):
    """Tavla. Options (docs/rules/tavla.md), besides Portes's ``reroll_opening`` and
    ``triple_game``:

    - ``home_only`` (default True): only a hit in the mover's own home board keeps the
      hitter where it is; False: every hit does.
    """

    name = "tavla"
    summary = (
        "Tavla (Turkish backgammon): backgammon's start and moves, but a checker that "
        "hits in its home board stays there that turn; no cube, 1 or 2 points."
    )
    aliases = ("turkish-backgammon",)
    after_hit = AfterHit(no_run=True)
    ending = Ending(result_names=("single game", "mars", "triple game"))

    #: Only a hit in the home board binds the hitter (TAVLA-HOME-ONLY).
    home_only: bool = True

    def __post_init__(self) -> None:
        super().__post_init__()
        self._set_blocks(after_hit={"home_only": self.home_only})
