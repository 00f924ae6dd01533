"""GNU Backgammon's Position ID and Match ID.

Both are base64 strings of a little-endian bit string (the first bit of the string is
the least significant bit of the first byte), written with gnubg's alphabet
``A-Z a-z 0-9 + /`` and without ``=`` padding.

Players
-------
gnubg's player 0 is our player 0 and gnubg's player 1 is our player 1. In gnubg's own
default set-up player 0 is the computer ("gnubg", drawn at the top of its board) and
player 1 the human at the bottom. In an XGID the *lower-case* checkers are player 0 and
the *upper-case* ("X", bottom) checkers player 1 (see :mod:`gammon.notation.situation`).

Position ID (14 characters, an 80-bit key)
------------------------------------------
For each of the two players, for each of that player's points 1..24 (counted from that
player's side) and then the bar: as many ``1`` bits as checkers there, then one ``0``.
Padded with ``0`` to 80 bits. Borne-off checkers are not recorded: they are the ones
missing from the player's 15 (``checkers``).

**Which player comes first.** gnubg's manual says the key starts with the player on
roll. gnubg itself (1.07, and its source: ``oldPositionKey`` walks ``anBoard[0]`` then
``anBoard[1]``, and ``anBoard[1]`` is the side on roll) writes the *opponent of the
player on roll first and the player on roll second*; we checked this in gnubg
(``tests/test_gnubg_ids.py``) and follow gnubg, not the manual. For the symmetric start
position (``4HPwATDgc/ABMA``) the two readings agree, which is why the slip goes unseen.

The Position ID does not say whose turn it is. :func:`parse_position_id` takes the
player on roll as ``turn`` (default 0); in a full GNU ID (``POSITIONID:MATCHID``) the
Match ID's "player on roll" bit supplies it (:mod:`gammon.notation.situation`).

Match ID (12 characters, a 72-bit key of which 67 bits are used)
----------------------------------------------------------------
Bits (0-based): 0-3 log2 of the cube value, 4-5 cube owner (0, 1, or 3 = centred),
6 player on roll (who rolls or rolled the dice), 7 Crawford game, 8-10 game state
(0 no game, 1 playing, 2 over, 3 resigned, 4 cube dropped), 11 player to make the next
decision ("turn"), 12 double offered, 13-14 resignation offered (0 none, 1 single,
2 gammon, 3 backgammon), 15-17 and 18-20 the dice (0 = not rolled; gnubg writes the
larger die first), 21-35 match length (0 = money game), 36-50 player 0's score, 51-65
player 1's score, 66 *Jacoby rule not in use* (gnubg 1.x; the manual stops at bit 65).
Bits 67-71 are always 0.

Everything malformed raises :class:`~gammon.core.errors.InvalidNotationError` saying
what is wrong and what is allowed.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from enum import IntEnum

from gammon.core.errors import InvalidNotationError, InvalidOptionError
from gammon.core.position import Position
from gammon.core.protocol import Phase
from gammon.stakes.cube import DROP, RESIGNED, CubeState
from gammon.stakes.rules import GEOMETRIC

__all__ = [
    "MAX_CHECKERS",
    "MAX_CUBE_LOG2",
    "MAX_MATCH_LENGTH",
    "GameStatus",
    "MatchInfo",
    "Resignation",
    "check_board",
    "match_id",
    "parse_match_id",
    "parse_position_id",
    "position_id",
    "state_gnubg_id",
    "state_match_id",
    "state_match_info",
]

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
#: Checkers per player that gnubg's formats can hold.
MAX_CHECKERS = 15
#: gnubg refuses longer matches (``MAXSCORE``).
MAX_MATCH_LENGTH = 64
#: The Match ID keeps log2 of the cube value in 4 bits: a 32768-cube at most.
MAX_CUBE_LOG2 = 15
#: Scores are 15-bit fields.
MAX_SCORE = (1 << 15) - 1

_BASE64 = re.compile(r"[A-Za-z0-9+/]*")
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


class GameStatus(IntEnum):
    """The game state of a Match ID (bits 8-10)."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


