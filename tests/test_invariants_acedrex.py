"""Invariants of Acedrex over many seeded random games (docs/rules/acedrex.md).

The engine's games are checked at every step: 36 pieces conserved across ring, hands,
jackpot, captures and pieces out of play; each piece moves at most once a turn; combat
only between neighbouring untapped opposing pieces in the turn's scope; the game ends
exactly when a player reaches the capture target, resignations leave one player, or the
turn cap is reached; money sums to zero. The compiled playouts are checked by replaying
their traces through the engine, action by action.

The default run plays a few hundred games; ``pytest -m slow`` plays 10,000.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

import gammon
from gammon import Phase, Roll
from gammon.kernels import acedrex as kernel
from gammon.variants.acedrex import (
    ATTACK,
    D20,
    HAND,
    MOVE,
    PIECES,
    PLAYERS,
    RING,
    Acedrex,
    AcedrexState,
    Jump,
    Step,
    combat_stops,
    is_gate,
    owner,
    random_action,
    stalled,
)

ACE: Acedrex = gammon.variant("acedrex")  # type: ignore[assignment]
OPTION_SETS = [
    {},
    {"split_die": False},
    {"combat_scope": "board"},
    {"foreign_defender": "captured", "ties": "defender"},
    {"payout": "victim", "stake": 3, "captures_to_end": 5},
    {"turn_cap": 40},
]


def locations(state: AcedrexState) -> list[tuple[str, int]]:
    """Where every piece is; also checks that each is in exactly one place."""
    where: list[tuple[str, int] | None] = [None] * (PLAYERS * PIECES)
    placed = 0
    for stop, stack in enumerate(state.ring):
        if stack:
            assert not is_gate(stop), "a piece on a gate"
            place = ("ring", stop)
            for piece in stack:
                where[piece] = place
            placed += len(stack)
    for p, hand in enumerate(state.hands):
        assert all(owner(x) == p for x in hand)
        for piece in hand:
            where[piece] = ("hand", p)
        placed += len(hand)
    assert len(state.jackpot) <= 3
    for piece in state.jackpot:
        where[piece] = ("jackpot", 0)
    placed += len(state.jackpot)
    for p, group in enumerate(state.captured):
        assert all(owner(x) != p for x in group), "a player captured their own piece"
        for piece in group:
            where[piece] = ("captured", p)
        placed += len(group)
    for piece in state.removed:
        where[piece] = ("out", 0)
    placed += len(state.removed)
    # Every piece somewhere, and no piece counted twice: pieces are conserved.
    assert placed == PLAYERS * PIECES and None not in where, "pieces not conserved"
    return where  # type: ignore[return-value]


def check_state(state: AcedrexState) -> dict[int, tuple[str, int]]:
    where = locations(state)
    rules = state.variant
    assert sum(state.money) == 0
    on_ring = sum(1 << x for stack in state.ring for x in stack)
    assert state.tapped & ~on_ring == 0, "a tapped piece off the ring"
    for p in range(PLAYERS):
        if state.out[p]:
            assert all(where[x][0] in ("captured", "out") for x in range(p * 9, p * 9 + 9))
    active = state.active()
    if state.is_terminal:
        most = max(state.captures(p) for p in range(PLAYERS))
        assert state.ended in ("captures", "resignations", "stalled", "cap")
        assert (state.ended == "captures") == (most >= rules.captures_to_end)
        if state.ended == "resignations":
            assert len(active) == 1
        if state.ended == "cap":
            assert state.turns == rules.turn_cap
        assert (state.ended == "stalled") == (stalled(state) and state.ended != "captures"
                                             and state.ended != "resignations")
        assert sum(state.returns()) == 0
        assert state.returns() == tuple(float(m) for m in state.money)
    else:
        assert all(state.captures(p) < rules.captures_to_end for p in range(PLAYERS))
        assert len(active) >= 2 and not state.out[state.turn]
        if state.stage == "roll":
            assert not stalled(state)
        assert state.returns() == (0.0,) * PLAYERS
    if state.stage == ATTACK:
        check_fight(state)
    return where


def check_fight(state: AcedrexState) -> None:
    """Combat only between neighbouring untapped opposing pieces, nothing tapped above,
    on a stop the mover's turn solves."""
    assert state.fight in combat_stops(state.variant, state.turn, state.out)
    stack = state.ring[state.fight]
    attacker, defender = state.fighters()
    i = stack.index(attacker)
    assert stack[i - 1] == defender
    assert owner(attacker) != owner(defender)
    assert not any(state.is_tapped(x) for x in stack[i - 1:])


