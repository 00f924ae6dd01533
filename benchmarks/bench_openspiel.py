"""gammon against OpenSpiel's C++ backgammon, measured in one run on one machine.

Two measurements, each printed with its ratio to the anchor and the project's target:

1. Random playouts, games per second. gammon's compiled playouts
   (``variant.random_playouts``: whole games in numba, uniform choice among the
   distinct legal plays) against OpenSpiel's C++ backgammon driven from Python the way
   its examples do it (``pyspiel.load_game("backgammon")``; chance nodes drawn from
   ``chance_outcomes()``, decisions drawn uniformly from ``legal_actions()``). Both run
   for the same time budget after a warm-up, so numba's compilation or cache loading is
   not counted. Target: gammon >= 5x OpenSpiel.

   gammon's Python API (the game protocol: ``chance_outcomes``/``sample_chance``,
   ``legal_actions``, ``apply``) drives the same random games from Python, against the
   same OpenSpiel loop; the two alternate in one-second slices so that any drift of the
   machine hits both. Target: gammon >= 1x OpenSpiel.

2. ``legal_actions()`` calls per second on the same positions. Turn-start positions
   (both dice unused) are collected from seeded OpenSpiel random games, converted to
   gammon positions, and each side's ``legal_actions()`` is called once per position
   per round. gammon's states keep their legal plays once computed, so every round
   times fresh states built outside the timer; OpenSpiel's states keep nothing, so the
   same states serve every round. Rounds alternate between the two sides so that any
   drift of the machine hits both. Target: gammon >= 1x OpenSpiel.

   The two calls do not do the same work on a double: OpenSpiel splits a double into
   two actions of two checker moves each, so its call lists only the first half of the
   turn, while gammon's lists every whole play of four moves. That favours OpenSpiel.

Before timing, the position conversion is checked: checker totals (board, bar and
borne-off counts read from OpenSpiel's observation tensor) and pip counts must agree
for every collected position, and on a subset the set of positions each engine can
reach with the roll is compared (OpenSpiel's doubles are composed of their two halves).

Usage::

    python benchmarks/bench_openspiel.py                 # rich table
    python benchmarks/bench_openspiel.py --json          # table on stderr, one JSON line on stdout
    python benchmarks/bench_openspiel.py --seconds 10 --positions 4000 --strict
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from importlib import metadata
from typing import Any

import gammon

PLAYOUT_TARGET = 5.0  # gammon compiled playouts / OpenSpiel random games
API_TARGET = 1.0  # gammon random games through legal_actions/apply / OpenSpiel's, from Python
LEGAL_TARGET = 1.0  # gammon legal_actions calls / OpenSpiel legal_actions calls
ADAPTER_TARGET = 0.5  # gammon's backgammon as an OpenSpiel game / OpenSpiel's own

# OpenSpiel's backgammon (open_spiel/games/backgammon/backgammon.h).
OS_POINTS = 24
OS_CHECKERS = 15
OS_BAR_POS = 100  # kBarPos: state.board(player, kBarPos) is that player's bar
OS_X, OS_O = 0, 1  # X moves from position 0 up to 23 and off; O from 23 down to 0
# Observation tensor, for player 0: 4 values per position for X, then for O (Tesauro's
# encoding), then X's bar, X's borne-off, X to move, O's bar, O's borne-off, O to move,
# and the two dice.
T_BOARD = 4 * OS_POINTS
T_BAR = 2 * T_BOARD
T_OFF = T_BAR + 1
T_DICE = T_BAR + 6


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        sys.exit(
            "OpenSpiel is not installed: pip install -r benchmarks/requirements.txt "
            "(or run `make bench`, which sets up .benchvenv)"
        )
    return pyspiel


# --- conversion ------------------------------------------------------------------


def gammon_slot(player: int, pos: int) -> int:
    """gammon's slot (the player's own point number) for OpenSpiel's board position."""
    return OS_POINTS - pos if player == OS_X else pos + 1


