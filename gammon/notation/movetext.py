"""Move text in GNU Backgammon's style: ``24/18 13/11*``, ``bar/22``, ``6/off``, ``8/5(2)``.

Points are written in the mover's own numbering (1 = the point nearest bearing off,
``points`` = the farthest), the bar as ``bar`` and bearing off as ``off``.

:func:`format_play` writes a play the way gnubg's ``FormatMove`` does: moves sorted by
source (highest first), the moves of one checker joined (``24/18`` for 24/20 and 20/18,
``24/23*/22`` when it hits on the way), repeated moves collapsed to ``8/5(2)``, and a
``*`` after the first landing on each point where an opposing checker was hit.

:func:`parse_moves` reads such text (and looser forms people type: ``b/22``, ``25/22``,
``6/0``, commas, extra spaces, any case) into ``(source, destination)`` pairs.

:func:`find_play` finds the legal play that text describes in a state, and
:func:`partial_play` checks the first moves of a play typed in parts. Both explain what
is wrong when the text describes nothing legal.
"""

from __future__ import annotations

import functools
import itertools
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gammon.core.dice import dice_text
from gammon.core.errors import IllegalPlayError, InvalidNotationError
from gammon.core.play import Play
from gammon.core.position import Position
from gammon.core.protocol import Phase
from gammon.core.variant import GameState, LegalPlays, TrackVariant, play_leading_to
from gammon.core.words import plural
from gammon.kernels import stepping, writable_boards

#: What :func:`format_play` writes for a play without moves (gnubg writes nothing).
NO_MOVE = "no move"
_NO_MOVE_WORDS = {"", "no move", "nomove", "none", "pass", "-", "cannot move", "can't move"}

Pair = tuple[int, int]


# --- writing ---------------------------------------------------------------------------


def format_point(slot: int, points: int = 24) -> str:
    """``bar``, ``off`` or the point number."""
    if slot == points + 1:
        return "bar"
    if slot == 0:
        return "off"
    return str(slot)


def format_play(play: Play, points: int = 24) -> str:
    """The play as gnubg writes it, e.g. ``24/18 13/11*``; ``no move`` for an empty play.

    ``points`` is the length of the mover's track (24 in backgammon): slot
    ``points + 1`` is the bar.
    """
    return format_moves([(m.source, m.destination) for m in play.moves],
                        {m.destination for m in play.moves if m.hit}, points)


def format_moves(moves: Iterable[Pair], hits: Iterable[int] = (), points: int = 24) -> str:
    """Format single-die moves ``(source, destination)``; ``hits`` are the points where
    an opposing checker stood before the play (gnubg marks a landing there with ``*``).
    """
    hit_points = set(hits)
    # gnubg's order: source descending, then destination descending.
    rows = sorted(moves, key=lambda m: (-m[0], -m[1]))
    if not rows:
        return NO_MOVE
    paths: list[list[int] | None] = [[s, d] for s, d in rows]
    # Join the moves of one checker: a move starting where an earlier one ended.
    for i, first in enumerate(paths):
        for j in range(i + 1, len(paths)):
            other = paths[j]
            if first is None or other is None or first[-1] != other[0]:
                continue
            if first[-1] in hit_points:
                first.append(other[-1])  # keep the point where it hit
            else:
                first[-1] = other[-1]  # elide the intermediate point
            paths[j] = None
    joined = [p for p in paths if p is not None]
    # Collapse identical paths into one with a count.
    counted: list[tuple[list[int], int]] = []
    for path in joined:
        for k, (seen, n) in enumerate(counted):
            if seen == path:
                counted[k] = (seen, n + 1)
                break
        else:
            counted.append((path, 1))
    starred: set[int] = set()
    words = []
    for path, n in counted:
        text = format_point(path[0], points)
        for middle in path[1:-1]:
            text += "/" + format_point(middle, points) + "*"
            starred.add(middle)
        end = path[-1]
        text += "/" + format_point(end, points)
        if end and end in hit_points and end not in starred:
            text += "*"
            starred.add(end)
        if n > 1:
            text += f"({n})"
        words.append(text)
    return " ".join(words)


# --- reading ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParsedMoves:
    """Text read into checker movements in the mover's own slots: one tuple of steps per
    written checker path, the slots marked with a hit, and the text as written."""

    paths: tuple[tuple[Pair, ...], ...]
    starred: frozenset[int] = frozenset()
    text: str = ""

    @property
    def pairs(self) -> list[Pair]:
        return [pair for path in self.paths for pair in path]


_TOKEN = re.compile(r"^(?P<body>[^()]+)(?:\((?P<count>\d+)\))?$")
_BAR_WORDS = {"bar", "b", "ba"}
_OFF_WORDS = {"off", "o", "of"}


def _point(word: str, points: int, token: str) -> int:
    if word in _BAR_WORDS:
        return points + 1
    if word in _OFF_WORDS:
        return 0
    if not word.isdigit():
        raise InvalidNotationError(
            f"{token!r}: {word!r} is not a point (write 1 to {points}, bar or off)"
        )
    value = int(word)
    if value > points + 1:
        raise InvalidNotationError(
            f"{token!r}: there is no point {value} (points are 1 to {points}, "
            f"the bar is {points + 1} or 'bar', off is 0 or 'off')"
        )
    return value


