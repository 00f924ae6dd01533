"""Live tables: the database's tables as one server process serves them.

A table lives in the database (:mod:`gammon.web.store`); a :class:`Room` is one
process's copy of it, a :class:`~gammon.table.Table` replayed from its log, with the
browsers connected to that process watching it. Every change goes the same way,
whichever process makes it (:meth:`Lobby.commit`): in one transaction that locks the
table's row, the copy is brought up to date with what other processes wrote, the change
is checked against it (the seat, the question, the version the person saw) and made,
the dice that follow are thrown, and the new entries are written; the processes are told
at commit, and each shows the change to its own browsers. So an action is applied once,
in order, whichever process receives it.

Bots play where a table's lease is held (:meth:`TableBots.play_bots`): one process at a
time plays a table's bots, its decisions made in the worker pool
(:mod:`gammon.web.workers`) and committed like a person's. A process that stops holds
its lease a few seconds more; then another process's sweep takes the table on.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
import secrets
import time
from collections.abc import Callable, Collection, Coroutine, Sequence
from typing import Any, TypeVar

from sqlalchemy.engine import Connection

from gammon.core.errors import GammonError, IllegalPlayError, InvalidOptionError
from gammon.core.variant import variant, variant_names
from gammon.table.clock import Clock, TimeControl
from gammon.table.dice import commitment, new_seed
from gammon.table.table import Question, Step, Table
from gammon.web import feed
from gammon.web.accounts import User, pool_of, settle
from gammon.web.config import MARGIN, ServerConfig
from gammon.web.room import CHAT_LINES, Client, Room, seat_names
from gammon.web.store import (
    ARCHIVED,
    MACHINE,
    NOTHING,
    OPEN,
    OVER,
    PERSON,
    QUARANTINED,
    DamagedRow,
    LogRow,
    Notice,
    Saved,
    Store,
    token_hash,
)
from gammon.web.views import publish, view
from gammon.web.workers import Thinkers

log = logging.getLogger("gammon.web")
_T = TypeVar("_T")

#: Seconds a process holds a table's bots without renewing; it renews every third.
LEASE = 6.0
#: Seconds a table whose bots are due waits for the process that made it so, before
#: another process's sweep takes it on.
HEAD_START = 2.0
#: Seconds between sweeps (tables whose bots nobody plays), and between the slower ones
#: (idle tables, rooms nobody watches, expired logins).
SWEEP, SLOW_SWEEP = 1.0, 30.0
#: Seconds a room nobody watches stays in memory.
KEEP = 120.0
#: Tables a process remembers having warned about (a warning about one table is logged
#: once, not on every sweep); beyond it the memory starts again.
WARNED = 10_000
#: Seconds a stopping process gives its own background tasks.
STOP_SECONDS = 5.0
#: A table's ID, as :meth:`Seating.create` makes them.
TABLE_ID = re.compile(r"[0-9a-f]{12}")
#: The two chats of a table: its players', and its spectators' (who never see the
#: players' chat, nor the players theirs: no advice from the rail).
PLAYERS, SPECTATORS = "players", "spectators"


class Unavailable(GammonError):
    """No such table, or one set aside: ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 404) -> None:
        super().__init__(message)
        self.status = status


class _Stale(Exception):
    """A bot's answer to a question that is no longer asked."""


def restore(store: Store, table_id: str) -> Room:
    """The stored table ``table_id`` replayed from its log; :class:`Unavailable` when
    there is none, a GammonError saying what is wrong when it does not replay: a log
    entry that cannot happen, or entries missing (the table's version counts more steps
    than its log has)."""
    found = store.snapshot(table_id)
    if found is None:
        raise Unavailable(f"no table {table_id!r}")
    saved, rows, tokens = found
    if saved.status == QUARANTINED:
        raise Unavailable(f"table {table_id} is set aside: its record does not replay", 410)
    if saved.damaged:
        raise InvalidOptionError(saved.damaged)
    try:
        room = Room.build(saved, rows, tokens)
    except GammonError:
        raise
    except (KeyError, TypeError, ValueError) as error:  # settings that are not a table's
        raise InvalidOptionError(f"the table's settings do not read: {error}") from None
    if room.version != saved.version:
        raise InvalidOptionError(f"the log has {room.version} steps where the table counts "
                                 f"{saved.version}: entries are missing or added")
    room.chat.extend(store.chat(table_id, CHAT_LINES))
    return room


def unoffered(room: Room, config: ServerConfig) -> str | None:
    """Why this server will not play ``room``'s bots (one is not on its menu: a stored bot
    is never trusted more than a client's), or None."""
    table = room.table
    for rules in table.played.rules():
        for p, seat in enumerate(table.seats):
            if not seat.human and config.budget(rules, seat.kind) is None:
                return (f"seat {p + 1}'s bot {seat.kind[:60]!r} is not on this server's "
                        f"menu for {rules.name}")
    return None


