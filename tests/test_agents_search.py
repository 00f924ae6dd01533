"""Search averages over the dice with their exact probabilities; the engines agree."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

import gammon
from gammon.agents import evaluator_for, make_agent
from gammon.agents.base import chance_children
from gammon.agents.search import BoardSearch, board_search_applies, roll_table
from gammon.agents.state_search import StateSearch
from gammon.core.dice import two_dice
from gammon.core.position import Position
from gammon.core.protocol import Phase
from gammon.core.variant import GameState, play_leading_to


def midgame(variant_name: str, plays: int = 12, seed: int = 4) -> GameState:
    """A CHANCE state reached by random play (the last one if the game ends first)."""
    rules = gammon.variant(variant_name)
    rng = random.Random(seed)
    state = rules.initial_state()
    made = 0
    last = None
    while True:
        if state.is_terminal:
            assert last is not None
            return last
        if state.is_chance:
            if not state.opening:
                last = state
                if made >= plays:
                    return state
            state = state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
        made += 1


def test_roll_table_is_exact():
    rolls, probs = roll_table(6)
    assert len(rolls) == 21
    exact = dict((r.dice, p) for r, p in two_dice(6))
    for roll, p in zip(rolls, probs, strict=True):
        assert p == float(exact[roll])
        assert exact[roll] == (Fraction(1, 36) if roll[0] == roll[1] else Fraction(1, 18))
    assert sum(exact.values()) == 1


@pytest.mark.parametrize("variant_name", ["backgammon", "long-nardy", "hypergammon-3"])
def test_depth_one_is_the_exact_expectation(variant_name):
    """Depth 1 = sum over the 21 rolls, each with its exact probability, of the value of
    the roller's best reply by the evaluator."""
    state = midgame(variant_name)
    rules = state.variant
    evaluator = evaluator_for(rules)
    search = BoardSearch(rules, evaluator)
    roller = state.position.turn
    board = np.frombuffer(state.position.board, np.int8)[None, :]
    expected = 0.0
    for roll, probability in two_dice(rules.sides):
        rows = rules.kernel.plays(state.position.board, roller, *roll.dice)
        values = evaluator.values(rows[:, : board.shape[1]], 1 - roller)[:, roller]
        expected += float(probability) * values.max()
    got = search.value(board, roller, 1)[0]
    mine = got if roller == 0 else -got
    assert mine == pytest.approx(expected, abs=1e-12)


def test_state_search_agrees_with_board_search():
    state = midgame("backgammon", plays=9, seed=8)
    rules = state.variant
    evaluator = evaluator_for(rules)
    board = np.frombuffer(state.position.board, np.int8)[None, :]
    fast = BoardSearch(rules, evaluator).value(board, state.position.turn, 1)[0]
    slow = StateSearch(evaluator).value(state, 1)[0]
    assert slow == pytest.approx(fast, abs=1e-12)


def test_depth_two_searches_the_chosen_replies():
    state = midgame("hypergammon-3", plays=4, seed=3)
    rules = state.variant
    evaluator = evaluator_for(rules)
    search = BoardSearch(rules, evaluator)
    roller = state.position.turn
    size = 2 * rules.slots
    expected = 0.0
    for roll, probability in two_dice(6):
        rows = rules.kernel.plays(state.position.board, roller, *roll.dice)[:, :size]
        leaf = search.leaf(np.ascontiguousarray(rows), roller)
        sign = 1.0 if roller == 0 else -1.0
        best = int(np.argmax(sign * leaf))
        reply = rows[best : best + 1]
        if search.finished(reply, roller)[0]:
            value = leaf[best]
        else:
            value = search.value(np.ascontiguousarray(reply), 1 - roller, 1)[0]
        expected += float(probability) * value
    board = np.frombuffer(state.position.board, np.int8)[None, :]
    assert search.value(board, roller, 2)[0] == pytest.approx(expected, abs=1e-12)


def test_compiled_evaluation_matches_numpy():
    for name in ("backgammon", "long-nardy", "acey-deucey", "hypergammon-2"):
        rules = gammon.variant(name)
        evaluator = evaluator_for(rules)
        states = [midgame(name, plays=p, seed=s) for p in (3, 20, 40) for s in (1, 2)]
        boards = np.array([np.frombuffer(s.position.board, np.int8) for s in states])
        turns = np.array([s.position.turn for s in states])
        for a, b in zip(evaluator.chances(boards, turns), evaluator.chances_numpy(boards, turns),
                        strict=True):
            np.testing.assert_allclose(a, b, atol=1e-12)


