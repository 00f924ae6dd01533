"""A brute-force legal-play generator for two-player backgammon, written from the rules.

This is the reference the compiled move generator (:mod:`gammon.kernels.tracks`) is tested
against, so it shares no code with it and goes for plain and obviously right over fast.

The board of one player is 26 counts in that player's own numbering: slot 0 is
off, slots 1..24 the points (1 = nearest to bearing off), slot 25 the bar. The opponent
moves the other way round, so the mover's point ``n`` is the opponent's point ``25 - n``.

The rules, one at a time:

* A roll is two dice; a double is played four times. A play is a sequence of single-die
  moves, each moving one checker exactly the number of one unused die.
* While the mover has a checker on the bar, the only move is entering one from the bar
  (the 6 enters on the opponent's 6 point, that is the mover's 19 point).
* A checker may not land on a point held by two or more opposing checkers; landing on a
  lone opposing checker (a blot) hits it: it goes to its owner's bar.
* A checker may bear off only when all the mover's checkers are in the home board (points
  1..6) or already off. It bears off from the point equal to the die, or with a larger
  die from the highest occupied point.
* The mover must use as many dice as can be used. If only one die of two different dice
  can be used, the larger must be played when it can be.
* Plays are the same play when they lead to the same board.

:func:`legal_results` applies these to a :class:`gammon.core.position.Position` (any
number of checkers per side, so nackgammon and hypergammon are covered too) and returns
the resulting boards; :func:`single_move` is the one-checker step, used to replay plays.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

POINTS = 24
HOME = 6
BAR = POINTS + 1
OFF = 0


#: A game's single-die moves: the states one move of a die leads to from a state.
Moves = Callable[[Any, int], Iterable[Any]]


class Board(NamedTuple):
    """The mover's and the opponent's 26 counts, each in its owner's numbering."""

    mine: tuple[int, ...]
    theirs: tuple[int, ...]


def opponent_point(point: int) -> int:
    """The opponent's number for the mover's point ``point`` (1..24)."""
    return POINTS + 1 - point


def all_home(mine: tuple[int, ...]) -> bool:
    """Every one of the mover's checkers is in the home board or already off."""
    return sum(mine[OFF : HOME + 1]) == sum(mine)


def single_move(board: Board, source: int, die: int) -> tuple[Board, int, bool] | None:
    """Move one checker from ``source`` by ``die`` pips, if the rules allow it.

    Returns ``(board after the move, destination, whether it hit)``, or None when the move
    is illegal.
    """
    mine, theirs = board
    if mine[source] == 0:
        return None
    if mine[BAR] > 0 and source != BAR:
        return None  # checkers on the bar must enter first
    destination = source - die
    if destination >= 1:
        opposing = theirs[opponent_point(destination)]
        if opposing >= 2:
            return None  # a closed point
        hit = opposing == 1
    else:
        # Bearing off.
        if source == BAR or not all_home(mine):
            return None
        # A larger die than needed bears off only from the highest occupied point.
        if destination < 0 and any(mine[p] > 0 for p in range(source + 1, HOME + 1)):
            return None
        destination = OFF
        hit = False
    moved = list(mine)
    moved[source] -= 1
    moved[destination] += 1
    if hit:
        hit_side = list(theirs)
        hit_side[opponent_point(destination)] -= 1
        hit_side[BAR] += 1
        theirs = tuple(hit_side)
    return Board(tuple(moved), theirs), destination, hit


def moves_with_die(board: Board, die: int) -> list[tuple[Board, int, int, bool]]:
    """Every legal single move of ``die``: ``(board after, source, destination, hit)``."""
    found = []
    for source in range(1, BAR + 1):
        result = single_move(board, source, die)
        if result is not None:
            after, destination, hit = result
            found.append((after, source, destination, hit))
    return found


def backgammon_moves(board: Board, die: int) -> list[Board]:
    """The boards one move of ``die`` leads to under backgammon's rules above."""
    return [after for after, _, _, _ in moves_with_die(board, die)]


