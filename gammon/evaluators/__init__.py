"""Heuristic evaluators, one per family of variants.

:func:`evaluator_for` gives the evaluator of a variant: :class:`~gammon.evaluators.
track.TrackHeuristic` for every track game (its weights chosen per family),
:class:`~gammon.evaluators.acedrex.AcedrexHeuristic` for Acedrex. An evaluator's
``evaluate(states)`` returns one row per state and one column per player: each player's
expected return.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import Rules
from gammon.core.variant import TrackVariant
from gammon.evaluators.acedrex import AcedrexEndgame, AcedrexHeuristic
from gammon.evaluators.base import Evaluator
from gammon.evaluators.track import TrackHeuristic
from gammon.variants.acedrex.state import StateRules


def _track(variant: TrackVariant) -> TrackHeuristic:
    return TrackHeuristic(variant)


def _acedrex(variant: StateRules) -> AcedrexHeuristic:
    return AcedrexHeuristic(variant)


def _acedrex_end(variant: StateRules) -> AcedrexEndgame:
    return AcedrexEndgame(variant)


#: The heuristic evaluators, by the name a variant gives (``rules.evaluator``, and
#: ``rules.money_evaluator`` for the ``money`` bots). Any: each builder takes the rules
#: class of its own family, which the name, not a type, picks, and the ``money`` bots
#: set the settings of the evaluator they get (its own class's attributes).
EVALUATORS: dict[str, Callable[[Any], Any]] = {"track": _track, "acedrex": _acedrex,
                                               "acedrex-end": _acedrex_end}


def evaluator_for(variant: Rules) -> Evaluator:
    """The heuristic evaluator of ``variant`` (a rules object): the one it names."""
    build = EVALUATORS.get(variant.evaluator)
    if build is None:
        raise InvalidOptionError(
            f"{variant.name} names the evaluator {variant.evaluator!r}; known: "
            + ", ".join(EVALUATORS))
    return build(variant)
