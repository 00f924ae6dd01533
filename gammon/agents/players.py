"""The bots: random, heuristic (greedy on the evaluator) and expectimax.

- :class:`RandomAgent` picks uniformly among the legal actions (never resigning unless
  that is all it may do). It is the floor every other agent must clear.
- :class:`HeuristicAgent` scores the state after each candidate action with the
  variant's heuristic evaluator and takes the best: a search of depth 0.
- :class:`ExpectimaxAgent` looks ``depth`` rolls ahead (1 or 2), averaging over the dice
  with their exact probabilities and letting every player answer with their best reply
  (see :mod:`gammon.agents.search`).

All three play every variant that follows the game protocol, and games with the stakes
layer (:mod:`gammon.agents.stakes`: cube decisions by thresholds on the evaluator's
chances, plays searched in the wrapped game).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from gammon.agents.match_play import MatchSearches
from gammon.agents.search import best_action, make_search
from gammon.agents.stakes import resolve
from gammon.agents.state_search import StateSearch, candidates
from gammon.core.protocol import Rules, State
from gammon.evaluators import evaluator_for
from gammon.evaluators.base import Evaluator


class Standing(Protocol):
    """A state of a game with money standings (Acedrex's): what :func:`behind` reads."""

    def standing(self) -> Sequence[float]: ...


class RandomAgent:
    """Uniform over the legal actions, from its own seeded generator."""

    def __init__(self, rng: random.Random | None = None, name: str = "random") -> None:
        self.rng = rng or random.Random()
        self.name = name

    def choose(self, state: State) -> object:
        actions = candidates(state.legal_actions())
        return actions[self.rng.randrange(len(actions))] if len(actions) > 1 else actions[0]


class ExpectimaxAgent:
    """Expectimax to ``depth`` chance layers on the variant's evaluator.

    ``width``: root candidates searched beyond depth 0 (the best by the evaluator), less
    those more than ``cutoff`` below the best. ``depth=0`` is the heuristic agent.
    """

    def __init__(self, variant: Rules, depth: int = 1, width: int = 8,
                 cutoff: float | None = None, evaluator: Evaluator | None = None,
                 name: str | None = None, wide: int | None = None) -> None:
        if depth < 0 or depth > 3:
            raise ValueError(f"expectimax depth is 0 to 3, not {depth}")
        self.variant = variant
        self.depth = depth
        self.width = width
        self.cutoff = cutoff
        self.evaluator = evaluator if evaluator is not None else evaluator_for(variant)
        self.search = make_search(variant, self.evaluator, wide)
        self.name = name or f"expectimax:{depth}"
        #: The plays' search at each match score (:mod:`gammon.agents.match_play`).
        self.searches = MatchSearches(variant, self.evaluator, self.search, wide)

    def choose(self, state: State) -> object:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        search = self.searches.at(state)
        # Cube decisions look as many rolls ahead as the search does (two at most).
        answer, state = resolve(state, self.evaluator, self.search if self.depth else None,
                                self.depth)
        if answer is not None:
            return answer
        return best_action(search, state, self.depth, self.width, self.cutoff)


#: How much more (in money) settling now must be worth than playing on for a bot to
#: resign: a resignation cannot be taken back, so a near tie plays on.
RESIGN_MARGIN = 0.5
#: The turn from which a money bot settles a dead game (``money:settle=N``; 0 never):
#: a tenth of the source's cap, well past the opening, in which the pieces leave their
#: home slots and a forced step or a player who charges can still give something away;
#: games among the bots end soon after it, within the 200 turns issue 34 asks for.
SETTLE_AFTER = 100
#: Scores or money this close are equal (rounding in sums of the same terms: in a dead
#: game settling and playing on are the same money).
TIE = 1e-9


class MoneyAgent(ExpectimaxAgent):
    """Expectimax that also weighs resigning (the ``money`` bots): at each of its
    decisions it resigns when the money it would settle for now is worth more than what
    its evaluator's ``money`` (the money part of its value, such as
    :meth:`~gammon.evaluators.acedrex.AcedrexEndgame.money`: what the end of the game
    is expected to pay) gives the best action, and they are behind. So a trailer who
    can only lose more stops.

    It also settles a dead game: from turn ``settle`` on (0: never), when nothing is
    pending (the evaluator's ``quiet``: no fight, no piece in the jackpot) and playing on
    is worth no more than settling now, it leaves at the scores of the moment, which is
    what the turn cap would give. Between players who each play for their own money
    nobody charges (a charge costs its charger), so without it such a game runs to the
    cap. Other bots never resign."""

    def __init__(self, variant: Rules, *args: Any, settle: int = SETTLE_AFTER,
                 **kwargs: Any) -> None:
        super().__init__(variant, *args, **kwargs)
        self.settle = settle

    # Any (the state): one of a game with resignations, whose states (and so the one
    # its ``apply`` returns, a plain State to the protocol) give their ``standing``.
    def choose(self, state: Any) -> object:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        quit_ = next((a for a in legal if type(a).__name__ == "Resign"), None)
        if quit_ is None or not isinstance(self.search, StateSearch):
            return super().choose(state)
        player = state.current_player
        actions, scores, _ = self.search.decide(state, self.depth, self.width, self.cutoff)
        best = _widest_of_the_best(actions, scores)
        money = getattr(self.evaluator, "money", None)
        if money is not None:
            dead = self._dead(state)
            if dead or behind(state, player):
                after = state.apply(quit_)
                settled = after.returns() if after.is_terminal else after.standing()
                playing = money(state.apply(actions[best]))
                margin = -TIE if dead else RESIGN_MARGIN
                if settled[player] > playing[player] + margin:
                    return quit_
        return actions[best]

    def _dead(self, state: object) -> bool:
        quiet = getattr(self.evaluator, "quiet", None)
        return bool(self.settle and quiet is not None
                    and getattr(state, "turns", 0) >= self.settle and quiet(state))


def _widest_of_the_best(actions: Sequence[object], scores: np.ndarray) -> int:
    """The best-scored action; among equal scores one that is not a charge, and of
    those the one that spends the most of the die (an Acedrex step's ``steps``). A die
    is spent part by part and each part is scored as it stands, where most parts score
    alike: the first of them, the shortest step, spends a big die a stop at a time until
    the last part can only end on a gate and leaves a lone piece in the jackpot for the
    next player to take. A charge that scores as a quiet step is one whose fight the
    evaluation cannot see; it is not chosen for spending the whole die."""
    top = float(np.max(scores))
    tied = [i for i, score in enumerate(scores) if score >= top - TIE]
    return max(tied, key=lambda i: (not getattr(actions[i], "charge", False),
                                    getattr(actions[i], "steps", 0)))


def behind(state: Standing, player: int) -> bool:
    """Whether ``player`` has less money than someone else if the game ended now: only
    a player behind resigns (at equal money there is nothing to save)."""
    standing = state.standing()
    return standing[player] < max(standing)


class HeuristicAgent(ExpectimaxAgent):
    """The best action by the heuristic evaluator alone (expectimax of depth 0)."""

    def __init__(self, variant: Rules, evaluator: Evaluator | None = None,
                 name: str = "heuristic") -> None:
        super().__init__(variant, depth=0, evaluator=evaluator, name=name)