@dataclass(frozen=True)
class Numbering:
    """How move text names the places of a checker's track: ``read`` turns a word into
    the mover's own slot (raising :class:`InvalidNotationError` for a word that names
    none), ``write`` a slot into its word; ``direction`` says which way checkers go and
    ``example`` shows moves, both for error messages."""

    read: Callable[[str, int, str], int]
    write: Callable[[int, int], str]
    direction: str
    example: str


def parse_text(text: str, points: int = 24, numbering: Numbering | None = None) -> ParsedMoves:
    """Read move text into own-slot steps, the words read by ``numbering`` (gnubg's own
    numbering when None). Raises :class:`InvalidNotationError` saying what is wrong."""
    numbering = numbering or OWN_NUMBERING
    if not isinstance(text, str):
        raise InvalidNotationError(f"move text must be a string, not {type(text).__name__}")
    clean = " ".join(text.lower().replace(",", " ").split())
    if clean in _NO_MOVE_WORDS:
        return ParsedMoves((), frozenset(), clean)
    # Glue the parts of one move written with spaces: "bar / 22", "8/5 (2)", "13/11 *".
    clean = re.sub(r"\s*/\s*", "/", clean)
    clean = re.sub(r"\s+(?=[*()])|(?<=\()\s+", "", clean)
    clean = re.sub(r"(?<=\d)-(?=\d|bar|b|off|o)|(?<=bar)-|(?<=\bb)-", "/", clean)
    paths: list[tuple[Pair, ...]] = []
    starred: set[int] = set()
    for token in clean.split():
        match = _TOKEN.match(token)
        words = match.group("body").split("/") if match else []
        if match is None or len(words) < 2 or not all(words):
            raise InvalidNotationError(
                f"{token!r} is not a move; write source/destination, like {numbering.example}"
            )
        route: list[int] = []
        for word in words:
            slot = numbering.read(word.rstrip("*"), points, token)
            if word.endswith("*"):
                if slot in (0, points + 1):
                    raise InvalidNotationError(f"{token!r}: nothing can be hit on the bar or off")
                starred.add(slot)
            route.append(slot)
        if route[0] == 0:
            raise InvalidNotationError(f"{token!r}: a move cannot start from off")
        for a, b in itertools.pairwise(route):
            if b == points + 1:
                raise InvalidNotationError(f"{token!r}: a checker cannot move to the bar")
            if a == 0:
                raise InvalidNotationError(f"{token!r}: nothing moves on after bearing off")
            if b >= a:
                raise InvalidNotationError(
                    f"{token!r}: {numbering.direction}, so {numbering.write(b, points)} "
                    f"cannot follow {numbering.write(a, points)}"
                )
        count = int(match.group("count") or 1)
        if not 1 <= count <= 4:
            raise InvalidNotationError(f"{token!r}: a move is repeated 1 to 4 times, not {count}")
        paths.extend([tuple(itertools.pairwise(route))] * count)
    return ParsedMoves(tuple(paths), frozenset(starred), text)


#: gnubg's numbering: each player counts their own points, 1 nearest home.
OWN_NUMBERING = Numbering(
    _point, format_point, "checkers move toward home, from the bar down to 1 and off",
    "24/18, bar/22 or 8/5(2)")


def parse_moves(text: str, points: int = 24) -> list[Pair]:
    """Read move text into ``(source, destination)`` pairs in the mover's numbering.

    Accepts gnubg's notation and common variations: ``24/18 13/11*``, ``bar/22``,
    ``b/22``, ``25/22``, ``6/off``, ``6/0``, ``8/5(2)``, ``24/23/22``, ``24/23*/22``,
    any case, commas and extra spaces. A chain such as ``24/23/22`` gives one pair per
    step (``(24, 23), (23, 22)``); ``(n)`` repeats a move. The bar is ``points + 1``,
    off is 0. ``no move`` (or empty text) gives no pairs.

    Raises :class:`InvalidNotationError` saying what is wrong.
    """
    return parse_text(text, points).pairs


def parse_paths(text: str, points: int = 24) -> list[list[Pair]]:
    """Like :func:`parse_moves`, but one list of steps per checker move written:
    ``24/23/22 8/5(2)`` gives ``[[(24, 23), (23, 22)], [(8, 5)], [(8, 5)]]``.
    """
    return [list(path) for path in parse_text(text, points).paths]


# --- following checkers ------------------------------------------------------------------
#
# Text and partial plays are matched by moving checkers as on a physical board (a checker
# lands where the dice take it, or goes off past the end, and sends opposing checkers it
# lands on to the bar) and comparing the boards reached with the legal plays. The rules
# are never restated here: ``state.legal_actions()`` alone says what is legal.


def roll_dice(dice: tuple[int, ...]) -> tuple[int, ...]:
    """The dice a roll lets a player move: four of a double."""
    if len(dice) == 2 and dice[0] == dice[1]:
        return (dice[0],) * 4
    return tuple(sorted(dice, reverse=True))


def without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    """``dice`` with one ``die`` fewer."""
    i = dice.index(die)
    return dice[:i] + dice[i + 1 :]


