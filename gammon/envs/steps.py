"""The fixed action encoding of the Gymnasium environment: a turn in single checker steps.

``GammonGymEnv(action_encoding="step")`` numbers actions so that each number means the
same thing in every state (the default ``"play"`` numbers the legal whole plays of each
decision, so action 3 is a different play in every position):

- ``(source - 1) * sides + (die - 1)``: move one checker from ``source`` (the mover's own
  numbering, 1 .. points, and ``points + 1`` for the bar) by ``die`` pips (to the point
  ``source - die``, or off). A backgammon turn of 6-5 is two such actions, a double four;
- :data:`PASS` (``steps``): the turn of a player who cannot move (the empty play);
- then one number for each stakes decision: :data:`STAKES_ACTIONS` (roll, double, take,
  drop, beaver, raccoon; accept, reject a resignation; resign 1, 2, 3 levels).

A step is legal when the board it leads to can still become one of the engine's legal
whole plays with the dice left (:class:`gammon.notation.movetext.Completions`, the rule
that also checks a play typed in parts): the moves of a legal play may come in any order,
and no sequence of legal steps can strand the player short of a legal play, so the
whole-turn rules (both dice, the larger die, the head rule...) hold without being
written again. When the steps reach a legal play's board, that play is applied and the
turn ends; the steps before it are rewarded 0, and the observation shows the board after
them and the dice left.

Only the two-player track games whose turns simply alternate are encoded so
(:func:`gammon.envs.vector.why_not_alternating`; ``supported_variants(why_not_alternating)``
lists them): acey-deucey's choices after a 1-2, Gul bara's cascades, Multi-Gam's four
players and Acedrex's ring have decisions of their own. In the games
that pin (Plakoto, Tapa) the board so far carries its pins too, worked out from the
counts (:meth:`~gammon.core.variant.TrackVariant.pins_after`): a step onto a lone
opposing checker pins it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gammon.core.errors import InvalidOptionError
from gammon.core.play import Play
from gammon.core.position import Position
from gammon.core.protocol import Rules
from gammon.core.variant import GameState, TrackVariant, play_leading_to
from gammon.envs.observe import TrackObserver
from gammon.envs.vector import supported_variants, why_not_alternating
from gammon.notation.movetext import Completions, roll_dice
from gammon.stakes.cube import CubeAction, CubeState, Resign, ResignAnswer
from gammon.stakes.match import Rotation

#: The stakes decisions, each with a number of its own after the steps and the pass.
STAKES_ACTIONS: tuple[CubeAction | ResignAnswer | Resign, ...] = (
    *CubeAction, *ResignAnswer, Resign(1), Resign(2), Resign(3))

#: The default ``turn`` of :class:`StepEncoding`'s methods: the turn the encoding keeps for
#: the state it is given (the Gymnasium environment's one game). A caller that keeps turns
#: of its own (OpenSpiel's states, cloned and played on apart) passes its turn, or None.
KEPT = "kept"

#: A state the steps are taken in: a two-player track game's, with the stakes or without.
TrackState = GameState | CubeState
#: What a step's number stands for in the engine: a stakes decision, or the play the
#: steps so far complete.
StepAction = CubeAction | ResignAnswer | Resign | Play


class TurnInSteps:
    """One play decision of ``state`` taken a step at a time: the board so far and the
    dice left."""

    def __init__(self, state: Any) -> None:
        # ``state`` is a TrackState; Completions is annotated for a GameState only, though
        # it reads nothing a CubeState lacks.
        self.state: TrackState = state
        self.completions = Completions(state)
        self.board: bytes = state.position.board
        self.dice: tuple[int, ...] = roll_dice(state.dice)

    @property
    def position(self) -> Position:
        """The position the steps so far leave: the board, and its pins in a game that
        pins."""
        before = self.state.position
        return Position(self.board, before.players, before.turn,
                        self.state.variant.pins_after(before, self.board))

    def done(self) -> Play | None:
        """The legal play the steps so far make (the empty play before any step, when it
        is the only one), else None."""
        return play_leading_to(self.completions.legal, self.position)

    def legal_steps(self) -> list[tuple[int, int]]:
        """The ``(source, die)`` steps after which a legal play can still be reached."""
        return self.completions.legal_steps(self.board, self.dice)

    def take(self, source: int, die: int) -> Play | None:
        """Make the step; the legal play it completes, or None while the turn goes on."""
        self.board, self.dice = self.completions.after(self.board, self.dice, source, die)
        return self.done()


class StepEncoding:
    """The numbers of :mod:`gammon.envs.steps` for ``rules``' games (module text)."""

    def __init__(self, rules: Rules) -> None:
        why = why_not_alternating(rules)
        if why is not None:
            raise InvalidOptionError(
                f"action_encoding='step' encodes the two-player track games whose turns "
                f"simply alternate; {why}. Supported: "
                f"{', '.join(supported_variants(why_not_alternating))} "
                "(or action_encoding='play', every variant)")
        # why_not_alternating passes only the turns of TrackVariant itself.
        assert isinstance(rules, TrackVariant)
        self.rules = rules
        self.sides = int(rules.sides)
        #: The points, then the bar (the mover's numbering 1 .. points + 1).
        self.sources = int(rules.points) + 1
        #: How many step numbers there are; :attr:`pass_index` comes next.
        self.steps = self.sources * self.sides
        self.pass_index = self.steps
        self._stakes = {action: self.steps + 1 + k for k, action in enumerate(STAKES_ACTIONS)}
        #: The size of the action space.
        self.size = self.steps + 1 + len(STAKES_ACTIONS)
        self._turn: TurnInSteps | None = None

    # --- what a number means -------------------------------------------------------------

    def index(self, source: int, die: int) -> int:
        """The number of the step from ``source`` by ``die``."""
        return (source - 1) * self.sides + (die - 1)

    def step_of(self, index: int) -> tuple[int, int]:
        """``(source, die)`` of a step's number."""
        if not 0 <= index < self.steps:
            raise InvalidOptionError(f"{index} is not a step's number (0 to {self.steps - 1})")
        return index // self.sides + 1, index % self.sides + 1

    def meaning(self, index: int) -> str:
        """The number in words: ``"13 by 5"``, ``"bar by 3"``, ``"pass"``, ``"double"``."""
        if 0 <= index < self.steps:
            source, die = self.step_of(index)
            return f"{'bar' if source == self.sources else source} by {die}"
        if index == self.pass_index:
            return "pass (no move)"
        if self.pass_index < index < self.size:
            action = STAKES_ACTIONS[index - self.pass_index - 1]
            return f"resign {action.level}" if isinstance(action, Resign) else str(
                action.value)
        raise InvalidOptionError(f"{index} is not an action number (0 to {self.size - 1})")

    # --- a decision ----------------------------------------------------------------------

    def turn(self, state: TrackState) -> TurnInSteps | None:
        """The turn in steps of ``state`` when it is a play decision (the same one while
        the state is the same), else None."""
        if self._turn is not None and self._turn.state is state:
            return self._turn
        self._turn = new_turn(state)
        return self._turn

    def legal(self, state: TrackState, turn: TurnInSteps | None | str = KEPT) -> list[int]:
        """The numbers legal at ``state``'s decision now. ``turn``: the turn in steps to
        read (an OpenSpiel state keeps its own, since its clones go on apart); by default
        the one this encoding keeps for ``state`` (:meth:`turn`)."""
        turn = self.turn(state) if isinstance(turn, str) else turn
        if turn is None:
            numbers = []
            for action in state.legal_actions():
                if action not in self._stakes:
                    raise InvalidOptionError(  # pragma: no cover - the variants encoded
                        f"no number for the action {action!r} of {self.rules.name}")
                numbers.append(self._stakes[action])
            return numbers
        if turn.board == state.position.board and turn.done() is not None:
            return [self.pass_index]  # the empty play: nothing can move
        return [self.index(source, die) for source, die in turn.legal_steps()]

    def refusal(self, state: TrackState, index: int) -> str | None:
        """Why step number ``index`` may not be taken at ``state`` (the legal numbers, and
        what the first of them mean), or None when it may."""
        legal = self.legal(state)
        if index in legal:
            return None
        shown = ", ".join(f"{k} ({self.meaning(k)})" for k in legal[:8])
        more = f" and {len(legal) - 8} more" if len(legal) > 8 else ""
        return f"action {index!r} is not legal now: the legal numbers are {shown}{more}"

    def take(self, state: TrackState, index: int, turn: TurnInSteps | None | str = KEPT
             ) -> StepAction | None:
        """The engine's action that ``index`` (legal: :meth:`legal`) completes, or None
        when it is a step and the turn goes on (``turn`` as in :meth:`legal`)."""
        turn = self.turn(state) if isinstance(turn, str) else turn
        if turn is None:
            return STAKES_ACTIONS[index - self.pass_index - 1]
        if index == self.pass_index:
            return turn.done()
        return turn.take(*self.step_of(index))

    def dice_left(self, state: TrackState, turn: TurnInSteps | None | str = KEPT) -> np.ndarray:
        """``sides`` units: how many dice of each value are left to play (/ 4)."""
        units = np.zeros(self.sides, np.float32)
        if isinstance(turn, str):
            turn = self.turn(state) if not state.is_terminal else None
        if turn is not None:
            for die in turn.dice:
                units[die - 1] += 0.25
        return units

    def position(self, state: TrackState, turn: TurnInSteps | None | str = KEPT) -> Position:
        """The position as the steps taken so far leave it (its pins too)."""
        if isinstance(turn, str):
            turn = self.turn(state) if not state.is_terminal else None
        return state.position if turn is None else turn.position

    def observe(self, observer: TrackObserver, state: TrackState, player: int,
                turn: TurnInSteps | None | str = KEPT) -> np.ndarray:
        """``observer``'s observation of ``state`` for ``player`` with the board as the
        steps so far leave it, followed by the dice still to play (:meth:`dice_left`):
        what the Gymnasium environment and the OpenSpiel games show a turn in steps."""
        observed: np.ndarray = observer.observe(state, player)
        observed[:observer.board_units] = observer.encode(self.position(state, turn), player)
        return np.concatenate([observed, self.dice_left(state, turn)])


