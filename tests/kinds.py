"""The kinds of game, for checks that go over every variant.

A check over every variant runs in ``make test`` on one representative of each kind,
and on the others in ``make long`` (the ``slow`` marker): the variants of a kind share
their rules' code paths, so the representative catches what the kind can break, and the
long run still covers every name (issue 43). A variant's kind is read from its rules
(:func:`kind_of`), so a new game falls into its kind without being listed here.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

import gammon
from gammon.core.variant import variant_names

#: Each kind of game and its representative.
REPRESENTED: dict[str, str] = {
    "hitting": "backgammon",  # opposite ways round, hitting: backgammon and its relatives
    "pinning": "plakoto",  # a lone checker is pinned, not hit
    "running": "long-nardy",  # the same way round, no hitting
    "own turns": "gul-bara",  # cascades of doubles, acey-deucey's choices
    "four on a track": "multi-gam",
    "four on a ring": "acedrex",
}

REPRESENTATIVES: tuple[str, ...] = tuple(REPRESENTED.values())


def kind_of(name: str) -> str:
    """The kind of the variant ``name`` (a preset name counts as its variant's), from
    what its rules say of themselves."""
    rules = gammon.variant(name)
    kind = rules.game_type
    if kind.players > 2:
        return "four on a ring" if kind.board == "ring" else "four on a track"
    if kind.turns != "alternate":
        return "own turns"
    if kind.pins:
        return "pinning"
    return "running" if rules.track.meeting == "same-way" else "hitting"


#: Each kind of game, its representative first.
KINDS: dict[str, tuple[str, ...]] = {
    kind: (first, *sorted(n for n in variant_names() if n != first and kind_of(n) == kind))
    for kind, first in REPRESENTED.items()
}


def by_kind(names: Iterable[str]) -> list[object]:
    """``names`` as parameters: the representatives of their kinds as they are, the
    others marked ``slow`` (``make long`` runs them)."""
    return [name if name in REPRESENTATIVES else pytest.param(name, marks=pytest.mark.slow)
            for name in names]
