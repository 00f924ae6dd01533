"""Clocks as online backgammon keeps them: a delay per move plus a reserve.

Each decision has ``delay`` seconds free (a "Bronstein" or simple delay: time within it
costs nothing); beyond it the seat's ``reserve`` runs down. The reserve is kept for the
whole match, or for each game in money play and single games (``per``). A seat whose
reserve runs out loses: the match, or the game and the session with it
(:meth:`gammon.table.table.Table.time_out`).

A :class:`Clock` is plain data, kept as JSON beside the table (the web server writes it
in the same transaction as every move, so a server that restarts finds each clock
where it stood): the reserves, which seat is on the clock and since when (wall-clock
seconds, :func:`time.time`, which every server process shares). Nothing here reads
the time itself: the caller passes ``now``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from gammon.core.errors import InvalidOptionError

#: What a reserve may be kept for.
PER_MATCH, PER_GAME = "match", "game"
#: The bounds a table's clock may be set within (seconds).
DELAY_RANGE = (0, 120)
RESERVE_RANGE = (5, 7200)


@dataclass(frozen=True)
class TimeControl:
    """The clock's settings: ``delay`` free seconds a decision, then a ``reserve`` of
    seconds kept for the match or for each game (``per``)."""

    delay: int = 12
    reserve: int = 180
    per: str = PER_MATCH

    def __post_init__(self) -> None:
        for name, value, (low, high) in (("delay", self.delay, DELAY_RANGE),
                                         ("reserve", self.reserve, RESERVE_RANGE)):
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise InvalidOptionError(f"the clock's {name} is a whole number of seconds "
                                         f"from {low} to {high}, not {str(value)[:20]!r}")
        if self.per not in (PER_MATCH, PER_GAME):
            raise InvalidOptionError(f"a clock's reserve is kept per {PER_MATCH} or per "
                                     f"{PER_GAME}, not {str(self.per)[:20]!r}")

    def to_json(self) -> dict[str, Any]:
        return {"delay": self.delay, "reserve": self.reserve, "per": self.per}


@dataclass(frozen=True)
class Clock:
    """Where the clocks of a table stand: each seat's ``reserves``, the seat on the
    clock (None while no seat decides: the dice, a finished table) and the moment its
    decision began (``since``), in the ``game`` the reserves belong to."""

    control: TimeControl
    reserves: tuple[float, ...]
    seat: int | None = None
    since: float = 0.0
    game: int = 0

    @classmethod
    def start(cls, control: TimeControl, players: int) -> Clock:
        return cls(control, (float(control.reserve),) * players)

    def reserve_left(self, seat: int, now: float) -> float:
        """``seat``'s reserve as it stands at ``now`` (negative once it has run out): the
        delay of the decision on the clock is spent first."""
        if seat != self.seat:
            return self.reserves[seat]
        return self.reserves[seat] - max(0.0, now - self.since - self.control.delay)

    @property
    def deadline(self) -> float:
        """When the seat on the clock runs out (0 when none is on it)."""
        if self.seat is None:
            return 0.0
        return self.since + self.control.delay + self.reserves[self.seat]

    def expired(self, now: float) -> bool:
        return self.seat is not None and now >= self.deadline

    def turn(self, seat: int | None, game: int, now: float,
             started: float | None = None) -> Clock:
        """The clock once the seat on it has decided at ``now`` (its time beyond the delay
        taken from its reserve) and ``seat`` is asked next (None: nobody) from ``started``
        (``now`` unless said: a busy server's delay is charged to nobody), in game
        ``game``: the reserves start afresh at a new game when they are kept per game."""
        if seat == self.seat and seat is not None and game == self.game:
            return self  # the same decision goes on (a write that did not answer it)
        reserves = list(self.reserves)
        if self.seat is not None:
            used = max(0.0, now - self.since - self.control.delay)
            reserves[self.seat] = max(0.0, reserves[self.seat] - used)
        if game != self.game and self.control.per == PER_GAME:
            reserves = [float(self.control.reserve)] * len(reserves)
        return replace(self, reserves=tuple(reserves), seat=seat,
                       since=now if started is None else started, game=game)

    def view(self, now: float) -> dict[str, Any]:
        """What a page shows: each seat's seconds left, who is on the clock, and the free
        seconds of this decision still to run."""
        delay = 0.0 if self.seat is None else max(
            0.0, self.control.delay - (now - self.since))
        return {"left": [round(max(0.0, self.reserve_left(p, now)), 1)
                         for p in range(len(self.reserves))],
                "seat": self.seat, "delay": round(delay, 1), **self.control.to_json()}

    def to_text(self) -> str:
        return json.dumps({"control": self.control.to_json(), "reserves": self.reserves,
                           "seat": self.seat, "since": self.since, "game": self.game})

    @classmethod
    def from_text(cls, text: str) -> Clock | None:
        """The clock :meth:`to_text` wrote (None for an empty text: a table without one)."""
        if not text:
            return None
        data = json.loads(text)
        return cls(TimeControl(**data["control"]), tuple(float(r) for r in data["reserves"]),
                   data["seat"], float(data["since"]), int(data["game"]))


def time_control(value: Any) -> TimeControl | None:
    """A table's clock from a creation request: None for none, else ``{"delay": s,
    "reserve": s, "per": "match"|"game"}``, every field checked."""
    if value is None or value is False:
        return None
    if not isinstance(value, dict):
        raise InvalidOptionError("clock is an object: {\"delay\": seconds, \"reserve\": "
                                 "seconds, \"per\": \"match\" or \"game\"}")
    unknown = set(value) - {"delay", "reserve", "per"}
    if unknown:
        raise InvalidOptionError(f"unknown clock fields {sorted(str(u)[:20] for u in unknown)[:3]}"
                                 "; a clock takes delay, reserve and per")
    return TimeControl(**value)


__all__ = ["PER_GAME", "PER_MATCH", "Clock", "TimeControl", "time_control"]