def test_values_are_zero_sum_and_bounded():
    rules = gammon.variant("backgammon")
    evaluator = evaluator_for(rules)
    states = [midgame("backgammon", plays=p, seed=p) for p in range(2, 40, 6)]
    values = evaluator.evaluate(states)
    np.testing.assert_allclose(values[:, 0], -values[:, 1])
    assert np.all(np.abs(values) <= 3.0)


def test_multigam_values_are_expected_scores():
    states = [midgame("multi-gam", plays=p, seed=p) for p in (4, 10, 16)]
    values = evaluator_for(states[0].variant).evaluate(states)
    assert values.shape == (3, 4)
    assert np.all((values >= 1.0) & (values <= 5.0))


def test_chance_outcomes_thrown_again_are_renormalised():
    """In Acedrex a combat throw of 1 is thrown again: the search sees 19 outcomes of
    1/19 each, the exact conditional distribution."""
    rules = gammon.variant("acedrex")
    rng = random.Random(5)
    state = rules.initial_state()
    for _ in range(20000):
        if state.phase is Phase.CHANCE and state.stage == "attack":
            break
        if state.is_terminal:
            state = rules.initial_state()
        elif state.is_chance:
            state = state.apply(state.sample_chance(rng))
        else:
            legal = [a for a in state.legal_actions() if type(a).__name__ != "Resign"]
            state = state.apply(legal[rng.randrange(len(legal))] if legal else
                                state.legal_actions()[0])
    assert state.stage == "attack"
    children = chance_children(state)
    assert len(children) == 19
    assert all(p == pytest.approx(1 / 19) for _, p in children)


def test_board_search_applies_only_to_alternating_games():
    assert board_search_applies(gammon.variant("backgammon"))
    assert board_search_applies(gammon.variant("long-nardy"))
    assert not board_search_applies(gammon.variant("long-nardy", last_roll=True))
    assert not board_search_applies(gammon.variant("acey-deucey"))
    assert not board_search_applies(gammon.variant("multi-gam"))
    assert not board_search_applies(gammon.variant("acedrex"))


@pytest.mark.parametrize("spec", ["heuristic", "expectimax:1", "expectimax:2", "mcts:50"])
def test_a_bot_takes_the_win(spec):
    """One checker each side left: the play that bears off the last checker wins."""
    rules = gammon.variant("backgammon")
    mine = [14] + [0] * 25
    mine[3] = 1
    theirs = [14] + [0] * 25
    theirs[6] = 1
    position = Position(bytes(mine + theirs), 2, 0)
    state = rules.state(position, (4, 1))
    play = make_agent(spec, rules, 1).choose(state)
    assert play.result.off(0) == 15


def test_expectimax_plays_the_standard_openings():
    rules = gammon.variant("backgammon")
    agent = make_agent("expectimax:2", rules, 1)
    from gammon.notation.movetext import format_play

    start = rules.start_position()
    assert format_play(agent.choose(rules.state(start, (3, 1)))) == "8/5 6/5"
    assert format_play(agent.choose(rules.state(start, (4, 2)))) == "8/4 6/4"
    assert format_play(agent.choose(rules.state(start, (6, 1)))) == "13/7 8/7"


def test_cutoff_drops_candidates_far_behind_the_best():
    """gnubg's move filter: of the ``width`` best, only those within ``cutoff`` of the
    best by depth 0 are searched further; without a cutoff all ``width`` are."""
    from gammon.agents.state_search import move_filter

    base = np.array([0.10, 0.50, 0.45, -0.20, 0.30])
    assert list(move_filter(base, 3)) == [1, 2, 4]
    assert list(move_filter(base, 3, 0.16)) == [1, 2]
    assert list(move_filter(base, 3, 0.0)) == [1]
    state = midgame("backgammon", plays=9)
    state = state.apply(state.chance_outcomes()[5][0])
    scores = BoardSearch(state.variant, evaluator_for(state.variant)).scores(
        state, 1, 8, 0.05)
    searched = np.isfinite(scores)
    assert 1 <= searched.sum() <= 8


