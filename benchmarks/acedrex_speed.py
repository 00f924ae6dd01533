"""Two checkouts of gammon, the same seeded Acedrex games, in one process: the bots'
actions must be the same and their thinking is timed alternately (on a loaded machine
only a ratio taken this way means anything).

    git archive OLD gammon | tar -x -C /tmp/old    # the code before a change
    python benchmarks/acedrex_speed.py /tmp/old . --rounds 2 --decisions 400

Games: ``money`` against three ``expectimax:1`` (seed 12), four ``expectimax:1`` (7) and
four ``money`` (3), each to ``--decisions`` decisions; a round plays each game with both
checkouts, the order swapped every round. ``--lockstep N`` plays the first game instead,
N decisions, both checkouts side by side, each decision timed with both. It prints each
bot's milliseconds a decision (decisions with more than one action) and the factor
old / new. Each checkout first plays 20 decisions untimed (the compiled search's code is
loaded then, about half a second once a process), and says how long they took.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import random
import sys
import time
from types import ModuleType
from typing import Any

GAMES = ((("money", "expectimax:1", "expectimax:1", "expectimax:1"), 12),
         (("expectimax:1",) * 4, 7),
         (("money",) * 4, 3))
_LOADED: dict[str, dict[str, ModuleType]] = {}


def _ours(name: str) -> bool:
    return name == "gammon" or name.startswith("gammon.")


def _load(tag: str, root: str) -> None:
    """Import ``root``'s gammon and keep its modules under ``tag``."""
    for name in [n for n in sys.modules if _ours(n)]:
        del sys.modules[name]
    sys.path.insert(0, root)
    for name in ("gammon.agents.registry", "gammon.agents.duel", "gammon.agents.players",
                 "gammon.evaluators.acedrex", "gammon.variants.acedrex"):
        importlib.import_module(name)
    sys.path.remove(root)
    _LOADED[tag] = {n: m for n, m in sys.modules.items() if _ours(n)}


def _use(tag: str) -> Any:
    for name in [n for n in sys.modules if _ours(n)]:
        del sys.modules[name]
    sys.modules.update(_LOADED[tag])
    return sys.modules["gammon.agents.registry"], sys.modules["gammon.agents.duel"]


def play(tag: str, specs: tuple[str, ...], seed: int, decisions: int
         ) -> tuple[list[str], dict[str, float], dict[str, int]]:
    """The actions of a seeded game, and each bot's thinking time and decisions."""
    registry, duel = _use(tag)
    rules = duel._rules("acedrex", {})
    agents = [registry.make_agent(s, rules, f"1:{i}") for i, s in enumerate(specs)]
    rng = random.Random(seed)
    state = rules.initial_state()
    actions: list[str] = []
    times: dict[str, float] = {}
    counts: dict[str, int] = {}
    while not state.is_terminal and len(actions) < decisions:
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
            continue
        spec = specs[state.current_player]
        start = time.perf_counter()
        action = agents[state.current_player].choose(state)
        spent = time.perf_counter() - start
        if len(state.legal_actions()) > 1:
            times[spec] = times.get(spec, 0.0) + spent
            counts[spec] = counts.get(spec, 0) + 1
        actions.append(str(action))
        state = state.apply(action)
    return actions, times, counts


def lockstep(seed: int, decisions: int) -> dict[tuple[str, str], list[float]]:
    """``money`` with three ``expectimax:1`` played by both checkouts side by side: each
    decision timed with the old code and the new, in turn first, the actions checked
    equal as they come (the fairest timing of a long game on a loaded machine)."""
    specs = GAMES[0][0]
    sides: dict[str, dict[str, Any]] = {}
    for tag in ("old", "new"):
        registry, duel = _use(tag)
        rules = duel._rules("acedrex", {})
        sides[tag] = {"agents": [registry.make_agent(s, rules, f"1:{i}")
                                 for i, s in enumerate(specs)],
                      "rng": random.Random(seed), "state": rules.initial_state()}
    total = {(tag, spec): [0.0, 0] for tag in sides for spec in specs}
    played = 0
    for n in range(decisions):
        for side in sides.values():
            while side["state"].is_chance:
                side["state"] = side["state"].apply(side["state"].sample_chance(side["rng"]))
        if sides["new"]["state"].is_terminal:
            break
        chosen = {}
        for tag in ("old", "new") if n % 2 else ("new", "old"):
            _use(tag)
            state = sides[tag]["state"]
            player = state.current_player
            start = time.perf_counter()
            chosen[tag] = sides[tag]["agents"][player].choose(state)
            if len(state.legal_actions()) > 1:
                total[tag, specs[player]][0] += time.perf_counter() - start
                total[tag, specs[player]][1] += 1
        if str(chosen["old"]) != str(chosen["new"]):
            raise SystemExit(f"lock step, seed {seed}: decision {n} differs")
        for tag, side in sides.items():
            side["state"] = side["state"].apply(chosen[tag])
        played += 1
    print(f"lock step, seed {seed}: {played} decisions the same", flush=True)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="folder holding the old gammon package")
    parser.add_argument("new", help="folder holding the new gammon package")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=400)
    parser.add_argument("--lockstep", type=int, default=0, metavar="N",
                        help="instead: the first game's first N decisions in lock step")
    args = parser.parse_args()
    _load("old", args.old)
    _load("new", args.new)
    for tag in ("old", "new"):
        # Untimed: a checkout's first decisions load its compiled code from numba's
        # cache (once a process), which a game's timing would otherwise carry.
        start = time.perf_counter()
        play(tag, GAMES[1][0], 1, 20)
        print(f"warm-up, {tag}: 20 decisions in {time.perf_counter() - start:.2f} s",
              flush=True)
    total: dict[tuple[str, str], list[float]] = {}
    if args.lockstep:
        total = lockstep(GAMES[0][1], args.lockstep)
    for r in range(0 if args.lockstep else args.rounds):
        for specs, seed in GAMES:
            played = {}
            for tag in ("old", "new") if r % 2 == 0 else ("new", "old"):
                played[tag] = play(tag, specs, seed, args.decisions)
                for spec, spent in played[tag][1].items():
                    entry = total.setdefault((tag, spec), [0.0, 0])
                    entry[0] += spent
                    entry[1] += played[tag][2][spec]
            old, new = played["old"][0], played["new"][0]
            if old != new:
                at = next(i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b)
                raise SystemExit(f"{specs} seed {seed}: action {at} differs")
            digest = hashlib.sha256("\n".join(new).encode()).hexdigest()[:12]
            print(f"round {r}, {'/'.join(specs)} seed {seed}: {len(new)} actions the same "
                  f"({digest})", flush=True)
    for spec in ("expectimax:1", "money"):
        (t_old, n_old), (t_new, n_new) = total["old", spec], total["new", spec]
        print(f"{spec}: old {1000 * t_old / n_old:.1f} ms a decision, new "
              f"{1000 * t_new / n_new:.1f} ({int(n_new)} decisions each), factor "
              f"{t_old / n_old / (t_new / n_new):.2f}")


if __name__ == "__main__":
    main()
