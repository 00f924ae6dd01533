"""Monte Carlo tree search with chance nodes and max-n values, for every variant.

The tree alternates decision nodes (a player chooses) and chance nodes (dice). Each
iteration walks down from the root:

- at a **decision node** seen for the first time, every action's resulting state is
  scored at once by the variant's heuristic evaluator (one batch); those scores are the
  actions' starting values, as if each had been visited once, and the best of them is
  the node's value for this iteration. On later visits the node picks the action with
  the best upper confidence bound (UCT) *for the player to act*, using that player's
  own component of the value vectors (max-n: each player maximises their own return,
  which is what three or four players need);
- at a **chance node** an outcome is drawn with its exact probability (outcomes that
  lead back to the same state, such as a combat 1 that is thrown again, are left out
  and the rest renormalised), so averages over many visits follow the dice;
- a **terminal** state gives its returns.

With ``rollouts`` a new decision node's value is instead the result of a game played on
to the end with random actions from its best action (what an evaluator does not see,
such as a race to the finish among four, is sampled).

The value vector found below is added to the statistics of every action on the way back
up. Values are compared after scaling by the range seen so far in the tree, so the
exploration constant ``c`` means the same whatever the variant's units (points,
places, money). The move played is the root action visited most (ties: best mean).

``iterations`` counts walks; the default (:data:`DEFAULT_ITERATIONS`, fewer where a
game's row of :mod:`gammon.agents.offered` says so) keeps a move under a second in every
variant.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any, Literal, TypeAlias

import numpy as np

from gammon.agents.base import child_states, is_track, play_rows
from gammon.agents.search import BoardSearch, board_search_applies
from gammon.agents.stakes import resolve
from gammon.agents.state_search import candidates
from gammon.core.protocol import Phase, Rules, State
from gammon.core.variant import GameState
from gammon.evaluators import evaluator_for
from gammon.evaluators.base import BoardEvaluator, Evaluator

#: Walks per decision unless the game's row of gammon.agents.offered says fewer (where
#: walks cost more: Acedrex's states are evaluated in Python one by one, acey-deucey's
#: decisions are wide and its turns long).
DEFAULT_ITERATIONS = 400


class _Decision:
    __slots__ = ("state", "player", "actions", "kids", "prior", "visits", "totals", "nodes",
                 "count")

    def __init__(self, state: State) -> None:
        self.state = state
        player = state.current_player
        assert player is not None  # a decision
        self.player = player
        #: The game protocol's actions (State.legal_actions): Any.
        self.actions: Sequence[Any] = []
        #: The state after each action; None until the walk goes there, where the
        #: boards' batch scored the actions without building them.
        self.kids: list[State | None] = []
        self.prior: np.ndarray | None = None
        self.visits: np.ndarray | None = None
        self.totals: np.ndarray | None = None
        self.nodes: list[Node | None] = []
        self.count = 0


class _Chance:
    """A chance node: outcomes are applied only when drawn."""

    __slots__ = ("state", "outcomes", "cumulative", "nodes")

    def __init__(self, state: State) -> None:
        self.state = state
        outcomes = state.chance_outcomes()
        self.outcomes = [outcome for outcome, _ in outcomes]
        cumulative = getattr(outcomes, "cumulative", None)
        if cumulative is None:
            total, cumulative = 0.0, []
            for _, p in outcomes:
                total += float(p)
                cumulative.append(total)
        self.cumulative = cumulative
        #: The node of each outcome once drawn; False for one that leads back here.
        self.nodes: list[Node | Literal[False] | None] = [None] * len(self.outcomes)


#: A node of the tree: a decision, a chance node, or a terminal state's returns.
Node: TypeAlias = "_Decision | _Chance | np.ndarray"


class MCTSAgent:
    """Monte Carlo tree search (see the module text)."""

    def __init__(self, variant: Rules, iterations: int | None = None, exploration: float = 1.0,
                 rng: random.Random | None = None, evaluator: Evaluator | None = None,
                 name: str = "mcts", rollouts: bool = False) -> None:
        self.variant = variant
        self.iterations = iterations or DEFAULT_ITERATIONS
        self.exploration = exploration
        self.rng = rng or random.Random()
        self.evaluator: Evaluator = (evaluator if evaluator is not None
                                     else evaluator_for(variant))
        self.name = name
        #: Value a new leaf by a random playout to the end instead of the evaluator.
        self.rollouts = rollouts
        self.boards = (BoardSearch(variant, self.evaluator)
                       if board_search_applies(variant)
                       and isinstance(self.evaluator, BoardEvaluator) else None)
        self._low = 0.0
        self._high = 0.0

    # --- the walk ----------------------------------------------------------------------

    def _node(self, state: State) -> Node:
        if state.phase is Phase.TERMINAL:
            return np.asarray(state.returns(), np.float64)
        if state.phase is Phase.CHANCE:
            return _Chance(state)
        return _Decision(state)

    def _expand(self, node: _Decision) -> np.ndarray:
        state = node.state
        legal = state.legal_actions()
        rows = play_rows(legal) if self.boards is not None and is_track(state) else None
        if rows is not None:
            # Two-player track game: score the candidate boards straight from the move
            # generator's rows; a child state is built only when the walk goes there.
            assert self.boards is not None and isinstance(state, GameState)  # is_track said so
            node.actions = legal
            node.kids = [None] * len(legal)
            v0 = self.boards.leaf(np.ascontiguousarray(rows[:, : self.boards.size]),
                                  state.position.turn)
            node.prior = np.stack([v0, -v0], axis=1)
        else:
            node.actions = candidates(legal)
            node.kids = child_states(state, node.actions)
            node.prior = self.evaluator.evaluate(node.kids)
        n = len(node.kids)
        node.visits = np.zeros(n)
        node.totals = np.zeros_like(node.prior)
        node.nodes = [None] * n
        self._see(node.prior[:, node.player])
        best = int(np.argmax(node.prior[:, node.player]))
        if self.rollouts:
            kid = node.kids[best]
            if kid is None:
                kid = node.kids[best] = _after_play(node, best)
            return self._rollout(kid)
        return node.prior[best]

    def _rollout(self, state: State) -> np.ndarray:
        """Play on to the end with uniformly random actions; the returns."""
        rng = self.rng
        for _ in range(100_000):
            if state.phase is Phase.TERMINAL:
                value = np.asarray(state.returns(), np.float64)
                self._see(value)
                return value
            if state.phase is Phase.CHANCE:
                state = state.apply(state.sample_chance(rng))
            else:
                actions = candidates(state.legal_actions())
                state = state.apply(actions[int(rng.random() * len(actions))])
        return self.evaluator.evaluate([state])[0]  # pragma: no cover - endless game

    def _see(self, values: np.ndarray) -> None:
        low, high = float(values.min()), float(values.max())
        if self._high <= self._low:
            self._low, self._high = low, high
        else:
            self._low = min(self._low, low)
            self._high = max(self._high, high)

    def _select(self, node: _Decision) -> int:
        assert node.prior is not None and node.visits is not None and node.totals is not None
        p = node.player
        mean = (node.totals[:, p] + node.prior[:, p]) / (node.visits + 1.0)
        spread = self._high - self._low
        scaled = (mean - self._low) / spread if spread > 0 else mean * 0.0
        bonus = self.exploration * np.sqrt(math.log(node.count + 1.0) / (node.visits + 1.0))
        return int(np.argmax(scaled + bonus))

    def _walk(self, node: Node) -> np.ndarray:
        if isinstance(node, np.ndarray):
            return node
        if isinstance(node, _Chance):
            # Draw until the throw leads somewhere new (a throw that must be thrown
            # again, like a combat 1, is drawn again): the exact conditional odds.
            for _ in range(1000):
                i = min(bisect_right(node.cumulative, self.rng.random() * node.cumulative[-1]),
                        len(node.outcomes) - 1)
                if node.nodes[i] is None:
                    child = node.state.apply(node.outcomes[i])
                    node.nodes[i] = False if (child is node.state or child == node.state) \
                        else self._node(child)
                drawn = node.nodes[i]
                if drawn is not False:
                    assert drawn is not None  # made just above
                    return self._walk(drawn)
            raise RuntimeError("no chance outcome leads on")  # pragma: no cover
        if node.prior is None:
            node.count += 1
            return self._expand(node)
        a = self._select(node)
        below = node.nodes[a]
        if below is None:
            kid = node.kids[a]
            if kid is None:
                kid = node.kids[a] = _after_play(node, a)
            below = node.nodes[a] = self._node(kid)
        value = self._walk(below)
        assert node.visits is not None and node.totals is not None  # expanded
        node.visits[a] += 1.0
        node.totals[a] += value
        node.count += 1
        self._see(value[node.player : node.player + 1])
        return value

    # --- the agent ---------------------------------------------------------------------

    def choose(self, state: State) -> object:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        answer, state = resolve(state, self.evaluator)
        if answer is not None:
            return answer
        self._low = self._high = 0.0
        root = _Decision(state)
        for _ in range(self.iterations):
            self._walk(root)
        visits, prior, totals = root.visits, root.prior, root.totals
        assert visits is not None and prior is not None and totals is not None
        p = root.player
        mean = (totals[:, p] + prior[:, p]) / (visits + 1.0)
        best = max(range(len(root.actions)), key=lambda i: (visits[i], mean[i]))
        return root.actions[best]


def _after_play(node: _Decision, i: int) -> State:
    """The state after action ``i`` of a decision whose actions the boards' batch scored
    (a track game's: ``_expand`` checked it)."""
    state = node.state
    assert isinstance(state, GameState)
    return state.variant.after_play(state, node.actions[i])