def closed_points(state: GameState) -> frozenset[int]:
    """The points (the mover's numbers) where none of the mover's checkers may land this
    turn: held by an opponent (two or more where a lone checker is hit or pinned, any
    number where nothing is hit), or, in a game that pins, where an opposing checker pins
    one of the mover's. None of them opens or closes while the mover plays: the mover's
    moves only take lone checkers away or pin them."""
    variant, position = state.variant, state.position
    player, board, slots = position.turn, position.board, variant.slots
    contact = variant.contact
    # Any opposing checker closes a point where nothing is hit or pinned.
    block = contact.block if contact.hitting or contact.pinning else 1
    closed: set[int] = set()
    for other in range(position.players):
        if other != player:
            base = other * slots
            crossing = variant.crossings[player, other]
            closed.update(point for point in range(1, variant.points + 1)
                          if board[base + crossing[point]] >= block)
    if contact.pinning:
        closed.update(point for point in range(1, variant.points + 1)
                      if _pinned_under(state, point) == player)
    return frozenset(closed)


def checker_step(
    variant: TrackVariant, board: bytes, player: int, source: int, die: int,
    closed: frozenset[int] = frozenset(),
) -> tuple[bytes, int, bool] | None:
    """One checker moved ``die`` pips from ``source``: ``(board, destination, hit)``,
    or None when ``player`` has no checker there or the point it reaches is one of
    ``closed`` (:func:`closed_points`). Nothing else of legality is judged. In a game
    that pins, the checker landed on stays where it is (``hit`` then says it was landed
    on; the pins of a board are :meth:`TrackVariant.pins_after`'s to say).
    """
    slots = variant.slots
    base = player * slots
    dst = max(source - die, 0)
    if board[base + source] == 0 or dst in closed:
        return None
    new = bytearray(board)
    new[base + source] -= 1
    new[base + dst] += 1
    hit = False
    if dst:
        for other in range(len(board) // slots):
            if other == player:
                continue
            index = other * slots + variant.shared_slot(player, dst, other)
            if new[index] and variant.contact.pinning:
                hit = True
            elif new[index]:
                new[other * slots + slots - 1] += new[index]
                new[index] = 0
                hit = True
    return bytes(new), dst, hit


@dataclass(frozen=True, slots=True)
class _Route:
    """The board after some typed moves, the dice left, and hits on points not written."""

    board: bytes
    dice: tuple[int, ...]
    hidden_hits: int
    steps: tuple[Pair, ...] = ()


def _realize(
    variant: TrackVariant, board: bytes, player: int, dice: tuple[int, ...], pair: Pair,
    closed: frozenset[int],
) -> list[_Route]:
    """Every way to move one checker from ``pair[0]`` to ``pair[1]`` with some of
    ``dice``, touching down on none of the ``closed`` points."""
    source, target = pair
    found: list[_Route] = []
    stack: list[tuple[bytes, tuple[int, ...], int, int, tuple[Pair, ...]]] = [
        (board, dice, source, 0, ())
    ]
    while stack:
        now, left, at, hidden, steps = stack.pop()
        for die in sorted(set(left), reverse=True):
            step = checker_step(variant, now, player, at, die, closed)
            if step is None:
                continue
            after, dst, hit = step
            rest = without(left, die)
            if dst == target:
                found.append(_Route(after, rest, hidden, (*steps, (at, dst))))
            elif dst > target:
                stack.append((after, rest, dst, hidden + hit, (*steps, (at, dst))))
    return found


def _routes(state: GameState, pairs: Sequence[Pair]) -> list[_Route]:
    """Every board the typed moves can lead to, taking them in any order.

    The search runs over (board, dice left, moves left), so orders that meet share work;
    for each end it keeps the fewest hits on points the text did not write.
    """
    variant, position = state.variant, state.position
    player = position.turn
    Key = tuple[bytes, tuple[int, ...], tuple[Pair, ...]]
    start = _Route(position.board, roll_dice(state.dice), 0)
    closed = closed_points(state)
    frontier: dict[Key, _Route] = {(start.board, start.dice, tuple(sorted(pairs))): start}
    for _ in range(len(pairs)):
        following: dict[Key, _Route] = {}
        for (board, dice, left), done in frontier.items():
            for pair in set(left):
                rest = list(left)
                rest.remove(pair)
                for route in _realize(variant, board, player, dice, pair, closed):
                    key = (route.board, route.dice, tuple(rest))
                    total = done.hidden_hits + route.hidden_hits
                    if key not in following or following[key].hidden_hits > total:
                        following[key] = _Route(route.board, route.dice, total,
                                                done.steps + route.steps)
        frontier = following
    return list(frontier.values())


class Completions:
    """Which legal play of ``state`` a board reached by single checker steps can still
    become, with the dice left: the one rule for moves taken one at a time, by people
    typing a play in parts (:func:`partial_play`) and by the environments' step actions
    (:mod:`gammon.envs.steps`). A step is moved geometry (:func:`checker_step`) that
    touches down on no closed point (:func:`closed_points`: a board that passed through
    one may have the counts of a legal play's board, but could never be drawn); the rest
    of what is legal is decided by the state's legal plays, so any order of a legal
    play's moves is accepted and no order can end short of one. Answers are remembered per (board,
    dice left)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.legal = state.legal_actions()
        self.closed = closed_points(state)
        self._memo: dict[tuple[bytes, tuple[int, ...]], Play | None] = {}
        self._steps: dict[tuple[bytes, tuple[int, ...]], list[tuple[int, int]]] = {}

    @functools.cached_property
    def _search(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray]:
        # The compiled search's turn: the legal results' hashes, the nodes it has
        # answered (kept for the whole turn), the closed points as bits, room for steps.
        legal = self.legal
        assert isinstance(legal, LegalPlays)  # asked only where the generator's rows are
        words = self.state.variant.kernel.workspace()[1]
        targets = stepping.result_hashes(legal.rows, len(self.state.position.board), words)
        keys, values = stepping.memo()
        closed = sum(1 << point for point in self.closed)
        return targets, keys, values, closed, np.empty(2 * self.state.variant.slots * 6,
                                                        np.int64)

    def legal_steps(self, board: bytes, dice: tuple[int, ...]) -> list[tuple[int, int]]:
        """The ``(source, die)`` steps from ``board`` with ``dice`` left after which a
        legal play can still be reached, by source then die: the compiled search
        (:func:`gammon.kernels.stepping.legal_steps`) over the move generator's plays,
        else :meth:`play` after each of :meth:`steps`."""
        legal = self.legal
        if not isinstance(legal, LegalPlays):
            return [(source, die) for source, die in self.steps(board, dice)
                    if self.play(*self.after(board, dice, source, die)) is not None]
        known = self._steps.get((board, dice))
        if known is not None:
            return known
        kernel = self.state.variant.kernel
        targets, keys, values, closed, out = self._search
        count = stepping.legal_steps(writable_boards(board), self.state.position.turn,
                                     np.array(dice, np.int64), closed, targets, kernel.rules,
                                     kernel.workspace()[1], keys, values, out)
        found = out[:2 * count].tolist()
        steps = self._steps[board, dice] = list(zip(found[::2], found[1::2], strict=True))
        return steps

    def play(self, board: bytes, dice: tuple[int, ...]) -> Play | None:
        """The legal play ``board`` is, or one it leads to with ``dice``; None if none."""
        key = (board, dice)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = None  # no step returns to a board it left (checkers only advance)
        position = self.state.position
        player = position.turn
        found = play_leading_to(self.legal, Position(
            board, position.players, player, self.state.variant.pins_after(position, board)))
        for source, die in self.steps(board, dice) if found is None else ():
            found = self.play(*self.after(board, dice, source, die))
            if found is not None:
                break
        self._memo[key] = found
        return found

    def steps(self, board: bytes, dice: tuple[int, ...]) -> list[tuple[int, int]]:
        """The ``(source, die)`` steps that move a checker of the mover on ``board``
        (whether a legal play can follow is :meth:`play`'s to say)."""
        player = self.state.position.turn
        slots = self.state.variant.slots
        return [(source, die) for source in range(1, slots)
                if board[player * slots + source] for die in sorted(set(dice))
                if max(source - die, 0) not in self.closed]

    def after(self, board: bytes, dice: tuple[int, ...], source: int,
              die: int) -> tuple[bytes, tuple[int, ...]]:
        """The board and the dice left after the step ``(source, die)``."""
        step = checker_step(self.state.variant, board, self.state.position.turn, source, die,
                            self.closed)
        assert step is not None, "a step from a point the mover holds to one open to it"
        return step[0], without(dice, die)


def _completes(state: GameState, board: bytes, dice: tuple[int, ...]) -> Play | None:
    """A legal play that ``board`` leads to with the ``dice`` left, or None."""
    return Completions(state).play(board, dice)


# --- finding the play a text describes ---------------------------------------------------


def _check_state(state: GameState) -> None:
    if state.phase is not Phase.DECIDE:
        raise IllegalPlayError(f"there is no play to make in the {state.phase.value} phase")


def _parsed(state: GameState, text: str | Sequence[Pair]) -> ParsedMoves:
    points = state.variant.points
    if isinstance(text, str):
        return parse_text(text, points)
    pairs = tuple((int(s), int(d)) for s, d in text)
    for s, d in pairs:
        if not (0 < s <= points + 1 and 0 <= d <= points and d < s):
            raise InvalidNotationError(f"({s}, {d}) is not a move on a {points}-point track")
    return ParsedMoves(tuple((p,) for p in pairs), frozenset(), format_moves(pairs, (), points))


def _hit_points(state: GameState, result: Position) -> set[int]:
    """The mover's points where the play from ``state`` to ``result`` hit (in a game
    that pins: where it pinned a checker that was free)."""
    variant, before = state.variant, state.position
    player = before.turn
    if variant.contact.pinning:
        pins = result.pins or variant.pins_after(before, result.board)
        return {point if player == 0 else variant.shared_slot(0, point, player)
                for point in range(1, variant.points + 1)
                if pins[point - 1] and not before.pins[point - 1]}
    hits = set()
    for other in range(before.players):
        if other == player:
            continue
        was, now = before.row(other), result.row(other)
        for slot in range(1, variant.points + 1):
            if now[slot] < was[slot]:
                hits.add(variant.shared_slot(other, slot, player))
    return hits


def _occupied(state: GameState, point: int) -> int:
    """Opposing checkers on the mover's ``point``."""
    variant, position = state.variant, state.position
    player = position.turn
    return sum(
        position.count(other, variant.shared_slot(player, point, other))
        for other in range(position.players)
        if other != player
    )


def _pinned_under(state: GameState, point: int) -> int | None:
    """The player whose checker lies pinned on the mover's ``point``, or None (always,
    in a game that does not pin)."""
    position = state.position
    return state.variant.pinned_on(position, position.turn, point)


def _check_stars(state: GameState, parsed: ParsedMoves) -> None:
    for point in sorted(parsed.starred):
        if _occupied(state, point) == 0:
            raise IllegalPlayError(
                f"{parsed.text}: there is no opposing checker on {point} to hit"
            )


def _text_key(text: str, points: int) -> tuple[tuple[int, ...], ...]:
    """Order move texts as a list of plays reads best: highest checkers moved first."""
    return tuple(
        (-path[0][0], -path[-1][1], *(-s for s, _ in path[1:]))
        for path in parse_text(text, points).paths
    )


def find_play(state: GameState, text: str | Sequence[Pair]) -> Play:
    """The legal play of ``state`` that ``text`` describes.

    ``text`` is move text (see :func:`parse_moves`) or ``(source, destination)`` pairs.
    The moves may come in any order and a checker's route may be written whole
    (``24/18``) or step by step (``24/20/18``); hit marks are optional. A point written
    where an opposing checker stands is a landing there (a hit, where the rules allow
    it); a point not written is passed over without hitting when the play can avoid it.

    Raises :class:`InvalidNotationError` for unreadable or ambiguous text and
    :class:`IllegalPlayError` with the reason when no legal play matches.
    """
    _check_state(state)
    parsed = _parsed(state, text)
    legal = state.legal_actions()
    position = state.position
    player = position.turn
    points = state.variant.points
    _check_stars(state, parsed)
    row = list(position.row(player))
    for s, d in parsed.pairs:
        row[s] -= 1
        row[d] += 1
    candidates: list[Play] = []
    if all(count >= 0 for count in row):
        target = tuple(row)
        candidates = [play for play in legal if play.result.row(player) == target]
    if state.variant.contact.pinning and len(candidates) <= 1:
        # Where the mover's checkers end says the play: a lone checker landed on is
        # pinned if one of them stays, and free again if it moved on.
        if candidates:
            return candidates[0]
        raise IllegalPlayError(_explain(state, parsed))
    landings = {d for s, d in parsed.pairs if d != 0}
    required = {p for p in landings if _occupied(state, p)}
    best: list[Play] = []
    fewest = None
    for play in candidates:
        hits = _hit_points(state, play.result)
        if not required <= hits:
            continue
        hidden = len(hits - landings)
        if fewest is None or hidden < fewest:
            best, fewest = [play], hidden
        elif hidden == fewest:
            best.append(play)
    if len(best) == 1:
        return best[0]
    if len(best) > 1:
        options = " or ".join(sorted((format_play(p, points) for p in best),
                                     key=lambda t: _text_key(t, points)))
        raise InvalidNotationError(
            f"{parsed.text} is ambiguous with {dice_text(state.dice)}: write {options}"
        )
    raise IllegalPlayError(_explain(state, parsed))


@dataclass(frozen=True, slots=True)
class PartialPlay:
    """The first moves of a play typed so far.

    ``position`` is the board after them (the mover still to finish), ``dice`` the dice
    left to play, ``text`` the moves in gnubg's style, and ``play`` the legal play they
    make when they are complete, else None.
    """

    moves: tuple[Pair, ...]
    position: Position
    dice: tuple[int, ...]
    text: str
    play: Play | None


def partial_play(
    state: GameState, text: str | Sequence[Pair], done: Sequence[Pair] = ()
) -> PartialPlay:
    """Check the first moves of a play: together they must be part of a legal play.

    ``text`` is move text or ``(source, destination)`` pairs; ``done`` are moves already
    accepted (so that a refusal can say "after 13/9, ..."). The result covers ``done``
    and ``text`` together. Moves are taken in any order, and a point passed over is not
    a hit when it can be avoided. Raises :class:`IllegalPlayError` with the reason when
    the moves cannot be part of any legal play, :class:`InvalidNotationError` when they
    are unreadable or ambiguous.
    """
    _check_state(state)
    points = state.variant.points
    parsed = _parsed(state, text)
    _check_stars(state, parsed)
    earlier = _parsed(state, done)
    parsed = ParsedMoves(earlier.paths + parsed.paths, parsed.starred, parsed.text)
    player = state.position.turn
    legal = state.legal_actions()
    pairs = parsed.pairs
    good: list[tuple[_Route, Play]] = []
    for route in _routes(state, pairs):
        play = _completes(state, route.board, route.dice)
        if play is not None:
            good.append((route, play))
    if not good:
        after = partial_play(state, done).text if done else ""
        raise IllegalPlayError(_explain(state, parsed, after))
    fewest = min(route.hidden_hits for route, _ in good)
    good = [(r, p) for r, p in good if r.hidden_hits == fewest]
    boards = {route.board for route, _ in good}
    if len(boards) > 1:
        raise InvalidNotationError(
            f"{parsed.text} is ambiguous with {dice_text(state.dice)}: write the point "
            "where the checker stops on the way (e.g. 24/22*/18)"
        )
    # The same board may be reached with different dice left (bearing off): keep the most.
    route = max((r for r, _ in good), key=lambda r: (len(r.dice), r.dice))
    position = Position(route.board, state.position.players, player,
                        state.variant.pins_after(state.position, route.board))
    complete = play_leading_to(legal, position)
    text = format_moves(route.steps, _hit_points(state, position), points)
    return PartialPlay(tuple(pairs), position, route.dice, text, complete)


# --- explaining what is wrong ------------------------------------------------------------
#
# Only the messages below look at the rules object's fields (blocking, bearing off, the
# bar), to say *why*; whether a play is legal was already decided by the legal plays.


def _explain(state: GameState, parsed: ParsedMoves, after: str = "") -> str:
    """The reason no legal play matches ``parsed``, and some of the legal plays.
    ``after`` names moves already made, when ``parsed.text`` comes after them."""
    legal = state.legal_actions()
    head = f"{parsed.text.strip() or NO_MOVE} is not legal with {dice_text(state.dice)}"
    if after:
        head = f"after {after}, {head}"
    if len(legal) == 1 and not legal[0].moves:
        return f"{head}: you have no legal move"
    reason = _reason(state, parsed)
    body = f"{head}: {reason}" if reason else head
    return f"{body}. Legal plays include: {_listing(state, parsed)}"


def short_of_checkers(row: Sequence[int], pairs: Sequence[Pair],
                      where: Callable[[int], str]) -> str:
    """Why ``pairs`` take more checkers from a spot than ``row`` has there (counting those
    that arrive on the way), or ``""`` when they do not."""
    left = list(row)
    for source, destination in pairs:
        left[source] -= 1
        left[destination] += 1
    for slot, count in enumerate(left):
        if count < 0:
            moved = sum(1 for source, _ in pairs if source == slot)
            if not row[slot]:
                return f"you have no checker on {where(slot)}"
            return (f"that moves {plural(moved, 'checker')} from {where(slot)}, and you have "
                    f"{row[slot]} there")
    return ""


def _reason(state: GameState, parsed: ParsedMoves) -> str:
    variant, position = state.variant, state.position
    player = position.turn
    points = variant.points
    bar = points + 1
    pairs = parsed.pairs
    if not pairs:
        return "you must move when you can"
    short = short_of_checkers(position.row(player), pairs,
                              lambda slot: "the bar" if slot == bar else str(slot))
    if short:
        return short
    arriving = {destination for _, destination in pairs}
    for source, _ in pairs:
        # A checker typed as arriving there first is explained by the walk below.
        if source <= points and source not in arriving and _pinned_under(state, source) == player:
            return (f"your checker on {source} lies pinned under the opponent's: it may not "
                    "move until every checker on top of it has left")
    head = variant.head.slot
    if head:
        leaving = sum(1 for source, _ in pairs if source == head)
        allowed = max(sum(1 for m in play.moves if m.source == head)
                      for play in state.legal_actions())
        if leaving > max(allowed, 1):
            if allowed > 1:
                return f"only {allowed} checkers may leave the head ({head}) with this roll"
            firsts = ", ".join(f"{d}-{d}" for d in variant.head.doubles)
            return (f"only one checker may leave the head ({head}) in a turn; two only "
                    f"on a first roll of {firsts}")
    row = list(position.row(player))
    for s, d in pairs:
        row[s] -= 1
        row[d] += 1
    closed = closed_points(state)
    for path in parsed.paths:
        for s, d in path:
            if d in closed:
                how = "enters on" if s == bar else f"from {format_point(s, points)} lands on"
                die = f"a {s - d}" if s - d in state.dice else "the checker"
                return f"{die} {how} {d}, which the opponent holds"
    hidden = _hitter_hides(state, parsed)
    if hidden:
        return hidden
    entering = sum(1 for s, _ in pairs if s == bar)
    if variant.entering.enter_first and position.bar(player) > entering and len(pairs) > entering:
        return "you have a checker on the bar: it must enter before any other checker moves"
    # Walk the moves in the order written: explain the first one the dice cannot make.
    dice = roll_dice(state.dice)
    routes = [_Route(position.board, dice, 0)]
    for pair in pairs:
        following = [
            r for route in routes
            for r in _realize(variant, route.board, player, route.dice, pair, closed)
        ]
        if not following:
            if all(not route.dice for route in routes):
                return f"that is more than your roll of {dice_text(state.dice)}"
            return _explain_pair(state, max(routes, key=lambda r: len(r.dice)).dice, pair)
        routes = following
    if any(d == 0 for _, d in pairs) and any(row[variant.home + 1 :]):
        return (
            f"you can bear off only when all your checkers are in your home board "
            f"(points 1 to {variant.home})"
        )
    for s, d in pairs:
        if d == 0 and s not in state.dice and any(position.row(player)[s + 1 : variant.home + 1]):
            return (
                f"a die larger than {s} bears off from {s} only when you have no checker "
                f"on a higher point"
            )
    for pair in pairs:
        blocked = _blocked_route(state, pair)
        if blocked:
            return blocked
    block = _block_reason(state, row)
    if block:
        return block
    need = len(state.legal_actions()[0].moves)
    used = max(len(dice) - len(r.dice) for r in routes)
    if used < need:
        return f"you must play {need} dice when you can, and that plays {used}"
    if need == 1 and len(set(state.dice)) == 2:
        return f"when only one die can be played, it must be the larger ({max(state.dice)})"
    return ""


def _shut_in(state: GameState, row: Sequence[int]) -> tuple[int, int] | None:
    """Six or more of the mover's points in a row (``row``: the mover's counts) along an
    opponent's way with none of that opponent's checkers past them: the run's ends in the
    mover's numbers, else None."""
    variant, position = state.variant, state.position
    player, points = position.turn, variant.points
    for other in range(position.players):
        if other == player:
            continue
        mine = {variant.shared_slot(player, s, other): s
                for s in range(1, points + 1) if row[s]}
        run: list[int] = []
        for t in range(points, 0, -1):
            run = [*run, t] if t in mine else []
            if len(run) >= 6 and not any(position.row(other)[:t]):
                return mine[run[0]], mine[t]
    return None


def _block_reason(state: GameState, row: Sequence[int]) -> str:
    """Why the board the mover's play leaves (``row``) breaks a rule on blocks (the
    same-way-round games), or ``""``."""
    variant, position = state.variant, state.position
    player, points, home = position.turn, variant.points, variant.home
    quarter = range(points - home + 1, points + 1)
    if variant.blocking.start_quarter_open and all(row[s] for s in quarter):
        return (f"that leaves you holding all {home} points of your starting quarter "
                f"({quarter[0]} to {quarter[-1]})")
    limit = variant.blocking.opponent_quarter_limit
    others = [other for other in range(position.players) if other != player and limit]
    for other in others:
        theirs = sorted(variant.shared_slot(other, t, player) for t in quarter)
        held = sum(1 for s in theirs if row[s])
        if held > limit:
            return (f"that holds {held} points of the opponent's starting quarter "
                    f"({theirs[0]} to {theirs[-1]}); at most {limit} may be held")
    prime = _shut_in(state, row)
    if prime is not None and variant.blocking.six_block:
        return (f"your points {prime[0]} to {prime[1]} would shut every opposing checker "
                "in: no six points in a row while none of theirs is past them")
    if prime is not None and variant.blocking.prime_must_open and _shut_in(
            state, position.row(player)) is not None:
        return (f"your points {prime[0]} to {prime[1]} shut every opposing checker in: "
                "you must open them when a play can")
    return ""


def _hitter_hides(state: GameState, parsed: ParsedMoves) -> str:
    """Why a written path breaks short backgammon's rule on the hitter (it may not hide
    on a point its owner holds, nor bear off, in the turn it hits), or ``""``."""
    variant, position = state.variant, state.position
    if not (variant.after_hit.no_hide or variant.after_hit.no_bear_off):
        return ""
    row = position.row(position.turn)
    where = " in your home board" if variant.after_hit.home_only else ""
    for path in parsed.paths:
        hit = None
        for _, d in path:
            if hit is not None and d == 0 and variant.after_hit.no_bear_off:
                return (f"the checker that hit on {hit} may not be borne off in the same turn "
                        f"({variant.name}: a checker that hits{where} stays in play that turn)")
            if hit is not None and d and row[d] and variant.after_hit.no_hide:
                return (f"the checker that hit on {hit} may not move on to {d}, a point you "
                        f"hold ({variant.name}: a checker that hits{where} may not hide in "
                        "the same turn)")
            if d and _occupied(state, d) == 1 and hit is None and (
                    not variant.after_hit.home_only or d <= variant.home):
                hit = d
    return ""


def _explain_pair(state: GameState, dice: tuple[int, ...], pair: Pair) -> str:
    """Why the dice left cannot take a checker along ``pair``."""
    source, target = pair
    points = state.variant.points
    text = f"{format_point(source, points)}/{format_point(target, points)}"
    whole = dice == roll_dice(state.dice)
    left = dice_text(state.dice) if whole else " and ".join(map(str, dice))
    having = f"with {left}" if whole else f"with {left} left"
    if target == 0:
        return f"{text}: {source} is too far from home to bear off {having}"
    sums = sorted(
        {sum(c) for k in range(1, len(dice) + 1) for c in itertools.combinations(dice, k)}
    )
    reach = ", ".join(map(str, sums[:-1])) + (" or " if len(sums) > 1 else "") + str(sums[-1])
    distance = source - target
    pips = "pip" if distance == 1 else "pips"
    return f"{text} is {distance} {pips}, and {having} a checker moves {reach} pips"


def _blocked_route(state: GameState, pair: Pair) -> str:
    """A message when every way of splitting ``pair`` into dice stops on a held point."""
    source, target = pair
    dice = roll_dice(state.dice)
    distance = source - target
    routes = {
        order for n in range(2, len(dice) + 1)
        for order in itertools.permutations(dice, n) if sum(order) == distance
    }
    if not routes or target == 0:
        return ""
    stops = [[source - sum(order[:k]) for k in range(1, len(order))] for order in routes]
    closed = closed_points(state)
    if not all(any(p in closed for p in route) for route in stops):
        return ""
    held = sorted({p for route in stops for p in route if p in closed}, reverse=True)
    points = state.variant.points
    return (
        f"{format_point(source, points)}/{format_point(target, points)} has to stop on the "
        f"way, and the opponent holds {' and '.join(map(str, held))}"
    )


def _listing(state: GameState, parsed: ParsedMoves, limit: int = 6) -> str:
    """A few legal plays, those most like the text first."""
    legal = list(state.legal_actions())
    points = state.variant.points
    wanted = set(parsed.pairs)
    sources = {s for s, _ in parsed.pairs}

    def likeness(play: Play) -> tuple[int, int]:
        moves = {(m.source, m.destination) for m in play.moves}
        return (-len(moves & wanted), -len({m.source for m in play.moves} & sources))

    chosen = sorted(legal, key=likeness)[:limit]
    text = ", ".join(sorted((format_play(p, points) for p in chosen),
                            key=lambda t: _text_key(t, points)))
    if len(legal) > limit:
        text += f" ... ({len(legal)} in all)"
    return text


def legal_play_texts(state: GameState) -> list[tuple[str, Play]]:
    """Every legal play of ``state`` with its text, in a stable order (highest points first)."""
    _check_state(state)
    points = state.variant.points
    listed = [(format_play(p, points), p) for p in state.legal_actions()]
    return sorted(listed, key=lambda item: _text_key(item[0], points))


class MoveText:
    """Move text as people read and type it: the functions of a notation module (this
    one, gnubg's numbering, by default) on a track of ``points`` points. A notation on
    other numbers subclasses it with its own module and the words that teach it
    (``intro``, ``examples``, ``example``).

    Besides plays it reads and writes every other action of a decision
    (:meth:`format_action`, :meth:`read_action`): by default an action is written and
    read as it names itself (``take``, ``doubles 4``)."""

    intro = ""
    examples: tuple[tuple[str, str], ...] = ()
    example = ""
    #: Whether a play's point numbers are its mover's own (gnubg's way), not the board's.
    numbered_by_mover = True

    def __init__(self, points: int = 24, notation: Any = None, home: int = 6) -> None:
        self.points = points
        self.home = home
        self.notation = notation if notation is not None else sys.modules[__name__]

    @property
    def introduction(self) -> str:
        """What the help says first: how moves are written (``intro``, for this board)."""
        return self.intro.format(home=self.home)

    def read_actions(self, state: Any, text: str) -> list[Any]:
        """The actions ``text`` means at ``state``: a play (whole, in move text), or the
        action a decision that is not a play names."""
        legal = state.legal_actions()
        if legal and isinstance(legal[0], Play):
            return [self.find_play(state, text)]
        return [self.read_action(state, text)]

    def format_play(self, play: Play) -> str:
        return self.notation.format_play(play, self.points)

    def format_action(self, action: Any) -> str:
        """Any action as the record writes it: a play in move text, else its name."""
        return self.format_play(action) if isinstance(action, Play) else str(action)

    def read_action(self, state: Any, text: str) -> Any:
        """The action other than a play that ``text`` names at ``state`` (its label, or
        its name); :class:`IllegalPlayError` saying what may be typed."""
        legal = [a for a in state.legal_actions() if not isinstance(a, Play)]
        word = " ".join(text.strip().lower().split())
        for action in legal:
            if word in (str(action).lower(), str(getattr(action, "label", "")).lower()):
                return action
        names = ", ".join(f"{a} ({a.label})" if getattr(a, "label", None) else str(a)
                          for a in legal)
        raise IllegalPlayError(f"{text.strip()!r}: choose {names}")

    def parse_paths(self, text: str) -> list[list[Pair]]:
        return self.notation.parse_paths(text, self.points)

    def find_play(self, state: GameState, text: str) -> Play:
        return self.notation.find_play(state, text)

    def partial_play(self, state: GameState, text: str | Sequence[Pair],
                     done: Sequence[Pair] = ()) -> PartialPlay:
        return self.notation.partial_play(state, text, done)

    def legal_play_texts(self, state: GameState) -> list[tuple[str, Play]]:
        return self.notation.legal_play_texts(state)


class GnubgMoves(MoveText):
    """gnubg's move text, in the mover's own point numbers: the default move text."""

    intro = ("Moves are written from your side of the board (your home board is 1-{home}), "
             "as gnubg writes them:")
    examples: tuple[tuple[str, str], ...] = (
        ("24/18 13/11", "two checkers, one die each"),
        ("24/13", "one checker with both dice"),
        ("8/5(2)", "two checkers from 8 to 5 (doubles)"),
        ("bar/22", "enter from the bar (also b/22, 25/22)"),
        ("6/off", "bear off (also 6/0)"),
        ("24/23*/22", "hit on the way (the * is optional)"),
    )
    example = "13/11 6/5"


#: The move texts, by the name a variant gives (``rules.move_text``): each makes the
#: move text for a rules object.
MOVE_TEXTS: dict[str, Callable[[Any], MoveText]] = {
    "gnubg": lambda rules: GnubgMoves(rules.points, home=rules.home),
}


def register_move_text(name: str, make: Callable[[Any], MoveText]) -> None:
    """Make a move text available to the variants that name it."""
    MOVE_TEXTS[name] = make
