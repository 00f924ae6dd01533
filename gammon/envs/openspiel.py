"""Every variant as an OpenSpiel game (the ``openspiel`` extra: ``pip install gammon[openspiel]``).

Importing this module registers one Python game per variant
(:func:`gammon.core.variant.variant_names`) with OpenSpiel, named ``gammon_`` and the
variant's name with underscores: ``pyspiel.load_game("gammon_long_nardy")``,
``pyspiel.load_game("gammon_hypergammon(checkers_per_side=2)")`` (the game's parameters are the
variant's options, defaults as the name sets them). A state wraps gammon's state; every
rule stays gammon's (the state's ``legal_actions``, ``apply``, ``chance_outcomes`` and
``returns``, and for the step numbering the rule that checks a play typed in parts).

**Chance** is explicit: at a chance node ``chance_outcomes()`` lists gammon's outcomes
with their exact probabilities (as floats). An outcome's number is its dice read as a
number in base ``sides``, the first die lowest: ``(d1 - 1) + (d2 - 1) * sides + ...``,
so a regular roll 6-5 (gammon writes the high die first) is always the same number, and
an opening throw (one die per player, in player order) too. ``max_chance_outcomes`` is
``sides ** dice`` for the most dice one throw holds (one per player at the opening of a
game of checkers, two after, three in Tabula; Acedrex throws one D20 at a time, its
starting throws one after another).

**Actions** have fixed numbers, as OpenSpiel needs (``num_distinct_actions``):

- the two-player track games whose turns simply alternate
  (:func:`gammon.envs.vector.why_not_alternating`: backgammon, Long Nardy, the tables of
  Greece and Turkey but Gul bara...) use the step numbering of the Gymnasium
  environment's ``action_encoding="step"`` (:mod:`gammon.envs.steps`): ``(source - 1) *
  6 + (die - 1)`` moves one checker from ``source`` (the mover's numbering, the bar last)
  by ``die``, then a pass and the stakes decisions (unused here: the games are played
  without the cube), 162 numbers for backgammon. A turn is one OpenSpiel decision per
  checker step, the same player acting until the steps make one of gammon's legal whole
  plays; a step is legal only when a legal play can still follow, so no order of steps
  strands the player. A policy trained on the Gymnasium environment's step actions reads
  the same numbers here.
- the others (acey-deucey, Gul bara, Multi-Gam, Acedrex...) number an action
  by its place in the state's ``legal_actions()`` (the engine's deterministic order), up
  to ``rules.game_type.max_actions``: action 0 is the first legal whole decision of that
  state, not the same move in every state. Their decisions are not plays of two dice
  in turns that alternate (acey-deucey's choice of doubles, Gul bara's cascades,
  Multi-Gam's four seats, Acedrex's ring), so no numbering of checker steps covers
  them.

**Returns** are gammon's ``returns()`` at the end, zero before (``TERMINAL`` rewards):
points in the two-player games (zero-sum, within the variant's top score, a backgammon
or koks), Multi-Gam's place scores (constant-sum), Acedrex's money (zero-sum).

**Observations**: ``observation_tensor`` is the environments' observation
(:mod:`gammon.envs.observe`) from the player's side, with the step numbering's board as
the steps so far leave it and the dice still to play (as the Gymnasium environment shows
it); ``observation_string`` and ``str(state)`` say the phase, the player to act, the
dice and the board in one line. The game has perfect information, so the information
state string is the history of actions (OpenSpiel's own public-information observer);
no information state tensor is provided (the observation tensor is Markov: use it).

**Pickling**: each variant's game class is an attribute of this module
(:func:`game_class_for`: ``BackgammonGame``), so games pickle as OpenSpiel's Python games
do, and states with them (their game and history; a turn in steps keeps its progress).

**Length**: gammon's games have no fixed end (a hit sends a checker back), so
``max_game_length`` (:data:`MAX_GAME_LENGTH`, decisions) is a bound no game is expected
to meet, not a proof: the longest of 20 random games in decisions of whole plays was 285
(acey-deucey); a step decision is at most four times that; Acedrex stops at its turn cap
(1,000 turns).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

import gammon
from gammon.core.dice import Roll
from gammon.core.errors import IllegalOutcomeError, IllegalPlayError, InvalidOptionError
from gammon.core.protocol import Rules, State
from gammon.core.variant import variant_names
from gammon.envs.games import most_points
from gammon.envs.observe import TrackObserver, max_actions, observer_for
from gammon.envs.steps import StepEncoding, TurnInSteps, new_turn
from gammon.envs.vector import why_not_alternating
from gammon.nn.evaluator import result_range
from gammon.notation import move_text_for

#: The prefix of every game's OpenSpiel name.
PREFIX = "gammon_"
#: ``max_game_length`` of every game, in decisions (module text: a bound, not a proof).
MAX_GAME_LENGTH = 100_000


def game_name(variant: str) -> str:
    """The OpenSpiel name of a variant: ``long-nardy`` is ``gammon_long_nardy``."""
    return PREFIX + variant.replace("-", "_")


class Numbering:
    """How the OpenSpiel game of ``rules`` numbers its actions and chance outcomes, and
    what it shows (module text). Shared by a game's states, never copied with them."""

    def __init__(self, rules: Any) -> None:
        # Any: the numbers read the dice's sides and Multi-Gam's place scores, which the
        # Rules protocol does not carry.
        self.rules = rules
        #: The step numbering (:mod:`gammon.envs.steps`), or None: the place in the list.
        self.steps = StepEncoding(rules) if why_not_alternating(rules) is None else None
        self.num_actions = self.steps.size if self.steps is not None else max_actions(rules)
        self.sides = int(rules.sides)
        # A game of checkers opens with one die per player; every throw after holds two
        # (three in Tabula). Acedrex (no checkers) throws one D20 at a time, its
        # starting throws included.
        kind = rules.game_type
        most_dice = max(kind.dice, rules.players) if kind.checkers else 1
        self.num_outcomes = self.sides ** most_dice
        self.observer = observer_for(rules)
        self.observation_size = self.observer.size + (0 if self.steps is None
                                                      else self.steps.sides)
        self.move_text = move_text_for(rules)
        self._numbered: dict[int, tuple[object, dict[int, tuple[Roll, float]]]] = {}

    def __deepcopy__(self, memo: dict[int, object]) -> Numbering:
        return self  # the rules and numbers of a game: shared by all its states

    def __reduce__(self) -> tuple[Callable[[str, dict[str, object]], Numbering],
                                  tuple[str, dict[str, object]]]:
        return numbering_for, (self.rules.name, self.rules.options())

    # --- chance ----------------------------------------------------------------------

    def outcome_number(self, dice: tuple[int, ...]) -> int:
        """The number of a throw of ``dice`` (module text)."""
        number = sum((die - 1) * self.sides ** k for k, die in enumerate(dice))
        if number >= self.num_outcomes:  # pragma: no cover - the bound is meant to hold
            raise IllegalOutcomeError(f"the throw {dice} has no number below "
                                      f"{self.num_outcomes}: please report it")
        return number

    def outcomes(self, state: State) -> dict[int, tuple[Roll, float]]:
        """The chance outcomes of ``state`` by number: the outcome and its probability
        (numbered once for each list of outcomes the rules keep)."""
        listed = state.chance_outcomes()
        known = self._numbered.get(id(listed))
        if known is not None and known[0] is listed:
            return known[1]
        numbered = {self.outcome_number(roll.dice): (roll, float(p)) for roll, p in listed}
        if len(self._numbered) < 64:  # the rules' own lists: a handful, kept alive here
            self._numbered[id(listed)] = (listed, numbered)
        return numbered

    # --- decisions -------------------------------------------------------------------

    def legal(self, node: Node) -> list[int]:
        """The numbers legal at ``node``'s decision, in increasing order (listed once
        for each board the turn's steps pass)."""
        where = node.where()
        if node.legal is not None and node.legal[0] == where:
            return node.legal[1]
        if self.steps is not None:
            numbers = sorted(self.steps.legal(node.state, node.turn))
        else:
            numbers = list(range(len(node.state.legal_actions())))
        node.legal = (where, numbers)
        return numbers

    def action(self, node: Node, number: int) -> object:
        """The engine's action that ``number`` completes at ``node`` (None: a step of a
        turn that goes on); :class:`IllegalPlayError` for a number that is not legal."""
        legal = self.legal(node)
        if number not in legal:
            raise IllegalPlayError(
                f"action {number} is not legal here; legal: "
                f"{', '.join(self.action_text(node, n) for n in legal[:8])}"
                f"{' ...' if len(legal) > 8 else ''}")
        if self.steps is not None:
            return self.steps.take(node.state, number, node.turn)
        return node.state.legal_actions()[number]

    def action_text(self, node: Node, number: int) -> str:
        """A decision's number in words: ``13 by 5`` (steps), a play or choice in the
        variant's move text (place in the list)."""
        if self.steps is not None:
            return self.steps.meaning(number)
        state = node.state
        legal = state.legal_actions() if not (state.is_chance or state.is_terminal) else ()
        if 0 <= number < len(legal):
            return f"{number}: {self.move_text.format_action(legal[number])}"
        return f"action {number}"

    # --- what a player sees ----------------------------------------------------------

    def observe(self, node: Node, player: int) -> np.ndarray:
        if self.steps is not None:
            # The step numbering's games are two-player track games: a TrackObserver's.
            assert isinstance(self.observer, TrackObserver)
            return self.steps.observe(self.observer, node.state, player, node.turn)
        observed: np.ndarray = self.observer.observe(node.state, player)
        return observed

    def describe(self, node: Node) -> str:
        """``node`` in one line: the phase, who acts, the dice (and those left to play in
        steps), the board (checkers per slot, each player's in turn) or Acedrex's state."""
        state = node.state
        if not self.rules.game_type.checkers:
            return repr(state)
        actor = "chance" if state.is_chance else "over" if state.is_terminal else \
            f"player {state.current_player}"
        parts = [f"{self.rules.name}", actor]
        if state.dice:
            parts.append("dice " + "-".join(map(str, state.dice)))
        position = state.position
        if node.turn is not None:
            parts.append("left " + "-".join(map(str, node.turn.dice)))
            position = node.turn.position
        parts.append("board " + ",".join(map(str, position.board)))
        if position.pins:
            parts.append("pins " + ",".join(map(str, position.pins)))
        if state.is_terminal:
            parts.append("returns " + ",".join(f"{r:g}" for r in state.returns()))
        return "; ".join(parts)


