"""examples/maskable_ppo.py without torch: its duels (what it reports the trained policy
by) run on the Gymnasium env's step encoding with nothing but the env's own masks. The
training itself needs the learn extra (sb3-contrib, torch) and runs in `make learn`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_examples_duels_run_without_torch_and_report_intervals(tmp_path):
    script = ROOT / "examples" / "maskable_ppo.py"
    code = (
        "import runpy, sys\n"
        f"sys.argv = [{str(script)!r}, '--variant', 'hypergammon', '--baseline-only',\n"
        f"            '--eval-games', '12', '--out', {str(tmp_path)!r}]\n"
        "try:\n"
        "    runpy.run_path(sys.argv[0], run_name='__main__')\n"
        "except SystemExit as end:\n"
        "    assert not end.code, end.code\n"
        "assert 'torch' not in sys.modules and 'sb3_contrib' not in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if "points per game" in line]
    assert len(lines) == 2 and "uniform random steps vs heuristic" in lines[1]
    results = json.loads((tmp_path / "results-hypergammon.json").read_text())
    duels = results["duels"]
    for duel in duels.values():
        assert -3.0 <= duel["points_per_game"] <= 3.0 and duel["interval95"] > 0.0
    # The heuristic bot beats uniformly random steps: the duel measures something.
    assert duels["uniform random steps vs heuristic"]["points_per_game"] < 0.0
