"""Portes, the first game of Greek Tavli: backgammon's board, start and moves.

What differs from :class:`Backgammon`, each a field of a rule block (:mod:`gammon.rules`):

- the game is played without the doubling cube (``cube``);
- a win is worth 1, or 2 when the loser has borne off nothing; there is no triple game,
  so a backgammon counts as a gammon (``backgammons`` off; the option
  ``triple_game`` restores it);
- the player who wins the opening lot throws both dice afresh for the first turn
  (``opening_plays_lot`` off; the option ``reroll_opening=False`` plays the lot's dice).

docs/rules/portes.md states the rules, the sources and the readings chosen where the
sources disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.core.variant import register
from gammon.rules import Ending
from gammon.variants.backgammon import Backgammon


@register
@dataclass(frozen=True)
class Portes(Backgammon):
    """Portes. Options (docs/rules/portes.md):

    - ``reroll_opening`` (default True): the winner of the opening lot throws both dice
      for the first turn; False plays the two dice of the lot, as backgammon does.
    - ``triple_game`` (default False): a gammon in which the loser still has a checker
      on the bar or in the winner's home board scores 3, as backgammon's backgammon.
    """

    name = "portes"
    summary = (
        "Portes (Greek tavli's first game): backgammon's start and moves, hitting, no "
        "doubling cube; a win is 1 point, or 2 when the loser has borne off nothing."
    )
    aliases = ("tavli-portes",)
    cube = False
    ending = Ending(result_names=("single game", "double game", "triple game"))

    #: The winner of the opening lot throws both dice afresh (PORTES-OPENING).
    reroll_opening: bool = True
    #: A third level, as backgammon's backgammon (PORTES-TRIPLE-OPTION).
    triple_game: bool = False

    def __post_init__(self) -> None:
        self._set_blocks(dice={"opening_plays_lot": not self.reroll_opening},
                         ending={"backgammons": self.triple_game})
