"""The player pages: ``/u/NAME``, what an account has played and how it stands.

- ``GET /api/players/NAME``: the account's ratings by pool, each with its history (the
  rating after each rated result, oldest first: the page's graph), its results against
  each bot level it has played, and its last games;
- ``GET /api/players/NAME/games``: its finished games, newest first, a page at a time,
  found by ``opponent`` (an account's name or a bot level), ``game`` (a variant, or a
  rotation such as ``tavli``), ``since`` and ``until`` (days, ``YYYY-MM-DD``, UTC, both
  included), ``limit`` (1 to :data:`PAGE`) and ``before`` (the ``next`` of the page
  before). Each game links to its table, review, JSON record and, where it has one,
  its ``.mat`` file.

Every parameter is checked against an allow-list before anything is read, and a search
reads at most :data:`SCANNED` of the account's tables (a page that stops there says where
to go on from). Nothing here is secret: a table's page, record and review are open to
anyone once play is over; the dice's seed in the stored settings never leaves.
"""

from __future__ import annotations

import asyncio
import datetime
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from sqlalchemy import and_, select
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from gammon.core.errors import InvalidOptionError
from gammon.core.variant import variant, variant_names
from gammon.stakes.match import ROTATIONS, rotation
from gammon.web.accounts import LISTED_AFTER
from gammon.web.config import DEFAULT, HUMAN, ServerConfig
from gammon.web.names import keys, normal
from gammon.web.rates import Rates
from gammon.web.requests import address
from gammon.web.store import (
    ARCHIVED,
    OVER,
    Store,
    rating_history,
    ratings,
    seats,
    tables,
    users,
)

STATIC = Path(__file__).resolve().parent / "static"
#: Games on a page at most.
PAGE = 50
#: An account's tables a search reads at most, and in one query.
SCANNED, BATCH = 2000, 200
#: Points of a pool's rating history given.
HISTORY = 500
#: The parameters a search takes.
SEARCH = frozenset({"opponent", "game", "since", "until", "before", "limit"})
DAY = 86400.0


class Opponent(TypedDict):
    name: str  # an account's, a guest's (may be empty) or a bot's level
    account: bool
    bot: bool


class Game(TypedDict):
    """A finished game as the pages show it."""

    id: str
    game: str
    kind: str
    length: int | None
    rated: bool
    at: float
    status: str
    result: str  # "won", "lost", or "" where not known
    opponents: list[Opponent]
    links: dict[str, str]


class Point(TypedDict):
    at: float
    rating: float
    table: str


class Standing(TypedDict):
    rating: float
    deviation: float
    games: int
    provisional: bool
    history: list[Point]


class Tally(TypedDict):
    game: str
    level: str
    won: int
    lost: int


@dataclass(frozen=True)
class Stored:
    """One of an account's tables as stored, with the account's seat."""

    id: str
    settings: str
    status: str
    updated: float
    winner: int
    seat: int


@dataclass(frozen=True)
class Search:
    """A checked search of an account's games."""

    opponent: tuple[str, str] | None = None  # the name's keys (names.keys), or a level
    level: str | None = None
    game: str | None = None
    since: float | None = None
    until: float | None = None
    before: tuple[float, str] | None = None
    limit: int = 20

    @classmethod
    def read(cls, query: dict[str, str], levels: set[str]) -> Search:
        """The search a query string asks for; InvalidOptionError saying what is wrong
        with it and what is allowed."""
        unknown = set(query) - SEARCH
        if unknown:
            raise InvalidOptionError(f"unknown parameters {sorted(u[:20] for u in unknown)[:5]}"
                                     f"; a search takes {', '.join(sorted(SEARCH))}")
        opponent, level = query.get("opponent", "").strip(), None
        if len(opponent) > 40:
            raise InvalidOptionError("opponent is an account's name or a bot level")
        if opponent.lower() in levels:
            opponent, level = "", opponent.lower()
        game = query.get("game", "").strip()
        if game and game not in variant_names() and game not in ROTATIONS:
            raise InvalidOptionError(
                f"game {game[:40]!r} is not one played here: "
                f"{', '.join([*variant_names(), *ROTATIONS])}")
        limit = query.get("limit", "20")
        if not limit.isdigit() or not 1 <= int(limit) <= PAGE:
            raise InvalidOptionError(f"limit is a whole number from 1 to {PAGE}")
        return cls(opponent=keys(normal(opponent)) if opponent else None, level=level,
                   game=game or None,
                   since=_day(query["since"], "since") if query.get("since") else None,
                   until=_day(query["until"], "until") + DAY if query.get("until") else None,
                   before=_cursor(query["before"]) if query.get("before") else None,
                   limit=int(limit))


def _day(text: str, name: str) -> float:
    try:
        day = datetime.date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise InvalidOptionError(f"{name} is a day written YYYY-MM-DD, such as 2026-12-07")
    return datetime.datetime(day.year, day.month, day.day,
                             tzinfo=datetime.UTC).timestamp()


