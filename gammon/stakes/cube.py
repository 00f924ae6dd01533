"""The doubling cube and resignations, as decisions around any game's states.

A :class:`CubeState` wraps a :class:`~gammon.core.variant.GameState` of any variant and
speaks the same protocol (``phase``, ``current_player``, ``chance_outcomes``,
``legal_actions``, ``apply``, ``returns``, ``sample_chance``), so tools and bots that
drive a game drive a game with stakes unchanged. It inserts decisions of its own:

- before a player rolls, when that player may double: :data:`CubeAction.ROLL` or
  :data:`CubeAction.DOUBLE` (no such decision when doubling is not allowed: the state
  is then at CHANCE, as the wrapped one);
- after a double: :data:`CubeAction.TAKE`, :data:`CubeAction.DROP`, and with the options
  :data:`CubeAction.BEAVER`, then :data:`CubeAction.RACCOON` for the doubler;
- a resignation, :class:`Resign` (single game, gammon or backgammon), which the player
  to act may offer at any decision of their own; the opponent answers
  :data:`ResignAnswer.ACCEPT` or :data:`ResignAnswer.REJECT`.

Everything else (the dice, the plays, the variant's own choices) goes to the wrapped
state. ``returns()`` scores the game with the cube, the Jacoby rule and the other
options of :class:`~gammon.stakes.rules.StakeRules`. The rules are docs/rules/stakes.md.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from gammon.core.dice import Outcomes, Roll, is_decisive, one_die_each
from gammon.core.errors import IllegalPlayError, InvalidOptionError
from gammon.core.position import Position
from gammon.core.protocol import Phase, RandomSource
from gammon.core.variant import GameState, TrackVariant, track_variant
from gammon.stakes.rules import StakeRules
from gammon.stakes.score import MatchScore


class CubeAction(enum.Enum):
    """A decision about the cube."""

    #: Before rolling: roll without doubling.
    ROLL = "roll"
    #: Before rolling: offer the cube at its next value.
    DOUBLE = "double"
    #: Accept the cube on offer.
    TAKE = "take"
    #: Refuse it: the game ends, the refuser loses the stake before the offer.
    DROP = "drop"
    #: Take a double and at once raise it again, keeping the cube.
    BEAVER = "beaver"
    #: The doubler's answer to a beaver: take it and raise again, keeping the cube.
    RACCOON = "raccoon"

    def __str__(self) -> str:
        return self.value


#: What a resignation gives up, by level.
RESIGN_NAMES = {1: "single game", 2: "gammon", 3: "backgammon"}


@dataclass(frozen=True, slots=True)
class Resign:
    """An offer to resign: the opponent wins ``level`` (1 single game, 2 gammon,
    3 backgammon) times the cube, if they accept."""

    level: int = 1

    def __post_init__(self) -> None:
        if self.level not in RESIGN_NAMES:
            raise InvalidOptionError(
                f"a resignation gives up a single game (1), a gammon (2) or a backgammon (3), "
                f"not {self.level!r}"
            )

    @property
    def name(self) -> str:
        return RESIGN_NAMES[self.level]

    def __str__(self) -> str:
        return f"resign {self.name}"


class ResignAnswer(enum.Enum):
    """The answer to an offer to resign."""

    ACCEPT = "accept"
    REJECT = "reject"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Offer:
    """A raise of the cube waiting for an answer.

    ``kind`` is DOUBLE, BEAVER or RACCOON; ``by`` the player who raised; ``value`` the
    value on offer; ``stake`` what refusing it loses (the value before this raise).
    """

    kind: CubeAction
    by: int
    value: int
    stake: int


@dataclass(frozen=True, slots=True)
class Ending:
    """How a game ended other than by play: a dropped cube or an accepted resignation."""

    how: str  # "drop" or "resign"
    winner: int
    points: int
    level: int = 1


DROP = "drop"
RESIGNED = "resign"


@dataclass(frozen=True, slots=True)
class CubeState:
    """A game state with the cube, the score around it, and resignations.

    Fields: ``base`` (the wrapped game state), ``stakes`` (:class:`StakeRules`), ``score``
    (:class:`MatchScore`, match or money), ``cube_value``, ``cube_owner`` (None =
    centred), ``offer`` (a raise waiting for an answer), ``preroll`` (the player on
    roll decides whether to double), ``resignation`` ((player, level) on offer),
    ``declined`` (the highest resignation turned down since the last move: the same
    player may only offer more), ``ending`` (a drop or an accepted resignation),
    ``auto_doubles`` (automatic doubles so far), ``last_actor`` (the player who last
    rolled or decided in the wrapped game: a turn starts when another player is to
    roll).

    Build one with :func:`cube_game` or :meth:`from_situation`.
    """

    base: GameState
    stakes: StakeRules = StakeRules()
    score: MatchScore = MatchScore()
    cube_value: int = 1
    cube_owner: int | None = None
    offer: Offer | None = None
    preroll: bool = False
    resignation: tuple[int, int] | None = None
    declined: int = 0
    ending: Ending | None = None
    auto_doubles: int = 0
    last_actor: int | None = None
    cube_in_play: bool = True
    _legal: list[Sequence[object]] = field(default_factory=list, compare=False, repr=False)

    # --- the protocol of a state ---------------------------------------------------------

    @property
    def variant(self) -> TrackVariant:
        return self.base.variant

    @property
    def position(self) -> Position:
        return self.base.position

    @property
    def players(self) -> int:
        return self.base.position.players

    @property
    def dice(self) -> tuple[int, ...]:
        return self.base.dice

    @property
    def opening(self) -> bool:
        return self.base.opening

    @property
    def moves(self) -> int:
        return self.base.moves

    @property
    def memo(self) -> object:
        return self.base.memo

    @property
    def phase(self) -> Phase:
        if self.ending is not None:
            return Phase.TERMINAL
        if self.resignation is not None or self.offer is not None or self.preroll:
            return Phase.DECIDE
        return self.base.phase

    @property
    def current_player(self) -> int | None:
        """The player to act at DECIDE (the one answering an offer); None otherwise."""
        if self.ending is not None:
            return None
        if self.resignation is not None:
            return 1 - self.resignation[0]
        if self.offer is not None:
            return 1 - self.offer.by
        if self.preroll:
            return self.base.position.turn
        return self.base.current_player

    @property
    def is_chance(self) -> bool:
        return self.phase is Phase.CHANCE

    @property
    def is_terminal(self) -> bool:
        return self.phase is Phase.TERMINAL

    def chance_outcomes(self) -> Sequence[tuple[Roll, Fraction]]:
        """The wrapped game's outcomes; at the opening, while an equal throw would
        double the cube automatically, every throw (an equal one changes the cube, so
        it is an outcome of its own)."""
        if self.phase is not Phase.CHANCE:
            raise ValueError(f"no dice to throw in the {self.phase.value} phase")
        if self.base.opening and self._auto_double_due():
            return one_die_each(self.base.position.players, self.base.variant.sides)
        return self.base.chance_outcomes()

    def _auto_double_due(self) -> bool:
        """Whether an equal opening throw now doubles the cube (**CUBE-AUTO**)."""
        return (self.cube_in_play and self.money
                and self.auto_doubles < self.stakes.auto_doubles
                and self.stakes.next_value(self.cube_value) <= self.stakes.max_cube)

    def sample_chance(self, rng: RandomSource) -> Roll:
        outcomes = self.chance_outcomes()
        if not isinstance(outcomes, Outcomes):
            outcomes = Outcomes(outcomes)
        return outcomes.draw(rng.random())

    def legal_actions(self) -> Sequence[Any]:
        """The actions of the player to act.

        Answers to a resignation or a cube offer, ROLL/DOUBLE before a roll, else the
        wrapped game's actions. Resignation offers are added only with
        ``stakes.list_resignations`` (see :meth:`resign_offers`).
        """
        phase = self.phase
        if phase is not Phase.DECIDE:
            raise ValueError(f"no decision to make in the {phase.value} phase")
        if self._legal:
            return self._legal[0]
        actions: Sequence[object]
        if self.resignation is not None:
            actions = (ResignAnswer.ACCEPT, ResignAnswer.REJECT)
        elif self.offer is not None:
            actions = self._answers()
        elif self.preroll:
            actions = (CubeAction.ROLL, CubeAction.DOUBLE)
        else:
            actions = self.base.legal_actions()
        if self.stakes.list_resignations and self.resignation is None:
            actions = (*actions, *self.resign_offers())
        self._legal.append(actions)
        return actions

    def apply(self, outcome_or_action: object) -> CubeState:
        """The state after a chance outcome or an action (see the module docstring)."""
        x = outcome_or_action
        phase = self.phase
        if phase is Phase.TERMINAL:
            raise ValueError("the game is over")
        if phase is Phase.CHANCE:
            if x is CubeAction.DOUBLE and not self.base.opening:
                roller = self.base.position.turn
                why = self.why_no_double(roller) or "the double was not offered before rolling"
                raise IllegalPlayError(f"{_name(roller)} may not double: {why}")
            if isinstance(x, Resign) and not self.base.opening:
                return self._offer_resignation(self.base.position.turn, x)
            if not isinstance(x, Roll):
                raise IllegalPlayError(f"the dice are to be thrown, not {_show(x)}")
            return self._after_roll(x)
        player = self.current_player
        assert player is not None
        if isinstance(x, Resign):
            return self._offer_resignation(player, x)
        if self.resignation is not None:
            return self._answer_resignation(x)
        if self.offer is not None:
            return self._answer_cube(player, x)
        if self.preroll:
            if x is CubeAction.ROLL:
                return replace(self, preroll=False, declined=0, _legal=[])
            if x is CubeAction.DOUBLE:
                offer = Offer(CubeAction.DOUBLE, player, self.stakes.next_value(self.cube_value),
                              self.cube_value)
                return replace(self, preroll=False, offer=offer, declined=0, _legal=[])
            raise IllegalPlayError(
                f"before rolling, {_name(player)} may double or roll, not {_show(x)}"
            )
        if isinstance(x, CubeAction):
            why = self.why_no_double(player) if x is CubeAction.DOUBLE else "no cube is on offer"
            raise IllegalPlayError(f"{x.value} is not possible now: {why}")
        return self._enter(self.base.apply(x), player)

    def returns(self) -> tuple[float, ...]:
        """Each player's result with the stakes: zero until the game is over.

        A drop or an accepted resignation scores its points; a game played out scores
        the wrapped game's result, gammons and backgammons reduced to a single game by
        the Jacoby rule (cube centred) or "no mars with the cube", times the cube.
        """
        players = self.base.position.players
        if self.ending is not None:
            e = self.ending
            return tuple(float(e.points if p == e.winner else -e.points) for p in range(players))
        if self.base.phase is not Phase.TERMINAL:
            return (0.0,) * players
        results = self.base.returns()
        if players != 2:
            return tuple(results)
        return tuple(
            (1.0 if r > 0 else -1.0) * self.points_for(abs(r)) if r else 0.0 for r in results
        )

    @property
    def winner(self) -> int | None:
        """The player with the best result once the game is over (None for a draw)."""
        if not self.is_terminal:
            return None
        results = self.returns()
        best = max(results)
        if results.count(best) == len(results):
            return None
        return results.index(best)

    # --- the stakes ----------------------------------------------------------------------

    @property
    def money(self) -> bool:
        return self.score.money

    def points_for(self, level: float) -> float:
        """What a win worth ``level`` (1 single, 2 gammon, ...) scores with the stakes.

        **CUBE-JACOBY**: in money play with the Jacoby rule, while the cube is centred,
        more than a single game counts single. **CUBE-NO-MARS**: with the option and
        the cube in play, every win counts single. Then times the cube value.
        """
        if level > 1 and (self.jacoby_applies or self.no_mars_applies):
            level = 1
        return float(level * self.cube_value)

    @property
    def jacoby_applies(self) -> bool:
        return self.stakes.jacoby and self.money and self.cube_owner is None

    @property
    def no_mars_applies(self) -> bool:
        return self.cube_in_play and self.stakes.no_mars_for(self.variant)

    def may_double(self, player: int) -> bool:
        """Whether ``player`` may offer the cube when next about to roll."""
        return not self.why_no_double(player)

    def why_no_double(self, player: int) -> str:
        """Why ``player`` may not double (empty when they may)."""
        if not self.cube_in_play:
            return "this game is played without the cube"
        if self.score.crawford:
            return "no doubling in the Crawford game"
        if self.score.length and self.score.score[player] + self.cube_value >= self.score.length:
            return (f"the cube is dead: a single game at {self.cube_value} already wins "
                    f"{_name(player)} the match")
        if self.cube_owner is not None and self.cube_owner != player:
            return f"the cube belongs to {_name(self.cube_owner)}"
        if self.stakes.next_value(self.cube_value) > self.stakes.max_cube:
            return f"the cube is at its limit ({self.stakes.max_cube})"
        if closed := self.variant.why_no_cube(self.base):
            return closed
        if self.ending is not None or self.base.phase is not Phase.CHANCE or self.base.opening:
            return "a double is offered before rolling, at the start of a turn"
        return ""

    def resign_offers(self) -> tuple[Resign, ...]:
        """The resignations the player to act may offer now (**RESIGN-OFFER**).

        Two-player games only, at any decision of one's own (answering a double too,
        as in gnubg) or before one's roll, and more than an offer the opponent has just
        declined; gammon and backgammon only where the variant scores them.
        """
        phase = self.phase
        if (phase is Phase.TERMINAL or self.resignation is not None
                or self.base.position.players != 2
                or (phase is Phase.CHANCE and self.base.opening)):
            return ()
        variant = self.base.variant
        levels = [1]
        if variant.ending.gammons:
            levels.append(2)
            if variant.ending.backgammons:
                levels.append(3)
        return tuple(Resign(level) for level in levels if level > self.declined)

    @property
    def next_cube(self) -> int:
        """The value a double would offer now."""
        return self.stakes.next_value(self.cube_value)

    @property
    def result_score(self) -> MatchScore:
        """The score after this game (the score before it while it is being played)."""
        if not self.is_terminal:
            return self.score
        winner = self.winner
        points = self.returns()[winner] if winner is not None else 0
        return self.score.after(winner, points)

    @property
    def result_level(self) -> int:
        """How the game was won: 1 single, 2 gammon, 3 backgammon (before the stakes);
        for a drop, 1; 0 while playing or for a draw."""
        if not self.is_terminal:
            return 0
        if self.ending is not None:
            return self.ending.level
        results = self.base.returns()
        return int(max(abs(r) for r in results))

    # --- transitions ---------------------------------------------------------------------

    def _enter(self, base: GameState, last_actor: int | None, **changes: Any) -> CubeState:
        """The state after the wrapped game moved on to ``base``."""
        state = replace(self, base=base, last_actor=last_actor, preroll=False, declined=0,
                        offer=None, resignation=None, _legal=[], **changes)
        if (base.phase is Phase.CHANCE and not base.opening
                and base.position.turn != last_actor and state.may_double(base.position.turn)):
            state = replace(state, preroll=True, _legal=[])
        return state

    def _after_roll(self, roll: Roll) -> CubeState:
        base = self.base
        if (base.opening and roll.opening and len(roll.dice) == base.position.players
                and not is_decisive(roll.dice) and self._auto_double_due()):
            # An equal opening throw doubles the cube; the dice are thrown again.
            return replace(self, cube_value=self.stakes.next_value(self.cube_value),
                           auto_doubles=self.auto_doubles + 1, _legal=[])
        after = base.apply(roll)
        changes: dict[str, Any] = {}
        # The player who rolls has acted in this turn (a later roll of theirs without a
        # decision in between is an extra roll, not a new turn).
        actor = self.last_actor if base.opening else base.position.turn
        return self._enter(after, actor, **changes)

    def _answers(self) -> tuple[CubeAction, ...]:
        offer = self.offer
        assert offer is not None
        answers = [CubeAction.TAKE, CubeAction.DROP]
        further = self.stakes.next_value(offer.value) <= self.stakes.max_cube and self.money
        if offer.kind is CubeAction.DOUBLE and self.stakes.beaver and further:
            answers.append(CubeAction.BEAVER)
        if offer.kind is CubeAction.BEAVER and self.stakes.raccoon and further:
            answers.append(CubeAction.RACCOON)
        return tuple(answers)

    def _answer_cube(self, player: int, action: object) -> CubeState:
        offer = self.offer
        assert offer is not None
        if action not in self._answers():
            allowed = ", ".join(a.value for a in self._answers())
            raise IllegalPlayError(
                f"{_name(player)} must answer the {offer.kind.value} to {offer.value}: "
                f"{allowed}; not {_show(action)}"
            )
        if action is CubeAction.DROP:
            ending = Ending(DROP, offer.by, offer.stake)
            return replace(self, ending=ending, offer=None, _legal=[])
        if action is CubeAction.TAKE:
            # A double taken goes to the taker; a beaver or raccoon taken stays with the
            # player who raised (**CUBE-BEAVER**, **CUBE-RACCOON**).
            owner = player if offer.kind is CubeAction.DOUBLE else offer.by
            return replace(self, cube_value=offer.value, cube_owner=owner, offer=None,
                           _legal=[])
        # BEAVER / RACCOON: accept the value on offer and raise again at once.
        raised = Offer(action, player, self.stakes.next_value(offer.value), offer.value)
        holder = player if action is CubeAction.BEAVER else self.cube_owner
        return replace(self, cube_value=offer.value, cube_owner=holder, offer=raised,
                       _legal=[])

    def _offer_resignation(self, player: int, resign: Resign) -> CubeState:
        if resign not in self.resign_offers():
            if self.resignation is not None:
                why = "answer the offer on the table first"
            elif self.base.position.players != 2:
                why = "resignations are for two-player games"
            elif resign.level <= self.declined:
                why = (f"{self.variant.result_name(self.declined)} was just declined; "
                       "offer more")
            else:
                why = (f"{self.base.variant.name} does not score "
                       f"{self.variant.result_name(resign.level)}")
            given = self.variant.result_name(resign.level)
            raise IllegalPlayError(f"{_name(player)} cannot resign {given}: {why}")
        return replace(self, resignation=(player, resign.level), _legal=[])

    def _answer_resignation(self, answer: object) -> CubeState:
        assert self.resignation is not None
        offerer, level = self.resignation
        if answer is ResignAnswer.ACCEPT:
            ending = Ending(RESIGNED, 1 - offerer, int(self.points_for(level)), level)
            return replace(self, ending=ending, resignation=None, _legal=[])
        if answer is ResignAnswer.REJECT:
            return replace(self, resignation=None, declined=level, _legal=[])
        raise IllegalPlayError(
            f"{_name(1 - offerer)} must accept or reject the offer to resign "
            f"{self.variant.result_name(level)}, not {_show(answer)}"
        )

    @classmethod
    def midgame(cls, variant: TrackVariant | str, position: Position,
                dice: tuple[int, int] | None = None, *, stakes: StakeRules | None = None,
                score: MatchScore | None = None, cube_value: int = 1,
                cube_owner: int | None = None) -> CubeState:
        """A game in progress: ``position.turn`` to roll (``dice`` None; they may first
        double when allowed) or to play ``dice``, with the cube and score given."""
        rules = track_variant(variant) if isinstance(variant, str) else variant
        stakes = stakes if stakes is not None else StakeRules()
        score = score if score is not None else MatchScore(score=(0,) * rules.players)
        stakes.check_match(score.length)
        if cube_owner is not None and cube_owner not in range(rules.players):
            raise InvalidOptionError(f"the cube owner is a player or None, not {cube_owner!r}")
        if not isinstance(cube_value, int) or cube_value < 1:
            raise InvalidOptionError(f"the cube value is 1 or more, not {cube_value!r}")
        base = rules.state(position, dice)
        state = cls(base, stakes, score, cube_value, cube_owner,
                    cube_in_play=stakes.cube_for(rules))
        return state._enter(base, None)

    @classmethod
    def from_situation(cls, situation: Any, variant: TrackVariant | None = None,
                       stakes: StakeRules | None = None, *,
                       crawford_rule: bool = True) -> CubeState:
        """The state a :class:`~gammon.notation.Situation` (a GNU ID or XGID) describes:
        the position and dice, the cube, the score and the match; a double or a
        resignation on offer too. ``variant`` defaults to backgammon."""
        rules = variant if variant is not None else track_variant("backgammon")
        s = situation
        if stakes is None:
            stakes = StakeRules(jacoby=bool(s.jacoby and s.money),
                                beaver=bool(s.beaver and s.money))
        score = MatchScore(
            s.match_length, s.score, bool(s.crawford),
            bool(s.match_length and not s.crawford and s.match_length - 1 in s.score
                 and crawford_rule and s.match_length > 1),
            crawford_rule,
        )
        state = cls.midgame(rules, s.position, s.dice, stakes=stakes, score=score,
                            cube_value=s.cube_value, cube_owner=s.cube_owner)
        if s.double_offered:
            state = state.apply(CubeAction.DOUBLE) if state.preroll else state
            if state.offer is None:
                raise InvalidOptionError(
                    f"a double is on offer but {_name(s.on_roll)} may not double: "
                    f"{state.why_no_double(s.on_roll)}"
                )
        if int(s.resigned):
            state = state.apply(Resign(int(s.resigned)))
        return state

    def describe(self) -> str:
        """One line about the cube and the score, for people."""
        if not self.cube_in_play:
            cube = "no cube"
        elif self.cube_owner is None:
            cube = f"cube {self.cube_value}, centred"
        else:
            cube = f"cube {self.cube_value}, owned by {_name(self.cube_owner)}"
        if self.offer is not None:
            cube += f"; {self.offer.kind.value} to {self.offer.value} on offer"
        return f"{cube}; score {self.score.text()}"


def base_of(state: Any) -> Any:
    """The game state a state plays in: a stakes state's wrapped game, any other state
    itself."""
    return state.base if isinstance(state, CubeState) else state


# What the faces, bots and records ask of a state's stakes, answered here (the one place
# that knows which states carry them): a plain game has none, and the neutral answers.


def stakes_of(state: object) -> CubeState | None:
    """The stakes (cube, score, resignations) ``state`` is played under: the state
    itself when it carries them, None for a plain game."""
    return state if isinstance(state, CubeState) else None


def resign_offers(state: object) -> tuple[Resign, ...]:
    """The resignations the player to act may offer (none in a plain game)."""
    return state.resign_offers() if isinstance(state, CubeState) else ()


def cube_value(state: object) -> int:
    """What the game is played for: the cube's value, 1 in a plain game."""
    return state.cube_value if isinstance(state, CubeState) else 1


