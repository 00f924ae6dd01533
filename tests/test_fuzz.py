"""Every parser and every entry point that reads text or JSON, fuzzed.

The property is the same everywhere: whatever it is given, a reader returns a value or
raises a :class:`GammonError` with a message, never another exception; and every value
the engine writes reads back to the same value. ``make test`` runs each property on
``GAMMON_FUZZ_EXAMPLES`` examples (default 60); ``make fuzz`` runs them on 10,000 each
and prints hypothesis's statistics (how many examples ran, and how many were invalid).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import string
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gammon
from gammon.cli.main import _legal_batch, _parse_options
from gammon.core.dice import parse_dice
from gammon.core.errors import GammonError
from gammon.core.variant import variant_names
from gammon.notation import (
    format_position,
    format_xgid,
    match_id,
    move_text_for,
    parse_match_id,
    parse_position,
    parse_position_id,
    parse_xgid,
    position_id,
    situation_from_text,
)
from gammon.notation.mat import read_match, replay_match
from gammon.table.table import Table

EXAMPLES = int(os.environ.get("GAMMON_FUZZ_EXAMPLES", "60"))
fuzz = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

VARIANTS = variant_names()
BASE64 = string.ascii_letters + string.digits + "+/="
#: Text of every kind: any characters, and the characters the notations are made of.
NOTATION_CHARS = BASE64 + ":-,./*()[]_ XGIDbarBAofOF0123456789"
texts = st.one_of(st.text(max_size=60), st.text(NOTATION_CHARS, max_size=60))


def refused_cleanly(read: Any, *args: Any) -> Any:
    """``read(*args)``'s value, or None when it raised a GammonError (anything else
    fails the test)."""
    try:
        return read(*args)
    except GammonError as error:
        assert str(error), "an error must say what is wrong"
        return None


def reached_state(name: str, seed: int) -> Any:
    """A state of ``name`` some random plies into a seeded random game."""
    rules = gammon.variant(name)
    rng = random.Random(seed)
    state = rules.initial_state()
    for _ in range(rng.randrange(0, 120)):
        if state.is_terminal:
            break
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(list(state.legal_actions())))
    return state


# --- GNU IDs and XGIDs ----------------------------------------------------------------


@fuzz
@given(texts)
def test_position_id_reader(text):
    position = refused_cleanly(parse_position_id, text)
    if position is not None:
        assert parse_position_id(position_id(position)) == position


@fuzz
@given(texts)
def test_match_id_reader(text):
    info = refused_cleanly(parse_match_id, text)
    if info is not None:
        assert parse_match_id(match_id(info)) == info


@fuzz
@given(st.one_of(texts, st.text(NOTATION_CHARS, max_size=40).map(lambda t: "XGID=" + t)))
def test_xgid_and_situation_readers(text):
    situation = refused_cleanly(parse_xgid, text)
    if situation is not None:
        assert parse_xgid(format_xgid(situation)) == situation
    refused_cleanly(situation_from_text, text)


@fuzz
@given(st.sampled_from(["backgammon", "nackgammon", "hypergammon", "hypergammon-3"]),
       st.integers(0, 10**9))
def test_gnu_ids_round_trip_reached_positions(name, seed):
    state = reached_state(name, seed)
    position = state.position
    assert parse_position_id(position_id(position), position.turn,
                             checkers=state.variant.checkers) == position


# --- each variant's position text -------------------------------------------------------


@fuzz
@given(st.sampled_from(VARIANTS), texts)
def test_every_variants_position_reader(name, text):
    rules = gammon.variant(name)
    position = refused_cleanly(parse_position, rules, text)
    if position is not None:
        assert parse_position(rules, format_position(rules, position)) == position


@fuzz
@given(st.sampled_from(VARIANTS), st.integers(0, 10**9))
def test_every_variants_positions_round_trip(name, seed):
    state = reached_state(name, seed)
    rules = state.variant
    ring = rules.notation == "acedrex"  # Acedrex and its presets: the state is the position
    written = format_position(rules, state if ring else state.position)
    if ring and state.is_terminal:  # its notation is of games in play
        with pytest.raises(GammonError):
            parse_position(rules, written)
        return
    if ring and state.stage not in ("roll", "move"):
        return  # a combat's throws, a jump: written as the board, read back at the roll
    read = parse_position(rules, written)
    assert format_position(rules, read) == written
    if rules.notation not in ("gnu", "acedrex"):  # a GNU Position ID does not say the turn
        assert read == state.position


# --- move text ----------------------------------------------------------------------------


@fuzz
@given(st.sampled_from(VARIANTS), st.integers(0, 10**9),
       st.one_of(texts, st.text("0123456789/*() barof", max_size=30)))
def test_move_text_reader(name, seed, text):
    state = reached_state(name, seed)
    if state.is_terminal or state.is_chance:
        return
    moves = move_text_for(state.variant)
    try:
        actions = moves.read_actions(state, text)
    except GammonError as error:
        assert str(error)
        return
    assert all(action in state.legal_actions() for action in actions)


@fuzz
@given(st.sampled_from(VARIANTS), st.integers(0, 10**9))
def test_every_legal_play_reads_back_from_its_text(name, seed):
    state = reached_state(name, seed)
    if state.is_terminal or state.is_chance:
        return
    moves = move_text_for(state.variant)
    for action in state.legal_actions():
        assert moves.read_actions(state, moves.format_action(action)) == [action]


# --- command-line input ---------------------------------------------------------------


@fuzz
@given(st.lists(texts, max_size=4))
def test_legal_batch_lines(lines):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        _legal_batch(gammon.variant("backgammon"), lines)
    for line in out.getvalue().splitlines():
        answer = json.loads(line)
        assert "plays" in answer or answer["error"]


@fuzz
@given(texts)
def test_dice_reader(text):
    dice = refused_cleanly(parse_dice, text)
    if dice is not None:
        assert 1 <= dice[1] <= dice[0] <= 6
        assert parse_dice(f"{dice[0]}{dice[1]}") == dice


@fuzz
@given(st.sampled_from(VARIANTS),
       st.lists(st.one_of(texts, st.tuples(st.sampled_from(
           ["checkers_per_side", "mars", "koks", "must_enter", "jacoby", "x"]),
           st.sampled_from(["1", "2", "-1", "--5", "true", "off", "²", "", "3.5"]))
           .map("=".join)), max_size=3))
def test_option_values(name, pairs):
    options = refused_cleanly(_parse_options, name, pairs)
    if options is not None:
        refused_cleanly(lambda: gammon.variant(name, **options))


# --- table logs and match files --------------------------------------------------------


def _finished_table_json(name: str, seed: int) -> dict[str, Any]:
    players = gammon.variant(name).players
    table = Table(name, ["heuristic"] + ["random"] * (players - 1), seed=seed)
    table.run()
    return table.to_json()


TABLE_LOGS = {name: _finished_table_json(name, 3) for name in ("backgammon", "multi-gam",
                                                                 "acedrex", "long-nardy")}
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 10**6), st.text(max_size=12)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:40]):
            found += _paths(item, (*path, index))
    return found


@fuzz
@given(st.sampled_from(sorted(TABLE_LOGS)), st.data())
def test_table_logs_with_one_value_changed(name, data):
    record = copy.deepcopy(TABLE_LOGS[name])
    path = data.draw(st.sampled_from(_paths(record)[1:]))
    replacement = data.draw(JSON_VALUES)
    holder = record
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = replacement
    table = refused_cleanly(Table.from_json, record)
    if table is not None:  # an edit the log still allows: it writes back as it reads
        assert Table.from_json(table.to_json()).to_json() == table.to_json()


@fuzz
@given(JSON_VALUES)
def test_table_reader_on_any_json(value):
    refused_cleanly(Table.from_json, value)


@pytest.mark.parametrize("name", sorted(TABLE_LOGS))
def test_table_logs_round_trip(name):
    record = TABLE_LOGS[name]
    assert Table.from_json(json.loads(json.dumps(record))).to_json() == record


MAT_LINES = st.sampled_from([
    " 3 point match", "", " Game 1", " X : 0                     O : 0",
    "  1) 31: 8/5 6/5              42: 8/4 6/4", "  2) 66: 24/18(2) 13/7(2)",
    "  3)  Doubles => 2            Takes", "      Wins 1 point",
    "  1) 52: 13/8 13/11           Drops", "; [Player 1 \"X\"]", " 0 point match",
])


@fuzz
@given(st.lists(st.one_of(MAT_LINES, texts), max_size=12))
def test_match_file_reader(lines):
    match = refused_cleanly(read_match, "\n".join(lines))
    if match is not None:
        refused_cleanly(replay_match, match)


# --- the web protocol ---------------------------------------------------------------------

WEB_MESSAGES = st.one_of(
    texts,
    st.fixed_dictionaries(
        {"type": st.sampled_from(["act", "preview", "ping", "hello", "dance", ""])},
        optional={"version": st.one_of(st.integers(-3, 10**12), JSON_VALUES),
                  "index": st.one_of(st.integers(-3, 60), JSON_VALUES),
                  "resign": st.one_of(st.integers(-1, 4), JSON_VALUES),
                  "moves": st.one_of(st.lists(st.integers(-2, 9), max_size=10), JSON_VALUES),
                  "token": st.one_of(st.text(max_size=80), JSON_VALUES),
                  "choice": JSON_VALUES},
    ).map(json.dumps),
    JSON_VALUES.map(json.dumps),
    st.binary(max_size=40),
)
#: How the server may end a connection whatever it is sent (gammon.web.live): a binary
#: frame, a message that is not a JSON object, a broken rule, a message too long.
CLOSE_CODES = {1003, 1007, 1008, 1009}


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    """One server for every example (each example makes its own table)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from webclient import client

    with client(f"sqlite:///{tmp_path_factory.mktemp('web') / 'tables.db'}") as http:
        yield http


