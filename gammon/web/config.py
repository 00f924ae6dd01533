"""What a server allows: the bots on its menu, and its limits on everything a client can
ask for or send.

Nothing a client sends names a program, a file or a search size. A seat is ``human`` or
a *level* of the server's bot menu: every variant offers ``best`` (its default bot),
``fast`` (its network, no search) and ``beginner`` (its heuristic); each level stands
for an agent spec and a time budget chosen here. An operator widens the menu in the
server's configuration file (TOML), never a client::

    [bots]                          # every variant whose rules play the bot's kind
    strong = { spec = "expectimax:3", budget = 20 }

    [bots.backgammon]               # one variant only
    gnubg = { spec = "gnubg:0" }

    [limits]
    open_tables = 2000
    open_tables_per_address = 10

    [rates]
    messages_per_second = 20

    hosts = ["tables.example.org"]  # the names the site is reached by (the Host header)

:func:`load_config` reads such a file; :class:`ServerConfig` is what a server runs
with, its defaults fit for the public internet.
"""

from __future__ import annotations

import contextlib
import dataclasses
import ipaddress
import socket
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gammon.agents.offered import offered
from gammon.agents.registry import DEFAULT, KINDS, default_bot, parse_spec
from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import Rules
from gammon.core.variant import variant
from gammon.web.tournaments import checked

HUMAN = "human"

#: The levels every variant offers, and what each is.
LEVELS = {
    "best": "the variant's strongest bot at its default setting",
    "fast": "the variant's network, no search: answers at once",
    "beginner": "the variant's heuristic: plays by simple rules",
}
#: Seconds a bot decision may take beyond the variant's usual think time (x3).
MARGIN = 2.0
#: Level names (and so seat names a client sends) are short words.
LEVEL_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
#: The host names a server answers for unless its configuration says otherwise: this
#: machine's own (local play), and Starlette's TestClient's (``testserver``, a name no
#: public DNS gives, so no page elsewhere can be rebound to it).
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]", "testserver")
#: The characters of a host name in ``hosts`` (a name, an IPv4 address, or ``*.`` and a
#: domain: any of its subdomains).
HOST_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-.")
#: The addresses ``gammon serve --host`` listens on everywhere with.
EVERYWHERE = ("", "0.0.0.0", "::")


@dataclass(frozen=True)
class Level:
    """A bot on the menu: the name a client asks for, the agent it seats and the
    seconds one decision may take before the fallback bot plays instead."""

    name: str
    spec: str
    budget: float
    summary: str = ""


@dataclass(frozen=True)
class Limits:
    """Sizes and counts (see docs/security.md)."""

    #: Bytes of an HTTP request body; characters of a websocket message.
    request_bytes: int = 4096
    message_chars: int = 4096
    #: Options a table may set, and the characters of an option's text value.
    options: int = 16
    option_chars: int = 64
    #: Tables open (not over) on the whole site, and created by one address.
    open_tables: int = 1000
    open_tables_per_address: int = 5
    #: Websockets one address may hold open on one server process, and in all.
    sockets_per_address: int = 40
    sockets: int = 5000
    #: A table untouched this long is closed and archived.
    idle_minutes: float = 60.0
    #: Seconds a new websocket has to say hello.
    hello_seconds: float = 10.0
    #: Seconds a message may wait to be sent to a browser before it is dropped.
    send_seconds: float = 10.0
    #: Seconds a stopping server (SIGTERM, Ctrl-C) waits for its connections to finish
    #: before it cancels what is left (a browser that stopped reading holds a send open).
    shutdown_seconds: float = 5.0
    #: Tables the lobby lists.
    lobby_rows: int = 200
    #: Characters of a chat line.
    chat_chars: int = 300
    #: Reviews of finished tables an address may have made (or waiting) at once.
    reviews_per_address: int = 1
    #: The fastest clock a rated table may have: seconds free a decision, and reserve
    #: (a faster one is lost by a slow connection or a page that is not looked at).
    rated_delay: int = 8
    rated_reserve: int = 60
    #: People of one address waiting in the pools at once (quick pairing; an account
    #: waits in one pool at a time).
    pool_tickets_per_address: int = 3
    #: Seconds one ask for a pool's seat waits before it answers "waiting" (the page
    #: asks again at once).
    pool_wait_seconds: float = 20.0
    #: Tournaments: seconds a player has to come to their table (else they lose that
    #: match by forfeit), the most players one may have, and the tournaments not yet over
    #: that one account may have made.
    tournament_show_seconds: float = 180.0
    tournament_capacity: int = 128
    tournaments_per_account: int = 1
    #: The engine API (docs/engine-api.md): analyses one server process runs at once, each
    #: in one of the bots' workers in its turn with the tables' bots and never in every
    #: worker (the workers less one at most, where there are two or more); 0: no engine
    #: API. Those that may wait for one (more are answered 503), those one address may
    #: have running or waiting (more: 429), and the seconds one may take (it is stopped
    #: then, and answered 503).
    engine_jobs: int = 2
    engine_waiting: int = 8
    engine_jobs_per_address: int = 1
    engine_seconds: float = 15.0
    #: The deepest search a hint or cube decision may ask for (2 at most; 1 in the
    #: variants whose turns are searched state by state), and the characters of a position.
    engine_plies: int = 2
    engine_position_chars: int = 256


