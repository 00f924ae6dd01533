"""The engine API: the engine's analyses for other programs, over HTTP (docs/engine-api.md).

- ``POST /api/engine/hint``: every legal play of a roll rated, best first;
- ``POST /api/engine/cube``: the cube decision before a roll (the backgammon family);
- ``POST /api/engine/evaluate``: the network's probabilities and equity of a position;
- ``GET /api/engine/openapi.json``: the OpenAPI 3.1 description of these, :func:`openapi`
  below, written next to the routes so that the two change together (the tests post every
  example it gives and check that every route under ``/api/engine`` is in it).

A request is a JSON object. Everything in it is an attacker's until checked
(docs/security.md, the engine API): the body's size (``limits.request_bytes``), the fields
by an allow-list, the variant by the registry's names (those with a shipped network of
checkers), the position's length and characters, then its reading by the variant's
notation (:func:`gammon.analysis.engine.check`, whose errors say what is wrong), the plies
and the count of plays by their ranges. What is wrong is answered 400 (413 a body too
large, 415 one that is not JSON, 422 a variant the engine does not analyse) with a JSON
``{"error": ...}`` that says what is allowed.

The analysis itself never runs on the event loop: it is a job for the bots' worker
processes (:meth:`gammon.web.workers.Thinkers.run`), under a time budget, in the fair share
of the workers as one owner (:data:`OWNER`) beside the tables' bots, so that analyses
together take one turn in the round robin when the bots are busy. At most
``limits.engine_jobs`` run at once (never every worker), ``limits.engine_waiting`` more
wait (then 503), one address has ``limits.engine_jobs_per_address`` (then 429), and asks
``rates.engine_requests_per_minute_per_address`` times a minute (then 429).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pebble import ProcessExpired
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gammon.analysis.engine import PROBS, analysable, answer, check, cube_variant
from gammon.core.errors import GammonError
from gammon.core.variant import variant, variant_names
from gammon.web.config import ServerConfig
from gammon.web.rates import Rates
from gammon.web.requests import Refused, address, read_json
from gammon.web.workers import Thinkers

log = logging.getLogger("gammon.web")

PREFIX = "/api/engine"
#: The owner the analyses share the bots' workers as (the tables' owners are hashed
#: addresses: hex, never this word).
OWNER = "engine"
#: The fields each analysis takes; the first two are needed.
NEEDED = ("variant", "position")
FIELDS = {"hint": ("variant", "position", "dice", "plies", "limit"),
          "cube": ("variant", "position", "plies"),
          "evaluate": ("variant", "position")}
#: The deepest search any request may ask for, whatever the configuration says.
MOST_PLIES = 2
#: Plies of a hint and a cube decision when the request gives none.
PLIES = 1
#: Plays a hint lists: by default, and at most.
LIMIT, MOST_LIMIT = 10, 100
#: Characters of a variant's name and of the dice.
NAME_CHARS, DICE_CHARS = 40, 8
#: Seconds a refused client is told to wait before it asks again (Retry-After).
RETRY_BUSY = 5


class EngineRefused(GammonError):
    """A request the engine API does not answer: why, and the HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Ask:
    """A checked request."""

    kind: str
    variant: str
    position: str
    dice: str | None = None
    plies: int = 0
    limit: int = LIMIT


def _error(message: str, status: int, retry: int | None = None) -> JSONResponse:
    headers = {"Retry-After": str(retry)} if retry is not None else None
    return JSONResponse({"error": message}, status_code=status, headers=headers)


