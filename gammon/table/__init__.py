"""A game, match or money session with seats, the stakes and a log: the one door every
face (terminal, web, environments) plays through. See :mod:`gammon.table.table`."""

from gammon.table.table import (
    ANOTHER,
    CHOICE,
    CUBE,
    ENOUGH,
    GAME,
    HUMAN,
    MATCH,
    MONEY,
    NEXT_GAME,
    PLAY,
    RESIGNATION,
    TAKE,
    Question,
    Seat,
    Step,
    Table,
)

__all__ = [
    "ANOTHER", "CHOICE", "CUBE", "ENOUGH", "GAME", "HUMAN", "MATCH", "MONEY", "NEXT_GAME",
    "PLAY", "RESIGNATION", "TAKE", "Question", "Seat", "Step", "Table",
]
