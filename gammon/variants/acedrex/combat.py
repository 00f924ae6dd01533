"""Combat in Acedrex: which pieces fight, the throws and what comes of them (ACE-PAIR,
ACE-SCOPE, ACE-MODIFIERS, ACE-COMBAT-WIN, ACE-DODGE, ACE-PARRY, ACE-TIE)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from gammon.core.dice import Outcomes, Roll
from gammon.core.protocol import Phase
from gammon.kernels.acedrex import PIECES, PLAYERS, RING, SIDES, SLOTS
from gammon.variants.acedrex.actions import ATTACK, D20
from gammon.variants.acedrex.board import fighting_pair, first_stop, is_gate, owner, territory
from gammon.variants.acedrex.state import StateRules, changed
from gammon.variants.acedrex.turns import finish_game, solve_jackpot

if TYPE_CHECKING:
    from gammon.variants.acedrex.state import AcedrexState


def combat_territories(player: int, out: Sequence[bool]) -> list[int]:
    """ACE-SCOPE: the territories a turn of ``player`` solves, in order: those of resigned
    players seated just before them (counter-clockwise up to the nearest player still in
    the game), then their own."""
    seats = [player]
    q = (player - 1) % PLAYERS
    while out[q] and q != player:
        seats.insert(0, q)
        q = (q - 1) % PLAYERS
    return seats


def combat_stops(rules: StateRules, player: int,
                 out: Sequence[bool] = (False,) * PLAYERS) -> tuple[int, ...]:
    """ACE-SCOPE: the stops whose combats a turn of ``player`` solves, in order."""
    return _combat_stops(rules.combat_scope, player, tuple(out))


@functools.cache
def _combat_stops(scope: str, player: int, out: tuple[bool, ...]) -> tuple[int, ...]:
    if scope == "board":
        base = first_stop(player)
        return tuple(s for s in ((base + k) % RING for k in range(RING)) if not is_gate(s))
    return tuple(first_stop(t) + k for t in combat_territories(player, out)
                 for k in range(SLOTS))


def combats_of(state: AcedrexState) -> AcedrexState:
    """Solve combats (the first with a fight waits for throws), then the jackpot."""
    return _next_fight(state, combat_stops(state.variant, state.turn, state.out))


def _next_fight(state: AcedrexState, queue: tuple[int, ...]) -> AcedrexState:
    ring, tapped = state.ring, state.tapped
    for n, stop in enumerate(queue):
        stack = ring[stop]
        if len(stack) > 1 and fighting_pair(stack, tapped) >= 0:
            return changed(state, phase=Phase.CHANCE, stage=ATTACK, queue=queue[n + 1:],
                            fight=stop, attack=0, left=0)
    return solve_jackpot(state)


@dataclass(frozen=True, slots=True)
class FightResult:
    """How a combat came out (ACE-MODIFIERS, ACE-COMBAT-WIN, ACE-DODGE, ACE-PARRY,
    ACE-TIE). ``outcome`` is ``ace`` (attacker wins outright), ``drex`` (defender wins
    outright), ``dodge``, ``parry`` or ``tie`` (throw again); ``fate`` is what happens to
    the loser of an outright win: ``captured`` or ``hand``."""

    stop: int
    attacker: int
    defender: int
    attack: int
    defend: int
    attack_bonus: int
    defend_bonus: int
    outcome: str
    fate: str = ""

    @property
    def attack_total(self) -> int:
        return self.attack + self.attack_bonus

    @property
    def defend_total(self) -> int:
        return self.defend + self.defend_bonus


def _bonuses(state: AcedrexState) -> tuple[int, int, int, int]:
    """The fighters of the combat at ``state.fight`` and their modifiers (ACE-MODIFIERS:
    other untapped friends in the slot): attacker, defender, attack and defence bonus."""
    stack, tapped = state.ring[state.fight], state.tapped
    i = fighting_pair(stack, tapped)
    attacker, defender = stack[i], stack[i - 1]
    a_side, d_side = attacker // PIECES, defender // PIECES
    a_bonus = d_bonus = -1
    for x in stack:
        if not tapped >> x & 1:
            if x // PIECES == a_side:
                a_bonus += 1
            elif x // PIECES == d_side:
                d_bonus += 1
    return attacker, defender, a_bonus, d_bonus


def _tying_defence(state: AcedrexState) -> int | None:
    """How much more the defender must throw than the attacker to tie, when ties are
    thrown again (ACE-TIE); ``None`` when they are not."""
    if state.variant.ties != "reroll":
        return None
    _, _, a_bonus, d_bonus = _bonuses(state)
    return a_bonus - d_bonus


#: The combat throws that count: a 1 is thrown again (ACE-COMBAT-ONE).
_COMBAT_THROWS = range(2, SIDES + 1)


def attack_outcomes(state: AcedrexState) -> Outcomes:
    """The attacker's throw, weighted by the defender's answers that do not tie."""
    return _attack_throws(_tying_defence(state))


# The throws depend on a number or two alone: each Outcomes (exact fractions, slow to
# build) is made once and shared, as D20 is.
@functools.cache
def _attack_throws(offset: int | None) -> Outcomes:
    answers = len(_COMBAT_THROWS)
    counts = {a: answers - (offset is not None and a + offset in _COMBAT_THROWS)
              for a in _COMBAT_THROWS}
    total = sum(counts.values())
    return Outcomes((Roll((a,)), Fraction(n, total)) for a, n in counts.items() if n)


def defend_outcomes(state: AcedrexState) -> Outcomes:
    """The defender's throw: those that do not tie the attacker's, equally likely."""
    offset = _tying_defence(state)
    return _defend_throws(None if offset is None else state.attack + offset)


@functools.cache
def _defend_throws(tie: int | None) -> Outcomes:
    throws = [d for d in _COMBAT_THROWS if d != tie]
    return Outcomes((Roll((d,)), Fraction(1, len(throws))) for d in throws)


def start_outcomes(state: AcedrexState) -> Outcomes:
    """A starting throw, given that the contenders do not all tie (ACE-FIRST): while the
    throws so far are all equal to ``v``, ``v`` again is as likely as that the remaining
    throws do not all equal it too (never, for the last throw)."""
    throws = state.throws
    if not throws or len(set(throws)) > 1:
        return D20
    v, remaining = throws[0], len(state.contenders) - len(throws)
    all_equal = Fraction(1, SIDES ** remaining)  # the remaining throws all equal v
    other = Fraction(1, SIDES) / (1 - all_equal)
    again = Fraction(1, SIDES) * (1 - all_equal * SIDES) / (1 - all_equal)
    return Outcomes((Roll((d,)), again if d == v else other)
                    for d in range(1, SIDES + 1) if d != v or again)


def fight_result(state: AcedrexState, defend: int) -> FightResult:
    """The result of the combat at ``state.fight`` when the defender throws ``defend``
    (not 1) after the attacker's ``state.attack``."""
    rules = state.variant
    attacker, defender, a_bonus, d_bonus = _bonuses(state)
    d_side = defender // PIECES
    a_total, d_total = state.attack + a_bonus, defend + d_bonus
    args = (state.fight, attacker, defender, state.attack, defend, a_bonus, d_bonus)
    outcome = combat_outcome(a_total, d_total, rules.threshold, rules.ties)
    if outcome == "ace":
        home = territory(state.fight) == d_side
        return FightResult(*args, outcome,
                           "hand" if home or rules.foreign_defender == "hand" else "captured")
    return FightResult(*args, outcome, "captured" if outcome == "drex" else "")