@dataclass(frozen=True)
class Rates:
    """How often (per connection, per address) a client may do things. A message over
    the rate is not read; a connection with ``drops_to_close`` of them is closed."""

    messages_per_second: int = 20
    messages_per_second_per_address: int = 60
    drops_to_close: int = 100
    sockets_per_minute_per_address: int = 60
    tables_per_minute_per_address: int = 6
    #: Sign-ups and sign-ins (right or wrong) an address may try a minute.
    sign_ins_per_minute_per_address: int = 10
    #: Sign-ins (right or wrong) one account's name may be tried with an hour, from any
    #: number of addresses.
    sign_ins_per_hour_per_account: int = 20
    #: Accounts one address may make a day.
    sign_ups_per_day_per_address: int = 3
    #: Passwords being hashed or waiting to be, on one server process: more are refused
    #: (503) until some are done, so signing in never takes the tables' threads.
    hashing_queue: int = 8
    #: Chat lines a person may send a minute (an account, or a guest's address), from any
    #: number of connections, and all the people of one address together.
    chat_lines_per_minute: int = 12
    chat_lines_per_minute_per_address: int = 30
    #: Engine API requests (hint, cube, evaluate; refused ones too) an address may make
    #: a minute, all at once at most.
    engine_requests_per_minute_per_address: int = 30
    #: Player pages' lookups (an account, a search of its games) an address may make a
    #: minute: a search reads up to 2,000 rows.
    player_lookups_per_minute_per_address: int = 60
    #: Pools an address may join a minute (quick pairing; refused joins too).
    pool_joins_per_minute_per_address: int = 20
    #: Tournaments an address may make a day.
    tournaments_per_day_per_address: int = 3


@dataclass(frozen=True)
class Schedule:
    """A tournament the operator runs again and again (``[[tournaments]]``): what it is
    (:func:`gammon.web.tournaments.checked`'s fields), every how many minutes it starts,
    and how many minutes before its start it opens for entries."""

    name: str
    description: str
    kind: str
    setup: tuple[tuple[str, object], ...]
    every_minutes: int = 60
    lead_minutes: int = 30

    def settings(self) -> dict[str, object]:
        return dict(self.setup)


@dataclass(frozen=True)
class BotPool:
    """The worker processes bots think in."""

    #: Worker processes per server process (0: one per core, at least one).
    workers: int = 0
    #: Bytes of address space a worker may use (its decision fails beyond it).
    memory_bytes: int = 2 << 30
    #: The bot that plays a decision whose bot overran its budget or memory.
    fallback: str = "heuristic"


