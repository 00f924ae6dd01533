"""The player pages (issue 50): an account's ratings with their history, its games found
by opponent, game and day a page at a time, its results against the bots' levels; every
search parameter checked, and lookups limited per address (without a browser: the page
itself is in tests/test_web_browser_players.py)."""

from __future__ import annotations

import datetime

import pytest
from test_web_trust import A, play_until_over, rated_table, sign_up
from webclient import FAST, addressed_client, at, connect

from gammon.web.config import Rates, ServerConfig


@pytest.fixture
def sqlite(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


def sign_in(http, name: str, address: str) -> None:
    answer = http.post("/api/signin", json={"name": name, "password": "a good password"},
                       headers=at(address))
    assert answer.status_code == 200, answer.text


def play(http, table: dict, token: dict, decide=lambda seat, question: 0) -> dict:
    with connect(http, table["id"], table["token"]) as first, \
            connect(http, table["id"], token["token"]) as second:
        return play_until_over({0: first, 1: second}, first, decide)


def day(offset: int) -> str:
    return (datetime.datetime.now(datetime.UTC).date()
            + datetime.timedelta(days=offset)).isoformat()


def test_a_players_page_shows_ratings_with_history_games_and_results_against_bots(sqlite):
    with addressed_client(sqlite) as http:
        made, taken = rated_table(http, "Alice", "Bob")
        first = play(http, made, taken)
        assert first["closed"] is None, first["closed"]  # rated
        sign_in(http, "Alice", A)
        again = http.post("/api/tables", headers=at(A), json={
            "variant": "backgammon", "seats": ["human", "human"], "rated": True}).json()
        sign_in(http, "Bob", "198.51.100.2")
        bob = http.post(f"/api/tables/{again['id']}/seats", json={},
                        headers=at("198.51.100.2")).json()
        assert play(http, again, bob)["closed"] is None
        sign_in(http, "Alice", A)
        bot = http.post("/api/tables", headers=at(A), json={
            "variant": "backgammon", "seats": ["human", "beginner"], "kind": "match",
            "length": 1}).json()
        with connect(http, bot["id"], bot["token"]) as socket:
            over = play_until_over({0: socket}, socket, lambda seat, question: (
                {"resign": 1} if question["kind"] == "play" else 0))
        assert over["over"]

        page = http.get("/api/players/ALICE")  # names compared as accounts compare them
        assert page.status_code == 200, page.text
        alice = page.json()
        assert alice["name"] == "Alice"
        standing = alice["ratings"]["backgammon:game"]
        me = http.get("/api/me").json()["ratings"]["backgammon:game"]
        assert standing["games"] == 2 and standing["rating"] == me["rating"]
        history = standing["history"]
        assert [point["table"] for point in history] == [made["id"], again["id"]]
        assert history[-1]["rating"] == standing["rating"]
        assert history[0]["at"] <= history[1]["at"]
        # Each result as the rating moved: up after a win.
        results = ["won" if history[0]["rating"] > 1500 else "lost",
                   "won" if history[1]["rating"] > history[0]["rating"] else "lost"]

        games = alice["games"]
        assert [g["id"] for g in games] == [bot["id"], again["id"], made["id"]]
        assert games[0]["opponents"] == [{"name": "beginner", "account": False, "bot": True}]
        assert games[0]["result"] == "lost" and games[0]["kind"] == "match"
        assert games[1]["opponents"] == [{"name": "Bob", "account": True, "bot": False}]
        assert games[1]["rated"] and [games[2]["result"], games[1]["result"]] == results
        assert games[1]["links"] == {
            "table": f"/t/{again['id']}", "review": f"/t/{again['id']}/review",
            "record": f"/api/tables/{again['id']}/record",
            "mat": f"/api/tables/{again['id']}/match.mat"}
        assert http.get(games[1]["links"]["mat"]).status_code == 200
        assert alice["bots"] == [{"game": "backgammon", "level": "beginner", "won": 0,
                                  "lost": 1}]
        assert alice["next"] is None

        def found(**query) -> list[str]:
            answer = http.get("/api/players/Alice/games", params=query)
            assert answer.status_code == 200, answer.text
            return [g["id"] for g in answer.json()["games"]]

        assert found(opponent="bob") == [again["id"], made["id"]]
        assert found(opponent="Beginner") == [bot["id"]]
        assert found(opponent="nobody") == []
        assert found(game="backgammon", opponent="Bob") == [again["id"], made["id"]]
        assert found(game="hypergammon") == []
        assert found(since=day(0), until=day(0)) == [bot["id"], again["id"], made["id"]]
        assert found(since=day(1)) == [] and found(until=day(-1)) == []
        one = http.get("/api/players/Alice/games", params={"limit": 1}).json()
        assert [g["id"] for g in one["games"]] == [bot["id"]] and one["next"]
        assert found(limit=2, before=one["next"]) == [again["id"], made["id"]]
        bob_page = http.get("/api/players/bob").json()
        assert [g["id"] for g in bob_page["games"]] == [again["id"], made["id"]]
        assert bob_page["bots"] == []

        shown = http.get("/u/Alice")
        assert shown.status_code == 200 and "player.js" in shown.text
        missing = http.get("/api/players/nobody")
        assert missing.status_code == 404 and "no account" in missing.json()["error"]


@pytest.mark.parametrize("query, why", [
    ({"colour": "white"}, "unknown parameters"),
    ({"since": "07/12/2026"}, "YYYY-MM-DD"),
    ({"until": "2026-13-01"}, "YYYY-MM-DD"),
    ({"limit": "0"}, "1 to 50"), ({"limit": "51"}, "1 to 50"), ({"limit": "ten"}, "1 to 50"),
    ({"game": "chess"}, "not one played here"),
    ({"game": "<script>"}, "not one played here"),
    ({"before": "yesterday"}, "the next of the page before"),
    ({"before": "1.0~<b>"}, "the next of the page before"),
    ({"opponent": "x" * 41}, "an account's name or a bot level"),
])
def test_a_search_of_games_says_what_is_wrong_with_it(sqlite, query, why):
    with addressed_client(sqlite) as http:
        sign_up(http, "Alice", A)
        answer = http.get("/api/players/Alice/games", params=query)
        assert answer.status_code == 400 and why in answer.json()["error"], answer.text


def test_player_lookups_are_limited_per_address(sqlite):
    config = ServerConfig(limits=FAST.limits, rates=Rates(
        sign_ups_per_day_per_address=10, player_lookups_per_minute_per_address=3))
    with addressed_client(sqlite, config) as http:
        sign_up(http, "Alice", A)
        codes = [http.get("/api/players/Alice", headers=at(A)).status_code for _ in range(4)]
        other = http.get("/api/players/Alice/games", headers=at("198.51.100.9"))
    assert codes == [200, 200, 200, 429] and other.status_code == 200
