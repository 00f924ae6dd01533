"""How an environment's game starts: the rules from a name and options, and the first
state, with the stakes around it when asked (shared by every environment)."""

from __future__ import annotations

from typing import Any

import gammon
from gammon.core.errors import InvalidOptionError


def make_rules(variant: Any, options: dict[str, Any]) -> Any:
    """The rules object of ``variant`` (a name or a rules object) with ``options``."""
    if isinstance(variant, str):
        return gammon.variant(variant, **options)
    if options:
        raise InvalidOptionError("options go with a variant's name, not a rules object")
    return variant


def new_game(rules: Any, stakes: Any = None, match: int = 0) -> Any:
    """A game's first state: the variant's own, or with the cube and a match score when
    ``stakes`` (a :class:`~gammon.stakes.rules.StakeRules` or a dict of its options) or
    ``match`` are given."""
    if stakes is None and not match:
        return rules.initial_state()
    from gammon.core.variant import TrackVariant
    from gammon.stakes.cube import cube_game
    from gammon.stakes.rules import StakeRules
    from gammon.stakes.score import MatchScore

    if not isinstance(rules, TrackVariant):
        raise InvalidOptionError(f"{rules.name} is not played with stakes around it")
    if isinstance(stakes, dict):
        stakes = StakeRules(**stakes)
    score = MatchScore.match(match) if match else None
    return cube_game(rules, stakes, score)


def board_text(rules: Any, state: Any, viewer: int | None, names: list[str]) -> str:
    """The board of ``state`` as plain text, as the terminal draws it (the cube's state
    drawn by its game)."""
    import io

    from rich.console import Console

    from gammon.render import board_for

    console = Console(file=io.StringIO(), width=100, record=True)
    console.print(board_for(rules).draw(getattr(state, "base", state), viewer=viewer,
                                        names=names))
    text: str = console.export_text()
    return text
