"""The terminal face: people and bots at one table, every variant.

:class:`TerminalGame` shows a :class:`~gammon.table.Table` in the terminal and asks its
questions of the people at the keyboard; it runs no game loop of its own. The table
throws the dice and lets the bots answer; this module draws the board the variant names
(:mod:`gammon.render`), tells what happened (:mod:`gammon.table.narrate`) and reads what
a person types with the variant's move text (:mod:`gammon.notation.movetext`).

A person types a whole play in the move text (``13/11 6/5``, ``bar/22``, ``6/off``,
``8/5(2)``; Multi-Gam's board numbers; Acedrex's ``B3+7``) or a checker at a time,
``?`` for the legal actions by number, ``undo`` to take back a checker moved this
turn, ``help`` for the rest. Cube and resignation words (``double``, ``take``,
``resign gammon``...) answer those questions. ``quit`` or the end of input stops play.

:func:`run_game`, :func:`run_match` and :func:`run_session` seat a table and play it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.columns import Columns
from rich.console import Console, Group
from rich.table import Table as RichTable
from rich.text import Text

from gammon.agents.registry import KINDS as AGENT_KINDS
from gammon.agents.registry import make_agent as build_agent
from gammon.agents.registry import parse_spec
from gammon.core.errors import GammonError, InvalidOptionError
from gammon.core.play import Play
from gammon.core.protocol import Rules, State
from gammon.core.words import agree
from gammon.notation import move_text_for
from gammon.notation.movetext import NO_MOVE, MoveText, Pair
from gammon.render import board_for
from gammon.stakes.cube import CubeAction, Resign, base_of, stakes_of
from gammon.stakes.match import Match, played
from gammon.stakes.prompt import parse_command, stakes_help
from gammon.stakes.rules import StakeRules
from gammon.stakes.session import Session
from gammon.table import narrate
from gammon.table.narrate import Turn
from gammon.table.table import (
    ANOTHER,
    CHOICE,
    ENOUGH,
    GAME,
    HUMAN,
    MATCH,
    MONEY,
    NEW_GAME,
    NEXT_GAME,
    PLAY,
    Question,
    Seat,
    Step,
    Table,
    told_apart,
)
from gammon.variants.acedrex import COLOURS

#: Everything a seat may be: a person, or a kind of bot (``kind[:option...]``).
SEAT_KINDS = (HUMAN, *AGENT_KINDS)

#: What ``help`` lists besides the moves.
HELP_COMMANDS = (
    ("? hint legal", "list the legal plays, numbered; type a number to play one"),
    ("undo", "take back the last checker you moved this turn"),
    ("board", "show the board again"),
    ("resign", "offer to resign (two players); in Acedrex, leave the game and settle"),
    ("quit", "stop playing: the game ends without a result"),
    ("help", "this text"),
)

_LIST = ("?", "hint", "legal", "list", "moves")
_QUIT = ("quit", "q", "exit")
_BOARD = ("board", "show")


class Quit(Exception):
    """The person at the keyboard stopped play."""


def check_seats(seats: Sequence[str], players: int) -> list[str]:
    """The seat kinds, normalized; raises :class:`InvalidOptionError` when one is unknown
    or the number of seats does not match the game's players."""
    kinds = [seat.strip().lower() for seat in seats]
    if len(kinds) != players:
        raise InvalidOptionError(
            f"this game has {players} players, so give {players} seats, not {len(kinds)}")
    for seat, kind in zip(seats, kinds, strict=True):
        if parse_spec(kind)[0] not in SEAT_KINDS:
            raise InvalidOptionError(
                f"unknown player kind {seat!r}; choose one of: {', '.join(SEAT_KINDS)}")
    return kinds


def seat_bot(name: str, seed: int | str | None = None, variant: Any = "backgammon") -> Any:
    """The bot called ``name`` for ``variant`` (:func:`gammon.agents.make_agent`);
    :class:`InvalidOptionError` naming every seat kind for an unknown one."""
    spec = name.strip().lower()
    if spec == HUMAN:
        raise InvalidOptionError("'human' is a seat for a person, not a bot")
    if parse_spec(spec)[0] not in AGENT_KINDS:
        raise InvalidOptionError(
            f"unknown player kind {name!r}; choose one of: {', '.join(SEAT_KINDS)}")
    return build_agent(spec, variant, seed)