def _known(room: Room, notice: Notice) -> bool:
    """Whether a step's notice brings nothing the room does not have: no entry it lacks,
    and no change of the clock (which starts without a step, once every seat is taken)."""
    if notice.what != "step" or notice.version > room.version:
        return False
    return notice.version < room.version or room.clock is None or \
        notice.clock in ("", room.clock.to_text())


def plays_of(table: Table, seat: int) -> int:
    """The checker plays ``seat`` has made at the table, in all its games."""
    return sum(1 for game in table.log for entry in game
               if entry.get("seat") == seat and "play" in entry)


class Lobby:
    """Every table this process serves (module text)."""

    def __init__(self, store: Store, config: ServerConfig,
                 thinkers: Thinkers | None = None) -> None:
        self.store = store
        self.config = config
        self.thinkers = thinkers or Thinkers(config.pool.workers, config.pool.memory_bytes,
                                             config.pool.fallback)
        self.runner_id = secrets.token_hex(8)  # this process, as it holds bots' leases
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[object]] = set()
        self._warned: set[tuple[str, str]] = set()
        self.seating = Seating(self)
        self.others = OtherProcesses(self)
        self.bots = TableBots(self)
        self.sweeps = Sweeps(self)

    # --- the process's life -------------------------------------------------------------

    def start(self) -> None:
        """Sweep for tables that need this process, and listen for other processes."""
        self.spawn(self.sweeps.sweep())
        if self.store.postgres:
            self.spawn(feed.listen(self.store, self.others.changed, self.others.refresh_all))
        if self.config.check_at_start:
            self.spawn(self.check_all())

    def warm(self) -> None:
        """Start the bots' workers and load what the first table of each variant needs
        (the compiled kernels, the board drawing): at start, before any browser is
        served, so that nobody's first table stalls the others."""
        self.thinkers.start()
        _load_every_variant()

    async def stop(self) -> None:
        tasks = {*self._tasks, *(r.runner for r in self.rooms.values() if r.runner)}
        await stop_tasks(tasks, STOP_SECONDS)
        self.thinkers.close()

    def warn_once(self, table_id: str, what: str, message: str, *args: object) -> None:
        """Log a warning about a table once per process and kind (``what``), not on each
        sweep that finds it as it was."""
        if (table_id, what) in self._warned:
            return
        if len(self._warned) >= WARNED:
            self._warned.clear()
        self._warned.add((table_id, what))
        log.warning(message, *args)

    def spawn(self, work: Coroutine[object, None, _T]) -> asyncio.Task[_T]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --- finding a table ----------------------------------------------------------------

    async def room(self, table_id: str) -> Room:
        """The table ``table_id``, loaded (and replayed) when this process has no copy;
        :class:`Unavailable` when there is none or it is set aside."""
        room = self.rooms.get(table_id)
        if room is None:
            if not TABLE_ID.fullmatch(table_id):  # not one this server makes: no query
                raise Unavailable(f"no table {table_id[:20]!r}")
            lock = self._loading.setdefault(table_id, asyncio.Lock())
            try:
                async with lock:
                    room = self.rooms.get(table_id)
                    if room is None:
                        room = await asyncio.to_thread(self._load, table_id)
                        self.rooms[table_id] = room
            finally:
                self._loading.pop(table_id, None)
        if room.status == QUARANTINED:
            raise Unavailable(f"table {table_id} is set aside: its record does not replay",
                              410)
        room.used = time.monotonic()
        return room

    def _load(self, table_id: str) -> Room:
        try:
            room = restore(self.store, table_id)
        except Unavailable:
            raise
        except GammonError as error:
            self.set_aside(table_id, str(error))
            raise Unavailable(f"table {table_id} is set aside: its record does not replay",
                              410) from None
        return room

    def set_aside(self, table_id: str, reason: str) -> None:
        """Quarantine a damaged table (see :meth:`Store.set_aside`), with a log line."""
        log.error("table %s is set aside: %s", table_id, reason)
        self.store.set_aside(table_id, reason)

    async def check_all(self) -> int:
        """Replay every open table once (at start): the damaged ones are set aside now,
        and the others whose bots are due play on. The number set aside."""
        damaged = 0
        for saved in await asyncio.to_thread(self.store.rows, OPEN):
            try:
                room = await self.room(saved.id)
            except Unavailable:
                damaged += 1
                continue
            self.bots.wake(room)
        return damaged

    # --- the people at a table (new tables and seats: Seating) ---------------------------

    async def join(self, room: Room, client: Client, token: str | None,
                   user: User | None = None) -> int | None:
        """A browser joins the room with a seat's token (or none), signed in as ``user``
        (or not): its seat (the token's, or the one its account holds), or None for a
        spectator (a wrong token included)."""
        if token:
            room.tokens = await asyncio.to_thread(self.store.tokens, room.id)
        seat = room.seat_of(token)
        if seat is None and user is not None:
            seat = next((p for p, known in room.users.items() if known == user.id), None)
        if seat is not None and seat not in room.arrived:
            await self.arrive(room, seat)
        async with room.lock:
            room.clients[client] = seat
            client.push(view(room, seat), state=True)
            channel = PLAYERS if seat is not None else SPECTATORS
            lines = [line for line in room.chat if line["channel"] == channel]
            if lines:
                client.push(json.dumps({"type": "chat", "lines": lines}))
        return seat

    async def arrive(self, room: Room, seat: int) -> None:
        """``seat``'s page has connected: once every person's has, the clock starts."""
        await asyncio.to_thread(self.store.arrive, room.id, seat)
        room.arrived.add(seat)
        if room.clock is not None and room.everyone_here and room.clock.seat is None:
            async with room.lock:
                await asyncio.to_thread(self.commit, room, None)
            publish(room)
            self.bots.wake(room)

    def leave(self, room: Room, client: Client) -> None:
        room.clients.pop(client, None)
        room.used = time.monotonic()

    # --- changing a table -------------------------------------------------------------------

    async def act(self, room: Room, seat: int | None, version: object,
                  choose: Callable[[Question], object], arrived: float | None = None) -> None:
        """``seat``'s answer at ``version``, which ``arrived`` at that moment (now, unless
        said): ``choose(question)`` names the action (an index into the question's
        actions, a resignation). A :class:`GammonError` saying why when it is refused,
        the table unchanged. The clock is charged up to its arrival, not up to when a
        busy server got to it."""
        arrived = time.time() if arrived is None else arrived
        if seat is None:
            raise IllegalPlayError("spectators watch: only a seat's own link can play")
        if not isinstance(version, int) or isinstance(version, bool):
            raise IllegalPlayError("an act names the version of the table it answers "
                                   "(a whole number, as the last state said)")

        if room.clock is not None and room.clock.seat == seat and \
                room.clock.expired(arrived):
            await self.flag(room)
            raise IllegalPlayError("your time ran out before that arrived")

        def change(table: Table) -> Step | None:
            if version != room.version:
                raise IllegalPlayError("the table has moved on since you looked: here it is "
                                       "as it is now")
            question = table.question
            if question is None:
                raise IllegalPlayError("nothing is asked of anyone now")
            if question.seat != seat:
                raise IllegalPlayError(f"it is {room.names[question.seat]}'s turn, not yours")
            return table.act(seat, choose(question))

        async with room.lock:
            await asyncio.to_thread(self.commit, room, change, decided=arrived)
            publish(room)
        self.bots.wake(room)

    def commit(self, room: Room, change: Callable[[Table], Step | None] | None, *,
                runner: bool = False, close: str = "", flag: bool = False,
                decided: float | None = None) -> None:
        """One change of ``room``'s table, in one transaction (module text): ``change``
        (None: only what needs no one, the dice), then the throws that follow; ``close``
        ends play with that reason; ``flag``: the seat on the clock loses if its time has
        run out. The clock moves on to whoever is asked next (the seat that was on it is
        charged up to ``decided``, when its answer arrived), and a rated table that ends
        settles its players' ratings (:func:`~gammon.web.accounts.settle`). In a thread,
        under the room's lock."""
        caught_up = -1
        clock = None
        try:
            with self.store.locked(room.id) as locked:
                row = locked.row
                if row is None:
                    raise Unavailable(f"no table {room.id!r}")
                self._catch_up(room, locked.entries_after(*room.position)
                               if row.version != room.version else [], row)
                if row.status != OPEN:
                    raise IllegalPlayError(
                        "this table is set aside: its record does not replay"
                        if row.status == QUARANTINED else "play is over at this table")
                table = room.table
                sizes = table.log_sizes
                games, entries = len(sizes), sizes[-1] if sizes else 0
                caught_up = room.version
                now = time.time()
                clock = room.clock
                late = clock.seat if flag and clock is not None and clock.expired(now) else None
                steps = _steps(table, change, late=late, close=bool(close))
                rows = [(game, index, entry)
                        for game in range(max(games, 1), table.game + 1)
                        for index, entry in enumerate(table.entries(game))
                        if game > games or index >= entries]
                status = (ARCHIVED if close else OVER) if table.over else OPEN
                needs = (MACHINE if table.bot_question else PERSON if table.question
                         else NOTHING)
                if clock is not None and not room.everyone_here:  # another process's page?
                    room.arrived |= self.store.arrivals(locked.db, room.id)
                if clock is not None:
                    asked = table.question.seat if table.question is not None and \
                        status == OPEN and room.everyone_here else None
                    charged = now if decided is None else min(now, max(decided, clock.since))
                    clock = clock.turn(asked, table.game, charged, started=now)
                note = self._settle(locked.db, room, now) if status == OVER else ""
                locked.write(rows, games=table.game, finished=table.finished,
                             version=room.version, status=status, needs=needs,
                             reason=close or note,
                             release=self.runner_id if runner else None,
                             clock=clock.to_text() if clock else "",
                             deadline=clock.deadline if clock else 0.0,
                             winner=-1 if table.winner is None else table.winner)
        except DamagedRow as error:  # a stored entry does not read: nothing was written
            room.status = QUARANTINED
            self.set_aside(room.id, str(error))
            raise Unavailable(f"table {room.id} is set aside: its record does not read",
                              410) from None
        except BaseException:
            if caught_up >= 0 and room.version != caught_up:  # changed, and not written
                self._rebuild(room)
            raise
        room.clock = clock
        room.status = status
        room.reason = close or note or room.reason
        for step in steps:
            room.tell(step)

    def _settle(self, db: Connection, room: Room, now: float) -> str:
        """Settle the players' ratings of a rated table whose game has just ended (in the
        commit's transaction): why the result is not rated, or nothing."""
        table = room.table
        if not room.rated or table.winner is None or len(room.users) != 2:
            return ""
        pool = pool_of({"variant": table.name, "options": table.options,
                        "kind": table.kind, "length": table.length})
        assert pool is not None
        why = settle(db, room.id, pool, room.users[table.winner], room.users[1 - table.winner],
                     [plays_of(table, p) for p in (table.winner, 1 - table.winner)],
                     list(self.store.seat_addresses(db, room.id).values()), now)
        return f"not rated: {why}" if why else ""

    async def flag(self, room: Room) -> None:
        """End play for the seat on the clock if its time has run out (the sweep's check,
        and a move that came too late)."""
        async with room.lock:
            await asyncio.to_thread(self.commit, room, None, flag=True)
            publish(room)

    async def say(self, room: Room, seat: int | None, user: User | None, words: str) -> None:
        """A chat line from a seat (the players' chat) or a spectator (the spectators'),
        kept and shown to its own side only. A finished table's chat is closed: what
        is said after the game is not kept (a rematch has a chat of its own)."""
        if room.status != OPEN or room.table.finished:
            raise IllegalPlayError("this table is over: its chat is closed")
        channel = PLAYERS if seat is not None else SPECTATORS
        name = room.names[seat] if seat is not None else (
            user.name if user is not None else "spectator")
        line = await asyncio.to_thread(self.store.say, room.id, channel, name, words)
        self.show_chat(room, line)

    def show_chat(self, room: Room, line: dict[str, object]) -> None:
        """Show a chat line to its side of the room (once: lines come back from other
        processes too)."""
        if any(known["id"] == line.get("id") for known in room.chat):
            return
        room.chat.append(line)
        text = json.dumps({"type": "chat", "lines": [line]})
        for client, seat in list(room.clients.items()):
            if (seat is not None) == (line["channel"] == PLAYERS):
                client.push(text)

    def _rebuild(self, room: Room) -> None:
        """Replay the copy again from the database: it went ahead of it (a write failed),
        or a seat's name changed."""
        found = self.store.snapshot(room.id)
        if found is None:
            return
        fresh = Room.build(*found)
        room.table, room.lines, room.status = fresh.table, fresh.lines, fresh.status
        room.clock, room.players, room.users = fresh.clock, fresh.players, fresh.users
        room.arrived |= fresh.arrived

    def _catch_up(self, room: Room, rows: Sequence[LogRow],
                  saved: Saved) -> None:
        """Bring the copy up to the database: what other processes wrote."""
        try:
            room.replay(rows)
        except GammonError as error:
            room.status = QUARANTINED
            self.set_aside(room.id, str(error))
            raise Unavailable(f"table {room.id} is set aside: its record does not replay",
                              410) from None
        room.table.finished = saved.finished or room.table.finished
        room.status, room.reason = saved.status, saved.reason
        if saved.clock and room.clock is not None:
            room.clock = Clock.from_text(saved.clock)
        room.rematch = saved.rematch or room.rematch
        if saved.players:
            room.players.update(saved.players)
            room.users.update(saved.users)
        room.arrived |= saved.arrived



