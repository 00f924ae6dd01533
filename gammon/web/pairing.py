"""Quick pairing: pools of people waiting to play, seated two at a time.

A pool is a game, its length and its clock, rated or casual (:func:`pools`):
backgammon's 1-, 3-, 5- and 7-point matches, every other two-player game's single game,
and the tavli rotation's 5-point match. A person joins a pool (``POST /api/pools/join``)
and is given a secret ticket; they are seated with the waiting person of the nearest
rating that each one's window holds, a window widening the longer its holder waits
(:func:`window`), or, after a wait they chose (``bot_after``), may play the pool's best
bot instead (``POST /api/pools/bot``). ``POST /api/pools/wait`` waits for the seat (up
to ``[limits] pool_wait_seconds`` an ask), ``POST /api/pools/leave`` leaves, ``GET /api/pools``
lists the pools and how many wait in each.

Pairing is correct across server processes because it is one transaction on the
database that every process shares: a pool's waiting rows are read and paired under a
lock (PostgreSQL's advisory lock on the pool; SQLite's write lock), and the table is made
with both seats claimed and both rows marked with it, all or nothing. Nobody is seated
twice (a paired row is not read again), nobody is paired with a ticket of their own
account or address, and a rated pool pairs no two accounts that the rated-play
defences keep apart (accounts made from one address, a pair with its rated results of
the day: :mod:`gammon.web.accounts`). A ticket is never stored: the database keeps its
hash, and the seat's token is derived from the ticket, so only its holder can take the
seat. Each process learns that its waiting people were seated by reading their rows
every :data:`POLL` seconds, one query for all of them, and pairs again every
:data:`PAIR_EVERY` seconds as the windows widen.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import secrets
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypedDict

from sqlalchemy import and_, delete, func, insert, or_, select, text, update
from sqlalchemy.engine import Connection
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from gammon.core.errors import GammonError, InvalidOptionError
from gammon.core.variant import variant, variant_names
from gammon.stakes.match import ROTATIONS
from gammon.table.clock import RESERVE_RANGE, TimeControl
from gammon.table.dice import commitment
from gammon.table.ratings import Rating
from gammon.web.accounts import PAIR_RATED_PER_DAY, Accounts, User, pool_of
from gammon.web.config import ServerConfig
from gammon.web.creation import table_settings
from gammon.web.rates import Rates
from gammon.web.requests import Refused, address, read_json, same_origin
from gammon.web.room import Room
from gammon.web.rooms import Lobby, Unavailable, publish
from gammon.web.store import (
    Notice,
    address_hash,
    results,
    seats,
    token_hash,
    users,
    waiting,
)

log = logging.getLogger("gammon.web")

#: A ticket not asked about for this long is not paired (its page has gone).
STALE = 30.0
#: Rows older than this are forgotten (a seat given long ago, a ticket left behind).
FORGET = 600.0
#: How often a process reads its waiting people's rows, and pairs its pools again.
POLL, PAIR_EVERY = 0.05, 1.0
#: The longest wait a person may choose before a bot is offered.
BOT_AFTER_MOST = 600
#: Matches of backgammon the pools offer; the tavli rotation's one match.
BACKGAMMON_LENGTHS = (1, 3, 5, 7)
ROTATION_LENGTH = 5
#: Presets of another game's options, not pools of their own.
NOT_POOLED = frozenset({"hypergammon-1", "hypergammon-2", "hypergammon-3",
                        "acey-deucey-restrictive", "acedrex-quick"})


def window(waited: float) -> float:
    """How far apart in rating two people may be paired, for one who has waited
    ``waited`` seconds: 100 points at once, 20 more a second (everyone after a minute
    and a bit, where ratings run from about 1000 to 2200)."""
    return 100.0 + 20.0 * max(waited, 0.0)


@dataclass(frozen=True)
class Pool:
    """Where people wait for one kind of table."""

    id: str
    variant: str
    kind: str  # "game" or "match"
    length: int  # a match's points; 1 for a single game
    rated: bool
    clock: TimeControl

    def body(self, seats: list[str], rated: bool | None = None) -> dict[str, object]:
        """The table's creation request (as ``POST /api/tables`` takes it)."""
        body: dict[str, object] = {"variant": self.variant, "seats": seats, "kind": self.kind,
                                   "rated": self.rated if rated is None else rated,
                                   "clock": self.clock.to_json()}
        if self.kind == "match":
            body["length"] = self.length
        return body

    def rating_pool(self) -> str:
        """The ratings pool its results count in."""
        pool = pool_of({"variant": self.variant, "kind": self.kind, "length": self.length})
        assert pool is not None
        return pool


