"""Position notation of the games that pin (Plakoto, Tapa).

GNU Position IDs count checkers per point and cannot say which of two sides sharing a
point lies pinned underneath, so these games write their positions in *pins notation*:
the nardy notation's cells (:mod:`gammon.notation.nardy`) along player 0's way, and a
mark after a cell whose point holds a pinned checker of the other side.

Grammar (ABNF, RFC 5234)::

    pins-position = board ":" turn
    board         = 24cell         ; player 0's points 24, 23, ..., 1, in this order
    cell          = "." / mine [pin] / theirs [pin]
    mine          = %x61-6F        ; "a".."o": 1..15 checkers of player 0 (X)
    theirs        = %x41-4F        ; "A".."O": 1..15 checkers of player 1 (O)
    pin           = "^"            ; ... on top of one pinned checker of the other side
    turn          = "0" / "1"      ; the player to move

The first cell is player 0's starting point (its 24-point, player 1's 1-point); the last
is player 1's (player 0's 1-point). ``b^`` is two of player 0's checkers pinning one of
player 1's. Checkers not on the board are borne off: 15 minus those on the points (the
pinned ones count on the board). Spaces around the text are ignored.

The starting position, player 0 to move, is ``o......................O:0``.
"""

from __future__ import annotations

from gammon.core.errors import InvalidNotationError
from gammon.core.position import Position
from gammon.core.variant import TrackVariant
from gammon.notation.codecs import PositionCodec, register_codec
from gammon.notation.movetext import GnubgMoves, register_move_text
from gammon.notation.nardy import EMPTY, LOWER, UPPER

PIN = "^"
EXAMPLE = "o......................O:0"


def format_pins(variant: TrackVariant, position: Position) -> str:
    """``position`` in pins notation (see the module's grammar)."""
    points = variant.points
    if position.players != 2 or position.points != points:
        raise InvalidNotationError(f"pins notation writes two-player positions on {points} points")
    for player in (0, 1):
        if position.bar(player):
            raise InvalidNotationError(
                f"player {player} has checkers on the bar; pins notation has no bar (the "
                "games that pin hit nothing)")
    cells = []
    for point in range(points, 0, -1):
        mine = position.count(0, point)
        theirs = position.count(1, variant.shared_slot(0, point, 1))
        pinned = position.pinned(point)
        top = {None: None, 0: 1, 1: 0}[pinned]
        if mine and theirs and top is None:
            raise InvalidNotationError(
                f"player 0's point {point} holds checkers of both players and none is pinned")
        if pinned is not None and (not (mine and theirs) or (mine, theirs)[pinned] != 1):
            raise InvalidNotationError(
                f"player 0's point {point}: a pinned checker lies alone under the other side's")
        if max(mine, theirs) > len(LOWER):
            raise InvalidNotationError(
                f"player 0's point {point} holds more than {len(LOWER)} checkers")
        if top == 0 or (top is None and mine):
            cell = LOWER[mine - 1]
        elif theirs:
            cell = UPPER[theirs - 1]
        else:
            cell = EMPTY
        cells.append(cell + (PIN if top is not None else ""))
    return "".join(cells) + f":{position.turn}"


def parse_pins(variant: TrackVariant, text: str) -> Position:
    """Read a position written in pins notation; errors say what is wrong and where."""
    points = variant.points
    checkers = variant.checkers
    raw = text.strip()
    board, colon, turn_text = raw.rpartition(":")
    if not colon:
        raise InvalidNotationError(
            f"pins position {text!r}: write {points} points, a colon and the player to move "
            f"(0 or 1), e.g. {EXAMPLE}")
    if turn_text not in ("0", "1"):
        raise InvalidNotationError(
            f"pins position {text!r}: the player to move after the colon must be 0 or 1, "
            f"not {turn_text!r}")
    rows = [[0] * (points + 2), [0] * (points + 2)]
    pins = bytearray(points)
    point = points
    for index, cell in enumerate(board):
        if cell == PIN:
            if index == 0 or board[index - 1] in (EMPTY, PIN):
                raise InvalidNotationError(
                    f"pins position {text!r}: character {index + 1} ({PIN!r}) must follow "
                    "the letter of the checkers on top of the pinned one")
            top = 0 if board[index - 1] in LOWER else 1
            under = 1 - top
            pins[point] = under + 1  # the point of the letter before (already counted)
            rows[under][point + 1 if under == 0 else variant.shared_slot(0, point + 1, 1)] += 1
            continue
        if point < 1:
            raise InvalidNotationError(
                f"pins position {text!r}: more than {points} points (one cell each, from "
                "player 0's 24-point down to its 1-point)")
        if cell in LOWER:
            rows[0][point] += LOWER.index(cell) + 1
        elif cell in UPPER:
            rows[1][variant.shared_slot(0, point, 1)] += UPPER.index(cell) + 1
        elif cell != EMPTY:
            raise InvalidNotationError(
                f"pins position {text!r}: character {index + 1} ({cell!r}, player 0's point "
                f"{point}) must be '.', a-o (player 0's checkers), A-O (player 1's) or "
                f"{PIN!r} after a letter (it pins one of the other side's)")
        point -= 1
    if point != 0:
        raise InvalidNotationError(
            f"pins position {text!r}: the board needs {points} cells, one per point from "
            f"player 0's 24-point down to its 1-point, not {points - point}")
    for player, row in enumerate(rows):
        on_board = sum(row)
        if on_board > checkers:
            raise InvalidNotationError(
                f"pins position {text!r}: player {player} has {on_board} checkers on the "
                f"board; {variant.name} has {checkers}")
        row[0] = checkers - on_board
    return Position.from_checkers(rows, int(turn_text), bytes(pins))


PINS = PositionCodec("pins notation, e.g. " + EXAMPLE, parse_pins, format_pins)
register_codec("pins", PINS)


class PinMoves(GnubgMoves):
    """gnubg's move text, taught with the rules of the games that pin: no bar, and a
    ``*`` marks a landing that pins a lone checker instead of hitting it."""

    intro = ("Moves are written from your side of the board: your checkers start on your "
             "24-point and run to your home board, 1-{home}. Nothing is hit: a checker "
             "landing on a lone opposing checker pins it (marked *).")
    examples = (
        ("24/18 24/21", "two checkers, one die each"),
        ("24/13", "one checker with both dice"),
        ("13/7*", "land on a lone checker and pin it (the * is optional)"),
        ("8/5(2)", "two checkers from 8 to 5 (doubles)"),
        ("6/off", "bear off once all fifteen are home (also 6/0)"),
    )
    example = "24/18 24/21"


register_move_text("pins", lambda rules: PinMoves(rules.points, home=rules.home))

__all__ = ["PINS", "PinMoves", "format_pins", "parse_pins"]
