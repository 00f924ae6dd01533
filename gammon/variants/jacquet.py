"""Jacquet, the French tables game of the nineteenth century: the courier goes first.

The board is Long Nardy's (:class:`SameWayRound`): fifteen checkers each on their own
24-point (the *talon*), both sides the same way round from opposite corners, nothing
hit, a single checker holding a point. What is Jacquet's own is a field of the head's
rule block (:mod:`gammon.rules`):

- the courier: no second checker leaves the talon until one has reached the last
  quarter, the player's own 6 to 1 (``first_past=7``);
- six points in a row (the *bouchon*) are allowed anywhere, however they shut the
  opponent in; no cube; the winner of the opening lot throws both dice afresh;
- a win is 1, or 2 (the *marche*) when the loser has borne off nothing.

docs/rules/jacquet.md states the rules, the sources and the readings chosen where they
disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.core.errors import InvalidOptionError
from gammon.core.variant import register
from gammon.rules import Dice, Ending, Head
from gammon.variants.nardy import SameWayRound

#: The courier's goal: past its owner's 7-point, into the last quarter (JQ-COURIER).
LAST_QUARTER = 7


@register
@dataclass(frozen=True)
class Jacquet(SameWayRound):
    """Jacquet. Options (docs/rules/jacquet.md):

    - ``courier_to`` (default ``"last-quarter"``): where the courier must go before a
      second checker leaves the talon; ``"opponent-start"`` is Fevga's rule (past the
      opponent's talon, the player's own 12).
    - ``marche`` (default True): a loser who has borne off nothing loses 2; False plays
      every win as 1.
    """

    name = "jacquet"
    summary = (
        "Jacquet (the French game): 15 checkers each in opposite corners, both sides the "
        "same way round, no hitting; the courier must reach the last quarter before a "
        "second checker leaves the start; no cube; 1 point, or 2 for a marche."
    )
    aliases = ("jaquet", "postillon")
    dice = Dice(opening_plays_lot=False)
    head = Head(first_past=LAST_QUARTER)
    ending = Ending(backgammons=False,
                    result_names=("single game", "marche", "triple game"))
    cube = False

    #: Where the courier goes first: "last-quarter" or "opponent-start" (JQ-COURIER,
    #: JQ-COURIER-OPTION).
    courier_to: str = "last-quarter"
    #: A loser with nothing borne off loses 2 (JQ-MARCHE).
    marche: bool = True

    def __post_init__(self) -> None:
        goals = {"last-quarter": LAST_QUARTER, "opponent-start": self.points // 2}
        if self.courier_to not in goals:
            raise InvalidOptionError(
                f"courier_to {self.courier_to!r}: choose last-quarter (the courier into "
                "the player's own 6 to 1) or opponent-start (past the opponent's talon)")
        self._set_blocks(head={"first_past": goals[self.courier_to]},
                         ending={"gammons": self.marche})
