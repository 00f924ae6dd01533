"""Acedrex Backgammon: four players, a ring of four territories, D20 combat and money.

Acedrex is not a track race, so it has its own rules object (:class:`Acedrex`) and its own
state (:class:`AcedrexState`); the state follows the game protocol of
:class:`gammon.core.variant.GameState` (phases CHANCE / DECIDE / TERMINAL, exact chance
outcomes, ``legal_actions``, ``apply``, ``returns``), so agents and tools written against
that protocol play it unchanged. The rules are docs/rules/acedrex.md; the labels in the
comments (ACE-...) point there.

The package is the game in parts: :mod:`.board` (the ring and whose piece is whose),
:mod:`.actions` (what a player may do, the stages of a turn), :mod:`.rules` (the options
and the first states), :mod:`.state` (the state and the protocol), :mod:`.moves`,
:mod:`.combat`, :mod:`.turns` (the jackpot, the turns, settling, the end),
:mod:`.chance`, :mod:`.text` and :mod:`.players` (random play). The compiled playouts
(:mod:`gammon.kernels.acedrex`) play the same rules under a replay test.

Pieces have identities: piece ``i`` belongs to player ``i // 9``. The ring is 40 stops in
the order pieces travel: for each territory its nine slots and then a gate. A slot holds
its pieces from the centre outward (the last to arrive is last).
"""

from __future__ import annotations

from gammon.kernels.acedrex import BLOCK, HAND, JACKPOT, PIECES, PLAYERS, RING, SIDES, SLOTS, STOPS

# The state first: the rules it calls import it in turn (acedrex/state.py).
# isort: off
from gammon.variants.acedrex.board import (
    COLOURS,
    LETTERS,
    SLOT_STOPS,
    TERRITORY_AT,
    first_stop,
    is_gate,
    owner,
    parse_stop,
    points,
    stop_name,
    territory,
)
from gammon.variants.acedrex.actions import (
    ATTACK,
    Action,
    D20,
    DEFEND,
    JUMP,
    Jump,
    KEEP,
    Keep,
    MOVE,
    NO_JUMP,
    NoJump,
    ONE,
    OVER,
    PASS,
    Pass,
    REROLL,
    RESIGN,
    ROLL,
    Reroll,
    Resign,
    START,
    Step,
)
from gammon.variants.acedrex.state import (
    AcedrexState,
)
from gammon.variants.acedrex.rules import (
    Acedrex,
)
from gammon.variants.acedrex.combat import (
    FightResult,
    combat_outcome,
    combat_stops,
    combat_territories,
    fight_result,
    fighting_pair,
)
from gammon.variants.acedrex.turns import (
    stalled,
)
from gammon.variants.acedrex.text import (
    fight_text,
)
from gammon.variants.acedrex.players import (
    random_action,
    random_game,
)
# isort: on

__all__ = [
    "ATTACK",
    "Acedrex",
    "AcedrexState",
    "Action",
    "BLOCK",
    "COLOURS",
    "D20",
    "DEFEND",
    "FightResult",
    "HAND",
    "JACKPOT",
    "JUMP",
    "Jump",
    "KEEP",
    "Keep",
    "LETTERS",
    "MOVE",
    "NO_JUMP",
    "NoJump",
    "ONE",
    "OVER",
    "PASS",
    "PIECES",
    "PLAYERS",
    "Pass",
    "REROLL",
    "RESIGN",
    "RING",
    "ROLL",
    "Reroll",
    "Resign",
    "SIDES",
    "SLOTS",
    "SLOT_STOPS",
    "START",
    "STOPS",
    "Step",
    "TERRITORY_AT",
    "combat_outcome",
    "combat_stops",
    "combat_territories",
    "fight_result",
    "fight_text",
    "fighting_pair",
    "first_stop",
    "is_gate",
    "owner",
    "parse_stop",
    "points",
    "random_action",
    "random_game",
    "stalled",
    "stop_name",
    "territory",
]
