"""Match play: a series of games to N points, with the Crawford rule.

A :class:`Match` starts each game with the score carried over (a :class:`MatchScore`
inside every state), records it (:class:`GameRecord`), and adds the points of each
finished game: the cube value times 1, 2 or 3 for a single game, gammon or backgammon
(**MATCH-SCORE**). The match ends when a player reaches the match length
(**MATCH-END**). No doubling in the Crawford game (**MATCH-CRAWFORD**); doubling again
after it (**MATCH-POST-CRAWFORD**).

What a match, a table or an episode plays is a :class:`Rotation`: the games of one
variant game after game (:meth:`Rotation.of`, each opening as its variant does), or of
several variants in turn (Greek *tavli* is Portes, Plakoto and Fevga, one after another,
the winner of each starting the next without an opening throw). :func:`played` reads
either from what a person names; ``Match("tavli", 5)`` plays tavli, and
:data:`ROTATIONS` names the rotations of several games. This module is the one place
that knows how they differ: the others ask the rotation for its games, the next game
and its first state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import Rules, play_on
from gammon.core.variant import GameState, TrackVariant, track_variant, variant_from
from gammon.stakes.cube import CubeState, cube_game
from gammon.stakes.record import GameRecord, result_event
from gammon.stakes.rules import StakeRules
from gammon.stakes.score import MatchScore

#: A chooser: the action to take in a state at DECIDE.
Chooser = Callable[[CubeState], Any]


@dataclass(frozen=True)
class Rotation:
    """The games played in turn within one match, table or episode: game ``g`` (from 0)
    is ``variants[g % len(variants)]``. With ``winner_starts`` the winner of a game has
    the first turn of the next and throws both dice for it (no opening throw), as
    tavli players do; the first game opens as its variant does.

    One variant played game after game is a rotation of one game (:meth:`of`), which
    keeps that variant's rules object, options and all; a rotation of several variants
    plays each by its own rules as they are, so it takes no options, and it is played
    as a match (:meth:`check`)."""

    name: str
    variants: tuple[str, ...]
    summary: str
    winner_starts: bool = True
    #: The rules object of a rotation of one game (with its options); empty for a
    #: rotation of several, whose games are their variants' defaults.
    own: tuple[Rules, ...] = ()

    @classmethod
    def of(cls, rules: Rules) -> Rotation:
        """One variant's games, each opening as the variant does."""
        return cls(rules.name, (rules.name,), rules.summary, winner_starts=False,
                   own=(rules,))

    @property
    def several(self) -> bool:
        """Whether the games are of several variants in turn (tavli)."""
        return len(self.variants) > 1

    def rules(self) -> tuple[Rules, ...]:
        """The rules of each game of the turn, in order (a rotation of one game may hold
        any game's; the games of several are track games)."""
        return self.own or tuple(track_variant(name) for name in self.variants)

    def options(self) -> dict[str, object]:
        """The options the games are played with (none for several variants in turn,
        whose games are as they are)."""
        return self.own[0].options() if self.own else {}

    def after(self, rules: Rules) -> Rules:
        """The rules of the game that follows a game of ``rules``."""
        games = self.rules()
        at = self.variants.index(rules.name)
        return games[(at + 1) % len(games)]

    def start_after(self, rules: Rules, winner: int | None) -> GameState | None:
        """The first state of a game of ``rules`` that follows a game ``winner`` won: the
        winner on turn, to throw both dice (``winner_starts``, a track game's); None for
        the variant's own opening (the match's first game, or a rotation whose games
        open as usual)."""
        if not self.winner_starts or winner is None or not isinstance(rules, TrackVariant):
            return None
        return rules.state(rules.start_position(turn=winner))

    def check(self, kind: str, options: Mapping[str, object] | None = None) -> None:
        """Refuse what a rotation of several variants cannot be played as: anything but a
        match (``kind``: ``match``, or a ``game`` or ``money`` table, an episode...), or
        with variant ``options``; a rotation of one game is played as anything."""
        if not self.several:
            return
        if options:
            raise InvalidOptionError(
                f"{self.name} takes no variant options: its games are {', '.join(self.variants)} "
                "as they are")
        if kind != "match":
            raise InvalidOptionError(
                f"{self.name} is played as a match of several games in turn "
                f"({', '.join(self.variants)}): play it as a match, for points")


#: The rotations a match can be played as, by name.
ROTATIONS = {
    "tavli": Rotation(
        "tavli", ("portes", "plakoto", "fevga"),
        "Greek tavli: Portes, Plakoto and Fevga in turn, the winner of each game starting "
        "the next; no doubling cube; 1 or 2 points a game (docs/rules/tavli.md)."),
}


def rotation(name: str) -> Rotation | None:
    """The rotation of several games called ``name`` (any case), or None when it names
    none."""
    return ROTATIONS.get(name.strip().lower()) if isinstance(name, str) else None


def played(what: Rules | str | Rotation, options: Mapping[str, object] | None = None,
           kind: str = "match") -> Rotation:
    """What is played, named as a person names it: a rotation (or its name, such as
    ``tavli``), or one variant (its rules, or its name and ``options``) game after game;
    refused where a rotation of several cannot be played as ``kind`` or with
    ``options`` (:meth:`Rotation.check`)."""
    found = what if isinstance(what, Rotation) else (
        rotation(what) if isinstance(what, str) else None)
    if found is None:
        assert not isinstance(what, Rotation)
        return Rotation.of(variant_from(what, **dict(options or {})))
    found.check(kind, options)
    return found


def _two_on_a_track(rules: Rules) -> TrackVariant:
    if not isinstance(rules, TrackVariant) or rules.players != 2:
        raise InvalidOptionError(f"match play is for two players on a track; {rules.name} "
                                 f"has {rules.players} players")
    return rules


class Match:
    """A match to ``length`` points between two players.

    ``variant`` is a two-player track game (or its name), or a :class:`Rotation` (or
    its name, such as ``tavli``) whose games are played in turn (:func:`played`). ``stakes`` are the
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
        #: What the match plays: one variant's games, or several variants' in turn.
        self.rotation = played(variant)
        self.variants = tuple(_two_on_a_track(rules) for rules in self.rotation.rules())
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
        return self.rotation.name

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
        start = self.rotation.start_after(rules, winner)
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
