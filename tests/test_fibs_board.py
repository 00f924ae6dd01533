"""FIBS's board line (gammon.notation.fibs): read as FIBS's page and gnubg read it,
written back the same, and every malformed line refused with its reason."""

from __future__ import annotations

import random

import pytest

import gammon
from gammon.core.errors import InvalidNotationError
from gammon.notation import Situation
from gammon.notation.fibs import format_fibs_board, parse_fibs_board

BG = gammon.variant("backgammon")
#: FIBS's own example on its client page: O (you, positive) moves from 24 to 1.
OPENING = ("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:"
           "2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0")


def fields(line: str) -> list[str]:
    return line.split(":")


def with_field(line: str, index: int, value: object) -> str:
    parts = fields(line)
    parts[index] = str(value)
    return ":".join(parts)


def test_fibs_example_is_the_opening_position_with_you_to_play_six_two():
    s = parse_fibs_board(OPENING)
    assert s.position == BG.start_position().with_turn(0)
    assert s.on_roll == 0 and s.dice == (6, 2)
    assert (s.match_length, s.score, s.cube_value, s.cube_owner) == (3, (0, 0), 1, None)
    assert not s.double_offered and not s.crawford


def test_the_other_colour_and_direction_read_the_same_position():
    # The same board seen by X moving from 1 to 24: counts negated and reversed.
    parts = fields(OPENING)
    board = [-int(x) for x in parts[6:32]][::-1]
    parts[6:32] = map(str, board)
    parts[32] = "-1"  # X, you, on roll
    parts[41], parts[42] = "-1", "1"
    s = parse_fibs_board(":".join(parts))
    assert s.position == parse_fibs_board(OPENING).position
    assert s.on_roll == 0 and s.dice == (6, 2)


def test_the_turn_of_the_opponent_and_the_opponents_dice():
    line = with_field(with_field(with_field(OPENING, 32, -1), 33, 0), 34, 0)
    line = with_field(with_field(line, 35, 5), 36, 3)
    s = parse_fibs_board(line)
    assert s.on_roll == 1 and s.dice == (5, 3)
    assert s.position.row(1) == BG.start_position().row(1)


def test_may_double_flags_give_the_cube_owner_and_unlimited_is_money():
    line = with_field(with_field(OPENING, 3, 9999), 37, 4)
    line = with_field(with_field(line, 38, 1), 39, 0)
    s = parse_fibs_board(line)
    assert s.money and s.cube_value == 4 and s.cube_owner == 0
    s = parse_fibs_board(with_field(with_field(line, 38, 0), 39, 1))
    assert s.cube_owner == 1


def test_a_double_on_offer_is_answered_by_the_other_player():
    line = with_field(with_field(with_field(OPENING, 33, 0), 34, 0), 40, 1)
    line = with_field(with_field(line, 35, 0), 36, 0)
    s = parse_fibs_board(line)
    assert s.double_offered and s.on_roll == 0 and s.turn == 1
    # Neither may double and no flag: FIBS's way of saying the cube was turned.
    s = parse_fibs_board(with_field(with_field(with_field(line, 40, 0), 38, 0), 39, 0))
    assert s.double_offered and s.turn == 1


def test_crawford_until_the_did_crawford_field_says_it_was_played():
    line = with_field(with_field(OPENING, 3, 5), 5, 4)
    assert parse_fibs_board(line).crawford
    assert not parse_fibs_board(with_field(line, 51, 1)).crawford
    both = with_field(line, 4, 4)  # both one away: the Crawford game was played
    assert not parse_fibs_board(both).crawford


def random_situations(count: int, seed: int) -> list[Situation]:
    rng = random.Random(seed)
    found = []
    state = BG.initial_state()
    while len(found) < count:
        if state.is_terminal:
            state = BG.initial_state()
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
            continue
        if not state.position.pips(0) or not state.position.pips(1):
            state = BG.initial_state()
            continue
        length = rng.choice([0, 3, 7])
        score = (rng.randrange(length), rng.randrange(length)) if length else (0, 0)
        owner = rng.choice([None, 0, 1])
        found.append(Situation(state.position, dice=tuple(sorted(state.dice, reverse=True))
                               if rng.random() < 0.7 else None,
                               cube_value=1 if owner is None else rng.choice([2, 4]),
                               cube_owner=owner, score=score, match_length=length))
        state = state.apply(rng.choice(list(state.legal_actions())))
    return found


@pytest.mark.parametrize("you", [0, 1])
def test_a_written_board_reads_back_as_the_same_situation(you: int):
    for s in random_situations(150, seed=you):
        line = format_fibs_board(s, you=you)
        back = parse_fibs_board(line)
        if you == 1:  # the line's "you" is our player 0: the players change places
            assert back.position.row(0) == s.position.row(1)
            assert back.position.row(1) == s.position.row(0)
            assert back.on_roll == 1 - s.on_roll
            assert back.score == s.score[::-1]
        else:
            assert back == s


@pytest.mark.parametrize(("index", "value", "reason"), [
    (0, "bored", "starts with 'board:'"),
    (3, 100, "match length"),
    (4, 3, "your score"),
    (6, "x", "not a whole number"),
    (7, 16, "board index 1"),
    (32, 0, "the game is over"),
    (33, 7, "your first die"),
    (34, 0, "both 0"),
    (37, 0, "cube"),
    (41, 2, "your colour"),
    (42, 0, "your direction"),
    (12, 3, "add up to different numbers"),
    (51, 5, "the Crawford game played"),
])
def test_malformed_boards_are_refused_with_the_reason(index: int, value: object, reason: str):
    with pytest.raises(InvalidNotationError, match=reason):
        parse_fibs_board(with_field(OPENING, index, value))


def test_wrong_field_counts_and_long_lines_are_refused():
    with pytest.raises(InvalidNotationError, match="53 fields"):
        parse_fibs_board(OPENING + ":0")
    with pytest.raises(InvalidNotationError, match="at most 1024"):
        parse_fibs_board("board:" + "x" * 2000)
    with pytest.raises(InvalidNotationError, match="more than the 15"):
        parse_fibs_board(with_field(OPENING, 12, 9))
    with pytest.raises(InvalidNotationError, match="dice are rolled"):
        parse_fibs_board(with_field(OPENING, 40, 1))
    # A NUL after the line end, as gnubg sends it, is not part of the board.
    assert parse_fibs_board("\0" + OPENING + "\n") == parse_fibs_board(OPENING)
