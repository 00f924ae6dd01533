"""Expectimax over plays and rolls, with exact chance probabilities.

``depth`` counts the chance layers looked through after the root decision (gnubg's
"plies"): depth 0 scores the states right after each candidate action; depth 1 averages,
over every roll of the next player with its exact probability, the value after that
player's best reply; depth 2 goes one roll further. A decision inside the tree is made
by the player to act, each maximising their own value (max-n: with two players that is
the opponent minimising ours).

Two engines compute the same thing:

- :class:`BoardSearch`, for two-player track games whose turns simply alternate
  (backgammon, nackgammon, hypergammon, Caucasian, Long Nardy, the tables of Greece and
  Turkey, the pinning games among them). It works on raw board rows (in the games that
  pin, the counts and the pin row; a play that pins the other mother ends the game, as
  :func:`gammon.kernels.search.game_ends` says): for every position to expand it asks
  the move generator for the plays of all 21 rolls, stacks every resulting board into
  one array and scores them with a single evaluator call; best replies per roll are
  found with numpy reductions. Values of expanded positions are cached, keyed by board
  and player to roll.
- :class:`~gammon.agents.state_search.StateSearch`, for everything else (acey-deucey's
  extra rolls and doubles choice, Multi-Gam's four players, Acedrex): the same recursion
  over the game protocol (``chance_outcomes``, ``legal_actions``, ``apply``), scoring
  the children of each decision with one evaluator call; for Acedrex's heuristic it runs
  in compiled code (:mod:`gammon.agents.acedrex_search`).

An inner decision with search depth left searches on from its best reply by the
evaluator alone (as gnubg does); the root keeps the ``width`` best candidates.

**Pruning** (:class:`BoardSearch`, an evaluator with a ``pruning`` evaluator: the
backgammon network's small sibling, docs/networks.md): inside the tree, where only each
roll's best play matters, every play is first scored by the cheap evaluator and only the
:data:`PRUNE_LEAST` + log2(plays) best of each roll are valued by the full one, as
gnubg's pruning networks do. The root's plays are all valued in full.
"""

from __future__ import annotations

import functools
from typing import Any, TypeGuard

import numpy as np

from gammon.agents.base import play_rows
from gammon.agents.state_search import StateSearch, move_filter
from gammon.core.dice import two_dice
from gammon.core.protocol import Rules
from gammon.core.variant import GameState, TrackVariant
from gammon.evaluators.base import BoardEvaluator, Evaluator
from gammon.kernels import kernel_array
from gammon.kernels.search import distinct_rows, expand, game_ends, keep_best

#: The plays of a roll the full evaluator values inside a pruned search, beyond log2 of
#: their number (gnubg's MIN_PRUNE_MOVES: fewer measurably weakened its play).
PRUNE_LEAST = 5


@functools.cache
def roll_table(sides: int) -> tuple[tuple[tuple[int, int], ...], np.ndarray]:
    """The distinct rolls of two dice and their exact probabilities (as floats)."""
    outcomes = two_dice(sides)
    rolls = tuple((r.dice[0], r.dice[1]) for r, _ in outcomes)
    probs = np.array([float(p) for _, p in outcomes])
    return rolls, probs


def board_search_applies(variant: Rules) -> TypeGuard[TrackVariant]:
    """Whether ``variant`` is a two-player track game whose turns simply alternate,
    with two dice each turn: what :class:`BoardSearch` assumes (the games that pin
    included: their rows carry the pin row, and the search asks the turn's end whether
    a play pinned the other mother)."""
    kind = variant.game_type
    return (kind.checkers and kind.players == 2 and kind.turns == "alternate"
            and not kind.last_roll and isinstance(variant, TrackVariant))


