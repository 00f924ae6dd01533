"""A game in the terminal: people and bots at one board.

:func:`run_game` plays one game of a two-player track variant. Each seat is ``human``
(a person at this keyboard) or a bot kind known to :func:`make_agent`. The dice come from
``random.Random(seed)``, so a seed replays the same dice whatever the players do.

A person types moves in gnubg's notation (``13/11 6/5``, ``bar/22``, ``6/off``,
``8/5(2)``), all at once or a checker at a time; ``?`` lists the legal plays by number,
``undo`` takes back the last checker moved this turn, ``help`` explains the rest.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rich.columns import Columns
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from gammon.core.errors import GammonError, InvalidOptionError
from gammon.core.play import Play
from gammon.core.state import GameState
from gammon.core.variant import TrackVariant
from gammon.core.variant import variant as get_variant
from gammon.notation.movetext import (
    NO_MOVE,
    Pair,
    find_play,
    format_play,
    legal_play_texts,
    parse_paths,
    partial_play,
)
from gammon.render.terminal import checker, render_board

HUMAN = "human"
#: Bot kinds :func:`make_agent` knows.
AGENT_KINDS = ("random",)
#: Everything a seat may be.
SEAT_KINDS = (HUMAN, *AGENT_KINDS)

RESULT_NAMES = {1: "a single game", 2: "a gammon", 3: "a backgammon"}

#: What ``help`` shows: move examples, then commands.
HELP_MOVES = (
    ("24/18 13/11", "two checkers, one die each"),
    ("24/13", "one checker with both dice"),
    ("8/5(2)", "two checkers from 8 to 5 (doubles)"),
    ("bar/22", "enter from the bar (also b/22, 25/22)"),
    ("6/off", "bear off (also 6/0)"),
    ("24/23*/22", "hit on the way (the * is optional)"),
)
HELP_COMMANDS = (
    ("? hint legal", "list the legal plays, numbered; type a number to play one"),
    ("undo", "take back the last checker you moved this turn"),
    ("board", "show the board again"),
    ("resign", "give up: your opponent wins a single game"),
    ("quit", "stop playing: the game ends without a result"),
    ("help", "this text"),
)


def help_text(home: int = 6) -> Group:
    """The help a person gets at the prompt; ``home`` is the home board's size."""
    def grid(rows: tuple[tuple[str, str], ...]) -> Table:
        table = Table.grid(padding=(0, 3))
        table.add_column(style="cyan", no_wrap=True)
        table.add_column()
        for left, right in rows:
            table.add_row("  " + left, right)
        return table

    return Group(
        Text(f"Moves are written from your side of the board (your home board is 1-{home}), "
             "as gnubg writes them:"),
        grid(HELP_MOVES),
        Text("Type a whole play, or one checker at a time: the board shows each move, and "
             "when the play is complete, Enter plays it."),
        Text("Commands", style="bold"),
        grid(HELP_COMMANDS),
    )


# --- seats -------------------------------------------------------------------------------


class Agent(Protocol):
    """A bot at the table: it chooses one of the legal plays."""

    name: str

    def choose(self, state: GameState) -> Play: ...


@dataclass
class RandomAgent:
    """Plays a uniformly random legal play."""

    rng: random.Random = field(default_factory=random.Random)
    name: str = "random"

    def choose(self, state: GameState) -> Play:
        return self.rng.choice(state.legal_actions())


def make_agent(name: str, seed: int | str | None = None) -> Agent:
    """The bot called ``name`` (one of :data:`AGENT_KINDS`), seeded with ``seed``.

    Raises :class:`InvalidOptionError` listing the kinds for an unknown name.
    """
    kind = name.strip().lower()
    if kind == "random":
        return RandomAgent(random.Random(seed))
    if kind == HUMAN:
        raise InvalidOptionError("'human' is a seat for a person, not a bot: run_game seats one")
    raise InvalidOptionError(
        f"unknown player kind {name!r}; choose one of: {', '.join(SEAT_KINDS)}"
    )


def check_seats(seats: Sequence[str], players: int) -> list[str]:
    """The seat kinds, normalized; raises :class:`InvalidOptionError` when one is unknown
    or the number of seats does not match the game's players."""
    kinds = [seat.strip().lower() for seat in seats]
    if len(kinds) != players:
        raise InvalidOptionError(
            f"this game has {players} players, so give {players} seats, not {len(kinds)}"
        )
    for seat, kind in zip(seats, kinds, strict=True):
        if kind not in SEAT_KINDS:
            raise InvalidOptionError(
                f"unknown player kind {seat!r}; choose one of: {', '.join(SEAT_KINDS)}"
            )
    return kinds


# --- the record --------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One line of the game record: who played what with which roll."""

    player: int
    dice: tuple[int, ...]
    text: str


@dataclass
class GameResult:
    """How a game ended: the last state, the record, and the result.

    ``winner`` is None when the game was abandoned (``quit``). ``points`` is what the
    winner scored (1 single game, 2 gammon, 3 backgammon).
    """

    state: GameState
    turns: list[Turn]
    winner: int | None = None
    points: int = 0
    resigned: bool = False

    @property
    def finished(self) -> bool:
        return self.winner is not None