def rows_from_openspiel(state: Any) -> list[list[int]]:
    """Slot counts per player in gammon's numbering (0 off, 1..24 points, 25 bar).

    Reads ``state.board(player, pos)`` and the bar through ``board(player, kBarPos)``;
    borne-off checkers are the rest of the fifteen (checked against the observation
    tensor by :func:`check_conversion`).
    """
    rows = []
    for player in (OS_X, OS_O):
        row = [0] * (OS_POINTS + 2)
        for pos in range(OS_POINTS):
            row[gammon_slot(player, pos)] = state.board(player, pos)
        row[OS_POINTS + 1] = state.board(player, OS_BAR_POS)
        row[0] = OS_CHECKERS - sum(row[1:])
        rows.append(row)
    return rows


def dice_from_openspiel(state: Any) -> tuple[int, int]:
    """The two dice of a turn-start state (the last two values of the tensor)."""
    tensor = state.observation_tensor(0)
    return int(tensor[T_DICE]), int(tensor[T_DICE + 1])


def to_gammon(state: Any) -> tuple[gammon.Position, tuple[int, int]]:
    """A turn-start OpenSpiel decision node as a gammon position and roll."""
    rows = rows_from_openspiel(state)
    return gammon.Position.from_checkers(rows, state.current_player()), dice_from_openspiel(state)


def check_conversion(state: Any, position: gammon.Position) -> str | None:
    """Why ``position`` does not match ``state`` by checker totals and pips, or None.

    The OpenSpiel side is read from the observation tensor, a path independent of the
    ``board()`` calls the conversion uses.
    """
    tensor = state.observation_tensor(0)
    for player in (OS_X, OS_O):
        base = player * T_BOARD
        counts = []
        for pos in range(OS_POINTS):
            one, two, three, more = tensor[base + 4 * pos : base + 4 * pos + 4]
            counts.append(int(one + 2 * two + 3 * three + (3 + more if more else 0)))
        bar = int(tensor[T_BAR + 3 * player])
        off = int(tensor[T_OFF + 3 * player])
        total = sum(counts) + bar + off
        if total != OS_CHECKERS:
            return f"OpenSpiel player {player} has {total} checkers"
        if position.off(player) != off or position.bar(player) != bar:
            return f"player {player}: off/bar {position.off(player)}/{position.bar(player)}"
        if sum(position.row(player)) != OS_CHECKERS:
            return f"gammon player {player} has {sum(position.row(player))} checkers"
        pips = 25 * bar + sum(c * gammon_slot(player, pos) for pos, c in enumerate(counts))
        if position.pips(player) != pips:
            return f"player {player}: pips {position.pips(player)} vs OpenSpiel {pips}"
    return None


def openspiel_results(state: Any) -> set[bytes]:
    """Every board OpenSpiel lets the mover reach this turn (a double's halves composed)."""
    mover = state.current_player()
    results: set[bytes] = set()
    frontier = [state]
    for half in range(2):  # a double is two decisions of two moves; anything else is one
        following = []
        for node in frontier:
            for action in node.legal_actions():
                child = node.child(action)
                if half == 0 and child.current_player() == mover:
                    following.append(child)
                else:
                    results.add(bytes(sum(rows_from_openspiel(child), [])))
        frontier = following
    return results


# --- collection ------------------------------------------------------------------


def collect_turn_starts(pyspiel: Any, count: int, seed: int) -> list[Any]:
    """``count`` OpenSpiel decision nodes at the start of a turn, from random games.

    A turn starts at the decision node right after a chance node (the dice just
    thrown). The second half of a double follows a decision node, so it is skipped.
    """
    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < count:
        state = game.new_initial_state()
        after_chance = False
        while not state.is_terminal() and len(states) < count:
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                after_chance = True
            else:
                if after_chance:
                    states.append(state.clone())
                after_chance = False
                state.apply_action(rng.choice(state.legal_actions()))
    return states


