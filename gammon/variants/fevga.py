"""Fevga, the third game of Greek Tavli (Moultezim in Turkey).

The board is Long Nardy's (:class:`SameWayRound`): fifteen checkers each on their own
24-point, both sides the same way round from opposite corners, nothing hit, a single
checker holding a point. What is Fevga's own, each a field of a rule block that the
compiled move generator reads (:mod:`gammon.rules`):

- the first checker: no second checker leaves the 24-point until one has passed the
  opponent's starting point (the head's ``first_past``);
- nobody may hold all six points of their own starting quarter (``start_quarter_open``,
  the option ``start_quarter``);
- a prime may stand anywhere, but once every opposing checker is behind it, the next
  play that can must open it (``prime_must_open``, the option ``open_prime``); Long
  Nardy's six-block rule, which forbids such a prime outright, is the option
  ``six_block``; as an option, no six points just past the opponent's start while
  checkers remain on it (``front_prime_open``);
- the starting quarter is judged on the board a play leaves (``quarters_at_end``;
  the option ``quarters_each_move`` judges every single move);
- no head rule, no cube; a win is 1, or 2 when the loser has borne off nothing; the
  winner of the opening lot throws both dice afresh.

docs/rules/fevga.md states the rules, the sources and the readings chosen where they
disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gammon.core.variant import register
from gammon.rules import Dice, Ending, Head
from gammon.variants.nardy import SameWayRound


@register
@dataclass(frozen=True)
class Fevga(SameWayRound):
    """Fevga. Options (docs/rules/fevga.md):

    - ``start_quarter`` (default True): a player may never hold all six points of their
      own starting quarter (19-24); False lifts the rule.
    - ``open_prime`` (default True): a player whose six points in a row have every
      opposing checker behind them must open them with the next play that can.
    - ``six_block`` (default False): Long Nardy's rule instead, no six points in a row
      unless an opposing checker is ahead of them, after every single move.
    - ``front_prime`` (default False): nobody may hold the six points just past the
      opponent's starting point (their own 11 to 6) while the opponent still has a
      checker on it.
    - ``quarters_each_move`` (default False): the starting quarter (and Moultezim's
      opponent's quarter) judged after every single move, not on the board a play
      leaves.
    """

    name = "fevga"
    summary = (
        "Fevga (Greek tavli's third game): 15 checkers each in opposite corners, both "
        "sides the same way round, no hitting, the first checker must pass the opponent's "
        "start, no full starting quarter, a prime that shuts the opponent in must be "
        "opened, no cube; 1 or 2 points."
    )
    aliases: ClassVar[tuple[str, ...]] = ("tavli-fevga",)
    dice = Dice(opening_plays_lot=False)
    head = Head(first_past=12)  # the opponent's start
    ending = Ending(backgammons=False,
                    result_names=("single game", "double game", "triple game"))
    cube = False

    #: No player holds all six points of their starting quarter (FV-START-QUARTER).
    start_quarter: bool = True
    #: A prime with every opposing checker behind it is opened when the dice allow
    #: (FV-OPEN-PRIME).
    open_prime: bool = True
    #: No six in a row with no opposing checker ahead, after every move (FV-SIX-BLOCK).
    six_block: bool = False
    #: No six points just past the opponent's start while it holds checkers
    #: (FV-FRONT-PRIME).
    front_prime: bool = False
    #: The quarter limits judged after every single move (FV-QUARTER-EACH-MOVE).
    quarters_each_move: bool = False

    def __post_init__(self) -> None:
        self._set_blocks(blocking={
            "start_quarter_open": self.start_quarter, "front_prime_open": self.front_prime,
            "six_block": self.six_block,
            "prime_must_open": self.open_prime and not self.six_block,
            "quarters_at_end": not self.quarters_each_move})
