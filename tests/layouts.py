"""Two-player positions written as layouts, for the rules tests."""

from __future__ import annotations

from gammon import Position


def position(mover: dict[int, int], other: dict[int, int], turn: int = 0) -> Position:
    """Player ``turn`` has ``mover``, the other player ``other`` (slot: checkers, each in
    their own numbering, 25 the bar); the rest of the fifteen are off."""
    rows = []
    for layout in (mover, other) if turn == 0 else (other, mover):
        row = [0] * 26
        for slot, count in layout.items():
            row[slot] += count
        row[0] = 15 - sum(row)
        rows.append(row)
    return Position.from_checkers(rows, turn)
