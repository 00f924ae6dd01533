"""The agent protocol, and what every agent shares.

An **agent** chooses an action for a state: ``agent.choose(state)`` returns one of
``state.legal_actions()``. An **evaluator** (:mod:`gammon.evaluators.base`, a layer
below) scores states for every player. Search agents combine the two:
they look ahead over actions and over chance outcomes with their exact probabilities,
and call the evaluator on the states where they stop.

Everything here is written against the game protocol of :class:`gammon.core.variant.
GameState` (phases CHANCE / DECIDE / TERMINAL, ``chance_outcomes``, ``legal_actions``,
``apply``, ``returns``, ``current_player``), so every variant that follows the protocol
is played, including those with their own state class (Acedrex) and those whose
decisions are not plays (acey-deucey's doubles number).
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from typing import Any, Protocol, TypeGuard, runtime_checkable

import numpy as np

from gammon.core.play import Play
from gammon.core.protocol import State
from gammon.core.variant import GameState, LegalPlays


@runtime_checkable
class Agent(Protocol):
    """A player: ``choose`` returns one of ``state.legal_actions()`` at a DECIDE state.

    ``name`` is the agent's spec (``expectimax:2``), shown in duels and game records.
    """

    name: str

    def choose(self, state: State) -> object: ...


def seeded_rng(seed: int | str | None, *salt: object) -> random.Random:
    """A ``random.Random`` from a seed and any salt, the same on every platform and run.

    String seeds are hashed with CRC32 (Python's own ``hash`` of a string changes
    between runs), so ``seeded_rng(7, "seat", 1)`` is always the same stream.
    """
    if seed is None:
        return random.Random()
    text = ":".join(str(part) for part in (seed, *salt))
    return random.Random(zlib.crc32(text.encode()) * 1_000_003 + len(text))


def is_track(state: object) -> TypeGuard[GameState]:
    """Whether ``state`` is a track game's :class:`GameState` (board bytes, kernel)."""
    return isinstance(state, GameState) and state.variant.game_type.checkers


def play_rows(legal: object) -> np.ndarray | None:
    """The kernel's rows behind a list of legal plays (boards then moves), else None.

    :class:`LegalPlays` keeps the array the move generator returned, in the order of the
    plays; reading it lets a bot score every candidate board in one numpy batch without
    building a :class:`Play` object per candidate.
    """
    if isinstance(legal, LegalPlays):
        return legal.rows
    return None


def is_play_list(legal: Sequence[object]) -> TypeGuard[Sequence[Play]]:
    """Whether a legal list holds plays: a decision's actions are all of one kind, so
    the first tells."""
    return len(legal) > 0 and isinstance(legal[0], Play)


# Any (the children): the callers read them as their own game's states and fill lists
# of their own with them.
def child_states(state: State, legal: Sequence[object]) -> list[Any]:
    """The state after each legal action, in order.

    A track game's plays go through ``variant.after_play`` (they came from the legal
    list, so the legality look-up of ``apply`` is skipped); other actions through
    ``apply``.
    """
    if is_track(state) and is_play_list(legal):
        after = state.variant.after_play
        return [after(state, play) for play in legal]
    return [state.apply(action) for action in legal]


def chance_children(state: State) -> list[tuple[State, float]]:
    """``(child, probability)`` for every outcome of a chance state (none leads back to
    the state itself: the game protocol leaves out throws that are thrown again)."""
    return [(state.apply(outcome), float(p)) for outcome, p in state.chance_outcomes()]


