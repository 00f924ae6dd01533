"""Long Nardy (long backgammon), the long game of shared/sources/002.

Fifteen checkers each start on the *head*, the player's own 24-point, and both players
travel the same way round the board from opposite corners, so one player's point *n* is
the other's point *n* + 12 (mod 24). Nothing is ever hit: a point with any opposing
checker on it is closed. Only one checker may leave the head in a turn, except on a
player's first roll of 6-6, 4-4 or 3-3 (and, as an option, the second player's wider
exception after the starter's 2-1, 6-2 or 5-5); a block of six points is legal only while an
opposing checker is ahead of it. Scoring: *oin* (1) and *mars* (2), with *koks* (3) and
the *last roll* for the second player as options. docs/rules/long-nardy.md states every
rule and the readings chosen where the sources disagree.

Everything above is a field of a rule block (:mod:`gammon.rules`) and runs in the
compiled move generator; this module states the values. The board the game shares
with Fevga (:mod:`gammon.variants.fevga`): both sides the same way round from opposite
corners, a point held by one checker, nothing hit, is :class:`SameWayRound`.
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.core.errors import InvalidOptionError
from gammon.core.position import Position
from gammon.core.variant import TrackVariant, register
from gammon.rules import Blocking, Contact, Dice, Ending, Head, Track

#: The second player's wider first-roll head exception (LN-HEAD-WIDE): after the
#: starter's first roll was one of these, a first roll of one of ``WIDE_ROLLS``.
WIDE_AFTER = ((2, 1), (6, 2), (5, 5))
WIDE_ROLLS = ((5, 5), (6, 2))


@dataclass(frozen=True)
class SameWayRound(TrackVariant):
    """The board of the games whose two sides travel the same way round from opposite
    corners: fifteen checkers each on their own 24-point, one's point ``n`` the other's
    ``n + 12``; nothing is hit and one checker holds a point, so a point belongs to one
    side and there is no bar. Long Nardy and Fevga build on it (not a game itself)."""

    track = Track(start=((24, 15),), meeting="same-way")
    contact = Contact(hitting=False, block=1)
    notation = "nardy"
    move_text = "nardy"
    family = "nardy"

    def check_position(self, position: Position) -> None:
        """Also refuses checkers on a bar (these games have none) and shared points."""
        super().check_position(position)
        for p in range(self.players):
            if position.bar(p):
                raise InvalidOptionError(
                    f"player {p} has {position.bar(p)} checkers on the bar; {self.name} "
                    "has no bar (nothing is ever hit)"
                )
        for point in range(1, self.points + 1):
            theirs = self.shared_slot(0, point, 1)
            if position.count(0, point) and position.count(1, theirs):
                raise InvalidOptionError(
                    f"player 0's point {point} (player 1's point {theirs}) holds checkers "
                    f"of both players; in {self.name} a point belongs to one side"
                )


@register
@dataclass(frozen=True)
class LongNardy(SameWayRound):
    """Long Nardy. Options:

    - ``head_doubles_both`` (default True, the federation reading): the first-roll
      exception (two checkers off the head on 6-6, 4-4, 3-3) applies to each player's
      first roll; False: only to the starter's first roll.
    - ``mars`` (default True): a loser who has borne off nothing loses 2 points (mars);
      False plays the "oin" game, where every win is 1 point.
    - ``koks`` (default False): a mars in which the loser still has a checker in their
      own first quarter (points 19-24, the head's quarter) scores 3.
    - ``last_roll`` (default False): when the starter bears off the last checker, the
      other player gets one more roll; bearing off everything with it draws the game.
      No cube action is possible before that roll.
    - ``wide_head_exception`` (default False): after the starter's first roll of 2-1,
      6-2 or 5-5, the second player's first roll of 5-5 or 6-2 may also take two
      checkers from the head.
    """

    name = "long-nardy"
    summary = (
        "Long Nardy (long backgammon): 15 checkers on the head, both sides the same way "
        "round, no hitting, head and six-block rules, oin and mars."
    )
    aliases = ("long", "long-backgammon", "narde", "long-narde")
    head = Head(slot=24, doubles=(6, 4, 3))
    dice = Dice(opening_plays_lot=False)
    blocking = Blocking(six_block=True)
    ending = Ending(result_names=("oin", "mars", "koks"))

    #: The first-roll head doubles for both players (LN-HEAD-DOUBLES-BOTH).
    head_doubles_both: bool = True
    #: A loser with nothing borne off loses 2 (LN-MARS-OPTION).
    mars: bool = True
    #: A mars with a loser's checker in their first quarter scores 3 (LN-KOKS).
    koks: bool = False
    #: The second player's last roll after the starter finishes (LN-LAST-ROLL).
    last_roll: bool = False
    #: The second player's wider first-roll head exception (LN-HEAD-WIDE).
    wide_head_exception: bool = False

    def __post_init__(self) -> None:
        if self.koks and not self.mars:
            raise InvalidOptionError(
                "koks is a kind of mars: it needs mars=True (the oin game has neither)"
            )
        wide = self.wide_head_exception
        self._set_blocks(
            head={"doubles_both": self.head_doubles_both,
                  "wide_after": WIDE_AFTER if wide else (),
                  "wide_rolls": WIDE_ROLLS if wide else ()},
            ending={"gammons": self.mars, "backgammons": self.koks,
                    "last_roll": self.last_roll})