def combat_outcome(attack_total: int, defend_total: int, threshold: int, ties: str) -> str:
    """ACE-COMBAT-WIN, ACE-DODGE, ACE-PARRY, ACE-TIE: ``tie`` (thrown again), ``ace``
    (the attacker wins outright), ``dodge`` (it wins short of the threshold: the two
    change places), ``drex`` (the defender wins outright) or ``parry`` (short of it)."""
    if attack_total == defend_total and ties == "reroll":
        return "tie"
    if attack_total > defend_total:
        return "ace" if attack_total >= threshold else "dodge"
    return "drex" if defend_total >= threshold else "parry"


def resolve_combat(state: AcedrexState, defend: int) -> AcedrexState:
    result = fight_result(state, defend)  # never a tie: those are thrown again
    if result.outcome == "parry":
        return _next_fight(state, state.queue)
    stop = state.fight
    stack = list(state.ring[stop])
    ring = list(state.ring)
    i = stack.index(result.attacker)
    if result.outcome == "dodge":
        stack[i - 1], stack[i] = stack[i], stack[i - 1]
        ring[stop] = tuple(stack)
        return _next_fight(changed(state, ring=tuple(ring)), state.queue)
    loser, winner = (
        (result.defender, result.attacker) if result.outcome == "ace"
        else (result.attacker, result.defender)
    )
    stack.remove(loser)
    ring[stop] = tuple(stack)
    tapped = state.tapped & ~(1 << loser)
    hands, captured = state.hands, state.captured
    if result.fate == "hand":
        q = owner(loser)
        hands = (*hands[:q], tuple(sorted((*hands[q], loser))), *hands[q + 1:])
        return _next_fight(changed(state, ring=tuple(ring), hands=hands, tapped=tapped),
                           state.queue)
    w = owner(winner)
    captured = (*captured[:w], (*captured[w], loser), *captured[w + 1:])
    after = changed(state, ring=tuple(ring), captured=captured, tapped=tapped)
    if len(captured[w]) >= state.variant.captures_to_end:
        return finish_game(after, "captures")
    return _next_fight(after, state.queue)