# --- timing ----------------------------------------------------------------------


@dataclass
class Rate:
    """How many things were done in how many seconds."""

    count: int
    seconds: float
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def per_second(self) -> float:
        return self.count / self.seconds if self.seconds else 0.0


def time_budget(run_batch: Callable[[int], tuple[int, dict[str, int]]], seconds: float) -> Rate:
    """Call ``run_batch(i)`` until ``seconds`` have passed; sum what it reports."""
    gc.collect()
    totals: dict[str, int] = {}
    done = 0
    i = 0
    start = time.perf_counter()
    while True:
        n, extra = run_batch(i)
        done += n
        for key, value in extra.items():
            totals[key] = totals.get(key, 0) + value
        i += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return Rate(done, elapsed, totals)


def gammon_compiled_playouts(seconds: float, seed: int, batch: int, max_turns: int) -> Rate:
    variant = gammon.variant("backgammon")
    variant.random_playouts(4, seed, max_turns)  # warm-up: compile or load the cache

    def run(i: int) -> tuple[int, dict[str, int]]:
        rows = variant.random_playouts(batch, seed + i, max_turns)
        return batch, {"turns": int(rows[:, 2].sum()), "unfinished": int((rows[:, 0] < 0).sum())}

    return time_budget(run, seconds)


def gammon_python_game(seed: int) -> Callable[[int], tuple[int, dict[str, int]]]:
    """One random game through gammon's game protocol, as a batch of one."""
    variant = gammon.variant("backgammon")
    rng = random.Random(seed)

    def run(_: int) -> tuple[int, dict[str, int]]:
        state = variant.initial_state()
        while not state.is_terminal:
            if state.is_chance:
                state = state.apply(state.sample_chance(rng))
            else:
                state = state.apply(rng.choice(state.legal_actions()))
        return 1, {"turns": state.moves}

    run(0)  # warm-up
    return run


def openspiel_game(pyspiel: Any, seed: int) -> Callable[[int], tuple[int, dict[str, int]]]:
    """One random game of OpenSpiel's backgammon driven from Python, as a batch of one."""
    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    choice = rng.choice

    def run(_: int) -> tuple[int, dict[str, int]]:
        state = game.new_initial_state()
        turns = decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                # OpenSpiel's chance outcomes are equally likely (30 at the opening,
                # 36 ordered rolls after), so a uniform choice draws them exactly.
                state.apply_action(choice(state.chance_outcomes())[0])
                turns += 1
            else:
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
        return 1, {"turns": turns, "decisions": decisions}

    run(0)  # warm-up
    return run


def adapter_game(pyspiel: Any, seed: int) -> Callable[[int], tuple[int, dict[str, int]]]:
    """One random game of gammon's backgammon as an OpenSpiel game (the adapter,
    ``gammon_backgammon``: a turn in checker steps), driven as :func:`openspiel_game`
    drives OpenSpiel's own (its chance outcomes are not equally likely, so they are
    drawn by their probabilities)."""
    from gammon.envs.openspiel import register_games

    register_games()
    game = pyspiel.load_game("gammon_backgammon")
    rng = random.Random(seed)

    def run(_: int) -> tuple[int, dict[str, int]]:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([o for o, _ in outcomes],
                                               [p for _, p in outcomes])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        return 1, {"decisions": decisions}

    run(0)  # warm-up
    return run


def interleaved(runs: list[Callable[[int], tuple[int, dict[str, int]]]], seconds: float,
                slice_seconds: float = 1.0) -> list[Rate]:
    """Each of ``runs`` for ``seconds`` in all, taking turns in slices of
    ``slice_seconds``, so that the machine's drift hits every one alike."""
    rates = [Rate(0, 0.0, {}) for _ in runs]
    while rates[0].seconds < seconds:
        for run, rate in zip(runs, rates, strict=True):
            part = time_budget(run, min(slice_seconds, seconds))
            rate.count += part.count
            rate.seconds += part.seconds
            for key, value in part.extra.items():
                rate.extra[key] = rate.extra.get(key, 0) + value
    return rates


