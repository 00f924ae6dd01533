"""Training on a teacher's evaluations: positions from self-play, labelled by gnubg.

TD self-play (:mod:`gammon.training.train`) learns from the network's own games; a teacher
gives it better targets. For backgammon the teacher is GNU Backgammon: its evaluation of
a position (at 0 plies its neural nets, with exact bear-off databases; at 1 or 2 plies
a search on them) is what the network learns to give, by supervised training on the
same five outputs (gnubg's cubeless win, gammon and backgammon chances for the player
on roll are exactly ours). A run has three stages, each resumable from its files:

1. **Positions** (:func:`sample_positions`): ``games`` games of the variant's shipped
   network against itself at 0 plies, one decision in ``explore`` taken at random among
   its four best plays (so the positions cover the play a search looks at, not only the
   best line); every position where a player is about to roll, once each.
2. **Labels** (:class:`GnubgTeacher`): gnubg's evaluation of each position, asked of
   several gnubg processes at once (each spends most of a 0-ply query waiting on its own
   worker thread, so they overlap well). Saved every ``LABEL_CHUNK`` positions. The
   teacher ``neural`` is the variant's shipped evaluator instead, asked in this process:
   what a pruning network learns (``gammon train --prune``, docs/networks.md).
3. **Fitting** (:func:`fit_epoch`): minibatch Adam on the cross-entropy between the
   network's sigmoid outputs and the teacher's probabilities, the learning rate held
   for the first 70% of the epochs and brought down linearly to zero over the rest.
   Each epoch saves the network and the optimiser's moments; a fiftieth of the
   positions is held out and the mean absolute error of the equity on it is recorded
   with every epoch, and the network is measured in duels (as TD training does) every
   ``check_every`` epochs.

The positions and labels live in ``OUT.data.npz``, the optimiser in ``OUT.adam.npz``,
next to the network file ``OUT``; the network's ``teacher`` entry says how far the run
is, so ``--resume OUT`` picks up at the stage it stopped in.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from gammon.agents.gnubg import GnubgBridge, gnubg_path, to_gnubg
from gammon.core.errors import InvalidOptionError
from gammon.core.position import Position
from gammon.core.protocol import Phase, Rules
from gammon.kernels import writable_boards
from gammon.nn import load_network
from gammon.nn.evaluator import NeuralEvaluator, equity, load_evaluator, neural_evaluator
from gammon.nn.kinds import checked, select
from gammon.nn.network import Network
from gammon.training.train import strength_point

#: Share of decisions taken at random among the network's best plays while sampling.
EXPLORE = 0.15
#: How many of the best plays an exploring decision picks from.
EXPLORE_AMONG = 4
#: Positions labelled between two saves of the data file.
LABEL_CHUNK = 100_000
#: Boards a gnubg process is asked about at once.
BATCH = 250
#: Share of the positions held out to measure the fit.
HOLD_OUT = 0.02
#: Adam's settings; the rate is the run's.
BETA1, BETA2, EPSILON = 0.9, 0.999, 1e-8
#: Share of the epochs at the full learning rate before it comes down.
HOLD = 0.7


@dataclass(frozen=True)
class TeacherSpec:
    """Who labels the positions: ``gnubg`` at ``plies``, or ``neural``, the variant's
    shipped evaluator (its networks, those of its kinds and the bearoff databases) at 0
    plies: what a pruning network learns to give (``--prune``)."""

    name: str
    plies: int

    @classmethod
    def parse(cls, text: str) -> TeacherSpec:
        """``gnubg``, ``gnubg:P`` (P = 0, 1 or 2 plies) or ``neural``."""
        name, _, plies = text.strip().lower().partition(":")
        if name == "neural" and plies in ("", "0"):
            return cls(name, 0)
        if name != "gnubg":
            raise InvalidOptionError(f"teacher {text!r}: the teacher is gnubg[:PLIES] or "
                                     "neural (the shipped network, at 0 plies)")
        try:
            depth = int(plies) if plies else 0
        except ValueError:
            raise InvalidOptionError(f"teacher {text!r}: plies are 0, 1 or 2") from None
        if not 0 <= depth <= 2:
            raise InvalidOptionError(f"teacher {text!r}: plies are 0, 1 or 2")
        return cls(name, depth)

    def __str__(self) -> str:
        return f"{self.name}:{self.plies}"


def sample_positions(rules: Rules, evaluator: NeuralEvaluator, games: int, seed: int,
                     explore: float = EXPLORE,
                     progress: Callable[[int], None] | None = None
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Positions with a player about to roll from ``games`` self-play games (see the
    module text): board rows (``int8``) and the player to roll, each position once, in
    the order first met."""
    rng = random.Random(f"teacher:{seed}")
    seen: set[tuple[bytes, int]] = set()
    boards: list[bytes] = []
    turns: list[int] = []
    for game in range(games):
        state: Any = rules.initial_state()
        while not state.is_terminal:
            if state.is_chance:
                position = state.position
                if state.phase is Phase.CHANCE and position.turn is not None:
                    key = (position.board, position.turn)
                    if key not in seen:
                        seen.add(key)
                        boards.append(position.board)
                        turns.append(position.turn)
                state = state.apply(state.sample_chance(rng))
                continue
            plays = state.legal_actions()
            if len(plays) > 1:
                mover = state.current_player
                rows = writable_boards(b"".join(p.result.board for p in plays),
                                  len(plays[0].result.board))
                values = evaluator.values(rows, 1 - mover)[:, mover]
                if rng.random() < explore:
                    best = np.argsort(-values)[:EXPLORE_AMONG]
                    play = plays[int(best[rng.randrange(len(best))])]
                else:
                    play = plays[int(np.argmax(values))]
            else:
                play = plays[0]
            state = state.apply(play)
        if progress:
            progress(game + 1)
    size = evaluator.size
    return (np.frombuffer(b"".join(boards), np.int8).reshape(len(boards), size).copy(),
            np.array(turns, np.int8))