def _malformed(message: str | bytes) -> bool:
    if isinstance(message, bytes):
        return True
    try:
        return not isinstance(json.loads(message), dict)
    except ValueError:
        return True


@fuzz
@given(st.booleans(), st.lists(WEB_MESSAGES, min_size=1, max_size=5))
def test_web_messages_are_answered_or_the_connection_closed_with_a_reason(web, hello,
                                                                           messages):
    from starlette.websockets import WebSocketDisconnect

    made = web.post("/api/tables", json={"variant": "backgammon",
                                         "seats": ["human", "beginner"]}).json()
    with web.websocket_connect(f"/ws/{made['id']}") as socket:
        if hello:
            socket.send_json({"type": "hello", "token": made["token"]})
        sent: list[str | bytes] = []
        try:
            for number, message in enumerate(messages):
                sent.append(message)
                if isinstance(message, bytes):
                    socket.send_bytes(message)
                else:
                    socket.send_text(message)
                socket.send_text(json.dumps({"type": "ping"}))
                while (answer := socket.receive_json())["type"] != "pong":
                    assert answer["type"] in ("state", "error", "preview"), answer
                    if answer["type"] == "error":
                        assert answer["message"]
                assert hello or number > 0 or json.loads(message).get("type") == "hello"
        except WebSocketDisconnect as closed:
            # Closed for a reason the protocol names, never for a well-formed message
            # after the hello.
            assert closed.code in CLOSE_CODES, closed.code
            assert not hello or any(map(_malformed, sent)) or closed.code == 1008