def legal_actions_rates(
    variant: Any,
    os_states: list[Any],
    positions: list[tuple[gammon.Position, tuple[int, int]]],
    seconds: float,
    min_rounds: int,
) -> tuple[Rate, Rate]:
    """Alternate rounds of gammon and OpenSpiel legal_actions() over the same positions."""
    os_rate = Rate(0, 0.0)
    gm_rate = Rate(0, 0.0, {"plays": 0})
    os_rate.extra["actions"] = 0
    # Warm-up: the first call of the kernel from Python pays for dispatch setup.
    variant.state(*positions[0]).legal_actions()
    os_states[0].legal_actions()
    rounds = 0
    while rounds < min_rounds or min(gm_rate.seconds, os_rate.seconds) < seconds / 2:
        fresh = [variant.state(position, dice) for position, dice in positions]
        gc.collect()
        start = time.perf_counter()
        for state in fresh:
            state.legal_actions()
        gm_rate.seconds += time.perf_counter() - start
        gm_rate.count += len(fresh)
        if rounds == 0:
            gm_rate.extra["plays"] = sum(len(state.legal_actions()) for state in fresh)
        del fresh
        gc.collect()
        start = time.perf_counter()
        for state in os_states:
            state.legal_actions()
        os_rate.seconds += time.perf_counter() - start
        os_rate.count += len(os_states)
        if rounds == 0:
            os_rate.extra["actions"] = sum(len(state.legal_actions()) for state in os_states)
        rounds += 1
    gm_rate.extra["rounds"] = os_rate.extra["rounds"] = rounds
    return gm_rate, os_rate


# --- report ----------------------------------------------------------------------


def versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for name in ("gammon", "open_spiel", "numba", "numpy"):
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "?"
    return found


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cpus, {platform.system()} {platform.release()}"


