"""Acey-deucey positions as text: ``bar:15/bar:15/X``, ``24:2,13,6:3,bar:9/20:2,bar:13/O``.

GNU Position IDs cannot say whose checkers are still waiting to enter on a board where
all thirty start off it, so acey-deucey writes its positions in a short text form of
its own, safe to type in a shell (no spaces, quotes or brackets). Grammar (EBNF)::

    position = side "/" side [ "/" turn ] ;      (* X's checkers, then O's *)
    side     = "-" | stack { "," stack } ;        (* "-": nothing listed, all off *)
    stack    = place [ ":" count ] ;              (* count 1 to 15, default 1 *)
    place    = point | "bar" | "b" | "off" | "o" ;
    point    = "1" | "2" | ... | "24" ;           (* in that player's own numbering *)
    turn     = "X" | "O" | "0" | "1" ;            (* who is to move; default X *)

Player 0 plays X and player 1 plays O, as on the terminal board. Each player counts the
points from their own side: point 1 is the last before bearing off, point 24 the first
a checker reaches when it enters with a 1. ``bar`` holds the checkers off the board that
still have to enter: at the start all fifteen, later those that were hit. ``off`` holds
those borne off; when ``off`` is not written, checkers not listed are borne off, so a
bear-off position can be written ``6:2,1:3/...``. Letters may be in any case and
whitespace around the separators is ignored. Writing gives the canonical form: bar
first, then the points from 24 down, then ``off`` when there are any, e.g.
``bar:2,21,13:4,6:5,off:3/bar:15/O``.
"""

from __future__ import annotations

import re
from typing import Any

from gammon.core.errors import IllegalPlayError, InvalidNotationError
from gammon.core.position import Position
from gammon.core.variant import TrackVariant
from gammon.notation.codecs import PositionCodec, register_codec
from gammon.notation.movetext import GnubgMoves, register_move_text
from gammon.variants.acey import DoublesChoice

#: The letters of the players, as the terminal board draws them.
SIDES = ("X", "O")
_BAR = ("bar", "b")
_OFF = ("off", "o")
_STACK = re.compile(r"^(?P<place>[a-z]+|\d+)(?::(?P<count>\d+))?$")


def parse_acey(variant: TrackVariant, text: str) -> Position:
    """The position ``text`` describes (see the module's grammar).

    Raises :class:`InvalidNotationError` saying what is wrong.
    """
    original = text
    text = "".join(text.split()).lower()
    fields = text.split("/")
    if len(fields) not in (2, 3) or not all(fields[:2]):
        raise InvalidNotationError(
            f"{original!r} is not an acey-deucey position: write X's checkers / O's "
            "checkers / who moves, e.g. bar:15/bar:15/X"
        )
    turn = 0
    if len(fields) == 3:
        word = fields[2]
        if word in ("x", "0"):
            turn = 0
        elif word in ("o", "1"):
            turn = 1
        else:
            raise InvalidNotationError(
                f"{original!r}: the turn {fields[2]!r} should be X or O (or 0 or 1)"
            )
    checkers = variant.checkers
    rows = [_side(variant, fields[p], SIDES[p], original) for p in range(2)]
    for p, row in enumerate(rows):
        total = sum(row)
        if total > checkers:
            raise InvalidNotationError(
                f"{original!r}: {SIDES[p]} has {total} checkers; each side has {checkers}"
            )
    for point in range(1, variant.points + 1):
        other = variant.shared_slot(0, point, 1)
        if rows[0][point] and rows[1][other]:
            raise InvalidNotationError(
                f"{original!r}: X's {point} and O's {other} are the same point, and both "
                "have checkers on it"
            )
    return Position.from_checkers(rows, turn)


def _side(variant: TrackVariant, text: str, letter: str, original: str) -> list[int]:
    points = variant.points
    bar = points + 1
    row = [0] * (points + 2)
    written: set[int] = set()
    if text != "-":
        for item in text.split(","):
            match = _STACK.match(item)
            if match is None:
                raise InvalidNotationError(
                    f"{original!r}: {letter}'s {item!r} should be a place and a count, "
                    "e.g. 13:5, bar:2, off:4 or just 13 for one checker"
                )
            place = match["place"]
            if place in _BAR:
                slot = bar
            elif place in _OFF:
                slot = 0
            elif place.isdigit() and 1 <= int(place) <= points:
                slot = int(place)
            else:
                raise InvalidNotationError(
                    f"{original!r}: {letter}'s {place!r} is not a place: write a point 1 to "
                    f"{points}, bar or off"
                )
            if slot in written:
                raise InvalidNotationError(
                    f"{original!r}: {letter} lists {place!r} twice"
                )
            written.add(slot)
            count = 1 if match["count"] is None else int(match["count"])
            if not 1 <= count <= variant.checkers:
                raise InvalidNotationError(
                    f"{original!r}: {letter}'s {item!r}: a count is 1 to {variant.checkers}"
                )
            row[slot] = count
    if 0 not in written:
        row[0] = max(variant.checkers - sum(row), 0)
    return row


def format_acey(variant: TrackVariant, position: Position) -> str:
    """The canonical text of ``position``: bar, points from 24 down, then off."""
    sides = []
    for p in range(2):
        row = position.row(p)
        bar = variant.points + 1
        items = []
        for slot in (bar, *range(variant.points, -1, -1)):
            count = row[slot]
            if not count:
                continue
            place = "bar" if slot == bar else "off" if slot == 0 else str(slot)
            items.append(place if count == 1 and slot not in (0, bar) else f"{place}:{count}")
        sides.append(",".join(items) or "-")
    return f"{sides[0]}/{sides[1]}/{SIDES[position.turn]}"


ACEY = PositionCodec(
    "acey-deucey position (X's checkers/O's checkers/turn, e.g. bar:15/bar:15/X)",
    parse_acey,
    format_acey,
)
register_codec("acey", ACEY)


class AceyMoves(GnubgMoves):
    """gnubg's move text, and the number a player names after an acey-deucey."""

    intro = ("Moves are written from your side of the board (your home board is 1-{home}), "
             "as gnubg writes them; checkers waiting off the board enter from bar:")
    examples = (
        ("bar/23 bar/22", "enter two checkers: a 2 and a 3 from off the board"),
        *GnubgMoves.examples,
        ("4", "after playing a 1-2: the number to play as doubles (also 44, d4)"),
    )

    def read_action(self, state: Any, text: str) -> Any:
        """A person's choice of doubles: ``4``, ``44``, ``4-4``, ``4s``, ``d4``,
        ``doubles 4``. Raises :class:`IllegalPlayError` saying what to type."""
        legal = state.legal_actions()
        if not legal or not isinstance(legal[0], DoublesChoice):
            return super().read_action(state, text)
        cleaned = re.sub(r"doubles?|[\s\-,]", "", text.lower())
        cleaned = cleaned.removeprefix("d").removesuffix("s")
        if not cleaned or not cleaned.isdigit() or len(set(cleaned)) != 1 or len(cleaned) > 2:
            raise IllegalPlayError(
                f"{text.strip()!r}: type the number to play as doubles, e.g. 4"
            )
        number = int(cleaned[0])
        sides = state.variant.sides
        if not 1 <= number <= sides:
            raise IllegalPlayError(f"{number}: the doubles number is 1 to {sides}")
        choice = DoublesChoice(number)
        if choice not in legal:
            numbers = " or ".join(str(c.number) for c in legal)
            raise IllegalPlayError(
                f"{number} plays fewer of the four moves than another number can: "
                f"choose {numbers}"
            )
        return choice


register_move_text("acey", lambda rules: AceyMoves(rules.points, home=rules.home))
