"""Bots in games with the stakes layer: cube decisions, resignations, plays.

A :class:`gammon.stakes.CubeState` wraps a game state and adds decisions about the cube
(double or roll; take, drop, beaver, raccoon) and answers to resignations. A bot meets
them through :func:`stakes_decision`: the cube and resignation answers come from its
evaluator's cubeless chances and the thresholds of :class:`~gammon.agents.cube.
CubePolicy` (the match score and cube value from the state); a play is chosen on the
wrapped game state, where the bot's search works as in a game without stakes (the
search itself is cubeless). Bots never offer to resign.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gammon.agents.base import ChanceEvaluator
from gammon.agents.cube import CubePolicy, action_kind, cube_choice
from gammon.stakes.cube import CubeState


def wrapped(state: Any) -> Any | None:
    """The wrapped game state when ``state`` is a stakes state whose decision is a play
    of the wrapped game, else None."""
    if not isinstance(state, CubeState):
        return None
    if state.offer is not None or state.preroll or state.resignation is not None:
        return None
    return state.base


def chances(evaluator: Any, state: CubeState, player: int) -> tuple[float, float]:
    """``player``'s cubeless chance to win and equity (points per cube value) at a
    stakes state, from the evaluator (gammons count single under the Jacoby rule or
    "no mars with the cube")."""
    base = state.base
    position = base.position
    to_move = position.turn
    if isinstance(evaluator, ChanceEvaluator):
        board = np.frombuffer(position.board, np.int8)[None, :]
        win0, g0, g1 = (float(x[0]) for x in evaluator.chances(board, to_move))
    else:  # any evaluator: expected points only
        value = float(evaluator.evaluate([base])[0][0])
        win0, g0, g1 = min(max((value + 1.0) / 2.0, 0.0), 1.0), 0.0, 0.0
    win = win0 if player == 0 else 1.0 - win0
    mine, theirs = (g0, g1) if player == 0 else (g1, g0)
    if state.jacoby_applies or state.no_mars_applies:
        mine = theirs = 0.0
    equity = win * (1.0 + mine) - (1.0 - win) * (1.0 + theirs)
    return win, equity


def stakes_decision(state: Any, evaluator: Any, policy: CubePolicy | None = None) -> Any | None:
    """The bot's answer at a cube or resignation decision of a stakes state, else None."""
    if not isinstance(state, CubeState):
        return None
    player = state.current_player
    assert player is not None  # a decision
    legal = list(state.legal_actions())
    if state.resignation is not None:
        resigner, level = state.resignation
        _, equity = chances(evaluator, state, player)
        accept = level >= equity
        for action in legal:
            if str(action) == ("accept" if accept else "reject"):
                return action
        return legal[0]
    if state.offer is None and not state.preroll:
        return None
    policy = policy or CubePolicy()
    win, equity = chances(evaluator, state, player)
    score = state.score
    cube = state.cube_value if state.offer is None else state.offer.stake
    if score.length:
        mine = score.away(player)
        theirs = score.away(1 - player)
    else:
        mine = theirs = 0
    if state.offer is not None:  # answering: the offer's maker is the doubler
        choice = cube_choice(legal, win, equity, policy, doubler_away=theirs, taker_away=mine,
                             cube=cube, crawford=score.crawford)
    else:
        choice = cube_choice(legal, win, equity, policy, doubler_away=mine, taker_away=theirs,
                             cube=cube, crawford=score.crawford)
    if choice is None:
        choice = next((a for a in legal if action_kind(a) in ("no double", "take")), legal[0])
    return choice


def resolve(state: Any, evaluator: Any, policy: CubePolicy | None = None
            ) -> tuple[Any | None, Any]:
    """For an agent's ``choose``: ``(answer, None)`` at a cube or resignation decision;
    else ``(None, state to play in)``: the wrapped game state for a play under stakes,
    ``state`` itself otherwise."""
    answer = stakes_decision(state, evaluator, policy)
    if answer is not None:
        return answer, None
    base = wrapped(state)
    return None, (state if base is None else base)
