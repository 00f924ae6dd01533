"""Live tables: each a :class:`~gammon.table.Table` with the people watching it.

A :class:`Room` owns one table and the websockets connected to it. Everything that
changes the table happens under the room's lock, one step at a time: a person's action
(checked: their seat, the question, the version they saw), then the dice and the bots'
answers (:meth:`Table.advance`, run in a worker thread so a thinking bot does not stop
the server). After every step the new log entries are written to the database
(:mod:`gammon.web.store`) and only then is the new state sent to everyone in the room,
each seeing it from their own seat (:mod:`gammon.web.views`).

:class:`Lobby` holds the rooms: it creates tables (fair dice: a secret seed, its
commitment published), restores every stored table when the server starts (replaying
its log) and hands out seats by their secret tokens.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import secrets
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from gammon.core.errors import GammonError, IllegalPlayError, InvalidOptionError
from gammon.table import narrate
from gammon.table.dice import commitment, new_seed
from gammon.table.table import Question, Seat, Step, Table
from gammon.web.store import Saved, Store, token_hash

#: Narration lines a room keeps for the people who join later.
NARRATION = 200


class Client(Protocol):
    """A connected browser: what a room needs of a websocket."""

    async def send_text(self, data: str) -> None: ...


@dataclass(eq=False)
class Room:
    """One live table (module text)."""

    id: str
    table: Table
    commitment: str
    tokens: dict[int, str]
    store: Store
    created: float = 0.0
    bot_delay: float = 0.5
    clients: dict[Client, int | None] = field(default_factory=dict)
    lines: deque[tuple[int | None, str]] = field(default_factory=lambda: deque(maxlen=NARRATION))
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    saved: list[int] = field(default_factory=list)
    runner: asyncio.Task[None] | None = None
    _views: dict[Any, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.saved = [len(game) for game in self.table.log]

    # --- who is who ----------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return seat_names(self.table.seats)

    @property
    def free(self) -> list[int]:
        """People's seats nobody has taken yet."""
        return [p for p, seat in enumerate(self.table.seats)
                if seat.human and p not in self.tokens]

    def take(self, seat: int | None = None) -> tuple[int, str]:
        """Take a free person's seat (``seat``, or the first free one): the seat and its
        secret token, shown to the taker once."""
        free = self.free
        if not free:
            raise InvalidOptionError("every person's seat at this table is taken: you can "
                                     "watch")
        if seat is None:
            seat = free[0]
        elif seat not in free:
            raise InvalidOptionError(f"seat {seat + 1} is not free; free seats: "
                                     + ", ".join(str(p + 1) for p in free))
        token = secrets.token_urlsafe(18)
        if not self.store.claim(self.id, seat, token_hash(token)):
            raise InvalidOptionError(f"seat {seat + 1} was taken a moment ago")
        self.tokens[seat] = token_hash(token)
        return seat, token

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds, or None (a spectator, or a wrong token)."""
        if not token:
            return None
        digest = token_hash(token)
        for seat, known in self.tokens.items():
            if hmac.compare_digest(digest, known):
                return seat
        return None

    @property
    def version(self) -> int:
        """Counts every change: what a person saw, so a stale page cannot act."""
        return sum(len(g) for g in self.table.log) + len(self.table.log) + self.table.finished

    # --- changing the table ----------------------------------------------------------------

    async def act(self, seat: int | None, version: Any,
                  choose: Callable[[Question], Any]) -> None:
        """``seat``'s answer at ``version``: ``choose(question)`` names the action (an
        index into the question's actions, a resignation). A :class:`GammonError` saying
        why when it is refused, the table unchanged."""
        async with self.lock:
            if seat is None:
                raise IllegalPlayError("spectators watch: only a seat's own link can play")
            if version != self.version:
                raise IllegalPlayError("the table has moved on since you looked: here it is "
                                       "as it is now")
            question = self.table.question
            if question is None:
                raise IllegalPlayError("nothing is asked of anyone now")
            if question.seat != seat:
                raise IllegalPlayError(f"it is {self.names[question.seat]}'s turn, not yours")
            step = self.table.act(seat, choose(question))
            self._save()
            if step is not None:
                self._tell(step)
        await self.broadcast()
        self.wake()

    def wake(self) -> None:
        """Let the dice and the bots play on (in the background) until a person is asked."""
        if self.runner is None or self.runner.done():
            self.runner = asyncio.get_running_loop().create_task(self._advance())

    async def _advance(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with self.lock:
                step = await loop.run_in_executor(None, self.table.advance)
                if step is None:
                    return
                self._save()
                self._tell(step)
            await self.broadcast()
            if step.seat is not None and self.bot_delay and self.clients:
                await asyncio.sleep(self.bot_delay)  # people see the bots' moves one by one

    def stop(self) -> None:
        self.table.stop()
        self._save()

    def _save(self) -> None:
        """Write what the table did since the last save (before anyone is told)."""
        rows: list[tuple[int, int, dict[str, Any]]] = []
        for game, entries in enumerate(self.table.log, 1):
            done = self.saved[game - 1] if game <= len(self.saved) else 0
            rows.extend((game, index, entry) for index, entry in enumerate(entries[done:], done))
        self.store.append(self.id, len(self.table.log), rows, self.table.finished)
        self.saved = [len(game) for game in self.table.log]

    def _tell(self, step: Step) -> None:
        for line in narrate.narrate(self.table, step, self.names):
            self.lines.append((line.seat, line.text))

    # --- the people in the room ------------------------------------------------------------

    async def join(self, client: Client, seat: int | None) -> None:
        self.clients[client] = seat
        await self.send(client)

    def leave(self, client: Client) -> None:
        self.clients.pop(client, None)

    async def send(self, client: Client) -> None:
        await client.send_text(self.view(self.clients[client]))

    def view(self, seat: int | None) -> str:
        """The state message for ``seat`` as JSON text: made once per version and seat,
        since everyone in the room is sent it after every step."""
        from gammon.web.views import snapshot

        key = (self.version, len(self.tokens))  # a step, or a seat taken
        if self._views.get("key") != key:
            self._views = {"key": key}
        message = self._views.get(seat)
        if message is None:
            message = self._views[seat] = json.dumps(
                {"type": "state", "table": snapshot(self, seat)}, separators=(",", ":"))
        return message

    async def broadcast(self) -> None:
        for client in list(self.clients):
            try:
                await self.send(client)
            except Exception:  # a browser gone away: it reconnects by itself
                self.leave(client)


def seat_names(seats: Sequence[Seat]) -> list[str]:
    """People are "player N", bots go by their kind."""
    return [seat.name or (f"player {p + 1}" if seat.human else seat.kind)
            for p, seat in enumerate(seats)]


class Lobby:
    """Every room of the server (module text)."""

    def __init__(self, store: Store, bot_delay: float = 0.5) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}

    def restore(self) -> int:
        """Bring back every stored table, its log replayed; the number restored."""
        for saved in self.store.load():
            self.rooms[saved.id] = self._room(saved)
        return len(self.rooms)

    def _room(self, saved: Saved) -> Room:
        return Room(saved.id, Table.from_json(saved.data), saved.commitment, saved.tokens,
                    self.store, saved.created, self.bot_delay)

    def create(self, variant: str, seats: Sequence[str], **settings: Any) -> Room:
        """A new table with fair dice: a secret seed, and its commitment kept to publish."""
        seed = new_seed()
        table = Table(variant, seats, seed=seed, fair=True, **settings)
        if not any(seat.human for seat in table.seats):
            raise InvalidOptionError("seat at least one person (a human seat): bots-only "
                                     "games are played with `gammon duel`")
        table_id = secrets.token_hex(6)
        data = table.to_json()
        data.pop("log")
        self.store.create(table_id, data, commitment(seed))
        room = self._room(self.store.load(table_id)[0])
        self.rooms[table_id] = room
        return room

    def get(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is None:
            raise InvalidOptionError(f"no table {table_id!r}")
        return room


__all__ = ["GammonError", "Lobby", "Room", "seat_names"]
