"""Self-play training: TD(lambda) from the network's own games.

Each game is played by the network against itself, every player taking the play whose
resulting position the network values best (0-ply, the same search as the ``neural``
agent at depth 0, on the game protocol of every variant: acey-deucey's extra rolls and
doubles number, Multi-Gam's four seats). The positions after each action are kept, each
from the side of the player to act or roll next.

When the game ends, each kept position gets the lambda-return as its target (Sutton's
forward view of TD(lambda), computed backwards from the result): the last position's
target is the result; an earlier one's is ``(1 - lambda)`` times the network's value of
the next position plus ``lambda`` times the next position's target, both turned to the
earlier position's side (:func:`gammon.nn.evaluator.convert`). One gradient step then
moves every position of the game towards its target. With ``lambda = 0`` this is plain
TD(0); with 1, Monte Carlo on the result.

:class:`Trainer` runs the games, checkpoints the network (every file it writes can be
resumed from), measures the network's strength now and then in short duels (against the
heuristic bot, and pubeval in backgammon), and draws the learning curve.

**Data-parallel rounds** (:class:`Rounds`; ``gammon train --jobs N``, ``--ray`` or
``--shards``): the games of a round are cut into ``shards`` shards of ``games`` games
each. Every shard starts from a frozen copy of the weights at the start of the round,
plays and learns from its games in the compiled self-play exactly as above (its own
seed, :func:`gammon.agents.parallel.task_seed` of the run's seed, the games played so
far and the shard's index), and sends back the change it made to the weights; the
learner adds the changes to its weights in shard order. The shards run as tasks of
:func:`gammon.agents.parallel.run_tasks`: in this process, in local processes or on a
Ray cluster, with the same weights at the end for the same seed and round layout
(``shards`` and ``games``), whatever runs them. This is not the sequential run: a
shard's games are chosen by weights up to a round old, and a round's changes are
summed (each game keeps its full step, as when played one after the other). Without
rounds, training is the sequential run, unchanged.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from gammon.agents.duel import duel
from gammon.agents.offered import offered
from gammon.agents.parallel import rules_of, run_tasks, task_seed
from gammon.agents.search import best_action, board_search_applies, make_search
from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import Rules
from gammon.core.variant import GameState, variant
from gammon.kernels import selfplay, tracks
from gammon.nn import network_name
from gammon.nn.encoders import TrackEncoder, encoder_for
from gammon.nn.evaluator import convert, neural_evaluator, outcome_targets, outputs_for
from gammon.nn.network import Network

#: Defaults of a training run.
HIDDEN = 128
LAMBDA = 0.7
RATE = 0.004
#: The rate of a correction to Acedrex's heuristic: a game there is thousands of positions
#: (its heuristic players play to the turn cap), each game's step sums them all, and the
#: heuristic's choices hinge on small differences (docs/networks.md, Not done).
RESIDUAL_RATE = 0.00002
#: Root candidates the 0-ply choice scores (all of them: the cutoff is not used here).
WIDTH = 1
#: Games the compiled self-play plays per call (progress and checkpoints in between).
CHUNK = 50
#: Plays after which a compiled self-play game is cut off (none comes near).
MAX_TURNS = 2000
#: Default round layout of data-parallel training: shards a round, games a shard.
SHARDS = 8
SHARD_GAMES = 25


@dataclass
class Settings:
    """How a network is trained (saved with it, so a run can be resumed and repeated)."""

    variant: str
    options: dict[str, Any] = field(default_factory=dict)
    hidden: int = HIDDEN
    lam: float = LAMBDA
    rate: float = RATE
    seed: int = 1
    check_every: int = 0
    check_games: int = 200
    #: The contact features (:class:`gammon.nn.encoders.TrackEncoder`) among the inputs.
    contact: bool = False

    def rules(self) -> Any:
        return variant(self.variant, **self.options)


@dataclass(frozen=True)
class Rounds:
    """Data-parallel training (see the module text): each round ``shards`` shards of
    ``games`` games from the round's frozen weights, run on ``jobs`` local processes or
    on Ray at ``ray``. The layout (``shards``, ``games``) and the seed fix the weights;
    ``jobs`` and ``ray`` only say where the shards run."""

    shards: int = SHARDS
    games: int = SHARD_GAMES
    jobs: int = 1
    ray: str | None = None

    def __post_init__(self) -> None:
        if self.shards < 1 or self.games < 1:
            raise InvalidOptionError("a round needs at least one shard of one game")

    @property
    def size(self) -> int:
        """Games a full round plays."""
        return self.shards * self.games


def learns_a_correction(rules: Rules) -> bool:
    """Whether a new network of ``rules`` corrects the heuristic (Acedrex's,
    :class:`gammon.nn.evaluator.RingEvaluator`) rather than learning the whole value."""
    return bool(rules.board == "ring")


def default_rate(rules: Rules) -> float:
    """The learning rate a run on ``rules`` starts with unless told otherwise."""
    return RESIDUAL_RATE if learns_a_correction(rules) else RATE


def new_network(settings: Settings) -> Network:
    """A fresh network for the settings' variant."""
    rules = settings.rules()
    encoder = encoder_for(rules, "track+contact" if settings.contact else None)
    network = Network.create(
        encoder.inputs, settings.hidden, outputs_for(rules), seed=settings.seed,
        name=network_name(rules), variant=rules.name, options=settings.options,
        family=getattr(rules, "family", rules.name),
        encoder=encoder.name, games=0, seconds=0.0, curve=[], settings=settings_json(settings))
    if learns_a_correction(rules):  # nothing to correct at first
        network.meta["residual"] = "heuristic"
        network.w2[:] = 0.0
    return network