def seat_names(rules: Rules, kinds: Sequence[str], person: str = "you") -> list[str]:
    """What each seat is called, everywhere (the board, the record, a saved match):
    ``person`` for the one person at the keyboard, else ``human 1``, ``human 2``...; the
    bot's name, with its seat when two seats share it (``neural:0 (seat 1)``: a bare
    number would read like a setting); Acedrex's seats by their colours too."""
    humans = sum(kind == HUMAN for kind in kinds)
    names = [person if kind == HUMAN and humans == 1 else
             f"{kind} {p + 1}" if kind == HUMAN else kind for p, kind in enumerate(kinds)]
    if rules.board == "ring":  # Acedrex: the colours tell the seats apart
        return [f"{COLOURS[p]} ({name})" for p, name in enumerate(names)]
    return told_apart(names)


# --- the record ----------------------------------------------------------------------------


@dataclass
class GameResult:
    """How a game ended: its last state, the record, and the result (``winner`` None
    when it was abandoned or drawn; ``points`` what the winner scored; ``ranking`` the
    places with more than two players)."""

    state: State
    turns: list[Turn] = field(default_factory=list)
    winner: int | None = None
    points: float = 0
    resigned: bool = False
    ranking: tuple[int, ...] = ()
    finished: bool = False
    table: Table | None = None

    @property
    def money(self) -> tuple[float, ...]:
        return tuple(self.state.returns())


# --- the face ------------------------------------------------------------------------------


