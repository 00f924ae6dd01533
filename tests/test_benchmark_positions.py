"""The benchmark of positions and the error rates measured on it, built small: gnubg at 2
plies, the reference that rated every decision, loses nothing on its own ratings, and a
weaker bot loses something; rated again at 3 plies where it matters, as the benchmark
is."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from gnubg_runner import require_gnubg

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
pytestmark = pytest.mark.gnubg


def test_the_reference_loses_nothing_on_its_own_ratings(tmp_path):
    require_gnubg()
    built = subprocess.run([sys.executable, str(BENCHMARKS / "build_positions.py"),
                            "--checker", "6", "--cube", "2", "--seed", "3",
                            "--out", str(tmp_path)], capture_output=True, text=True,
                           timeout=300)
    assert built.returncode == 0, built.stderr[-2000:]
    rows = [json.loads(line) for line in (tmp_path / "checker.jsonl").read_text().splitlines()]
    assert len(rows) == 6 and all(len(row["plays"]) > 1 for row in rows)
    for row in rows:  # best first, every legal play rated
        values = [value for _, value in row["plays"]]
        assert values == sorted(values, reverse=True)
    measured = subprocess.run([sys.executable, str(BENCHMARKS / "error_rate.py"),
                               "--positions", str(tmp_path), "--agents", "gnubg:2,pubeval",
                               "--jobs", "1", "--json", str(tmp_path / "rates.json")],
                              capture_output=True, text=True, timeout=300)
    assert measured.returncode == 0, measured.stderr[-2000:]
    reference, weaker = json.loads((tmp_path / "rates.json").read_text())
    assert reference["checker_error"] == pytest.approx(0.0, abs=1e-9)
    assert reference["cube_agree"] == 1.0 and reference["doubler_error"] == 0.0
    assert weaker["checker_error"] > 0.0

    # Rated again deeper: the leading plays at 3 plies, best first, each row saying so; a
    # second run finds nothing left to rate.
    rerate = [sys.executable, str(BENCHMARKS / "rerate_positions.py"), "--plies", "3",
              "--window", "0.05", "--most", "2", "--jobs", "1", "--positions", str(tmp_path),
              "--journal", str(tmp_path / "journal")]
    again = subprocess.run(rerate, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr[-2000:]
    deeper = [json.loads(line) for line in
              (tmp_path / "checker.jsonl").read_text().splitlines()]
    assert [row["position"] for row in deeper] == [row["position"] for row in rows]
    for before, after in zip(rows, deeper, strict=True):
        assert 1 <= after["rated"]["deep"] <= 2 and after["rated"]["plies"] == 3
        assert len(after["plays"]) == len(before["plays"])  # every play kept, once
        assert {text for text, _ in after["plays"]} == {text for text, _ in before["plays"]}
        deep = [value for _, value in after["plays"][:after["rated"]["deep"]]]
        assert deep == sorted(deep, reverse=True)
        kept = dict(before["plays"])  # the others keep their 2-ply equity
        assert all(kept[text] == value
                   for text, value in after["plays"][after["rated"]["deep"]:])
    cubes = [json.loads(line) for line in (tmp_path / "cube.jsonl").read_text().splitlines()]
    assert len(cubes) == 2 and all(row["rated"] == {"plies": 3} for row in cubes)
    nothing = subprocess.run(rerate, capture_output=True, text=True, timeout=300)
    assert "0 to rate" in nothing.stderr
    measured = subprocess.run([sys.executable, str(BENCHMARKS / "error_rate.py"),
                               "--positions", str(tmp_path), "--agents", "gnubg:2",
                               "--jobs", "1"], capture_output=True, text=True, timeout=300)
    assert measured.returncode == 0 and "gnubg 3-ply" in measured.stdout, measured.stderr