def finished_plays(start: Any, dice_in_order: list[int], moves: Moves = backgammon_moves,
                   board: Callable[[Any], Any] = lambda state: state) -> dict[Any, int]:
    """Every board reachable playing the dice in this order, with the dice it used.

    ``moves(state, die)`` gives the states one single-die move leads to (backgammon's by
    default; the pins' and the same-way-round games' below), and ``board(state)`` the
    board a state leaves (a state may carry more, such as where a hitter stands). A play
    stops when the dice are all used or the next die has no legal move; each board it
    can stop on is returned with the number of dice used to get there (the largest if a
    board can be stopped on after different numbers of dice).

    This is every sequence of single-die moves, walked one die at a time; sequences that
    reach the same state after the same dice are merged, since what may follow depends
    only on the state and the dice left.
    """
    stopped: dict[Any, int] = {}
    frontier = {start}
    for used, die in enumerate(dice_in_order):
        following: set[Any] = set()
        for current in frontier:
            after = list(moves(current, die))
            if not after:
                key = board(current)
                stopped[key] = max(stopped.get(key, 0), used)
            following.update(after)
        frontier = following
    for current in frontier:
        stopped[board(current)] = len(dice_in_order)
    return stopped


def legal_boards(start: Any, dice: tuple[int, int], moves: Moves = backgammon_moves,
                 board: Callable[[Any], Any] = lambda state: state) -> tuple[set[Any], int]:
    """The distinct boards the mover may leave after playing ``dice``, and the dice used:
    the dice rules every game here shares (a double is played four times, as many dice
    as can be, the larger when only one of two can), over any game's single-die
    ``moves`` (see :func:`finished_plays`).

    When no die can be used at all this is the unchanged board (one empty play) and 0.
    """
    high, low = max(dice), min(dice)
    if high == low:
        plays = finished_plays(start, [high] * 4, moves, board)
        most = max(plays.values())
        return {result for result, used in plays.items() if used == most}, most
    high_first = finished_plays(start, [high, low], moves, board)
    low_first = finished_plays(start, [low, high], moves, board)
    most = max(max(high_first.values()), max(low_first.values()))
    if most == 1:
        # One die only. The plays that used the high die are the one-die stops of the
        # high-first order; the low die's likewise. The larger wins when it can be played.
        with_high = {result for result, used in high_first.items() if used == 1}
        with_low = {result for result, used in low_first.items() if used == 1}
        return (with_high if with_high else with_low), 1
    results = {result for result, used in high_first.items() if used == most}
    results |= {result for result, used in low_first.items() if used == most}
    return results, most


# --- Positions of the engine -------------------------------------------------------------


def board_of(position) -> Board:
    """The oracle's view of a two-player ``Position`` from the side of the player on turn."""
    if position.players != 2 or position.points != POINTS:
        raise ValueError("the oracle knows two-player games on 24 points")
    mover = position.turn
    return Board(tuple(position.row(mover)), tuple(position.row(1 - mover)))


def engine_bytes(board: Board, turn: int) -> bytes:
    """The engine's ``Position.board`` bytes for ``board`` with ``turn`` the mover."""
    rows = [board.theirs, board.theirs]
    rows[turn] = board.mine
    return bytes(rows[0] + rows[1])


def solve(position, dice: tuple[int, int]) -> tuple[set[bytes], int]:
    """The resulting ``Position.board`` bytes of every legal play of ``dice``, and how many
    dice each of those plays uses."""
    boards, used = legal_boards(board_of(position), dice)
    return {engine_bytes(b, position.turn) for b in boards}, used


def legal_results(position, dice: tuple[int, int]) -> set[bytes]:
    """The resulting ``Position.board`` bytes of every legal play of ``dice``."""
    return solve(position, dice)[0]


def most_dice(position, dice: tuple[int, int]) -> int:
    """How many dice a legal play of ``dice`` uses in ``position``."""
    return solve(position, dice)[1]


# --- The hitter rules (short backgammon, Caucasian) ------------------------------------


