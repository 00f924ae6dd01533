"""Rated play that can be trusted (issue 44): each attack of the audit reproduced, and
what stops it (docs/security.md, "Rated play")."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest
from sqlalchemy import select, text
from webclient import FAST, addressed_client, at, client, connect, refusal, state_of, until

from gammon.web.accounts import LISTED_AFTER, PAIR_RATED_PER_DAY, PLAYS_TO_RATE
from gammon.web.config import Limits, Rates, ServerConfig
from gammon.web.store import Store, ratings, results

A, B, C = "10.0.0.1", "10.0.0.2", "10.0.0.3"


@pytest.fixture
def sqlite(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


def sign_up(http, name: str, address: str, password: str = "a good password"):
    answer = http.post("/api/signup", json={"name": name, "password": password},
                       headers=at(address))
    assert answer.status_code == 201, answer.text
    return answer


def rated_table(http, creator: str, taker: str, **body) -> tuple[dict, dict]:
    """A rated table made by ``creator`` (signed up just now from address A) with its
    second seat taken by ``taker`` (from address B): both seat links."""
    sign_up(http, creator, A)
    made = http.post("/api/tables", json={"variant": "backgammon", "seats": ["human", "human"],
                                           "rated": True, **body}, headers=at(A))
    assert made.status_code == 201, made.text
    sign_up(http, taker, B)
    taken = http.post(f"/api/tables/{made.json()['id']}/seats", json={}, headers=at(B))
    assert taken.status_code == 201, taken.text
    return made.json(), taken.json()


def play_until_over(sockets: dict[int, object], observer, decide) -> dict:
    """Both seats answer their questions: ``decide(seat, table)`` gives the message's
    answer (an index, or ``{"resign": level}``), until play is over."""
    table = state_of(observer)
    acted = -1
    while not table["over"]:
        question = table["question"]
        if question is not None and question["seat"] in sockets and \
                table["version"] != acted:
            answer = decide(question["seat"], question)
            body = answer if isinstance(answer, dict) else {"index": answer}
            sockets[question["seat"]].send_json(
                {"type": "act", "version": table["version"], **body})
            acted = table["version"]
        table = state_of(observer)
    return table


# --- 1. a forced rated loss -------------------------------------------------------------

def test_a_seat_taken_by_a_page_that_never_connects_loses_no_time(sqlite):
    """The attack: a page of another site sends a signed-in visitor to /t/ID#join; the
    seat was taken at once and the attacker's 0 s + 5 s clock ran the visitor out. Now
    no rated clock is that fast, and no clock runs until both players' pages are here."""
    config = dataclasses.replace(FAST, limits=Limits())  # the rated clock's minimum
    with addressed_client(sqlite, config) as http:
        sign_up(http, "Mallory", A)
        fast = http.post("/api/tables", headers=at(A), json={
            "variant": "backgammon", "seats": ["human", "human"], "rated": True,
            "clock": {"delay": 0, "reserve": 5}})
        assert fast.status_code == 400 and "a rated clock gives at least 8 s" in \
            fast.json()["error"]
        mallory, visitor = rated_table(http, "Mallory2", "Visitor",
                                       clock={"delay": 8, "reserve": 60})
        with connect(http, mallory["id"], mallory["token"]) as socket:
            first = state_of(socket)
            assert first["clock"]["seat"] is None  # the visitor's page has not come
            time.sleep(1.5)
        store = Store(sqlite)
        row = store.row(mallory["id"])
        assert row is not None and '"seat": null' in row.clock
        with store.engine.connect() as db:
            assert db.execute(text("SELECT deadline FROM tables")).scalar_one() == 0
        with connect(http, mallory["id"], mallory["token"]) as socket:
            assert state_of(socket)["clock"]["left"] == [60.0, 60.0]
            with connect(http, visitor["id"], visitor["token"]):  # now both are here
                table = until(socket, lambda t: t["clock"]["seat"] is not None)
                assert table["clock"]["seat"] == table["question"]["seat"]


