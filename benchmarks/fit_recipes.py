"""Ways of fitting the main backgammon network to teacher-labelled positions, side by
side on the same labels (issue 48, item 3: each generation of targets is measured).

    .venv/bin/python benchmarks/fit_recipes.py --data runs/contact/backgammon.data.npz \\
        runs/gen2/backgammon.data.npz --out runs/recipes \\
        [--recipes finetune,lowrate,blend,distil,fresh256,fresh512,fresh768] [--judge 0,1] \\
        [--seed 2029] [--most N]

The data files are those of ``gammon train --teacher`` runs (``OUT.data.npz``: boards,
sides, the teacher's five outputs, NaN where not labelled yet); their labelled rows are
pooled, and a fiftieth of them held out (fixed by ``--seed``). Each recipe
(:data:`RECIPES`) fits a network to them and is measured three ways: the mean absolute
equity error against the teacher on the held-out rows and on 100,000 of the fitted ones
(their distance says whether more positions or a larger network would help), and
`judge_network.py`'s paired difference of checker error against the shipped network on
the benchmark, at each ply of ``--judge``. The shipped network's own errors open the
table. A recipe whose network is already in ``--out`` is measured, not fitted again, so
a stopped run goes on with the same command.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge_network import judge  # noqa: E402

import gammon  # noqa: E402
from gammon.nn import WEIGHTS, load_network  # noqa: E402
from gammon.nn.evaluator import NeuralEvaluator, neural_evaluator  # noqa: E402
from gammon.nn.network import Network  # noqa: E402
from gammon.training.teacher import (  # noqa: E402
    Adam,
    epoch_rate,
    equity_error,
    fit_epoch,
    hold_out,
)

RULES = gammon.variant("backgammon")
#: Fitted rows the training error is measured on.
TRAIN_SAMPLE = 100_000


@dataclass(frozen=True)
class Recipe:
    """How a network is fitted: Adam at ``rate`` (held, then brought down, as ``gammon
    train`` does) for ``epochs``; from the shipped network's weights (``hidden`` 0) or
    from fresh ones of ``hidden`` units; the target of a labelled row ``blend`` of the
    teacher's and the rest the shipped network's own outputs; with ``distil``, the rows
    not labelled yet are fitted too, to the shipped network's outputs (it keeps what it
    knows where the teacher has not spoken)."""

    rate: float
    epochs: int
    hidden: int = 0
    blend: float = 1.0
    distil: bool = False


RECIPES = {
    "finetune": Recipe(2e-4, 20),
    "lowrate": Recipe(1e-4, 20),
    "blend": Recipe(2e-4, 20, blend=0.5),
    "distil": Recipe(2e-4, 20, distil=True),
    "fresh256": Recipe(1e-3, 30, hidden=256),
    "fresh512": Recipe(1e-3, 30, hidden=512),
    "fresh768": Recipe(1e-3, 30, hidden=768),
}


def pooled(paths: list[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The data files' rows, one after another: boards, sides, labels (NaN: not yet)."""
    parts = []
    for path in paths:
        with np.load(path) as data:
            parts.append((data["boards"], data["turns"].astype(np.int64),
                          np.array(data["labels"])))
    boards, sides, labels = (np.concatenate([part[k] for part in parts]) for k in range(3))
    return boards, sides, labels


def fitted(recipe: Recipe, boards: np.ndarray, sides: np.ndarray, labels: np.ndarray,
           held: np.ndarray, shipped: NeuralEvaluator, seed: int) -> Network:
    """A network fitted by ``recipe`` to every row but the held-out ones."""
    labelled = ~np.isnan(labels[:, 0])
    targets = labels.copy()
    if recipe.blend < 1.0:
        own = shipped.outputs(boards[labelled], sides[labelled])
        targets[labelled] = recipe.blend * targets[labelled] + (1 - recipe.blend) * own
    if recipe.distil:
        targets[~labelled] = shipped.outputs(boards[~labelled], sides[~labelled])
    rows = ~held & (labelled | recipe.distil)
    network = load_network(RULES)
    if recipe.hidden:
        meta = {key: network.meta[key] for key in
                ("name", "variant", "options", "family", "encoder") if key in network.meta}
        network = Network.create(network.inputs, recipe.hidden, network.outputs,
                                 seed=seed, **meta)
    x = shipped.encoder.encode(boards[rows], sides[rows])
    y = np.clip(targets[rows], 0.0, 1.0)
    adam = Adam(network)
    for epoch in range(recipe.epochs):
        rate = epoch_rate(recipe.rate, epoch, recipe.epochs)
        with threadpool_limits(limits=1):
            fit_epoch(network, adam, x, y, rate, 256, np.random.default_rng([seed, epoch]))
        print(f"  epoch {epoch + 1}/{recipe.epochs}", file=sys.stderr, flush=True)
    network.meta["recipe"] = asdict(recipe)
    return network


