"""How the server processes hear of each other's changes: PostgreSQL's LISTEN/NOTIFY.

Every transaction that changes a table notifies the channel :data:`~gammon.web.store.
CHANNEL` with a :class:`~gammon.web.store.Notice` (delivered when it commits, in commit
order): the table, its version, and the log entries the change wrote. Every process
listens on one connection of its own and brings the tables its clients watch up to date
from the notices, reading the database only when one does not follow on from what it
has. No broker of our own: the database that orders the changes also announces them.
A process that loses its listening connection connects again and then refreshes every
table it holds, since it may have missed notices meanwhile. SQLite serves one process,
which needs no notices.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from gammon.web.store import CHANNEL, Notice, Store

log = logging.getLogger("gammon.web")


async def listen(store: Store, changed: Callable[[Notice], None],
                 missed: Callable[[], Awaitable[None]]) -> None:
    """Call ``changed(notice)`` for every notice, and ``missed()`` whenever listening
    (re)starts; runs until cancelled."""
    import psycopg  # PostgreSQL's driver: only a server on PostgreSQL has it

    conninfo = store.engine.url.set(drivername="postgresql").render_as_string(
        hide_password=False)
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(conninfo,
                                                             autocommit=True) as connection:
                await connection.execute(f"LISTEN {CHANNEL}")
                await missed()
                async for notice in connection.notifies():
                    try:
                        read = Notice.read(notice.payload)
                    except (ValueError, TypeError):
                        log.warning("a notice that is not ours: %r", notice.payload[:80])
                        continue
                    changed(read)
        except (psycopg.Error, OSError) as error:
            log.warning("listening for other processes' changes failed (%s); again in 1 s",
                        error)
            await asyncio.sleep(1.0)