class Engine:
    """The engine API of one server process: its checks, limits and routes."""

    def __init__(self, config: ServerConfig, thinkers: Thinkers) -> None:
        self.config = config
        self.thinkers = thinkers
        limits = config.limits
        self.rates = Rates.per_minute(config.rates.engine_requests_per_minute_per_address)
        #: Analyses at once: as configured, and never every worker while there are two.
        self.at_once = min(limits.engine_jobs, max(1, thinkers.workers - 1))
        self.slots: asyncio.Semaphore | None = None  # made on the event loop, when first used
        self.in_flight = 0
        self.by_address: dict[str, int] = {}
        self.rules = {name: variant(name) for name in variant_names()}
        self.why_not = {name: why for name, rules in self.rules.items()
                        if (why := analysable(rules)) is not None}
        self.names = [name for name in self.rules if name not in self.why_not]
        self.cube_names = [name for name in self.names if cube_variant(self.rules[name])]
        self.document = openapi(self)

    # --- what a request may ask -------------------------------------------------------

    def most_plies(self, name: str) -> int:
        """The deepest search of a hint or cube decision in the variant ``name``: state
        searches (the variants with turns of their own) are slow beyond one ply."""
        most = max(0, min(MOST_PLIES, self.config.limits.engine_plies))
        alternate = self.rules[name].game_type.turns == "alternate"
        return most if alternate else min(1, most)

    def checked(self, kind: str, body: dict[str, object]) -> Ask:
        """The request ``body`` of an analysis of ``kind``, checked field by field;
        EngineRefused saying what is wrong and what is allowed."""
        fields = FIELDS[kind]
        takes = f"a {kind} request takes {', '.join(fields)}"
        unknown = set(body) - set(fields)
        if unknown:
            raise EngineRefused(f"unknown fields {sorted(str(u)[:20] for u in unknown)[:5]}; "
                                f"{takes}")
        missing = [name for name in NEEDED if body.get(name) is None]
        if missing:
            raise EngineRefused(f"missing {', '.join(missing)}: {takes}")
        name = self._variant(kind, body["variant"])
        position = self._position(body["position"])
        dice = self._dice(body.get("dice"), self.rules[name]) if "dice" in fields else None
        plies = 0
        if "plies" in fields:
            most = self.most_plies(name)
            plies = _whole(body.get("plies", min(PLIES, most)), "plies", 0, most,
                           "" if most == MOST_PLIES else f" in {name} on this server")
        limit = _whole(body.get("limit", LIMIT), "limit", 1, MOST_LIMIT) \
            if "limit" in fields else LIMIT
        try:
            check(kind, name, position, dice)
        except GammonError as error:
            raise EngineRefused(f"position: {error}") from None
        except Exception as error:  # a reading no error message foresaw: still bad input
            log.warning("engine: %s position %r not read: %r", name, position, error)
            raise EngineRefused(f"position: not {name}'s notation ({type(error).__name__})"
                                ) from None
        return Ask(kind, name, position, dice, plies, limit)

    def _variant(self, kind: str, given: object) -> str:
        offered = self.cube_names if kind == "cube" else self.names
        if not isinstance(given, str) or len(given) > NAME_CHARS:
            raise EngineRefused(f"variant is a name, one of: {', '.join(offered)}")
        name = given.strip().lower()
        if name not in self.rules:
            raise EngineRefused(f"unknown variant {given[:NAME_CHARS]!r}; the engine "
                                f"analyses: {', '.join(offered)}")
        if name in self.why_not:
            raise EngineRefused(self.why_not[name], 422)
        if kind == "cube" and name not in self.cube_names:
            raise EngineRefused(f"{name} has no cube decisions to analyse: the cube endpoint "
                                f"is for {', '.join(self.cube_names)} (XGIDs and GNU IDs)",
                                422)
        return name

    def _position(self, given: object) -> str:
        most = self.config.limits.engine_position_chars
        if not isinstance(given, str):
            raise EngineRefused("position is text: the variant's notation (an XGID or GNU "
                                "ID in the backgammon family)")
        text = given.strip()
        if not text or len(text) > most:
            raise EngineRefused(f"position is 1 to {most} characters, not {len(text)}")
        if not (text.isascii() and text.isprintable()):
            raise EngineRefused("position is printable ASCII text: the variant's notation")
        return text

    @staticmethod
    def _dice(given: object, rules: Any) -> str | None:
        # Any: ``rules.sides`` is the track games' (TrackVariant), not every Rules'
        if given is None or given == "":
            return None
        if isinstance(given, list) and len(given) == 2:
            for die in given:
                _whole(die, "a die", 1, rules.sides)
            return f"{given[0]}{given[1]}"
        if isinstance(given, str) and len(given) <= DICE_CHARS:
            return given
        raise EngineRefused("dice are two dice, written \"31\", \"3-1\" or as [3, 1]")

    # --- running one ------------------------------------------------------------------

    async def run(self, ask: Ask, where: str) -> dict[str, object]:
        """The answer to ``ask``, from one of the bots' workers, within the limits."""
        limits = self.config.limits
        if self.by_address.get(where, 0) >= limits.engine_jobs_per_address:
            mine = limits.engine_jobs_per_address
            made = "an analysis you asked for is" if mine == 1 else \
                f"{mine} analyses you asked for are"
            raise EngineRefused(f"{made} being made: wait for its answer, then ask for the "
                                "next", 429)
        if self.in_flight >= self.at_once + limits.engine_waiting:
            raise EngineRefused("the engine is busy: try again in a few seconds", 503)
        if self.slots is None:
            self.slots = asyncio.Semaphore(self.at_once)
        self.in_flight += 1
        self.by_address[where] = self.by_address.get(where, 0) + 1
        try:
            async with self.slots:
                found: dict[str, object] = await self.thinkers.run(
                    answer, ask.kind, ask.variant, ask.position, ask.dice, ask.plies,
                    ask.limit, budget=limits.engine_seconds, owner=OWNER)
                return found
        except TimeoutError:
            raise EngineRefused(f"the analysis took longer than {limits.engine_seconds:g} s "
                                "and was stopped: ask for fewer plies", 503) from None
        except (ProcessExpired, RuntimeError):
            raise EngineRefused("the analysis ran out of memory or its worker stopped: try "
                                "again later", 503) from None
        except GammonError as error:  # the worker read the position as the check did
            raise EngineRefused(f"position: {error}") from None
        finally:
            self.in_flight -= 1
            self.by_address[where] -= 1
            if not self.by_address[where]:
                del self.by_address[where]

    # --- the routes -------------------------------------------------------------------

    async def serve(self, request: Request, kind: str) -> Response:

        where = address(request)
        try:
            if not self.config.limits.engine_jobs:
                raise EngineRefused("this server offers no engine analysis", 404)
            if not self.rates.take(where):
                per_minute = self.config.rates.engine_requests_per_minute_per_address
                return _error(f"too many analyses: {per_minute} a minute from one address; "
                              "wait a little", 429,
                              math.ceil(60 / max(per_minute, 1)))
            body = await read_json(request, self.config.limits.request_bytes)
            found = await self.run(self.checked(kind, body), where)
        except EngineRefused as refused:
            busy = refused.status in (429, 503)
            return _error(str(refused), refused.status, RETRY_BUSY if busy else None)
        except Refused as refused:  # the body: too large, not JSON, not an object
            return _error(str(refused), refused.status)
        except Exception:
            log.exception("engine: a %s analysis failed", kind)
            return _error("the analysis failed: the server's log says why", 500)
        return JSONResponse(found)

    async def hint(self, request: Request) -> Response:
        return await self.serve(request, "hint")

    async def cube(self, request: Request) -> Response:
        return await self.serve(request, "cube")

    async def evaluate(self, request: Request) -> Response:
        return await self.serve(request, "evaluate")

    async def description(self, request: Request) -> Response:
        return JSONResponse(self.document)

    def routes(self) -> list[Route]:
        return [Route(f"{PREFIX}/hint", self.hint, methods=["POST"]),
                Route(f"{PREFIX}/cube", self.cube, methods=["POST"]),
                Route(f"{PREFIX}/evaluate", self.evaluate, methods=["POST"]),
                Route(f"{PREFIX}/openapi.json", self.description, methods=["GET"])]


