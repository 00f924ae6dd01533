"""Bearoff databases: exact values where exactness is cheap, as gnubg builds them.

Once both sides have every checker still in play on their own six home points, the game
is a race that no hit can change, and its values can be tabled outright:

- **Two-sided** (:func:`two_sided`): up to :data:`TWO_SIDED` checkers a side, every pair
  of sides, the exact chance that the side to roll wins under the play that maximises it
  (``W(i, j) = sum over the 21 rolls of P(roll) * max over the plays of 1 - W(j, after)``;
  a play that bears off the last checker wins). With six or fewer checkers left both sides
  have borne off nine or more, so no gammon can happen: the chance is the whole value.
- **One-sided** (:func:`one_sided`): up to 15 checkers, each side alone: the distribution
  of the number of rolls it needs to bear off every checker, playing each roll to need the
  fewest on average (gnubg's one-sided database); and, for a side with none borne off yet,
  the distribution of the rolls to bear off its first (its play then aimed at that: saving
  the gammon). Two such distributions give the race's chances: the side to roll, needing
  ``n`` rolls, wins when the other needs ``n`` or more; it wins a gammon when the other
  also needs ``n`` or more rolls to bear off one checker. Each side playing for its own
  fewest rolls is gnubg's approximation; where the two-sided table reaches, it is exact.

The tables are built from backgammon's compiled move generator
(:func:`gammon.kernels.tracks.generate_plays`), so its rules for bearing off are the
tables', and serve the variants that move by the same compiled rules (nackgammon). They
are kept on disk where :func:`gammon.evaluators.exact.solved_path` keeps the solved
tables: ``gammon prepare`` builds them (about 11 s of a core: two-sided 853,776 pairs,
3.4 MB; one-sided 54,264 sides, 17 MB), else the first bearoff that needs them does.

:class:`Bearoff` gives a network evaluator's five outputs (win, win a gammon, win a
backgammon, lose a gammon, lose a backgammon, for the side on roll) for the board rows
that are bearoffs, and :meth:`Bearoff.apply` puts them in place of the network's: so the
search at every ply, the hints, reviews and rollouts read them.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import os
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from gammon.core.variant import TrackVariant
from gammon.kernels import tracks
from gammon.kernels.cache import refresh_when_changed

__all__ = ["POINTS", "TWO_SIDED", "Bearoff", "bearoff_for", "built", "one_sided", "prepare",
           "sides", "two_sided"]

#: Home points.
POINTS = 6
SLOTS = 26
#: Checkers a side in the two-sided table.
TWO_SIDED = 6
#: Checkers a side in the one-sided table (a whole side).
ONE_SIDED = 15
#: Rolls counted in a one-sided distribution (15 checkers on the six-point need at most
#: 30 rolls of 2-1; the rest is zero).
MAX_ROLLS = 40
#: Each of the 21 rolls with its weight in 36ths.
ROLLS = np.array([(a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)],
                 np.int64)


@functools.cache
def sides(checkers: int) -> tuple[np.ndarray, np.ndarray]:
    """Every side of at most ``checkers`` checkers on the six home points, as counts
    (``(M, 6)``, point 1 first), ordered by pips (the empty side first), and their keys
    (the counts read in base 16) sorted, with the index of each key."""
    found: list[tuple[int, ...]] = [()]
    for _ in range(POINTS):  # one point more at a time, never past ``checkers`` in all
        found = [c + (n,) for c in found for n in range(checkers - sum(c) + 1)]
    counts = np.array(found, np.int64)
    pips = counts @ np.arange(1, POINTS + 1)
    # By pips, then point by point from the ace (np.lexsort's last key leads).
    counts = counts[np.lexsort((*counts.T[::-1], pips))]
    keys = counts @ (16 ** np.arange(POINTS, dtype=np.int64))
    order = np.argsort(keys)
    return counts, np.stack([keys[order], order])


@njit(cache=True, nogil=True)
def _index(row, base, lookup):  # pragma: no cover
    """The index of the side at ``row[base + 1 .. base + 6]`` (-1: not in the table)."""
    key = 0
    for p in range(POINTS - 1, -1, -1):
        key = key * 16 + row[base + 1 + p]
    at = np.searchsorted(lookup[0], key)
    if at < lookup.shape[1] and lookup[0, at] == key:
        return lookup[1, at]
    return -1


@njit(cache=True, nogil=True)
def _children(counts, lookup, rules, plays, words, starts, children):  # pragma: no cover
    """Every play of every roll from each side (player 0, the other side on the bar, out
    of the way): ``children[starts[k * 21 + r] : starts[k * 21 + r + 1]]`` are the sides
    roll ``r`` of side ``k`` can lead to. Returns the children written, or -1 when
    ``children`` is too small."""
    board = np.zeros(2 * SLOTS, np.int8)
    mover, one = np.int64(0), np.int64(1)
    written = 0
    for k in range(counts.shape[0]):
        board[:] = 0
        total = 0
        for p in range(POINTS):
            board[1 + p] = counts[k, p]
            total += counts[k, p]
        board[0] = ONE_SIDED - total
        board[SLOTS + SLOTS - 1] = ONE_SIDED  # the other side on its bar: no point held
        for r in range(21):
            starts[k * 21 + r] = written
            if total == 0:
                continue
            n = tracks.generate_plays(board, mover, ROLLS[r, 0], ROLLS[r, 1], one, rules,
                                      plays, words)
            if written + n > children.shape[0]:
                return -1
            for i in range(n):
                children[written] = _index(plays[i], 0, lookup)
                written += 1
    starts[counts.shape[0] * 21] = written
    return written


def _transitions(rules: TrackVariant, checkers: int) -> tuple[np.ndarray, np.ndarray]:
    counts, lookup = sides(checkers)
    plays, words = rules.kernel.workspace()
    starts = np.empty(counts.shape[0] * 21 + 1, np.int64)
    size = counts.shape[0] * 21 * 8
    while True:
        children = np.empty(size, np.int64)
        written = _children(counts, lookup, rules.kernel.rules, plays, words, starts,
                            children)
        if written >= 0:
            return starts, children[:written]
        size *= 2


@njit(cache=True, nogil=True)
def _two_sided(pips, starts, children):  # pragma: no cover
    """``win[i, j]``: the chance that side ``i``, to roll, beats side ``j``."""
    m = pips.shape[0]
    win = np.zeros((m, m), np.float64)
    sums = np.empty(m * m, np.int64)
    for i in range(m):
        for j in range(m):
            sums[i * m + j] = pips[i] + pips[j]
    order = np.argsort(sums, kind="mergesort")
    for t in range(m * m):
        i, j = order[t] // m, order[t] % m
        if i == 0 or j == 0:
            continue  # a side borne off: the game is over
        total = 0.0
        for r in range(21):
            best = 0.0
            for c in range(starts[i * 21 + r], starts[i * 21 + r + 1]):
                child = children[c]
                value = 1.0 if child == 0 else 1.0 - win[j, child]
                if value > best:
                    best = value
            total += ROLLS[r, 2] * best
        win[i, j] = total / 36.0
    return win


@njit(cache=True, nogil=True)
def _one_sided(counts, starts, children, first):  # pragma: no cover
    """Each side's distribution of the rolls it needs to bear off every checker (or,
    ``first``, its first checker, for the sides with none off), playing each roll for
    the fewest on average."""
    m = counts.shape[0]
    dist = np.zeros((m, MAX_ROLLS), np.float64)
    mean = np.zeros(m, np.float64)
    for k in range(m):
        left = 0
        for p in range(POINTS):
            left += counts[k, p]
        if left == 0 or (first and left < ONE_SIDED):
            dist[k, 0] = 1.0  # done (or, for the first checker, one is off already)
            continue
        for r in range(21):
            best, pick = 1e18, -1
            for c in range(starts[k * 21 + r], starts[k * 21 + r + 1]):
                if mean[children[c]] < best:
                    best, pick = mean[children[c]], children[c]
            weight = ROLLS[r, 2] / 36.0
            mean[k] += weight * (1.0 + best)
            for n in range(1, MAX_ROLLS):
                dist[k, n] += weight * dist[pick, n - 1]
    return dist


@functools.cache
def _fingerprint() -> str:
    """What the tables are built from: backgammon's compiled rules, the move generator's
    source and the builders' here. A change to any of them names new tables, built
    afresh (a change elsewhere in this module does not)."""
    digest = hashlib.sha256(_backgammon().kernel.rules.tobytes())
    digest.update(Path(tracks.__file__).read_bytes())
    for builder in (sides, _index, _children, _transitions, _two_sided, _one_sided):
        digest.update(inspect.getsource(getattr(builder, "py_func", builder)).encode())
    digest.update(repr((POINTS, SLOTS, TWO_SIDED, ONE_SIDED, MAX_ROLLS)).encode())
    return digest.hexdigest()[:12]


def _table_path(name: str) -> Path:
    from gammon.evaluators.exact import solved_path

    return solved_path(0).with_name(f"bearoff-{name}-{_fingerprint()}.npy")


def _cached(name: str, build: Any) -> np.ndarray:
    path = _table_path(name)
    if path.exists():
        try:
            return np.load(path, mmap_mode="r")
        except (OSError, ValueError):
            pass  # a damaged file: built again
    table = np.asarray(build(), np.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    # A name of its own: two processes building at once each write whole files.
    partial = path.with_name(f"{path.stem}.partial-{os.getpid()}.npy")
    np.save(partial, table)
    partial.replace(path)
    for old in path.parent.glob(f"bearoff-{name}-*.npy"):
        if old != path and ".partial" not in old.name:
            old.unlink(missing_ok=True)  # tables of an earlier generator
    return table


def _backgammon() -> TrackVariant:
    from gammon.core.variant import track_variant

    return track_variant("backgammon")


@functools.cache
def two_sided() -> np.ndarray:
    """``W[i, j]`` (float32): side ``i`` of :func:`sides` (``TWO_SIDED``) to roll against
    side ``j``, the chance to win."""
    rules = _backgammon()

    def build() -> np.ndarray:
        counts, _ = sides(TWO_SIDED)
        starts, children = _transitions(rules, TWO_SIDED)
        pips = counts @ np.arange(1, POINTS + 1)
        return _two_sided(pips.astype(np.int64), starts, children)
    return _cached("two-sided", build)


@functools.cache
def one_sided() -> np.ndarray:
    """``D[k, 0 or 1, n]`` (float32): side ``k`` of :func:`sides` (``ONE_SIDED``), the
    chance it needs exactly ``n`` rolls to bear off every checker (0), or its first (1)."""
    rules = _backgammon()

    def build() -> np.ndarray:
        counts, _ = sides(ONE_SIDED)
        starts, children = _transitions(rules, ONE_SIDED)
        return np.stack([_one_sided(counts, starts, children, False),
                         _one_sided(counts, starts, children, True)], axis=1)
    return _cached("one-sided", build)


def applies(rules: Any) -> bool:
    """Whether ``rules`` moves its checkers by backgammon's compiled rules (backgammon,
    nackgammon): the tables are built from those. (Each other rule set would need tables
    of its own, 20 MB and ten seconds of building each.)"""
    return bool(isinstance(rules, TrackVariant) and np.array_equal(
        rules.kernel.rules, _backgammon().kernel.rules))


def built() -> bool:
    """Whether both tables are on disk already."""
    return all(_table_path(name).exists() for name in ("two-sided", "one-sided"))


def prepare() -> None:
    """Build the tables now (``gammon prepare``), where they are not yet on disk."""
    two_sided()
    one_sided()


@njit(cache=True, nogil=True)
def _find(lookup, key):  # pragma: no cover
    at = np.searchsorted(lookup[0], key)
    return lookup[1, at]


@njit(cache=True, nogil=True)
def _any(boards):  # pragma: no cover
    """Whether a row of ``boards`` has every checker of both sides at home."""
    for k in range(boards.shape[0]):
        far = False
        for base in (0, SLOTS):
            for slot in range(POINTS + 1, SLOTS):
                if boards[k, base + slot] != 0:
                    far = True
        if not far:
            return True
    return False


@njit(cache=True, nogil=True)
def _fill(boards, sides, out, small, whole, two, one):  # pragma: no cover
    """Put the tables' outputs in ``out`` for the rows of ``boards`` that are bearoffs
    (each from its side ``sides[k]`` to roll); the number of rows put in."""
    found = 0
    for k in range(boards.shape[0]):
        me = sides[k]
        them = 1 - me
        far = False
        for base in (0, SLOTS):
            for slot in range(POINTS + 1, SLOTS):
                if boards[k, base + slot] != 0:
                    far = True
        if far:
            continue
        mine = theirs = left_me = left_them = 0
        for p in range(POINTS - 1, -1, -1):
            a = boards[k, me * SLOTS + 1 + p]
            b = boards[k, them * SLOTS + 1 + p]
            mine = mine * 16 + a
            theirs = theirs * 16 + b
            left_me += a
            left_them += b
        if left_me == 0 or left_them == 0:
            continue
        found += 1
        for j in range(out.shape[1]):
            out[k, j] = 0.0
        if left_me <= TWO_SIDED and left_them <= TWO_SIDED:
            out[k, 0] = two[_find(small, mine), _find(small, theirs)]
            continue
        i, j = _find(whole, mine), _find(whole, theirs)
        # Tails taken from the end: P(they need n or more rolls), to bear off all and
        # their first; P(I need more than m to bear off my first).
        win = gammon = lose_gammon = 0.0
        tail = tail_first = tail_mine_first = 0.0
        for n in range(MAX_ROLLS - 1, -1, -1):
            tail += one[j, 0, n]
            tail_first += one[j, 1, n]
            win += one[i, 0, n] * tail
            gammon += one[i, 0, n] * tail_first
            lose_gammon += one[j, 0, n] * tail_mine_first
            tail_mine_first += one[i, 1, n]
        out[k, 0] = win
        out[k, 1] = gammon
        out[k, 3] = lose_gammon
    return found


class Bearoff:
    """The tables, read for board rows (module text)."""

    def outputs(self, boards: np.ndarray, to_roll: np.ndarray) -> np.ndarray:
        """The five outputs, for the side ``to_roll`` of each row (every row a bearoff:
        both sides have every checker left on their home points)."""
        out = np.zeros((boards.shape[0], 5), np.float32)
        return self.apply(boards, to_roll, out)

    def apply(self, boards: np.ndarray, to_roll: np.ndarray, out: np.ndarray) -> np.ndarray:
        """``out`` (a network's outputs for ``boards``, ``to_roll``'s side, written in
        place) with the bearoffs' rows put in from the tables."""
        rows = np.ascontiguousarray(boards[:, : 2 * SLOTS], np.int8)
        if not _any(rows):  # the tables are not even opened for the rest of the game
            return out
        turn = np.ascontiguousarray(np.broadcast_to(to_roll, (rows.shape[0],)), np.int64)
        _fill(rows, turn, out, sides(TWO_SIDED)[1], sides(ONE_SIDED)[1], two_sided(),
              one_sided())
        return out


_BEAROFF = Bearoff()


def bearoff_for(rules: Any) -> Bearoff | None:
    """The bearoff tables of ``rules``, or None where they do not apply."""
    return _BEAROFF if applies(rules) else None


# Kernels above inline the move generator: recompile them when it changes.
refresh_when_changed(globals())
