"""Kinds of position, each with a network of its own (as gnubg has them).

A backgammon position is one of a few games in turn: a **contact** game, where
checkers can still be hit and every point matters; a **crashed** one, a contact game
where one side's board has collapsed onto its last points; a **race**, once neither
side has a checker behind one of the other's (nothing can be hit again: the dice and the
pips decide); and the **bearoff**, once both sides have every checker left on their own
six home points, which the databases answer exactly (:mod:`gammon.evaluators.bearoff`).
A network trained on all positions spends little of itself on races or crashed boards,
and each is better learnt from its own positions (gnubg has a network for each). So a
network file ``NAME.npz`` may have siblings ``NAME.race.npz`` and ``NAME.crashed.npz``:
the evaluator reads each for its rows (a race's once it is not a bearoff), and the main
network for the rest (:class:`gammon.nn.evaluator.NeuralEvaluator`).

The kinds apply to the games where the contact features do (two sides running in
opposite directions on 24 points, hitting: :func:`gammon.nn.encoders.contact_applies`):
backgammon and nackgammon.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from gammon.core.errors import InvalidOptionError
from gammon.kernels.cache import refresh_when_changed

#: The kinds that may have a network of their own (each its file's suffix).
RACE = "race"
CRASHED = "crashed"
KINDS = (RACE, CRASHED)
#: Each board row's kind as :func:`kind_codes` numbers it, and the names of the codes.
CONTACT_CODE, RACE_CODE, CRASHED_CODE, BEAROFF_CODE = 0, 1, 2, 3
KIND_NAMES = ("contact", RACE, CRASHED, "bearoff")
CODES = {RACE: RACE_CODE, CRASHED: CRASHED_CODE}
#: A side with this many checkers or fewer left to play with has crashed.
CRASH = 6
#: Slots of a side in the board rows of the games the kinds apply to: off, 24 points, bar.
SLOTS = 26
POINTS = 24
HOME = 6


@njit(cache=True)
def _kind_codes(boards, out):
    for i in range(boards.shape[0]):
        backs = 0  # the two sides' rearmost points, added
        home = True
        crashed = False
        for side in range(2):
            at = side * SLOTS
            left = 0
            back = 0
            for point in range(1, SLOTS):  # points 1..24, then the bar as 25
                count = boards[i, at + point]
                left += count
                if count > 0:
                    back = point
            ace, deuce = boards[i, at + 1], boards[i, at + 2]
            buried = (ace if ace >= 2 else 0) + (deuce - 1 if deuce >= 2 else 0)
            crashed = crashed or left - buried <= CRASH
            home = home and back <= HOME
            backs += back
        if home:
            out[i] = BEAROFF_CODE
        elif backs <= POINTS + 1:
            out[i] = RACE_CODE
        elif crashed:
            out[i] = CRASHED_CODE
        else:
            out[i] = CONTACT_CODE


def kind_codes(boards: np.ndarray) -> np.ndarray:
    """Each board row's kind, one pass over the rows in compiled code:

    - **bearoff** (:data:`BEAROFF_CODE`): both sides' checkers all on their own home
      points or borne off, the bearoff databases' rows;
    - **race**: no checker on either bar and no checker of either side behind one of the
      other's (a side's rearmost point, in its own numbering, and the other's add up to
      25 at most), and not a bearoff;
    - **crashed**: still in contact, and a side has at most :data:`CRASH` checkers left
      to play with, not counting the ones buried deep in its home (every checker of a
      1-point holding two or more, and all but one of a 2-point holding two or more):
      its board has collapsed onto its last points, the other side moves freely, and
      the play is of another kind than a contact game's;
    - **contact**: the rest.
    """
    rows = np.ascontiguousarray(boards[:, : 2 * SLOTS], np.int8)
    out = np.empty(rows.shape[0], np.int8)
    _kind_codes(rows, out)
    return out


def races(boards: np.ndarray) -> np.ndarray:
    """Which board rows are races (bearoffs included: a bearoff is a race too)."""
    codes = kind_codes(boards)
    return (codes == RACE_CODE) | (codes == BEAROFF_CODE)


def bearoffs(boards: np.ndarray) -> np.ndarray:
    """Which board rows the bearoff databases answer."""
    return kind_codes(boards) == BEAROFF_CODE


def crashed(boards: np.ndarray) -> np.ndarray:
    """Which board rows are crashed contact positions."""
    return kind_codes(boards) == CRASHED_CODE


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


def select(kind: str, boards: np.ndarray) -> np.ndarray:
    """The rows of ``boards`` that ``kind``'s network is for: a race that is not yet a
    bearoff, or a crashed contact position."""
    return kind_codes(boards) == CODES[checked(kind)]


# The kernel above is kept compiled on disk: recompiled when this module changes.
refresh_when_changed(globals())
