"""make bench's speed record (benchmarks/record.py): each run's ratios, one line a run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

RECORD = Path(__file__).parents[1] / "benchmarks" / "record.py"


def test_a_bench_run_appends_its_ratios_with_the_commit(tmp_path):
    openspiel = {"machine": "2 cores", "playouts": {"ratio": 5.25, "python_api_ratio": 0.671},
                 "legal_actions": {"ratio": 1.34}}
    # The matches' row has the most games/s (shorter games: drops end them), but the
    # record keeps plain money play's best, which bench_vector.py names.
    vector = {"rows": [{"name": "OpenSpiel", "games_ratio": 1.0},
                       {"name": "x512, 1 thread", "games_ratio": 2.7},
                       {"name": "x512, 2 threads", "games_ratio": 4.6},
                       {"name": "x512, 1 thread, 7-pt matches", "games_ratio": 7.1}],
              "best": "x512, 2 threads"}
    (tmp_path / "o.json").write_text("a table on the way\n" + json.dumps(openspiel) + "\n")
    (tmp_path / "v.json").write_text(json.dumps(vector) + "\n")
    record = tmp_path / "record.jsonl"
    for _ in range(2):
        subprocess.run([sys.executable, str(RECORD), str(tmp_path / "o.json"),
                        str(tmp_path / "v.json"), "--record", str(record)], check=True,
                       capture_output=True)
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert len(lines) == 2 and lines[0]["commit"]
    assert {k: lines[0][k] for k in ("python_api_games", "legal_actions_calls",
                                     "compiled_playouts", "vector_env_games")} == {
        "python_api_games": 0.671, "legal_actions_calls": 1.34, "compiled_playouts": 5.25,
        "vector_env_games": 4.6}


def test_a_run_without_json_says_so(tmp_path):
    (tmp_path / "o.json").write_text("only a table\n")
    done = subprocess.run([sys.executable, str(RECORD), str(tmp_path / "o.json"),
                           str(tmp_path / "o.json"), "--record", str(tmp_path / "r")],
                          capture_output=True, text=True)
    assert done.returncode != 0 and "no JSON line" in done.stderr
    assert not (tmp_path / "r").exists()
