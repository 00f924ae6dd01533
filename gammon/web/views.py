"""What a browser is sent: a table as one seat (or a spectator) sees it.

:func:`state_message` is a JSON object with everything the page draws: the board as SVG
(from the seat's side; the last play marked), the seats, the question and, for the seat
it is asked of, the actions to choose from (a play with its checker moves as board spots,
so the page can let a person move checker by checker), the record of the game, the
narration, the score and cube, pip counts, the position's ID, and the table's fairness
(the seed's commitment; the seed itself once play is over). :func:`preview` draws the
board after some moves of a play, as a person picks them.

The page never decides what is legal: it only offers what is listed here, and the
server checks again whatever comes back.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any, TypedDict

from gammon.core.errors import GammonError
from gammon.core.play import Move, Play
from gammon.core.position import Position
from gammon.core.protocol import State
from gammon.core.variant import GameState, TrackVariant
from gammon.notation import move_text_for
from gammon.notation.codecs import format_position
from gammon.notation.movetext import partial_play
from gammon.render.svg import board_svg
from gammon.stakes.cube import base_of, resign_offers, stakes_of
from gammon.stakes.prompt import cube_text, score_text
from gammon.stakes.session import Session
from gammon.table import narrate
from gammon.table.table import MATCH, MONEY, PLAY, Question, Table
from gammon.variants.acedrex import RING, Jump, is_gate, stop_name
from gammon.variants.acedrex import Step as AcedrexStep
from gammon.web.room import Room


def _spot(slot: int, slots: int) -> str:
    return "off" if slot == 0 else "bar" if slot == slots - 1 else f"p{slot}"


def _seen_from(variant: TrackVariant, mover: int, slot: int, viewer: int) -> int:
    """``mover``'s slot as the viewer numbers that point (the bar and off are shared)."""
    if mover == viewer or slot in (0, variant.slots - 1):
        return slot
    return variant.shared_slot(mover, slot, viewer)


def play_steps(play: Play, variant: TrackVariant) -> list[list[str]]:
    """A play's checker moves as ``[from, to]`` board spots, in the mover's numbering."""
    slots = variant.slots
    return [[_spot(m.source, slots), _spot(m.destination, slots)] for m in play.moves]


def last_play(table: Table) -> tuple[int, int, Play] | None:
    """The last play of the game being played: where it stands in the game's log, who
    made it, and the play."""
    state = base_of(table.state)
    entries = table.entries()
    if not isinstance(state, GameState) or not entries:
        return None
    for index in range(len(entries) - 1, -1, -1):
        entry = entries[index]
        if "play" in entry:
            board = bytes.fromhex(entry["board"])
            mover = int(entry["seat"])
            moves = entry.get("moves", [])
            play = Play(tuple(Move(int(a), int(b), bool(h)) for a, b, h in moves),
                        Position(board, state.players, mover))
            return index, mover, play
    return None


class LastSteps(TypedDict):
    """The last play as the page slides it (:func:`last_steps`)."""

    seat: int
    steps: list[list[str]]
    key: str


def last_steps(table: Table, viewer: int) -> LastSteps | None:
    """The last play's checker moves as spot pairs ``[from, to]`` as ``viewer`` sees the
    board, who made them, and a key that changes with every play (the page slides the
    checkers once per play)."""
    found = last_play(table)
    state = base_of(table.state)
    if found is None or not state.variant.game_type.checkers:
        return None
    index, mover, play = found
    variant = state.variant
    steps = [[_spot(_seen_from(variant, mover, slot, viewer), variant.slots)
              for slot in (move.source, move.destination)] for move in play.moves]
    return {"seat": mover, "steps": steps, "key": f"{table.game}:{index}"}


def record(room: Room) -> list[dict[str, object]]:
    """The game being played, one line per throw or decision: who, and what."""
    names = room.names
    lines: list[dict[str, object]] = []
    for entry in room.table.entries():
        if "roll" in entry:
            dice = "-".join(map(str, entry["roll"]))
            who = [names[p] for p in entry.get("players", [])] if entry.get("players") else []
            text = ("opening throw " if entry.get("opening") else "rolls ") + dice
            line: dict[str, object] = {"seat": None,
                                       "text": text + (f" ({', '.join(who)})" if who else "")}
            if not who:  # the pages word these (narrate.Line.message)
                line.update(message="record_opening" if entry.get("opening")
                            else "record_rolls", values={"dice": dice})
            lines.append(line)
        elif entry.get("timeout"):
            lines.append({"seat": int(entry["seat"]), "text": "out of time",
                          "message": "record_timeout"})
        else:
            seat = int(entry["seat"])
            lines.append({"seat": seat, "text": entry.get("play", entry.get("action", ""))})
    return lines


