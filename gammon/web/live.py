"""The live protocol: one websocket per browser at a table.

A browser connects to ``/ws/ID`` and says hello first, with its seat's token if it has
one: ``{"type": "hello", "token": "..."}`` (a token is never in a URL, so it is never in
a log). The server answers with ``{"type": "state", "table": ...}``
(:func:`gammon.web.views.state_message`), and again after every change; a refusal is a short
``{"type": "error", "message": ..., "version": V}``, never the whole state again. A
browser sends ``{"type": "act", "version": V, "index": I}`` (or ``"resign": LEVEL``),
``{"type": "preview", "index": I, "moves": [...]}``, ``{"type": "chat", "text": ...}``
and ``{"type": "ping"}``; the server sends chat as ``{"type": "chat", "lines": [...]}``,
the players' lines to the players and the spectators' to the spectators.

Everything a browser sends is checked before it is read: at most
``limits.message_chars`` characters a message, ``rates.messages_per_second`` messages a
second on a connection (and on all of an address's connections together); a message
over the rate is dropped unread, with one short warning a second, and a connection that
keeps on is closed. Close codes say why: 1003 for a binary frame, 1007 for a message that
is not a JSON object, 1008 for a broken rule (no hello, too many messages), 1009 for a
message too long, 4404 for no such table and 4410 for a table set aside.

What the server sends a browser waits in a :class:`Connection`'s outbox: the newest state
replaces an older one not yet sent, so a slow or stalled browser costs a bounded amount of
memory and never holds anyone else up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque

from starlette.websockets import WebSocket, WebSocketState

from gammon.core.errors import GammonError, IllegalPlayError
from gammon.stakes.cube import resign_offers
from gammon.table.table import Question
from gammon.web.accounts import User
from gammon.web.config import ServerConfig
from gammon.web.rates import Bucket, Rates
from gammon.web.room import Room
from gammon.web.rooms import Lobby, Unavailable, stop_tasks
from gammon.web.views import preview

log = logging.getLogger("gammon.web")

#: Small messages (errors, pongs, previews) a connection keeps waiting at most.
OUTBOX = 16
#: Close codes (RFC 6455, and ours in the 4000s).
UNSUPPORTED, INVALID, POLICY, TOO_BIG, RESTARTING, NO_TABLE, SET_ASIDE = (
    1003, 1007, 1008, 1009, 1012, 4404, 4410)


class Connection:
    """One browser's websocket: a bounded outbox and the task that empties it."""

    def __init__(self, socket: WebSocket, send_seconds: float) -> None:
        self.socket = socket
        self.send_seconds = send_seconds
        self.state: str | None = None
        self.small: deque[str] = deque(maxlen=OUTBOX)
        self.ready = asyncio.Event()
        self.closing: tuple[int, str] | None = None
        self.sent_bytes = 0
        self.sender = asyncio.get_running_loop().create_task(self._send())

    def push(self, text: str, *, state: bool = False) -> None:
        if state:
            self.state = text
        else:
            self.small.append(text)
        self.ready.set()

    def error(self, message: str, version: int | None = None) -> None:
        data: dict[str, object] = {"type": "error", "message": message}
        if version is not None:
            data["version"] = version
        self.push(json.dumps(data))

    def close(self, code: int, reason: str) -> None:
        """Close once what is waiting has been sent."""
        self.closing = (code, reason)
        self.ready.set()

    async def _send(self) -> None:
        socket = self.socket
        try:
            while True:
                await self.ready.wait()
                self.ready.clear()
                while self.small or self.state is not None:
                    if self.small:
                        text = self.small.popleft()
                    else:
                        text, self.state = str(self.state), None
                    await asyncio.wait_for(socket.send_text(text), self.send_seconds)
                    self.sent_bytes += len(text)
                if self.closing is not None:
                    if socket.client_state == WebSocketState.CONNECTED:
                        await asyncio.wait_for(socket.close(*self.closing), self.send_seconds)
                    return
        except (TimeoutError, OSError, RuntimeError):
            with contextlib.suppress(Exception):  # the close waits on the send: bounded too
                await asyncio.wait_for(socket.close(POLICY, "not reading"), self.send_seconds)
        except Exception:  # the browser went away: it reconnects by itself
            pass

    async def finish(self, seconds: float = 2.0) -> None:
        """Stop sending: the sender cancelled, again if a cancellation was lost, for
        ``seconds`` at most (then it is left to the loop)."""
        await stop_tasks({self.sender}, seconds)