class Resignation(IntEnum):
    """A resignation on offer (bits 13-14): how much the resigning player gives up."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


# --------------------------------------------------------------------------- base64


def _decode(text: object, length: int, what: str) -> int:
    """Decode a gnubg base64 ID of ``length`` characters into a little-endian integer."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"a {what} is a string, not {type(text).__name__}")
    text = text.strip()
    if len(text) != length:
        raise InvalidNotationError(
            f"a {what} has exactly {length} characters, {text!r} has {len(text)}"
        )
    if not _BASE64.fullmatch(text):
        bad = next(ch for ch in text if ch not in _ALPHABET)
        raise InvalidNotationError(
            f"{what} {text!r}: {bad!r} is not a base64 character (allowed: A-Z, a-z, 0-9, + and /)"
        )
    padded = text + "=" * (-len(text) % 4)
    try:
        raw = base64.b64decode(padded, validate=True)
    except binascii.Error as err:  # pragma: no cover - the alphabet was checked above
        raise InvalidNotationError(f"{what} {text!r} is not valid base64: {err}") from None
    if length == POSITION_ID_LENGTH and _ALPHABET.index(text[-1]) & 0x0F:
        raise InvalidNotationError(
            f"{what} {text!r}: the last character carries only 2 bits of the 80-bit key "
            f"and must be one of A, Q, g or w, not {text[-1]!r}"
        )
    return int.from_bytes(raw, "little")


def _encode(key: int, nbytes: int) -> str:
    return base64.b64encode(key.to_bytes(nbytes, "little")).decode("ascii").rstrip("=")


# ----------------------------------------------------------------------- Position ID


def check_board(position: Position, what: str = "position") -> None:
    """Check that ``position`` is a standard-board position gnubg's formats can hold.

    Two players, 24 points, at most 15 checkers of each player on the points and bar,
    no point held by both players, and not both players on the bar against closed
    boards (which no game can reach; gnubg refuses it too).
    """
    if position.players != 2 or position.points != 24:
        raise InvalidNotationError(
            f"{what}: gnubg IDs and XGIDs describe 2 players on 24 points, not "
            f"{position.players} players on {position.points} points"
        )
    rows = [position.row(p) for p in (0, 1)]
    for p, row in enumerate(rows):
        in_play = sum(row[1:])
        if in_play > MAX_CHECKERS:
            raise InvalidNotationError(
                f"{what}: player {p} has {in_play} checkers on the points and bar, "
                f"at most {MAX_CHECKERS} are allowed"
            )
    for point in range(1, 25):
        if rows[0][point] and rows[1][25 - point]:
            raise InvalidNotationError(
                f"{what}: player 0's point {point} (player 1's point {25 - point}) holds "
                "checkers of both players; a point holds checkers of one player only"
            )
    if all(row[25] for row in rows) and all(
        all(row[point] >= 2 for point in range(1, 7)) for row in rows
    ):
        raise InvalidNotationError(
            f"{what}: both players have checkers on the bar against closed home boards, "
            "which no game can reach"
        )


def position_id(position: Position) -> str:
    """The 14-character GNU Position ID of ``position``, seen from ``position.turn``.

    The key holds the opponent of the player on roll first, then the player on roll
    (gnubg's actual order; see the module docstring). Borne-off checkers are not part of
    the ID.
    """
    check_board(position)
    on_roll = position.turn
    key = 0
    bit = 0
    for player in (1 - on_roll, on_roll):
        row = position.row(player)
        for slot in range(1, 26):  # points 1..24, then the bar (slot 25)
            n = row[slot]
            key |= ((1 << n) - 1) << bit
            bit += n + 1
    return _encode(key, 10)


