"""The web server: a lobby of tables, and live play over websockets.

:func:`create_app` builds the ASGI application (Starlette; ``gammon serve`` runs it with
uvicorn). Pages:

- ``/``: the lobby: create a table, see the open ones, take a free seat, watch;
- ``/t/ID``: a table's page; a person's seat link adds ``#token=...`` (after the ``#``,
  so the browser never sends it to a server or a proxy's log);
- ``/u/NAME``: a player's page (:mod:`gammon.web.players`);
- ``/rules/NAME``: a rules page (``backgammon``, ``long-nardy``, ``stakes``...: the
  names of docs/rules/*.md), its Markdown as plain text.

JSON under ``/api``:

- ``GET /api/variants``: what can be played (players, the bot levels offered, whether
  with the cube, and the options a table sets: name, default, lowest and highest);
- ``GET /api/tables``, ``POST /api/tables`` (create: the variant, the seats, each
  ``human`` or a bot level, the kind of table and its stakes; the answer holds the
  creator's seat link);
- ``POST /api/tables/ID/seats``: take a free person's seat (its link in the answer);
- ``GET /api/tables/ID/record``: the table's JSON log, seed included, once play is over
- ``GET /api/tables/ID/match.mat``: the games as a ``.mat`` match file, as gnubg and
  eXtreme Gammon read them (the backgammon family), once play is over
  (``gammon verify`` checks it);
- ``GET /api/pools``, ``POST /api/pools/join``, ``/wait``, ``/leave``, ``/bot``: quick
  pairing (:mod:`gammon.web.pairing`);
- ``/tournaments`` and ``GET /api/tournaments...``: tournaments
  (:mod:`gammon.web.tournament_routes`, run by :mod:`gammon.web.director`);
- ``GET /api/players/NAME`` and ``/api/players/NAME/games``: an account's ratings,
  results and games (:mod:`gammon.web.players`);
- ``POST /api/engine/hint``, ``/cube``, ``/evaluate`` and ``GET
  /api/engine/openapi.json``: the engine's analyses for other programs
  (:mod:`gammon.web.engine`).

``/ws/ID``: the table, live (:mod:`gammon.web.live`).

Everything a client sends is an attacker's until checked (docs/security.md): request
bodies are JSON objects of at most ``limits.request_bytes``, checked field by field
against allow-lists; table creation is limited per address in rate and in open tables;
every response carries a Content-Security-Policy that allows no inline script, and the
usual headers against framing, sniffing and leaking the page's address.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import gc
import json
import logging
import os
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypedDict, TypeVar, TypeVarTuple

from starlette.applications import Starlette
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
)
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from gammon.analysis.cli import network_evaluator
from gammon.analysis.review import html, review
from gammon.core.errors import GammonError, InvalidOptionError
from gammon.core.pages import rules_pages
from gammon.core.variant import variant, variant_names
from gammon.notation.mat import write_match
from gammon.stakes.match import ROTATIONS
from gammon.table.table import Seat, Table
from gammon.web.accounts import LOGIN_DAYS, AccountError, Accounts, User, cookie_name
from gammon.web.config import ServerConfig, load_config
from gammon.web.creation import table_settings, yes_no
from gammon.web.director import Director
from gammon.web.engine import Engine
from gammon.web.live import POLICY, Live
from gammon.web.pairing import Pairing, PairingRoutes
from gammon.web.players import PlayerRoutes
from gammon.web.rates import Rates
from gammon.web.requests import Refused, address, read_json, same_origin, secure
from gammon.web.room import Room, seat_names
from gammon.web.rooms import TABLE_ID, Lobby, Unavailable
from gammon.web.store import OPEN, OVER, QUARANTINED, Saved, Store, address_hash
from gammon.web.tournament_routes import Desk, TournamentRoutes

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("gammon.web")
_T = TypeVar("_T")
_Args = TypeVarTuple("_Args")
#: Every response's security headers. The boards are SVG drawn by the server and put
#: into the page by the page's own script; nothing runs that is not a file of ours.
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
     b"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
     b"form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
]
#: Finished tables' reviews kept in memory (they never change), and the seconds one may
#: take to make.
REVIEWS = 32
REVIEW_SECONDS = 60.0


class Gate:
    """ASGI middleware outside all of the application, its error handler included:
    a request for a host name the server does not answer for (``ServerConfig.hosts``) is
    answered 400, on HTTP and websockets alike, and every answer the application makes
    (a page, a 500, a redirect, a websocket's handshake or its refusal) carries
    :data:`SECURITY_HEADERS`. The answers uvicorn makes without the application (a request
    it cannot parse, a websocket refused before the application accepts it) get them from
    :mod:`gammon.web.serving`."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str]) -> None:
        self.app = TrustedHostMiddleware(app, allowed_hosts=list(hosts), www_redirect=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start",
                                   "websocket.accept"):
                message = {**message, "headers": [*message.get("headers", []),
                                                  *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)


class GatedStarlette(Starlette):
    """Starlette with :class:`Gate` outside its whole middleware stack (``add_middleware``
    puts a middleware inside the error handler, whose 500 would go without the
    headers)."""

    hosts: tuple[str, ...] = ("*",)

    def build_middleware_stack(self) -> ASGIApp:
        return Gate(super().build_middleware_stack(), self.hosts)


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def bot_ratings() -> dict[str, dict[str, int]]:
    """Each variant's bot levels on the players' rating scale, as measured by duels
    (``benchmarks/bot_ratings.py``), by variant and the bot a level runs."""
    path = STATIC.parent / "data" / "bot_ratings.json"
    if not path.exists():
        return {}
    measured = json.loads(path.read_text())["variants"]
    return {name: {level["bot"]: level["rating"] for level in found["levels"].values()}
            for name, found in measured.items()}


class Listing(TypedDict):
    """The lobby's list of tables as last sent (JSON text), and when it was made."""

    at: float
    json: str


def _variants(config: ServerConfig) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    ratings = bot_ratings()
    for name in variant_names():
        rules = variant(name)
        # A level's rating is shown when it runs the bot that was measured (an operator
        # may give a level another bot).
        levels = [{"name": level.name, "bot": level.spec, "summary": level.summary,
                   "rating": ratings.get(name, {}).get(level.spec)}
                  for level in config.menu(rules).values()]
        options = [{"name": option, "default": getattr(rules, option), "low": low,
                    "high": high} for option, (low, high) in rules.table_options.items()]
        kinds = ["game", "match", "money"] if rules.game_type.stakes else ["game", "money"]
        out.append({"name": name, "players": rules.players, "summary": rules.summary,
                    "bots": levels, "cube": rules.cube, "options": options, "kinds": kinds})
    for games_in_turn in ROTATIONS.values():
        variants = games_in_turn.rules()
        levels = [{"name": level.name, "bot": level.spec, "summary": level.summary,
                   "rating": None} for level in config.shared_menu(variants).values()]
        out.append({"name": games_in_turn.name, "players": 2,
                    "summary": games_in_turn.summary, "bots": levels,
                    "cube": any(rules.cube for rules in variants), "options": [],
                    "kinds": ["match"], "games": list(games_in_turn.variants)})
    return out


class AccountRoutes:
    """Accounts over HTTP: signing up, in and out, who is signed in, the leaderboards.

    Argon2id takes a core for a tenth of a second by design: passwords are hashed in a
    pool of their own, one at a time, never in the threads every move's transaction runs
    in, and no more than a few wait (docs/security.md: sign-ins stall no table)."""

    def __init__(self, accounts: Accounts, config: ServerConfig) -> None:
        self.accounts = accounts
        self.config = config
        self.sign_ins = Rates.per_minute(config.rates.sign_ins_per_minute_per_address)
        self.account_tries = Rates(config.rates.sign_ins_per_hour_per_account / 3600,
                                   burst=config.rates.sign_ins_per_hour_per_account)
        self.hashing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gammon-argon2")
        self.hashing_now = 0
        self.pools = {f"{name}:game" for name in variant_names()} | {
            f"{name}:match{n}" for name in [*variant_names(), *ROTATIONS]
            if name in ROTATIONS or variant(name).game_type.stakes for n in range(1, 26)}

    def routes(self) -> list[Route]:
        return [
            Route("/api/signup", self.sign_up, methods=["POST"]),
            Route("/api/signin", self.sign_in, methods=["POST"]),
            Route("/api/signout", self.sign_out, methods=["POST"]),
            Route("/api/me", self.me),
            Route("/api/leaderboard", self.leaderboard),
        ]

    def close(self) -> None:
        self.hashing.shutdown(wait=False, cancel_futures=True)

    async def hashed(self, work: Callable[[*_Args], _T], *args: *_Args) -> _T:
        """``work(*args)``, which hashes a password, in the hashing pool: 503 when as
        many as the limit are there already."""
        if self.hashing_now >= self.config.rates.hashing_queue:
            raise Refused("the server is busy signing people in: try again in a few "
                          "seconds", 503)
        self.hashing_now += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self.hashing, functools.partial(work, *args))
        finally:
            self.hashing_now -= 1

    async def signed_in(self, connection: HTTPConnection) -> User | None:
        token = connection.cookies.get(cookie_name(secure(connection)))
        return await asyncio.to_thread(self.accounts.user_of, token) if token else None

    async def account(self, request: Request, new: bool) -> Response:
        accounts = self.accounts
        try:
            if not same_origin(request):
                raise Refused("sign in from this site's own pages", 403)
            body = await read_json(request, self.config.limits.request_bytes)
            if not self.sign_ins.take(address(request)):
                raise Refused("too many tries: wait a minute", 429)
            unknown = set(body) - {"name", "password"}
            if unknown:
                raise Refused(f"unknown fields {sorted(str(u)[:20] for u in unknown)[:3]}; "
                              "send name and password")
            name = body.get("name")
            if new:
                user = await self.hashed(accounts.sign_up, name, body.get("password"),
                                         address_hash(address(request)),
                                         self.config.rates.sign_ups_per_day_per_address)
            else:
                if not self.account_tries.take(accounts.tries_key(name)):
                    raise Refused("too many tries at this account: try again within the "
                                  "hour", 429)
                user = await self.hashed(accounts.sign_in, name, body.get("password"))
            token = await asyncio.to_thread(accounts.new_login, user)
        except Refused as refused:
            return _error(str(refused), refused.status)
        except AccountError as error:
            return _error(str(error), error.status)
        answer = JSONResponse({"name": user.name}, status_code=201 if new else 200)
        # No Domain: the cookie is this host's alone (a __Host- cookie must have none).
        answer.set_cookie(cookie_name(secure(request)), token, max_age=LOGIN_DAYS * 86400,
                          httponly=True, samesite="lax", secure=secure(request), path="/")
        return answer

    async def sign_up(self, request: Request) -> Response:
        return await self.account(request, True)

    async def sign_in(self, request: Request) -> Response:
        return await self.account(request, False)

    async def sign_out(self, request: Request) -> Response:
        """This login ends; with ``{"everywhere": true}``, every login of its account."""
        try:
            if not same_origin(request):
                raise Refused("sign out from this site's own pages", 403)
            body = await read_json(request, self.config.limits.request_bytes)
            if set(body) - {"everywhere"}:
                raise Refused("send {} to sign out here, {\"everywhere\": true} to sign "
                              "out on every device")
            everywhere = yes_no(body.get("everywhere", False), "everywhere")
        except Refused as refused:
            return _error(str(refused), refused.status)
        except GammonError as error:
            return _error(str(error))
        name = cookie_name(secure(request))
        ended = await asyncio.to_thread(self.accounts.sign_out, request.cookies.get(name),
                                        everywhere)
        answer = JSONResponse({"name": None, "ended": ended})
        answer.delete_cookie(name, path="/", secure=secure(request), httponly=True)
        return answer

    async def me(self, request: Request) -> Response:
        user = await self.signed_in(request)
        if user is None:
            return JSONResponse({"name": None})
        found = await asyncio.to_thread(self.accounts.ratings_of, user.id)
        return JSONResponse({"name": user.name, "ratings": found})

    async def leaderboard(self, request: Request) -> Response:
        pool = request.query_params.get("pool", "backgammon:game")
        if pool not in self.pools:
            return _error("pool is a variant and a kind of play: backgammon:game, "
                          "backgammon:match5 (matches of 1 to 25 points)")
        rows = await asyncio.to_thread(self.accounts.leaderboard, pool)
        return JSONResponse({"pool": pool, "players": rows})


class TableRoutes:
    """The tables over HTTP and their sockets: the list, making one, taking a seat, a
    rematch, playing (``/ws/ID``)."""

    def __init__(self, store: Store, lobby: Lobby, live: Live, config: ServerConfig,
                 accounts: AccountRoutes, creations: Rates) -> None:
        self.store, self.lobby, self.live, self.config = store, lobby, live, config
        self.signed_in = accounts.signed_in
        self.creations = creations
        self.sockets_per_minute = Rates.per_minute(
            config.rates.sockets_per_minute_per_address)
        self.variants_json = json.dumps(_variants(config))
        self.listing: Listing = {"at": 0.0, "json": "[]"}

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/variants", self.variants),
            Route("/api/tables", self.list_tables, methods=["GET"]),
            Route("/api/tables", self.create, methods=["POST"]),
            Route("/api/tables/{id}/seats", self.take_seat, methods=["POST"]),
            Route("/api/tables/{id}/rematch", self.rematch, methods=["POST"]),
            WebSocketRoute("/ws/{id}", self.websocket),
        ]

    async def variants(self, request: Request) -> Response:
        return Response(self.variants_json, media_type="application/json")

    async def list_tables(self, request: Request) -> Response:
        # Every browser in the lobby asks every few seconds: one query a second at most.
        if time.monotonic() - self.listing["at"] > 1.0:
            rows = await asyncio.to_thread(self.store.listing, self.config.limits.lobby_rows)
            self.listing["json"] = json.dumps([_row(saved, taken) for saved, taken in rows])
            self.listing["at"] = time.monotonic()
        return Response(self.listing["json"], media_type="application/json")

    async def create(self, request: Request) -> Response:
        try:
            if not same_origin(request):
                raise Refused("tables are made from this site's own pages", 403)
            body = await read_json(request, self.config.limits.request_bytes)
            if not self.creations.take("create " + address(request)):
                raise Refused("you are making tables too fast: wait a minute", 429)
            user = await self.signed_in(request)
            data, seed = self.lobby.seating.table_data(
                signed_in=user is not None, **table_settings(body, self.config))
            room, seat, token = await self.lobby.seating.create(
                data, seed, address_hash(address(request)), user)
        except (Refused, Unavailable) as refused:
            return _error(str(refused), refused.status)
        except (GammonError, TypeError, ValueError) as error:
            return _error(str(error))
        self.listing["at"] = 0.0  # the next lobby shows it
        return JSONResponse(_seat_link(room, seat, token), status_code=201)

    async def take_seat(self, request: Request) -> Response:
        try:
            if not same_origin(request):
                raise Refused("seats are taken from this site's own pages", 403)
            body = await read_json(request, self.config.limits.request_bytes)
            if not self.creations.take("seat " + address(request)):
                raise Refused("you are taking seats too fast: wait a minute", 429)
            unknown = set(body) - {"seat"}
            if unknown:
                raise Refused(f"unknown fields {sorted(unknown)[:5]}; a seat request takes "
                              "\"seat\" (a number) or nothing")
            wanted = body.get("seat")
            if wanted is not None and (not isinstance(wanted, int) or isinstance(wanted, bool)):
                raise InvalidOptionError("seat is a number")
            room = await self.lobby.room(request.path_params["id"][:32])
            seat, token = await self.lobby.seating.take(
                room, wanted, await self.signed_in(request), address_hash(address(request)))
        except (Refused, Unavailable) as refused:
            return _error(str(refused), refused.status)
        except GammonError as error:
            return _error(str(error))
        self.listing["at"] = 0.0
        return JSONResponse(_seat_link(room, seat, token), status_code=201)

    async def rematch(self, request: Request) -> Response:
        try:
            if not same_origin(request):
                raise Refused("rematches are asked for from this site's own pages", 403)
            body = await read_json(request, self.config.limits.request_bytes)
            if not self.creations.take("create " + address(request)):
                raise Refused("you are making tables too fast: wait a minute", 429)
            unknown = set(body) - {"token"}
            if unknown:
                raise Refused("a rematch request takes the seat's token, or nothing when "
                              "signed in")
            room = await self.lobby.room(request.path_params["id"][:32])
            token = body.get("token")
            user = await self.signed_in(request)
            seat = room.seat_of(token if isinstance(token, str) and len(token) <= 64
                                else None)
            if seat is None and user is not None:
                seat = next((p for p, u in room.users.items() if u == user.id), None)
            if seat is None:
                raise Refused("only the players of this table can ask for its rematch", 403)
            new_room, new_seat, new_token = await self.lobby.seating.rematch(
                room, seat, user, address_hash(address(request)))
        except (Refused, Unavailable) as refused:
            return _error(str(refused), refused.status)
        except GammonError as error:
            return _error(str(error))
        self.listing["at"] = 0.0
        return JSONResponse(_seat_link(new_room, new_seat, new_token), status_code=201)

    async def websocket(self, socket: WebSocket) -> None:
        where = address(socket)
        why = None if same_origin(socket) else "not from this site's pages"
        if why is None and not self.sockets_per_minute.take(where):
            why = "too many connections a minute"
        why = why or self.live.admit(where)
        if why is not None:
            await socket.close(POLICY, why)  # before accepting: the handshake is refused
            return
        await self.live.serve(socket, where, socket.path_params["id"][:32],
                              await self.signed_in(socket))


