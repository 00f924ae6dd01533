"""A whole backgammon decision point: position, dice, cube, score, match, as the IDs say.

:class:`Situation` is what a GNU ID (``POSITIONID:MATCHID``) or an XGID describes, and
converts between the two. :func:`situation_from_text` reads either form (for
``gammon id``).

Players: gnubg's player 0 is our player 0, gnubg's player 1 our player 1. In an XGID
the lower-case checkers (XG's "O", top, ``turn -1``, ``cubepos -1``, second score) are
player 0 and the upper-case ones (XG's "X", bottom, ``turn 1``, ``cubepos 1``, first
score) player 1: that is how gnubg's ``set xgid`` reads them, so an XGID and the GNU ID
that gnubg makes of it agree with ours.

**The XGID.** eXtreme Gammon's XGID.

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
from dataclasses import dataclass, fields, replace
from typing import Any

from gammon.core.errors import InvalidNotationError
from gammon.core.position import Position
from gammon.notation import gnuid
from gammon.notation.gnuid import (
    MATCH_ID_LENGTH,
    MAX_CHECKERS,
    MAX_CUBE_LOG2,
    MAX_MATCH_LENGTH,
    POSITION_ID_LENGTH,
    GameStatus,
    MatchInfo,
    Resignation,
    check_cube_power,
)

__all__ = ["Situation", "format_xgid", "parse_xgid", "parse_xgid_board", "situation_from_text",
           "xgid_board"]

_MATCH_FIELDS = tuple(f.name for f in fields(MatchInfo) if f.name != "on_roll")


@dataclass(frozen=True)
class Situation:
    """A position with everything around it that gnubg's and XG's IDs record.

    ``position.turn`` is the player on roll: the one who rolls (or rolled) the dice, or
    who doubles. ``turn`` is the player to make the next decision: the player on roll,
    except while a double or resignation is on offer (then the player who must answer);
    left as ``None`` it is derived that way.

    Fields: ``dice`` (``None`` before the roll, else larger die first), ``cube_value``
    (1, 2, 4, ...), ``cube_owner`` (``None`` = centred, else 0 or 1), ``score`` (player
    0's, player 1's), ``match_length`` (0 = money game), ``crawford`` (this is the
    Crawford game), ``jacoby`` (money game: gammons count only after a double; the GNU
    Match ID keeps gnubg's Jacoby flag even in match play), ``beaver`` (money game:
    beavers allowed; XGID only), ``max_cube`` (XG's cube limit; XGID only, 1 = no cube
    in gnubg), ``game_state``, ``double_offered``, ``resigned`` (GNU Match ID only).

    Invalid combinations raise :class:`~gammon.core.errors.InvalidNotationError`.
    """

    position: Position
    dice: tuple[int, int] | None = None
    cube_value: int = 1
    cube_owner: int | None = None
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    max_cube: int = 1024
    game_state: GameStatus = GameStatus.PLAYING
    double_offered: bool = False
    resigned: Resignation = Resignation.NONE
    turn: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.position, Position):
            raise InvalidNotationError(
                f"a situation needs a Position, not {type(self.position).__name__}"
            )
        gnuid.check_board(self.position)
        info = MatchInfo(
            on_roll=self.position.turn,
            **{name: getattr(self, name) for name in _MATCH_FIELDS},
        )
        for name in _MATCH_FIELDS:  # take over MatchInfo's normal forms
            object.__setattr__(self, name, getattr(info, name))
        object.__setattr__(self, "beaver", bool(self.beaver))
        check_cube_power(self.max_cube, "the cube limit")

    # ------------------------------------------------------------------ views

    @property
    def on_roll(self) -> int:
        """The player who rolls or rolled the dice (gnubg's ``fMove``)."""
        return self.position.turn

    @property
    def money(self) -> bool:
        return self.match_length == 0

    @property
    def match_info(self) -> MatchInfo:
        """The part of the situation that a GNU Match ID holds."""
        return MatchInfo(
            on_roll=self.on_roll, **{name: getattr(self, name) for name in _MATCH_FIELDS}
        )

    def replace(self, **changes: Any) -> Situation:
        """A copy with some fields changed (checked again)."""
        if "position" not in changes and "on_roll" in changes:
            changes["position"] = self.position.with_turn(changes.pop("on_roll"))
        if "turn" not in changes and any(
            k in changes for k in ("position", "double_offered", "resigned")
        ):
            changes["turn"] = None
        return replace(self, **changes)

    # ------------------------------------------------------------------ GNU ID

    @classmethod
    def from_gnubg_id(cls, text: str, *, checkers: int = MAX_CHECKERS) -> Situation:
        """Read a GNU ID ``POSITIONID:MATCHID`` (gnubg's ``gnubgid``).

        The Match ID's "player on roll" says from whose side the Position ID is written.
        ``checkers`` is each player's total (those not on the board are borne off).
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"a GNU ID is a string, not {type(text).__name__}")
        parts = text.strip().split(":")
        if len(parts) != 2:
            raise InvalidNotationError(
                f"a GNU ID is POSITIONID:MATCHID ({POSITION_ID_LENGTH} and {MATCH_ID_LENGTH} "
                f"base64 characters joined by one ':'), {text.strip()!r} has "
                f"{len(parts)} part{'s' if len(parts) != 1 else ''}"
            )
        return cls.from_ids(parts[0], parts[1], checkers=checkers)

    @classmethod
    def from_ids(
        cls, position_id: str, match_id: str, *, checkers: int = MAX_CHECKERS
    ) -> Situation:
        """Read a Position ID and a Match ID given apart."""
        info = gnuid.parse_match_id(match_id)
        position = gnuid.parse_position_id(position_id, info.on_roll, checkers=checkers)
        return cls.from_match_info(position, info)

    @classmethod
    def from_match_info(cls, position: Position, info: MatchInfo) -> Situation:
        """Join a position and a Match ID's content (``info.on_roll`` sets the turn)."""
        return cls(
            position=position.with_turn(info.on_roll),
            **{name: getattr(info, name) for name in _MATCH_FIELDS},
        )

    def position_id(self) -> str:
        """The GNU Position ID, written from the side of the player on roll."""
        return gnuid.position_id(self.position)

    def match_id(self) -> str:
        """The GNU Match ID."""
        return gnuid.match_id(self.match_info)

    def gnubg_id(self) -> str:
        """The GNU ID ``POSITIONID:MATCHID``, as gnubg's ``gnubgid`` writes it."""
        return f"{self.position_id()}:{self.match_id()}"

    # ------------------------------------------------------------------ XGID

    @classmethod
    def from_xgid(cls, text: str, *, checkers: int = MAX_CHECKERS) -> Situation:
        """Read an eXtreme Gammon XGID (``XGID=`` prefix optional)."""
        return parse_xgid(text, checkers=checkers)

    def xgid(self) -> str:
        """The XGID of this situation (raises if it has what an XGID cannot say)."""
        return format_xgid(self)

    # ------------------------------------------------------------------ text

    @classmethod
    def from_text(cls, text: str, *, checkers: int = MAX_CHECKERS) -> Situation:
        """Read an XGID or a GNU ID; see :func:`situation_from_text`."""
        return situation_from_text(text, checkers=checkers)

    def describe(self) -> dict[str, str]:
        """Every field and ID as short text, in display order (for ``gammon id``).

        The ``XGID`` entry says why when the situation cannot be written as an XGID.
        """
        try:
            xgid = self.xgid()
        except InvalidNotationError as err:
            xgid = f"(none: {err})"
        match = "money game" if self.money else f"{self.match_length}-point match"
        rules = []
        if self.crawford:
            rules.append("Crawford game")
        if self.money and self.jacoby:
            rules.append("Jacoby")
        if self.money and self.beaver:
            rules.append("beavers")
        owner = "centred" if self.cube_owner is None else f"owned by player {self.cube_owner}"
        return {
            "GNU ID": self.gnubg_id(),
            "Position ID": self.position_id(),
            "Match ID": self.match_id(),
            "XGID": xgid,
            "on roll": f"player {self.on_roll}",
            "to act": f"player {self.turn}",
            "dice": "not rolled" if self.dice is None else f"{self.dice[0]}-{self.dice[1]}",
            "cube": f"{self.cube_value}, {owner}",
            "score": f"{self.score[0]}-{self.score[1]} (player 0-player 1)",
            "match": match,
            "rules": ", ".join(rules) or "-",
            "game state": self.game_state.name.lower(),
            "double offered": "yes" if self.double_offered else "no",
            "resignation": self.resigned.name.lower(),
            "pips": f"{self.position.pips(0)}-{self.position.pips(1)} (player 0-player 1)",
        }


_LABEL = re.compile(r"\b(?:position|match)\s*id\s*:", re.IGNORECASE)


def situation_from_text(text: str, *, checkers: int = MAX_CHECKERS) -> Situation:
    """Read whatever ID ``text`` is: an XGID, a GNU ID, or a lone Position ID.

    Accepted forms:

    - ``XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10`` (``XGID=`` optional);
    - ``4HPwATDgc/ABMA:cAkAAAAAAAAA`` (GNU ID: Position ID ``:`` Match ID), also with
      the two IDs separated by spaces, or as gnubg prints them
      (``Position ID: ... Match ID: ...``);
    - ``4HPwATDgc/ABMA`` alone: a money-game position with player 0 on roll, no dice.
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"an ID is a string, not {type(text).__name__}")
    stripped = text.strip()
    if not stripped:
        raise InvalidNotationError(
            "no ID given: expected an XGID (XGID=...), a GNU ID (POSITIONID:MATCHID) "
            "or a Position ID"
        )
    if stripped[:5].upper() == "XGID=" or stripped.count(":") >= 9:
        return Situation.from_xgid(stripped, checkers=checkers)
    tokens = [t for t in re.split(r"[:\s]+", _LABEL.sub(" ", stripped)) if t]
    if len(tokens) == 1:
        position = gnuid.parse_position_id(tokens[0], 0, checkers=checkers)
        return Situation(position)
    if len(tokens) == 2:
        pos, match = tokens
        if len(pos) == MATCH_ID_LENGTH and len(match) == POSITION_ID_LENGTH:
            pos, match = match, pos  # gnubg takes the two IDs in either order
        return Situation.from_ids(pos, match, checkers=checkers)
    raise InvalidNotationError(
        f"{stripped!r} is not an ID gammon reads: expected an XGID "
        "(XGID=board:cube:cubepos:turn:dice:score1:score2:rules:matchlength:maxcube), "
        f"a GNU ID (a {POSITION_ID_LENGTH}-character Position ID, ':', and a "
        f"{MATCH_ID_LENGTH}-character Match ID) or a lone Position ID"
    )


# --- the XGID ----------------------------------------------------------------------

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
