"""What a learning environment shows a player, and how many actions it may offer.

**Actions.** An action is a whole decision of the game protocol, as the engine has it: a
whole-turn play (all four moves of a double), a cube decision, an acey-deucey choice, an
Acedrex step or jump. Action ``k`` is the ``k``-th entry of the state's
``legal_actions()``, in the engine's order (for the track games the move generator's,
which is deterministic), so the legal actions are always ``0 .. n-1`` and the action mask
is a prefix. The action space is ``Discrete(max_actions(rules))``: a bound no decision of
the variant exceeds (for the track games :func:`gammon.core.variant.most_plays`, proved
from the number of checkers: 3,875 for fifteen; the resignation offers added when the
stakes list them).

Why not half-moves or checker steps: a split turn creates states the rules do not have
(half a double played, a die "used" in an order the rules do not distinguish), makes the
player to act twice for one decision, and lets an agent wander into a dead end that the
whole-turn rules (play both dice, the larger die, the head rule) would have forbidden at
the start of the turn. A whole play keeps every state a real one, and afterstate learners
(TD-Gammon and gammon's own trainer) choose among whole plays anyway: an environment
gives the encoded result of every legal play (``afterstates``) for them.

**Observations** (``float32``, from the observing player's side):

- two-player track games: :class:`~gammon.nn.encoders.TrackEncoder`'s inputs (checkers of
  both sides on every point, bars, borne off, pip counts, contact; in the games that pin,
  who is pinned on every point); Multi-Gam:
  :class:`~gammon.nn.encoders.QuarterEncoder`'s (every seat from the observer's on);
- then :data:`DICE_UNITS` dice units: ``1`` at ``high - 1`` and at ``6 + low - 1`` while
  a roll is to be played (zeros otherwise); a game of three dice has six more, the
  middle die at ``6 + middle - 1`` and the low one at ``12 + low - 1``;
- then :data:`EXTRA_UNITS` units about the decision and the stakes: the kind of decision
  (a play, whether to double, an answer to a double, an answer to a resignation, another
  choice of the variant), the cube (log2 of its value / 6, centred, owned by the
  observer, owned by another), a double offered to the observer, and in a match the
  points each side still needs (/ 25) and whether this is the Crawford game.
- Acedrex: its network's inputs (:class:`~gammon.nn.encoders.RingEncoder`: the ring,
  hands, captures, money, the jackpot, the die and the stage).

The first ``encoder.inputs + DICE_UNITS`` units are the same as those of the compiled
vector environment (:mod:`gammon.envs.vector`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gammon.core.errors import InvalidOptionError
from gammon.core.play import Play
from gammon.core.position import Position
from gammon.core.protocol import Phase, Rules
from gammon.core.variant import TrackVariant
from gammon.kernels.vector import DICE_UNITS  # one-hot high die, then low: one layout
from gammon.nn.encoders import QuarterEncoder, RingEncoder, TrackEncoder, encoder_for
from gammon.stakes.cube import CubeAction, ResignAnswer

#: Decision kind (5), cube (4), double offered (1), match (3).
EXTRA_UNITS = 13
_PLAY, _DOUBLE, _ANSWER, _RESIGN_ANSWER, _OTHER = range(5)


#: The resignation offers a decision may list with ``list_resignations``: a single game,
#: a gammon, a backgammon.
RESIGN_OFFERS = 3


def max_actions(rules: Rules, stakes: Any = None) -> int:
    """The size of the action space of ``rules``' games (module text), with ``stakes`` (a
    :class:`~gammon.stakes.rules.StakeRules` or None) that list the resignation offers
    among a decision's actions: room for those too."""
    listed = stakes is not None and bool(getattr(stakes, "list_resignations", False))
    return int(rules.game_type.max_actions) + (RESIGN_OFFERS if listed else 0)


def action_mask(legal: int, size: int) -> np.ndarray:
    """The mask of ``legal`` actions in an action space of ``size``: a prefix. A decision
    larger than the space is refused rather than cut short."""
    if legal > size:
        raise InvalidOptionError(
            f"a decision with {legal} legal actions does not fit the action space of "
            f"{size}: please report the position (the bound is meant to hold)")
    mask = np.zeros(size, np.int8)
    mask[:legal] = 1
    return mask


def _decision_kind(action: Any) -> int:
    if isinstance(action, Play):
        return _PLAY
    if action in (CubeAction.ROLL, CubeAction.DOUBLE):
        return _DOUBLE
    if isinstance(action, CubeAction):
        return _ANSWER
    if isinstance(action, ResignAnswer):
        return _RESIGN_ANSWER
    return _OTHER


