"""Heuristic evaluation of Acedrex Backgammon: material, combat odds and the jackpot.

Acedrex is decided by captures, and captures are paid in money that doubles with each
piece (1, 2, 4 ... 256 points). The evaluator therefore works in money, the unit of
``returns()``, and scores a state as what each player would be paid if the game ended
now, plus what the things already set in motion are expected to pay:

- **Money now** (material): every player's standing, the settled money plus the open
  settlements at the present captures. This is what the game is about.
- **Combat odds**: every pair of opposing pieces that will fight (neighbours in a
  slot's line, both untapped) is scored with its exact odds. Throws are uniform on
  2-20 (a 1 is thrown again), each side adds one per other untapped friend in the
  slot, 13 or more wins outright, ties are thrown again (or go to the defender with
  ``ties=defender``). An outright win captures the loser, except a defender beaten in
  its own territory, which goes back to the hand. A capture's value is exact: the
  change in every player's standing, so a player close to eight captures gains more
  from the next one. Fights of this turn (the combat being thrown, and the active
  territory) count fully; pairs elsewhere fight only when their territory is active
  and both are untapped then, so they count at a discount.
- **Jackpot**: the player who fills it captures every opposing piece in it. Each piece
  there is scored as captured by each other player with equal chance (nobody controls
  who lands on a gate last), discounted because the filling may be far off.
- **Forces**: pieces still in play (on the ring, in hand, in the jackpot) are the
  means to capture and the material the others can take; each counts a little, and a
  piece in hand a little less (it must enter again).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from gammon.core.state import Phase
from gammon.variants.acedrex import (
    PIECES,
    PLAYERS,
    SIDES,
    combat_outcome,
    combat_stops,
    fighting_pair,
    owner,
    points,
    territory,
)

#: Throws of a combat die after 1s are thrown again.
THROWS = tuple(range(2, SIDES + 1))
#: Weight of a fight that is not fought in the current turn.
LATER = 0.5
#: Weight of the jackpot's expected captures.
JACKPOT_WEIGHT = 0.6
#: Value of a piece in play, and how much less a piece in hand counts (money units).
PIECE = 1.0
IN_HAND = 0.3


@functools.cache
def combat_odds(attack_bonus: int, defend_bonus: int, threshold: int = 13,
                ties: str = "reroll", attack: int = 0) -> tuple[float, float]:
    """``(P(attacker wins outright), P(defender wins outright))`` of one combat.

    ``attack`` is the attacker's throw when already known (0: not yet thrown). Dodges
    and parries take no piece. With ``ties=reroll`` equal totals are thrown again, so
    the odds are those of the first throw that is not a tie.
    """
    attacks = (attack,) if attack else THROWS
    ace = drex = tie = 0.0
    weight = 1.0 / (len(attacks) * len(THROWS))
    for a in attacks:
        for d in THROWS:
            outcome = combat_outcome(a + attack_bonus, d + defend_bonus, threshold, ties)
            if outcome == "tie":
                tie += weight
            elif outcome == "ace":
                ace += weight
            elif outcome == "drex":
                drex += weight
    if tie:
        if attack:
            # A tie means both throw again: from then on the unconditional odds.
            again = combat_odds(attack_bonus, defend_bonus, threshold, ties, 0)
            return ace + tie * again[0], drex + tie * again[1]
        return ace / (1.0 - tie), drex / (1.0 - tie)
    return ace, drex


class AcedrexHeuristic:
    """Scores Acedrex states in money for each player (see the module text)."""

    players = PLAYERS

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.stake = rules.stake

    # --- money -------------------------------------------------------------------------

    def standing(self, counts: Sequence[int], out: Sequence[bool],
                 money: Sequence[int]) -> list[float]:
        """Money if the game ended with these capture counts (ACE-PAYOUT, difference):
        each active player gets the stake times the sum of (own score - other's)."""
        scores = [points(c) for c in counts]
        active = [p for p in range(PLAYERS) if not out[p]]
        total = sum(scores[p] for p in active)
        value = [float(m) for m in money]
        for i in active:
            value[i] += (len(active) * scores[i] - total) * self.stake
        return value

    def capture_gain(self, counts: Sequence[int], out: Sequence[bool], taker: int,
                     pieces: int = 1) -> list[float]:
        """Everyone's change in standing when ``taker`` captures ``pieces`` more."""
        delta = (points(counts[taker] + pieces) - points(counts[taker])) * self.stake
        active = [p for p in range(PLAYERS) if not out[p]]
        gain = [0.0] * PLAYERS
        for i in active:
            gain[i] = delta * (len(active) - 1) if i == taker else -delta
        return gain

    # --- the evaluation ----------------------------------------------------------------

    def evaluate(self, states: Sequence[Any]) -> np.ndarray:
        return np.array([self.value(state) for state in states], np.float64)

    def value(self, state: Any) -> list[float]:
        if state.phase is Phase.TERMINAL:
            return [float(r) for r in state.returns()]
        rules = self.rules
        out = state.out
        counts = [len(c) for c in state.captured]
        value = self.standing(counts, out, state.money)
        gains: dict[int, list[float]] = {}

        def add(taker: int, weight: float) -> None:
            gain = gains.get(taker)
            if gain is None:
                gain = gains[taker] = self.capture_gain(counts, out, taker)
            for p in range(PLAYERS):
                value[p] += weight * gain[p]

        tapped = state.tapped
        # Combats: the one being thrown, the rest of this turn's, and later ones.
        now = set(state.queue)
        if state.phase is Phase.DECIDE:
            now = set(combat_stops(rules, state.turn))
        elif state.stage in ("attack", "defend") and state.fight >= 0:
            now.add(state.fight)
        for stop, stack in enumerate(state.ring):
            if len(stack) < 2:
                continue
            current = stop in now
            i = fighting_pair(stack, tapped if current else 0)
            if i < 0:
                continue
            a_side, d_side = stack[i] // PIECES, stack[i - 1] // PIECES
            a_bonus = d_bonus = -1
            for x in stack:
                if current and tapped >> x & 1:
                    continue
                side = x // PIECES
                if side == a_side:
                    a_bonus += 1
                elif side == d_side:
                    d_bonus += 1
            thrown = state.attack if (stop == state.fight and state.stage == "defend") else 0
            ace, drex = combat_odds(a_bonus, d_bonus, rules.threshold, rules.ties, thrown)
            weight = 1.0 if current else LATER
            if territory(stop) == d_side or rules.foreign_defender == "hand":
                value[d_side] -= weight * ace * IN_HAND
            else:
                add(a_side, weight * ace)
            add(d_side, weight * drex)
        # The jackpot: each piece there is taken by one of the others, equally likely.
        jackpot = state.jackpot
        if jackpot:
            active = [p for p in range(PLAYERS) if not out[p]]
            if len(jackpot) >= 3:
                filler = owner(jackpot[-1])
                taken = sum(1 for x in jackpot if owner(x) != filler)
                if taken:
                    gain = self.capture_gain(counts, out, filler, taken)
                    for p in range(PLAYERS):
                        value[p] += gain[p]
            else:
                for x in jackpot:
                    for p in active:
                        if p != owner(x):
                            add(p, JACKPOT_WEIGHT / len(active))
        # Forces in play.
        force = [0.0] * PLAYERS
        for stack in state.ring:
            for x in stack:
                force[x // PIECES] += PIECE
        for p, hand in enumerate(state.hands):
            force[p] += len(hand) * (PIECE - IN_HAND)
        for x in jackpot:
            force[x // PIECES] += PIECE
        active = [p for p in range(PLAYERS) if not out[p]]
        if len(active) > 1:
            mean = sum(force[p] for p in active) / len(active)
            for p in active:
                value[p] += (force[p] - mean) * self.stake
        return value
