"""A table as one server process serves it: a :class:`Room` holds the replayed
:class:`~gammon.table.Table`, its seats' tokens and accounts, its clock, and the browsers
watching it (:mod:`gammon.web.rooms` makes and changes rooms; :mod:`gammon.web.views`
draws what each browser is shown)."""

from __future__ import annotations

import asyncio
import hmac
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from gammon.table import narrate
from gammon.table.clock import Clock, TimeControl
from gammon.table.table import Seat, Step, Table, told_apart
from gammon.web.store import OPEN, Notice, Saved, token_hash

__all__ = ["CHAT_LINES", "NARRATION", "Client", "Room", "seat_names"]

#: Narration lines a room keeps for the people who join later.
NARRATION = 200
#: Chat lines a room keeps to show those who join later.
CHAT_LINES = 50


class Client(Protocol):
    """A connected browser: what a room needs of a websocket (it never waits)."""

    def push(self, text: str, *, state: bool = False) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


@dataclass(eq=False)
class Room:
    """One table as this process serves it (module text)."""

    id: str
    table: Table
    commitment: str
    tokens: dict[int, str]
    status: str = OPEN
    reason: str = ""
    clients: dict[Client, int | None] = field(default_factory=dict)
    lines: deque[narrate.Line] = field(default_factory=lambda: deque(maxlen=NARRATION))
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    runner: asyncio.Task[None] | None = None
    refreshing: asyncio.Task[None] | None = None
    notices: deque[Notice] = field(default_factory=deque)
    used: float = field(default_factory=time.monotonic)
    _views: dict[Any, Any] = field(default_factory=dict)
    #: The accounts at the table: their names and ids, by seat (guests are not here).
    players: dict[int, str] = field(default_factory=dict)
    users: dict[int, int] = field(default_factory=dict)
    #: Whether the result is rated (two accounts), and the clock, if the table has one.
    rated: bool = False
    clock: Clock | None = None
    #: The table its rematch is played at, once someone asked for one; and, at a
    #: rematch, the table whose players its seats are kept for.
    rematch: str = ""
    rematch_of: str = ""
    #: At a tournament's table: the tournament, and the account each seat is kept for.
    tournament: str = ""
    reserved: tuple[int, ...] = ()
    #: The address that made it, hashed: its bots think in that address's share.
    creator: str = ""
    #: The seats whose pages have connected: a clock starts once every person's has.
    arrived: set[int] = field(default_factory=set)
    #: The chat lines kept for those who join later.
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_LINES))

    @classmethod
    def build(cls, saved: Saved, rows: Sequence[tuple[int, int, dict[str, Any]]],
              tokens: dict[int, str]) -> Room:
        """A room from a table's row and its log: GammonError when the log does not
        replay."""
        table = Table.from_json({**saved.settings, "log": [], "finished": False})
        room = cls(saved.id, table, saved.commitment, tokens, saved.status, saved.reason,
                   players=dict(saved.players), users=dict(saved.users),
                   rated=bool(saved.settings.get("rated")), rematch=saved.rematch,
                   rematch_of=str(saved.settings.get("rematch_of", "")),
                   tournament=str(saved.settings.get("tournament", "")),
                   reserved=tuple(int(u) for u in saved.settings.get("reserved", ())),
                   creator=saved.creator,
                   arrived=set(saved.arrived))
        control = saved.settings.get("clock")
        if control:
            room.clock = Clock.from_text(saved.clock) or Clock.start(
                TimeControl(**control), table.variant.players)
        room.replay(rows)
        table.finished = saved.finished
        return room

    # --- who is who ----------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        names = seat_names(self.table.seats)
        for seat, name in self.players.items():
            names[seat] = name
        return names

    @property
    def free(self) -> list[int]:
        """People's seats nobody has taken yet."""
        if self.status != OPEN:
            return []
        return [p for p, seat in enumerate(self.table.seats)
                if seat.human and p not in self.tokens]

    @property
    def everyone_here(self) -> bool:
        """Whether every person's seat is taken and its page has connected: till then no
        clock runs (a seat taken by a page that never showed loses no time)."""
        return self.status == OPEN and all(
            p in self.arrived for p, seat in enumerate(self.table.seats) if seat.human)

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds, or None (a spectator, or a wrong token); every seat is
        compared, each in constant time."""
        if not token:
            return None
        digest = token_hash(token)
        found = None
        for seat, known in self.tokens.items():
            if hmac.compare_digest(digest, known):
                found = seat
        return found

    @property
    def version(self) -> int:
        """Counts every change: what a person saw, so a stale page cannot act."""
        sizes = self.table.log_sizes
        return sum(sizes) + len(sizes) + self.table.finished

    @property
    def position(self) -> tuple[int, int]:
        """The last entry of the log, as (game, index): (0, -1) before the first."""
        sizes = self.table.log_sizes
        return (len(sizes), sizes[-1] - 1) if sizes else (0, -1)

    @property
    def machine_due(self) -> bool:
        """Whether the table waits for no person: for the dice, or for a bot."""
        table = self.table
        return self.status == OPEN and not table.over and (
            table.question is None or table.bot_question is not None)

    def replay(self, rows: Sequence[tuple[int, int, dict[str, Any]]]) -> None:
        """Play log entries another process (or an earlier run) wrote."""
        for game, index, entry in rows:
            for step in self.table.replay(game, index, entry):
                self.tell(step)

    def tell(self, step: Step) -> None:
        self.lines.extend(narrate.narrate(self.table, step, self.names))


def seat_names(seats: Sequence[Seat]) -> list[str]:
    """People are "player N"; bots go by their kind without its settings ("money", not
    "money:width=4:wide=12"), told apart by their seats where a kind sits more than once
    ("money (seat 2)")."""
    return told_apart([seat.name or (f"player {p + 1}" if seat.human
                                     else seat.kind.split(":")[0])
                       for p, seat in enumerate(seats)])
