"""Train gammon's own kind of network through the vector environment, then duel random.

A :class:`gammon.nn.network.Network` (one tanh hidden layer, one sigmoid output: the
chance that the player who just moved wins) learns by self-play over afterstates, TD(0)
style as TD-Gammon did: in every env the mover takes the legal play whose result the
network values most (``VectorEnv.afterstates``, one batch for all envs), and the value of
a player's previous choice moves towards the value of their next one, or towards the
result (1 won, 0 lost, 1/2 a draw) when the game ends. Then the trained network plays
the random agent (uniform among the legal plays), half the games in each seat, and the
script prints the points per game with a 95% interval.

    .venv/bin/python examples/train_vector.py                       # ~35 s on one core
    .venv/bin/python examples/train_vector.py --games 200 --duel-games 100   # seconds
    .venv/bin/python examples/train_vector.py --curve 6 --curve-out curve.csv
        # the learning curve: a duel against random after each sixth of the training

With ``--curve N`` the network also duels random (``--curve-games`` games) before its
training and after each N-th of it, and the script prints the curve, one line a point
(self-play games so far, points per game, 95% interval), and writes it as CSV with
``--curve-out``.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

import numpy as np

from gammon.envs.vector import VectorEnv
from gammon.nn.network import Network

#: What training calls at each point of the curve: the games so far and the network.
Progress = Callable[[int, Network], None]


def best_actions(net: Network, env: VectorEnv) -> np.ndarray:
    """Each env's action whose afterstate the network values most (the mover's side)."""
    x, offsets = env.afterstates()
    values = net.forward(x)[:, 0]
    best = np.maximum.reduceat(values, offsets[:-1])
    hits = np.flatnonzero(values >= np.repeat(best, np.diff(offsets)))
    env_of = np.searchsorted(offsets, hits, side="right") - 1
    first = np.full(env.num_envs, -1, np.int64)
    # The first best row of each env (hits are in order, so keep the first per env).
    keep = np.r_[True, env_of[1:] != env_of[:-1]]
    first[env_of[keep]] = hits[keep] - offsets[env_of[keep]]
    chosen_x = x[hits[keep]]
    return first, chosen_x


def train(variant: str, games: int, envs: int, hidden: int, rate: float, seed: int,
          points: int = 0, progress: Progress | None = None, **options: object) -> Network:
    """The network after ``games`` self-play games; with ``points``, ``progress`` is called
    before any and after each ``points``-th of them (the games finished by then)."""
    env = VectorEnv(variant, envs, seed=seed, **options)
    inputs = env.encoder.inputs
    net = Network.create(inputs, hidden, 1, seed=seed, variant=variant)
    marks = [round(games * k / points) for k in range(1, points + 1)] if points else []
    if progress is not None and points:
        progress(0, net)
    previous = np.zeros((envs, 2, inputs), np.float32)
    has_previous = np.zeros((envs, 2), bool)
    finished = 0
    rows = np.arange(envs)
    while finished < games:
        movers = env.to_play
        actions, chosen = best_actions(net, env)
        xs: list[np.ndarray] = []
        targets: list[np.ndarray] = []
        # The mover's previous choice learns towards the value of this one.
        mine = has_previous[rows, movers]
        if mine.any():
            xs.append(previous[rows[mine], movers[mine]])
            targets.append(net.forward(chosen[mine]))
        previous[rows, movers] = chosen
        has_previous[rows, movers] = True
        _, rewards, dones, _ = env.step(actions)
        for e in np.flatnonzero(dones):
            for p in (0, 1):
                if has_previous[e, p]:
                    xs.append(previous[e, p][None, :])
                    result = 0.5 if rewards[e, p] == 0 else float(rewards[e, p] > 0)
                    targets.append(np.array([[result]], np.float32))
            has_previous[e] = False
        finished += int(dones.sum())
        if xs:
            x = np.concatenate(xs)
            net.train(x, np.concatenate(targets).astype(np.float32), rate)
        while marks and finished >= marks[0] and progress is not None:
            progress(marks.pop(0), net)
    return net


def duel(net: Network, variant: str, games: int, envs: int, seed: int,
         **options: object) -> tuple[float, float, int]:
    """Points per game of the network against the random agent: the network holds seat 0
    in even envs and seat 1 in odd ones. Returns (mean, 95% half-width, games)."""
    env = VectorEnv(variant, envs, seed=seed, **options)
    rng = np.random.default_rng(seed)
    seat = np.arange(envs) % 2
    results: list[float] = []
    while len(results) < games:
        greedy, _ = best_actions(net, env)
        random_actions = (rng.random(envs) * env.counts).astype(np.int64)
        actions = np.where(env.to_play == seat, greedy, random_actions)
        _, rewards, dones, _ = env.step(actions)
        for e in np.flatnonzero(dones):
            results.append(float(rewards[e, seat[e]]))
    points = np.array(results[:games])
    half = 1.96 * points.std(ddof=1) / math.sqrt(len(points)) if len(points) > 1 else math.inf
    return float(points.mean()), float(half), len(points)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="hypergammon")
    parser.add_argument("--games", type=int, default=6000, help="self-play games")
    parser.add_argument("--duel-games", type=int, default=1000, help="games against random")
    parser.add_argument("--envs", type=int, default=64, help="games in lockstep")
    parser.add_argument("--hidden", type=int, default=40, help="hidden units")
    parser.add_argument("--rate", type=float, default=0.02, help="learning rate per position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--curve", type=int, default=0, metavar="N",
                        help="duel random before training and after each N-th of it")
    parser.add_argument("--curve-games", type=int, default=400,
                        help="games against random at each point of the curve")
    parser.add_argument("--curve-out", default=None, help="write the curve as CSV here")
    args = parser.parse_args(argv)
    if args.curve < 0 or args.curve_games < 2:
        parser.error("--curve is 0 (no curve) or more, --curve-games 2 or more")
    curve: list[tuple[int, float, float, int]] = []

    def point(games: int, net: Network) -> None:
        mean, half, played = duel(net, args.variant, args.curve_games, args.envs,
                                  args.seed + 3 + len(curve))
        curve.append((games, mean, half, played))
        print(f"curve: {games:6d} self-play games: {mean:+.3f} +- {half:.3f} points per "
              f"game against random ({played} games)", flush=True)

    started = time.perf_counter()
    before = Network.create(VectorEnv(args.variant, 1).encoder.inputs, args.hidden, 1,
                            seed=args.seed)
    untrained = duel(before, args.variant, args.duel_games, args.envs, args.seed + 1)
    net = train(args.variant, args.games, args.envs, args.hidden, args.rate, args.seed,
                args.curve, point)
    trained_at = time.perf_counter()
    mean, half, games = duel(net, args.variant, args.duel_games, args.envs, args.seed + 2)
    print(f"{args.variant}: {args.games} self-play games through VectorEnv x{args.envs} in "
          f"{trained_at - started:.0f} s")
    print(f"untrained network: {untrained[0]:+.3f} +- {untrained[1]:.3f} points per game "
          f"against random ({untrained[2]} games)")
    print(f"trained network: {mean:+.3f} +- {half:.3f} points per game against random "
          f"({games} games, seats alternated, 95% interval)")
    if args.curve_out:
        with open(args.curve_out, "w") as out:
            out.write("games,points_per_game,half_width_95,duel_games\n")
            for row in curve:
                out.write(f"{row[0]},{row[1]:.4f},{row[2]:.4f},{row[3]}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
