"""The throws of Acedrex: the movement die, the starting throws (ACE-FIRST, ACE-ONE-MOVE)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gammon.core.errors import IllegalOutcomeError
from gammon.core.protocol import Phase
from gammon.variants.acedrex.actions import ATTACK, DEFEND, MOVE, ONE, ROLL, START
from gammon.variants.acedrex.combat import resolve_combat
from gammon.variants.acedrex.state import changed
from gammon.variants.acedrex.turns import next_turn

if TYPE_CHECKING:
    from gammon.variants.acedrex.state import AcedrexState


def apply_throw(state: AcedrexState, value: int) -> AcedrexState:
    stage = state.stage
    if stage in (ATTACK, DEFEND, START) and all(
            roll.dice != (value,) for roll, _ in state.chance_outcomes()):
        why = {ATTACK: "a combat throw of 1 is thrown again",
               DEFEND: "a combat throw of 1, or one that ties the attacker's, is thrown again",
               START: "when every starting throw ties, they are all thrown again"}[stage]
        raise IllegalOutcomeError(f"{value} is not an outcome here: {why}")
    if stage == ROLL:
        if value == 1:  # ACE-ONE-MOVE: the player may keep it or throw again
            return changed(state, phase=Phase.DECIDE, stage=ONE, die=1)
        return changed(state, phase=Phase.DECIDE, stage=MOVE, die=value, left=value,
                        parts=0)
    if stage == ATTACK:
        return changed(state, stage=DEFEND, attack=value)
    if stage == DEFEND:
        return resolve_combat(state, value)
    if stage == START:
        return _start_throw(state, value)
    raise AssertionError(stage)


def _start_throw(state: AcedrexState, value: int) -> AcedrexState:
    """ACE-FIRST: one D20 each; the highest starts; tied highest throw again."""
    throws = (*state.throws, value)
    contenders = state.contenders
    if len(throws) < len(contenders):
        return changed(state, throws=throws, turn=contenders[len(throws)])
    best = max(throws)
    tied = tuple(p for p, t in zip(contenders, throws, strict=True) if t == best)
    if len(tied) > 1:
        return changed(state, contenders=tied, throws=(), turn=tied[0])
    return next_turn(changed(state, contenders=(), throws=()), tied[0])
