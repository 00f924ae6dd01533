"""Learned evaluation: encoders, the network and its file, the evaluator, TD(lambda)
targets, training runs and the ``neural`` agent."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from typer.testing import CliRunner

import gammon
from gammon.agents import make_agent
from gammon.agents.duel import play_game
from gammon.agents.registry import default_bot
from gammon.cli.main import app
from gammon.core.errors import InvalidOptionError
from gammon.core.position import Position
from gammon.evaluators.acedrex import AcedrexHeuristic
from gammon.evaluators.exact import is_solved
from gammon.nn import load_network, network_name
from gammon.nn.encoders import QuarterEncoder, RingEncoder, TrackEncoder, encoder_for
from gammon.nn.evaluator import (
    NeuralEvaluator,
    RingEvaluator,
    convert,
    equity,
    flip,
    outcome_targets,
    outputs_for,
)
from gammon.nn.network import Network
from gammon.training.train import Settings, Trainer, lambda_targets, load_for_training, new_network

BG = gammon.variant("backgammon")
runner = CliRunner()


def board(rules, rows) -> np.ndarray:
    return np.frombuffer(Position.from_checkers(rows).board, np.int8)[None, :]


# --- encoders --------------------------------------------------------------------------


def test_the_start_looks_the_same_from_both_sides():
    encoder = TrackEncoder(BG)
    start = np.frombuffer(BG.start_position().board, np.int8)[None, :]
    mine = encoder.encode(start, np.array([0]))
    theirs = encoder.encode(start, np.array([1]))
    assert mine.shape == (1, encoder.inputs) and (mine == theirs).all()
    # Point 6 holds five of the mover's checkers: 1, 1, 1, (5 - 3) / 2.
    at = (6 - 1) * 8
    assert mine[0, at:at + 4].tolist() == [1.0, 1.0, 1.0, 1.0]
    # The opponent's 24-point checkers stand on the mover's point 1: two of them.
    assert mine[0, 4:8].tolist() == [1.0, 1.0, 0.0, 0.0]
    assert mine[0, -1] == 1.0  # in contact


def test_a_race_and_the_bar_and_off_are_seen():
    rows = [[0] * 26, [0] * 26]
    rows[0][1], rows[0][0] = 5, 10  # player 0: five on their 1-point, ten off
    rows[1][24], rows[1][25] = 14, 1  # player 1: fourteen on their 24-point, one on the bar
    x = TrackEncoder(BG).encode(board(BG, rows), np.array([0]))[0]
    tail = x[24 * 8:]
    assert tail[0] == 0.0 and tail[1] == 0.5  # bars: mine, theirs
    assert tail[2] == pytest.approx(10 / 15) and tail[3] == 0.0  # off
    assert tail[-1] == 1.0  # their checker on the bar: still in contact


def test_long_nardy_sees_the_opponent_on_its_own_numbering():
    rules = gammon.variant("long-nardy")
    encoder = TrackEncoder(rules)
    start = np.frombuffer(rules.start_position().board, np.int8)[None, :]
    x = encoder.encode(start, np.array([0]))[0]
    # Each head (own point 24) holds fifteen; the opponent's head is the mover's point 12.
    assert x[(24 - 1) * 8] == 1.0 and x[(24 - 1) * 8 + 3] == pytest.approx(6.0)
    assert x[(12 - 1) * 8 + 4] == 1.0 and x[(12 - 1) * 8 + 7] == pytest.approx(6.0)


def contact_of(rows, perspective=0) -> np.ndarray:
    """The contact features of one board: the perspective side's nine, then the other's."""
    encoder = TrackEncoder(BG, contact=True)
    return encoder.encode(board(BG, rows), np.array([perspective]))[0, encoder.raw:]


def mine_and_theirs(mine: dict[int, int], theirs_on_my_points: dict[int, int],
                    their_bar: int = 0) -> list[list[int]]:
    """Rows for player 0 (``mine``, their own points) against player 1 given on player
    0's numbering (player 1's point ``25 - s``)."""
    rows = [[0] * 26, [0] * 26]
    for s, n in mine.items():
        rows[0][s] = n
    for s, n in theirs_on_my_points.items():
        rows[1][25 - s] = n
    rows[1][25] = their_bar
    rows[0][0] = 15 - sum(mine.values())
    rows[1][0] = 15 - sum(theirs_on_my_points.values()) - their_bar
    return rows


def test_contact_features_count_the_rolls_that_hit_a_blot():
    # A blot six pips in front of a lone attacker: 11 sixes, 5-1, 4-2, 3-3 and 2-2.
    home = {1: 4, 2: 4, 3: 4}
    x = contact_of(mine_and_theirs({**home, 12: 1}, {6: 1, 20: 5, 22: 5}))
    assert x[0] == pytest.approx(17 / 36)
    assert x[8] == pytest.approx(1 / 6)  # one blot
    # Holding the point three pips ahead of the attacker stops 3-3 (and nothing else).
    x = contact_of(mine_and_theirs({1: 4, 2: 4, 3: 2, 9: 2, 12: 1}, {6: 1, 20: 5, 22: 5}))
    assert x[0] == pytest.approx(16 / 36)
    # A checker of theirs on the bar must come in first: only it attacks; my blot on
    # my 4-point is hit by 4s, 3-1, 2-2 and 1-1 (11 + 2 + 1 + 1).
    x = contact_of(mine_and_theirs({4: 1, 7: 4, 8: 5, 9: 5}, {12: 1, 20: 6, 22: 6},
                                   their_bar=1))
    assert x[0] == pytest.approx(15 / 36)
    # No blot, no shot.
    assert contact_of(mine_and_theirs(home | {4: 3}, {6: 1, 20: 7, 22: 7}))[0] == 0.0


def test_contact_features_see_primes_escapes_and_anchors():
    # My last checkers on their 1-point (my 24) behind a five-point prime on my 19-23:
    # only sixes get out (eleven rolls, 6-6 among them).
    prime = {s: 2 for s in range(19, 24)}
    rows = mine_and_theirs({24: 2, 6: 5, 8: 8}, {**prime, 1: 5})
    x = contact_of(rows)
    assert x[1] == pytest.approx(24 / 25)  # rearmost checker
    assert x[2] == pytest.approx(24 / 24)  # rearmost anchor
    assert x[3] == pytest.approx(11 / 36)  # escapes
    assert x[4] == pytest.approx(1 - 11 / 36)  # contained: the least escapes from 15-24
    assert x[5] == pytest.approx(5 / 6)  # their longest prime
    assert x[6] == pytest.approx(5 / 6)  # their closed home points (my 19-24)
    # A sixth point closes the prime: no roll escapes.
    x = contact_of(mine_and_theirs({24: 2, 6: 5, 8: 8}, {**prime, 18: 2, 1: 3}))
    assert x[3] == 0.0 and x[4] == 1.0 and x[5] == 1.0
    # From the other side the same board reads as theirs: features 9-17 are player 1's
    # as seen by player 1.
    assert np.allclose(contact_of(rows, 1)[:9], contact_of(rows)[9:])


def test_contact_features_count_the_pips_still_behind():
    # Their rearmost checker is on my 10-point: my checkers above it must pass it.
    x = contact_of(mine_and_theirs({12: 2, 6: 13}, {10: 1, 20: 14}))
    assert x[7] == pytest.approx(2 * (12 - 10) / 200)
    # A pure race: nothing behind, nobody hit, all free.
    race = contact_of(mine_and_theirs({6: 5, 5: 5, 4: 5}, {20: 5, 21: 5, 22: 5}))
    assert race[0] == 0.0 and race[7] == 0.0 and race[3] == 1.0


def test_contact_features_are_only_for_games_that_hit_running_opposite_ways():
    with pytest.raises(InvalidOptionError, match="opposite directions"):
        TrackEncoder(gammon.variant("long-nardy"), contact=True)
    assert TrackEncoder(gammon.variant("nackgammon"), contact=True).inputs == 199 + 18


PK = gammon.variant("plakoto")


def pinned(rows, pins: dict[int, int], turn: int = 0) -> Position:
    """Counts ``rows`` (each player's slots in its own numbering) with ``pins``: player
    0's point -> the player whose checker lies pinned there."""
    counts = Position.from_checkers(rows, turn)
    row = bytearray(24)
    for point, player in pins.items():
        row[point - 1] = player + 1
    return Position(counts.board, 2, turn, bytes(row))


def row_of(position: Position) -> np.ndarray:
    return np.frombuffer(position.board + position.pins, np.int8)[None, :]


def mirrored(position: Position) -> Position:
    """The same game with the players' seats swapped: player 1's checkers become player
    0's, and a pin on player 0's point n lies on the other's point 25 - n."""
    slots = len(position.board) // 2
    board = position.board[slots:] + position.board[:slots]
    pins = bytes(3 - p if p else 0 for p in reversed(position.pins))
    return Position(board, 2, 1 - position.turn, pins)


def one_each_on(point: int) -> list[list[int]]:
    """Fourteen a side on its start and one of each side on player 0's ``point``."""
    mine = [0] * 26
    theirs = [0] * 26
    mine[24], theirs[24] = 14, 14
    mine[point] = 1
    theirs[25 - point] = 1
    return [mine, theirs]


def test_the_pin_units_tell_who_pinned_whom():
    """One checker of each side on one point: the counts are the same whichever lies
    under the other; the pin units say which, from either side."""
    encoder = TrackEncoder(PK)
    assert encoder.name == "track+pins" and encoder.inputs == 199 + 48
    assert encoder.size == 2 * 26 + 24
    rows = one_each_on(10)
    under_me = encoder.encode(row_of(pinned(rows, {10: 0})), np.array([0]))
    under_them = encoder.encode(row_of(pinned(rows, {10: 1})), np.array([0]))
    raw = encoder.raw
    assert (under_me[0, :raw] == under_them[0, :raw]).all()
    units = raw + 2 * (10 - 1)
    assert under_me[0, units:units + 2].tolist() == [1.0, 0.0]  # mine pinned there
    assert under_them[0, units:units + 2].tolist() == [0.0, 1.0]  # theirs, pinned by me
    for x in (under_me, under_them):
        assert x[0, raw:].sum() == 1.0
    # From player 1's side the point is its 15, and the units are the other way round.
    seen = encoder.encode(np.repeat(row_of(pinned(rows, {10: 0})), 2, axis=0),
                          np.array([0, 1]))
    units = raw + 2 * (15 - 1)
    assert seen[1, units:units + 2].tolist() == [0.0, 1.0]
    assert seen[1, raw:].sum() == 1.0


def test_the_pin_units_mirror_with_the_perspective():
    """A game with pins (and a pinned mother) seen by player 0 gives the inputs of the
    same game with the seats swapped, seen by player 1."""
    encoder = TrackEncoder(PK)
    rng = random.Random(2)
    state = PK.initial_state()
    seen = 0
    while seen < 40:
        if state.is_terminal:
            state = PK.initial_state()
        elif state.is_chance:
            state = state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
            position = state.position
            if sum(map(bool, position.pins)) < 2:
                continue
            seen += 1
            for p in (0, 1):
                mine = encoder.encode(row_of(position), np.array([p]))
                theirs = encoder.encode(row_of(mirrored(position)), np.array([1 - p]))
                assert (mine == theirs).all()
                assert mine[0, encoder.raw:].sum() == sum(map(bool, position.pins))


def test_the_pin_inputs_are_for_the_games_that_pin_only():
    for name in ("plakoto", "tapa"):
        assert encoder_for(gammon.variant(name)).name == "track+pins"
        assert encoder_for(gammon.variant(name), "track+pins").inputs == 247
    with pytest.raises(InvalidOptionError, match="games that pin"):
        encoder_for(BG, "track+pins")
    with pytest.raises(InvalidOptionError, match="its networks read 'track\\+pins'"):
        encoder_for(PK, "track")
    with pytest.raises(InvalidOptionError, match="opposite directions"):
        encoder_for(PK, "track+contact")


def test_the_evaluator_of_a_game_that_pins_reads_the_pin_row():
    """Two states of the same counts, the lone checkers' pin the other way round: the
    network values them apart, from the states as from their rows."""
    net = Network.create(TrackEncoder(PK).inputs, 16, outputs_for(PK), seed=3)
    evaluator = NeuralEvaluator(PK, net)
    rows = one_each_on(10)
    states = [PK.state(pinned(rows, {10: who})) for who in (0, 1)]
    values = evaluator.evaluate(states)
    assert values[0, 0] != pytest.approx(values[1, 0], abs=1e-6)
    boards = np.concatenate([row_of(s.position) for s in states])
    assert np.allclose(evaluator.values(boards, 0), values)


def test_the_escape_table_counts_rolls_past_the_blocks():
    from gammon.kernels.encoding import ESCAPE_REACH, escape_table

    table = escape_table()

    def ahead(*pips):
        return sum(1 << (ESCAPE_REACH - d) for d in pips)

    assert table[0] == 36  # nothing in front
    assert table[ahead(1, 2, 3, 4, 5, 6)] == 0  # a full prime
    # One point blocked six pips ahead: a roll must move more than six without landing
    # on it: the nine pairs of dice summing to 7 or more (18 rolls), 4-4 and 5-5; 2-2,
    # 3-3 and 6-6 land on it, the smaller rolls fall short.
    assert table[ahead(6)] == 20
    # Blocked one pip ahead: a 1 can't be played first, everything else gets by.
    assert table[ahead(1)] == 36 - 1


def test_multigam_seats_rotate_with_the_perspective():
    rules = gammon.variant("multi-gam")
    encoder = QuarterEncoder(rules)
    start = np.frombuffer(rules.start_position().board, np.int8)[None, :]
    rows = encoder.encode(np.repeat(start, 4, axis=0), np.arange(4))
    assert rows.shape == (4, encoder.inputs)
    assert (rows == rows[0]).all()  # a symmetric start


# --- the network ------------------------------------------------------------------------


def test_a_network_learns_fixed_targets_and_keeps_them_in_its_file(tmp_path):
    net = Network.create(10, 8, 3, seed=2, variant="backgammon")
    x = np.random.default_rng(0).random((32, 10)).astype(np.float32)
    targets = np.tile(np.array([0.9, 0.1, 0.5], np.float32), (32, 1))
    first = net.train(x, targets, 0.05)
    for _ in range(200):
        last = net.train(x, targets, 0.05)
    assert last < first / 10
    path = tmp_path / "net.npz"
    net.save(path)
    again = Network.load(path)
    assert np.allclose(again.forward(x), net.forward(x)) and again.meta["variant"] == "backgammon"


def test_a_file_that_is_not_a_network_is_refused(tmp_path):
    with pytest.raises(InvalidOptionError, match="no network file"):
        Network.load(tmp_path / "missing.npz")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(InvalidOptionError, match="not a gammon network"):
        Network.load(junk)
    other = tmp_path / "other.npz"
    np.savez(other, w1=np.zeros((2, 2)), b1=np.zeros(2), w2=np.zeros((2, 1)), b2=np.zeros(1),
             meta=np.array(json.dumps({"format": "something else"})))
    with pytest.raises(InvalidOptionError, match="not a gammon network"):
        Network.load(other)


# --- outputs, perspectives and targets ----------------------------------------------------


def test_equity_flip_and_convert():
    out = np.array([[0.7, 0.2, 0.05, 0.1, 0.01]])
    assert equity(out)[0] == pytest.approx(0.4 + 0.25 - 0.11)
    assert np.allclose(flip(flip(out)), out)
    assert equity(flip(out))[0] == pytest.approx(-equity(out)[0])
    assert np.allclose(convert(out[0], 0, 1, 2), flip(out)[0])
    assert np.allclose(convert(out[0], 1, 1, 2), out[0])
    four = np.array([0.1, 0.2, 0.3, 0.4])  # seats 1, 2, 3, 0 from seat 1's side
    seen_by_3 = convert(four, 1, 3, 4)
    assert seen_by_3.tolist() == pytest.approx([0.3, 0.4, 0.1, 0.2])


def test_outcome_targets():
    assert outcome_targets((2.0, -2.0), 0, BG).tolist() == [1, 1, 0, 0, 0]
    assert outcome_targets((2.0, -2.0), 1, BG).tolist() == [0, 0, 0, 1, 0]
    assert outcome_targets((-3.0, 3.0), 0, BG).tolist() == [0, 0, 0, 1, 1]
    assert outcome_targets((0.0, 0.0), 1, BG).tolist() == [0.5, 0, 0, 0, 0]  # a draw
    mg = gammon.variant("multi-gam")
    assert outcome_targets((2.0, 5.0, 1.0, 3.0), 1, mg).tolist() == pytest.approx(
        [1.0, 0.2, 0.6, 0.4])


def test_lambda_targets_run_from_the_result_back():
    values = np.array([[0.5, 0.1, 0.0, 0.1, 0.0], [0.4, 0.1, 0.0, 0.2, 0.0],
                       [0.3, 0.0, 0.0, 0.3, 0.0]], np.float32)
    sides = np.array([0, 1, 0])
    returns = (-2.0, 2.0)  # player 1 wins a gammon
    monte_carlo = lambda_targets(values, sides, returns, BG, 1.0)
    for t, side in enumerate(sides):
        assert monte_carlo[t].tolist() == outcome_targets(returns, side, BG).tolist()
    td0 = lambda_targets(values, sides, returns, BG, 0.0)
    assert np.allclose(td0[0], flip(values[1:2])[0])  # the next position, turned round
    assert np.allclose(td0[1], flip(values[2:3])[0])


# --- the evaluator and training ---------------------------------------------------------------


def test_the_evaluator_is_zero_sum_and_exact_at_the_end():
    net = Network.create(TrackEncoder(BG).inputs, 16, outputs_for(BG), seed=3)
    evaluator = NeuralEvaluator(BG, net)
    start = np.frombuffer(BG.start_position().board, np.int8)[None, :]
    values = evaluator.values(np.repeat(start, 2, axis=0), np.array([0, 1]))
    assert np.allclose(values.sum(axis=1), 0.0)
    assert values[0, 0] == pytest.approx(-values[1, 0])  # same board, the other to roll
    win0, g0, g1 = evaluator.chances(start, 0)
    assert 0 <= win0[0] <= 1 and 0 <= g0[0] <= 1 and 0 <= g1[0] <= 1
    with pytest.raises(ValueError, match="inputs"):
        NeuralEvaluator(gammon.variant("long-nardy"), Network.create(10, 4, 5))


#: Acedrex trains as the heuristic plays at first, to the turn cap: a short cap here.
SHORT_ACEDREX = {"turn_cap": 40}


@pytest.mark.parametrize("name", ["hypergammon-1", "acey-deucey", "multi-gam", "acedrex"])
def test_a_short_training_run_plays_whole_games_and_resumes(name, tmp_path):
    rules = gammon.variant(name, **(SHORT_ACEDREX if name == "acedrex" else {}))
    trainer = Trainer(Settings(rules.name, rules.options(), hidden=8, seed=4))
    path = tmp_path / "net.npz"
    trainer.run(6, path)
    assert trainer.games == 6 and path.exists()
    again = load_for_training(path)
    assert again.games == 6 and again.rules == rules
    again.run(9, path)
    assert load_for_training(path).games == 9
    stretches = Network.load(path).meta["stretches"]
    assert [(s["from"], s["to"]) for s in stretches] == [(0, 6), (6, 9)]


def test_gammon_train_writes_a_network_and_its_learning_curve(tmp_path):
    out = tmp_path / "h1.npz"
    result = runner.invoke(app, ["train", "hypergammon-1", "--games", "30", "--out", str(out),
                                 "--check-every", "15", "--check-games", "4", "--hidden", "8"])
    assert result.exit_code == 0, result.output
    assert out.exists() and out.with_suffix(".png").exists()
    meta = Network.load(out).meta
    assert [p["games"] for p in meta["curve"]] == [15, 30]
    assert meta["variant"] == "hypergammon" and meta["options"] == {"checkers_per_side": 1}
    result = runner.invoke(app, ["train", "hypergammon-1", "--games", "40", "--resume",
                                 str(out), "--out", str(out), "--rate", "0.001",
                                 "--check-every", "0"])
    assert result.exit_code == 0, result.output
    meta = Network.load(out).meta
    assert meta["games"] == 40 and meta["settings"]["rate"] == 0.001
    result = runner.invoke(app, ["train", "hypergammon-1", "--games", "20", "--resume",
                                 str(out), "--out", str(out)])
    assert result.exit_code == 2 and "played 40 games already" in result.output
    result = runner.invoke(app, ["train", "hypergammon-1", "--games", "50", "--resume",
                                 str(out), "--out", str(out), "--contact"])
    assert result.exit_code == 2 and "keeps its inputs" in result.output
    result = runner.invoke(app, ["train", "long-nardy", "--games", "5", "--contact",
                                 "--out", str(tmp_path / "n.npz")])
    assert result.exit_code == 2 and "opposite directions" in result.output


# --- the agent ------------------------------------------------------------------------------------


def test_the_neural_agent_plays_with_a_network_file(tmp_path):
    rules = gammon.variant("hypergammon-2")
    trainer = Trainer(Settings(rules.name, rules.options(), hidden=8, seed=5))
    path = tmp_path / "h2.npz"
    trainer.run(3, path)
    for spec in (f"neural:0:net={path}", f"neural:1:net={path}"):
        agent = make_agent(spec, rules, 1)
        played = play_game(rules, [agent, make_agent("random", rules, 2)], random.Random(3))
        assert played.finished and sum(played.returns) == 0
    with pytest.raises(InvalidOptionError, match="no network file"):
        make_agent(f"neural:net={tmp_path / 'none.npz'}", rules)
    with pytest.raises(InvalidOptionError, match="trained for hypergammon"):
        make_agent(f"neural:net={path}", BG)
    with pytest.raises(InvalidOptionError, match="plies are 0 to 3"):
        make_agent(f"neural:7:net={path}", rules)


def test_shipped_networks_are_named_by_preset():
    assert network_name(gammon.variant("hypergammon-2")) == "hypergammon-2"
    assert network_name(gammon.variant("acey-deucey-restrictive")) == "acey-deucey-restrictive"
    assert network_name(gammon.variant("backgammon")) == "backgammon"
    assert network_name(gammon.variant("long-nardy", koks=True)) == "long-nardy"


def test_a_network_for_another_variant_is_refused(tmp_path):
    net = Network.create(TrackEncoder(BG).inputs, 8, 5, variant="nackgammon")
    path = tmp_path / "n.npz"
    net.save(path)
    with pytest.raises(InvalidOptionError, match="trained for nackgammon"):
        load_network(BG, path)


# --- the compiled self-play against the Python trainer ----------------------------------


@pytest.mark.parametrize(("name", "contact"), [
    ("backgammon", False), ("long-nardy", False), ("hypergammon-3", False),
    ("backgammon", True), ("nackgammon", True), ("plakoto", False), ("tapa", False)])
def test_compiled_self_play_chooses_and_learns_as_the_python_trainer(name, contact):
    """One compiled game, traced, replayed through the rules objects: every play is the
    best by the Python evaluator (before the game's step), and the weights after it equal
    the numpy step's on the same positions; with the contact features too, and in the
    games that pin with the pin units (a game ended at the mother ends here too)."""
    from gammon.agents.search import make_search
    from gammon.core.dice import Roll
    from gammon.core.variant import play_leading_to

    rules = gammon.variant(name)
    trainer = Trainer(Settings(rules.name, rules.options(), hidden=16, seed=6,
                               contact=contact))
    assert trainer.network.inputs == TrackEncoder(rules).inputs + (18 if contact else 0)
    assert trainer.compiled
    trainer.play_compiled(20)  # a network that is not all noise
    before = trainer.network.copy()
    counts = len(rules.start_position().board)
    size = counts + len(rules.start_position().pins)
    trace = np.full((3000, 3 + size), -1, np.int64)
    rows = trainer.play_compiled(1, trace)
    plays = int(rows[0, 2])
    assert rows[0, 0] in (0, 1) and (trace[plays:, 0] == -1).all()
    evaluator = NeuralEvaluator(rules, before)
    search = make_search(rules, evaluator)
    a, b, starter = (int(v) for v in trace[0, :3])
    dice = (max(a, b), min(a, b)) if starter == 0 else (min(a, b), max(a, b))
    state = rules.initial_state().apply(Roll(dice, opening=True))
    kept = []
    for row in trace[:plays]:
        a, b, player = (int(v) for v in row[:3])
        if state.is_chance:
            state = state.apply(Roll((max(a, b), min(a, b))))
        assert state.current_player == player
        legal = state.legal_actions()
        board = row[3:].astype(np.int8).tobytes()
        chosen = play_leading_to(legal, Position(board[:counts], 2, player, board[counts:]))
        assert chosen is not None
        if len(legal) > 1:
            scores = search.scores(state, 0, 1)
            assert scores[list(legal).index(chosen)] >= scores.max() - 1e-4
        state = state.apply(chosen)
        if not state.is_terminal:
            kept.append(state)
    assert state.is_terminal and state.winner == rows[0, 0]
    x, sides = evaluator.encode_states(kept)
    targets = lambda_targets(before.forward(x), sides, state.returns(), rules,
                             trainer.settings.lam)
    before.train(x, targets, trainer.settings.rate)
    after = trainer.network
    for mine, theirs in ((before.w1, after.w1), (before.b1, after.b1),
                         (before.w2, after.w2), (before.b2, after.b2)):
        assert np.allclose(mine, theirs, atol=2e-5)


def test_the_kernels_tanh_agrees_with_numpys_to_a_few_float32_units():
    from gammon.kernels.network import tanh

    x = np.concatenate([np.linspace(-30.0, 30.0, 200_001), [0.0, -0.0, 1e-9, 9.0, -9.0]])
    ours = np.array([tanh(v) for v in x[::7]])
    assert np.abs(ours - np.tanh(x[::7])).max() < 2e-7
    assert tanh(0.0) == 0.0 and tanh(50.0) <= 1.0 and tanh(-50.0) >= -1.0


# --- Acedrex ----------------------------------------------------------------------------


def acedrex_states(count: int, seed: int = 2) -> list:
    rules = gammon.variant("acedrex")
    rng = random.Random(seed)
    state, seen = rules.initial_state(), []
    while len(seen) < count and not state.is_terminal:
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
        else:
            seen.append(state)
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
    return seen


def test_the_ring_encoder_counts_every_piece_from_each_side():
    encoder = RingEncoder(gammon.variant("acedrex"))
    states = acedrex_states(30)
    for state in states[::7]:
        rows = encoder.encode_states([state] * 4, [0, 1, 2, 3])
        assert rows.shape == (4, encoder.inputs)
        ring = encoder.ring * encoder.players * 2
        on_ring = sum(len(stack) for stack in state.ring)
        for row in rows:  # every piece on the ring counted once, from every side
            assert row[:ring].sum() * 9 == pytest.approx(on_ring)
        # Seat 0 of a row is its perspective player: the same pieces seen by each.
        for p in range(4):
            hand = rows[p][ring + 0]
            assert hand == pytest.approx(len(state.hands[p]) / 9)
        assert rows[0][ring + 16] == pytest.approx(len(state.jackpot) / 3)
        assert rows[0, -3:].sum() == 1  # a decision: one stage


def test_outcome_targets_map_acedrex_money_to_zero_one():
    rules = gammon.variant("acedrex")
    targets = outcome_targets((768.0, -768.0, 0.0, 0.0), 1, rules)
    assert targets.tolist() == [0.0, 0.5, 0.5, 1.0]  # from player 1's side, in turn order
    assert outputs_for(rules) == 4


def test_the_ring_evaluator_is_exact_at_the_end_and_rotates_with_the_turn():
    rules = gammon.variant("acedrex")
    net = Network.create(RingEncoder(rules).inputs, 8, 4, seed=1)
    evaluator = RingEvaluator(rules, net)
    states = acedrex_states(12)
    values = evaluator.evaluate(states)
    assert values.shape == (12, 4) and (np.abs(values) <= 768).all()
    # The value of seat k from the mover's side lands in column (mover + k) % 4.
    x, sides = evaluator.encode_states(states[:1])
    out = net.forward(x)[0] * 1536 - 768
    for k in range(4):
        assert values[0, (sides[0] + k) % 4] == pytest.approx(out[k], abs=1e-3)
    with pytest.raises(ValueError, match="inputs"):
        RingEvaluator(rules, Network.create(10, 4, 4))


def test_a_new_acedrex_network_values_states_as_the_heuristic():
    """A new network is a correction to the heuristic, started at none."""
    rules = gammon.variant("acedrex")
    network = new_network(Settings(rules.name, rules.options(), hidden=8, seed=3))
    assert network.meta["residual"] == "heuristic"
    states = acedrex_states(40)
    expected = AcedrexHeuristic(rules).evaluate(states)
    assert np.allclose(RingEvaluator(rules, network).evaluate(states), expected, atol=1e-3)
    # Without the heuristic underneath (the first networks), the same outputs are no money.
    del network.meta["residual"]
    assert np.allclose(RingEvaluator(rules, network).evaluate(states), 0.0, atol=1e-3)


def test_a_residual_network_learns_the_result_less_the_heuristic(monkeypatch):
    rules = gammon.variant("acedrex")
    trainer = Trainer(Settings(rules.name, rules.options(), hidden=8, seed=3, lam=1.0))
    kept = [s for s in acedrex_states(30) if not s.is_terminal]
    returns = (300.0, -100.0, -100.0, -100.0)
    seen = {}
    monkeypatch.setattr(trainer.network, "train",
                        lambda x, targets, rate: seen.setdefault("targets", targets))
    trainer.learn(kept, returns)
    # lambda = 1: every position's whole value is to be the result; the network's part
    # is what the heuristic does not already give.
    _, sides = trainer.evaluator.encode_states(kept)
    whole = seen["targets"] + trainer.evaluator.baseline(kept, sides)
    for row, side in zip(whole, sides, strict=True):
        assert np.allclose(row, outcome_targets(returns, int(side), rules), atol=1e-6)


def test_gammon_train_acedrex_starts_at_the_correction_s_small_rate(tmp_path):
    out = tmp_path / "ace.npz"
    result = runner.invoke(app, ["train", "acedrex", "--games", "1", "--out", str(out),
                                 "--hidden", "4", "--check-every", "0", "-o", "turn_cap=20"])
    assert result.exit_code == 0, result.output
    meta = Network.load(out).meta
    assert meta["settings"]["rate"] == 0.00002 and meta["residual"] == "heuristic"


def test_the_neural_agent_plays_acedrex_with_a_network_file(tmp_path):
    rules = gammon.variant("acedrex", **SHORT_ACEDREX)
    path = tmp_path / "ace.npz"
    Trainer(Settings(rules.name, rules.options(), hidden=8, seed=5)).run(2, path)
    agents = [make_agent(f"neural:0:net={path}", rules, 1)] + [
        make_agent("random", rules, s) for s in (2, 3, 4)]
    played = play_game(rules, agents, random.Random(3))
    assert played.finished and sum(played.returns) == 0


#: Each variant's default bot (`gammon play`, the web lobby's first choice), as
#: docs/strength.md lists them: the network where its cell beat the best search, the
#: exact values where the game is solved.
DEFAULT_BOTS = {
    "backgammon": "neural:2", "nackgammon": "neural:1", "hypergammon-1": "perfect",
    "hypergammon-2": "perfect", "hypergammon-3": "perfect" if is_solved(3) else "neural:2",
    "short": "neural:1",
    "caucasian": "neural:1", "long-nardy": "neural:1", "acey-deucey": "neural:1",
    "acey-deucey-restrictive": "neural:1", "multi-gam": "rollout", "acedrex": "money",
    "portes": "neural:1", "tavla": "neural:1", "fevga": "neural:1", "plakoto": "neural:1",
    "tapa": "neural:1", "gul-bara": "neural:1", "moultezim": "neural:1",
}


@pytest.mark.parametrize("name", sorted(DEFAULT_BOTS))
def test_the_default_bot_is_the_network_where_it_won(name):
    rules = gammon.variant(name)
    kind = default_bot(rules)
    if kind != "neural":
        assert kind == DEFAULT_BOTS[name]
        return
    agent = make_agent(kind, rules, seed=0)  # what a seat of the default bot plays
    assert f"neural:{agent.depth}" == DEFAULT_BOTS[name]
