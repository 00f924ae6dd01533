"""``gammon ubgi``: the Universal Backgammon Interface (draft 0.01) on standard input and
output.

A GUI starts the engine and writes one command a line; the engine answers on standard
output and writes its reasons for a ``sorry`` to standard error (the GUI's log):

``ubgi``
    ``id name gammon``, ``id author ...``, ``id version ...``, one ``option`` line for
    each engine option, then ``readyok`` once the bot is loaded.
*a position* (an XGID, ``XGID=`` optional, or a FIBS board ``board:...``; a GNU ID too)
    the best action: the play of the dice, every single move written out as
    ``from/to`` from the mover's side (25 the bar, 0 off: ``24/18 18/13``,
    ``13/10 13/10 8/5 8/5``, no ``*``), an empty line when the dice cannot be played;
    before the roll ``double`` or ``roll``; to a double ``take``, ``drop`` or ``beaver``.
``stop``, ``quit``
    a decision takes at most a second or two and is answered before the next command
    is read, so ``stop`` has nothing to stop; ``quit`` ends the engine.
anything else, or a position that cannot be read or has nothing to decide
    ``sorry``.

Where the draft is silent gammon does what UCI engines do:

- ``isready`` is answered ``readyok``;
- the options are listed after the ids as ``option name Bot type string default ...``
  and ``option name Plies type spin default 2 min 0 max 3``, and set with
  ``setoption name Bot value neural:1`` (any bot of ``gammon bots``; empty: each game's
  leading bot) or ``setoption name Plies value 1``, silently when it works;
- a position sent before ``ubgi`` is answered all the same, the bot loading first;
- commands are case-sensitive words as in the draft; a line longer than 4,096
  characters or not UTF-8 is answered ``sorry``, and nothing the GUI sends ends the
  engine but ``quit`` or the end of its input.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import BinaryIO, TextIO

from gammon import __version__
from gammon.core.errors import GammonError
from gammon.core.variant import track_variant
from gammon.engine.decide import MAX_PLIES, Engine
from gammon.notation.fibs import parse_fibs_board
from gammon.notation.situation import Situation, situation_from_text

__all__ = ["AUTHOR", "MAX_LINE", "NAME", "UbgiEngine", "read_situation", "run"]

NAME = "gammon"
AUTHOR = "the gammon developers"
#: The longest command line read.
MAX_LINE = 4096


def read_situation(text: str) -> Situation:
    """The situation a position line gives: a FIBS board, an XGID or a GNU ID."""
    if text.startswith("board:"):
        return parse_fibs_board(text)
    return situation_from_text(text)


class UbgiEngine:
    """The protocol's state: one engine, its options, and what to answer each line."""

    def __init__(self, engine: Engine, say: Callable[[str], None],
                 log: Callable[[str], None]) -> None:
        self.engine = engine
        self.say = say
        self.log = log
        self.quit = False

    def sorry(self, why: str) -> None:
        self.log(f"sorry: {why}")
        self.say("sorry")

    def handle(self, line: str) -> None:
        """Answer one command line (without its line end)."""
        command = line.strip()
        if not command:
            return
        word = command.split()[0]
        if word == "ubgi":
            self.hello()
        elif word == "isready":
            self.say("readyok")
        elif word == "quit":
            self.quit = True
        elif word == "stop":
            pass  # answers are given before the next command is read
        elif word == "setoption":
            self.set_option(command)
        else:
            self.position(command)

    def hello(self) -> None:
        self.say(f"id name {NAME}")
        self.say(f"id author {AUTHOR}")
        self.say(f"id version {__version__}")
        self.say(f"option name Bot type string default {self.engine.bot or ''}")
        plies = self.engine.plies_for(track_variant("backgammon"))
        self.say(f"option name Plies type spin default {plies or 0} min 0 max {MAX_PLIES}")
        try:
            self.engine.prepare()
        except GammonError as err:
            self.sorry(f"the engine could not start: {err}")
            return
        self.say("readyok")

    def set_option(self, command: str) -> None:
        words = command.split()
        if len(words) < 3 or words[1] != "name" or "value" not in words[3:]:
            self.sorry("setoption name NAME value VALUE (the options: Bot, Plies)")
            return
        at = words.index("value", 3)
        name, value = " ".join(words[2:at]), " ".join(words[at + 1:])
        try:
            if name.lower() == "bot":
                self.engine.configure(bot=value)
            elif name.lower() == "plies":
                if not value.isdigit():
                    raise GammonError(f"Plies is a whole number 0 to {MAX_PLIES}, "
                                      f"not {value[:20]!r}")
                self.engine.configure(plies=int(value))
            else:
                self.sorry(f"no option {name[:40]!r}; the options: Bot, Plies")
        except GammonError as err:
            self.sorry(str(err))

    def position(self, command: str) -> None:
        try:
            situation = read_situation(command)
        except GammonError:
            self.sorry(f"not a command or a position: {command[:60]!r} (the commands: "
                       "ubgi, isready, setoption, stop, quit, or an XGID or FIBS board)")
            return
        try:
            answer = self.engine.answer(situation)
        except GammonError as err:
            self.sorry(str(err))
            return
        self.say(answer.ubgi())


def next_line(stream: BinaryIO) -> tuple[bytes, bool] | None:
    """The next line without its end and whether it was too long (then its rest is
    skipped, never held), or None at the end of the input."""
    line = stream.readline(MAX_LINE + 2)
    if not line:
        return None
    if line.endswith(b"\n") or len(line) < MAX_LINE + 2:
        body = line.rstrip(b"\r\n")
        return body, len(body) > MAX_LINE
    while True:
        rest = stream.readline(MAX_LINE)
        if not rest or rest.endswith(b"\n"):
            return b"", True


def run(engine: Engine, stdin: BinaryIO | None = None, stdout: TextIO | None = None,
        stderr: TextIO | None = None) -> None:
    """Speak UBGI until ``quit`` or the end of the input."""
    source = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    def log(text: str) -> None:
        err.write(text + "\n")
        err.flush()

    protocol = UbgiEngine(engine, say, log)
    while not protocol.quit:
        read = next_line(source)
        if read is None:
            return
        raw, too_long = read
        if too_long:
            protocol.sorry(f"a line longer than {MAX_LINE} characters")
            continue
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            protocol.sorry("a line that is not UTF-8")
            continue
        try:
            protocol.handle(line.replace("\0", ""))
        except Exception as error:  # noqa: BLE001  (a GUI gets an answer, never a traceback)
            protocol.sorry(f"internal error ({type(error).__name__}: {error})")
