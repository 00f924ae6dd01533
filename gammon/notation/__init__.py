"""Notations backgammon players already use: GNU Position/Match IDs and XGIDs.

- :mod:`gammon.notation.gnuid`: GNU Backgammon's Position ID and Match ID.
- :mod:`gammon.notation.situation`: :class:`Situation`, a position with dice, cube,
  score and match, convertible between the GNU ID and eXtreme Gammon's XGID (read and
  written there too); :func:`situation_from_text` reads any.
- :mod:`gammon.notation.fibs`: FIBS's board line.

Player mapping: gnubg's player 0 is our player 0; in an XGID the lower-case checkers are
player 0 and the upper-case ones player 1.
"""

from gammon.core.errors import InvalidNotationError
from gammon.core.protocol import Rules

# The notation modules register their codecs and move texts under the names variants
# give (rules.notation, rules.move_text).
from gammon.notation import acedrex, multigam  # noqa: F401
from gammon.notation.acey import format_acey, parse_acey
from gammon.notation.codecs import (
    PositionCodec,
    codec_for,
    format_position,
    parse_position,
    register_codec,
)
from gammon.notation.gnuid import (
    GameStatus,
    MatchInfo,
    Resignation,
    match_id,
    parse_match_id,
    parse_position_id,
    position_id,
)
from gammon.notation.movetext import MOVE_TEXTS, MoveText
from gammon.notation.nardy import format_nardy, parse_nardy
from gammon.notation.pins import format_pins, parse_pins
from gammon.notation.situation import Situation, format_xgid, parse_xgid, situation_from_text

__all__ = [
    "move_text_for",
    "PositionCodec",
    "codec_for",
    "format_position",
    "parse_position",
    "register_codec",
    "GameStatus",
    "MatchInfo",
    "Resignation",
    "Situation",
    "format_acey",
    "format_nardy",
    "format_pins",
    "format_xgid",
    "match_id",
    "parse_acey",
    "parse_match_id",
    "parse_nardy",
    "parse_pins",
    "parse_position_id",
    "parse_xgid",
    "position_id",
    "situation_from_text",
]


def move_text_for(rules: Rules) -> MoveText:
    """The move text people read and type for ``rules``: the one it names."""
    make = MOVE_TEXTS.get(rules.move_text)
    if make is None:
        raise InvalidNotationError(
            f"{rules.name} names the move text {rules.move_text!r}; known: "
            + ", ".join(MOVE_TEXTS))
    return make(rules)