def _whole(value: object, what: str, low: int, high: int, where: str = "") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise EngineRefused(f"{what} is a whole number from {low} to {high}{where}, not "
                            f"{_shown(value)}")
    return value


def _shown(value: object) -> str:
    """A value a client sent, as an error message shows it: a scalar as JSON (cut short),
    anything else by its kind."""
    if value is None or isinstance(value, bool | int | float | str):
        return json.dumps(value)[:20]
    return "an object" if isinstance(value, dict) else "a list"


# --- the description ------------------------------------------------------------------

#: Positions of the examples (each answered 200 by the tests).
OPENING_52 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
OPENING_CUBE = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
PLAKOTO_START = "o......................O:0"
NARDY_START = "o...........O...........:0"
MULTIGAM_START = "00000/00000/00000/00000:0"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _post(kind: str, summary: str, text: str,
          examples: Mapping[str, tuple[str, object]]) -> dict[str, object]:
    name = kind.capitalize()
    errors = {
        "400": "The request is wrong: the error says what is allowed.",
        "413": "The body is larger than the server takes.",
        "415": "The body is not sent as JSON (Content-Type: application/json).",
        "422": "The variant is one the engine does not analyse (no network of checkers, "
               "or no cube); the error says why.",
        "429": "Too many requests from this address, or one of its analyses is still "
               "being made; Retry-After says when to ask again.",
        "503": "The engine is busy, or the analysis took longer than the server allows.",
    }
    return {"post": {
        "operationId": kind, "summary": summary, "description": text,
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": _ref(f"{name}Request"),
            "examples": {key: {"summary": about, "value": value}
                         for key, (about, value) in examples.items()}}}},
        "responses": {
            "200": {"description": "The analysis.",
                    "content": {"application/json": {"schema": _ref(f"{name}Answer")}}},
            **{status: {"description": why, "content": {"application/json": {
                "schema": _ref("Error")}}} for status, why in errors.items()},
        },
    }}


