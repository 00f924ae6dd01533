"""Acedrex Backgammon: four players, a ring of four territories, D20 combat and money.

Acedrex is not a track race, so it has its own rules object (:class:`Acedrex`) and its own
state (:class:`AcedrexState`); the state follows the game protocol of
:class:`gammon.core.state.GameState` (phases CHANCE / DECIDE / TERMINAL, exact chance
outcomes, ``legal_actions``, ``apply``, ``returns``), so agents and tools written against
that protocol play it unchanged. The rules are docs/rules/acedrex.md; the labels in the
comments (ACE-...) point there.

Pieces have identities: piece ``i`` belongs to player ``i // 9``. The ring is 40 stops in
the order pieces travel: for each territory its nine slots and then a gate. A slot holds
its pieces from the centre outward (the last to arrive is last).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from gammon.core.dice import Outcomes, Roll
from gammon.core.errors import IllegalOutcomeError, IllegalPlayError, InvalidOptionError
from gammon.core.protocol import GameType, RandomSource
from gammon.core.state import Phase
from gammon.core.variant import register
from gammon.kernels import acedrex as kernel
from gammon.kernels.acedrex import (
    BLOCK,
    HAND,
    JACKPOT,
    PIECES,
    PLAYERS,
    RING,
    SIDES,
    SLOTS,
    STOPS,
)

# --- the board (ACE-BOARD, ACE-SEATS, ACE-DIRECTION) ------------------------------------

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


# --- actions -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """Move one piece ``steps`` stops (one part of the die). ``source`` is a ring stop or
    HAND. ``target`` and ``charge`` describe the landing (for display; not compared)."""

    source: int
    steps: int
    target: int = field(default=-1, compare=False)
    charge: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        target = self.target if self.target >= 0 else (self.source + self.steps) % RING
        land = "jackpot" if is_gate(target) else stop_name(target)
        return f"{stop_name(self.source)}+{self.steps}>{land}{'*' if self.charge else ''}"


@dataclass(frozen=True, slots=True)
class Jump:
    """ACE-JUMP: teleport the piece on ``source`` to ``target`` (after a 20)."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"jump {stop_name(self.source)}>{stop_name(self.target)}"


@dataclass(frozen=True, slots=True)
class NoJump:
    def __str__(self) -> str:
        return "no jump"


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep a movement roll of 1 (ACE-ONE-MOVE)."""

    def __str__(self) -> str:
        return "keep 1"


@dataclass(frozen=True, slots=True)
class Reroll:
    """Throw a movement roll of 1 again (ACE-ONE-MOVE)."""

    def __str__(self) -> str:
        return "reroll"


@dataclass(frozen=True, slots=True)
class Pass:
    """Nothing can move (ACE-NO-MOVE)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Resign:
    """ACE-RESIGN: leave the game and settle now."""

    def __str__(self) -> str:
        return "resign"


NO_JUMP, KEEP, REROLL, PASS, RESIGN = NoJump(), Keep(), Reroll(), Pass(), Resign()
Action = Step | Jump | NoJump | Keep | Reroll | Pass | Resign

#: One D20: every throw in the game (ACE-FIRST, ACE-ROLL, ACE-COMBAT-ROLL).
D20 = Outcomes((Roll((d,)), Fraction(1, SIDES)) for d in range(1, SIDES + 1))

# Stages of a turn.
START = "start"  # CHANCE: a starting throw (ACE-FIRST)
ROLL = "roll"  # CHANCE: the movement die
ONE = "one"  # DECIDE: keep or re-roll a 1
MOVE = "move"  # DECIDE: spend the die
JUMP = "jump"  # DECIDE: jump after a 20
ATTACK = "attack"  # CHANCE: the attacker's combat throw
DEFEND = "defend"  # CHANCE: the defender's combat throw
OVER = "over"  # TERMINAL


