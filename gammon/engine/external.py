"""``gammon external``: gammon as GNU Backgammon's external player.

gnubg seats a program over a socket with ``set player 1 external localhost:PORT``: it
connects to the port and, each time that player is to act, writes a FIBS board line
(:mod:`gammon.notation.fibs`; gnubg ends it with a newline and a NUL byte) and reads one
line back:

- the dice rolled: the play, as ``24/18 18/13`` (single moves from the mover's side, 25
  the bar, 0 off; gnubg reads it with its ``ParseMove``), an empty line when the dice
  cannot be played;
- before the roll, when the player may double: ``double`` or ``roll``;
- a double on offer: ``take``, ``drop`` or ``beaver``;
- a line that cannot be read: ``Error (...)`` with the reason, which gnubg prints
  before it stops asking.

gnubg itself answers resignations for its external players and rolls for them when they
may not double.

gnubg 1.07 writes the two scores the other way round from FIBS whenever no double is on
offer (its ``FIBSBoard`` call orders them by ``fTurn ^ fMove``, the board by player):
:func:`from_gnubg` puts them back, which the test of a whole match against gnubg checks
game by game.

The server listens on ``127.0.0.1`` unless told otherwise (the protocol has no
authentication: anyone who reaches the port can ask), serves one connection at a time
until it closes, and keeps listening for the next.
"""

from __future__ import annotations

import socket
import socketserver
from collections.abc import Callable

from gammon.core.errors import GammonError
from gammon.engine.decide import Engine
from gammon.notation.fibs import FIBS_FIELDS, MAX_LINE, parse_fibs_board

__all__ = ["IDLE_SECONDS", "ExternalServer", "from_gnubg", "reply"]

#: A connection with nothing to say for this long is closed.
IDLE_SECONDS = 3600.0


def from_gnubg(text: str) -> str:
    """A board line as gnubg 1.07 writes it to an external player, with the scores put
    where FIBS has them (swapped unless a double is on offer)."""
    fields = text.split(":")
    if len(fields) == FIBS_FIELDS and fields[40].strip() in ("0", ""):
        fields[4], fields[5] = fields[5], fields[4]
    return ":".join(fields)


def reply(engine: Engine, line: bytes) -> str | None:
    """The answer to one line from gnubg (without its line end); None for a line with
    nothing on it (the NUL gnubg sends after its last line), which is not answered."""
    try:
        text = line.replace(b"\0", b"").decode("ascii").strip()
    except UnicodeDecodeError:
        return "Error (a board line is ASCII)"
    if not text:
        return None
    try:
        return engine.answer(parse_fibs_board(from_gnubg(text))).ubgi()
    except GammonError as err:
        return f"Error ({err})"
    except Exception as err:  # noqa: BLE001  (gnubg gets an answer, never a dead socket)
        return f"Error (internal: {type(err).__name__}: {err})"


class _Connection(socketserver.StreamRequestHandler):
    server: ExternalServer

    def handle(self) -> None:
        self.request.settimeout(self.server.idle_seconds)
        try:
            while True:
                line = self.rfile.readline(MAX_LINE + 2)
                if not line:
                    return
                if not line.endswith(b"\n") and len(line) > MAX_LINE:
                    self._send("Error (a board line is at most "
                               f"{MAX_LINE} characters)")
                    return  # the rest of the line cannot be told from the next
                answer = reply(self.server.engine, line.rstrip(b"\r\n"))
                if answer is not None:
                    self.server.on_answer(line, answer)
                    self._send(answer)
        except (TimeoutError, ConnectionError):
            return

    def _send(self, text: str) -> None:
        self.wfile.write(text.encode("ascii") + b"\n")
        self.wfile.flush()


class ExternalServer(socketserver.TCPServer):
    """The external player's socket server: ``serve_forever()`` answers gnubg."""

    allow_reuse_address = True

    def __init__(self, engine: Engine, port: int, host: str = "127.0.0.1", *,
                 idle_seconds: float = IDLE_SECONDS,
                 on_answer: Callable[[bytes, str], None] | None = None) -> None:
        self.engine = engine
        self.idle_seconds = idle_seconds
        self.on_answer = on_answer or (lambda line, answer: None)
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        super().__init__((host, port), _Connection)

    @property
    def port(self) -> int:
        return int(self.server_address[1])
