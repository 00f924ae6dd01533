"""eXtreme Gammon's XGID.

``XGID=board:cube:cubepos:turn:dice:score1:score2:rules:matchlength:maxcube``, e.g. the
opening position, money game: ``XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10``.

``board``
    26 characters. Character 0 is the bar of the lower-case player, characters 1..24
    the points numbered from the upper-case player's side (character *i* is the
    upper-case player's point *i*, the lower-case player's point 25 - *i*), character
    25 the bar of the upper-case player. ``-`` is an empty point; ``A``..``O`` are 1..15
    upper-case checkers, ``a``..``o`` 1..15 lower-case ones (XG allows up to ``P``).
``cube``
    log2 of the cube value (0 = 1-cube).
``cubepos``
    0 centred, 1 owned by the upper-case player, -1 by the lower-case player.
``turn``
    1 the upper-case player is on roll, -1 the lower-case player.
``dice``
    ``00`` not rolled yet, two digits 1-6 the dice rolled (written larger first here),
    ``D`` the player on roll has doubled and the opponent must answer. (XG's ``B`` and
    ``R``, beavered and raccooned cubes, have no gnubg equivalent and are refused.)
``score1``, ``score2``
    the upper-case and the lower-case player's scores.
``rules``
    match play: 1 = this is the Crawford game, else 0. Money game: 1 = Jacoby rule,
    2 = beavers, 3 = both, 0 = neither.
``matchlength``
    0 for a money game.
``maxcube``
    log2 of XG's cube limit (usually 10); gnubg ignores it except that 0 means no cube.

Players: gnubg's ``set xgid`` reads the upper-case checkers (XG's "X", drawn at the
bottom) as gnubg's player 1 and the lower-case ones as gnubg's player 0, and so do we:
**lower case = our player 0, upper case = our player 1**.
"""

from __future__ import annotations

import re

from gammon.core.errors import InvalidNotationError
from gammon.core.position import Position
from gammon.notation.gnuid import (
    MAX_CHECKERS,
    MAX_CUBE_LOG2,
    MAX_MATCH_LENGTH,
    GameStatus,
    Resignation,
)
from gammon.notation.situation import Situation

__all__ = ["format_xgid", "parse_xgid", "parse_xgid_board", "xgid_board"]

FIELD_NAMES = (
    "board",
    "cube",
    "cubepos",
    "turn",
    "dice",
    "score1",
    "score2",
    "rules",
    "matchlength",
    "maxcube",
)
_INT = re.compile(r"[+-]?\d+")


def xgid_board(position: Position) -> str:
    """The 26-character XGID board of ``position`` (player 0 lower case, 1 upper case)."""
    row0, row1 = position.row(0), position.row(1)
    chars = []
    for i in range(26):
        if i == 0:
            lower, upper = row0[25], 0
        elif i == 25:
            lower, upper = 0, row1[25]
        else:
            lower, upper = row0[25 - i], row1[i]
        if lower and upper:
            raise InvalidNotationError(
                f"XGID board: character {i} would hold checkers of both players"
            )
        if lower > 16 or upper > 16:
            raise InvalidNotationError(
                f"XGID board: at most 16 checkers fit one character, not {max(lower, upper)}"
            )
        chars.append(
            chr(ord("a") + lower - 1) if lower else chr(ord("A") + upper - 1) if upper else "-"
        )
    return "".join(chars)


def parse_xgid_board(text: str, turn: int = 0, *, checkers: int = MAX_CHECKERS) -> Position:
    """Read the 26-character board field of an XGID; ``turn`` is the player on roll."""
    if len(text) != 26:
        raise InvalidNotationError(
            f"an XGID board has 26 characters (bar, points 1-24, bar), {text!r} has {len(text)}"
        )
    rows = [[0] * 26, [0] * 26]
    for i, ch in enumerate(text):
        if ch == "-":
            continue
        if "a" <= ch <= "p":
            if i == 25:
                raise InvalidNotationError(
                    f"XGID board {text!r}: the last character is the upper-case player's bar, "
                    f"so it is '-' or A-P, not {ch!r}"
                )
            rows[0][25 if i == 0 else 25 - i] = ord(ch) - ord("a") + 1
        elif "A" <= ch <= "P":
            if i == 0:
                raise InvalidNotationError(
                    f"XGID board {text!r}: the first character is the lower-case player's bar, "
                    f"so it is '-' or a-p, not {ch!r}"
                )
            rows[1][i] = ord(ch) - ord("A") + 1
        else:
            raise InvalidNotationError(
                f"XGID board {text!r}: character {i} is {ch!r}; allowed are '-' (empty), "
                "A-P (1-16 upper-case checkers) and a-p (1-16 lower-case checkers)"
            )
    for player, row in enumerate(rows):
        in_play = sum(row)
        if in_play > checkers:
            case = "lower" if player == 0 else "upper"
            raise InvalidNotationError(
                f"XGID board {text!r}: the {case}-case player has {in_play} checkers, "
                f"at most {checkers} are allowed"
            )
        row[0] = checkers - in_play
    return Position.from_checkers(rows, turn=turn)


def _int_field(fields: list[str], index: int, low: int, high: int, meaning: str) -> int:
    raw = fields[index]
    name = FIELD_NAMES[index]
    if not _INT.fullmatch(raw):
        raise InvalidNotationError(
            f"XGID field {index + 1} ({name}) is a whole number ({meaning}), not {raw!r}"
        )
    value = int(raw)
    if not low <= value <= high:
        raise InvalidNotationError(
            f"XGID field {index + 1} ({name}) is {value}; allowed: {meaning}"
        )
    return value


