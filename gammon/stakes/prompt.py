"""Words for people: reading cube and resignation commands, saying the cube and score.

Plain text, no terminal library: the terminal game (gammon/cli/play.py) and any other
face use these to let a person type ``double``, ``take``, ``drop``, ``beaver``,
``resign gammon``, ``accept``... at the prompt and to show the cube beside the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gammon.core.errors import IllegalPlayError
from gammon.core.protocol import Phase
from gammon.stakes.cube import (
    CubeAction,
    CubeState,
    Resign,
    ResignAnswer,
)

_DOUBLE = {"double", "d", "dbl", "dave", "redouble"}
_ROLL = {"roll", "r", "no double", "nodouble"}
_YES = {"yes", "y", "ok"}
_NO = {"no", "n"}
_TAKE = {"take", "t", "accept", "a"} | _YES
_DROP = {"drop", "pass", "p", "refuse", "decline"} | _NO
_ACCEPT = {"accept", "a", "agree"} | _YES
_REJECT = {"reject", "decline", "refuse"} | _NO
_BEAVER = {"beaver", "b", "bass"}
_RACCOON = {"raccoon", "rac"}
_LEVELS = {
    "": 1, "1": 1, "s": 1, "single": 1, "normal": 1, "n": 1, "game": 1,
    "2": 2, "g": 2, "gammon": 2, "mars": 2,
    "3": 3, "b": 3, "bg": 3, "backgammon": 3, "koks": 3,
}

def stakes_help(variant: Any) -> tuple[tuple[str, str], ...]:
    """What a person may type about the stakes, for the help at the prompt, in the
    variant's names of its results (single game, gammon, backgammon; oin, mars, koks),
    offering only the resignations it scores."""
    single, double, triple = variant.result_names
    more = [double, triple][:variant.game_type.results - 1]
    resign = f"offer to resign ({single})"
    if more:
        resign += "; " + ", ".join(f"resign {name}" for name in more)
    return (
        ("double", "before you roll: offer the cube at its next value (Enter or roll: roll)"),
        ("take / drop", "answer a double (also pass); beaver or raccoon where allowed"),
        ("resign", resign),
        ("accept / reject", "answer an offer to resign"),
    )


def is_stakes_decision(state: Any) -> bool:
    """Whether ``state`` waits for a cube or resignation decision (not a play)."""
    return isinstance(state, CubeState) and state.phase is Phase.DECIDE and (
        state.preroll or state.offer is not None or state.resignation is not None)


def parse_command(state: CubeState, text: str) -> Any | None:
    """The stakes action a person means by ``text`` at ``state``.

    Returns None when ``text`` is not about the cube or resigning (a move, say).
    Raises :class:`IllegalPlayError` with the reason when it is, but is not allowed now.
    """
    words = " ".join(text.strip().lower().split())
    if words.startswith("resign"):
        level_word = words[len("resign"):].strip()
        if level_word.startswith("a "):
            level_word = level_word[2:]
        if level_word not in _LEVELS:
            _, double, triple = state.base.variant.result_names
            raise IllegalPlayError(f"{text.strip()!r}: resign, resign {double} or resign {triple}")
        resign = Resign(_LEVELS[level_word])
        if resign not in state.resign_offers():
            state.apply(resign)  # raises with the reason
        return resign
    if state.resignation is not None:
        if words in _ACCEPT:
            return ResignAnswer.ACCEPT
        if words in _REJECT:
            return ResignAnswer.REJECT
        if words in _TAKE | _DROP | _DOUBLE | _ROLL | _BEAVER | _RACCOON:
            raise IllegalPlayError("first accept or reject the offer to resign")
        return None
    if state.offer is not None:
        answers = state.legal_actions()
        for action, names in ((CubeAction.TAKE, _TAKE), (CubeAction.DROP, _DROP),
                              (CubeAction.BEAVER, _BEAVER), (CubeAction.RACCOON, _RACCOON)):
            if words in names:
                if action not in answers:
                    allowed = "/".join(str(a) for a in answers)
                    raise IllegalPlayError(f"{words}: not allowed here; answer {allowed}")
                return action
        if words in _DOUBLE | _ROLL:
            raise IllegalPlayError(f"answer the {state.offer.kind.value} first: take or drop")
        return None
    if state.preroll:
        if words in _DOUBLE:
            return CubeAction.DOUBLE
        if words in _ROLL or words == "":
            return CubeAction.ROLL
        if words in ("take", "drop", "pass", "beaver", "raccoon"):
            raise IllegalPlayError(f"{words}: no cube is on offer; double or roll")
        return None
    if words in _DOUBLE:
        player = state.current_player if state.current_player is not None \
            else state.position.turn
        raise IllegalPlayError(f"you may not double now: {state.why_no_double(player)}")
    if words in ("take", "drop", "pass", "beaver", "raccoon"):
        raise IllegalPlayError("no cube is on offer")
    if words in ("accept", "reject"):
        raise IllegalPlayError("nobody has offered to resign")
    return None


def question(state: CubeState, names: Sequence[str] | None = None) -> str:
    """What the player to act is asked at a cube or resignation decision."""
    names = _names(state, names)
    if state.resignation is not None:
        offerer, level = state.resignation
        points = _points(state.points_for(level))
        return (f"{names[offerer]} offers to resign {state.variant.result_name(level)} ({points}): "
                "accept or reject?")
    if state.offer is not None:
        offer = state.offer
        verb = {CubeAction.DOUBLE: "doubles", CubeAction.BEAVER: "beavers",
                CubeAction.RACCOON: "raccoons"}[offer.kind]
        answers = " or ".join(str(a) for a in state.legal_actions())
        return (f"{names[offer.by]} {verb} to {offer.value}: {answers}? "
                f"(a drop gives up {_points(offer.stake)})")
    if state.preroll:
        return f"double to {state.next_cube}, or roll?"
    return ""


def choices(state: CubeState) -> str:
    """The answers at a cube or resignation decision, for a prompt: ``roll/double``."""
    return "/".join(str(a) for a in state.legal_actions())


def cube_text(state: CubeState, names: Sequence[str] | None = None) -> str:
    """The cube in a few words: ``cube 2, X owns it``, ``cube 1, in the middle``."""
    names = _names(state, names)
    if not state.cube_in_play:
        return "no cube"
    if state.cube_owner is None:
        text = f"cube {state.cube_value}, in the middle"
    else:
        text = f"cube {state.cube_value}, {names[state.cube_owner]} owns it"
    if state.offer is not None:
        text += f" ({state.offer.kind.value} to {state.offer.value} offered)"
    return text


def score_text(state: CubeState, names: Sequence[str] | None = None) -> str:
    """The score around the game: ``match to 7: X 3, O 5 (Crawford game)``."""
    names = _names(state, names)
    score = state.score
    each = ", ".join(f"{names[p]} {s}" for p, s in enumerate(score.score))
    if score.money:
        return f"money play: {each}"
    extra = " (Crawford game)" if score.crawford else (
        " (post-Crawford)" if score.post_crawford else "")
    return f"match to {score.length}: {each}{extra}"


def result_text(state: CubeState, names: Sequence[str] | None = None) -> str:
    """How a finished game ended, the winner's name first: ``O wins a gammon with the
    cube at 2: 4 points``, ``X wins 2 points (the cube was dropped)``."""
    names = _names(state, names)
    winner = state.winner
    if winner is None:
        return "The game is drawn"
    points = _points(state.returns()[winner])
    ending = state.ending
    cube = f" with the cube at {state.cube_value}" if state.cube_value != 1 else ""
    if ending is not None and ending.how == "drop":
        return f"{names[winner]} wins {points} (the cube was dropped)"
    if ending is not None:
        given = state.variant.result_name(ending.level)
        return f"{names[winner]} wins {given} by resignation: {points}"
    kind = state.variant.result_name(state.result_level)
    counted = ""
    if state.result_level > 1 and state.returns()[winner] == state.cube_value:
        counted = " (counted single: " + (
            "Jacoby rule" if state.jacoby_applies else "no mars with the cube") + ")"
    return f"{names[winner]} wins {kind}{cube}: {points}{counted}"


def _names(state: CubeState, names: Sequence[str] | None) -> Sequence[str]:
    if names is not None:
        return names
    return [f"player {p}" for p in range(state.base.position.players)]


def _points(points: float) -> str:
    n = int(points) if float(points).is_integer() else points
    return f"{n} point{'s' if n != 1 else ''}"
