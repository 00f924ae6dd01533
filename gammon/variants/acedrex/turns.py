"""The jackpot, the order of turns, the settlements and the end of an Acedrex game
(ACE-JACKPOT-FILL, ACE-TURNS, ACE-PAYOUT, ACE-END, ACE-RESIGN)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gammon.core.protocol import Phase
from gammon.kernels.acedrex import JACKPOT, PIECES, PLAYERS
from gammon.variants.acedrex.actions import OVER, ROLL
from gammon.variants.acedrex.board import owner, points
from gammon.variants.acedrex.state import StateRules, changed, make_state

if TYPE_CHECKING:
    from gammon.variants.acedrex.state import AcedrexState


def solve_jackpot(state: AcedrexState) -> AcedrexState:
    """ACE-JACKPOT-FILL, then the next turn (the same player's when the jackpot paid)."""
    jackpot = state.jackpot
    if len(jackpot) < JACKPOT:
        return next_turn(state, next_player(state.out, state.turn))
    q = owner(jackpot[-1])
    own = tuple(x for x in jackpot if owner(x) == q)
    taken = tuple(x for x in jackpot if owner(x) != q)
    hands = (*state.hands[:q], tuple(sorted((*state.hands[q], *own))), *state.hands[q + 1:])
    captured = (*state.captured[:q], (*state.captured[q], *taken), *state.captured[q + 1:])
    after = changed(state, jackpot=(), hands=hands, captured=captured)
    if len(captured[q]) >= state.variant.captures_to_end:
        return finish_game(after, "captures")
    return next_turn(after, q)


def next_player(out: tuple[bool, ...], player: int) -> int:
    """ACE-TURNS: the next player clockwise still in the game."""
    for k in range(1, PLAYERS + 1):
        q = (player + k) % PLAYERS
        if not out[q]:
            return q
    raise AssertionError("no player left")


_MASKS = tuple(((1 << PIECES) - 1) << (p * PIECES) for p in range(PLAYERS))


def stalled(state: AcedrexState) -> bool:
    """ACE-END: no capture can happen any more. Every piece still in play (ring, hands,
    jackpot) belongs to one player, or none is on the ring or in a hand (so nothing can
    move, and the jackpot can never fill)."""
    players = 0
    for stack in state.ring:  # at every turn of a search: the owner inline (x // PIECES)
        for x in stack:
            players |= 1 << x // PIECES
    movable = players != 0
    for p, hand in enumerate(state.hands):
        if hand:
            players |= 1 << p
            movable = True
    for x in state.jackpot:
        players |= 1 << owner(x)
    return not movable or players & (players - 1) == 0


def next_turn(state: AcedrexState, player: int) -> AcedrexState:
    """Begin a turn of ``player``: untap (ACE-UNTAP), then the roll; or stop when nothing
    can be captured any more, or at the cap."""
    if stalled(state):
        return finish_game(state, "stalled")
    cap = state.variant.turn_cap
    if cap and state.turns >= cap:
        return finish_game(state, "cap")
    return make_state(
        state.variant, state.ring, state.tapped & ~_MASKS[player], state.hands, state.jackpot,
        state.captured, state.removed, state.out, state.money, player, Phase.CHANCE, ROLL,
        0, 0, 0, (), -1, 0, state.turns + 1, (), (),
    )


def _pair_owes(rules: StateRules, captured: tuple[tuple[int, ...], ...], i: int, j: int) -> int:
    """ACE-PAYOUT: what ``j`` pays ``i`` when the two settle (negative: ``i`` pays)."""
    if rules.payout == "difference":
        diff = points(len(captured[i])) - points(len(captured[j]))
    else:
        took_i = sum(1 for x in captured[i] if owner(x) == j)
        took_j = sum(1 for x in captured[j] if owner(x) == i)
        diff = points(took_i) - points(took_j)
    return diff * rules.stake


def settle_all(rules: StateRules, captured: tuple[tuple[int, ...], ...], out: tuple[bool, ...],
                money: list[int]) -> None:
    active = [p for p in range(PLAYERS) if not out[p]]
    for n, i in enumerate(active):
        for j in active[n + 1:]:
            owed = _pair_owes(rules, captured, i, j)
            money[i] += owed
            money[j] -= owed


def finish_game(state: AcedrexState, reason: str) -> AcedrexState:
    """ACE-END: settle every open pair and stop."""
    money = list(state.money)
    settle_all(state.variant, state.captured, state.out, money)
    return changed(state, money=tuple(money), phase=Phase.TERMINAL, stage=OVER,
                    queue=(), fight=-1, attack=0, left=0, ended=reason)


def resign_player(state: AcedrexState) -> AcedrexState:
    """ACE-RESIGN: the player on turn leaves; their pieces go, they settle now."""
    p = state.turn
    mine = _MASKS[p]
    ring = tuple(tuple(x for x in stack if x // PIECES != p) if stack else stack
                 for stack in state.ring)
    gone = [x for stack in state.ring for x in stack if x // PIECES == p]
    gone += [x for x in state.jackpot if owner(x) == p]
    gone += state.hands[p]
    jackpot = tuple(x for x in state.jackpot if owner(x) != p)
    hands = (*state.hands[:p], (), *state.hands[p + 1:])
    money = list(state.money)
    for j in range(PLAYERS):
        if j != p and not state.out[j]:
            owed = _pair_owes(state.variant, state.captured, p, j)
            money[p] += owed
            money[j] -= owed
    out = (*state.out[:p], True, *state.out[p + 1:])
    after = changed(
        state, ring=ring, jackpot=jackpot, hands=hands, tapped=state.tapped & ~mine,
        removed=tuple(sorted((*state.removed, *gone))), out=out, money=tuple(money),
    )
    if sum(1 for o in out if not o) == 1:
        return finish_game(after, "resignations")
    return next_turn(after, next_player(out, p))
