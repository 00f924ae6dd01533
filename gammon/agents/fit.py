"""Fitting the weights of the track heuristic.

``python -m gammon.agents.fit backgammon --positions 30000 --jobs 2`` collects positions
from games between pubeval and the heuristic (a share of random plays keeps them varied:
a bot must judge bad plays too), asks GNU Backgammon for its 0-ply cubeless chances of
each, and fits three logistic models of the heuristic's features from the side of the
player not on roll (:class:`~gammon.evaluators.track.Weights`): the chance to
win, and the chances that a win or a loss is a gammon. The fit is a logistic
regression on gnubg's probabilities as soft targets (Newton's method, a little L2
shrinkage); the gammon models weigh each position by the chance of the win (or loss)
they describe. It prints the weights as Python.

``--target outcomes`` fits the chance to win to the results of the games instead (for
variants gnubg does not play); that target is far noisier.

This is how the backgammon weights in :mod:`gammon.evaluators.track` were
obtained: a tool, not part of playing.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from gammon.agents.base import Agent, seeded_rng
from gammon.agents.gnubg import bridge, to_gnubg
from gammon.agents.registry import make_agent
from gammon.core.position import Position
from gammon.core.protocol import play_on
from gammon.core.variant import GameState
from gammon.core.variant import track_variant as get_variant
from gammon.evaluators.track import TrackHeuristic
from gammon.kernels import writable_boards


def _exploring(agents: list[Agent], rng: random.Random,
               explore: float) -> Callable[[GameState], object]:
    """The seats' choices, but a random legal action with probability ``explore``."""
    def choose(state: GameState) -> object:
        legal = state.legal_actions()
        if len(legal) > 1 and rng.random() < explore:
            return legal[rng.randrange(len(legal))]
        return agents[state.position.turn].choose(state)

    return choose


def record_positions(variant: Any, specs: list[str], positions: int, seed: int,
                     explore: float = 0.15) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct boards met after plays (the next player to roll), who rolls next, and
    player 0's return in the game each came from."""
    seen: dict[bytes, int] = {}
    to_move: list[int] = []
    outcome: list[float] = []
    rng = random.Random(seed)
    g = 0
    while len(seen) < positions:
        order = [specs[(g + s) % len(specs)] for s in range(variant.players)]
        agents = [make_agent(spec, variant, f"{seed}:{g}:{s}") for s, spec in enumerate(order)]
        mine: list[int] = []

        def record(after: GameState, mine: list[int] = mine) -> None:
            # Only the boards a play leads to: the next player is about to roll.
            if after.is_chance and after.moves and after.position.board not in seen:
                seen[after.position.board] = len(to_move)
                to_move.append(after.position.turn)
                mine.append(len(to_move) - 1)

        state = play_on(variant.initial_state(), seeded_rng(seed, "fit", g),
                        _exploring(agents, rng, explore), observe=record)
        result = state.returns()[0]
        outcome.extend([result] * len(mine))
        g += 1
    size = variant.players * variant.slots
    boards = writable_boards(b"".join(seen), size)
    return boards, np.array(to_move), np.array(outcome)


def _gnubg_chunk(job: tuple[list[list[list[int]]], int]) -> list[list[float]]:
    boards, plies = job
    return bridge().ask({"op": "evaluate_many", "boards": boards, "plies": plies})["probs"]


def gnubg_probabilities(boards: np.ndarray, to_move: np.ndarray, jobs: int = 2,
                        plies: int = 0) -> np.ndarray:
    """gnubg's cubeless probabilities (win, win g, win bg, lose g, lose bg) of the player
    to roll, for each two-player backgammon board."""
    gnubg_boards = [to_gnubg(Position(b.tobytes(), 2, int(t))) for b, t in zip(
        boards, to_move, strict=True)]
    chunks = [(gnubg_boards[i : i + 500], plies) for i in range(0, len(gnubg_boards), 500)]
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        results = pool.map(_gnubg_chunk, chunks)
    return np.array([p for chunk in results for p in chunk])


