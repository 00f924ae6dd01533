"""Acedrex's expectimax in compiled code (issue 49): :class:`AcedrexSearch` is a
:class:`~gammon.agents.state_search.StateSearch` whose ``value`` and ``decide`` run in
:mod:`gammon.kernels.acedrex_search`, for the heuristic evaluator
(:class:`~gammon.evaluators.acedrex.AcedrexHeuristic`). It gives the scores the Python
search gives, to the bit, about twelve times sooner; ``make_search`` picks it for
that evaluator. What it does not cover (another evaluator, a state of the starting
throws, a decision searched without looking through small ones) goes to the Python
search it inherits.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TypeGuard

import numpy as np

from gammon.agents.state_search import StateSearch, candidates
from gammon.core.protocol import Phase, State
from gammon.evaluators.acedrex import AcedrexHeuristic, combat_odds
from gammon.evaluators.base import Evaluator
from gammon.kernels import acedrex_search as kernel
from gammon.kernels.acedrex import PIECES, PLAYERS, RING, SIDES
from gammon.variants.acedrex import AcedrexState, combat_stops


@functools.cache
def combat_tables(threshold: int, ties: str) -> tuple[np.ndarray, np.ndarray]:
    """The heuristic's odds of a fight (:func:`~gammon.evaluators.acedrex.combat_odds`),
    by the attacker's and the defender's bonus and the attacker's throw (0: not thrown):
    the chance that the attacker wins outright, and that the defender does."""
    ace = np.zeros((PIECES, PIECES, SIDES + 1))
    drex = np.zeros_like(ace)
    for a_bonus in range(PIECES):
        for d_bonus in range(PIECES):
            for thrown in (0, *range(2, SIDES + 1)):
                ace[a_bonus, d_bonus, thrown], drex[a_bonus, d_bonus, thrown] = combat_odds(
                    a_bonus, d_bonus, threshold, ties, thrown)
    return ace, drex


def encode(state: AcedrexState) -> np.ndarray:
    """``state`` as the compiled search's array (module text of the kernel)."""
    s = np.zeros(kernel.SIZE, kernel.DTYPE)
    stack = s[kernel.S_STACK:kernel.S_HEIGHT].reshape(RING, PLAYERS * PIECES)
    stack[:] = -1
    for stop, pieces in enumerate(state.ring):
        stack[stop, :len(pieces)] = pieces
        s[kernel.S_HEIGHT + stop] = len(pieces)
    for x in range(PLAYERS * PIECES):
        s[kernel.S_TAPPED + x] = state.tapped >> x & 1
    for p, hand in enumerate(state.hands):
        s[kernel.S_HAND + p * PIECES:kernel.S_HAND + p * PIECES + len(hand)] = hand
        s[kernel.S_HN + p] = len(hand)
    s[kernel.S_JP:kernel.S_JP + len(state.jackpot)] = state.jackpot
    s[kernel.S_JN] = len(state.jackpot)
    for taker, group in enumerate(state.captured):
        s[kernel.S_CAPN + taker] = len(group)
        for x in group:
            s[kernel.S_TOOK + taker * PLAYERS + x // PIECES] += 1
    s[kernel.S_OUT:kernel.S_OUT + PLAYERS] = state.out
    s[kernel.S_MONEY:kernel.S_MONEY + PLAYERS] = state.money
    s[kernel.S_TURN] = state.turn
    s[kernel.S_STAGE] = kernel.STAGES[state.stage]
    s[kernel.S_DIE] = state.die
    s[kernel.S_LEFT] = state.left
    s[kernel.S_PARTS] = state.parts
    order = combat_stops(state.variant, state.turn, state.out)
    s[kernel.S_QPOS] = len(order) - len(state.queue)
    s[kernel.S_FIGHT] = state.fight
    s[kernel.S_ATTACK] = state.attack
    s[kernel.S_TURNS] = state.turns
    return s


class AcedrexSearch(StateSearch):
    """:class:`~gammon.agents.search.StateSearch` for Acedrex with the heuristic, run in
    compiled code (module text)."""

    def __init__(self, evaluator: AcedrexHeuristic, inner: int = 1, follow: int = 8,
                 wide: int | None = None) -> None:
        super().__init__(evaluator, inner=inner, follow=follow, wide=wide)
        rules = evaluator.rules
        self.rules = rules
        self.kernel_rules = rules.kernel_rules()  # type: ignore[attr-defined]
        self.ace, self.drex = combat_tables(rules.threshold, rules.ties)

    def _run(self, state: AcedrexState, mode: int, depth: int, width: int,
             cutoff: float | None) -> tuple[np.ndarray, np.ndarray]:
        params = np.array([depth, width, self.inner, self.follow,
                           -1 if self.wide is None else self.wide, cutoff is not None],
                          np.int64)
        return kernel.search(encode(state), mode, self.kernel_rules, params,
                             0.0 if cutoff is None else float(cutoff), self.ace, self.drex)

    def value(self, state: State, depth: int) -> np.ndarray:
        if not _covered(state) or state.phase is Phase.TERMINAL:
            return super().value(state, depth)
        return self._run(state, kernel.M_VALUE, depth, self.inner, None)[0]

    def decide(self, state: State, depth: int, width: int | None = None,
               cutoff: float | None = None, follow: bool = True
               ) -> tuple[Sequence[object], np.ndarray, np.ndarray]:
        if not follow or not _covered(state) or state.phase is not Phase.DECIDE:
            return super().decide(state, depth, width, cutoff, follow)
        actions = candidates(state.legal_actions())
        value, scores = self._run(state, kernel.M_ROOT, depth,
                                  self.inner if width is None else width, cutoff)
        if len(scores) != len(actions):  # the two listings disagree: a bug, never a guess
            raise AssertionError(f"the compiled search listed {len(scores)} actions, the "
                                 f"engine {len(actions)}")
        return actions, scores, value


def _covered(state: State) -> TypeGuard[AcedrexState]:
    return isinstance(state, AcedrexState) and state.stage in kernel.STAGES


def compiled_search(evaluator: Evaluator, wide: int | None) -> AcedrexSearch | None:
    """The compiled search for ``evaluator``, or None where there is none: any evaluator
    but Acedrex's heuristic itself (a subclass scores otherwise), or a stake so high
    that the money would not fit the compiled state's numbers."""
    if type(evaluator) is AcedrexHeuristic and evaluator.rules.stake <= kernel.MOST_STAKE:
        return AcedrexSearch(evaluator, wide=wide)
    return None