class Seating:
    """New tables and seats: making a table, a rematch, taking a seat (the
    limits on tables per address and in all included)."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    async def create(self, data: dict[str, object], seed: int, creator: str,
                     user: User | None = None) -> tuple[Room, int, str]:
        """A new table of fair dice (``data`` and its secret ``seed``, from
        :meth:`table_data`; its commitment published), created by the address hashed as
        ``creator`` (signed in as ``user``, if at all): the table, and the creator's seat
        and token. :class:`Unavailable` (429, 503) when the limits say no."""
        await self.room_for_one_more(creator)
        return await self.open(data, seed, creator, user)

    def table_data(self, variant: str, seats: Sequence[str], signed_in: bool,
                   rated: bool = False, clock: TimeControl | None = None,
                   **settings: Any) -> tuple[dict[str, object], int]:
        """What a new table stores (its settings, with a secret seed) and the seed.
        A ``rated`` table is for two accounts (``signed_in``: its maker has one);
        ``clock`` times every decision. InvalidOptionError for a table that cannot be
        made."""
        limits = self.lobby.config.limits
        seed = new_seed()
        table = Table(variant, seats, seed=seed, fair=True, **settings)
        if not any(seat.human for seat in table.seats):
            raise InvalidOptionError("seat at least one person (a human seat): bots-only "
                                     "games are played with `gammon duel`")
        data = table.to_json()
        data.pop("log")
        data.pop("finished")
        if rated:
            if not signed_in:
                raise InvalidOptionError("sign in to play rated: ratings belong to accounts")
            if table.variant.players != 2 or table.humans != [0, 1] or \
                    pool_of(data) is None:
                raise InvalidOptionError("rated tables are single games or matches between "
                                         "two people")
            if clock is not None and (clock.delay < limits.rated_delay
                                      or clock.reserve < limits.rated_reserve):
                raise InvalidOptionError(
                    f"a rated clock gives at least {limits.rated_delay} s a decision and a "
                    f"reserve of {limits.rated_reserve} s: a faster one is lost by a slow "
                    "connection, not by the play")
            data["rated"] = True
        if clock is not None:
            data["clock"] = clock.to_json()
        return data, seed

    async def room_for_one_more(self, creator: str) -> None:
        """:class:`Unavailable` when the site, or the address hashed as ``creator``, has
        as many open tables as the limits allow (new tables and rematches alike)."""
        limits = self.lobby.config.limits
        everyone, theirs = await asyncio.to_thread(
            lambda: (self.lobby.store.count_open(), self.lobby.store.count_open(creator)))
        if everyone >= limits.open_tables:
            raise Unavailable(f"this server has {everyone} open tables, its most: join one, "
                              "or try again later", 503)
        if theirs >= limits.open_tables_per_address:
            raise Unavailable(f"you have {theirs} open tables, the most one address may "
                              "have: finish one first", 429)

    async def open(self, data: dict[str, object], seed: int, creator: str,
                    user: User | None, new_id: Callable[[str], str] | None = None,
                    seat: int | None = None) -> tuple[Room, int, str]:
        """Store and open the table ``data`` (its settings; ``new_id`` stores it in its
        own way and says the id it went to) and take ``seat`` there (or the first free
        one)."""
        table_id = secrets.token_hex(6)
        if new_id is None:
            await asyncio.to_thread(self.lobby.store.create, table_id, data, commitment(seed),
                                    creator)
        else:
            made = await asyncio.to_thread(new_id, table_id)
            if made != table_id:  # someone else made it a moment ago
                room = await self.lobby.room(made)
                return room, *await self.take(room, seat, user, creator, or_other=True,
                                              rematching=True)
        room = await self.lobby.room(table_id)
        # its maker: a player of the table it rematches, when it is a rematch
        seat, token = await self.take(room, seat, user, creator, or_other=True,
                                      rematching=True)
        async with room.lock:
            await asyncio.to_thread(self.lobby.commit, room, None)
            publish(room)
        self.lobby.bots.wake(room)
        return room, seat, token

    async def rematch(self, room: Room, seat: int, user: User | None,
                      creator: str) -> tuple[Room, int, str]:
        """The rematch of a finished table, for the person at ``seat``: the same table
        again (same seats, stakes and clock; new dice), made by the first of its players
        to ask, and that player's seat there (the same seat, when it is free)."""
        if room.status == OPEN:
            raise InvalidOptionError("the rematch is offered once play is over")
        if room.tournament:
            raise InvalidOptionError("a tournament's table has no rematch: the tournament "
                                     "pairs its next round")
        if seat in room.users and (user is None or user.id != room.users[seat]):
            raise InvalidOptionError("sign in as the account that played this seat")
        if room.rematch:
            next_room = await self.lobby.room(room.rematch)
            return next_room, *await self.take(next_room, seat, user, creator, or_other=True,
                                               rematching=True)
        await self.room_for_one_more(creator)
        saved = await asyncio.to_thread(self.lobby.store.row, room.id)
        assert saved is not None
        seed = new_seed()
        settings = {**saved.settings, "seed": seed, "rematch_of": room.id}
        found = await self.open(settings, seed, creator, user, lambda new: self.lobby.store.rematch(
            room.id, new, settings, commitment(seed), creator), seat)
        room.rematch = found[0].id
        publish(room)
        return found

    async def take(self, room: Room, seat: int | None = None, user: User | None = None,
                   address: str = "", *, or_other: bool = False,
                   rematching: bool = False) -> tuple[int, str]:
        """Take a free person's seat (``seat``, or the first free one; ``or_other``: the
        first free one when ``seat`` is not) as ``user`` (or a guest), from the address
        hashed as ``address``: the seat and its secret token, shown to the taker once. A
        rematch's seats are for its table's players, asking for the rematch there
        (``rematching``)."""
        if room.rematch_of and not rematching:
            raise InvalidOptionError(
                f"this table is the rematch of table {room.rematch_of}: its seats are kept "
                "for that table's players, who take them with its rematch button")
        if room.reserved:
            return await self.take_kept(room, user, address)
        room.tokens = await asyncio.to_thread(self.lobby.store.tokens, room.id)
        free = room.free
        if not free:
            raise InvalidOptionError("every person's seat at this table is taken: you can "
                                     "watch")
        if room.rated and user is None:
            raise InvalidOptionError("this table is rated: sign in to take a seat")
        if user is not None and user.id in room.users.values():
            raise InvalidOptionError("you have a seat at this table already: play against "
                                     "someone else")
        if seat is None or (seat not in free and or_other):
            seat = free[0]
        elif seat not in free:
            raise InvalidOptionError(f"seat {seat + 1} is not free; free seats: "
                                     + ", ".join(str(p + 1) for p in free))
        token = secrets.token_urlsafe(18)
        if not await asyncio.to_thread(self.lobby.store.claim, room.id, seat, token_hash(token),
                                       None if user is None else user.id,
                                       "" if user is None else user.name, address):
            raise InvalidOptionError(f"seat {seat + 1} was taken a moment ago")
        room.tokens[seat] = token_hash(token)
        if user is not None:
            room.players[seat], room.users[seat] = user.name, user.id
            async with room.lock:  # what was told before says "player N": tell it again
                await asyncio.to_thread(self.lobby._rebuild, room)
        if room.clock is not None and not room.free:  # everyone is here: the clock starts
            async with room.lock:
                await asyncio.to_thread(self.lobby.commit, room, None)
        publish(room)
        return seat, token


    async def take_kept(self, room: Room, user: User | None, address: str) -> tuple[int, str]:
        """A seat kept for an account (a tournament's table): its account takes it, on
        any page or device, each time with a new token (the last one given plays)."""
        if user is None or user.id not in room.reserved:
            raise InvalidOptionError("this table is a tournament's: its seats are kept for "
                                     "its two players, signed in")
        if room.status != OPEN:
            raise InvalidOptionError("play is over at this table")
        seat = room.reserved.index(user.id)
        token = secrets.token_urlsafe(18)
        await asyncio.to_thread(self.lobby.store.keep, room.id, seat, token_hash(token),
                                user.id, user.name, address)
        room.tokens[seat] = token_hash(token)
        room.players[seat], room.users[seat] = user.name, user.id
        async with room.lock:
            await asyncio.to_thread(self.lobby._rebuild, room)
            if room.clock is not None and not room.free:
                await asyncio.to_thread(self.lobby.commit, room, None)
        publish(room)
        return seat, token


