"""Russian backgammon: a true race, both sides entering, moving and bearing off alike.

What differs from backgammon's rule blocks (:mod:`gammon.rules`):

- every checker starts off the board, and both sides go round one track from the same
  end: they enter into the same starting table (points 24 to 19, a die of n entering on
  25 - n), move the same way and bear off from the same last table; a point is the
  same point for both (the track's ``meeting="shared"``);
- nothing else moves while a checker of the side waits to enter (backgammon's bar
  rule, which the start on the bar makes "enter all fifteen first");
- a double played in full is followed by its complement (6-6 by 1-1, 5-5 by 2-2, 4-4
  by 3-3...), four times too, and then the same player throws again; a part not played
  in full ends the turn, and a double thrown while a checker waits to enter is played
  four times and nothing more (the dice's ``complement``, ``again`` and
  ``plain_entering``);
- the starter chooses between playing the opening lot's two dice and throwing again
  (the dice's ``lot_choice``);
- hitting, gammons and backgammons as in backgammon, the backgammon being a loser with
  a checker still to enter or in the starting table; no cube.

docs/rules/russian.md states the rules, the sources and the readings chosen where they
disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.core.errors import InvalidOptionError
from gammon.core.variant import TrackVariant, register
from gammon.rules import Dice, Track

#: The values of ``opening``.
OPENINGS = ("choice", "lot", "throw")


@register
@dataclass(frozen=True)
class RussianBackgammon(TrackVariant):
    """Russian backgammon. Options (docs/rules/russian.md):

    - ``complement`` (default True): a double played in full is followed by its
      complement; False plays doubles as backgammon does, with the throw again.
    - ``again`` (default True): a double (and its complement) played in full earns
      another throw.
    - ``complement_while_entering`` (default False): the complement and the throw again
      follow a double even while a checker waits to enter.
    - ``opening`` (default ``"choice"``): the winner of the opening lot chooses between
      playing the lot's two dice and throwing both again; ``"lot"`` always plays them,
      ``"throw"`` always throws again.
    """

    name = "russian"
    summary = (
        "Russian backgammon: all 15 checkers start off the board, both sides enter, move "
        "and bear off the same way round, with hitting; a double played in full is "
        "followed by its complement and another throw; no cube."
    )
    aliases = ("russian-backgammon",)
    track = Track(start=((25, 15),), meeting="shared")
    dice = Dice(complement=True, again=True, plain_entering=True)
    family = "acey"  # everyone starts off the board, and doubles earn more
    notation = "acey"  # a text that says which checkers wait to enter, on a shared track
    cube = False

    #: A double played in full is followed by its complement (RU-COMPLEMENT).
    complement: bool = True
    #: ... and by another throw (RU-AGAIN).
    again: bool = True
    #: The complement and the throw again follow while a checker waits to enter
    #: (RU-ENTERING-DOUBLES).
    complement_while_entering: bool = False
    #: The opening lot: the starter's "choice", always the "lot", or always "throw"
    #: again (RU-OPENING).
    opening: str = "choice"

    def __post_init__(self) -> None:
        if self.opening not in OPENINGS:
            raise InvalidOptionError(
                f"opening {self.opening!r}: choose one of {', '.join(OPENINGS)} (the "
                "starter's choice between the lot's dice and a fresh throw, or always one)")
        self._set_blocks(dice={"complement": self.complement, "again": self.again,
                               "plain_entering": not self.complement_while_entering,
                               "lot_choice": self.opening == "choice",
                               "opening_plays_lot": self.opening == "lot"})