class TerminalGame:
    """A table shown in the terminal (see the module text)."""

    def __init__(self, table: Table, console: Console | None = None,
                 input_func: Callable[[str], str] = input) -> None:
        self.table = table
        self.console = console if console is not None else Console()
        self.input = input_func
        self._texts: dict[str, MoveText] = {}
        self.names = seat_names(self.rules, [seat.kind for seat in table.seats])
        humans = table.humans
        # One person: the board stays on their side. Two: it turns to whoever acts.
        self.viewer = humans[0] if len(humans) == 1 else (0 if not humans else None)
        self.last_play: Any = None
        self.pending: Text | None = None  # a bot's roll, told with its play
        self.pending_parts = 0  # the parts of a roll told so far (Acedrex's die)
        self.quiet = False  # no person left in the game: the bots finish it at once
        self.asker = Asker(self)

    # A rotation (tavli) changes the game, and with it the board and the move text,
    # from one game to the next: they are always the game's being played.
    @property
    def rules(self) -> Any:
        return self.table.variant

    @property
    def board_kind(self) -> Any:
        return board_for(self.rules)

    @property
    def moves(self) -> MoveText:
        name = self.rules.name
        if name not in self._texts:
            self._texts[name] = move_text_for(self.rules)
        return self._texts[name]

    # --- output --------------------------------------------------------------------------

    def who(self, seat: int) -> Text:
        return Text.assemble(self.board_kind.token(seat), " ", (self.names[seat], "bold"))

    def say(self, *parts: str | Text | tuple[str, str]) -> None:
        self.flush()
        self.console.print(Text.assemble(*parts))

    def flush(self) -> None:
        if self.pending is not None:
            line, self.pending = self.pending, None
            if not line.plain.endswith("."):
                line.append(".")
            self.console.print(line)

    def refuse(self, reason: str) -> None:
        self.console.print(Text.assemble(("✗ ", "bold red"), reason))

    def board(self, state: State, **options: Any) -> None:
        self.flush()
        viewer = self.viewer if self.viewer is not None else _actor(state)
        options.setdefault("highlight", self.last_play)
        self.console.print(self.board_kind.draw(state, viewer=viewer, names=self.names,
                                                **options))

    # --- the table ------------------------------------------------------------------------

    def play(self) -> Table:
        """Play until the table is over or a person quits; the table, with its log."""
        table = self.table
        try:
            while True:
                step = table.advance()
                if step is not None:
                    self.show(step)
                    continue
                if table.over:
                    break
                question = table.question
                assert question is not None
                self.answer(question)
        except Quit:
            table.stop()
            self.flush()
            self.console.print()
            self.say("Game abandoned.")
            self.record()
        self.summary()
        return table

    def answer(self, question: Question) -> None:
        """Ask a person until the table accepts what they type."""
        if question.kind == NEXT_GAME:
            self.table.act(question.seat, ANOTHER if self.asker.again() else ENOUGH)
            return
        while True:
            actions = self.asker.ask(question)
            try:
                for action in actions:
                    step = self.table.act(question.seat, action)
                    if step is not None:
                        self.show(step)
                return
            except GammonError as error:
                self.refuse(str(error))

    # --- telling what happened ------------------------------------------------------------

    def show(self, step: Step) -> None:
        if step.kind == NEW_GAME:
            self.new_game(step)
            return
        self.remember(step)
        if self.quiet and not step.after.is_terminal:
            return
        lines = narrate.narrate(self.table, step, self.names)
        for line in lines:
            if line.kind != narrate.RESULT:
                self.tell(step, line)
        if step.after.is_terminal:
            self.flush()
            self.console.print()
            self.board(step.after)
            for line in lines:
                if line.kind == narrate.RESULT:
                    self.tell(step, line)
            self.record()
        elif self.table.humans and not self.quiet and not self.people_in_play(step.after):
            self.quiet = True
            self.say(("No person is left in the game: the bots play it out.", "italic"))

    def tell(self, step: Step, line: narrate.Line) -> None:
        """Print one line: a person's roll as a rule above their turn, a bot's roll
        with what it played on the same line, anything else after its seat's name."""
        seat, kind = line.seat, line.kind
        if seat is None:
            style = "bold" if kind == narrate.RESULT else ("italic" if kind == narrate.NOTE
                                                           else "")
            self.say((line.text, style))
            return
        # Lines are verb phrases after the name ("rolls 6-5"), but for a choice (the
        # action's own name: "doubles 4", "B3+7>Y1").
        text = line.text if kind == narrate.CHOICE else agree(self.names[seat], line.text)
        if kind == narrate.PLAY and isinstance(step.taken, Play):
            text += self.seen_by_viewer(step.taken)
        human = self.table.seats[seat].human
        if kind == narrate.ROLL:
            self.flush()
            if human:
                self.console.print()
                self.console.rule(Text.assemble(self.who(seat), " ", text), style="grey50")
            else:
                self.pending = Text.assemble(self.who(seat), " ", text)
                self.pending_parts = 0
            return
        if self.pending is not None and not human:
            if kind == narrate.PLAY:
                self.pending.append(f" and {text}.")
                self.flush()
                return
            if kind == narrate.CHOICE:  # the parts of one roll (Acedrex's die)
                self.pending.append((": " if not self.pending_parts else ", ") + text)
                self.pending_parts += 1
                return
        if kind == narrate.CHOICE:
            self.say(self.who(seat), ": ", text)
        elif kind == narrate.RESULT:
            self.say(self.who(seat), " ", (text, "bold"))
        else:
            self.say(self.who(seat), " ", (text, "italic" if kind == narrate.NOTE else ""),
                     "" if text.endswith(".") else ".")

    def seen_by_viewer(self, play: Play) -> str:
        """For another player's play written in that player's own point numbers: the
        same moves as the viewer's board numbers them, so no one reads 24/15 as their
        own 24 point."""
        mover, viewer = play.result.turn, self.viewer
        variant: Any = self.rules  # a game of checkers (below), which numbers its slots
        if viewer is None or mover == viewer or not play.moves \
                or not self.moves.numbered_by_mover or not variant.game_type.checkers:
            return ""

        def seen(number: re.Match[str]) -> str:
            return str(variant.shared_slot(mover, int(number[0]), viewer))

        # Point numbers only: not the count in 8/5(2).
        written = self.moves.format_play(play)
        mapped = re.sub(r"(?<![(\d])\d+(?![\d)])", seen, written)
        if mapped == written:  # one track that both number alike (Russian backgammon)
            return ""
        return f" ({self.board_kind.token(mover).plain}'s numbering; on your board {mapped})"

    def remember(self, step: Step) -> None:
        """The last play, which the board outlines."""
        if isinstance(step.taken, Play) and step.seat is not None:
            self.last_play = step.taken if step.taken.moves else None

    def new_game(self, step: Step) -> None:
        self.last_play = None
        self.quiet = False
        self.console.print()
        # A match of several games in turn names itself and the game of the moment.
        game = self.rules.name.title()
        if self.table.played.several:
            game = f"{self.table.played.name.title()}, {game}"
        title = Text.assemble((game, "bold"), ": ",
                              *_join([self.who(p) for p in range(self.rules.players)],
                                     " against " if self.rules.players == 2 else ", "))
        if title.cell_len + 6 <= self.console.width:
            self.console.rule(title)
        else:  # a rule would cut the names: the title on lines of its own
            self.console.rule(style="rule.line")
            self.console.print(title)
        for line in narrate.narrate(self.table, step, self.names):
            self.say((line.text, "bold" if line.kind == narrate.GAME else "italic"))

    def record(self) -> None:
        kept = narrate.record(self.table)
        turns = kept.turns
        if not turns:
            return
        self.console.rule("Game record", style="grey50")
        width = max(len(name) for name in self.names)
        if kept.opening:
            throws = [" ".join(f"{self.board_kind.token(p).plain}:{die}" for p, die in throw)
                      for throw in kept.opening]
            self.say("     opening  ", (", then ".join(throws), "cyan"))
        for number, turn in enumerate(turns, 1):
            dice = ("/" if turn.parts else "").join(map(str, turn.dice)).ljust(2)
            self.say(f"{number:>3}  ", self.board_kind.token(turn.player), " ",
                     (self.names[turn.player].ljust(width), "bold"), "  ", (dice, "cyan"),
                     f"  {turn.text}")

    def summary(self) -> None:
        """After the last game: the match's winner, or the session's ledger."""
        table, series = self.table, self.table.series
        if isinstance(series, Match):
            score = series.score
            if score.winner is not None:
                self.console.print()
                self.console.rule(Text.assemble(
                    self.who(score.winner), f" wins the {table.length}-point match "
                    f"{score.score[score.winner]}-{score.score[1 - score.winner]}"))
        elif table.kind == MONEY and series.ledger:
            self.console.rule("Ledger", style="grey50")
            series.names = self.names
            for line in series.table():
                self.console.print("  " + line)
            for payer, payee, amount in series.transfers():
                payer_name = self.names[payer]
                self.console.print(f"  {payer_name} {agree(payer_name, 'pays')} "
                                   f"{self.names[payee]} {amount}")

    def people_in_play(self, state: State) -> bool:
        """Whether a person is still in the game (not finished, not resigned)."""
        game = base_of(state)
        return any(game.variant.in_play(game, p) for p in self.table.humans)


