"""gnubg's own match files: SGF, the Smart Game Format, game 6 (backgammon).

A file is one game tree a game, ``(;root;node;node...)``. The root says the match
(``MI[length:7][game:0][ws:0][bs:0]``: its length, the game's number from 0, the
scores of White and Black before it), the players (``PW`` White, the first player;
``PB`` Black), the rules (``RU[Crawford]``, ``RU[Crawford:CrawfordGame]`` in the
Crawford game) and the result (``RE[W+2]``; ``RE[B+4R]`` when the loser resigned). Each
further node is one action: ``B[52lqac]`` (the dice, then each move as two letters,
from and to), ``W[double]``, ``B[take]``, ``B[drop]``. A letter is a square of the
board whoever moves: ``a`` to ``x`` are White's points 1 to 24 (Black's 24 to 1), ``y``
the bar, ``z`` off.

gnubg adds its analysis to the nodes (``A`` the plays rated, ``DA`` the cube decision,
``LU`` the luck of the roll, marks such as ``BM``) and its statistics to each root
(``GS``). The reader keeps every property it does not play; :func:`gnubg_statistics`
reads each player's error and luck figures out of the ``GS`` properties.

:func:`write_sgf` writes the games of a match as gnubg writes them (gnubg loads them
back with the same moves, cube actions, resignations and names); :func:`read_sgf`
reads a file into a :class:`~gammon.notation.mat.MatchFile` that
:func:`~gammon.notation.mat.replay_match` plays, and the properties kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gammon.core.errors import InvalidNotationError
from gammon.core.play import Play
from gammon.notation.mat import MatchFile, MatGame, Turn
from gammon.stakes.cube import CubeAction, ResignAnswer, match_length
from gammon.stakes.record import GameRecord

#: A node's properties: each name with its values, in the file's order.
Properties = dict[str, list[str]]
BAR, OFF = "y", "z"
_CUBE_WORDS = {"double", "take", "drop"}


@dataclass
class SgfMatch:
    """A read file: the match's games, and what gnubg wrote beside them (each game's
    root properties; each action's own properties beyond the action itself)."""

    match: MatchFile
    roots: list[Properties] = field(default_factory=list)
    nodes: list[list[Properties]] = field(default_factory=list)


# --- the file's syntax ------------------------------------------------------------------


def parse_sgf(text: str) -> list[list[Properties]]:
    """Each game tree's main line: its nodes, each node's properties. Variations (game
    trees inside a game tree) are read as the line goes on through the first of them.
    :class:`InvalidNotationError` says where the text stops making sense."""
    trees: list[list[Properties]] = []
    i, n = 0, len(text)
    depth = 0
    nodes: list[Properties] = []
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch == "(":
            if depth == 0:
                nodes = []
            depth += 1
            i += 1
        elif ch == ")":
            if depth == 0:
                raise InvalidNotationError(f"SGF: a ')' with no '(' at character {i}")
            depth -= 1
            if depth == 0:
                trees.append(nodes)
            i += 1
        elif ch == ";" and depth:
            node: Properties = {}
            nodes.append(node)
            i += 1
            while True:
                while i < n and text[i].isspace():
                    i += 1
                start = i
                while i < n and text[i].isalpha():
                    i += 1
                name = text[start:i]
                if not name:
                    break
                values: list[str] = []
                while True:
                    while i < n and text[i].isspace():
                        i += 1
                    if i >= n or text[i] != "[":
                        break
                    value, i = _value(text, i + 1)
                    values.append(value)
                if not values:
                    raise InvalidNotationError(f"SGF: property {name!r} has no value "
                                               f"(character {start})")
                node.setdefault(name.upper(), []).extend(values)
        else:
            raise InvalidNotationError(f"SGF: unexpected {ch!r} at character {i}")
    if depth:
        raise InvalidNotationError("SGF: the file ends inside a game tree (a ')' is "
                                   "missing)")
    return trees


