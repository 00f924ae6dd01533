"""A game in the terminal: people and bots at one board.

:func:`run_game` plays one game of a track variant: two players on the backgammon
board, or more on a shared board (Multi-Gam's four on the quarter board, drawn by
:mod:`gammon.render.quarter`, turns passing clockwise past finished players). Each seat
is ``human`` (a person at this keyboard) or a bot kind known to :func:`make_agent`. The
dice come from ``random.Random(seed)``, so a seed replays the same dice whatever the
players do.

A person types moves in gnubg's notation (``13/11 6/5``, ``bar/22``, ``6/off``,
``8/5(2)``), or in the move text the variant's codec brings (:func:`move_text_for`),
all at once or a checker at a time; ``?`` lists the legal plays by number,
``undo`` takes back the last checker moved this turn, ``help`` explains the rest.

:func:`run_match` plays a match to N points and :func:`run_session` money games for a
stake, with the doubling cube and resignations of :mod:`gammon.stakes` (``double``
before rolling, ``take``/``drop``/``beaver``, ``resign gammon``, ``accept``...).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from rich.columns import Columns
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from gammon.agents.registry import KINDS as AGENT_REGISTRY
from gammon.agents.registry import make_agent as build_agent
from gammon.agents.registry import parse_spec
from gammon.core.errors import GammonError, InvalidOptionError
from gammon.core.play import Play
from gammon.core.state import GameState
from gammon.core.variant import TrackVariant
from gammon.core.variant import variant as get_variant
from gammon.notation.codecs import codec_for
from gammon.notation.movetext import (
    NO_MOVE,
    MoveText,
    Pair,
)
from gammon.render.quarter import place_name, ranking_of, render_quarter
from gammon.render.terminal import checker, render_board, symbol

HUMAN = "human"
#: Bot kinds :func:`make_agent` knows (:mod:`gammon.agents.registry`); a seat names one
#: with its options, ``kind[:option...]``, e.g. ``expectimax:2`` or ``gnubg:0``.
AGENT_KINDS = tuple(AGENT_REGISTRY)
#: Everything a seat may be.
SEAT_KINDS = (HUMAN, *AGENT_KINDS)

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


def help_text(home: int = 6, moves: Any = None,
              commands: tuple[tuple[str, str], ...] = HELP_COMMANDS) -> Group:
    """The help a person gets at the prompt; ``home`` is the home board's size,
    ``moves`` the move text in use (:func:`move_text_for`; gnubg's by default)."""
    moves = moves if moves is not None else GnubgMoves()
    def grid(rows: tuple[tuple[str, str], ...]) -> Table:
        table = Table.grid(padding=(0, 3))
        table.add_column(style="cyan", no_wrap=True)
        table.add_column()
        for left, right in rows:
            table.add_row("  " + left, right)
        return table

    return Group(
        Text(moves.intro.format(home=home)),
        grid(moves.examples),
        Text("Type a whole play, or one checker at a time: the board shows each move, and "
             "when the play is complete, Enter plays it."),
        Text("Commands", style="bold"),
        grid(commands),
    )


class GnubgMoves(MoveText):
    """gnubg's move text, in the mover's own point numbers: the default move text."""

    intro = ("Moves are written from your side of the board (your home board is 1-{home}), "
             "as gnubg writes them:")
    examples = HELP_MOVES
    example = "13/11 6/5"


def move_text_for(rules: TrackVariant) -> Any:
    """The move text people read and type for ``rules``: the one its position codec
    brings (``codec.moves``; Multi-Gam numbers its board from the BAR), else gnubg's."""
    try:
        moves = getattr(codec_for(rules), "moves", None)
    except GammonError:
        moves = None
    return moves if moves is not None else GnubgMoves(rules.points)


# --- seats -------------------------------------------------------------------------------


class Agent(Protocol):
    """A bot at the table: it chooses one of the legal actions (usually plays)."""

    name: str

    def choose(self, state: GameState) -> Any: ...


@dataclass
class RandomAgent:
    """Plays a uniformly random legal play (or makes a uniformly random choice)."""

    rng: random.Random = field(default_factory=random.Random)
    name: str = "random"

    def choose(self, state: GameState) -> Any:
        return self.rng.choice(state.legal_actions())


def make_agent(name: str, seed: int | str | None = None, variant: Any = "backgammon") -> Agent:
    """The bot called ``name`` (``kind[:option...]``, a kind of :data:`AGENT_KINDS`) for
    ``variant``, seeded with ``seed``: :func:`gammon.agents.make_agent`.

    Raises :class:`InvalidOptionError` listing the kinds for an unknown name.
    """
    spec = name.strip().lower()
    if spec == HUMAN:
        raise InvalidOptionError("'human' is a seat for a person, not a bot: run_game seats one")
    if parse_spec(spec)[0] not in AGENT_KINDS:
        raise InvalidOptionError(
            f"unknown player kind {name!r}; choose one of: {', '.join(SEAT_KINDS)}"
        )
    if spec == "random":  # the terminal's own random bot: seeded games replay as before
        return RandomAgent(random.Random(seed))
    return build_agent(spec, variant, seed)


def check_seats(seats: Sequence[str], players: int) -> list[str]:
    """The seat kinds, normalized; raises :class:`InvalidOptionError` when one is unknown
    or the number of seats does not match the game's players."""
    kinds = [seat.strip().lower() for seat in seats]
    if len(kinds) != players:
        raise InvalidOptionError(
            f"this game has {players} players, so give {players} seats, not {len(kinds)}"
        )
    for seat, kind in zip(seats, kinds, strict=True):
        if parse_spec(kind)[0] not in SEAT_KINDS:
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
    winner scored (1 single game, 2 gammon, 3 backgammon). With more than two players,
    ``ranking`` is the finishing order and ``winner`` the first.
    """

    state: GameState
    turns: list[Turn]
    winner: int | None = None
    points: int = 0
    resigned: bool = False
    ranking: tuple[int, ...] = ()

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
    *,
    start: Any = None,
    step: Callable[[Any, Any], Any] | None = None,
) -> GameResult:
    """Play one game in the terminal and return how it ended.

    ``variant`` is a rules object or a variant name; ``seats`` gives each player's kind,
    in player order (player 0 plays X and is seated first). ``seed`` seeds the dice (and
    the bots); ``input_func`` reads a person's line (``input`` by default; tests pass a
    script). ``quit`` or end of input abandons the game.

    ``start`` is the state to begin from (a game with stakes: a
    :class:`gammon.stakes.CubeState`, whose cube and resignation decisions are asked at
    the prompt); ``step(state, x)`` applies each roll and action (default
    ``state.apply(x)``; a match or session passes its own, which keeps its record).
    """
    rules = get_variant(variant) if isinstance(variant, str) else variant
    kinds = check_seats(seats, rules.players)
    console = console if console is not None else Console()
    game = _Game(rules, kinds, seed, console, input_func, start=start, step=step)
    return game.play()


class _Game:
    def __init__(self, rules: TrackVariant, kinds: list[str], seed: int | None,
                 console: Console, input_func: Callable[[str], str], *,
                 start: Any = None, step: Callable[[Any, Any], Any] | None = None) -> None:
        self.rules = rules
        self.start = start
        self.step: Callable[[Any, Any], Any] = step or (lambda state, x: state.apply(x))
        # A game with stakes (the cube, resignations offered and answered).
        self.stakes = start is not None and hasattr(start, "cube_in_play")
        self.kinds = kinds
        self.console = console
        self.input = input_func
        self.dice_rng = random.Random(seed)
        self.agents: dict[int, Agent] = {
            p: make_agent(kind, None if seed is None else f"{seed}:{p}", rules)
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
        self.moves = move_text_for(rules)
        self.throws: list[str] = []  # the opening's throws, for the record
        self.rolled = True  # whether the dice to play were just thrown

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
        if self.rules.players > 2:
            scores = getattr(self.rules, "scores", None)
            self.console.print(render_quarter(state, names=self.names, scores=scores,
                                              **options))  # type: ignore[arg-type]
            return
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
        if self.stakes:
            from gammon.stakes.prompt import cube_text, score_text

            self.say(score_text(self.start, self.names), "; ", cube_text(self.start, self.names))
        state = self.opening(self.start if self.start is not None else rules.initial_state())
        try:
            while not state.is_terminal:
                if state.is_chance:
                    roll = state.sample_chance(self.dice_rng)
                    state = self.advance(state, roll)
                    # Dice thrown and played as they fell (not one die naming a double).
                    self.rolled = tuple(roll.dice) == state.dice
                    continue
                try:
                    if self.stakes and _is_stakes_decision(state):
                        action = self.stakes_decide(state)
                    elif _is_play_decision(state):
                        action = self.turn(state)
                    else:
                        action = self.decide(state)
                except _Offer as offer:  # a resignation typed at the prompt
                    action = offer.action
                before, state = state, self.advance(state, action)
                if self.stakes:
                    self.tell(before, action, state)
                if not (self.stakes and _is_stakes_action(action)):
                    self.rolled = False
        except _Quit as stop:
            return self.stopped(state, stop.resign)
        return self.finished(state)

    def opening(self, state: GameState) -> GameState:
        """Each player throws one die; ties throw again. The higher die moves first."""
        while state.is_chance and state.opening:
            roll = state.sample_chance(self.dice_rng)
            # A re-throw among tied players names them (Multi-Gam's roll-off).
            throwers = getattr(roll, "players", range(len(roll.dice)))
            throws = _join(
                [Text.assemble(self.who(p), f" throws {die}")
                 for p, die in zip(throwers, roll.dice, strict=True)],
                ", ",
            )
            self.throws.append(" ".join(
                f"{symbol(p)}:{die}" for p, die in zip(throwers, roll.dice, strict=True)))
            label = "Roll-off: " if hasattr(roll, "players") else "Opening roll: "
            cube = getattr(state, "cube_value", None)
            state = self.step(state, roll)
            if cube is not None and state.cube_value != cube:
                self.say(("Equal dice: automatic double, the cube is now "
                          f"{state.cube_value}.", "italic"))
            tied = getattr(state.memo, "rolling", ())
            if state.is_chance and state.opening and 1 < len(tied) < self.rules.players:
                self.say(label, *throws, " — a tie for the highest: ",
                         *_join([self.who(p) for p in tied], " and "), " throw again.")
            elif state.is_chance and state.opening:
                self.say(label, *throws, (" — a tie, roll again.", "italic"))
            elif state.is_chance:  # the opening only chose who starts (Long Nardy)
                self.say("Opening roll: ", *throws, " — ", self.who(state.position.turn),
                         " goes first and rolls.")
            else:
                first = state.position.turn
                self.say(label, *throws, " — ", self.who(first),
                         f" goes first with {_roll(state.dice)}.")
        return state

    def turn(self, state: GameState) -> Play:
        player = state.position.turn
        legal = state.legal_actions()
        human = self.kinds[player] == HUMAN
        # Dice just thrown are "rolled"; dice that came from a decision (the number a
        # player chose) are only "played".
        rolls = f" rolls {_roll(state.dice)}" if self.rolled else f" plays {_roll(state.dice)}"
        if human:
            self.console.print()
            self.console.rule(Text.assemble(self.who(player), rolls), style="grey50")
            self.board(state, highlight=self.last_play)
        if len(legal) == 1 and not legal[0].moves:
            reason = getattr(self.rules, "no_move_reason", lambda _: None)(state)
            self.say(self.who(player), f"{rolls} and cannot move",
                     f": {reason}" if reason else "", ".")
            play = legal[0]
        elif human and len(legal) == 1:
            play = legal[0]
            self.say("Only one legal play: ", (self.text(play), "bold"), ".")
        elif human:
            play = self.ask(state)
        else:
            play = self.agents[player].choose(state)
            self.say(self.who(player), f"{rolls} and plays " if self.rolled else f"{rolls}: ",
                     (self.text(play), "bold"), ".")
        self.turns.append(Turn(player, state.dice, self.text(play)))
        self.last_play = play if play.moves else None
        if self.rules.players > 2 and play.result.off(player) == self.rules.checkers:
            place = place_name(len(ranking_of(state)))
            self.say(self.who(player), f" bears off the last checker and finishes {place}.")
        return play

    def advance(self, state: GameState, action: Any) -> GameState:
        """Apply a roll or an action; say what the variant's rules made of it."""
        after = self.step(state, action)
        announce = getattr(self.rules, "announce", None)
        note = announce(state, after) if announce is not None else None
        if note:
            actor = state.position.turn
            self.say(self.who(actor), " ", (note, "italic"))
        return after

    # --- decisions other than plays ----------------------------------------------------

    def decide(self, state: GameState) -> Any:
        """A decision that is not a play (acey-deucey's doubles number, ...): the
        variant words the question (``decision_prompt``) and may read a person's answer
        (``parse_action``); else the actions' labels are typed."""
        player = state.position.turn
        legal = list(state.legal_actions())
        question = getattr(self.rules, "decision_prompt", lambda _: None)(state) or \
            f"choose one of: {', '.join(_label(a) for a in legal)}"
        if len(legal) == 1:
            action = legal[0]
            self.say(self.who(player), f" has only one choice: {action}.")
        elif self.kinds[player] == HUMAN:
            action = self.ask_action(state, legal, question)
        else:
            action = self.agents[player].choose(state)
            self.say(self.who(player), " chooses ", (str(action), "bold"), ".")
        self.turns.append(Turn(player, (), str(action)))
        return action

    def ask_action(self, state: GameState, legal: list[Any], question: str) -> Any:
        player = state.position.turn
        labels = [_label(a) for a in legal]
        self.console.print()
        self.say(self.who(player), f", {question}.")
        prompt = f"{self.names[player]} (choose {_span(labels)})> "
        parse = getattr(self.rules, "parse_action", None)
        while True:
            line = self.read(prompt)
            command = line.strip().lower()
            if command in ("?", "hint", "legal", "list", "moves", ""):
                self.say(f"You may choose {', '.join(labels)}: {question}.")
                continue
            if command in ("help", "h"):
                self.say(f"Type your choice ({_span(labels)}) and press Enter; the other "
                         "commands are those of a play (board, resign, quit).")
                continue
            if command in ("board", "show"):
                self.board(state, highlight=self.last_play)
                continue
            if command in ("quit", "q", "exit"):
                raise _Quit(resign=False)
            if self.stakes and self.stakes_command(state, line):
                continue
            if command == "resign":
                raise _Quit(resign=True)
            if parse is not None:
                try:
                    return parse(state, line)
                except GammonError as error:
                    self.refuse(str(error))
                    continue
            for action, label in zip(legal, labels, strict=True):
                if command in (label.lower(), str(action).lower()):
                    return action
            self.refuse(f"{line.strip()!r}: choose {_span(labels)}")

    def text(self, play: Play) -> str:
        return self.moves.format_play(play)

    # --- a person's turn ---------------------------------------------------------------

    def read(self, prompt: str) -> str:
        """A line from the person at the keyboard; the end of input abandons the game."""
        try:
            return self.input(prompt)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise _Quit(resign=False) from None

    def ask(self, state: GameState) -> Play:
        player = state.position.turn
        numbered = self.moves.legal_play_texts(state)
        units: list[list[Pair]] = []  # checker moves typed so far, one entry each
        pending: Play | None = None  # the play those moves complete
        prompt = f"{self.names[player]} ({_roll(state.dice)})> "
        while True:
            line = self.read(prompt)
            command = line.strip().lower()
            if command == "":
                if pending is not None:
                    return pending
                if units:
                    self.say("Finish the play, or type undo to take a move back.")
                else:
                    self.say("Type your move, like ", (self.moves.example, "cyan"),
                             "; ", ("?", "cyan"), " lists the legal plays, ",
                             ("help", "cyan"), " explains more.")
                continue
            if command in ("?", "hint", "legal", "list", "moves"):
                self.list_plays(numbered)
                continue
            if command in ("help", "h"):
                commands = HELP_COMMANDS if self.rules.players == 2 else tuple(
                    row for row in HELP_COMMANDS if row[0] != "resign")
                if self.stakes:
                    from gammon.stakes.prompt import HELP as STAKES_HELP

                    commands = tuple(r for r in commands if r[0] != "resign") + STAKES_HELP
                self.console.print(help_text(self.rules.home, self.moves, commands))
                continue
            if command in ("board", "show"):
                self.show_partial(state, units, pending)
                continue
            if command in ("quit", "q", "exit"):
                raise _Quit(resign=False)
            if command == "resign" and self.rules.players > 2:
                self.refuse("with more than two players nobody wins by your resigning: "
                            "play on, or type quit to stop")
                continue
            if self.stakes and self.stakes_command(state, line):
                continue
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
                typed = self.moves.parse_paths(line)
                if not typed:
                    self.refuse(f"{NO_MOVE!r}: you can move, so you must")
                    continue
                if not units:
                    try:
                        return self.moves.find_play(state, line)
                    except GammonError:
                        pass  # perhaps the first moves of a play typed in parts
                done = [pair for unit in units for pair in unit]
                partial = self.moves.partial_play(state, line, done)
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
        partial = self.moves.partial_play(state, [pair for unit in units for pair in unit])
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

    # --- the cube and resignations (gammon.stakes) ----------------------------------------

    def stakes_decide(self, state: Any) -> Any:
        """A cube or resignation decision: a person answers at the prompt (``double``,
        Enter to roll, ``take``, ``drop``, ``beaver``, ``accept``, ...); a bot chooses."""
        from gammon.stakes.prompt import HELP, choices, parse_command, question

        player = state.current_player
        if self.kinds[player] != HUMAN:
            return self.agents[player].choose(state)
        self.console.print()
        self.board(state, highlight=self.last_play)
        self.say(self.who(player), ": ", question(state, self.names))
        prompt = f"{self.names[player]} ({choices(state)})> "
        while True:
            line = self.read(prompt)
            command = line.strip().lower()
            if command == "?":
                self.say(question(state, self.names))
                continue
            if command in ("help", "h"):
                table = Table.grid(padding=(0, 3))
                table.add_column(style="cyan", no_wrap=True)
                table.add_column()
                for left, right in HELP + (("board", "show the board again"),
                                           ("quit", "stop playing")):
                    table.add_row("  " + left, right)
                self.console.print(Text(question(state, self.names)), table)
                continue
            if command in ("board", "show"):
                self.board(state, highlight=self.last_play)
                continue
            if command in ("quit", "q", "exit"):
                raise _Quit(resign=False)
            try:
                action = parse_command(state, line)
            except GammonError as error:
                self.refuse(str(error))
                continue
            if action is None:
                self.refuse(f"{line.strip()!r}: type {choices(state).replace('/', ', ')}")
                continue
            return action

    def stakes_command(self, state: Any, line: str) -> bool:
        """At another prompt: an offer to resign is made at once (raises :class:`_Offer`);
        a cube word out of place is explained. False when ``line`` is something else."""
        from gammon.stakes.prompt import parse_command

        try:
            action = parse_command(state, line)
        except GammonError as error:
            self.refuse(str(error))
            return True
        if action is None:
            return False
        raise _Offer(action)

    def tell(self, before: Any, action: Any, after: Any) -> None:
        """Say a cube action or resignation and put it in the record."""
        if not _is_stakes_action(action):
            return
        from gammon.stakes.record import describe

        for event in describe(before, action, after):
            if event.kind == "result" or event.player is None:
                continue
            self.turns.append(Turn(event.player, (), event.text))
            self.say(self.who(event.player), " ", (event.text, "bold"), ".")

    def settled(self, state: Any) -> GameResult:
        """The end of a game with stakes: how it ended and the points it is worth."""
        from gammon.stakes.prompt import result_text

        self.console.print()
        self.board(state, highlight=self.last_play)
        winner = state.winner
        if winner is None:
            self.say((result_text(state, self.names), "bold"), ".")
        else:
            self.say(checker(winner), " ", (result_text(state, self.names), "bold"), ".")
        self.record()
        if winner is None:
            return GameResult(state, self.turns)
        ending = state.ending
        return GameResult(state, self.turns, winner, int(state.returns()[winner]),
                          resigned=ending is not None and ending.how == "resign")

    # --- the end -----------------------------------------------------------------------

    def finished(self, state: GameState) -> GameResult:
        if self.rules.players > 2:
            return self.placed(state)
        if self.stakes:
            return self.settled(state)
        self.console.print()
        self.board(state, highlight=self.last_play)
        winner = state.winner
        if winner is None:  # a draw (Long Nardy's last roll)
            self.say("Both sides bore off everything: the game is drawn.")
            self.record()
            return GameResult(state, self.turns)
        points = int(state.returns()[winner])
        kind = self.rules.result_name(points)
        plural = "s" if points != 1 else ""
        self.say(self.who(winner), f" wins {kind}: {points} point{plural}.")
        self.record()
        return GameResult(state, self.turns, winner, points)

    def placed(self, state: GameState) -> GameResult:
        """The end of a game of more than two players: the places and their scores."""
        ranking = ranking_of(state)
        returns = state.returns()
        self.console.print()
        self.board(state, highlight=self.last_play)
        self.say(("Final ranking", "bold"))
        width = max(len(name) for name in self.names)
        for place, player in enumerate(ranking):
            points = int(returns[player])
            plural = "s" if points != 1 else ""
            self.say(f"  {place_name(place)}  ", checker(player), " ",
                     (self.names[player].ljust(width), "bold"), f"  {points} point{plural}")
        self.record()
        return GameResult(state, self.turns, ranking[0], int(returns[ranking[0]]),
                          ranking=tuple(ranking))

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
        if self.rules.players > 2 and self.throws:
            self.say("     opening  ", (", then ".join(self.throws), "cyan"))
        for number, turn in enumerate(self.turns, 1):
            name = self.names[turn.player].ljust(width)
            self.say(f"{number:>3}  ", checker(turn.player), " ", (name, "bold"), "  ",
                     ("".join(map(str, turn.dice)).ljust(2), "cyan"), f"  {turn.text}")


