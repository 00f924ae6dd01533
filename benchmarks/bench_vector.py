"""gammon's compiled vector environment against OpenSpiel's backgammon driven from Python
(and, with ``--pgx``, pgx's JAX backgammon on the CPU), measured in one run.

Random games of standard backgammon, random legal actions everywhere:

- ``VectorEnv("backgammon", num_envs=N)`` stepped with actions drawn in numpy from
  ``counts`` (uniform among each env's legal plays): the ways of running it the
  environment offers (keeping each decision's result boards, the default, or generating
  them again at the step; one thread, or one per core with ``numba.prange``);
- OpenSpiel's C++ backgammon driven from Python as its examples do (``benchmarks/
  bench_openspiel.py``'s loop: chance outcomes and legal actions drawn uniformly), the
  anchor; OpenSpiel and gammon's environments take turns in one-second slices, so that
  the machine's drift hits both;
- the same environment playing 7-point matches with the cube (``match=7,
  whole_match=True``), random legal actions at the cube decisions too: what the cube
  and match layer (numpy around the kernel) costs per step, printed as a ratio to the
  plain environment on one thread;
- ``--pgx``: pgx's backgammon, ``jax.jit(jax.vmap(step))`` over a batch on the CPU with
  pgx's auto-reset wrapper, random legal actions drawn in JAX (after its compilation).

**Units.** Each library counts steps its own way: a gammon step is a whole turn (all
the moves of a roll, one decision), an OpenSpiel step is a chance node (the dice) or
a half-move (two checker moves of a double count as two steps), a pgx step one checker
move (with the dice thrown inside). Steps per second are printed as each counts them,
but only **games per second** compares like with like: the same game, played to the
end with uniformly random legal choices (not the same distribution of plays: uniform
among whole plays is not uniform among half-moves). The ratios are taken in games/s;
the issue's target is gammon >= 10x OpenSpiel's random steps per second (the steps
ratio is printed too, for what it is worth).

Usage::

    .benchvenv/bin/python benchmarks/bench_vector.py                 # ~1 minute
    .benchvenv/bin/python benchmarks/bench_vector.py --pgx --json    # one JSON line at the end
    .benchvenv/bin/python benchmarks/bench_vector.py --envs 1024 --seconds 10 --threads 1,2
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_openspiel import (  # noqa: E402
    Rate,
    _pyspiel,
    interleaved,
    machine,
    openspiel_game,
    versions,
)

from gammon.envs.vector import VectorEnv  # noqa: E402

TARGET = 10.0  # gammon's vector env / OpenSpiel from Python, random steps per second


def vector_run(envs: int, seed: int, threads: int, keep: int, **stakes: Any) -> Any:
    env = VectorEnv("backgammon", envs, seed=seed, threads=threads, keep=keep, **stakes)
    rng = np.random.default_rng(seed)
    counts = env.counts

    def run(_: int) -> tuple[int, dict[str, int]]:
        nonlocal counts
        actions = (rng.random(envs) * counts).astype(np.int64)
        plays = int((env.phase == 0).sum())  # the rest are cube decisions
        _, _, dones, info = env.step(actions)
        counts = info["counts"]
        ended = info.get("game_over", dones)  # with whole matches: games, not matches
        return envs, {"games": int(ended.sum()), "plays": plays}

    for _ in range(20):  # warm-up: compile or load the cache, reach mid-game positions
        run(0)
    return run


def pgx_rate(batch: int, seconds: float, seed: int) -> dict[str, Any]:
    """pgx's backgammon on the CPU: random legal steps of a batch, auto-reset."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    try:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset
    except ImportError as error:
        return {"error": f"pgx is not installed here ({error}): pip install pgx jax"}
    env = pgx.make("backgammon")
    init = jax.jit(jax.vmap(env.init))
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def advance(state: Any, key: Any) -> tuple[Any, Any]:
        key, pick, roll = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        actions = jax.random.categorical(pick, logits, axis=-1)
        state = step(state, actions, jax.random.split(roll, batch))
        return state, key

    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    state = init(jax.random.split(sub, batch))
    started = time.perf_counter()
    for _ in range(3):
        state, key = advance(state, key)
    state.terminated.block_until_ready()
    compile_seconds = time.perf_counter() - started
    steps = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state, key = advance(state, key)
        games += int(state.terminated.sum())
        steps += batch
    elapsed = time.perf_counter() - started
    return {"steps_per_s": steps / elapsed, "games_per_s": games / elapsed, "batch": batch,
            "compile_s": compile_seconds, "jax": jax.__version__, "pgx": pgx.__version__,
            "devices": str(jax.devices())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=512, help="games in lockstep")
    parser.add_argument("--seconds", type=float, default=8.0, help="time per contender")
    parser.add_argument("--threads", default="1,2", help="thread counts to measure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pgx", action="store_true", help="measure pgx on the CPU too")
    parser.add_argument("--pgx-batch", type=int, default=512)
    parser.add_argument("--json", action="store_true", help="print one JSON line at the end")
    args = parser.parse_args(argv)

    pyspiel = _pyspiel()
    threads = [int(t) for t in args.threads.split(",") if t]
    contenders: list[tuple[str, Any]] = [("OpenSpiel from Python", openspiel_game(pyspiel,
                                                                                args.seed))]
    for t in threads:
        contenders.append((f"VectorEnv x{args.envs}, {t} thread(s), keep",
                           vector_run(args.envs, args.seed, t, 64)))
    contenders.append((f"VectorEnv x{args.envs}, 1 thread, regenerate",
                       vector_run(args.envs, args.seed, 1, 0)))
    contenders.append((f"VectorEnv x{args.envs}, 1 thread, keep, 7-pt matches",
                       vector_run(args.envs, args.seed, 1, 64, match=7, whole_match=True)))
    rates: list[Rate] = interleaved([run for _, run in contenders], args.seconds)

    rows: list[dict[str, Any]] = []
    os_rate = rates[0]
    os_steps = (os_rate.extra["turns"] + os_rate.extra["decisions"]) / os_rate.seconds
    os_games = os_rate.per_second
    rows.append({"name": contenders[0][0], "steps_per_s": os_steps, "games_per_s": os_games,
                 "step": "chance node or half-move",
                 "steps_per_game": os_steps / os_games if os_games else 0.0})
    for (name, _), rate in zip(contenders[1:], rates[1:], strict=True):
        games = rate.extra["games"] / rate.seconds
        rows.append({"name": name, "steps_per_s": rate.per_second, "games_per_s": games,
                     "plays_per_s": rate.extra["plays"] / rate.seconds,
                     "step": "whole turn or cube decision",
                     "steps_per_game": rate.per_second / games if games else 0.0})
    if args.pgx:
        found = pgx_rate(args.pgx_batch, args.seconds, args.seed)
        if "error" in found:
            print(found["error"], file=sys.stderr)
        else:
            rows.append({"name": f"pgx x{found['batch']}, CPU (JAX)",
                         "steps_per_s": found["steps_per_s"], "games_per_s": found["games_per_s"],
                         "step": "checker move",
                         "steps_per_game": found["steps_per_s"] / max(found["games_per_s"], 1e-9),
                         "detail": found})

    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.1f} "
          "(anything else running shares the cores)")
    print(f"versions: {versions()}")
    print(f"{'contender':44} {'steps/s':>11} {'games/s':>9} {'steps/game':>10} "
          f"{'x OS games':>10} {'x OS steps':>10}  step")
    for row in rows:
        row["games_ratio"] = row["games_per_s"] / os_games if os_games else 0.0
        row["steps_ratio"] = row["steps_per_s"] / os_steps if os_steps else 0.0
        print(f"{row['name']:44} {row['steps_per_s']:11,.0f} {row['games_per_s']:9,.0f} "
              f"{row['steps_per_game']:10.1f} {row['games_ratio']:10.2f} "
              f"{row['steps_ratio']:10.2f}  {row['step']}")
    plain = next((r for r in rows if r["name"].endswith(", 1 thread(s), keep")), None)
    if plain is not None:
        matches = rows[2 + len(threads)]
        steps = matches["steps_per_s"] / plain["steps_per_s"]
        plays = matches["plays_per_s"] / plain["plays_per_s"]
        print(f"7-point matches with the cube / plain, 1 thread: {steps:.2f}x the steps/s "
              f"(a cube decision is a step too, and cheap), {plays:.2f}x the plays/s "
              "(whole turns only)")
    best = max(rows[1:1 + len(threads) + 1], key=lambda r: r["games_per_s"])
    print(f"best gammon: {best['name']}: {best['games_ratio']:.1f}x OpenSpiel in games/s "
          f"(the comparable unit), {best['steps_ratio']:.1f}x in steps/s as each counts; "
          f"target {TARGET:.0f}x: {'PASS' if best['games_ratio'] >= TARGET else 'FAIL'} "
          "in games/s")
    if args.json:
        print(json.dumps({"machine": machine(), "versions": versions(), "envs": args.envs,
                          "seconds": args.seconds, "rows": rows, "best": best["name"]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
