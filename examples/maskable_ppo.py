"""Learn a variant with a standard library: sb3-contrib's MaskablePPO on the Gymnasium env.

The learner plays one seat of ``GammonGymEnv(variant, action_encoding="step")`` (each
action number is the same checker step in every state, a turn one step at a time:
docs/envs.md) against bots, half its envs in each seat; MaskablePPO reads the legal steps
from the env's ``action_masks()``, so it never tries an illegal one. The reward is the
points won or lost when the game ends. Then the trained policy (its most likely legal
step) plays ``random`` and ``heuristic``, half the games in each seat, and the script
prints the points per game with a 95% interval, beside the same duels played by a policy
that picks its steps uniformly at random among the legal ones (the untrained baseline).

Needs the ``learn`` extra (sb3-contrib and torch): ``pip install -e '.[learn]'`` or
``make learn``, which runs it with short settings (torch's CPU wheel is enough: ``pip
install torch --index-url https://download.pytorch.org/whl/cpu`` first spares the
gigabytes of CUDA the default Linux wheel brings); without them it stops saying so.
Models are saved every ``--checkpoint`` steps under ``--out`` and ``--resume`` goes on
from the last one.

    .venv/bin/python examples/maskable_ppo.py --variant hypergammon --timesteps 20000
    .venv/bin/python examples/maskable_ppo.py --variant backgammon --timesteps 400000 \\
        --eval-games 400 --out runs/ppo-backgammon
    .venv/bin/python examples/maskable_ppo.py --variant hypergammon --baseline-only
        # only the uniformly random policy's duels: no torch needed
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import re
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

from gammon.envs import GammonGymEnv

#: A policy as the duels call it: the observation and the mask of legal steps to a step.
Policy = Callable[[np.ndarray, np.ndarray], int]


class BoardOnly(gymnasium.ObservationWrapper):
    """The env's observation without its ``action_mask`` part (MaskablePPO takes the mask
    from ``action_masks()``, which goes through this wrapper to the env)."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        masks: np.ndarray = self.env.unwrapped.action_masks()
        return masks


def make_env(variant: str, opponent: str, seat: int) -> gymnasium.Env:
    return BoardOnly(GammonGymEnv(variant, opponents=opponent, seat=seat,
                                  action_encoding="step"))


def duel(policy: Policy, variant: str, opponent: str, games: int,
         seed: int) -> tuple[float, float]:
    """Points per game of ``policy`` against ``opponent`` over ``games`` games, half in
    each seat: the mean and the half-width of its 95% interval."""
    points = []
    envs = [make_env(variant, opponent, seat) for seat in (0, 1)]
    for game in range(games):
        env = envs[game % 2]
        observation, _ = env.reset(seed=seed * 100_003 + game)
        done = False
        reward = 0.0
        while not done:
            action = policy(observation, env.action_masks())
            observation, reward, done, _, info = env.step(action)
            assert "illegal_action" not in info, info["illegal_action"]
        points.append(float(reward))
    mean = float(np.mean(points))
    half = 1.96 * float(np.std(points, ddof=1)) / math.sqrt(len(points))
    return mean, half


def uniform_policy(seed: int) -> Policy:
    """Uniform among the legal steps: the untrained baseline."""
    rng = np.random.default_rng(seed)
    return lambda observation, mask: int(rng.choice(np.flatnonzero(mask)))


def model_policy(model: Any) -> Policy:
    """The trained policy's most likely legal step."""
    def choose(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)
    return choose


def last_checkpoint(out: str) -> tuple[str, int] | None:
    """The newest checkpoint under ``out`` and the steps it had trained, or None."""
    found = []
    for path in glob.glob(os.path.join(out, "ppo_*_steps.zip")):
        match = re.search(r"ppo_(\d+)_steps\.zip$", path)
        if match:
            found.append((int(match[1]), path))
    if not found:
        return None
    steps, path = max(found)
    return path, steps


#: What to do when torch or sb3-contrib is missing. The default torch wheel on Linux pulls
#: gigabytes of CUDA libraries; the CPU wheel is all this example needs.
INSTALL = ("training needs the learn extra (sb3-contrib and torch): pip install -e "
           "'.[learn]' (or make learn); for torch, the CPU wheel is enough and far "
           "smaller than the default one, which brings CUDA: pip install torch "
           "--index-url https://download.pytorch.org/whl/cpu (--baseline-only runs the "
           "duels without them)")


