"""Tapa, the pinning game of Bulgaria and North Macedonia: Plakoto's board, start, moves,
pins and bearing off (:class:`Plakoto`), with one difference stated here in its
contact block:

- no mother: pinning the other side's last checker on its starting point does not end
  the game (the contact's ``mother`` is ``"draw"``, not ``"wins"``); only a standstill
  does, when both sides' mothers lie pinned and neither side can ever bear off again: a
  draw.

docs/rules/tapa.md states the rules, the sources and the readings chosen.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from gammon.core.variant import register
from gammon.variants.plakoto import Plakoto


@register
@dataclass(frozen=True)
class Tapa(Plakoto):
    """Tapa. Options as Plakoto's (docs/rules/tapa.md): ``reroll_opening`` and
    ``pinned_holds_bear_off``."""

    name = "tapa"
    summary = (
        "Tapa (Bulgaria, North Macedonia): Plakoto's start and pins, but pinning the "
        "opponent's last checker on its start does not end the game; both pinned there "
        "is a standstill, drawn; no cube, 1 or 2 points."
    )
    aliases: ClassVar[tuple[str, ...]] = ()  # not Plakoto's tavli-plakoto
    contact = replace(Plakoto.contact, mother="draw")
