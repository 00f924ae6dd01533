"""Match play: a series of games to N points, with the Crawford rule.

A :class:`Match` starts each game with the score carried over (a :class:`MatchScore`
inside every state), records it (:class:`GameRecord`), and adds the points of each
finished game: the cube value times 1, 2 or 3 for a single game, gammon or backgammon
(**MATCH-SCORE**). The match ends when a player reaches the match length
(**MATCH-END**). No doubling in the Crawford game (**MATCH-CRAWFORD**); doubling again
after it (**MATCH-POST-CRAWFORD**).

A match may also play several games in turn (a :class:`Rotation`: Greek *tavli* is
Portes, Plakoto and Fevga, one after another, the winner of each starting the next
without an opening throw). ``Match("tavli", 5)`` plays one; :data:`ROTATIONS` names them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import play_on
from gammon.core.variant import GameState, TrackVariant, track_variant
from gammon.stakes.cube import CubeState, cube_game
from gammon.stakes.record import GameRecord, result_event
from gammon.stakes.rules import StakeRules
from gammon.stakes.score import MatchScore

#: A chooser: the action to take in a state at DECIDE.
Chooser = Callable[[CubeState], Any]


@dataclass(frozen=True)
class Rotation:
    """Games of several variants played in turn within one match: game ``g`` (from 0)
    is ``variants[g % len(variants)]``. With ``winner_starts`` the winner of a game has
    the first turn of the next and throws both dice for it (no opening throw), as
    tavli players do; the first game opens as its variant does."""

    name: str
    variants: tuple[str, ...]
    summary: str
    winner_starts: bool = True

    def rules(self) -> tuple[TrackVariant, ...]:
        return tuple(track_variant(name) for name in self.variants)

    def after(self, rules: TrackVariant) -> TrackVariant:
        """The variant of the game that follows a game of ``rules``."""
        at = self.variants.index(rules.name)
        return track_variant(self.variants[(at + 1) % len(self.variants)])

    def start_after(self, rules: TrackVariant, winner: int | None) -> GameState | None:
        """The first state of a game of ``rules`` that follows a game ``winner`` won: the
        winner on turn, to throw both dice (``winner_starts``); None for the variant's
        own opening (the match's first game, or a rotation whose games open as usual)."""
        if not self.winner_starts or winner is None:
            return None
        return rules.state(rules.start_position(turn=winner))


#: The rotations a match can be played as, by name.
ROTATIONS = {
    "tavli": Rotation(
        "tavli", ("portes", "plakoto", "fevga"),
        "Greek tavli: Portes, Plakoto and Fevga in turn, the winner of each game starting "
        "the next; no doubling cube; 1 or 2 points a game (docs/rules/tavli.md)."),
}


def rotation(name: str) -> Rotation | None:
    """The rotation called ``name`` (any case), or None when it names none."""
    return ROTATIONS.get(name.strip().lower()) if isinstance(name, str) else None


class Match:
    """A match to ``length`` points between two players.

    ``variant`` is a two-player track game (or its name), or a :class:`Rotation` (or
    its name, such as ``tavli``) whose games are played in turn. ``stakes`` are the
    stake options (money-only options are refused). ``score`` starts the match at
    another score; ``crawford`` switches the Crawford rule (a match without the cube
    has none). Play a game with :meth:`new_game`, then :meth:`apply` each roll and
    action; a finished game's points go to the score at once.
    """

    def __init__(
        self,
        variant: TrackVariant | str | Rotation,
        length: int,
        stakes: StakeRules | None = None,
        *,
        score: tuple[int, int] = (0, 0),
        crawford: bool = True,
    ) -> None:
        if isinstance(variant, str):
            found = rotation(variant)
            variant = found if found is not None else track_variant(variant)
        self.rotation = variant if isinstance(variant, Rotation) else None
        self.variants = variant.rules() if isinstance(variant, Rotation) else (variant,)
        for rules in self.variants:
            if rules.players != 2:
                raise InvalidOptionError(
                    f"match play is for two players; {rules.name} has {rules.players}")
        if not isinstance(length, int) or isinstance(length, bool) or length < 1:
            raise InvalidOptionError(f"a match is played to 1 point or more, not {length!r}")
        self.stakes = stakes if stakes is not None else StakeRules()
        self.stakes.check_match(length)
        self.length = length
        # The Crawford rule is about the cube: a match played without one has none.
        crawford = crawford and any(self.stakes.cube_for(rules) for rules in self.variants)
        self.score = MatchScore.match(length, score, crawford_rule=crawford)
        self.start_score = self.score
        self.games: list[GameRecord] = []

    @property
    def name(self) -> str:
        """What is played: the variant's name, or the rotation's."""
        return self.rotation.name if self.rotation is not None else self.variants[0].name

    @property
    def variant(self) -> TrackVariant:
        """The variant of the game being played (or the last one; the first before any)."""
        return self.variant_of(max(len(self.games) - 1, 0))

    def variant_of(self, game: int) -> TrackVariant:
        """The variant of game ``game``, counted from 0."""
        return self.variants[game % len(self.variants)]

    @property
    def record(self) -> GameRecord | None:
        """The game being played (or the last one)."""
        return self.games[-1] if self.games else None

    @property
    def state(self) -> CubeState | None:
        return self.games[-1].state if self.games else None

    @property
    def in_game(self) -> bool:
        return self.state is not None and not self.state.is_terminal

    @property
    def is_over(self) -> bool:
        return self.score.is_over

    @property
    def winner(self) -> int | None:
        return self.score.winner

    def new_game(self) -> CubeState:
        """Start the next game at the current score."""
        if self.is_over:
            raise InvalidOptionError(f"the match is over: {self.score.text()}")
        if self.in_game:
            raise InvalidOptionError("finish the game in progress first")
        rules = self.variant_of(len(self.games))
        winner = self.games[-1].state.winner if self.games else None
        start = None if self.rotation is None else self.rotation.start_after(rules, winner)
        record = GameRecord(cube_game(rules, self.stakes, self.score, start=start))
        self.games.append(record)
        return record.state

    def apply(self, outcome_or_action: Any) -> CubeState:
        """Apply a roll or an action to the game in progress; score it when it ends."""
        record = self.record
        if record is None or record.is_over:
            raise InvalidOptionError("no game in progress: start one with new_game()")
        state = record.apply(outcome_or_action)
        if state.is_terminal:
            self.score = state.result_score
        return state

    def play_game(self, choose: Chooser, rng: Any) -> CubeState:
        """Play a whole game: ``choose(state)`` decides, ``rng`` throws the dice."""
        return play_on(self.new_game(), rng, choose, apply=self.apply)

    def play(self, choose: Chooser, rng: Any) -> int:
        """Play games until the match is over; returns the winner."""
        while not self.is_over:
            self.play_game(choose, rng)
        winner = self.winner
        assert winner is not None
        return winner

    def summary(self) -> list[str]:
        """One line per game: its number, the score before it, and the result."""
        lines = []
        for number, record in enumerate(self.games, 1):
            state = record.state
            before = record.start.score
            result = result_event(state).text if state.is_terminal else "playing"
            winner = state.winner
            who = f"player {winner} " if winner is not None and state.is_terminal else ""
            lines.append(f"game {number} at {before.text()}: {who}{result}")
        return lines