class PageRoutes:
    """The pages (lobby, table, rules) and what a finished table gives: its record, its
    .mat file, its review."""

    def __init__(self, store: Store, lobby: Lobby, config: ServerConfig,
                 creations: Rates) -> None:
        self.store, self.lobby, self.config, self.creations = store, lobby, config, creations
        # The rules pages, read once: a few hundred kilobytes in all.
        self.rules_texts = {name: page.read_text(encoding="utf-8")
                            for name, page in rules_pages().items()}
        self.reviews: OrderedDict[str, str] = OrderedDict()
        self.reviewing: dict[str, int] = {}  # reviews being made, by hashed address

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/", self.lobby_page),
            Route("/t/{id}", self.table_page),
            Route("/rules/{name}", self.rules_page),
            Route("/api/tables/{id}/record", self.record),
            Route("/api/tables/{id}/match.mat", self.match_file),
            Route("/t/{id}/review", self.review_page),
        ]

    async def lobby_page(self, request: Request) -> Response:
        return FileResponse(STATIC / "lobby.html")

    async def rules_page(self, request: Request) -> Response:
        text = self.rules_texts.get(request.path_params["name"])
        if text is None:
            return _error(f"no such rules page; the pages: {', '.join(self.rules_texts)}",
                          404)
        return PlainTextResponse(text)

    async def table_page(self, request: Request) -> Response:
        table_id = request.path_params["id"]
        saved = await asyncio.to_thread(self.store.row, table_id) \
            if TABLE_ID.fullmatch(table_id) else None
        if saved is None:
            return _error("no such table", 404)
        if saved.status == QUARANTINED:
            return _error("this table is set aside: its record does not replay", 410)
        return FileResponse(STATIC / "table.html")

    async def finished(self, request: Request) -> Room | Response:
        try:
            room = await self.lobby.room(request.path_params["id"][:32])
        except Unavailable as gone:
            return _error(str(gone), gone.status)
        if room.status == OPEN:
            return _error("the record (with the dice's seed) is given once play is over", 409)
        return room

    async def record(self, request: Request) -> Response:
        room = await self.finished(request)
        if isinstance(room, Response):
            return room
        data = room.table.to_json()
        data["commitment"] = room.commitment
        for seat, name in room.players.items():
            data["seats"][seat]["name"] = name
        return JSONResponse(data, headers={
            "Content-Disposition": f'attachment; filename="gammon-{room.id}.json"'}
            if request.query_params.get("download") else None)

    async def match_file(self, request: Request) -> Response:
        room = await self.finished(request)
        if isinstance(room, Response):
            return room
        table = room.table
        if not table.writes_mat:
            return _error(f"a .mat file holds backgammon; {table.name}'s record is "
                          "its JSON log (/record)", 409)
        text = write_match(table.length, room.names, table.series.games,
                           [f'[Variation "{table.variant.name}"]', f"gammon table {room.id}"])
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="gammon-{room.id}.mat"'})

    async def review_page(self, request: Request) -> Response:
        room = await self.finished(request)
        if isinstance(room, Response):
            return room
        page = self.reviews.get(room.id)
        if page is None:
            if not self.creations.take("review " + address(request)):
                return _error("you are asking for reviews too fast: wait a minute", 429)
            owner = address_hash(address(request))
            if self.reviewing.get(owner, 0) >= self.config.limits.reviews_per_address:
                return _error("a review you asked for is being made: wait for it, then ask "
                              "for the next", 429)
            made = await self.made_review(room, owner)
            if isinstance(made, Response):
                return made
            page = self.reviews[room.id] = made
            while len(self.reviews) > REVIEWS:
                self.reviews.popitem(last=False)
        return HTMLResponse(page)

    async def made_review(self, room: Room, owner: str) -> str | Response:
        """The review page of ``room``, made in the address's share of the bots' workers,
        never ahead of the others; or why not."""
        self.reviewing[owner] = self.reviewing.get(owner, 0) + 1
        try:
            page: str = await self.lobby.thinkers.run(
                review_page_of, room.table.to_json(), room.names, room.id,
                budget=REVIEW_SECONDS, owner=owner)
        except GammonError as error:
            return _error(str(error), 409)
        except TimeoutError:
            return _error("the review took too long; it is not made for this table", 503)
        finally:
            self.reviewing[owner] -= 1
            if not self.reviewing[owner]:
                del self.reviewing[owner]
        return page