# --- 2. rating farming ------------------------------------------------------------------

def test_a_puppet_resigning_at_its_first_decision_gains_its_farmer_nothing(sqlite):
    """The attack: a farmer and a puppet from one address; the puppet resigns at its first
    decision, and the farmer went from 1500 to 1857, first on the leaderboard."""
    with addressed_client(sqlite) as http:
        sign_up(http, "Farmer", A)
        made = http.post("/api/tables", headers=at(A), json={
            "variant": "backgammon", "seats": ["human", "human"], "rated": True,
            "kind": "match", "length": 1}).json()
        sign_up(http, "Puppet", A)
        puppet = http.post(f"/api/tables/{made['id']}/seats", json={}, headers=at(A)).json()
        with connect(http, made["id"], made["token"]) as farmer_socket, \
                connect(http, made["id"], puppet["token"]) as puppet_socket:
            sockets = {0: farmer_socket, 1: puppet_socket}
            over = play_until_over(sockets, farmer_socket, lambda seat, q: (
                {"resign": 3} if seat == 1 and q["kind"] == "play" else 0))
        assert over["over"] and over["closed"].startswith("not rated")
        with Store(sqlite).engine.connect() as db:
            assert db.execute(select(ratings)).all() == []
            kept = db.execute(select(results)).one()
        assert not kept.rated and f"{PLAYS_TO_RATE} plays" in kept.why
        assert http.get("/api/leaderboard?pool=backgammon:match1").json()["players"] == []


def test_accounts_of_one_address_are_not_rated_against_each_other(sqlite):
    with addressed_client(sqlite) as http:
        sign_up(http, "Farmer", A)
        made = http.post("/api/tables", headers=at(A), json={
            "variant": "backgammon", "seats": ["human", "human"], "rated": True}).json()
        sign_up(http, "Puppet", A)
        # The puppet takes its seat from another address: its account was made from the
        # farmer's.
        puppet = http.post(f"/api/tables/{made['id']}/seats", json={}, headers=at(B)).json()
        with connect(http, made["id"], made["token"]) as first, \
                connect(http, made["id"], puppet["token"]) as second:
            over = play_until_over({0: first, 1: second}, first, lambda seat, q: 0)
        assert over["closed"] == "not rated: both accounts play from one address"


def test_a_pair_of_accounts_is_rated_a_few_times_a_day(sqlite):
    with addressed_client(sqlite) as http:
        sign_up(http, "Alice", A)
        sign_up(http, "Bob", B)
        notes = []
        for _ in range(PAIR_RATED_PER_DAY + 1):
            http.post("/api/signin", json={"name": "Alice", "password": "a good password"},
                      headers=at(A))
            made = http.post("/api/tables", headers=at(A), json={
                "variant": "backgammon", "seats": ["human", "human"], "rated": True}).json()
            http.post("/api/signin", json={"name": "Bob", "password": "a good password"},
                      headers=at(B))
            bob = http.post(f"/api/tables/{made['id']}/seats", json={}, headers=at(B)).json()
            with connect(http, made["id"], made["token"]) as first, \
                    connect(http, made["id"], bob["token"]) as second:
                over = play_until_over({0: first, 1: second}, first, lambda seat, q: 0)
            notes.append(over["closed"])
        assert notes[:PAIR_RATED_PER_DAY] == [None] * PAIR_RATED_PER_DAY, notes
        assert "rated results of the day" in notes[-1]
        # Rated, but provisional: on the leaderboard only after its first games.
        me = http.get("/api/me").json()
        assert me["name"] == "Bob", me
        me = me["ratings"]["backgammon:game"]
        assert me["games"] == PAIR_RATED_PER_DAY and me["provisional"]
        assert PAIR_RATED_PER_DAY < LISTED_AFTER
        assert http.get("/api/leaderboard?pool=backgammon:game").json()["players"] == []