def _request_schemas(engine: Engine) -> dict[str, object]:
    """The bodies the engine API reads: the variants and limits are ``engine``'s."""
    limits = engine.config.limits
    variant_field = {"type": "string", "enum": engine.names,
                     "description": "A variant the engine analyses (gammon variants)."}
    position = {
        "type": "string", "minLength": 1, "maxLength": limits.engine_position_chars,
        "description": "The position in the variant's notation, as `gammon hint` reads "
                       "it: an XGID or a GNU Position ID (with its Match ID or not) in the "
                       "backgammon family (backgammon, nackgammon, hypergammon, portes, "
                       "tavla, short, caucasian); a 24-cell board and `:turn` in plakoto, "
                       "tapa (`o......................O:0`), long-nardy, fevga, moultezim, "
                       "gul-bara (`o...........O...........:0`); acey-deucey's "
                       "`bar:15/bar:15/X`; Multi-Gam's `00000/00000/00000/00000:0`.",
    }
    plies = {"type": "integer", "minimum": 0, "maximum": MOST_PLIES, "default": PLIES,
             "description": f"Plies of expectimax search on the network (at most "
                            f"{min(MOST_PLIES, limits.engine_plies)} on this server; 1 "
                            "at most in the variants with turns of their own: gul-bara, "
                            "acey-deucey, multi-gam)."}
    return {
        "HintRequest": {
            "type": "object", "additionalProperties": False, "required": list(NEEDED),
            "properties": {
                "variant": variant_field, "position": position,
                "dice": {"description": "The roll to play, when the position's text has "
                                        "none (an XGID's may; both must then agree).",
                         "oneOf": [{"type": "string", "maxLength": DICE_CHARS,
                                    "examples": ["31", "3-1"]},
                                   {"type": "array", "minItems": 2, "maxItems": 2,
                                    "items": {"type": "integer", "minimum": 1}}]},
                "plies": plies,
                "limit": {"type": "integer", "minimum": 1, "maximum": MOST_LIMIT,
                          "default": LIMIT, "description": "How many plays to list, best "
                                                           "first."}}},
        "CubeRequest": {
            "type": "object", "additionalProperties": False, "required": list(NEEDED),
            "properties": {
                "variant": {**variant_field, "enum": engine.cube_names},
                "position": {**position, "description": "An XGID or GNU ID with no dice "
                                                        "(an XGID's dice 00): the decision "
                                                        "is before the roll."},
                "plies": plies}},
        "EvaluateRequest": {
            "type": "object", "additionalProperties": False, "required": list(NEEDED),
            "properties": {"variant": variant_field, "position": position}},
    }


