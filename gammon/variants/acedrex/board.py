"""The board of Acedrex Backgammon: the ring, its territories, slots and gates, whose
piece is whose, and what captures score (ACE-BOARD, ACE-SEATS, ACE-DIRECTION, ACE-SCORE)."""

from __future__ import annotations

from gammon.core.errors import InvalidOptionError
from gammon.kernels.acedrex import BLOCK, HAND, PIECES, PLAYERS, RING, SLOTS, STOPS

# The board's numbers (PLAYERS, SLOTS a territory, PIECES each, STOPS = a territory and
# the gate after it, RING = 40 stops, JACKPOT places, a D20, HAND the source of a piece
# entering from hand, BLOCK) are defined once, with the compiled playouts. Seats are
# clockwise and travel counter-clockwise, so the blocks of the ring in the order of travel
# hold the territories of Blue, Yellow, Orange and Red: BLOCK[p] is player p's block.

LETTERS = "BROY"
COLOURS = ("Blue", "Red", "Orange", "Yellow")
TERRITORY_AT = tuple(BLOCK.index(b) for b in range(PLAYERS))
#: Ring stops of every slot (gates left out), in the order of travel from Blue's slot 1.
SLOT_STOPS = tuple(r for r in range(RING) if r % STOPS != SLOTS)


def owner(piece: int) -> int:
    """The player a piece belongs to."""
    return piece // PIECES


def is_gate(stop: int) -> bool:
    return stop % STOPS == SLOTS


def first_stop(player: int) -> int:
    """The ring stop of ``player``'s slot 1."""
    return BLOCK[player] * STOPS


def territory(stop: int) -> int:
    """The player whose territory holds ``stop``; -1 for a gate."""
    return -1 if is_gate(stop) else TERRITORY_AT[stop // STOPS]


def stop_name(stop: int) -> str:
    """``B1`` … ``Y9`` for slots; gates are named after the slot before them (``B9+``)."""
    if stop == HAND:
        return "hand"
    block, index = divmod(stop % RING, STOPS)
    letter = LETTERS[TERRITORY_AT[block]]
    return f"{letter}9+" if index == SLOTS else f"{letter}{index + 1}"


def parse_stop(text: str) -> int:
    """The ring stop of a slot name such as ``b3`` or ``Y9``; ``hand`` gives HAND."""
    word = text.strip().upper()
    if word in ("H", "HAND"):
        return HAND
    if len(word) == 2 and word[0] in LETTERS and word[1] in "123456789":
        return first_stop(LETTERS.index(word[0])) + int(word[1]) - 1
    raise InvalidOptionError(f"{text!r} is not a slot: write a letter B, R, O or Y and 1-9")


def points(captures: int) -> int:
    """ACE-SCORE: 0, 1, 2, 4, ... 256 for 0 to 9 captured pieces."""
    return 0 if captures <= 0 else 1 << (captures - 1)


def fighting_pair(stack: tuple[int, ...], tapped: int) -> int:
    """ACE-PAIR, ACE-TAPPED-BLOCK: the index of the attacker in ``stack`` (the defender is
    the next one in), or -1 when the slot has no combat."""
    for i in range(len(stack) - 1, 0, -1):
        a, d = stack[i], stack[i - 1]
        if tapped >> a & 1 or tapped >> d & 1:
            return -1
        if a // PIECES != d // PIECES:
            return i
    return -1
