"""The kinds of game, for checks that go over every variant.

A check over every variant runs in ``make test`` on one representative of each kind,
and on the others in ``make long`` (the ``slow`` marker): the variants of a kind share
their rules' code paths, so the representative catches what the kind can break, and the
long run still covers every name (issue 43). ``test_every_variant_has_a_kind`` keeps a
new variant from being left out.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

#: Each kind of game, its representative first.
KINDS: dict[str, tuple[str, ...]] = {
    # Opposite ways round, hitting: backgammon and its relatives.
    "hitting": ("backgammon", "nackgammon", "hypergammon", "hypergammon-1", "hypergammon-2",
                "hypergammon-3", "portes", "tavla", "short", "caucasian"),
    # A lone checker is pinned, not hit.
    "pinning": ("plakoto", "tapa"),
    # The same way round, no hitting, a head.
    "running": ("long-nardy", "fevga", "moultezim"),
    # Turns of their own: cascades of doubles, acey-deucey's choices.
    "own turns": ("gul-bara", "acey-deucey", "acey-deucey-restrictive"),
    "four on a track": ("multi-gam",),
    "four on a ring": ("acedrex", "acedrex-quick"),
}

REPRESENTATIVES: tuple[str, ...] = tuple(members[0] for members in KINDS.values())


def kind_of(name: str) -> str:
    """The kind of the variant ``name`` (a preset name counts as its variant's)."""
    for kind, members in KINDS.items():
        if name in members:
            return kind
    raise KeyError(f"{name} has no kind in tests/kinds.py: add it to the kind it plays as")


def by_kind(names: Iterable[str]) -> list[object]:
    """``names`` as parameters: the representatives of their kinds as they are, the
    others marked ``slow`` (``make long`` runs them)."""
    return [name if name in REPRESENTATIVES else pytest.param(name, marks=pytest.mark.slow)
            for name in names]