class Live:
    """The websocket endpoint (module text)."""

    def __init__(self, lobby: Lobby, config: ServerConfig) -> None:
        self.lobby = lobby
        self.config = config
        self.per_address = Rates(config.rates.messages_per_second_per_address)
        talk = config.rates.chat_lines_per_minute
        self.chat_per_speaker = Rates(talk / 60, burst=min(talk, 3))
        self.chat_per_address = Rates.per_minute(config.rates.chat_lines_per_minute_per_address)
        self.sockets: dict[str, int] = {}  # by address
        self.open = 0
        self.connections: set[Connection] = set()
        self.handlers: set[asyncio.Task[object]] = set()

    def admit(self, address: str) -> str | None:
        """Why a new websocket from ``address`` is refused, or None."""
        limits = self.config.limits
        if self.open >= limits.sockets:
            return "this server is full"
        if self.sockets.get(address, 0) >= limits.sockets_per_address:
            return "too many connections from your address"
        return None

    async def stop(self, seconds: float) -> None:
        """At shutdown: every connection told the server is going (1012, as uvicorn
        says it), then every handler still running cancelled, again and again if a
        cancellation is lost, for ``seconds`` at most."""
        for connection in list(self.connections):
            connection.close(RESTARTING, "the server is restarting")
        await stop_tasks(self.handlers, seconds)

    async def serve(self, socket: WebSocket, address: str, table_id: str,
                    user: User | None = None) -> None:
        self.sockets[address] = self.sockets.get(address, 0) + 1
        self.open += 1
        connection = Connection(socket, self.config.limits.send_seconds)
        handler = asyncio.current_task()
        if handler is not None:
            self.handlers.add(handler)
        self.connections.add(connection)
        room: Room | None = None
        try:
            await socket.accept()
            hello = await self._hello(socket, connection)
            if hello is None:
                return
            try:
                room = await self.lobby.room(table_id)
            except Unavailable as gone:
                connection.error(str(gone))
                connection.close(NO_TABLE if gone.status == 404 else SET_ASIDE, "no table")
                return
            token = hello.get("token")
            seat = await self.lobby.join(room, connection, token if isinstance(token, str)
                                         and len(token) <= 64 else None, user)
            if token and seat is None:
                connection.error("that seat link is not valid at this table: you are "
                                 "watching")
            await self._messages(socket, connection, room, seat, address, user)
        finally:
            if room is not None:
                self.lobby.leave(room, connection)
            self.open -= 1
            self.sockets[address] -= 1
            if not self.sockets[address]:
                del self.sockets[address]
            self.connections.discard(connection)
            try:
                if connection.closing is not None:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(asyncio.shield(connection.sender), 2.0)
            finally:
                try:
                    await connection.finish()
                finally:
                    self.handlers.discard(handler)

    async def _hello(self, socket: WebSocket,
                     connection: Connection) -> dict[str, object] | None:
        try:
            text = await asyncio.wait_for(self._text(socket, connection),
                                          self.config.limits.hello_seconds)
        except TimeoutError:
            connection.close(POLICY, "say hello first")
            return None
        if text is None:
            return None
        message = self._parse(text, connection)
        if message is None:
            return None
        if message.get("type") != "hello":
            connection.error("say hello first: {\"type\": \"hello\", \"token\": ...}")
            connection.close(POLICY, "say hello first")
            return None
        return message

    async def _text(self, socket: WebSocket, connection: Connection) -> str | None:
        """The next text message; None (the connection closing) for anything else."""
        message = await socket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        if text is None:
            connection.close(UNSUPPORTED, "messages are JSON text, not binary")
            return None
        if len(text) > self.config.limits.message_chars:
            connection.close(TOO_BIG, "message too long")
            return None
        return str(text)

    def _parse(self, text: str, connection: Connection) -> dict[str, object] | None:
        try:
            message = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            message = None
        if not isinstance(message, dict):
            connection.close(INVALID, "messages are JSON objects")
            return None
        return message

    async def _messages(self, socket: WebSocket, connection: Connection, room: Room,
                        seat: int | None, address: str, user: User | None) -> None:
        speaker = f"account {user.id}" if user is not None else f"guest at {address}"
        dropped = 0
        warned = -1.0
        loop = asyncio.get_running_loop()
        rate = self.config.rates.messages_per_second
        mine = Bucket(rate, rate)
        while connection.closing is None:
            text = await self._text(socket, connection)
            if text is None:
                return
            arrived = time.time()  # a clock is charged up to here, however busy we are
            if not (mine.take() and self.per_address.take(address)):
                dropped += 1
                if dropped >= self.config.rates.drops_to_close:
                    connection.close(POLICY, "too many messages")
                    return
                if loop.time() - warned >= 1.0:
                    warned = loop.time()
                    connection.error(f"too many messages: at most "
                                     f"{self.config.rates.messages_per_second} a second; "
                                     "the others were not read")
                continue
            message = self._parse(text, connection)
            if message is None:
                return
            try:
                if message.get("type") == "chat":
                    words = chat_text(message.get("text"), self.config.limits.chat_chars)
                    self._may_chat(speaker, address)
                    await self.lobby.say(room, seat, user, words)
                    continue
                await self._handle(connection, room, seat, message, arrived)
            except GammonError as error:
                connection.error(str(error), room.version)
            except Exception:  # a bug of ours must not cost the person their table
                log.exception("table %s: message of type %r", room.id,
                              str(message.get("type"))[:20])
                connection.error("the server could not do that; the table is as it was",
                                 room.version)

    def _may_chat(self, speaker: str, address: str) -> None:
        # Per person and per address, not per connection: forty sockets must not say
        # forty times as much.
        if not self.chat_per_speaker.take(speaker):
            raise IllegalPlayError(f"you are chatting too fast: at most "
                                   f"{self.config.rates.chat_lines_per_minute} lines a minute")
        if not self.chat_per_address.take(address):
            raise IllegalPlayError(
                f"too much chat from your address: at most "
                f"{self.config.rates.chat_lines_per_minute_per_address} lines a minute")

    async def _handle(self, connection: Connection, room: Room, seat: int | None,
                      message: dict[str, object], arrived: float) -> None:
        kind = message.get("type")
        if kind == "ping":
            connection.push('{"type":"pong"}')
        elif kind == "preview":
            index, moves = message.get("index"), message.get("moves")
            if seat is None or not isinstance(index, int) or not isinstance(moves, list) \
                    or len(moves) > 8 or not all(isinstance(m, int) for m in moves):
                raise IllegalPlayError("a preview names a play (index) and its moves so far")
            async with room.lock:
                svg = preview(room, seat, index, moves)
            connection.push(json.dumps({"type": "preview", "svg": svg}))
        elif kind == "act":
            await self.lobby.act(room, seat, message.get("version"),
                                 lambda question: chosen(question, message), arrived)
        else:
            raise IllegalPlayError(f"unknown message type {str(kind)[:20]!r}: act, preview, "
                                   "chat or ping")


def chat_text(text: object, limit: int) -> str:
    """A chat line as it may be shown: text of at most ``limit`` characters, with no
    control characters (a line break included); shown by the page as text, never HTML."""
    if not isinstance(text, str):
        raise IllegalPlayError("a chat message has a text")
    words = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    if not words:
        raise IllegalPlayError("say something: the line is empty")
    if len(words) > limit:
        raise IllegalPlayError(f"a chat line is at most {limit} characters, not {len(words)}")
    return words


def chosen(question: Question, message: dict[str, object]) -> object:
    """The action an ``act`` message names: an index into the question's actions, or a
    resignation level."""
    if "resign" in message:
        state = question.state
        level = message["resign"]
        offers = resign_offers(state)
        for offer in offers:
            if offer.level == level:
                return offer
        raise IllegalPlayError(f"no resignation of level {str(level)[:20]!r} can be "
                               "offered here")
    index = message.get("index")
    if not isinstance(index, int) or isinstance(index, bool) \
            or not 0 <= index < len(question.actions):
        raise IllegalPlayError(f"choose an action from 0 to {len(question.actions) - 1}, "
                               f"not {str(index)[:20]!r}")
    return question.actions[index]