class TrackObserver:
    """Observations of the track games, Multi-Gam included (module text)."""

    def __init__(self, rules: TrackVariant) -> None:
        encoder = encoder_for(rules)
        assert isinstance(encoder, TrackEncoder | QuarterEncoder)
        self.encoder = encoder
        self.board_units = self.encoder.inputs
        self.dice_units = DICE_UNITS // 2 * rules.game_type.dice
        self.size = self.board_units + self.dice_units + EXTRA_UNITS
        # Tesauro's fourth unit is the largest: (checkers - 3) / 2; pips / 200 and bars /
        # 2 stay below the number of checkers too.
        self.low, self.high = 0.0, float(max(2, rules.checkers))

    def encode(self, position: Position, player: int) -> np.ndarray:
        """The board units of ``position`` from ``player``'s side (its pins too, in a
        game that pins)."""
        row = np.frombuffer(position.kernel_row, np.int8)[None, :]
        encoded: np.ndarray = self.encoder.encode(row, np.array([player]))[0]
        return encoded

    def observe(self, state: Any, player: int) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        out[: self.board_units] = self.encode(state.position, player)
        at = self.board_units
        if state.phase is Phase.DECIDE and len(state.dice) >= 1:
            dice = sorted(state.dice, reverse=True)
            for k, die in enumerate(dice if len(dice) == 3 else (dice[0], dice[-1])):
                out[at + 6 * k + die - 1] = 1.0
        at += self.dice_units
        if state.phase is Phase.DECIDE:
            legal = state.legal_actions()
            if len(legal):
                out[at + _decision_kind(legal[0])] = 1.0
        at += 5
        value = getattr(state, "cube_value", 1)
        owner = getattr(state, "cube_owner", None)
        out[at] = math.log2(value) / 6.0
        out[at + 1 + (0 if owner is None else 1 if owner == player else 2)] = 1.0
        at += 4
        offer = getattr(state, "offer", None)
        if offer is not None and offer.by != player:
            out[at] = 1.0
        at += 1
        score = getattr(state, "score", None)
        if score is not None and score.length:
            mine = score.length - score.score[player]
            theirs = min(score.length - s for q, s in enumerate(score.score) if q != player)
            out[at] = min(1.0, mine / 25.0)
            out[at + 1] = min(1.0, theirs / 25.0)
            out[at + 2] = 1.0 if score.crawford else 0.0
        return out


class AcedrexObserver:
    """Observations of Acedrex: its network's inputs
    (:class:`~gammon.nn.encoders.RingEncoder`)."""

    def __init__(self, rules: Rules) -> None:
        self.encoder = RingEncoder(rules)
        self.size = self.encoder.inputs
        self.low, self.high = -1.0, 1.0

    def observe(self, state: Any, player: int) -> np.ndarray:
        row: np.ndarray = self.encoder.encode_states([state], [player])[0]
        return row


class RotationObserver:
    """Observations of a match whose games are of several variants in turn (tavli): each
    game's own observation (:class:`TrackObserver`), its board units padded with zeros
    to the widest game's (a game that pins has more), then one unit per variant of the
    rotation, 1 for the game being played."""

    def __init__(self, variants: tuple[TrackVariant, ...]) -> None:
        self.observers = {rules.name: TrackObserver(rules) for rules in variants}
        self.names = [rules.name for rules in variants]
        self.board_units = max(o.board_units for o in self.observers.values())
        self.size = self.board_units + DICE_UNITS + EXTRA_UNITS + len(variants)
        self.low = min(o.low for o in self.observers.values())
        self.high = max(o.high for o in self.observers.values())

    def encode(self, position: Position, player: int, variant: TrackVariant) -> np.ndarray:
        """The board units of ``position`` of a game of ``variant``, padded."""
        out = np.zeros(self.board_units, np.float32)
        units = self.observers[variant.name].encode(position, player)
        out[: units.size] = units
        return out

    def observe(self, state: Any, player: int) -> np.ndarray:
        observer = self.observers[state.variant.name]
        own = observer.observe(state, player)
        out = np.zeros(self.size, np.float32)
        out[: observer.board_units] = own[: observer.board_units]
        rest = own[observer.board_units:]
        out[self.board_units: self.board_units + rest.size] = rest
        out[self.size - len(self.names) + self.names.index(state.variant.name)] = 1.0
        return out


def observer_of(variants: tuple[Any, ...]) -> Any:
    """The observer of an environment's episodes, whose games are of ``variants``
    (:func:`gammon.envs.games.episode_rules`): :func:`observer_for` the one variant's, or
    a :class:`RotationObserver` of a rotation's."""
    return observer_for(variants[0]) if len(variants) == 1 else RotationObserver(variants)


def most_actions(variants: tuple[Any, ...], stakes: Any = None) -> int:
    """The most :func:`max_actions` of the ``variants`` an episode plays."""
    return max(max_actions(rules, stakes) for rules in variants)


#: The observers, by the board a variant names (``rules.board``).
OBSERVERS: dict[str, Any] = {"track": TrackObserver, "quarter": TrackObserver,
                             "ring": AcedrexObserver}


def observer_for(rules: Rules) -> TrackObserver | AcedrexObserver:
    """The observer of ``rules``' games: the one for the board it names."""
    observer = OBSERVERS.get(rules.board)
    if observer is None:
        raise InvalidOptionError(
            f"no observation for {rules.name}'s board {rules.board!r}; known: "
            f"{', '.join(OBSERVERS)}")
    result: TrackObserver | AcedrexObserver = observer(rules)
    return result


def afterstates(observer: TrackObserver | AcedrexObserver | RotationObserver,
                state: Any) -> np.ndarray:
    """The board units (``observer.encode``) of the position each legal play of
    ``state`` leads to, from the side of the player to act: one row per entry of
    ``state.legal_actions()``, in order, the inputs afterstate learners score (what the
    environments' ``afterstates()`` give). Refused before a game and after it, for a
    game that is no track game, and at a decision that is not a play (a cube decision,
    acey-deucey's choice of doubles)."""
    if state is None:
        raise InvalidOptionError("call reset() before afterstates()")
    if state.is_terminal:
        raise InvalidOptionError("the game is over: no afterstates (call reset() to play "
                                 "another)")
    player = state.current_player
    if player is None or not isinstance(observer, TrackObserver | RotationObserver):
        raise InvalidOptionError("afterstates are given for a track game's plays")
    legal = state.legal_actions()
    if not all(isinstance(a, Play) for a in legal):
        raise InvalidOptionError("this decision is not a play: no afterstates")
    if isinstance(observer, RotationObserver):
        return np.array([observer.encode(a.result, player, state.variant) for a in legal],
                        np.float32)
    return np.array([observer.encode(a.result, player) for a in legal], np.float32)
