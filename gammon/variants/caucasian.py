"""Caucasian backgammon: short backgammon with its own nuance about the checker that hit.

The source says Caucasian's rules are short backgammon's but for a small nuance, so the
variant builds on :class:`Short` (the short game of the same source, not the
international ``backgammon``): its scoring (oin, mars) and its stakes default (no mars
with the cube) carry over. What differs: the same text lets the checker that hit be
borne off ("you can remove your checker from the field"), so ``no_bear_off_hitter``
is off by default; and the option ``no_hide_home_only`` reads the no-hide rule as
binding only after a hit in one's own home board. docs/rules/caucasian.md states the
precise reading with examples.
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.core.variant import register
from gammon.variants.short import Short


@register
@dataclass(frozen=True)
class Caucasian(Short):
    """Caucasian backgammon. Options (docs/rules/caucasian.md):

    - ``no_hide_home_only`` (default False): only a hit in the mover's own home board
      binds the hitter; by default every hit does.
    - ``no_bear_off_hitter`` (default False): short backgammon's reading, the hitter may
      not be borne off in the same turn.
    - ``koks`` (default False), as in short backgammon.
    """

    name = "caucasian"
    summary = (
        "Caucasian backgammon: short backgammon in which a checker that hits may not "
        "hide on its own point in the same turn, but may be borne off."
    )
    aliases = ("caucasian-backgammon", "caucasian-nardy")

    #: A checker that hit may not be borne off in the same turn (CAU-HIT-THEN-BEAR-OFF).
    no_bear_off_hitter: bool = False
    #: Only a hit in the mover's own home board binds the hitter (CAU-HOME-ONLY).
    no_hide_home_only: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        self._set_blocks(after_hit={"home_only": self.no_hide_home_only})
