"""FIBS's board state (``rawboard``): the line that FIBS sends its clients, and that
gnubg sends an external player.

``board:NAME:OPPONENT:LENGTH:SCORE:OPPSCORE:`` then 26 numbers, the board, then 21 more
numbers: 53 fields separated by ``:``, e.g. the opening position with the dice 6-4::

    board:you:them:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:4:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0

The fields, counted from 0 (FIBS's "client interface" page names them):

==========  ==========================================================================
0           ``board``
1, 2        the names of "you" and of your opponent (read and ignored)
3           the match length; 9999 is an unlimited match: money play here
4, 5        your score and your opponent's
6..31       the board: index 0 and 25 are the bars, 1..24 the points; a count with
            your colour's sign is yours, the other sign your opponent's
32          whose turn: your colour or your opponent's (0: the game is over)
33, 34      your dice; 35, 36 your opponent's (0 0: not rolled)
37          the cube's value
38, 39      may you double, may your opponent (1 or 0)
40          a double is on offer (gnubg writes which side doubled in its sign)
41          your colour: 1 (O, positive counts) or -1 (X, negative)
42          your direction: -1 you move from point 24 towards 1, 1 from 1 towards 24
43, 44      home and bar (obsolete)
45, 46      checkers you have borne off, and your opponent
47..50      checkers on the bars, "can move", "forced move" (read from the board instead)
51          the Crawford game has been played
52          redoubles (FIBS); gnubg 1.07 writes 1 there unless this is the Crawford game
==========  ==========================================================================

How the fields are read, where FIBS's page leaves room (gnubg's reading of the same
lines, ``ProcessFIBSBoardInfo`` in its ``drawboard.c``, and what it writes to an external
player, ``FIBSBoard``, decide):

- The player on roll is the colour in field 32. With a double on offer (field 40 not 0,
  or neither player may double: FIBS's way of saying the cube was turned) the player on
  roll is the doubler and the other player must answer.
- Your points are numbered along your direction: with direction -1 board index *i* is
  your point *i*, your bar is index 25 and your opponent's index 0; with direction 1 the
  other way round. Counts on the bars are read by their size (gnubg writes one bar with
  the wrong sign).
- The cube is centred when both players or neither may double, else it is the one's who
  may.
- The dice are the player on roll's: your dice when they are not 0 0, else your
  opponent's.
- Checkers in play and borne off add up to the same number for both players: that is the
  number each started with (15, or 3 in 3-checker hypergammon); anything else is refused.
- In a match where a player needs one point, it is the Crawford game until field 51
  says it has been played (FIBS's "did crawford"; gnubg writes its post-Crawford flag
  there). A match without the Crawford rule cannot be told from the line.

Players: **you are our player 0**, your opponent our player 1.
"""

from __future__ import annotations

from gammon.core.errors import InvalidNotationError
from gammon.core.position import Position
from gammon.notation.gnuid import MAX_CHECKERS, MAX_MATCH_LENGTH
from gammon.notation.situation import Situation

__all__ = ["FIBS_FIELDS", "UNLIMITED", "format_fibs_board", "parse_fibs_board"]

#: Fields of a board line.
FIBS_FIELDS = 53
#: The match length FIBS gives an unlimited match.
UNLIMITED = 9999
#: The longest line read: 53 fields of numbers and two names.
MAX_LINE = 1024

_YOU, _OPPONENT = 0, 1


def _number(fields: list[str], index: int, meaning: str, allowed: range | None = None) -> int:
    text = fields[index].strip()
    try:
        value = int(text)
    except ValueError:
        raise InvalidNotationError(
            f"field {index} ({meaning}) is {text[:20]!r}, not a whole number"
        ) from None
    if allowed is not None and value not in allowed:
        raise InvalidNotationError(
            f"field {index} ({meaning}) is {value}; allowed: {allowed.start} to "
            f"{allowed.stop - 1}"
        )
    return value


def _sign(fields: list[str], index: int, meaning: str) -> int:
    value = _number(fields, index, meaning)
    if value not in (-1, 1):
        raise InvalidNotationError(f"field {index} ({meaning}) is {value}; allowed: 1 or -1")
    return value


def _dice(fields: list[str], index: int, whose: str) -> tuple[int, int] | None:
    a = _number(fields, index, f"{whose} first die", range(7))
    b = _number(fields, index + 1, f"{whose} second die", range(7))
    if (a == 0) != (b == 0):
        raise InvalidNotationError(
            f"fields {index} and {index + 1} ({whose} dice) are {a} and {b}: both 0 "
            "(not rolled) or both 1 to 6"
        )
    return (max(a, b), min(a, b)) if a else None


