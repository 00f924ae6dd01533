"""Where the web tables live between restarts: SQLAlchemy over SQLite or PostgreSQL.

Three tables hold everything a table needs to come back exactly as it was:

- ``tables``: the table's settings (its JSON without the log, the dice seed included,
  which never leaves the server before play is over), the commitment to that seed it
  published, how many games it has begun and whether play stopped;
- ``seats``: each person's seat once someone has taken it, with the SHA-256 of its
  secret token (the token itself is only ever in the link given to that person); the
  seat's key makes a second claim of the same seat fail;
- ``entries``: every log entry, one row each, keyed by table, game and index, so an
  entry is written once: a second write of the same entry (two server processes) fails
  on the key instead of being applied twice.

Every entry is written, in one transaction per step, before it is shown to anyone: a
server killed at any moment restarts with every step it has shown.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("settings", Text, nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("games", Integer, nullable=False, default=0),
    Column("finished", Boolean, nullable=False, default=False),
    Column("created", Float, nullable=False),
)
seats = Table(
    "seats", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("token_hash", String(64), nullable=False),
)
entries = Table(
    "entries", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game", Integer, primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("entry", Text, nullable=False),
)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Saved:
    """A table as stored: its JSON (log included) and the seats' token hashes."""

    id: str
    data: dict[str, Any]
    commitment: str
    tokens: dict[int, str]
    created: float


class Store:
    """The database behind the web tables (module text)."""

    def __init__(self, url: str) -> None:
        self.engine: Engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    def create(self, table_id: str, settings: dict[str, Any], commitment: str) -> None:
        """A new table, no seat taken yet."""
        with self.engine.begin() as db:
            db.execute(insert(tables).values(
                id=table_id, settings=json.dumps(settings), commitment=commitment, games=0,
                finished=False, created=time.time()))

    def append(self, table_id: str, games: int, rows: list[tuple[int, int, dict[str, Any]]],
               finished: bool) -> None:
        """New log entries ``(game, index, entry)`` and the table's games begun and whether
        it stopped, in one transaction."""
        with self.engine.begin() as db:
            if rows:
                db.execute(insert(entries), [
                    {"table_id": table_id, "game": game, "idx": index,
                     "entry": json.dumps(entry)} for game, index, entry in rows])
            db.execute(update(tables).where(tables.c.id == table_id)
                       .values(games=games, finished=finished))

    def claim(self, table_id: str, seat: int, digest: str) -> bool:
        """Take a person's seat with the hash of its new token; False when someone has
        taken it already."""
        try:
            with self.engine.begin() as db:
                db.execute(insert(seats).values(table_id=table_id, seat=seat,
                                                token_hash=digest))
        except IntegrityError:
            return False
        return True

    def load(self, table_id: str | None = None) -> list[Saved]:
        """Every stored table (or one), its log rebuilt game by game."""
        with self.engine.connect() as db:
            query = select(tables)
            if table_id is not None:
                query = query.where(tables.c.id == table_id)
            rows = db.execute(query.order_by(tables.c.created)).all()
            saved = []
            for row in rows:
                data = json.loads(row.settings)
                log: list[list[dict[str, Any]]] = [[] for _ in range(row.games)]
                for entry in db.execute(select(entries).where(entries.c.table_id == row.id)
                                        .order_by(entries.c.game, entries.c.idx)):
                    while len(log) < entry.game:
                        log.append([])
                    log[entry.game - 1].append(json.loads(entry.entry))
                data["log"] = log
                data["finished"] = bool(row.finished)
                people = db.execute(select(seats).where(seats.c.table_id == row.id)).all()
                saved.append(Saved(row.id, data, row.commitment,
                                   {p.seat: p.token_hash for p in people}, row.created))
            return saved


def _sqlite_pragmas(connection: Any, _: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
