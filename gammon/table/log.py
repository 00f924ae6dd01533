"""The table's log entries as plain JSON: every chance outcome and every action.

An entry is a small JSON object that says what happened in words a person can read and
that :func:`decode` turns back into the same outcome or action *at the same state*:

- a throw: ``{"roll": [5, 2]}``; an opening throw adds ``"opening": true``, and a
  Multi-Gam re-throw among tied players names them, ``"players": [0, 2]``;
- a play: ``{"seat": 1, "play": "13/11 6/5", "board": "000502...", "moves": [[13, 11,
  0], [6, 5, 0]]}``: the move text for people, the board it leads to (hex of the
  position's bytes), which says exactly which play it was, and its checker moves
  (source, destination, hit, in the mover's numbering) for faces that show them;
- any other action: ``{"seat": 0, "action": "double"}``, its text as the action writes
  itself (``take``, ``doubles 4``, ``resign gammon``, ``B3+7>Y1*``...).

Decoding checks the entry against the state: a throw that cannot happen there, a play
that is not legal, or an action that is not on offer raises a
:class:`~gammon.core.errors.GammonError` saying so, so a log replays to the same state
or not at all.
"""

from __future__ import annotations

from typing import Any

from gammon.core.dice import Roll
from gammon.core.errors import IllegalOutcomeError, IllegalPlayError, InvalidNotationError
from gammon.core.play import Play
from gammon.core.protocol import State
from gammon.stakes.cube import resign_offers

Entry = dict[str, Any]


def encode_outcome(roll: Roll) -> Entry:
    """A throw as a log entry."""
    entry: Entry = {"roll": list(roll.dice)}
    if roll.opening:
        entry["opening"] = True
    if roll.players:
        entry["players"] = list(roll.players)
    return entry


def encode_action(seat: int, action: Any, text: str) -> Entry:
    """An action of ``seat`` as a log entry; ``text`` is how people read it."""
    if isinstance(action, Play):
        return {"seat": seat, "play": text, "board": action.result.board.hex(),
                "moves": [[m.source, m.destination, int(m.hit)] for m in action.moves]}
    return {"seat": seat, "action": str(action)}


def decode(state: State, entry: Entry) -> Any:
    """The outcome or action ``entry`` stands for at ``state``; raises a GammonError when
    it is not one that can happen there."""
    if not isinstance(entry, dict):
        raise InvalidNotationError(f"a log entry is a JSON object, not {entry!r}")
    if "roll" in entry:
        return _decode_roll(state, entry)
    if "play" in entry or "action" in entry:
        return _decode_action(state, entry)
    raise InvalidNotationError(
        f"log entry {entry!r}: expected a throw (roll), a play or an action")


def _decode_roll(state: State, entry: Entry) -> Roll:
    dice, opening, players = entry["roll"], bool(entry.get("opening")), entry.get("players")
    if not state.is_chance:
        raise IllegalOutcomeError(f"log entry {entry!r}: no dice are thrown here")
    if not isinstance(dice, list) or not all(d.__class__ is int for d in dice):
        raise InvalidNotationError(f"log entry {entry!r}: roll is a list of dice")
    for roll, _ in state.chance_outcomes():
        if (list(roll.dice) == dice and roll.opening == opening
                and list(roll.players) == (players or [])):
            return roll
    raise IllegalOutcomeError(f"log entry {entry!r}: that throw cannot happen here")


def _decode_action(state: State, entry: Entry) -> Any:
    if state.is_chance or state.is_terminal:
        raise IllegalPlayError(f"log entry {entry!r}: nobody is to act here")
    seat = entry.get("seat")
    if seat.__class__ is not int or seat != state.current_player:
        raise IllegalPlayError(
            f"log entry {entry!r}: seat {state.current_player} is to act, not {seat!r}")
    legal = state.legal_actions()
    if "play" in entry:
        try:
            board = bytes.fromhex(str(entry.get("board", "")))
        except ValueError:
            raise InvalidNotationError(f"log entry {entry!r}: board is hex") from None
        for action in legal:
            if isinstance(action, Play) and action.result.board == board:
                return action
        raise IllegalPlayError(f"log entry {entry!r}: that play is not legal here")
    text = str(entry["action"])
    offers: tuple[Any, ...] = resign_offers(state)
    for action in (*legal, *offers):
        if not isinstance(action, Play) and str(action) == text:
            return action
    raise IllegalPlayError(f"log entry {entry!r}: no such action is on offer here")