def test_cube_chances_look_as_far_ahead_as_the_search():
    """The chances a cube decision reads a roll ahead: a side that bears off its last
    checker with any roll has won, and a gammon when the other has borne nothing off;
    from the other side, the evaluator's chances after its best play of each roll."""
    from gammon.agents.stakes import view_of
    from gammon.stakes.cube import CubeState

    rules = gammon.variant("backgammon")
    search = BoardSearch(rules, evaluator_for(rules))
    rows = [[0] * 26, [0] * 26]
    rows[0][0], rows[0][1] = 14, 1
    rows[1][19] = 15
    position = gammon.Position.from_checkers(rows)
    c, _ = view_of(CubeState.midgame(rules, position), search.evaluator, 0, search, 1)
    assert (c.win, c.gammons, c.gammons_against) == (pytest.approx(1.0), pytest.approx(1.0),
                                                     0.0)
    rows[1][0], rows[1][19] = 1, 14
    position = gammon.Position.from_checkers(rows)
    c, _ = view_of(CubeState.midgame(rules, position), search.evaluator, 0, search, 1)
    assert c.win == pytest.approx(1.0) and c.gammons == pytest.approx(0.0)
    # With the other side to roll: its chances after its best play of each roll, small.
    mirror = CubeState.midgame(rules, position.with_turn(1))
    c, _ = view_of(mirror, search.evaluator, 1, search, 1)
    assert 0.0 <= c.win < 0.5 and 0.0 <= c.gammons <= 1.0



# --- the games that pin ---------------------------------------------------------------------


def pinned(mover: dict[int, int], other: dict[int, int], me: tuple[int, ...] = (),
           them: tuple[int, ...] = ()) -> Position:
    """Player 0 to play ``mover`` against ``other`` (each side's points in its own
    numbering, the rest borne off), its checker pinned on its points ``me`` and the
    other's on its points ``them``."""
    from layouts import position

    row = bytearray(24)
    for point, who in [(p, 0) for p in me] + [(p, 1) for p in them]:
        row[point - 1] = who + 1
    return Position(position(mover, other).board, 2, 0, bytes(row))


#: Positions of Plakoto's mother (tests/test_rules_plakoto.py): their mother alone on our
#: 1-point with a checker of ours six away; pinned there while two of ours wait on our
#: start; both mothers about to be pinned.
MOTHERS = [pinned({7: 1, 2: 14}, {24: 1, 10: 14}),
           pinned({24: 2, 1: 2, 2: 11}, {24: 1, 10: 14}, them=(1,)),
           pinned({24: 1, 7: 1, 2: 13}, {1: 1, 24: 1, 10: 13}, me=(24,))]


def pin_network(rules):
    """A network of random weights on the pin inputs (values that depend on the pins)."""
    from gammon.nn.encoders import TrackEncoder
    from gammon.nn.evaluator import NeuralEvaluator, outputs_for
    from gammon.nn.network import Network

    return NeuralEvaluator(rules, Network.create(TrackEncoder(rules).inputs, 16,
                                                 outputs_for(rules), seed=7))


@pytest.mark.parametrize("variant_name", ["plakoto", "tapa"])
@pytest.mark.parametrize("network", [False, True])
def test_the_board_search_of_a_game_that_pins_agrees_with_the_engine(variant_name, network):
    """The board search on rows of counts and pins, ending games at the mother as the
    compiled turn's end says, values positions (midgames with pins, and the mother's) as
    the search over states does, which plays every child out through the rules objects
    and scores a finished game by its returns. (One roll ahead: two rolls ahead the
    search over states takes an inner forced play at its depth-0 value, the board search
    searches it on, so they differ where a reply is forced, as in every game.)"""
    rules = gammon.variant(variant_name)
    evaluator = pin_network(rules) if network else evaluator_for(rules)
    fast = BoardSearch(rules, evaluator)
    slow = StateSearch(evaluator)
    states = [midgame(variant_name, plays=p, seed=s) for p, s in ((10, 1), (30, 2), (60, 3))]
    states += [rules.state(p) for p in MOTHERS]
    assert any(any(s.position.pins) for s in states)
    for state in states:
        row = np.frombuffer(state.position.board + state.position.pins, np.int8)[None, :]
        got = fast.value(row, state.position.turn, 1)[0]
        # The network's float32 sums may round apart in batches of other sizes.
        assert got == pytest.approx(slow.value(state, 1)[0], abs=1e-6)


