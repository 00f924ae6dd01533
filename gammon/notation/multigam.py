"""Multi-Gam positions and moves as text, on the quarter board's own numbers.

The source numbers the board from where checkers come in: the BAR is point 0, the points
are 1 to 6, and OFF is point 7; every player moves up, BAR -> 1 -> ... -> 6 -> OFF.
Players read and type those numbers, so this notation uses them (internally the point
``p`` is slot ``7 - p``; see :mod:`gammon.variants.multigam`).

Position grammar (:func:`format_position`, :func:`parse_position`)::

    position = player "/" player "/" player "/" player [":" turn]
    player   = checker*        ; one character per checker, exactly five
    checker  = "0" | "b"       ; on the BAR
             | "1" ... "6"     ; on that point
             | "7" | "o"       ; borne off
    turn     = "0" ... "3"     ; the player to move (or to roll); 0 if left out

Players come in player order; letters may be upper or lower case; a player's checkers
may come in any order. The written form lists each player's checkers in ascending order
in digits and always gives the turn: the start is ``00000/00000/00000/00000:0``. A
position has no spaces, so it can stand in a ``POSITION DICE`` line.

Move text (:class:`MultiGamMoves`) follows gnubg's style on these numbers: ``bar/3``,
``2/5``, ``4/off``, ``1/4*`` (a hit), ``bar/6/off`` (one checker, both dice),
``3/5(2)`` (two checkers, a double). ``0`` and ``b`` also mean the BAR, ``7`` and ``o``
mean OFF.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Sequence

from gammon.core.dice import dice_text
from gammon.core.errors import IllegalPlayError, InvalidNotationError
from gammon.core.play import Play
from gammon.core.position import Position
from gammon.core.protocol import Phase
from gammon.core.variant import GameState, TrackVariant
from gammon.notation import movetext
from gammon.notation.codecs import PositionCodec, register_codec
from gammon.notation.movetext import (
    NO_MOVE,
    ParsedMoves,
    PartialPlay,
    register_move_text,
    short_of_checkers,
)

Pair = tuple[int, int]

_BAR_CHARS = {"0", "b"}
_OFF_CHARS = {"7", "o"}


# --- positions -------------------------------------------------------------------------


def parse_position(variant: TrackVariant, text: str) -> Position:
    """Read a position written in the grammar above; raises :class:`InvalidNotationError`."""
    points, bar = variant.points, variant.points + 1
    body, sep, turn_text = text.strip().partition(":")
    fields = body.split("/")
    if len(fields) != variant.players:
        raise InvalidNotationError(
            f"{text!r}: write {variant.players} players separated by '/', like "
            f"{'/'.join(['00000'] * variant.players)}:0"
        )
    rows = []
    for player, checkers in enumerate(fields):
        row = [0] * (points + 2)
        for char in checkers.strip().lower():
            if char in _BAR_CHARS:
                row[bar] += 1
            elif char in _OFF_CHARS:
                row[0] += 1
            elif char.isdigit() and 1 <= int(char) <= points:
                row[bar - int(char)] += 1
            else:
                raise InvalidNotationError(
                    f"{text!r}: {char!r} is not a checker; write 0 (BAR), 1-{points} "
                    f"(a point) or {bar} (OFF) for each"
                )
        if sum(row) != variant.checkers:
            raise InvalidNotationError(
                f"{text!r}: player {player} has {sum(row)} checkers written; each has "
                f"{variant.checkers}"
            )
        rows.append(row)
    turn = 0
    if sep:
        turn_text = turn_text.strip()
        if not (turn_text.isdigit() and int(turn_text) < variant.players):
            raise InvalidNotationError(
                f"{text!r}: the turn after ':' is a player, 0 to {variant.players - 1}"
            )
        turn = int(turn_text)
    return Position.from_checkers(rows, turn)


def format_position(variant: TrackVariant, position: Position) -> str:
    """The position in the grammar above, e.g. ``00000/00000/00000/00000:0``."""
    bar = variant.points + 1
    fields = []
    for player in range(position.players):
        row = position.row(player)
        # Slot s is point bar - s: the BAR (slot bar) is 0, OFF (slot 0) is bar.
        fields.append("".join(str(bar - s) * row[s] for s in range(bar, -1, -1)))
    return "/".join(fields) + f":{position.turn}"


# --- points --------------------------------------------------------------------------------


def point_name(slot: int, points: int = 6) -> str:
    """``bar``, ``off`` or the board's number of a slot."""
    if slot == points + 1:
        return "bar"
    if slot == 0:
        return "off"
    return str(points + 1 - slot)


