"""examples/maskable_ppo.py without torch: its duels (what it reports the trained policy
by) run on the Gymnasium env's step encoding with nothing but the env's own masks, and
training without torch or sb3-contrib stops with what to install. The training itself
needs the learn extra (sb3-contrib, torch) and runs in `make learn`."""

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


#: Run in a fresh interpreter: importing torch or sb3_contrib fails (whether or not they
#: are installed), then the example runs with the given arguments.
WITHOUT_TORCH = """\
import importlib.abc, runpy, sys

class Missing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("torch", "sb3_contrib"):
            raise ImportError(f"No module named {name!r}")
        return None

sys.meta_path.insert(0, Missing())
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def test_training_without_torch_stops_naming_the_learn_extra_and_the_cpu_wheel(tmp_path):
    """It died on a bare ModuleNotFoundError; now it exits with status 1 and says how to
    install the learn extra, and torch's CPU wheel (the default one brings CUDA), before
    any duel or file."""
    script = ROOT / "examples" / "maskable_ppo.py"
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_TORCH, str(script), "--variant", "hypergammon",
         "--timesteps", "10", "--eval-games", "2", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    assert "No module named 'torch'" in done.stderr
    assert "pip install -e '.[learn]'" in done.stderr
    assert "pip install torch --index-url https://download.pytorch.org/whl/cpu" in done.stderr
    assert "points per game" not in done.stdout and not list(tmp_path.iterdir())