class Asker:
    """What a :class:`TerminalGame` asks a person, and how it reads the answer: a
    play, a cube or stakes word, a choice, another game."""

    def __init__(self, face: TerminalGame) -> None:
        self.face = face

    def read(self, prompt: str) -> str:
        """A line from the person at the keyboard; the end of input stops play."""
        self.face.flush()
        try:
            return self.face.input(prompt)
        except (EOFError, KeyboardInterrupt):
            self.face.console.print()
            raise Quit from None

    def again(self) -> bool:
        while True:
            answer = self.read("Another game? (y/n)> ").strip().lower()
            if answer in ("", "y", "yes"):
                return True
            if answer in ("n", "no", "q", "quit"):
                return False
            self.face.console.print("Type y for another game, n to stop.")

    def ask(self, question: Question) -> list[Any]:
        """The actions a person answers ``question`` with (usually one)."""
        state, seat, legal = question.state, question.seat, list(question.actions)
        game = base_of(state)
        if question.kind == PLAY:
            if len(legal) == 1 and not legal[0].moves:
                return [legal[0]]  # nothing to play: the narration says why
            if len(legal) == 1:
                return [legal[0]]  # the narration says it was the only legal play
            self.face.board(state)
            return self.ask_play(state, game, seat)
        if question.kind != CHOICE:
            self.face.console.print()
            self.face.board(state)
            rolls = " (Enter rolls)" if CubeAction.ROLL in legal else ""
            self.face.say(self.face.who(seat), ": ", question.worded(self.face.names) + rolls)
            return [self.ask_words(question, f"{self.face.names[seat]} "
                                   f"({'/'.join(str(a) for a in legal)})> ")]
        plain = [a for a in legal if not isinstance(a, Resign)]
        if len(plain) == 1 and not self.face.rules.no_move_reason(game):
            self.face.say(self.face.who(seat), f" has only one choice: {plain[0]}.")
            return [plain[0]]
        self.face.board(state)
        reason = self.face.rules.no_move_reason(game)
        if reason:
            self.face.say(self.face.who(seat), f" cannot move: {reason}.")
            return [plain[0]]
        self.face.say(self.face.who(seat), ", ", question.text, ".")
        return self.ask_choice(question)

    def common(self, command: str, state: State) -> bool:
        """Quit and board, at every prompt; True when ``command`` was one of them."""
        if command in _QUIT:
            raise Quit
        if command in _BOARD:
            self.face.board(state)
            return True
        return False

    def ask_words(self, question: Question, prompt: str) -> Any:
        """A cube or resignation answer, typed as a word (``double``, Enter to roll,
        ``take``, ``drop``, ``beaver``, ``accept``...)."""
        state = question.state
        while True:
            line = self.read(prompt)
            command = line.strip().lower()
            if self.common(command, state):
                continue
            if command in _LIST:
                self.face.say(question.worded(self.face.names))
                continue
            if command in ("help", "h"):
                grid = _grid(stakes_help(state.base.variant)
                             + (("board", "show the board again"),
                                            ("quit", "stop playing")))
                self.face.console.print(Text(question.worded(self.face.names)), grid)
                continue
            try:
                action = parse_command(state, line)
            except GammonError as error:
                self.face.refuse(str(error))
                continue
            if action is None:
                choices = ", ".join(str(a) for a in question.actions)
                self.face.refuse(f"{line.strip()!r}: type {choices}")
                continue
            return action

    def ask_choice(self, question: Question) -> list[Any]:
        """A decision that is not a track play: the variant's move text reads it
        (acey-deucey's doubles number, Acedrex's parts of the die, keep, jump...)."""
        state, seat = question.state, question.seat
        legal = list(question.actions)
        prompt = f"{self.face.names[seat].split(' (')[0]} [{question.text}]> "
        while True:
            line = self.read(prompt)
            command = line.strip().lower()
            if self.common(command, state):
                continue
            if command == "" and not self.reads_numbers(state):
                self.face.say("Type your move, like ", (self.face.moves.example, "cyan"), "; ",
                              ("?", "cyan"), " lists what is legal, ", ("help", "cyan"),
                              " explains more.")
                continue
            if command in _LIST or command == "":
                if self.reads_numbers(state):  # the answer is a number: no numbered list
                    self.face.say(f"You may choose {', '.join(str(a) for a in legal)}: "
                                  f"{question.text}.")
                else:
                    self.list_actions([str(a) for a in legal])
                continue
            if command in ("help", "h"):
                self.help()
                continue
            if command.isdigit() and not self.reads_numbers(state):
                number = int(command)
                if not 1 <= number <= len(legal):
                    self.face.refuse(f"choose an action from 1 to {len(legal)} (? lists them)")
                    continue
                actions = [legal[number - 1]]
            else:
                try:
                    actions = self.face.moves.read_actions(state, line)
                except GammonError as error:
                    self.face.refuse(str(error))
                    continue
            resign = self.resign_action(legal)
            if resign is not None and actions == [resign] and not self.confirm(state, resign):
                continue
            return actions

    def reads_numbers(self, state: State) -> bool:
        """Whether a number typed is an answer itself (acey-deucey's doubles number)
        rather than a pick from the numbered list."""
        try:
            self.face.moves.read_actions(state, "1")
        except GammonError:
            return False
        return True

    @staticmethod
    def resign_action(legal: Sequence[Any]) -> Any:
        """The listed action that resigns (Acedrex lists one), else None."""
        return next((a for a in legal if str(a) == "resign"), None)

    def confirm(self, state: State, resign: Any) -> bool:
        """Resigning that cannot be taken back (leaving an Acedrex game) is confirmed."""
        after = state.apply(resign)
        said = "; ".join(text for seat, text in self.face.rules.announce(state, resign, after)
                         if seat == state.current_player)
        answer = self.read(f"Resign{' and ' + said.rstrip('.') if said else ''}? (y/n) ")
        return answer.strip().lower() in ("y", "yes")

    def help(self, commands: Sequence[tuple[str, str]] = HELP_COMMANDS,
             rules: Any = None) -> None:
        summary = [Text(f"Rules: {rules.summary}")] if getattr(rules, "summary", "") else []
        self.face.console.print(Group(
            *summary,
            Text(self.face.moves.introduction),
            _grid(self.face.moves.examples),
            Text("Type a whole play, or one checker at a time: the board shows each move, "
                 "and when the play is complete, Enter plays it."),
            Text("Commands", style="bold"),
            _grid(tuple(commands)),
        ))

    def list_actions(self, texts: Sequence[str]) -> None:
        width = len(str(len(texts)))
        items = [Text.assemble((f"{i:>{width}}.", "cyan"), f" {text}")
                 for i, text in enumerate(texts, 1)]
        # Numbered in reading order, left to right and then down.
        self.face.console.print(Columns(items, padding=(0, 3)))

    # --- a play, typed whole or a checker at a time -----------------------------------------

    def ask_play(self, state: State, game: Any, seat: int) -> list[Any]:
        numbered = self.face.moves.legal_play_texts(game)
        units: list[list[Pair]] = []  # the checkers moved so far, one entry each
        pending: Play | None = None  # the play they complete
        dice = "-".join(map(str, game.dice))
        prompt = f"{self.face.names[seat]} ({dice})> "
        while True:
            line = self.read(prompt)
            command = line.strip().lower()
            if command in _QUIT:
                raise Quit
            if command in _BOARD:
                self.show_partial(state, game, units, pending)
                continue
            if command == "":
                if pending is not None:
                    return [pending]
                if units:
                    self.face.say("Finish the play, or type undo to take a move back.")
                else:
                    self.face.say("Type your move, like ", (self.face.moves.example, "cyan"), "; ",
                                  ("?", "cyan"), " lists the legal plays, ", ("help", "cyan"),
                                  " explains more.")
                continue
            if command in _LIST:
                self.list_actions([text for text, _ in numbered])
                continue
            if command in ("help", "h"):
                commands = tuple(row for row in HELP_COMMANDS if row[0] != "resign")
                if (stakes := stakes_of(state)) is not None:
                    commands += stakes_help(stakes.base.variant)
                self.help(commands, game.variant)
                continue
            if command.startswith("resign") or command in ("double", "take", "drop", "accept"):
                action = self.stakes_word(state, line)
                if action is not None:
                    return [action]
                continue
            if command in ("undo", "u", "back"):
                if not units:
                    self.face.say(("Nothing to undo this turn.", "yellow"))
                    continue
                units.pop()
                pending = None
                self.show_partial(state, game, units, pending)
                continue
            if command.isdigit():
                number = int(command)
                if 1 <= number <= len(numbered):
                    return [numbered[number - 1][1]]
                self.face.refuse(f"choose a play from 1 to {len(numbered)} (? lists them)")
                continue
            try:
                typed = self.face.moves.parse_paths(line)
                if not typed:
                    self.face.refuse(f"{NO_MOVE!r}: you can move, so you must")
                    continue
                if not units:
                    try:
                        return [self.face.moves.find_play(game, line)]
                    except GammonError:
                        pass  # perhaps the first moves of a play typed in parts
                done = [pair for unit in units for pair in unit]
                partial = self.face.moves.partial_play(game, line, done)
            except GammonError as error:
                self.face.refuse(str(error))
                continue
            units = units + typed
            pending = partial.play
            self.show_partial(state, game, units, pending)

    def stakes_word(self, state: State, line: str) -> Any:
        """A cube or resignation word typed at a play's prompt: an offer to resign is
        the answer; a cube word out of place is explained."""
        stakes = stakes_of(state)
        if stakes is None:
            self.face.refuse("nobody wins by your resigning with more than two players: play "
                             "on, or type quit to stop")
            return None
        try:
            return parse_command(stakes, line)
        except GammonError as error:
            self.face.refuse(str(error))
            return None

    def show_partial(self, state: State, game: Any, units: list[list[Pair]],
                     pending: Play | None) -> None:
        if not units:
            self.face.board(state)
            return
        partial = self.face.moves.partial_play(game, [pair for unit in units for pair in unit])
        self.face.board(state, position=partial.position, dice_left=partial.dice, highlight=None)
        if pending is not None:
            self.face.say("That makes ", (self.face.moves.format_action(pending), "bold"),
                          ". Press Enter to play it, or type undo.")
        else:
            left = " and ".join(str(d) for d in partial.dice)
            self.face.say("Moved ", (partial.text, "bold"), f"; still to play: {left}.")


