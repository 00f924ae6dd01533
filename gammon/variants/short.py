"""Short backgammon (short nardy) as the short-backgammon chapters of shared/sources/002
play it.

The board, the start and the moves are backgammon's (:class:`Backgammon`); what
differs is stated here, each a field of a rule block that the compiled move
generator reads (:mod:`gammon.rules`):

- a checker that hits may not hide on a point its owner holds in the same turn
  (``no_hit_and_hide``, fixed: it is what sets this game apart from the international
  one, which is ``backgammon``);
- nor may it be borne off in that turn (``no_bear_off_hitter``, an option);
- the results are the oin (1) and the mars (2), with no third level (``koks`` is an
  option);
- with the doubling cube ("dave") in play there is no mars: the stakes layer's
  ``no_mars_with_cube`` is on by default for this game.

docs/rules/short.md states the rules, with the readings chosen where the texts disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.core.variant import register
from gammon.rules import AfterHit, Ending
from gammon.variants.backgammon import Backgammon


@register
@dataclass(frozen=True)
class Short(Backgammon):
    """Short backgammon. Options (docs/rules/short.md):

    - ``no_bear_off_hitter`` (default True): a checker that hit may not be borne off in
      the same turn; False lets it (the Caucasian text's reading).
    - ``koks`` (default False): a mars in which the loser still has a checker on the bar
      or in the winner's home board scores 3, as backgammon's backgammon.
    """

    name = "short"
    summary = (
        "Short backgammon (short nardy): backgammon's board and moves, but a checker that "
        "hits may not hide or be borne off in that turn; oin (1) and mars (2), no mars "
        "with the cube."
    )
    aliases = ("short-backgammon", "short-nardy")
    after_hit = AfterHit(no_hide=True)
    ending = Ending(no_mars_with_cube=True, result_names=("oin", "mars", "koks"))

    #: A checker that hit may not be borne off in the same turn (SHORT-NO-BEAR-OFF-HITTER).
    no_bear_off_hitter: bool = True
    #: A third level, koks (3): a mars with a loser's checker on the bar or in the
    #: winner's home board (SHORT-KOKS).
    koks: bool = False

    def __post_init__(self) -> None:
        self._set_blocks(ending={"backgammons": self.koks},
                         after_hit={"no_bear_off": self.no_bear_off_hitter})