def _position_id(state: State) -> str:
    game = base_of(state)
    try:
        if isinstance(game, GameState):
            return format_position(game.variant, game.position)
        return format_position(game.variant, game)
    except (GammonError, ValueError):  # a notation that cannot write this state
        return ""


def view(room: Room, seat: int | None) -> str:
    """The state message for ``seat`` as JSON text: made once per change and seat (kept
    in the room), since everyone in the room is sent it after every change."""
    key = (room.version, len(room.tokens), room.status, room.rematch,
           room.clock.since if room.clock else 0.0)
    if room._views.get("key") != key:
        room._views = {"key": key}
    message = room._views.get(seat)
    if message is None:
        message = room._views[seat] = state_message(room, seat, room._views)
    if room.clock is None:
        return str(message)
    # The clock as it stands at the moment of sending (the rest is made once).
    return f'{str(message)[:-2]},"clock":{json.dumps(room.clock.view(time.time()))}}}}}'


def publish(room: Room) -> None:
    """Send everyone in the room the table as it is now (what they have not been sent
    yet is replaced, not queued)."""
    for client, seat in list(room.clients.items()):
        client.push(view(room, seat), state=True)


def state_message(room: Room, seat: int | None, made: dict[Any, Any] | None = None) -> str:
    """The state message, as JSON text, of the table as ``seat`` sees it (None: a
    spectator, who sees it from the first seat's side); see the module text.

    Everyone at a table is sent it after every step, so it is put together from parts
    written once per step and kept in ``made``: what everybody is shown alike, the
    board from each side, and only then what is the seat's own (its choices)."""
    made = {} if made is None else made
    if "shared" not in made:
        made["shared"] = _json(_shared(room))[:-1]  # without its closing brace
    table = room.table
    state = table.state
    parts = ['{"type":"state","table":', made["shared"], ',"you":', _json(seat)]
    if state is not None:
        viewer = seat if seat is not None else 0
        if ("board", viewer) not in made:
            steps = last_steps(table, viewer)
            board = board_svg(state, viewer, names=room.names,
                              moved=[s for step in steps["steps"] for s in step] if steps
                              else [])
            made["board", viewer] = f',"last_play":{_json(steps)},"board":{_json(board)}'
        parts.append(made["board", viewer])
        question = table.question
        if question is not None and seat == question.seat:
            game = base_of(state)
            parts.append(f',"actions":{_json(_actions(question, game))}')
            if question.kind == PLAY and isinstance(game, GameState):
                # The mover's checkers by spot: a move can only start where one stands.
                position = game.position
                mine = {_spot(s, position.slots): position.count(seat, s)
                        for s in range(1, position.slots) if position.count(seat, s)}
                parts.append(f',"mine":{_json(mine)}')
    else:
        parts.append(',"board":""')
    parts.append("}}")
    return "".join(parts)


