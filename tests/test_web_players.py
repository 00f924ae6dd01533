"""Players of the web tables: accounts, names on tables and records, rated tables and
Glicko-2, clocks that survive a restart, chat, and rematches (without a browser)."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import inspect, select, text
from webclient import client, connect, new_table, refusal, state_of, until

from gammon.web.accounts import COOKIE
from gammon.web.config import ServerConfig
from gammon.web.store import Store, users


@pytest.fixture
def sqlite(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


def sign_up(http, name: str, password: str = "a good password") -> None:
    answer = http.post("/api/signup", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text


def test_sign_up_keeps_only_an_argon2_hash_and_signs_in_with_a_safe_cookie(sqlite):
    with client(sqlite) as http:
        answer = http.post("/api/signup", json={"name": "Alice", "password": "correct horse"})
        assert answer.status_code == 201 and answer.json() == {"name": "Alice"}
        cookie = answer.headers["set-cookie"]
        assert cookie.startswith(COOKIE + "=") and "HttpOnly" in cookie
        assert "samesite=lax" in cookie.lower()
        assert http.get("/api/me").json()["name"] == "Alice"
        with http.app.state.store.engine.connect() as db:
            stored = db.execute(select(users.c.password)).scalar_one()
        assert stored.startswith("$argon2id$") and "correct horse" not in stored
        http.post("/api/signout", json={})
        assert http.get("/api/me").json() == {"name": None}
        wrong = http.post("/api/signin", json={"name": "alice", "password": "wrong horse"})
        nobody = http.post("/api/signin", json={"name": "nobody", "password": "wrong horse"})
        assert wrong.status_code == nobody.status_code == 401
        assert wrong.json() == nobody.json()  # which of the two was wrong is not told
        right = http.post("/api/signin", json={"name": "ALICE", "password": "correct horse"})
        assert right.status_code == 200 and right.json() == {"name": "Alice"}


@pytest.mark.parametrize("name, password, why", [
    ("al", "a good password", "3 to 20"), ("a" * 21, "a good password", "3 to 20"),
    ("<script>", "a good password", "letters"), ("bob smith", "a good password", "letters"),
    ("_bob", "a good password", "letter or digit"), ("alice", "short", "8 to 128"),
    ("alice", "x" * 129, "8 to 128"), (["alice"], "a good password", "name"),
    ("guest", "a good password", "kept"), ("Player2", "a good password", "kept"),
    ("beginner", "a good password", "kept"), ("Heuristic", "a good password", "kept"),
])
def test_bad_sign_ups_say_what_is_allowed(sqlite, name, password, why):
    with client(sqlite) as http:
        answer = http.post("/api/signup", json={"name": name, "password": password})
        assert answer.status_code == 400 and why in answer.json()["error"]


def test_names_are_taken_once_whatever_their_case_and_may_be_cyrillic(sqlite):
    with client(sqlite) as http:
        sign_up(http, "Нарды_Мастер")
        again = http.post("/api/signup", json={"name": "нарды_мастер",
                                                "password": "another password"})
        assert again.status_code == 409 and "taken" in again.json()["error"]


def test_sign_ins_are_rate_limited_per_address(sqlite):
    with client(sqlite, ServerConfig()) as limited:  # the default rates
        codes = [limited.post("/api/signin", json={"name": "x" * 5, "password": "y" * 8})
                 .status_code for _ in range(12)]
    assert codes[:10] == [401] * 10 and codes[10:] == [429, 429]


def test_account_names_show_on_tables_in_the_lobby_the_record_and_the_mat_file(sqlite):
    with client(sqlite) as http:
        sign_up(http, "Alice")
        made = new_table(http, seats=["human", "beginner"], kind="match", length=1,
                         clock={"delay": 0, "reserve": 5})
        row = next(r for r in http.get("/api/tables").json() if r["id"] == made["id"])
        assert row["seats"][0]["name"] == "Alice" and row["length"] == 1
        with connect(http, made["id"], made["token"]) as socket:
            table = until(socket, lambda t: t["question"] is not None)
            assert table["seats"][0]["name"] == "Alice"
            over = until(socket, lambda t: t["over"])  # Alice runs out of time
        assert over["timed_out"] == 0
        record = http.get(f"/api/tables/{made['id']}/record").json()
        assert record["seats"][0]["name"] == "Alice"
        mat = http.get(f"/api/tables/{made['id']}/match.mat").text
        assert "Alice" in mat


def _rated_match(http, reserve: int = 5, delay: int = 0):
    """Alice and Bob at a rated 3-point match with a clock: both seat links."""
    sign_up(http, "Alice")
    alice = new_table(http, seats=["human", "human"], kind="match", length=3, rated=True,
                      clock={"delay": delay, "reserve": reserve})
    http.post("/api/signout", json={})
    guest = http.post(f"/api/tables/{alice['id']}/seats", json={})
    assert guest.status_code == 400 and "sign in" in guest.json()["error"]
    sign_up(http, "Bob")
    bob = http.post(f"/api/tables/{alice['id']}/seats", json={})
    assert bob.status_code == 201
    return alice, bob.json()


def test_a_rated_match_lost_on_time_before_anyone_played_rates_nothing(database):
    """Both pages connect, nobody moves: the one on the clock loses the match on time,
    unrated (tests/test_web_trust.py has the rated results)."""
    with client(database) as http:
        alice, bob = _rated_match(http)
        with connect(http, alice["id"], alice["token"]) as socket, \
                connect(http, bob["id"], bob["token"]):
            table = until(socket, lambda t: t["question"] is not None
                          and t["clock"]["seat"] is not None)
            loser = table["question"]["seat"]
            over = until(socket, lambda t: t["over"])  # nobody moves: the clock runs out
        assert over["timed_out"] == loser
        assert over["closed"] == "not rated: each player makes 3 plays before a result counts"
        assert http.get("/api/leaderboard?pool=backgammon:match3").json()["players"] == []
        assert "ran out of time" in " ".join(line["text"] for line in over["lines"])


def test_one_account_cannot_take_both_seats_of_a_table(sqlite):
    with client(sqlite) as http:
        sign_up(http, "Alice")
        made = new_table(http, seats=["human", "human"], rated=True)
        again = http.post(f"/api/tables/{made['id']}/seats", json={})
        assert again.status_code == 400 and "already" in again.json()["error"]


def test_rated_tables_are_for_two_people_signed_in(sqlite):
    with client(sqlite) as http:
        answer = http.post("/api/tables", json={"variant": "backgammon",
                                                "seats": ["human", "human"], "rated": True})
        assert answer.status_code == 400 and "sign in" in answer.json()["error"]
        sign_up(http, "Alice")
        for body in ({"seats": ["human", "beginner"]}, {"seats": ["human", "human"],
                                                        "kind": "money"}):
            answer = http.post("/api/tables", json={"variant": "backgammon", "rated": True,
                                                    **body})
            assert answer.status_code == 400 and "two people" in answer.json()["error"]


def test_the_clock_waits_for_the_opponent_and_survives_a_restart(database):
    with client(database) as http:
        alice, bob = _rated_match(http, reserve=8)
        with connect(http, alice["id"], alice["token"]) as socket, \
                connect(http, bob["id"], bob["token"]):
            first = until(socket, lambda t: t["clock"]["seat"] is not None)
            on_clock = first["question"]["seat"] if first["question"] else None
            assert first["clock"]["seat"] == on_clock is not None
            time.sleep(1.5)
    down = time.time()
    time.sleep(1.0)  # the server is away; the clock runs on
    with client(database) as http:
        with connect(http, alice["id"], alice["token"]) as socket:
            again = state_of(socket)
            left = again["clock"]["left"][on_clock]
            assert left <= 8 - 2.5 + 0.3 and again["clock"]["seat"] == on_clock
            assert not again["over"]
            over = until(socket, lambda t: t["over"])
        assert over["timed_out"] == on_clock and time.time() - down >= 8 - 1.5 - 0.5


def test_chat_keeps_players_and_spectators_apart_as_text(sqlite):
    with client(sqlite) as http:
        made = new_table(http, seats=["human", "human"])
        other = http.post(f"/api/tables/{made['id']}/seats", json={}).json()
        with connect(http, made["id"], made["token"]) as player, \
                connect(http, made["id"], other["token"]) as opponent, \
                connect(http, made["id"]) as spectator:
            for socket in (player, opponent, spectator):
                state_of(socket)
            player.send_json({"type": "chat", "text": "  good <b>luck</b>\n\x07!  "})
            line = _chat(opponent)
            assert line["text"] == "good <b>luck</b> !" and line["name"] == "player 1"
            spectator.send_json({"type": "chat", "text": "nice roll"})
            assert _chat(spectator)["channel"] == "spectators"
            player.send_json({"type": "chat", "text": "second"})
            heard = []
            while not heard or heard[-1] != "second":
                heard.append(_chat(player)["text"])
            assert heard == ["good <b>luck</b> !", "second"]  # not the spectators' line
            player.send_json({"type": "chat", "text": "x" * 301})
            assert "at most 300" in refusal(player)["message"]
            player.send_json({"type": "chat", "text": "   "})
            assert "empty" in refusal(player)["message"]
        with connect(http, made["id"]) as late:  # a spectator who comes later
            lines = _chat(late, all_lines=True)
            assert [line["text"] for line in lines] == ["nice roll"]


def _chat(socket, all_lines: bool = False):
    while True:
        message = socket.receive_json()
        if message["type"] == "chat":
            return message["lines"] if all_lines else message["lines"][0]


def test_chat_is_rate_limited(sqlite):
    with client(sqlite) as http:
        made = new_table(http, seats=["human", "human"])
        with connect(http, made["id"], made["token"]) as player:
            state_of(player)
            for k in range(4):
                player.send_json({"type": "chat", "text": f"line {k}"})
            assert "too fast" in refusal(player)["message"]


def test_a_rematch_is_one_new_table_for_both_players(database):
    with client(database) as http:
        made = new_table(http, seats=["human", "human"], clock={"delay": 0, "reserve": 5})
        other = http.post(f"/api/tables/{made['id']}/seats", json={}).json()
        early = http.post(f"/api/tables/{made['id']}/rematch", json={"token": made["token"]})
        assert early.status_code == 400 and "over" in early.json()["error"]
        with connect(http, made["id"], made["token"]) as socket, \
                connect(http, made["id"], other["token"]):
            until(socket, lambda t: t["over"])  # someone's time runs out
        outsider = http.post(f"/api/tables/{made['id']}/rematch", json={"token": "x" * 24})
        assert outsider.status_code == 403
        first = http.post(f"/api/tables/{made['id']}/rematch", json={"token": other["token"]})
        # the free seat of the rematch is the opponent's, not a stranger's
        stranger = http.post(f"/api/tables/{first.json()['id']}/seats", json={})
        assert stranger.status_code == 400 and "kept" in stranger.json()["error"]
        listed = {row["id"]: row for row in http.get("/api/tables").json()}
        assert listed[first.json()["id"]]["free"] == []
        second = http.post(f"/api/tables/{made['id']}/rematch", json={"token": made["token"]})
        assert first.status_code == second.status_code == 201
        assert first.json()["id"] == second.json()["id"] != made["id"]
        assert (first.json()["seat"], second.json()["seat"]) == (1, 0)
        with connect(http, made["id"]) as watcher:
            assert state_of(watcher)["rematch"] == first.json()["id"]
        with connect(http, first.json()["id"], first.json()["token"]) as socket:
            again = state_of(socket)
            assert again["clock"]["reserve"] == 5 and not again["over"]


def test_the_leaderboard_names_its_pools(sqlite):
    with client(sqlite) as http:
        bad = http.get("/api/leaderboard?pool=chess:game")
        assert bad.status_code == 400 and "backgammon:match5" in bad.json()["error"]
        assert http.get("/api/leaderboard?pool=long-nardy:game").json()["players"] == []


def test_a_database_of_the_schema_before_players_is_brought_up_to_date(sqlite):
    with client(sqlite) as http:
        made = new_table(http, seats=["human", "human"])
    store = Store(sqlite)
    with store.writer.begin() as db:
        db.execute(text("DROP INDEX seats_by_user"))  # the sixth schema's, for player pages
        db.execute(text("DROP TABLE rating_history"))
        for table, column in (("tables", "clock"), ("tables", "deadline"),
                              ("tables", "rematch"), ("tables", "winner"),
                              ("seats", "user_id"), ("seats", "name")):
            db.execute(text(f"ALTER TABLE {table} DROP COLUMN {column}"))
    store.engine.dispose()
    upgraded = Store(sqlite)
    with upgraded.engine.connect() as db:
        assert {"clock", "deadline", "rematch", "winner"} <= {
            c["name"] for c in inspect(db).get_columns("tables")}
        assert "seats_by_user" in {i["name"] for i in inspect(db).get_indexes("seats")}
        assert "rating_history" in inspect(db).get_table_names()
    with client(sqlite) as http, connect(http, made["id"], made["token"]) as socket:
        assert state_of(socket)["you"] == 0


def test_what_was_told_before_an_account_sat_down_names_it(sqlite):
    with client(sqlite) as http:
        made = new_table(http, seats=["human", "human"])
        sign_up(http, "Bob")
        http.post(f"/api/tables/{made['id']}/seats", json={})
        with connect(http, made["id"], made["token"]) as socket:
            lines = " ".join(line["text"] for line in state_of(socket)["lines"])
        assert "Bob" in lines and "player 2" not in lines


def test_bot_levels_carry_the_ratings_their_duels_measured(sqlite):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from bot_ratings import difference

    from gammon.web.app import bot_ratings

    assert difference(0.5, 100) == 0.0
    assert round(difference(0.75, 100), 1) == 190.8  # 400 log10(3)
    assert difference(1.0, 99) == difference(0.99, 99)  # a clean sweep is not infinite
    measured = bot_ratings()
    assert measured, "gammon/web/data/bot_ratings.json ships with the package"
    with client(sqlite) as http:
        for found in http.get("/api/variants").json():
            for level in found["bots"]:
                assert level["rating"] == measured.get(found["name"], {}).get(level["bot"])
        backgammon = next(v for v in http.get("/api/variants").json()
                          if v["name"] == "backgammon")
        beginner = next(level for level in backgammon["bots"] if level["name"] == "beginner")
        assert beginner["rating"] == 1500


def test_a_move_that_arrives_after_the_deadline_loses_on_time(sqlite, monkeypatch):
    import gammon.web.rooms as rooms

    monkeypatch.setattr(rooms, "SWEEP", 3600.0)  # no sweep: the late move alone flags
    with client(sqlite) as http:
        made = new_table(http, seats=["human", "human"], clock={"delay": 0, "reserve": 5})
        other = http.post(f"/api/tables/{made['id']}/seats", json={}).json()
        with connect(http, made["id"], made["token"]) as first, \
                connect(http, made["id"], other["token"]):  # both pages: the clock runs
            asked = until(first, lambda t: t["clock"]["seat"] is not None)["question"]["seat"]
        token = made["token"] if asked == 0 else other["token"]
        with connect(http, made["id"], token) as socket:
            table = until(socket, lambda t: t.get("actions"))
            time.sleep(5.3)
            socket.send_json({"type": "act", "version": table["version"], "index": 0})
            assert "time ran out" in refusal(socket)["message"]
            over = until(socket, lambda t: t["over"])
        assert over["timed_out"] == asked


def test_every_level_offered_plays_its_variant():
    """A variant without a network (a new game) offers no `fast` level: every level of
    every menu makes a bot that plays that variant."""
    from gammon.agents.registry import make_agent
    from gammon.core.variant import variant, variant_names

    for name in variant_names():
        rules = variant(name)
        for level in ServerConfig().menu(rules).values():
            make_agent(level.spec, rules, 0)


@pytest.mark.parametrize("clock, why", [
    ({"delay": -5, "reserve": 60}, "delay is a whole number of seconds from 0 to 120"),
    ({"delay": 5, "reserve": 10**12}, "reserve is a whole number of seconds from 5"),
    ({"delay": "<script>", "reserve": 60}, "delay is a whole number"),
    ({"delay": 5, "reserve": 60, "per": "week"}, "per match or per game"),
    ({"delay": 5, "reserve": 60, "__proto__": 1}, "unknown clock fields"),
    ("12+180", "clock is an object"),
])
def test_a_clock_from_a_client_is_checked_field_by_field(sqlite, clock, why):
    with client(sqlite) as http:
        answer = http.post("/api/tables", json={"variant": "backgammon",
                                                "seats": ["human", "human"], "clock": clock})
        assert answer.status_code == 400 and why in answer.json()["error"], answer.text


def test_a_damaged_clock_in_the_database_sets_the_table_aside(sqlite):
    with client(sqlite) as http:
        made = new_table(http, seats=["human", "human"], clock={"delay": 5, "reserve": 60})
    store = Store(sqlite)
    with store.writer.begin() as db:
        db.execute(text("UPDATE tables SET clock = '{\"control\": {\"delay\": -1}}'"))
    with client(sqlite) as http:
        answer = http.post(f"/api/tables/{made['id']}/seats", json={})
        assert answer.status_code == 410 and "set aside" in answer.json()["error"]
        assert store.row(made["id"]).status == "quarantined"


def test_each_hypergammon_rates_into_its_own_pool():
    """Hypergammon with one, two or three checkers are three games: a table of each was
    rated into one pool, ``hypergammon``, that the leaderboard did not list."""
    from gammon.table.table import Seat, Table
    from gammon.web.accounts import pool_of

    def pool(name: str, kind: str = "game") -> str | None:
        table = Table(name, [Seat("human"), Seat("human")], kind=kind, length=3)
        return pool_of({"variant": table.name, "options": table.options,
                        "kind": table.kind, "length": table.length})

    assert [pool(f"hypergammon-{n}") for n in (1, 2, 3)] == [
        "hypergammon-1:game", "hypergammon-2:game", "hypergammon-3:game"]
    assert pool("hypergammon") == "hypergammon-3:game"  # its default: three checkers
    assert pool("backgammon", "match") == "backgammon:match3"
    assert pool_of({"variant": "backgammon", "options": {"made_up": 1}}) is None
