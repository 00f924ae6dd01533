"""GNU Position ID, GNU Match ID and XGID: round trips, known values, malformed input."""

from __future__ import annotations

import base64

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import gammon
from gammon.core.errors import InvalidNotationError
from gammon.core.position import Position
from gammon.notation import (
    GameStatus,
    MatchInfo,
    Resignation,
    Situation,
    format_xgid,
    match_id,
    parse_match_id,
    parse_position_id,
    parse_xgid,
    position_id,
    situation_from_text,
)
from gammon.notation.gnuid import check_board

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"

# --------------------------------------------------------------------------- strategies


def _closed_both_bars(rows: list[list[int]]) -> bool:
    return all(row[25] for row in rows) and all(
        all(row[p] >= 2 for p in range(1, 7)) for row in rows
    )


@st.composite
def positions(draw: st.DrawFn, checkers: int = 15) -> Position:
    """15 checkers each over off / points / bar, no point held by both players."""
    rows = [[0] * 26, [0] * 26]
    for slot in draw(st.lists(st.integers(0, 25), min_size=checkers, max_size=checkers)):
        rows[0][slot] += 1
    # player 1's point n is player 0's point 25 - n
    free = [0, 25] + [n for n in range(1, 25) if not rows[0][25 - n]]
    for slot in draw(st.lists(st.sampled_from(free), min_size=checkers, max_size=checkers)):
        rows[1][slot] += 1
    if draw(st.booleans()):
        # so that player 1 is not always the one squeezed for room (each row is in its
        # owner's numbering, and sharing a point is symmetric, so this stays legal)
        rows.reverse()
    assume(not _closed_both_bars(rows))
    return Position.from_checkers(rows, turn=draw(st.integers(0, 1)))


@st.composite
def match_infos(draw: st.DrawFn, *, gnubg_writable: bool = False) -> dict:
    """Keyword arguments of a valid MatchInfo / Situation (on_roll included)."""
    length = draw(st.sampled_from([0, 1, 2, 3, 5, 7, 9, 11, 15, 25, 64]))
    playing = True
    state = GameStatus.PLAYING
    if not gnubg_writable:
        state = draw(st.sampled_from(list(GameStatus)))
        playing = state == GameStatus.PLAYING
    if length:
        top = length - 1 if playing else length
        a = draw(st.integers(0, top))
        b = draw(st.integers(0, top if a < length else length - 1))
        score = (a, b)
    else:
        score = (draw(st.integers(0, 200)), draw(st.integers(0, 200)))
    crawford = bool(length > 1 and length - 1 in score and draw(st.booleans()))
    on_roll = draw(st.integers(0, 1))
    double = draw(st.booleans()) if not gnubg_writable else False
    resigned = Resignation.NONE
    if not gnubg_writable and not double:
        resigned = draw(st.sampled_from(list(Resignation)))
    dice = None if double else draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    cube = 1 << draw(st.integers(0, 15 if not gnubg_writable else 6))
    owner = draw(st.sampled_from([None, 0, 1]))
    if cube == 1 and gnubg_writable:
        owner = None
    return dict(
        on_roll=on_roll,
        dice=dice,
        cube_value=cube,
        cube_owner=owner,
        score=score,
        match_length=length,
        crawford=crawford,
        jacoby=draw(st.booleans()),
        game_state=state,
        double_offered=double,
        resigned=resigned,
    )


@st.composite
def situations(draw: st.DrawFn, *, xgid_writable: bool = False) -> Situation:
    position = draw(positions())
    kwargs = draw(match_infos(gnubg_writable=xgid_writable))
    on_roll = kwargs.pop("on_roll")
    if xgid_writable:
        kwargs["double_offered"] = draw(st.booleans())
        if kwargs["double_offered"]:
            kwargs["dice"] = None
        money = kwargs["match_length"] == 0
        kwargs["jacoby"] = kwargs["jacoby"] and money
        kwargs["beaver"] = draw(st.booleans()) and money
        kwargs["max_cube"] = 1 << draw(st.integers(0, 15))
    else:
        kwargs["turn"] = draw(st.integers(0, 1)) if kwargs["resigned"] else None
    return Situation(position.with_turn(on_roll), **kwargs)


# ----------------------------------------------------------------------- round trips


@given(positions())
@settings(max_examples=300)
def test_position_id_round_trip(position: Position) -> None:
    pid = position_id(position)
    assert len(pid) == 14
    assert parse_position_id(pid, position.turn) == position


