"""Bots in games with the stakes layer: cube decisions, resignations, plays.

A :class:`gammon.stakes.CubeState` wraps a game state and adds decisions about the cube
(double or roll; take, drop, beaver, raccoon) and answers to resignations. A bot meets
them through :func:`stakes_decision`: the cube and resignation answers come from its
evaluator's cubeless chances turned into cubeful equities (:mod:`gammon.agents.cube`:
Janowski's model for money, the Kazaross-XG2 table for matches), at the position itself
or, for a bot that searches, as many rolls ahead as it searches (two at most: the
cubeful search of :func:`gammon.agents.cube.view_ahead`); a play is chosen on the
wrapped game state, where the bot's search works as in a game without stakes (the
search of plays itself is cubeless). Bots never offer to resign.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gammon.agents.cube import (
    CENTRE,
    ME,
    Ahead,
    Chances,
    CubeView,
    MatchStakes,
    MoneyStakes,
    Score,
    action_kind,
    cube_choice,
    efficiency,
    view_ahead,
)
from gammon.agents.search import BoardSearch
from gammon.agents.state_search import StateSearch
from gammon.core.protocol import State
from gammon.core.variant import GameState, TrackVariant
from gammon.evaluators.base import ChanceEvaluator, Evaluator
from gammon.kernels import writable_boards
from gammon.nn.encoders import contact_applies
from gammon.stakes.cube import CubeState, stakes_of


def wrapped(state: State) -> GameState | None:
    """The wrapped game state when ``state`` is a stakes state whose decision is a play
    of the wrapped game, else None."""
    stakes = stakes_of(state)
    if stakes is None:
        return None
    if stakes.offer is not None or stakes.preroll or stakes.resignation is not None:
        return None
    return stakes.base


def chances(evaluator: Evaluator | ChanceEvaluator, state: CubeState, player: int
            ) -> Chances:
    """``player``'s cubeless chances at a stakes state, from the evaluator (any evaluator
    gives at least its expected points, read as a chance to win without gammons)."""
    base = state.base
    position = base.position
    to_move = position.turn
    if isinstance(evaluator, ChanceEvaluator):
        board = writable_boards(position.board, len(position.board))
        win0, g0, g1 = (float(x[0]) for x in evaluator.chances(board, to_move))
    else:
        value = float(evaluator.evaluate([base])[0][0])
        win0, g0, g1 = min(max((value + 1.0) / 2.0, 0.0), 1.0), 0.0, 0.0
    c = Chances(win0, g0, g1)
    if player == 1:
        c = c.flipped()
    return c.single() if state.no_mars_applies else c


def efficiencies(variant: TrackVariant, boards: np.ndarray, to_roll: int) -> np.ndarray:
    """The cube efficiency of each board with ``to_roll`` on roll
    (:func:`gammon.agents.cube.efficiency`): race and bear-off are backgammon's notions,
    so elsewhere every position counts as one with contact."""
    boards = np.asarray(boards, np.int64)
    if not contact_applies(variant):
        return np.full(len(boards), efficiency(False, False, 0))
    slots = variant.slots
    own, opp = boards[:, :slots], boards[:, slots:]
    index = np.arange(slots)
    back = np.where(own > 0, index, 0).max(axis=1)
    their_back = np.where(opp > 0, index, 0).max(axis=1)
    race = back + their_back <= variant.points
    bearoff = (back <= variant.home) & (their_back <= variant.home)
    pips = (boards[:, to_roll * slots:(to_roll + 1) * slots] * index).sum(axis=1)
    return np.array([efficiency(bool(r), bool(b), int(n))
                     for r, b, n in zip(race, bearoff, pips, strict=True)])


#: How many rolls a cube decision looks ahead at most (each roll multiplies the
#: positions by 21).
CUBE_DEPTH = 2


def lookahead(state: CubeState, doubler: int, search: BoardSearch, depth: int) -> Ahead:
    """The tree a cube decision reads ``depth`` rolls deep: from the doubler's position
    before the roll, each roll played by the search's evaluator, the sides taking turns;
    at each position the doubler's chances and the cube efficiency."""
    variant = state.base.variant
    single = state.no_mars_applies
    probs = [float(p) for p in search.probs]

    def build(rows: np.ndarray, to_roll: int, left: int) -> list[Ahead]:
        table = search.board_chances(rows, to_roll)
        xs = efficiencies(variant, rows, to_roll)
        over = search.finished(rows, 1 - to_roll)
        rolls: list[tuple[tuple[float, Ahead], ...]] = [()] * len(rows)
        live = np.flatnonzero(~over) if left else np.empty(0, np.int64)
        if len(live):
            replies = search.best_replies(rows[live], to_roll)
            count = replies.shape[1]
            kids = build(replies.reshape(-1, rows.shape[1]), 1 - to_roll, left - 1)
            for j, i in enumerate(live):
                rolls[i] = tuple(zip(probs, kids[j * count:(j + 1) * count], strict=True))
        nodes = []
        for (win0, g0, g1), x, done, below in zip(table, xs, over, rolls, strict=True):
            c = Chances(float(win0), float(g0), float(g1))
            c = c.flipped() if doubler == 1 else c
            nodes.append(Ahead(c.single() if single else c, float(x), bool(done), below))
        return nodes

    root = writable_boards(state.base.position.board, len(state.base.position.board))
    return build(root, doubler, min(depth, CUBE_DEPTH))[0]