_NUMBER = {"type": "number"}


def _play_schemas() -> dict[str, object]:
    """A rated play and the chances it carries, as the answers list them."""
    probabilities = {
        "type": "object", "additionalProperties": False, "required": list(PROBS),
        "description": "The network's cubeless chances of each result, from the side of "
                       "the player on roll; each gammon figure counts the backgammons too.",
        "properties": {key: {"type": "number", "minimum": 0, "maximum": 1} for key in PROBS},
    }
    return {
        "Probabilities": probabilities,
        "Play": {
            "type": "object", "required": ["play", "equity", "diff", "plies", "probs"],
            "properties": {
                "play": {"type": "string", "description": "The play in the variant's move "
                                                          "text (`no move` when none)."},
                "equity": {**_NUMBER, "description": "Cubeless points for the mover "
                                                    "(Multi-Gam: the expected place score)."},
                "diff": {**_NUMBER, "maximum": 0, "description": "Equity less the best's."},
                "plies": {"type": "integer", "description": "The plies of this play's "
                                                            "equity (the best few are "
                                                            "searched deeper)."},
                "probs": {"anyOf": [_ref("Probabilities"), {"type": "null"}],
                          "description": "After the play; null with more than two "
                                         "players."}}},
    }


def _answer_schemas() -> dict[str, object]:
    """The bodies the engine API answers with."""
    player = {"type": "integer", "minimum": 0,
              "description": "The player on roll (or to play the dice), from 0; in an XGID "
                             "the lower-case checkers are player 0."}
    head = {"variant": {"type": "string"}, "position": {"type": "string"}, "player": player}
    return {
        **_play_schemas(),
        "HintAnswer": {
            "type": "object",
            "required": [*head, "dice", "plies", "legal_plays", "units", "plays"],
            "properties": {
                **head,
                "dice": {"type": "array", "items": {"type": "integer"}},
                "plies": {"type": "integer"},
                "legal_plays": {"type": "integer", "minimum": 1},
                "units": {"type": "string", "enum": ["points", "place score",
                                                     "normalised match equity"],
                          "description": "money points; in a match, match equity "
                                         "normalised as gnubg's (a single win +1)"},
                "plays": {"type": "array", "items": _ref("Play")}}},
        "CubeAnswer": {
            "type": "object",
            "required": [*head, "plies", "decision", "units", "equities", "chances", "cube",
                         "match"],
            "properties": {
                **head,
                "plies": {"type": "integer"},
                "decision": {"type": "string", "examples": ["No double, take",
                                                            "Double, pass"]},
                "units": {"type": "string", "enum": ["points per cube",
                                                     "match winning chance"]},
                "equities": {"type": "object",
                             "required": ["no_double", "double_take", "double_pass"],
                             "properties": {"no_double": _NUMBER, "double_take": _NUMBER,
                                            "double_pass": _NUMBER},
                             "description": "Cubeful, for the player on roll."},
                "chances": {"type": "object", "required": ["win", "gammons",
                                                           "gammons_against"],
                            "properties": {"win": _NUMBER, "gammons": _NUMBER,
                                           "gammons_against": _NUMBER},
                            "description": "Cubeless: the chance to win, and the share of "
                                           "wins and of losses that are gammons."},
                "cube": {"type": "object", "properties": {
                    "value": {"type": "integer"},
                    "owner": {"type": ["integer", "null"]}}},
                "match": {"type": "object", "properties": {
                    "length": {"type": "integer", "description": "0: money play"},
                    "score": {"type": "array", "items": {"type": "integer"}},
                    "crawford": {"type": "boolean"}}}}},
        "EvaluateAnswer": {
            "type": "object",
            "required": [*head, "plies", "equity", "probs", "units", "scores"],
            "properties": {
                **head,
                "plies": {"type": "integer", "enum": [0]},
                "equity": {**_NUMBER, "description": "Cubeless, for the player on roll, "
                                                    "before the roll."},
                "probs": {"anyOf": [_ref("Probabilities"), {"type": "null"}]},
                "units": {"type": "string", "enum": ["points", "place score"]},
                "scores": {"type": "array", "items": _NUMBER,
                           "description": "Every player's equity, by player."}}},
        "Error": {"type": "object", "required": ["error"],
                  "properties": {"error": {"type": "string"}}},
    }


