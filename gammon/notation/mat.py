"""Match files in the plain-text format that gnubg, Jellyfish and XG exchange (``.mat``).

A file is a header (`` 7 point match``), then each game: `` Game 3``, the two players
with their scores before it, one numbered line per pair of turns (the first player's
on the left, from column 5; the second's on the right, from column 33), and the result
(`` Wins 2 points`` in the winner's column: on the last line of moves when that column
is still free there, as after the other side's drop, else on a line of its own). A
turn is the dice and the checker moves,
one per die, in the mover's own point numbers with 25 for the bar and 0 for off and a
``*`` for a hit (``62: 13/7* 24/22``; a roll that cannot be played has no moves), or a
cube action (`` Doubles => 2``, `` Takes``, `` Drops``). A game that ends before its
last checker is borne off was resigned (or dropped).

:func:`write_match` writes the games of a :class:`~gammon.stakes.match.Match` (or of a
money session: a match of length 0); :func:`read_match` reads a file into
:class:`MatchFile`; :func:`replay_match` plays a file's games through the stakes layer,
which checks every roll, move and cube action, and gives each game's record.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gammon.core.dice import Roll
from gammon.core.errors import GammonError, InvalidNotationError
from gammon.core.play import Play
from gammon.core.variant import play_leading_to, track_variant
from gammon.notation.movetext import find_play
from gammon.stakes.cube import CubeAction, CubeState, Resign, ResignAnswer, cube_game
from gammon.stakes.record import GameRecord
from gammon.stakes.rules import StakeRules
from gammon.stakes.score import MatchScore

#: Where the second player's column starts (the first's starts at 5, after ``nnn) ``).
RIGHT = 33
LEFT = 5


# --- writing -------------------------------------------------------------------------------


def _moves(play: Play) -> str:
    return " ".join(f"{m.source}/{m.destination}{'*' if m.hit else ''}" for m in play.moves)


def game_turns(record: GameRecord) -> tuple[list[tuple[int, str]], int | None, int]:
    """A game's turns as ``(player, text)`` in order, its winner and points won."""
    turns: list[tuple[int, str]] = []
    state = record.start
    for step in record.taken():
        after = state.apply(step)
        player = state.current_player
        if isinstance(step, Play):
            dice = "".join(map(str, state.base.dice))
            turns.append((player, f"{dice}: {_moves(step)}".rstrip()))
        elif step is CubeAction.DOUBLE:
            turns.append((player, f" Doubles => {after.offer.value}"))
        elif step is CubeAction.TAKE:
            turns.append((player, " Takes"))
        elif step is CubeAction.DROP:
            turns.append((player, " Drops"))
        elif step is CubeAction.BEAVER:
            turns.append((player, f" Beavers => {after.offer.value}"))
        state = after
    winner = state.winner
    points = int(state.returns()[winner]) if winner is not None else 0
    return turns, winner, points


def write_match(length: int, names: Sequence[str], games: Sequence[GameRecord],
                comments: Sequence[str] = ()) -> str:
    """The ``.mat`` text of ``games`` (records of two-player backgammon games with the
    stakes) in a match to ``length`` points (0: money games); ``names`` the players."""
    lines = [f"; {comment}" for comment in comments]
    if lines:
        lines.append("")
    lines += [f" {length} point match", ""]
    # A name is followed by " : score": a colon of its own (a bot's "expectimax:2")
    # would be read as that separator.
    names = [(name.replace(":", "-").strip() or f"player {p + 1}") for p, name in
             enumerate(names)]
    score = [0, 0]
    for number, record in enumerate(games, 1):
        lines.append(f" Game {number}")
        lines.append(" " + f"{names[0]} : {score[0]}".ljust(RIGHT - 2)
                     + f"{names[1]} : {score[1]}")
        turns, winner, points = game_turns(record)
        rows: list[list[str]] = []
        for player, text in turns:
            if player == 0 or not rows or rows[-1][1]:
                rows.append(["", ""])
            rows[-1][player] = text
        wins = ""
        if winner is not None:
            wins = f" Wins {points} point{'' if points == 1 else 's'}"
            score[winner] += points
            if winner == 1 and rows and not rows[-1][1]:
                rows[-1][1], wins = wins, ""  # gnubg's place for it after a drop
        for row_number, (left, right) in enumerate(rows, 1):
            # A long play (four moves with hits) may overrun its column: a space still
            # parts it from the other player's roll, or the two would read as one word.
            left = left.ljust(RIGHT - LEFT - 1) + " "
            lines.append(f"{row_number:3d}) {left}{right}".rstrip())
        if wins:
            lines.append(" " * (LEFT if winner == 0 else RIGHT) + wins)
        lines.append("")
    return "\n".join(lines) + "\n"


