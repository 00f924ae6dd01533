"""Random playouts per variant: whole games per second on one core, with the gammon
package alone.

Each variant in :data:`CASES` plays random games through its own
``variant.random_playouts`` (the compiled kernel: a uniform choice among the distinct
legal plays each turn) for a fixed time budget after a warm-up call, so numba's
compilation or the loading of its cache is not counted. numba runs these loops on one
thread, so the rate is one core's: the table gives games per second of wall-clock time
and per second of the process's CPU time, which is the one-core rate even on a machine
busy with other work. A case with a target prints PASS or FAIL by the CPU-time rate.

Usage::

    python benchmarks/bench_variants.py                    # rich table
    python benchmarks/bench_variants.py --seconds 10 long-nardy caucasian
    python benchmarks/bench_variants.py --json --strict    # table on stderr, JSON on stdout
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import gammon


@dataclass(frozen=True)
class Case:
    """One line of the table: a variant with options, and its target (games/s) if any."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    target: float | None = None

    @property
    def label(self) -> str:
        extra = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.name} ({extra})" if extra else self.name


#: The variants measured, in order. Add a line for each new variant.
CASES = [
    Case("long-nardy", target=1000),
    Case("long-nardy", {"koks": True, "last_roll": True}),
    Case("short"),
    Case("caucasian"),
    Case("backgammon"),
    Case("portes", target=1000),
    Case("tavla", target=1000),
    Case("plakoto", target=1000),
    Case("plakoto", {"pinned_holds_bear_off": False}),
    Case("tapa", target=1000),
    Case("fevga", target=1000),
    Case("fevga", {"start_quarter": False, "six_block": False}),
    Case("moultezim", target=1000),
    Case("gul-bara", target=1000),
    Case("gul-bara", {"unplayed": "opponent"}),
    Case("acedrex", target=200),
    Case("acey-deucey", target=1000),
    Case("acey-deucey-restrictive", target=1000),
    Case("multi-gam", target=1000),
]


@dataclass
class Measured:
    case: Case
    games: int
    seconds: float
    cpu_seconds: float
    plays: int
    unfinished: int

    @property
    def rate(self) -> float:
        return self.games / self.seconds

    @property
    def cpu_rate(self) -> float:
        return self.games / self.cpu_seconds

    @property
    def verdict(self) -> str:
        if self.case.target is None:
            return ""
        return "PASS" if self.cpu_rate >= self.case.target else "FAIL"


def measure(case: Case, seconds: float, batch: int, seed: int, max_turns: int) -> Measured:
    rules = gammon.variant(case.name, **case.options)
    rules.random_playouts(4, seed, max_turns)  # warm-up: compile or load numba's cache
    games = plays = unfinished = 0
    spent = cpu = 0.0
    round_ = 0
    while spent < seconds:
        began, began_cpu = time.perf_counter(), time.process_time()
        rows = rules.random_playouts(batch, seed + round_, max_turns)
        spent += time.perf_counter() - began
        cpu += time.process_time() - began_cpu
        games += len(rows)
        plays += int(rows[:, 2].sum())
        unfinished += int((rows[:, 0] == -1).sum())
        round_ += 1
    return Measured(case, games, spent, cpu, plays, unfinished)


def machine() -> str:
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, " \
           f"Python {platform.python_version()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", help="only these variants (default: all cases)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="time budget per variant (default 3)")
    parser.add_argument("--batch", type=int, default=200,
                        help="games per compiled playout call (default 200)")
    parser.add_argument("--max-turns", type=int, default=10_000,
                        help="turn limit of a game (default 10000)")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--json", action="store_true",
                        help="print the table on stderr and one JSON line on stdout")
    parser.add_argument("--strict", action="store_true",
                        help="exit with status 1 when a target is missed")
    args = parser.parse_args(argv)

    from rich.console import Console
    from rich.table import Table

    console = Console(stderr=args.json)
    cases = [c for c in CASES if not args.variants or c.name in args.variants]
    if not cases:
        known = ", ".join(dict.fromkeys(c.name for c in CASES))
        console.print(f"[red]no such case[/red]; the cases are: {known}")
        return 2
    results = []
    for case in cases:
        with console.status(f"{case.label}: random playouts ({args.seconds:g} s)..."):
            results.append(measure(case, args.seconds, args.batch, args.seed, args.max_turns))

    table = Table(title="random playouts per variant, one core (target: games/CPU-s)")
    for column, justify in (("variant", "left"), ("games", "right"), ("seconds", "right"),
                            ("games/s", "right"), ("games/CPU-s", "right"),
                            ("plays a game", "right"), ("target", "right"), ("", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for m in results:
        verdict = {"PASS": "[green]PASS[/green]", "FAIL": "[red]FAIL[/red]"}.get(m.verdict, "")
        table.add_row(
            m.case.label, str(m.games), f"{m.seconds:.2f}", f"{m.rate:,.0f}",
            f"{m.cpu_rate:,.0f}", f"{m.plays / m.games:.1f}",
            f"{m.case.target:,.0f}" if m.case.target is not None else "-", verdict,
        )
    console.print(table)
    console.print(machine(), style="dim")
    unfinished = sum(m.unfinished for m in results)
    if unfinished:
        console.print(f"[yellow]{unfinished} games reached the turn limit[/yellow]")
    passed = all(m.verdict != "FAIL" for m in results)
    if args.json:
        print(json.dumps({
            "machine": machine(),
            "seconds_per_variant": args.seconds,
            "results": [
                {"variant": m.case.name, "options": m.case.options, "games": m.games,
                 "seconds": m.seconds, "cpu_seconds": m.cpu_seconds,
                 "games_per_second": m.rate, "games_per_cpu_second": m.cpu_rate,
                 "plays_per_game": m.plays / m.games, "target": m.case.target,
                 "verdict": m.verdict or None}
                for m in results
            ],
            "passed": passed,
        }), flush=True)
    return 1 if args.strict and not passed else 0


if __name__ == "__main__":
    sys.exit(main())