def _value(text: str, i: int) -> tuple[str, int]:
    """A property value from just after its ``[`` to its ``]`` (``\\]`` and ``\\\\``
    escaped), and where the text goes on."""
    out = []
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
        elif ch == "]":
            return "".join(out), i + 1
        else:
            out.append(ch)
            i += 1
    raise InvalidNotationError("SGF: a property value is not closed by ']'")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


# --- squares and moves ------------------------------------------------------------------


def square(point: int, player: int) -> str:
    """The letter of ``player``'s own ``point`` (25 the bar, 0 off)."""
    if point == 25:
        return BAR
    if point == 0:
        return OFF
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("x") - (point - 1))


def point(letter: str, player: int) -> int:
    """``player``'s own point number of a letter (25 the bar, 0 off)."""
    if letter == BAR:
        return 25
    if "a" <= letter <= "x":
        return ord(letter) - ord("a") + 1 if player == 0 else ord("x") - ord(letter) + 1
    if letter == OFF:
        return 0
    raise InvalidNotationError(f"SGF: {letter!r} is not a square (a to x, y the bar, z "
                               "off)")


# --- reading ------------------------------------------------------------------------------


def read_sgf(text: str) -> SgfMatch:
    """Read gnubg's SGF (:class:`SgfMatch`); :class:`InvalidNotationError` naming the
    game and node that cannot be read."""
    trees = parse_sgf(text)
    if not trees:
        raise InvalidNotationError("SGF: no game in the file")
    result = SgfMatch(MatchFile(0))
    for number, nodes in enumerate(trees, 1):
        try:
            root = nodes[0] if nodes else {}
            if root.get("GM", ["6"])[0].strip() != "6":
                raise InvalidNotationError(f"GM[{root['GM'][0]}] is not backgammon (GM[6])")
            game, kept = _game(root, nodes[1:])
        except InvalidNotationError as error:
            raise InvalidNotationError(f"game {number}: {error}") from None
        info = _match_info(root)
        if number == 1:
            result.match.length = info.get("length", 0)
            result.match.names = (root.get("PW", [""])[0], root.get("PB", [""])[0])
        result.match.games.append(game)
        result.roots.append(root)
        result.nodes.append(kept)
    return result


def _match_info(root: Properties) -> dict[str, int]:
    info = {}
    for value in root.get("MI", []):
        key, _, number = value.partition(":")
        if number.strip().lstrip("-").isdigit():
            info[key.strip()] = int(number)
    return info


def _game(root: Properties, nodes: list[Properties]) -> tuple[MatGame, list[Properties]]:
    info = _match_info(root)
    game = MatGame((info.get("ws", 0), info.get("bs", 0)))
    kept: list[Properties] = []
    for index, node in enumerate(nodes, 1):
        player = 0 if "W" in node else 1 if "B" in node else None
        if player is None:
            continue  # a node of comments or board setup only: nothing played
        value = node["W" if player == 0 else "B"][0].strip()
        try:
            game.turns.append(_turn(player, value))
        except InvalidNotationError as error:
            raise InvalidNotationError(f"node {index}: {error}") from None
        kept.append({k: v for k, v in node.items() if k not in ("W", "B")})
    result = root.get("RE", [""])[0].strip().upper()
    if result[:2] in ("W+", "B+"):
        digits = "".join(ch for ch in result[2:] if ch.isdigit())
        game.winner = 0 if result[0] == "W" else 1
        game.points = max(int(digits or 1), 1)
    return game, kept


def _turn(player: int, value: str) -> Turn:
    if value in _CUBE_WORDS:
        return Turn(player, cube=value)
    if len(value) < 2 or not value[:2].isdigit() or not all(
            "1" <= ch <= "6" for ch in value[:2]):
        raise InvalidNotationError(f"{value!r} is not a roll with its moves (like 52lqac) "
                                   "nor double, take or drop")
    letters = value[2:]
    if len(letters) % 2:
        raise InvalidNotationError(f"{value!r}: each move is two letters, from and to")
    moves = [(point(letters[k], player), point(letters[k + 1], player))
             for k in range(0, len(letters), 2)]
    return Turn(player, (int(value[0]), int(value[1])), moves)