@pytest.mark.parametrize("variant_name", ["plakoto", "tapa"])
def test_two_rolls_ahead_a_game_that_pins_ends_where_the_rules_end_it(variant_name):
    """Two rolls ahead from the mothers' positions: each roll's reply (the best by the
    network), worth its returns where the rules objects end the game there (a mother
    pinned: Plakoto's double game, both pinned: a draw), else searched one roll on."""
    rules = gammon.variant(variant_name)
    evaluator = pin_network(rules)
    search = BoardSearch(rules, evaluator)
    for position in MOTHERS:
        state = rules.state(position)
        row = np.frombuffer(position.board + position.pins, np.int8)[None, :]
        replies = search.best_replies(row, 0)[0]
        expected = 0.0
        ended = 0
        for (child, probability), reply in zip(chance_children(state), replies, strict=True):
            play = play_leading_to(child.legal_actions(),
                                   Position(reply[:52].tobytes(), 2, 0, reply[52:].tobytes()))
            after = child.apply(play)
            if after.is_terminal:
                value = after.returns()[0]
                ended += 1
            else:
                value = search.value(reply[None, :], 1, 1)[0]
            expected += probability * value
        assert search.value(row, 0, 2)[0] == pytest.approx(expected, abs=1e-6)
        assert ended or variant_name == "tapa"


def test_the_search_takes_plakotos_mother_and_sees_tapas_go_on():
    """Pinning the other side's mother with none of one's own left on the start wins a
    double game at once in Plakoto, which the search scores exactly; in Tapa the game goes
    on. Both mothers pinned is a draw, worth nothing, in both."""
    for name, exact in (("plakoto", True), ("tapa", False)):
        rules = gammon.variant(name)
        search = BoardSearch(rules, pin_network(rules))
        state = rules.state(MOTHERS[0], (6, 1))
        legal = state.legal_actions()
        pins_mother = next(i for i, play in enumerate(legal)
                           if state.apply(play).position.pinned(1) == 1)
        for depth in (0, 1):
            scores = search.scores(state, depth, len(legal))
            assert bool(scores[pins_mother] == 2.0) is exact
            if exact:
                assert int(np.argmax(scores)) == pins_mother
        drawn = rules.state(MOTHERS[2], (6, 1))
        legal = drawn.legal_actions()
        for i, play in enumerate(legal):
            after = drawn.apply(play)
            if after.is_terminal:
                assert after.returns() == (0.0, 0.0)
                assert search.scores(drawn, 1, len(legal))[i] == 0.0
        assert any(drawn.apply(play).is_terminal for play in legal)


@pytest.mark.parametrize("variant_name", ["plakoto", "tapa"])
def test_the_network_and_the_search_play_whole_games_that_pin(variant_name):
    """The shipped network (``neural:1``, the default) and ``expectimax:1`` play a game
    each way to its end, every choice legal (a state takes only legal plays)."""
    from gammon.agents.duel import play_game

    rules = gammon.variant(variant_name)
    for seed, specs in enumerate((["neural:1", "expectimax:1"], ["expectimax:1", "neural"])):
        agents = [make_agent(spec, rules, seed) for spec in specs]
        assert all(isinstance(agent.search, BoardSearch) for agent in agents)
        played = play_game(rules, agents, random.Random(seed))
        assert played.finished and sum(played.returns) == 0


def test_distinct_rows_finds_each_distinct_board_once_and_where_each_row_went():
    from gammon.kernels.search import distinct_rows

    rng = np.random.default_rng(4)
    rows = rng.integers(0, 4, (3000, 52)).astype(np.int8)
    rows[1500:] = rows[rng.integers(0, 1500, 1500)]  # each of these met before
    rows[7, 51] = -1  # a negative byte (a pin row's) is a byte like another
    first, inverse = distinct_rows(rows)
    assert (rows[first][inverse] == rows).all()
    assert len(first) == len(np.unique(rows, axis=0))
    assert (first == np.sort(first)).all()  # the first met of each, in order
