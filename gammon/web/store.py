"""Where the web tables live: SQLAlchemy over SQLite (one server process) or PostgreSQL
(any number of them, on any number of machines).

A table lives in the database, not in a process. Three tables hold everything:

- ``tables``: the table's settings (its JSON without the log, the dice seed included,
  which never leaves the server before play is over), the commitment to that seed it
  published, how many games it has begun, and what the server processes share about
  it: its ``version`` (it counts every change, so an action made at an older one is
  refused), its ``status`` (``open``; ``over``; ``archived``, closed for being idle;
  ``quarantined``, set aside because its log does not replay, with the ``reason``),
  what it ``needs`` next (a ``person``; the ``machine``: a bot; or ``none``), which
  process's bots are playing it (``runner``, until ``lease_until``), when it last
  changed, and who created it (a hash of the address, for the per-address limits);
- ``seats``: each person's seat once someone has taken it, with the SHA-256 of its
  secret token (the token itself is only ever in the link given to that person); the
  key makes a second claim of the same seat fail;
- ``entries``: every log entry, one row each, keyed by table, game and index.

Every change is one transaction that first locks the table's row (``SELECT ... FOR
UPDATE`` on PostgreSQL; SQLite's transactions are taken for writing at once), so the
processes apply actions one at a time, in order, each exactly once; a transaction
also notifies every process listening (PostgreSQL's ``NOTIFY``, delivered at commit).
Every entry is written before it is shown to anyone: a process killed at any moment
leaves every step it has shown.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    event,
    false,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.exc import IntegrityError

from gammon.core.errors import GammonError
from gammon.table.log import Entry
from gammon.web.names import keys

log = logging.getLogger("gammon.web")
#: A stored log entry: its game (from 1), its index in the game (from 0) and the entry.
LogRow = tuple[int, int, Entry]
_T = TypeVar("_T")
#: The PostgreSQL channel the processes tell each other of changes on.
CHANNEL = "gammon_tables"
#: A table's status.
OPEN, OVER, ARCHIVED, QUARANTINED = "open", "over", "archived", "quarantined"
STATUSES = (OPEN, OVER, ARCHIVED, QUARANTINED)
#: The most a notice carries (PostgreSQL's limit is 8,000 bytes).
NOTICE_BYTES = 7500
#: What an open table needs next.
PERSON, MACHINE, NOTHING = "person", "machine", "none"

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("settings", Text, nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("games", Integer, nullable=False, default=0),
    Column("finished", Boolean, nullable=False, default=False),
    Column("created", Float, nullable=False),
    # Since the second schema (several processes): see the module text.
    Column("status", String(16), nullable=False, server_default=OPEN),
    Column("version", Integer, nullable=False, server_default="0"),
    Column("needs", String(16), nullable=False, server_default=MACHINE),
    Column("runner", String(64), nullable=True),
    Column("lease_until", Float, nullable=False, server_default="0"),
    Column("updated", Float, nullable=False, server_default="0"),
    Column("creator", String(64), nullable=False, server_default=""),
    Column("reason", Text, nullable=False, server_default=""),
    # Since the third schema (players, clocks, rematches): see the module text.
    Column("clock", Text, nullable=False, server_default=""),
    Column("deadline", Float, nullable=False, server_default="0"),
    Column("rematch", String(32), nullable=False, server_default=""),
    # Since the sixth schema (player pages): the seat that won the table once it is over
    # (-1: none, or not known: money play, more players, a table closed while idle).
    Column("winner", Integer, nullable=False, server_default="-1"),
    Index("tables_by_status", "status", "needs"),
    Index("tables_by_creator", "creator", "status"),
)
seats = Table(
    "seats", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("user_id", Integer, nullable=True),
    Column("name", String(32), nullable=False, server_default=""),
    # Since the fourth schema (rated play to be trusted): the address the seat was taken
    # from (hashed), and when its page first connected (0: not yet).
    Column("address", String(32), nullable=False, server_default=""),
    Column("arrived", Float, nullable=False, server_default="0"),
    Index("seats_by_user", "user_id"),
)
#: A player's tables (since the sixth schema: made on upgrade too).
SEATS_BY_USER = next(index for index in seats.indexes if index.name == "seats_by_user")
entries = Table(
    "entries", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game", Integer, primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("entry", Text, nullable=False),
)
users = Table(
    "users", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(32), nullable=False),
    # The name as compared (gammon.web.names.keys): its skeleton, case-folded, so that
    # two accounts never differ by case or by look-alike letters alone (since the fifth
    # schema; a casefolded name before), and the second key, its skeleton's case-folded
    # skeleton (a capital I for an l). Text: a skeleton is longer than its name.
    Column("key", Text, nullable=False, unique=True),
    Column("password", String(128), nullable=False),
    Column("created", Float, nullable=False),
    # The address (hashed) the account was made from (since the fourth schema).
    Column("address", String(32), nullable=False, server_default=""),
    Column("shape", Text, nullable=False, server_default=""),
    Index("users_by_shape", "shape"),
)
logins = Table(
    "logins", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, nullable=False),
    Column("expires", Float, nullable=False),
    Index("logins_by_user", "user_id"),
)
ratings = Table(
    "ratings", metadata,
    Column("user_id", Integer, primary_key=True),
    Column("pool", String(64), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Index("ratings_by_pool", "pool", "rating"),
)
chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), nullable=False),
    Column("channel", String(16), nullable=False),
    Column("name", String(32), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Index("chat_by_table", "table_id", "id"),
)
results = Table(
    "results", metadata,
    # Every result between two accounts at a rated table: rated, or why not.
    Column("table_id", String(32), primary_key=True),
    Column("pool", String(64), nullable=False),
    Column("winner", Integer, nullable=False),
    Column("loser", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("why", Text, nullable=False),
    Column("at", Float, nullable=False),
    Index("results_by_winner", "winner", "at"),
    Index("results_by_loser", "loser", "at"),
)
rating_history = Table(
    "rating_history", metadata,
    # Each rating after each rated result (since the sixth schema): the player pages'
    # graphs.
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, nullable=False),
    Column("pool", String(64), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("at", Float, nullable=False),
    Index("rating_history_by_user", "user_id", "pool", "at"),
)
waiting = Table(
    "waiting", metadata,
    # Quick pairing (since the sixth schema): a person waiting in a pool, by the hash of
    # their ticket (gammon.web.pairing), until seated at ``table_id`` in ``seat``.
    Column("ticket_hash", String(64), primary_key=True),
    Column("pool", String(64), nullable=False),
    Column("user_id", Integer, nullable=True),
    Column("name", String(32), nullable=False, server_default=""),
    Column("address", String(32), nullable=False),
    Column("rating", Float, nullable=False),
    Column("joined", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("bot_after", Float, nullable=False),
    Column("seat_hash", String(64), nullable=False),
    Column("table_id", String(32), nullable=False, server_default=""),
    Column("seat", Integer, nullable=False, server_default="-1"),
    Index("waiting_by_pool", "pool", "table_id", "joined"),
)
tournaments = Table(
    "tournaments", metadata,
    # Since the sixth schema (gammon.web.director): a tournament, its settings (JSON),
    # where it stands (open for entries, running, over), its round, when it starts and
    # (an arena) ends, and who made it (an account, or the operator's schedule).
    Column("id", String(12), primary_key=True),
    Column("name", Text, nullable=False),
    Column("description", Text, nullable=False, server_default=""),
    Column("kind", String(16), nullable=False),
    Column("settings", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("round", Integer, nullable=False, server_default="0"),
    Column("starts", Float, nullable=False),
    Column("ends", Float, nullable=False, server_default="0"),
    Column("creator", Integer, nullable=True),
    Column("address", String(32), nullable=False, server_default=""),
    Column("schedule", String(64), nullable=False, server_default=""),
    Column("reason", Text, nullable=False, server_default=""),
    Column("created", Float, nullable=False),
    Index("tournaments_by_status", "status", "starts"),
)
entrants = Table(
    "entrants", metadata,
    Column("tournament_id", String(12), primary_key=True),
    Column("user_id", Integer, primary_key=True),
    Column("name", String(32), nullable=False),
    Column("rating", Float, nullable=False),
    Column("joined", Float, nullable=False),
    Column("score", Float, nullable=False, server_default="0"),
    Column("out", Boolean, nullable=False, server_default=false()),
    Column("byes", Integer, nullable=False, server_default="0"),
    Column("streak", Integer, nullable=False, server_default="0"),
    # When the player last looked at the tournament (an arena pairs those present).
    Column("seen", Float, nullable=False, server_default="0"),
)
matches = Table(
    "matches", metadata,
    # A tournament's games: a table of two players (``second`` null: a bye), and who won
    # it once known (-1: nobody), ``forfeit`` when someone did not come.
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", String(12), nullable=False),
    Column("round", Integer, nullable=False),
    Column("table_id", String(32), nullable=False, server_default=""),
    Column("first", Integer, nullable=False),
    Column("second", Integer, nullable=True),
    Column("winner", Integer, nullable=True),
    Column("forfeit", Boolean, nullable=False, server_default=false()),
    Column("created", Float, nullable=False),
    Index("matches_by_tournament", "tournament_id", "round"),
)
#: The columns earlier schemas lacked, added to their tables on upgrade.
FIRST_ADDED = ("status", "version", "needs", "runner", "lease_until", "updated", "creator",
               "reason")
ADDED = {"tables": (*FIRST_ADDED, "clock", "deadline", "rematch", "winner"),
         "seats": ("user_id", "name", "address", "arrived"), "users": ("address", "shape")}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def address_hash(address: str) -> str:
    """What is kept of a client's address: enough to count its tables, not to show it."""
    return hashlib.sha256(b"gammon-address:" + address.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Notice:
    """What a change tells the other processes: the table, its new version and what
    happened (``step``, a ``seat`` taken, play ``closed``); a step brings its log
    entries and the table's standing, so that the processes need not read them back
    (unless they do not fit in a notice: then ``rows`` is None)."""

    table_id: str
    version: int
    what: str
    rows: list[LogRow] | None = None
    finished: bool = False
    status: str = OPEN
    reason: str = ""
    clock: str = ""
    #: A chat line (``what`` is ``chat``): its id, channel, name and text.
    line: dict[str, object] | None = None

    def payload(self) -> str:
        data: dict[str, object] = {"t": self.table_id, "v": self.version, "w": self.what}
        if self.what == "chat":
            data["l"] = self.line
        if self.what == "step":
            data.update(f=self.finished, s=self.status, r=self.reason, e=self.rows,
                        c=self.clock)
            text = json.dumps(data, separators=(",", ":"))
            if len(text.encode()) <= NOTICE_BYTES:
                return text
            data["e"] = None
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def read(cls, payload: str) -> Notice:
        """ValueError for a payload that is not a notice."""
        data = json.loads(payload)
        if not isinstance(data, dict) or not isinstance(data.get("t"), str) or \
                not isinstance(data.get("v"), int):
            raise ValueError("not a notice")
        rows = data.get("e")
        line = data.get("l")
        return cls(data["t"], data["v"], str(data.get("w")),
                   None if rows is None else [(g, i, e) for g, i, e in rows],
                   bool(data.get("f")), str(data.get("s", OPEN)), str(data.get("r", "")),
                   str(data.get("c", "")), line if isinstance(line, dict) else None)


@dataclass
class Saved:
    """A table's row: its settings, and what the processes share about it."""

    id: str
    settings: dict[str, Any]
    commitment: str
    created: float
    status: str
    version: int
    finished: bool
    reason: str = ""
    needs: str = MACHINE
    clock: str = ""
    rematch: str = ""
    #: The accounts' names of the seats taken by people signed in.
    players: dict[int, str] = field(default_factory=dict)
    #: Their account ids.
    users: dict[int, int] = field(default_factory=dict)
    #: The seats whose pages have connected (a clock starts once every person's has).
    arrived: set[int] = field(default_factory=set)
    #: Why the row does not read (its settings are not a table's), or "".
    damaged: str = ""
    #: The address that made the table, hashed: whose share of the bots it uses.
    creator: str = ""


class DamagedRow(GammonError):
    """A stored row that does not read as what it should hold."""


def read_json(text: Any, kind: type[_T], what: str) -> _T:
    """Stored JSON text as a value of ``kind``: every stored field is read through here,
    so that a damaged one is a :class:`DamagedRow` saying which, never another error."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise DamagedRow(f"its {what} is not JSON: {str(text)[:40]!r}") from None
    if not isinstance(value, kind):
        raise DamagedRow(f"its {what} is not a JSON {kind.__name__}")
    return value


def read_settings(text: Any) -> dict[str, Any]:
    """A table's stored settings, checked as far as the lobby reads them without
    replaying (the rest is checked by the replay)."""
    settings = read_json(text, dict, "settings")
    seats_ = settings.get("seats")
    if not isinstance(settings.get("variant"), str) or not isinstance(seats_, list) or \
            not all(isinstance(seat, dict) and isinstance(seat.get("kind"), str)
                    for seat in seats_):
        raise DamagedRow("its settings name no variant and seats")
    if settings.get("kind", "game") not in ("game", "match", "money"):
        raise DamagedRow("its settings' kind is not game, match or money")
    if not isinstance(settings.get("length", 0), int):
        raise DamagedRow("its settings' length is not a number")
    return settings


def _saved(row: Row[Any]) -> Saved:
    try:
        settings, damaged = read_settings(row.settings), ""
    except DamagedRow as error:
        settings, damaged = {}, f"the stored table does not read: {error}"
    return Saved(row.id, settings, row.commitment, row.created, row.status,
                 row.version, bool(row.finished), row.reason, row.needs, row.clock,
                 row.rematch, damaged=damaged, creator=row.creator)


class Locked:
    """A table's row, locked for one transaction (see :meth:`Store.locked`)."""

    def __init__(self, db: Connection, row: Saved | None, store: Store) -> None:
        self.db = db
        self.row = row
        self.store = store

    def entries_after(self, game: int, index: int) -> list[LogRow]:
        """The log entries after entry ``index`` of game ``game`` (the next one first)."""
        assert self.row is not None
        return self.store._entries(self.db, self.row.id, game, index)

    def write(self, rows: list[LogRow], *, games: int,
              finished: bool, version: int, status: str, needs: str, reason: str = "",
              release: str | None = None, clock: str = "", deadline: float = 0.0,
              winner: int = -1) -> None:
        """New log entries ``(game, index, entry)`` and the table's new standing (the
        seat that ``winner`` it, once over); the runner ``release`` gives its lease back.
        Every listening process is told."""
        assert self.row is not None
        table_id = self.row.id
        # As few round trips as can be, in the driver's own text (see Store.locked).
        store = self.store
        if rows:
            values = []
            for game, index, entry in rows:
                values += [table_id, game, index, json.dumps(entry, separators=(",", ":"))]
            self.db.exec_driver_sql(store.sql(
                "INSERT INTO entries (table_id, game, idx, entry) VALUES "
                + ", ".join(["(?, ?, ?, ?)"] * len(rows))), tuple(values))
        sets = ("games = ?, finished = ?, version = ?, status = ?, needs = ?, updated = ?, "
                "clock = ?, deadline = ?")
        values = [games, finished, version, status, needs, time.time(), clock, deadline]
        if reason:
            sets += ", reason = ?"
            values.append(reason)
        if release is not None or status != OPEN:
            sets += ", runner = NULL, lease_until = 0"
        if status != OPEN:
            sets += ", winner = ?"
            values.append(winner)
        statement = f"UPDATE tables SET {sets} WHERE id = ?"
        values.append(table_id)
        if store.postgres:  # the notice goes with the change
            statement += " RETURNING pg_notify(?, ?)"
            values += [CHANNEL, Notice(table_id, version, "step", rows, finished, status,
                                       reason, clock).payload()]
        self.db.exec_driver_sql(store.sql(statement), tuple(values))


class Store:
    """The database behind the web tables (module text)."""

    def __init__(self, url: str) -> None:
        self.engine: Engine = create_engine(url)
        self.postgres = self.engine.dialect.name == "postgresql"
        #: Transactions that write: on SQLite they take the write lock at once.
        self.writer: Engine = self.engine.execution_options(writes=True)
        self._lock_sql = self.sql(
            "SELECT commitment, created, status, version, finished, reason, needs, clock"
            " FROM tables"
            " WHERE id = ?" + (" FOR UPDATE" if self.postgres else ""))
        #: Transactions that read several things as of one moment.
        self.reader: Engine = self.engine.execution_options(
            isolation_level="REPEATABLE READ") if self.postgres else self.engine
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_connect)
            event.listen(self.engine, "begin", _sqlite_begin)
        self._migrate()

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=False)

    def _migrate(self) -> None:
        """Make the schema, or bring a first-schema database up to this one (its tables
        keep every entry; their new columns are worked out from them)."""
        with self.writer.begin() as db:
            if self.postgres:  # two processes starting at once take turns
                db.execute(text("SELECT pg_advisory_xact_lock(4242)"))
            existing = set(inspect(db).get_table_names())
            have = {name: {c["name"] for c in inspect(db).get_columns(name)}
                    for name in ADDED if name in existing}
            metadata.create_all(db)
            for name, columns in have.items():
                for column_name in ADDED[name]:
                    if column_name not in columns:
                        _add_column(db, metadata.tables[name].c[column_name])
            if "tables" in have and "status" not in have["tables"]:
                counted = (select(func.count()).where(entries.c.table_id == tables.c.id)
                           .scalar_subquery())
                db.execute(update(tables).values(
                    version=counted + tables.c.games + func.cast(tables.c.finished, Integer),
                    status=OPEN, updated=tables.c.created))
                db.execute(update(tables).where(tables.c.finished.is_(True))
                           .values(status=OVER, needs=NOTHING))
                Index("tables_by_status", tables.c.status, tables.c.needs).create(
                    db, checkfirst=True)
                Index("tables_by_creator", tables.c.creator, tables.c.status).create(
                    db, checkfirst=True)
            if "users" in have and "shape" not in have["users"]:
                _rekey_names(db, self.postgres)
            if "seats" in have:  # create_all makes a new table's indexes only
                SEATS_BY_USER.create(db, checkfirst=True)

    def notify(self, db: Connection, notice: Notice) -> None:
        """Tell every listening process of a change (when the transaction commits)."""
        if self.postgres:
            db.execute(text("SELECT pg_notify(:channel, :payload)"),
                       {"channel": CHANNEL, "payload": notice.payload()})

    # --- one table ----------------------------------------------------------------------

    def create(self, table_id: str, settings: dict[str, object], commitment: str,
               creator: str) -> None:
        """A new table, no seat taken and nothing played yet."""
        with self.writer.begin() as db:
            self.insert_table(db, table_id, settings, commitment, creator)

    @staticmethod
    def insert_table(db: Connection, table_id: str, settings: dict[str, object],
                     commitment: str, creator: str) -> None:
        """:meth:`create` in the transaction ``db``."""
        now = time.time()
        db.execute(insert(tables).values(
            id=table_id, settings=json.dumps(settings), commitment=commitment, games=0,
            finished=False, created=now, updated=now, status=OPEN, version=0,
            needs=MACHINE, creator=creator, reason="", lease_until=0.0))

    @contextmanager
    def locked(self, table_id: str) -> Iterator[Locked]:
        """A transaction holding ``table_id``'s row (None in ``row`` when there is no such
        table): every change to a table is made in one."""
        # Every move of every table goes through here and Locked.write: their statements
        # are the driver's own text (SQLAlchemy's statement building took four times the
        # CPU of the database round trips; benchmarks/load_web.py).
        with self.writer.begin() as db:
            found = db.exec_driver_sql(self._lock_sql, (table_id,)).one_or_none()
            yield Locked(db, None if found is None else Saved(
                table_id, {}, found.commitment, found.created, found.status, found.version,
                bool(found.finished), found.reason, found.needs, found.clock), self)

    def sql(self, statement: str) -> str:
        """A statement written with ``?`` placeholders, in the driver's own style."""
        return statement.replace("?", "%s") if self.postgres else statement

    def snapshot(self, table_id: str, game: int = 0, index: int = -1
                 ) -> tuple[Saved, list[LogRow],
                            dict[int, str]] | None:
        """A table's row, its log entries after entry ``index`` of game ``game`` (all by
        default) and its seats, as of one moment (one repeatable-read transaction:
        nothing another process commits meanwhile is half in it)."""
        with self.reader.connect() as db:
            found = db.execute(select(tables).where(tables.c.id == table_id)).one_or_none()
            if found is None:
                return None
            taken = db.execute(select(seats.c.seat, seats.c.token_hash, seats.c.name,
                                      seats.c.user_id, seats.c.arrived)
                               .where(seats.c.table_id == table_id)).all()
            saved = _saved(found)
            saved.players = {row.seat: row.name for row in taken if row.name}
            saved.users = {row.seat: row.user_id for row in taken if row.user_id is not None}
            saved.arrived = {row.seat for row in taken if row.arrived}
            return (saved, self._entries(db, table_id, game, index),
                    {row.seat: row.token_hash for row in taken})

    def row(self, table_id: str) -> Saved | None:
        with self.engine.connect() as db:
            found = db.execute(select(tables).where(tables.c.id == table_id)).one_or_none()
            return None if found is None else _saved(found)

    def _entries(self, db: Connection, table_id: str, game: int,
                 index: int) -> list[LogRow]:
        after = or_(entries.c.game > game, and_(entries.c.game == game, entries.c.idx > index))
        found = db.execute(select(entries.c.game, entries.c.idx, entries.c.entry)
                           .where(entries.c.table_id == table_id, after)
                           .order_by(entries.c.game, entries.c.idx)).all()
        return [(g, i, read_json(e, dict, f"log entry {i + 1} of game {g}"))
                for g, i, e in found]

    def entries(self, table_id: str, game: int = 0,
                index: int = -1) -> list[LogRow]:
        """The log entries after entry ``index`` of game ``game`` (all by default)."""
        with self.engine.connect() as db:
            return self._entries(db, table_id, game, index)

    def log(self, table_id: str) -> list[list[Entry]]:
        """A table's whole log, game by game."""
        games: list[list[Entry]] = []
        for game, _, entry in self.entries(table_id):
            while len(games) < game:
                games.append([])
            games[game - 1].append(entry)
        return games

    def claim(self, table_id: str, seat: int, digest: str, user_id: int | None = None,
              name: str = "", address: str = "") -> bool:
        """Take a person's seat with the hash of its new token (and the account that takes
        it, if one is signed in, and the hashed address it is taken from); False when
        someone has taken it already."""
        try:
            with self.writer.begin() as db:
                db.execute(insert(seats).values(table_id=table_id, seat=seat,
                                                token_hash=digest, user_id=user_id,
                                                name=name, address=address))
                self.notify(db, Notice(table_id, -1, "seat"))
        except IntegrityError:
            return False
        return True

    def keep(self, table_id: str, seat: int, digest: str, user_id: int, name: str,
             address: str) -> None:
        """A kept seat (a tournament's) taken by its account, with a new token's hash:
        the first time, or again from another page (the old token no longer plays)."""
        with self.writer.begin() as db:
            changed = db.execute(update(seats).where(
                seats.c.table_id == table_id, seats.c.seat == seat,
                seats.c.user_id == user_id).values(token_hash=digest, address=address))
            if not changed.rowcount:
                db.execute(insert(seats).values(table_id=table_id, seat=seat,
                                                token_hash=digest, user_id=user_id,
                                                name=name, address=address))
            self.notify(db, Notice(table_id, -1, "seat"))

    def arrive(self, table_id: str, seat: int) -> bool:
        """Note that ``seat``'s page has connected: whether this is the first time. (No
        notice: a process reads the arrivals where it needs them, in the transaction of
        a change, :meth:`arrivals`; the clock's start is a change of its own.)"""
        with self.writer.begin() as db:
            done = db.execute(update(seats).where(
                seats.c.table_id == table_id, seats.c.seat == seat, seats.c.arrived == 0,
            ).values(arrived=time.time()))
            return bool(done.rowcount)

    def arrivals(self, db: Connection, table_id: str) -> set[int]:
        """The seats whose pages have connected (in transaction ``db``)."""
        return set(db.execute(select(seats.c.seat).where(
            seats.c.table_id == table_id, seats.c.arrived > 0)).scalars())

    def seat_addresses(self, db: Connection, table_id: str) -> dict[int, str]:
        """The hashed address each taken seat was taken from (in transaction ``db``)."""
        return {row.seat: row.address for row in db.execute(
            select(seats.c.seat, seats.c.address).where(seats.c.table_id == table_id))}

    def tokens(self, table_id: str) -> dict[int, str]:
        """Each taken seat's token hash."""
        with self.engine.connect() as db:
            found = db.execute(select(seats.c.seat, seats.c.token_hash)
                               .where(seats.c.table_id == table_id)).all()
            return {seat: digest for seat, digest in found}


    def set_aside(self, table_id: str, reason: str) -> None:
        """Quarantine a table whose log does not replay: out of play, kept for a look."""
        with self.writer.begin() as db:
            db.execute(update(tables).where(tables.c.id == table_id).values(
                status=QUARANTINED, reason=reason[:2000], needs=NOTHING, runner=None))
            self.notify(db, Notice(table_id, -1, "closed"))

    def reopen(self, table_id: str, finished: bool) -> None:
        """Put a table that replays again back into play (an operator's decision)."""
        with self.writer.begin() as db:
            db.execute(update(tables).where(tables.c.id == table_id).values(
                status=OVER if finished else OPEN, reason="", needs=MACHINE,
                updated=time.time()))

    # --- the bots' lease ------------------------------------------------------------------

    def lease(self, table_id: str, runner: str, seconds: float) -> bool:
        """Let ``runner`` (a server process) play ``table_id``'s bots for ``seconds``
        more: True when no other live process holds the table's bots."""
        now = time.time()
        with self.writer.begin() as db:
            done = db.execute(update(tables).where(
                tables.c.id == table_id, tables.c.status == OPEN,
                tables.c.needs == MACHINE,
                or_(tables.c.runner.is_(None), tables.c.runner == runner,
                    tables.c.lease_until < now),
            ).values(runner=runner, lease_until=now + seconds))
            return bool(done.rowcount)

    def unattended(self, head_start: float, limit: int = 100) -> list[str]:
        """Open tables whose bots are due and that no live process is playing: their
        process stopped, or the one that made them due has not begun in ``head_start``
        seconds."""
        now = time.time()
        with self.engine.connect() as db:
            return list(db.execute(select(tables.c.id).where(
                tables.c.status == OPEN, tables.c.needs == MACHINE,
                or_(and_(tables.c.runner.is_(None), tables.c.updated < now - head_start),
                    and_(tables.c.runner.is_not(None), tables.c.lease_until < now)),
            ).limit(limit)).scalars())

    # --- many tables ----------------------------------------------------------------------

    def overdue(self, now: float, limit: int = 100) -> list[str]:
        """Open tables where the seat on the clock has run out of time."""
        with self.engine.connect() as db:
            return list(db.execute(select(tables.c.id).where(
                tables.c.status == OPEN, tables.c.deadline > 0,
                tables.c.deadline <= now).limit(limit)).scalars())

    # --- chat and rematches -------------------------------------------------------------

    def say(self, table_id: str, channel: str, name: str, words: str) -> dict[str, object]:
        """A chat line at a table, kept and told to every process: the line as shown."""
        now = time.time()
        with self.writer.begin() as db:
            line_id = db.execute(insert(chat).values(
                table_id=table_id, channel=channel, name=name, text=words, at=now)
            ).inserted_primary_key[0]  # type: ignore[index]
            line: dict[str, object] = {"id": int(line_id), "channel": channel, "name": name,
                                       "text": words, "at": now}
            self.notify(db, Notice(table_id, -1, "chat", line=line))
        return line

    def chat(self, table_id: str, limit: int) -> list[dict[str, object]]:
        """A table's last ``limit`` chat lines, the oldest first."""
        with self.engine.connect() as db:
            found = db.execute(select(chat).where(chat.c.table_id == table_id)
                               .order_by(chat.c.id.desc()).limit(limit)).all()
        return [{"id": row.id, "channel": row.channel, "name": row.name, "text": row.text,
                 "at": row.at} for row in reversed(found)]

    def rematch(self, table_id: str, new_id: str, settings: dict[str, object], commitment: str,
                creator: str) -> str:
        """The rematch of ``table_id``: a new table ``new_id`` made now, unless one was
        made already (its id is returned then, and nothing is made). One transaction, so
        two players asking at once get the same table."""
        now = time.time()
        with self.writer.begin() as db:
            found = db.exec_driver_sql(self.sql(
                "SELECT rematch FROM tables WHERE id = ?" + (" FOR UPDATE" if self.postgres
                                                             else "")), (table_id,)).one()
            if found.rematch:
                return str(found.rematch)
            db.execute(insert(tables).values(
                id=new_id, settings=json.dumps(settings), commitment=commitment, games=0,
                finished=False, created=now, updated=now, status=OPEN, version=0,
                needs=MACHINE, creator=creator, reason="", lease_until=0.0))
            db.execute(update(tables).where(tables.c.id == table_id).values(rematch=new_id))
            self.notify(db, Notice(table_id, -1, "seat"))
        return new_id

    def idle(self, before: float, limit: int = 100) -> list[str]:
        """Open tables unchanged since ``before``."""
        with self.engine.connect() as db:
            return list(db.execute(select(tables.c.id).where(
                tables.c.status == OPEN, tables.c.updated < before).limit(limit)).scalars())

    def count_open(self, creator: str | None = None) -> int:
        query = select(func.count()).select_from(tables).where(tables.c.status == OPEN)
        if creator is not None:
            query = query.where(tables.c.creator == creator)
        with self.engine.connect() as db:
            return int(db.execute(query).scalar_one())

    def listing(self, limit: int) -> list[tuple[Saved, set[int]]]:
        """Open tables, the newest first, with their taken seats."""
        with self.engine.connect() as db:
            found = db.execute(select(tables).where(tables.c.status == OPEN)
                               .order_by(tables.c.created.desc()).limit(limit)).all()
            ids = [row.id for row in found]
            taken: dict[str, set[int]] = {i: set() for i in ids}
            names: dict[str, dict[int, str]] = {i: {} for i in ids}
            if ids:
                for table_id, seat, name in db.execute(
                        select(seats.c.table_id, seats.c.seat, seats.c.name)
                        .where(seats.c.table_id.in_(ids))):
                    taken[table_id].add(seat)
                    if name:
                        names[table_id][seat] = name
            listed, damaged = [], []
            for row in found:
                saved = _saved(row)
                if saved.damaged:
                    damaged.append(saved)
                    continue
                saved.players = names[row.id]
                listed.append((saved, taken[row.id]))
        for saved in damaged:  # the rest of the lobby is served; these are set aside
            self.set_aside(saved.id, saved.damaged)
        return listed

    def rows(self, status: str | None = None) -> list[Saved]:
        """Every table (of one status), the oldest first."""
        query = select(tables).order_by(tables.c.created)
        if status is not None:
            query = query.where(tables.c.status == status)
        with self.engine.connect() as db:
            return [_saved(row) for row in db.execute(query)]

    def forget_logins(self, now: float) -> int:
        """Delete the logins that have expired (they sign nobody in): how many."""
        with self.writer.begin() as db:
            return int(db.execute(logins.delete().where(logins.c.expires <= now)).rowcount)


