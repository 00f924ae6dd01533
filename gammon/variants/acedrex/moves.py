"""Moving in Acedrex: the legal actions of a decision and what each does (ACE-MOVE,
ACE-SPLIT, ACE-HAND, ACE-CHARGE, ACE-JUMP)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from gammon.core.errors import IllegalPlayError
from gammon.core.protocol import Phase
from gammon.kernels.acedrex import HAND, JACKPOT, PIECES, PLAYERS, RING, SIDES, SLOTS, STOPS
from gammon.variants.acedrex.actions import (
    JUMP,
    KEEP,
    MOVE,
    NO_JUMP,
    ONE,
    PASS,
    REROLL,
    RESIGN,
    ROLL,
    Jump,
    Keep,
    NoJump,
    Pass,
    Reroll,
    Resign,
    Step,
)
from gammon.variants.acedrex.board import SLOT_STOPS, first_stop, is_gate
from gammon.variants.acedrex.combat import combats_of
from gammon.variants.acedrex.state import changed
from gammon.variants.acedrex.turns import resign_player

if TYPE_CHECKING:
    from gammon.variants.acedrex.actions import Action
    from gammon.variants.acedrex.state import AcedrexState


def legal_of(state: AcedrexState) -> list[Action]:
    if state.stage == ONE:
        return [KEEP, REROLL, RESIGN]
    if state.stage == MOVE:
        steps: list[Action] = list(piece_steps(state))
        return [*steps, RESIGN] if steps else [PASS, RESIGN]
    if state.stage == JUMP:
        return [*_jumps(state), NO_JUMP, RESIGN]
    raise AssertionError(state.stage)


def more_actions_than(state: AcedrexState, count: int) -> bool:
    """Whether :func:`legal_of` would list more than ``count`` actions at a decision of
    the MOVE stage, listing at most ``count + 1`` steps."""
    # The steps, then resign (or pass and resign when there is no step).
    steps = sum(1 for _ in itertools.islice(_each_move(state), count + 1))
    return (steps + 1 if steps else 2) > count


def _source(stack: tuple[int, ...], player: int, tapped: int) -> int:
    """Index of the piece ``player`` would move from ``stack`` (the outermost untapped
    one), or -1 when none may move: no untapped piece of theirs, or an opponent there
    (ACE-ALONE)."""
    found = -1
    for i, x in enumerate(stack):
        if x // PIECES != player:
            return -1
        if not tapped >> x & 1:
            found = i
    return found


def piece_steps(state: AcedrexState) -> list[Step]:
    """ACE-MOVE, ACE-SPLIT, ACE-HAND, ACE-CHARGE: every legal next part of the die."""
    return [Step(*move) for move in _each_move(state)]


def _can_step(state: AcedrexState) -> bool:
    """Whether any part of the die can be moved: found without listing the steps (after
    each part of a split die; most such states are only looked at by a search)."""
    return next(_each_move(state), None) is not None


def _each_move(state: AcedrexState) -> Iterator[tuple[int, int, int, bool]]:
    """The steps of :func:`piece_steps` in order, as (source, steps, target, charge): a search
    asks of most states only whether there is one, or more than a dozen, and a tuple
    is made faster than a Step."""
    rules = state.variant
    p, ring, tapped, left, die = state.turn, state.ring, state.tapped, state.left, state.die
    first = state.parts == 0
    if rules.split_die:
        if not first and not left:
            return
        low = 1
    else:
        if not first:
            return
        low = left
    gates_open = len(state.jackpot) < JACKPOT
    # A piece moves from its hand, or from a slot that only its owner holds.
    # (A stack whose innermost piece is another's is passed over at once: most are.)
    sources: Iterator[tuple[int, int]] = (
        (stop, stop) for stop in _SLOTS_FROM[p]
        if (stack := ring[stop]) and stack[0] // PIECES == p and _source(stack, p, tapped) >= 0)
    if state.hands[p]:
        sources = itertools.chain(((HAND, first_stop(p) - 1),), sources)
    # Whether a stop is open to the mover (empty or theirs alone), judged once a stop:
    # every source reaches the same few stops, and a search asks this millions of times.
    friendly: dict[int, bool] = {}
    for source, start in sources:
        for k in range(low, left + 1):
            target = (start + k) % RING
            if target % STOPS == SLOTS:
                if gates_open:
                    yield source, k, target, False
                continue
            open_to_mover = friendly.get(target)
            if open_to_mover is None:
                there = ring[target]
                open_to_mover = friendly[target] = (
                    not there or all(x // PIECES == p for x in there))
            if open_to_mover:
                yield source, k, target, False
            elif first and k == die:
                yield source, k, target, True


#: Each player's slots in the order they move through them, from their first stop.
_SLOTS_FROM = tuple(tuple(stop for stop in ((first_stop(p) + k) % RING for k in range(RING))
                          if stop % STOPS != SLOTS) for p in range(PLAYERS))


def _jumps(state: AcedrexState) -> list[Jump]:
    """ACE-JUMP: an untapped Alone piece to another slot beside an untapped friend."""
    p, ring, tapped = state.turn, state.ring, state.tapped
    sources, targets = [], []
    for stop in SLOT_STOPS:
        stack = ring[stop]
        if not stack:
            continue
        if _source(stack, p, tapped) >= 0:
            sources.append(stop)
        if any(x // PIECES == p and not tapped >> x & 1 for x in stack):
            targets.append(stop)
    return [Jump(s, t) for s in sources for t in targets if s != t]


# --- applying actions ----------------------------------------------------------------------


def act_on(state: AcedrexState, action: Any) -> AcedrexState:
    legal = state.legal_actions()
    try:
        # A search applies the listed actions themselves: found by identity, without
        # comparing the Steps before it one by one.
        index = _position(legal, action)
    except ValueError:
        shown = ", ".join(str(a) for a in legal[:12])
        more = f" … ({len(legal)} in all)" if len(legal) > 12 else ""
        raise IllegalPlayError(f"{action} is not legal now; legal: {shown}{more}") from None
    action = legal[index]
    if isinstance(action, Step):
        return _step(state, action)
    if isinstance(action, Resign):
        return resign_player(state)
    if isinstance(action, Keep):
        return changed(state, stage=MOVE, die=1, left=1, parts=0)
    if isinstance(action, Reroll):
        return changed(state, phase=Phase.CHANCE, stage=ROLL, die=0)
    if isinstance(action, Pass):
        return _end_movement(state)
    if isinstance(action, Jump):
        return combats_of(_jump(state, action))
    if isinstance(action, NoJump):
        return combats_of(state)
    raise AssertionError(action)


def _position(legal: list[Action], action: Any) -> int:
    """Where ``action`` is in ``legal``: by identity first, else by equality."""
    for i, listed in enumerate(legal):
        if listed is action:
            return i
    return legal.index(action)


def _step(state: AcedrexState, step: Step) -> AcedrexState:
    p = state.turn
    ring = list(state.ring)
    hands = state.hands
    if step.source == HAND:
        piece = hands[p][0]
        hands = (*hands[:p], hands[p][1:], *hands[p + 1:])
    else:
        stack = ring[step.source]
        i = _source(stack, p, state.tapped)
        piece = stack[i]
        ring[step.source] = stack[:i] + stack[i + 1:]
    jackpot = state.jackpot
    tapped = state.tapped
    if is_gate(step.target):  # ACE-JACKPOT-ENTER
        jackpot = (*jackpot, piece)
        tapped &= ~(1 << piece)
    else:
        ring[step.target] = (*ring[step.target], piece)
        tapped |= 1 << piece  # ACE-TAP
    left = 0 if step.charge else state.left - step.steps
    after = changed(state, ring=tuple(ring), hands=hands, jackpot=jackpot, tapped=tapped,
                     left=left, parts=state.parts + 1)
    if left and _can_step(after):
        return after
    return _end_movement(after)


def _end_movement(state: AcedrexState) -> AcedrexState:
    if state.die == SIDES:
        jumps = _jumps(state)
        if jumps:
            after = changed(state, stage=JUMP, left=0)
            after._legal.append([*jumps, NO_JUMP, RESIGN])
            return after
    return combats_of(state)


def _jump(state: AcedrexState, jump: Jump) -> AcedrexState:
    ring = list(state.ring)
    stack = ring[jump.source]
    i = _source(stack, state.turn, state.tapped)
    piece = stack[i]
    ring[jump.source] = stack[:i] + stack[i + 1:]
    ring[jump.target] = (*ring[jump.target], piece)
    return changed(state, ring=tuple(ring), tapped=state.tapped | 1 << piece)