class BoardSearch:
    """Expectimax on board rows for simple two-player track games (see module text).

    Values are kept as player 0's expected return (the games are zero-sum).
    """

    def __init__(self, variant: TrackVariant, evaluator: BoardEvaluator,
                 cache_size: int = 200_000) -> None:
        self.variant = variant
        self.evaluator = evaluator
        self.kernel = variant.kernel
        self.slots = variant.slots
        #: Bytes of a board row: the counts, and the pin row in the games that pin.
        self.size = variant.kernel.size
        self.counts = 2 * variant.slots
        #: Bytes of a row the evaluator reads (the heuristic reads the counts alone).
        self.reads = int(getattr(evaluator, "size", self.size))
        #: Whether a play may end the game at the mother (the games that pin).
        self.mother = variant.contact.mother != "none"
        self.checkers = variant.checkers
        self.rolls, self.probs = roll_table(variant.sides)
        self.roll_array = np.array(self.rolls, np.int64)
        self._out = np.empty((0, self.size), np.int8)
        self.cache: dict[tuple[bytes, int, int], float] = {}
        self.cache_size = cache_size
        #: The cheap evaluator that screens the plays inside the tree, if any (module
        #: text); an evaluator that wraps another (match equity) passes its own on.
        self.pruning: BoardEvaluator | None = getattr(evaluator, "pruning", None)

    # --- leaves ------------------------------------------------------------------------

    def finished(self, boards: np.ndarray, player: int | np.ndarray) -> np.ndarray:
        """Which boards, just played by ``player``, end the game: ``player`` has borne
        off completely, or (the games that pin) a mother lies pinned (:meth:`ends`)."""
        if self.mother:
            return self.ends(boards, int(player)) != -1
        if isinstance(player, int | np.integer):
            return boards[:, int(player) * self.slots] == self.checkers
        off = boards[np.arange(boards.shape[0]), np.asarray(player) * self.slots]
        return off == self.checkers

    def ends(self, boards: np.ndarray, mover: int) -> np.ndarray:
        """How each board just played by ``mover`` stands: -1 while the game goes on,
        -2 drawn (both mothers pinned), else the winner (the mover)."""
        if not self.mother:
            return np.where(boards[:, mover * self.slots] == self.checkers, mover, -1)
        out = np.empty(boards.shape[0], np.int64)
        game_ends(kernel_array(boards, np.int8), mover, self.kernel.rules, out)
        return out

    def returns(self, board: np.ndarray, winner: int) -> tuple[float, float]:
        """Each player's result of a board that ended the game with ``winner`` (as
        :meth:`ends` says; -2, a draw, is nothing to either)."""
        if winner < 0:
            return 0.0, 0.0
        value = self.evaluator.terminal_value(board[: self.counts].tobytes(), winner)
        return float(value[0]), float(value[1])

    def readable(self, boards: np.ndarray) -> np.ndarray:
        """The part of board rows the evaluator reads."""
        if self.reads == boards.shape[1]:
            return boards
        return np.ascontiguousarray(boards[:, : self.reads])

    def leaf(self, boards: np.ndarray, mover: int) -> np.ndarray:
        """Player 0's value of boards just played by ``mover`` (the other rolls next)."""
        ends = self.ends(boards, mover)
        done = ends != -1
        if not done.any():
            return self.distinct_values(self.readable(boards), 1 - mover)
        values = np.empty(boards.shape[0])
        live = ~done
        if live.any():
            values[live] = self.distinct_values(self.readable(boards[live]), 1 - mover)
        for i in np.flatnonzero(done):
            values[i] = self.returns(boards[i], int(ends[i]))[0]
        return values

    def kept_leaf(self, boards: np.ndarray, starts: np.ndarray, mover: int) -> np.ndarray:
        """:meth:`leaf` of the plays each roll keeps (``starts``: where each roll's plays
        begin), the others worth minus infinity to ``mover``: with a pruning evaluator,
        the best few of each roll by it (module text), else every play. Each distinct
        board is screened once and valued in full once, whichever rolls keep it."""
        if self.pruning is None:
            return self.leaf(boards, mover)
        n = boards.shape[0]
        ends = self.ends(boards, mover)
        done = ends != -1
        live = np.flatnonzero(~done)
        rows = self.readable(boards[live])
        first, inverse = self.distinct(rows)
        rough = np.empty(n)
        rough[live] = self.pruning.values(rows[first], 1 - mover)[:, 0][inverse]
        for i in np.flatnonzero(done):
            rough[i] = self.returns(boards[i], int(ends[i]))[0]
        sign = 1.0 if mover == 0 else -1.0
        keep = np.empty(n, np.bool_)
        keep_best(sign * rough, starts, PRUNE_LEAST, keep)
        values = np.full(n, -sign * np.inf)
        values[keep & done] = rough[keep & done]
        kept = keep[live]
        wanted = np.zeros(len(first), np.bool_)
        wanted[inverse[kept]] = True
        full = np.zeros(len(first))
        if wanted.any():
            full[wanted] = self.evaluator.values(rows[first[wanted]], 1 - mover)[:, 0]
        values[live[kept]] = full[inverse[kept]]
        return values

    @staticmethod
    def distinct(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The first of each distinct board row, and which of them each row is: a third
        of the boards a search of two rolls values are met again (one play reached by
        several rolls), and a row's value is its own. Rows are told apart by a 64-bit
        hash (:func:`gammon.kernels.search.distinct_rows`; two of a search's hundred
        thousand boards share one once in 10^9 decisions); fewer than 64 rows are taken
        as they are."""
        if len(rows) < 64:
            every = np.arange(len(rows))
            return every, every
        first, inverse = distinct_rows(kernel_array(rows, np.int8))
        return first, inverse

    def distinct_values(self, rows: np.ndarray, to_roll: int) -> np.ndarray:
        """Player 0's value of each board row with ``to_roll`` to roll, each distinct row
        (:meth:`distinct`) valued once."""
        first, inverse = self.distinct(rows)
        values: np.ndarray = self.evaluator.values(rows[first], to_roll)[:, 0]
        return values[inverse]

    # --- expansion ---------------------------------------------------------------------

    def expand(self, boards: np.ndarray, player: int) -> tuple[np.ndarray, np.ndarray]:
        """Every play of ``player`` for every roll from each board: the children stacked
        in one array, and where each (board, roll) group starts. One compiled call
        (:func:`gammon.kernels.search.expand`) does the whole batch."""
        boards = kernel_array(boards, np.int8)
        starts = np.empty(len(boards) * len(self.rolls), np.int64)
        plays, words = self.kernel.workspace()
        while True:
            if self._out.shape[0] < 64 * len(starts):
                self._out = np.empty((64 * len(starts), self.size), np.int8)
            total = expand(boards, player, self.roll_array, self.kernel.rules, plays,
                                   words, self._out, starts)
            if total >= 0:
                return self._out[:total].copy(), starts
            self._out = np.empty((2 * self._out.shape[0], self.size), np.int8)

    # --- values ------------------------------------------------------------------------

    def value(self, boards: np.ndarray, to_roll: int, depth: int) -> np.ndarray:
        """Player 0's value of each board (no one finished) with ``to_roll`` to roll,
        searched ``depth`` >= 1 chance layers."""
        n = boards.shape[0]
        out = np.empty(n)
        keys = [(boards[i].tobytes(), to_roll, depth) for i in range(n)]
        todo = []
        for i, key in enumerate(keys):
            cached = self.cache.get(key)
            if cached is None:
                todo.append(i)
            else:
                out[i] = cached
        if not todo:
            return out
        parents = boards[todo]
        children, starts = self.expand(parents, to_roll)
        sign = 1.0 if to_roll == 0 else -1.0  # the roller maximises sign * value
        leaf = self.kept_leaf(children, starts, to_roll)
        best = np.maximum.reduceat(sign * leaf, starts)
        if depth >= 2:
            # The reply each roll gets (best by the evaluator), searched further.
            groups = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(leaf))))
            hit = sign * leaf == best[groups]
            first = np.flatnonzero(hit)
            _, pos = np.unique(groups[first], return_index=True)
            chosen = first[pos]
            replies = children[chosen]
            done = self.finished(replies, to_roll)
            deeper = leaf[chosen].copy()
            if (~done).any():
                deeper[~done] = self.value(replies[~done], 1 - to_roll, depth - 1)
            best = sign * deeper
        per_roll = (sign * best).reshape(len(todo), len(self.rolls))
        values = per_roll @ self.probs
        if len(self.cache) > self.cache_size:
            self.cache.clear()
        for j, i in enumerate(todo):
            out[i] = values[j]
            self.cache[keys[i]] = values[j]
        return out

    def best_replies(self, boards: np.ndarray, to_roll: int) -> np.ndarray:
        """The board after the roller's best play (by the evaluator) of each roll, from
        each of ``boards``: shape (boards, rolls, board); the rolls in :attr:`rolls`'
        order, with probabilities :attr:`probs`."""
        children, starts = self.expand(boards, to_roll)
        sign = 1.0 if to_roll == 0 else -1.0
        leaf = sign * self.kept_leaf(children, starts, to_roll)
        best = np.maximum.reduceat(leaf, starts)
        groups = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(leaf))))
        first = np.flatnonzero(leaf == best[groups])
        _, pos = np.unique(groups[first], return_index=True)
        return children[first[pos]].reshape(len(boards), len(self.rolls), self.size)

    def board_chances(self, boards: np.ndarray, to_roll: int) -> np.ndarray:
        """Player 0's chance to win and each side's share of gammons (columns) of each
        board with ``to_roll`` to roll, a board whose other side has borne off all its
        checkers counting as that side's win (a gammon when the terminal value is two
        or more)."""
        mover = 1 - to_roll
        ends = self.ends(boards, mover)
        done = ends != -1
        out = np.zeros((len(boards), 3))
        if (~done).any():
            out[~done] = np.stack(self.evaluator.chances(self.readable(boards[~done]),
                                                         to_roll), axis=1)
        for i in np.flatnonzero(done):
            winner = int(ends[i])
            if winner < 0:
                out[i, 0] = 0.5
                continue
            out[i, 0] = 1.0 if winner == 0 else 0.0
            out[i, 1 + winner] = 1.0 if self.returns(boards[i], winner)[winner] >= 2 else 0.0
        return out

    def scores(self, state: GameState, depth: int, width: int,
               cutoff: float | None = None) -> np.ndarray:
        """The mover's value of each legal play of ``state`` (-inf for plays not kept)."""
        mover = state.position.turn
        legal = state.legal_actions()
        rows = play_rows(legal)
        if rows is None:
            rows = self.kernel.plays(state.position.kernel_row, mover, *state.dice,
                                     head_limit=self.variant.head_limit(state))
        boards = np.ascontiguousarray(rows[:, : self.size])
        sign = 1.0 if mover == 0 else -1.0
        base = sign * self.leaf(boards, mover)
        if depth <= 0 or len(boards) == 1:
            return base
        keep = move_filter(base, width, cutoff)
        done = self.finished(boards[keep], mover)
        out = np.full(len(boards), -np.inf)
        out[keep] = base[keep]
        live = keep[~done]
        if len(live):
            out[live] = sign * self.value(boards[live], 1 - mover, depth)
        return out


def make_search(variant: Rules, evaluator: Evaluator, wide: int | None = None
                ) -> BoardSearch | StateSearch:
    """The engine for ``variant``: :class:`BoardSearch` where it applies, the compiled
    search of Acedrex's heuristic (:mod:`gammon.agents.acedrex_search`), else
    :class:`StateSearch` (``wide``: see there)."""
    if board_search_applies(variant) and isinstance(evaluator, BoardEvaluator):
        return BoardSearch(variant, evaluator)
    from gammon.agents.acedrex_search import compiled_search

    return compiled_search(evaluator, wide) or StateSearch(evaluator, wide=wide)


def best_action(search: BoardSearch | StateSearch, state: Any, depth: int, width: int,
                cutoff: float | None = None) -> object:
    """The action the search prefers at ``state`` (the first of equal scores). A board
    search is made for track games alone, so its states are a track game's
    :class:`GameState`, a state search's any :class:`State`; the types do not pair a
    search with its states: Any."""
    if isinstance(search, BoardSearch):  # made only for track games' states
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return legal[int(np.argmax(search.scores(state, depth, width, cutoff)))]
    actions, scores, _ = search.decide(state, depth, width, cutoff)
    return actions[int(np.argmax(scores))]
