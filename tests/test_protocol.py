"""The game protocol (gammon.core.protocol.State) as a search sees it.

A plain expectimax written here over nothing but the protocol (``is_terminal``,
``is_chance``, ``chance_outcomes``, ``legal_actions``, ``apply``, ``returns``,
``current_player``) must end with a finite value in every variant, from the opening
throw and from positions in the middle of a game; chance outcomes carry exact
probabilities that sum to one and never lead back to the state they came from; outcomes
that cannot happen are refused with an :class:`IllegalOutcomeError`; and the
``expectimax:2`` agent picks a legal action in every variant that seats it.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import pytest
from kinds import KINDS, by_kind, kind_of

import gammon
from gammon.agents.offered import offered
from gammon.agents.registry import make_agent, supported
from gammon.core.dice import Roll
from gammon.core.errors import IllegalOutcomeError
from gammon.core.variant import variant_names

VARIANTS = variant_names()

#: Decisions looked through: decision, chance, decision.
DEPTH = 2
#: Actions searched at a decision below the root (the first ones listed).
INNER_WIDTH = 3
#: Outcomes followed at a chance node when the search is told to sample (every outcome
#: is still checked: exact probabilities summing to 1, none leading back).
FOLLOW = 3
#: Chance nodes in a row before we call it a loop: Acedrex's four starting throws, the
#: re-throws of three then two tied players, and the first roll make ten at most.
CHANCE_CHAIN = 16


class Counter:
    """Nodes visited, so that a test can tell the search looked at something, and the
    values of the inner nodes already searched (states are hashable values: paths that
    meet again, like Acedrex's starting throws once the starter is known, are searched
    once)."""

    def __init__(self) -> None:
        self.decisions = self.chances = self.leaves = 0
        self.seen: dict[tuple[Any, int], tuple[float, ...]] = {}


def check_outcomes(state: Any) -> list[tuple[Any, Fraction]]:
    """The chance outcomes of ``state``, checked: exact probabilities that sum to 1."""
    outcomes = list(state.chance_outcomes())
    assert outcomes, "a chance node with no outcome"
    assert all(isinstance(p, Fraction) and 0 < p <= 1 for _, p in outcomes)
    assert sum(p for _, p in outcomes) == 1
    return outcomes


def spread(items: list[Any], count: int | None) -> list[Any]:
    """``count`` items spread evenly over ``items`` (first and last included); all of
    them when ``count`` is None."""
    if count is None or len(items) <= count:
        return items
    picks = sorted({round(i * (len(items) - 1) / (count - 1)) for i in range(count)})
    return [items[i] for i in picks]


def expectimax(state: Any, depth: int, counter: Counter, width: int | None = None,
               follow: int | None = None, chain: int = 0) -> tuple[float, ...]:
    """Each player's value of ``state`` looking ``depth`` decisions ahead: a chance node
    averages its outcomes with their exact probabilities, a decision takes the action
    best for the player to act (max-n), and a leaf is worth its returns (zero until
    the game is over). ``width`` caps the actions searched at the root (inner decisions
    search the first :data:`INNER_WIDTH`); ``follow`` (None: all) caps the outcomes
    searched at a chance node, the average then taken over those, renormalised. Every
    outcome of every chance node met is applied and checked all the same."""
    players = state.players
    if state.is_terminal:
        counter.leaves += 1
        assert state.current_player is None
        values = tuple(state.returns())
        assert len(values) == players
        return values
    if depth == 0:
        counter.leaves += 1
        values = tuple(state.returns())
        assert values == (0.0,) * players, "returns are zero until the game is over"
        return values
    if width is None and (state, depth) in counter.seen:
        return counter.seen[state, depth]
    value = _expand(state, depth, counter, width, follow, chain)
    if width is None:
        counter.seen[state, depth] = value
    return value


def _expand(state: Any, depth: int, counter: Counter, width: int | None,
            follow: int | None, chain: int) -> tuple[float, ...]:
    """:func:`expectimax` at a chance node or a decision with ``depth`` left."""
    players = state.players
    if state.is_chance:
        counter.chances += 1
        assert state.current_player is None
        assert chain < CHANCE_CHAIN, "chance outcomes keep leading to chance nodes"
        children = []
        for outcome, p in check_outcomes(state):
            child = state.apply(outcome)
            assert child != state, f"outcome {outcome} leads back to the same state"
            children.append((child, p))
        total = [Fraction(0)] * players
        weight = Fraction(0)
        for child, p in spread(children, follow):
            value = expectimax(child, depth, counter, follow=follow, chain=chain + 1)
            total = [t + p * Fraction(v) for t, v in zip(total, value, strict=True)]
            weight += p
        return tuple(float(t / weight) for t in total)
    counter.decisions += 1
    player = state.current_player
    assert player is not None and 0 <= player < players
    actions = list(state.legal_actions())
    assert actions, "a decision with no action"
    best: tuple[float, ...] | None = None
    for action in actions[: width or INNER_WIDTH]:
        value = expectimax(state.apply(action), depth - 1, counter, follow=follow)
        if best is None or value[player] > best[player]:
            best = value
    assert best is not None
    return best


def game_states(name: str, seed: int) -> list[Any]:
    """Every state of a seeded random game, from the opening to the end."""
    rng = random.Random(seed)
    state = gammon.variant(name).initial_state()
    states = [state]
    while not state.is_terminal:
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(list(state.legal_actions())))
        states.append(state)
    return states


def middle_states(name: str, seed: int, chance: bool) -> list[Any]:
    """Decision (or chance) states a quarter, half and three quarters into a seeded
    random game, the opening throws left out."""
    states = game_states(name, seed)
    first = next(i for i, s in enumerate(states) if not s.is_chance)
    wanted = [s for s in states[first + 1:] if not s.is_terminal and s.is_chance == chance]
    assert wanted
    return [wanted[len(wanted) * k // 4] for k in (1, 2, 3)]


def check_value(value: tuple[float, ...], players: int) -> None:
    assert len(value) == players
    assert all(math.isfinite(v) for v in value)


# --- the opening ------------------------------------------------------------------------


def test_backgammon_opens_with_thirty_throws_of_one_in_thirty() -> None:
    state = gammon.variant("backgammon").initial_state()
    assert state.is_chance and not state.is_terminal
    outcomes = check_outcomes(state)
    assert len(outcomes) == 30
    assert all(p == Fraction(1, 30) for _, p in outcomes)
    throws = {roll.dice for roll, _ in outcomes}
    assert throws == {(a, b) for a in range(1, 7) for b in range(1, 7) if a != b}
    assert all(roll.opening for roll, _ in outcomes)


@pytest.mark.parametrize("name", VARIANTS)
def test_no_opening_throw_leads_back_to_the_state_it_came_from(name: str) -> None:
    state = gammon.variant(name).initial_state()
    assert state.is_chance
    assert state.current_player is None
    outcomes = check_outcomes(state)
    assert len({roll for roll, _ in outcomes}) == len(outcomes), "an outcome listed twice"
    for roll, _ in outcomes:
        after = state.apply(roll)
        assert after != state, f"{name}: {roll} leads back to the opening"


@pytest.mark.parametrize("name", VARIANTS)
def test_chance_outcomes_sum_to_one_all_game_long(name: str) -> None:
    rng = random.Random(4)
    state = gammon.variant(name).initial_state()
    throws = 0
    while not state.is_terminal:
        if state.is_chance:
            outcomes = check_outcomes(state)
            roll = state.sample_chance(rng)
            assert roll in {r for r, _ in outcomes}
            after = state.apply(roll)
            assert after != state
            state = after
            throws += 1
        else:
            assert state.current_player is not None
            state = state.apply(rng.choice(list(state.legal_actions())))
    assert throws > 1
    assert state.current_player is None


# --- a plain expectimax over the protocol -----------------------------------------------


@pytest.mark.parametrize("name", VARIANTS)
def test_expectimax_from_the_opening_throw_ends_with_a_finite_value(name: str) -> None:
    """From the opening throw (Acedrex: four starting throws in a row, then the first
    roll) through two decisions. Every outcome of every chance node met is checked;
    :data:`FOLLOW` of them are searched on, or the opening's 20**4 Acedrex throws and
    1290 Multi-Gam throws would take minutes."""
    state = gammon.variant(name).initial_state()
    counter = Counter()
    value = expectimax(state, DEPTH, counter, width=INNER_WIDTH, follow=FOLLOW)
    check_value(value, state.players)
    assert counter.chances >= 2 and counter.decisions >= 2 and counter.leaves >= 2


@pytest.mark.parametrize("name", VARIANTS)
def test_expectimax_from_the_middle_of_a_game_ends_with_a_finite_value(name: str) -> None:
    """Decision, chance (every outcome), decision, from three seeded middle game
    states; and chance, decision from three chance states."""
    rules = gammon.variant(name)
    for state in middle_states(name, 1, chance=False):
        assert state.current_player is not None
        counter = Counter()
        check_value(expectimax(state, DEPTH, counter, width=8), rules.players)
        assert counter.decisions >= 1 and counter.leaves >= 1
    for state in middle_states(name, 2, chance=True):
        counter = Counter()
        check_value(expectimax(state, 1, counter), rules.players)
        assert counter.chances == 1 and counter.decisions >= 1


def test_expectimax_values_a_finished_game_by_its_returns() -> None:
    state = game_states("hypergammon-1", 5)[-1]
    assert state.is_terminal
    value = expectimax(state, DEPTH, Counter())
    assert value == tuple(state.returns())
    assert sum(value) == 0 and any(value)


def test_expectimax_prefers_a_win_that_is_one_play_away() -> None:
    """The search is not vacuous: one roll from the end of a hypergammon race, the value
    it gives the player to move is the best return one of their plays reaches."""
    for state in reversed(game_states("hypergammon-1", 5)):
        if not state.is_chance and not state.is_terminal and any(
                state.apply(a).is_terminal for a in state.legal_actions()):
            break
    else:
        raise AssertionError("no winning play in the game")
    player = state.current_player
    value = expectimax(state, 1, Counter(), width=len(state.legal_actions()))
    best = max(state.apply(a).returns()[player] if state.apply(a).is_terminal else 0.0
               for a in state.legal_actions())
    assert value[player] == best > 0


# --- outcomes that cannot happen --------------------------------------------------------

NOT_ROLLS = ["52", (5, 2), [5, 2], None, 5]

#: name -> (bad outcomes at the opening, bad outcomes at an ordinary throw)
IMPOSSIBLE = {
    "backgammon": (
        [Roll((0, 3), opening=True), Roll((3, 2, 1), opening=True),
         Roll((30, 2), opening=True), Roll((3, 3), opening=True)],
        [Roll((0, 3)), Roll((3, 2, 1)), Roll((30, 2)), Roll((30,)), Roll(())],
    ),
    "long-nardy": (
        [Roll((0, 3), opening=True), Roll((3, 2, 1), opening=True),
         Roll((30, 2), opening=True)],
        [Roll((0, 3)), Roll((3, 2, 1)), Roll((30, 2))],
    ),
    "multi-gam": (
        [Roll((0, 3, 2, 1), opening=True), Roll((3, 2, 1), opening=True),
         Roll((30, 1, 2, 3), opening=True), Roll((5, 2))],
        [Roll((0, 3)), Roll((3, 2, 1)), Roll((30, 2)), Roll((6, 5, 4, 3), opening=True)],
    ),
    "acedrex": (
        [Roll((0,)), Roll((1, 2, 3)), Roll((30,)), Roll((21,)), Roll((5,), opening=True)],
        [Roll((0,)), Roll((1, 2, 3)), Roll((30,)), Roll((21,)), Roll((6, 5))],
    ),
}

CASES = [
    pytest.param(name, stage, bad, id=f"{name}-{stage}-{bad!r}")
    for name, (opening, ordinary) in IMPOSSIBLE.items()
    for stage, bads in (("opening", opening + NOT_ROLLS), ("midgame", ordinary + NOT_ROLLS))
    for bad in bads
]


@pytest.mark.parametrize("name,stage,bad", CASES)
def test_an_outcome_that_cannot_happen_is_refused(name: str, stage: str, bad: Any) -> None:
    if stage == "opening":
        state = gammon.variant(name).initial_state()
    else:
        state = middle_states(name, 1, chance=True)[0]
    assert state.is_chance
    assert not any(bad == roll for roll, _ in state.chance_outcomes())
    with pytest.raises(IllegalOutcomeError) as caught:
        state.apply(bad)
    message = str(caught.value)
    assert str(bad) in message or repr(bad) in message, message
    assert any(word in message for word in ("dice", "die", "throw", "D20")), message


@pytest.mark.parametrize("name", ["backgammon", "multi-gam", "acedrex"])
def test_an_action_is_no_outcome(name: str) -> None:
    """A decision's action handed to a chance node is refused as an outcome."""
    decision = middle_states(name, 2, chance=False)[0]
    action = list(decision.legal_actions())[0]
    chance = middle_states(name, 2, chance=True)[0]
    with pytest.raises(IllegalOutcomeError):
        chance.apply(action)