def _where(slot: int, points: int) -> str:
    if slot == points + 1:
        return "the BAR"
    return "OFF" if slot == 0 else f"point {points + 1 - slot}"


def _translate(own_text: str, points: int) -> str:
    """Move text in the mover's own numbering (gnubg's) rewritten on the board's numbers."""
    return re.sub(r"(?<![(\d])\d+", lambda m: str(points + 1 - int(m.group())), own_text)


# --- writing and reading moves ---------------------------------------------------------------


def format_moves(moves: Sequence[Pair], hits: Sequence[int] = (), points: int = 6) -> str:
    """Single-die moves ``(source, destination)`` in own slots, written on the board's
    numbers; ``hits`` are the own slots where an opposing checker was hit."""
    return _translate(movetext.format_moves(moves, hits, points), points)


def format_play(play: Play, points: int = 6) -> str:
    """A play on the board's numbers, e.g. ``bar/1 3/6*``; ``no move`` for an empty play."""
    return _translate(movetext.format_play(play, points), points)


def _word_slot(word: str, points: int, token: str) -> int:
    if word in ("bar", "b", "ba", "0"):
        return points + 1
    if word in ("off", "o", "of", str(points + 1)):
        return 0
    if word.isdigit() and 1 <= int(word) <= points:
        return points + 1 - int(word)
    raise InvalidNotationError(
        f"{token!r}: {word!r} is not a point (the points are 1 to {points}; write bar "
        f"or 0 for the BAR, off or {points + 1} for OFF)"
    )


#: The board's numbers: BAR 0, points 1 to 6, OFF 7, the same for every player.
BOARD_NUMBERING = movetext.Numbering(
    _word_slot, point_name, "checkers move up, from the BAR through 1 to 6 and OFF",
    "bar/3, 2/5 or 4/off")


def parse(text: str, points: int = 6) -> ParsedMoves:
    """Read move text on the board's numbers into own-slot steps.

    Accepts ``bar/3 2/5*``, ``b/3``, ``0/3``, ``4/off``, ``4/7``, ``bar/6/off``,
    ``3/5(2)``, commas, extra spaces and any case; ``no move`` (or nothing) is no move.
    """
    return movetext.parse_text(text, points, BOARD_NUMBERING)


def parse_moves(text: str, points: int = 6) -> list[Pair]:
    """Move text as own-slot ``(source, destination)`` steps."""
    return parse(text, points).pairs


def parse_paths(text: str, points: int = 6) -> list[list[Pair]]:
    """Move text as one list of own-slot steps per checker path written."""
    return [list(path) for path in parse(text, points).paths]


# --- finding plays -------------------------------------------------------------------------


def _owner(state: GameState, slot: int) -> tuple[int, int]:
    """(player, count) of the opposing checkers on the mover's ``slot``, or (-1, 0)."""
    position, variant = state.position, state.variant
    for other in range(position.players):
        if other != position.turn:
            n = position.count(other, variant.shared_slot(position.turn, slot, other))
            if n:
                return other, n
    return -1, 0


def _check_stars(state: GameState, parsed: ParsedMoves, text: str) -> None:
    points = state.variant.points
    for slot in sorted(parsed.starred, reverse=True):
        if _owner(state, slot)[1] == 0:
            raise IllegalPlayError(
                f"{text.strip()}: there is no opposing checker on {_where(slot, points)} to hit"
            )