@given(positions(), st.integers(0, 1))
def test_position_id_is_written_from_the_player_on_roll(position: Position, turn: int) -> None:
    # the same ID read for the other player on roll is the same layout with the
    # two players exchanged
    pid = position_id(position.with_turn(turn))
    swapped = parse_position_id(pid, 1 - turn)
    assert swapped.row(0) == position.row(1)
    assert swapped.row(1) == position.row(0)


@given(match_infos())
@settings(max_examples=300)
def test_match_id_round_trip(kwargs: dict) -> None:
    info = MatchInfo(**kwargs)
    mid = match_id(info)
    assert len(mid) == 12
    assert parse_match_id(mid) == info
    assert match_id(parse_match_id(mid)) == mid


@given(situations())
@settings(max_examples=200)
def test_gnubg_id_round_trip(situation: Situation) -> None:
    gid = situation.gnubg_id()
    assert Situation.from_gnubg_id(gid) == situation
    assert situation_from_text(gid) == situation


@given(situations(xgid_writable=True))
@settings(max_examples=300)
def test_xgid_round_trip(situation: Situation) -> None:
    xgid = situation.xgid()
    assert xgid.startswith("XGID=") and xgid.count(":") == 9
    assert Situation.from_xgid(xgid) == situation
    assert situation_from_text(xgid) == situation
    assert format_xgid(parse_xgid(xgid)) == xgid


@given(situations(xgid_writable=True))
def test_xgid_and_gnubg_id_agree(situation: Situation) -> None:
    # what both formats hold survives XGID -> GNU ID -> situation
    back = Situation.from_gnubg_id(Situation.from_xgid(situation.xgid()).gnubg_id())
    assert back.position == situation.position
    assert back.dice == situation.dice
    assert (back.cube_value, back.cube_owner) == (situation.cube_value, situation.cube_owner)
    assert (back.score, back.match_length) == (situation.score, situation.match_length)
    assert back.crawford == situation.crawford
    assert back.double_offered == situation.double_offered
    assert back.turn == situation.turn


# ---------------------------------------------------------------------- known values


def test_start_position_ids() -> None:
    start = gammon.variant("backgammon").start_position()
    assert position_id(start) == "4HPwATDgc/ABMA"
    assert position_id(start.with_turn(1)) == "4HPwATDgc/ABMA"
    assert parse_position_id("4HPwATDgc/ABMA") == start
    assert parse_position_id("4HPwATDgc/ABMA", turn=1) == start.with_turn(1)


def test_gnubg_new_game_id() -> None:
    # gnubg's "new game" (money, player 1 on roll with 6-1, Jacoby on)
    s = Situation.from_gnubg_id("4HPwATDgc/ABMA:cAkHAAAAAAAA")
    assert s.position == gammon.variant("backgammon").start_position(turn=1)
    assert s.on_roll == 1 and s.turn == 1
    assert s.dice == (6, 1)
    assert (s.cube_value, s.cube_owner) == (1, None)
    assert s.money and s.jacoby and not s.crawford
    assert s.gnubg_id() == "4HPwATDgc/ABMA:cAkHAAAAAAAA"


def test_known_match_id() -> None:
    # checked in gnubg ("set gnubgid", then posinfo() and cubeinfo()): player 1 on roll
    # with 5-2, 2-cube owned by player 0, 9-point match at 2-4 (player 0 - player 1)
    info = parse_match_id("QYkqASAAIAAA")
    assert info == MatchInfo(
        on_roll=1,
        dice=(5, 2),
        cube_value=2,
        cube_owner=0,
        score=(2, 4),
        match_length=9,
        jacoby=True,
    )
    assert match_id(info) == "QYkqASAAIAAA"


