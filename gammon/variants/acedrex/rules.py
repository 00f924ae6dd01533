"""The rules object of Acedrex Backgammon: its options, what it tells people, and its
first and mid-game states."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from gammon.core.dice import Roll
from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import GameType, Phase
from gammon.core.variant import register
from gammon.kernels import acedrex as kernel
from gammon.kernels.acedrex import JACKPOT, PIECES, PLAYERS, RING, SIDES, SLOTS
from gammon.variants.acedrex.actions import (
    ATTACK,
    DEFEND,
    JUMP,
    MOVE,
    ONE,
    PASS,
    RESIGN,
    ROLL,
    START,
)
from gammon.variants.acedrex.board import COLOURS, LETTERS, first_stop, is_gate, owner, stop_name
from gammon.variants.acedrex.chance import apply_throw
from gammon.variants.acedrex.combat import attack_outcomes, defend_outcomes, start_outcomes
from gammon.variants.acedrex.moves import act_on, legal_of, more_actions_than, piece_steps
from gammon.variants.acedrex.state import make_state
from gammon.variants.acedrex.text import throw_notes
from gammon.variants.acedrex.turns import settle_all

if TYPE_CHECKING:
    from gammon.variants.acedrex.actions import Action
    from gammon.variants.acedrex.state import AcedrexState


#: The most captures a player can make: every other player's pieces.
CAPTURES_MOST = PIECES * (PLAYERS - 1)


@register
@dataclass(frozen=True)
class Acedrex:
    """The rules of Acedrex Backgammon; the fields are its options (docs/rules/acedrex.md)."""

    name: ClassVar[str] = "acedrex"
    summary: ClassVar[str] = (
        "Acedrex Backgammon: 4 players on a ring of 4 territories x 9 slots, one D20 to "
        "move, D20 combat, a three-place jackpot; captures scored 1, 2, 4 ... 256 and paid "
        "in money."
    )
    aliases: ClassVar[tuple[str, ...]] = ("acedrex-backgammon",)
    #: A quick game (issue 34): the game ends at the fourth capture (score 8 at most
    #: ... 16 with a double capture) and at the 200th turn at the latest.
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "acedrex-quick": {"captures_to_end": 4, "turn_cap": 200}}
    #: What a table sets (Rules.table_options): the captures that end the game, all the
    #: rules allow, and a turn cap of 1 to 1,000 turns (never none: a table must end).
    table_options: ClassVar[Mapping[str, tuple[int, int]]] = {
        "captures_to_end": (1, CAPTURES_MOST), "turn_cap": (1, 1000)}
    players: ClassVar[int] = PLAYERS
    territories: ClassVar[int] = PLAYERS
    slots: ClassVar[int] = SLOTS
    sides: ClassVar[int] = SIDES
    jackpot_places: ClassVar[int] = JACKPOT
    # What the variant is, for the layers above (gammon.core.protocol.Rules).
    board: ClassVar[str] = "ring"
    notation: ClassVar[str] = "acedrex"
    move_text: ClassVar[str] = "acedrex"
    evaluator: ClassVar[str] = "acedrex"
    #: The evaluation of the ``money`` bots: the money expected when the game ends.
    money_evaluator: ClassVar[str] = "acedrex-end"
    #: The money bot's slowest of 30 decisions: 76 ms with both cores busy (docs/strength.md).
    think_seconds: ClassVar[float] = 0.1
    cube: ClassVar[bool] = False
    #: What kind of game it is. A decision lists a step of each of the nine pieces of a
    #: side for each way of spending the die, jumps and resign: 1,024 at most (its
    #: largest in 300 random games listed 157).
    game_type: ClassVar[GameType] = GameType(
        players=PLAYERS, turns="own", board="ring", checkers=False, stakes=False,
        max_actions=1024, dice=1,
        chance="a D20 to move (a 1 kept or thrown again), D20s in combat, one each to start")

    stake: int = 1
    captures_to_end: int = 8
    turn_cap: int = 1000
    split_die: bool = True
    combat_scope: str = "territory"
    #: Where a defender beaten away from its own territory goes: "hand" (back to its
    #: owner's hand, as both lines of the source say) or "captured" (ACE-COMBAT-WIN).
    foreign_defender: str = "hand"
    ties: str = "reroll"
    payout: str = "difference"
    threshold: int = 13

    def __post_init__(self) -> None:
        choices = {
            "combat_scope": ("territory", "board"),
            "foreign_defender": ("captured", "hand"),
            "ties": ("reroll", "defender"),
            "payout": ("difference", "victim"),
        }
        for option, allowed in choices.items():
            if getattr(self, option) not in allowed:
                raise InvalidOptionError(
                    f"option {option} of acedrex is one of {', '.join(allowed)}, "
                    f"not {getattr(self, option)!r}"
                )
        if self.stake < 1:
            raise InvalidOptionError(f"stake is money per point, at least 1, not {self.stake}")
        if not 1 <= self.captures_to_end <= CAPTURES_MOST:
            raise InvalidOptionError(
                f"captures_to_end is 1 to {CAPTURES_MOST}, not {self.captures_to_end}"
            )
        if self.turn_cap < 0:
            raise InvalidOptionError(f"turn_cap is 0 (none) or more, not {self.turn_cap}")
        if not 2 <= self.threshold <= 30:
            raise InvalidOptionError(f"threshold is 2 to 30, not {self.threshold}")

    @property
    def checkers(self) -> int:
        """Pieces per player."""
        return PIECES

    def options(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    # --- what a state defers to (StateRules) -----------------------------------------

    def throws_of(self, state: AcedrexState) -> Sequence[tuple[Roll, Fraction]]:
        """The outcomes of the combat's throw under way, or of a starting throw."""
        if state.stage == ATTACK:
            return attack_outcomes(state)
        if state.stage == DEFEND:
            return defend_outcomes(state)
        return start_outcomes(state)

    def actions_of(self, state: AcedrexState) -> list[Action]:
        return legal_of(state)

    def wider_than(self, state: AcedrexState, count: int) -> bool:
        return more_actions_than(state, count)

    def after_throw(self, state: AcedrexState, die: int) -> AcedrexState:
        return apply_throw(state, die)

    def after_action(self, state: AcedrexState, action: Any) -> AcedrexState:
        return act_on(state, action)

    def settle(self, captured: tuple[tuple[int, ...], ...], out: tuple[bool, ...],
               money: list[int]) -> None:
        settle_all(self, captured, out, money)

    # --- what people are told (gammon.core.protocol.Rules) ---------------------------

    def decision_prompt(self, state: AcedrexState) -> str | None:
        """The question of a decision: spend the die, keep a 1, jump after a 20."""
        if state.stage == ONE:
            return "keep the 1 or throw again?"
        if state.stage == JUMP:
            return "jump a piece after the 20, or not?"
        if state.stage == MOVE:
            left = f" ({state.left} left)" if state.parts else ""
            return f"move {state.die}{left}"
        return None

    def in_play(self, state: AcedrexState, player: int) -> bool:
        return not state.is_terminal and not state.out[player]

    def no_move_reason(self, state: AcedrexState) -> str | None:
        if state.stage == MOVE and state.legal_actions()[0] is PASS:
            return "no piece can use the die"
        return None

    def announce(self, before: AcedrexState, taken: Any,
                 after: AcedrexState) -> list[tuple[int | None, str]]:
        """What a throw or an action did, for the game's log: the starting throws,
        each combat's throws and result, the jackpot paying out, a player leaving.
        Each note names the player it is about (or None)."""
        notes: list[tuple[int | None, str]] = []
        if before.phase is Phase.CHANCE and isinstance(taken, Roll):
            notes.extend(throw_notes(before, taken.dice[0], after))
        if after.stage == ATTACK and not (
            before.stage in (ATTACK, DEFEND) and before.fight == after.fight
            and before.turns == after.turns
        ):
            attacker, defender = after.combat()
            notes.append((owner(attacker), f"attacks {COLOURS[owner(defender)]} on "
                          f"{stop_name(after.fight)}: combat."))
        if before.jackpot and not after.jackpot and len(after.removed) == len(before.removed):
            q = owner(before.jackpot[-1]) if len(before.jackpot) == JACKPOT else after.turn
            taken_back = [x for x in after.captured[q] if x not in before.captured[q]]
            letters = " ".join(LETTERS[owner(x)] for x in taken_back) or "nothing"
            again = "" if after.is_terminal else " and moves again"
            notes.append((q, f"fills the jackpot: captures {letters}, takes their own "
                          f"pieces back into hand{again}."))
        for p in range(PLAYERS):
            if after.out[p] and not before.out[p]:
                owed = after.money[p] - before.money[p]
                notes.append((p, f"leaves the game and settles: {owed:+d}."))
        if after.is_terminal and not before.is_terminal:
            reasons = {"captures": f"a player has {self.captures_to_end} captures",
                       "resignations": "only one player is left",
                       "stalled": "nothing can be captured any more", "cap": "the turn cap"}
            notes.append((None, f"Game over after {after.turns} turns: "
                          f"{reasons.get(after.ended, after.ended)}."))
        return notes

    # --- states ----------------------------------------------------------------------

    def initial_state(self) -> AcedrexState:
        """A new game (ACE-START) before the starting throws (ACE-FIRST)."""
        ring: list[tuple[int, ...]] = [()] * RING
        for p in range(PLAYERS):
            for k in range(SLOTS):
                ring[first_stop(p) + k] = (p * PIECES + k,)
        return make_state(
            self, tuple(ring), 0, ((),) * PLAYERS, (), ((),) * PLAYERS, (),
            (False,) * PLAYERS, (0,) * PLAYERS, 0, Phase.CHANCE, START, 0, 0, 0, (), -1, 0,
            0, tuple(range(PLAYERS)), (),
        )

    def state(
        self,
        ring: Sequence[Sequence[int]],
        turn: int,
        *,
        die: int | None = None,
        left: int | None = None,
        tapped: Sequence[int] = (),
        hands: Sequence[Sequence[int]] = ((), (), (), ()),
        jackpot: Sequence[int] = (),
        captured: Sequence[Sequence[int]] = ((), (), (), ()),
        out: Sequence[int] = (),
        money: Sequence[int] = (0, 0, 0, 0),
        turns: int = 0,
    ) -> AcedrexState:
        """A mid-game state, for tests, notation and analysis.

        ``ring`` has one sequence of piece numbers per stop (40, gates empty), centre
        first. ``turn`` is to roll (their turn has begun, so their pieces are untapped),
        or with ``die`` to move (``left`` still to spend, the whole die if None). Pieces
        placed nowhere are out of play.
        """
        if len(ring) != RING:
            raise InvalidOptionError(f"the ring has {RING} stops, not {len(ring)}")
        seen: list[int] = []
        for stop, stack in enumerate(ring):
            if stack and is_gate(stop):
                raise InvalidOptionError(f"gate {stop_name(stop)} cannot hold pieces")
            seen.extend(stack)
        for group in (*hands, jackpot, *captured):
            seen.extend(group)
        if any(not 0 <= x < PLAYERS * PIECES for x in seen) or len(set(seen)) != len(seen):
            raise InvalidOptionError("each piece (0-35) may stand in one place only")
        if len(jackpot) > JACKPOT:
            raise InvalidOptionError(f"the jackpot has {JACKPOT} places")
        for p, hand in enumerate(hands):
            if any(owner(x) != p for x in hand):
                raise InvalidOptionError(f"{COLOURS[p]}'s hand holds another player's piece")
        for p, group in enumerate(captured):
            if any(owner(x) == p for x in group):
                raise InvalidOptionError(f"{COLOURS[p]} cannot have captured own pieces")
        if any(len(group) >= self.captures_to_end for group in captured):
            raise InvalidOptionError(f"a player has {self.captures_to_end} captures, which "
                                     "ends the game: a mid-game state is one in play")
        if sum(1 for p in range(PLAYERS) if p not in out) < 2:
            raise InvalidOptionError("at least two players must be in the game: with one "
                                     "left it is over, and a mid-game state is one in play")
        if not 0 <= turn < PLAYERS or turn in out:
            raise InvalidOptionError(f"player {turn} cannot be on turn")
        removed = tuple(x for x in range(PLAYERS * PIECES) if x not in set(seen))
        tapmask = 0
        for x in tapped:
            if die is not None or owner(x) != turn:  # ACE-UNTAP: a turn begins untapped
                tapmask |= 1 << x
        stage, phase = ROLL, Phase.CHANCE
        die_value = left_value = parts = 0
        if die is not None:
            if not 1 <= die <= SIDES:
                raise InvalidOptionError(f"the die is 1 to {SIDES}, not {die}")
            left_value = die if left is None else left
            if not 0 < left_value <= die:
                raise InvalidOptionError(f"left to spend is 1 to {die}, not {left_value}")
            stage, phase, die_value = MOVE, Phase.DECIDE, die
            parts = 0 if left_value == die else 1
        state = make_state(
            self, tuple(tuple(s) for s in ring), tapmask, tuple(tuple(sorted(h)) for h in hands),
            tuple(jackpot), tuple(tuple(c) for c in captured), removed,
            tuple(p in out for p in range(PLAYERS)), tuple(money), turn, phase, stage,
            die_value, left_value, parts, (), -1, 0, turns, (), (),
        )
        if stage == MOVE:
            legal = piece_steps(state)
            if not legal and parts:
                raise InvalidOptionError("no piece can use what is left of the die")
            state._legal.append([*legal, RESIGN] if legal else [PASS, RESIGN])
        return state

    def kernel_rules(self) -> np.ndarray:
        """The options as the compiled playouts read them."""
        rules = np.zeros(kernel.RULES, np.int64)
        rules[kernel.R_SPLIT] = self.split_die
        rules[kernel.R_BOARD] = self.combat_scope == "board"
        rules[kernel.R_FOREIGN_HAND] = self.foreign_defender == "hand"
        rules[kernel.R_TIES_DEFENDER] = self.ties == "defender"
        rules[kernel.R_VICTIM] = self.payout == "victim"
        rules[kernel.R_THRESHOLD] = self.threshold
        rules[kernel.R_END] = self.captures_to_end
        rules[kernel.R_CAP] = self.turn_cap
        rules[kernel.R_STAKE] = self.stake
        return rules

    def random_playouts(
        self, games: int, seed: int | None, max_turns: int | None = None,
        resign_rate: float = 0.0,
    ) -> np.ndarray:
        """``games`` whole games between random players in the compiled kernel: uniform
        over the legal actions other than resigning, which each decision takes with
        probability ``resign_rate``. ``max_turns`` lowers the turn cap when smaller.

        One row per game (:mod:`gammon.kernels.acedrex` names the columns): the winner
        (most money; -1 when the turn cap stopped the game), the winner's money, the
        decisions made, as in the track games' playouts; then how the game ended (0
        captures, 1 resignations, 2 turn cap), the turns, each player's money and each
        player's captures. ``seed`` reseeds the compiled generator; None continues its
        stream."""
        rules = self.kernel_rules()
        if max_turns is not None and (not self.turn_cap or max_turns < self.turn_cap):
            rules[kernel.R_CAP] = max_turns
        if seed is not None:
            kernel.seed(seed)
        return kernel.random_playouts(rules, games, float(resign_rate))
