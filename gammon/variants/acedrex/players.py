"""Random play of Acedrex, the reference the compiled playouts follow."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from gammon.core.protocol import play_on
from gammon.variants.acedrex.actions import RESIGN

if TYPE_CHECKING:
    from gammon.variants.acedrex.actions import Action
    from gammon.variants.acedrex.rules import Acedrex
    from gammon.variants.acedrex.state import AcedrexState


def random_action(state: AcedrexState, rng: random.Random, resign_rate: float = 0.0) -> Action:
    """A random player's choice: uniform over the legal actions other than resigning,
    which it takes with probability ``resign_rate``."""
    legal = state.legal_actions()
    if resign_rate and rng.random() < resign_rate:
        return RESIGN
    return legal[int(rng.random() * (len(legal) - 1))]


def random_game(rules: Acedrex, rng: random.Random, resign_rate: float = 0.0) -> AcedrexState:
    """One whole game between random players (the dice and the choices from one
    stream, ``rng``); the final state."""
    return play_on(rules.initial_state(), rng,
                   lambda state: random_action(state, rng, resign_rate))