def gnubg_statistics(sgf: SgfMatch) -> list[dict[str, float]] | None:
    """gnubg's figures in the file (its ``GS`` statistics, summed over the games), per
    player: unforced plays, the checker-play error (normalised equity), the cube error
    and the luck; None when gnubg wrote none."""
    totals = [{"unforced": 0.0, "checker_error": 0.0, "cube_error": 0.0, "luck": 0.0}
              for _ in range(2)]
    seen = False
    for root in sgf.roots:
        for value in root.get("GS", []):
            kind, _, rest = value.partition(":")
            numbers = [float(x) for x in rest.split()]
            if kind == "M" and len(numbers) >= 8:
                seen = True
                for p in range(2):
                    totals[p]["unforced"] += numbers[p]
                    totals[p]["checker_error"] += numbers[-4 + 2 * p]
            elif kind == "C" and len(numbers) >= 24:
                seen = True
                errors = numbers[-24:]
                for p in range(2):
                    totals[p]["cube_error"] += sum(errors[12 * p + 2 * k] for k in range(6))
            elif kind == "D" and len(numbers) >= 4:
                seen = True
                for p in range(2):
                    totals[p]["luck"] += numbers[-4 + 2 * p]
    return totals if seen else None


# --- writing ------------------------------------------------------------------------------


def write_sgf(length: int, names: Sequence[str], games: Sequence[GameRecord],
              application: str = "gammon") -> str:
    """The SGF text of ``games`` (records of two-player backgammon games with the
    stakes) in a match to ``length`` points (0: money games), as gnubg writes it."""
    out = []
    score = [0, 0]
    for number, record in enumerate(games):
        root = [f"FF[4]GM[6]CA[UTF-8]AP[{_escape(application)}]",
                f"MI[length:{length}][game:{number}][ws:{score[0]}][bs:{score[1]}]",
                f"PW[{_escape(names[0])}]PB[{_escape(names[1])}]"]
        start = record.start
        if match_length(start):
            root.append("RU[Crawford:CrawfordGame]" if start.score.crawford
                        else "RU[Crawford]")
        actions, resigned = _actions(record)
        state = record.state
        winner = state.winner if state.is_terminal else None
        if winner is not None:
            points = int(state.returns()[winner])
            root.append(f"RE[{'WB'[winner]}+{points}{'R' if resigned else ''}]")
            score[winner] += points
        out.append("(;" + "".join(root) + "".join(f"\n;{a}" for a in actions) + ")")
    return "\n".join(out) + "\n"


def _actions(record: GameRecord) -> tuple[list[str], bool]:
    """A game's actions as SGF nodes, and whether it ended by a resignation."""
    actions = []
    resigned = False
    state = record.start
    for step in record.taken():
        player = state.current_player
        colour = "WB"[player] if player is not None else ""
        if isinstance(step, Play):
            dice = state.base.dice
            moves = "".join(square(m.source, player) + square(m.destination, player)
                            for m in step.moves)
            actions.append(f"{colour}[{max(dice)}{min(dice)}{moves}]")
        elif step in (CubeAction.DOUBLE, CubeAction.TAKE, CubeAction.DROP):
            actions.append(f"{colour}[{step.value}]")
        elif step in (CubeAction.BEAVER, CubeAction.RACCOON):
            raise InvalidNotationError("gnubg's SGF has no beaver or raccoon: save this "
                                       "session as .mat or .json")
        elif step is ResignAnswer.ACCEPT:
            resigned = True
        state = state.apply(step)
    return actions, resigned


__all__ = ["SgfMatch", "gnubg_statistics", "parse_sgf", "point", "read_sgf", "square",
           "write_sgf"]