class GnubgTeacher:
    """gnubg's cubeless chances for the player on roll, from ``processes`` gnubg
    processes at once (``gammon.agents.gnubg``'s bridge, one per thread)."""

    def __init__(self, plies: int, processes: int) -> None:
        if gnubg_path() is None:
            raise InvalidOptionError("the gnubg teacher needs gnubg (apt-get install gnubg)")
        self.plies = plies
        self._local = threading.local()
        self._bridges: list[Any] = []
        self._lock = threading.Lock()
        # One pool for the teacher's life: each of its threads keeps one gnubg.
        self._pool = ThreadPoolExecutor(max(1, processes))

    def _bridge(self) -> Any:
        bridge = getattr(self._local, "bridge", None)
        if bridge is None:
            bridge = GnubgBridge()
            self._local.bridge = bridge
            with self._lock:
                self._bridges.append(bridge)
        return bridge

    def _ask(self, boards: list[list[list[int]]]) -> list[list[float]]:
        answer = self._bridge().ask({"op": "evaluate_many", "boards": boards,
                                     "plies": self.plies})
        probs: list[list[float]] = answer["probs"]
        return probs

    def label(self, boards: np.ndarray, turns: np.ndarray,
              progress: Callable[[int], None] | None = None) -> np.ndarray:
        """The five chances (rows, ``float32``) of each board for its player to roll."""
        requests = []
        for start in range(0, len(boards), BATCH):
            requests.append([to_gnubg(Position(boards[i].tobytes(), 2, int(turns[i])))
                             for i in range(start, min(start + BATCH, len(boards)))])
        out = np.empty((len(boards), 5), np.float32)
        done = 0
        for k, probs in enumerate(self._pool.map(self._ask, requests)):
            out[k * BATCH:k * BATCH + len(probs)] = probs
            done += len(probs)
            if progress:
                progress(done)
        return out

    def close(self) -> None:
        """Stop the gnubg processes."""
        self._pool.shutdown()
        for bridge in self._bridges:
            bridge.close()
        self._bridges.clear()


