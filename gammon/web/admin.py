"""What an operator does to a server's database from the command line (``gammon admin``,
``gammon verify --database``): list the tables by status, replay every stored table to
find the damaged ones (and set them aside), put a repaired table back into play."""

from __future__ import annotations

from dataclasses import dataclass

from gammon.core.errors import GammonError, InvalidOptionError
from gammon.web.config import ServerConfig
from gammon.web.room import Room
from gammon.web.rooms import restore, unoffered
from gammon.web.store import ARCHIVED, OPEN, QUARANTINED, Store


@dataclass(frozen=True)
class Damage:
    """A stored table that does not replay, and why."""

    id: str
    status: str
    reason: str


def verify(store: Store, config: ServerConfig, set_aside: bool = False) -> tuple[int, list[Damage]]:
    """Replay every stored table but the archived ones: how many were checked, and those
    that do not replay, or (still in play) have a bot this configuration does not offer
    (those already set aside with the reason stored). With ``set_aside`` the ones in
    play are quarantined."""
    checked, damaged = 0, []
    for saved in store.rows():
        if saved.status == ARCHIVED:
            continue
        checked += 1
        if saved.status == QUARANTINED:
            damaged.append(Damage(saved.id, saved.status, saved.reason))
            continue
        try:
            room = restore(store, saved.id)
            why = unoffered(room, config) if saved.status == OPEN else None
            if why is not None:
                raise InvalidOptionError(why)
        except GammonError as error:
            damaged.append(Damage(saved.id, saved.status, str(error)))
            if set_aside and saved.status == OPEN:
                store.set_aside(saved.id, str(error))
    return checked, damaged


def release(store: Store, table_id: str, config: ServerConfig) -> Room:
    """Put a quarantined table back into play once it replays (after a repair, or an
    upgrade that reads it): the table; GammonError saying why not."""
    saved = store.row(table_id)
    if saved is None:
        raise InvalidOptionError(f"no table {table_id!r}")
    if saved.status != QUARANTINED:
        raise InvalidOptionError(f"table {table_id} is {saved.status}, not set aside")
    store.reopen(table_id, False)
    try:
        room = restore(store, table_id)
        why = unoffered(room, config)
        if why is not None and not room.table.over:
            raise InvalidOptionError(why)
    except GammonError as error:
        store.set_aside(table_id, str(error))
        raise
    store.reopen(table_id, room.table.over)
    return room
