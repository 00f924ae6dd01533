"""Match play: a series of games to N points, with the Crawford rule.

A :class:`Match` starts each game with the score carried over (a :class:`MatchScore`
inside every state), records it (:class:`GameRecord`), and adds the points of each
finished game: the cube value times 1, 2 or 3 for a single game, gammon or backgammon
(**MATCH-SCORE**). The match ends when a player reaches the match length
(**MATCH-END**). No doubling in the Crawford game (**MATCH-CRAWFORD**); doubling again
after it (**MATCH-POST-CRAWFORD**).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import play_on
from gammon.core.variant import TrackVariant, track_variant
from gammon.stakes.cube import CubeState, cube_game
from gammon.stakes.record import GameRecord, result_event
from gammon.stakes.rules import StakeRules
from gammon.stakes.score import MatchScore

#: A chooser: the action to take in a state at DECIDE.
Chooser = Callable[[CubeState], Any]


class Match:
    """A match to ``length`` points between two players.

    ``stakes`` are the stake options (money-only options are refused). ``score`` starts
    the match at another score; ``crawford`` switches the Crawford rule. Play a game
    with :meth:`new_game`, then :meth:`apply` each roll and action; a finished game's
    points go to the score at once.
    """

    def __init__(
        self,
        variant: TrackVariant | str,
        length: int,
        stakes: StakeRules | None = None,
        *,
        score: tuple[int, int] = (0, 0),
        crawford: bool = True,
    ) -> None:
        self.variant = track_variant(variant) if isinstance(variant, str) else variant
        if self.variant.players != 2:
            raise InvalidOptionError(
                f"match play is for two players; {self.variant.name} has {self.variant.players}"
            )
        if not isinstance(length, int) or isinstance(length, bool) or length < 1:
            raise InvalidOptionError(f"a match is played to 1 point or more, not {length!r}")
        self.stakes = stakes if stakes is not None else StakeRules()
        self.stakes.check_match(length)
        self.length = length
        self.score = MatchScore.match(length, score, crawford_rule=crawford)
        self.start_score = self.score
        self.games: list[GameRecord] = []

    @property
    def record(self) -> GameRecord | None:
        """The game being played (or the last one)."""
        return self.games[-1] if self.games else None

    @property
    def state(self) -> CubeState | None:
        return self.games[-1].state if self.games else None

    @property
    def in_game(self) -> bool:
        return self.state is not None and not self.state.is_terminal

    @property
    def is_over(self) -> bool:
        return self.score.is_over

    @property
    def winner(self) -> int | None:
        return self.score.winner

    def new_game(self) -> CubeState:
        """Start the next game at the current score."""
        if self.is_over:
            raise InvalidOptionError(f"the match is over: {self.score.text()}")
        if self.in_game:
            raise InvalidOptionError("finish the game in progress first")
        record = GameRecord(cube_game(self.variant, self.stakes, self.score))
        self.games.append(record)
        return record.state

    def apply(self, outcome_or_action: Any) -> CubeState:
        """Apply a roll or an action to the game in progress; score it when it ends."""
        record = self.record
        if record is None or record.is_over:
            raise InvalidOptionError("no game in progress: start one with new_game()")
        state = record.apply(outcome_or_action)
        if state.is_terminal:
            self.score = state.result_score
        return state

    def play_game(self, choose: Chooser, rng: Any) -> CubeState:
        """Play a whole game: ``choose(state)`` decides, ``rng`` throws the dice."""
        return play_on(self.new_game(), rng, choose, apply=self.apply)

    def play(self, choose: Chooser, rng: Any) -> int:
        """Play games until the match is over; returns the winner."""
        while not self.is_over:
            self.play_game(choose, rng)
        winner = self.winner
        assert winner is not None
        return winner

    def summary(self) -> list[str]:
        """One line per game: its number, the score before it, and the result."""
        lines = []
        for number, record in enumerate(self.games, 1):
            state = record.state
            before = record.start.score
            result = result_event(state).text if state.is_terminal else "playing"
            winner = state.winner
            who = f"player {winner} " if winner is not None and state.is_terminal else ""
            lines.append(f"game {number} at {before.text()}: {who}{result}")
        return lines