# --- reading -------------------------------------------------------------------------------


@dataclass
class Turn:
    """One entry of a game: ``player`` (0 left, 1 right) and what they did: a roll and
    its moves (``dice``, ``moves`` as (from, to) pairs), or a cube action (``cube``:
    ``double``, ``take``, ``drop``, ``beaver``)."""

    player: int
    dice: tuple[int, int] | None = None
    moves: list[tuple[int, int]] = field(default_factory=list)
    cube: str = ""


@dataclass
class MatGame:
    """A game of a match file: the scores before it, its turns, who won how much."""

    score: tuple[int, int]
    turns: list[Turn] = field(default_factory=list)
    winner: int | None = None
    points: int = 0


@dataclass
class MatchFile:
    """A whole match file."""

    length: int
    names: tuple[str, str] = ("", "")
    games: list[MatGame] = field(default_factory=list)


_HEADER = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_PLAYERS = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s{2,}(.*?)\s*:\s*(\d+)\s*$")
_ROW = re.compile(r"^\s*(\d+)\)(.*)$")
_WINS = re.compile(r"^(\s*)Wins\s+(\d+)\s+points?", re.IGNORECASE)
_WINS_IN_ROW = re.compile(r"Wins\s+(\d+)\s+points?", re.IGNORECASE)
_ENTRY = re.compile(r"(\d)(\d):|Doubles\s*=>\s*\d+|Takes|Drops|Beavers\s*=>\s*\d+",
                    re.IGNORECASE)
_STEP = re.compile(r"(\d+)/(\d+)(\*?)")


def read_match(text: str) -> MatchFile:
    """Read a ``.mat`` file; :class:`InvalidNotationError` naming the line that cannot be
    read."""
    match: MatchFile | None = None
    game: MatGame | None = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith(";"):
            continue
        try:
            if (found := _HEADER.match(line)) is not None:
                match = MatchFile(int(found[1]))
            elif (found := _GAME.match(line)) is not None:
                _need(match, "a game before the match's header")
                game = None
            elif (found := _ROW.match(line)) is not None:
                _need(game, "a move before the players' line")
                assert game is not None
                game.turns.extend(_row(line))
                if (wins := _WINS_IN_ROW.search(line)) is not None:
                    game.winner = 0 if wins.start() < RIGHT - 3 else 1
                    game.points = int(wins[1])
            elif (found := _WINS.match(line)) is not None:
                _need(game, "a result before the players' line")
                assert game is not None
                game.winner = 0 if len(found[1]) < RIGHT - 10 else 1
                game.points = int(found[2])
            elif (found := _PLAYERS.match(line)) is not None:
                _need(match, "the players before the match's header")
                assert match is not None
                match.names = (found[1], found[3])
                game = MatGame((int(found[2]), int(found[4])))
                match.games.append(game)
            else:
                raise InvalidNotationError("expected a header, a game, the players, a "
                                           "numbered line of moves or a result")
        except InvalidNotationError as error:
            raise InvalidNotationError(f"line {number}: {error}: {line.strip()!r}") from None
    if match is None:
        raise InvalidNotationError("not a match file: no ' N point match' line")
    return match


def _need(thing: Any, what: str) -> None:
    if thing is None:
        raise InvalidNotationError(f"{what} is missing")


def _row(line: str) -> list[Turn]:
    """The turns of a numbered line, each in its player's column."""
    turns = []
    entries = list(_ENTRY.finditer(line))
    for k, entry in enumerate(entries):
        end = entries[k + 1].start() if k + 1 < len(entries) else len(line)
        player = 0 if entry.start() < RIGHT - 3 else 1
        body = line[entry.start():end]
        if entry[1] is not None:
            moves = [(int(a), int(b)) for a, b, _ in _STEP.findall(body[3:])]
            turns.append(Turn(player, (int(entry[1]), int(entry[2])), moves))
        else:
            turns.append(Turn(player, cube=body.split()[0].lower().rstrip("s")))
    return turns


