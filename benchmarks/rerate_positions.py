"""The benchmark of positions rated again, deeper than gnubg 2-ply: what makes it a
benchmark gnubg 2-ply itself can be measured on (issue 48, item 5).

    .venv/bin/python benchmarks/rerate_positions.py --plies 3 [--window 0.10] [--most 8]
        [--jobs 2] [--positions benchmarks/positions] [--journal .rerate]

`benchmarks/build_positions.py` rated every play at 2 plies. Here, as gnubg's own
analysis does with its move filters, the candidates that matter are rated again at
``--plies`` (3: one chance layer deeper than the 2-ply player it will judge): in each
checker position the plays within ``--window`` points of the best at 2 plies, at most
``--most`` of them (a play that ends the game keeps its exact value). The other plays keep
their 2-ply equity: they are errors of more than the window either way, and their size
moves little with a ply more. Every cube position is rated again whole at ``--plies``
(gnubg's cubeful evaluation, its decision words and equities).

The rows are written back in place, the best play first, each row saying how it was
rated: ``"rated": {"plies": 3, "deep": k}`` (its first plays re-rated, ``k`` of them,
are the ``deep`` ones). Work is journaled, one line a position, in ``--journal``: a run
that is stopped resumes where it was with the same command; the positions are written
back only when all are rated. About 45 minutes of one core for the 2,000 checker positions
at 3 plies (0.2 s a play), 10 for the 500 cube positions.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_positions import RULES, equity  # noqa: E402

from gammon.agents.gnubg import bridge, to_gnubg  # noqa: E402
from gammon.notation import parse_position_id  # noqa: E402
from gammon.notation.movetext import format_play  # noqa: E402

HERE = Path(__file__).resolve().parent / "positions"


def rerate_checker(row: dict, plies: int, window: float, most: int) -> dict:
    """``row`` with its leading plays rated at ``plies`` (module text)."""
    state = RULES.state(parse_position_id(row["position"]), tuple(row["dice"]))
    by_text = {format_play(play): play for play in state.legal_actions()}
    best = row["plays"][0][1]
    chosen = [text for text, value in row["plays"] if value >= best - window][:most]
    deep: dict[str, float] = {}
    asked, boards = [], []
    for text in chosen:
        play = by_text[text]
        after = state.apply(play)
        if after.is_terminal:
            deep[text] = float(after.returns()[state.current_player])
        else:
            asked.append(text)
            boards.append(to_gnubg(play.result.with_turn(1 - state.current_player)))
    if boards:
        answer = bridge().ask({"op": "evaluate_many", "boards": boards, "plies": plies})
        for text, probs in zip(asked, answer["probs"], strict=True):
            deep[text] = -equity(probs)
    rated = sorted(([text, round(value, 5)] for text, value in deep.items()),
                   key=lambda play: -play[1])
    rest = [play for play in row["plays"] if play[0] not in deep]
    return {**row, "plays": rated + rest, "rated": {"plies": plies, "deep": len(rated)}}


def rerate_cube(row: dict, plies: int) -> dict:
    """``row``'s cube decision rated again, whole, at ``plies``."""
    request: dict[str, Any] = {"op": "cube", "board": to_gnubg(parse_position_id(
        row["position"])), "plies": plies}
    if row["match"] is not None:
        request["match"] = row["match"]
    answer = bridge().ask(request)
    return {**row, "decision": answer["decision"],
            "equities": [round(x, 5) for x in answer["equities"]],
            "rated": {"plies": plies}}


def _job(task: tuple[str, int, dict, int, float, int]) -> tuple[str, int, dict]:
    kind, index, row, plies, window, most = task
    if kind == "checker":
        return kind, index, rerate_checker(row, plies, window, most)
    return kind, index, rerate_cube(row, plies)


# --- the journal, shared with rollout_positions.py ----------------------------------------


def load_sets(positions: Path, kinds: Iterable[str] = ("checker", "cube")
              ) -> dict[str, list[dict]]:
    """The benchmark's rows: ``{"checker": [...], "cube": [...]}``, a set not in ``kinds``
    left empty."""
    return {kind: [json.loads(line) for line in
                   (positions / f"{kind}.jsonl").read_text().splitlines()]
            if kind in kinds else [] for kind in ("checker", "cube")}


def read_journal(journal: Path) -> dict[tuple[str, int], dict]:
    """The rows a journal holds, by (kind, index); a line cut short by a stop is skipped."""
    done: dict[tuple[str, int], dict] = {}
    if journal.exists():
        for line in journal.read_text().splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            done[entry["kind"], entry["index"]] = entry["row"]
    return done


def rate_journaled(tasks: list[tuple], job: Callable[[Any], tuple[str, int, dict]],
                   journal: Path, done: dict[tuple[str, int], dict], jobs: int,
                   total: int, every: int = 50) -> None:
    """Run ``job`` on each task (``(kind, index, row, ...)``) in ``jobs`` processes; each
    row it answers goes into ``done`` and, one line a position, into ``journal`` (flushed
    at once: a run stopped anywhere resumes with the same command). A line on standard
    error every ``every`` positions: how many, the time, the rate."""
    journal.parent.mkdir(parents=True, exist_ok=True)
    print(f"{len(done)} rated before, {len(tasks)} to rate", file=sys.stderr, flush=True)
    began = time.monotonic()
    with journal.open("a") as out, ProcessPoolExecutor(jobs) as pool:
        for n, future in enumerate(as_completed(pool.submit(job, t) for t in tasks), 1):
            kind, index, row = future.result()
            done[kind, index] = row
            out.write(json.dumps({"kind": kind, "index": index, "row": row},
                                 separators=(",", ":")) + "\n")
            out.flush()
            if n % every == 0 or n == len(tasks):
                seconds = time.monotonic() - began
                print(f"{len(done)}/{total} rated ({kind} {index}), {seconds:.0f} s, "
                      f"{3600 * n / max(seconds, 1e-9):.1f} positions/h this run",
                      file=sys.stderr, flush=True)


def write_back(positions: Path, sets: dict[str, list[dict]],
               done: dict[tuple[str, int], dict]) -> None:
    """Every set written back in place, each row as rated in ``done`` or as it was."""
    for kind, rows in sets.items():
        rated = [done.get((kind, i), row) for i, row in enumerate(rows)]
        (positions / f"{kind}.jsonl").write_text(
            "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rated))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=3)
    parser.add_argument("--window", type=float, default=0.10)
    parser.add_argument("--most", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--positions", type=Path, default=HERE)
    parser.add_argument("--journal", type=Path, default=Path(".rerate"))
    args = parser.parse_args(argv)
    sets = load_sets(args.positions)
    journal = args.journal / f"plies-{args.plies}.jsonl"
    done = read_journal(journal)
    tasks = [(kind, i, row, args.plies, args.window, args.most)
             for kind, rows in sets.items() for i, row in enumerate(rows)
             if (kind, i) not in done and row.get("rated", {}).get("plies") != args.plies]
    rate_journaled(tasks, _job, journal, done, args.jobs,
                   sum(len(rows) for rows in sets.values()))
    write_back(args.positions, sets, done)
    print(f"every position rated at {args.plies} plies in {args.positions}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
