"""The acey-deucey position notation (gammon/notation/acey.py, docs/rules/acey-deucey.md)
and the command line that reads and writes it."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

import gammon
from gammon import InvalidNotationError, InvalidOptionError, Position
from gammon.cli.main import app
from gammon.kernels import acey as K
from gammon.notation import (
    codec_for,
    format_acey,
    format_position,
    parse_acey,
    parse_position,
)

AD = gammon.variant("acey-deucey")
runner = CliRunner()


def rows(x: dict[int, int], o: dict[int, int]) -> list[list[int]]:
    out = []
    for layout in (x, o):
        row = [0] * 26
        for slot, n in layout.items():
            row[slot] = n
        out.append(row)
    return out


def test_start_position():
    assert format_position(AD, AD.start_position()) == "bar:15/bar:15/X"
    assert parse_position(AD, "bar:15/bar:15/X") == AD.start_position()
    assert codec_for(gammon.variant("acey-deucey-restrictive")) is codec_for(AD)


def test_canonical_form_and_round_trip():
    pos = Position.from_checkers(
        rows({25: 2, 21: 1, 13: 4, 6: 5, 0: 3}, {25: 15}), turn=1
    )
    text = "bar:2,21,13:4,6:5,off:3/bar:15/O"
    assert format_acey(AD, pos) == text
    assert parse_acey(AD, text) == pos


@pytest.mark.parametrize(
    "text",
    [
        "bar:2, 21:1, 13:4, 6:5, off:3 / BAR:15 / o",  # spaces, case, explicit :1
        "b:2,21,13:4,6:5,o:3/b:15/1",  # short words, turn as a number
        "6:5,13:4,21,bar:2/bar:15/O",  # any order; off implied
    ],
)
def test_looser_forms_are_read(text):
    pos = parse_position(AD, text)
    assert format_acey(AD, pos) == "bar:2,21,13:4,6:5,off:3/bar:15/O"


def test_defaults_turn_x_and_implied_off():
    pos = parse_position(AD, "6:2,1:3/bar:15")
    assert pos.turn == 0 and pos.off(0) == 10
    assert parse_position(AD, "-/bar:15/O").off(0) == 15


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bar:15", "X's checkers / O's checkers / who moves"),
        ("bar:15/bar:15/X/X", "X's checkers / O's checkers"),
        ("bar:15/bar:15/Z", "should be X or O"),
        ("bar:15/25:15/X", "not a place"),
        ("bar:15/bar:15:2/X", "should be a place and a count"),
        ("bar:15/bar:0/X", "a count is 1 to 15"),
        ("bar:15/bar:16/X", "a count is 1 to 15"),
        ("bar:10,bar:5/bar:15/X", "lists 'bar' twice"),
        ("bar:10,13:6/bar:15/X", "X has 16 checkers"),
        ("20:2,bar:13/5,bar:14/X", "X's 20 and O's 5 are the same point"),
        ("bar:15/bar:10,off:2/X", None),  # O's 12 checkers: the variant refuses
    ],
)
def test_errors_say_what_is_wrong(text, message):
    with pytest.raises((InvalidNotationError, InvalidOptionError)) as caught:
        parse_position(AD, text)
    if message is None:
        assert isinstance(caught.value, InvalidOptionError)
        assert "12 checkers" in str(caught.value)
    else:
        assert isinstance(caught.value, InvalidNotationError)
        assert message in str(caught.value)


def test_every_position_of_random_games_round_trips():
    _, trace = AD.traced_playouts(30, 5, 10_000, 30 * 400)
    for row in trace[:: 7]:
        board = row[K.T_BOARD :].astype(np.int8).tobytes()
        for turn in (0, 1):
            pos = Position(board, 2, turn)
            assert parse_position(AD, format_position(AD, pos)) == pos


# --- the command line ------------------------------------------------------------------


def test_legal_from_the_start():
    result = runner.invoke(app, ["legal", "acey-deucey", "--dice", "21", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["position_id"] == "bar:15/bar:15/X" and data["count"] == 2
    assert {p["move"] for p in data["plays"]} == {"bar/24 bar/23", "bar/22"}
    assert {p["position_id"] for p in data["plays"]} == {
        "bar:13,24,23/bar:15/X", "bar:14,22/bar:15/X"
    }


def test_legal_with_a_position_and_the_home_lock():
    text = "bar:9,24:2,13,6:3/bar:13,20:2/X"
    # In the opening (nine still to enter) the four 4s all enter (AD-ENTER-ALL).
    result = runner.invoke(app, ["legal", "acey", "-p", text, "-d", "44", "--json"])
    assert result.exit_code == 0, result.output
    assert [p["move"] for p in json.loads(result.output)["plays"]] == ["bar/21(4)"]
    # With the option off, the checkers on the board move too, but not those at home.
    free = gammon.variant("acey-deucey", enter_all_first=False)
    result = runner.invoke(app, ["legal", "acey", "-p", text, "-d", "44", "--json",
                                 "-o", "enter_all_first=false"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    state = free.state(parse_position(free, text), (4, 4))
    assert data["count"] == len(state.legal_actions()) == 25
    assert not any("6/" in p["move"] for p in data["plays"])  # the home lock
    for play in data["plays"]:
        parse_position(AD, play["position_id"])


def test_legal_table_batch_and_errors():
    result = runner.invoke(app, ["legal", "acey-deucey", "-d", "66"])
    assert result.exit_code == 0 and "1 legal play for 66 from" in result.output
    assert "bar:15/bar:15/X" in result.output and "bar/19(4)" in result.output
    lines = "bar:15/bar:15/X 21\nbar:15/bar:15/Q 21\n6:2/bar:15/X 65\n"
    result = runner.invoke(app, ["legal", "acey-deucey", "--batch", "-"], input=lines)
    assert result.exit_code == 1
    out = [json.loads(line) for line in result.output.strip().splitlines()]
    assert out[0]["count"] == 2 and "should be X or O" in out[1]["error"]
    assert out[2]["count"] == 1 and out[2]["plays"][0]["move"] == "6/1 6/off"
    result = runner.invoke(app, ["legal", "acey-deucey", "-p", "nonsense", "-d", "21"])
    assert result.exit_code == 2 and "not an acey-deucey position" in result.output