def play_checked(rules: Acedrex, rng: random.Random, resign_rate: float) -> AcedrexState:
    """One random game through the engine, every state checked."""
    state = rules.initial_state()
    where = check_state(state)
    moved: set[int] = set()
    turn_seen = state.turns
    for _ in range(200_000):
        if state.is_terminal:
            return state
        if state.turns != turn_seen:
            moved, turn_seen = set(), state.turns
        if state.is_chance:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1
            if state.stage not in ("attack", "defend", "start"):
                assert outcomes is D20  # twenty throws of 1/20 each
            roll = state.sample_chance(rng)
            after = state.apply(roll)
            assert after != state  # a chance outcome never leads back to its state
            state = after
            where = check_state(state)
            continue
        action = random_action(state, rng, resign_rate)
        mover = state.current_player
        after = state.apply(action)
        new = check_state(after)
        if isinstance(action, (Step, Jump)):
            # Exactly one piece left its place on the ring or in hand: the mover's, and
            # not one that already moved this turn.
            left_place = [x for x, place in enumerate(where)
                          if place[0] in ("ring", "hand") and new[x] != place]
            if not left_place:
                # From hand into the jackpot, which filled and gave it back to the hand.
                assert isinstance(action, Step) and action.source == HAND
                assert is_gate(action.target) and not after.jackpot
                assert after.turns == state.turns + 1 or after.is_terminal
                state, where = after, new
                continue
            assert len(left_place) == 1, (str(action), left_place)
            piece = left_place[0]
            assert owner(piece) == mover and piece not in moved
            if state.stage == MOVE:
                assert isinstance(action, Step)
            moved.add(piece)
        state, where = after, new
    raise AssertionError("a game did not end")


def run_games(games: int, seed: int, resign_rate: float, rules: Acedrex = ACE) -> Counter:
    rng = random.Random(seed)
    ends: Counter = Counter()
    for _ in range(games):
        final = play_checked(rules, rng, resign_rate)
        ends[final.ended] += 1
    return ends


def test_invariants_over_random_games():
    ends = run_games(120, seed=1, resign_rate=0.004)
    assert ends["captures"] > 0 and ends["resignations"] > 0
    assert sum(ends.values()) == 120


@pytest.mark.parametrize("options", OPTION_SETS[1:], ids=lambda o: ",".join(o))
def test_invariants_with_options(options):
    rules = Acedrex(**options)
    ends = run_games(30, seed=2, resign_rate=0.004, rules=rules)
    assert sum(ends.values()) == 30
    if rules.turn_cap == 40:
        assert ends["cap"] > 0


@pytest.mark.slow
def test_invariants_over_1000_random_games():
    # Checked move by move, the Python engine plays about 20 games a second here: 1,000
    # keep CI's run short; the compiled playouts are checked against this engine over
    # many more (below).
    ends = run_games(1_000, seed=10, resign_rate=0.002)
    assert sum(ends.values()) == 1_000
    assert ends["captures"] > 0 and ends["resignations"] > 0


def test_d20_outcomes():
    assert len(D20) == 20 and sum(p for _, p in D20) == 1
    assert {p for _, p in D20} == {Fraction(1, 20)}


def test_same_seed_same_game():
    a = ACE.random_playouts(5, seed=3)
    b = ACE.random_playouts(5, seed=3)
    assert (a == b).all()
    from gammon.variants.acedrex import random_game

    x = random_game(ACE, random.Random(4), 0.01)
    y = random_game(ACE, random.Random(4), 0.01)
    assert x == y and x.money == y.money


# --- the compiled playouts against the engine --------------------------------------


