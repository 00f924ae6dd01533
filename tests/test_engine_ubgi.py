"""``gammon ubgi``: driven as a GUI drives an engine, line by line, with the draft's
commands and with hostile ones (each answered ``sorry``, never a traceback)."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

import gammon
from gammon.agents import make_agent
from gammon.engine.decide import Engine, game_of
from gammon.engine.ubgi import MAX_LINE, read_situation, run
from gammon.notation import situation_from_text
from gammon.notation.movetext import find_play
from gammon.stakes.cube import CubeState

BG = gammon.variant("backgammon")
OPENING = "XGID=-b----E-C---eE---c-e----B-:0:0:1:{dice}:0:0:0:0:10"
#: Upper case on the bar against a closed board of lower case (points 19-24 theirs).
CLOSED_OUT = "XGID=-----FE-C----c-----bbbbbbA:0:0:1:{dice}:0:0:0:0:10"


def converse(lines: list[str | bytes], engine: Engine | None = None) -> tuple[list[str], str]:
    """The engine's answers (stdout lines) and its log (stderr) for ``lines``."""
    data = b"".join(x if isinstance(x, bytes) else x.encode() + b"\n" for x in lines)
    out, err = io.StringIO(), io.StringIO()
    run(engine or Engine(plies=0), io.BytesIO(data), out, err)
    return out.getvalue().splitlines(), err.getvalue()


def ubgi_move_pairs(text: str) -> list[tuple[int, int]]:
    pairs = [tuple(int(x) for x in word.split("/")) for word in text.split()]
    assert all(len(p) == 2 and 0 <= p[0] <= 25 and 0 <= p[1] <= 25 for p in pairs), text
    return pairs  # type: ignore[return-value]


def test_ubgi_handshake_names_the_engine_and_its_options_then_readyok():
    answers, log = converse(["ubgi", "isready"])
    assert answers == [
        "id name gammon", "id author the gammon developers",
        f"id version {gammon.__version__}",
        "option name Bot type string default ",
        "option name Plies type spin default 0 min 0 max 3",
        "readyok", "readyok",
    ]
    assert log == ""


def test_the_best_move_is_the_bots_written_out_in_full():
    engine = Engine(plies=0)
    bot = make_agent("neural:0", BG, seed=0)
    for dice in ("65", "31", "33", "66", "42"):
        xgid = OPENING.format(dice=dice)
        (answer,), _ = converse([xgid], engine)
        state = CubeState.from_situation(situation_from_text(xgid), BG)
        expected = bot.choose(state)
        pairs = ubgi_move_pairs(answer)
        assert "*" not in answer and "(" not in answer
        # One pair a die, each one die long (nothing bears off from the opening).
        assert sorted(a - b for a, b in pairs) == sorted(
            int(d) for d in (dice * 2 if dice[0] == dice[1] else dice))
        assert find_play(state.base, pairs).result == expected.result
    (leap,), _ = converse([OPENING.format(dice="65")], engine)
    assert leap == "24/18 18/13"  # the run, both halves written


def test_a_roll_that_cannot_be_played_is_an_empty_line():
    answers, log = converse([CLOSED_OUT.format(dice="64"), "isready"])
    assert answers == ["", "readyok"] and log == ""


def test_cube_decisions_before_the_roll_and_to_a_double():
    answers, _ = converse([OPENING.format(dice="00"), OPENING.format(dice="D")])
    assert answers == ["roll", "take"]
    # The opponent owns the cube: nothing to decide but the roll.
    owned = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:0:0:0:0:10"
    assert converse([owned])[0] == ["roll"]
    # Upper case bears off both last checkers next roll, whatever it is; lower case
    # cannot finish in one: double, and the double is dropped.
    race = "XGID=-AA----------------bba----:0:0:1:{dice}:0:0:0:0:10"
    assert converse([race.format(dice="00"), race.format(dice="D")])[0] == ["double", "drop"]


def test_a_fibs_board_is_answered_too():
    board = ("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:"
             "0:2:0:1:6:5:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0")
    assert converse([board])[0] == ["24/18 18/13"]