@dataclass(frozen=True)
class ServerConfig:
    """Everything a server process runs with (module text)."""

    limits: Limits = field(default_factory=Limits)
    rates: Rates = field(default_factory=Rates)
    pool: BotPool = field(default_factory=BotPool)
    #: Levels the operator adds, for every variant (key ``*``) or one: name -> Level.
    bots: dict[str, dict[str, Level]] = field(default_factory=dict)
    #: Seconds between a bot's moves, so people can follow them.
    bot_delay: float = 0.5
    #: Replay every open table at start (a damaged one is set aside then, not later).
    check_at_start: bool = True
    #: Compress websocket messages (permessage-deflate): a state is a fifth of its size,
    #: but compressing it for every browser costs the server a fifth more CPU per
    #: message (benchmarks/load_web.py).
    compress_websockets: bool = False
    #: The host names (the Host header) this server answers for; any other is answered
    #: 400, so that a page of another site rebound to this server's address by DNS is
    #: never served (nor a redirect built from its name). ``*.example.org``: every
    #: subdomain of it; ``*``: any name (no check). ``gammon serve --host`` adds its own.
    hosts: tuple[str, ...] = LOCAL_HOSTS
    #: The tournaments the operator schedules.
    tournaments: tuple[Schedule, ...] = ()

    def menu(self, rules: Rules) -> dict[str, Level]:
        """The levels ``rules`` offers on this server, in the order the lobby shows."""
        levels = default_levels(rules)
        for scope in ("*", rules.name):
            for name, level in self.bots.get(scope, {}).items():
                if parse_spec(level.spec)[0] in offered(rules).bots:
                    levels[name] = level
        return levels

    def shared_menu(self, variants: Sequence[Rules]) -> dict[str, Level]:
        """The levels a match of several variants in turn (tavli) offers: those of the
        first variant's menu that run the same bot in every one of them (a seat keeps
        its bot from game to game)."""
        menus = [self.menu(rules) for rules in variants]
        shared = {name: level for name, level in menus[0].items()
                  if all(name in menu and menu[name].spec == level.spec for menu in menus)}
        if "best" not in shared and all("best" in menu for menu in menus):
            # Each game's best bot differs: the seat plays each with its own.
            best = menus[0]["best"]
            shared = {"best": dataclasses.replace(
                best, spec=DEFAULT, budget=max(menu["best"].budget for menu in menus)),
                **shared}
        return shared

    def seat(self, rules: Rules | Sequence[Rules], asked: object) -> str:
        """The seat kind (``human`` or an agent spec) a client's seat request stands for
        at a table of ``rules`` (or of several variants in turn); InvalidOptionError
        saying what is offered for anything else."""
        if isinstance(rules, Sequence):
            menu, name = self.shared_menu(rules), "+".join(r.name for r in rules)
        else:
            menu, name = self.menu(rules), rules.name
        if isinstance(asked, str) and asked.strip().lower() == HUMAN:
            return HUMAN
        if isinstance(asked, str) and asked.strip().lower() in menu:
            return menu[asked.strip().lower()].spec
        shown = repr(asked)[:40] if isinstance(asked, str) else type(asked).__name__
        raise InvalidOptionError(
            f"seat {shown} is not offered: a seat is \"human\" or a bot level of "
            f"{name}: {', '.join(menu)}")

    def budget(self, rules: Rules, spec: str) -> float | None:
        """The seconds a decision of the bot ``spec`` may take; None when ``spec`` is on
        no level of this server's menu for ``rules`` (a table stored by a server that
        offered more, or a tampered row)."""
        menu = self.menu(rules)
        if spec == DEFAULT and "best" in menu:  # the variant's own bot (tavli's seats)
            return menu["best"].budget
        for level in menu.values():
            if level.spec == spec:
                return level.budget
        return None


