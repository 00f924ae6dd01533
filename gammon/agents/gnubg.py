"""GNU Backgammon as an opponent, at a chosen ply and noise.

:class:`GnubgAgent` asks a gnubg process for its play. The process runs
:mod:`gammon.agents.gnubg_driver` inside gnubg's embedded Python (``gnubg -q -t -p``)
and answers requests over two pipes; gammon stays the referee (its rules, its dice,
its scoring), gnubg only chooses. Each process (each duel job) starts one gnubg on first
use and keeps it, so several games run in parallel processes side by side. A query
costs gnubg about 10 ms of wall time (it polls its worker threads), almost no CPU.

The noise is gnubg's deterministic noise: for a given position it is always the same,
so games against a noisy gnubg are still reproducible from a seed.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import pty
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from gammon.agents.offered import offered
from gammon.agents.stakes import resolve
from gammon.core.errors import GammonError, InvalidOptionError
from gammon.core.position import Position
from gammon.core.protocol import Rules
from gammon.core.variant import play_leading_to
from gammon.stakes.cube import CubeAction, CubeState, stakes_of

DRIVER = Path(__file__).resolve().parent / "gnubg_driver.py"
#: Our variants gnubg plays, and gnubg's name for each.


class GnubgError(GammonError):
    """gnubg could not be started or did not answer."""


def gnubg_path() -> str | None:
    """The gnubg executable (``$GNUBG``, ``gnubg`` on the PATH, Debian's
    ``/usr/games/gnubg``), or None."""
    for candidate in (os.environ.get("GNUBG"), shutil.which("gnubg"), "/usr/games/gnubg"):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def supports(variant: Rules) -> bool:
    """gnubg plays the standard game: the variants that list it among their bots."""
    return "gnubg" in offered(variant).bots


class GnubgBridge:
    """One gnubg process answering requests (see :mod:`gammon.agents.gnubg_driver`).

    ``terminal``: gnubg starts with a pseudo-terminal for its standard output, which it
    needs to print the results of its rollouts (the ``rollout`` ops); the driver then
    sends that output nowhere."""

    def __init__(self, executable: str | None = None, *, terminal: bool = False) -> None:
        path = executable or gnubg_path()
        if path is None:
            raise GnubgError("gnubg is not installed (apt-get install gnubg, or set $GNUBG)")
        to_gnubg, requests = os.pipe()
        answers, from_gnubg = os.pipe()
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 (closed in close())
        env = dict(os.environ, GAMMON_GNUBG_IN=str(to_gnubg), GAMMON_GNUBG_OUT=str(from_gnubg))
        stdout: int = subprocess.DEVNULL
        self._terminal: int | None = None
        if terminal:  # gnubg prints rollouts' results only to a terminal (isatty)
            self._terminal, stdout = pty.openpty()
            env.update(GAMMON_GNUBG_TERMINAL="1", LC_ALL="C", LANGUAGE="C")
        try:
            self.process = subprocess.Popen(
                [path, "-q", "-t", "-p", str(DRIVER)],
                stdin=subprocess.DEVNULL, stdout=stdout, stderr=self._log,
                pass_fds=(to_gnubg, from_gnubg), env=env, close_fds=True,
            )
        finally:
            os.close(to_gnubg)
            os.close(from_gnubg)
            if terminal:
                os.close(stdout)
        self._requests = os.fdopen(requests, "w")
        self._answers = os.fdopen(answers, "r")
        self.variation = "standard"
        self.pid = os.getpid()

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            self._requests.write(json.dumps(request) + "\n")
            self._requests.flush()
            line = self._answers.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            raise GnubgError(f"gnubg stopped answering: {self._log_tail()}")
        answer = json.loads(line)
        if "error" in answer:
            raise GnubgError(f"gnubg: {answer['error']}")
        return answer

    def _log_tail(self) -> str:
        self._log.seek(0)
        text = self._log.read().decode(errors="replace").strip()
        return text[-500:] or "(no message)"

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self._requests.write(json.dumps({"op": "quit"}) + "\n")
                self._requests.flush()
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        for stream in (self._requests, self._answers):
            with contextlib.suppress(OSError):
                stream.close()
        if self._terminal is not None:
            with contextlib.suppress(OSError):
                os.close(self._terminal)
            self._terminal = None
        self._log.close()


_BRIDGES: dict[bool, GnubgBridge] = {}


def bridge(terminal: bool = False) -> GnubgBridge:
    """This process's gnubg (started on first use; a forked process starts its own);
    ``terminal``: a second one, started on a pseudo-terminal, that can roll out."""
    current = _BRIDGES.get(terminal)
    if current is None or current.pid != os.getpid() or current.process.poll() is not None:
        current = _BRIDGES[terminal] = GnubgBridge(terminal=terminal)
        atexit.register(current.close)
    return current


def to_gnubg(position: Position) -> list[list[int]]:
    """gnubg's board: the side not on roll, then the side on roll, 25 counts each."""
    mover = position.turn
    return [list(position.row(1 - mover)[1:]), list(position.row(mover)[1:])]