def match_length(state: object) -> int:
    """The length of the match ``state`` is a game of: 0 in money play or a plain game."""
    return state.score.length if isinstance(state, CubeState) else 0


def cube_game(variant: TrackVariant | str, stakes: StakeRules | None = None,
              score: MatchScore | None = None, *, start: GameState | None = None,
              **options: Any) -> CubeState:
    """A new game of ``variant`` with the stakes: ``stakes`` (or the options of
    :class:`StakeRules` as keywords) and the ``score`` before it (money by default).
    ``start``: the game's first state when it does not begin with the opening throw."""
    rules = track_variant(variant) if isinstance(variant, str) else variant
    if stakes is None:
        stakes = StakeRules(**options)
    elif options:
        stakes = stakes.replace(**options)
    score = score if score is not None else MatchScore(score=(0,) * rules.players)
    stakes.check_match(score.length)
    if score.length and rules.players != 2:
        raise InvalidOptionError("match play is for two-player variants")
    base = rules.initial_state() if start is None else start
    return CubeState(base, stakes, score, cube_in_play=stakes.cube_for(rules))._enter(base, None)


def _name(player: int) -> str:
    return f"player {player}"


def _show(action: object) -> str:
    return str(action) if isinstance(action, CubeAction | ResignAnswer | Resign) else repr(action)