def test_an_address_makes_a_few_accounts_a_day(sqlite):
    with addressed_client(sqlite, config=config_with()) as http:
        for n in range(3):
            sign_up(http, f"puppet{n}", C)
        fourth = http.post("/api/signup", json={"name": "puppet3", "password": "a good password"},
                           headers=at(C))
        assert fourth.status_code == 400 and "3 accounts today" in fourth.json()["error"]
        sign_up(http, "someone", A)  # another address is not held back


def config_with(**rates):
    """FAST, with the default limit on sign-ups (and ``rates`` as given)."""
    return dataclasses.replace(FAST, rates=dataclasses.replace(
        FAST.rates, sign_ups_per_day_per_address=Rates().sign_ups_per_day_per_address,
        **rates))


# --- 3. sign-ins stall no table ---------------------------------------------------------

def test_password_hashing_has_a_pool_of_its_own_and_a_cap(sqlite, monkeypatch):
    """The attack: 50 wrong sign-ins stalled every table for seconds (Argon2id in the
    threads every move runs in). Now hashing waits in a pool of its own: with that pool
    stuck, a table still plays, and sign-ins past the cap are refused at once."""
    from argon2 import PasswordHasher

    release = threading.Event()
    threads = []
    real_verify = PasswordHasher.verify

    def stuck_verify(self, digest, password):
        threads.append(threading.current_thread().name)
        release.wait(30)
        return real_verify(self, digest, password)

    config = config_with(sign_ins_per_minute_per_address=1000,
                              sign_ins_per_hour_per_account=1000, hashing_queue=4)
    with client(sqlite, config) as http:
        sign_up_plain = http.post("/api/signup", json={"name": "Alice",
                                                       "password": "a good password"})
        assert sign_up_plain.status_code == 201
        monkeypatch.setattr(PasswordHasher, "verify", stuck_verify)
        answers: list[int] = []

        def wrong_sign_in() -> None:
            answers.append(http.post("/api/signin", json={
                "name": "Alice", "password": "wrong password"}).status_code)

        guessers = [threading.Thread(target=wrong_sign_in) for _ in range(6)]
        for guesser in guessers:
            guesser.start()
        deadline = time.monotonic() + 10
        while len(answers) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sorted(answers) == [503, 503]  # past the cap of 4: refused at once
        # Meanwhile a table is made and played on.
        made = http.post("/api/tables", json={"variant": "backgammon",
                                              "seats": ["human", "beginner"]}).json()
        with connect(http, made["id"], made["token"]) as socket:
            table = until(socket, lambda t: t.get("actions"))
            socket.send_json({"type": "act", "version": table["version"], "index": 0})
            until(socket, lambda t: t["version"] > table["version"])
        assert len(answers) == 2  # the four are still hashing
        release.set()
        for guesser in guessers:
            guesser.join(30)
        assert sorted(answers) == [401, 401, 401, 401, 503, 503]
        assert set(threads) == {"gammon-argon2_0"}


def test_the_clock_is_charged_until_the_move_arrived_not_until_it_was_made(sqlite,
                                                                          monkeypatch):
    """The attack's other half: a busy server charged a player 16 s for a move sent in
    0.3 s. A commit held up by 3 s charges the mover nothing of them."""
    from gammon.web.rooms import Lobby

    real_commit = Lobby.commit

    def slow_commit(self, room, change, **kwargs):
        if change is not None and kwargs.get("decided") is not None:
            time.sleep(3.0)  # the server is busy elsewhere
        return real_commit(self, room, change, **kwargs)

    with client(sqlite) as http:
        made = http.post("/api/tables", json={"variant": "backgammon", "seats": ["human", "human"],
                                              "clock": {"delay": 0, "reserve": 60}}).json()
        other = http.post(f"/api/tables/{made['id']}/seats", json={}).json()
        tokens = {0: made["token"], 1: other["token"]}
        with connect(http, made["id"], tokens[0]) as first, \
                connect(http, made["id"], tokens[1]) as second:
            table = until(first, lambda t: t["clock"]["seat"] is not None)
            mover = table["clock"]["seat"]
            socket = first if mover == 0 else second
            # the state that started the clock may already be the mover's question
            asked = table if socket is first and table.get("actions") else \
                until(socket, lambda t: t.get("actions"))
            monkeypatch.setattr(Lobby, "commit", slow_commit)
            socket.send_json({"type": "act", "version": asked["version"], "index": 0})
            after = until(socket, lambda t: t["version"] > asked["version"]
                          and t["clock"]["seat"] != mover)
        assert after["clock"]["left"][mover] > 60 - 1.5, after["clock"]