def _roll(dice: tuple[int, ...]) -> str:
    return "-".join(map(str, dice))


class _Offer(Exception):
    """A person typed a stakes action (an offer to resign) at another prompt."""

    def __init__(self, action: Any) -> None:
        super().__init__(str(action))
        self.action = action


def _is_stakes_decision(state: Any) -> bool:
    from gammon.stakes.prompt import is_stakes_decision

    return is_stakes_decision(state)


def _is_stakes_action(action: Any) -> bool:
    from gammon.stakes import CubeAction, Resign, ResignAnswer

    return isinstance(action, CubeAction | Resign | ResignAnswer)


def _is_play_decision(state: GameState) -> bool:
    """Whether the decision of ``state`` is a play (else a variant's other choice)."""
    legal = state.legal_actions()
    return len(legal) > 0 and isinstance(legal[0], Play)


def _label(action: Any) -> str:
    """What a person types to choose ``action``."""
    return str(getattr(action, "label", action))


def _span(labels: list[str]) -> str:
    """``1-6`` for consecutive numbers, else the labels joined with ``/``."""
    if len(labels) > 2 and all(label.isdigit() for label in labels):
        numbers = [int(label) for label in labels]
        if numbers == list(range(numbers[0], numbers[0] + len(numbers))):
            return f"{numbers[0]}-{numbers[-1]}"
    return "/".join(labels)


