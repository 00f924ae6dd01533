"""The Acedrex bots choose as they did before the engine and the evaluator were made
faster (the state copies, the remembered values): the actions of seeded games, hashed,
pinned from the code before those changes. The games with ``money`` seats were pinned
again when that bot changed its play (issue 34: no initiative, the jackpot, the widest
of equal steps), with the engine unchanged."""

from __future__ import annotations

import hashlib
import random

import pytest

import gammon
from gammon.agents import make_agent

ACE = gammon.variant("acedrex")


def _actions(specs: list[str], seed: int, decisions: int) -> list[str]:
    agents = [make_agent(spec, ACE, f"1:{i}") for i, spec in enumerate(specs)]
    rng = random.Random(seed)
    state = ACE.initial_state()
    actions: list[str] = []
    while not state.is_terminal and len(actions) < decisions:
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
            continue
        action = agents[state.current_player].choose(state)
        actions.append(str(action))
        state = state.apply(action)
    return actions


@pytest.mark.parametrize(("specs", "seed", "pinned"), [
    (["money", "expectimax:1", "expectimax:1", "expectimax:1"], 12, "bebdf91eb2a65d2b"),
    (["expectimax:1"] * 4, 7, "4b6a449c243b0b13"),
    (["money"] * 4, 3, "534255b57f834880"),
])
def test_the_bots_choose_as_before(specs, seed, pinned):
    actions = _actions(specs, seed, 120)
    assert hashlib.sha256("\n".join(actions).encode()).hexdigest()[:16] == pinned