def test_xgid_values_checked_in_gnubg() -> None:
    # (XGID, gnubg's gnubgid() after "set xgid", with "set confirm default no")
    known = [
        (START_XGID, "4HPwATDgc/ABMA:cAkAAAAAAAAE"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", "4HPwATDgc/ABMA:cIkKAAAAAAAE"),
        ("XGID=a-----O----------------n--:1:1:-1:52:2:3:0:7:10", "4P8PAAD+fwAAQA:EYHqADAAEAAE"),
        ("XGID=a-----O----------------n--:1:1:1:00:2:3:0:7:10", "/n8AAEDg/w8AAA:UQngADAAEAAE"),
    ]
    for xgid, gid in known:
        s = Situation.from_xgid(xgid)
        assert s.gnubg_id() == gid
        assert s.xgid() == xgid
        assert Situation.from_gnubg_id(gid).replace(max_cube=s.max_cube) == s


def test_xgid_player_mapping() -> None:
    # lower case = player 0, upper case = player 1; the board is numbered from
    # player 1's side; score1 is player 1's
    s = Situation.from_xgid("XGID=a-----O----------------n--:2:-1:-1:00:2:3:0:7:10")
    pos = s.position
    assert pos.bar(0) == 1 and pos.count(0, 2) == 14  # 'n' at X's 23 = O's 2 point
    assert pos.count(1, 6) == 15
    assert s.on_roll == 0
    assert s.cube_owner == 0 and s.cube_value == 4
    assert s.score == (3, 2)
    assert s.match_length == 7


def test_xgid_double_offered() -> None:
    s = Situation.from_xgid("XGID=-b----E-C---eE---c-e----B-:1:0:1:D:0:0:0:0:10")
    assert s.double_offered and s.on_roll == 1 and s.turn == 0 and s.dice is None
    assert s.xgid() == "XGID=-b----E-C---eE---c-e----B-:1:0:1:D:0:0:0:0:10"
    assert Situation.from_gnubg_id(s.gnubg_id()) == s.replace(max_cube=1024)


def test_xgid_rules_field() -> None:
    money = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:{}:0:10"
    assert [
        (s.jacoby, s.beaver) for s in (Situation.from_xgid(money.format(r)) for r in range(4))
    ] == [(False, False), (True, False), (False, True), (True, True)]
    crawford = Situation.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:4:2:1:5:10")
    assert crawford.crawford and crawford.score == (2, 4)


def test_dice_are_kept_larger_first() -> None:
    s = Situation.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:25:0:0:0:0:10")
    assert s.dice == (5, 2)
    assert MatchInfo(dice=(1, 6)).dice == (6, 1)


def test_situation_from_text_forms() -> None:
    expected = Situation.from_gnubg_id("4HPwATDgc/ABMA:cAkHAAAAAAAA")
    for text in (
        "4HPwATDgc/ABMA:cAkHAAAAAAAA",
        "  4HPwATDgc/ABMA:cAkHAAAAAAAA\n",
        "4HPwATDgc/ABMA cAkHAAAAAAAA",
        "Position ID: 4HPwATDgc/ABMA Match ID: cAkHAAAAAAAA",
        "cAkHAAAAAAAA:4HPwATDgc/ABMA",
    ):
        assert situation_from_text(text) == expected
    lone = situation_from_text("4HPwATDgc/ABMA")
    assert lone.position == gammon.variant("backgammon").start_position()
    assert lone.money and lone.dice is None
    assert situation_from_text(START_XGID[5:]) == situation_from_text(START_XGID)
    assert situation_from_text("xgid=" + START_XGID[5:]) == situation_from_text(START_XGID)


def test_describe_lists_all_forms() -> None:
    d = situation_from_text("XGID=a-----O----------------n--:1:1:-1:52:2:3:0:7:10").describe()
    assert d["GNU ID"] == "4P8PAAD+fwAAQA:EYHqADAAEAAE"
    assert d["XGID"] == "XGID=a-----O----------------n--:1:1:-1:52:2:3:0:7:10"
    assert d["on roll"] == "player 0" and d["dice"] == "5-2"
    resigned = Situation(gammon.variant("backgammon").start_position(), resigned=Resignation.GAMMON)
    assert resigned.describe()["XGID"].startswith("(none:")


def test_hypergammon_checkers() -> None:
    hyper = gammon.variant("hypergammon").start_position()
    pid = position_id(hyper)
    assert parse_position_id(pid, checkers=3) == hyper
    assert Situation.from_xgid(Situation(hyper).xgid(), checkers=3).position == hyper


# ------------------------------------------------------------------ malformed input


def _raises(fn, text, *fragments: str) -> None:
    with pytest.raises(InvalidNotationError) as info:
        fn(text)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("4HPwATDgc/ABM", ["exactly 14 characters", "has 13"]),
        ("4HPwATDgc/ABMAA", ["exactly 14 characters", "has 15"]),
        ("4HPwATDgc/AB!A", ["'!' is not a base64 character", "A-Z, a-z, 0-9, + and /"]),
        ("4HPwATDgc/ABMB", ["last character", "A, Q, g or w"]),
        ("/////////////w", ["more than 30 checkers"]),
        ("AAAAAAAAAAAAAQ", ["set bits after the last point"]),
        ("", ["exactly 14 characters"]),
    ],
)
def test_bad_position_ids(text: str, fragments: list[str]) -> None:
    _raises(parse_position_id, text, *fragments)


