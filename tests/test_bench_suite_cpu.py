"""The suite's CPU profiler (benchmarks/suite_cpu.py): a test's CPU counts its children's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))

from suite_cpu import summarize  # noqa: E402

BUSY = "import time\nend = time.process_time() + {}\nwhile time.process_time() < end: pass\n"


def test_the_cpu_of_a_tests_child_processes_is_counted_and_a_wait_is_not(tmp_path):
    (tmp_path / "test_two.py").write_text(
        "import subprocess, sys, time\n"
        f"def test_works():\n    subprocess.run([sys.executable, '-c', {BUSY.format(1.0)!r}])\n"
        "def test_waits():\n    time.sleep(1.0)\n")
    folder = tmp_path / "profile"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "suite_cpu", "-p",
                    "no:cacheprovider", str(tmp_path / "test_two.py")], check=True,
                   capture_output=True, cwd=tmp_path,
                   env={"PYTHONPATH": str(Path(__file__).parents[1] / "benchmarks"),
                        "SUITE_CPU_DIR": str(folder), "PATH": "/usr/bin:/bin"})
    rows = {row["test"].split("::")[-1]: row for row in map(
        json.loads, (folder / "cpu-main.jsonl").read_text().splitlines())}
    works, waits = rows["test_works"], rows["test_waits"]
    assert works["cpu"] >= 0.9 and waits["cpu"] < 0.5 <= waits["wall"]
    assert "2 tests" in summarize(folder) and "test_two.py" in summarize(folder)