def verdict(ratio: float, target: float) -> str:
    return "PASS" if ratio >= target else "FAIL"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds",
        type=float,
        default=5.0,
        help="time budget of each playout measurement (default 5)",
    )
    parser.add_argument(
        "--legal-seconds",
        type=float,
        default=4.0,
        help="time spent calling legal_actions, both sides together (default 4)",
    )
    parser.add_argument(
        "--positions",
        type=int,
        default=2000,
        help="turn-start positions for legal_actions (default 2000)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="at least this many rounds over the positions (default 3)",
    )
    parser.add_argument(
        "--check",
        type=int,
        default=300,
        help="positions whose reachable results are compared (default 300)",
    )
    parser.add_argument(
        "--batch", type=int, default=256, help="games per compiled playout call (default 256)"
    )
    parser.add_argument(
        "--max-turns",
        type=int,
        default=10_000,
        help="turn limit of a compiled playout (default 10000)",
    )
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument(
        "--json", action="store_true", help="print the table on stderr and one JSON line on stdout"
    )
    parser.add_argument(
        "--strict", action="store_true", help="exit with status 1 when a target is missed"
    )
    args = parser.parse_args(argv)

    from rich.console import Console
    from rich.table import Table

    console = Console(stderr=args.json)
    pyspiel = _pyspiel()
    variant = gammon.variant("backgammon")

    # Positions, conversion and its checks come first: a wrong conversion would make
    # the legal_actions comparison meaningless.
    with console.status("collecting OpenSpiel turn starts..."):
        os_states = collect_turn_starts(pyspiel, args.positions, args.seed)
        positions = [to_gammon(state) for state in os_states]
    problems = []
    for i, (state, (position, _)) in enumerate(zip(os_states, positions, strict=True)):
        reason = check_conversion(state, position)
        if reason:
            problems.append(f"position {i}: {reason}")
    if problems:
        console.print("[red]conversion from OpenSpiel is wrong:[/red]", *problems[:10], sep="\n")
        return 2
    doubles = sum(d1 == d2 for _, (d1, d2) in positions)
    same = {"non-doubles": [0, 0], "doubles": [0, 0]}
    openspiel_extra = 0  # OpenSpiel allows more: it checks dice use per half of a double
    with console.status("comparing legal results on a subset..."):
        for state, (position, dice) in list(zip(os_states, positions, strict=True))[: args.check]:
            ours = {play.result.board for play in variant.state(position, dice).legal_actions()}
            theirs = openspiel_results(state)
            kind = "doubles" if dice[0] == dice[1] else "non-doubles"
            same[kind][1] += 1
            if ours == theirs:
                same[kind][0] += 1
            elif kind == "doubles" and ours < theirs:
                openspiel_extra += 1
            else:
                console.print(
                    f"[red]legal results differ[/red] for dice {dice}: "
                    f"{len(ours - theirs)} only in gammon, {len(theirs - ours)} only in OpenSpiel"
                )
                return 2

    with console.status(f"gammon compiled playouts ({args.seconds:g} s)..."):
        compiled = gammon_compiled_playouts(args.seconds, args.seed, args.batch, args.max_turns)
    with console.status(f"OpenSpiel and gammon Python API random games, taking turns "
                        f"({args.seconds:g} s each)..."):
        spiel, python_api, adapter = interleaved(
            [openspiel_game(pyspiel, args.seed), gammon_python_game(args.seed),
             adapter_game(pyspiel, args.seed)], args.seconds)
    with console.status("legal_actions()..."):
        gm_legal, os_legal = legal_actions_rates(
            variant, os_states, positions, args.legal_seconds, args.rounds
        )

    playout_ratio = compiled.per_second / spiel.per_second
    api_ratio = python_api.per_second / spiel.per_second
    adapter_ratio = adapter.per_second / spiel.per_second
    legal_ratio = gm_legal.per_second / os_legal.per_second

    table = Table(title="gammon vs OpenSpiel backgammon, same machine, same run")
    table.add_column("measure")
    table.add_column("gammon", justify="right")
    table.add_column("OpenSpiel", justify="right")
    table.add_column("ratio", justify="right")
    table.add_column("target", justify="right")
    table.add_column("", justify="center")

    def mark(ratio: float, target: float) -> str:
        text = verdict(ratio, target)
        return f"[green]{text}[/green]" if text == "PASS" else f"[red]{text}[/red]"

    table.add_row(
        "playouts, games/s (compiled)",
        f"{compiled.per_second:,.0f}",
        f"{spiel.per_second:,.0f}",
        f"{playout_ratio:.2f}x",
        f">= {PLAYOUT_TARGET:g}x",
        mark(playout_ratio, PLAYOUT_TARGET),
    )
    table.add_row(
        "playouts, games/s (Python API)",
        f"{python_api.per_second:,.0f}",
        f"{spiel.per_second:,.0f}",
        f"{api_ratio:.2f}x",
        f">= {API_TARGET:g}x",
        mark(api_ratio, API_TARGET),
    )
    table.add_row(
        "games/s, gammon_backgammon in pyspiel",
        f"{adapter.per_second:,.0f}",
        f"{spiel.per_second:,.0f}",
        f"{adapter_ratio:.2f}x",
        f">= {ADAPTER_TARGET:g}x",
        mark(adapter_ratio, ADAPTER_TARGET),
    )
    table.add_row(
        "legal_actions() calls/s",
        f"{gm_legal.per_second:,.0f}",
        f"{os_legal.per_second:,.0f}",
        f"{legal_ratio:.2f}x",
        f">= {LEGAL_TARGET:g}x",
        mark(legal_ratio, LEGAL_TARGET),
    )
    table.add_row(
        "  microseconds per call",
        f"{1e6 / gm_legal.per_second:.1f}",
        f"{1e6 / os_legal.per_second:.1f}",
        "",
        "",
        "",
    )
    console.print(table)

    def per_game(rate: Rate, key: str) -> float:
        return rate.extra.get(key, 0) / rate.count if rate.count else 0.0

    n = len(positions)
    unfinished = compiled.extra["unfinished"]
    console.print(
        f"playouts: {compiled.count:,} compiled games in {compiled.seconds:.1f} s "
        f"({per_game(compiled, 'turns'):.1f} turns/game, {unfinished} unfinished); "
        f"{spiel.count:,} OpenSpiel games in {spiel.seconds:.1f} s "
        f"({per_game(spiel, 'turns'):.1f} turns, "
        f"{per_game(spiel, 'decisions'):.1f} decisions/game); "
        f"{python_api.count:,} Python API games in {python_api.seconds:.1f} s; "
        f"{adapter.count:,} adapter games ({per_game(adapter, 'decisions'):.1f} step "
        f"decisions/game) in {adapter.seconds:.1f} s"
    )
    console.print(
        f"legal_actions: {n} turn starts ({doubles} doubles), {gm_legal.extra['rounds']} rounds; "
        f"{gm_legal.extra['plays'] / n:.1f} gammon plays vs "
        f"{os_legal.extra['actions'] / n:.1f} OpenSpiel actions per call "
        "(OpenSpiel lists half a double's moves)"
    )
    console.print(
        f"conversion: checker totals and pips agree on all {n}; reachable results identical on "
        f"{same['non-doubles'][0]}/{same['non-doubles'][1]} non-doubles and "
        f"{same['doubles'][0]}/{same['doubles'][1]} doubles"
        + (
            f" (on {openspiel_extra} doubles OpenSpiel also allows plays using fewer dice than "
            "possible: it checks dice use per half)"
            if openspiel_extra
            else ""
        )
    )
    info = versions()
    console.print(f"{machine()}; " + ", ".join(f"{k} {v}" for k, v in info.items()), style="dim")

    passed = (playout_ratio >= PLAYOUT_TARGET and api_ratio >= API_TARGET
              and legal_ratio >= LEGAL_TARGET)
    if args.json:
        result = {
            "benchmark": "openspiel",
            "machine": machine(),
            "versions": info,
            "settings": {k: v for k, v in vars(args).items() if k not in ("json", "strict")},
            "playouts": {
                "gammon_compiled": {"games_per_s": compiled.per_second, **asdict(compiled)},
                "openspiel": {"games_per_s": spiel.per_second, **asdict(spiel)},
                "gammon_python": {"games_per_s": python_api.per_second, **asdict(python_api)},
                "ratio": playout_ratio,
                "target": PLAYOUT_TARGET,
                "pass": playout_ratio >= PLAYOUT_TARGET,
                "python_api_ratio": api_ratio,
                "python_api_target": API_TARGET,
                "python_api_pass": api_ratio >= API_TARGET,
                "gammon_adapter": {"games_per_s": adapter.per_second, **asdict(adapter)},
                "adapter_ratio": adapter_ratio,
                "adapter_target": ADAPTER_TARGET,
            },
            "legal_actions": {
                "positions": n,
                "doubles": doubles,
                "gammon": {"calls_per_s": gm_legal.per_second, **asdict(gm_legal)},
                "openspiel": {"calls_per_s": os_legal.per_second, **asdict(os_legal)},
                "ratio": legal_ratio,
                "target": LEGAL_TARGET,
                "pass": legal_ratio >= LEGAL_TARGET,
            },
            "conversion_check": {
                "positions": n,
                "results_compared": {k: {"same": a, "of": b} for k, (a, b) in same.items()},
                "openspiel_allows_more_on_doubles": openspiel_extra,
            },
            "pass": passed,
        }
        print(json.dumps(result), flush=True)
    return 1 if args.strict and not passed else 0


if __name__ == "__main__":
    sys.exit(main())
