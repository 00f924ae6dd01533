"""Compile the engine's kernels ahead of their first use.

numba compiles a kernel the first time it runs and keeps the machine code in its on-disk
cache; without this, the first game of a fresh install waits 5-15 s on a frozen screen.
``gammon prepare`` (run by ``make play`` and ``make test`` after installing) goes once
through what a game uses: each variant's move generator on a few turns, its compiled
random games, and one decision of the bot ``gammon play`` seats by default; then a
step of the compiled vector environment (:mod:`gammon.envs.vector`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from gammon.agents.registry import default_bot, make_agent
from gammon.core.variant import variant, variant_names
from gammon.envs.vector import VectorEnv


def warm_variant(name: str, turns: int = 12) -> None:
    """Run every kernel a game of ``name`` uses once, so each is compiled and cached."""
    rules = variant(name)
    rng = random.Random(0)
    bot = make_agent(default_bot(rules), rules, seed=0)
    rules.random_playouts(2, 0)
    state = rules.initial_state()
    decided = False
    for _ in range(turns * rules.players * 2):
        if state.is_terminal:
            break
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
        elif not decided and len(state.legal_actions()) > 1:
            state = state.apply(bot.choose(state))  # the bot's own kernels, once
            decided = True
        else:
            state = state.apply(rng.choice(list(state.legal_actions())))


def warm_all(report: Callable[[str], None] = lambda name: None) -> None:
    """:func:`warm_variant` for every variant ``gammon variants`` lists."""
    for name in variant_names():
        report(name)
        warm_variant(name)
    report("vector environment")
    warm_vector()


def warm_vector() -> None:
    """One step of the vector environment (its kernels serve every variant it plays)."""
    env = VectorEnv("backgammon", num_envs=2, seed=0)
    env.reset()
    env.step(np.zeros(2, np.int64))
    env.afterstates()
    staked = VectorEnv("backgammon", num_envs=2, seed=0, stakes={})
    for _ in range(3):  # a play, a double, a drop: the kernel that opens a game after it
        staked.step(np.where(staked.phase == 0, 0, 1))
