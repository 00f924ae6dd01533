"""Solve hypergammon with one and two checkers a side exactly, and write the tables that
ship (gammon/evaluators/data/hypergammon-N.npz; gammon.evaluators.exact).

    .venv/bin/python benchmarks/solve_hypergammon.py [--checkers 1 2]

Three checkers are too large to ship: `gammon solve 3` builds that table on the machine
that uses it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gammon.evaluators.exact import DATA, write_table  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkers", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args(argv)
    for checkers in args.checkers:
        began = time.monotonic()
        path = DATA / f"hypergammon-{checkers}.npz"
        table, sweeps = write_table(checkers, path)
        known = int(np.count_nonzero(~np.isnan(table[:, 0])))
        print(f"hypergammon-{checkers}: {known} positions, {sweeps} sweeps, "
              f"{time.monotonic() - began:.0f} s: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