def _json(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def _shared(room: Room) -> dict[str, object]:
    """What every seat and spectator is shown alike."""
    table = room.table
    state = table.state
    question = table.question
    names = room.names
    data: dict[str, object] = {
        "id": room.id,
        "variant": table.variant.name,
        # A match of several variants in turn (tavli): its name and its games in order;
        # ``variant`` is then the game being played.
        "rotation": ({"name": table.played.name, "games": list(table.played.variants)}
                     if table.played.several else None),
        "kind": table.kind,
        "length": table.length,
        "version": room.version,
        "seats": [{"seat": p, "name": names[p], "kind": s.kind, "human": s.human,
                   "taken": p in room.tokens, "account": p in room.players}
                  for p, s in enumerate(table.seats)],
        "free": room.free,
        "over": table.over,
        "game": table.game,
        "lines": [{"seat": line.seat, "text": line.text, "message": line.message,
                   "values": line.values} for line in list(room.lines)[-12:]],
        "record": record(room),
        "fair": {"commitment": room.commitment,
                 "seed": str(table.seed) if table.over else None},
        "closed": room.reason or None,
        "question": None,
        # Whether the record downloads as a .mat file (/api/tables/ID/match.mat).
        "mat": table.writes_mat,
        "rated": room.rated,
        "accounts": sorted(room.players),
        "rematch": room.rematch or None,
        "rematch_of": room.rematch_of or None,
        "tournament": room.tournament or None,
        "timed_out": table.timed_out,
    }
    if state is None:
        return data
    game = base_of(state)
    data["position_id"] = _position_id(state)
    if isinstance(game, GameState):
        data["pips"] = [game.position.pips(p) for p in range(game.players)]
        data["dice"] = list(game.dice)
    info = []
    if (stakes := stakes_of(state)) is not None:
        if table.kind == MATCH:
            info.append(score_text(stakes, names))
        if table.kind in (MATCH, MONEY):
            info.append(cube_text(stakes, names))
    if isinstance(table.series, Session) and table.kind == MONEY:
        balances = table.series.balances()
        info.append("money: " + ", ".join(f"{names[p]} {b:+g}" for p, b in
                                          enumerate(balances)))
    data["info"] = info
    data["result"] = _result(room) if state.is_terminal or table.timed_out is not None \
        else None
    if question is not None:
        data["question"] = {"seat": question.seat, "kind": question.kind,
                            "text": question.worded(names), "name": names[question.seat]}
    return data


def _actions(question: Question, game: Any) -> list[dict[str, object]]:
    # Any: a PLAY question's game is a track game (play_steps needs its TrackVariant),
    # which the question's kind says and no type does.
    actions: list[dict[str, object]] = []
    variant = game.variant
    writer = None
    for index, action in enumerate(question.actions):
        if question.kind == PLAY and isinstance(action, Play):
            if writer is None:
                writer = move_text_for(variant)
            actions.append({"index": index, "steps": play_steps(action, variant),
                            "text": writer.format_action(action) if action.moves
                            else "no move"})
        else:
            actions.append({"index": index, "text": str(action), **_ring_move(action)})
    state = question.state
    if question.kind == PLAY:
        for offer in resign_offers(state):
            actions.append({"resign": offer.level, "text": str(offer)})
    return actions


def _ring_move(action: object) -> dict[str, str]:
    """Where an Acedrex step or jump goes on the ring, as the board names its spots
    (``from`` a stop or ``hand``, ``to`` a stop or ``jackpot``), for the page to play it by
    clicking; nothing for any other action."""
    if isinstance(action, AcedrexStep):
        target = action.target if action.target >= 0 else (action.source + action.steps) % RING
        return {"from": stop_name(action.source),
                "to": "jackpot" if is_gate(target) else stop_name(target)}
    if isinstance(action, Jump):
        return {"from": stop_name(action.source), "to": stop_name(action.target)}
    return {}


def _result(room: Room) -> str:
    table = room.table
    lines = narrate.timeout_lines(table, room.names) if table.timed_out is not None \
        else narrate.result_lines(table, table.state, room.names)
    return " ".join(line.text if line.seat is None else f"{room.names[line.seat]} {line.text}"
                    for line in lines)


def preview(room: Room, seat: int, index: int, moves: list[int]) -> str:
    """The board (from ``seat``'s side) after the moves ``moves`` (indices into the
    checker moves) of legal play ``index``: what a person has picked so far."""
    question = room.table.question
    if question is None or question.seat != seat or question.kind != PLAY:
        return ""
    if not 0 <= index < len(question.actions):
        return ""
    play = question.actions[index]
    game = base_of(question.state)
    position = game.position
    rows = [list(position.row(p)) for p in range(position.players)]
    variant = game.variant
    mover = position.turn
    bar = variant.slots - 1
    if len(set(moves)) != len(moves):
        return ""
    for k in moves:
        if not 0 <= k < len(play.moves):
            return ""
        move = play.moves[k]
        if rows[mover][move.source] < 1:
            return ""  # no checker there yet: not a way this play can be made
        rows[mover][move.source] -= 1
        rows[mover][move.destination] += 1
        if move.hit and not variant.game_type.pins:  # a pin leaves the checker where it stands
            for other in range(position.players):
                if other == mover:
                    continue
                slot = variant.shared_slot(mover, move.destination, other)
                if rows[other][slot] == 1:
                    rows[other][slot] = 0
                    rows[other][bar] += 1
    counts = Position.from_checkers(rows, mover)
    after = Position(counts.board, counts.players, mover,
                     variant.pins_after(position, counts.board))
    partial = GameState(variant, after, game.phase, game.dice, game.opening, game.moves,
                        game.memo)
    spots = [s for k in moves for s in play_steps(play, variant)[k]]
    return board_svg(partial, seat, moved=spots, used=dice_used(game, play, moves))


def dice_used(game: GameState, play: Play, moves: Sequence[int]) -> list[int]:
    """The dice that the moves ``moves`` of ``play`` spend, as the terminal works out the
    dice left of a play typed in parts (:func:`gammon.notation.movetext.partial_play`);
    none when that cannot say."""
    try:
        left = list(partial_play(game, [(play.moves[k].source, play.moves[k].destination)
                                        for k in moves]).dice)
    except GammonError:
        return []
    dice = game.dice
    spent = []
    for die in list(dice) * (2 if len(dice) == 2 and dice[0] == dice[1] else 1):
        if die in left:
            left.remove(die)
        else:
            spent.append(die)
    return spent