def find_play(state: GameState, text: str) -> Play:
    """The legal play that ``text`` (on the board's numbers) describes.

    As :func:`gammon.notation.movetext.find_play`: moves in any order, a checker's route
    whole or step by step, hit marks optional. Raises :class:`InvalidNotationError` for
    unreadable or ambiguous text and :class:`IllegalPlayError` saying why otherwise.
    """
    _check_state(state)
    parsed = parse(text, state.variant.points)
    _check_stars(state, parsed, text)
    try:
        return movetext.find_play(state, parsed.pairs)
    except IllegalPlayError:
        raise IllegalPlayError(explain(state, text, parsed)) from None
    except InvalidNotationError:
        raise InvalidNotationError(_ambiguous(state, text, parsed)) from None


def partial_play(
    state: GameState, text: str | Sequence[Pair], done: Sequence[Pair] = ()
) -> PartialPlay:
    """The first moves of a play, checked: as :func:`gammon.notation.movetext.partial_play`
    with text on the board's numbers (``done`` are own-slot steps already accepted)."""
    _check_state(state)
    points = state.variant.points
    if isinstance(text, str):
        parsed = parse(text, points)
        _check_stars(state, parsed, text)
        shown = text.strip()
    else:
        parsed = ParsedMoves(tuple(((a, b),) for a, b in text))
        shown = format_moves(parsed.pairs, (), points)
    try:
        partial = movetext.partial_play(state, parsed.pairs, done)
    except IllegalPlayError:
        after = partial_play(state, done).text if done else ""
        earlier = ParsedMoves(tuple(((a, b),) for a, b in done))
        both = ParsedMoves(earlier.paths + parsed.paths, parsed.starred)
        raise IllegalPlayError(explain(state, shown, both, after)) from None
    except InvalidNotationError:
        raise InvalidNotationError(
            f"{shown} is ambiguous with {dice_text(state.dice)}: write the point where the "
            "checker stops on the way (e.g. bar/2*/5)"
        ) from None
    return PartialPlay(partial.moves, partial.position, partial.dice,
                       _translate(partial.text, points), partial.play)


def legal_play_texts(state: GameState) -> list[tuple[str, Play]]:
    """Every legal play with its text, checkers furthest back first."""
    points = state.variant.points
    return [(_translate(text, points), play) for text, play in movetext.legal_play_texts(state)]


def _check_state(state: GameState) -> None:
    if state.phase is not Phase.DECIDE:
        raise IllegalPlayError(f"there is no play to make in the {state.phase.value} phase")


# --- saying what is wrong -------------------------------------------------------------------


def _ambiguous(state: GameState, text: str, parsed: ParsedMoves) -> str:
    player = state.position.turn
    row = list(state.position.row(player))
    for s, d in parsed.pairs:
        row[s] -= 1
        row[d] += 1
    same = [play for play in state.legal_actions() if list(play.result.row(player)) == row]
    options = " or ".join(sorted(format_play(p, state.variant.points) for p in same))
    return (f"{text.strip()} is ambiguous with {dice_text(state.dice)}: write {options}"
            if options else f"{text.strip()} is ambiguous with {dice_text(state.dice)}")


def _dice_list(dice: tuple[int, ...]) -> list[int]:
    return [dice[0]] * 4 if len(dice) == 2 and dice[0] == dice[1] else sorted(dice, reverse=True)


def explain(state: GameState, text: str, parsed: ParsedMoves, after: str = "") -> str:
    """Why no legal play matches ``parsed``, and some legal plays."""
    legal = state.legal_actions()
    head = f"{text.strip() or NO_MOVE} is not legal with {dice_text(state.dice)}"
    if after:
        head = f"after {after}, {head}"
    if len(legal) == 1 and not legal[0].moves:
        return f"{head}: you have no legal move"
    reason = _reason(state, parsed)
    body = f"{head}: {reason}" if reason else head
    # A few legal plays, those sharing most moves with the text, in the usual order.
    wanted = set(parsed.pairs)
    texts = legal_play_texts(state)
    ranked = sorted(range(len(texts)), key=lambda i: -len(
        {(m.source, m.destination) for m in texts[i][1].moves} & wanted))
    listing = ", ".join(texts[i][0] for i in sorted(ranked[:6]))
    if len(legal) > 6:
        listing += f" ... ({len(legal)} in all)"
    return f"{body}. Legal plays include: {listing}"