def parse_fibs_board(text: str, *, checkers: int = MAX_CHECKERS) -> Situation:
    """Read a FIBS board line (``board:...``, 53 fields) into a :class:`Situation`;
    you are player 0. A trailing NUL or line end is ignored."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"a FIBS board is a string, not {type(text).__name__}")
    line = text.strip().strip("\0").strip()
    if len(line) > MAX_LINE:
        raise InvalidNotationError(
            f"a FIBS board line has at most {MAX_LINE} characters, this one {len(line)}"
        )
    fields = line.split(":")
    if fields[0] != "board":
        raise InvalidNotationError(
            f"a FIBS board starts with 'board:', not {line[:12]!r}"
        )
    if len(fields) != FIBS_FIELDS:
        raise InvalidNotationError(
            f"a FIBS board has {FIBS_FIELDS} fields separated by ':', this one {len(fields)}"
        )
    try:
        return _read(fields, checkers)
    except InvalidNotationError as err:
        raise InvalidNotationError(f"FIBS board: {err}") from None


def _read(fields: list[str], checkers: int) -> Situation:
    length = _number(fields, 3, "match length", range(UNLIMITED + 1))
    if length == UNLIMITED:
        length = 0
    elif length > MAX_MATCH_LENGTH:
        raise InvalidNotationError(
            f"field 3 (match length) is {length}; allowed: 1 to {MAX_MATCH_LENGTH}, "
            f"or {UNLIMITED} (unlimited: money play)"
        )
    cap = length if length else 1 << 15
    score = (_number(fields, 4, "your score", range(cap)),
             _number(fields, 5, "your opponent's score", range(cap)))
    counts = [_number(fields, 6 + i, f"board index {i}", range(-checkers, checkers + 1))
              for i in range(26)]
    turn = _number(fields, 32, "whose turn", range(-1, 2))
    if turn == 0:
        raise InvalidNotationError("field 32 (whose turn) is 0: the game is over")
    own_dice = _dice(fields, 33, "your")
    other_dice = _dice(fields, 35, "your opponent's")
    cube = _number(fields, 37, "cube", range(1, (1 << 15) + 1))
    may_double = (_number(fields, 38, "you may double", range(2)),
                  _number(fields, 39, "your opponent may double", range(2)))
    doubled = _number(fields, 40, "double on offer", range(-1, 2)) != 0
    colour = _sign(fields, 41, "your colour")
    direction = _sign(fields, 42, "your direction")
    borne_off = (_number(fields, 45, "your checkers borne off", range(checkers + 1)),
                 _number(fields, 46, "your opponent's checkers borne off",
                         range(checkers + 1)))
    post_crawford = _number(fields, 51, "the Crawford game played", range(2)) == 1

    def index(point: int) -> int:  # board index of your point
        return point if direction < 0 else 25 - point

    rows = [[0] * 26, [0] * 26]
    for point in range(1, 25):
        count = counts[index(point)]
        if count * colour > 0:
            rows[_YOU][point] = abs(count)
        elif count:
            rows[_OPPONENT][25 - point] = abs(count)
    rows[_YOU][25] = abs(counts[index(25) if direction < 0 else 0])
    rows[_OPPONENT][25] = abs(counts[0 if direction < 0 else 25])
    started = set()
    for player, whose in ((_YOU, "you"), (_OPPONENT, "your opponent")):
        in_play = sum(rows[player][1:])
        started.add(in_play + borne_off[player])
        rows[player][0] = borne_off[player]
        if in_play + borne_off[player] > checkers:
            raise InvalidNotationError(
                f"{whose}: {in_play} checkers in play and {borne_off[player]} borne off, "
                f"more than the {checkers} a player has"
            )
    if len(started) != 1:
        raise InvalidNotationError(
            "the players' checkers in play and borne off add up to different numbers "
            f"({' and '.join(map(str, sorted(started)))}): each starts with as many"
        )
    on_roll = _YOU if turn == colour else _OPPONENT
    dice = (own_dice or other_dice) if on_roll == _YOU else (other_dice or own_dice)
    if not doubled and not any(may_double):
        doubled = True  # FIBS: the cube was turned, the other player answers
    if doubled and dice is not None:
        raise InvalidNotationError("a double is on offer but the dice are rolled")
    owner = None if may_double[0] == may_double[1] else (_YOU if may_double[0] else _OPPONENT)
    # Both a point away: the Crawford game has been played.
    crawford = bool(length and length - 1 in score and score != (length - 1,) * 2
                    and not post_crawford)
    return Situation(
        position=Position.from_checkers(rows, turn=on_roll),
        dice=dice,
        cube_value=cube,
        cube_owner=owner,
        score=score,
        match_length=length,
        crawford=crawford,
        double_offered=doubled,
    )


def format_fibs_board(situation: Situation, *, you: int = 0,
                      names: tuple[str, str] = ("you", "opponent")) -> str:
    """``situation`` as a FIBS board line seen by player ``you`` (colour 1, moving from
    24 towards 1, as gnubg writes it)."""
    s = situation
    if you not in (0, 1):
        raise InvalidNotationError(f"you are player 0 or 1, not {you!r}")
    for name in names:
        if ":" in name or "\n" in name or not name:
            raise InvalidNotationError(f"a FIBS name is not empty and has no ':', {name!r}")
    other = 1 - you
    mine, theirs = s.position.row(you), s.position.row(other)
    counts = [0] * 26
    counts[0] = -theirs[25]
    counts[25] = mine[25]
    for point in range(1, 25):
        counts[point] = mine[point] or -theirs[25 - point]
    turn = 1 if s.on_roll == you else -1
    dice = s.dice or (0, 0)
    may = (s.cube_owner in (None, you), s.cube_owner in (None, other))
    tail = [
        turn, *dice, *dice, s.cube_value, int(may[0]), int(may[1]),
        int(s.double_offered), 1, -1, 0, 25, mine[0], theirs[0], 0, 0, 0, 0,
        int(bool(s.match_length and s.match_length - 1 in s.score and not s.crawford)),
        int(not s.crawford),
    ]
    head = [names[0], names[1], s.match_length or UNLIMITED, s.score[you], s.score[other]]
    return ":".join(["board", *map(str, head), *map(str, counts), *map(str, tail)])