_NUMBERINGS: dict[tuple[str, tuple[tuple[str, object], ...]], Numbering] = {}


def numbering_for(variant: str, options: dict[str, object]) -> Numbering:
    """The numbering of ``variant`` with ``options`` (one per game, shared)."""
    key = (variant, tuple(sorted(options.items())))
    if key not in _NUMBERINGS:
        _NUMBERINGS[key] = Numbering(gammon.variant(variant, **options))
    return _NUMBERINGS[key]


class Node:
    """Where an OpenSpiel state stands: gammon's state (an immutable value) and, inside a
    turn taken in checker steps, the turn so far (its own for each clone)."""

    def __init__(self, state: Any, turn: TurnInSteps | None) -> None:
        # Any: a State, read as a track game's (its position, dice, steps) where the
        # rules say it is one, which the State protocol cannot tell the type checker.
        self.state = state
        self.turn = turn
        #: OpenSpiel's number of who acts (asked several times a node).
        self.player = int(pyspiel.PlayerId.TERMINAL if state.is_terminal else
                          pyspiel.PlayerId.CHANCE if state.is_chance else
                          state.current_player)
        #: The legal numbers and where the turn stood when they were listed.
        self.legal: tuple[object, list[int]] | None = None

    def where(self) -> object:
        """Where the decision stands: the turn's board and dice left (a turn in steps),
        else nothing more than the state."""
        return None if self.turn is None else (self.turn.board, self.turn.dice)

    def __deepcopy__(self, memo: dict[int, object]) -> Node:
        # OpenSpiel clones a Python state by deep copy: gammon's state is a value and is
        # shared; the turn in steps changes as steps are taken, so each clone has its own
        # (whose answers, remembered per board, it shares).
        return Node(self.state, copy.copy(self.turn))

    def __reduce__(self) -> tuple[Any, ...]:
        turn = None if self.turn is None else (self.turn.board, self.turn.dice)
        return _restore_node, (self.state, turn)