def default_levels(rules: Rules) -> dict[str, Level]:
    """``best``, ``fast`` and ``beginner`` of ``rules`` (module text)."""
    budget = MARGIN + 3 * rules.think_seconds
    best = default_bot(rules)
    options = offered(rules).options.get(best)
    levels = {
        "best": Level("best", f"{best}:{options}" if options else best, budget, LEVELS["best"]),
        "fast": Level("fast", "neural:0", budget, LEVELS["fast"]),
        "beginner": Level("beginner", "heuristic", budget, LEVELS["beginner"]),
    }
    if not KINDS["neural"].is_ready(rules):  # no network yet (a new game): no fast level
        del levels["fast"]
    return levels


def load_config(path: Path | None, **overrides: Any) -> ServerConfig:
    """The configuration in the TOML file ``path`` (None: the defaults), with
    ``overrides`` (a top-level field's new value) on top; InvalidOptionError naming
    what is wrong in the file."""
    data: dict[str, object] = {}
    if path is not None:
        try:
            data = tomllib.loads(path.read_text())
        except (OSError, tomllib.TOMLDecodeError) as error:
            raise InvalidOptionError(f"cannot read the server configuration {path}: "
                                     f"{error}") from None
    sections = {"limits": Limits, "rates": Rates, "pool": BotPool}
    known = {*sections, "bots", "bot_delay", "check_at_start", "compress_websockets", "hosts",
             "tournaments"}
    unknown = set(data) - known
    if unknown:
        raise InvalidOptionError(f"{path}: unknown sections {sorted(unknown)}; known: "
                                 f"{sorted(known)}")
    values: dict[str, Any] = {}
    for name, kind in sections.items():
        values[name] = _section(kind, data.get(name, {}), f"{path}: [{name}]")
    values["bots"] = _bots(data.get("bots", {}), path)
    for name in ("bot_delay", "check_at_start", "compress_websockets"):
        if name in data:
            values[name] = data[name]
    if "hosts" in data:
        values["hosts"] = host_names(data["hosts"], f"{path}: hosts")
    if "tournaments" in data:
        values["tournaments"] = schedules(data["tournaments"], values["limits"], path)
    values.update(overrides)
    return ServerConfig(**values)


def schedules(given: object, limits: Limits, path: Path | None) -> tuple[Schedule, ...]:
    """``[[tournaments]]``: each checked as a tournament made through the API is, with
    ``every_minutes`` (10 to 10,080) and ``lead_minutes`` (1 to its every_minutes)."""
    if not isinstance(given, list):
        raise InvalidOptionError(f"{path}: tournaments is an array of tables: "
                                 "[[tournaments]]")
    found: list[Schedule] = []
    for entry in given:
        if not isinstance(entry, dict):
            raise InvalidOptionError(f"{path}: each [[tournaments]] is a table of settings")
        body = dict(entry)
        every, lead = body.pop("every_minutes", 60), body.pop("lead_minutes", 30)
        where = f"{path}: tournament {str(body.get('name'))[:40]!r}"
        try:
            setup = checked(body, limits.tournament_capacity)
        except InvalidOptionError as error:
            raise InvalidOptionError(f"{where}: {error}") from None
        if not isinstance(every, int) or not 10 <= every <= 10_080 or \
                not isinstance(lead, int) or not 1 <= lead <= every:
            raise InvalidOptionError(f"{where}: every_minutes is 10 to 10080, lead_minutes "
                                     "1 to every_minutes")
        if setup.name in {s.name for s in found}:
            raise InvalidOptionError(f"{where}: two schedules have that name")
        found.append(Schedule(setup.name, setup.description, setup.kind,
                              tuple(setup.settings.items()), every, lead))
    return tuple(found)


