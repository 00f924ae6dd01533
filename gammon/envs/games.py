"""How an environment's game starts: the rules from a name and options, and the first
state, with the stakes around it when asked (shared by every environment)."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
from rich.console import Console

import gammon
from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import Rules, State
from gammon.render import board_for
from gammon.stakes.cube import CubeState, cube_game
from gammon.stakes.prompt import cube_text, is_stakes_decision, question, score_text
from gammon.stakes.rules import StakeRules
from gammon.stakes.score import MatchScore


def make_rules(variant: Rules, options: dict[str, Any]) -> Any:
    """The rules object of ``variant`` (a name or a rules object) with ``options``."""
    if isinstance(variant, str):
        return gammon.variant(variant, **options)
    if not (hasattr(variant, "initial_state") and hasattr(variant, "players")):
        raise InvalidOptionError(f"the variant is a name such as 'backgammon' (see "
                                 f"gammon.variant_names()) or a rules object, not "
                                 f"{variant!r}")
    if options:
        raise InvalidOptionError("options go with a variant's name, not a rules object")
    return variant


def check_seed(seed: Any) -> int | None:
    """A seed is a whole number or None (a float would be cut or hashed silently)."""
    if seed is not None and (not isinstance(seed, int | np.integer) or isinstance(seed, bool)):
        raise InvalidOptionError(f"seed is a whole number or None, not {seed!r}")
    return None if seed is None else int(seed)


def check_stakes(rules: Any, stakes: Any, match: Any) -> Any:
    """``stakes`` as a :class:`~gammon.stakes.rules.StakeRules` (or None), after checking
    it and ``match`` (a whole number of points, 0 for none)."""
    if isinstance(match, bool) or not isinstance(match, int | np.integer) or match < 0:
        raise InvalidOptionError(f"match is a whole number of points (0: no match), not "
                                 f"{match!r}")
    if stakes is None or isinstance(stakes, StakeRules):
        return stakes
    if not isinstance(stakes, dict):
        raise InvalidOptionError(f"stakes is a StakeRules, a dict of its options (e.g. "
                                 f"{{'jacoby': True}}, {{}} for the defaults) or None, not "
                                 f"{stakes!r}")
    try:
        return StakeRules(**stakes)
    except TypeError as error:
        raise InvalidOptionError(f"stakes: {error}") from None


def new_game(rules: Any, stakes: Any = None, match: int = 0) -> Any:
    """A game's first state: the variant's own, or with the cube and a match score when
    ``stakes`` (a :class:`~gammon.stakes.rules.StakeRules` or a dict of its options) or
    ``match`` are given."""
    if stakes is None and not match:
        return rules.initial_state()
    if not rules.game_type.stakes:
        raise InvalidOptionError(f"{rules.name} is not played with stakes around it")
    stakes = check_stakes(rules, stakes, match)
    if stakes is None:
        stakes = StakeRules()
    score = MatchScore.match(int(match)) if match else None
    return cube_game(rules, stakes, score)


def board_text(rules: Any, state: State, viewer: int | None, names: list[str]) -> str:
    """The board of ``state`` as plain text, as the terminal draws it (the cube's state
    drawn by its game)."""
    console = Console(file=io.StringIO(), width=100, record=True)
    console.print(board_for(rules).draw(getattr(state, "base", state), viewer=viewer,
                                        names=names))
    if isinstance(state, CubeState):
        # The cube and the score beside the board; at a cube decision, who answers what
        # (the board's "to roll" names the roller, who may be waiting for an answer).
        console.print(cube_text(state, names) + (f"; {score_text(state, names)}"
                                                 if state.score.length else ""))
        if is_stakes_decision(state) and not state.is_terminal:
            console.print(question(state, names))
    text: str = console.export_text()
    return text
