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
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from gammon.envs.vector import VectorEnv
from gammon.nn.network import Network


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
          **options: object) -> Network:
    env = VectorEnv(variant, envs, seed=seed, **options)
    inputs = env.encoder.inputs
    net = Network.create(inputs, hidden, 1, seed=seed, variant=variant)
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
    args = parser.parse_args(argv)

    started = time.perf_counter()
    before = Network.create(VectorEnv(args.variant, 1).encoder.inputs, args.hidden, 1,
                            seed=args.seed)
    untrained = duel(before, args.variant, args.duel_games, args.envs, args.seed + 1)
    net = train(args.variant, args.games, args.envs, args.hidden, args.rate, args.seed)
    trained_at = time.perf_counter()
    mean, half, games = duel(net, args.variant, args.duel_games, args.envs, args.seed + 2)
    print(f"{args.variant}: {args.games} self-play games through VectorEnv x{args.envs} in "
          f"{trained_at - started:.0f} s")
    print(f"untrained network: {untrained[0]:+.3f} +- {untrained[1]:.3f} points per game "
          f"against random ({untrained[2]} games)")
    print(f"trained network: {mean:+.3f} +- {half:.3f} points per game against random "
          f"({games} games, seats alternated, 95% interval)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