def hitter_results(
    position, dice: tuple[int, int], *, no_off: bool = False, home_only: bool = False,
    no_run: bool = False, no_hide: bool = True,
) -> set[bytes]:
    """Every legal resulting board under the no-hide rule of docs/rules/short.md and
    caucasian.md, or the no-hit-and-run rule of docs/rules/tavla.md, with backgammon's
    moves above.

    A checker that hit this turn (with ``home_only``, only one that hit in the home
    board) may not land on a point its owner holds at that moment (``no_hide``), with
    ``no_off`` may not be borne off, and with ``no_run`` may not move at all. Checkers of
    one side are alike: a checker leaving a point where the hitter stands with another
    checker may be either of the two, so both are followed (the play is legal when some
    order of the moves obeys the rule). The dice rules then apply to what remains.
    ``hitters`` are the points where a hitter stands; under either rule a point never
    holds two of them.
    """

    def moves(state: tuple[Board, frozenset[int]], die: int) -> list:
        board, hitters = state
        found = []
        for source in range(1, BAR + 1):
            step = single_move(board, source, die)
            if step is None:
                continue
            after, target, hit = step
            mover_is = []  # who leaves: "cover" (free) and/or "hitter" (bound)
            if source in hitters:
                if board.mine[source] >= 2:
                    mover_is.append("cover")
                mover_is.append("hitter")
            else:
                mover_is.append("free")
            for who in mover_is:
                standing = set(hitters)
                if who == "hitter":
                    if no_run:
                        continue  # the hitter stays where it hit
                    if no_hide and target > 0 and board.mine[target] > 0:
                        continue  # hiding
                    if target == OFF and no_off:
                        continue  # the hitter borne off
                    standing.discard(source)
                    if target > 0:
                        standing.add(target)
                if hit and (not home_only or target <= HOME):
                    standing.add(target)
                found.append((after, frozenset(standing)))
        return found

    boards, _ = legal_boards((board_of(position), frozenset()), dice, moves,
                             lambda state: state[0])
    return {engine_bytes(b, position.turn) for b in boards}


# --- Pins (Plakoto, Tapa) ---------------------------------------------------------------
# Nothing is hit: a checker that lands on a lone opposing checker pins it where it stands.
# A point then holds one side's checkers, or one pinned checker under the other side's;
# ``pinned`` says, per mover's point, whose checker lies underneath ("me", "them" or None).


class PinBoard(NamedTuple):
    """The mover's and the opponent's counts (as :class:`Board`) and who lies pinned on
    each of the mover's points 1..24 (index 0 unused)."""

    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    pinned: tuple[str | None, ...]


def pin_move(board: PinBoard, source: int, die: int,
             pinned_holds_bear_off: bool = False) -> PinBoard | None:
    """Move one checker of the mover from ``source`` by ``die`` pips where the pinning
    rules allow it (docs/rules/plakoto.md), else None."""
    mine, theirs, pinned = board
    if not 1 <= source <= POINTS or mine[source] == 0:
        return None
    if pinned[source] == "me":
        return None  # a pinned checker waits until every checker on top has left
    destination = source - die
    now = list(pinned)
    if destination >= 1:
        opposing = theirs[opponent_point(destination)]
        if opposing >= 2 or (opposing == 1 and pinned[destination] == "me"):
            return None  # closed: they stand on top there
        if opposing == 1 and pinned[destination] is None:
            now[destination] = "them"  # the lone checker is pinned from now on
    else:
        if not all_home(mine):
            return None
        if pinned_holds_bear_off and any(pinned[p] == "me" for p in range(1, HOME + 1)):
            return None
        if destination < 0 and any(mine[p] > 0 for p in range(source + 1, HOME + 1)):
            return None
        destination = OFF
    moved = list(mine)
    moved[source] -= 1
    moved[destination] += 1
    if moved[source] == 0 and now[source] == "them":
        now[source] = None  # the last pinner left: the checker underneath is free
    return PinBoard(tuple(moved), theirs, tuple(now))


