"""The game protocol: what every state and every rules object offers.

Every game gammon plays, whatever its board, is driven through these two protocols, in
the spirit of OpenSpiel's ``Game``/``State`` split:

- a :class:`State` is an immutable value in one of three phases. At CHANCE,
  :meth:`State.chance_outcomes` lists what the dice can do with exact probabilities and
  :meth:`State.apply` takes the outcome that happened; at DECIDE,
  :attr:`State.current_player` chooses one of :meth:`State.legal_actions`; at TERMINAL,
  :meth:`State.returns` gives each player's result. A chance outcome never leads back
  to the same state (a throw that must be thrown again is left out and the others
  carry its probability), so a search over ``chance_outcomes`` always ends.
- a :class:`Rules` object (``state.variant``, the same attribute for every kind of
  state) is the variant with its options. Besides the rules it says what the variant
  *is* for the layers above: how its positions and moves are written (``notation``,
  ``move_text``), which board draws it (``board``), which evaluator scores it
  (``evaluator``), how long its default bot thinks (``think_seconds``) and whether it
  is played with the doubling cube (``cube``). Those are names; each layer keeps its
  own table from name to implementation, so nothing outside a variant's module and
  those tables compares variant names, and a new variant needs only its module and its
  rules page. The bots a game offers are the agents' table (:mod:`gammon.agents.offered`),
  where a game without a row is played by its search.

The track games' :class:`~gammon.core.variant.GameState`, the stakes layer's
:class:`~gammon.stakes.cube.CubeState` and Acedrex's state all follow :class:`State`;
agents, duels, the table and every face use nothing else.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from gammon.core.dice import Roll

#: A line for the game's log: the player it is about (None: nobody in particular) and
#: the words, which read after that player's name ("rolls again.").
Note = tuple[int | None, str]


class Phase(enum.Enum):
    """Where a game stands: dice to throw, a decision to make, or over."""

    CHANCE = "chance"
    DECIDE = "decide"
    TERMINAL = "terminal"


@dataclass(frozen=True)
class GameType:
    """What kind of game a variant is, stated once by its rules (``rules.game_type``, as
    OpenSpiel's ``GameType``), so that no layer probes classes or names to find out."""

    players: int
    #: ``alternate``: the sides take turns of one roll of two dice each, the turn ending
    #: with the play (what the compiled board search and kernels assume); ``own``: the
    #: variant has turns of its own (extra rolls, a choice of doubles, more players'
    #: order, a die spent in parts).
    turns: str
    #: The board the faces draw: ``track``, ``quarter`` or ``ring``.
    board: str
    #: Whether its states hold a :class:`~gammon.core.position.Position` of checker
    #: counts and its moves are plays (a variant may add choices of its own, as
    #: acey-deucey's doubles): what position IDs, hints, analysis, the compiled kernels
    #: of the track games and the vector environment read.
    checkers: bool
    #: Whether the cube, matches and money sessions can be played around it (the stakes
    #: layer: two players with checkers).
    stakes: bool
    #: The most legal actions one decision can list: the size of a fixed action space.
    max_actions: int
    #: How chance enters, in words.
    chance: str
    #: Dice thrown for a turn.
    dice: int = 2
    #: How many sizes of win it scores: 1, single games only; 2, and a double one
    #: (gammon, mars); 3, and a triple one (backgammon, koks).
    results: int = 1
    #: Whether a checker landed on may lie pinned (positions then carry a pin row, the
    #: encoders a pin plane, the move texts pins).
    pins: bool = False
    #: Whether a finished game may hand the other side one more turn (Long Nardy's last
    #: roll), so that the side off first has not yet won.
    last_roll: bool = False
    #: Whether a double may be followed by further doubles in the same turn (Gul bara's
    #: cascade), so that a turn is more than one throw.
    cascades: bool = False


class RandomSource(Protocol):
    """Where chance draws come from: anything with ``random()`` in [0, 1), such as
    ``random.Random`` or the table's dice (:mod:`gammon.table.dice`)."""

    def random(self) -> float: ...


class State(Protocol):
    """A state of any game (see the module text)."""

    @property
    def variant(self) -> Rules: ...

    @property
    def phase(self) -> Phase: ...

    @property
    def players(self) -> int: ...

    @property
    def current_player(self) -> int | None:
        """The player to act at DECIDE; None at CHANCE and TERMINAL."""

    @property
    def is_chance(self) -> bool: ...

    @property
    def is_terminal(self) -> bool: ...

    @property
    def winner(self) -> int | None:
        """The player with the best result once the game is over; None before it, and
        for a draw."""

    def chance_outcomes(self) -> Sequence[tuple[Roll, Fraction]]:
        """Every outcome of the pending throw with its exact probability."""

    def legal_actions(self) -> Sequence[Any]:
        """The actions of the player to act, each a whole decision."""

    def apply(self, outcome_or_action: Any) -> State:
        """The state after a chance outcome (at CHANCE) or an action (at DECIDE).
        Raises a :class:`~gammon.core.errors.GammonError` for one that cannot happen."""

    def returns(self) -> tuple[float, ...]:
        """Each player's result: zero until the game is over."""

    def sample_chance(self, rng: RandomSource) -> Roll:
        """Draw a chance outcome with its probability, with one ``rng.random()``."""


#: A state of one kind, kept through :func:`play_on`.
AnyState = TypeVar("AnyState", bound=State)


class Rules(Protocol):
    """A variant with its options: the rules, and what the variant is (module text)."""

    @property
    def name(self) -> str: ...

    @property
    def summary(self) -> str: ...

    @property
    def players(self) -> int: ...

    @property
    def board(self) -> str:
        """The kind of board the faces draw (``track``, ``quarter``, ``ring``)."""

    @property
    def game_type(self) -> GameType:
        """What kind of game it is (:class:`GameType`)."""

    @property
    def notation(self) -> str:
        """The notation its positions are written in (``gnu``, ``nardy``, ...)."""

    @property
    def move_text(self) -> str:
        """How its actions are written and typed (``gnubg``, ``multigam``, ...)."""

    @property
    def evaluator(self) -> str:
        """The heuristic evaluator that scores its states (``track``, ``acedrex``)."""

    @property
    def think_seconds(self) -> float:
        """How long its default bot (the first it is offered, at its default setting) took
        over its slowest decision, as docs/strength.md measured it (Time per move): a
        server gives its bots this and a margin."""

    @property
    def cube(self) -> bool:
        """Whether it is played with the doubling cube unless told otherwise."""

    @property
    def table_options(self) -> Mapping[str, tuple[int, int]]:
        """The options a group may set for a table (the web lobby offers them, and a
        server takes no other), each a whole number with the range offered: the rules
        may allow more (Acedrex's ``turn_cap=0``, no cap, is for study, not for a
        table that must end)."""

    def options(self) -> dict[str, Any]:
        """The options this rules object was built with."""

    def initial_state(self) -> State:
        """A new game, before its first throw."""

    def random_playouts(self, games: int, seed: int | None) -> Any:
        """``games`` whole games between random players in compiled code, from the
        start: a numpy array, one row per game, whose first three columns are the
        winner (-1: unfinished), the winner's points and the decisions made; the rest
        are the variant's own. ``seed`` reseeds the compiled generator."""

    def decision_prompt(self, state: Any) -> str | None:
        """What a person is asked at a decision that is not a plain move, else None."""

    def announce(self, before: Any, taken: Any, after: Any) -> Sequence[Note]:
        """What the rules made of a throw or an action (``taken``, from ``before`` to
        ``after``) that players should be told: an extra roll, a forfeited turn, a
        combat's result. Each note names the player it is about, or None."""

    def in_play(self, state: Any, player: int) -> bool:
        """Whether ``player`` still plays in the game of ``state`` (has not finished,
        resigned or been put out)."""

    def no_move_reason(self, state: Any) -> str | None:
        """Why the player to act can do nothing, when a rule (not the board) stops
        them, else None."""


def play_on(state: AnyState, dice: RandomSource,
            choose: Callable[[AnyState], Any] | None = None, *,
            until: Callable[[AnyState], bool] | None = None,
            apply: Callable[[Any], AnyState] | None = None,
            observe: Callable[[AnyState], None] | None = None) -> AnyState:
    """Step a game on: the one loop of everything that plays games without a person
    (the learning environments, duels, matches and money sessions). From ``state``,
    every chance node's outcome is drawn from ``dice`` and every decision is
    ``choose(state)``'s, until the game is over or ``until(state)`` holds at a decision
    (a learner's turn, a budget spent); without ``choose``, until the first decision.
    ``apply`` takes each step (default ``state.apply``; a match or a session passes its
    own, which keeps the score); ``observe`` is shown each state a step reaches (a
    recorder of positions). The state reached. The table (:mod:`gammon.table`),
    which faces drive one step at a time, asks the same two things at each step: the
    dice at chance, the seat at a decision."""
    while not state.is_terminal:
        if state.is_chance:
            step = state.sample_chance(dice)
        elif choose is None or (until is not None and until(state)):
            break
        else:
            step = choose(state)
        state = state.apply(step) if apply is None else apply(step)  # type: ignore[assignment]
        if observe is not None:
            observe(state)
    return state
