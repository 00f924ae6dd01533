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
import math
from collections.abc import Iterator, Sequence

import numpy as np

from gammon.core.protocol import Phase
from gammon.variants.acedrex import (
    PIECES,
    PLAYERS,
    SIDES,
    SLOTS,
    AcedrexState,
    combat_outcome,
    combat_stops,
    fighting_pair,
    owner,
    points,
    territory,
)
from gammon.variants.acedrex.state import StateRules

#: Throws of a combat die after 1s are thrown again.
THROWS = tuple(range(2, SIDES + 1))
#: Weight of a fight that is not fought in the current turn.
LATER = 0.5
#: Weight of the jackpot's expected captures.
JACKPOT_WEIGHT = 0.6
#: States whose value an evaluator remembers (forgotten all at once when full).
MEMO_SIZE = 20_000
#: Value of a piece in play, and how much less a piece in hand counts (money units).
PIECE = 1.0
IN_HAND = 0.3


def combat_odds(attack_bonus: int, defend_bonus: int, threshold: int = 13,
                ties: str = "reroll", attack: int = 0) -> tuple[float, float]:
    """``(P(attacker wins outright), P(defender wins outright))`` of one combat.

    ``attack`` is the attacker's throw when already known (0: not yet thrown). Dodges
    and parries take no piece. With ``ties=reroll`` equal totals are thrown again, so
    the odds are those of the first throw that is not a tie (:func:`fight_step`).
    """
    ace, drex, _, _ = fight_step(attack_bonus, defend_bonus, threshold, ties, attack)
    return ace, drex



def fights(rules: StateRules, state: AcedrexState, out: Sequence[bool] = (False,) * PLAYERS,
           blocked_later: bool = False,
           ) -> Iterator[tuple[int, bool, int, int, int, int, int]]:
    """Every fight standing on the ring, as both evaluations weigh them: its stop, whether
    it is fought this turn (the one being thrown and the rest of this turn's: ``out``
    says who has left the game), the attacking and defending sides, each side's bonus
    (its other pieces there, tapped ones not counted in a fight of this turn) and the
    attacker's throw when the defender is to answer it. ``blocked_later``: a stack of
    this turn's territory whose fight a tapped piece blocks (ACE-TAPPED-BLOCK: a charger
    there) is fought when its territory comes round again, and is listed as a later
    fight (the heuristic, which ``expectimax`` reads, leaves it out)."""
    tapped = state.tapped
    now: set[int] | frozenset[int]
    if state.phase is Phase.DECIDE:
        key = (rules.combat_scope, state.turn, tuple(out))
        known = _STOPS_NOW.get(key)  # made once: the evaluator asks it of every state
        if known is None:
            known = _STOPS_NOW[key] = frozenset(combat_stops(rules, state.turn, out))
        now = known
    else:
        now = set(state.queue)
        if state.stage in ("attack", "defend") and state.fight >= 0:
            now.add(state.fight)
    for stop, stack in enumerate(state.ring):
        if len(stack) < 2:
            continue
        current = stop in now
        if current:
            fight = _fight(stack, tapped)
            if fight is None and blocked_later:
                current = False
        if not current:  # tapping does not count: the same for every state with this stack
            if stack in _LATER_FIGHTS:
                fight = _LATER_FIGHTS[stack]
            else:
                if len(_LATER_FIGHTS) >= MEMO_SIZE:
                    _LATER_FIGHTS.clear()
                fight = _LATER_FIGHTS[stack] = _fight(stack, 0)
        if fight is None:
            continue
        thrown = state.attack if (stop == state.fight and state.stage == "defend") else 0
        yield (stop, current, *fight, thrown)


def _fight(stack: tuple[int, ...], tapped: int) -> tuple[int, int, int, int] | None:
    """The fight in ``stack`` (:func:`fights`, tapped pieces as ``tapped`` says): the
    attacking and defending sides and their bonuses; None when there is none."""
    i = fighting_pair(stack, tapped)
    if i < 0:
        return None
    a_side, d_side = stack[i] // PIECES, stack[i - 1] // PIECES
    a_bonus = d_bonus = -1
    for x in stack:
        if tapped >> x & 1:
            continue
        side = x // PIECES
        if side == a_side:
            a_bonus += 1
        elif side == d_side:
            d_bonus += 1
    return a_side, d_side, a_bonus, d_bonus


#: :func:`_fight` of the stacks whose fight waits for their territory's turn.
_LATER_FIGHTS: dict[tuple[int, ...], tuple[int, int, int, int] | None] = {}