def view_of(state: CubeState, evaluator: Evaluator | ChanceEvaluator, doubler: int,
            search: BoardSearch | StateSearch | None = None, depth: int = 1
            ) -> tuple[Chances, CubeView]:
    """The doubler's cubeless chances and view of the cube decision at ``state`` (before
    the doubler's roll, or with the double offered): Janowski's money equities, or the
    match table's chances, at the position itself, or ``depth`` rolls ahead where
    ``search`` (a board search) is given (:func:`gammon.agents.cube.view_ahead`; the
    chances then those the search averages)."""
    score = state.score
    cube = state.cube_value if state.offer is None else state.offer.stake
    owner = CENTRE if state.cube_owner is None else ME
    base = state.base
    stakes: MoneyStakes | MatchStakes = MoneyStakes(state.stakes.jacoby)
    if score.length:
        stakes = MatchStakes(Score(score.away(doubler), score.away(1 - doubler),
                                   score.post_crawford), score.crawford)
    if isinstance(search, BoardSearch) and base.is_chance and depth > 0:
        root = lookahead(state, doubler, search, depth)
        return root.averaged(), view_ahead(root, stakes, cube, owner)
    c = chances(evaluator, state, doubler)
    board = writable_boards(base.position.board, len(base.position.board))
    root = Ahead(c, float(efficiencies(base.variant, board, base.position.turn)[0]))
    return c, view_ahead(root, stakes, cube, owner)


def stakes_decision(state: State, evaluator: Evaluator | ChanceEvaluator,
                    search: BoardSearch | StateSearch | None = None, depth: int = 1
                    ) -> object | None:
    """The bot's answer at a cube or resignation decision of a stakes state, else None
    (``search``: see :func:`chances`)."""
    stakes = stakes_of(state)
    if stakes is None:
        return None
    player = stakes.current_player
    assert player is not None  # a decision
    legal = list(stakes.legal_actions())
    if stakes.resignation is not None:
        _, level = stakes.resignation
        accept = level >= chances(evaluator, stakes, player).equity
        for action in legal:
            if str(action) == ("accept" if accept else "reject"):
                return action
        return legal[0]
    if stakes.offer is None and not stakes.preroll:
        return None
    answering = stakes.offer is not None
    doubler = 1 - player if answering else player
    _, view = view_of(stakes, evaluator, doubler, search, depth)
    # The taker's equity owning the cube at twice: what the doubler's take leaves.
    beaver = -view.take if answering and not stakes.score.length else None
    choice = cube_choice(legal, view, answering, beaver)
    if choice is None:
        choice = next((a for a in legal if action_kind(a) in ("no double", "take")), legal[0])
    return choice


def resolve(state: State, evaluator: Evaluator | ChanceEvaluator,
            search: BoardSearch | StateSearch | None = None, depth: int = 1
            ) -> tuple[object | None, Any]:
    """For an agent's ``choose``: ``(answer, None)`` at a cube or resignation decision;
    else ``(None, state to play in)``: the wrapped game state for a play under stakes,
    ``state`` itself otherwise. (The state is Any: a :class:`State`, or None where there
    is an answer, and the callers read it once they have seen there is none, which the
    types do not tie.)"""
    answer = stakes_decision(state, evaluator, search, depth)
    if answer is not None:
        return answer, None
    base = wrapped(state)
    return None, (state if base is None else base)