# --- the expectimax agent ---------------------------------------------------------------


def decision_states(name: str, count: int, most: int | None = None) -> list[Any]:
    """``count`` decision states of seeded random games with a real choice to make
    (two actions or more, ``most`` at most)."""
    rng = random.Random(17)
    states: list[Any] = []
    state = gammon.variant(name).initial_state()
    skip = 0
    while len(states) < count:
        if state.is_terminal:
            state = gammon.variant(name).initial_state()
        elif state.is_chance:
            state = state.apply(state.sample_chance(rng))
        else:
            actions = list(state.legal_actions())
            if 2 <= len(actions) <= (most or len(actions)) and skip <= 0:
                states.append(state)
                skip = 7
            skip -= 1
            state = state.apply(rng.choice(actions))
    return states


def test_the_bots_each_game_offers_are_one_table_of_known_kinds():
    """gammon.agents.offered: a row names only kinds that exist and play the game; a
    preset's row comes before its family's; a game without a row offers its search."""
    from dataclasses import dataclass

    from gammon.agents.offered import OFFERS, SEARCH_FIRST
    from gammon.agents.registry import KINDS
    from gammon.core.variant import TrackVariant, registered

    for listed, offer in OFFERS.items():
        assert listed in registered() or listed in variant_names(), listed
        assert set(offer.bots) <= set(KINDS) and set(offer.options) <= set(offer.bots)
    for name in variant_names():
        rules = gammon.variant(name)
        assert all(supported(kind, rules) for kind in offered(rules).bots)
    assert offered(gammon.variant("hypergammon-2")).bots != offered(
        gammon.variant("hypergammon-3")).bots
    assert offered(gammon.variant("hypergammon")) == OFFERS["hypergammon-3"]

    @dataclass(frozen=True)
    class Unlisted(TrackVariant):  # a new game, not registered and in no row
        name = "unlisted-test-game"

        def start_layout(self) -> dict[int, int]:
            return {24: 2, 13: 5, 8: 3, 6: 5}

    assert offered(Unlisted()).bots == SEARCH_FIRST and not offered(Unlisted()).options
    assert "pubeval" not in offered(Unlisted()).bots and not supported("gnubg", Unlisted())


