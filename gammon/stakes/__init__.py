"""Stakes: the doubling cube, resignations, match play and money sessions.

The stakes are a layer over the game states: a :class:`CubeState` wraps any variant's
:class:`~gammon.core.variant.GameState` and adds the cube decisions and resignations,
speaking the same protocol, so the core knows nothing of stakes. The rules are
docs/rules/stakes.md.

- :class:`StakeRules`: the options (cube, limit, progression, beaver, raccoon, Jacoby,
  automatic doubles, no mars with the cube).
- :func:`cube_game`, :class:`CubeState`: a game with the cube; actions
  :class:`CubeAction`, :class:`Resign`, :class:`ResignAnswer`.
- :class:`MatchScore`, :class:`Match`: match play with the Crawford rule.
- :class:`Session`: money play, a ledger and each player's standing, for any number of
  players.
- :class:`GameRecord`: every roll, play and cube action of a game.

Where gnubg writes Match IDs that :class:`gammon.notation.MatchInfo` refuses (a beaver
on offer: the player on roll answers; a finished match whose winner scored past the
length), :func:`gammon.notation.gnuid.state_match_id` writes gnubg's form without
MatchInfo's checks.
"""

from gammon.stakes.cube import (
    CubeAction,
    CubeState,
    Ending,
    Offer,
    Resign,
    ResignAnswer,
    cube_game,
)
from gammon.stakes.match import Match
from gammon.stakes.record import Event, GameRecord
from gammon.stakes.rules import ARITHMETIC, GEOMETRIC, StakeRules, cube_default
from gammon.stakes.score import MatchScore
from gammon.stakes.session import LedgerEntry, Session, amounts_for

__all__ = [
    "ARITHMETIC",
    "GEOMETRIC",
    "CubeAction",
    "CubeState",
    "Ending",
    "Event",
    "GameRecord",
    "LedgerEntry",
    "Match",
    "MatchScore",
    "Offer",
    "Resign",
    "ResignAnswer",
    "Session",
    "StakeRules",
    "amounts_for",
    "cube_default",
    "cube_game",
]
