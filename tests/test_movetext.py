"""Move text: gnubg's formatting, reading what people type, and finding the play meant.

The expected strings below are what GNU Backgammon 1.07 prints for the same positions
(checked with ``gnubg.hint``); ``test_matches_gnubg`` repeats that check on random
positions when gnubg is installed.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gammon
from gammon.cli.play import move_text_for
from gammon.core.errors import IllegalPlayError, InvalidNotationError
from gammon.core.play import Move, Play
from gammon.core.position import Position
from gammon.notation.movetext import (
    find_play,
    format_moves,
    format_play,
    legal_play_texts,
    parse_moves,
    parse_paths,
    partial_play,
)

BG = gammon.variant("backgammon")
START = {24: 2, 13: 5, 8: 3, 6: 5}


def state(mine=START, theirs=START, dice=(3, 1), variant=BG):
    return variant.state(Position.from_points([mine, theirs], variant.points), dice)


def texts(s) -> set[str]:
    return {format_play(p) for p in s.legal_actions()}


def random_state(seed: int, variant=BG):
    """A position from a random game, with the player on turn to play a random roll."""
    rng = random.Random(seed)
    s = variant.initial_state()
    for _ in range(rng.randrange(0, 120)):
        if s.is_terminal:
            break
        s = s.apply(s.sample_chance(rng)) if s.is_chance else s.apply(rng.choice(s.legal_actions()))
    if s.is_terminal:
        s = variant.initial_state()
    position = s.position
    if s.is_chance and s.opening:
        position = variant.start_position(rng.randrange(2))
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    return variant.state(position, dice)


def play_of(moves: list[tuple[int, ...]]) -> Play:
    """A play with these moves (source, destination[, hit]); its board does not matter."""
    return Play(tuple(Move(*m) for m in moves), BG.start_position())


# --- formatting ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "expected"),
    [
        ([(8, 5), (6, 5)], "8/5 6/5"),
        ([(6, 5), (8, 5)], "8/5 6/5"),
        ([(13, 7), (13, 8)], "13/8 13/7"),  # same source: higher destination first
        ([(24, 18), (13, 9)], "24/18 13/9"),
        ([(24, 20), (20, 18)], "24/18"),  # one checker: the stop is left out
        ([(20, 18), (24, 20)], "24/18"),
        ([(24, 23, True), (23, 22)], "24/23*/22"),  # ... unless it hit there
        ([(24, 23), (23, 22, True)], "24/22*"),
        ([(25, 22), (13, 11)], "bar/22 13/11"),
        ([(25, 22), (22, 16)], "bar/16"),
        ([(6, 0), (5, 0)], "6/off 5/off"),
        ([(6, 0), (6, 0), (6, 0), (5, 0)], "6/off(3) 5/off"),
        ([(8, 5), (8, 5), (6, 3), (6, 3)], "8/5(2) 6/3(2)"),
        ([(24, 22), (24, 22), (22, 20), (22, 20)], "24/20(2)"),
        ([(6, 4), (6, 4), (4, 2)], "6/2 6/4"),
        ([(13, 11, True), (13, 11)], "13/11*(2)"),
        ([(10, 8, True), (10, 8), (8, 6)], "10/8*/6 10/8"),
        ([(10, 8, True), (10, 8), (8, 6), (8, 6)], "10/8*/6(2)"),
        ([(8, 7), (7, 6), (6, 5), (5, 4)], "8/4"),
        ([], "no move"),
    ],
)
def test_format_follows_gnubg(moves, expected):
    assert format_play(play_of(moves)) == expected


def test_format_moves_with_hits_given_as_points():
    assert format_moves([(24, 23), (23, 22)], hits=[23]) == "24/23*/22"
    assert format_moves([(9, 8), (8, 7)], hits=[], points=12) == "9/7"
    assert format_moves([(13, 10)], points=12) == "bar/10"


@pytest.mark.parametrize(
    ("mine", "theirs", "dice", "expected"),
    [
        (START, START, (3, 1), {"8/5 6/5", "24/23 24/21", "13/9", "6/5 6/3"}),
        (START, START, (6, 4), {"24/18 13/9", "24/14", "8/2 6/2", "13/9 13/7"}),
        (START, START, (6, 5), {"24/13", "13/8 13/7", "13/2", "24/18 13/8"}),
        (START, START, (2, 2), {"13/11(2) 6/4(2)", "24/20(2)", "8/4(2)", "24/22(2) 6/4(2)"}),
        (START, {2: 1, 13: 5, 8: 3, 6: 5, 24: 1}, (2, 1), {"24/23*/21", "24/21", "24/23* 13/11"}),
        ({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {2: 1, 13: 5, 8: 3, 6: 5, 24: 1}, (3, 1),
         {"bar/21", "bar/22 24/23*", "bar/24 13/10"}),
        ({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}, START, (6, 6), {"6/off(3) 5/off"}),
        ({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}, START, (6, 5), {"6/off 5/off"}),
        ({10: 2, 13: 5, 6: 8}, {17: 1, 13: 5, 8: 3, 6: 4, 24: 2}, (2, 2),
         {"10/8*/6(2)", "13/11 10/8*/6 10/8", "10/8*(2) 6/4(2)", "10/8*/2"}),
    ],
)
def test_legal_plays_are_written_as_gnubg_writes_them(mine, theirs, dice, expected):
    assert expected <= texts(state(mine, theirs, dice))


def test_opening_sets():
    assert len(texts(state(dice=(3, 1)))) == 16
    assert texts(state(dice=(6, 5))) == {
        "13/2", "13/7 8/3", "13/8 13/7", "24/13", "24/18 13/8", "24/18 8/3", "8/3 8/2"
    }


def test_no_move_is_written_and_read():
    # On the bar against a closed board: their points 1-6 are our 24-19.
    s = state({25: 1, 13: 5, 8: 4, 6: 5}, {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 13: 3}, (6, 5))
    (only,) = s.legal_actions()
    assert format_play(only) == "no move"
    for text in ("no move", "", "  ", "None", "pass"):
        assert find_play(s, text) == only
    with pytest.raises(IllegalPlayError, match="no legal move"):
        find_play(s, "bar/20")


# --- reading ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        ("24/18 13/11*", [(24, 18), (13, 11)]),
        ("bar/22", [(25, 22)]),
        ("b/22", [(25, 22)]),
        ("25/22", [(25, 22)]),
        ("BAR/22", [(25, 22)]),
        ("6/off", [(6, 0)]),
        ("6/0", [(6, 0)]),
        ("6/o", [(6, 0)]),
        ("8/5(2)", [(8, 5), (8, 5)]),
        ("8/5 (2)", [(8, 5), (8, 5)]),
        ("24/23/22", [(24, 23), (23, 22)]),
        ("24/23*/22", [(24, 23), (23, 22)]),
        ("  24 / 18 ,  13/11  ", [(24, 18), (13, 11)]),
        ("24/18,13/11", [(24, 18), (13, 11)]),
        ("24-18 13-11", [(24, 18), (13, 11)]),
        ("bar-22", [(25, 22)]),
        ("13/11 *", [(13, 11)]),
        ("24/20(2) 13/9*(2)", [(24, 20), (24, 20), (13, 9), (13, 9)]),
        ("no move", []),
        ("", []),
    ],
)
def test_parse_moves(text, pairs):
    assert parse_moves(text) == pairs


def test_parse_paths_keeps_checkers_apart():
    assert parse_paths("24/23/22 8/5(2)") == [[(24, 23), (23, 22)], [(8, 5)], [(8, 5)]]


def test_parse_uses_the_track_length():
    assert parse_moves("bar/10 13/off", points=12) == [(13, 10), (13, 0)]
    with pytest.raises(InvalidNotationError, match="no point 14"):
        parse_moves("14/10", points=12)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("24", "source/destination"),
        ("24/", "source/destination"),
        ("/18", "source/destination"),
        ("24//18", "source/destination"),
        ("24/30", "no point 30"),
        ("18/24", "24 cannot follow 18"),
        ("24/18/20", "20 cannot follow 18"),
        ("off/5", "cannot start from off"),
        ("6/bar", "cannot move to the bar"),
        ("6/off/3", "nothing moves on after bearing off"),
        ("8/5(0)", "1 to 4"),
        ("8/5(5)", "1 to 4"),
        ("x/5", "'x' is not a point"),
        ("8/5)", "not a move"),
        ("bar*/22", "nothing can be hit"),
    ],
)
def test_parse_errors_say_what_is_wrong(text, words):
    with pytest.raises(InvalidNotationError, match=words.replace("(", r"\(")):
        parse_moves(text)


# --- finding the play ------------------------------------------------------------------


def test_find_play_in_any_order_and_spelling():
    s = state(dice=(3, 1))
    play = find_play(s, "8/5 6/5")
    for text in ("6/5 8/5", "8/5,6/5", "6/5  8/5", "8/5 6/5", "8-5 6-5"):
        assert find_play(s, text) == play
    assert find_play(s, [(8, 5), (6, 5)]) == play
    assert find_play(s, "24/20") == find_play(s, "24/23/20") == find_play(s, "24/21/20")
    assert find_play(s, "24/20") == find_play(s, "24/23 23/20")


def test_find_play_entering_from_the_bar():
    s = state({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {2: 1, 13: 5, 8: 3, 6: 5, 24: 1}, (3, 1))
    play = find_play(s, "bar/22 24/23*")
    assert play.hits == 1
    for text in ("b/22 24/23", "25/22 24/23*", "BAR/22 24/23"):
        assert find_play(s, text) == play
    assert format_play(find_play(s, "bar/21")) == "bar/21"


def test_hit_marks_are_optional_and_checked():
    s = state(START, {2: 1, 13: 5, 8: 3, 6: 5, 24: 1}, (2, 1))
    assert find_play(s, "24/23/21") == find_play(s, "24/23*/21")
    assert find_play(s, "24/23/21").hits == 1
    # Not written, the stop on 23 is avoided: 24/22/21 does not hit.
    assert find_play(s, "24/21").hits == 0
    with pytest.raises(IllegalPlayError, match="no opposing checker on 22"):
        find_play(s, "24/22* 8/7")


def test_ambiguous_route_is_refused_with_the_choices():
    s = state(START, {3: 1, 5: 1, 13: 5, 8: 3, 6: 3, 24: 2}, (4, 2))
    with pytest.raises(InvalidNotationError, match=r"ambiguous.*24/22\*/18 or 24/20\*/18"):
        find_play(s, "24/18")
    assert format_play(find_play(s, "24/22/18")) == "24/22*/18"
    assert format_play(find_play(s, "24/20*/18")) == "24/20*/18"


def test_illegal_plays_say_why():
    held_7 = {18: 2, 13: 3, 8: 3, 6: 5, 24: 2}  # their 18 point is our 7
    s = state(START, held_7, (6, 5))
    with pytest.raises(IllegalPlayError, match="a 6 from 13 lands on 7, which the opponent holds"):
        find_play(s, "13/7 13/8")
    with pytest.raises(IllegalPlayError, match="Legal plays include: "):
        find_play(s, "13/7 13/8")
    s = state(dice=(3, 1))
    with pytest.raises(IllegalPlayError, match="13/7 is 6 pips"):
        find_play(s, "13/7")
    with pytest.raises(IllegalPlayError, match="you must play 2 dice"):
        find_play(s, "8/5")
    with pytest.raises(IllegalPlayError, match="no checker on 9"):
        find_play(s, "9/6 8/7")
    with pytest.raises(IllegalPlayError, match="more than your roll"):
        find_play(s, "8/5 6/5 13/10")
    with pytest.raises(IllegalPlayError, match="must move"):
        find_play(s, "no move")
    with pytest.raises(IllegalPlayError, match="too far from home to bear off"):
        find_play(s, "6/off")
    on_bar = state({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, START, (3, 1))
    with pytest.raises(IllegalPlayError, match="bar"):
        find_play(on_bar, "13/10 6/5")


def test_a_refusal_counts_the_checkers_really_there():
    with pytest.raises(IllegalPlayError, match="moves 4 checkers from 8, and you have 3 there"):
        find_play(state(dice=(5, 5)), "8/3(4)")
    acey = gammon.variant("acey-deucey")
    mine = Position.from_points([{17: 1, 6: 14}, {6: 15}])
    with pytest.raises(IllegalPlayError, match="that moves 4 checkers from 17, and you have 1"):
        move_text_for(acey).find_play(acey.state(mine, (5, 5)), "17/12(4)")


def test_only_the_larger_die_when_one_can_be_played():
    # Either die moves the back checker, but not both: their 8 point is our 17.
    s = state({24: 1, 1: 14}, {8: 2, 13: 13}, (6, 1))
    assert texts(s) == {"24/18"}
    with pytest.raises(IllegalPlayError, match=r"must be the larger \(6\)"):
        find_play(s, "24/23")


def test_partial_play_builds_up():
    s = state(dice=(6, 5))
    part = partial_play(s, "13/8")
    assert part.play is None and part.dice == (6,) and part.text == "13/8"
    assert part.position.row(0)[8] == 4 and part.position.row(0)[13] == 4
    whole = partial_play(s, "13/8 8/2")
    assert whole.play == find_play(s, "13/2") and whole.dice == ()
    # A checker may stop where the finished play does not (13/7/2 is the same play).
    assert partial_play(s, "13/7").dice == (5,)


def test_partial_play_shows_hits_on_the_way():
    s = state(START, {24: 2, 13: 5, 8: 3, 6: 4, 5: 1}, (4, 4))  # their 5 is our 20
    part = partial_play(s, "24/16")
    assert part.text == "24/20*/16" and part.dice == (4, 4)
    assert part.position.bar(1) == 1


def test_partial_play_refuses_what_cannot_lead_to_a_legal_play():
    s = state(START, {18: 2, 13: 3, 8: 3, 6: 5, 24: 2}, (6, 5))
    with pytest.raises(IllegalPlayError, match="holds"):
        partial_play(s, "13/7")
    with pytest.raises(IllegalPlayError):
        partial_play(s, "6/off")


def test_legal_play_texts_are_numbered_stably():
    s = state(dice=(6, 5))
    listed = legal_play_texts(s)
    assert [t for t, _ in listed] == [
        "24/18 13/8", "24/18 8/3", "24/13", "13/8 13/7", "13/7 8/3", "13/2", "8/3 8/2"
    ]
    assert {p for _, p in listed} == set(s.legal_actions())


def test_state_without_a_decision_is_refused():
    with pytest.raises(IllegalPlayError, match="chance"):
        find_play(BG.initial_state(), "8/5 6/5")


# --- round trips -----------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), variant=st.sampled_from(["backgammon", "nackgammon",
                                                             "hypergammon"]))
def test_format_parse_find_round_trip(seed, variant):
    rules = gammon.variant(variant)
    s = random_state(seed, rules)
    for play in s.legal_actions():
        text = format_play(play, rules.points)
        assert find_play(s, text) == play, text
        assert find_play(s, parse_moves(text, rules.points)) == play, text
        assert find_play(s, text.upper()) == play, text


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9))
def test_every_play_typed_move_by_move_completes(seed):
    s = random_state(seed)
    plays = list(s.legal_actions())
    for play in random.Random(seed).sample(plays, min(len(plays), 8)):
        steps = [(m.source, m.destination) for m in play.moves]
        for k in range(1, len(steps)):
            part = partial_play(s, steps[:k])
            # A prefix completes nothing, unless it spells out another whole play: with
            # 3-1, typing "2/off" of "2/off 1/off" is the play 2/1/off.
            assert part.play is None or part.play != play
        assert partial_play(s, steps).play == play


# --- gnubg -----------------------------------------------------------------------------


@pytest.mark.gnubg
def test_matches_gnubg():
    from gnubg_runner import from_gnubg, gnubg_legal_plays, require_gnubg, to_gnubg

    require_gnubg()
    states = [random_state(seed) for seed in range(80)]
    jobs = [
        {"board": to_gnubg(s.position), "dice": list(s.dice), "variation": "standard"}
        for s in states
    ]
    results, _ = gnubg_legal_plays(jobs, processes=2)
    for s, result in zip(states, results, strict=True):
        ours = {p.result.board: p for p in s.legal_actions()}
        for entry in result["plays"]:
            play = ours[from_gnubg(entry["board"], s.position)]
            assert format_play(play) == entry["move"]
            assert find_play(s, entry["move"]) == play
