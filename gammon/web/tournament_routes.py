"""The tournaments' pages and API: ``/tournaments`` (those open for entries, running and
just over, and a form to make one) and ``/tournaments/ID`` (its standings, live, its
rounds, and your table).

- ``GET /api/tournaments``: the tournaments, by status;
- ``POST /api/tournaments`` (signed in): make one (:func:`gammon.web.tournaments.checked`
  says what it takes);
- ``GET /api/tournaments/ID``: one, with its standings and rounds, and, signed in, your
  entry and the table you play at now;
- ``POST /api/tournaments/ID/join``, ``/leave`` (signed in): enter, or leave (while it
  runs: withdraw, no more rounds); ``/start``: its maker starts it early, once two
  have entered.

The director (:mod:`gammon.web.director`) runs them; these only read and enter.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypedDict

from sqlalchemy import delete, func, insert, select, update
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from gammon.core.errors import GammonError, InvalidOptionError
from gammon.web.accounts import Accounts, User, pool_of
from gammon.web.config import ServerConfig
from gammon.web.director import DONE, ENTRY, RUNNING, Director
from gammon.web.rates import Rates
from gammon.web.requests import Refused, address, read_json, same_origin
from gammon.web.store import Store, address_hash, entrants, matches, tournaments, users
from gammon.web.tournaments import Entry, Game, checked, standings

STATIC = Path(__file__).resolve().parent / "static"
#: Tournaments over that the list shows.
RECENT = 20


class Listed(TypedDict):
    id: str
    name: str
    kind: str
    status: str
    starts: float
    ends: float
    players: int
    settings: dict[str, object]


class Desk:
    """What the pages read and the entries (in threads)."""

    def __init__(self, store: Store, accounts: Accounts, config: ServerConfig) -> None:
        self.store, self.accounts, self.config = store, accounts, config

    def listing(self) -> dict[str, list[Listed]]:
        counted = (select(entrants.c.tournament_id, func.count().label("n"))
                   .group_by(entrants.c.tournament_id).subquery())
        query = (select(tournaments, func.coalesce(counted.c.n, 0).label("players"))
                 .outerjoin(counted, counted.c.tournament_id == tournaments.c.id))
        out: dict[str, list[Listed]] = {ENTRY: [], RUNNING: [], DONE: []}
        with self.store.engine.connect() as db:
            for status, order in ((ENTRY, tournaments.c.starts),
                                  (RUNNING, tournaments.c.starts),
                                  (DONE, tournaments.c.ends.desc())):
                for row in db.execute(query.where(tournaments.c.status == status)
                                      .order_by(order).limit(RECENT if status == DONE
                                                             else 200)):
                    out[status].append({"id": row.id, "name": row.name, "kind": row.kind,
                                        "status": row.status, "starts": row.starts,
                                        "ends": row.ends, "players": row.players,
                                        "settings": json.loads(row.settings)})
        return out

    def one(self, tournament_id: str, user: User | None) -> dict[str, object] | None:
        now = time.time()
        with self.store.writer.begin() as db:
            row = db.execute(select(tournaments).where(
                tournaments.c.id == tournament_id)).one_or_none()
            if row is None:
                return None
            if user is not None:  # present (an arena pairs those present)
                db.execute(update(entrants).where(
                    entrants.c.tournament_id == tournament_id,
                    entrants.c.user_id == user.id).values(seen=now))
            entries = [Entry(r.user_id, r.name, r.rating, r.joined, r.score, r.out, r.byes,
                             r.streak) for r in db.execute(select(entrants).where(
                                 entrants.c.tournament_id == tournament_id))]
            games = [Game(r.round, r.first, r.second, r.table_id, r.winner, r.forfeit)
                     for r in db.execute(select(matches).where(
                         matches.c.tournament_id == tournament_id).order_by(matches.c.id))]
            maker = db.execute(select(users.c.name).where(
                users.c.id == row.creator)).scalar_one_or_none() if row.creator else None
        names = {e.user_id: e.name for e in entries}
        rounds: dict[int, list[dict[str, object]]] = {}
        for game in games:
            rounds.setdefault(game.round, []).append({
                "table": game.table_id, "first": names.get(game.first, "?"),
                "second": None if game.second is None else names.get(game.second, "?"),
                "winner": None if game.winner is None else names.get(game.winner, ""),
                "forfeit": game.forfeit})
        you: dict[str, object] | None = None
        if user is not None:
            current = next((g for g in reversed(games) if g.winner is None and g.table_id
                            and user.id in (g.first, g.second)), None)
            you = {"entered": user.id in names, "maker": row.creator == user.id,
                   "table": current.table_id if current else None}
        return {"id": row.id, "name": row.name, "description": row.description,
                "kind": row.kind, "status": row.status, "round": row.round,
                "starts": row.starts, "ends": row.ends, "reason": row.reason,
                "maker": maker, "settings": json.loads(row.settings),
                "standings": [{"rank": k, "name": s.name, "score": s.score,
                               "tiebreak": s.tiebreak, "played": s.played, "won": s.won,
                               "out": s.out} for k, s in enumerate(standings(entries, games), 1)],
                "rounds": [{"round": k, "games": v} for k, v in sorted(rounds.items())],
                "you": you}

    def create(self, body: dict[str, object], user: User, where: str) -> str:
        setup = checked(body, self.config.limits.tournament_capacity)
        most = self.config.limits.tournaments_per_account
        with self.store.writer.begin() as db:
            theirs = db.execute(select(func.count()).select_from(tournaments).where(
                tournaments.c.creator == user.id,
                tournaments.c.status.in_((ENTRY, RUNNING)))).scalar_one()
            if theirs >= most:
                raise Refused(f"you have {theirs} tournaments not over yet, the most one "
                              "account may have", 429)
            return Director.insert(db, setup.name, setup.description, setup.kind,
                                   setup.settings, time.time() + 60 * setup.starts_in,
                                   user.id, where)

    def join(self, tournament_id: str, user: User) -> None:
        with self.store.writer.begin() as db:
            row = db.execute(select(tournaments).where(
                tournaments.c.id == tournament_id)).one_or_none()
            if row is None:
                raise Refused("no such tournament", 404)
            if row.status != ENTRY:
                raise Refused("this tournament has started: entries are closed", 409)
            settings = json.loads(row.settings)
            count = db.execute(select(func.count()).select_from(entrants).where(
                entrants.c.tournament_id == tournament_id)).scalar_one()
            if count >= int(settings["capacity"]):
                raise Refused(f"this tournament is full ({count} players)", 409)
            if db.execute(select(entrants.c.user_id).where(
                    entrants.c.tournament_id == tournament_id,
                    entrants.c.user_id == user.id)).first() is not None:
                raise Refused("you have entered already", 409)
            pool = pool_of({"variant": settings["variant"], "kind": "match",
                            "length": settings["length"]})
            rating = self.accounts.rating(user.id, pool)[0].rating if pool else 1500.0
            db.execute(insert(entrants).values(
                tournament_id=tournament_id, user_id=user.id, name=user.name, rating=rating,
                joined=time.time(), score=0.0, out=False, byes=0, streak=0, seen=time.time()))

    def leave(self, tournament_id: str, user: User) -> str:
        with self.store.writer.begin() as db:
            status = db.execute(select(tournaments.c.status).where(
                tournaments.c.id == tournament_id)).scalar_one_or_none()
            mine = (entrants.c.tournament_id == tournament_id) & (entrants.c.user_id == user.id)
            if status == ENTRY and db.execute(delete(entrants).where(mine)).rowcount:
                return "left"
            if status == RUNNING and db.execute(update(entrants).where(mine).values(
                    out=True)).rowcount:
                return "withdrawn"
        raise Refused("you are not in this tournament, or it is over", 409)

    def start(self, tournament_id: str, user: User) -> None:
        with self.store.writer.begin() as db:
            row = db.execute(select(tournaments).where(
                tournaments.c.id == tournament_id)).one_or_none()
            if row is None or row.creator != user.id:
                raise Refused("only the tournament's maker starts it early", 403)
            count = db.execute(select(func.count()).select_from(entrants).where(
                entrants.c.tournament_id == tournament_id)).scalar_one()
            if row.status != ENTRY or count < 2:
                raise Refused("a tournament starts once two players have entered, and "
                              "only once", 409)
            values: dict[str, object] = {"starts": time.time()}
            if row.kind == "arena":
                values["ends"] = time.time() + 60 * json.loads(row.settings)["minutes"]
            db.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                       .values(**values))


class TournamentRoutes:
    """The tournaments' routes (module text)."""

    def __init__(self, desk: Desk, config: ServerConfig,
                 signed_in: Callable[[Request], Awaitable[User | None]]) -> None:
        self.desk, self.config, self.signed_in = desk, config, signed_in
        self.makes = Rates(config.rates.tournaments_per_day_per_address / 86400,
                           burst=config.rates.tournaments_per_day_per_address)

    def routes(self) -> list[BaseRoute]:
        return [Route("/tournaments", self.page), Route("/tournaments/{id}", self.page),
                Route("/api/tournaments", self.listing, methods=["GET"]),
                Route("/api/tournaments", self.create, methods=["POST"]),
                Route("/api/tournaments/{id}", self.one, methods=["GET"]),
                *(Route(f"/api/tournaments/{{id}}/{what}", self.entry, methods=["POST"])
                  for what in ("join", "leave", "start"))]

    async def page(self, request: Request) -> Response:
        single = "id" in request.path_params
        return FileResponse(STATIC / ("tournament.html" if single else "tournaments.html"))

    async def listing(self, request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(self.desk.listing))

    async def one(self, request: Request) -> Response:
        found = await asyncio.to_thread(self.desk.one, request.path_params["id"][:12],
                                        await self.signed_in(request))
        if found is None:
            return JSONResponse({"error": "no such tournament"}, status_code=404)
        return JSONResponse(found)

    async def user(self, request: Request, what: str) -> User:
        if not same_origin(request):
            raise Refused(f"tournaments are {what} from this site's own pages", 403)
        user = await self.signed_in(request)
        if user is None:
            raise Refused("sign in to play in tournaments: they are for accounts", 401)
        return user

    async def create(self, request: Request) -> Response:
        try:
            user = await self.user(request, "made")
            body = await read_json(request, self.config.limits.request_bytes)
            if not self.makes.take(address(request)):
                raise Refused("this address has made its tournaments of the day", 429)
            made = await asyncio.to_thread(self.desk.create, body, user,
                                           address_hash(address(request)))
        except Refused as refused:
            return JSONResponse({"error": str(refused)}, status_code=refused.status)
        except (GammonError, InvalidOptionError) as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        return JSONResponse({"id": made, "url": f"/tournaments/{made}"}, status_code=201)

    async def entry(self, request: Request) -> Response:
        what = request.url.path.rsplit("/", 1)[1]
        tournament_id = request.path_params["id"][:12]
        try:
            user = await self.user(request, "entered")
            await read_json(request, self.config.limits.request_bytes)
            if what == "join":
                await asyncio.to_thread(self.desk.join, tournament_id, user)
                answer = "entered"
            elif what == "leave":
                answer = await asyncio.to_thread(self.desk.leave, tournament_id, user)
            else:
                await asyncio.to_thread(self.desk.start, tournament_id, user)
                answer = "starting"
        except Refused as refused:
            return JSONResponse({"error": str(refused)}, status_code=refused.status)
        return JSONResponse({"status": answer})


__all__ = ["Desk", "TournamentRoutes"]