def pools(config: ServerConfig) -> dict[str, Pool]:
    """The pools of this server, by id, in the order the lobby lists them."""
    limits = config.limits
    delay = max(12, limits.rated_delay)
    offered: list[tuple[str, str, int]] = [("backgammon", "match", n)
                                           for n in BACKGAMMON_LENGTHS]
    offered += [(name, "game", 1) for name in variant_names()
                if name not in NOT_POOLED and variant(name).players == 2]
    offered += [(name, "match", ROTATION_LENGTH) for name in ROTATIONS]
    found = {}
    for name, kind, length in offered:
        reserve = min(max(60 * length, limits.rated_reserve), RESERVE_RANGE[1])
        clock = TimeControl(delay=delay, reserve=reserve)
        for rated in (True, False):
            pool_id = f"{name}-{kind if kind == 'game' else f'match{length}'}-" \
                      f"{'rated' if rated else 'casual'}"
            found[pool_id] = Pool(pool_id, name, kind, length, rated, clock)
    return found


def seat_token(ticket: str) -> str:
    """The token of the seat a ticket is given: derived from the ticket, never stored."""
    digest = hashlib.sha256(b"gammon-pool-seat:" + ticket.encode()).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


@dataclass(frozen=True)
class Waiter:
    """A person waiting in a pool, as their row says."""

    ticket_hash: str
    user_id: int | None
    name: str
    address: str
    rating: float
    joined: float
    seat_hash: str

    def same_person(self, other: Waiter) -> bool:
        return self.address == other.address or (
            self.user_id is not None and self.user_id == other.user_id)


def choose_pairs(waiters: list[Waiter], now: float,
                 apart: Callable[[Waiter, Waiter], bool] = lambda a, b: False
                 ) -> list[tuple[Waiter, Waiter]]:
    """Pairs of ``waiters``: the longest waiting first, each with the nearest rating
    among those whose windows and its own hold the gap (the earlier joined on a tie),
    never one person twice, never with themselves, never two that ``apart`` says no
    to."""
    order = sorted(waiters, key=lambda w: (w.joined, w.ticket_hash))
    taken: set[str] = set()
    pairs = []
    for first in order:
        if first.ticket_hash in taken:
            continue
        best: Waiter | None = None
        for second in order:
            if second is first or second.ticket_hash in taken or first.same_person(second):
                continue
            gap = abs(first.rating - second.rating)
            if gap > window(now - first.joined) or gap > window(now - second.joined):
                continue
            if best is not None and gap >= abs(first.rating - best.rating):
                continue
            if not apart(first, second):
                best = second
        if best is not None:
            pairs.append((first, best))
            taken |= {first.ticket_hash, best.ticket_hash}
    return pairs


@dataclass(frozen=True)
class Ticket:
    """What a ticket's row says of it."""

    pool: str
    table_id: str  # "" while it waits
    seat: int
    joined: float
    bot_after: float


class Seated(TypedDict):
    status: str
    id: str
    seat: int
    token: str
    url: str


def seated(ticket: str, table_id: str, seat: int) -> Seated:
    token = seat_token(ticket)
    return {"status": "seated", "id": table_id, "seat": seat, "token": token,
            "url": f"/t/{table_id}#token={token}"}