# --- the rules object ----------------------------------------------------------------------


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
    presets: ClassVar[dict[str, dict[str, Any]]] = {}
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
    bots: ClassVar[tuple[str, ...]] = ("expectimax", "mcts", "heuristic", "neural", "random")
    #: Its decisions are wide (each part of a D20 can go to many places), so the search
    #: keeps four root candidates, and inside the tree scores a decision of more than
    #: twelve actions as it stands rather than by its best action.
    bot_options: ClassVar[Mapping[str, str]] = {"expectimax": "width=4:wide=12", "mcts": "40"}
    think_seconds: ClassVar[float] = 0.2
    cube: ClassVar[bool] = False
    #: What kind of game it is. A decision lists a step of each of the nine pieces of a
    #: side for each way of spending the die, jumps and resign: 1,024 at most (its
    #: largest in 300 random games listed 157).
    game_type: ClassVar[GameType] = GameType(
        players=PLAYERS, turns="own", board="ring", checkers=False, stakes=False,
        max_actions=1024, chance="a D20 to move (a 1 kept or thrown again), D20s in combat, "
        "one each to start")

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
        if not 1 <= self.captures_to_end <= PIECES * (PLAYERS - 1):
            raise InvalidOptionError(
                f"captures_to_end is 1 to {PIECES * (PLAYERS - 1)}, not {self.captures_to_end}"
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
            notes.extend(_throw_notes(before, taken.dice[0], after))
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
        return _make(
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
        state = _make(
            self, tuple(tuple(s) for s in ring), tapmask, tuple(tuple(sorted(h)) for h in hands),
            tuple(jackpot), tuple(tuple(c) for c in captured), removed,
            tuple(p in out for p in range(PLAYERS)), tuple(money), turn, phase, stage,
            die_value, left_value, parts, (), -1, 0, turns, (), (),
        )
        if stage == MOVE:
            legal = _steps(state)
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


def _make(variant: Acedrex, ring: tuple[tuple[int, ...], ...], tapped: int,
          hands: tuple[tuple[int, ...], ...], jackpot: tuple[int, ...],
          captured: tuple[tuple[int, ...], ...], removed: tuple[int, ...],
          out: tuple[bool, ...], money: tuple[int, ...], turn: int, phase: Phase, stage: str,
          die: int, left: int, parts: int, queue: tuple[int, ...], fight: int, attack: int,
          turns: int, contenders: tuple[int, ...], throws: tuple[int, ...],
          ended: str = "") -> AcedrexState:
    state = object.__new__(AcedrexState)
    setter = object.__setattr__
    setter(state, "variant", variant)
    setter(state, "ring", ring)
    setter(state, "tapped", tapped)
    setter(state, "hands", hands)
    setter(state, "jackpot", jackpot)
    setter(state, "captured", captured)
    setter(state, "removed", removed)
    setter(state, "out", out)
    setter(state, "money", money)
    setter(state, "turn", turn)
    setter(state, "phase", phase)
    setter(state, "stage", stage)
    setter(state, "die", die)
    setter(state, "left", left)
    setter(state, "parts", parts)
    setter(state, "queue", queue)
    setter(state, "fight", fight)
    setter(state, "attack", attack)
    setter(state, "turns", turns)
    setter(state, "contenders", contenders)
    setter(state, "throws", throws)
    setter(state, "ended", ended)
    setter(state, "_legal", [])
    return state


# --- the state -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AcedrexState:
    """Everything an Acedrex game needs to go on; an immutable value.

    ``ring``: 40 stops, each the pieces on it from the centre out. ``tapped``: a bit per
    piece. ``hands``/``captured``: per player (pieces in hand / pieces they captured).
    ``jackpot``: pieces in the order placed. ``removed``: pieces of resigned players.
    ``out``: who resigned. ``money``: settled so far. ``turn``: the player on turn (at
    START the next to throw is ``contenders[len(throws)]``). ``stage``: what is pending
    (see the stage constants). ``die``/``left``/``parts``: the die, what is left of it and
    how many parts were spent. ``queue``: stops whose combat is still to solve this turn;
    ``fight``: the stop fighting now (-1 none) and ``attack`` the attacker's throw.
    ``turns``: turns begun. ``ended``: why the game ended (``captures``, ``resignations``,
    ``stalled`` or ``cap``).
    """

    variant: Acedrex
    ring: tuple[tuple[int, ...], ...]
    tapped: int
    hands: tuple[tuple[int, ...], ...]
    jackpot: tuple[int, ...]
    captured: tuple[tuple[int, ...], ...]
    removed: tuple[int, ...]
    out: tuple[bool, ...]
    money: tuple[int, ...]
    turn: int
    phase: Phase
    stage: str
    die: int
    left: int
    parts: int
    queue: tuple[int, ...]
    fight: int
    attack: int
    turns: int
    contenders: tuple[int, ...]
    throws: tuple[int, ...]
    ended: str = ""
    _legal: list[Any] = field(default_factory=list, compare=False, repr=False)

    # --- the protocol ------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        """The player to act at DECIDE; None at CHANCE and TERMINAL."""
        return self.turn if self.phase is Phase.DECIDE else None

    @property
    def is_chance(self) -> bool:
        return self.phase is Phase.CHANCE

    @property
    def is_terminal(self) -> bool:
        return self.phase is Phase.TERMINAL

    @property
    def players(self) -> int:
        return PLAYERS

    def chance_outcomes(self) -> Sequence[tuple[Roll, Fraction]]:
        """Every outcome of the pending throw (one D20) with its exact probability.

        A throw that is thrown again is no outcome: a combat 1 (ACE-COMBAT-ONE), a
        defender's throw that ties the attacker's (ACE-TIE, which throws both again),
        the last starting throw that ties every other (ACE-FIRST). The outcomes left
        carry the probability of what eventually happens, so the attacker's throws are
        weighted by how often the defender's answer does not tie, and a starting throw
        that could still end in an all-round tie is weighted likewise."""
        if self.phase is not Phase.CHANCE:
            raise ValueError(f"no dice to throw in the {self.phase.value} phase")
        if self.stage == ATTACK:
            return _attack_outcomes(self)
        if self.stage == DEFEND:
            return _defend_outcomes(self)
        if self.stage == START:
            return _start_outcomes(self)
        return D20

    def legal_actions(self) -> list[Action]:
        """The actions of the player to move; ``resign`` is always last."""
        if self.phase is not Phase.DECIDE:
            raise ValueError(f"no decision to make in the {self.phase.value} phase")
        if not self._legal:
            self._legal.append(_legal(self))
        return self._legal[0]

    def apply(self, outcome_or_action: Any) -> AcedrexState:
        """The state after a throw (at CHANCE) or an action (at DECIDE)."""
        if self.phase is Phase.CHANCE:
            roll = outcome_or_action
            if (not isinstance(roll, Roll) or roll.opening or roll.players
                    or len(roll.dice) != 1 or roll.dice[0].__class__ is not int
                    or not 1 <= roll.dice[0] <= SIDES):
                raise IllegalOutcomeError(f"one D20 is to be thrown, not {roll!r}")
            return _throw(self, roll.dice[0])
        if self.phase is Phase.DECIDE:
            return _act(self, outcome_or_action)
        raise ValueError("the game is over")

    def returns(self) -> tuple[float, ...]:
        """Each player's money (ACE-RETURNS): zero until the game is over."""
        if self.phase is not Phase.TERMINAL:
            return (0.0,) * PLAYERS
        return tuple(float(m) for m in self.money)

    @property
    def winner(self) -> int | None:
        """The player with the most money at the end (the first of equals)."""
        if self.phase is not Phase.TERMINAL:
            return None
        return max(range(PLAYERS), key=self.money.__getitem__)

    def sample_chance(self, rng: RandomSource) -> Roll:
        """Draw a throw with its probability, with one ``rng.random()``."""
        outcomes = self.chance_outcomes()
        assert isinstance(outcomes, Outcomes)
        return outcomes.draw(rng.random())

    # --- views -------------------------------------------------------------------------

    def active(self) -> list[int]:
        """Players still in the game."""
        return [p for p in range(PLAYERS) if not self.out[p]]

    def is_tapped(self, piece: int) -> bool:
        return bool(self.tapped >> piece & 1)

    def captures(self, player: int) -> int:
        return len(self.captured[player])

    def scores(self) -> tuple[int, ...]:
        """ACE-SCORE: each player's points for the pieces they captured."""
        return tuple(points(len(c)) for c in self.captured)

    def standing(self) -> tuple[int, ...]:
        """Money if the game ended now: what is settled plus the open settlements."""
        money = list(self.money)
        if self.phase is not Phase.TERMINAL:
            _settle_all(self.variant, self.captured, self.out, money)
        return tuple(money)

    def pieces_of(self, player: int) -> list[int]:
        """Where ``player``'s pieces are, as ring stops (HAND for hand, -2 jackpot, -3
        captured, -4 out of play)."""
        where = [-4] * PIECES
        for stop, stack in enumerate(self.ring):
            for x in stack:
                if owner(x) == player:
                    where[x % PIECES] = stop
        for x in self.hands[player]:
            where[x % PIECES] = HAND
        for x in self.jackpot:
            if owner(x) == player:
                where[x % PIECES] = -2
        for group in self.captured:
            for x in group:
                if owner(x) == player:
                    where[x % PIECES] = -3
        return where

    def fighters(self) -> tuple[int, int] | None:
        """(attacker, defender) of the combat being thrown for, or None."""
        if self.fight < 0:
            return None
        stack = self.ring[self.fight]
        i = fighting_pair(stack, self.tapped)
        return stack[i], stack[i - 1]

    def combat(self) -> tuple[int, int]:
        """(attacker, defender) of the combat under way (the ATTACK and DEFEND stages)."""
        fighters = self.fighters()
        if fighters is None:
            raise ValueError("no combat is under way")
        return fighters


# --- legal actions ---------------------------------------------------------------------


def _legal(state: AcedrexState) -> list[Action]:
    if state.stage == ONE:
        return [KEEP, REROLL, RESIGN]
    if state.stage == MOVE:
        steps: list[Action] = list(_steps(state))
        return [*steps, RESIGN] if steps else [PASS, RESIGN]
    if state.stage == JUMP:
        return [*_jumps(state), NO_JUMP, RESIGN]
    raise AssertionError(state.stage)


def _source(stack: tuple[int, ...], player: int, tapped: int) -> int:
    """Index of the piece ``player`` would move from ``stack`` (the outermost untapped
    one), or -1 when none may move: no untapped piece of theirs, or an opponent there
    (ACE-ALONE)."""
    found = -1
    for i, x in enumerate(stack):
        if x // PIECES != player:
            return -1
        if not tapped >> x & 1:
            found = i
    return found


def _steps(state: AcedrexState) -> list[Step]:
    """ACE-MOVE, ACE-SPLIT, ACE-HAND, ACE-CHARGE: every legal next part of the die."""
    return list(_each_step(state))


def _can_step(state: AcedrexState) -> bool:
    """Whether any part of the die can be moved: found without listing the steps (after
    each part of a split die; most such states are only looked at by a search)."""
    return next(_each_step(state), None) is not None


def _each_step(state: AcedrexState) -> Iterator[Step]:
    rules = state.variant
    p, ring, tapped, left, die = state.turn, state.ring, state.tapped, state.left, state.die
    first = state.parts == 0
    if rules.split_die:
        if not first and not left:
            return
        low = 1
    else:
        if not first:
            return
        low = left
    gates_open = len(state.jackpot) < JACKPOT
    # A piece moves from its hand, or from a slot that only its owner holds.
    sources: Iterator[tuple[int, int]] = (
        (stop, stop) for stop in _SLOTS_FROM[p]
        if ring[stop] and _source(ring[stop], p, tapped) >= 0)
    if state.hands[p]:
        sources = itertools.chain(((HAND, first_stop(p) - 1),), sources)
    for source, start in sources:
        for k in range(low, left + 1):
            target = (start + k) % RING
            if target % STOPS == SLOTS:
                if gates_open:
                    yield Step(source, k, target)
                continue
            if all(x // PIECES == p for x in ring[target]):
                yield Step(source, k, target)
            elif first and k == die:
                yield Step(source, k, target, True)


#: Each player's slots in the order they move through them, from their first stop.
_SLOTS_FROM = tuple(tuple(stop for stop in ((first_stop(p) + k) % RING for k in range(RING))
                          if stop % STOPS != SLOTS) for p in range(PLAYERS))


def _jumps(state: AcedrexState) -> list[Jump]:
    """ACE-JUMP: an untapped Alone piece to another slot beside an untapped friend."""
    p, ring, tapped = state.turn, state.ring, state.tapped
    sources, targets = [], []
    for stop in SLOT_STOPS:
        stack = ring[stop]
        if not stack:
            continue
        if _source(stack, p, tapped) >= 0:
            sources.append(stop)
        if any(x // PIECES == p and not tapped >> x & 1 for x in stack):
            targets.append(stop)
    return [Jump(s, t) for s in sources for t in targets if s != t]


# --- applying actions ----------------------------------------------------------------------


def _act(state: AcedrexState, action: Any) -> AcedrexState:
    legal = state.legal_actions()
    try:
        index = legal.index(action)
    except ValueError:
        shown = ", ".join(str(a) for a in legal[:12])
        more = f" … ({len(legal)} in all)" if len(legal) > 12 else ""
        raise IllegalPlayError(f"{action} is not legal now; legal: {shown}{more}") from None
    action = legal[index]
    if isinstance(action, Step):
        return _step(state, action)
    if isinstance(action, Resign):
        return _resign(state)
    if isinstance(action, Keep):
        return _replace(state, stage=MOVE, die=1, left=1, parts=0)
    if isinstance(action, Reroll):
        return _replace(state, phase=Phase.CHANCE, stage=ROLL, die=0)
    if isinstance(action, Pass):
        return _end_movement(state)
    if isinstance(action, Jump):
        return _combats(_jump(state, action))
    if isinstance(action, NoJump):
        return _combats(state)
    raise AssertionError(action)


def _replace(state: AcedrexState, **changes: Any) -> AcedrexState:
    values = {name: getattr(state, name) for name in _FIELDS}
    values.update(changes)
    return _make(**values)


_FIELDS = [f.name for f in dataclasses.fields(AcedrexState) if f.name != "_legal"]


def _step(state: AcedrexState, step: Step) -> AcedrexState:
    p = state.turn
    ring = list(state.ring)
    hands = state.hands
    if step.source == HAND:
        piece = hands[p][0]
        hands = (*hands[:p], hands[p][1:], *hands[p + 1:])
    else:
        stack = ring[step.source]
        i = _source(stack, p, state.tapped)
        piece = stack[i]
        ring[step.source] = stack[:i] + stack[i + 1:]
    jackpot = state.jackpot
    tapped = state.tapped
    if is_gate(step.target):  # ACE-JACKPOT-ENTER
        jackpot = (*jackpot, piece)
        tapped &= ~(1 << piece)
    else:
        ring[step.target] = (*ring[step.target], piece)
        tapped |= 1 << piece  # ACE-TAP
    left = 0 if step.charge else state.left - step.steps
    after = _replace(state, ring=tuple(ring), hands=hands, jackpot=jackpot, tapped=tapped,
                     left=left, parts=state.parts + 1)
    if left and _can_step(after):
        return after
    return _end_movement(after)


def _end_movement(state: AcedrexState) -> AcedrexState:
    if state.die == SIDES:
        jumps = _jumps(state)
        if jumps:
            after = _replace(state, stage=JUMP, left=0)
            after._legal.append([*jumps, NO_JUMP, RESIGN])
            return after
    return _combats(state)


def _jump(state: AcedrexState, jump: Jump) -> AcedrexState:
    ring = list(state.ring)
    stack = ring[jump.source]
    i = _source(stack, state.turn, state.tapped)
    piece = stack[i]
    ring[jump.source] = stack[:i] + stack[i + 1:]
    ring[jump.target] = (*ring[jump.target], piece)
    return _replace(state, ring=tuple(ring), tapped=state.tapped | 1 << piece)


# --- combat ----------------------------------------------------------------------------


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


def combat_territories(player: int, out: Sequence[bool]) -> list[int]:
    """ACE-SCOPE: the territories a turn of ``player`` solves, in order: those of resigned
    players seated just before them (counter-clockwise up to the nearest player still in
    the game), then their own."""
    seats = [player]
    q = (player - 1) % PLAYERS
    while out[q] and q != player:
        seats.insert(0, q)
        q = (q - 1) % PLAYERS
    return seats


def combat_stops(rules: Acedrex, player: int,
                 out: Sequence[bool] = (False,) * PLAYERS) -> tuple[int, ...]:
    """ACE-SCOPE: the stops whose combats a turn of ``player`` solves, in order."""
    return _combat_stops(rules.combat_scope, player, tuple(out))


@functools.cache
def _combat_stops(scope: str, player: int, out: tuple[bool, ...]) -> tuple[int, ...]:
    if scope == "board":
        base = first_stop(player)
        return tuple(s for s in ((base + k) % RING for k in range(RING)) if not is_gate(s))
    return tuple(first_stop(t) + k for t in combat_territories(player, out)
                 for k in range(SLOTS))


def _combats(state: AcedrexState) -> AcedrexState:
    """Solve combats (the first with a fight waits for throws), then the jackpot."""
    return _next_fight(state, combat_stops(state.variant, state.turn, state.out))


def _next_fight(state: AcedrexState, queue: tuple[int, ...]) -> AcedrexState:
    ring, tapped = state.ring, state.tapped
    for n, stop in enumerate(queue):
        stack = ring[stop]
        if len(stack) > 1 and fighting_pair(stack, tapped) >= 0:
            return _replace(state, phase=Phase.CHANCE, stage=ATTACK, queue=queue[n + 1:],
                            fight=stop, attack=0, left=0)
    return _solve_jackpot(state)


@dataclass(frozen=True, slots=True)
class FightResult:
    """How a combat came out (ACE-MODIFIERS, ACE-COMBAT-WIN, ACE-DODGE, ACE-PARRY,
    ACE-TIE). ``outcome`` is ``ace`` (attacker wins outright), ``drex`` (defender wins
    outright), ``dodge``, ``parry`` or ``tie`` (throw again); ``fate`` is what happens to
    the loser of an outright win: ``captured`` or ``hand``."""

    stop: int
    attacker: int
    defender: int
    attack: int
    defend: int
    attack_bonus: int
    defend_bonus: int
    outcome: str
    fate: str = ""

    @property
    def attack_total(self) -> int:
        return self.attack + self.attack_bonus

    @property
    def defend_total(self) -> int:
        return self.defend + self.defend_bonus


def _bonuses(state: AcedrexState) -> tuple[int, int, int, int]:
    """The fighters of the combat at ``state.fight`` and their modifiers (ACE-MODIFIERS:
    other untapped friends in the slot): attacker, defender, attack and defence bonus."""
    stack, tapped = state.ring[state.fight], state.tapped
    i = fighting_pair(stack, tapped)
    attacker, defender = stack[i], stack[i - 1]
    a_side, d_side = attacker // PIECES, defender // PIECES
    a_bonus = d_bonus = -1
    for x in stack:
        if not tapped >> x & 1:
            if x // PIECES == a_side:
                a_bonus += 1
            elif x // PIECES == d_side:
                d_bonus += 1
    return attacker, defender, a_bonus, d_bonus


def _tying_defence(state: AcedrexState) -> int | None:
    """How much more the defender must throw than the attacker to tie, when ties are
    thrown again (ACE-TIE); ``None`` when they are not."""
    if state.variant.ties != "reroll":
        return None
    _, _, a_bonus, d_bonus = _bonuses(state)
    return a_bonus - d_bonus


#: The combat throws that count: a 1 is thrown again (ACE-COMBAT-ONE).
_COMBAT_THROWS = range(2, SIDES + 1)


def _attack_outcomes(state: AcedrexState) -> Outcomes:
    """The attacker's throw, weighted by the defender's answers that do not tie."""
    offset = _tying_defence(state)
    answers = len(_COMBAT_THROWS)
    counts = {a: answers - (offset is not None and a + offset in _COMBAT_THROWS)
              for a in _COMBAT_THROWS}
    total = sum(counts.values())
    return Outcomes((Roll((a,)), Fraction(n, total)) for a, n in counts.items() if n)


def _defend_outcomes(state: AcedrexState) -> Outcomes:
    """The defender's throw: those that do not tie the attacker's, equally likely."""
    offset = _tying_defence(state)
    tie = None if offset is None else state.attack + offset
    throws = [d for d in _COMBAT_THROWS if d != tie]
    return Outcomes((Roll((d,)), Fraction(1, len(throws))) for d in throws)


def _start_outcomes(state: AcedrexState) -> Outcomes:
    """A starting throw, given that the contenders do not all tie (ACE-FIRST): while the
    throws so far are all equal to ``v``, ``v`` again is as likely as that the remaining
    throws do not all equal it too (never, for the last throw)."""
    throws = state.throws
    if not throws or len(set(throws)) > 1:
        return D20
    v, remaining = throws[0], len(state.contenders) - len(throws)
    all_equal = Fraction(1, SIDES ** remaining)  # the remaining throws all equal v
    other = Fraction(1, SIDES) / (1 - all_equal)
    again = Fraction(1, SIDES) * (1 - all_equal * SIDES) / (1 - all_equal)
    return Outcomes((Roll((d,)), again if d == v else other)
                    for d in range(1, SIDES + 1) if d != v or again)


def fight_result(state: AcedrexState, defend: int) -> FightResult:
    """The result of the combat at ``state.fight`` when the defender throws ``defend``
    (not 1) after the attacker's ``state.attack``."""
    rules = state.variant
    attacker, defender, a_bonus, d_bonus = _bonuses(state)
    d_side = defender // PIECES
    a_total, d_total = state.attack + a_bonus, defend + d_bonus
    args = (state.fight, attacker, defender, state.attack, defend, a_bonus, d_bonus)
    outcome = combat_outcome(a_total, d_total, rules.threshold, rules.ties)
    if outcome == "ace":
        home = territory(state.fight) == d_side
        return FightResult(*args, outcome,
                           "hand" if home or rules.foreign_defender == "hand" else "captured")
    return FightResult(*args, outcome, "captured" if outcome == "drex" else "")


def combat_outcome(attack_total: int, defend_total: int, threshold: int, ties: str) -> str:
    """ACE-COMBAT-WIN, ACE-DODGE, ACE-PARRY, ACE-TIE: ``tie`` (thrown again), ``ace``
    (the attacker wins outright), ``dodge`` (it wins short of the threshold: the two
    change places), ``drex`` (the defender wins outright) or ``parry`` (short of it)."""
    if attack_total == defend_total and ties == "reroll":
        return "tie"
    if attack_total > defend_total:
        return "ace" if attack_total >= threshold else "dodge"
    return "drex" if defend_total >= threshold else "parry"


def _resolve(state: AcedrexState, defend: int) -> AcedrexState:
    result = fight_result(state, defend)  # never a tie: those are thrown again
    if result.outcome == "parry":
        return _next_fight(state, state.queue)
    stop = state.fight
    stack = list(state.ring[stop])
    ring = list(state.ring)
    i = stack.index(result.attacker)
    if result.outcome == "dodge":
        stack[i - 1], stack[i] = stack[i], stack[i - 1]
        ring[stop] = tuple(stack)
        return _next_fight(_replace(state, ring=tuple(ring)), state.queue)
    loser, winner = (
        (result.defender, result.attacker) if result.outcome == "ace"
        else (result.attacker, result.defender)
    )
    stack.remove(loser)
    ring[stop] = tuple(stack)
    tapped = state.tapped & ~(1 << loser)
    hands, captured = state.hands, state.captured
    if result.fate == "hand":
        q = owner(loser)
        hands = (*hands[:q], tuple(sorted((*hands[q], loser))), *hands[q + 1:])
        return _next_fight(_replace(state, ring=tuple(ring), hands=hands, tapped=tapped),
                           state.queue)
    w = owner(winner)
    captured = (*captured[:w], (*captured[w], loser), *captured[w + 1:])
    after = _replace(state, ring=tuple(ring), captured=captured, tapped=tapped)
    if len(captured[w]) >= state.variant.captures_to_end:
        return _finish(after, "captures")
    return _next_fight(after, state.queue)


# --- jackpot, turns, the end -------------------------------------------------------------


def _solve_jackpot(state: AcedrexState) -> AcedrexState:
    """ACE-JACKPOT-FILL, then the next turn (the same player's when the jackpot paid)."""
    jackpot = state.jackpot
    if len(jackpot) < JACKPOT:
        return _next_turn(state, _next_player(state.out, state.turn))
    q = owner(jackpot[-1])
    own = tuple(x for x in jackpot if owner(x) == q)
    taken = tuple(x for x in jackpot if owner(x) != q)
    hands = (*state.hands[:q], tuple(sorted((*state.hands[q], *own))), *state.hands[q + 1:])
    captured = (*state.captured[:q], (*state.captured[q], *taken), *state.captured[q + 1:])
    after = _replace(state, jackpot=(), hands=hands, captured=captured)
    if len(captured[q]) >= state.variant.captures_to_end:
        return _finish(after, "captures")
    return _next_turn(after, q)


def _next_player(out: tuple[bool, ...], player: int) -> int:
    """ACE-TURNS: the next player clockwise still in the game."""
    for k in range(1, PLAYERS + 1):
        q = (player + k) % PLAYERS
        if not out[q]:
            return q
    raise AssertionError("no player left")


_MASKS = tuple(((1 << PIECES) - 1) << (p * PIECES) for p in range(PLAYERS))


def stalled(state: AcedrexState) -> bool:
    """ACE-END: no capture can happen any more. Every piece still in play (ring, hands,
    jackpot) belongs to one player, or none is on the ring or in a hand (so nothing can
    move, and the jackpot can never fill)."""
    players = 0
    movable = False
    for stack in state.ring:
        for x in stack:
            players |= 1 << owner(x)
            movable = True
    for p, hand in enumerate(state.hands):
        if hand:
            players |= 1 << p
            movable = True
    for x in state.jackpot:
        players |= 1 << owner(x)
    return not movable or players & (players - 1) == 0


def _next_turn(state: AcedrexState, player: int) -> AcedrexState:
    """Begin a turn of ``player``: untap (ACE-UNTAP), then the roll; or stop when nothing
    can be captured any more, or at the cap."""
    if stalled(state):
        return _finish(state, "stalled")
    cap = state.variant.turn_cap
    if cap and state.turns >= cap:
        return _finish(state, "cap")
    return _make(
        state.variant, state.ring, state.tapped & ~_MASKS[player], state.hands, state.jackpot,
        state.captured, state.removed, state.out, state.money, player, Phase.CHANCE, ROLL,
        0, 0, 0, (), -1, 0, state.turns + 1, (), (),
    )


def _pair_owes(rules: Acedrex, captured: tuple[tuple[int, ...], ...], i: int, j: int) -> int:
    """ACE-PAYOUT: what ``j`` pays ``i`` when the two settle (negative: ``i`` pays)."""
    if rules.payout == "difference":
        diff = points(len(captured[i])) - points(len(captured[j]))
    else:
        took_i = sum(1 for x in captured[i] if owner(x) == j)
        took_j = sum(1 for x in captured[j] if owner(x) == i)
        diff = points(took_i) - points(took_j)
    return diff * rules.stake


def _settle_all(rules: Acedrex, captured: tuple[tuple[int, ...], ...], out: tuple[bool, ...],
                money: list[int]) -> None:
    active = [p for p in range(PLAYERS) if not out[p]]
    for n, i in enumerate(active):
        for j in active[n + 1:]:
            owed = _pair_owes(rules, captured, i, j)
            money[i] += owed
            money[j] -= owed


def _finish(state: AcedrexState, reason: str) -> AcedrexState:
    """ACE-END: settle every open pair and stop."""
    money = list(state.money)
    _settle_all(state.variant, state.captured, state.out, money)
    return _replace(state, money=tuple(money), phase=Phase.TERMINAL, stage=OVER,
                    queue=(), fight=-1, attack=0, left=0, ended=reason)


def _resign(state: AcedrexState) -> AcedrexState:
    """ACE-RESIGN: the player on turn leaves; their pieces go, they settle now."""
    p = state.turn
    mine = _MASKS[p]
    ring = tuple(tuple(x for x in stack if x // PIECES != p) if stack else stack
                 for stack in state.ring)
    gone = [x for stack in state.ring for x in stack if x // PIECES == p]
    gone += [x for x in state.jackpot if owner(x) == p]
    gone += state.hands[p]
    jackpot = tuple(x for x in state.jackpot if owner(x) != p)
    hands = (*state.hands[:p], (), *state.hands[p + 1:])
    money = list(state.money)
    for j in range(PLAYERS):
        if j != p and not state.out[j]:
            owed = _pair_owes(state.variant, state.captured, p, j)
            money[p] += owed
            money[j] -= owed
    out = (*state.out[:p], True, *state.out[p + 1:])
    after = _replace(
        state, ring=ring, jackpot=jackpot, hands=hands, tapped=state.tapped & ~mine,
        removed=tuple(sorted((*state.removed, *gone))), out=out, money=tuple(money),
    )
    if sum(1 for o in out if not o) == 1:
        return _finish(after, "resignations")
    return _next_turn(after, _next_player(out, p))


# --- chance ------------------------------------------------------------------------------


def _throw(state: AcedrexState, value: int) -> AcedrexState:
    stage = state.stage
    if stage in (ATTACK, DEFEND, START) and all(
            roll.dice != (value,) for roll, _ in state.chance_outcomes()):
        why = {ATTACK: "a combat throw of 1 is thrown again",
               DEFEND: "a combat throw of 1, or one that ties the attacker's, is thrown again",
               START: "when every starting throw ties, they are all thrown again"}[stage]
        raise IllegalOutcomeError(f"{value} is not an outcome here: {why}")
    if stage == ROLL:
        if value == 1:  # ACE-ONE-MOVE: the player may keep it or throw again
            return _replace(state, phase=Phase.DECIDE, stage=ONE, die=1)
        return _replace(state, phase=Phase.DECIDE, stage=MOVE, die=value, left=value,
                        parts=0)
    if stage == ATTACK:
        return _replace(state, stage=DEFEND, attack=value)
    if stage == DEFEND:
        return _resolve(state, value)
    if stage == START:
        return _start_throw(state, value)
    raise AssertionError(stage)


def _start_throw(state: AcedrexState, value: int) -> AcedrexState:
    """ACE-FIRST: one D20 each; the highest starts; tied highest throw again."""
    throws = (*state.throws, value)
    contenders = state.contenders
    if len(throws) < len(contenders):
        return _replace(state, throws=throws, turn=contenders[len(throws)])
    best = max(throws)
    tied = tuple(p for p, t in zip(contenders, throws, strict=True) if t == best)
    if len(tied) > 1:
        return _replace(state, contenders=tied, throws=(), turn=tied[0])
    return _next_turn(_replace(state, contenders=(), throws=()), tied[0])


def _throw_notes(state: AcedrexState, value: int,
                 after: AcedrexState) -> list[tuple[int | None, str]]:
    """What a throw was for and what it did."""
    p = state.turn
    if state.stage == START:
        notes: list[tuple[int | None, str]] = [(p, f"throws {value} for the start.")]
        if after.stage == START and not after.throws:
            tied = " and ".join(COLOURS[q] for q in after.contenders)
            notes.append((None, f"{tied} tie for the highest: they throw again."))
        elif after.stage != START:
            notes.append((after.turn, "starts."))
        return notes
    if state.stage == ATTACK:
        attacker, _ = state.combat()
        return [(owner(attacker), f"(attacker) throws {value}.")]
    if state.stage == DEFEND:
        _, defender = state.combat()
        return [(owner(defender), f"(defender) throws {value}."),
                (None, fight_text(state, value))]
    return []


def fight_text(state: AcedrexState, defend: int) -> str:
    """A combat's result in words: the totals and what came of them."""
    r = fight_result(state, defend)
    a, d = owner(r.attacker), owner(r.defender)

    def total(throw: int, bonus: int) -> str:
        return f"{throw}+{bonus}={throw + bonus}" if bonus else str(throw)

    score = f"{total(r.attack, r.attack_bonus)} against {total(r.defend, r.defend_bonus)}"
    threshold = state.variant.threshold
    if r.outcome == "dodge":
        return (f"→ {score}: dodge — the attacker wins with {r.attack_total}, under "
                f"{threshold}: the two swap places.")
    if r.outcome == "parry":
        return (f"→ {score}: parry — the defender holds with {r.defend_total}, under "
                f"{threshold}: nothing moves.")
    if r.outcome == "ace":
        fate = f"is captured by {COLOURS[a]}" if r.fate == "captured" else "goes back to its hand"
        return f"→ {score}: Ace! {COLOURS[a]} wins; {COLOURS[d]}'s piece {fate}."
    return f"→ {score}: Drex! {COLOURS[d]} wins; {COLOURS[a]}'s attacker is captured."


# --- random play -----------------------------------------------------------------------


def random_action(state: AcedrexState, rng: random.Random, resign_rate: float = 0.0) -> Action:
    """A random player's choice: uniform over the legal actions other than resigning,
    which it takes with probability ``resign_rate``."""
    legal = state.legal_actions()
    if resign_rate and rng.random() < resign_rate:
        return RESIGN
    return legal[int(rng.random() * (len(legal) - 1))]


def random_game(rules: Acedrex, rng: random.Random, resign_rate: float = 0.0) -> AcedrexState:
    """One whole game between random players; the final state."""
    state = rules.initial_state()
    while state.phase is not Phase.TERMINAL:
        if state.phase is Phase.CHANCE:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(random_action(state, rng, resign_rate))
    return state


__all__ = [
    "Acedrex",
    "AcedrexState",
    "Action",
    "D20",
    "FightResult",
    "Jump",
    "Keep",
    "NoJump",
    "Pass",
    "Reroll",
    "Resign",
    "Step",
    "fight_result",
    "random_action",
    "random_game",
]
