"""Multi-Gam: four players race five checkers each over a quarter board.

The board is six points between a shared BAR and OFF. Everyone moves the same way over
the same points, so a point means the same thing to every player and
:meth:`MultiGam.shared_slot` is the identity. In the project's own numbering (see
:mod:`gammon.core.position`) the source's point ``p`` is slot ``7 - p``, its BAR slot 7
and its OFF slot 0; the rules page and the notation speak the source's numbers.

What differs from backgammon's rule blocks and turn:

- the opening: every player throws one die; ties for the highest re-throw among the
  tied players only (a :class:`RollOff` outcome); the starter plays the winning die
  with the lowest die showing on the table;
- with checkers on the BAR a player must enter one when a die can (option
  ``must_enter``), but need not enter first or enter them all (the loose bar);
- turns pass clockwise, skipping players who have finished;
- the game ends when the third player finishes; places score 5/3/2/1.

The memo of a state (:class:`MultiGamMemo`) keeps the dice on the table during the
opening and the finishing order afterwards.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, ClassVar

import numpy as np

from gammon.core.dice import Outcomes, Roll, two_dice
from gammon.core.errors import IllegalOutcomeError, InvalidOptionError
from gammon.core.play import Play
from gammon.core.position import Position
from gammon.core.protocol import Phase
from gammon.core.variant import GameState, TrackVariant, register
from gammon.kernels import multigam, tracks
from gammon.rules import BearingOff, Ending, Entering, Track

#: Points scored by the 1st, 2nd, 3rd and 4th place.
SCORES = (5, 3, 2, 1)


@dataclass(frozen=True, slots=True)
class RollOff(Roll):
    """A re-throw in the opening among the players tied for the highest die.

    ``players`` are the tied players, in player order, and ``dice`` their new dice in
    the same order. Written like ``P0:4 P2:6``.
    """

    def __post_init__(self) -> None:
        if len(self.players) != len(self.dice) or len(self.players) < 2:
            raise ValueError("a roll-off gives one die to each of two or more tied players")

    def __str__(self) -> str:
        return " ".join(f"P{p}:{d}" for p, d in zip(self.players, self.dice, strict=True))


@dataclass(frozen=True, slots=True)
class MultiGamMemo:
    """What a Multi-Gam state remembers besides the position.

    ``table`` is the die showing in front of each player during the opening (0 before
    the first throw); it stays as it was once the opening is decided. ``rolling`` are
    the tied players who must throw again (empty once a starter is found). ``ranking``
    is the finishing order so far.
    """

    table: tuple[int, ...] = ()
    rolling: tuple[int, ...] = ()
    ranking: tuple[int, ...] = ()


def _not_all_equal(count: int, sides: int) -> list[tuple[int, ...]]:
    return [dice for dice in itertools.product(range(1, sides + 1), repeat=count)
            if len(set(dice)) > 1]


@cache
def first_throw_outcomes(players: int, sides: int = 6) -> Outcomes:
    """The opening throw of one die each, all dice equal left out (everybody throws
    again, as if nothing had happened), the others equally likely."""
    throws = _not_all_equal(players, sides)
    p = Fraction(1, len(throws))
    return Outcomes((Roll(dice, opening=True), p) for dice in throws)


@cache
def roll_off_outcomes(players: tuple[int, ...], sides: int = 6) -> Outcomes:
    """Every re-throw of one die each by the tied ``players`` that changes something:
    all equal again is thrown again, so it is left out and the others are equally
    likely."""
    throws = _not_all_equal(len(players), sides)
    p = Fraction(1, len(throws))
    return Outcomes((RollOff(dice, opening=True, players=players), p) for dice in throws)


@register
@dataclass(frozen=True)
class MultiGam(TrackVariant):
    name = "multi-gam"
    summary = (
        "Four players, five checkers each on a quarter board (6 points): loose bar, "
        "hitting, overshoot bear-off, places scored 5/3/2/1."
    )
    aliases = ("multigam",)
    turns = "own"
    #: One quarter board, all five checkers of each player waiting on the BAR.
    track = Track(points=6, home=6, players=4, start=((7, 5),), meeting="shared")
    entering = Entering(enter_first=False)
    bearing_off = BearingOff(all_home=False)
    ending = Ending(gammons=False, backgammons=False)
    board = "quarter"
    notation = "multigam"
    move_text = "multigam"
    think_seconds = 0.36
    cube = False
    #: Points for the 1st, 2nd, 3rd and 4th place.
    place_scores: ClassVar[tuple[int, ...]] = SCORES
    family = "multigam"

    #: "You must attempt to enter": with checkers on the BAR, a play must enter one
    #: when some play can (MG-MUST-ENTER); False: entering is only ever a choice.
    must_enter: bool = True

    def __post_init__(self) -> None:
        self._set_blocks(entering={"must_enter": self.must_enter})

    # --- positions ---------------------------------------------------------------

    def check_position(self, position: Position) -> None:
        """Also: a point holds the checkers of one player only."""
        super().check_position(position)
        for slot in range(1, self.points + 1):
            owners = [p for p in range(self.players) if position.count(p, slot)]
            if len(owners) > 1:
                point = self.points + 1 - slot
                raise InvalidOptionError(
                    f"point {point} holds checkers of players {owners[0]} and {owners[1]}; "
                    "a point belongs to one player"
                )

    def finished(self, position: Position) -> tuple[int, ...]:
        """The players who have borne off all their checkers, in player order."""
        return tuple(p for p in range(self.players) if position.off(p) == self.checkers)

    def state(
        self,
        position: Position,
        dice: tuple[int, ...] | None = None,
        ranking: Sequence[int] | None = None,
    ) -> GameState:
        """A mid-game state: ``position.turn`` to play ``dice``, or to roll if None.

        ``ranking`` is the finishing order so far; by default the finished players in
        player order (a position does not say who finished first).
        """
        state = super().state(position, dice)
        done = self.finished(position)
        if ranking is None:
            ranking = done
        ranking = tuple(ranking)
        if sorted(ranking) != list(done):
            raise InvalidOptionError(
                f"ranking {list(ranking)} must list exactly the finished players {list(done)}"
            )
        if len(done) >= self.players - 1:
            raise InvalidOptionError("three players have finished: the game is over")
        if position.turn in done:
            raise InvalidOptionError(
                f"player {position.turn} has borne off every checker and no longer plays"
            )
        memo = MultiGamMemo(ranking=ranking)
        return GameState(self, position, state.phase, state.dice, False, 0, memo)

    def initial_state(self) -> GameState:
        memo = MultiGamMemo(table=(0,) * self.players, rolling=tuple(range(self.players)))
        return GameState(self, self.start_position(), memo=memo)

    @staticmethod
    def memo_of(state: GameState) -> MultiGamMemo:
        memo = state.memo
        return memo if isinstance(memo, MultiGamMemo) else MultiGamMemo()

    # --- chance ------------------------------------------------------------------

    def chance_outcomes(self, state: GameState) -> Sequence[tuple[Roll, Fraction]]:
        if not state.opening:
            return two_dice(self.sides)
        rolling = self.memo_of(state).rolling or tuple(range(self.players))
        if len(rolling) == self.players:
            return first_throw_outcomes(self.players, self.sides)
        return roll_off_outcomes(rolling, self.sides)

    def apply_roll(self, state: GameState, roll: Roll) -> GameState:
        if not state.opening:
            return super().apply_roll(state, roll)
        rolling = self.memo_of(state).rolling or tuple(range(self.players))
        if len(rolling) == self.players:
            if isinstance(roll, RollOff):
                raise IllegalOutcomeError(f"{roll}: nobody is tied yet; every player throws")
            self.check_roll(roll, self.players, True)
        else:
            names = ", ".join(f"P{p}" for p in rolling)
            if not isinstance(roll, RollOff) or roll.players != rolling:
                raise IllegalOutcomeError(f"expected a roll-off among the tied players "
                                          f"{names}, got {roll}")
            self.check_roll(roll, len(rolling), True)
        if len(set(roll.dice)) == 1:
            raise IllegalOutcomeError(f"{roll}: when every die is equal they are all thrown "
                                      "again, so that is not an outcome")
        return self.apply_opening(state, roll, rolling)

    def apply_opening(
        self, state: GameState, roll: Roll, throwers: Sequence[int] = ()
    ) -> GameState:
        """The throwers' dice go on the table; the highest starts, ties throw again.

        The starter's first roll is the winning die and the lowest die showing in front
        of the other players (always lower, so never a double).
        """
        memo = self.memo_of(state)
        throwers = tuple(throwers) or tuple(range(self.players))
        table = list(memo.table or (0,) * self.players)
        for player, die in zip(throwers, roll.dice, strict=True):
            table[player] = die
        best = max(table[p] for p in throwers)
        tied = tuple(p for p in throwers if table[p] == best)
        if len(tied) > 1:
            # The tied players' dice are thrown again, so the table forgets them: the
            # state no longer depends on the value they tied on.
            for player in tied:
                table[player] = 0
            memo = MultiGamMemo(tuple(table), tied, ())
            return GameState(self, state.position, Phase.CHANCE, (), True, 0, memo)
        starter = tied[0]
        low = min(table[p] for p in range(self.players) if p != starter)
        memo = MultiGamMemo(tuple(table), (), ())
        position = state.position.with_turn(starter)
        return GameState(self, position, Phase.DECIDE, (best, low), False, 0, memo)

    # --- turns -------------------------------------------------------------------

    def after_play(self, state: GameState, play: Play) -> GameState:
        """Rank the mover if they are off; end after the third; else pass clockwise,
        skipping finished players."""
        memo = self.memo_of(state)
        mover = state.position.turn
        board = play.result.board
        ranking = memo.ranking
        if board[mover * self.slots] == self.checkers and mover not in ranking:
            ranking = (*ranking, mover)
        moves = state.moves + 1
        if len(ranking) >= self.players - 1:
            last = next(p for p in range(self.players) if p not in ranking)
            memo = MultiGamMemo(memo.table, (), (*ranking, last))
            # The position's turn goes to the player left in last place.
            position = Position(board, self.players, last)
            return GameState(self, position, Phase.TERMINAL, (), False, moves, memo)
        following = (mover + 1) % self.players
        while following in ranking:
            following = (following + 1) % self.players
        position = Position(board, self.players, following)
        memo = MultiGamMemo(memo.table, (), ranking)
        return GameState(self, position, Phase.CHANCE, (), False, moves, memo)

    # --- scoring -----------------------------------------------------------------

    def ranking(self, state: GameState) -> tuple[int, ...]:
        """The finishing order so far (all four places once the game is over)."""
        return self.memo_of(state).ranking

    def announce(self, before: GameState, taken: Any,
                 after: GameState) -> list[tuple[int | None, str]]:
        """A player who bears off the last checker is told their place."""
        ranking = self.ranking(after)
        if len(ranking) > len(self.ranking(before)):
            place = ("1st", "2nd", "3rd", "4th")[len(self.ranking(before))]
            return [(ranking[len(self.ranking(before))],
                     f"bears off the last checker and finishes {place}.")]
        return []

    def winner_points(self, position: Position, winner: int) -> int:
        return SCORES[0]

    def returns(self, state: GameState) -> tuple[float, ...]:
        """Each player's score for their place: 5, 3, 2, 1."""
        scores = [0.0] * self.players
        for place, player in enumerate(self.ranking(state)):
            scores[player] = float(SCORES[place])
        return tuple(scores)

    def rollout_values(self, state: GameState, games: int, seed: int | None = None,
                       max_turns: int = 10000, greedy: bool = False) -> np.ndarray:
        """Each player's mean score over ``games`` compiled random continuations of a
        CHANCE ``state`` (the player to move rolls next). ``seed`` reseeds the compiled
        generator; None continues its stream."""
        if state.phase is not Phase.CHANCE or state.opening:
            raise ValueError("rollouts start from a roll of a game under way, not "
                             f"from a {state.phase.name} state or the opening")
        if seed is not None:
            tracks.seed_kernels(seed)
        plays, words = multigam.workspace(self.players, self.slots)
        board = np.frombuffer(state.position.board, np.int8).copy()
        ranked = np.array(self.memo_of(state).ranking, np.int64)
        return multigam.mean_scores(games, board, state.position.turn, ranked,
                                    self.kernel.rules, np.asarray(SCORES, np.int64),
                                    max_turns, plays, words, greedy)

    def random_playouts(
        self, games: int, seed: int | None, max_turns: int = 10000
    ) -> np.ndarray:
        """``games`` whole random games in the compiled kernel, opening included.

        Rows of ``(winner, points, plays, starter, score per seat..., place per
        seat...)``: the first three columns mean what they mean for two players
        (winner = first place, -1 if ``max_turns`` ran out); places are 1-4, 0 for a
        player not placed in an unfinished game.
        """
        start = self.start_position().board
        return multigam.playouts(games, start, self.kernel.rules, SCORES, seed, max_turns)