#: :func:`combat_stops` as sets, by the scope, the player and who is out.
_STOPS_NOW: dict[tuple[str, int, tuple[bool, ...]], frozenset[int]] = {}


def forces_in_play(state: AcedrexState) -> list[float]:
    """Each player's pieces in play: ``PIECE`` for each on the ring or in the jackpot,
    ``IN_HAND`` less for each in hand."""
    force = [0.0] * PLAYERS
    for stack in state.ring:
        for x in stack:
            force[x // PIECES] += PIECE
    for p, hand in enumerate(state.hands):
        force[p] += len(hand) * (PIECE - IN_HAND)
    for x in state.jackpot:
        force[x // PIECES] += PIECE
    return force


def add_forces(value: list[float], force: Sequence[float], out: Sequence[bool],
               scale: float) -> None:
    """Add to each active player's ``value`` their force above the active players'
    mean, times ``scale`` (it sums to zero, as money does)."""
    active = [p for p in range(PLAYERS) if not out[p]]
    if len(active) > 1:
        mean = sum(force[p] for p in active) / len(active)
        for p in active:
            value[p] += (force[p] - mean) * scale


class AcedrexHeuristic:
    """Scores Acedrex states in money for each player (see the module text)."""

    players = PLAYERS

    def __init__(self, rules: StateRules) -> None:
        self.rules = rules
        self.stake = rules.stake
        self._memo: dict[tuple[object, ...], list[float]] = {}
        self._standings: dict[tuple[object, ...], tuple[list[float], list[list[float]]]] = {}

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

    def evaluate(self, states: Sequence[AcedrexState]) -> np.ndarray:
        """:meth:`value` of each state, remembered by :meth:`memo_key`: a search scores
        the twenty throws of the same position, which differ only in the die."""
        memo = self._memo
        rows = []
        for state in states:
            key = self.memo_key(state)
            row = memo.get(key)
            if row is None:
                if len(memo) >= MEMO_SIZE:
                    memo.clear()
                row = memo[key] = self.value(state)
            rows.append(row)
        return np.array(rows, np.float64)

    def memo_key(self, state: AcedrexState) -> tuple[object, ...]:
        """Everything of ``state`` that :meth:`value` reads (kept in step with it): the
        position and the combat under way, not the die."""
        return (state.phase, state.stage, state.turn, state.ring, state.tapped, state.hands,
                state.jackpot, state.captured, state.out, state.money, state.queue,
                state.fight, state.attack)

    def value(self, state: AcedrexState) -> list[float]:
        if state.phase is Phase.TERMINAL:
            return [float(r) for r in state.returns()]
        rules = self.rules
        out = state.out
        counts = tuple(map(len, state.captured))
        # The standing and the capture gains depend on the captures, who is out and the
        # money alone, the same in most of a search's states: worked out once.
        known = self._standings.get((counts, out, state.money))
        if known is None:
            if len(self._standings) >= MEMO_SIZE:
                self._standings.clear()
            known = self._standings[counts, out, state.money] = (
                self.standing(counts, out, state.money),
                [self.capture_gain(counts, out, taker) for taker in range(PLAYERS)])
        value = list(known[0])
        gains = known[1]

        def add(taker: int, weight: float) -> None:
            gain = gains[taker]
            for p in range(PLAYERS):
                value[p] += weight * gain[p]

        # Combats: the one being thrown, the rest of this turn's, and later ones.
        for stop, current, a_side, d_side, a_bonus, d_bonus, thrown in fights(rules, state):
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
        add_forces(value, forces_in_play(state), out, self.stake)
        return value


# --- money with the end in view (issue 34) -------------------------------------------------

#: Captures each player is expected to make per turn still to play (the drift of
#: :class:`AcedrexEndgame`; ``money:pace=X``). 0 by default: against players who wait,
#: a drift makes a trailer resign for losses that never come (issue 34's trials).
PACE = 0.0
#: Turns ahead the drift looks at most (and the turns left when there is no cap).
HORIZON = 200
#: What a fight pays its attacker's owner when they are not ahead, in captures
#: (``money:initiative=X``). 0 by default: every charge between sides without support
#: costs its charger money (:func:`fight_chain`), and a bot that charged for the
#: initiative gave its money to players who wait (issue 34's cells); games between
#: the bots end without it, settled once nothing is pending (MoneyAgent).
INITIATIVE = 0.0
#: What a piece alone in the jackpot is worth to its owner when not ahead, in captures
#: (``money:offer=X``; 0 by default: the heuristic's players take such a piece).
OFFER = 0.0
#: The chance that the next player fills a jackpot that two pieces hold.
NEXT_FILLS = 0.9
#: The chance that a piece alone in the jackpot is taken within a round (the
#: heuristic's ``JACKPOT_WEIGHT`` spread over all four players took it 0.45 of the
#: time, and the money bot gave such pieces away: issue 34's cells).
LONE_TAKEN = 0.9
#: Turns a fight takes to come round again (its territory is solved once a round).
ROUND = 4


@functools.cache
def fight_step(attack_bonus: int, defend_bonus: int, threshold: int = 13,
               ties: str = "reroll", attack: int = 0) -> tuple[float, float, float, float]:
    """``(ace, drex, dodge, parry)``: the chances of one combat's result (ACE-COMBAT-WIN,
    ACE-DODGE, ACE-PARRY), ties thrown again (or the defender's with ``ties=defender``);
    ``attack`` is the attacker's throw when known (0: not yet thrown)."""
    attacks = (attack,) if attack else THROWS
    counts = {"ace": 0.0, "drex": 0.0, "dodge": 0.0, "parry": 0.0, "tie": 0.0}
    weight = 1.0 / (len(attacks) * len(THROWS))
    for a in attacks:
        for d in THROWS:
            counts[combat_outcome(a + attack_bonus, d + defend_bonus, threshold, ties)] += weight
    ace, drex, dodge, parry, tie = (counts[k] for k in ("ace", "drex", "dodge", "parry", "tie"))
    if tie:
        if attack:
            again = fight_step(attack_bonus, defend_bonus, threshold, ties, 0)
            return (ace + tie * again[0], drex + tie * again[1], dodge + tie * again[2],
                    parry + tie * again[3])
        rest = 1.0 - tie
        return ace / rest, drex / rest, dodge / rest, parry / rest
    return ace, drex, dodge, parry


@functools.cache
def fight_chain(attack_bonus: int, defend_bonus: int, threshold: int = 13,
                ties: str = "reroll", attack: int = 0) -> tuple[float, float, float, float]:
    """How a fight between two pieces ends once it is fought to a result, when neither
    side's friends in the slot change: ``(defender beaten, attacker beaten as attacker,
    attacker beaten as defender, defender beaten as attacker)``.

    A parry fights again later; a dodge swaps the two (ACE-DODGE), so the attacker
    becomes the defender and the next fight has the roles, and the bonuses, the other
    way round. A piece beaten as attacker is captured by the other's owner; a piece
    beaten as defender goes to the hand (or is captured, ACE-COMBAT-WIN's option). The
    four chances sum to one."""
    ace1, drex1, dodge1, parry1 = fight_step(attack_bonus, defend_bonus, threshold, ties,
                                             attack)
    ace2, drex2, dodge2, parry2 = fight_step(defend_bonus, attack_bonus, threshold, ties)
    first = 1.0 - parry1
    second = 1.0 - parry2
    if first <= 0.0 or second <= 0.0:
        return 0.0, 0.0, 0.0, 0.0
    a1, d1, s1 = ace1 / first, drex1 / first, dodge1 / first
    a2, d2, s2 = ace2 / second, drex2 / second, dodge2 / second
    loop = 1.0 / (1.0 - s1 * s2)
    return a1 * loop, d1 * loop, s1 * a2 * loop, s1 * d2 * loop


def expected_points(captures: int, pace: float, most: int) -> float:
    """The expected score (ACE-SCORE) of a player with ``captures`` who makes a Poisson
    number of further captures with mean ``pace``, up to ``most`` (the captures that
    end the game)."""
    if pace <= 0.0 or captures >= most:
        return float(points(captures))
    term = math.exp(-pace)  # P(0 more)
    total = 0.0
    left = 1.0
    for more in range(most - captures):
        total += term * points(captures + more)
        left -= term
        term *= pace / (more + 1)
    return total + max(left, 0.0) * points(most)


def can_fill(state: AcedrexState) -> bool:
    """Whether the player moving can still end a part of the die on a gate this turn
    (ACE-JACKPOT-ENTER): an untapped Alone piece of theirs, or one in hand, within what
    is left of the die of the next gate."""
    if state.phase is not Phase.DECIDE or state.stage != "move" or state.left <= 0:
        return False
    p = state.turn
    if state.hands[p] and state.left >= SLOTS + 1:
        return True
    tapped = state.tapped
    for stop, stack in enumerate(state.ring):
        if not stack or (SLOTS - stop % (SLOTS + 1)) > state.left:
            continue
        if any(x // PIECES != p for x in stack):
            continue
        if any(not tapped >> x & 1 for x in stack):
            return True
    return False


class AcedrexEndgame(AcedrexHeuristic):
    """Acedrex in money with the end in view (issue 34): the heuristic's terms, priced
    in the money the game will pay when it ends and weighed by the turns left.

    - **Fights to their end.** A fight is valued to its result (:func:`fight_chain`):
      parries fight again and a dodge swaps the pieces and the roles, so a charger ends
      up captured five times as often as it captures (0.42 against 0.08 between equal
      sides): charging is paid for by the charger, and a leader, whose next capture is
      worth more (each piece doubles the score, ACE-SCORE), is the one it can pay.
    - **The end.** ``turns_left``: the turns before the cap (ACE-CAP). A fight that waits
      for its territory's turn, the jackpot's pieces and the forces count less as the cap
      comes near, and nothing at it, where the game settles at the scores of the moment.
    - **The initiative** (0 by default): a fight worth ``initiative`` captures more to
      its attacker when they are not ahead (fewer captures than the leader, or all
      level), for a table that wants fights. Waiting cannot win back what a player is
      behind, but charging costs more: a charge between sides without friends in the
      slot loses its charger money, players who wait collect it. It is no money:
      :meth:`money` leaves it out, as the forces.
    - **Resigning** (:class:`~gammon.agents.players.MoneyAgent`): a player behind who
      expects to lose more than half a stake by playing on settles now (ACE-RESIGN), and
      from turn 100 a game with nothing pending (:meth:`quiet`) is settled at the
      scores of the moment, what the cap would pay.
    - **The jackpot.** Two pieces there: the next player fills it (any die can end a
      part on a gate), or the player moving when a part of what is left reaches a gate
      (:func:`can_fill`); the filler takes back their own pieces there, and the one that
      fills, into their hand. One piece: a gift, taken by one of the others
      (``LONE_TAKEN``).
    - **Drift** (``pace``, 0 by default): each player expected to capture ``pace``
      pieces a turn for the turns left (at most ``HORIZON``), so that a leader's standing
      is worth more than it reads and a trailer's less.
    """

    def __init__(self, rules: StateRules, pace: float = PACE, horizon: int = HORIZON,
                 initiative: float = INITIATIVE, offer: float = OFFER) -> None:
        super().__init__(rules)
        self.pace = pace
        self.horizon = horizon
        self.initiative = initiative
        self.offer = offer
        self._expected: dict[tuple[object, ...], tuple[list[float],
                                                    dict[tuple[int, int], list[float]]]] = {}

    def turns_left(self, state: AcedrexState) -> int:
        """The turns still to play before the cap (the horizon when there is no cap)."""
        cap = self.rules.turn_cap
        if not cap:
            return self.horizon
        return max(0, min(self.horizon, cap - state.turns))

    def expected_money(self, counts: Sequence[int], out: Sequence[bool],
                       money: Sequence[int], pace: float) -> list[float]:
        """Each player's money at the end if every active player goes on capturing
        ``pace`` pieces on average (ACE-PAYOUT, difference; ``payout=victim`` keeps the
        standing of the moment, whose pairs do not follow scores)."""
        if self.rules.payout != "difference" or pace <= 0.0:
            return self.standing(counts, out, money)
        most = self.rules.captures_to_end
        scores = [expected_points(c, pace, most) for c in counts]
        active = [p for p in range(PLAYERS) if not out[p]]
        total = sum(scores[p] for p in active)
        value = [float(m) for m in money]
        for i in active:
            value[i] += (len(active) * scores[i] - total) * self.stake
        return value

    def value(self, state: AcedrexState) -> list[float]:
        return self.worth(state, True)

    def memo_key(self, state: AcedrexState) -> tuple[object, ...]:
        """The heuristic's, and what :meth:`worth` reads besides: the turns played (the
        turns left), what is left of the die (:func:`can_fill`) and the settings."""
        return (*super().memo_key(state), state.turns, state.left, self.pace, self.horizon,
                self.initiative, self.offer)

    def quiet(self, state: AcedrexState) -> bool:
        """Whether nothing is pending that could change the money: no fight standing on
        the ring and no piece in the jackpot (what is left is the players' own choice
        to charge)."""
        if state.phase is Phase.TERMINAL:
            return True
        return not state.jackpot and next(
            fights(self.rules, state, state.out, blocked_later=True), None) is None

    def money(self, state: AcedrexState) -> list[float]:
        """The money part of :meth:`value`: without the forces, which are no money and
        which a player who resigns leaves behind (what :class:`~gammon.agents.players.
        MoneyAgent` weighs a resignation against)."""
        return self.worth(state, False)

    def worth(self, state: AcedrexState, forces: bool) -> list[float]:
        if state.phase is Phase.TERMINAL:
            return [float(r) for r in state.returns()]
        rules = self.rules
        out = state.out
        counts = [len(c) for c in state.captured]
        left = self.turns_left(state)
        top = max(counts[p] for p in range(PLAYERS) if not out[p])
        bottom = min(counts[p] for p in range(PLAYERS) if not out[p])

        def not_ahead(p: int) -> bool:
            return counts[p] < top or top == bottom
        pace = self.pace * left
        # The money expected and what captures add to it depend on the captures, who is
        # out, the money and the pace alone: worked out once for all the states that
        # share them (most of a search's).
        key = (tuple(counts), out, state.money, pace)
        known = self._expected.get(key)
        if known is None:
            if len(self._expected) >= MEMO_SIZE:
                self._expected.clear()
            known = self._expected[key] = (
                self.expected_money(counts, out, state.money, pace), {})
        base, gains = known
        value = list(base)

        def gain_of(taker: int, pieces: int = 1) -> list[float]:
            gain = gains.get((taker, pieces))
            if gain is None:
                more = list(counts)
                more[taker] += pieces
                after = self.expected_money(more, out, state.money, pace)
                gain = gains[taker, pieces] = [after[p] - base[p] for p in range(PLAYERS)]
            return gain

        def add(taker: int, weight: float, pieces: int = 1) -> None:
            gain = gain_of(taker, pieces)
            for p in range(PLAYERS):
                value[p] += weight * gain[p]

        # A fight not fought this turn waits for its territory's turn: it counts less,
        # and nothing when the cap comes first.
        later = LATER * min(1.0, left / ROUND)
        for stop, current, a_side, d_side, a_bonus, d_bonus, thrown in fights(
                rules, state, out, blocked_later=True):
            d_beaten, a_taken, a_beaten, d_taken = fight_chain(
                a_bonus, d_bonus, rules.threshold, rules.ties, thrown)
            weight = 1.0 if current else later
            home = territory(stop)
            for loser, winner, beaten in ((d_side, a_side, d_beaten),
                                          (a_side, d_side, a_beaten)):
                if home == loser or rules.foreign_defender == "hand":
                    value[loser] -= weight * beaten * IN_HAND
                else:
                    add(winner, weight * beaten)
            add(d_side, weight * a_taken)
            add(a_side, weight * d_taken)
            if not_ahead(a_side):
                # Attacking pays a player who is not ahead (ACE-CAP settles the scores
                # of the moment: waiting cannot win back what they are behind).
                value[a_side] += weight * self.initiative * gain_of(a_side)[a_side]
        jackpot = state.jackpot
        sent_home = [0.0] * PLAYERS  # pieces the jackpot is expected to send to hands
        if jackpot:
            active = [p for p in range(PLAYERS) if not out[p]]
            if len(jackpot) >= 3:
                filler = owner(jackpot[-1])
                taken = sum(1 for x in jackpot if owner(x) != filler)
                if taken:
                    add(filler, 1.0, taken)
                sent_home[filler] += len(jackpot) - taken
            elif len(jackpot) == 2 and left:
                # Whoever is on turn next fills it, almost surely (a part of any die
                # can end on a gate): they capture what is not theirs.
                filler = state.turn
                if not (state.phase is Phase.CHANCE and state.stage == "roll"
                        or can_fill(state)):
                    filler = next(q for q in ((state.turn + k) % PLAYERS
                                              for k in range(1, PLAYERS + 1)) if not out[q])
                taken = sum(1 for x in jackpot if owner(x) != filler)
                if taken:
                    add(filler, NEXT_FILLS, taken)
                # The filler's own pieces there, and the one that fills, go to their hand.
                sent_home[filler] += NEXT_FILLS * (len(jackpot) - taken + 1)
            else:
                # A piece alone there is a gift: any of the others who can end two parts
                # of a die on gates takes it, and one of them nearly always can before
                # the round is out (ACE-JACKPOT-FILL).
                soon = LONE_TAKEN * min(1.0, left / ROUND)
                for x in jackpot:
                    takers = [p for p in active if p != owner(x)]
                    for p in takers:
                        add(p, soon / len(takers))
                    q = owner(x)
                    if not out[q] and not_ahead(q):
                        # An offer: whoever fills the jackpot takes it, and a table
                        # that takes offers fights (the initiative, as a charge).
                        value[q] += soon * self.offer * gain_of(q)[q]
        if forces:
            force = forces_in_play(state)
            for p in range(PLAYERS):
                force[p] -= sent_home[p] * IN_HAND
            add_forces(value, force, out, self.stake * min(1.0, left / ROUND))
        return value
