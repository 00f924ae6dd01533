"""Dice a table can prove it did not choose.

:class:`FairDice` draws every throw from a secret seed with HMAC-SHA256 in counter mode
(a deterministic random bit generator in the manner of NIST SP 800-90A's HMAC_DRBG, one
block per draw): nobody can predict a throw without the seed, and anyone given the seed
afterwards recomputes every throw. A table publishes :func:`commitment` of its seed
(the SHA-256 of the seed's text) before play and reveals the seed when play is over;
``gammon verify`` replays the table's log against the seed and checks the commitment.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: The name a table's JSON gives these dice.
KIND = "hmac-sha256"


class FairDice:
    """Uniform draws in [0, 1) from ``seed``: draw ``n`` is the first 53 bits of
    HMAC-SHA256(seed, n), so the stream is the same on every machine."""

    def __init__(self, seed: int) -> None:
        self._key = str(seed).encode()
        self.draws = 0

    def random(self) -> float:
        block = hmac.new(self._key, self.draws.to_bytes(8, "big"), hashlib.sha256).digest()
        self.draws += 1
        return (int.from_bytes(block[:8], "big") >> 11) / float(1 << 53)


def new_seed() -> int:
    """A seed from the operating system's CSPRNG: 256 bits."""
    return secrets.randbits(256)


def commitment(seed: int) -> str:
    """What a table publishes before play: the SHA-256 of the seed's decimal text."""
    return hashlib.sha256(str(seed).encode()).hexdigest()