def design(heuristic: TrackHeuristic, boards: np.ndarray, to_move: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows of [1, race term, mover's features, roller's features] from the side of the
    player not on roll (the mover), the contact flags, and who the mover is."""
    f0, c0, pips0, _ = heuristic.features(boards, 0, 1)
    f1, c1, pips1, _ = heuristic.features(boards, 1, 0)
    mover = 1 - to_move
    tempo = heuristic.weights.tempo
    lead = np.where(mover == 0, pips1 - pips0, pips0 - pips1) - tempo
    race = heuristic._race_z(lead, pips0 + pips1)
    fm = np.where((mover == 0)[:, None], f0, f1)
    fr = np.where((mover == 0)[:, None], f1, f0)
    return np.column_stack([np.ones(len(race)), race, fm, fr]), c0 | c1, mover


def logistic_fit(x: np.ndarray, y: np.ndarray, weight: np.ndarray | None = None,
                 l2: float = 1e-4, steps: int = 50) -> np.ndarray:
    """Weights of a logistic regression with targets ``y`` in [0, 1] (Newton's method)."""
    w = np.zeros(x.shape[1])
    weight = np.ones(len(y)) if weight is None else weight
    total = weight.sum()
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (weight * (p - y)) / total + l2 * w
        hess = (x * (weight * p * (1 - p))[:, None]).T @ x / total + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def _show(name: str, w: np.ndarray) -> str:
    return f"    {name}=({', '.join(f'{v:.4f}' for v in w)}),"


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - a tool
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--positions", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agents", default="pubeval,heuristic")
    parser.add_argument("--explore", type=float, default=0.15)
    parser.add_argument("--target", choices=("gnubg", "outcomes"), default="gnubg")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--save", help="keep the positions and targets in this .npz file")
    parser.add_argument("--load", nargs="*", default=(),
                        help="fit to positions and gnubg targets saved with --save")
    args = parser.parse_args(argv)
    rules = get_variant(args.variant)
    heuristic = TrackHeuristic(rules)
    if args.load:
        data = [np.load(path) for path in args.load]
        boards = np.concatenate([d["boards"] for d in data])
        to_move = np.concatenate([d["to_move"] for d in data])
        loaded = np.concatenate([d["probs"] for d in data])
        outcome = np.zeros(len(boards))
    else:
        boards, to_move, outcome = record_positions(rules, args.agents.split(","),
                                                    args.positions, args.seed, args.explore)
    x, contact, mover = design(heuristic, boards, to_move)
    keep = contact
    k = (x.shape[1] - 2) // 2
    if args.target == "outcomes":
        y = (np.where(mover == 0, outcome, -outcome) > 0).astype(np.float64)
        keep = contact & (outcome != 0)
        win = logistic_fit(x[keep], y[keep])
        print(f"{keep.sum()} contact positions")
        print(f"Weights(race={win[1]:.4f}, bias={win[0]:.4f},")
        print(_show("mover", win[2 : 2 + k]))
        print(_show("roller", win[2 + k :]))
        print(")")
        return
    probs = (loaded[keep] if args.load else
             gnubg_probabilities(boards[keep], to_move[keep], args.jobs))
    if args.save:
        np.savez(args.save, boards=boards[keep], to_move=to_move[keep], probs=probs)
    xs = x[keep]
    # gnubg answers for the player on roll; the models are from the mover's side.
    p_win = np.clip(1.0 - probs[:, 0], 1e-4, 1 - 1e-4)
    gammon_win = np.clip((probs[:, 3] + probs[:, 4]) / p_win, 0.0, 1.0)
    gammon_lose = np.clip((probs[:, 1] + probs[:, 2]) / (1.0 - p_win), 0.0, 1.0)
    win = logistic_fit(xs, p_win)
    gw = logistic_fit(xs, gammon_win, p_win)
    gl = logistic_fit(xs, gammon_lose, 1.0 - p_win)
    fitted = 1.0 / (1.0 + np.exp(-(xs @ win)))
    print(f"{len(xs)} contact positions; mean |P(win) - gnubg| = "
          f"{np.abs(fitted - p_win).mean():.4f}")
    print(f"Weights(\n    race={win[1]:.4f}, bias={win[0]:.4f},")
    print(_show("mover", win[2 : 2 + k]))
    print(_show("roller", win[2 + k :]))
    print(_show("gammon_win", gw))
    print(_show("gammon_lose", gl))
    print(")")


if __name__ == "__main__":  # pragma: no cover
    main()
