"""The web server without a browser: the lobby's API, the live protocol, seats and
tokens, bad input, and tables that survive a restart."""

from __future__ import annotations

import json

import pytest
from postgres import Postgres
from starlette.testclient import TestClient

from gammon.table.dice import commitment
from gammon.web.app import MAX_MESSAGE, create_app


@pytest.fixture(scope="module")
def postgres_server():
    server = Postgres().start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path) -> str:
    """Every test runs on a SQLite file and on a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.db'}"
    return str(request.getfixturevalue("postgres_server").database())


def client(database: str) -> TestClient:
    return TestClient(create_app(database, bot_delay=0.0))


def new_table(http: TestClient, **body) -> dict:
    body.setdefault("variant", "backgammon")
    body.setdefault("seats", ["human", "heuristic"])
    answer = http.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def state_of(socket) -> dict:
    """The next state message (errors before it are returned in it)."""
    errors = []
    while True:
        message = socket.receive_json()
        if message["type"] == "state":
            message["table"]["errors"] = errors
            return message["table"]
        if message["type"] == "error":
            errors.append(message["message"])


def until(socket, wanted) -> dict:
    """The first state ``wanted(table)`` accepts (the dice and bots play in the
    background, and every change is broadcast)."""
    while True:
        table = state_of(socket)
        if wanted(table):
            return table


def my_turn(socket) -> dict:
    return until(socket, lambda table: table.get("actions") or table["over"])


def refusal(socket) -> tuple[str, dict]:
    """The next error, and the state sent right after it."""
    while True:
        message = socket.receive_json()
        if message["type"] == "error":
            return message["message"], state_of(socket)


def test_pages_and_variants(database):
    with client(database) as http:
        assert "New table" in http.get("/").text
        names = {v["name"]: v for v in http.get("/api/variants").json()}
        assert {"backgammon", "multi-gam", "acedrex", "long-nardy"} <= set(names)
        assert names["multi-gam"]["players"] == 4 and "gnubg" not in names["backgammon"]["bots"]
        assert http.get("/t/nosuch").status_code == 404


def test_a_person_plays_a_bot_to_the_end_through_the_protocol(database):
    with client(database) as http:
        made = new_table(http)
        assert made["url"] == f"/t/{made['id']}?token={made['token']}"
        assert "table.js" in http.get(made["url"]).text
        with http.websocket_connect(f"/ws/{made['id']}?token={made['token']}") as socket:
            table = my_turn(socket)
            assert table["you"] == 0 and table["board"].startswith("<svg")
            moves = 0
            while not table["over"]:
                plays = [a for a in table["actions"] if "steps" in a] or table["actions"]
                socket.send_json({"type": "act", "version": table["version"],
                                  "index": plays[-1]["index"]})
                moves += 1
                table = my_turn(socket)
                assert not table["errors"]
        assert moves > 5 and table["result"] and table["fair"]["seed"]
        seed = int(table["fair"]["seed"])
        assert commitment(seed) == table["fair"]["commitment"]
        record = http.get(f"/api/tables/{made['id']}/record").json()
        assert record["seed"] == seed and record["dice"] == "hmac-sha256"


def test_seats_tokens_and_spectators(database):
    with client(database) as http:
        made = new_table(http, seats=["human", "human"])
        assert http.get("/api/tables").json()[0]["free"] == [1]
        second = http.post(f"/api/tables/{made['id']}/seats").json()
        assert second["seat"] == 1 and second["token"] != made["token"]
        refused = http.post(f"/api/tables/{made['id']}/seats")
        assert refused.status_code == 400 and "taken" in refused.json()["error"]
        tokens = {0: made["token"], 1: second["token"]}
        with http.websocket_connect(f"/ws/{made['id']}?token={tokens[0]}") as zero, \
                http.websocket_connect(f"/ws/{made['id']}?token={tokens[1]}") as one, \
                http.websocket_connect(f"/ws/{made['id']}") as watcher:
            seen_by = {0: until(zero, lambda t: t["question"]),
                       1: until(one, lambda t: t["question"])}
            asked = seen_by[0]["question"]["seat"]
            other, table = {0: zero, 1: one}[1 - asked], seen_by[1 - asked]
            assert "actions" not in table  # the other seat sees no choices
            version = table["version"]
            # The other seat's token cannot act for the seat asked.
            other.send_json({"type": "act", "version": version, "index": 0})
            why, after = refusal(other)
            assert "turn" in why and after["version"] == version
            # A spectator sees the board and cannot act.
            seen = until(watcher, lambda t: t["question"])
            assert seen["you"] is None and seen["board"] and "actions" not in seen
            watcher.send_json({"type": "act", "version": version, "index": 0})
            why, after = refusal(watcher)
            assert "spectators" in why and after["version"] == version
        with http.websocket_connect(f"/ws/{made['id']}?token=forged") as forged:
            message = forged.receive_json()
            assert message["type"] == "error" and "not valid" in message["message"]
            assert forged.receive_json()["table"]["you"] is None


@pytest.mark.parametrize("text,why", [
    ("not json", "JSON"),
    ("[1, 2]", "JSON objects"),
    (json.dumps({"type": "dance"}), "unknown message type"),
    (json.dumps({"type": "act", "version": 0, "index": 999}), "choose an action"),
    (json.dumps({"type": "act", "version": 0, "index": "1"}), "choose an action"),
    (json.dumps({"type": "act", "version": -5, "index": 0}), "moved on"),
    (json.dumps({"type": "act", "version": 0, "resign": 7}), "resignation"),
    (json.dumps({"type": "preview", "index": "x", "moves": []}), "preview"),
    ("x" * (MAX_MESSAGE + 1), "too long"),
])
def test_bad_messages_get_a_clear_error_and_change_nothing(database, text, why):
    with client(database) as http:
        made = new_table(http)
        with http.websocket_connect(f"/ws/{made['id']}?token={made['token']}") as socket:
            table = my_turn(socket)
            before = table["version"]
            if '"version": 0' in text:
                text = text.replace('"version": 0', f'"version": {before}')
            socket.send_text(text)
            error, after = refusal(socket)
            assert why in error
            assert after["version"] == before
            # The table still plays.
            socket.send_json({"type": "act", "version": before, "index": 0})
            assert state_of(socket)["version"] > before


def test_a_double_click_acts_once(database):
    with client(database) as http:
        made = new_table(http)
        with http.websocket_connect(f"/ws/{made['id']}?token={made['token']}") as socket:
            table = my_turn(socket)
            for _ in range(2):
                socket.send_json({"type": "act", "version": table["version"], "index": 0})
            why, after = refusal(socket)
            assert "moved on" in why and after["version"] > table["version"]
        plays = [e for e in http.app.state.lobby.get(made["id"]).table.log[0] if "play" in e
                 and e["seat"] == 0]
        assert len(plays) == 1


def test_bad_tables_are_refused_with_what_is_allowed(database):
    with client(database) as http:
        for body, why in [
            ({"variant": "chess", "seats": ["human", "random"]}, "unknown variant"),
            ({"variant": "backgammon", "seats": ["human"]}, "2 seats"),
            ({"variant": "backgammon", "seats": ["random", "random"]}, "at least one person"),
            ({"variant": "backgammon", "seats": ["human", "deep blue"]}, "unknown seat"),
            ({"variant": "backgammon", "seats": ["human", "random"], "kind": "match",
              "length": 99}, "1 to 25"),
            ({"variant": "multi-gam", "seats": ["human"] + ["random"] * 3, "kind": "match"},
             "two-player"),
            ({"variant": "backgammon", "seats": ["human", "random"], "colour": "red"},
             "unknown fields"),
        ]:
            answer = http.post("/api/tables", json=body)
            assert answer.status_code == 400 and why in answer.json()["error"], answer.text
        assert http.post("/api/tables", content=b"{{{").status_code == 400
        assert http.get("/api/tables/nosuch/record").status_code == 404


def test_tables_come_back_after_a_restart_with_nothing_lost(database):
    with client(database) as http:
        made = new_table(http, kind="money", stake=2)
        with http.websocket_connect(f"/ws/{made['id']}?token={made['token']}") as socket:
            table = my_turn(socket)
            for _ in range(3):
                if table["over"]:
                    break
                socket.send_json({"type": "act", "version": table["version"], "index": 0})
                table = my_turn(socket)
        before = http.app.state.lobby.get(made["id"]).table.to_json()
    with client(database) as http:  # a new server on the same database
        room = http.app.state.lobby.get(made["id"])
        assert room.table.to_json() == before
        with http.websocket_connect(f"/ws/{made['id']}?token={made['token']}") as socket:
            again = my_turn(socket)
            assert again["version"] == table["version"] and again["you"] == 0


def test_gammon_verify_checks_a_finished_tables_dice(database, tmp_path):
    from typer.testing import CliRunner

    from gammon.cli.main import app

    with client(database) as http:
        made = new_table(http, variant="hypergammon-1")
        assert http.get(f"/api/tables/{made['id']}/record").status_code == 409  # not yet
        with http.websocket_connect(f"/ws/{made['id']}?token={made['token']}") as socket:
            table = my_turn(socket)
            while not table["over"]:
                socket.send_json({"type": "act", "version": table["version"], "index": 0})
                table = my_turn(socket)
        record = http.get(f"/api/tables/{made['id']}/record").json()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    runner = CliRunner()
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "are the ones the seed gives" in result.output and "commitment" in result.output
    # Another seed: the commitment does not match.
    path.write_text(json.dumps({**record, "seed": record["seed"] + 1}))
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2 and "does not match" in result.output
    # A throw changed in the log: the seed gives another.
    throws = [e for e in record["log"][0] if "roll" in e and not e.get("opening")]
    throws[0]["roll"] = [1, 1] if throws[0]["roll"] != [1, 1] else [2, 1]
    path.write_text(json.dumps({**record, "commitment": None}))
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2 and "does not follow the seed" in result.output


def test_a_finished_table_offers_its_review(database):
    with client(database) as http:
        made = new_table(http, variant="hypergammon-2")
        assert http.get(f"/t/{made['id']}/review").status_code == 409
        with http.websocket_connect(f"/ws/{made['id']}?token={made['token']}") as socket:
            table = my_turn(socket)
            while not table["over"]:
                socket.send_json({"type": "act", "version": table["version"], "index": 0})
                table = my_turn(socket)
        page = http.get(f"/t/{made['id']}/review")
        assert page.status_code == 200 and "error rate" in page.text and "<svg" in page.text