def parse_position_id(text: str, turn: int = 0, *, checkers: int = MAX_CHECKERS) -> Position:
    """Read a GNU Position ID into a :class:`Position` whose player on roll is ``turn``.

    The ID does not say whose turn it is, so ``turn`` names the player on roll (0 or 1):
    the ID's second half is that player's checkers, its first half the opponent's.
    Each player owns ``checkers`` checkers (15 in backgammon, 1-3 in hypergammon); those
    not on the points or bar are borne off.
    """
    if turn not in (0, 1):
        raise InvalidNotationError(f"the player on roll is 0 or 1, not {turn!r}")
    if not 0 <= checkers <= MAX_CHECKERS:
        raise InvalidNotationError(f"a player has 0 to {MAX_CHECKERS} checkers, not {checkers}")
    key = _decode(text, POSITION_ID_LENGTH, "Position ID")
    shown = text.strip()
    halves: list[list[int]] = [[0] * 26, [0] * 26]
    half, slot, n = 0, 1, 0
    bit = 0
    while half < 2:
        if bit >= 80:
            raise InvalidNotationError(
                f"Position ID {shown!r} holds more than {2 * MAX_CHECKERS} checkers: the key "
                f"ends inside player {(1 - turn) if half == 0 else turn}'s checkers"
            )
        if key >> bit & 1:
            n += 1
        else:
            halves[half][slot] = n
            n = 0
            slot += 1
            if slot == 26:
                half, slot = half + 1, 1
        bit += 1
    if key >> bit:
        raise InvalidNotationError(
            f"Position ID {shown!r} has set bits after the last point: the key must end "
            "with zero padding"
        )
    rows: list[list[int]] = [[], []]
    for half, player in ((0, 1 - turn), (1, turn)):
        row = halves[half]
        in_play = sum(row)
        if in_play > checkers:
            raise InvalidNotationError(
                f"Position ID {shown!r} gives player {player} {in_play} checkers, "
                f"at most {checkers} are allowed"
            )
        row[0] = checkers - in_play
        rows[player] = row
    position = Position.from_checkers(rows, turn=turn)
    check_board(position, f"Position ID {shown!r}")
    return position


# -------------------------------------------------------------------------- Match ID


def _check_player(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in (0, 1):
        raise InvalidNotationError(f"{what} is player 0 or 1, not {value!r}")
    return value


def check_cube_power(value: object, what: str) -> None:
    """Raise unless ``value`` is a cube face: a power of two up to gnubg's limit."""
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < 1
        or value & (value - 1)
        or value > 1 << MAX_CUBE_LOG2
    ):
        raise InvalidNotationError(
            f"{what} is a power of two from 1 to {1 << MAX_CUBE_LOG2}, not {value!r}"
        )


