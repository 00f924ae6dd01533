"""``gammon external``: Debian's gnubg seats gammon as its external player and plays a
whole match against it; every answer gnubg got is the move or cube action its match
file records, every move is legal, and the scores gammon read are the match's."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from gnubg_runner import require_gnubg

from gammon.engine.decide import Engine
from gammon.engine.external import ExternalServer, from_gnubg, reply
from gammon.notation.fibs import parse_fibs_board
from gammon.notation.mat import read_match, replay_match
from gammon.notation.movetext import find_play
from gammon.stakes.cube import CubeAction

pytestmark = pytest.mark.gnubg


def gnubg_match(port: int, length: int, seed: int, mat: Path) -> None:
    """gnubg (0-ply, player 0) plays a match against the external player 1 on ``port``."""
    commands = "\n".join([
        f"set seed {seed}", "set automatic game on",
        "set player 0 gnubg", "set player 0 chequerplay evaluation plies 0",
        "set player 0 cubedecision evaluation plies 0",
        f"set player 1 external localhost:{port}",
        f"new match {length}", f"export match mat {mat}", "",
    ])
    gnubg = require_gnubg()
    subprocess.run([str(gnubg), "-q", "-t"], input=commands.encode(), timeout=240,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)


@pytest.fixture(scope="module")
def external() -> tuple[ExternalServer, list[tuple[str, str]]]:
    answers: list[tuple[str, str]] = []
    engine = Engine(bot="neural:0")
    server = ExternalServer(engine, 0, on_answer=lambda line, answer: answers.append(
        (line.decode().strip("\0\r\n"), answer)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server, answers
    server.shutdown()
    server.server_close()


def decisions_of_player_two(records: list) -> list[tuple[Any, Any]]:
    """Each decision of player 2 (the external player) in the replayed games but the
    rolls, which a match file does not record: the state before it and what was done."""
    found = []
    for record in records:
        state = record.start
        for step in record.taken():
            if not state.is_chance and state.current_player == 1 and \
                    step is not CubeAction.ROLL:
                found.append((state, step))
            state = state.apply(step)
    return found


@pytest.mark.parametrize("seed", [3, 11])
def test_gnubg_plays_a_whole_three_point_match_against_gammon(external, tmp_path, seed):
    server, answers = external
    answers.clear()
    mat = tmp_path / "match.mat"
    gnubg_match(server.port, 3, seed, mat)
    text = mat.read_text()
    match = read_match(text)
    records = replay_match(match)  # every move legal, every game's result right
    assert len(records) == len(match.games) >= 1
    last = records[-1].state
    final = [s + (int(last.returns()[p]) if last.winner == p else 0)
             for p, s in enumerate(match.games[-1].score)]
    assert max(final) >= 3  # the match was played to its end
    # Every answer gnubg asked for (but "roll", which the file does not record) is in
    # the file in that order; the played moves as written there.
    sent = [answer for _, answer in answers if answer != "roll"]
    done = decisions_of_player_two(records)
    assert len(sent) == len(done)
    for answer, (state, step) in zip(sent, done, strict=True):
        if isinstance(step, CubeAction):
            assert answer == step.value
        else:
            pairs = [tuple(map(int, m.split("/"))) for m in answer.split()]
            assert find_play(state.base, pairs).result == step.result, answer
    # The scores gammon read from each board are the match's at that game (gnubg writes
    # them the other way round from FIBS when no double is on offer).
    scores = {tuple(g.score) for g in match.games}
    for line, _ in answers:
        situation = parse_fibs_board(from_gnubg(line))
        mine, theirs = situation.score
        assert (theirs, mine) in scores  # the .mat lists player 1 (gnubg) first


def test_a_malformed_board_is_answered_with_an_error_gnubg_prints():
    engine = Engine(bot="heuristic")
    assert reply(engine, b"board:1:2") == ("Error (a FIBS board has 53 fields separated by "
                                           "':', this one 3)")
    assert reply(engine, b"\xff") == "Error (a board line is ASCII)"
    assert reply(engine, b"\0") is None  # gnubg's NUL after its last line


def test_the_command_listens_and_answers_over_the_socket(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = subprocess.Popen([sys.executable, "-m", "gammon", "external", "--port",
                                str(port), "--bot", "heuristic"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                client = socket.create_connection(("127.0.0.1", port), timeout=30)
                break
            except ConnectionRefusedError:
                assert time.monotonic() < deadline and command.poll() is None
                time.sleep(0.2)
        with client:
            board = ("board:gnubg:gammon:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:"
                     "0:0:0:0:2:0:1:6:5:6:5:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1")
            client.sendall(board.encode() + b"\n\0" + b"nonsense\n\0")
            reader = client.makefile("rb")
            first, second = reader.readline(), reader.readline()
        assert first.strip() and b"/" in first
        assert second.startswith(b"Error (a FIBS board starts with 'board:'")
    finally:
        command.terminate()
        out, err = command.communicate(timeout=30)
    assert f"127.0.0.1:{port}" in out and "Traceback" not in err
