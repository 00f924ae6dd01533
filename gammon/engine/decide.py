"""The engine's one question: what to do in a backgammon situation.

:class:`Engine` answers a :class:`~gammon.notation.Situation` (read from an XGID, a GNU
ID or a FIBS board) with an :class:`Answer`: the play of the dice rolled, or before the
roll ``double`` or ``roll``, or to a double ``take``, ``drop`` or ``beaver``. The bot is
any of the registry's (:mod:`gammon.agents.registry`) that plays the game the situation
is from: backgammon with 15 checkers, hypergammon with 1 to 3.

The programs that call gammon (:mod:`gammon.engine.ubgi`, :mod:`gammon.engine.external`)
write the answer in their own words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gammon.agents.registry import default_bot, make_agent, parse_spec, with_defaults
from gammon.core.errors import InvalidOptionError
from gammon.core.play import Play
from gammon.core.variant import TrackVariant, track_variant
from gammon.notation.situation import Situation
from gammon.stakes.cube import CubeAction, CubeState

__all__ = ["PLY_KINDS", "Answer", "Engine", "game_of"]

#: The kinds whose first option is how many plies they look ahead.
PLY_KINDS = ("neural", "expectimax", "gnubg")
#: The deepest search an engine option may ask for (a decision stays within seconds).
MAX_PLIES = 3

#: The cube actions the protocols have words for (their words are the actions' values).
_SPOKEN = (CubeAction.ROLL, CubeAction.DOUBLE, CubeAction.TAKE, CubeAction.DROP,
           CubeAction.BEAVER)


@dataclass(frozen=True)
class Answer:
    """What to do: ``kind`` is ``move`` (``moves``: the single-die moves in the order
    they are played, ``(from, to)`` from the mover's side, 25 the bar, 0 off; none when
    the dice cannot be played), or one of ``double``, ``roll``, ``take``, ``drop``,
    ``beaver``."""

    kind: str
    moves: tuple[tuple[int, int], ...] = ()

    def ubgi(self) -> str:
        """UBGI's words: every single move written out (``24/18 18/13``, ``13/10 13/10``),
        no ``*`` and no counts; an empty line for a roll that cannot be played."""
        if self.kind != "move":
            return self.kind
        return " ".join(f"{a}/{b}" for a, b in self.moves)


def game_of(situation: Situation) -> TrackVariant:
    """The game whose board the situation is on, by the checkers each player has."""
    checkers = sum(situation.position.row(0))
    if checkers == 15:
        return track_variant("backgammon")
    if checkers in (1, 2, 3):
        return track_variant("hypergammon", checkers_per_side=checkers)
    raise InvalidOptionError(
        f"{checkers} checkers a side: the engine plays backgammon (15) and hypergammon "
        "(1 to 3)"
    )


def bot_spec(bot: str | None, plies: int | None, rules: TrackVariant) -> str:
    """The registry's name of the bot ``bot`` (a kind, or a whole spec; None: the game's
    leading bot) searching ``plies`` deep where given and where it searches by plies
    (the other bots ignore it)."""
    spec = bot or default_bot(rules)
    if plies is None:
        return spec
    if not 0 <= plies <= MAX_PLIES:
        raise InvalidOptionError(f"plies is 0 to {MAX_PLIES}, not {plies}")
    kind, positional, named = parse_spec(spec)
    if kind not in PLY_KINDS:
        return spec
    options = [str(plies), *positional[1:], *(f"{k}={v}" for k, v in named.items())]
    return ":".join([kind, *options])


@dataclass
class Engine:
    """A bot that answers situations. ``bot``: a registry name (``neural``,
    ``neural:2``, ``gnubg:1``, ``expectimax``...; None: each game's leading bot);
    ``plies`` overrides its depth. The agents are built on first use, one per game."""

    bot: str | None = None
    plies: int | None = None
    seed: int = 0
    _agents: dict[str, Any] = field(default_factory=dict, repr=False)

    def configure(self, *, bot: str | None = None, plies: int | None = None) -> None:
        """Change the bot or its plies (checked at once against backgammon)."""
        new_bot = self.bot if bot is None else (bot or None)
        new_plies = self.plies if plies is None else plies
        rules = track_variant("backgammon")
        make_agent(bot_spec(new_bot, new_plies, rules), rules, seed=self.seed)
        self.bot, self.plies = new_bot, new_plies
        self._agents.clear()

    def plies_for(self, rules: TrackVariant) -> int | None:
        """How many plies the bot searches in ``rules`` (None: it does not search by
        plies)."""
        kind, positional, named = parse_spec(bot_spec(self.bot, self.plies, rules))
        positional, _ = with_defaults(rules, kind, positional, named)
        if kind not in PLY_KINDS:
            return None
        return int(positional[0]) if positional else 0

    def agent(self, rules: TrackVariant) -> Any:
        spec = bot_spec(self.bot, self.plies, rules)
        key = f"{rules.name}:{rules.options()}:{spec}"
        if key not in self._agents:
            self._agents[key] = make_agent(spec, rules, seed=self.seed)
        return self._agents[key]

    def prepare(self) -> None:
        """Build backgammon's agent now (loading its network), before the first question."""
        self.agent(track_variant("backgammon"))

    def answer(self, situation: Situation) -> Answer:
        """The bot's answer in ``situation`` (raises InvalidOptionError or
        InvalidNotationError with the reason when there is nothing to decide)."""
        rules = game_of(situation)
        state = CubeState.from_situation(situation, rules)
        if state.is_terminal:
            raise InvalidOptionError("the game is over: nothing to decide")
        if state.is_chance:  # before the roll, with no double possible
            return Answer("roll")
        choice = self.agent(rules).choose(state)
        if isinstance(choice, Play):
            return Answer("move", tuple((m.source, m.destination) for m in choice.moves))
        if choice in _SPOKEN:
            return Answer(choice.value)
        raise InvalidOptionError(f"the engine has no words for {choice!r}")
