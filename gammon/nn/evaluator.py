"""A network as an evaluator: the search and the agents ask it as they ask the heuristic.

:class:`NeuralEvaluator` answers the evaluator protocols of :mod:`gammon.agents.base`:
``values(boards, to_roll)`` for the compiled board search, ``chances`` for cube
decisions, ``evaluate(states)`` for any state of the game protocol, and
``terminal_value`` for finished boards. Every call encodes a whole batch of boards
(:mod:`gammon.nn.encoders`) and runs the network once.

The network's outputs are from the side of the player to act or to roll; this module
turns them into each player's expected return (:func:`equity` for two players, the
seats' scores for Multi-Gam) and back (:func:`outcome_targets`, :func:`convert`, which
the trainer uses).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from gammon.core.position import Position
from gammon.core.protocol import Rules
from gammon.core.variant import GameState, TrackVariant
from gammon.evaluators.acedrex import AcedrexHeuristic
from gammon.evaluators.base import finished_returns, two_player_chances
from gammon.evaluators.bearoff import bearoff_for
from gammon.kernels import kernel_array, writable_boards
from gammon.kernels.network import point_tables, track_forward
from gammon.nn import kind_networks, load_network, pruning_network, shipped_network
from gammon.nn.encoders import (
    QuarterEncoder,
    RingEncoder,
    TrackEncoder,
    contact_applies,
    encoder_for,
)
from gammon.nn.kinds import CODES, KIND_NAMES, kind_codes
from gammon.nn.network import Network

#: The outputs of a two-player network, in order.
WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(5)
TWO_PLAYER_OUTPUTS = 5


def outputs_for(variant: Rules) -> int:
    """How many outputs a network of ``variant`` has."""
    return TWO_PLAYER_OUTPUTS if variant.board == "track" else variant.players


def result_range(variant: Any) -> tuple[float, float]:
    """The lowest and highest result of a player in a game of more than two players,
    which an output's 0 and 1 stand for: Multi-Gam's place scores (from 0), Acedrex's
    money (:attr:`RingEncoder.MONEY_SCALE` at the stake, either way)."""
    if variant.board == "ring":
        scale = RingEncoder.MONEY_SCALE * variant.options().get("stake", 1)
        return -scale, scale
    return 0.0, float(max(variant.place_scores))


def equity(out: np.ndarray) -> np.ndarray:
    """The perspective player's expected points of two-player outputs (rows): a win
    counts one, a gammon one more, a backgammon one more again."""
    return (2.0 * out[:, WIN] - 1.0 + out[:, WIN_GAMMON] + out[:, WIN_BACKGAMMON]
            - out[:, LOSE_GAMMON] - out[:, LOSE_BACKGAMMON])


def flip(out: np.ndarray) -> np.ndarray:
    """Two-player outputs seen from the other side."""
    return np.stack([1.0 - out[:, WIN], out[:, LOSE_GAMMON], out[:, LOSE_BACKGAMMON],
                     out[:, WIN_GAMMON], out[:, WIN_BACKGAMMON]], axis=1)


def convert(out: np.ndarray, source: int, target: int, players: int) -> np.ndarray:
    """Outputs (one row) from the side of player ``source`` as seen by ``target``."""
    if source == target:
        return out
    if players == 2:
        return flip(out[None, :])[0]
    shift = (target - source) % players
    return np.roll(out, -shift)


def outcome_targets(returns: Sequence[float], perspective: int, variant: Any
                    ) -> np.ndarray:
    """What the outputs should have been, from ``perspective``'s side, for a game that
    ended with ``returns`` (each player's points, or places' scores)."""
    players = len(returns)
    if players == 2:
        mine = float(returns[perspective])
        target = np.zeros(TWO_PLAYER_OUTPUTS, np.float32)
        if mine == 0.0:  # a draw (Long Nardy's last roll)
            target[WIN] = 0.5
        elif mine > 0:
            target[WIN] = 1.0
            target[WIN_GAMMON] = mine >= 2
            target[WIN_BACKGAMMON] = mine >= 3
        else:
            target[LOSE_GAMMON] = mine <= -2
            target[LOSE_BACKGAMMON] = mine <= -3
        return target
    low, high = result_range(variant)
    return np.array([(float(returns[(perspective + k) % players]) - low) / (high - low)
                     for k in range(players)], np.float32)


def perspective_of(state: Any) -> int:
    """The player whose side a state is seen from: the one to act, or to roll."""
    player = state.current_player
    return player if player is not None else state.position.turn


def board_rows(states: Sequence[GameState], size: int) -> np.ndarray:
    """The board rows of ``states`` as the move generator writes them (``size`` bytes
    each): the counts, then the pin row in the games that pin."""
    return writable_boards(b"".join(s.position.kernel_row for s in states), size)


def _board_encoder(variant: TrackVariant, network: Network) -> TrackEncoder | QuarterEncoder:
    """The encoder ``network`` reads, checked to fit it."""
    encoder = encoder_for(variant, network.meta.get("encoder"))
    if not isinstance(encoder, TrackEncoder | QuarterEncoder):
        raise ValueError(f"{variant.name} is not a board of checkers: use RingEvaluator")
    if network.inputs != encoder.inputs or network.outputs != outputs_for(variant):
        raise ValueError(
            f"the network has {network.inputs} inputs and {network.outputs} outputs; "
            f"{variant.name} needs {encoder.inputs} and {outputs_for(variant)}")
    return encoder


class NeuralEvaluator:
    """Each player's expected return by a network (module text). ``kinds``: networks
    of their own for kinds of position (:mod:`gammon.nn.kinds`), each read for its rows
    in place of ``network``. ``pruning``: a small network whose evaluator
    (:attr:`pruning`) screens the plays inside a board search."""

    def __init__(self, variant: TrackVariant, network: Network,
                 kinds: Mapping[str, Network] | None = None,
                 pruning: Network | None = None) -> None:
        self.variant = variant
        self.network = network
        self.players = variant.players
        self.encoder = _board_encoder(variant, network)
        self.size = self.encoder.size
        self.kinds = dict(kinds or {})
        if self.kinds and not contact_applies(variant):
            raise ValueError(f"{variant.name} has no kinds of position: networks by kind "
                             "are for two sides that hit each other on 24 points")
        #: The networks that read rows (the main one first, then the kinds'), with their
        #: encoders, and which of them reads each kind code of :func:`kind_codes`.
        self._readers = [(network, self.encoder)] + [
            (net, _board_encoder(variant, net)) for net in self.kinds.values()]
        self._reader_of = np.zeros(len(KIND_NAMES), np.int64)
        for reader, kind in enumerate(self.kinds, 1):
            self._reader_of[CODES[kind]] = reader
        #: The bearoff databases, read in place of the network where they hold.
        self.bearoff = bearoff_for(variant)
        #: The cheap evaluator a board search screens plays with (None: no screening).
        self.pruning = PruningEvaluator(variant, pruning) if pruning is not None else None

    # --- the network from one side ----------------------------------------------------

    def outputs(self, boards: np.ndarray, perspective: np.ndarray | int) -> np.ndarray:
        """The network's outputs for boards seen from ``perspective`` (per row, or one
        player for all): each row by the network of its kind, a bearoff's from the
        databases."""
        n = boards.shape[0]
        sides = np.broadcast_to(np.asarray(perspective, np.int64), (n,))
        readers = (self._reader_of[kind_codes(boards)] if self.kinds and n
                   else np.zeros(n, np.int64))
        if not n or (readers == readers[0]).all():  # one network reads the whole batch
            network, encoder = self._readers[int(readers[0]) if n else 0]
            out = network.forward(encoder.encode(boards, sides))
        else:
            out = np.empty((n, self.network.outputs), np.float32)
            for reader, (network, encoder) in enumerate(self._readers):
                rows = readers == reader
                if rows.any():
                    out[rows] = network.forward(encoder.encode(boards[rows], sides[rows]))
        if self.bearoff is not None:
            out = self.bearoff.apply(boards, sides, out)
        return out

    # --- the evaluator protocols --------------------------------------------------------

    def values(self, boards: np.ndarray, to_roll: np.ndarray | int) -> np.ndarray:
        """Each player's expected return (columns) of boards where ``to_roll`` rolls."""
        n = boards.shape[0]
        sides = np.broadcast_to(np.asarray(to_roll, np.int64), (n,))
        out = self.outputs(boards, sides)
        if self.players == 2:
            mine = equity(out)
            v0 = np.where(sides == 0, mine, -mine)
            return np.stack([v0, -v0], axis=1)
        best = float(max(self.variant.place_scores))
        values = np.empty((n, self.players))
        for k in range(self.players):
            values[np.arange(n), (sides + k) % self.players] = out[:, k] * best
        return values

    def chances(self, boards: np.ndarray, to_move: np.ndarray | int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Player 0's chance to win, and the share of player 0's and of player 1's wins
        that are gammons (or better), of boards where ``to_move`` rolls."""
        n = boards.shape[0]
        sides = np.broadcast_to(np.asarray(to_move, np.int64), (n,))
        out = self.outputs(boards, sides)
        return two_player_chances(out[:, WIN], out[:, WIN_GAMMON], out[:, LOSE_GAMMON],
                                  sides, 1e-6)

    def terminal_value(self, board: bytes, winner: int) -> np.ndarray:
        """Each player's result of a two-player board that ``winner`` has borne off."""
        points = float(self.variant.winner_points(Position(board, self.players, winner),
                                                  winner))
        value = np.full(self.players, -points)
        value[winner] = points
        return value

    def evaluate(self, states: Sequence[Any]) -> np.ndarray:
        """Expected returns per player of each state (finished games and finished
        players of Multi-Gam exactly)."""
        out, live = finished_returns(states, self.players)
        if not live:
            return out
        boards = board_rows([states[i] for i in live], self.size)
        sides = np.array([perspective_of(states[i]) for i in live], np.int64)
        out[live] = self.values(boards, sides)
        if self.players > 2:
            scores = self.variant.place_scores
            for i in live:
                for place, player in enumerate(self.variant.ranking(states[i])):
                    out[i, player] = scores[place]
        return out

    def baseline(self, states: Sequence[Any], sides: np.ndarray) -> float:
        """What a state's value adds to the outputs: nothing (see RingEvaluator's)."""
        return 0.0

    def encode_states(self, states: Sequence[GameState]) -> tuple[np.ndarray, np.ndarray]:
        """Inputs of not-finished states and the perspective of each (for training)."""
        boards = board_rows(states, self.size)
        sides = np.array([perspective_of(s) for s in states], np.int64)
        return self.encoder.encode(boards, sides), sides


class PruningEvaluator:
    """Player 0's value of board rows by a small network on the raw track inputs, the
    bearoff databases where they hold: what a board search screens plays with
    (:mod:`gammon.agents.search`). The inputs are never written out: each point's
    checkers add their row of a table to the hidden layer
    (:func:`gammon.kernels.network.track_forward`), several times faster than encoding
    and the sparse product, for values that only rank plays."""

    def __init__(self, variant: TrackVariant, network: Network) -> None:
        encoder = _board_encoder(variant, network)
        if not isinstance(encoder, TrackEncoder) or encoder.name != "track":
            raise ValueError(f"a pruning network reads the raw inputs of a two-player "
                             f"game, not {encoder.name!r} of {variant.name}")
        self.encoder = encoder
        self.network = network
        self.size = encoder.size
        self.bearoff = bearoff_for(variant)
        self._table = point_tables(network.w1, encoder.points, variant.checkers)
        self._w2t = np.ascontiguousarray(network.w2.T)

    def outputs(self, boards: np.ndarray, perspective: np.ndarray | int) -> np.ndarray:
        """The network's five outputs for boards seen from ``perspective``."""
        n = boards.shape[0]
        sides = kernel_array(np.broadcast_to(np.asarray(perspective, np.int64), (n,)),
                             np.int64)
        rows = kernel_array(boards, np.int8)
        out = np.empty((n, self.network.outputs), np.float32)
        network, encoder = self.network, self.encoder
        track_forward(rows, sides, encoder.slots, encoder.points, float(encoder.checkers),
                      encoder.cross, self._table, network.w1, network.b1, self._w2t,
                      network.b2, out)
        if self.bearoff is not None:
            out = self.bearoff.apply(boards, sides, out)
        return out

    def values(self, boards: np.ndarray, to_roll: np.ndarray | int) -> np.ndarray:
        """Each player's expected return (columns) of boards where ``to_roll`` rolls."""
        sides = np.broadcast_to(np.asarray(to_roll, np.int64), (boards.shape[0],))
        mine = equity(self.outputs(boards, sides))
        v0 = np.where(sides == 0, mine, -mine)
        return np.stack([v0, -v0], axis=1)


class RingEvaluator:
    """Acedrex's network as an evaluator of states (``evaluate``, for the search over
    states, and ``encode_states`` for training): each output is a seat's money, in turn
    order from the perspective player, mapped to 0..1 over :func:`result_range`.

    A *residual* network (``meta["residual"]``: every new Acedrex network,
    :func:`gammon.training.train.new_network`) learns a correction to the heuristic's money
    (:class:`gammon.evaluators.acedrex.AcedrexHeuristic`): a seat's money is the
    heuristic's plus ``low + output * (high - low)``, so a network whose last layer is
    zero (an output of one half) plays as the heuristic does, and self-play only has to
    learn what the heuristic misses. A network without the mark (the first one trained)
    is the whole value. docs/networks.md measures both."""

    def __init__(self, variant: Any, network: Network) -> None:
        self.variant = variant
        self.network = network
        self.players = variant.players
        self.encoder = RingEncoder(variant)
        self.low, self.high = result_range(variant)
        self.heuristic = AcedrexHeuristic(variant) if network.meta.get("residual") else None
        if network.inputs != self.encoder.inputs or network.outputs != self.players:
            raise ValueError(
                f"the network has {network.inputs} inputs and {network.outputs} outputs; "
                f"{variant.name} needs {self.encoder.inputs} and {self.players}")

    def encode_states(self, states: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        """Inputs of not-finished states and the perspective of each (for training)."""
        # The player to act, or the one on turn while the dice fall.
        sides = np.array([s.turn for s in states], np.int64)
        return self.encoder.encode_states(states, sides), sides

    def baseline(self, states: Sequence[Any], sides: np.ndarray) -> np.ndarray | float:
        """What a state's value adds to the network's outputs, in output units (rows of
        seats in turn order from ``sides``): the heuristic's money of a residual network,
        else nothing."""
        if self.heuristic is None:
            return 0.0
        money = self.heuristic.evaluate(states)
        seats = (sides[:, None] + np.arange(self.players)[None, :]) % self.players
        return np.take_along_axis(money, seats, axis=1) / (self.high - self.low)

    def evaluate(self, states: Sequence[Any]) -> np.ndarray:
        """Each player's expected money (columns) of each state; finished games exactly."""
        out, live = finished_returns(states, self.players)
        if not live:
            return out
        alive = [states[i] for i in live]
        x, sides = self.encode_states(alive)
        money = self.low + (self.network.forward(x) + self.baseline(alive, sides)) * (
            self.high - self.low)
        rows = np.array(live)
        for k in range(self.players):
            out[rows, (sides + k) % self.players] = money[:, k]
        return out


def neural_evaluator(variant: Any, network: Network,
                     kinds: Mapping[str, Network] | None = None,
                     pruning: Network | None = None) -> NeuralEvaluator | RingEvaluator:
    """The evaluator of ``variant``'s network (and of its ``kinds``' networks, and its
    ``pruning`` network): over boards of checkers, or Acedrex's states."""
    if variant.board == "ring":
        return RingEvaluator(variant, network)
    return NeuralEvaluator(variant, network, kinds, pruning)


def load_evaluator(variant: Rules, path: str | Path | None = None, prune: bool = True
                   ) -> NeuralEvaluator | RingEvaluator:
    """The evaluator of the network file ``path`` of ``variant`` (None: the one that
    ships), with the networks of its kinds found beside it (:mod:`gammon.nn.kinds`) and,
    with ``prune``, its pruning network (:func:`gammon.nn.pruning_network`)."""
    main = Path(path) if path is not None else shipped_network(variant)
    return neural_evaluator(variant, load_network(variant, main), kind_networks(variant, main),
                            pruning_network(variant, main) if prune else None)
