"""Rates: how often a connection or an address may do something.

A token bucket per key: ``rate`` tokens a second up to ``burst``; each event takes one,
and an event with no token left is refused. Checked on every websocket message, so it
does its arithmetic when asked and keeps no timer: the ``limits`` library's in-memory
storage sweeps its keys from a thread a hundred times a second, which on the server's
hot path cost a few percent of its CPU and woke the event loop's thread for nothing.
Buckets of keys unused for a while are dropped, so an address that comes once costs
nothing later.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass
class Bucket:
    """``rate`` events a second, ``burst`` at once."""

    rate: float
    burst: float
    tokens: float = -1.0
    at: float = 0.0

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.tokens < 0:
            self.tokens = self.burst
        else:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Rates:
    """A bucket per key, each ``per_second`` events a second (``burst`` at once, by
    default one second's worth)."""

    def __init__(self, per_second: float, burst: float | None = None,
                 keep: float = 600.0) -> None:
        self.per_second = per_second
        self.burst = max(1.0, per_second if burst is None else burst)
        self.keep = keep
        self.buckets: dict[str, Bucket] = {}
        self.swept = time.monotonic()

    @classmethod
    def per_minute(cls, count: float) -> Rates:
        return cls(count / 60, burst=count)

    def take(self, key: str) -> bool:
        """Whether ``key`` may do it now (and if so, it is counted)."""
        now = time.monotonic()
        if now - self.swept > self.keep:
            self._sweep(now)
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket(self.per_second, self.burst)
        return bucket.take(now)

    def forget(self, key: str) -> None:
        self.buckets.pop(key, None)

    def _sweep(self, now: float) -> None:
        # A bucket untouched long enough to be full again is the same as none.
        full = self.burst / self.per_second if self.per_second else self.keep
        self.buckets = {k: b for k, b in self.buckets.items() if now - b.at < full}
        self.swept = now