LOBBY_FIELDS = st.fixed_dictionaries({}, optional={
    "variant": st.one_of(st.sampled_from(VARIANTS), JSON_VALUES),
    "seats": st.one_of(st.lists(st.sampled_from(["human", "best", "fast", "beginner",
                                                 "random", "expectimax:9", "neural:x",
                                                 "gnubg"]),
                                max_size=5), st.lists(JSON_VALUES, max_size=4), JSON_VALUES),
    "kind": st.one_of(st.sampled_from(["game", "match", "money"]), JSON_VALUES),
    "length": JSON_VALUES, "stake": JSON_VALUES, "games": JSON_VALUES,
    "options": st.one_of(st.dictionaries(st.sampled_from(["checkers_per_side", "mars", "x"]),
                                         JSON_VALUES, max_size=2), JSON_VALUES),
    "cube": JSON_VALUES, "beaver": JSON_VALUES, "jacoby": JSON_VALUES,
    "crawford": JSON_VALUES,
})
SEATS_BOTS = {"human", "heuristic", "neural:0", "neural:1", "neural:2", "expectimax",
              "expectimax:width=4:wide=12", "rollout", "money"}


@fuzz
@given(st.one_of(LOBBY_FIELDS.map(json.dumps), JSON_VALUES.map(json.dumps), texts))
def test_the_lobby_answers_every_new_table_request(web, body):
    answer = web.post("/api/tables", content=body,
                      headers={"content-type": "application/json"})
    assert answer.status_code in (201, 400, 413), (answer.status_code, answer.text)
    if answer.status_code != 201:
        assert answer.json()["error"]
        return
    settings = web.app.state.store.row(answer.json()["id"]).settings
    assert {seat["kind"] for seat in settings["seats"]} <= SEATS_BOTS  # the menu's only


@fuzz
@given(st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
       st.sampled_from(["/", "/t/", "/api/tables/", "/api/variants", "/api/tables",
                        "/static/", "/ws/"]),
       st.text(max_size=30), st.one_of(st.none(), texts, JSON_VALUES.map(json.dumps)),
       st.sampled_from(["application/json", "text/plain", ""]))
def test_every_http_request_is_answered_without_a_server_error(web, method, prefix, rest,
                                                               body, kind):
    from urllib.parse import quote

    path = prefix + quote(rest, safe="/?=&")
    answer = web.request(method, path, content=body,
                         headers={"content-type": kind} if kind else {})
    assert answer.status_code < 500, (method, path, answer.status_code, answer.text[:200])
