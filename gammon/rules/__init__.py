"""The rules of the track games as blocks (:mod:`gammon.rules.blocks`)."""

from gammon.rules.blocks import (
    BLOCKS,
    AfterHit,
    BearingOff,
    Blocking,
    Contact,
    Dice,
    Ending,
    Entering,
    Head,
    Track,
    rules_vector,
    slot,
)

__all__ = ["BLOCKS", "AfterHit", "BearingOff", "Blocking", "Contact", "Dice", "Ending",
           "Entering", "Head", "Track", "rules_vector", "slot"]
