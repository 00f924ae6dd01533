"""Position notation of the nardy family.

GNU Position IDs describe backgammon boards (players on opposite ends, a bar), not Long
Nardy's, where both sides run the same way from opposite heads and a point belongs to one
side only. Long Nardy positions are written in *nardy notation*: the 24 points as
one character each, along player 0's way from its head, then whose turn it is.

Grammar (ABNF, RFC 5234)::

    nardy-position = board ":" turn
    board          = 24cell        ; player 0's points 24, 23, ..., 1, in this order
    cell           = "." / %x61-6F / %x41-4F
                                   ; "." an empty point;
                                   ; "a".."o" 1..15 checkers of player 0 (X);
                                   ; "A".."O" 1..15 checkers of player 1 (O)
    turn           = "0" / "1"     ; the player to move

The first character is player 0's head (its 24-point) and the thirteenth player 1's
head (player 0's 12-point, player 1's 24-point). Checkers not on the board are borne
off: 15 minus those on the points. Letters may be typed in either case only as the
grammar says: the case tells the players apart. Spaces around the text are ignored.

The starting position, player 0 to move, is ``o...........O...........:0``.

Short backgammon and Caucasian backgammon are played on the backgammon board and use
the GNU Position ID like backgammon (see :mod:`gammon.notation.codecs`).
"""

from __future__ import annotations

from gammon.core.errors import InvalidNotationError
from gammon.core.position import Position
from gammon.core.variant import TrackVariant
from gammon.notation.codecs import PositionCodec, register_codec
from gammon.notation.movetext import GnubgMoves, register_move_text

EMPTY = "."
#: The letters for counts 1..15, player 0's (lower case) and player 1's (upper case).
LOWER = "abcdefghijklmno"
UPPER = LOWER.upper()
EXAMPLE = "o...........O...........:0"


def format_nardy(variant: TrackVariant, position: Position) -> str:
    """``position`` in nardy notation (see the module's grammar)."""
    points = variant.points
    if position.players != 2 or position.points != points:
        raise InvalidNotationError(
            f"nardy notation writes two-player positions on {points} points"
        )
    cells = []
    for point in range(points, 0, -1):
        mine = position.count(0, point)
        theirs = position.count(1, variant.shared_slot(0, point, 1))
        if mine and theirs:
            raise InvalidNotationError(
                f"player 0's point {point} holds checkers of both players; nardy notation "
                "(like the game) gives each point to one side"
            )
        if mine > len(LOWER) or theirs > len(UPPER):
            raise InvalidNotationError(
                f"player 0's point {point} holds more than {len(LOWER)} checkers"
            )
        cells.append(LOWER[mine - 1] if mine else UPPER[theirs - 1] if theirs else EMPTY)
    for player in (0, 1):
        if position.bar(player):
            raise InvalidNotationError(
                f"player {player} has checkers on the bar; nardy notation has no bar"
            )
    return "".join(cells) + f":{position.turn}"


def parse_nardy(variant: TrackVariant, text: str) -> Position:
    """Read a position written in nardy notation; errors say what is wrong and where."""
    points = variant.points
    checkers = variant.checkers
    raw = text.strip()
    board, colon, turn_text = raw.rpartition(":")
    gnu = (
        " (this looks like a GNU ID: those describe backgammon boards, not Long Nardy's)"
        if EMPTY not in raw and len(raw.split(":")[0]) == 14 else ""
    )
    if not colon:
        raise InvalidNotationError(
            f"nardy position {text!r}: write {points} points, a colon and the player to "
            f"move (0 or 1), e.g. {EXAMPLE}{gnu}"
        )
    if turn_text not in ("0", "1"):
        raise InvalidNotationError(
            f"nardy position {text!r}: the player to move after the colon must be 0 or 1, "
            f"not {turn_text!r}{gnu}"
        )
    if len(board) != points:
        raise InvalidNotationError(
            f"nardy position {text!r}: the board needs {points} characters, one per point "
            f"from player 0's 24-point down to its 1-point, not {len(board)}{gnu}"
        )
    rows = [[0] * (points + 2), [0] * (points + 2)]
    for index, cell in enumerate(board):
        point = points - index
        if cell == EMPTY:
            continue
        if cell in LOWER:
            rows[0][point] += LOWER.index(cell) + 1
        elif cell in UPPER:
            rows[1][variant.shared_slot(0, point, 1)] += UPPER.index(cell) + 1
        else:
            raise InvalidNotationError(
                f"nardy position {text!r}: character {index + 1} ({cell!r}, player 0's "
                f"point {point}) must be '.', a-o (player 0's checkers) or A-O (player 1's)"
            )
    for player, row in enumerate(rows):
        on_board = sum(row)
        if on_board > checkers:
            raise InvalidNotationError(
                f"nardy position {text!r}: player {player} has {on_board} checkers on the "
                f"board; {variant.name} has {checkers}"
            )
        row[0] = checkers - on_board
    return Position.from_checkers(rows, int(turn_text))


NARDY = PositionCodec("nardy notation, e.g. " + EXAMPLE, parse_nardy, format_nardy)
register_codec("nardy", NARDY)

__all__ = ["NARDY", "format_nardy", "parse_nardy"]


class NardyMoves(GnubgMoves):
    """gnubg's move text, taught with Long Nardy's own rules: no bar, no hits, the head."""

    intro = ("Moves are written from your side of the board: your checkers start on your "
             "head, 24, and run to your home board, 1-{home}. Nothing is hit in Long Nardy: "
             "a point with any opposing checker is closed.")
    examples = (
        ("24/18 13/11", "two checkers, one die each"),
        ("24/13", "one checker with both dice"),
        ("24/21(2)", "two checkers off the head: only on a first roll of 6-6, 4-4 or 3-3"),
        ("8/5(2)", "two checkers from 8 to 5 (doubles)"),
        ("6/off", "bear off once all fifteen are home (also 6/0)"),
    )
    example = "24/18 13/11"


register_move_text("nardy", lambda rules: NardyMoves(rules.points, home=rules.home))
