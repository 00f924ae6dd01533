"""The Acedrex position notation (docs/rules/acedrex.md, *Position notation*)."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

import gammon
from gammon.cli.main import app
from gammon.core.errors import InvalidNotationError
from gammon.notation.acedrex import START, format_state, parse_state
from gammon.variants.acedrex import MOVE, ROLL, Acedrex, random_action

ACE: Acedrex = gammon.variant("acedrex")  # type: ignore[assignment]
runner = CliRunner()


def test_start_position_round_trips():
    state = parse_state(START)
    assert format_state(state) == START
    assert state.stage == ROLL and state.turn == 0
    assert format_state(ACE.initial_state()) == START


def test_fields_turn_forms_and_defaults():
    state = parse_state("2,BR,6/9/9/9 B12 - - -/-/-/-")
    assert state.stage == MOVE and state.die == 12 and state.left == 12 and state.parts == 0
    state = parse_state("B,B,7/9/9/9 B12-5 - - -/-/-/-")
    assert state.left == 5 and state.parts == 1
    assert format_state(state) == "B,B,7/9/9/9 B12-5 - - -/-/-/-"
    full = "B,8/R,8/9/9 R7 BR R Y/-/-/- OY 3,-1,-1,-1 12"
    state = parse_state(full)
    assert format_state(state) == full
    assert state.out == (False, False, True, True) and state.money == (3, -1, -1, -1)
    assert state.turns == 12 and state.hands == ((1,), (10,), (), ()) and state.jackpot == (11,)
    # Defaults are left out when written.
    assert format_state(parse_state("9/9/9/9 B - - -/-/-/- - 0,0,0,0 0")) == \
        "9/9/9/9 B - - -/-/-/-"


def test_slots_runs_stacks_and_taps():
    state = parse_state("RyBO,8/2,b,6/9/9 B - - -/-/-/-")
    assert [len(s) for s in state.ring[:1]] == [4]
    # Blue is to roll, so Blue's pieces are untapped; Yellow's tap stays.
    assert format_state(state).split()[0] == "RyBO,8/2,B,6/9/9"
    assert parse_state("1,1,1,1,1,1,1,1,1/9/9/9 B - - -/-/-/-") == parse_state(
        "9/9/9/9 B - - -/-/-/-"
    )


def test_jackpot_keeps_its_order_hands_and_captures_sorted():
    state = parse_state("9/9/9/9 B OB YRB OR/-/-/B")
    assert [p // 9 for p in state.jackpot] == [3, 1, 0]
    assert format_state(state) == "9/9/9/9 B BO YRB RO/-/-/B"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("9/9/9/9 B - -", "5 to 8 fields"),
        ("9/9/9 B - - -/-/-/-", "4 territories"),
        ("B,8,1/9/9/9 B - - -/-/-/-", "covers 10 slots"),
        ("9,B/9/9/9 B - - -/-/-/-", "over 9 slots"),
        ("B,7/9/9/9 B - - -/-/-/-", "covers 8 slots"),
        ("0,9/9/9/9 B - - -/-/-/-", "1 to 9"),
        ("X,8/9/9/9 B - - -/-/-/-", "pieces are B, R, O, Y"),
        ("BBBBBBBBBB,8/9/9/9 B - - -/-/-/-", "more than 9 pieces of B"),
        ("9/9/9/9 Z - - -/-/-/-", "turn 'Z'"),
        ("9/9/9/9 B5-5 - - -/-/-/-", "less than the die"),
        ("9/9/9/9 B21 - - -/-/-/-", "1 to 20"),
        ("9/9/9/9 B b - -/-/-/-", "upper-case"),
        ("9/9/9/9 B - RRRR -/-/-/-", "3 places"),
        ("9/9/9/9 B - - B/-/-/-", "own pieces"),
        ("9/9/9/9 B - - -/-/-", "4 groups"),
        ("9/9/9/9 B - - -/-/-/- B", "cannot be on turn"),
        ("9/9/9/9 B - - -/-/-/- RR", "distinct"),
        ("9/R,8/9/9 B - - -/-/-/- R", "resigned"),
        ("9/9/9/9 B - - -/-/-/- - 1,0,0,0", "sum to zero"),
        ("9/9/9/9 B - - -/-/-/- - 0,0,0,0 x", "whole number"),
        ("9/9/9/9 B - - -/-/-/- ROY", "two players"),
        ("RB,8/9/9/9 B7-3 - - -/-/-/-", "no piece can use"),
    ],
)
def test_errors_say_what_is_wrong(text, message):
    with pytest.raises(InvalidNotationError, match=message):
        parse_state(text)


def test_round_trip_through_random_games():
    """Every position met at a roll or a move decision is written and read back to the
    same text, with the same legal actions."""
    rng = random.Random(11)
    checked = 0
    for _ in range(6):
        state = ACE.initial_state()
        while not state.is_terminal:
            if state.stage in (ROLL, MOVE):
                text = format_state(state)
                again = parse_state(text)
                assert format_state(again) == text
                if state.stage == MOVE:
                    assert [str(a) for a in again.legal_actions()] == \
                        [str(a) for a in state.legal_actions()]
                checked += 1
            if state.is_chance:
                state = state.apply(state.sample_chance(rng))
            else:
                state = state.apply(random_action(state, rng, 0.002))
    assert checked > 500


# --- gammon legal acedrex ------------------------------------------------------------


def test_cli_legal_json_from_the_start():
    result = runner.invoke(app, ["legal", "acedrex", "--dice", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    # B1-B8 each 1, 2 or 3 (B8+3 charges Y1 with the whole die), B9 to the jackpot or
    # charging Y2, and resign.
    assert data["count"] == 8 * 3 + 2 + 1
    actions = {a["action"]: a for a in data["actions"]}
    assert actions["B1+3>B4"]["next"] == "roll"
    assert actions["B1+1>B2"]["position"].split()[1] == "B3-2"
    assert "resign" in actions


def test_cli_legal_position_table_and_errors():
    position = "B,B,5,R,1/9/9/9 B7 - - -/-/-/-"
    result = runner.invoke(app, ["legal", "acedrex", "--position", position])
    assert result.exit_code == 0, result.output
    assert "B1+7>B8*" in result.output
    result = runner.invoke(app, ["legal", "acedrex", "--position", position, "--dice", "4"])
    assert result.exit_code == 2 and "already has a die" in result.output
    result = runner.invoke(app, ["legal", "acedrex", "--dice", "31x"])
    assert result.exit_code == 2 and "one D20" in result.output
    result = runner.invoke(app, ["legal", "acedrex"])
    assert result.exit_code == 2 and "--dice" in result.output
    result = runner.invoke(app, ["legal", "acedrex", "--position", "nonsense", "--dice", "4"])
    assert result.exit_code == 2 and "fields" in result.output


def test_cli_legal_batch_one_json_line_each():
    lines = "# positions with their die\nB,8/9/9/9 B2 - - -/-/-/-\n\nbad line\n"
    result = runner.invoke(app, ["legal", "acedrex", "--batch", "-"], input=lines)
    assert result.exit_code == 1
    out = [json.loads(line) for line in result.output.strip().splitlines()]
    assert out[0]["count"] == 3 and out[1]["line"] == 4 and "error" in out[1]
