"""Where the test suite's CPU goes: each test's CPU seconds and wall seconds, counted over
its pytest worker and every process below it (servers, Chromium, bot workers, Ray), so that
a test that waits is told apart from one that works.

As a pytest plugin, one line of JSON a test, a file a worker::

    PYTHONPATH=benchmarks .venv/bin/pytest -p suite_cpu -n auto --dist loadfile \\
        -m 'not slow'                     # writes .suite-cpu/cpu-gw0.jsonl, ...
    .venv/bin/python benchmarks/suite_cpu.py .suite-cpu   # the modules, most CPU first

``make suite-profile`` runs both. A process that leaves the tree (a daemon: PostgreSQL's
server, Ray's own daemons) is not counted; the CPU of children that ended is, through
their parents' ``cutime``.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

#: Where the plugin writes (SUITE_CPU_DIR overrides it).
FOLDER = Path(os.environ.get("SUITE_CPU_DIR", ".suite-cpu"))
TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()  # the fields after the command's name


def tree_cpu(root: int) -> float:
    """CPU seconds of process ``root`` and every process below it, alive or ended (user
    and system, its own and its waited-for children's)."""
    children: dict[int, list[int]] = collections.defaultdict(list)
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None:
            children[int(fields[1])].append(int(entry))
    total, todo, seen = 0.0, [root], set()
    while todo:
        pid = todo.pop()
        if pid in seen or (fields := _stat(pid)) is None:
            continue
        seen.add(pid)
        total += sum(int(x) for x in fields[11:15]) / TICK  # utime stime cutime cstime
        todo += children.get(pid, [])
    return total


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Any:
    cpu, wall = tree_cpu(os.getpid()), time.monotonic()
    yield
    FOLDER.mkdir(exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(FOLDER / f"cpu-{worker}.jsonl", "a") as out:
        out.write(json.dumps({"test": item.nodeid, "cpu": tree_cpu(os.getpid()) - cpu,
                              "wall": time.monotonic() - wall}) + "\n")


def summarize(folder: Path, top: int = 30) -> str:
    """The modules by CPU seconds, with their wall seconds and the share of it working."""
    rows = [json.loads(line) for path in sorted(folder.glob("cpu-*.jsonl"))
            for line in path.read_text().splitlines()]
    cpu: collections.Counter[str] = collections.Counter()
    wall: collections.Counter[str] = collections.Counter()
    for row in rows:
        module = row["test"].split("::")[0]
        cpu[module] += row["cpu"]
        wall[module] += row["wall"]
    lines = [f"{len(rows)} tests: {sum(cpu.values()):.0f} CPU-s, {sum(wall.values()):.0f} "
             "wall-s (summed over the workers)", "   CPU-s  wall-s  working  module"]
    lines += [f"{cpu[m]:8.1f} {wall[m]:7.1f} {cpu[m] / max(wall[m], 1e-9):8.2f}  {m}"
              for m, _ in cpu.most_common(top)]
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, nargs="?", default=FOLDER)
    parser.add_argument("--top", type=int, default=30)
    arguments = parser.parse_args()
    print(summarize(arguments.folder, arguments.top))