def _actor(state: State) -> int:
    game = base_of(state)
    actor = state.current_player
    return actor if actor is not None else game.position.turn


def _grid(rows: Sequence[tuple[str, str]]) -> RichTable:
    grid = RichTable.grid(padding=(0, 3))
    grid.add_column(style="cyan", no_wrap=True)
    grid.add_column()
    for left, right in rows:
        grid.add_row("  " + left, right)
    return grid


def _join(parts: list[Text], separator: str) -> list[Text | str]:
    joined: list[Text | str] = []
    for i, part in enumerate(parts):
        if i:
            joined.append(separator)
        joined.append(part)
    return joined


# --- seating a table -----------------------------------------------------------------------


def seat(variant: Rules | str, seats: Sequence[str], **table: Any) -> Table:
    """A table of ``variant`` (or of a rotation such as ``tavli``) with ``seats``
    checked (:func:`check_seats`)."""
    games = played(variant, kind=table.get("kind", "game"))
    kinds = check_seats(seats, games.rules()[0].players)
    return Table(games, [Seat(kind) for kind in kinds], **table)


def play_table(table: Table, console: Console | None = None,
               input_func: Callable[[str], str] = input) -> GameResult:
    """Play ``table`` in the terminal; how its last game ended."""
    face = TerminalGame(table, console, input_func)
    face.play()
    state = table.state
    turns = narrate.record(table).turns
    finished = state is not None and state.is_terminal
    if not finished:
        return GameResult(state, turns, table=table)
    returns = state.returns()
    winner = state.winner
    ending = stakes.ending if (stakes := stakes_of(state)) is not None else None
    ranking = tuple(sorted(range(len(returns)), key=lambda p: -returns[p]))
    points = returns[winner] if winner is not None else 0
    return GameResult(state, turns, winner, int(points) if float(points).is_integer() else points,
                      resigned=ending is not None and ending.how == "resign",
                      ranking=ranking if len(returns) > 2 else (), finished=True,
                      table=table)