def _reason(state: GameState, parsed: ParsedMoves) -> str:
    variant, position = state.variant, state.position
    player, points = position.turn, variant.points
    bar = points + 1
    pairs = parsed.pairs
    dice = _dice_list(state.dice)
    if not pairs:
        return "you must move when you can"
    short = short_of_checkers(position.row(player), pairs, lambda slot: _where(slot, points))
    if short:
        return short
    for _, d in pairs:
        owner, n = _owner(state, d) if d else (-1, 0)
        if n >= variant.contact.block:
            return (f"{_where(d, points)} is held by player {owner} ({n} checkers), and no "
                    "checker may land there")
    if sum(s - d for s, d in pairs if d) > sum(dice):
        return f"that is more than your roll of {dice_text(state.dice)}"
    sums = sorted({sum(c) for k in range(1, len(dice) + 1)
                   for c in itertools.combinations(dice, k)})
    for s, d in pairs:
        name = f"{point_name(s, points)}/{point_name(d, points)}"
        if d == 0:
            if max(sums) < s:
                return f"{name}: from {_where(s, points)} OFF is {s} pips away"
            if s not in sums and all(position.row(player)[u] == 0 for u in range(s + 1, bar + 1)):
                continue
            if s not in sums:
                return (f"{name}: a die larger than needed bears off only a checker with "
                        "none further back (on a lower point or the BAR)")
            continue
        if s - d not in sums:
            reach = ", ".join(map(str, sums[:-1])) + (" or " if len(sums) > 1 else "")
            return (f"{name} is {s - d} pips, and with {dice_text(state.dice)} a checker "
                    f"moves {reach}{sums[-1]} pips")
        routes = {order for k in range(2, len(dice) + 1)
                  for order in itertools.permutations(dice, k) if sum(order) == s - d}
        if s - d not in dice and routes:
            stops = [[s - sum(o[:k]) for k in range(1, len(o))] for o in routes]
            if all(any(_owner(state, p)[1] >= variant.contact.block for p in r) for r in stops):
                return f"{name} has to stop on the way, on points other players hold"
    need = len(state.legal_actions()[0].moves)
    used = sum(_dice_needed(s - d, dice) if d else 1 for s, d in pairs)
    if used < need:
        return f"you must play {need} dice when you can, and that plays {used}"
    if need == 1 and len(set(state.dice)) == 2:
        return f"when only one die can be played, it must be the higher ({max(state.dice)})"
    return ""


def _dice_needed(distance: int, dice: list[int]) -> int:
    for k in range(1, len(dice) + 1):
        if any(sum(c) == distance for c in itertools.combinations(dice, k)):
            return k
    return 1


# --- the notation as a whole -----------------------------------------------------------------


class MultiGamMoves(movetext.MoveText):
    """Move text on the quarter board's numbers, for faces that read and write plays."""

    example = "bar/3 2/6"
    numbered_by_mover = False
    intro = ("Moves use the board's numbers: the BAR is 0, the points 1 to 6, OFF is 7; "
             "every checker moves up, BAR -> 1 -> ... -> 6 -> OFF:")
    examples = (
        ("bar/3 2/6", "two checkers, one die each"),
        ("bar/6/off", "one checker with both dice: enter on 6 and bear off (the snipe)"),
        ("2/5(2)", "two checkers from 2 to 5 (doubles)"),
        ("4/off", "bear off (also 4/7)"),
        ("1/4*", "hit a lone checker on 4 (the * is optional)"),
    )


MOVES = MultiGamMoves(6, sys.modules[__name__])


CODEC = PositionCodec(
    "Multi-Gam position: each player's five checkers as 0 (BAR), 1-6, 7 (OFF), "
    "'/' between players, ':' and the player to move, e.g. 00000/00000/00000/00000:0",
    parse_position,
    format_position,
)
register_codec("multigam", CODEC)
register_move_text("multigam", lambda rules: MOVES)