# --- 4. rematches count as creations ----------------------------------------------------

def test_a_rematch_counts_against_the_open_tables_of_its_address(sqlite):
    config = dataclasses.replace(FAST, limits=Limits(open_tables_per_address=2))
    with client(sqlite, config) as http:
        made = http.post("/api/tables", json={"variant": "hypergammon-1",
                                              "seats": ["human", "beginner"]}).json()
        with connect(http, made["id"], made["token"]) as socket:
            play_until_over({0: socket}, socket, lambda seat, q: 0)
        http.post("/api/tables", json={"variant": "backgammon", "seats": ["human", "beginner"]})
        http.post("/api/tables", json={"variant": "backgammon", "seats": ["human", "beginner"]})
        again = http.post(f"/api/tables/{made['id']}/rematch", json={"token": made["token"]})
        assert again.status_code == 429 and "2 open tables" in again.json()["error"]


# --- 5. a row that does not read is set aside, and the site serves on --------------------

def test_a_table_whose_settings_are_not_json_is_set_aside_and_the_lobby_serves(sqlite):
    from gammon.web import admin

    with client(sqlite) as http:
        bad = http.post("/api/tables", json={"variant": "backgammon",
                                             "seats": ["human", "beginner"]}).json()
        good = http.post("/api/tables", json={"variant": "backgammon",
                                              "seats": ["human", "beginner"]}).json()
    store = Store(sqlite)
    checked, damaged = admin.verify(store, ServerConfig())
    assert damaged == []
    with store.writer.begin() as db:
        db.execute(text("UPDATE tables SET settings = 'not json{' WHERE id = :id"),
                   {"id": bad["id"]})
    checked, damaged = admin.verify(store, ServerConfig())  # lists it, crashes not
    assert [d.id for d in damaged] == [bad["id"]] and "not JSON" in damaged[0].reason
    with client(sqlite) as http:
        listed = http.get("/api/tables")
        assert listed.status_code == 200
        assert [row["id"] for row in listed.json()] == [good["id"]]
        assert store.row(bad["id"]).status == "quarantined"
        assert http.get(f"/t/{bad['id']}").status_code == 410


def test_a_log_entry_that_is_not_json_sets_its_table_aside_not_its_socket_on_fire(sqlite):
    with client(sqlite) as http:
        made = http.post("/api/tables", json={"variant": "backgammon",
                                              "seats": ["human", "beginner"]}).json()
    store = Store(sqlite)
    with store.writer.begin() as db:
        db.execute(text("UPDATE entries SET entry = '{\"roll\": [1' WHERE idx = 0"))
    with client(sqlite) as http:
        for _ in range(2):
            with connect(http, made["id"], made["token"]) as socket:
                message = socket.receive_json()
                assert message["type"] == "error" and "set aside" in message["message"]
        assert store.row(made["id"]).status == "quarantined"
        assert "log entry 1 of game 1 is not JSON" in store.row(made["id"]).reason


# --- the also-list: passwords and sign-ins per account ----------------------------------

@pytest.mark.parametrize("password", ["password123", "aaaaaaaaaa", "Alice1234", "12345678"])
def test_the_commonest_passwords_are_refused(sqlite, password):
    with client(sqlite) as http:
        answer = http.post("/api/signup", json={"name": "Alice", "password": password})
        assert answer.status_code == 400 and "attacker tries" in answer.json()["error"]


