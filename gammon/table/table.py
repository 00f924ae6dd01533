"""A table: a game, a match or a money session, with seats, the stakes and a log.

Every face (the terminal, the web server, an environment) drives play through a
:class:`Table` and runs no game loop of its own. The table asks one question at a time
(:attr:`Table.question`: "seat 1: play 6-5", "seat 0: take or drop?"); a face shows it,
gets the seat's answer and hands it to :meth:`Table.act`. Whatever needs no person, the
dice and the bots' answers, happens in :meth:`Table.advance`, one :class:`Step` at a
time, so a face can show each as it happens. A bot seat answers through the same door as
a person: its agent is asked the same question.

The table owns the stakes: ``kind`` is ``game`` (one game; two-player track games can
be resigned but have no cube unless asked), ``match`` (to ``length`` points, with the
Crawford rule) or ``money`` (games at ``stake`` a point, the cube and a ledger). It
keeps a log of every chance outcome and action of every game, as plain JSON
(:mod:`gammon.table.log`): :meth:`Table.to_json` writes the table with its log, and
:meth:`Table.from_json` replays the log to the same state, checking every entry on the
way. A seeded table's dice come from ``random.Random(seed)``, one draw per throw, so a
replay also proves that the log follows the seed; without a seed they come from the
operating system's CSPRNG. With ``fair=True`` a seeded table draws from
:class:`~gammon.table.dice.FairDice` instead (HMAC-SHA256 of the seed): it can publish
the seed's commitment before play and reveal the seed after, so anyone can check every
throw (``gammon verify``).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from gammon.agents.base import Agent
from gammon.agents.registry import make_agent
from gammon.core.dice import Roll
from gammon.core.errors import GammonError, IllegalPlayError, InvalidOptionError
from gammon.core.play import Play
from gammon.core.protocol import RandomSource, Rules, State
from gammon.core.variant import GameState, TrackVariant
from gammon.notation import move_text_for
from gammon.stakes.cube import (
    CubeAction,
    Resign,
    ResignAnswer,
    cube_value,
    resign_offers,
    stakes_of,
)
from gammon.stakes.match import Match, Rotation, played
from gammon.stakes.prompt import question as stakes_question
from gammon.stakes.record import Taken
from gammon.stakes.rules import StakeRules
from gammon.stakes.session import Session
from gammon.table.dice import KIND as FAIR_KIND
from gammon.table.dice import FairDice
from gammon.table.log import Entry, decode, encode_action, encode_outcome

HUMAN = "human"

#: Kinds of table.
GAME, MATCH, MONEY = "game", "match", "money"
KINDS = (GAME, MATCH, MONEY)

#: Kinds of question.
PLAY = "play"  # a play of the dice (a track game's whole turn)
CHOICE = "choice"  # a variant's own decision (acey-deucey's doubles, Acedrex's moves)
CUBE = "cube"  # before rolling: double or roll
TAKE = "take"  # answer a raise of the cube: take, drop, beaver, raccoon
RESIGNATION = "resignation"  # answer an offer to resign: accept or reject
NEXT_GAME = "next game"  # a money session: another game?

#: The answers to :data:`NEXT_GAME`.
ANOTHER, ENOUGH = "another game", "enough"

#: Kinds of step.
THROW, ACTION, NEW_GAME, TIMEOUT = "throw", "action", "new game", "timeout"

FORMAT = "gammon-table"
VERSION = 1


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: a person (``human``) or a bot (an agent spec such as
    ``expectimax:2``), and the name shown for them."""

    kind: str
    name: str = ""

    @property
    def human(self) -> bool:
        return self.kind == HUMAN


def told_apart(names: Sequence[str]) -> list[str]:
    """``names`` with the seat added to each that more than one seat bears
    (``random (seat 1)``, ``random (seat 2)``: a bare number would read like a bot's
    setting), so that every line of a game's record says who."""
    return [f"{name} (seat {p + 1})" if names.count(name) > 1 else name
            for p, name in enumerate(names)]


@dataclass(frozen=True)
class Question:
    """What is asked of whom: ``seat`` must answer ``text`` with one of ``actions`` at
    ``state`` (a :data:`PLAY` question lists the legal plays; a two-player seat may also
    resign there, though resignations are not listed)."""

    seat: int
    kind: str
    text: str
    # Any: the faces read the states and actions of their games' kinds off a question
    # (gammon.cli.play takes a PLAY question's actions as plays)
    state: Any
    actions: Sequence[Any]

    def worded(self, names: Sequence[str]) -> str:
        """The question with the seats' ``names`` where it names a seat (who doubled,
        who offers to resign); :attr:`text` says "player N" there, counted from 0."""
        return _text(self.state, self.actions, names)


