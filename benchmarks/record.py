"""The speed record: `make bench`'s ratios, one line a run, with the commit they measure.

Reads the JSON lines that ``bench_openspiel.py --json`` and ``bench_vector.py --json``
print (the last line of each output file) and appends one line to
``benchmarks/speed-record.jsonl``: the commit, the date, the machine, and each ratio to
its anchor measured in the same run (OpenSpiel's backgammon). A regression then shows as
a line in that file, beside the commit that made it; commit the line with the change it
measures.

Usage::

    python benchmarks/record.py OPENSPIEL_JSON VECTOR_JSON [--record FILE]
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
from pathlib import Path
from typing import Any

RECORD = Path(__file__).with_name("speed-record.jsonl")


def last_json(path: Path) -> dict[str, Any]:
    """The last line of ``path`` that is a JSON object (what a benchmark's --json ends
    with); ValueError naming the file when there is none."""
    for line in reversed(path.read_text().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            value = json.loads(line)
            if isinstance(value, dict):
                return value
    raise ValueError(f"{path}: no JSON line (run the benchmark with --json)")


def ratios(openspiel: dict[str, Any], vector: dict[str, Any]) -> dict[str, float]:
    """Each figure of issue 46's table as its ratio to OpenSpiel in the same run."""
    playouts, legal = openspiel["playouts"], openspiel["legal_actions"]
    # The games of plain money play, as OpenSpiel's (bench_vector.py names the best of
    # them): a match game with the cube is shorter, a drop ends it, so its games/s is no
    # comparable figure.
    best = next(row for row in vector["rows"] if row["name"] == vector["best"])
    found = {"python_api_games": round(playouts["python_api_ratio"], 3),
             "legal_actions_calls": round(legal["ratio"], 3),
             "compiled_playouts": round(playouts["ratio"], 3),
             "vector_env_games": round(best["games_ratio"], 3)}
    if "adapter_ratio" in playouts:  # measured since issue 46's adapter work
        found["openspiel_adapter_games"] = round(playouts["adapter_ratio"], 3)
    return found


def commit() -> str:
    found = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True,
                           text=True, cwd=Path(__file__).parent)
    return found.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("openspiel", type=Path)
    parser.add_argument("vector", type=Path)
    parser.add_argument("--record", type=Path, default=RECORD)
    args = parser.parse_args(argv)
    openspiel = last_json(args.openspiel)
    line = {"commit": commit(), "date": datetime.date.today().isoformat(),
            "machine": openspiel.get("machine", ""),
            **ratios(openspiel, last_json(args.vector))}
    with args.record.open("a") as record:
        record.write(json.dumps(line) + "\n")
    print(f"{args.record}: " + ", ".join(f"{k} {v}" for k, v in line.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
