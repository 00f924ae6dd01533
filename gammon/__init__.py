"""gammon: the engine and playing platform for the tables family of games."""

from gammon import variants as _variants  # noqa: F401  (registers the variants)
from gammon.core.dice import Roll
from gammon.core.errors import (
    GammonError,
    IllegalPlayError,
    InvalidNotationError,
    InvalidOptionError,
)
from gammon.core.play import Move, Play
from gammon.core.position import Position
from gammon.core.protocol import Phase
from gammon.core.variant import GameState, TrackVariant, variant, variant_classes

__version__ = "0.1.0"

__all__ = [
    "GameState",
    "GammonError",
    "IllegalPlayError",
    "InvalidNotationError",
    "InvalidOptionError",
    "Move",
    "Phase",
    "Play",
    "Position",
    "Roll",
    "TrackVariant",
    "variant",
    "variant_classes",
]