@dataclass(frozen=True)
class Step:
    """One thing that happened: a throw (``seat`` None), an action of ``seat``, or a
    new game. ``game`` counts the games from 1; ``before`` and ``after`` are the states
    around it (``before`` is None for a new game); ``note`` what the log says besides
    (a bot that ran out of time, and who played for it)."""

    kind: str
    game: int
    seat: int | None
    taken: object
    before: State | None
    after: State
    note: str = ""


def _entry(step: Taken) -> Entry:
    assert step.entry is not None, "a step the table applied writes its entry"
    return step.entry


class Table:
    """A game, match or money session at a table (see the module text).

    ``variant`` is a rules object or a variant name (``options`` then set its options),
    or a :class:`~gammon.stakes.match.Rotation` of variants played in turn (``tavli``,
    a match only);
    ``seats`` one kind per player, ``human`` or a bot spec. ``length`` is the match
    length (``kind="match"``), ``stake`` the money per point (``kind="money"``),
    ``stakes`` the cube options (:class:`StakeRules`; a single game has no cube by
    default), ``games`` how many games a money session plays (None: one when only bots
    sit, else until a person says enough). ``seed`` makes the dice and the bots
    repeatable.
    """

    def __init__(
        self,
        variant: Rules | str | Rotation,
        seats: Sequence[str | Seat],
        *,
        kind: str = GAME,
        length: int = 0,
        stake: int | float = 1,
        stakes: StakeRules | None = None,
        crawford: bool = True,
        games: int | None = None,
        seed: int | None = None,
        fair: bool = False,
        options: dict[str, object] | None = None,
    ) -> None:
        if kind not in KINDS:
            raise InvalidOptionError(f"a table plays a {', a '.join(KINDS)}, not {kind!r}")
        #: What the table plays: one variant's games, or several variants' in turn.
        self.played = played(variant, options, kind)
        self._rules: Rules = self.played.rules()[0]
        self.kind = kind
        self.seats = [seat if isinstance(seat, Seat) else Seat(seat.strip().lower())
                      for seat in seats]
        players = self._rules.players
        if len(self.seats) != players:
            raise InvalidOptionError(
                f"{self.name} has {players} players, so give {players} seats, "
                f"not {len(self.seats)}")
        if games is not None and games < 1:
            raise InvalidOptionError(f"a session plays one game or more, not {games}")
        if kind == GAME:
            games = 1
        self.length, self.stake, self.crawford, self.games = length, stake, crawford, games
        if fair and seed is None:
            raise InvalidOptionError("fair dice need a seed to commit to")
        self.seed = seed
        self.fair = fair
        self.dice: RandomSource = (FairDice(seed) if fair and seed is not None
                                   else random.Random(seed) if seed is not None
                                   else secrets.SystemRandom())
        self.series: Match | Session
        if kind == MATCH:
            self.stakes = stakes if stakes is not None else StakeRules()
            if not self.played.several:
                self._track("match play")
            self.series = Match(self.played, length, self.stakes, crawford=crawford)
        else:
            if kind == GAME and stakes is None:
                stakes = StakeRules(cube=False)
            self.stakes = stakes if stakes is not None else StakeRules()
            self.series = Session(self._rules, stake if kind == MONEY else 1, self.stakes)
        self._agents: dict[int, Agent] | None = None
        self._seated = (0, 0)  # the game, and its entries, when the bots sat down
        self._asked: tuple[State | None, bool, int, Question | None] = (
            None, False, -1, None)
        self.finished = False  # a person said enough, or a game was abandoned
        self.timed_out: int | None = None  # the seat that lost on time
        self.forfeited = False  # ...because it never came (a tournament's table)

    def _track(self, what: str) -> TrackVariant:
        if not self._rules.game_type.stakes:
            raise InvalidOptionError(
                f"{what} is for two-player games; {self._rules.name} has "
                f"{self._rules.players} players: play a single game or money (--stake)")
        return cast(TrackVariant, self._rules)  # what game_type.stakes says

    # --- what the table is doing --------------------------------------------------------

    @property
    def variant(self) -> Rules:
        """The rules of the game being played (or the last one): the table's variant, or
        in a rotation such as tavli the game whose turn it is."""
        return self.series.variant if isinstance(self.series, Match) else self._rules

    @property
    def name(self) -> str:
        """What the table plays: its variant's name, or its rotation's (``tavli``)."""
        return self.played.name

    @property
    def writes_mat(self) -> bool:
        """Whether the table's record is a .mat file too: one two-player game of gnubg's
        board played game after game (a rotation of several is its JSON log alone)."""
        rules = self._rules
        return not self.played.several and rules.notation == "gnu" and rules.players == 2

    @property
    def options(self) -> dict[str, object]:
        """The variant's options that differ from its defaults, as JSON (none for a
        rotation, whose games are as they are)."""
        return _plain(self.played.options())

    @property
    def state(self) -> Any:
        """The state of the game being played (or the last one); None before the first."""
        # Any, not State | None: the faces read their own games' states off it (and
        # gammon.cli.play hands it on before the first game).
        return self.series.state

    @property
    def game(self) -> int:
        """The number of the game being played (or the last one), from 1."""
        return len(self.series.games)

    @property
    def log(self) -> list[list[Entry]]:
        """Every game's log entries (:mod:`gammon.table.log`): the JSON of the steps the
        series keeps (each step carries its own, :class:`~gammon.stakes.record.Taken`),
        and the seat that lost on time, where one did."""
        return [self.entries(game) for game in range(1, self.game + 1)]

    def entries(self, game: int = 0) -> list[Entry]:
        """The log entries of game ``game`` (from 1; by default the one being played, or
        the last): one game's part of :attr:`log`."""
        number = game or self.game
        if not 1 <= number <= self.game:
            return []
        found = [_entry(step) for step in self.series.games[number - 1].steps]
        if self.timed_out is not None and number == self.game:
            found.append({"seat": self.timed_out, "timeout": True}
                         | ({"forfeit": True} if self.forfeited else {}))
        return found

    @property
    def log_sizes(self) -> list[int]:
        """How many entries each game's log holds (:attr:`log`'s lengths, counted
        without writing the entries out)."""
        sizes = [len(record.steps) for record in self.series.games]
        if self.timed_out is not None and sizes:
            sizes[-1] += 1
        return sizes

    @property
    def humans(self) -> list[int]:
        return [p for p, seat in enumerate(self.seats) if seat.human]

    @property
    def over(self) -> bool:
        """Whether the table has finished: the match is won, the session's games are
        played, or play stopped."""
        if self.finished:
            return True
        state = self.state
        if state is None or not state.is_terminal:
            return False
        if isinstance(self.series, Match):
            return self.series.is_over
        if self.games is not None:
            return len(self.series.games) >= self.games
        return not self.humans

    @property
    def winner(self) -> int | None:
        """The seat that won the table: the match, the single game, or on time (two
        players); None while play goes on, in a money session, and among more players."""
        if self.variant.players != 2 or self.kind == MONEY:
            return None
        if self.timed_out is not None:
            return 1 - self.timed_out
        if isinstance(self.series, Match):
            return self.series.winner
        state = self.state
        if self.kind == GAME and state is not None and state.is_terminal:
            return cast(int | None, state.winner)
        return None

    @property
    def question(self) -> Question | None:
        """What a seat must answer now; None while the dice or nothing are due."""
        # Asked often between two steps (by every face drawing the table): worked out
        # once per state (states are immutable; a step makes a new one).
        state, finished, games, question = self._asked
        if state is not self.state or finished != self.finished or games != self.game:
            question = self._question()
            self._asked = (self.state, self.finished, self.game, question)
        return question

    def _question(self) -> Question | None:
        if self.over:
            return None
        state = self.state
        if state is None:
            return None
        if state.is_terminal:
            if isinstance(self.series, Match) or self.games is not None or not self.humans:
                return None
            return Question(self.humans[0], NEXT_GAME, "another game?", state,
                            (ANOTHER, ENOUGH))
        if state.is_chance:
            return None
        seat = state.current_player
        actions = state.legal_actions()
        return Question(seat, _kind(state, actions), _text(state, actions), state, actions)

    @property
    def passes(self) -> bool:
        """Whether the seat asked cannot move (its one play is no move): the table passes
        for it, person or bot, without asking (:meth:`advance`)."""
        question = self.question
        return question is not None and question.kind == PLAY and \
            len(question.actions) == 1 and isinstance(question.actions[0], Play) and \
            not question.actions[0].moves

    @property
    def waiting_for_person(self) -> bool:
        question = self.question
        return question is not None and self.seats[question.seat].human

    @property
    def bot_question(self) -> Question | None:
        """The question, when a bot seat is to answer it (a face that runs its bots
        elsewhere, the web server's worker processes, answers it with :meth:`act`)."""
        question = self.question
        if question is None or self.seats[question.seat].human:
            return None
        return question

    @property
    def agents(self) -> dict[int, Agent]:
        """The bots of the game being played, made when first asked for: seeded from the
        table's seed, the game and how far into its log they sit down, so a table
        restored from its log seats the same bots as one that played on."""
        if self._agents is None:
            game, entries = self._seated
            self._agents = {
                p: make_agent(seat.kind, self.variant,
                              None if self.seed is None else f"{self.seed}:{game}:{p}:{entries}")
                for p, seat in enumerate(self.seats) if not seat.human
            }
        return self._agents

    # --- moving on ----------------------------------------------------------------------

    def advance(self) -> Step | None:
        """Take one step that needs no person: start the next game, throw the dice, let
        a bot answer its question, or pass for a person who cannot move (the one play
        is no move). None when a person must answer or it is over."""
        if self.over:
            return None
        state = self.state
        if state is None or (state.is_terminal and self.question is None):
            return self._new_game()
        if state.is_chance:
            return self._throw(state.sample_chance(self.dice))
        question = self.question
        if question is not None and self.passes:
            return self._apply(question.seat, question.actions[0])
        if question is None or self.seats[question.seat].human:
            return None
        if question.kind == NEXT_GAME:  # pragma: no cover - asked of people only
            return None
        return self._apply(question.seat, self.agents[question.seat].choose(question.state))

    def run(self) -> list[Step]:
        """Every step until a person must answer or the table is over."""
        steps = []
        while (step := self.advance()) is not None:
            steps.append(step)
        return steps

    def act(self, seat: int, action: object, note: str = "") -> Step | None:
        """``seat``'s answer to the question (or an offer to resign at its own decision);
        ``note`` goes into the log beside it.

        Raises :class:`IllegalPlayError` when it is not that seat's turn to answer, or
        the answer is not legal; the table is unchanged then. Answering
        :data:`NEXT_GAME` with :data:`ENOUGH` ends the table and returns None.
        """
        question = self.question
        if question is None:
            raise IllegalPlayError("nothing is asked now: the dice are to be thrown"
                                   if not self.over else "the table is over")
        if seat != question.seat:
            raise IllegalPlayError(
                f"seat {seat} may not act now: seat {question.seat} is to {question.text}")
        if question.kind == NEXT_GAME:
            if action not in (ANOTHER, ENOUGH):
                raise IllegalPlayError(f"answer {ANOTHER!r} or {ENOUGH!r}")
            if action == ENOUGH:
                self.finished = True
                return None
            return self._new_game()
        return self._apply(seat, self._offered(question, action), note)

    @staticmethod
    def _offered(question: Question, action: object) -> object:
        """The action on offer that ``action`` is (a play equal by its result, the same
        cube word...), which the log then writes; IllegalPlayError for one not on
        offer. Offers to resign count, though the question does not list them."""
        state = question.state
        offers = resign_offers(state)
        for known in (*question.actions, *offers):
            if known == action:
                return known
        raise IllegalPlayError(f"{action!r} is not a legal answer to {question.text!r}")

    def stop(self) -> None:
        """Stop play where it is (a person quits): the table is over, its log kept."""
        self.finished = True

    def time_out(self, seat: int) -> Step:
        """``seat``, asked and out of time on its clock (:mod:`gammon.table.clock`), loses:
        the match, or the game being played (in money play at the cube's value, and the
        session ends). The log says so, ``{"seat": 1, "timeout": true}``, so a replay
        ends the same way."""
        question = self.question
        if question is None or question.seat != seat:
            raise IllegalPlayError(f"seat {seat} is not asked anything: its clock is not "
                                   "running")
        return self._time_out(seat)

    def forfeit(self, seat: int) -> Step:
        """``seat`` never came to its table in the time given (a tournament's): it loses
        as on time, whoever is asked. The log says ``{"seat": 1, "timeout": true,
        "forfeit": true}``."""
        if self.finished:
            raise IllegalPlayError("play is over at this table")
        self.forfeited = True
        return self._time_out(seat)

    def _time_out(self, seat: int) -> Step:
        state = self.state
        self.timed_out, self.finished = seat, True
        if isinstance(self.series, Session) and self.kind == MONEY and \
                stakes_of(state) is not None and not state.is_terminal:
            value = cube_value(state)
            self.series.add([value if p != seat else -value for p in range(2)], "on time")
        return Step(TIMEOUT, self.game, seat, None, state, state)

    # --- inside ---------------------------------------------------------------------------

    def _new_game(self) -> Step:
        state = self.series.new_game()
        game = self.game
        self._agents, self._seated = None, (game, 0)
        return Step(NEW_GAME, game, None, None, None, state)

    def _throw(self, roll: Roll) -> Step:
        before = self.state
        after = self.series.apply(roll)
        self._written(None, encode_outcome(roll))
        return Step(THROW, self.game, None, roll, before, after)

    def _apply(self, seat: int, action: object, note: str = "") -> Step:
        before = self.state
        after = self.series.apply(action)  # raises, and changes nothing, when illegal
        entry = encode_action(seat, action, self.describe(before, action))
        if note:
            entry["note"] = note
        self._written(seat, entry, note)
        return Step(ACTION, self.game, seat, action, before, after, note)

    def _written(self, seat: int | None, entry: Entry, note: str = "") -> None:
        # The step just applied, as the series keeps it, learns who took it and its entry.
        step = self.series.games[-1].steps[-1]
        step.seat, step.note, step.entry = seat, note, entry

    def describe(self, state: State | None, action: object) -> str:
        """An action as the record writes it: a play in the variant's move text (in the
        mover's own numbering), anything else as it names itself."""
        if isinstance(action, Play):
            return move_text_for(self.variant).format_play(action)
        return str(action)

    # --- JSON -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The table as plain JSON: its settings and the log of every game."""
        # Any: the web server fills in its seats' names and adds fields of its own.
        return {
            "format": FORMAT,
            "version": VERSION,
            "variant": self.name,
            "options": self.options,
            "seats": [{"kind": s.kind, "name": s.name} for s in self.seats],
            "kind": self.kind,
            "length": self.length,
            "stake": self.stake,
            "stakes": _plain(self.stakes.options()),
            "crawford": self.crawford,
            "games": self.games,
            "seed": self.seed,
            "dice": FAIR_KIND if self.fair else "mt19937",
            "finished": self.finished,
            "log": [list(entries) for entries in self.log],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        """A table from :meth:`to_json`'s output, its log replayed entry by entry.

        Raises a :class:`GammonError` naming the entry when the log does not replay:
        an outcome that cannot happen, an illegal action, or (for a seeded table) a
        throw other than the seed gives.
        """
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InvalidOptionError("not a gammon table: expected the JSON that "
                                     "Table.to_json writes (format gammon-table)")
        if data.get("version") != VERSION:
            raise InvalidOptionError(f"table format version {data.get('version')!r}; "
                                     f"this gammon reads version {VERSION}")
        try:
            _check_types(data)
            games = data["log"]
            table = cls(
                data["variant"], [Seat(s["kind"], s.get("name", "")) for s in data["seats"]],
                kind=data["kind"], length=data["length"], stake=data["stake"],
                stakes=StakeRules(**data["stakes"]), crawford=data["crawford"],
                games=data["games"], seed=data["seed"], options=data["options"],
                fair=data.get("dice") == FAIR_KIND,
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise InvalidOptionError(f"table JSON is missing or mistypes {error}") from None
        for number, entries in enumerate(games, 1):
            if not entries:
                table._next_game(number)
            for index, entry in enumerate(entries):
                table.replay(number, index, entry)
            table._agents, table._seated = None, (number, len(entries))
        table.finished = bool(data.get("finished"))
        return table

    def replay(self, game: int, index: int, entry: Entry) -> list[Step]:
        """Play ``entry``, entry ``index`` (from 0) of game ``game`` (from 1), as the log
        says it happened (the first entry of a game starts that game): the steps it made.
        Raises a :class:`GammonError` naming the entry when it is not the one that comes
        next, or cannot happen there."""
        steps = []
        games = self.series.games
        if index == 0 and game == len(games) + 1:
            steps.append(self._next_game(game))
        elif (game, index) != (len(games), len(games[-1].steps) if games else 0):
            raise InvalidOptionError(f"game {game}, entry {index + 1}: the log skips or "
                                     "repeats an entry here")
        try:
            state = self.state
            if isinstance(entry, dict) and entry.get("timeout") is True:
                seat = entry.get("seat")
                if entry.get("forfeit") is True and isinstance(seat, int) and \
                        seat in range(len(self.seats)):
                    steps.append(self.forfeit(seat))
                    return steps
                question = self.question
                if question is None or question.seat != seat:
                    raise IllegalPlayError("a timeout of a seat that was not asked anything")
                steps.append(self._time_out(question.seat))
                return steps
            if state.is_terminal:
                raise IllegalPlayError("the game is already over")
            x = decode(state, entry)
            if isinstance(x, Roll):
                if self.seed is not None:
                    drawn = state.sample_chance(self.dice)
                    if drawn != x:
                        raise IllegalPlayError(
                            f"the table's seed throws {drawn} here, not {x}")
                steps.append(self._throw(x))
            else:
                steps.append(self._apply(int(entry["seat"]), x, str(entry.get("note", ""))))
        except GammonError as error:
            raise type(error)(f"game {game}, entry {index + 1}: {error}") from None
        return steps

    def _next_game(self, game: int) -> Step:
        """Game ``game`` of a log being replayed begins, once the one before has ended."""
        state = self.state
        if state is not None and not state.is_terminal:
            raise InvalidOptionError(f"game {game}: game {game - 1} of the log did not finish")
        if self.over:
            raise InvalidOptionError(f"game {game}: the table was over after game {game - 1}")
        return self._new_game()


#: The JSON types of a table's fields, as :meth:`Table.to_json` writes them.
_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "variant": (str,), "options": (dict,), "seats": (list,), "kind": (str,),
    "length": (int,), "stake": (int, float), "stakes": (dict,), "crawford": (bool,),
    "games": (int, type(None)), "seed": (int, type(None)), "log": (list,),
}


def _check_types(data: dict[str, Any]) -> None:
    """TypeError naming the first field of a table's JSON that has the wrong type."""
    for name, types in _FIELD_TYPES.items():
        value = data[name]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise TypeError(f"'{name}' ({' or '.join(t.__name__ for t in types)})")
    for seat in data["seats"]:
        if not isinstance(seat, dict) or not isinstance(seat.get("kind"), str) \
                or not isinstance(seat.get("name", ""), str):
            raise TypeError("'seats', each {\"kind\": str, \"name\": str}")
    if not all(isinstance(game, list) for game in data["log"]):
        raise TypeError("'log', a list of games each a list of entries")


def _kind(state: State, actions: Sequence[object]) -> str:
    if (stakes := stakes_of(state)) is not None:
        if stakes.resignation is not None:
            return RESIGNATION
        if stakes.offer is not None:
            return TAKE
        if stakes.preroll:
            return CUBE
    if actions and isinstance(actions[0], Play):
        return PLAY
    return CHOICE


def _text(state: State, actions: Sequence[object], names: Sequence[str] | None = None) -> str:
    """The question in a few words; the seats named by ``names`` where it names one."""
    game: State = state
    if (stakes := stakes_of(state)) is not None:
        asked = stakes_question(stakes, names)
        if asked:
            return asked
        game = stakes.base
    prompt = game.variant.decision_prompt(game)
    if prompt:
        return prompt
    if isinstance(game, GameState) and actions and isinstance(actions[0], Play):
        return "play " + "-".join(map(str, game.dice))
    return "choose: " + ", ".join(str(a) for a in actions)


def _plain(values: Mapping[str, object]) -> dict[str, object]:
    """Option values as JSON takes them."""
    return {k: (v if isinstance(v, bool | int | float | str) or v is None else str(v))
            for k, v in values.items()}


__all__ = [
    "ACTION", "ANOTHER", "CHOICE", "CUBE", "ENOUGH", "GAME", "HUMAN", "MATCH", "MONEY",
    "NEW_GAME", "NEXT_GAME", "PLAY", "RESIGNATION", "TAKE", "THROW", "TIMEOUT",
    "CubeAction", "Question", "Resign", "ResignAnswer", "Seat", "Step", "Table", "told_apart",
]