class Adam:
    """Adam's moments for the four weight arrays of a :class:`Network`."""

    def __init__(self, network: Network) -> None:
        self.steps = 0
        self.first = [np.zeros_like(w) for w in _weights(network)]
        self.second = [np.zeros_like(w) for w in _weights(network)]

    def step(self, network: Network, grads: list[np.ndarray], rate: float) -> None:
        self.steps += 1
        correct1 = 1.0 - BETA1 ** self.steps
        correct2 = 1.0 - BETA2 ** self.steps
        for weight, grad, m, v in zip(_weights(network), grads, self.first, self.second,
                                      strict=True):
            m *= BETA1
            m += (1.0 - BETA1) * grad
            v *= BETA2
            v += (1.0 - BETA2) * grad * grad
            weight -= (rate * (m / correct1) / (np.sqrt(v / correct2) + EPSILON)
                       ).astype(np.float32)

    def save(self, path: Path) -> None:
        arrays: dict[str, Any] = {f"first{k}": m for k, m in enumerate(self.first)}
        arrays.update({f"second{k}": v for k, v in enumerate(self.second)})
        arrays["steps"] = np.array(self.steps)
        with path.open("wb") as file:
            np.savez(file, **arrays)

    @classmethod
    def load(cls, path: Path, network: Network) -> Adam:
        adam = cls(network)
        with np.load(path) as data:
            adam.steps = int(data["steps"])
            adam.first = [np.array(data[f"first{k}"]) for k in range(4)]
            adam.second = [np.array(data[f"second{k}"]) for k in range(4)]
        return adam


def _about(network: Network) -> dict[str, Any]:
    """What the network that played the sampling games was (it may not ship later)."""
    teacher = network.meta.get("teacher", {})
    return {"encoder": network.meta.get("encoder"), "hidden": network.hidden,
            "self_play_games": network.meta.get("games", 0),
            "teacher": teacher.get("teacher"), "teacher_positions": teacher.get("positions")}


def _weights(network: Network) -> list[np.ndarray]:
    return [network.w1, network.b1, network.w2, network.b2]


def epoch_rate(rate: float, epoch: int, epochs: int) -> float:
    """The learning rate of epoch ``epoch`` (from 0) of ``epochs``: ``rate`` for the
    first ``HOLD`` of them, then down in equal steps to a last epoch at a small share."""
    held = max(1, int(round(HOLD * epochs)))
    if epoch < held:
        return rate
    return rate * (epochs - epoch) / (epochs - held + 1)


def fit_epoch(network: Network, adam: Adam, x: np.ndarray, y: np.ndarray, rate: float,
              batch: int, rng: np.random.Generator) -> float:
    """One pass over the rows in a random order, a step of Adam per ``batch`` rows on
    the cross-entropy of the sigmoid outputs; the mean squared error seen on the way."""
    order = rng.permutation(len(x))
    total = 0.0
    for start in range(0, len(x), batch):
        rows = order[start:start + batch]
        inputs, targets = x[rows], y[rows]
        hidden = np.tanh(inputs @ network.w1 + network.b1)
        out = 1.0 / (1.0 + np.exp(-np.clip(hidden @ network.w2 + network.b2, -30, 30)))
        delta_out = (out - targets) / len(rows)
        delta_hidden = (delta_out @ network.w2.T) * (1.0 - hidden * hidden)
        adam.step(network, [inputs.T @ delta_hidden, delta_hidden.sum(axis=0),
                            hidden.T @ delta_out, delta_out.sum(axis=0)], rate)
        total += float(np.sum((out - targets) ** 2))
    return total / (len(x) * y.shape[1])


def equity_error(network: Network, x: np.ndarray, y: np.ndarray) -> float:
    """Mean absolute difference between the network's equity and the targets'."""
    return float(np.mean(np.abs(equity(network.forward(x)) - equity(y))))


def hold_out(count: int, seed: int) -> np.ndarray:
    """Which of ``count`` positions are held out (a mask, fixed by the seed)."""
    rng = np.random.default_rng(seed)
    return rng.random(count) < HOLD_OUT