def test_options_change_the_bot_and_bad_ones_are_refused():
    engine = Engine()
    answers, log = converse(["setoption name Bot value heuristic",
                             OPENING.format(dice="31"),
                             "setoption name Bot value nonsense",
                             "setoption name Plies value 9",
                             "setoption name Plies value two",
                             "setoption name Colour value red",
                             "setoption Bot heuristic"], engine)
    assert engine.bot == "heuristic"
    heuristic = make_agent("heuristic", BG, seed=0)
    state = CubeState.from_situation(situation_from_text(OPENING.format(dice="31")), BG)
    assert find_play(state.base, ubgi_move_pairs(answers[0])).result == \
        heuristic.choose(state).result
    assert answers[1:] == ["sorry"] * 5
    assert "unknown agent 'nonsense'" in log and "0 to 3" in log and "Colour" in log


HOSTILE: list[str | bytes] = [
    "", "   ", "hello", "XGID=", "XGID=" + "x" * 40, "XGID=-b----E-C---eE---c-e----B-:0:0:0:00",
    "board:1:2", "board:" + ":".join(["0"] * 52), "position startpos", "go",
    "ubgi2", "UBGI", "\x1b[31m", "stop",
    b"\xff\xfe not utf-8\n", b"XGID=\0\0\0\n", b"x" * (MAX_LINE + 100) + b"\n",
    b"y" * (3 * MAX_LINE),  # no line end at all, then the end of the input
]


def test_hostile_lines_are_answered_sorry_and_the_engine_goes_on():
    lines = [*HOSTILE[:-1], "isready", HOSTILE[-1]]
    answers, log = converse(lines)
    silent = {"", "   ", "stop"}  # blank lines and stop need no answer
    expected = ["sorry"] * sum(1 for x in HOSTILE[:-1] if x not in silent) + ["readyok",
                                                                             "sorry"]
    assert answers == expected
    assert "Traceback" not in log and log.count("sorry:") == len(expected) - 1


def test_a_game_that_is_over_has_nothing_to_decide():
    over = "XGID=-------------------------:0:0:1:52:0:0:0:0:10"
    answers, log = converse([over])
    assert answers == ["sorry"] and "sorry:" in log


def test_the_engine_process_speaks_ubgi_on_its_standard_streams():
    engine = subprocess.Popen([sys.executable, "-m", "gammon", "ubgi", "--plies", "0"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    assert engine.stdin is not None and engine.stdout is not None

    def ask(line: str, answers: int = 1) -> list[str]:
        assert engine.stdin is not None and engine.stdout is not None
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
        return [engine.stdout.readline().rstrip("\n") for _ in range(answers)]

    try:
        hello = ask("ubgi", 6)
        assert hello[0] == "id name gammon" and hello[-1] == "readyok"
        assert ask(OPENING.format(dice="65")) == ["24/18 18/13"]
        assert ask("nonsense") == ["sorry"]
        assert ask("isready") == ["readyok"]
        engine.stdin.write("quit\n")
        engine.stdin.flush()
        assert engine.wait(timeout=30) == 0
    finally:
        engine.kill()
        engine.communicate()


@pytest.mark.parametrize("spec", ["gnubg:0", "pubeval", "random"])
def test_other_bots_answer_through_the_same_engine(spec: str):
    if spec.startswith("gnubg"):
        from gnubg_runner import require_gnubg

        require_gnubg()
    engine = Engine(bot=spec)
    (answer,), log = converse([OPENING.format(dice="42")], engine)
    state = CubeState.from_situation(situation_from_text(OPENING.format(dice="42")), BG)
    assert find_play(state.base, ubgi_move_pairs(answer)).result in {
        a.result for a in state.base.legal_actions()}, log


def test_hypergammon_is_told_by_the_checkers_a_fibs_board_has():
    board = [0] * 26
    board[1] = board[2] = board[3] = -1
    board[22] = board[23] = board[24] = 1
    line = ("board:you:them:9999:0:0:" + ":".join(map(str, board))
            + ":1:6:5:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0")
    situation = read_situation(line)
    rules = game_of(situation)
    assert (rules.name, rules.options()) == ("hypergammon", {"checkers_per_side": 3})
    (answer,), _ = converse([line])
    state = CubeState.from_situation(situation, rules)
    assert find_play(state.base, ubgi_move_pairs(answer)).result in {
        a.result for a in state.base.legal_actions()}
    # Five checkers a side is no game the engine plays.
    board[4], board[21] = -2, 2
    five = ("board:you:them:9999:0:0:" + ":".join(map(str, board))
            + ":1:6:5:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0")
    answers, log = converse([five])
    assert answers == ["sorry"] and "5 checkers a side" in log