def host_names(given: object, where: str = "hosts") -> tuple[str, ...]:
    """The host names of a configuration's ``hosts``, checked and written as the Host
    header has them (lower case, an IPv6 address in brackets); InvalidOptionError saying
    what a name may be."""
    if not isinstance(given, list | tuple) or not given:
        raise InvalidOptionError(f"{where} is a list of host names, such as "
                                 "[\"tables.example.org\"]")
    names = []
    for name in given:
        wrong = InvalidOptionError(
            f"{where}: {str(name)[:60]!r} is not a host name: write a name "
            "(tables.example.org), an address (192.0.2.7, ::1), *.example.org for its "
            "subdomains, or * for any (no port)")
        if not isinstance(name, str):
            raise wrong
        name = name.strip().lower()
        try:
            name = f"[{ipaddress.IPv6Address(name.strip('[]'))}]"
        except ValueError:
            pattern = name.removeprefix("*.")
            if name != "*" and (not pattern or set(pattern) - HOST_CHARACTERS
                                or "*" in pattern or ".." in pattern):
                raise wrong from None
        names.append(name)
    return tuple(dict.fromkeys(names))


def listening_hosts(host: str) -> tuple[str, ...]:
    """The host names a server listening on ``host`` (``gammon serve --host``) is reached
    by, beyond the configured ones: the address itself, or, listening everywhere, this
    machine's name and addresses (so people on its network can play)."""
    if host.strip() not in EVERYWHERE:
        return host_names([host])
    names = [socket.gethostname(), socket.getfqdn()]
    with contextlib.suppress(OSError):
        names += [str(found[4][0]) for found in socket.getaddrinfo(socket.gethostname(), None)]
    found: list[str] = []
    for name in names:
        if name:
            with contextlib.suppress(InvalidOptionError):  # a name no browser sends
                found += host_names([name.split("%")[0]])
    return tuple(dict.fromkeys(found))


def _section(kind: type, given: object, where: str) -> object:
    if not isinstance(given, dict):
        raise InvalidOptionError(f"{where} is a table of settings")
    fields = {f.name: f for f in dataclasses.fields(kind)}
    for name, value in given.items():
        if name not in fields:
            raise InvalidOptionError(f"{where}: unknown setting {name!r}; known: "
                                     f"{', '.join(fields)}")
        default = fields[name].default
        if type(value) is not type(default) and not (
                isinstance(default, float) and type(value) is int):
            raise InvalidOptionError(f"{where}: {name} is a {type(default).__name__}, not "
                                     f"{value!r}")
        if isinstance(value, int | float) and value < 0:
            raise InvalidOptionError(f"{where}: {name} is 0 or more, not {value!r}")
    return kind(**given)


def _bots(given: object, path: Path | None) -> dict[str, dict[str, Level]]:
    """``[bots]`` levels for every variant and ``[bots.VARIANT]`` for one, checked: each
    spec builds an agent of a known kind."""
    if not isinstance(given, dict):
        raise InvalidOptionError(f"{path}: [bots] is a table of levels")
    scopes: dict[str, dict[str, object]] = {"*": {}}
    for key, value in given.items():
        if isinstance(value, dict) and "spec" not in value:
            scopes[variant(key).name] = value  # a variant's own levels
        else:
            scopes["*"][key] = value
    out: dict[str, dict[str, Level]] = {}
    for scope, levels in scopes.items():
        for name, entry in levels.items():
            where = f"{path}: bot level {name!r}"
            if not name or set(name) - LEVEL_CHARACTERS or name == HUMAN or len(name) > 24:
                raise InvalidOptionError(f"{where}: a level's name is a short word of "
                                         "lower-case letters, digits and dashes")
            if not isinstance(entry, dict) or not isinstance(entry.get("spec"), str):
                raise InvalidOptionError(f"{where}: write {{ spec = \"kind:setting\", "
                                         "budget = SECONDS }")
            if parse_spec(entry["spec"])[0] not in KINDS:
                raise InvalidOptionError(f"{where}: unknown bot kind in {entry['spec']!r}")
            budget = entry.get("budget", MARGIN + 3)
            if not isinstance(budget, int | float) or not 0 < budget <= 600:
                raise InvalidOptionError(f"{where}: budget is seconds, more than 0 and at "
                                         "most 600")
            out.setdefault(scope, {})[name] = Level(
                name, entry["spec"].strip().lower(), float(budget),
                str(entry.get("summary", "added by this server's operator"))[:200])
    return out
