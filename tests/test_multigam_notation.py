"""Multi-Gam positions and moves as text (gammon.notation.multigam)."""

from __future__ import annotations

import random

import pytest

import gammon
from gammon import IllegalPlayError, InvalidNotationError, InvalidOptionError, Position
from gammon.notation import codec_for, format_position, parse_position
from gammon.notation import multigam as mgn

MG = gammon.variant("multi-gam")


def board(text: str) -> Position:
    return parse_position(MG, text)


def random_positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = MG.initial_state()
        while not state.is_terminal:
            if state.is_chance:
                state = state.apply(state.sample_chance(rng))
            else:
                found.append(state.position)
                plays = state.legal_actions()
                state = state.apply(plays[rng.randrange(len(plays))])
        found.append(state.position)
    return found


# --- positions ---------------------------------------------------------------------------


def test_mg_notation_start_and_grammar():
    assert format_position(MG, MG.start_position()) == "00000/00000/00000/00000:0"
    assert codec_for(MG) is mgn.CODEC and "00000/00000/00000/00000:0" in mgn.CODEC.name
    position = board("b1237/o6ooo/00055/44444:3")
    assert position.turn == 3
    # Point p is slot 7 - p; the BAR slot 7, OFF slot 0.
    assert position.row(0) == (1, 0, 0, 0, 1, 1, 1, 1)
    assert position.row(1) == (4, 1, 0, 0, 0, 0, 0, 0)
    assert format_position(MG, position) == "01237/67777/00055/44444:3"
    # Any order, any case, the turn left out (player 0), spaces around the whole.
    assert board("  73210/77776/55000/44444 ") == position.with_turn(0)
    assert board("BBBBB/bbbbb/00000/0b0B0") == MG.start_position()


def test_mg_notation_round_trips_positions_of_random_games():
    for position in random_positions(400, 1):
        text = format_position(MG, position)
        assert ":" in text and " " not in text
        assert board(text) == position


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("00000/00000/00000", "write 4 players"),
        ("0000/00000/00000/00000:0", "player 0 has 4 checkers"),
        ("000000/00000/00000/00000", "player 0 has 6 checkers"),
        ("0000x/00000/00000/00000", "'x' is not a checker"),
        ("00008/00000/00000/00000", "'8' is not a checker"),
        ("00000/00000/00000/00000:4", "the turn after ':' is a player, 0 to 3"),
        ("00000/00000/00000/00000:x", "the turn"),
    ],
)
def test_mg_notation_errors_say_what_to_write(text, message):
    with pytest.raises(InvalidNotationError, match=message):
        board(text)


def test_mg_notation_checks_the_rules_of_the_board():
    with pytest.raises(InvalidOptionError, match="point 3 holds checkers of players 0 and 1"):
        board("30000/30000/00000/00000")


# --- moves -------------------------------------------------------------------------------


def test_moves_are_written_on_the_boards_numbers():
    state = MG.state(board("03777/00000/00000/00000:0"), (6, 1))
    texts = [text for text, _ in mgn.legal_play_texts(state)]
    # The snipe (bar/6/off or bar/1/off: one checker all the way) and bar/6 3/4.
    assert texts == ["bar/6 3/4", "bar/off"]
    hit = MG.state(board("17777/37777/00000/00000"), (2, 1))
    assert {text for text, _ in mgn.legal_play_texts(hit)} == {"1/3*/4", "1/4"}
    double = MG.state(MG.start_position(), (3, 3))
    assert "bar/3(4)" in {text for text, _ in mgn.legal_play_texts(double)}
    none = MG.state(board("00777/11777/22777/33777"), (3, 3))
    assert [text for text, _ in mgn.legal_play_texts(none)] == ["no move"]


def test_move_text_is_read_on_the_boards_numbers():
    parsed = mgn.parse("bar/3 2/5* 4/off")
    assert parsed.paths == (((7, 4),), ((5, 2),), ((3, 0),)) and parsed.starred == {2}
    assert mgn.parse_moves("0/3, B/1 4/7") == [(7, 4), (7, 6), (3, 0)]
    assert mgn.parse_paths("bar/6/off 3/5(2)") == [[(7, 1), (1, 0)], [(4, 2)], [(4, 2)]]
    assert mgn.parse_moves("no move") == []
    for bad, message in [
        ("5/3", "checkers move up, .* so 3 cannot follow 5"),
        ("off/3", "cannot start from off"),
        ("3/bar", "cannot move to the bar"),
        ("3/9", "'9' is not a point"),
        ("2/5(5)", "repeated 1 to 4 times"),
        ("bar/0*", "nothing can be hit"),
        ("25", "is not a move"),
    ]:
        with pytest.raises(InvalidNotationError, match=message):
            mgn.parse(bad)


def test_find_play_by_text_and_reasons_on_the_boards_numbers():
    state = MG.state(board("03777/00000/00000/00000:0"), (6, 1))
    snipe = mgn.find_play(state, "bar/6/off")
    assert snipe.result.off(0) == 4 and mgn.find_play(state, "bar/1/off") == snipe
    assert mgn.find_play(state, "bar/6 3/4") == mgn.find_play(state, "3/4 b/6")
    with pytest.raises(IllegalPlayError, match="3/off.*none further back.*Legal plays include: "
                       "bar/6 3/4, bar/off"):
        mgn.find_play(state, "3/off bar/1")
    with pytest.raises(IllegalPlayError, match="you have no checker on point 5"):
        mgn.find_play(state, "5/6")
    with pytest.raises(IllegalPlayError, match="no opposing checker on point 4 to hit"):
        mgn.find_play(state, "3/4*")
    held = MG.state(board("17777/44777/00000/00000"), (3, 1))
    with pytest.raises(IllegalPlayError, match="point 4 is held by player 1"):
        mgn.find_play(held, "1/4")
    with pytest.raises(IllegalPlayError, match="you must play 2 dice"):
        mgn.find_play(MG.state(MG.start_position(), (2, 1)), "bar/2")


def test_partial_play_moves_typed_one_at_a_time():
    state = MG.state(board("03777/00000/00000/00000:0"), (6, 1))
    first = mgn.partial_play(state, "bar/6")
    assert first.text == "bar/6" and first.dice == (1,) and first.play is None
    both = mgn.partial_play(state, "6/off", mgn.parse_moves("bar/6"))
    assert both.play is not None and both.play.result.off(0) == 4
    with pytest.raises(IllegalPlayError, match="after bar/6, 3/off is not legal"):
        mgn.partial_play(state, "3/off", mgn.parse_moves("bar/6"))
