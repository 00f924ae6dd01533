"""Plakoto, the second game of Greek Tavli: the pinning game.

Backgammon's board and directions (each side runs from the other's home corner to its
own), with what is Plakoto's own stated in its rule blocks (:mod:`gammon.rules`), which the
compiled move generator reads:

- fifteen checkers each start on the player's own 24-point (the other's 1-point);
- nothing is hit: a checker landing on a lone opposing checker pins it (``pinning``):
  the pinned checker may not move until every checker on top has left, and its point
  is closed to its owner; positions carry the pins (:mod:`gammon.core.position`);
- the mother: pinning the other side's last checker on its starting point wins as a
  double game once the pinner has no checker left on its own start; both mothers
  pinned is a draw (``mother``, :func:`gammon.kernels.tracks.mother_end`);
- no bar, no cube; a win is 1, or 2 when the loser has borne off nothing; the winner of
  the opening lot throws both dice afresh.

docs/rules/plakoto.md states the rules, the sources and the readings chosen where they
disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from gammon.core.errors import InvalidOptionError
from gammon.core.position import Position
from gammon.core.variant import MOTHERS_PINNED, GameState, TrackVariant, register
from gammon.rules import Contact, Ending, Track


@register
@dataclass(frozen=True)
class Plakoto(TrackVariant):
    """Plakoto. Options (docs/rules/plakoto.md):

    - ``reroll_opening`` (default True): the winner of the opening lot throws both dice
      for the first turn; False plays the two dice of the lot.
    - ``pinned_holds_bear_off`` (default True): a checker of yours pinned in your home
      board keeps you from bearing off until it is free; False: it counts as home.
    """

    name = "plakoto"
    summary = (
        "Plakoto (Greek tavli's second game): 15 checkers each on the opponent's 1-point, "
        "no hitting: a checker landing on a lone opposing checker pins it; pinning the "
        "opponent's last checker on its start wins; no cube, 1 or 2 points."
    )
    aliases: ClassVar[tuple[str, ...]] = ("tavli-plakoto",)
    track = Track(start=((24, 15),))
    #: Pinning the other side's mother ends the game (PLAKOTO-MOTHER). Not an option: no
    #: source plays without it, and without it two pinned mothers never end the game.
    contact = Contact(hitting=False, pinning=True, mother="wins")
    ending = Ending(backgammons=False,
                    result_names=("single game", "double game", "triple game"))
    cube = False
    notation = "pins"
    move_text = "pins"

    #: The winner of the opening lot throws both dice afresh (PLAKOTO-OPENING).
    reroll_opening: bool = True
    #: A pinned checker in its owner's home board holds back bearing off
    #: (PLAKOTO-BEAROFF-PINNED).
    pinned_holds_bear_off: bool = True

    def __post_init__(self) -> None:
        self._set_blocks(dice={"opening_plays_lot": not self.reroll_opening},
                         contact={"pinned_holds_bear_off": self.pinned_holds_bear_off})

    def check_position(self, position: Position) -> None:
        """Also refuses checkers on a bar: nothing is hit in a game that pins."""
        super().check_position(position)
        for p in range(self.players):
            if position.bar(p):
                raise InvalidOptionError(
                    f"player {p} has {position.bar(p)} checkers on the bar; {self.name} has "
                    "no bar (nothing is hit: a checker landed on is pinned)")

    def announce(self, before: GameState, taken: Any,
                 after: GameState) -> list[tuple[int | None, str]]:
        """A game ended by the mother (PLAKOTO-MOTHER) is said to be so: the board alone
        shows a double game won with fifteen checkers still on it."""
        if not after.is_terminal or before.is_chance or before.is_terminal:
            return []
        mover = before.position.turn
        if after.position.off(mover) == self.checkers:
            return []  # borne off: the usual end
        if after.memo == MOTHERS_PINNED:
            return [(mover, "pins the other mother too: both mothers pinned, the game is "
                            "drawn.")]
        return [(mover, "pins the opponent's mother (its last checker on its starting "
                        "point) with none of its own left on its own start: the game is "
                        "won.")]
