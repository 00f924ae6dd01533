"""Money play: a session of games, a ledger, and each player's standing.

A :class:`Session` plays games of one variant for a stake per point and keeps a ledger
(:class:`LedgerEntry` per game). It reads only a finished state's ``returns()``, so it
works for every variant: the cube's points in two-player games, Multi-Gam's places
(5/3/2/1 points, which accumulate over the session), Acedrex's payouts.

Money follows points (**SESSION-LEDGER**): when a game's results sum to zero (one
player's win is the others' loss, as with the cube), each player gets their result
times the stake. When they do not (Multi-Gam's 5/3/2/1), every pair of players settles
the difference of their points, so a player gets the stake times the sum of their lead
over each other player (**SESSION-MULTI**). :meth:`Session.transfers` says who pays
whom to settle (**SESSION-SETTLE**).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import gammon
from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import RandomSource, Rules, State, play_on
from gammon.stakes.cube import cube_game
from gammon.stakes.record import GameRecord
from gammon.stakes.rules import StakeRules
from gammon.stakes.score import MatchScore

Number = int | float | Fraction


@dataclass(frozen=True)
class LedgerEntry:
    """One game in the ledger: each player's points and the money they make."""

    game: int
    points: tuple[Number, ...]
    amounts: tuple[Number, ...]
    note: str = ""


def amounts_for(points: Sequence[Number], stake: Number) -> tuple[Number, ...]:
    """The money each player makes from one game's ``points`` at ``stake`` per point."""
    if sum(points) == 0:
        return tuple(_num(p * stake) for p in points)
    return tuple(_num(stake * sum(p - q for q in points)) for p in points)


class Session:
    """Money games of ``variant`` at ``stake`` per point.

    Either play through the session (:meth:`new_game`, :meth:`apply`, which wrap each
    game in a :class:`CubeState` with ``stakes``), or :meth:`add` any finished state or
    plain results (for games played elsewhere).
    """

    def __init__(
        self,
        variant: Rules | str,
        stake: Number = 1,
        stakes: StakeRules | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        # Any: a variant whose game type plays with the stakes is a track game, which
        # ``cube_game`` takes as a TrackVariant; its game type, not its class, says so.
        self.variant: Any = gammon.variant(variant) if isinstance(variant, str) else variant
        if not isinstance(stake, int | float | Fraction) or isinstance(stake, bool) or stake <= 0:
            raise InvalidOptionError(f"the stake per point is a positive number, not {stake!r}")
        self.stake = stake
        self.stakes = stakes if stakes is not None else StakeRules()
        self.players = self.variant.players
        self.names = list(names) if names is not None else [
            f"player {p}" for p in range(self.players)]
        if len(self.names) != self.players:
            raise InvalidOptionError(f"{self.variant.name} has {self.players} players")
        self.ledger: list[LedgerEntry] = []
        self.games: list[GameRecord] = []
        #: Points won by each player (gnubg's money-session score, in the Match ID).
        self.won = [0] * self.players

    # --- playing -------------------------------------------------------------------------

    @property
    def state(self) -> State | None:
        return self.games[-1].state if self.games else None

    def new_game(self) -> State:
        """Start the next game: a :class:`CubeState` for two-player track games (the
        cube and resignations), the variant's own state otherwise."""
        if self.state is not None and not self.state.is_terminal:
            raise InvalidOptionError("finish the game in progress first")
        if self.variant.game_type.stakes:
            score = MatchScore(0, tuple(self.won))
            start: State = cube_game(self.variant, self.stakes, score)
        else:
            start = self.variant.initial_state()
        record = GameRecord(start)
        self.games.append(record)
        return record.state

    def apply(self, outcome_or_action: object) -> State:
        if not self.games or self.games[-1].is_over:
            raise InvalidOptionError("no game in progress: start one with new_game()")
        state = self.games[-1].apply(outcome_or_action)
        if state.is_terminal:
            self.add(state)
        return state

    def play_game(self, choose: Callable[[State], object], rng: RandomSource
                  ) -> LedgerEntry:
        play_on(self.new_game(), rng, choose, apply=self.apply)
        return self.ledger[-1]

    # --- the ledger ----------------------------------------------------------------------

    def add(self, result: State | Sequence[Number], note: str = "") -> LedgerEntry:
        """Enter a finished game: its state at TERMINAL, or each player's points."""
        if isinstance(result, Sequence):
            points = tuple(_num(r) for r in result)
        else:
            if not result.is_terminal:
                raise InvalidOptionError("only a finished game goes in the ledger")
            points = tuple(_num(r) for r in result.returns())
        if len(points) != self.players:
            raise InvalidOptionError(
                f"{self.variant.name} has {self.players} players, not {len(points)} results")
        if sum(points) == 0:
            for p, r in enumerate(points):
                if r > 0:
                    self.won[p] += int(r)
        entry = LedgerEntry(len(self.ledger) + 1, points, amounts_for(points, self.stake), note)
        self.ledger.append(entry)
        return entry

    def standings(self) -> tuple[Number, ...]:
        """Each player's points over the session."""
        return tuple(_num(sum(e.points[p] for e in self.ledger)) for p in range(self.players))

    def balances(self) -> tuple[Number, ...]:
        """Each player's money over the session (positive: they are owed)."""
        return tuple(_num(sum(e.amounts[p] for e in self.ledger)) for p in range(self.players))

    def transfers(self) -> list[tuple[int, int, Number]]:
        """Payments that settle the balances: (payer, payee, amount), largest first."""
        # Amounts still to pay or receive, by player, largest first.
        owed = sorted(((b, p) for p, b in enumerate(self.balances()) if b > 0), reverse=True)
        owing = sorted(((-b, p) for p, b in enumerate(self.balances()) if b < 0),
                       reverse=True)
        left_owed = [amount for amount, _ in owed]
        left_owing = [amount for amount, _ in owing]
        payments: list[tuple[int, int, Number]] = []
        i = j = 0
        while i < len(owing) and j < len(owed):
            amount = min(left_owing[i], left_owed[j])
            payments.append((owing[i][1], owed[j][1], _num(amount)))
            left_owing[i] -= amount
            left_owed[j] -= amount
            if left_owing[i] == 0:
                i += 1
            if left_owed[j] == 0:
                j += 1
        return payments

    def table(self) -> list[str]:
        """The ledger as lines of text: one per game, then the totals."""
        width = max(8, *(len(n) for n in self.names))
        head = " game  " + "  ".join(f"{n:>{width}}" for n in self.names)
        lines = [head]
        for e in self.ledger:
            cells = "  ".join(f"{_fmt(a):>{width}}" for a in e.amounts)
            lines.append(f"{e.game:>5}  {cells}" + (f"  {e.note}" if e.note else ""))
        total = "  ".join(f"{_fmt(b):>{width}}" for b in self.balances())
        lines.append(f"{'total':>5}  {total}")
        return lines


def _num(x: Number) -> Number:
    """Whole numbers as int; Fractions kept; other floats kept."""
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else x
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def _fmt(x: Number) -> str:
    if isinstance(x, Fraction):
        return f"{float(x):.2f}"
    if isinstance(x, float):
        return f"{x:.2f}"
    return str(x)
