"""A small multilayer perceptron, its training step, and its file.

One hidden layer of ``tanh`` units and sigmoid outputs, each output a probability from
the side of the player the inputs are written for (:mod:`gammon.nn.encoders`):

- two-player games, five outputs as gnubg has them: the chance to win, to win a gammon
  (or better), to win a backgammon, to lose a gammon (or worse), to lose a backgammon
  (in the variant's own terms: mars and koks in the nardy games);
- Multi-Gam, one output per seat in turn order from the perspective player: the
  expected score of that seat over the best score.

The network is small (a few hundred inputs, 64 to 256 hidden units): evaluating is one
compiled loop over the rows (:func:`gammon.kernels.network.forward_rows`, summing the
first layer from the non-zero inputs only), and a framework's per-call overhead would
cost more than the arithmetic, so training is written out here too: cross-entropy on
the sigmoid outputs, plain gradient steps (Adam for a teacher's targets,
:mod:`gammon.training.teacher`).

A network is saved as one ``.npz`` file holding the weights and a JSON text of what it
is (family, variant, inputs, outputs) and how it was trained.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from gammon.core.errors import InvalidOptionError
from gammon.kernels import kernel_array
from gammon.kernels.network import forward_rows

FORMAT = "gammon-network"
VERSION = 1


@dataclass
class Network:
    """Weights of an MLP with one hidden layer; ``meta`` says what it is and how it was
    made (JSON-able)."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Writable and contiguous whatever they came from (an .npz file, Ray's shared
        # objects are read-only): trained in place, and one compiled kernel reads them.
        for name in ("w1", "b1", "w2", "b2"):
            setattr(self, name, kernel_array(getattr(self, name), np.float32))

    @classmethod
    def create(cls, inputs: int, hidden: int, outputs: int, seed: int = 0,
               **meta: Any) -> Network:
        """A network with small random weights."""
        rng = np.random.default_rng(seed)
        w1 = rng.normal(0.0, 1.0 / np.sqrt(inputs), (inputs, hidden)).astype(np.float32)
        w2 = rng.normal(0.0, 1.0 / np.sqrt(hidden), (hidden, outputs)).astype(np.float32)
        return cls(w1, np.zeros(hidden, np.float32), w2, np.zeros(outputs, np.float32),
                   dict(meta))

    @property
    def inputs(self) -> int:
        return int(self.w1.shape[0])

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[1])

    @property
    def outputs(self) -> int:
        return int(self.w2.shape[1])

    # --- evaluation ------------------------------------------------------------------

    def forward(self, x: np.ndarray) -> np.ndarray:
        """The outputs (probabilities) for input rows ``x``, in compiled code
        (:func:`gammon.kernels.network.forward_rows`: the rows' non-zero inputs only)."""
        rows = kernel_array(np.atleast_2d(x), np.float32)
        out = np.empty((rows.shape[0], self.outputs), np.float32)
        forward_rows(rows, self.w1, self.b1, np.ascontiguousarray(self.w2.T), self.b2, out)
        return out

    # --- training ----------------------------------------------------------------------

    def train(self, x: np.ndarray, targets: np.ndarray, rate: float) -> float:
        """One gradient step towards ``targets`` (probabilities) for the rows ``x``:
        each row's cross-entropy gradient, summed, times ``rate``. Returns the mean
        squared error before the step."""
        x = np.asarray(x, np.float32)
        hidden = np.tanh(x @ self.w1 + self.b1)
        out = _sigmoid(hidden @ self.w2 + self.b2)
        delta_out = (out - targets).astype(np.float32)  # d loss / d logits
        delta_hidden = (delta_out @ self.w2.T) * (1.0 - hidden * hidden)
        self.w2 -= rate * (hidden.T @ delta_out)
        self.b2 -= rate * delta_out.sum(axis=0)
        self.w1 -= rate * (x.T @ delta_hidden)
        self.b1 -= rate * delta_hidden.sum(axis=0)
        return float(np.mean((out - targets) ** 2))

    # --- files -------------------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Write the network to ``path`` (``.npz``), its description inside."""
        header = {"format": FORMAT, "version": VERSION, **self.meta}
        with Path(path).open("wb") as file:
            np.savez_compressed(file, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2,
                                meta=np.array(json.dumps(header)))

    @classmethod
    def load(cls, path: str | Path) -> Network:
        """A network written by :meth:`save`; :class:`InvalidOptionError` saying what is
        wrong with a file that is not one."""
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                arrays = [np.asarray(data[k], np.float32) for k in ("w1", "b1", "w2", "b2")]
        except FileNotFoundError:
            raise InvalidOptionError(f"no network file {str(path)!r}") from None
        except (OSError, KeyError, ValueError) as error:
            raise InvalidOptionError(f"{str(path)!r} is not a gammon network: {error}") from None
        if meta.get("format") != FORMAT or meta.get("version") != VERSION:
            raise InvalidOptionError(f"{str(path)!r} is not a gammon network (version "
                                     f"{VERSION}): it says {meta.get('format')!r} "
                                     f"{meta.get('version')!r}")
        w1, b1, w2, b2 = arrays
        if not (w1.shape[1] == b1.shape[0] == w2.shape[0] and w2.shape[1] == b2.shape[0]):
            raise InvalidOptionError(f"{str(path)!r}: the layers' shapes do not fit together")
        meta = {k: v for k, v in meta.items() if k not in ("format", "version")}
        return cls(w1, b1, w2, b2, meta)

    def copy(self) -> Network:
        return Network(self.w1.copy(), self.b1.copy(), self.w2.copy(), self.b2.copy(),
                       dict(self.meta))


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))