# --- replaying -----------------------------------------------------------------------------


def replay_match(match: MatchFile, variant: Any = None,
                 stakes: StakeRules | None = None) -> list[GameRecord]:
    """Play every game of ``match`` through the stakes layer (backgammon by default) and
    give their records; a :class:`GammonError` naming the game and turn that cannot
    be played (an illegal move, a wrong result)."""
    rules = variant if variant is not None else track_variant("backgammon")
    stakes = stakes if stakes is not None else StakeRules()
    records = []
    for number, game in enumerate(match.games, 1):
        score = MatchScore(match.length, game.score, _crawford(match, number),
                           _post_crawford(match, number))
        record = GameRecord(cube_game(rules, stakes, score))
        try:
            for index, turn in enumerate(game.turns, 1):
                try:
                    _play_turn(record, turn)
                except GammonError as error:
                    raise type(error)(f"turn {index}: {error}") from None
            _finish(record, game)
        except GammonError as error:
            raise type(error)(f"game {number}: {error}") from None
        records.append(record)
    return records


def _crawford(match: MatchFile, number: int) -> bool:
    """Whether game ``number`` is the Crawford game: the first with one player (only) one
    away (both one away, as in a one-point match, is no Crawford game)."""
    if not match.length:
        return False
    away = [tuple(match.length - s for s in g.score) for g in match.games[:number]]
    firsts = [k for k, a in enumerate(away, 1) if a.count(1) == 1]
    return bool(firsts) and firsts[0] == number


def _post_crawford(match: MatchFile, number: int) -> bool:
    if not match.length:
        return False
    away = [tuple(match.length - s for s in g.score) for g in match.games[:number]]
    return any(1 in a for a in away[:-1]) and 1 in away[-1]


def _play_turn(record: GameRecord, turn: Turn) -> None:
    state: CubeState = record.state
    if turn.cube:
        action = {"double": CubeAction.DOUBLE, "take": CubeAction.TAKE,
                  "drop": CubeAction.DROP, "beaver": CubeAction.BEAVER}[turn.cube]
        record.apply(action)
        return
    assert turn.dice is not None
    high, low = max(turn.dice), min(turn.dice)
    if state.base.opening and state.is_chance:
        dice = (high, low) if turn.player == 0 else (low, high)
        if high == low:
            raise InvalidNotationError(f"the opening roll {high}{low} is a double")
        state = record.apply(Roll(dice, opening=True))
    else:
        if state.preroll:
            state = record.apply(CubeAction.ROLL)
        state = record.apply(Roll((high, low)))
    if state.current_player != turn.player:
        raise InvalidNotationError(f"player {turn.player + 1} moves, but player "
                                   f"{(state.current_player or 0) + 1} is on roll")

    if not turn.moves:
        legal = state.legal_actions()
        empty = next((a for a in legal if isinstance(a, Play) and not a.moves), None)
        if empty is None:
            raise InvalidNotationError(f"{high}{low} has no moves written, but it can be "
                                       "played")
        record.apply(empty)
        return
    play = find_play(state.base, turn.moves)
    known = play_leading_to(state.legal_actions(), play.result)
    record.apply(known if known is not None else play)


def _finish(record: GameRecord, game: MatGame) -> None:
    """The game's end as the file says: it ended by play, or was resigned."""
    state: CubeState = record.state
    if not state.is_terminal and game.winner is not None:
        # Ended before the last checker: the loser resigned what the winner scored.
        level = max(1, min(3, game.points // state.cube_value))
        if Resign(level) not in state.resign_offers():
            raise InvalidNotationError(
                f"the game ends unfinished with {game.points} points to player "
                f"{game.winner + 1}, but player {2 - game.winner} cannot resign here")
        record.apply(Resign(level))
        record.apply(ResignAnswer.ACCEPT)
        state = record.state
    if not state.is_terminal:
        return  # an unfinished last game
    winner = state.winner
    points = int(state.returns()[winner]) if winner is not None else 0
    if game.winner is not None and (winner, points) != (game.winner, game.points):
        raise InvalidNotationError(
            f"the file says player {game.winner + 1} wins {game.points}, but the game "
            f"ends with player {(winner or 0) + 1} winning {points}")
