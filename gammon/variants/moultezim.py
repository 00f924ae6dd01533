"""Moultezim (Mültezim), Turkey's running game: Fevga with blocking rules of its own.

Everything Fevga has (:mod:`gammon.variants.fevga`) holds: Long Nardy's board, both
sides the same way round from opposite corners, nothing hit, a single checker holding a
point, the first checker past the opponent's start before a second leaves, nobody
holding all six points of their own starting quarter, the starter throwing afresh, no
cube. What is Moultezim's own:

- no more than four points held in the opponent's starting quarter (the quarter their
  checkers start from), so that no wall stands in front of their pile
  (``opponent_quarter_limit``, the option ``opponent_quarter``);
- no duty to open a prime (``open_prime``, an option here) and no six-block rule
  (``six_block``, an option as in Fevga);
- every win is one point: no double game (``gammons``, the option ``double_game``).

docs/rules/moultezim.md states the rules, the sources and the readings chosen where they
disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from gammon.core.errors import InvalidOptionError
from gammon.core.variant import register
from gammon.variants.fevga import Fevga


@register
@dataclass(frozen=True)
class Moultezim(Fevga):
    """Moultezim. Options (docs/rules/moultezim.md), besides Fevga's ``start_quarter``
    and ``front_prime``:

    - ``opponent_quarter`` (default 4): the most points a player may hold in the
      opponent's starting quarter (1 to 6; 5 only forbids all six, 6 lifts the rule).
    - ``open_prime`` (default False): Fevga's duty to open a prime that has every
      opposing checker behind it.
    - ``six_block`` (default False): Long Nardy's rule, no six points in a row with no
      opposing checker ahead of them.
    - ``quarters_each_move`` (default False): both quarter limits judged after every
      single move, not on the board a play leaves.
    - ``double_game`` (default False): a loser who has borne off nothing loses 2.
    """

    name = "moultezim"
    summary = (
        "Moultezim (Turkey's Fevga): 15 checkers each in opposite corners, both sides the "
        "same way round, no hitting, the first checker must pass the opponent's start, "
        "at most four points in the opponent's starting quarter, no full starting "
        "quarter, primes allowed, no cube; 1 point a game."
    )
    aliases = ("multezim", "mueltezim")
    #: What a web table sets (MZ-OPPONENT-QUARTER).
    table_options: ClassVar[Mapping[str, tuple[int, int]]] = {"opponent_quarter": (1, 6)}

    #: No six in a row with no opposing checker ahead (MZ-SIX-BLOCK; off: MZ-PRIMES).
    six_block: bool = False
    #: No duty to open a prime that shuts the opponent in (MZ-PRIMES).
    open_prime: bool = False
    #: Points of the opponent's starting quarter a player may hold (MZ-OPPONENT-QUARTER).
    opponent_quarter: int = 4
    #: A loser with nothing borne off loses 2 (MZ-DOUBLE-GAME).
    double_game: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.opponent_quarter <= self.home:
            raise InvalidOptionError(
                f"opponent_quarter is how many of the {self.home} points of the opponent's "
                f"starting quarter a player may hold: 1 to {self.home}, not "
                f"{self.opponent_quarter}"
            )
        super().__post_init__()
        # All six allowed is no rule at all: the kernel then skips the count.
        limit = self.opponent_quarter if self.opponent_quarter < self.home else 0
        self._set_blocks(blocking={"opponent_quarter_limit": limit},
                         ending={"gammons": self.double_game})
