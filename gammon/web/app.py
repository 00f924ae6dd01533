"""The web server: a lobby of tables, and live play over websockets.

:func:`create_app` builds the ASGI application (Starlette; ``gammon serve`` runs it with
uvicorn). Pages:

- ``/``: the lobby: create a table, see the open ones, take a free seat, watch;
- ``/t/ID``: a table's page; a person's seat link adds ``?token=...``.

JSON under ``/api``:

- ``GET /api/variants``: what can be played (players, options, whether with the cube);
- ``GET /api/tables``, ``POST /api/tables`` (create: the variant, the seats, the kind of
  table and its stakes; the answer holds the creator's seat link);
- ``POST /api/tables/ID/seats``: take a free person's seat (its link in the answer);
- ``GET /api/tables/ID/record``: the table's JSON log, seed included, once play is over
  (``gammon verify`` checks it).

``/ws/ID?token=...``: the table, live. The server sends ``{"type": "state", "table":
...}`` (:func:`gammon.web.views.snapshot`) after every change and ``{"type": "error",
"message": ...}`` when something is refused; a browser sends ``{"type": "act",
"version": V, "index": I}`` (or ``"resign": LEVEL``) and ``{"type": "preview", "index":
I, "moves": [...]}``. Anything else, anything malformed or larger than
:data:`MAX_MESSAGE`, is answered with an error and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from gammon.core.errors import GammonError, InvalidOptionError
from gammon.web.rooms import Lobby, Room
from gammon.web.store import Store

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("gammon.web")
#: The largest message a browser may send (characters).
MAX_MESSAGE = 4096
#: What a table may be asked for at creation.
CREATE_FIELDS = {"variant", "options", "seats", "kind", "length", "stake", "games",
                 "crawford", "cube", "jacoby", "beaver"}


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


#: The levels the lobby offers beside a bot kind's default: a search's depth (two rolls
#: deep only where the compiled board search keeps a move under a second).
LEVELS = {"neural": ("neural:0", "neural:1", "neural:2"),
          "expectimax": ("expectimax:1", "expectimax:2")}


def _variants() -> list[dict[str, Any]]:
    from gammon.agents.registry import default_depth
    from gammon.core.variant import variant, variant_names

    out = []
    for name in variant_names():
        rules = variant(name)
        bots = []
        for kind in rules.bots:
            if kind == "gnubg":  # a server's gnubg is not for the public
                continue
            bots.append(kind)
            bots.extend(level for level in LEVELS.get(kind, ()) if level not in bots
                        and (default_depth(rules) == 2 or not level.endswith(":2")))
        out.append({"name": name, "players": rules.players, "summary": rules.summary,
                    "bots": bots, "cube": rules.cube})
    return out


def _table_row(room: Room) -> dict[str, Any]:
    table = room.table
    return {"id": room.id, "variant": table.variant.name, "kind": table.kind,
            "seats": [{"seat": p, "name": n, "human": s.human, "taken": p in room.tokens}
                      for p, (s, n) in enumerate(zip(table.seats, room.names, strict=True))],
            "free": room.free, "over": table.over, "game": table.game}


def create_app(database: str = "sqlite:///gammon.db", bot_delay: float = 0.5) -> Starlette:
    """The application, its tables kept in ``database`` (an SQLAlchemy URL)."""
    lobby = Lobby(Store(database), bot_delay=bot_delay)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        lobby.restore()
        for room in lobby.rooms.values():
            room.wake()  # a bot whose turn it was when the server stopped plays on
        yield

    async def lobby_page(request: Request) -> Response:
        return FileResponse(STATIC / "lobby.html")

    async def table_page(request: Request) -> Response:
        if request.path_params["id"] not in lobby.rooms:
            return _error("no such table", 404)
        return FileResponse(STATIC / "table.html")

    async def variants(request: Request) -> Response:
        return JSONResponse(_variants())

    async def list_tables(request: Request) -> Response:
        return JSONResponse([_table_row(room) for room in lobby.rooms.values()
                             if not room.table.over])

    async def create(request: Request) -> Response:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return _error("send the table as a JSON object")
        if not isinstance(body, dict):
            return _error("send the table as a JSON object")
        unknown = set(body) - CREATE_FIELDS
        if unknown:
            return _error(f"unknown fields {sorted(unknown)}; a table takes "
                          f"{sorted(CREATE_FIELDS)}")
        try:
            room = lobby.create(**_table_settings(body))
            seat, token = room.take()
        except (GammonError, TypeError, ValueError) as error:
            return _error(str(error))
        room.wake()
        return JSONResponse({"id": room.id, "seat": seat, "token": token,
                             "url": f"/t/{room.id}?token={token}"}, status_code=201)

    async def take_seat(request: Request) -> Response:
        try:
            room = lobby.get(request.path_params["id"])
            body = await request.json() if await request.body() else {}
            wanted = body.get("seat") if isinstance(body, dict) else None
            if wanted is not None and not isinstance(wanted, int):
                raise InvalidOptionError("seat is a number")
            seat, token = room.take(wanted)
        except (GammonError, json.JSONDecodeError) as error:
            return _error(str(error))
        await room.broadcast()
        return JSONResponse({"id": room.id, "seat": seat, "token": token,
                             "url": f"/t/{room.id}?token={token}"}, status_code=201)

    async def record(request: Request) -> Response:
        try:
            room = lobby.get(request.path_params["id"])
        except GammonError as error:
            return _error(str(error), 404)
        if not room.table.over:
            return _error("the record (with the dice's seed) is given once play is over", 409)
        data = room.table.to_json()
        data["commitment"] = room.commitment
        return JSONResponse(data)

    async def review_page(request: Request) -> Response:
        try:
            room = lobby.get(request.path_params["id"])
        except GammonError as error:
            return _error(str(error), 404)
        if not room.table.over:
            return _error("the review is made once play is over", 409)
        try:
            page = await asyncio.get_running_loop().run_in_executor(None, _review, room)
        except GammonError as error:
            return _error(str(error), 409)
        return HTMLResponse(page)

    async def live(socket: WebSocket) -> None:
        await socket.accept()
        try:
            room = lobby.get(socket.path_params["id"])
        except GammonError as error:
            await socket.send_json({"type": "error", "message": str(error)})
            await socket.close()
            return
        token = socket.query_params.get("token")
        seat = room.seat_of(token)
        if token and seat is None:
            await socket.send_json({"type": "error", "message": "that seat link is not "
                                    "valid at this table: you are watching"})
        await room.join(socket, seat)
        try:
            while True:
                text = await socket.receive_text()
                try:
                    await _handle(room, socket, seat, text)
                except WebSocketDisconnect:
                    raise
                except Exception:  # a bug of ours must not cost the person their table
                    log.exception("table %s: message %r", room.id, text[:200])
                    await socket.send_json({"type": "error", "message": "the server could "
                                            "not do that; the table is as it was"})
        except WebSocketDisconnect:
            pass
        finally:
            room.leave(socket)

    routes = [
        Route("/", lobby_page),
        Route("/t/{id}", table_page),
        Route("/api/variants", variants),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/{id}/seats", take_seat, methods=["POST"]),
        Route("/api/tables/{id}/record", record),
        Route("/t/{id}/review", review_page),
        WebSocketRoute("/ws/{id}", live),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.lobby = lobby
    return app


def _review(room: Room) -> str:
    """The review page of a finished table (every decision rated at 1 ply)."""
    from gammon.analysis.cli import evaluator_for
    from gammon.analysis.review import html, review

    evaluator = evaluator_for(room.table.variant, None)
    reviewed = review(room.table.series.games, evaluator, room.names, plies=1)
    return html(reviewed, f"Review of table {room.id} ({room.table.variant.name})")


def _table_settings(body: dict[str, Any]) -> dict[str, Any]:
    """The :class:`~gammon.table.Table` settings of a creation request, checked."""
    from gammon.stakes.rules import StakeRules

    variant = body.get("variant")
    seats = body.get("seats")
    if not isinstance(variant, str):
        raise InvalidOptionError("variant is a name, such as backgammon")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise InvalidOptionError("seats is a list such as [\"human\", \"neural\"]")
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise InvalidOptionError("options is an object of the variant's options")
    kind = body.get("kind", "game")
    settings: dict[str, Any] = {"variant": variant, "seats": [s.strip().lower() for s in seats],
                                "kind": kind, "options": options}
    if kind == "match":
        settings["length"] = _whole(body.get("length", 5), "length", 1, 25)
        settings["crawford"] = bool(body.get("crawford", True))
    if kind == "money":
        settings["stake"] = _whole(body.get("stake", 1), "stake", 1, 10_000)
        if body.get("games") is not None:
            settings["games"] = _whole(body["games"], "games", 1, 1000)
    if kind in ("match", "money"):
        settings["stakes"] = StakeRules(
            cube=bool(body.get("cube", True)),
            jacoby=bool(body.get("jacoby", False)) and kind == "money",
            beaver=bool(body.get("beaver", False)) and kind == "money")
    from gammon.agents.registry import KINDS, parse_spec

    for seat in settings["seats"]:
        if seat != "human" and parse_spec(seat)[0] not in KINDS:
            raise InvalidOptionError(f"unknown seat {seat!r}: human or a bot "
                                     f"({', '.join(KINDS)})")
    return settings


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidOptionError(f"{what} is a whole number from {low} to {high}, not "
                                 f"{value!r}")
    return value


async def _handle(room: Room, socket: WebSocket, seat: int | None, text: str) -> None:
    """One message from a browser (module text)."""
    from gammon.web.views import preview

    async def refuse(message: str) -> None:
        await socket.send_json({"type": "error", "message": message})
        await room.send(socket)  # the table as it is, so a stale page catches up

    if len(text) > MAX_MESSAGE:
        await refuse(f"message too long ({len(text)} characters; at most {MAX_MESSAGE})")
        return
    try:
        message = json.loads(text)
    except json.JSONDecodeError:
        await refuse("messages are JSON objects")
        return
    if not isinstance(message, dict):
        await refuse("messages are JSON objects")
        return
    kind = message.get("type")
    if kind == "ping":
        await socket.send_json({"type": "pong"})
        return
    if kind == "preview":
        index, moves = message.get("index"), message.get("moves")
        if seat is None or not isinstance(index, int) or not isinstance(moves, list) \
                or not all(isinstance(m, int) for m in moves) or len(moves) > 8:
            await refuse("a preview names a play (index) and its moves so far")
            return
        await socket.send_json({"type": "preview", "svg": preview(room, seat, index, moves)})
        return
    if kind != "act":
        await refuse(f"unknown message type {kind!r}: act, preview or ping")
        return
    try:
        await room.act(seat, message.get("version"), lambda q: _chosen(q, message))
    except GammonError as error:
        await refuse(str(error))


def _chosen(question: Any, message: dict[str, Any]) -> Any:
    """The action an ``act`` message names: an index into the question's actions, or a
    resignation level."""
    from gammon.core.errors import IllegalPlayError
    from gammon.stakes.cube import CubeState

    if "resign" in message:
        state = question.state
        level = message["resign"]
        offers = state.resign_offers() if isinstance(state, CubeState) else ()
        for offer in offers:
            if offer.level == level:
                return offer
        raise IllegalPlayError(f"no resignation of level {level!r} can be offered here")
    index = message.get("index")
    if not isinstance(index, int) or isinstance(index, bool) \
            or not 0 <= index < len(question.actions):
        raise IllegalPlayError(f"choose an action from 0 to {len(question.actions) - 1}, "
                               f"not {index!r}")
    return question.actions[index]