def parse_xgid(text: str, *, checkers: int = MAX_CHECKERS) -> Situation:
    """Read an XGID into a :class:`Situation` (the ``XGID=`` prefix is optional)."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"an XGID is a string, not {type(text).__name__}")
    body = text.strip()
    if body[:5].upper() == "XGID=":
        body = body[5:]
    shown = text.strip()
    fields = body.split(":")
    if len(fields) != len(FIELD_NAMES):
        raise InvalidNotationError(
            f"an XGID has {len(FIELD_NAMES)} fields separated by ':' "
            f"({':'.join(FIELD_NAMES)}), {shown!r} has {len(fields)}"
        )
    try:
        match_length = _int_field(
            fields,
            8,
            0,
            MAX_MATCH_LENGTH,
            f"0 for money, else a match length up to {MAX_MATCH_LENGTH}",
        )
        turn = _int_field(fields, 3, -1, 1, "1 (upper case on roll) or -1 (lower case)")
        if turn == 0:
            raise InvalidNotationError(
                "XGID field 4 (turn) is 1 (upper case on roll) or -1 (lower case), not 0"
            )
        on_roll = 1 if turn == 1 else 0
        position = parse_xgid_board(fields[0], on_roll, checkers=checkers)
        cube_log2 = _int_field(
            fields, 1, 0, MAX_CUBE_LOG2, f"log2 of the cube value, 0 to {MAX_CUBE_LOG2}"
        )
        cubepos = _int_field(
            fields, 2, -1, 1, "0 centred, 1 upper case owns it, -1 lower case owns it"
        )
        score1 = _int_field(fields, 5, 0, (1 << 15) - 1, "the upper-case player's score")
        score2 = _int_field(fields, 6, 0, (1 << 15) - 1, "the lower-case player's score")
        if match_length:
            rules = _int_field(fields, 7, 0, 1, "in match play 1 = Crawford game, else 0")
        else:
            rules = _int_field(
                fields, 7, 0, 3, "in a money game 0-3: 1 = Jacoby rule, 2 = beavers, 3 = both"
            )
        max_cube_log2 = _int_field(
            fields, 9, 0, MAX_CUBE_LOG2, f"log2 of the cube limit, 0 to {MAX_CUBE_LOG2}"
        )
        dice_text = fields[4]
        dice: tuple[int, int] | None = None
        doubled = False
        if dice_text == "D":
            doubled = True
        elif dice_text in ("B", "R"):
            raise InvalidNotationError(
                f"XGID field 5 (dice) {dice_text!r}: beavered and raccooned cubes cannot be "
                "read (gnubg has no such state); allowed: 00, two dice 1-6, or D"
            )
        elif re.fullmatch(r"[0-6]{2}", dice_text):
            a, b = int(dice_text[0]), int(dice_text[1])
            if (a == 0) != (b == 0):
                raise InvalidNotationError(
                    f"XGID field 5 (dice) is {dice_text!r}: one die is 0; "
                    "allowed: 00 (not rolled), two dice 1-6, or D (double offered)"
                )
            dice = (a, b) if a else None
        else:
            raise InvalidNotationError(
                f"XGID field 5 (dice) is {dice_text!r}; allowed: 00 (not rolled), "
                "two dice 1-6 such as 52, or D (double offered)"
            )
        if match_length and max(score1, score2) >= match_length:
            raise InvalidNotationError(
                f"impossible score {score1}-{score2} (upper-lower case) in a "
                f"{match_length}-point match: a game is being played, so both scores "
                f"are below {match_length}"
            )
        return Situation(
            position=position,
            dice=dice,
            cube_value=1 << cube_log2,
            cube_owner={0: None, 1: 1, -1: 0}[cubepos],
            score=(score2, score1),
            match_length=match_length,
            crawford=bool(match_length and rules == 1),
            jacoby=bool(not match_length and rules & 1),
            beaver=bool(not match_length and rules & 2),
            max_cube=1 << max_cube_log2,
            game_state=GameStatus.PLAYING,
            double_offered=doubled,
        )
    except InvalidNotationError as err:
        raise InvalidNotationError(f"XGID {shown!r}: {err}") from None


def format_xgid(situation: Situation) -> str:
    """The XGID of ``situation``.

    An XGID describes a game in progress with no resignation on offer; other situations
    raise :class:`InvalidNotationError`.
    """
    s = situation
    if s.game_state != GameStatus.PLAYING:
        raise InvalidNotationError(
            f"an XGID describes a game being played, not game state {s.game_state.name.lower()}"
        )
    if s.resigned != Resignation.NONE:
        raise InvalidNotationError("an XGID cannot say that a resignation is on offer")
    if s.turn != (1 - s.on_roll if s.double_offered else s.on_roll):
        raise InvalidNotationError(
            "an XGID cannot say that a player other than the one on roll is to act "
            "when no double is offered"
        )
    if s.double_offered:
        dice = "D"
    elif s.dice is None:
        dice = "00"
    else:
        dice = f"{s.dice[0]}{s.dice[1]}"
    rules = int(s.jacoby) + 2 * int(s.beaver) if s.money else int(s.crawford)
    cubepos = {None: 0, 1: 1, 0: -1}[s.cube_owner]
    return (
        f"XGID={xgid_board(s.position)}:{s.cube_value.bit_length() - 1}:{cubepos}:"
        f"{1 if s.on_roll == 1 else -1}:{dice}:{s.score[1]}:{s.score[0]}:{rules}:"
        f"{s.match_length}:{s.max_cube.bit_length() - 1}"
    )