def pin_results(position, dice: tuple[int, int],
                pinned_holds_bear_off: bool = False) -> set[tuple[bytes, bytes]]:
    """Every legal play's resulting ``(Position.board, Position.pins)`` under the pinning
    rules, with backgammon's dice rules (as many dice as can be played, the larger when
    only one can)."""
    mover = position.turn
    other = 1 - mover

    def to_mover(point: int) -> int:  # player 0's point -> the mover's
        return point if mover == 0 else POINTS + 1 - point

    pinned: list[str | None] = [None] * (POINTS + 1)
    for point in range(1, POINTS + 1):
        who = position.pinned(point)
        if who is not None:
            pinned[to_mover(point)] = "me" if who == mover else "them"
    start = PinBoard(tuple(position.row(mover)), tuple(position.row(other)), tuple(pinned))

    def moves(board: PinBoard, die: int) -> list[PinBoard]:
        found = (pin_move(board, s, die, pinned_holds_bear_off) for s in range(1, POINTS + 1))
        return [m for m in found if m is not None]

    boards, _ = legal_boards(start, dice, moves)
    out = set()
    for board in boards:
        pins = bytearray(POINTS)
        for point in range(1, POINTS + 1):
            who = board.pinned[to_mover(point)]
            if who is not None:
                pins[point - 1] = (mover if who == "me" else other) + 1
        out.add((engine_bytes(Board(board.mine, board.theirs), mover), bytes(pins)))
    return out


def agree(rules, positions: list, expected: Callable[[Any, tuple[int, ...]], set]) -> int:
    """Check that the engine's plays of every roll in ``positions`` (every throw of
    three dice in a game of three) are distinct and lead to exactly the boards
    ``expected(position, dice)`` allows; the position-rolls checked."""
    rolls: list[tuple[int, ...]] = [(high, low) for high in range(1, 7)
                                    for low in range(1, high + 1)]
    if rules.game_type.dice == 3:
        rolls = [(a, b, c) for a in range(1, 7) for b in range(1, a + 1)
                 for c in range(1, b + 1)]
    for pos in positions:
        for dice in rolls:
            got = [p.result.board for p in rules.state(pos, dice).legal_actions()]
            assert len(got) == len(set(got)), (pos, dice)
            assert set(got) == expected(pos, dice), (pos, dice)
    return len(positions) * len(rolls)


# --- Positions to test on ----------------------------------------------------------------
# These play games with the engine (uniformly random plays) only to find positions that
# occur in play; what is checked on them never comes from the engine.


def random_game_positions(variant, count: int, seed: int, steps: int = 1_000_000) -> list:
    """The first ``count`` distinct positions with a player to move in seeded random games
    (fewer if ``steps`` rolls and plays do not reach that many)."""
    rng = random.Random(seed)
    seen: dict[tuple[bytes, bytes, int], object] = {}
    state = variant.initial_state()
    for _ in range(steps):
        if len(seen) >= count:
            break
        if state.is_terminal:
            state = variant.initial_state()
        elif state.is_chance:
            state = state.apply(state.sample_chance(rng))
        else:
            position = state.position
            seen.setdefault((position.board, position.pins, position.turn), position)
            state = state.apply(rng.choice(state.legal_actions()))
    return list(seen.values())


def on_bar(position) -> bool:
    """The player on turn has a checker on the bar."""
    return position.bar(position.turn) > 0


def bearing_off(position) -> bool:
    """The player on turn has every checker home (and some still on the board)."""
    row = position.row(position.turn)
    return all_home(row) and row[OFF] < sum(row)


# --- The same-way-round running games (Fevga's family: Moultezim, Gul bara) -------------


def legal_stops(start: Any, dice: tuple[int, int], moves: Moves,
                allowed: Callable[[Any], bool]) -> set[Any]:
    """The boards the mover may leave when a rule judges only the board a play ends on:
    every board on the way of a sequence of single-die moves ends a play of its own if
    ``allowed`` says so, and of those the plays using the most dice are legal (the larger
    die when only one of two can be played). When none is allowed, the board as it is
    (the mover cannot play)."""
    high, low = max(dice), min(dice)
    orders = [[high] * 4] if high == low else [[high, low], [low, high]]
    stops: list[dict[Any, int]] = []
    for dice_in_order in orders:
        reached = {start: 0} if allowed(start) else {}
        frontier = {start}
        for used, die in enumerate(dice_in_order, 1):
            frontier = {after for current in frontier for after in moves(current, die)}
            reached.update({board: used for board in frontier if allowed(board)})
        stops.append(reached)
    most = max((used for reached in stops for used in reached.values()), default=0)
    if most == 0:
        return {start}
    if most == 1 and high != low and any(used == 1 for used in stops[0].values()):
        stops = stops[:1]  # the high die's stops: the larger die when it can be played
    return {board for reached in stops for board, used in reached.items() if used == most}