class Pairing:
    """A server process's part in quick pairing (module text)."""

    def __init__(self, lobby: Lobby, accounts: Accounts, config: ServerConfig) -> None:
        self.lobby, self.accounts, self.config = lobby, accounts, config
        self.store = lobby.store
        self.pools = pools(config)
        #: This process's people waiting: their ticket's hash, with its pool and what
        #: learns their seat.
        self.waiters: dict[str, tuple[str, asyncio.Future[tuple[str, int]]]] = {}
        self.watcher: asyncio.Task[None] | None = None
        #: ``GET /api/pools``'s answer, made once a second at most.
        self.listed_at, self.listed = 0.0, b""

    # --- the database's side (in threads) ----------------------------------------------

    def pair(self, pool: Pool) -> list[tuple[str, Waiter, Waiter]]:
        """Pair the people waiting in ``pool`` (module text): the tables made, each with
        its two (the first in seat 0)."""
        now = time.time()
        made = []
        with self.store.writer.begin() as db:
            if self.store.postgres:  # one pairing of a pool at a time, on every process
                db.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                           {"key": zlib.crc32(pool.id.encode())})
            rows = db.execute(select(waiting).where(
                waiting.c.pool == pool.id, waiting.c.table_id == "",
                waiting.c.seen > now - STALE)).all()
            waiters = [Waiter(r.ticket_hash, r.user_id, r.name, r.address, r.rating,
                              r.joined, r.seat_hash) for r in rows]
            if len(waiters) < 2:
                return []
            apart = self._apart(db, waiters, now) if pool.rated else (lambda a, b: False)
            for first, second in choose_pairs(waiters, now, apart):
                if secrets.randbelow(2):  # who sits first (and may roll first) by lot
                    first, second = second, first
                table_id = secrets.token_hex(6)
                settings = table_settings(pool.body(["human", "human"]), self.config)
                data, seed = self.lobby.seating.table_data(signed_in=True, **settings)
                self.store.insert_table(db, table_id, data, commitment(seed), first.address)
                for seat, person in enumerate((first, second)):
                    db.execute(insert(seats).values(
                        table_id=table_id, seat=seat, token_hash=person.seat_hash,
                        user_id=person.user_id, name=person.name, address=person.address))
                    db.execute(update(waiting).where(
                        waiting.c.ticket_hash == person.ticket_hash).values(
                        table_id=table_id, seat=seat))
                self.store.notify(db, Notice(table_id, -1, "seat"))
                made.append((table_id, first, second))
        return made

    @staticmethod
    def _apart(db: Connection, waiters: list[Waiter],
               now: float) -> Callable[[Waiter, Waiter], bool]:
        """Whether the rated-play defences keep two accounts apart: made from one address,
        or their rated results of the day all had."""
        ids = [w.user_id for w in waiters if w.user_id is not None]
        made_from = dict(db.execute(select(users.c.id, users.c.address)
                                    .where(users.c.id.in_(ids))).all())
        played: dict[frozenset[int], int] = {}
        for winner, loser, count in db.execute(
                select(results.c.winner, results.c.loser, func.count())
                .where(results.c.rated.is_(True), results.c.at > now - 86400,
                       or_(results.c.winner.in_(ids), results.c.loser.in_(ids)))
                .group_by(results.c.winner, results.c.loser)):
            key = frozenset((winner, loser))
            played[key] = played.get(key, 0) + count

        def apart(a: Waiter, b: Waiter) -> bool:
            if a.user_id is None or b.user_id is None:
                return True  # rated play is between accounts
            origin = made_from.get(a.user_id)
            if origin and origin == made_from.get(b.user_id):
                return True
            return played.get(frozenset((a.user_id, b.user_id)), 0) >= PAIR_RATED_PER_DAY
        return apart

    def enter(self, pool: Pool, ticket: str, user: User | None, where: str,
              bot_after: float) -> None:
        """A new row for ``ticket`` in ``pool``; :class:`Refused` over a limit."""
        now = time.time()
        rating = Rating().rating
        if user is not None:
            rating = self.accounts.rating(user.id, pool.rating_pool())[0].rating
        most = self.config.limits.pool_tickets_per_address
        with self.store.writer.begin() as db:
            db.execute(delete(waiting).where(or_(
                waiting.c.seen < now - FORGET,
                and_(waiting.c.table_id == "", waiting.c.seen < now - STALE))))
            if user is not None:
                there = db.execute(select(waiting.c.pool).where(
                    waiting.c.user_id == user.id, waiting.c.table_id == "")).first()
                if there is not None:
                    raise Refused(f"you are waiting in the pool {there.pool} already: leave "
                                  "it first", 409)
            theirs = db.execute(select(func.count()).select_from(waiting).where(
                waiting.c.address == where, waiting.c.table_id == "")).scalar_one()
            if theirs >= most:
                raise Refused(f"{theirs} people wait from your address, the most one "
                              "address may have: leave a pool first", 429)
            db.execute(insert(waiting).values(
                ticket_hash=token_hash(ticket), pool=pool.id,
                user_id=None if user is None else user.id,
                name="" if user is None else user.name, address=where, rating=rating,
                joined=now, seen=now, bot_after=bot_after,
                seat_hash=token_hash(seat_token(ticket))))

    def ticket(self, digest: str) -> Ticket | None:
        """The ticket of a ticket's hash, seen now (None: no such ticket)."""
        with self.store.writer.begin() as db:
            db.execute(update(waiting).where(waiting.c.ticket_hash == digest)
                       .values(seen=time.time()))
            row = db.execute(select(waiting).where(waiting.c.ticket_hash == digest)
                             ).one_or_none()
        return None if row is None else Ticket(row.pool, row.table_id, row.seat, row.joined,
                                               row.bot_after)

    def leave(self, digest: str) -> bool:
        """Take a waiting ticket out of its pool (False: no such ticket waits)."""
        with self.store.writer.begin() as db:
            gone = db.execute(delete(waiting).where(waiting.c.ticket_hash == digest,
                                                    waiting.c.table_id == ""))
            return bool(gone.rowcount)

    def seated_among(self, digests: list[str]) -> list[tuple[str, str, int]]:
        with self.store.engine.connect() as db:
            return [(r.ticket_hash, r.table_id, r.seat) for r in db.execute(
                select(waiting.c.ticket_hash, waiting.c.table_id, waiting.c.seat).where(
                    waiting.c.ticket_hash.in_(digests), waiting.c.table_id != ""))]

    def waiting_counts(self) -> dict[str, int]:
        with self.store.engine.connect() as db:
            return dict(db.execute(
                select(waiting.c.pool, func.count()).where(
                    waiting.c.table_id == "", waiting.c.seen > time.time() - STALE)
                .group_by(waiting.c.pool)).all())

    # --- the process's side -------------------------------------------------------------

    async def pair_and_open(self, pool: Pool) -> None:
        """Pair ``pool``, tell this process's waiting people, and open the tables made
        (after: the people need only their seats to go there)."""
        made = await asyncio.to_thread(self.pair, pool)
        for table_id, first, second in made:
            for seat, person in enumerate((first, second)):
                self._tell(person.ticket_hash, table_id, seat)
            self.lobby.spawn(self.open(table_id))

    async def open(self, table_id: str) -> None:
        """Start a paired table: its first step (the opening roll) made and told."""
        try:
            room = await self.lobby.room(table_id)
            async with room.lock:
                await asyncio.to_thread(self.lobby.commit, room, None)
            publish(room)
            self.lobby.bots.wake(room)
        except (GammonError, Unavailable):  # the sweeps start it (here or elsewhere)
            log.exception("opening the paired table %s", table_id)

    def _tell(self, digest: str, table_id: str, seat: int) -> None:
        found = self.waiters.pop(digest, None)
        if found is not None and not found[1].done():
            found[1].set_result((table_id, seat))

    async def watch(self) -> None:
        """While this process has people waiting: read whether they were seated (by
        any process), and pair their pools again as the windows widen."""
        paired_at = time.monotonic()
        while self.waiters:
            try:
                for digest, table_id, seat in await asyncio.to_thread(
                        self.seated_among, list(self.waiters)):
                    self._tell(digest, table_id, seat)
                if time.monotonic() - paired_at >= PAIR_EVERY:
                    paired_at = time.monotonic()
                    for pool_id in {pool for pool, _ in self.waiters.values()}:
                        await self.pair_and_open(self.pools[pool_id])
            except Exception:  # the database gone a moment: the waits answer "waiting"
                log.exception("watching the pools")
            await asyncio.sleep(POLL)
        self.watcher = None

    async def join(self, pool_id: object, bot_after: object, user: User | None,
                   where: str) -> dict[str, object]:
        pool = self.pools.get(pool_id) if isinstance(pool_id, str) else None
        if pool is None:
            raise InvalidOptionError(f"pool {str(pool_id)[:40]!r} is not one of this "
                                     "server's: GET /api/pools lists them")
        if not isinstance(bot_after, int) or isinstance(bot_after, bool) or \
                not 0 <= bot_after <= BOT_AFTER_MOST:
            raise InvalidOptionError(f"bot_after is the seconds to wait before a bot is "
                                     f"offered, 0 (never) to {BOT_AFTER_MOST}")
        if pool.rated and user is None:
            raise InvalidOptionError("sign in to play rated: ratings belong to accounts")
        await self.lobby.seating.room_for_one_more(where)
        ticket = secrets.token_urlsafe(18)
        await asyncio.to_thread(self.enter, pool, ticket, user, where, float(bot_after))
        digest = token_hash(ticket)
        future: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
        self.waiters[digest] = (pool.id, future)
        await self.pair_and_open(pool)
        if future.done():
            return {**seated(ticket, *future.result()), "ticket": ticket}
        self.waiters.pop(digest, None)  # watched again while its page waits (wait)
        return {"status": "waiting", "ticket": ticket, "pool": pool.id}

    async def wait(self, ticket: str) -> dict[str, object]:
        """The seat of ``ticket`` once it is seated, waiting ``pool_wait_seconds`` at most
        for it; else how its wait stands (and whether a bot may be asked for)."""
        digest = token_hash(ticket)
        found = await asyncio.to_thread(self.ticket, digest)
        if found is None:
            raise Refused("no such ticket: it left its pool, or waited unasked for "
                          f"{STALE:g} s and was forgotten", 404)
        if found.table_id:
            return dict(seated(ticket, found.table_id, found.seat))
        if digest not in self.waiters:
            self.waiters[digest] = (found.pool, asyncio.get_running_loop().create_future())
        future = self.waiters[digest][1]
        if self.watcher is None:
            self.watcher = asyncio.get_running_loop().create_task(self.watch())
        try:
            table_id, seat = await asyncio.wait_for(asyncio.shield(future),
                                                    self.config.limits.pool_wait_seconds)
        except TimeoutError:
            if not future.done():
                self.waiters.pop(digest, None)  # its page asks again, or has gone
            waited = time.time() - found.joined
            return {"status": "waiting", "pool": found.pool, "waited": round(waited, 1),
                    "window": round(window(waited)),
                    "bot": 0 < found.bot_after <= waited}
        return dict(seated(ticket, table_id, seat))

    async def bot(self, ticket: str, user: User | None, where: str) -> tuple[Room, int, str]:
        """Leave the pool for a table against its best bot (casual), once the wait its
        holder chose is over: the room, the seat and its token."""
        found = await asyncio.to_thread(self.ticket, token_hash(ticket))
        if found is None or found.table_id:
            raise Refused("no such ticket waits: it left its pool, or was seated", 404)
        if not 0 < found.bot_after <= time.time() - found.joined:
            raise Refused("a bot is offered once the wait you chose is over", 409)
        if not await asyncio.to_thread(self.leave, token_hash(ticket)):
            raise Refused("no such ticket waits: it was seated a moment ago", 409)
        self.waiters.pop(token_hash(ticket), None)
        data, seed = self.lobby.seating.table_data(signed_in=user is not None, **table_settings(
            self.pools[found.pool].body(["human", "best"], rated=False), self.config))
        return await self.lobby.seating.create(data, seed, where, user)


