"""Which text form writes the positions of which variant.

Backgammon and its gnubg relatives use GNU Position IDs (and read XGIDs); variants
whose boards those IDs cannot describe register their own form here, so the command
line and other faces find it by the variant alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gammon.core.errors import InvalidNotationError
from gammon.core.position import Position
from gammon.core.variant import TrackVariant


@dataclass(frozen=True)
class PositionCodec:
    """Reads and writes one variant family's positions."""

    name: str
    parse: Callable[[TrackVariant, str], Position]
    format: Callable[[TrackVariant, Position], str]


_CODECS: dict[str, PositionCodec] = {}


def register_codec(variant_name: str, codec: PositionCodec) -> None:
    _CODECS[variant_name] = codec


def codec_for(variant: TrackVariant) -> PositionCodec:
    """The position notation of ``variant``."""
    codec = _CODECS.get(variant.name)
    if codec is None:
        raise InvalidNotationError(f"{variant.name} has no position notation yet")
    return codec


def parse_position(variant: TrackVariant, text: str) -> Position:
    """Read a position of ``variant`` and check that it fits the variant."""
    position = codec_for(variant).parse(variant, text.strip())
    variant.check_position(position)
    return position


def format_position(variant: TrackVariant, position: Position) -> str:
    return codec_for(variant).format(variant, position)


def _gnu_parse(variant: TrackVariant, text: str) -> Position:
    from gammon.notation.situation import situation_from_text

    return situation_from_text(text, checkers=variant.checkers).position


def _gnu_format(variant: TrackVariant, position: Position) -> str:
    from gammon.notation.gnuid import position_id

    return position_id(position)


GNU = PositionCodec("GNU Position ID (or POSITIONID:MATCHID, or XGID)", _gnu_parse, _gnu_format)
for _name in ("backgammon", "nackgammon", "hypergammon", "short", "caucasian"):
    register_codec(_name, GNU)