def _cursor(text: str) -> tuple[float, str]:
    """A page's ``next``: the time and table of the last game it read."""
    at, _, table_id = text.partition("~")
    try:
        when = float(at)
    except ValueError:
        when = -1.0
    if not (0 <= when < 1e11 and len(table_id) <= 32 and table_id.isalnum()):
        raise InvalidOptionError("before is the next of the page before, as it was given")
    return when, table_id


def _settings(text: str) -> dict[str, object]:
    try:
        settings = json.loads(text)
    except ValueError:
        return {}
    return settings if isinstance(settings, dict) else {}


class Players:
    """What the player pages read from the store, and how a bot's spec is shown."""

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.store, self.config = store, config

    def levels(self) -> set[str]:
        """Every bot level offered in some game here."""
        return {level for name in variant_names()
                for level in self.config.menu(variant(name))}

    def level_of(self, game: str, spec: str) -> str:
        """The level a bot seat of ``game`` plays at, as the lobby named it (its spec
        where no level of this server's menu runs it)."""
        games_in_turn = rotation(game)
        try:
            menu = (self.config.shared_menu(games_in_turn.rules()) if games_in_turn
                    else self.config.menu(variant(game)))
        except (KeyError, ValueError, InvalidOptionError):
            return spec
        for name, level in menu.items():
            if level.spec == spec or (spec == DEFAULT and name == "best"):
                return name
        return spec

    def account(self, name: str) -> tuple[int, str, float] | None:
        """The account called ``name`` (compared as names are: by their keys)."""
        if not name or len(name) > 40:
            return None
        with self.store.engine.connect() as db:
            found = db.execute(select(users.c.id, users.c.name, users.c.created)
                               .where(users.c.key == keys(normal(name))[0])).one_or_none()
        return None if found is None else (int(found.id), str(found.name),
                                           float(found.created))

    def ratings(self, user_id: int) -> dict[str, Standing]:
        """Each pool's rating and its history, oldest first."""
        with self.store.engine.connect() as db:
            standing = db.execute(select(ratings).where(ratings.c.user_id == user_id)).all()
            out: dict[str, Standing] = {}
            for row in standing:
                points = db.execute(
                    select(rating_history.c.at, rating_history.c.rating,
                           rating_history.c.table_id)
                    .where(rating_history.c.user_id == user_id,
                           rating_history.c.pool == row.pool)
                    .order_by(rating_history.c.at.desc()).limit(HISTORY)).all()
                out[row.pool] = {
                    "rating": round(row.rating, 2), "deviation": round(row.deviation, 2),
                    "games": row.games, "provisional": row.games < LISTED_AFTER,
                    "history": [{"at": p.at, "rating": round(p.rating, 2),
                                 "table": p.table_id} for p in reversed(points)]}
        return out

    def games(self, user_id: int, search: Search) -> tuple[list[Game], str | None]:
        """A page of the account's finished games that ``search`` finds, newest first,
        and where the next page starts (None: no more)."""
        found: list[Game] = []
        before = search.before
        scanned = 0
        while scanned < SCANNED:
            rows = self._batch(user_id, search, before)
            if not rows:
                return found, None
            scanned += len(rows)
            others = self._others([row.id for row in rows])
            for row in rows:
                before = (row.updated, row.id)
                game = self._game(row, others.get(row.id, {}))
                if game is not None and self._wanted(game, search):
                    found.append(game)
                    if len(found) == search.limit:
                        return found, f"{row.updated!r}~{row.id}"
            if len(rows) < BATCH:
                return found, None
        assert before is not None
        return found, f"{before[0]!r}~{before[1]}"

    def _batch(self, user_id: int, search: Search,
               before: tuple[float, str] | None) -> list[Stored]:
        query = (select(tables.c.id, tables.c.settings, tables.c.status, tables.c.updated,
                        tables.c.winner, seats.c.seat)
                 .join(seats, seats.c.table_id == tables.c.id)
                 .where(seats.c.user_id == user_id, tables.c.status.in_((OVER, ARCHIVED))))
        if search.since is not None:
            query = query.where(tables.c.updated >= search.since)
        if search.until is not None:
            query = query.where(tables.c.updated < search.until)
        if before is not None:
            at, table_id = before
            query = query.where((tables.c.updated < at)
                                | and_(tables.c.updated == at, tables.c.id < table_id))
        query = query.order_by(tables.c.updated.desc(), tables.c.id.desc()).limit(BATCH)
        with self.store.engine.connect() as db:
            return [Stored(str(row.id), str(row.settings), str(row.status), float(row.updated),
                           int(row.winner), int(row.seat)) for row in db.execute(query)]

    def _others(self, table_ids: list[str]) -> dict[str, dict[int, tuple[int | None, str]]]:
        """Each table's taken seats: the account in it (or None) and its name."""
        with self.store.engine.connect() as db:
            rows = db.execute(select(seats.c.table_id, seats.c.seat, seats.c.user_id,
                                     seats.c.name).where(seats.c.table_id.in_(table_ids)))
            out: dict[str, dict[int, tuple[int | None, str]]] = {}
            for row in rows:
                out.setdefault(row.table_id, {})[row.seat] = (row.user_id, row.name)
        return out

    def _game(self, row: Stored, taken: dict[int, tuple[int | None, str]]) -> Game | None:
        """A game as the pages show it, from its stored row (None if the row does not
        read)."""
        settings = _settings(row.settings)
        game, specs = settings.get("variant"), settings.get("seats")
        if not isinstance(game, str) or not isinstance(specs, list):
            return None
        opponents: list[Opponent] = []
        for seat, stored in enumerate(specs):
            spec = stored.get("kind") if isinstance(stored, dict) else stored
            if seat == row.seat or not isinstance(spec, str):
                continue
            if spec == HUMAN:
                user, name = taken.get(seat, (None, ""))
                opponents.append({"name": name, "account": user is not None, "bot": False})
            else:
                opponents.append({"name": self.level_of(game, spec), "account": False,
                                  "bot": True})
        result = "" if row.winner < 0 else "won" if row.winner == row.seat else "lost"
        links = {"table": f"/t/{row.id}", "review": f"/t/{row.id}/review",
                 "record": f"/api/tables/{row.id}/record"}
        if len(specs) == 2 and game in variant_names() and \
                variant(game).notation == "gnu":
            links["mat"] = f"/api/tables/{row.id}/match.mat"
        kind, length = settings.get("kind", "game"), settings.get("length")
        return {"id": row.id, "game": game, "kind": str(kind),
                "length": length if isinstance(length, int) else None,
                "rated": bool(settings.get("rated")), "at": row.updated,
                "status": row.status, "result": result, "opponents": opponents,
                "links": links}

    @staticmethod
    def _wanted(game: Game, search: Search) -> bool:
        if search.game is not None and game["game"] != search.game:
            return False
        if search.level is not None:
            return any(o["bot"] and o["name"] == search.level for o in game["opponents"])
        if search.opponent is not None:
            return any(o["account"] and keys(normal(o["name"]))[0] == search.opponent[0]
                       for o in game["opponents"])
        return True

    def against_bots(self, user_id: int) -> list[Tally]:
        """The account's results against each bot level it played alone, by game (over
        its last :data:`SCANNED` tables)."""
        tally: dict[tuple[str, str], Tally] = {}
        before = None
        for _ in range(SCANNED // BATCH):
            rows = self._batch(user_id, Search(), before)
            for row in rows:
                before = (row.updated, row.id)
                game = self._game(row, {})
                if game is None or not game["result"]:
                    continue
                bots = [o["name"] for o in game["opponents"] if o["bot"]]
                if len(bots) == 1 and len(game["opponents"]) == 1:
                    entry = tally.setdefault((game["game"], bots[0]), {
                        "game": game["game"], "level": bots[0], "won": 0, "lost": 0})
                    if game["result"] == "won":
                        entry["won"] += 1
                    else:
                        entry["lost"] += 1
            if len(rows) < BATCH:
                break
        return sorted(tally.values(), key=lambda e: (e["game"], e["level"]))


class PlayerRoutes:
    """The player pages' routes."""

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.players = Players(store, config)
        self.levels = self.players.levels()
        self.lookups = Rates.per_minute(config.rates.player_lookups_per_minute_per_address)

    def routes(self) -> list[BaseRoute]:
        return [Route("/u/{name}", self.page),
                Route("/api/players/{name}", self.player),
                Route("/api/players/{name}/games", self.games)]

    async def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "player.html")

    async def account(self, request: Request) -> tuple[int, str, float] | Response:
        """The account the path names, or why not."""
        if not self.lookups.take(address(request)):
            return JSONResponse({"error": "you are looking players up too fast: wait a "
                                 "minute"}, status_code=429)
        found = await asyncio.to_thread(self.players.account, request.path_params["name"])
        if found is None:
            return JSONResponse({"error": "no account has that name"}, status_code=404)
        return found

    async def player(self, request: Request) -> Response:
        found = await self.account(request)
        if isinstance(found, Response):
            return found
        user_id, name, created = found
        standing, (games, after), bots = await asyncio.gather(
            asyncio.to_thread(self.players.ratings, user_id),
            asyncio.to_thread(self.players.games, user_id, Search()),
            asyncio.to_thread(self.players.against_bots, user_id))
        return JSONResponse({"name": name, "since": created, "ratings": standing,
                             "bots": bots, "games": games, "next": after})

    async def games(self, request: Request) -> Response:
        try:
            search = Search.read(dict(request.query_params), self.levels)
        except InvalidOptionError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        found = await self.account(request)
        if isinstance(found, Response):
            return found
        games, after = await asyncio.to_thread(self.players.games, found[0], search)
        return JSONResponse({"games": games, "next": after})


__all__ = ["PlayerRoutes", "Players", "Search"]
