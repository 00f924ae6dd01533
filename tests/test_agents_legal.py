"""Every agent plays every variant it claims, choosing only legal actions."""

from __future__ import annotations

import random

import pytest

import gammon
from gammon.agents import agent_kinds, make_agent, parse_spec, supported
from gammon.agents.base import seeded_rng
from gammon.core.errors import InvalidOptionError

VARIANTS = ["backgammon", "nackgammon", "hypergammon-1", "hypergammon-3", "caucasian",
            "long-nardy", "acey-deucey", "multi-gam", "acedrex"]

#: Agents and how many of their decisions to check per variant (search is slow).
AGENTS = {"random": 60, "heuristic": 40, "expectimax:1": 6, "neural": 30, "neural:1": 4,
          "mcts:40": 4, "rollout:100": 6,
          "pubeval": 30, "money": 40}


def _variants() -> list[str]:
    names = set()
    for cls in gammon.variant_classes():
        names.add(cls.name)
    return [v for v in VARIANTS if v.split("-")[0] in {n.split("-")[0] for n in names}]


def play_checked(rules, specs: list[str], decisions: int, seed: int) -> int:
    """Play from the start with ``specs`` in the seats; check each choice is legal."""
    agents = [make_agent(specs[p % len(specs)], rules, f"{seed}:{p}")
              for p in range(rules.players)]
    dice = random.Random(seed)
    state = rules.initial_state()
    made = 0
    while not state.is_terminal and made < decisions:
        if state.is_chance:
            state = state.apply(state.sample_chance(dice))
            continue
        legal = state.legal_actions()
        action = agents[state.current_player].choose(state)
        assert action in list(legal), f"{specs} chose {action!r}, not legal"
        state = state.apply(action)
        made += 1
    return made


@pytest.mark.parametrize("variant_name", _variants())
@pytest.mark.parametrize("spec", list(AGENTS))
def test_agent_plays_legal_actions(variant_name, spec):
    rules = gammon.variant(variant_name)
    if not supported(spec, rules):
        with pytest.raises(InvalidOptionError, match="does not play"):
            make_agent(spec, rules, 1)
        return
    made = play_checked(rules, [spec, "random"], AGENTS[spec] * rules.players, seed=3)
    assert made > 0


@pytest.mark.parametrize("variant_name", ["backgammon", "long-nardy"])
def test_expectimax_two_plays_legal(variant_name):
    rules = gammon.variant(variant_name)
    assert play_checked(rules, ["expectimax:2", "heuristic"], 4, seed=5) == 4


def test_random_never_resigns_in_acedrex():
    rules = gammon.variant("acedrex")
    agent = make_agent("random", rules, 1)
    state = rules.initial_state()
    dice = random.Random(2)
    for _ in range(300):
        if state.is_terminal:
            break
        if state.is_chance:
            state = state.apply(state.sample_chance(dice))
            continue
        action = agent.choose(state)
        assert type(action).__name__ != "Resign" or len(state.legal_actions()) == 1
        state = state.apply(action)


def test_acey_doubles_choice_is_an_action():
    """After a 1-2 the heuristic names a doubles number: the one whose best play it
    likes best, looked through at depth 0."""
    rules = gammon.variant("acey-deucey")
    agent = make_agent("heuristic", rules, 1)
    state = rules.initial_state()
    dice = random.Random(11)
    seen = 0
    for _ in range(4000):
        if state.is_terminal:
            state = rules.initial_state()
        if state.is_chance:
            state = state.apply(state.sample_chance(dice))
            continue
        legal = list(state.legal_actions())
        action = agent.choose(state)
        assert action in legal
        if type(action).__name__ == "DoublesChoice":
            seen += 1
            if seen >= 2:
                break
        state = state.apply(action)
    assert seen >= 1


def test_specs_parse_and_fail_helpfully():
    assert parse_spec("gnubg:1:noise=0.02") == ("gnubg", ["1"], {"noise": "0.02"})
    assert parse_spec(" Expectimax:2 ") == ("expectimax", ["2"], {})
    rules = gammon.variant("backgammon")
    assert make_agent("expectimax:2", rules, 1).depth == 2
    assert make_agent("expectimax", rules, 1).depth == 2
    assert make_agent("expectimax", "acey-deucey", 1).depth == 1
    assert make_agent("mcts:123", rules, 1).iterations == 123
    with pytest.raises(InvalidOptionError, match="known agents"):
        make_agent("alphazero", rules)
    with pytest.raises(InvalidOptionError, match="person"):
        make_agent("human", rules)
    with pytest.raises(InvalidOptionError, match="no option"):
        make_agent("expectimax:2:speed=3", rules)
    with pytest.raises(InvalidOptionError, match="number"):
        make_agent("mcts:many", rules)
    with pytest.raises(InvalidOptionError, match="does not play"):
        make_agent("pubeval", "long-nardy")
    with pytest.raises(InvalidOptionError, match="does not play"):
        make_agent("gnubg", "multi-gam")
    assert [k.name for k in agent_kinds()] == ["random", "heuristic", "expectimax", "money",
                                              "neural", "mcts", "rollout", "pubeval",
                                              "gnubg", "default", "perfect"]
    assert make_agent("expectimax", rules, 1).cutoff == 0.16
    assert make_agent("expectimax:2:cutoff=0.3", rules, 1).cutoff == 0.3
    assert make_agent("expectimax", "multi-gam", 1).cutoff is None
    assert make_agent("expectimax", "hypergammon-3", 1).cutoff is None
    with pytest.raises(InvalidOptionError, match="cutoff is 0 or more"):
        make_agent("expectimax:2:cutoff=-1", rules)


def test_seeded_agents_repeat_themselves():
    rules = gammon.variant("backgammon")
    state = rules.state(rules.start_position(), (6, 4))
    first = [make_agent("random", rules, 9).choose(state) for _ in range(3)]
    assert len({p.result for p in first}) == 1
    assert seeded_rng(1, "x").random() == seeded_rng(1, "x").random()
    assert seeded_rng(1, "x").random() != seeded_rng(1, "y").random()