def train(args: argparse.Namespace) -> Any:
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.callbacks import CheckpointCallback
        from stable_baselines3.common.vec_env import DummyVecEnv
    except ImportError as missing:
        raise SystemExit(f"examples/maskable_ppo.py: {missing}: {INSTALL}") from None

    torch.set_num_threads(1)
    opponents = args.train_opponents.split(",")
    # Env k plays seat k % 2 against the opponents in turn, each in both seats.
    factories = [(lambda k=k: make_env(args.variant, opponents[k // 2 % len(opponents)],
                                       k % 2)) for k in range(args.envs)]
    venv = DummyVecEnv(factories)
    venv.seed(args.seed)
    resumed = last_checkpoint(args.out) if args.resume else None
    if resumed is not None:
        model = MaskablePPO.load(resumed[0], env=venv, device="cpu")
        done = resumed[1]
        print(f"resuming from {resumed[0]} ({done} steps)", flush=True)
    else:
        model = MaskablePPO(
            "MlpPolicy", venv, seed=args.seed, device="cpu", verbose=0,
            n_steps=args.n_steps, batch_size=256, n_epochs=4, gamma=1.0, gae_lambda=0.95,
            learning_rate=args.learning_rate, ent_coef=0.01,
            policy_kwargs={"net_arch": [args.hidden, args.hidden]})
        done = 0
    left = max(0, args.timesteps - done)
    checkpoints = CheckpointCallback(max(1, args.checkpoint // args.envs), args.out,
                                     name_prefix="ppo")
    started = time.perf_counter()
    if left:
        model.learn(left, callback=checkpoints, reset_num_timesteps=resumed is None)
    seconds = time.perf_counter() - started
    trained = int(model.num_timesteps)  # whole rollouts: a little past --timesteps
    model.save(os.path.join(args.out, f"ppo_{trained}_steps"))
    print(f"trained {args.variant} for {trained} steps ({left} asked in this run, "
          f"{seconds:.0f} s, {left / max(seconds, 1e-9):.0f} steps/s)", flush=True)
    return model


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="hypergammon",
                        help="a two-player track game (the step encoding's variants)")
    parser.add_argument("--timesteps", type=int, default=20_000, help="learner steps")
    parser.add_argument("--envs", type=int, default=4, help="envs, half in each seat")
    parser.add_argument("--train-opponents", default="random",
                        help="bots the envs train against, comma-separated, in turn")
    parser.add_argument("--n-steps", type=int, default=512, help="steps per env a rollout")
    parser.add_argument("--hidden", type=int, default=128, help="units of both layers")
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--eval-games", type=int, default=100, help="games per duel")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="runs/maskable-ppo", help="checkpoints, results")
    parser.add_argument("--checkpoint", type=int, default=50_000, help="steps between saves")
    parser.add_argument("--resume", action="store_true", help="go on from --out's last save")
    parser.add_argument("--baseline-only", action="store_true",
                        help="only the uniformly random policy's duels (no torch)")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)

    policies: list[tuple[str, Policy]] = [("uniform random steps", uniform_policy(args.seed))]
    results: dict[str, Any] = {"variant": args.variant, "timesteps": args.timesteps,
                               "eval_games": args.eval_games, "duels": {}}
    if not args.baseline_only:
        policies.insert(0, ("MaskablePPO", model_policy(train(args))))
    for name, policy in policies:
        for opponent in ("random", "heuristic"):
            started = time.perf_counter()
            mean, half = duel(policy, args.variant, opponent, args.eval_games, args.seed)
            results["duels"][f"{name} vs {opponent}"] = {"points_per_game": mean,
                                                         "interval95": half}
            print(f"{args.variant}: {name} vs {opponent}: {mean:+.3f} +- {half:.3f} points "
                  f"per game ({args.eval_games} games, {time.perf_counter() - started:.0f} s)",
                  flush=True)
    with open(os.path.join(args.out, f"results-{args.variant}.json"), "w") as file:
        json.dump(results, file, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
