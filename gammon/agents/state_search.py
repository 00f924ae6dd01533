"""Expectimax over the game protocol (:class:`StateSearch`), for every game the board
search (:mod:`gammon.agents.search`) does not take: acey-deucey's extra rolls and
doubles choice, Multi-Gam's four players, Acedrex. See :mod:`gammon.agents.search` for
what the depth counts and how the tree is pruned; Acedrex's heuristic has this search
in compiled code (:mod:`gammon.agents.acedrex_search`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gammon.agents.base import chance_children, child_states, play_rows
from gammon.core.play import Play
from gammon.core.protocol import Phase, State
from gammon.core.variant import GameState, LegalPlays, TrackVariant
from gammon.evaluators.base import BoardEvaluator, Evaluator


def move_filter(base: np.ndarray, width: int, cutoff: float | None = None) -> np.ndarray:
    """Indices of the candidates to search, in index order: the ``width`` best, less
    those more than ``cutoff`` (evaluator units) below the best. That is gnubg's move
    filter: a play so far behind at depth 0 is almost never best after a search."""
    order = np.argsort(-base, kind="stable")
    keep = order[: max(width, 1)]
    if cutoff is not None:
        keep = keep[base[keep] >= base[order[0]] - cutoff]
    return np.sort(keep)


class StateSearch:
    """Expectimax (max-n) over the game protocol, for any variant (see module text).

    A decision whose actions are few (at most ``follow``, such as acey-deucey's doubles
    number) and lead to another decision of the same player is looked through even at
    depth 0: the number is worth the best play it allows.

    ``wide``: a decision inside the tree with more actions than this, and no depth left,
    is scored as it stands instead of by its best action (None: never). Acedrex uses it:
    each part of its D20 is a decision of up to a hundred or more actions, and a reply
    to every throw of the die would cost thousands of evaluations per candidate.
    """

    def __init__(self, evaluator: Evaluator, inner: int = 1, follow: int = 8,
                 wide: int | None = None, cache_size: int = 50_000) -> None:
        self.evaluator = evaluator
        self.inner = inner
        self.follow = follow
        self.wide = wide
        self.cache: dict[tuple[object, int], np.ndarray] = {}
        self.cache_size = cache_size

    def value(self, state: State, depth: int) -> np.ndarray:
        """Each player's value of ``state`` searched ``depth`` chance layers."""
        if state.phase is Phase.TERMINAL:
            return np.asarray(state.returns(), np.float64)
        if (depth <= 0 and self.wide is not None and state.phase is Phase.DECIDE
                and _wider_than(state, self.wide)):
            # Scored as it stands, and not remembered: such a leaf seldom comes again
            # (none did in a game of Acedrex), and its key costs about what the
            # evaluation does.
            return self.evaluator.evaluate([state])[0]
        key = (_key(state), depth)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        if state.phase is Phase.CHANCE:
            if depth <= 0:
                value = self.evaluator.evaluate([state])[0]
            else:
                value = np.zeros(self.evaluator.players)
                for child, p in chance_children(state):
                    value = value + p * self.value(child, depth - 1)
        else:
            value = self.decide(state, depth)[2]
        if len(self.cache) > self.cache_size:
            self.cache.clear()
        self.cache[key] = value
        return value

    def decide(self, state: State, depth: int, width: int | None = None,
               cutoff: float | None = None, follow: bool = True
               ) -> tuple[Sequence[object], np.ndarray, np.ndarray]:
        """At a DECIDE state: the candidate actions, the mover's score of each (-inf for
        those not searched) and the value of the best. ``follow``: look through a small
        decision into the same player's next one (one level: not into a chain of them,
        such as the parts of an Acedrex die)."""
        player = state.current_player
        assert player is not None  # a decision
        actions = candidates(state.legal_actions())
        kids, base_values = self.children(state, actions)
        if follow and len(actions) <= self.follow:
            for i, kid in enumerate(kids):
                assert kid is not None  # children leaves kids out of wide decisions only
                if kid.phase is Phase.DECIDE and kid.current_player == player:
                    base_values[i] = (self.decide(kid, 0, follow=False)[2] if depth <= 0
                                      else self.value(kid, depth))
        base = base_values[:, player]
        if depth <= 0 or len(kids) == 1:
            best = int(np.argmax(base))
            return actions, base, base_values[best]
        keep = move_filter(base, self.inner if width is None else width, cutoff)
        scores = np.full(len(kids), -np.inf)
        values = {}
        for i in keep:
            kid = kids[i]
            if kid is None:
                kid = kids[i] = _after_play(state, actions[i])
            values[i] = self.value(kid, depth)
            scores[i] = values[i][player]
        best = int(np.argmax(scores))
        return actions, scores, values[best]

    def children(self, state: State, actions: Sequence[object]
                 ) -> tuple[list[State | None], np.ndarray]:
        """The states after ``actions`` and every player's value of each (by the
        evaluator). For the many plays of a two-player track game whose next player is
        the same after every play (checked on the first and the last), the boards are
        scored straight from the move generator's rows, and a child state is left None
        (built when the search goes there); other decisions build every child."""
        legal = state.legal_actions()
        rows = play_rows(legal)
        # Not in the games that pin: a play there may end the game at the mother, which
        # the counts alone do not show.
        if (rows is not None and len(legal) > self.follow and len(actions) == len(legal)
                and state.variant.players == 2 and not state.variant.game_type.pins
                and isinstance(self.evaluator, BoardEvaluator)):
            # A track game's state, or a stakes state at a play, which reads as the game
            # state it wraps (``after_play``, typed for the first, takes either): Any.
            track: Any = state
            variant: TrackVariant = track.variant
            first = variant.after_play(track, legal[0])
            last = variant.after_play(track, legal[len(legal) - 1])
            if (first.phase is Phase.CHANCE and last.phase is Phase.CHANCE
                    and first.position.turn == last.position.turn):
                size = variant.players * variant.slots
                boards = np.ascontiguousarray(rows[:, :size])
                done = boards[:, track.position.turn * variant.slots] == variant.checkers
                values = np.empty((len(boards), variant.players))
                kids: list[State | None] = [None] * len(boards)
                kids[0], kids[-1] = first, last
                if (~done).any():
                    values[~done] = self.evaluator.values(boards[~done], first.position.turn)
                for i in np.flatnonzero(done):
                    kids[i] = variant.after_play(track, legal[int(i)])
                    values[i] = self.evaluator.evaluate([kids[i]])[0]
                return kids, values
        states = child_states(state, actions)
        return states, self.evaluator.evaluate(states)