def errors(network: Network, boards: np.ndarray, sides: np.ndarray, labels: np.ndarray,
           held: np.ndarray) -> tuple[float, float]:
    """The equity error against the teacher on the held-out rows and on a sample of the
    fitted labelled ones."""
    encoder = neural_evaluator(RULES, network).encoder
    labelled = ~np.isnan(labels[:, 0])
    train = np.flatnonzero(~held & labelled)[:TRAIN_SAMPLE]
    y = np.clip(labels, 0.0, 1.0)
    held_out, fitted_rows = (equity_error(network, encoder.encode(boards[rows], sides[rows]),
                                          y[rows]) for rows in (held, train))
    return held_out, fitted_rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, nargs="+", required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--recipes", default=",".join(RECIPES))
    parser.add_argument("--judge", default="0,1", help="plies judged on the benchmark")
    parser.add_argument("--seed", type=int, default=2029)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--most", type=int,
                        help="only the first N labelled positions of the pool count as "
                             "labelled (a run repeated while the labelling goes on)")
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.recipes.split(",") if name.strip()]
    unknown = [name for name in names if name not in RECIPES]
    if unknown:
        parser.error(f"unknown recipe {', '.join(unknown)}; known: {', '.join(RECIPES)}")
    plies = [p.strip() for p in args.judge.split(",") if p.strip()]
    boards, sides, labels = pooled(args.data)
    if args.most is not None:
        labels[np.flatnonzero(~np.isnan(labels[:, 0]))[args.most:]] = np.nan
    held = hold_out(len(boards), args.seed) & ~np.isnan(labels[:, 0])
    shipped = neural_evaluator(RULES, load_network(RULES))
    assert isinstance(shipped, NeuralEvaluator)
    args.out.mkdir(parents=True, exist_ok=True)
    held_out, train = errors(shipped.network, boards, sides, labels, held)
    rows: list[dict] = [{"recipe": "shipped", "hidden": shipped.network.hidden,
                         "held_out": held_out, "train": train}]
    for name in names:
        path = args.out / f"{name}.npz"
        if not path.exists():
            print(f"{name}: fitting {RECIPES[name]}", file=sys.stderr, flush=True)
            fitted(RECIPES[name], boards, sides, labels, held, shipped, args.seed).save(path)
        network = Network.load(path)
        held_out, train = errors(network, boards, sides, labels, held)
        row: dict = {"recipe": name, "hidden": network.hidden, "held_out": held_out,
                     "train": train}
        if plies:
            row["judged"] = judge(path, plies, args.jobs)
        rows.append(row)
    (args.out / "recipes.json").write_text(json.dumps(
        {"data": [str(p) for p in args.data], "labelled": int((~np.isnan(labels[:, 0])).sum()),
         "held_out": int(held.sum()), "shipped": str(WEIGHTS / "backgammon.npz"),
         "rows": rows}, indent=2))
    print(f"\n{int((~np.isnan(labels[:, 0])).sum()):,} labelled positions, "
          f"{int(held.sum()):,} held out; checker error less the shipped network's, "
          "thousandths a decision, 95% interval:")
    print("| recipe | equity error, held out | fitted | "
          + " | ".join(f"neural:{p}" for p in plies) + " |")
    print("|---|---:|---:|" + "---|" * len(plies))
    for row in rows:
        judged = row.get("judged", {})
        cells = [f"{judged[p][0]:+.2f} [{judged[p][0] - judged[p][1]:+.2f}, "
                 f"{judged[p][0] + judged[p][1]:+.2f}]" if p in judged else "" for p in plies]
        print(f"| {row['recipe']} | {row['held_out']:.4f} | {row['train']:.4f} | "
              + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