def _restore_node(state: Any, turn: tuple[bytes, tuple[int, ...]] | None) -> Node:
    """A node unpickled (OpenSpiel's serialization): the turn's progress put back."""
    node = Node(state, None)
    if turn is not None:
        node.turn = new_turn(state)
        assert node.turn is not None
        node.turn.board, node.turn.dice = turn
    return node


def _game_type(name: str, rules: Rules) -> pyspiel.GameType:
    players = rules.players
    if players == 2 or not rules.game_type.checkers:
        utility = pyspiel.GameType.Utility.ZERO_SUM  # points, or Acedrex's money
    else:
        utility = pyspiel.GameType.Utility.CONSTANT_SUM  # Multi-Gam's place scores
    return pyspiel.GameType(
        short_name=game_name(name), long_name=f"gammon {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players, min_num_players=players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=rules.options())


def _game_info(numbering: Numbering) -> pyspiel.GameInfo:
    rules = numbering.rules
    if rules.players == 2:
        low, high, total = -float(most_points(rules)), float(most_points(rules)), 0.0
    elif rules.game_type.checkers:
        scores = rules.place_scores[:rules.players]
        low, high, total = float(min(scores)), float(max(scores)), float(sum(scores))
    else:
        (low, high), total = result_range(rules), 0.0
    return pyspiel.GameInfo(
        num_distinct_actions=numbering.num_actions,
        max_chance_outcomes=numbering.num_outcomes, num_players=rules.players,
        min_utility=low, max_utility=high, utility_sum=total,
        max_game_length=MAX_GAME_LENGTH)


class GammonGame(pyspiel.Game):
    """A variant as an OpenSpiel game; each registered game is a subclass naming its
    variant (``VARIANT``). ``params``: the variant's options."""

    VARIANT = "backgammon"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        defaults = gammon.variant(self.VARIANT).options()
        options = {**defaults, **(params or {})}
        self.numbering = numbering_for(self.VARIANT, options)
        super().__init__(_game_type(self.VARIANT, gammon.variant(self.VARIANT)),
                         _game_info(self.numbering), options)

    def new_initial_state(self) -> GammonState:
        return GammonState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: Any = None) -> Observer | IIGObserverForPublicInfoGame:
        if iig_obs_type is None or (iig_obs_type.public_info
                                    and not iig_obs_type.perfect_recall):
            return Observer(self.numbering, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class GammonState(pyspiel.State):
    """A state of a variant's OpenSpiel game, wrapping gammon's (module text)."""

    def __init__(self, game: GammonGame) -> None:
        super().__init__(game)
        self.numbering = game.numbering
        self.node = Node(game.numbering.rules.initial_state(), None)

    def current_player(self) -> int:
        return self.node.player

    def _legal_actions(self, player: int) -> list[int]:
        return self.numbering.legal(self.node)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self.numbering.outcomes(self.node.state)
        return sorted((number, p) for number, (_, p) in outcomes.items())  # a few dozen

    def _apply_action(self, action: int) -> None:
        node, numbering = self.node, self.numbering
        if node.state.is_chance:
            outcomes = numbering.outcomes(node.state)
            if action not in outcomes:
                raise IllegalOutcomeError(f"chance outcome {action} cannot happen here; "
                                          f"possible: {sorted(outcomes)}")
            self.node = self._entered(node.state.apply(outcomes[action][0]))
            return
        chosen = numbering.action(node, action)
        if chosen is None:  # a checker step of a turn that goes on
            return
        self.node = self._entered(node.state.apply(chosen))

    def _entered(self, state: Any) -> Node:
        """The node of a new gammon state: a turn to take in steps starts there."""
        turn = new_turn(state) if self.numbering.steps is not None else None
        return Node(state, turn)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            dice = "-".join(str(die) for die in self._dice_of(action))
            return f"throw {dice}"
        return self.numbering.action_text(self.node, action)

    def _dice_of(self, number: int) -> tuple[int, ...]:
        sides, dice = self.numbering.sides, []
        state = self.node.state
        count = (len(state.chance_outcomes()[0][0].dice) if state.is_chance
                 else state.variant.game_type.dice)
        for _ in range(count):
            dice.append(number % sides + 1)
            number //= sides
        return tuple(dice)

    def is_terminal(self) -> bool:
        return bool(self.node.state.is_terminal)

    def returns(self) -> list[float]:
        return [float(r) for r in self.node.state.returns()]

    def __str__(self) -> str:
        return self.numbering.describe(self.node)


class Observer:
    """OpenSpiel's observer of a gammon game (module text): the observation tensor and
    the one-line description."""

    def __init__(self, numbering: Numbering, params: object) -> None:
        if params:
            raise InvalidOptionError(f"the observation takes no parameters, not {params}")
        self.numbering = numbering
        self.tensor = np.zeros(numbering.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: GammonState, player: int) -> None:
        self.tensor[:] = self.numbering.observe(state.node, player)

    def string_from(self, state: GammonState, player: int) -> str:
        return self.numbering.describe(state.node)


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def game_class_for(variant: str) -> type[GammonGame]:
    """The game class of ``variant``, an attribute of this module (``BackgammonGame``), so
    that pickle finds it by name as it finds OpenSpiel's own Python games: a game pickles
    as its class and parameters, and a state as its game and the history of actions."""
    class_name = f"{_camel(variant)}Game"
    game_class = globals().get(class_name)
    if game_class is None:
        game_class = type(class_name, (GammonGame,), {"VARIANT": variant,
                                                      "__module__": __name__})
        globals()[class_name] = game_class
    assert isinstance(game_class, type) and issubclass(game_class, GammonGame)
    return game_class


def register_games() -> list[str]:
    """Register every variant with OpenSpiel (idempotent); their OpenSpiel names."""
    names = []
    registered = set(pyspiel.registered_names())
    for variant in variant_names():
        name = game_name(variant)
        if name not in registered:
            pyspiel.register_game(_game_type(variant, gammon.variant(variant)),
                                  game_class_for(variant))
        names.append(name)
    return names


def load(variant: str, **options: object) -> pyspiel.Game:
    """The OpenSpiel game of ``variant`` (a gammon name) with ``options``:
    ``load("hypergammon")`` is ``pyspiel.load_game("gammon_hypergammon")``."""
    if variant not in variant_names():
        raise InvalidOptionError(f"unknown variant {variant!r}; the variants: "
                                 f"{', '.join(variant_names())}")
    gammon.variant(variant, **options)  # an unknown option or a wrong value: gammon says
    register_games()
    return pyspiel.load_game(game_name(variant), options)


register_games()