def _forge_position_id(*halves: list[int]) -> str:
    """A Position ID of the given unary counts, unchecked (first half: not on roll)."""
    key = bit = 0
    for counts in halves:
        for n in counts:
            key |= ((1 << n) - 1) << bit
            bit += n + 1
    return base64.b64encode(key.to_bytes(10, "little")).decode().rstrip("=")


def test_forged_position_ids() -> None:
    empty = [0] * 25
    assert _forge_position_id(*gammon_start_halves()) == "4HPwATDgc/ABMA"
    _raises(
        parse_position_id,
        _forge_position_id([16] + [0] * 24, empty),
        "gives player 1 16 checkers",
        "at most 15",
    )
    _raises(
        lambda t: parse_position_id(t, checkers=3),
        _forge_position_id(empty, [4] + [0] * 24),
        "gives player 0 4 checkers",
        "at most 3",
    )
    # player 1 (not on roll, so first) on its 24 point, player 0 on its 1 point
    _raises(
        parse_position_id,
        _forge_position_id([0] * 23 + [1, 0], [1] + [0] * 24),
        "holds checkers of both players",
    )


def gammon_start_halves() -> tuple[list[int], list[int]]:
    row = list(gammon.variant("backgammon").start_position().row(0)[1:])
    return row, row


def test_position_id_with_shared_point() -> None:
    # player 0 on its 1 point and player 1 on its 24 point: the same point
    rows = [[0] * 26, [0] * 26]
    rows[0][0], rows[0][1] = 14, 1
    rows[1][0], rows[1][24] = 14, 1
    with pytest.raises(InvalidNotationError, match="both players"):
        position_id(Position.from_checkers(rows))


def test_position_both_on_bar_against_closed_boards() -> None:
    row = [0, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3]
    bad = Position.from_checkers([row, row])
    with pytest.raises(InvalidNotationError, match="closed home boards"):
        check_board(bad)
    with pytest.raises(InvalidNotationError, match="closed home boards"):
        Situation(bad)


def test_position_with_too_many_checkers() -> None:
    rows = [[0] * 26, [0] * 26]
    rows[0][6] = 16
    rows[1][6] = 15
    with pytest.raises(InvalidNotationError, match="16 checkers.*at most 15"):
        position_id(Position.from_checkers(rows))


def test_bad_position_id_turn() -> None:
    _raises(lambda t: parse_position_id(t, turn=2), "4HPwATDgc/ABMA", "0 or 1")


def _match_key(**bits: int) -> str:
    layout = {
        "cube": (0, 4), "owner": (4, 2), "move": (6, 1), "crawford": (7, 1),
        "state": (8, 3), "turn": (11, 1), "double": (12, 1), "resign": (13, 2),
        "die1": (15, 3), "die2": (18, 3), "length": (21, 15), "score0": (36, 15),
        "score1": (51, 15), "nojacoby": (66, 1), "junk": (67, 5),
    }  # fmt: skip
    values = {"owner": 3, "state": 1} | bits
    key = 0
    for name, value in values.items():
        start, _ = layout[name]
        key |= value << start
    return base64.b64encode(key.to_bytes(9, "little")).decode()


def test_match_key_helper_matches_gnubg() -> None:
    assert _match_key(move=1, turn=1, die1=6, die2=1) == "cAkHAAAAAAAA"


@pytest.mark.parametrize(
    ("bits", "fragments"),
    [
        ({"owner": 2}, ["cube owner is 0, 1 or 3"]),
        ({"die1": 7, "die2": 1}, ["two numbers 1-6", "7 and 1"]),
        ({"die1": 3}, ["both 0 before the roll", "3 and 0"]),
        ({"state": 6}, ["game state is 0-4", "not 6"]),
        ({"length": 65}, ["match length is 0 (money game) to 64", "65"]),
        ({"length": 5, "score0": 6}, ["impossible score 6-0 in a 5-point match"]),
        ({"length": 5, "score0": 5}, ["impossible score 5-0", "nobody has reached"]),
        ({"length": 5, "score0": 5, "score1": 5, "state": 2}, ["both players cannot have won"]),
        ({"crawford": 1}, ["money game has no Crawford game"]),
        ({"crawford": 1, "length": 5, "score0": 2}, ["Crawford game needs a player at 4"]),
        ({"crawford": 1, "length": 1}, ["Crawford game needs a player at 0"]),
        ({"double": 1, "turn": 1, "die1": 3, "die2": 1}, ["dice cannot be rolled"]),
        ({"junk": 1}, ["bits 67-71"]),
    ],
)
def test_bad_match_ids(bits: dict, fragments: list[str]) -> None:
    _raises(parse_match_id, _match_key(**bits), "Match ID", *fragments)