class OtherProcesses:
    """Other server processes' changes: a table another process changed is
    read again (PostgreSQL's notices, or a sweep), or closed here when it moved on."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    def changed(self, notice: Notice) -> None:
        """A notice from the database: a table changed (a step, a seat taken, play
        closed); the rooms that are behind catch up, in order."""
        room = self.lobby.rooms.get(notice.table_id)
        if room is None or _known(room, notice):
            return
        if notice.what == "chat":
            if notice.line is not None:
                self.lobby.show_chat(room, notice.line)
            return
        room.notices.append(notice)
        if room.refreshing is None or room.refreshing.done():
            room.refreshing = self.lobby.spawn(self.refresh(room))

    async def refresh(self, room: Room) -> None:
        """Bring ``room`` up to what other processes changed at its table (from their
        notices, or from the database when a notice does not follow on), and show it."""
        if not room.notices:
            room.notices.append(Notice(room.id, -1, "read"))
        while room.notices:
            async with room.lock:
                try:
                    while room.notices:
                        notice = room.notices.popleft()
                        if _known(room, notice):
                            continue
                        if not self.follow(room, notice):
                            room.notices.clear()  # the database has them all
                            await asyncio.to_thread(self.read, room)
                except Unavailable as gone:
                    self.close_room(room, str(gone))
                    return
                if room.status == QUARANTINED:
                    self.close_room(room, f"table {room.id} is set aside: its record does "
                                           "not replay")
                    return
                publish(room)
        self.lobby.bots.wake(room)

    def read(self, room: Room) -> None:
        """Bring ``room`` up to the database (in a thread, under the room's lock)."""
        try:
            found = self.lobby.store.snapshot(room.id, *room.position)
        except DamagedRow as error:
            room.status = QUARANTINED
            self.lobby.set_aside(room.id, str(error))
            raise Unavailable(f"table {room.id} is set aside: its record does not read",
                              410) from None
        if found is None:
            raise Unavailable(f"no table {room.id!r}")
        saved, rows, room.tokens = found
        self.lobby._catch_up(room, rows, saved)

    def follow(self, room: Room, notice: Notice) -> bool:
        """Play a step's notice that follows on from the room's log: whether it did."""
        rows = notice.rows
        if notice.what != "step" or rows is None:
            return False
        game, index = room.position
        if rows and (rows[0][0], rows[0][1]) not in ((game, index + 1), (game + 1, 0)):
            return False
        saved = Saved(room.id, {}, room.commitment, 0.0, notice.status, notice.version,
                      notice.finished, notice.reason, clock=notice.clock)
        self.lobby._catch_up(room, rows, saved)
        return room.version == notice.version

    async def refresh_all(self) -> None:
        """Refresh every room (notices may have been missed)."""
        for room in list(self.lobby.rooms.values()):
            await self.refresh(room)

    def close_room(self, room: Room, why: str) -> None:
        self.lobby.rooms.pop(room.id, None)
        for client in list(room.clients):
            client.push(json.dumps({"type": "error", "message": why}))
            client.close(4410, "table set aside")


class TableBots:
    """The bots' turns: each table's bots play in the bots' workers, under a lease
    that keeps any other process from playing them too."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    def wake(self, room: Room) -> None:
        """Let the table's bots play on (in the background) while they are asked, if no
        other process is playing them."""
        if room.machine_due and (room.runner is None or room.runner.done()):
            room.runner = asyncio.get_running_loop().create_task(self.play_bots(room))

    async def play_bots(self, room: Room) -> None:
        try:
            while await self.bot_turn(room):
                if room.clients and self.lobby.config.bot_delay:
                    await asyncio.sleep(self.lobby.config.bot_delay)  # people follow the moves
        except Unavailable as gone:
            self.lobby.others.close_room(room, str(gone))
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug of ours: the lease runs out and a sweep tries again
            log.exception("table %s: the bots stopped", room.id)

    async def bot_turn(self, room: Room) -> bool:
        """One bot decision, if the lease is this process's and a bot is asked: whether
        to go on."""
        async with room.lock:
            why = unoffered(room, self.lobby.config) if room.table.bot_question else None
            if why is not None:  # another process may offer it; else the table idles out
                self.lobby.warn_once(room.id, "unoffered", "table %s: its bots are not "
                                     "played here: %s", room.id, why)
                return False
            lobby = self.lobby
            if not await asyncio.to_thread(lobby.store.lease, room.id, lobby.runner_id, LEASE):
                return False
            await asyncio.to_thread(self.lobby.others.read, room)
            question = room.table.bot_question
            if question is None:  # the dice, or a person: say so, give the lease back
                await asyncio.to_thread(self.lobby.commit, room, None, runner=True)
                publish(room)
                return room.table.bot_question is not None
            table = room.table
            seat, version, spec = question.seat, room.version, table.seats[question.seat].kind
            game, entries = table.game, table.log_sizes[-1]
            seed = None if table.seed is None else f"{table.seed}:{game}:{seat}:{entries}"
            budget = self.lobby.config.budget(table.variant, spec)
            if room.clock is not None and room.clock.seat == seat:  # bots keep time too
                budget = max(0.2, min(MARGIN if budget is None else budget,
                                      room.clock.deadline - time.time() - 1.0))
        keep = self.lobby.spawn(self.keep_lease(room.id))
        try:
            decision = await self.lobby.thinkers.decide(
                spec, question.state, seed, MARGIN if budget is None else budget,
                room.names[seat], owner=room.creator)
        finally:
            keep.cancel()

        def change(table: Table) -> Step | None:
            if room.version != version:
                raise _Stale
            return table.act(seat, decision.action, decision.note)

        async with room.lock:
            try:
                await asyncio.to_thread(self.lobby.commit, room, change, runner=True)
            except _Stale:
                return True
            publish(room)
        return room.table.bot_question is not None

    async def keep_lease(self, table_id: str) -> None:
        while True:
            await asyncio.sleep(LEASE / 3)
            await asyncio.to_thread(self.lobby.store.lease, table_id, self.lobby.runner_id, LEASE)


class Sweeps:
    """The sweeps: tables that wait on a bot or a clock are woken, idle ones closed,
    unwatched ones forgotten."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    async def sweep(self) -> None:
        slow = time.monotonic()
        while True:
            await asyncio.sleep(SWEEP)
            try:
                for table_id in await asyncio.to_thread(self.lobby.store.unattended, HEAD_START):
                    with contextlib.suppress(Unavailable):
                        self.lobby.bots.wake(await self.lobby.room(table_id))
                for table_id in await asyncio.to_thread(self.lobby.store.overdue, time.time()):
                    with contextlib.suppress(GammonError):  # another process flagged it
                        await self.lobby.flag(await self.lobby.room(table_id))
                if time.monotonic() - slow >= SLOW_SWEEP:
                    slow = time.monotonic()
                    await self.close_idle()
                    self.forget_unwatched()
                    await asyncio.to_thread(self.lobby.store.forget_logins, time.time())
            except asyncio.CancelledError:
                raise
            except Exception:  # the database is away a moment: sweep again later
                log.exception("sweep failed")

    async def close_idle(self) -> int:
        """Close and archive the tables nobody has moved at for the idle limit."""
        minutes = self.lobby.config.limits.idle_minutes
        closed = 0
        for table_id in await asyncio.to_thread(self.lobby.store.idle, time.time() - minutes * 60):
            try:
                room = await self.lobby.room(table_id)
                async with room.lock:
                    walked_away = self.walked_away(room)
                    if walked_away is not None:  # leaving a rated game loses it
                        await asyncio.to_thread(
                            self.lobby.commit, room,
                            functools.partial(Table.time_out, seat=walked_away))
                    else:
                        await asyncio.to_thread(self.lobby.commit, room, None,
                                                close=f"closed after {minutes:g} minutes "
                                                      "without a move")
                    publish(room)
                closed += 1
            except GammonError as error:
                self.lobby.warn_once(table_id, "not closed", "table %s: not closed: %s",
                                     table_id, error)
        return closed

    @staticmethod
    def walked_away(room: Room) -> int | None:
        """The person who left a rated game with no clock unfinished, asked and gone for
        the idle limit: they lose it, as on time (the result is rated if it was played)."""
        question = room.table.question
        if room.rated and room.status == OPEN and len(room.users) == 2 and \
                question is not None and question.seat in room.users:
            return question.seat
        return None

    def forget_unwatched(self) -> None:
        """Drop the copies of tables nobody here watches or plays (they stay stored)."""
        now = time.monotonic()
        for table_id, room in list(self.lobby.rooms.items()):
            if not room.clients and (room.runner is None or room.runner.done()) and \
                    now - room.used > KEEP:
                del self.lobby.rooms[table_id]


def _steps(table: Table, change: Callable[[Table], Step | None] | None, *,
           late: int | None, close: bool) -> list[Step]:
    """What one commit does to ``table``: ``late``, the seat whose time has run out,
    loses on time if it is the seat asked, else ``change`` is made; play stops when
    ``close``; then the throws and passes that follow, until someone is asked."""
    steps: list[Step] = []
    asked = table.question.seat if table.question is not None else None
    if late is not None and late == asked:
        steps.append(table.time_out(late))
    elif change is not None and (made := change(table)) is not None:
        steps.append(made)
    if close:
        table.stop()
    while (table.question is None or table.passes) and not table.over:
        step = table.advance()
        if step is None:  # pragma: no cover - advance moves on whenever asked
            break
        steps.append(step)
    return steps


async def stop_tasks(tasks: Collection[asyncio.Task[object]], seconds: float) -> None:
    """Cancel ``tasks`` and wait for them, ``seconds`` at most: a task that goes on (its
    cancellation lost, as ``asyncio.wait_for`` can lose one on Python 3.11 when what it
    waits for finishes at that moment) is cancelled again every tenth of a second. A
    cancellation of the caller is not swallowed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    waiting = {task for task in tasks if task is not asyncio.current_task()}
    while waiting and loop.time() < deadline:
        for task in waiting:
            task.cancel()
        done, _ = await asyncio.wait(waiting, timeout=min(0.1, deadline - loop.time()))
        waiting -= done
    for task in tasks:
        if task.done() and not task.cancelled():
            task.exception()  # seen: no "exception was never retrieved" at exit
    if waiting:
        log.error("%d task(s) went on after being cancelled for %g s", len(waiting), seconds)


@functools.cache
def _load_every_variant() -> None:
    """A table of each variant played and drawn once: what it loads stays loaded for the
    process (a test's many apps in one process load it once)."""
    for name in variant_names():
        table = Table(name, ["human"] * variant(name).players, seed=0)
        table.run()
        room = Room("warm", table, "", {})
        view(room, 0)
        view(room, None)


__all__ = ["Client", "Lobby", "Room", "Unavailable", "restore", "seat_names", "stop_tasks",
           "unoffered"]