@dataclass(frozen=True)
class MatchInfo:
    """Everything a GNU Match ID says: cube, players to act, game state, dice, score.

    ``on_roll`` is the player who rolls or rolled the dice (gnubg's ``fMove``); ``turn``
    is the player who makes the next decision (``fTurn``): the same player, except while
    a double or a resignation is on offer, when it is the one who must answer. Left as
    ``None``, ``turn`` is derived that way. ``dice`` is ``None`` before the roll and is
    kept larger die first, as gnubg writes it. ``cube_owner`` is ``None`` for a centred
    cube. ``match_length`` 0 is a money game. ``jacoby`` is gnubg's Jacoby flag (bit 66).

    The values are checked: an impossible combination raises
    :class:`InvalidNotationError`.
    """

    on_roll: int = 0
    dice: tuple[int, int] | None = None
    cube_value: int = 1
    cube_owner: int | None = None
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    crawford: bool = False
    jacoby: bool = False
    game_state: GameStatus = GameStatus.PLAYING
    double_offered: bool = False
    resigned: Resignation = Resignation.NONE
    turn: int | None = None

    def __post_init__(self) -> None:
        put = object.__setattr__
        on_roll = _check_player(self.on_roll, "the player on roll")
        put(self, "on_roll", on_roll)
        try:
            put(self, "game_state", GameStatus(self.game_state))
        except ValueError:
            raise InvalidNotationError(
                f"the game state is 0-4 (none, playing, over, resigned, dropped), "
                f"not {self.game_state!r}"
            ) from None
        try:
            put(self, "resigned", Resignation(self.resigned))
        except ValueError:
            raise InvalidNotationError(
                f"a resignation is 0-3 (none, single, gammon, backgammon), not {self.resigned!r}"
            ) from None
        put(self, "double_offered", bool(self.double_offered))
        put(self, "crawford", bool(self.crawford))
        put(self, "jacoby", bool(self.jacoby))
        # the dice
        dice = self.dice
        if dice is not None:
            if not (isinstance(dice, tuple | list) and len(dice) == 2):
                raise InvalidNotationError(f"the dice are two numbers 1-6 or None, not {dice!r}")
            a, b = dice
            if a == 0 and b == 0:
                dice = None
            elif not all(isinstance(d, int) and 1 <= d <= 6 for d in (a, b)):
                raise InvalidNotationError(
                    f"each die shows 1 to 6 (or both 0: not rolled yet), not {a!r} and {b!r}"
                )
            else:
                dice = (max(a, b), min(a, b))
        put(self, "dice", dice)
        # the cube
        check_cube_power(self.cube_value, "the cube value")
        if self.cube_owner is not None:
            put(self, "cube_owner", _check_player(self.cube_owner, "the cube owner"))
        # the match
        length = self.match_length
        if not isinstance(length, int) or not 0 <= length <= MAX_MATCH_LENGTH:
            raise InvalidNotationError(
                f"the match length is 0 (money game) to {MAX_MATCH_LENGTH}, not {length!r}"
            )
        score = self.score
        if not (
            isinstance(score, tuple | list)
            and len(score) == 2
            and all(isinstance(s, int) and s >= 0 for s in score)
        ):
            raise InvalidNotationError(f"the score is two whole numbers >= 0, not {score!r}")
        score = (int(score[0]), int(score[1]))
        put(self, "score", score)
        if length == 0:
            if max(score) > MAX_SCORE:
                raise InvalidNotationError(
                    f"a money-game score is at most {MAX_SCORE}, not {max(score)}"
                )
            if self.crawford:
                raise InvalidNotationError("a money game has no Crawford game")
        else:
            # A finished match may end past its length (a gammon at 6-away in a
            # 7-point match makes 8): gnubg writes such scores, so they are read.
            if min(score) >= length:
                raise InvalidNotationError(
                    f"impossible score {score[0]}-{score[1]} in a {length}-point match: "
                    "both players cannot have won"
                )
            if self.game_state == GameStatus.PLAYING and max(score) >= length:
                raise InvalidNotationError(
                    f"impossible score {score[0]}-{score[1]} in a {length}-point match: "
                    "a game is being played, so nobody has reached the match length yet"
                )
            if self.crawford and (length == 1 or length - 1 not in score):
                raise InvalidNotationError(
                    f"the Crawford game needs a player at {length - 1} "
                    f"(one point from winning a match longer than 1), "
                    f"not the score {score[0]}-{score[1]}"
                )
        # who acts
        if self.double_offered and dice is not None:
            raise InvalidNotationError(
                "a double is offered before the roll: the dice cannot be rolled yet"
            )
        answering = self.double_offered or self.resigned != Resignation.NONE
        if self.turn is None:
            put(self, "turn", 1 - on_roll if answering else on_roll)
        else:
            put(self, "turn", _check_player(self.turn, "the player to act (turn)"))
        # A double offered with the doubler to act is a beaver to answer: gnubg writes
        # it so, and it is read as such.

    @property
    def money(self) -> bool:
        return self.match_length == 0


def match_id(info: MatchInfo) -> str:
    """The 12-character GNU Match ID of ``info``."""
    fields = (
        (0, 4, info.cube_value.bit_length() - 1),
        (4, 2, 3 if info.cube_owner is None else info.cube_owner),
        (6, 1, info.on_roll),
        (7, 1, int(info.crawford)),
        (8, 3, int(info.game_state)),
        (11, 1, info.turn),
        (12, 1, int(info.double_offered)),
        (13, 2, int(info.resigned)),
        (15, 3, info.dice[0] if info.dice else 0),
        (18, 3, info.dice[1] if info.dice else 0),
        (21, 15, info.match_length),
        (36, 15, info.score[0]),
        (51, 15, info.score[1]),
        (66, 1, int(not info.jacoby)),
    )
    key = 0
    for start, _width, value in fields:
        key |= int(value) << start  # type: ignore[arg-type]
    return _encode(key, 9)