def _paths() -> dict[str, object]:
    """The engine API's routes, each with its examples."""
    return {
        f"{PREFIX}/hint": _post(
            "hint", "Every legal play of a roll, rated, best first",
            "All plays at 0 ply by the variant's network, the best few again at "
            "`plies`; each with its cubeless equity and the network's chances after it.",
            {"backgammon": ("backgammon, 5-2 from an XGID", {
                "variant": "backgammon", "position": OPENING_52, "plies": 0,
                "limit": 3}),
             "plakoto": ("plakoto's start, 6-3", {
                 "variant": "plakoto", "position": PLAKOTO_START, "dice": "63",
                 "plies": 0}),
             "long-nardy": ("long nardy's start, 6-3", {
                 "variant": "long-nardy", "position": NARDY_START, "dice": [6, 3],
                 "plies": 0}),
             "multi-gam": ("Multi-Gam's start, 6-3", {
                 "variant": "multi-gam", "position": MULTIGAM_START, "dice": "63",
                 "plies": 0})}),
        f"{PREFIX}/cube": _post(
            "cube", "The cube decision before a roll",
            "Cubeful equities of no double, double/take and double/pass (Janowski's "
            "model in money play, the match equity table in a match) from the "
            "network's chances, `plies` rolls ahead, and the decision in gnubg's words.",
            {"backgammon": ("backgammon money play, the cube in the middle", {
                "variant": "backgammon", "position": OPENING_CUBE, "plies": 0}),
             "gnu-id": ("backgammon from a GNU Position ID", {
                 "variant": "backgammon", "position": "4HPwATDgc/ABMA",
                 "plies": 1})}),
        f"{PREFIX}/evaluate": _post(
            "evaluate", "The network's evaluation of a position",
            "The network's cubeless chances and equity for the player on roll, before "
            "the roll (dice in the position's text are not looked at).",
            {"backgammon": ("backgammon from an XGID", {
                "variant": "backgammon", "position": OPENING_52}),
             "plakoto": ("plakoto's start", {
                 "variant": "plakoto", "position": PLAKOTO_START}),
             "long-nardy": ("long nardy's start", {
                 "variant": "long-nardy", "position": NARDY_START}),
             "multi-gam": ("Multi-Gam's start: every seat's expected place score", {
                 "variant": "multi-gam", "position": MULTIGAM_START})}),
        f"{PREFIX}/openapi.json": {"get": {
            "operationId": "openapi", "summary": "This description",
            "responses": {"200": {"description": "The OpenAPI document.",
                                  "content": {"application/json": {
                                      "schema": {"type": "object"}}}}}}},
    }


def openapi(engine: Engine) -> dict[str, object]:
    """The OpenAPI 3.1 description of the engine API of ``engine``'s server: the
    variants it analyses and its limits are the server's own."""
    limits, rates = engine.config.limits, engine.config.rates
    limited = (f"Each address may ask {rates.engine_requests_per_minute_per_address} times a "
               f"minute, with {limits.engine_jobs_per_address} analysis being made at a "
               f"time; an analysis is stopped after {limits.engine_seconds:g} s.")
    return {
        "openapi": "3.1.0",
        "info": {"title": "gammon engine API", "version": "1",
                 "description": "The engine's analyses of positions of every variant with a "
                                "network: every play of a roll rated, the cube decision, "
                                f"the network's evaluation. {limited} Bodies are JSON "
                                f"objects of at most {limits.request_bytes} bytes."},
        "paths": _paths(),
        "components": {"schemas": {**_request_schemas(engine), **_answer_schemas()}},
    }




__all__ = ["Engine", "EngineRefused", "OWNER", "PREFIX", "openapi"]
