"""Nardy notation (gammon/notation/nardy.py, docs/rules/long-nardy.md "Position
notation"): its grammar, round trips, errors, and the command line reading it."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import gammon
from gammon import InvalidNotationError, Position
from gammon.cli.main import app
from gammon.notation import format_nardy, format_position, parse_nardy, parse_position

LN = gammon.variant("long-nardy")
START = "o...........O...........:0"
GRAMMAR = re.compile(r"[.a-oA-O]{24}:[01]")


@st.composite
def nardy_positions(draw) -> Position:
    """Any position Long Nardy allows: each point empty or one side's, up to 15 a side."""
    rows = [[0] * 26, [0] * 26]
    left = [15, 15]
    for point in draw(st.permutations(range(1, 25))):
        side = draw(st.sampled_from([None, 0, 1]))
        if side is None or left[side] == 0:
            continue
        count = draw(st.integers(1, left[side]))
        left[side] -= count
        slot = point if side == 0 else LN.shared_slot(0, point, 1)
        rows[side][slot] = count
    rows[0][0], rows[1][0] = left
    return Position.from_checkers(rows, draw(st.sampled_from([0, 1])))


def test_start_position_text():
    assert format_position(LN, LN.start_position()) == START
    assert parse_position(LN, START) == LN.start_position()
    assert parse_position(LN, "  o...........O...........:1 ") == LN.start_position(1)


def test_cells_run_along_player_zeros_way_from_its_head():
    # Player 0: 3 on its 24 (the head), 2 on its 20, 1 on its 2; player 1: 14 on its head
    # (player 0's 12) and 1 on its 13 (player 0's 1).
    pos = Position.from_points([{24: 3, 20: 2, 2: 1, 0: 9}, {24: 14, 13: 1}], turn=1)
    text = format_nardy(LN, pos)
    assert text == "c...b.......N.........aA:1"
    assert text[0] == "c" and text[12] == "N" and text[22] == "a" and text[23] == "A"
    assert parse_nardy(LN, text) == pos


@settings(max_examples=150, deadline=None)
@given(nardy_positions())
def test_round_trip_from_positions(pos):
    text = format_position(LN, pos)
    assert GRAMMAR.fullmatch(text)
    assert parse_position(LN, text) == pos


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=".abcdefghijklmnoABCDEFGHIJKLMNO", min_size=24, max_size=24),
       st.sampled_from("01"))
def test_round_trip_from_text(board, turn):
    text = f"{board}:{turn}"
    mine = sum(".abcdefghijklmno".index(c) for c in board if c.islower() or c == ".")
    theirs = sum(".ABCDEFGHIJKLMNO".index(c) for c in board if c.isupper() or c == ".")
    if mine > 15 or theirs > 15:
        with pytest.raises(InvalidNotationError, match="checkers on the board"):
            parse_nardy(LN, text)
        return
    assert format_nardy(LN, parse_position(LN, text)) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "write 24 points, a colon and the player to move"),
        ("o...........O...........", "write 24 points, a colon"),
        ("o...........O...........:2", "must be 0 or 1, not '2'"),
        ("o...........O...........:", "must be 0 or 1, not ''"),
        ("o...........O..........:0", "needs 24 characters.*not 23"),
        ("o...........O............:0", "not 25"),
        ("o...........O.....x.....:0", r"character 19 \('x', player 0's point 6\)"),
        ("o...........O.....-.....:0", "must be '.', a-o"),
        ("o...........O.....a.....:0", "player 0 has 16 checkers on the board"),
        ("o..........BO...........:1", "player 1 has 17 checkers"),
        ("4HPwATDgc/ABMA", "GNU ID"),
        ("4HPwATDgc/ABMA:cAkAAAAAAAAA", "GNU ID"),
    ],
)
def test_bad_strings_are_explained(text, message):
    with pytest.raises(InvalidNotationError, match=message):
        parse_position(LN, text)


def test_positions_it_cannot_write_are_refused():
    shared = Position.from_points([{1: 1, 0: 14}, {13: 1, 0: 14}])
    with pytest.raises(InvalidNotationError, match="both players"):
        format_nardy(LN, shared)
    bar = Position.from_points([{25: 1, 0: 14}, {0: 15}])
    with pytest.raises(InvalidNotationError, match="bar"):
        format_nardy(LN, bar)


def test_cli_legal_reads_and_writes_nardy_notation():
    runner = CliRunner()
    result = runner.invoke(app, ["legal", "long-nardy", "--dice", "33", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["position_id"] == START and data["count"] == 2
    assert {p["move"] for p in data["plays"]} == {"24/18(2)", "24/15 24/21"}
    after = next(p["position_id"] for p in data["plays"] if p["move"] == "24/18(2)")
    assert after == "m.....b.....O...........:0"
    # The text a play leads to is read back, with the other player to move.
    second = after[:-1] + "1"
    result = runner.invoke(app, ["legal", "long", "-p", second, "-d", "66", "--json"])
    assert result.exit_code == 0, result.output
    assert [p["move"] for p in json.loads(result.output)["plays"]] == ["24/18(2)"]
    result = runner.invoke(app, ["legal", "long-nardy", "-p", "oops:0", "-d", "31"])
    assert result.exit_code == 2 and "24 characters" in result.output


def test_caucasian_positions_are_gnu_ids():
    cau = gammon.variant("caucasian")
    assert format_position(cau, cau.start_position()) == "4HPwATDgc/ABMA"
    assert parse_position(cau, "4HPwATDgc/ABMA") == cau.start_position()
