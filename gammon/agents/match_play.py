"""Checker play that knows the score: in a match, plays are weighed by match equity.

In money play a gammon is worth two points whatever the score; in a match it is worth
what two points do to the chance of winning the match: nothing more than a single win at
double match point, everything when the leader needs two. :class:`MatchEvaluator` wraps
an evaluator for one match score and cube: each board's chances of each result (single,
gammon, backgammon, won or lost) are weighed by the chance of winning the match after it
(the Kazaross-XG2 table, :func:`gammon.agents.cube.match_equity`), and the value is that
match-winning chance written as gnubg's "normalised money equivalent": ``(2 M - W - L) /
(W - L)`` where ``W`` and ``L`` are the match-winning chances after a single win and a
single loss at the cube's value, so that a single win is +1 and a single loss -1 as in
money play, and the search's widths and cutoffs keep their sense. A finished game is
valued the same way. The cube decisions are :mod:`gammon.agents.stakes`' (they read the
match already).

The value is cubeless at the cube's value (what a game played out from here, no one
doubling again, gives): gnubg's cubeful checker play goes further.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from gammon.agents.cube import match_equity
from gammon.core.protocol import Rules
from gammon.evaluators.base import Evaluator
from gammon.nn.evaluator import LOSE_BACKGAMMON, LOSE_GAMMON, WIN, WIN_BACKGAMMON, WIN_GAMMON

if TYPE_CHECKING:
    from gammon.agents.search import BoardSearch
    from gammon.agents.state_search import StateSearch

__all__ = ["MatchContext", "MatchEvaluator", "MatchSearches", "applies", "match_context"]


@dataclass(frozen=True)
class MatchContext:
    """What the score makes each result worth: the points each player still ``needs``,
    the ``cube``'s value, and whether the table's post-Crawford row applies to the
    scores after this game (this game is the Crawford game, or it has been played)."""

    needs: tuple[int, int]
    cube: int
    post: bool

    def equity(self, player: int, won: int) -> float:
        """Player ``player``'s chance to win the match after ``won`` points this game
        (lost, when negative), read as gnubg reads the table."""
        mine, theirs = self.needs[player], self.needs[1 - player]
        if won > 0:
            mine -= won
        else:
            theirs += won
        post = self.post and (mine == 1 or theirs == 1)
        return match_equity(mine, theirs, post)

    def weights(self) -> np.ndarray:
        """Player 0's match-winning chance after each result, per cube: a single,
        gammon and backgammon win, then loss, in normalised money (module text)."""
        v = self.cube
        wins = [self.equity(0, k * v) for k in (1, 2, 3)]
        losses = [self.equity(0, -k * v) for k in (1, 2, 3)]
        high, low = wins[0], losses[0]
        return np.array([(2 * m - high - low) / (high - low) for m in wins + losses])


def applies(evaluator: object) -> bool:
    """Whether ``evaluator`` gives the chances of each result (a network's outputs)."""
    return callable(getattr(evaluator, "outputs", None)) and getattr(
        evaluator, "players", 2) == 2


# Any (the state): any game's; one that :func:`match_length` finds in a match is a
# stakes state, which this layer may not ask with ``isinstance`` (tests/
# test_architecture.py counts those checks).
def match_context(state: Any) -> MatchContext | None:
    """The match context of a stakes state in a match where the score changes what a
    result is worth, else None (money play, a game with no stakes state)."""
    from gammon.stakes.cube import match_length

    if not match_length(state):
        return None
    score = state.score
    needs = (score.length - score.score[0], score.length - score.score[1])
    post = bool(score.post_crawford or score.crawford)
    return MatchContext((needs[0], needs[1]), int(state.cube_value), post)


class MatchEvaluator:
    """``evaluator`` with its values read in a match (module text). Everything but the
    values is the wrapped evaluator's."""

    def __init__(self, evaluator: Any, context: MatchContext) -> None:
        self.evaluator = evaluator
        self.context = context
        self.players = 2
        self._weights = context.weights()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.evaluator, name)

    def values(self, boards: np.ndarray, to_roll: np.ndarray | int) -> np.ndarray:
        n = boards.shape[0]
        sides = np.broadcast_to(np.asarray(to_roll, np.int64), (n,))
        out = self.evaluator.outputs(boards, sides).astype(np.float64)
        win = out[:, WIN]
        wins = np.stack([win - out[:, WIN_GAMMON], out[:, WIN_GAMMON] - out[:, WIN_BACKGAMMON],
                         out[:, WIN_BACKGAMMON]], axis=1)
        losses = np.stack([1.0 - win - out[:, LOSE_GAMMON],
                           out[:, LOSE_GAMMON] - out[:, LOSE_BACKGAMMON],
                           out[:, LOSE_BACKGAMMON]], axis=1)
        # From the side to roll; player 0's results are the roller's or their mirror.
        mine = np.where((sides == 0)[:, None], np.concatenate([wins, losses], axis=1),
                        np.concatenate([losses, wins], axis=1))
        v0 = np.clip(mine, 0.0, None) @ self._weights
        return np.stack([v0, -v0], axis=1)

    def terminal_value(self, board: bytes, winner: int) -> np.ndarray:
        level = int(round(abs(self.evaluator.terminal_value(board, winner)[winner])))
        index = min(max(level, 1), 3) - 1 + (0 if winner == 0 else 3)
        v0 = float(self._weights[index])
        return np.array([v0, -v0])


class MatchSearches:
    """The searches of one evaluator: ``money`` (the search on the evaluator itself), and
    one on a :class:`MatchEvaluator` for each match score met, made when first needed.
    The bots, the hints and the reviews all weigh plays through it."""

    #: Scores kept at once (a match passes through a few; a review through many).
    KEEP = 16

    def __init__(self, rules: Rules, evaluator: Evaluator, money: BoardSearch | StateSearch,
                 wide: int | None = None) -> None:
        self.rules = rules
        self.evaluator = evaluator
        self.money = money
        self.wide = wide
        self._searches: dict[MatchContext, BoardSearch | StateSearch] = {}

    def context(self, state: object) -> MatchContext | None:
        """The match context that weighs plays at ``state``, or None (money weighs)."""
        from gammon.agents.search import BoardSearch

        context = match_context(state)
        if context is None or not isinstance(self.money, BoardSearch) or not applies(
                self.evaluator):
            return None
        return context

    def at(self, state: object) -> BoardSearch | StateSearch:
        """The search that weighs the plays at ``state`` (a stakes state, or a game's)."""
        from gammon.agents.search import make_search

        context = self.context(state)
        if context is None:
            return self.money
        if context not in self._searches:
            if len(self._searches) >= self.KEEP:
                self._searches.clear()
            self._searches[context] = make_search(
                self.rules, MatchEvaluator(self.evaluator, context), self.wide)
        return self._searches[context]