def create_app(database: str = "sqlite:///gammon.db", bot_delay: float | None = None,
               config: ServerConfig | None = None) -> Starlette:
    """The application, its tables kept in ``database`` (an SQLAlchemy URL)."""
    config = config or ServerConfig()
    if bot_delay is not None:
        config = dataclasses.replace(config, bot_delay=bot_delay)
    store = Store(database)
    # Nobody signs up as a bot: the level names and the agents they run are kept.
    accounts = Accounts(store, {word for name in variant_names()
                                for level in config.menu(variant(name)).values()
                                for word in (level.name, level.spec.split(":")[0])})
    lobby = Lobby(store, config)
    live = Live(lobby, config)
    engine = Engine(config, lobby.thinkers)  # /api/engine: analyses in the bots' workers
    director = Director(lobby, config)
    creations = Rates.per_minute(config.rates.tables_per_minute_per_address)
    account_routes = AccountRoutes(accounts, config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await asyncio.to_thread(lobby.warm)
        # What is loaded now stays: the collector need not look at it again, and runs
        # less often (its full passes over many tables pause every browser at once).
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 20, 20)
        lobby.start()
        lobby.spawn(director.run())
        yield
        # Bounded, whatever a connection does: uvicorn has waited limits.shutdown_seconds
        # for the connections and cancelled their handlers; a handler still running (a
        # cancellation lost in a send, as asyncio.wait_for can on Python 3.11) is
        # cancelled again until it stops, for as long again at most.
        await live.stop(config.limits.shutdown_seconds)
        await lobby.stop()
        account_routes.close()

    routes = [
        *PageRoutes(store, lobby, config, creations).routes(),
        *TableRoutes(store, lobby, live, config, account_routes, creations).routes(),
        *account_routes.routes(),
        *engine.routes(),
        *PlayerRoutes(store, config).routes(),
        *PairingRoutes(Pairing(lobby, accounts, config), config,
                       account_routes.signed_in).routes(),
        *TournamentRoutes(Desk(store, accounts, config), config,
                          account_routes.signed_in).routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = GatedStarlette(routes=routes, lifespan=lifespan)
    app.hosts = config.hosts
    app.state.lobby = lobby
    app.state.live = live
    app.state.store = store
    app.state.accounts = accounts
    app.state.engine = engine
    return app


def app_from_environment() -> Starlette:
    """:func:`create_app` with the settings ``gammon serve`` leaves in the environment
    (``GAMMON_SERVE``: JSON), for uvicorn's worker processes."""
    settings = json.loads(os.environ["GAMMON_SERVE"])
    config = load_config(Path(settings["config"]) if settings.get("config") else None,
                         bot_delay=settings["bot_delay"])
    if settings.get("hosts"):
        config = dataclasses.replace(config, hosts=tuple(settings["hosts"]))
    return create_app(settings["database"], config=config)


def _seat_link(room: Room, seat: int, token: str) -> dict[str, object]:
    return {"id": room.id, "seat": seat, "token": token,
            "url": f"/t/{room.id}#token={token}"}


def _row(saved: Saved, taken: set[int]) -> dict[str, object]:
    """A table as the lobby lists it (from its stored settings, without replaying it)."""
    settings = saved.settings
    seats = [Seat(s["kind"], s.get("name", "")) for s in settings["seats"]]
    names = seat_names(seats)
    for seat, name in saved.players.items():
        names[seat] = name
    return {"id": saved.id, "variant": settings["variant"], "kind": settings["kind"],
            "length": settings.get("length", 0), "rated": bool(settings.get("rated")),
            "clock": settings.get("clock"),
            "seats": [{"seat": p, "name": names[p], "human": s.human, "taken": p in taken,
                       "account": p in saved.players} for p, s in enumerate(seats)],
            "free": [] if settings.get("rematch_of") or settings.get("reserved") else
            [p for p, s in enumerate(seats) if s.human and p not in taken],
            "over": saved.status == OVER}


def review_page_of(record: dict[str, object], names: list[str], table_id: str) -> str:
    """The review page of a finished table (every decision rated at 1 ply): in a bots'
    worker process, since it evaluates every decision of the game."""
    table = Table.from_json(record)
    evaluator = network_evaluator(table.variant, None)
    reviewed = review(table.series.games, evaluator, names, plies=1)
    return html(reviewed, f"Review of table {table_id} ({table.variant.name})")


__all__ = ["OPEN", "SECURITY_HEADERS", "create_app", "table_settings"]