def test_sign_ins_are_limited_per_account_from_any_number_of_addresses(sqlite):
    config = config_with(sign_ins_per_hour_per_account=5)
    with addressed_client(sqlite, config) as http:
        sign_up(http, "Alice", A)
        codes = [http.post("/api/signin", json={"name": "alice", "password": "guess"},
                           headers=at(f"10.1.0.{n}")).status_code for n in range(7)]
        assert codes == [401] * 5 + [429] * 2


# --- the also-list: chat per person and per address, none at a finished table -----------

def test_chat_is_limited_per_person_not_per_connection(sqlite):
    """Forty sockets must not say forty times as much: the spectator's fourth line is
    refused though each of four connections has sent one line only."""
    with client(sqlite) as http:
        made = http.post("/api/tables", json={"variant": "backgammon",
                                              "seats": ["human", "human"]}).json()
        sockets = [connect(http, made["id"]) for _ in range(4)]
        watchers = [manager.__enter__() for manager in sockets]
        try:
            for n, watcher in enumerate(watchers):
                state_of(watcher)
                watcher.send_json({"type": "chat", "text": f"line {n}"})
            assert "too fast" in refusal(watchers[-1])["message"]
        finally:
            for manager in sockets:
                manager.__exit__(None, None, None)


def test_chat_is_limited_per_address_across_its_accounts(sqlite):
    config = config_with(chat_lines_per_minute_per_address=4)
    with addressed_client(sqlite, config) as http:
        made = http.post("/api/tables", json={"variant": "backgammon",
                                              "seats": ["human", "human"]}).json()
        said = []
        for name in ("Alice", "Bob"):
            sign_up(http, name, A)  # the client's cookie is now this account's
            with http.websocket_connect(f"/ws/{made['id']}", headers=at(A)) as watcher:
                watcher.send_json({"type": "hello", "token": None})
                state_of(watcher)
                for n in range(3):
                    watcher.send_json({"type": "chat", "text": f"{name} {n}"})
                    said.append(answer_to_chat(watcher))
        assert said[:4] == ["Alice 0", "Alice 1", "Alice 2", "Bob 0"]
        assert "too much chat from your address" in said[4]
        assert "at most 4 lines a minute" in said[4]


def answer_to_chat(socket) -> str:
    """What the server answered a chat line: the line as shown, or the refusal."""
    while True:
        message = socket.receive_json()
        if message["type"] == "error":
            return message["message"]
        if message["type"] == "chat" and len(message["lines"]) == 1:
            return message["lines"][0]["text"]


def test_no_chat_is_kept_at_a_finished_table(sqlite):
    with client(sqlite) as http:
        made = http.post("/api/tables", json={"variant": "hypergammon-1",
                                              "seats": ["human", "beginner"]}).json()
        with connect(http, made["id"], made["token"]) as socket:
            play_until_over({0: socket}, socket, lambda seat, q: 0)
            socket.send_json({"type": "chat", "text": "gg, sucker"})
            assert "chat is closed" in refusal(socket)["message"]
    with Store(sqlite).reader.connect() as db:
        assert db.execute(text("SELECT count(*) FROM chat")).scalar() == 0


# --- the also-list: walking away from a rated game is not free ---------------------------

