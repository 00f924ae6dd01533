"""Bots in games with the stakes layer: cube decisions, resignations, plays.

A :class:`gammon.stakes.CubeState` wraps a game state and adds decisions about the cube
(double or roll; take, drop, beaver, raccoon) and answers to resignations. A bot meets
them through :func:`stakes_decision`: the cube and resignation answers come from its
evaluator's cubeless chances turned into cubeful equities (:mod:`gammon.agents.cube`:
Janowski's model for money, the Kazaross-XG2 table for matches); a play is chosen on the
wrapped game state, where the bot's search works as in a game without stakes (the
search itself is cubeless). Bots never offer to resign.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gammon.agents.base import ChanceEvaluator
from gammon.agents.cube import (
    CENTRE,
    ME,
    Chances,
    CubeView,
    action_kind,
    cube_choice,
    cubeful_equity,
    match_view,
    money_view,
)
from gammon.agents.search import BoardSearch
from gammon.stakes.cube import CubeState


def wrapped(state: Any) -> Any | None:
    """The wrapped game state when ``state`` is a stakes state whose decision is a play
    of the wrapped game, else None."""
    if not isinstance(state, CubeState):
        return None
    if state.offer is not None or state.preroll or state.resignation is not None:
        return None
    return state.base


def chances(evaluator: Any, state: CubeState, player: int, search: Any = None) -> Chances:
    """``player``'s cubeless chances at a stakes state, from the evaluator (any evaluator
    gives at least its expected points, read as a chance to win without gammons); one
    roll deeper when ``search`` (a board search) is given."""
    base = state.base
    position = base.position
    to_move = position.turn
    if isinstance(search, BoardSearch) and base.is_chance:
        win0, g0, g1 = search.rolled_chances(position.board, to_move)
    elif isinstance(evaluator, ChanceEvaluator):
        board = np.frombuffer(position.board, np.int8)[None, :]
        win0, g0, g1 = (float(x[0]) for x in evaluator.chances(board, to_move))
    else:
        value = float(evaluator.evaluate([base])[0][0])
        win0, g0, g1 = min(max((value + 1.0) / 2.0, 0.0), 1.0), 0.0, 0.0
    c = Chances(win0, g0, g1)
    if player == 1:
        c = c.flipped()
    return c.single() if state.no_mars_applies else c


def view_of(state: CubeState, c: Chances, doubler: int) -> CubeView:
    """The doubler's view of the cube decision at ``state`` (``c``: the doubler's
    chances): Janowski's money equities, or the match table's chances."""
    score = state.score
    cube = state.cube_value if state.offer is None else state.offer.stake
    owner = CENTRE if state.cube_owner is None else ME
    if score.length:
        return match_view(c, score.away(doubler), score.away(1 - doubler), cube,
                          score.post_crawford, owner, score.crawford)
    return money_view(c, owner, jacoby=state.stakes.jacoby)


def stakes_decision(state: Any, evaluator: Any, search: Any = None) -> Any | None:
    """The bot's answer at a cube or resignation decision of a stakes state, else None
    (``search``: see :func:`chances`)."""
    if not isinstance(state, CubeState):
        return None
    player = state.current_player
    assert player is not None  # a decision
    legal = list(state.legal_actions())
    if state.resignation is not None:
        _, level = state.resignation
        accept = level >= chances(evaluator, state, player).equity
        for action in legal:
            if str(action) == ("accept" if accept else "reject"):
                return action
        return legal[0]
    if state.offer is None and not state.preroll:
        return None
    mine = chances(evaluator, state, player, search)
    answering = state.offer is not None
    doubler = 1 - player if answering else player
    view = view_of(state, mine.flipped() if answering else mine, doubler)
    beaver = None
    if answering and not state.score.length:
        beaver = 2.0 * cubeful_equity(mine, ME)  # the taker's, owning the cube at twice
    choice = cube_choice(legal, view, answering, beaver)
    if choice is None:
        choice = next((a for a in legal if action_kind(a) in ("no double", "take")), legal[0])
    return choice


def resolve(state: Any, evaluator: Any, search: Any = None) -> tuple[Any | None, Any]:
    """For an agent's ``choose``: ``(answer, None)`` at a cube or resignation decision;
    else ``(None, state to play in)``: the wrapped game state for a play under stakes,
    ``state`` itself otherwise."""
    answer = stakes_decision(state, evaluator, search)
    if answer is not None:
        return answer, None
    base = wrapped(state)
    return None, (state if base is None else base)