@pytest.mark.parametrize("name", by_kind(VARIANTS))
def test_expectimax_agent_chooses_a_legal_action_in_every_variant(name: str) -> None:
    rules = gammon.variant(name)
    assert offered(rules).bots, f"{name} seats no bot"
    if "expectimax" in offered(rules).bots:
        spec = "expectimax:2"
        assert supported(spec, rules)
    else:  # no variant is expected here today; if one is, its first bot must still play
        assert not supported("expectimax:2", rules)
        spec = offered(rules).bots[0]
    agent = make_agent(spec, rules, seed=1)
    # Acedrex's depth-2 search takes seconds at the start of a turn (sixty parts of the
    # die to move): its states are taken later in turns, with fewer choices.
    for state in decision_states(name, 3, most=20 if name == "acedrex" else None):
        legal = list(state.legal_actions())
        action = agent.choose(state)
        assert action in legal
        after = state.apply(action)
        assert after != state


@pytest.mark.parametrize("name", VARIANTS)
def test_every_variant_states_what_kind_of_game_it_is(name: str) -> None:
    """GameType: the static facts agree with the games the rules make."""
    from gammon.core.play import Play
    from gammon.core.position import Position
    from gammon.table import Seat, Table

    rules = gammon.variant(name)
    kind = rules.game_type
    assert (kind.players, kind.board) == (rules.players, rules.board)
    assert kind.turns in ("alternate", "own") and kind.chance
    rng = random.Random(11)
    most, plays = 0, 0
    for _ in range(3):
        state = rules.initial_state()
        while not state.is_terminal:
            if state.is_chance:
                state = state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            most = max(most, len(legal))
            assert kind.checkers == isinstance(getattr(state, "position", None), Position)
            plays += sum(isinstance(a, Play) for a in legal)
            state = state.apply(rng.choice(list(legal)))
    assert 0 < most <= kind.max_actions
    assert (plays > 0) == kind.checkers
    seats = [Seat("random")] * rules.players
    if kind.stakes:
        assert Table(rules, seats, kind="match", length=3).series.score.length == 3
    else:
        with pytest.raises(gammon.GammonError, match="two-player"):
            Table(rules, seats, kind="match", length=3)


def test_every_variant_has_a_kind():
    """Checks over every variant run on one of each kind in make test (tests/kinds.py):
    a variant without a kind would be checked nowhere but make long."""
    assert sorted(name for members in KINDS.values() for name in members) == sorted(VARIANTS)
    for name in VARIANTS:
        assert name in KINDS[kind_of(name)]