#: The action encodings an environment is built with (docs/envs.md compares them).
ENCODINGS = ("play", "step")


def encoding_for(rules: Rules, action_encoding: object, games: Rotation | None = None
                 ) -> StepEncoding | None:
    """The step numbers for ``action_encoding="step"``, None for ``"play"`` (action ``k``
    is the ``k``-th legal whole decision); an error saying what is allowed otherwise. The
    matches of several ``games`` in turn (tavli) are played in whole plays: each game's
    steps would mean other moves."""
    if not isinstance(action_encoding, str) or action_encoding not in ENCODINGS:
        raise InvalidOptionError(
            f"action_encoding is 'play' (the k-th legal whole play) or 'step' (one "
            f"checker step per action, the same number in every state); not "
            f"{action_encoding!r}")
    if games is not None and games.several and action_encoding == "step":
        raise InvalidOptionError(
            f"{games.name} is played with action_encoding='play': its games move "
            f"their checkers differently, so a step's number would not mean one move")
    return StepEncoding(rules) if action_encoding == "step" else None


def new_turn(state: TrackState) -> TurnInSteps | None:
    """A new turn in steps of ``state`` when it is a play decision, else None."""
    if state.is_terminal or state.is_chance:
        return None
    legal = state.legal_actions()
    if not legal or not isinstance(legal[0], Play):
        return None
    return TurnInSteps(state)