def _rekey_names(db: Connection, postgres: bool) -> None:
    """Key the accounts of a database of the fourth schema or before by their names'
    skeletons (they were keyed by their casefolded names). Where two accounts' names
    look alike, the later one's key gets its id, so it stays unique: that account still
    signs in by its exact name, and no new one may take a name like either."""
    if postgres:
        db.execute(text("ALTER TABLE users ALTER COLUMN key TYPE TEXT"))
    # The table's own index (a new Index of that name would join the table's for good).
    next(i for i in users.indexes if i.name == "users_by_shape").create(db, checkfirst=True)
    found = db.execute(select(users.c.id, users.c.name).order_by(users.c.id)).all()
    for row in found:  # out of the way of every new key first
        db.execute(update(users).where(users.c.id == row.id).values(key=f"#{row.id}"))
    taken: set[str] = set()
    for row in found:
        key, shape = keys(row.name)
        if key in taken:
            log.warning("account %d's name looks like an earlier account's: it is kept, "
                        "keyed apart", row.id)
            key = f"{key}#{row.id}"
        taken.add(key)
        db.execute(update(users).where(users.c.id == row.id).values(key=key, shape=shape))


def _add_column(db: Connection, column: Column[Any]) -> None:
    kind = column.type.compile(dialect=db.dialect)
    default = column.server_default
    clause = "" if default is None else f" DEFAULT '{default.arg}'"  # type: ignore[attr-defined]
    null = "" if column.nullable else " NOT NULL"
    db.execute(text(f"ALTER TABLE {column.table.name} ADD COLUMN {column.name} {kind}"
                    f"{null}{clause}"))


def _sqlite_connect(connection: sqlite3.Connection, _: object) -> None:
    # SQLAlchemy's own transaction handling (below), not the driver's.
    connection.isolation_level = None
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    # A transaction that writes takes the database's write lock first, so two threads
    # never both read and then find the other has written (SQLite has no row locks);
    # one that only reads shares the database with them (WAL).
    writes = connection.get_execution_options().get("writes")
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")