def apply_gnubg_move(position: Position, move: list[int]) -> bytes:
    """The board after gnubg's move (``[from, to, ...]`` in the mover's numbering, 25 the
    bar, 0 off), hits included."""
    mover = position.turn
    rows = [list(position.row(p)) for p in range(2)]
    own, opp = rows[mover], rows[1 - mover]
    for i in range(0, len(move) - 1, 2):
        source, dest = move[i], move[i + 1]
        if source <= 0 and dest <= 0:
            break
        own[source] -= 1
        if dest > 0 and opp[25 - dest] == 1:
            opp[25 - dest] = 0
            opp[25] += 1
        own[max(dest, 0)] += 1
    return bytes(rows[0] + rows[1])


class GnubgAgent:
    """GNU Backgammon's play at ``plies`` (0 = its neural net alone) with ``noise``."""

    def __init__(self, variant: Rules, plies: int = 0, noise: float = 0.0,
                 name: str = "gnubg") -> None:
        if not supports(variant):
            raise InvalidOptionError(
                f"the gnubg opponent plays standard backgammon, not {variant.name}"
            )
        if gnubg_path() is None:
            raise InvalidOptionError("gnubg is not installed (apt-get install gnubg)")
        self.variant = variant
        self.plies = plies
        self.noise = noise
        self.name = name

    def choose(self, state: Any) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        stakes = stakes_of(state)
        if stakes is not None and stakes.resignation is None and (
                stakes.preroll or stakes.offer is not None):
            return self.cube_action(stakes)
        answer, state = resolve(state, self)  # resignations by gnubg's chances
        if answer is not None:
            return answer
        legal = state.legal_actions()
        position = state.position
        answer = bridge().ask({
            "op": "move", "board": to_gnubg(position), "dice": list(state.dice),
            "plies": self.plies, "noise": self.noise,
        })
        board = apply_gnubg_move(position, answer["move"])
        play = play_leading_to(legal, Position(board, 2, position.turn))
        if play is None:
            raise GnubgError(f"gnubg's move {answer['move']} is not one of our legal plays")
        return play

    def cube_action(self, state: CubeState) -> Any:
        """gnubg's own cubeful decision at a cube decision of ``state`` (double or roll;
        take, beaver or drop), at the match score and with the cube where it is. gnubg
        counts gammons as its settings say (no Jacoby rule): the duels play without it."""
        offer, player = state.offer, state.current_player
        assert player is not None  # a decision
        answering = offer is not None
        doubler = 1 - player if answering else player
        score = state.score
        owner = -1 if state.cube_owner is None else 0 if state.cube_owner == doubler else 1
        answer = bridge().ask({
            "op": "cube", "board": to_gnubg(state.base.position.with_turn(doubler)),
            "plies": self.plies,
            "match": {"length": score.length,
                      "score": [score.score[doubler], score.score[1 - doubler]]
                      if score.length else [0, 0],
                      "crawford": score.crawford, "owner": owner,
                      "cube": offer.stake if offer is not None else state.cube_value}})
        text = answer["decision"].lower()
        legal = list(state.legal_actions())
        if answering:
            wanted = ([CubeAction.BEAVER] if "beaver" in text else []) + (
                [CubeAction.TAKE] if "take" in text or "beaver" in text else [CubeAction.DROP])
        else:
            wanted = [CubeAction.DOUBLE] if text.startswith(("double", "redouble")) \
                else [CubeAction.ROLL]
        for action in (*wanted, CubeAction.TAKE, CubeAction.ROLL):
            if action in legal:
                return action
        return legal[0]

    def chances(self, boards: np.ndarray, to_move: int) -> tuple[np.ndarray, ...]:
        """Player 0's chance to win and the gammon rates of each player's wins (the
        evaluator interface of :func:`gammon.agents.stakes.chances`), by gnubg."""
        wins, gammon0, gammon1 = [], [], []
        for row in np.atleast_2d(boards):
            position = Position(row.tobytes(), 2, int(to_move))
            answer = bridge().ask({"op": "evaluate", "board": to_gnubg(position),
                                   "plies": self.plies})
            win, wg, wbg, lg, lbg = answer["probs"]
            mine = (wg + wbg) / win if win > 0 else 0.0
            theirs = (lg + lbg) / (1 - win) if win < 1 else 0.0
            if to_move == 0:
                wins.append(win)
                gammon0.append(mine)
                gammon1.append(theirs)
            else:
                wins.append(1 - win)
                gammon0.append(theirs)
                gammon1.append(mine)
        return np.array(wins), np.array(gammon0), np.array(gammon1)

    def probabilities(self, state: Any, plies: int | None = None) -> list[float]:
        """gnubg's cubeless chances for the player on roll at a DECIDE or CHANCE state:
        win, win gammon, win backgammon, lose gammon, lose backgammon."""
        answer = bridge().ask({"op": "evaluate", "board": to_gnubg(state.position),
                               "plies": self.plies if plies is None else plies})
        return answer["probs"]