def _join(parts: list[Text], separator: str) -> list[Text | str]:
    joined: list[Text | str] = []
    for i, part in enumerate(parts):
        if i:
            joined.append(separator)
        joined.append(part)
    return joined


# --- matches and money sessions (gammon.stakes) ------------------------------------------


def run_match(
    variant: TrackVariant | str,
    seats: Sequence[str],
    length: int,
    stakes: Any = None,
    seed: int | None = None,
    console: Console | None = None,
    input_func: Callable[[str], str] = input,
    *,
    crawford: bool = True,
) -> Any:
    """Play a match to ``length`` points in the terminal; returns the
    :class:`gammon.stakes.Match` (its score, and a record of every game).

    ``stakes`` are the :class:`gammon.stakes.StakeRules` (the cube is on where the
    variant has one). Each game's dice come from a seed drawn from ``seed``. ``quit``
    stops the match where it is.
    """
    from gammon.stakes import Match
    from gammon.stakes.prompt import result_text, score_text

    rules = get_variant(variant) if isinstance(variant, str) else variant
    kinds = check_seats(seats, rules.players)
    console = console if console is not None else Console()
    match = Match(rules, length, stakes, crawford=crawford)
    seeds = random.Random(seed)
    names: list[str] = []
    while not match.is_over:
        state = match.new_game()
        game_seed = seeds.randrange(2**32) if seed is not None else None
        console.print()
        game = _Game(rules, kinds, game_seed, console, input_func, start=state,
                     step=lambda _state, x: match.apply(x))
        names = game.names
        console.rule(Text(f"Game {len(match.games)} of the {length}-point match", style="bold"))
        if state.score.crawford:
            console.print(Text("The Crawford game: no doubling in this game.", style="italic"))
        result = game.play()
        if not result.finished:
            console.print(Text(f"Match stopped at {score_text(match.state, names)}."))
            return match
        crawford = " (the next game is the Crawford game)" if match.score.crawford else ""
        console.print(Text(f"Score: {_score_line(match.score, names)}{crawford}", style="bold"))
    winner = match.winner
    assert winner is not None
    score = match.score.score
    console.print()
    console.rule(Text.assemble(checker(winner), f" {names[winner]} wins the {length}-point "
                               f"match {score[winner]}-{score[1 - winner]}"))
    for number, record in enumerate(match.games, 1):
        console.print(f"  game {number} at {_score_line(record.start.score, names)}: "
                      f"{result_text(record.state, names)}")
    return match


