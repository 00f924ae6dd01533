"""Names and logins that can be trusted (issue 44): look-alike and blank names, names a
database cannot hold, and logins that end (docs/security.md, "Rated play")."""

from __future__ import annotations

import dataclasses
import time

import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, inspect, select, text, update
from starlette.testclient import TestClient
from webclient import FAST, new_table

from gammon.web import rooms
from gammon.web.accounts import COOKIE, LOGINS_PER_ACCOUNT, SECURE_COOKIE, Accounts, User
from gammon.web.app import create_app
from gammon.web.names import keys, skeleton
from gammon.web.store import Store, logins, users

PASSWORD = "a good password"
#: These tests sign up and in more often than an address may a minute.
NAMES = dataclasses.replace(FAST, rates=dataclasses.replace(
    FAST.rates, sign_ins_per_minute_per_address=10_000))


def client(database: str, **rates) -> TestClient:
    config = dataclasses.replace(NAMES, rates=dataclasses.replace(NAMES.rates, **rates))
    return TestClient(create_app(database, config=config))


@pytest.fixture
def sqlite(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


def sign_up(http, name: str, password: str = PASSWORD):
    return http.post("/api/signup", json={"name": name, "password": password})


def raw(http, path: str, body: str):
    """A request whose JSON text is sent as it is (a lone surrogate, which a JSON encoder
    of the client's side would refuse to send)."""
    return http.post(path, content=body.encode(),
                     headers={"content-type": "application/json"})


# --- look-alike names -------------------------------------------------------------------

@pytest.mark.parametrize("name", [
    "hеuristic",  # Cyrillic е: mixed scripts
    "ΒΟΤ",  # Greek capitals Beta, Omicron, Tau: one script, the skeleton of "BOT"
    "ΒΟΤ7",
    "ｂｅｇｉｎｎｅｒ",  # full width: NFKC makes it "beginner"
    "p1ayer",  # the digit one for an l
    "Guеst",
])
def test_a_look_alike_of_a_bot_level_or_a_seat_word_is_refused(sqlite, name):
    with client(sqlite) as http:
        answer = sign_up(http, name)
    assert answer.status_code == 400, answer.text
    assert "kept for the site's own use" in answer.json()["error"] or \
        "one script" in answer.json()["error"]


def test_a_cyrillic_look_alike_of_a_taken_name_is_refused(sqlite):
    with client(sqlite) as http:
        assert sign_up(http, "alice").status_code == 201
        mixed = sign_up(http, "аlice")  # Cyrillic а, Latin lice
        assert mixed.status_code == 400
        assert "one script, and this one mixes Cyrillic and Latin" in mixed.json()["error"]
        assert sign_up(http, "papa").status_code == 201
        cyrillic = sign_up(http, "рара")  # all Cyrillic: р, а, р, а
        assert cyrillic.status_code == 409
        assert "looks like one that is" in cyrillic.json()["error"]


@pytest.mark.parametrize("taken, look_alike", [
    ("alice", "aIice"),  # a capital I for the small l
    ("aIice", "alice"),  # the other way round
    ("mike", "rnike"),  # r n for m
    ("alice", "ɑlice"),  # Latin small alpha
    ("Coco", "сосо"),  # Cyrillic, and another case
    ("bob", "ｂｏｂ"),  # full width
])
def test_a_name_that_looks_like_a_taken_one_is_refused_either_way_round(sqlite, taken,
                                                                        look_alike):
    with client(sqlite) as http:
        assert sign_up(http, taken).status_code == 201
        answer = sign_up(http, look_alike)
    assert answer.status_code == 409 and "taken" in answer.json()["error"], answer.text


def test_names_unlike_each_other_are_all_taken_and_cyrillic_ones_are_allowed(sqlite):
    with client(sqlite) as http:
        for name in ("Алиса", "Alisa", "Нарды_Мастер", "alice", "ALICE2", "山田たろう",
                     "김철수", "नमस्ते", "Straßenmeisterschaft"):
            answer = sign_up(http, name)
            assert answer.status_code == 201 and answer.json() == {"name": name}, name
        assert sign_up(http, "алиса").status_code == 409  # case


def test_a_name_is_kept_nfkc_normalised(sqlite):
    with client(sqlite) as http:
        answer = sign_up(http, "ｂｏｂｂｙ")
        assert answer.status_code == 201 and answer.json() == {"name": "bobby"}
        assert http.get("/api/me").json()["name"] == "bobby"
        again = http.post("/api/signin", json={"name": "BOBBY", "password": PASSWORD})
        assert again.status_code == 200 and again.json() == {"name": "bobby"}


def test_sign_ins_at_one_account_are_counted_whatever_look_alike_spells_it(sqlite):
    with client(sqlite, sign_ins_per_hour_per_account=8) as http:
        assert sign_up(http, "papa").status_code == 201
        codes = [http.post("/api/signin", json={"name": spelling, "password": "wrong pass"})
                 .status_code for spelling in ["papa", "рара", "PAPA", "ｐａｐａ"] * 2]
        last = http.post("/api/signin", json={"name": "рара", "password": PASSWORD})
    assert codes == [401] * 8 and last.status_code == 429


# --- blank names ----------------------------------------------------------------------

@pytest.mark.parametrize("name, shown", [
    ("ㅤㅤㅤ", "U+3164 HANGUL FILLER"),
    ("playerㅤ1", "U+3164 HANGUL FILLER"),
    ("ﾠﾠﾠ", "U+FFA0 HALFWIDTH HANGUL FILLER"),
    ("bob\u115f\u1160", "U+115F HANGUL CHOSEONG FILLER"),
    ("ali\u200bce", "U+200B ZERO WIDTH SPACE"),
    ("alice\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
    ("ali\u034fce", "U+034F COMBINING GRAPHEME JOINER"),
    ("ali\u2800ce", "U+2800 BRAILLE PATTERN BLANK"),
    ("bob\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
])
def test_a_name_that_draws_nothing_or_holds_an_invisible_character_is_refused(
        sqlite, name, shown):
    with client(sqlite) as http:
        answer = sign_up(http, name)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert shown in error and "letters and digits of one script, with _ or -" in error


def test_zalgo_marks_are_refused_past_three_a_letter(sqlite):
    with client(sqlite) as http:
        assert sign_up(http, "bob" + "\u0301" * 3).status_code == 201
        answer = sign_up(http, "eve" + "\u0334\u0335\u0336\u0337")  # NFKC joins none
    assert answer.status_code == 400 and "at most 3 marks" in answer.json()["error"]


# --- names a database cannot hold -------------------------------------------------------

def test_a_name_whose_folded_key_is_longer_than_it_is_taken_once(database):
    """20 ß: its case-folded key is 40 characters (PostgreSQL answered 500)."""
    with client(database) as http:
        answer = sign_up(http, "ß" * 20)
        assert answer.status_code == 201, answer.text
        again = sign_up(http, "ẞ" * 20)  # the capital sharp s: ss too
        assert again.status_code == 409 and "taken" in again.json()["error"]
        back = http.post("/api/signin", json={"name": "ẞß" * 10, "password": PASSWORD})
        assert back.status_code == 200 and back.json() == {"name": "ß" * 20}


def test_a_nul_or_a_lone_surrogate_in_a_name_or_password_is_answered_400(database):
    """PostgreSQL refused the NUL, UTF-8 the surrogate: both answered 500."""
    with client(database) as http:
        assert sign_up(http, "alice").status_code == 201
        for path in ("/api/signup", "/api/signin"):
            nul = http.post(path, json={"name": "ali\x00ce", "password": PASSWORD})
            assert nul.status_code == 400, (path, nul.text)
            assert "NUL" in nul.json()["error"] or "U+0000" in nul.json()["error"]
            half = raw(http, path, '{"name": "ali\\ud800ce", "password": "' + PASSWORD + '"}')
            assert half.status_code == 400, (path, half.text)
            assert "surrogate" in half.json()["error"] or "U+D800" in half.json()["error"]
            password = raw(http, path, '{"name": "alice", "password": "a good \\udfff pass"}')
            assert password.status_code == 400 and "surrogate" in password.json()["error"]
        assert http.post("/api/signin", json={"name": "alice", "password": PASSWORD}
                         ).status_code == 200


# --- logins ---------------------------------------------------------------------------

def _logins(http) -> int:
    with http.app.state.store.engine.connect() as db:
        return db.execute(select(func.count()).select_from(logins)).scalar_one()


def test_expired_logins_are_deleted_by_the_sweep_and_at_sign_in(sqlite, monkeypatch):
    monkeypatch.setattr(rooms, "SLOW_SWEEP", 0.0)  # every sweep is a slow one
    with client(sqlite) as http:
        assert sign_up(http, "alice").status_code == 201
        store = http.app.state.store
        with store.writer.begin() as db:
            db.execute(update(logins).values(expires=time.time() - 1))
        assert http.get("/api/me").json() == {"name": None}
        deadline = time.time() + 20
        while _logins(http) and time.time() < deadline:
            time.sleep(0.2)
        assert _logins(http) == 0  # the sweep deleted it
    accounts = Accounts(Store(sqlite))
    user = accounts.sign_in("alice", PASSWORD)
    with accounts.store.writer.begin() as db:
        db.execute(logins.insert().values(token_hash="0" * 64, user_id=user.id,
                                          expires=time.time() - 1))
    token = accounts.new_login(user)
    with accounts.store.engine.connect() as db:
        left = db.execute(select(logins.c.token_hash)).scalars().all()
    assert left != [] and "0" * 64 not in left and accounts.user_of(token) == user


def test_an_account_keeps_its_newest_logins(sqlite):
    accounts = Accounts(Store(sqlite))
    user = accounts.sign_up("alice", PASSWORD)
    tokens = [accounts.new_login(user) for _ in range(LOGINS_PER_ACCOUNT + 5)]
    signed_in = [accounts.user_of(token) == user for token in tokens]
    assert signed_in == [False] * 5 + [True] * LOGINS_PER_ACCOUNT


def test_signing_out_everywhere_ends_every_login_of_the_account(sqlite):
    app = create_app(sqlite, config=NAMES)
    with TestClient(app) as phone, TestClient(app) as laptop, TestClient(app) as other:
        assert sign_up(phone, "alice").status_code == 201
        assert laptop.post("/api/signin", json={"name": "alice", "password": PASSWORD}
                           ).status_code == 200
        assert sign_up(other, "bob").status_code == 201
        here = phone.post("/api/signout", json={})
        assert here.json() == {"name": None, "ended": 1}
        assert laptop.get("/api/me").json()["name"] == "alice"  # only that one ended
        phone.post("/api/signin", json={"name": "alice", "password": PASSWORD})
        everywhere = laptop.post("/api/signout", json={"everywhere": True})
        assert everywhere.status_code == 200 and everywhere.json()["ended"] == 2
        assert phone.get("/api/me").json() == laptop.get("/api/me").json() == {"name": None}
        assert other.get("/api/me").json()["name"] == "bob"
        wrong = other.post("/api/signout", json={"everywhere": "yes"})
        assert wrong.status_code == 400 and "true or false" in wrong.json()["error"]
        unknown = other.post("/api/signout", json={"all": True})
        assert unknown.status_code == 400 and "everywhere" in unknown.json()["error"]
        assert other.get("/api/me").json()["name"] == "bob"


def test_over_https_the_login_is_a_host_cookie_and_over_http_a_plain_one(sqlite):
    app = create_app(sqlite, config=NAMES)
    with TestClient(app, base_url="https://testserver") as https, TestClient(app) as http:
        answer = sign_up(https, "alice")
        cookie = answer.headers["set-cookie"]
        assert cookie.startswith(SECURE_COOKIE + "=")
        attributes = [part.strip().lower() for part in cookie.split(";")[1:]]
        assert {"secure", "httponly", "path=/", "samesite=lax"} <= set(attributes)
        assert not any(part.startswith("domain") for part in attributes)
        assert https.get("/api/me").json()["name"] == "alice"
        made = new_table(https, seats=["human", "beginner"])
        row = next(r for r in https.get("/api/tables").json() if r["id"] == made["id"])
        assert row["seats"][0]["name"] == "alice"
        # A plain cookie planted over HTTP (or by a sibling host) signs nobody in there.
        plain = http.post("/api/signin", json={"name": "alice", "password": PASSWORD})
        assert plain.headers["set-cookie"].startswith(COOKIE + "=")
        assert "secure" not in plain.headers["set-cookie"].lower()
        assert http.get("/api/me").json()["name"] == "alice"  # local play keeps working
        token = http.cookies[COOKIE]
        https.cookies.clear()
        https.cookies.set(COOKIE, token)
        assert https.get("/api/me").json() == {"name": None}
        out = TestClient(app, base_url="https://testserver")
        out.cookies.set(SECURE_COOKIE, token)
        gone = out.post("/api/signout", json={})
        assert gone.json()["ended"] == 1
        assert gone.headers["set-cookie"].startswith(SECURE_COOKIE + '=""')
        assert "secure" in gone.headers["set-cookie"].lower()


# --- older databases ------------------------------------------------------------------

def test_a_database_keyed_by_casefolded_names_is_keyed_by_skeletons(database):
    """The fourth schema keyed names by casefold: ``alice`` and a Cyrillic ``аlice``
    could both be there. Both still sign in; no new look-alike of either is taken."""
    store = Store(database)
    with store.writer.begin() as db:
        db.execute(text("DROP INDEX users_by_shape"))
        db.execute(text("ALTER TABLE users DROP COLUMN shape"))
        if store.postgres:
            db.execute(text("ALTER TABLE users ALTER COLUMN key TYPE VARCHAR(32)"))
        for name in ("alice", "аlice", "Bob"):
            db.execute(text("INSERT INTO users (name, key, password, created, address) "
                            "VALUES (:name, :key, :password, 0, '')"),
                       {"name": name, "key": name.casefold(),
                        "password": PasswordHasher().hash(PASSWORD)})
    store.engine.dispose()
    with client(database) as http:
        with http.app.state.store.engine.connect() as db:
            assert "shape" in {c["name"] for c in inspect(db).get_columns("users")}
            stored = dict(db.execute(select(users.c.name, users.c.key)).all())
        assert stored["alice"] == keys("alice")[0] and stored["Bob"] == skeleton("bob")
        assert stored["аlice"].endswith("#2")
        for name in ("alice", "аlice", "BOB"):
            answer = http.post("/api/signin", json={"name": name, "password": PASSWORD})
            assert answer.status_code == 200 and answer.json()["name"] == \
                {"BOB": "Bob"}.get(name, name)
        assert sign_up(http, "ALICE").status_code == 409
        assert sign_up(http, "ВОВ").status_code == 409  # Cyrillic Ve, O, Ve: "BOB"
    user = User(1, "alice")
    assert Accounts(Store(database)).sign_in("ALICE", PASSWORD) == user
