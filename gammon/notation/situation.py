"""A whole backgammon decision point: position, dice, cube, score, match, as the IDs say.

:class:`Situation` is what a GNU ID (``POSITIONID:MATCHID``) or an XGID describes, and
converts between the two. :func:`situation_from_text` reads either form (for
``gammon id``).

Players: gnubg's player 0 is our player 0, gnubg's player 1 our player 1. In an XGID
the lower-case checkers (XG's "O", top, ``turn -1``, ``cubepos -1``, second score) are
player 0 and the upper-case ones (XG's "X", bottom, ``turn 1``, ``cubepos 1``, first
score) player 1: that is how gnubg's ``set xgid`` reads them, so an XGID and the GNU ID
that gnubg makes of it agree with ours.
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
    POSITION_ID_LENGTH,
    GameStatus,
    MatchInfo,
    Resignation,
    check_cube_power,
)

__all__ = ["Situation", "situation_from_text"]

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
        from gammon.notation.xgid import parse_xgid  # xgid builds Situations: a circle at the top

        return parse_xgid(text, checkers=checkers)

    def xgid(self) -> str:
        """The XGID of this situation (raises if it has what an XGID cannot say)."""
        from gammon.notation.xgid import format_xgid  # as above

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