def test_bad_match_id_text() -> None:
    _raises(parse_match_id, "cAkHAAAAAAA", "exactly 12 characters", "has 11")
    _raises(parse_match_id, "cAkHAAAAAA=A", "'=' is not a base64 character")
    _raises(parse_match_id, None, "is a string")


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0", ["10 fields", "has 9"]),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10:1", ["10 fields", "has 11"]),
        ("XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", ["26 characters", "has 25"]),
        ("XGID=-b----E-C---eE---c-e----B*:0:0:1:00:0:0:0:0:10", ["'*'", "A-P", "a-p"]),
        ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", ["lower-case player's bar"]),
        ("XGID=-b----E-C---eE---c-e----Ba:0:0:1:00:0:0:0:0:10", ["upper-case player's bar"]),
        ("XGID=-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:0:10", ["29 checkers", "at most 15"]),
        ("XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10", ["field 2 (cube)", "'x'"]),
        ("XGID=-b----E-C---eE---c-e----B-:16:0:1:00:0:0:0:0:10", ["field 2 (cube) is 16"]),
        ("XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10", ["field 3 (cubepos) is 2"]),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10", ["field 4 (turn)", "not 0"]),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:70:0:0:0:0:10", ["field 5 (dice)", "'70'"]),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:50:0:0:0:0:10", ["one die is 0"]),
        ("XGID=-b----E-C---eE---c-e----B-:1:0:1:B:0:0:0:0:10", ["beavered", "D"]),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10", ["impossible score 7-0"]),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:7:10", ["1 = Crawford game"]),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10", ["Jacoby rule"]),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:1:7:10", ["Crawford game needs"]),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:65:10", ["up to 64"]),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:-1:0:0:0:10", ["field 6 (score1) is -1"]),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:x", ["field 10 (maxcube)"]),
    ],
)
def test_bad_xgids(text: str, fragments: list[str]) -> None:
    _raises(Situation.from_xgid, text, "XGID", *fragments)
    _raises(situation_from_text, text, *fragments)


def test_bad_text() -> None:
    _raises(situation_from_text, "", "no ID given")
    _raises(situation_from_text, "hello world", "exactly 12 characters")
    _raises(situation_from_text, "hello", "exactly 14 characters")
    _raises(situation_from_text, "4HPwATDgc/ABMA:cAkHAAAAAAAA:x", "not an ID gammon reads")
    _raises(Situation.from_gnubg_id, "4HPwATDgc/ABMA", "POSITIONID:MATCHID", "1 part")
    _raises(Situation.from_gnubg_id, "4HPwATDgc/ABMA:cAkHAAAAAAA", "has 11")


def test_xgid_cannot_say_everything() -> None:
    start = gammon.variant("backgammon").start_position()
    with pytest.raises(InvalidNotationError, match="resignation"):
        Situation(start, resigned=Resignation.SINGLE).xgid()
    with pytest.raises(InvalidNotationError, match="game being played"):
        Situation(start, game_state=GameStatus.OVER).xgid()


def test_bad_situation_values() -> None:
    start = gammon.variant("backgammon").start_position()
    with pytest.raises(InvalidNotationError, match="power of two"):
        Situation(start, cube_value=3)
    with pytest.raises(InvalidNotationError, match="cube limit"):
        Situation(start, max_cube=0)
    with pytest.raises(InvalidNotationError, match="each die"):
        Situation(start, dice=(0, 7))
    with pytest.raises(InvalidNotationError, match="cube owner"):
        Situation(start, cube_owner=2)
    with pytest.raises(InvalidNotationError, match="2 players on 24 points"):
        Situation(Position.from_checkers([[15, 0, 0], [15, 0, 0]]))


def test_match_id_reads_what_gnubg_writes_outside_play():
    """A beaver on offer (double offered, the doubler to act) and a finished match whose
    score passed its length are both written by gnubg, so both are read."""
    beaver = MatchInfo(on_roll=0, double_offered=True, turn=0, cube_value=2)
    assert parse_match_id(match_id(beaver)) == beaver
    finished = MatchInfo(
        on_roll=0, match_length=5, score=(7, 2), game_state=GameStatus.OVER
    )
    assert parse_match_id(match_id(finished)).score == (7, 2)
    gnubg_finished = parse_match_id("EQKgADAAOAAE")
    assert max(gnubg_finished.score) > gnubg_finished.match_length