class PairingRoutes:
    """Quick pairing's routes (module text)."""

    def __init__(self, pairing: Pairing, config: ServerConfig,
                 signed_in: Callable[[Request], Awaitable[User | None]]) -> None:
        self.pairing, self.config, self.signed_in = pairing, config, signed_in
        self.joins = Rates.per_minute(config.rates.pool_joins_per_minute_per_address)

    def routes(self) -> list[BaseRoute]:
        return [Route("/api/pools", self.list_pools, methods=["GET"]),
                Route("/api/pools/join", self.join, methods=["POST"]),
                Route("/api/pools/wait", self.wait, methods=["POST"]),
                Route("/api/pools/leave", self.leave, methods=["POST"]),
                Route("/api/pools/bot", self.bot, methods=["POST"])]

    async def list_pools(self, request: Request) -> Response:
        pairing = self.pairing
        if time.monotonic() - pairing.listed_at > 1.0:  # one query a second at most
            counts = await asyncio.to_thread(pairing.waiting_counts)
            pairing.listed = json.dumps([
                {"id": pool.id, "variant": pool.variant, "kind": pool.kind,
                 "length": pool.length, "rated": pool.rated, "clock": pool.clock.to_json(),
                 "waiting": counts.get(pool.id, 0)} for pool in pairing.pools.values()
            ]).encode()
            pairing.listed_at = time.monotonic()
        return Response(pairing.listed, media_type="application/json")

    async def body(self, request: Request, fields: set[str]) -> dict[str, object]:
        if not same_origin(request):
            raise Refused("pools are joined from this site's own pages", 403)
        body = await read_json(request, self.config.limits.request_bytes)
        unknown = set(body) - fields
        if unknown:
            raise Refused(f"unknown fields {sorted(str(u)[:20] for u in unknown)[:5]}; this "
                          f"request takes {', '.join(sorted(fields))}")
        return body

    @staticmethod
    def ticket_of(body: dict[str, object]) -> str:
        ticket = body.get("ticket")
        if not isinstance(ticket, str) or not 10 <= len(ticket) <= 64:
            raise Refused("ticket is the ticket that joining the pool gave")
        return ticket

    async def join(self, request: Request) -> Response:
        try:
            body = await self.body(request, {"pool", "bot_after"})
            where = address(request)
            if not self.joins.take(where):
                raise Refused("you are joining pools too fast: wait a minute", 429)
            answer = await self.pairing.join(body.get("pool"), body.get("bot_after", 0),
                                             await self.signed_in(request),
                                             address_hash(where))
        except (Refused, Unavailable) as refused:
            return JSONResponse({"error": str(refused)}, status_code=refused.status)
        except GammonError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        return JSONResponse(answer, status_code=201)

    async def wait(self, request: Request) -> Response:
        try:
            answer = await self.pairing.wait(self.ticket_of(
                await self.body(request, {"ticket"})))
        except Refused as refused:
            return JSONResponse({"error": str(refused)}, status_code=refused.status)
        return JSONResponse(answer)

    async def leave(self, request: Request) -> Response:
        """Leave the pool; a ticket seated a moment before is given its seat instead (its
        opponent is there)."""
        try:
            ticket = self.ticket_of(await self.body(request, {"ticket"}))
        except Refused as refused:
            return JSONResponse({"error": str(refused)}, status_code=refused.status)
        digest = token_hash(ticket)
        if await asyncio.to_thread(self.pairing.leave, digest):
            self.pairing.waiters.pop(digest, None)
            return JSONResponse({"status": "left"})
        found = await asyncio.to_thread(self.pairing.ticket, digest)
        if found is not None and found.table_id:
            return JSONResponse(dict(seated(ticket, found.table_id, found.seat)))
        return JSONResponse({"error": "no such ticket waits: it left its pool"},
                            status_code=404)

    async def bot(self, request: Request) -> Response:
        try:
            ticket = self.ticket_of(await self.body(request, {"ticket"}))
            room, seat, token = await self.pairing.bot(
                ticket, await self.signed_in(request), address_hash(address(request)))
        except (Refused, Unavailable) as refused:
            return JSONResponse({"error": str(refused)}, status_code=refused.status)
        except GammonError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        return JSONResponse({"status": "seated", "id": room.id, "seat": seat, "token": token,
                             "url": f"/t/{room.id}#token={token}"}, status_code=201)


__all__ = ["Pairing", "PairingRoutes", "Pool", "Waiter", "choose_pairs", "pools",
           "seat_token", "window"]
