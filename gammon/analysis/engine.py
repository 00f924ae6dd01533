"""The engine's analyses as JSON answers: every play of a roll rated, the cube decision,
and the network's evaluation of a position, for any variant with a network of checkers.

The web server's engine API (:mod:`gammon.web.engine`) checks a request, then runs
:func:`answer` in one of its bots' worker processes: it reads the position again there
(the same reading as ``gammon hint``: :func:`gammon.analysis.cli.read_state`) and returns
a dictionary of plain numbers and strings. Nothing here checks sizes or ranges: the
caller has. Bad notation raises the notation's own errors
(:class:`~gammon.core.errors.InvalidNotationError`, ``InvalidOptionError``), whose
messages say what is wrong.

Probabilities are the network's, cubeless, from the side of the player on roll (or to
play the dice): ``win``, ``win_gammon``, ``win_backgammon``, ``lose_gammon``,
``lose_backgammon``, each gammon figure counting the backgammons too. Equities are points
for that player, cubeless (Multi-Gam: the seat's expected place score).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

import numpy as np

from gammon.analysis.cli import match_search, network_evaluator, read_state
from gammon.analysis.hint import rate_cube, rate_plays
from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import Rules, State
from gammon.core.variant import GameState, variant
from gammon.nn import shipped_network
from gammon.nn.evaluator import NeuralEvaluator, board_rows, equity, outcome_targets
from gammon.stakes.cube import CubeState, base_of, stakes_of

#: The names of a two-player network's outputs, in order.
PROBS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
#: Decimals of the figures answered.
DECIMALS = 5
KINDS = ("hint", "cube", "evaluate")


@functools.lru_cache(maxsize=32)
def evaluator_of(name: str) -> NeuralEvaluator:
    """The shipped network of the variant ``name``, loaded once per process."""
    return network_evaluator(variant(name), None)


def analysable(rules: Rules) -> str | None:
    """None when ``rules`` has a shipped network the engine analyses with, else why not
    (looked up, not loaded)."""
    if not rules.game_type.checkers:
        return (f"{rules.name} has no network the engine analyses with: hint, cube and "
                f"evaluate read a network of checkers on a track, and {rules.name} is not "
                "a game of checkers")
    try:
        shipped_network(rules)
    except InvalidOptionError as error:
        return str(error)
    return None


def cube_variant(rules: Rules) -> bool:
    """Whether the engine gives cube decisions in ``rules``: a two-player game of the
    backgammon family played with the cube, its positions written as XGIDs or GNU IDs."""
    return bool(rules.cube and rules.notation == "gnu" and rules.players == 2)


def state_of(name: str, position: str, dice: str | None) -> tuple[Any, Any]:
    """The state a request's position (and dice) describes, and its base game state."""
    rules = variant(name)
    try:
        state = read_state(rules, position, dice)
    except InvalidOptionError as error:  # its words are the command line's
        if "--dice" not in str(error):
            raise
        raise InvalidOptionError(str(error).replace("--dice", "dice")) from None
    base = base_of(state)
    return state, base


def answer(kind: str, name: str, position: str, dice: str | None = None, plies: int = 0,
           limit: int = 10) -> dict[str, Any]:
    """The answer to a checked request of ``kind`` (hint, cube or evaluate)."""
    if kind not in KINDS:
        raise InvalidOptionError(f"no analysis {kind!r}: one of {', '.join(KINDS)}")
    state, base = state_of(name, position, None if kind == "evaluate" else dice)
    evaluator = evaluator_of(name)
    head: dict[str, Any] = {"variant": name, "position": position,
                            "player": int(base.position.turn)}
    if kind == "hint":
        return {**head, **hint(state, evaluator, plies, limit)}
    if kind == "cube":
        return {**head, **cube(state, evaluator, plies)}
    return {**head, **evaluate(base, evaluator)}