def test_walking_away_from_a_rated_game_without_a_clock_loses_it(sqlite):
    """A rated table with no clock used to be archived unrated once idle: the player who
    was losing walked away for free. Now the one asked, gone for the idle limit, loses."""
    with addressed_client(sqlite) as http:
        made, taken = rated_table(http, "Alice", "Bob")
        plays = {0: 0, 1: 0}
        with connect(http, made["id"], made["token"]) as first, \
                connect(http, made["id"], taken["token"]) as second:
            sockets = {0: first, 1: second}
            table = state_of(first)
            acted = -1
            while min(plays.values()) < PLAYS_TO_RATE + 1:
                question = table["question"]
                if question is not None and table["version"] != acted:
                    plays[question["seat"]] += question["kind"] == "play"
                    sockets[question["seat"]].send_json(
                        {"type": "act", "version": table["version"], "index": 0})
                    acted = table["version"]
                table = state_of(first)
        gone = table["question"]["seat"]
        app = http.app.app  # inside the test's address wrapper
        lobby = app.state.lobby
        lobby.config = dataclasses.replace(lobby.config, limits=Limits(idle_minutes=0.001))
        time.sleep(0.1)
        assert http.portal.call(lobby.sweeps.close_idle) == 1
        saved = app.state.store.row(made["id"])
        assert saved.status == "over" and saved.reason == ""
        with Store(sqlite).engine.connect() as db:
            kept = db.execute(select(results)).one()
        users = lobby.rooms[made["id"]].users
        assert kept.rated and (kept.loser, kept.winner) == (users[gone], users[1 - gone])


# --- the also-list: the bots' workers shared fairly, reviews capped per address ----------

def test_the_bots_workers_go_round_the_addresses_in_turn():
    """Five busy tables of one address doubled another player's bot wait: each job of
    theirs queued behind all five. Now the next free worker goes to the address whose
    turn it is: B's one decision is second, not sixth."""
    import asyncio

    from gammon.web.workers import FairShare

    async def scenario() -> list[str]:
        share = FairShare(1)
        served: list[str] = []
        release = asyncio.Event()

        async def job(owner: str, hold: bool = False) -> None:
            async with share.slot(owner):
                served.append(owner)
                if hold:
                    await release.wait()
                await asyncio.sleep(0)

        first = asyncio.create_task(job("A", hold=True))
        await asyncio.sleep(0)
        jobs = [asyncio.create_task(job("A")) for _ in range(4)]
        await asyncio.sleep(0)
        late = asyncio.create_task(job("B"))
        gone = asyncio.create_task(job("C"))
        await asyncio.sleep(0)
        gone.cancel()  # a job given up while it waits gives its turn away
        release.set()
        await asyncio.gather(first, late, *jobs)
        assert share.busy == 0 and not share.waiting
        return served

    assert asyncio.run(scenario()) == ["A", "A", "B", "A", "A", "A"]


def test_an_address_has_one_review_made_at_a_time(sqlite, monkeypatch):
    """Reviews (a 1-ply analysis of every decision, in the bots' workers) could be asked
    for by the dozen and starve other tables' bots. An address has one made at a time,
    in its share of the workers."""
    release = threading.Event()
    owners: list[str] = []

    async def held_review(function, *args, budget, owner=""):
        import asyncio

        owners.append(owner)
        while not release.is_set():
            await asyncio.sleep(0.01)
        return "<p>a review</p>"

    with addressed_client(sqlite) as http:
        finished = []
        for _ in range(2):
            made = http.post("/api/tables", json={"variant": "hypergammon-1",
                                                  "seats": ["human", "beginner"]}).json()
            with connect(http, made["id"], made["token"]) as socket:
                play_until_over({0: socket}, socket, lambda seat, q: 0)
            finished.append(made["id"])
        monkeypatch.setattr(http.app.app.state.lobby.thinkers, "run", held_review)
        answers: dict[str, int] = {}
        waiting = threading.Thread(target=lambda: answers.update(
            first=http.get(f"/t/{finished[0]}/review", headers=at(A)).status_code))
        waiting.start()
        deadline = time.monotonic() + 10
        while not owners and time.monotonic() < deadline:
            time.sleep(0.01)
        second = http.get(f"/t/{finished[1]}/review", headers=at(A))
        assert second.status_code == 429 and "being made" in second.json()["error"]
        other = threading.Thread(target=lambda: answers.update(
            other=http.get(f"/t/{finished[1]}/review", headers=at(B)).status_code))
        other.start()
        while len(owners) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        release.set()
        waiting.join(10)
        other.join(10)
        assert answers == {"first": 200, "other": 200}
        assert len(set(owners)) == 2  # each in its own address's share