@dataclass
class TeacherPlan:
    """What a teacher run does (kept in the network's ``teacher`` entry)."""

    teacher: str = "gnubg:0"
    games: int = 10_000
    epochs: int = 40
    batch: int = 256
    rate: float = 1e-3
    explore: float = EXPLORE
    processes: int = 16
    check_every: int = 10
    #: A kind of position (:mod:`gammon.nn.kinds`) the network is for alone: only the
    #: sampled positions of that kind are labelled and fitted ("": every position).
    kind: str = ""
    #: What the network is for beside the main one: ``prune`` (:data:`gammon.nn.PRUNE`,
    #: a pruning network), or "" (it plays).
    role: str = ""

    def as_json(self) -> dict[str, Any]:
        plan = {"teacher": self.teacher, "games": self.games, "epochs": self.epochs,
                "batch": self.batch, "rate": self.rate, "explore": self.explore}
        return {**plan, **{key: value for key, value in (("kind", self.kind),
                                                           ("role", self.role)) if value}}


def data_path(out: Path) -> Path:
    """Where a run keeps its positions and labels."""
    return out.with_suffix(".data.npz")


def adam_path(out: Path) -> Path:
    """Where a run keeps the optimiser's moments."""
    return out.with_suffix(".adam.npz")


class TeacherRun:
    """A run of the three stages (module text) for the network ``network`` of
    ``rules``, saved at ``out``. ``events`` receives what happens: ``("stage", name,
    total)`` when a stage starts, ``("done", count)`` as it advances, ``("epoch", entry)``
    after each epoch and ``("check", point)`` after each strength check."""

    def __init__(self, rules: Rules, network: Network, plan: TeacherPlan, seed: int,
                 check_games: int, out: Path,
                 events: Callable[..., None] | None = None) -> None:
        self.rules = rules
        self.network = network
        self.plan = plan
        self.spec = TeacherSpec.parse(plan.teacher)
        self.seed = seed
        self.check_games = check_games
        self.out = out
        self.events = events or (lambda *args: None)
        evaluator = neural_evaluator(rules, network)
        assert isinstance(evaluator, NeuralEvaluator)
        self.evaluator = evaluator
        if plan.kind:
            network.meta["kind"] = checked(plan.kind)
        if plan.role:
            network.meta["role"] = plan.role
        state = network.meta.setdefault("teacher", {})
        state.update(plan.as_json())
        state.setdefault("epochs_done", 0)
        state.setdefault("errors", [])
        state.setdefault("curve", [])
        state.setdefault("seconds", 0.0)

    @property
    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.network.meta["teacher"]
        return state

    def save(self, seconds: float) -> None:
        self.state["seconds"] = round(float(self.state["seconds"]) + seconds, 1)
        self.out.parent.mkdir(parents=True, exist_ok=True)
        self.network.save(self.out)

    # --- stages ---------------------------------------------------------------------------

    def positions(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The positions and their labels so far (NaN rows: not yet labelled), sampled
        now if the data file does not hold them yet."""
        path = data_path(self.out)
        if path.exists():
            with np.load(path) as data:
                boards, turns, labels = data["boards"], data["turns"], np.array(data["labels"])
            self.state.setdefault("positions", int(len(boards)))
            return boards, turns, labels
        # The main network alone plays the games: a network of a kind being trained again
        # beside it does not change the positions.
        player = NeuralEvaluator(self.evaluator.variant, load_network(self.rules))
        self.events("stage", f"self-play games of the shipped {self.rules.name} network",
                     self.plan.games)
        began = time.perf_counter()
        boards, turns = sample_positions(self.rules, player, self.plan.games, self.seed,
                                         self.plan.explore,
                                         lambda done: self.events("done", done))
        if self.plan.kind:
            self.state["sampled"] = int(len(boards))
            keep = select(self.plan.kind, boards)
            boards, turns = boards[keep], turns[keep]
        labels = np.full((len(boards), 5), np.nan, np.float32)
        self._write(boards, turns, labels)
        self.state["positions"] = int(len(boards))
        self.state["sampler"] = _about(player.network)
        self.save(time.perf_counter() - began)
        return boards, turns, labels

    def _write(self, boards: np.ndarray, turns: np.ndarray, labels: np.ndarray) -> None:
        path = data_path(self.out)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial.npz")
        with partial.open("wb") as file:
            np.savez(file, boards=boards, turns=turns, labels=labels)
        partial.replace(path)

    def label(self, boards: np.ndarray, turns: np.ndarray, labels: np.ndarray) -> None:
        """Label what is not labelled yet, saving every ``LABEL_CHUNK`` positions."""
        todo = np.flatnonzero(np.isnan(labels[:, 0]))
        if not len(todo):
            return
        self.events("stage", f"positions labelled by {self.spec}", len(labels))
        self.events("done", len(labels) - len(todo))
        if self.spec.name == "neural":
            # In this process, in moments: the shipped evaluator, not the one trained.
            shipped = load_evaluator(self.rules, prune=False)
            assert isinstance(shipped, NeuralEvaluator)
            for start in range(0, len(todo), LABEL_CHUNK):
                chunk = todo[start:start + LABEL_CHUNK]
                labels[chunk] = shipped.outputs(boards[chunk], turns[chunk].astype(np.int64))
                self.events("done", len(labels) - len(todo) + len(chunk) + start)
            self._write(boards, turns, labels)
            self.save(0.0)
            return
        teacher = GnubgTeacher(self.spec.plies, self.plan.processes)
        try:
            for start in range(0, len(todo), LABEL_CHUNK):
                began = time.perf_counter()
                chunk = todo[start:start + LABEL_CHUNK]
                before = len(labels) - len(todo) + start

                def advanced(done: int, before: int = before) -> None:
                    self.events("done", before + done)

                labels[chunk] = teacher.label(boards[chunk], turns[chunk], advanced)
                self._write(boards, turns, labels)
                self.save(time.perf_counter() - began)
        finally:
            teacher.close()

    def fit(self, boards: np.ndarray, turns: np.ndarray, labels: np.ndarray) -> None:
        """The epochs still to do, each saved with the optimiser; strength checks every
        ``check_every`` epochs and after the last."""
        x = self.evaluator.encoder.encode(boards, turns.astype(np.int64))
        y = np.clip(labels, 0.0, 1.0)
        held = hold_out(len(x), self.seed)
        if self.plan.kind and "main_equity_error" not in self.state:
            # What the network of one kind must beat: the shipped main network's error
            # on the same held-out positions.
            main = NeuralEvaluator(self.evaluator.variant, load_network(self.rules))
            out = main.outputs(boards[held], turns[held].astype(np.int64))
            self.state["main_equity_error"] = round(
                float(np.mean(np.abs(equity(out) - equity(y[held])))), 5)
        train_x, train_y, test_x, test_y = x[~held], y[~held], x[held], y[held]
        adam_file = adam_path(self.out)
        done = int(self.state["epochs_done"])
        adam = (Adam.load(adam_file, self.network) if done and adam_file.exists()
                else Adam(self.network))
        epochs = self.plan.epochs
        if done >= epochs:
            return
        self.events("stage", f"epochs of fitting ({len(train_x):,} positions, "
                             f"{len(test_x):,} held out)", epochs)
        self.events("done", done)

        for epoch in range(done, epochs):
            began = time.perf_counter()
            rate = epoch_rate(self.plan.rate, epoch, epochs)
            rng = np.random.default_rng([self.seed, epoch])
            with threadpool_limits(limits=1):
                loss = fit_epoch(self.network, adam, train_x, train_y, rate,
                                 self.plan.batch, rng)
            entry = {"epoch": epoch + 1, "rate": rate, "train_mse": round(loss, 6),
                     "held_out_equity_error": round(equity_error(self.network, test_x,
                                                                 test_y), 5)}
            self.state["errors"].append(entry)
            self.state["epochs_done"] = epoch + 1
            adam.save(adam_file)
            self.save(time.perf_counter() - began)
            self.events("epoch", entry)
            self.events("done", epoch + 1)
            every = self.plan.check_every
            # A network of one kind of position, or a pruning one, plays no game alone:
            # its measure is the held-out error (and the main network's games with it,
            # docs/networks.md).
            plays = not self.plan.kind and not self.plan.role
            if plays and ((every and (epoch + 1) % every == 0) or epoch + 1 == epochs):
                self.check(epoch + 1)

    def check(self, epoch: int) -> None:
        point = {"epochs": epoch, **strength_point(self.rules, self.out, self.check_games,
                                                    10_000 + epoch)}
        self.state["curve"].append(point)
        self.save(0.0)
        self.events("check", point)

    def run(self) -> None:
        boards, turns, labels = self.positions()
        self.label(boards, turns, labels)
        self.fit(boards, turns, labels)
