"""What the network thinks of a position: every play rated, and the cube decision.

:func:`rate_plays` rates every legal play of a state the way gnubg's hint does: all of
them at 0 ply by the variant's network, and the best ``width`` (less those more than
``cutoff`` behind) again at ``plies`` plies of expectimax; each play's equity (points
for the mover, or a Multi-Gam seat's expected score) is from the deepest search it had.
For two-player games each play also has the network's probabilities of the results
(win, win a gammon, win a backgammon, lose a gammon, lose a backgammon) in the position
it leads to, from the mover's side.

:func:`rate_cube` gives the cube decision before a roll: the cubeful equities of no
double, double/take and double/pass (Janowski's model in money play, the match equity
table in a match; :mod:`gammon.agents.cube`) from the network's chances, looked at one
roll ahead when ``plies`` is 1 or more, and the decision in gnubg's words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gammon.agents.base import play_rows
from gammon.agents.cube import CENTRE, CubeView
from gammon.agents.search import BoardSearch, make_search
from gammon.agents.stakes import view_of
from gammon.agents.state_search import StateSearch
from gammon.core.play import Play
from gammon.kernels.search import game_ends
from gammon.nn.evaluator import NeuralEvaluator, flip, outcome_targets
from gammon.notation import move_text_for
from gammon.stakes.cube import CubeState

#: Candidates searched at more than 0 ply, and how far behind the best they may be.
WIDTH = 8
CUTOFF = 0.16


@dataclass(frozen=True)
class Rated:
    """One play with its rating."""

    action: Any
    text: str
    equity: float
    plies: int
    probs: tuple[float, ...] = ()


def rate_plays(state: Any, evaluator: NeuralEvaluator, plies: int = 0, width: int = WIDTH,
               cutoff: float | None = CUTOFF, search: Any = None) -> list[Rated]:
    """Every legal play of ``state`` (a DECIDE state of a track game) rated, best first."""
    rules = state.variant
    search = search if search is not None else make_search(rules, evaluator)
    legal = list(state.legal_actions())
    if isinstance(search, BoardSearch):
        base = search.scores(state, 0, len(legal))
        deep = search.scores(state, plies, width, cutoff) if plies else base
    else:
        assert isinstance(search, StateSearch)
        _, base, _ = search.decide(state, 0, len(legal))
        _, deep, _ = search.decide(state, plies, width, cutoff) if plies else (None, base, None)
    searched = np.isfinite(deep)
    equity = np.where(searched, deep, base)
    probs = _probabilities(state, evaluator, legal)
    rows = play_rows(state.legal_actions())
    if plies and isinstance(search, BoardSearch) and probs and probs[0] and rows is not None:
        # The chances of the plays searched deeper, from the same search as their equity.
        mover = state.position.turn
        chosen = np.flatnonzero(searched)
        boards = np.ascontiguousarray(rows[chosen, : evaluator.size])
        ahead = flip(outputs_ahead(search, evaluator, boards, 1 - mover, plies))
        for i, row in zip(chosen, ahead, strict=True):
            probs[i] = tuple(float(x) for x in row)
    text = move_text_for(rules)

    def written(action: Any) -> str:
        if isinstance(action, Play):
            return text.format_action(action) if action.moves else "no move"
        return str(action)

    rated = [Rated(a, written(a), float(equity[i]), plies if searched[i] else 0, probs[i])
             for i, a in enumerate(legal)]
    rated.sort(key=lambda r: (-r.plies, -r.equity))
    return rated


def outputs_ahead(search: BoardSearch, evaluator: NeuralEvaluator, boards: np.ndarray,
                  to_roll: int, depth: int) -> np.ndarray:
    """The network's result probabilities (win, win gammon, win backgammon, lose gammon,
    lose backgammon) of boards with ``to_roll`` to roll, from that side, ``depth`` rolls
    ahead: averaged over every roll after the roller's best reply, the replies chosen as
    the search chooses them, so that they are the chances behind its equity."""
    out = np.zeros((len(boards), 5))
    other = 1 - to_roll
    ends = search.ends(boards, other)  # the side that just played is off, or pinned a mother
    for i in np.flatnonzero(ends != -1):
        out[i] = outcome_targets(search.returns(boards[i], int(ends[i])), to_roll,
                                 search.variant)
    live = np.flatnonzero(ends == -1)
    if not len(live):
        return out
    if depth == 0:
        out[live] = evaluator.outputs(boards[live], to_roll)
        return out
    replies = search.best_replies(boards[live], to_roll)
    count, rolls, size = replies.shape
    theirs = outputs_ahead(search, evaluator, replies.reshape(-1, size), other, depth - 1)
    mine = flip(theirs).reshape(count, rolls, 5)
    out[live] = np.einsum("r,krj->kj", search.probs, mine)
    return out


def _probabilities(state: Any, evaluator: NeuralEvaluator,
                   legal: Sequence[Any]) -> list[tuple[float, ...]]:
    """The network's result probabilities after each play, from the mover's side
    (two-player games; empty otherwise)."""
    rows = play_rows(state.legal_actions())
    if evaluator.players != 2 or rows is None:
        return [() for _ in legal]
    mover = state.position.turn
    boards = np.ascontiguousarray(rows[:, : evaluator.size])
    ends = np.empty(len(boards), np.int64)
    game_ends(boards, mover, state.variant.kernel.rules, ends)
    out = flip(evaluator.outputs(boards, 1 - mover))
    counts = 2 * state.variant.slots
    result: list[tuple[float, ...]] = []
    for i in range(len(legal)):
        if ends[i] != -1:
            winner = int(ends[i])
            value = (evaluator.terminal_value(boards[i, :counts].tobytes(), winner).tolist()
                     if winner >= 0 else [0.0, 0.0])
            result.append(tuple(float(x) for x in outcome_targets(value, mover,
                                                                  state.variant)))
        else:
            result.append(tuple(float(x) for x in out[i]))
    return result


@dataclass(frozen=True)
class CubeHint:
    """The cube decision before a roll: the doubler's equities and the decision."""

    chances: Any
    view: CubeView
    decision: str
    units: str  # "points" (per cube value) or "match winning chance"


def rate_cube(state: CubeState, evaluator: NeuralEvaluator, plies: int = 1) -> CubeHint:
    """The cube decision of the player on roll at ``state`` (before the roll)."""
    player = state.base.position.turn
    search = make_search(state.base.variant, evaluator) if plies else None
    mine, view = view_of(state, evaluator, player, search, plies)
    if view.double:
        decision = "Double, take" if view.taker_takes else "Double, pass"
        if not state.score.length and view.taker_takes and state.stakes.beaver \
                and view.take < 0:
            decision = "Double, beaver"
    elif not view.taker_takes and view.no_double > view.drop:
        decision = "Too good to double, pass"
    elif not view.taker_takes:
        decision = "No double, pass"
    else:
        decision = "No double, take"
    units = "match winning chance" if state.score.length else "points per cube"
    if state.cube_owner is not None and state.cube_owner != player:
        decision = "The cube is the opponent's: no double"
    return CubeHint(mine, view, decision, units)


__all__ = ["CENTRE", "CubeHint", "Rated", "rate_cube", "rate_plays"]