def parse_match_id(text: str) -> MatchInfo:
    """Read a GNU Match ID."""
    key = _decode(text, MATCH_ID_LENGTH, "Match ID")
    shown = text.strip()

    def bits(start: int, width: int) -> int:
        return key >> start & ((1 << width) - 1)

    if key >> 67:
        raise InvalidNotationError(
            f"Match ID {shown!r}: bits 67-71 of the key are unused and must be 0 "
            "(gnubg's last character is A, B, C, D, E, F, G or H)"
        )
    owner = bits(4, 2)
    if owner == 2:
        raise InvalidNotationError(
            f"Match ID {shown!r}: the cube owner is 0, 1 or 3 (centred), not 2"
        )
    die1, die2 = bits(15, 3), bits(18, 3)
    if die1 > 6 or die2 > 6 or (die1 == 0) != (die2 == 0):
        raise InvalidNotationError(
            f"Match ID {shown!r}: the dice are two numbers 1-6, or both 0 before the roll, "
            f"not {die1} and {die2}"
        )
    state = bits(8, 3)
    if state > 4:
        raise InvalidNotationError(
            f"Match ID {shown!r}: the game state is 0-4 (none, playing, over, resigned, "
            f"dropped), not {state}"
        )
    try:
        return MatchInfo(
            on_roll=bits(6, 1),
            dice=(die1, die2) if die1 else None,
            cube_value=1 << bits(0, 4),
            cube_owner=None if owner == 3 else owner,
            score=(bits(36, 15), bits(51, 15)),
            match_length=bits(21, 15),
            crawford=bool(bits(7, 1)),
            jacoby=not bits(66, 1),
            game_state=GameStatus(state),
            double_offered=bool(bits(12, 1)),
            resigned=Resignation(bits(13, 2)),
            turn=bits(11, 1),
        )
    except InvalidNotationError as err:
        raise InvalidNotationError(f"Match ID {shown!r}: {err}") from None


# --- the IDs of a game with stakes -----------------------------------------------------------


def state_match_info(state: CubeState) -> MatchInfo:
    """What the GNU Match ID of a :class:`~gammon.stakes.cube.CubeState` says, as gnubg
    writes it (a beaver on offer has the doubler, who is on roll, to act; a finished
    match may end past its length)."""
    if state.base.position.players != 2:
        raise InvalidOptionError("a GNU Match ID is for two-player games")
    value = state.cube_value
    if value & (value - 1) or value > 1 << MAX_CUBE_LOG2:
        raise InvalidOptionError(
            f"a GNU Match ID holds a cube of 1, 2, 4, ... {1 << MAX_CUBE_LOG2}, not {value}"
            + (" (arithmetic stakes)" if state.stakes.progression != GEOMETRIC else "")
        )
    base = state.base
    on_roll = base.position.turn
    dice = base.dice if base.phase is Phase.DECIDE and len(base.dice) == 2 else None
    score = state.score
    status = GameStatus.PLAYING
    resigned = Resignation.NONE
    turn = state.current_player if state.current_player is not None else on_roll
    if state.resignation is not None:
        resigned = Resignation(state.resignation[1])
    if state.is_terminal:
        score = state.result_score
        if state.ending is None:
            # Game over by play: gnubg hands the move to the loser.
            status = GameStatus.OVER
            loser = 1 - state.winner if state.winner is not None else on_roll
            on_roll = turn = loser
            dice = None
        else:
            status = GameStatus.DROPPED if state.ending.how == DROP else GameStatus.RESIGNED
            turn = 1 - state.ending.winner
            if state.ending.how == RESIGNED:
                resigned = Resignation(state.ending.level)
                turn = state.ending.winner
    return MatchInfo(
        on_roll=on_roll, dice=dice, cube_value=value, cube_owner=state.cube_owner,
        score=(score.score[0], score.score[1]), match_length=score.length,
        crawford=score.crawford,
        jacoby=state.stakes.jacoby and score.money, game_state=status,
        double_offered=state.offer is not None, resigned=resigned, turn=turn,
    )


def state_match_id(state: CubeState) -> str:
    """The GNU Match ID of a cube state (cube, score, match, who acts), as gnubg writes
    it (**RECORD-MATCH-ID**)."""
    return match_id(state_match_info(state))


def state_gnubg_id(state: CubeState) -> str:
    """``POSITIONID:MATCHID`` of a cube state, the Position ID from the side of the
    player on roll."""
    info = state_match_info(state)
    return f"{position_id(state.base.position.with_turn(info.on_roll))}:{match_id(info)}"
