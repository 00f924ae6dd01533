"""The tournament director: makes the tournaments the operator schedules, starts them,
pairs their rounds at tables, reads their results and ends them
(:mod:`gammon.web.tournaments` says how each kind is paired and scored).

Every server process runs one, once a :data:`TICK`; each step of a tournament is one
transaction under that tournament's lock (PostgreSQL's advisory lock on it; SQLite's write
lock), which reads where it stands, decides, and writes the round, the tables with the
seats kept for their players, the results and the scores, all or nothing. So a restart or
a process killed at any moment loses nothing, and two processes never pair a round
twice: the second finds it paired. A tournament's table keeps each seat for its player
(``reserved`` in its settings): the player takes it from the tournament's page, signed
in, on any device. A player not at their table within ``[limits]
tournament_show_seconds`` (counted from the pairing, or from the process's start when a
restart came after it) loses by forfeit; the table is then ended on time (or closed when
neither came).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import secrets
import time
import zlib
from dataclasses import dataclass

from sqlalchemy import func, insert, select, text, update
from sqlalchemy.engine import Connection

from gammon.core.errors import GammonError
from gammon.table.dice import commitment
from gammon.table.table import Table
from gammon.web.config import Schedule, ServerConfig
from gammon.web.creation import table_settings
from gammon.web.rooms import Lobby, Unavailable, publish
from gammon.web.store import (
    ARCHIVED,
    OVER,
    entrants,
    matches,
    seats,
    tables,
    tournaments,
)
from gammon.web.tournaments import (
    ARENA,
    KNOCKOUT,
    SWISS,
    Entry,
    Game,
    arena_pairs,
    arena_points,
    knockout_round,
    rounds_for,
    swiss_round,
)

log = logging.getLogger("gammon.web")

#: A tournament's status.
ENTRY, RUNNING, DONE = "open", "running", "over"
#: Seconds between the director's looks at the tournaments.
TICK = 1.0
#: An arena player is present when their page asked within this many seconds.
PRESENT = 30.0


@dataclass(frozen=True)
class Held:
    """A tournament as its row says, during one step."""

    id: str
    kind: str
    round: int
    starts: float
    ends: float
    settings: dict[str, object]


@dataclass(frozen=True)
class Forfeit:
    """A table to end because someone did not come: the seats that did not."""

    table_id: str
    absent: tuple[int, ...]


class Director:
    """One process's tournament director (module text)."""

    def __init__(self, lobby: Lobby, config: ServerConfig) -> None:
        self.lobby, self.config, self.store = lobby, config, lobby.store
        #: A player's show time counts from the pairing, or from this process's start
        #: when that is later: a server down meanwhile kept them from their table.
        self.born = time.time()

    # --- the loop -------------------------------------------------------------------------

    async def run(self) -> None:
        """Run every tournament on, a step a :data:`TICK`, until cancelled."""
        while True:
            try:
                await self.tick()
            except Exception:  # the database gone a moment: the next tick tries again
                log.exception("the tournament director's tick")
            await asyncio.sleep(TICK)

    async def tick(self) -> None:
        for schedule in self.config.tournaments:
            await asyncio.to_thread(self.schedule, schedule, time.time())
        for tournament_id in await asyncio.to_thread(self.active):
            made, forfeits = await asyncio.to_thread(self.step, tournament_id, time.time())
            for table_id in made:
                self.lobby.spawn(self.open(table_id))
            for forfeit in forfeits:
                await self.end(forfeit)

    async def open(self, table_id: str) -> None:
        """A new tournament table: its opening roll made and shown."""
        try:
            room = await self.lobby.room(table_id)
            async with room.lock:
                await asyncio.to_thread(self.lobby.commit, room, None)
            publish(room)
        except (GammonError, Unavailable):
            log.exception("opening the tournament table %s", table_id)

    async def end(self, forfeit: Forfeit) -> None:
        """End a table someone did not come to: lost by forfeit by the one who did not
        (the other wins), or closed when neither came."""
        try:
            room = await self.lobby.room(forfeit.table_id)
            async with room.lock:
                if len(forfeit.absent) == 1:
                    await asyncio.to_thread(self.lobby.commit, room, functools.partial(
                        Table.forfeit, seat=forfeit.absent[0]))
                else:
                    await asyncio.to_thread(self.lobby.commit, room, None,
                                            close="closed: neither player came")
            publish(room)
        except (GammonError, Unavailable):  # over already, or gone: the result stands
            log.info("table %s: not ended for its forfeit", forfeit.table_id)

    # --- the database's side (in threads) -------------------------------------------------

    def _lock(self, db: Connection, key: str) -> None:
        if self.store.postgres:
            db.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                       {"key": zlib.crc32(("tournament:" + key).encode())})

    def active(self) -> list[str]:
        with self.store.engine.connect() as db:
            return [row.id for row in db.execute(select(tournaments.c.id).where(
                tournaments.c.status.in_((ENTRY, RUNNING)),
                tournaments.c.starts <= time.time() + TICK))]

    def schedule(self, schedule: Schedule, now: float) -> None:
        """Make the schedule's next tournament when none of it is open or running."""
        with self.store.writer.begin() as db:
            self._lock(db, "schedule:" + schedule.name)
            waiting = db.execute(select(func.count()).select_from(tournaments).where(
                tournaments.c.schedule == schedule.name,
                tournaments.c.status.in_((ENTRY, RUNNING)))).scalar_one()
            if waiting:
                return
            every = schedule.every_minutes * 60
            starts = math.ceil((now + schedule.lead_minutes * 60) / every) * every
            self.insert(db, schedule.name, schedule.description, schedule.kind,
                        schedule.settings(), starts, None, "", schedule.name)

    @staticmethod
    def insert(db: Connection, name: str, description: str, kind: str,
               settings: dict[str, object], starts: float, creator: int | None,
               address: str, schedule: str = "") -> str:
        tournament_id = secrets.token_hex(6)
        db.execute(insert(tournaments).values(
            id=tournament_id, name=name, description=description, kind=kind,
            settings=json.dumps(settings), status=ENTRY, round=0, starts=starts,
            ends=starts + 60 * float(str(settings.get("minutes") or 0)) if kind == ARENA
            else 0.0,
            creator=creator, address=address, schedule=schedule, reason="",
            created=time.time()))
        return tournament_id

    def step(self, tournament_id: str, now: float) -> tuple[list[str], list[Forfeit]]:
        """One step of a tournament (module text): the tables it made, and those to end
        for a forfeit."""
        with self.store.writer.begin() as db:
            self._lock(db, tournament_id)
            row = db.execute(select(tournaments).where(
                tournaments.c.id == tournament_id)).one_or_none()
            if row is None or row.status not in (ENTRY, RUNNING):
                return [], []
            held = Held(row.id, row.kind, row.round, row.starts, row.ends,
                        json.loads(row.settings))
            if row.status == ENTRY:
                if now < row.starts:
                    return [], []
                return self.start(db, held, self.entries(db, tournament_id), now), []
            forfeits = self.results(db, held, now)
            return self.next_round(db, held, self.entries(db, tournament_id), now), forfeits

    @staticmethod
    def entries(db: Connection, tournament_id: str) -> list[Entry]:
        return [Entry(r.user_id, r.name, r.rating, r.joined, r.score, r.out, r.byes, r.streak)
                for r in db.execute(select(entrants).where(
                    entrants.c.tournament_id == tournament_id))]

    @staticmethod
    def games(db: Connection, tournament_id: str) -> list[Game]:
        return [Game(r.round, r.first, r.second, r.table_id, r.winner, r.forfeit)
                for r in db.execute(select(matches).where(
                    matches.c.tournament_id == tournament_id).order_by(matches.c.id))]

    def start(self, db: Connection, held: Held, entries: list[Entry], now: float) -> list[str]:
        if len(entries) < 2:
            db.execute(update(tournaments).where(tournaments.c.id == held.id).values(
                status=DONE, ends=now, reason="fewer than two players entered"))
            return []
        settings = held.settings
        if held.kind == SWISS and not settings.get("rounds"):
            settings = {**settings, "rounds": rounds_for(len(entries))}
        db.execute(update(tournaments).where(tournaments.c.id == held.id).values(
            status=RUNNING, round=1, settings=json.dumps(settings)))
        return self.pair(db, held, 1, entries, [], now)

    def pair(self, db: Connection, held: Held, number: int, entries: list[Entry],
             games: list[Game], now: float,
             pairs: list[tuple[int, int | None]] | None = None) -> list[str]:
        """Round ``number``'s games (its pairs, or the kind's own): a table for each pair,
        its seats kept for the two; a bye won at once."""
        tournament_id, kind, settings = held.id, held.kind, held.settings
        if pairs is None:
            pairs = swiss_round(entries, games) if kind == SWISS else knockout_round(entries)
        names = {e.user_id: e.name for e in entries}
        made = []
        for first, second in pairs:
            table_id = ""
            winner = None
            if second is None:
                winner = first
                self.score(db, tournament_id, kind, first, None)
            else:
                table_id = secrets.token_hex(6)
                body: dict[str, object] = {key: settings[key] for key in (
                    "variant", "kind", "length", "rated", "clock") if key in settings}
                body["seats"] = ["human", "human"]
                data, seed = self.lobby.seating.table_data(
                    signed_in=True, **table_settings(body, self.config))
                data.update(tournament=tournament_id, reserved=[first, second],
                            names=[names[first], names[second]])
                self.store.insert_table(db, table_id, data, commitment(seed), "")
                made.append(table_id)
            db.execute(insert(matches).values(
                tournament_id=tournament_id, round=number, table_id=table_id, first=first,
                second=second, winner=winner, forfeit=False, created=now))
        return made

    def results(self, db: Connection, held: Held, now: float) -> list[Forfeit]:
        """The results of the games being played: a table over gives its winner; one
        whose players did not all come in time is a forfeit."""
        tournament_id, kind = held.id, held.kind
        show = self.config.limits.tournament_show_seconds
        pending = db.execute(select(matches).where(
            matches.c.tournament_id == tournament_id, matches.c.winner.is_(None))).all()
        forfeits = []
        for game in pending:
            table = db.execute(select(tables.c.status, tables.c.winner).where(
                tables.c.id == game.table_id)).one()
            players = (game.first, game.second)
            if table.status in (OVER, ARCHIVED):
                winner = players[table.winner] if table.winner in (0, 1) else -1
                forfeit = False
            elif now > max(game.created, self.born) + show:
                came = {r.seat for r in db.execute(select(seats.c.seat).where(
                    seats.c.table_id == game.table_id, seats.c.arrived > 0))}
                if len(came) == 2:
                    continue
                absent = tuple(seat for seat in (0, 1) if seat not in came)
                winner = players[1 - absent[0]] if len(absent) == 1 else -1
                forfeit = True
                forfeits.append(Forfeit(game.table_id, absent))
            else:
                continue
            db.execute(update(matches).where(matches.c.id == game.id).values(
                winner=winner, forfeit=forfeit))
            loser = None if winner == -1 else players[1 - players.index(winner)]
            self.score(db, tournament_id, kind, None if winner == -1 else winner,
                       loser if winner != -1 else players)
        return forfeits

    @staticmethod
    def score(db: Connection, tournament_id: str, kind: str, winner: int | None,
              losers: int | tuple[int, ...] | None) -> None:
        """A result's points: a win (or a bye) 1, in an arena 2, or 4 on a streak; a
        knockout's loser is out; losers' streaks end."""
        where = (entrants.c.tournament_id == tournament_id)
        if winner is not None:
            streak = db.execute(select(entrants.c.streak).where(
                where, entrants.c.user_id == winner)).scalar_one()
            points = arena_points(streak) if kind == ARENA else 1
            db.execute(update(entrants).where(where, entrants.c.user_id == winner).values(
                score=entrants.c.score + points, streak=entrants.c.streak + 1,
                byes=entrants.c.byes + (1 if losers is None else 0)))
        knocked_out = {"out": True} if kind == KNOCKOUT else {}  # (a withdrawal stays)
        for loser in (losers,) if isinstance(losers, int) else (losers or ()):
            db.execute(update(entrants).where(where, entrants.c.user_id == loser).values(
                streak=0, **knocked_out))

    def next_round(self, db: Connection, held: Held, entries: list[Entry],
                   now: float) -> list[str]:
        """Pair the next round once the last is over (Swiss, knockout), or the free
        players present (arena); end the tournament when it is done."""
        tournament_id, kind, number = held.id, held.kind, held.round
        games = self.games(db, tournament_id)
        playing = [g for g in games if g.winner is None]
        if kind == ARENA:
            if now >= held.ends:
                if not playing:
                    self.finish(db, tournament_id, now)
                return []
            busy = {p for g in playing for p in (g.first, g.second)}
            present = {r.user_id for r in db.execute(select(entrants.c.user_id).where(
                entrants.c.tournament_id == tournament_id, entrants.c.seen > now - PRESENT))}
            free = [e for e in entries
                    if not e.out and e.user_id not in busy and e.user_id in present]
            last = {}
            for game in games:  # the latest opponent of each
                if game.second is not None:
                    last[game.first], last[game.second] = game.second, game.first
            pairs: list[tuple[int, int | None]] = list(arena_pairs(free, last))
            return self.pair(db, held, number, entries, games, now, pairs) if pairs else []
        if playing:
            return []
        left = [e for e in entries if not e.out]
        rounds = held.settings.get("rounds")
        if (kind == SWISS and isinstance(rounds, int) and number >= rounds) or (
                kind == KNOCKOUT and len(left) <= 1):
            self.finish(db, tournament_id, now)
            return []
        db.execute(update(tournaments).where(tournaments.c.id == tournament_id).values(
            round=number + 1))
        return self.pair(db, held, number + 1, entries, games, now)

    @staticmethod
    def finish(db: Connection, tournament_id: str, now: float) -> None:
        db.execute(update(tournaments).where(tournaments.c.id == tournament_id).values(
            status=DONE, ends=now))


__all__ = ["DONE", "ENTRY", "RUNNING", "Director", "Forfeit"]