def check(kind: str, name: str, position: str, dice: str | None) -> None:
    """Raise what is wrong with a request's position for ``kind`` (the cheap checks, made
    before a worker is asked)."""
    state, base = state_of(name, position, None if kind == "evaluate" else dice)
    if kind == "hint":
        if base.is_terminal:
            raise InvalidOptionError("the game is over in this position: no play to rate")
        if base.is_chance:
            raise InvalidOptionError(
                "no dice: give the roll to play as dice (such as \"31\") or in the "
                "position's ID; the cube decision before a roll is /api/engine/cube")
    elif kind == "cube":
        if stakes_of(state) is None:
            raise InvalidOptionError(f"{name} has no cube decisions here")
        if base.is_terminal:
            raise InvalidOptionError("the game is over in this position: no cube decision")
        if not base.is_chance and state.offer is None:
            raise InvalidOptionError(
                "the position has dice: the cube is decided before the roll; send it "
                "without dice (an XGID's dice 00)")
        if state.resignation is not None:
            raise InvalidOptionError("a resignation is on offer in this position: answer it "
                                     "first; the cube decision is before a roll")


def _round(value: float) -> float:
    return round(float(value), DECIMALS)


def _probs(values: Iterable[float]) -> dict[str, float] | None:
    values = list(values)
    if len(values) != len(PROBS):
        return None
    return {key: _round(v) for key, v in zip(PROBS, values, strict=True)}


def hint(state: State, evaluator: NeuralEvaluator, plies: int, limit: int) -> dict[str, Any]:
    """Every legal play of the dice rated (the best ``limit`` of them), best first; in a
    match by match equity (normalised: a single win +1), as the bots play."""
    base = base_of(state)
    search, by_match = match_search(evaluator.variant, state, evaluator)
    rated = rate_plays(base, evaluator, plies, search=search)
    best = rated[0].equity if rated else 0.0
    units = "points" if evaluator.players == 2 else "place score"
    return {
        "dice": [int(d) for d in base.dice], "plies": plies, "legal_plays": len(rated),
        "units": "normalised match equity" if by_match else units,
        "plays": [{"play": r.text, "equity": _round(r.equity), "diff": _round(r.equity - best),
                   "plies": r.plies, "probs": _probs(r.probs)} for r in rated[:limit]],
    }


def cube(state: CubeState, evaluator: NeuralEvaluator, plies: int) -> dict[str, Any]:
    """The cube decision of the player on roll before the roll."""
    found = rate_cube(state, evaluator, plies)
    view, chances = found.view, found.chances
    return {
        "plies": plies, "decision": found.decision, "units": found.units,
        "equities": {"no_double": _round(view.no_double), "double_take": _round(view.take),
                     "double_pass": _round(view.drop)},
        "chances": {"win": _round(chances.win), "gammons": _round(chances.gammons),
                    "gammons_against": _round(chances.gammons_against)},
        "cube": {"value": int(state.cube_value),
                 "owner": None if state.cube_owner is None else int(state.cube_owner)},
        "match": {"length": int(state.score.length),
                  "score": [int(s) for s in state.score.score],
                  "crawford": bool(state.score.crawford)},
    }


def evaluate(base: GameState, evaluator: NeuralEvaluator) -> dict[str, Any]:
    """The network's value of the position with the player on roll to roll (dice in the
    position's text are not looked at), cubeless."""
    player = int(base.position.turn)
    rolling = base.variant.state(base.position, None)
    values = evaluator.evaluate([rolling])[0]
    probs: dict[str, float] | None = None
    if evaluator.players == 2:
        if rolling.is_terminal:
            probs = _probs(outcome_targets(rolling.returns(), player, base.variant))
        else:
            out = evaluator.outputs(board_rows([rolling], evaluator.size), player)
            probs = _probs(out[0])
            values = np.array([0.0, 0.0])
            values[player] = float(equity(out)[0])
            values[1 - player] = -values[player]
    return {
        "plies": 0, "equity": _round(values[player]), "probs": probs,
        "units": "points" if evaluator.players == 2 else "place score",
        "scores": [_round(v) for v in values],
    }


__all__ = ["KINDS", "PROBS", "analysable", "answer", "check", "cube_variant", "evaluate",
           "evaluator_of", "hint"]