def settings_json(settings: Settings) -> dict[str, Any]:
    """The settings as the network file keeps them."""
    return {"variant": settings.variant, "options": settings.options,
            "hidden": settings.hidden, "contact": settings.contact, "lambda": settings.lam,
            "rate": settings.rate, "seed": settings.seed}


def self_play(rules: Rules, evaluator: Any, search: Any,
              rng: random.Random) -> tuple[list[GameState], tuple[float, ...]]:
    """One game of the network against itself: the positions after each action (not
    the last, finished one) and the result."""
    state: Any = rules.initial_state()
    kept: list[GameState] = []
    while not state.is_terminal:
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        action = legal[0] if len(legal) == 1 else best_action(search, state, 0, WIDTH)
        state = state.apply(action)
        if not state.is_terminal:
            kept.append(state)
    return kept, tuple(float(r) for r in state.returns())


def lambda_targets(values: np.ndarray, sides: np.ndarray, returns: tuple[float, ...],
                   rules: Rules, lam: float) -> np.ndarray:
    """The lambda-return of each kept position (rows of ``values``, the network's
    outputs, each from the side in ``sides``), computed backwards from the result."""
    players = rules.players
    targets = np.empty_like(values)
    targets[-1] = outcome_targets(returns, int(sides[-1]), rules)
    for t in range(len(values) - 2, -1, -1):
        mixed = (1.0 - lam) * values[t + 1] + lam * targets[t + 1]
        targets[t] = convert(mixed, int(sides[t + 1]), int(sides[t]), players)
    return targets


def start_row(rules: Any) -> bytes:
    """The start as a board row of the compiled self-play: the counts, and the pin row in
    the games that pin."""
    return rules.start_position().kernel_row


def compiled(rules: Rules) -> bool:
    """Whether ``rules`` trains in the compiled self-play (:mod:`gammon.kernels.
    selfplay`): two players whose turns simply alternate, as the board search assumes."""
    return board_search_applies(rules)