def run_game(variant: Rules | str, seats: Sequence[str], seed: int | None = None,
             console: Console | None = None, input_func: Callable[[str], str] = input,
             ) -> GameResult:
    """Play one game in the terminal: ``seats`` gives each player's kind (``human`` or a
    bot), ``seed`` the dice and bots, ``input_func`` a person's lines."""
    return play_table(seat(variant, seats, kind=GAME, seed=seed), console, input_func)


def run_match(variant: Rules | str, seats: Sequence[str], length: int,
              stakes: StakeRules | None = None, seed: int | None = None,
              console: Console | None = None, input_func: Callable[[str], str] = input,
              *, crawford: bool = True) -> Match:
    """Play a match to ``length`` points in the terminal; the match (its score and a
    record of every game)."""
    table = seat(variant, seats, kind=MATCH, length=length, stakes=stakes, seed=seed,
                 crawford=crawford)
    play_table(table, console, input_func)
    assert isinstance(table.series, Match)
    return table.series


def run_session(variant: Rules | str, seats: Sequence[str], stake: float = 1,
                stakes: StakeRules | None = None, seed: int | None = None,
                console: Console | None = None, input_func: Callable[[str], str] = input,
                *, games: int | None = None) -> Session:
    """Money games in the terminal at ``stake`` a point: ``games`` games, or (None) as
    many as the person asks for; the session (its ledger and standings)."""
    table = seat(variant, seats, kind=MONEY, stake=stake, stakes=stakes, seed=seed,
                 games=games)
    play_table(table, console, input_func)
    assert isinstance(table.series, Session)
    return table.series
