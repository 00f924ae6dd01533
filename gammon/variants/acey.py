"""Acey-deucey: every checker starts off the board; doubles and 1-2 earn more.

The rules are docs/rules/acey-deucey.md (labels ``AD-...`` and ``ADR-...``). What differs
from backgammon's rule blocks (:mod:`gammon.rules`) and turn:

- all 15 checkers start on the bar slot and enter as bar checkers do;
- the opening: nothing moves before a player's first doubles or 1-2, and no checker on
  the board moves while any is still to enter, except that a 1-2 may take the checker
  it enters on with the other die (the rules vector's ``enter_first`` and
  the entering ``moves_on``); after a player's opening, as in backgammon, a hit checker
  must enter before any other moves (a second rules vector, :attr:`later_kernel`);
- a double is played four times and the same player rolls again; a 1-2 (the
  *acey-deucey*) is played, then the player chooses a number (:class:`DoublesChoice`, a
  decision of its own) and plays it as doubles, then rolls again;
- the home lock, exact bear-off, and single-game scoring (gammons as an option);
- each opening rule is an option that can be turned off; the restrictive rules, each
  its own option, are all set by the ``acey-deucey-restrictive`` preset.

The turn is kept in ``GameState.memo`` (:class:`AceyMemo`): which players have earned
their start and which have entered all their checkers, and the stage of an acey-deucey
or an extra roll. The compiled playouts are :mod:`gammon.kernels.acey`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from gammon.core.dice import Outcomes, Roll
from gammon.core.errors import IllegalPlayError, InvalidOptionError
from gammon.core.play import Play
from gammon.core.position import Position
from gammon.core.protocol import Phase
from gammon.core.variant import GameState, LegalPlays, TrackVariant, register
from gammon.kernels import TrackKernel, tracks
from gammon.kernels import acey as acey_kernel
from gammon.rules import Dice, Track, rules_vector

#: The roll that names the game: a 1 and a 2.
ACEY_DEUCEY = (2, 1)

#: Stages of a turn, kept in :attr:`AceyMemo.stage`.
NORMAL = ""  # an ordinary roll or play
EXTRA = "extra roll"  # CHANCE: the roll earned by doubles or an acey-deucey
CHOOSE = "choose doubles"  # DECIDE: the number to play as doubles after a 1-2
NUMBER = "roll the number"  # CHANCE: one die gives that number (restrictive)
ACEY_DOUBLES = "acey doubles"  # DECIDE: the doubles of an acey-deucey

#: The values of ``scoring``.
SCORINGS = ("single", "gammon", "backgammon")


@dataclass(frozen=True, slots=True)
class DoublesChoice:
    """The decision after playing an acey-deucey's 1 and 2: the number to play as doubles.

    ``label`` is what a person types (the number); ``str`` is how a record writes it.
    """

    number: int

    @property
    def label(self) -> str:
        return str(self.number)

    def __str__(self) -> str:
        return f"doubles {self.number}"


@dataclass(frozen=True, slots=True)
class AceyMemo:
    """What an acey-deucey game remembers between decisions.

    ``started[p]``: player ``p`` has rolled doubles or a 1-2 (only the
    ``start_on_doubles`` rule asks). ``stage``: where the turn stands (the module's
    ``NORMAL``, ``EXTRA``, ``CHOOSE``, ``NUMBER``, ``ACEY_DOUBLES``). ``entered[p]``:
    every checker of player ``p`` has been entered once, so ``p``'s opening is over and
    a checker on the bar is one that was hit (AD-HIT-ENTER-FIRST).
    """

    started: tuple[bool, ...] = (False, False)
    stage: str = NORMAL
    entered: tuple[bool, ...] = (False, False)


@functools.cache
def one_die(sides: int = 6) -> Outcomes:
    """The throw of one die (the restrictive doubles number), each side equally likely."""
    return Outcomes((Roll((n,)), Fraction(1, sides)) for n in range(1, sides + 1))


@register
@dataclass(frozen=True)
class AceyDeucey(TrackVariant):
    """Acey-deucey as the source's standard rules play it by default; each opening rule
    can be turned off, and each restrictive rule is an option."""

    turns = "own"

    name = "acey-deucey"
    summary = (
        "All 15 checkers start off the board; nothing moves before a first doubles or "
        "1-2, and all enter before any moves on; doubles and 1-2 (acey-deucey: 1, 2, "
        "then doubles of your choice) roll again; home lock, exact bear-off, single game."
    )
    aliases = ("acey", "aceydeucey", "acey-ducey")
    presets = {
        "acey-deucey-restrictive": {
            "start_on_doubles": True,
            "enter_all_first": True,
            "hit_enters_first": True,
            "roll_for_doubles": True,
            "forfeit_unplayed": True,
            "home_freeze": True,
            "exact_bear_off": True,
        },
    }
    track = Track(start=((25, 15),))  # all fifteen off the board, to enter
    dice = Dice(opening_plays_lot=False)
    notation = "acey"
    family = "acey"
    move_text = "acey"
    think_seconds = 0.42
    cube = False

    #: How a won game scores: single (1), gammon (1 or 2) or backgammon (1, 2 or 3).
    scoring: str = "single"
    #: The opening: no checker moves until the player has rolled doubles or a 1-2
    #: (AD-START-DOUBLES; False: any roll enters or moves).
    start_on_doubles: bool = True
    #: The opening: no checker on the board moves while any of the side is still to
    #: enter, but a 1-2 may move on the checker it enters (AD-ENTER-ALL; False:
    #: checkers enter whenever the player likes).
    enter_all_first: bool = True
    #: After a player's opening, a hit checker must enter before any other checker
    #: moves, as in backgammon (AD-HIT-ENTER-FIRST; False: it waits to enter like the
    #: others, and the rest move freely).
    hit_enters_first: bool = True
    #: Restrictive: after a 1-2 the doubles number is thrown on one die, not chosen.
    roll_for_doubles: bool = False
    #: Restrictive: a 1-2 or doubles not played in full ends the turn (no doubles, no
    #: further roll).
    forfeit_unplayed: bool = False
    #: Restrictive: checkers move freely inside the home board until all have arrived,
    #: then only bear off (instead of the home lock).
    home_freeze: bool = False
    #: A checker bears off only with the exact number (both rule sets); False lets a
    #: larger die bear off from the highest point, as in backgammon.
    exact_bear_off: bool = True

    def __post_init__(self) -> None:
        if self.scoring not in SCORINGS:
            raise InvalidOptionError(
                f"scoring {self.scoring!r}: choose one of {', '.join(SCORINGS)}"
            )
        # ``enter_first`` is the opening's rule (:attr:`kernel`); :attr:`later_kernel`
        # has the other.
        self._set_blocks(
            ending={"gammons": self.scoring != "single",
                    "backgammons": self.scoring == "backgammon"},
            entering={"enter_first": self.enter_all_first, "moves_on": self.enter_all_first},
            bearing_off={"home_lock": not self.home_freeze, "home_only": self.home_freeze,
                         "larger": not self.exact_bear_off},
        )

    @functools.cached_property
    def later_kernel(self) -> TrackKernel:
        """The rules vector after a player's opening (all fifteen entered once): a hit
        checker enters first when ``hit_enters_first``, and a 1-2 is no exception."""
        rules = self.kernel.rules.copy()
        entering = replace(self.entering, enter_first=self.hit_enters_first, moves_on=False)
        later = {**self.blocks(), "entering": entering}
        rules[:tracks.CROSS] = rules_vector(later)
        return TrackKernel(rules, self.players, self.slots)

    def kernel_for(self, state: GameState) -> TrackKernel:
        """The move generator for the player to move: the opening's or the later one."""
        return self.later_kernel if self.memo_of(state).entered[state.position.turn] \
            else self.kernel

    @property
    def flags(self) -> np.ndarray:
        """The acey-deucey rules the compiled playouts read (:mod:`gammon.kernels.acey`)."""
        return acey_kernel.flags(
            self.start_on_doubles, self.roll_for_doubles, self.forfeit_unplayed
        )

    # --- states ----------------------------------------------------------------------

    def initial_state(self) -> GameState:
        none = (False,) * self.players
        return GameState(self, self.start_position(), memo=AceyMemo(none, NORMAL, none))

    def memo_of(self, state: GameState) -> AceyMemo:
        """The state's memo. For a hand-built state (memo None) the position tells: a
        player counts as started once any of their checkers has left the starting
        position, and as past the opening when none is waiting on the bar or some are
        already borne off (checkers on the bar of a player with nothing off count as
        never entered: the position cannot tell them from hit ones)."""
        if isinstance(state.memo, AceyMemo):
            return state.memo
        position = state.position
        players = range(self.players)
        started = [position.bar(p) < self.checkers for p in players]
        if state.phase is Phase.DECIDE and state.dice:
            high, low = state.dice
            if high == low or (high, low) == ACEY_DEUCEY:
                started[position.turn] = True
        entered = tuple(position.bar(p) == 0 or position.off(p) > 0 for p in players)
        return AceyMemo(tuple(started), NORMAL, entered)

    def stage(self, state: GameState) -> str:
        return self.memo_of(state).stage

    # --- chance ----------------------------------------------------------------------

    def chance_outcomes(self, state: GameState) -> Sequence[tuple[Roll, Fraction]]:
        if not state.opening and self.stage(state) == NUMBER:
            return one_die(self.sides)
        return super().chance_outcomes(state)

    def apply_roll(self, state: GameState, roll: Roll) -> GameState:
        if state.opening:
            return super().apply_roll(state, roll)
        memo = self.memo_of(state)
        player = state.position.turn
        if memo.stage == NUMBER:
            (n,) = self.check_roll(roll, 1, False)
            return GameState(self, state.position, Phase.DECIDE, (n, n), False, state.moves,
                             replace(memo, stage=ACEY_DOUBLES))
        high, low = sorted(self.check_roll(roll, 2, False), reverse=True)
        started = memo.started
        if high == low or (high, low) == ACEY_DEUCEY:
            started = tuple(s or p == player for p, s in enumerate(started))
        return GameState(self, state.position, Phase.DECIDE, (high, low), False, state.moves,
                         AceyMemo(started, NORMAL, memo.entered))

    # --- decisions -------------------------------------------------------------------

    def legal_plays(self, state: GameState) -> Any:
        """The plays of the roll, or the :class:`DoublesChoice` values after a 1-2."""
        memo = self.memo_of(state)
        if memo.stage == CHOOSE:
            return [DoublesChoice(n) for n in self.doubles_choices(state)]
        if self.start_on_doubles and not memo.started[state.position.turn]:
            return self._no_play(state.position)
        position = state.position
        rows = self.kernel_for(state).plays(position.board, position.turn, *state.dice)
        return LegalPlays(rows, position)

    def doubles_choices(self, state: GameState) -> list[int]:
        """The numbers the mover may choose after a 1-2: those whose doubles play the
        most moves, a play that bears off the last checker counting as complete (all
        six numbers when none can be played, or when every one plays all four moves)."""
        position = state.position
        kernel = self.kernel_for(state)
        off = position.turn * self.slots
        lengths = []
        for n in range(1, self.sides + 1):
            rows = kernel.plays(position.board, position.turn, n, n)
            finishes = bool((rows[:, off] == self.checkers).any())
            lengths.append(tracks.MAX_DICE if finishes else int(rows[0, -1]))
        most = max(lengths)
        return [n for n, length in zip(range(1, self.sides + 1), lengths, strict=True)
                if length == most]

    def _no_play(self, position: Position) -> LegalPlays:
        """The one legal play of a player who may not move: the empty play."""
        width = tracks.row_width(position.players, position.slots)
        row = np.zeros((1, width), np.int8)
        row[0, : len(position.board)] = np.frombuffer(position.board, np.int8)
        return LegalPlays(row, position)

    def apply_action(self, state: GameState, action: Any) -> GameState:
        memo = self.memo_of(state)
        if memo.stage == CHOOSE:
            if isinstance(action, int) and not isinstance(action, bool):
                action = DoublesChoice(action)
            if not isinstance(action, DoublesChoice):
                raise IllegalPlayError(
                    f"{action!r} is not a choice of doubles: choose the number to play as "
                    "doubles after the acey-deucey"
                )
            legal = state.legal_actions()
            if action not in legal:
                numbers = ", ".join(str(c.number) for c in legal)
                raise IllegalPlayError(
                    f"doubles {action.number} is not a legal choice: choose {numbers} (a "
                    "number that plays as many of the four moves as any number can)"
                )
            n = action.number
            return GameState(self, state.position, Phase.DECIDE, (n, n), False, state.moves,
                             replace(memo, stage=ACEY_DOUBLES))
        if isinstance(action, DoublesChoice):
            raise IllegalPlayError("there is no doubles number to choose now: make a play")
        return super().apply_action(state, action)

    def after_play(self, state: GameState, play: Play) -> GameState:
        """End the game, pass the dice, or keep them: doubles and a 1-2 earn more."""
        memo = self.memo_of(state)
        mover = state.position.turn
        board = play.result.board
        moves = state.moves + 1
        if not memo.entered[mover] and board[mover * self.slots + self.points + 1] == 0:
            # The last checker to enter has entered: the mover's opening is over.
            memo = replace(memo, entered=tuple(e or p == mover
                                               for p, e in enumerate(memo.entered)))
        if board[mover * self.slots] == self.checkers:
            position = Position(board, self.players, mover)
            return GameState(self, position, Phase.TERMINAL, (), False, moves, memo)
        same = Position(board, self.players, mover)
        high, low = state.dice
        if memo.stage != ACEY_DOUBLES and (high, low) == ACEY_DEUCEY:
            if self.forfeit_unplayed and len(play.moves) < 2:
                return self._pass(board, mover, moves, memo)
            if self.roll_for_doubles:
                return GameState(self, same, Phase.CHANCE, (), False, moves,
                                 replace(memo, stage=NUMBER))
            return GameState(self, same, Phase.DECIDE, (), False, moves,
                             replace(memo, stage=CHOOSE))
        if high == low:
            if self.forfeit_unplayed and len(play.moves) < 4:
                return self._pass(board, mover, moves, memo)
            return GameState(self, same, Phase.CHANCE, (), False, moves,
                             replace(memo, stage=EXTRA))
        return self._pass(board, mover, moves, memo)

    def _pass(self, board: bytes, mover: int, moves: int, memo: AceyMemo) -> GameState:
        position = Position(board, self.players, (mover + 1) % self.players)
        return GameState(self, position, Phase.CHANCE, (), False, moves,
                         replace(memo, stage=NORMAL))

    # --- the faces ask these ---------------------------------------------------------

    def decision_prompt(self, state: GameState) -> str | None:
        """What a person is asked at a decision that is not a play, else None."""
        if self.stage(state) != CHOOSE:
            return None
        numbers = [c.number for c in state.legal_actions()]
        if numbers == list(range(1, self.sides + 1)):
            return f"choose the doubles number (1-{self.sides})"
        return f"choose the doubles number ({' or '.join(map(str, numbers))})"

    def announce(self, before: GameState, taken: Any,
                 after: GameState) -> list[tuple[int | None, str]]:
        """A note about the player who acted (or threw) at ``before``, when the rules of
        acey-deucey did something a player might not expect."""
        note = self._note(before, after)
        return [] if note is None else [(before.position.turn, note)]

    def _note(self, before: GameState, after: GameState) -> str | None:
        if after.is_terminal or before.opening:
            return None
        mover = before.position.turn
        stage = self.stage(after)
        if before.is_chance:
            return None
        if stage == CHOOSE:
            return "played the 1 and the 2 of the acey-deucey: a number to play as " \
                "doubles comes next."
        if stage == NUMBER:
            return "played the 1 and the 2 of the acey-deucey: one die names the doubles."
        if stage == EXTRA and after.position.turn == mover:
            if self.stage(before) == ACEY_DOUBLES:
                return "played the acey-deucey's doubles: another roll."
            return "played doubles: another roll."
        if after.position.turn != mover and self.forfeit_unplayed and before.dice:
            high, low = before.dice
            acey = (high, low) == ACEY_DEUCEY and self.stage(before) != ACEY_DOUBLES
            if (acey or high == low) and self.memo_of(before).started[mover]:
                what = "1 and 2 of the acey-deucey" if acey else "four moves of the double"
                return f"could not play all the {what}: the turn ends, with no further roll."
        return None

    def no_move_reason(self, state: GameState) -> str | None:
        """Why the player to move cannot move, when a rule (not the board) stops them."""
        if self.start_on_doubles and not self.memo_of(state).started[state.position.turn]:
            return "nothing moves before a first doubles or 1-2"
        return None

    # --- playouts --------------------------------------------------------------------

    def random_playouts(
        self, games: int, seed: int | None, max_turns: int = 10000
    ) -> np.ndarray:
        """Whole random games in :mod:`gammon.kernels.acey`: rows of (winner, points,
        plays made); winner -1 when ``max_turns`` plays ran out."""
        rows, _ = self.traced_playouts(games, seed, max_turns)
        return rows[:, :3]

    def traced_playouts(
        self, games: int, seed: int | None, max_turns: int = 10000, trace_rows: int = 0,
        parallel: bool | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Random games with more figures, and optionally their decisions:
        ``(results, trace)`` as :func:`gammon.kernels.acey.random_playouts` returns."""
        rules = np.stack([self.kernel.rules, self.later_kernel.rules])
        return acey_kernel.random_playouts(
            rules, self.flags, self.start_position().board, self.players,
            games, seed, max_turns, trace_rows, parallel,
        )