class Trainer:
    """A training run: self-play games, gradient steps, checkpoints, strength checks.

    Two-player games whose turns simply alternate play in compiled code; the others
    (acey-deucey's extra rolls, Multi-Gam's four seats, the last roll of Long Nardy's
    option) through the game protocol (:func:`self_play`), one game at a time.
    """

    def __init__(self, settings: Settings, network: Network | None = None,
                 rounds: Rounds | None = None) -> None:
        self.settings = settings
        self.rules = settings.rules()
        self.network = network if network is not None else new_network(settings)
        self.evaluator = neural_evaluator(self.rules, self.network)
        self.search = make_search(self.rules, self.evaluator)
        self.rng = random.Random(f"{settings.seed}:{self.games}")
        self.compiled = compiled(self.rules)
        if rounds is not None and not self.compiled:
            raise InvalidOptionError(
                f"data-parallel training (--jobs, --ray, --shards) is for the variants that "
                f"train in compiled self-play; {self.rules.name} trains one game at a time")
        self.rounds = rounds
        self.warm = False

    @property
    def games(self) -> int:
        return int(self.network.meta.get("games", 0))

    def play(self) -> None:
        """One self-play game through the game protocol, and its gradient step."""
        kept, returns = self_play(self.rules, self.evaluator, self.search, self.rng)
        self.network.meta["games"] = self.games + 1
        if kept:
            self.learn(kept, returns)

    def learn(self, kept: list[GameState], returns: tuple[float, ...]) -> None:
        """One gradient step from a game's positions (each after an action) towards
        their lambda-returns."""
        x, sides = self.evaluator.encode_states(kept)
        # The lambda-returns are of the whole value; the network learns its own part.
        base = self.evaluator.baseline(kept, sides)
        values = self.network.forward(x) + base
        targets = lambda_targets(values, sides, returns, self.rules, self.settings.lam)
        self.network.train(x, np.clip(targets - base, 0.0, 1.0), self.settings.rate)

    def play_compiled(self, games: int, trace: np.ndarray | None = None) -> np.ndarray:
        """``games`` games of the compiled self-play, learning from each; rows of
        (winner, points, plays). ``trace`` receives the first game's plays."""
        net = self.network
        plays, words = self.rules.kernel.workspace()
        tracks.seed_kernels(self.settings.seed * 1_000_003 + self.games)
        start = np.frombuffer(start_row(self.rules), np.int8).copy()
        encoder = self.evaluator.encoder
        assert isinstance(encoder, TrackEncoder)
        rows: np.ndarray = selfplay.train_games(
            games, start, self.rules.kernel.rules, encoder.cross, float(self.rules.checkers),
            encoder.raw if encoder.contact else 0, encoder.escapes,
            encoder.raw if encoder.pins else 0, net.w1, net.b1, net.w2,
            net.b2, self.settings.lam, self.settings.rate, MAX_TURNS, plays, words,
            trace if trace is not None else np.zeros((0, 3), np.int64))
        net.meta["games"] = self.games + games
        return rows

    def play_round(self, games: int) -> np.ndarray:
        """One data-parallel round of ``games`` games (a full round, or a short one before
        a check or the end, shared out over the shards alike); rows of (winner, points,
        plays) in shard order. The weights change by the shards' changes, added in order."""
        assert self.rounds is not None
        encoder = str(self.network.meta.get("encoder", "track"))
        if not self.warm:  # load the compiled self-play here once: forked workers inherit it
            net = self.network
            _train_shard((self.rules.name, self.rules.options(), encoder,
                          (net.w1, net.b1, net.w2, net.b2), 0.0, 0.0), (0, 0))
            self.warm = True
        shards = self.rounds.shards
        sizes = [games * (k + 1) // shards - games * k // shards for k in range(shards)]
        tasks = [(task_seed(self.settings.seed, "train", self.games, k), n)
                 for k, n in enumerate(sizes) if n]
        net = self.network
        weights = (net.w1, net.b1, net.w2, net.b2)
        shared = (self.rules.name, self.rules.options(), encoder, weights,
                  self.settings.lam, self.settings.rate)
        results = run_tasks(_train_shard, tasks, self.rounds.jobs, self.rounds.ray,
                            shared=shared)
        for changes, _ in results:
            for weight, change in zip(weights, changes, strict=True):
                weight += change
        net.meta["games"] = self.games + games
        return np.concatenate([rows for _, rows in results])

    def advance(self, games: int) -> None:
        """Play ``games`` more games (a round of shards, a chunk of the compiled
        self-play, or one by one)."""
        if self.rounds is not None:
            self.play_round(games)
        elif self.compiled:
            self.play_compiled(games)
        else:
            for _ in range(games):
                self.play()

    def save(self, path: Path, seconds: float) -> None:
        self.network.meta["seconds"] = round(float(self.network.meta.get("seconds", 0.0))
                                             + seconds, 1)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.network.save(path)

    def check(self, path: Path) -> dict[str, Any]:
        """Duel the network saved at ``path`` (0-ply) against the yardsticks; the point
        of the learning curve: games trained, and the margin against each."""
        # Local processes even with Ray: the network file is on this machine only.
        jobs = self.rounds.jobs if self.rounds is not None else 1
        point: dict[str, Any] = {"games": self.games, **strength_point(
            self.rules, path, self.settings.check_games, 10_000 + self.games, jobs)}
        self.network.meta.setdefault("curve", []).append(point)
        return point

    def run(self, games: int, path: Path,
            progress: Callable[[int, float], None] | None = None,
            checked: Callable[[dict[str, Any]], None] | None = None) -> None:
        """Train until the network has played ``games`` games in all, saving to ``path``
        at every check and at the end. ``progress(done, games/s)`` as games finish;
        ``checked(point)`` after each strength check."""
        began = last_save = time.perf_counter()
        start = self.games
        # Each stretch of training is recorded with its settings: a resumed run may
        # change the rate or lambda.
        stretch: dict[str, Any] = {"from": start, "to": games, "rate": self.settings.rate,
                                   "lambda": self.settings.lam}
        if self.rounds is not None:
            stretch["rounds"] = {"shards": self.rounds.shards, "games": self.rounds.games}
        self.network.meta.setdefault("stretches", []).append(stretch)
        every = self.settings.check_every
        size = (self.rounds.size if self.rounds is not None
                else CHUNK if self.compiled else 1)
        while self.games < games:
            step = min(size, games - self.games)
            if every:
                step = min(step, every - self.games % every)
            self.advance(step)
            now = time.perf_counter()
            if progress:
                progress(self.games, (self.games - start) / max(now - began, 1e-9))
            if every and self.games % every == 0:
                self.save(path, now - last_save)
                last_save = now
                point = self.check(path)
                self.save(path, 0.0)
                if checked:
                    checked(point)
        self.save(path, time.perf_counter() - last_save)


_ENCODERS: dict[tuple[int, str], TrackEncoder] = {}


def _train_shard(shared: tuple[str, dict[str, Any], str, tuple[np.ndarray, ...], float,
                               float],
                 task: tuple[int, int]) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """One shard of a data-parallel round (a task of :meth:`Trainer.play_round`): from a
    copy of the round's weights, ``task``'s games (seed, games) of compiled self-play,
    learning from each; the change to each weight array, and the games' rows."""
    name, options, inputs, weights, lam, rate = shared
    rules = rules_of(name, options)
    key = (id(rules), inputs)
    if key not in _ENCODERS:  # rules_of keeps its rules for the process's life
        encoder = encoder_for(rules, inputs)
        assert isinstance(encoder, TrackEncoder)
        _ENCODERS[key] = encoder
    encoder = _ENCODERS[key]
    seed, games = task
    w1, b1, w2, b2 = (np.array(w, copy=True) for w in weights)
    plays, words = rules.kernel.workspace()
    tracks.seed_kernels(seed)
    start = np.frombuffer(start_row(rules), np.int8).copy()
    rows: np.ndarray = selfplay.train_games(
        games, start, rules.kernel.rules, encoder.cross, float(rules.checkers),
        encoder.raw if encoder.contact else 0, encoder.escapes,
        encoder.raw if encoder.pins else 0, w1, b1, w2, b2, lam, rate,
        MAX_TURNS, plays, words, np.zeros((0, 3), np.int64))
    changes = tuple(after - before for after, before in
                    zip((w1, b1, w2, b2), weights, strict=True))
    return changes, rows


def strength_point(rules: Rules, path: Path, games: int, seed: int, jobs: int = 1
                   ) -> dict[str, list[float]]:
    """The network saved at ``path`` at 0 plies against each yardstick, ``games`` games
    each: the margin per game and its 95% interval, by rival."""
    point: dict[str, list[float]] = {}
    for rival in yardsticks(rules):
        result = duel(rules, [f"neural:0:net={path}", rival], games, seed=seed, jobs=jobs)
        margin = result.margin
        assert margin is not None
        point[rival] = [round(margin.mean, 4), round(margin.low, 4), round(margin.high, 4)]
    return point


def yardsticks(rules: Rules) -> list[str]:
    """The bots a network is measured against while it trains."""
    rivals = ["heuristic"]
    if "pubeval" in offered(rules).bots:
        rivals.append("pubeval")
    return rivals


def load_for_training(path: str | Path, settings: Settings | None = None,
                      rounds: Rounds | None = None) -> Trainer:
    """A trainer that resumes from the network at ``path`` (its saved settings, unless
    ``settings`` are given; data-parallel with ``rounds``)."""
    network = Network.load(path)
    saved = network.meta.get("settings")
    if settings is None:
        if not isinstance(saved, dict):
            raise InvalidOptionError(f"{path}: the network does not say how it was trained")
        settings = Settings(saved["variant"], dict(saved.get("options", {})),
                            int(saved["hidden"]), float(saved["lambda"]),
                            float(saved["rate"]), int(saved["seed"]),
                            contact=bool(saved.get("contact", False)))
    rules = settings.rules()
    if network.meta.get("variant") != rules.name:
        raise InvalidOptionError(
            f"{path} is a network of {network.meta.get('variant')}, not {rules.name}")
    return Trainer(settings, network, rounds)


def plot_curve(network: Network, path: Path) -> None:
    """The learning curve (margin against each yardstick by games trained) as a PNG."""
    import matplotlib  # the plot only: an optional extra, slow to import

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # Self-play's curve by games; a teacher-trained network's, until it has one, by
    # epochs of fitting.
    curve = network.meta.get("curve", [])
    across, what, doing = "games", "self-play games", "while training"
    if not curve:
        curve = network.meta.get("teacher", {}).get("curve", [])
        teacher = network.meta.get("teacher", {}).get("teacher")
        across, what, doing = "epochs", f"epochs of fitting {teacher}'s evaluations", \
            f"fitting {teacher}"
    figure, axes = plt.subplots(figsize=(7, 4))
    rivals = sorted({k for point in curve for k in point if k != across})
    for rival in rivals:
        points = [(p[across], *p[rival]) for p in curve if rival in p]
        games = [p[0] for p in points]
        means = [p[1] for p in points]
        lows = [p[1] - p[2] for p in points]
        highs = [p[3] - p[1] for p in points]
        axes.errorbar(games, means, yerr=[lows, highs], marker="o", capsize=3,
                      label=f"against {rival}")
    axes.axhline(0.0, color="grey", linewidth=0.8)
    axes.set_xlabel(what)
    axes.set_ylabel("points per game (95% interval)")
    axes.set_title(f"{network.meta.get('name', network.meta.get('variant'))}: neural:0 "
                   f"{doing}")
    if rivals:
        axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def describe(network: Network) -> str:
    """How a network was trained, as JSON text (what ships next to it): what it is, its
    size, the games and seconds of training, each stretch's settings, the commands that
    trained it, and the learning curve."""
    about = {"network": {"inputs": network.inputs, "hidden": network.hidden,
                         "outputs": network.outputs}, **network.meta}
    return json.dumps(about, indent=2)
