"""Tabula, the Roman game of the tables: three dice, one track, both sides alike.

What differs from backgammon's rule blocks (:mod:`gammon.rules`):

- three dice a throw, each played once, alike dice too (the dice's ``count``): a
  checker may take one, two or all three when every stop on the way is open;
- every checker starts off the board, and both sides go round one track from the same
  end, entering into the same first quarter (points 24 to 19, a die of n entering on
  25 - n) and bearing off from the same last one (the track's ``meeting="shared"``);
- nothing else moves while a checker of the side waits to enter, at the start or after
  a hit (backgammon's bar rule); with ``enter_first=False`` the others move, but none
  goes on into the second half while one waits (the entering's ``hold_half``);
- the throw is used in full where it can be, any part that cannot is lost, with no
  rule on which die; the starter of the opening lot throws the three dice afresh;
- a single game, gammons and backgammons as an option; no cube.

docs/rules/tabula.md states the rules, the sources and the readings chosen where they
disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.core.variant import TrackVariant, register
from gammon.rules import Dice, Ending, Track


@register
@dataclass(frozen=True)
class Tabula(TrackVariant):
    """Tabula. Options (docs/rules/tabula.md):

    - ``enter_first`` (default True): nothing moves while a checker waits to enter;
      False lets the others move, but none into the second half while one waits.
    - ``exact_bear_off`` (default False): a checker bears off by the exact number only.
    - ``gammons`` (default False): a win counts 2 when the loser has borne off none, 3
      when besides a checker still waits to enter or stands in the first quarter.
    """

    name = "tabula"
    summary = (
        "Tabula: the Roman game with three dice; all 15 checkers start off the board and "
        "both sides enter, move and bear off the same way round, hitting lone checkers; "
        "single game, no cube."
    )
    aliases = ("alea",)
    track = Track(start=((25, 15),), meeting="shared")
    dice = Dice(count=3, opening_plays_lot=False)
    ending = Ending(gammons=False, backgammons=False)
    family = "acey"  # everyone starts off the board on one shared track
    notation = "acey"  # a text that says which checkers wait to enter, on a shared track
    cube = False

    #: Nothing moves while a checker waits to enter (TB-ENTER-FIRST).
    enter_first: bool = True
    #: A checker bears off by the exact number only (TB-EXACT-BEAR-OFF).
    exact_bear_off: bool = False
    #: Gammons and backgammons count (TB-GAMMONS).
    gammons: bool = False

    def __post_init__(self) -> None:
        self._set_blocks(
            entering={"enter_first": self.enter_first, "hold_half": not self.enter_first},
            bearing_off={"larger": not self.exact_bear_off},
            ending={"gammons": self.gammons, "backgammons": self.gammons})
