"""Helpers for the tests that compare the engine with GNU Backgammon (gnubg).

gnubg runs as separate processes (``gnubg -q -t -p tests/gnubg_scripts/legal_driver.py``)
that read a JSON job file and write a JSON result file; see that script's docstring. Each
query costs gnubg about 10 ms of wall time, nearly all of it waiting, so the jobs are
split over a few processes that run side by side.

* :func:`require_gnubg` finds the binary (``$GNUBG``, ``gnubg`` on the PATH, or
  Debian's ``/usr/games/gnubg``); without it a test is skipped on a developer's machine
  and fails in CI (``CI`` set), where ``make test`` has installed it.
* :func:`to_gnubg` and :func:`from_gnubg` convert between a two-player
  :class:`gammon.Position` (the player on turn to move) and gnubg's board layout.
* :func:`gnubg_legal_plays` runs the jobs and returns gnubg's plays for each.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from gammon.agents.gnubg import gnubg_path

DRIVER = Path(__file__).resolve().parent / "gnubg_scripts" / "legal_driver.py"

#: gnubg's ``set variation`` name for each variant of ours it knows.
VARIATIONS = {
    "backgammon": "standard",
    "nackgammon": "nackgammon",
    "hypergammon-1": "1-chequer-hypergammon",
    "hypergammon-2": "2-chequer-hypergammon",
    "hypergammon-3": "3-chequer-hypergammon",
}


def require_gnubg() -> str:
    """The gnubg executable. Without one, the calling test is skipped, except in CI
    (``CI`` set), where a missing gnubg is a failure: the comparisons must run there."""
    path = gnubg_path()
    if path is None:
        why = ("GNU Backgammon is not installed (looked for $GNUBG, gnubg on the PATH and "
               "/usr/games/gnubg); `make test` installs it, or: apt-get install gnubg")
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    return path


def to_gnubg(position) -> list[list[int]]:
    """gnubg's board for ``position``: (side not on roll, side on roll), 25 counts each."""
    mover = position.turn
    return [list(position.row(1 - mover)[1:]), list(position.row(mover)[1:])]


def from_gnubg(board, position) -> bytes:
    """The engine's board bytes for gnubg's ``board`` (same player on turn as
    ``position``, which also gives each side's number of checkers)."""
    mover = position.turn
    rows = [None, None]
    for side, player in ((0, 1 - mover), (1, mover)):
        counts = list(board[side])
        if len(counts) != 25 or min(counts) < 0:
            raise ValueError(f"not a gnubg board row: {counts}")
        off = sum(position.row(player)) - sum(counts)
        if off < 0:
            raise ValueError(f"gnubg's row {counts} holds more checkers than player {player}")
        rows[player] = [off, *counts]
    return bytes(rows[0] + rows[1])


def run_gnubg(
    driver: Path, jobs: list, processes: int = 1, timeout: float = 120.0
) -> tuple[list, float]:
    """Run the gnubg script ``driver`` over ``jobs`` in ``processes`` gnubg processes.

    Each process reads its share of the jobs as JSON from the file named by
    ``GAMMON_GNUBG_JOBS`` and writes one result per job to ``GAMMON_GNUBG_OUT``.
    Returns the results in order and the wall time taken. Raises RuntimeError if gnubg
    is missing or a process fails.
    """
    gnubg = gnubg_path()
    if gnubg is None:
        raise RuntimeError("gnubg is not installed")
    processes = max(1, min(processes, len(jobs)))
    bounds = [len(jobs) * i // processes for i in range(processes + 1)]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="gammon-gnubg-") as tmp:
        running = []
        for i in range(processes):
            job_file = Path(tmp, f"jobs{i}.json")
            out_file = Path(tmp, f"out{i}.json")
            job_file.write_text(json.dumps(jobs[bounds[i] : bounds[i + 1]]))
            env = {
                **os.environ,
                "GAMMON_GNUBG_JOBS": str(job_file),
                "GAMMON_GNUBG_OUT": str(out_file),
            }
            process = subprocess.Popen(
                [gnubg, "-q", "-t", "-p", str(driver)],
                cwd=tmp,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            running.append((process, out_file))
        results: list = []
        try:
            for process, out_file in running:
                remaining = max(1.0, timeout - (time.perf_counter() - started))
                _, stderr = process.communicate(timeout=remaining)
                if process.returncode != 0 or not out_file.exists():
                    raise RuntimeError(
                        f"gnubg exited with {process.returncode}: {stderr.strip()[-2000:]}"
                    )
                results.extend(json.loads(out_file.read_text()))
        finally:
            for process, _ in running:
                if process.poll() is None:
                    process.kill()
                    process.wait()
    if len(results) != len(jobs):
        raise RuntimeError(f"gnubg answered {len(results)} of {len(jobs)} jobs")
    return results, time.perf_counter() - started


def gnubg_legal_plays(
    jobs: list[dict], processes: int = 2, timeout: float = 120.0
) -> tuple[list[dict], float]:
    """Every legal play of each job's position and dice, from gnubg (see the driver)."""
    return run_gnubg(DRIVER, jobs, processes, timeout)
