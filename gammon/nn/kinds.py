"""Kinds of position, each with a network of its own (as gnubg has them).

A backgammon position is one of three games in turn: a **contact** game, where
checkers can still be hit and every point matters; a **race**, once neither side has a
checker behind one of the other's (nothing can be hit again: the dice and the pips
decide); and the **bearoff**, once both sides have every checker left on their own six
home points, which the databases answer exactly (:mod:`gammon.evaluators.bearoff`). A
network trained on all positions spends little of itself on races, and a race is
better learnt from races alone (gnubg's race network is its own). So a network file
``NAME.npz`` may have a sibling ``NAME.race.npz``: the evaluator reads it for the rows
that are races and not bearoffs, and the main network for the rest
(:class:`gammon.nn.evaluator.NeuralEvaluator`).

The kinds apply to the games where the contact features do (two sides running in
opposite directions on 24 points, hitting: :func:`gammon.nn.encoders.contact_applies`):
backgammon and nackgammon.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gammon.core.errors import InvalidOptionError

#: The kinds that may have a network of their own (each its file's suffix).
RACE = "race"
CRASHED = "crashed"
KINDS = (RACE, CRASHED)
#: A side with this many checkers or fewer left to play with has crashed.
CRASH = 6
#: Slots of a side in the board rows of the games the kinds apply to: off, 24 points, bar.
SLOTS = 26
POINTS = 24
HOME = 6


def _backs(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each side's rearmost occupied point (its own numbering, 0 when none; the bar
    counts as 25)."""
    rows = np.asarray(boards[:, : 2 * SLOTS], np.int64).reshape(-1, 2, SLOTS)
    held = rows[:, :, 1:] > 0  # points 1..24, then the bar
    depth = np.arange(1, SLOTS)
    backs = np.where(held, depth, 0).max(axis=2)
    return backs[:, 0], backs[:, 1], rows


def races(boards: np.ndarray) -> np.ndarray:
    """Which board rows are races: no checker on either bar and no checker of either
    side behind one of the other's (a side's rearmost point, in its own numbering, and
    the other's add up to 25 at most)."""
    mine, theirs, _ = _backs(boards)
    return mine + theirs <= POINTS + 1


def bearoffs(boards: np.ndarray) -> np.ndarray:
    """Which board rows have both sides' checkers all on their own home points (or
    borne off): the bearoff databases' rows."""
    mine, theirs, _ = _backs(boards)
    return (mine <= HOME) & (theirs <= HOME)


def sibling(path: Path, kind: str) -> Path:
    """The file of ``kind``'s network beside the main network file ``path``."""
    return path.with_name(f"{path.stem}.{kind}{path.suffix}")


def checked(kind: str) -> str:
    """``kind`` if it is one of :data:`KINDS`, else :class:`InvalidOptionError` naming
    them."""
    if kind not in KINDS:
        raise InvalidOptionError(f"unknown kind of position {kind!r}; the kinds with a "
                                 f"network of their own: {', '.join(KINDS)}")
    return kind


def crashed(boards: np.ndarray) -> np.ndarray:
    """Which board rows are crashed: still in contact, and a side has at most
    :data:`CRASH` checkers left to play with, not counting the ones buried deep in its
    home (every checker of a 1-point holding two or more, and all but one of a 2-point
    holding two or more). Its board has collapsed onto its last points: the other side
    moves freely, and the play is of another kind than a contact game's."""
    rows = _backs(boards)[2]
    left = rows[:, :, 1:].sum(axis=2)
    ace, deuce = rows[:, :, 1], rows[:, :, 2]
    buried = np.where(ace >= 2, ace, 0) + np.where(deuce >= 2, deuce - 1, 0)
    return ~races(boards) & (left - buried <= CRASH).any(axis=1)


def select(kind: str, boards: np.ndarray) -> np.ndarray:
    """The rows of ``boards`` that ``kind``'s network is for: a race that is not yet a
    bearoff, or a crashed contact position."""
    if checked(kind) == RACE:
        return races(boards) & ~bearoffs(boards)
    return crashed(boards)
