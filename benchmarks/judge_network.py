"""A candidate backgammon network judged against the shipped one on the benchmark's
positions (issue 48: each generation of targets is measured, by checker error rather than
by the fit's equity error).

    .venv/bin/python benchmarks/judge_network.py runs/gen2/backgammon.npz
        [--plies 0,1,2] [--jobs 2] [--limit N] [--sets checker] [--json FILE]

The candidate is a main network only; it is read with the shipped networks beside it
(the race and crashed networks and the pruning network, ``NAME.race.npz`` and the like),
so that the two differ in the main network alone: a folder of its own holds the
candidate as ``backgammon.npz`` and links to the shipped siblings. Then
``benchmarks/error_rate.py`` measures ``neural:P`` of both side by side, on the same
positions, in one run, and the candidate's checker error less the shipped network's is
given at each ply with its 95% interval, from the two losses of each position (paired:
most of the spread of the losses is the positions', which both meet alike).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import error_rate  # noqa: E402

import gammon  # noqa: E402
from gammon.nn import PRUNE, WEIGHTS, load_network  # noqa: E402
from gammon.nn.kinds import KINDS, sibling  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("candidate", type=Path, help="the main network file to judge")
    parser.add_argument("--plies", default="0,1,2", help="the neural plies measured")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, help="only the first N positions of each set")
    parser.add_argument("--sets", default="checker", help="checker, cube or both")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    plies = [p.strip() for p in args.plies.split(",") if p.strip()]
    differences = judge(args.candidate, plies, args.jobs, args.limit, args.sets, args.json)
    print("\nCandidate less shipped, checker error (thousandths a decision, paired):")
    for ply, (mean, half) in differences.items():
        print(f"  neural:{ply}: {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]")
    return 0


def judge(candidate: Path, plies: list[str], jobs: int = 2, limit: int | None = None,
          sets: str = "checker", json_file: Path | None = None
          ) -> dict[str, tuple[float, float]]:
    """The candidate's and the shipped network's error rates side by side (printed), and
    at each ply the candidate's checker error less the shipped one's with its 95%
    interval's half-width (:func:`error_rate.paired_difference`)."""
    load_network(gammon.variant("backgammon"), candidate)  # a backgammon network
    shipped = WEIGHTS / "backgammon.npz"
    with tempfile.TemporaryDirectory(prefix="judge-") as folder:
        main_file = Path(folder) / "backgammon.npz"
        main_file.symlink_to(candidate.resolve())
        for suffix in (*KINDS, PRUNE):
            if sibling(shipped, suffix).exists():
                sibling(main_file, suffix).symlink_to(sibling(shipped, suffix))
        agents = [f"neural:{p}" for p in plies] + [f"neural:{p}:net={main_file}"
                                                   for p in plies]
        figures_file = json_file or Path(folder) / "figures.json"
        forwarded = ["--agents", ",".join(agents), "--jobs", str(jobs), "--sets", sets,
                     "--json", str(figures_file)]
        if limit:
            forwarded += ["--limit", str(limit)]
        print(f"shipped: neural:P; candidate {candidate}: neural:P:net={main_file}")
        error_rate.main(forwarded)
        losses = {f["agent"]: f["checker_losses"]
                  for f in json.loads(figures_file.read_text())}
        return {ply: error_rate.paired_difference(losses[f"neural:{ply}:net={main_file}"],
                                                  losses[f"neural:{ply}"])
                for ply in plies}


if __name__ == "__main__":
    sys.exit(main())