def _after_play(state: Any, play: Play) -> GameState:
    """The state after one of the plays a track game's decision left unbuilt: ``state``
    is its :class:`GameState`, or a stakes state at a play, which reads as the game
    state it wraps (so ``after_play``, typed for the first, takes it too: Any)."""
    return state.variant.after_play(state, play)


# Any: the game protocol's actions (State.legal_actions); a track game's LegalPlays is
# given back as it is.
def candidates(legal: Sequence[Any]) -> Sequence[Any]:
    """The actions a bot considers: all legal ones but resigning (bots play on), unless
    resigning is all there is. A track game's plays are taken as they are (no play is a
    resignation, and looking at each would build every one)."""
    if isinstance(legal, LegalPlays):
        return legal
    kept = [a for a in legal if type(a).__name__ != "Resign"]
    return kept or list(legal)


def _key(state: State) -> object:
    """A hashable key for a state (its own value when it hashes; track states by
    position, dice, phase and memo)."""
    if isinstance(state, GameState):
        return (state.position, state.phase, state.dice, state.opening, state.memo,
                state.moves < 2)
    try:
        hash(state)
    except TypeError:  # pragma: no cover - states are values
        return id(state)
    return state


def _wider_than(state: State, count: int) -> bool:
    """Whether ``state`` offers more than ``count`` actions (without listing them all
    where the state can say so)."""
    if hasattr(state, "has_more_actions_than"):
        return bool(state.has_more_actions_than(count))
    return len(state.legal_actions()) > count
