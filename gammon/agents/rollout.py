"""Monte Carlo rollouts: each candidate judged by how games played on from it end.

Where a game is short and its luck large (Multi-Gam: four players, five checkers on six
points, a game over in four or five turns each), a heuristic's few features miss what
decides it: which hits and primes the coming rolls make possible for each of three
opponents. A rollout answers that question directly. For each candidate action the
agent plays many games on to the end in compiled code, the dice random, and takes the
action whose games score the mover best on average.

Who plays those games matters. By default every player is a simple greedy one (it hits
when it can, leaves few blots within reach of an opponent behind them and makes points:
``gammon.kernels.multigam._greedy``), which plays much like the opponents the agent
meets; ``greedy=False`` has them choose uniformly at random instead, which judges blots
too kindly, since random opponents hit only by chance. Against three heuristic players,
greedy rollouts scored +0.067 points a game over the heuristic [+0.005, +0.129] in 1,000
games (seed 11) and +0.057 [+0.022, +0.092] in 3,000 (seed 2026, docs/strength.md);
random ones +0.023 [-0.081, +0.127] in 400 (seed 7).

The playouts go where they tell most (successive halving): every candidate among the
``width`` best by the heuristic gets an equal share of the first round, the better half
goes on to the next round with twice the share, and so on until one is left.

A variant offers rollouts with ``rollout_values(state, games, seed)`` (Multi-Gam does);
:func:`supports` says which.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from gammon.agents.base import child_states
from gammon.agents.offered import offered
from gammon.agents.state_search import candidates
from gammon.core.protocol import Phase, State
from gammon.evaluators import evaluator_for

#: Games per candidate on average, the default of ``rollout:N``.
DEFAULT_GAMES = 4000


def supports(variant: Any) -> bool:
    """Whether ``variant`` plays compiled games on from a state (``rollout_values``):
    the variants that list the rollout bot among theirs."""
    return "rollout" in offered(variant).bots


class RolloutAgent:
    """Chooses by compiled rollouts (see the module text)."""

    def __init__(self, variant: Any, games: int = DEFAULT_GAMES, width: int = 8,
                 rng: random.Random | None = None, name: str = "rollout",
                 greedy: bool = True) -> None:
        if not supports(variant):
            raise ValueError(f"{variant.name} has no compiled rollouts")
        self.variant = variant
        self.games = games
        self.width = width
        self.rng = rng or random.Random()
        self.evaluator = evaluator_for(variant)
        self.name = name
        self.greedy = greedy

    def choose(self, state: State) -> Any:
        actions = candidates(state.legal_actions())
        if len(actions) == 1:
            return actions[0]
        mover = state.current_player
        kids = child_states(state, actions)
        guess = self.evaluator.evaluate(kids)[:, mover]
        alive = [int(i) for i in np.argsort(-guess, kind="stable")[: self.width]]
        value = dict.fromkeys(alive, 0.0)
        played = dict.fromkeys(alive, 0)
        for i in alive:
            if kids[i].phase is Phase.TERMINAL:  # known exactly: no games needed
                value[i] = float(kids[i].returns()[mover])
                played[i] = -1
        budget = self.games * len(alive)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        while len(alive) > 1:
            share = max(1, budget // (rounds * len(alive)))
            for i in alive:
                if played[i] < 0:
                    continue
                seed = self.rng.getrandbits(32)
                mean = float(self.variant.rollout_values(kids[i], share, seed,
                                                         greedy=self.greedy)[mover])
                value[i] = (value[i] * played[i] + mean * share) / (played[i] + share)
                played[i] += share
            alive.sort(key=lambda i: -value[i])
            alive = alive[: math.ceil(len(alive) / 2)]
        return actions[alive[0]]
