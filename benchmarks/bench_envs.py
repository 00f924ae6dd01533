"""PettingZoo's own ``performance_benchmark`` on every variant's AEC environment.

It steps random legal actions for five seconds a variant through
:func:`gammon.envs.env` (the Python engine behind the adapter) and prints steps per
second as PettingZoo counts them (every agent's step, the finished agents' included).
``make test`` runs PettingZoo's checkers (``api_test``, ``seed_test``); this is the
benchmark beside them (docs/envs.md has the last figures).

Usage::

    .venv/bin/python benchmarks/bench_envs.py              # every variant, ~65 s
    .venv/bin/python benchmarks/bench_envs.py backgammon acedrex
"""

from __future__ import annotations

import contextlib
import io
import sys
import warnings

from pettingzoo.test import performance_benchmark
from rich.console import Console
from rich.table import Table

from gammon.core.variant import variant_names
from gammon.envs import env


def steps_per_second(name: str) -> float:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        performance_benchmark(env(name))
    return float(out.getvalue().split(" turns per second")[0].split()[-1])


def main(names: list[str]) -> None:
    table = Table("variant", "steps/s", title="PettingZoo performance_benchmark")
    for name in names or variant_names():
        table.add_row(name, f"{steps_per_second(name):,.0f}")
    Console().print(table)


if __name__ == "__main__":
    main(sys.argv[1:])