def same_way_results(
    position, dice: tuple[int, int], *, first_past: int = 12, start_quarter: bool = True,
    six_block: bool = False, front_prime: bool = False, opponent_quarter: int = 6,
    quarters_at_end: bool = False, open_prime: bool = False,
) -> set[bytes]:
    """Every legal resulting board of ``dice`` in the running games where both sides go
    the same way round from opposite corners (docs/rules/fevga.md and moultezim.md):
    our point n is the opponent's n + 12 (counted round), any opposing checker closes a
    point, there is no hitting and no bar; the dice rules are backgammon's above.

    Each single move must keep, at the moment it is made: ``first_past`` (a point; 0:
    no such rule), no checker leaves our 24 while one of ours is out between 23 and
    ``first_past`` and none is past it (Fevga's 12, their start: our 11 or lower, or
    off; Jacquet's courier 7); ``start_quarter``, not all of our 19..24 held;
    ``six_block``, no six of our points in a row (along their way) with none of theirs
    ahead; ``front_prime``, not all of our 11..6 held while their start (our 12) holds
    checkers; ``opponent_quarter``, a checker landing in their starting quarter (our
    7..12) leaves at most that many of its points held by us.

    With ``quarters_at_end`` the two quarter limits judge only the board a play leaves
    (:func:`legal_stops`): not all of our 19..24, at most ``opponent_quarter`` of our
    7..12. With ``open_prime``, when six of our points in a row stand with none of
    theirs ahead, only the plays that leave no such six, if the dice allow one.
    """
    mover = position.turn
    theirs = position.row(1 - mover)

    def ours_to_theirs(point: int) -> int:
        return (point + 11) % POINTS + 1

    def walled(mine: list[int]) -> bool:
        held = {ours_to_theirs(s) for s in range(1, POINTS + 1) if mine[s]}
        return any(all(low + k in held for k in range(6)) and not any(theirs[:low])
                   for low in range(1, POINTS - 4))

    def step(mine: tuple[int, ...], source: int, die: int) -> tuple[int, ...] | None:
        if not mine[source]:
            return None
        if (first_past and source == POINTS and not any(mine[0:first_past])
                and any(mine[first_past:POINTS])):
            return None
        target = source - die
        if target <= 0:
            if any(mine[HOME + 1:]):
                return None
            if target < 0 and any(mine[source + 1:HOME + 1]):
                return None
            target = OFF
        elif theirs[ours_to_theirs(target)]:
            return None
        after = list(mine)
        after[source] -= 1
        after[target] += 1
        if not quarters_at_end and start_quarter and all(after[19:25]):
            return None
        if six_block and target and walled(after):
            return None
        if front_prime and theirs[POINTS] and all(after[6:12]):
            return None
        if (not quarters_at_end and 7 <= target <= 12
                and sum(1 for s in range(7, 13) if after[s]) > opponent_quarter):
            return None
        return tuple(after)

    def moves(mine: tuple[int, ...], die: int) -> list[tuple[int, ...]]:
        return [m for m in (step(mine, s, die) for s in range(1, POINTS + 1)) if m]

    def quarters_kept(mine: tuple[int, ...]) -> bool:
        return (not (start_quarter and all(mine[19:25]))
                and sum(1 for s in range(7, 13) if mine[s]) <= opponent_quarter)

    start = tuple(position.row(mover))
    if quarters_at_end:
        boards = legal_stops(start, dice, moves, quarters_kept)
    else:
        boards, _ = legal_boards(start, dice, moves)
    if open_prime and walled(list(start)):
        opened = {mine for mine in boards if not walled(list(mine))}
        boards = opened or boards
    out = set()
    for mine in boards:
        rows = [theirs, theirs]
        rows[mover] = mine
        out.add(bytes(rows[0] + rows[1]))
    return out
