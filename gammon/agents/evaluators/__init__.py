"""Heuristic evaluators, one per family of variants.

:func:`evaluator_for` gives the evaluator of a variant: :class:`~gammon.agents.
evaluators.track.TrackHeuristic` for every track game (its weights chosen per family),
:class:`~gammon.agents.evaluators.acedrex.AcedrexHeuristic` for Acedrex. An evaluator's
``evaluate(states)`` returns one row per state and one column per player: each player's
expected return.
"""

from __future__ import annotations

from typing import Any

from gammon.core.errors import InvalidOptionError
from gammon.core.variant import TrackVariant


def evaluator_for(variant: Any) -> Any:
    """The heuristic evaluator of ``variant`` (a rules object)."""
    if isinstance(variant, TrackVariant):
        from gammon.agents.evaluators.track import TrackHeuristic

        return TrackHeuristic(variant)
    if getattr(variant, "name", None) == "acedrex":
        from gammon.agents.evaluators.acedrex import AcedrexHeuristic

        return AcedrexHeuristic(variant)
    raise InvalidOptionError(f"no heuristic evaluator for {getattr(variant, 'name', variant)!r}")
