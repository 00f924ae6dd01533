"""Compile the engine's kernels ahead of their first use.

numba compiles a kernel the first time it runs and keeps the machine code in its on-disk
cache; without this, the first game of a fresh install waits 5-15 s on a frozen screen.
``gammon prepare`` (run by ``make play`` and ``make test`` after installing) goes once
through what a game uses: each variant's move generator on a few turns, its compiled
random games, and one decision of the bot ``gammon play`` seats by default; then a
step of the compiled vector environment (:mod:`gammon.envs.vector`), a game of training,
the exact solver and the bearoff databases. Every variant at once (``gammon prepare``
alone) is spread over the cores.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import tempfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import numpy as np

from gammon.agents.registry import default_bot, make_agent
from gammon.core.variant import track_variant, variant, variant_names
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


#: The parts of :func:`warm_all` that take longest to compile, longest first.
LONGEST_FIRST = ["vector environment", "backgammon", "acey-deucey", "multi-gam", "exact solver",
                 "acedrex search", "gul-bara", "acedrex", "training", "moultezim"]


def warm_all(report: Callable[[str], None] = lambda name: None, jobs: int = 0) -> None:
    """:func:`warm_variant` for every variant ``gammon variants`` lists, then the vector
    environment, training and the exact solver: spread over ``jobs`` processes (0: one
    a core), each compiling its share into the one on-disk cache. ``report`` names each
    part as it is done."""
    parts: list[tuple[str, Callable[..., None], tuple[str, ...]]] = [
        ("vector environment", warm_vector, ()), ("training", warm_training, ()),
        ("exact solver", warm_solver, ()), ("bearoff tables", warm_bearoff, ()),
        ("steps", warm_steps, ()), ("acedrex search", warm_acedrex_search, ())]
    parts += [(name, warm_variant, (name,)) for name in variant_names()]
    # The longest first (as measured from an empty cache), so that the processes finish
    # together: 117 s for everything on two cores.
    parts.sort(key=lambda part: LONGEST_FIRST.index(part[0])
               if part[0] in LONGEST_FIRST else len(LONGEST_FIRST))
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1:
        for name, warm, args in parts:
            report(name)
            warm(*args)
        return
    spawn = multiprocessing.get_context("spawn")  # numba's threads do not survive fork
    with ProcessPoolExecutor(jobs, mp_context=spawn) as pool:
        done = {pool.submit(warm, *args): name for name, warm, args in parts}
        for finished in as_completed(done):
            finished.result()
            report(done[finished])


def warm_vector() -> None:
    """One step of the vector environment (its kernels serve every variant it plays)."""
    for threads in (1, 2):  # one thread, and the parallel kernels of more
        env = VectorEnv("backgammon", num_envs=2, seed=0, threads=threads)
        env.reset()
        env.step(np.zeros(2, np.int64))
        env.afterstates()
    staked = VectorEnv("backgammon", num_envs=2, seed=0, stakes={})
    for _ in range(3):  # a play, a double, a drop: the kernel that opens a game after it
        staked.step(np.where(staked.phase == 0, 0, 1))


def warm_acedrex_search() -> None:
    """One decision of Acedrex's ``expectimax:1``, whose search is compiled
    (:mod:`gammon.kernels.acedrex_search`; the game's default bot searches in Python)."""
    rules = variant("acedrex")
    bot = make_agent("expectimax:1", rules, seed=0)
    rng = random.Random(0)
    state = rules.initial_state()
    while state.is_chance or len(state.legal_actions()) < 3:
        state = state.apply(state.sample_chance(rng) if state.is_chance
                            else state.legal_actions()[0])
    bot.choose(state)


def warm_steps() -> None:
    """A turn taken one checker step at a time (the environments' ``step`` actions and
    the OpenSpiel games: :mod:`gammon.kernels.stepping`)."""
    from gammon.envs.steps import TurnInSteps

    rules = track_variant("backgammon")
    turn = TurnInSteps(rules.state(rules.start_position(), (6, 5)))
    turn.legal_steps()


def warm_training() -> None:
    """A game of compiled self-play training (``gammon train``), into a folder thrown
    away after."""
    from gammon.training.train import Settings, Trainer

    with tempfile.TemporaryDirectory() as folder:
        Trainer(Settings("hypergammon", {"checkers_per_side": 1}, hidden=8)).run(
            1, Path(folder) / "net.npz")


def warm_bearoff() -> None:
    """The bearoff databases (:mod:`gammon.evaluators.bearoff`), built where missing."""
    from gammon.evaluators.bearoff import prepare

    prepare()


def warm_solver() -> None:
    """The exact solver (``gammon solve``) on hypergammon with one checker a side."""
    from gammon.evaluators.exact import solve

    solve(1)
