"""Which text form writes the positions of which variant.

Each variant names its notation (``rules.notation``); a notation module registers its
codec under that name here, so the command line and other faces find it by the variant
alone. Backgammon and its gnubg relatives use GNU Position IDs (``gnu``, which reads
XGIDs too); Long Nardy (``nardy``), acey-deucey (``acey``) and Multi-Gam (``multigam``)
have forms of their own. Acedrex's positions are whole states (``acedrex``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gammon.core.errors import InvalidNotationError
from gammon.core.position import Position
from gammon.core.protocol import Rules
from gammon.core.variant import TrackVariant
from gammon.notation.gnuid import position_id
from gammon.notation.situation import situation_from_text


@dataclass(frozen=True)
class PositionCodec:
    """Reads and writes one variant family's positions (a track game's
    :class:`Position`; Acedrex's whole state)."""

    name: str
    parse: Callable[[Any, str], Any]
    format: Callable[[Any, Any], str]


_CODECS: dict[str, PositionCodec] = {}


def register_codec(notation: str, codec: PositionCodec) -> None:
    """Make ``codec`` the notation of the variants that name ``notation``."""
    _CODECS[notation] = codec


def codec_for(variant: Rules) -> PositionCodec:
    """The position notation of ``variant``: the one it names."""
    codec = _CODECS.get(variant.notation)
    if codec is None:
        raise InvalidNotationError(
            f"{variant.name} names the notation {variant.notation!r}, which is unknown")
    return codec


def parse_position(variant: Any, text: str) -> Any:
    """Read a position of ``variant`` and check that it fits the variant."""
    position = codec_for(variant).parse(variant, text.strip())
    if variant.game_type.checkers:
        variant.check_position(position)
    return position


def format_position(variant: Rules, position: Any) -> str:
    return codec_for(variant).format(variant, position)


def _gnu_parse(variant: TrackVariant, text: str) -> Position:
    return situation_from_text(text, checkers=variant.checkers).position


def _gnu_format(variant: TrackVariant, position: Position) -> str:
    return position_id(position)


GNU = PositionCodec("GNU Position ID (or POSITIONID:MATCHID, or XGID)", _gnu_parse, _gnu_format)
register_codec("gnu", GNU)