class _Quit(Exception):
    """The person at the keyboard stopped the game."""

    def __init__(self, resign: bool) -> None:
        super().__init__("resign" if resign else "quit")
        self.resign = resign


# --- the game ----------------------------------------------------------------------------


def run_game(
    variant: TrackVariant | str,
    seats: Sequence[str],
    seed: int | None = None,
    console: Console | None = None,
    input_func: Callable[[str], str] = input,
) -> GameResult:
    """Play one game in the terminal and return how it ended.

    ``variant`` is a rules object or a variant name; ``seats`` gives each player's kind,
    in player order (player 0 plays X and is seated first). ``seed`` seeds the dice (and
    the bots); ``input_func`` reads a person's line (``input`` by default; tests pass a
    script). ``quit`` or end of input abandons the game.
    """
    rules = get_variant(variant) if isinstance(variant, str) else variant
    kinds = check_seats(seats, rules.players)
    if rules.players != 2:
        raise InvalidOptionError("the terminal game plays two-player variants for now")
    console = console if console is not None else Console()
    game = _Game(rules, kinds, seed, console, input_func)
    return game.play()


class _Game:
    def __init__(self, rules: TrackVariant, kinds: list[str], seed: int | None,
                 console: Console, input_func: Callable[[str], str]) -> None:
        self.rules = rules
        self.kinds = kinds
        self.console = console
        self.input = input_func
        self.dice_rng = random.Random(seed)
        self.agents: dict[int, Agent] = {
            p: make_agent(kind, None if seed is None else f"{seed}:{p}")
            for p, kind in enumerate(kinds)
            if kind != HUMAN
        }
        humans = [p for p, kind in enumerate(kinds) if kind == HUMAN]
        self.humans = humans
        # One person: the board stays on their side. Two: it turns to whoever is on roll.
        self.fixed_viewer = humans[0] if len(humans) == 1 else (0 if not humans else None)
        self.names = self._names()
        self.turns: list[Turn] = []
        self.last_play: Play | None = None

    def _names(self) -> list[str]:
        names = []
        for p, kind in enumerate(self.kinds):
            if kind == HUMAN and len(self.humans) == 1:
                names.append("you")
            elif self.kinds.count(kind) > 1:
                names.append(f"{kind} {p + 1}")
            else:
                names.append(kind)
        return names

    # --- output ------------------------------------------------------------------------

    def who(self, player: int) -> Text:
        return Text.assemble(checker(player), " ", (self.names[player], "bold"))

    def say(self, *parts: str | Text) -> None:
        self.console.print(Text.assemble(*parts))

    def board(self, state: GameState, **options: object) -> None:
        viewer = self.fixed_viewer if self.fixed_viewer is not None else state.position.turn
        self.console.print(render_board(state, viewer, names=self.names, **options))  # type: ignore[arg-type]

    # --- the game ------------------------------------------------------------------------

    def play(self) -> GameResult:
        rules = self.rules
        title = Text.assemble(
            (rules.name.title(), "bold"), ": ",
            *_join([self.who(p) for p in range(rules.players)], " against "),
        )
        self.console.rule(title)
        state = self.opening(rules.initial_state())
        try:
            while not state.is_terminal:
                if state.is_chance:
                    state = state.apply(state.sample_chance(self.dice_rng))
                    continue
                state = self.turn(state)
        except _Quit as stop:
            return self.stopped(state, stop.resign)
        return self.finished(state)

    def opening(self, state: GameState) -> GameState:
        """Each player throws one die; ties throw again. The higher die moves first."""
        while state.is_chance and state.opening:
            roll = state.sample_chance(self.dice_rng)
            throws = _join(
                [Text.assemble(self.who(p), f" throws {die}") for p, die in enumerate(roll.dice)],
                ", ",
            )
            state = state.apply(roll)
            if state.is_chance:
                self.say("Opening roll: ", *throws, (" — a tie, roll again.", "italic"))
            else:
                first = state.position.turn
                self.say("Opening roll: ", *throws, " — ", self.who(first),
                         f" goes first with {_roll(state.dice)}.")
        return state

    def turn(self, state: GameState) -> GameState:
        player = state.position.turn
        legal = state.legal_actions()
        human = self.kinds[player] == HUMAN
        if human:
            self.console.print()
            self.console.rule(Text.assemble(self.who(player), f" rolls {_roll(state.dice)}"),
                              style="grey50")
            self.board(state, highlight=self.last_play)
        if len(legal) == 1 and not legal[0].moves:
            self.say(self.who(player), f" rolls {_roll(state.dice)} and cannot move.")
            play = legal[0]
        elif human and len(legal) == 1:
            play = legal[0]
            self.say("Only one legal play: ", (self.text(play), "bold"), ".")
        elif human:
            play = self.ask(state)
        else:
            play = self.agents[player].choose(state)
            self.say(self.who(player), f" rolls {_roll(state.dice)} and plays ",
                     (self.text(play), "bold"), ".")
        self.turns.append(Turn(player, state.dice, self.text(play)))
        self.last_play = play if play.moves else None
        return state.apply(play)

    def text(self, play: Play) -> str:
        return format_play(play, self.rules.points)

    # --- a person's turn ---------------------------------------------------------------

    def ask(self, state: GameState) -> Play:
        player = state.position.turn
        numbered = legal_play_texts(state)
        units: list[list[Pair]] = []  # checker moves typed so far, one entry each
        pending: Play | None = None  # the play those moves complete
        prompt = f"{self.names[player]} ({_roll(state.dice)})> "
        while True:
            try:
                line = self.input(prompt)
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                raise _Quit(resign=False) from None
            command = line.strip().lower()
            if command == "":
                if pending is not None:
                    return pending
                if units:
                    self.say("Finish the play, or type undo to take a move back.")
                else:
                    self.say("Type your move, like ", ("13/11 6/5", "cyan"),
                             "; ", ("?", "cyan"), " lists the legal plays, ",
                             ("help", "cyan"), " explains more.")
                continue
            if command in ("?", "hint", "legal", "list", "moves"):
                self.list_plays(numbered)
                continue
            if command in ("help", "h"):
                self.console.print(help_text(self.rules.home))
                continue
            if command in ("board", "show"):
                self.show_partial(state, units, pending)
                continue
            if command in ("quit", "q", "exit"):
                raise _Quit(resign=False)
            if command == "resign":
                raise _Quit(resign=True)
            if command in ("undo", "u", "back"):
                if not units:
                    self.say(("Nothing to undo this turn.", "yellow"))
                    continue
                units.pop()
                pending = None
                self.show_partial(state, units, pending)
                continue
            if command.isdigit():
                number = int(command)
                if 1 <= number <= len(numbered):
                    return numbered[number - 1][1]
                self.refuse(f"choose a play from 1 to {len(numbered)} (? lists them)")
                continue
            try:
                typed = parse_paths(line, self.rules.points)
                if not typed:
                    self.refuse(f"{NO_MOVE!r}: you can move, so you must")
                    continue
                if not units:
                    try:
                        return find_play(state, line)
                    except GammonError:
                        pass  # perhaps the first moves of a play typed in parts
                done = [pair for unit in units for pair in unit]
                partial = partial_play(state, line, done)
            except GammonError as error:
                self.refuse(str(error))
                continue
            units = units + typed
            pending = partial.play
            self.show_partial(state, units, pending)

    def show_partial(self, state: GameState, units: list[list[Pair]],
                     pending: Play | None) -> None:
        if not units:
            self.board(state, highlight=self.last_play)
            return
        partial = partial_play(state, [pair for unit in units for pair in unit])
        self.board(state, position=partial.position, dice_left=partial.dice)
        if pending is not None:
            self.say("That makes ", (self.text(pending), "bold"),
                     ". Press Enter to play it, or type undo.")
        else:
            left = " and ".join(str(d) for d in partial.dice)
            self.say("Moved ", (partial.text, "bold"), f"; still to play: {left}.")

    def list_plays(self, numbered: list[tuple[str, Play]]) -> None:
        width = len(str(len(numbered)))
        items = [Text.assemble((f"{i:>{width}}.", "cyan"), f" {text}")
                 for i, (text, _) in enumerate(numbered, 1)]
        self.console.print(Columns(items, padding=(0, 3), column_first=True))

    def refuse(self, reason: str) -> None:
        self.console.print(Text.assemble(("✗ ", "bold red"), reason))

    # --- the end -----------------------------------------------------------------------

    def finished(self, state: GameState) -> GameResult:
        winner = state.winner
        assert winner is not None
        points = int(state.returns()[winner])
        self.console.print()
        self.board(state, highlight=self.last_play)
        kind = RESULT_NAMES.get(points, f"{points} points")
        plural = "s" if points != 1 else ""
        self.say(self.who(winner), f" wins {kind}: {points} point{plural}.")
        self.record()
        return GameResult(state, self.turns, winner, points)

    def stopped(self, state: GameState, resign: bool) -> GameResult:
        player = state.position.turn
        self.console.print()
        if not resign:
            self.say("Game abandoned.")
            self.record()
            return GameResult(state, self.turns)
        winner = 1 - player
        self.turns.append(Turn(player, state.dice, "resigns"))
        self.say(self.who(player), " resigns; ", self.who(winner), " wins a single game: 1 point.")
        self.record()
        return GameResult(state, self.turns, winner, 1, resigned=True)

    def record(self) -> None:
        self.console.rule("Game record", style="grey50")
        width = max(len(name) for name in self.names)
        for number, turn in enumerate(self.turns, 1):
            name = self.names[turn.player].ljust(width)
            self.say(f"{number:>3}  ", checker(turn.player), " ", (name, "bold"), "  ",
                     ("".join(map(str, turn.dice)), "cyan"), f"  {turn.text}")


def _roll(dice: tuple[int, ...]) -> str:
    return "-".join(map(str, dice))


def _join(parts: list[Text], separator: str) -> list[Text | str]:
    joined: list[Text | str] = []
    for i, part in enumerate(parts):
        if i:
            joined.append(separator)
        joined.append(part)
    return joined