def replay(rules: Acedrex, trace: np.ndarray) -> AcedrexState:
    """Play a kernel trace through the engine; every action must be legal there.

    The kernel throws again what is thrown again (a combat 1, a tied combat, a round of
    starting throws that all tie); the engine has no such outcomes, so the replay drops
    them: a 1, the attacker's throw before a tie, a whole round of equal starts."""
    state = rules.initial_state()
    start_round: list[int] = []
    before_attack = state
    for code, a, b in trace.tolist():
        if code == kernel.T_THROW:
            assert state.phase is Phase.CHANCE, (state.stage, code)
            if state.stage == "start":
                start_round.append(a)
                if len(start_round) == len(state.contenders):
                    if len(set(start_round)) > 1:
                        for value in start_round:
                            state = state.apply(Roll((value,)))
                    start_round = []
                continue
            if state.stage in ("attack", "defend") and a == 1:
                continue
            if state.stage == "attack":
                before_attack = state
            elif state.stage == "defend" and all(
                    roll.dice != (a,) for roll, _ in state.chance_outcomes()):
                state = before_attack  # a tie: both throw again
                continue
            state = state.apply(Roll((a,)))
            continue
        assert state.phase is Phase.DECIDE, (state.stage, code)
        legal = state.legal_actions()
        if code == kernel.T_STEP:
            action: object = Step(a, b)
        elif code == kernel.T_JUMP:
            action = Jump(a, b)
        else:
            names = {kernel.T_NO_JUMP: "no jump", kernel.T_KEEP: "keep 1",
                     kernel.T_REROLL: "reroll", kernel.T_PASS: "pass",
                     kernel.T_RESIGN: "resign"}
            action = next(x for x in legal if str(x) == names[code])
        assert action in legal, (str(action), [str(x) for x in legal])
        state = state.apply(action)
    return state


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "default")
def test_kernel_games_replay_in_the_engine(options):
    assert sum(replay_kernel_games(Acedrex(**options), 30, seed=7).values()) == 30


def replay_kernel_games(rules: Acedrex, games: int, seed: int) -> Counter:
    """Compiled games, traced, replayed action by action in the engine; how they ended."""
    kernel.seed(seed)
    trace = np.zeros((20_000, 3), np.int64)
    ends: Counter = Counter()
    for _ in range(games):
        result, n = kernel.traced_game(rules.kernel_rules(), 0.004, trace)
        assert n <= len(trace)
        final = replay(rules, trace[:n])
        assert final.is_terminal
        assert final.ended == ("captures", "resignations", "cap", "stalled")[
            result[kernel.C_END]]
        assert final.turns == result[kernel.C_TURNS]
        assert final.money == tuple(result[kernel.C_MONEY:kernel.C_MONEY + 4].tolist())
        assert [final.captures(p) for p in range(4)] == result[kernel.C_CAPTURES:].tolist()
        ends[final.ended] += 1
    return ends


def test_kernel_playouts_statistics():
    rows = ACE.random_playouts(3000, seed=5)
    assert rows.shape == (3000, kernel.COLUMNS)
    assert (rows[:, kernel.C_MONEY:kernel.C_MONEY + 4].sum(axis=1) == 0).all()
    assert (rows[:, kernel.C_END] == kernel.END_CAPTURES).all()  # no resignations asked
    captures = rows[:, kernel.C_CAPTURES:]
    assert (captures.max(axis=1) >= 8).all() and (captures.max(axis=1) <= 9).all()
    assert (rows[:, kernel.C_TURNS] < ACE.turn_cap).all()
    money = rows[:, kernel.C_MONEY:kernel.C_MONEY + 4]
    assert (rows[:, kernel.C_WINNER] == money.argmax(axis=1)).all()
    assert (rows[:, kernel.C_POINTS] == money.max(axis=1)).all()
    capped = Acedrex(turn_cap=30).random_playouts(500, seed=5)
    cut = capped[:, kernel.C_END] == kernel.END_CAP
    assert cut.any() and (capped[cut, kernel.C_WINNER] == -1).all()
    assert capped[:, kernel.C_TURNS].max() == 30
    # max_turns lowers the cap for one call, as the track games' playouts take it.
    assert ACE.random_playouts(200, seed=5, max_turns=30)[:, kernel.C_TURNS].max() == 30


def test_ring_constant():
    assert RING == 40 and HAND == -1


def test_tools_written_for_the_protocol_play_acedrex():
    """A generic random agent (uniform over every legal action, resign included) and
    generic chance handling play whole games; states stay values."""
    from gammon.agents.players import RandomAgent

    agent = RandomAgent(random.Random(8))
    rng = random.Random(9)
    for _ in range(20):
        state = ACE.initial_state()
        while not state.is_terminal:
            if state.is_chance:
                state = state.apply(state.sample_chance(rng))
            else:
                assert state.current_player == state.turn
                state = state.apply(agent.choose(state))
        assert state.phase is Phase.TERMINAL and sum(state.returns()) == 0
        assert state.winner == max(range(4), key=lambda p: state.returns()[p])