def run_session(
    variant: TrackVariant | str,
    seats: Sequence[str],
    stake: float = 1,
    stakes: Any = None,
    seed: int | None = None,
    console: Console | None = None,
    input_func: Callable[[str], str] = input,
    *,
    games: int | None = None,
) -> Any:
    """Money games in the terminal at ``stake`` per point; returns the
    :class:`gammon.stakes.Session` (ledger and standings).

    Plays ``games`` games; when None, one game and then, while a person is seated, as
    many more as they ask for.
    """
    from gammon.stakes import Session

    rules = get_variant(variant) if isinstance(variant, str) else variant
    kinds = check_seats(seats, rules.players)
    console = console if console is not None else Console()
    session = Session(rules, stake, stakes)
    seeds = random.Random(seed)
    names = [f"player {p}" for p in range(rules.players)]
    while True:
        state = session.new_game()
        game_seed = seeds.randrange(2**32) if seed is not None else None
        console.print()
        game = _Game(rules, kinds, game_seed, console, input_func, start=state,
                     step=lambda _state, x: session.apply(x))
        names = game.names
        result = game.play()
        if not result.finished:
            session.games.pop()
            break
        money = ", ".join(f"{names[p]} {_signed(b)}" for p, b in enumerate(session.balances()))
        console.print(Text(f"After {len(session.ledger)} game(s) at {stake} a point: {money}",
                           style="bold"))
        if games is not None:
            if len(session.ledger) >= games:
                break
            continue
        if HUMAN not in kinds or not _again(console, input_func):
            break
    if session.ledger:
        console.rule("Ledger", style="grey50")
        session.names = names
        for line in session.table():
            console.print("  " + line)
        for payer, payee, amount in session.transfers():
            console.print(f"  {names[payer]} pays {names[payee]} {amount}")
    return session


def _again(console: Console, input_func: Callable[[str], str]) -> bool:
    while True:
        try:
            answer = input_func("Another game? (y/n)> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            return False
        if answer in ("", "y", "yes"):
            return True
        if answer in ("n", "no", "q", "quit"):
            return False
        console.print("Type y for another game, n to stop.")


def _score_line(score: Any, names: Sequence[str]) -> str:
    each = ", ".join(f"{names[p]} {s}" for p, s in enumerate(score.score))
    return f"{each} in a {score.length}-point match"


def _signed(amount: float) -> str:
    return f"+{amount}" if amount > 0 else str(amount)
