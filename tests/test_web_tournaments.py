"""Tournaments (issue 50): Swiss, knockout and arena pairings and scores, the settings a
tournament is made with, and a whole Swiss through the API with a player who does not
come (the browser's, with a server killed between rounds, is in
tests/test_web_browser_tournament.py)."""

from __future__ import annotations

import dataclasses
import time

import pytest
from test_web_trust import play_until_over, sign_up
from webclient import FAST, addressed_client, at, connect, state_of

from gammon.core.errors import GammonError, InvalidOptionError
from gammon.table.table import Table
from gammon.web.config import load_config
from gammon.web.tournaments import (
    Entry,
    Game,
    arena_pairs,
    arena_points,
    checked,
    knockout_round,
    rounds_for,
    standings,
    swiss_round,
)


def entry(user: int, score: float = 0.0, rating: float = 1500.0, **more) -> Entry:
    return Entry(user, f"p{user}", rating, float(user), score, **more)


# --- pairings and scores ----------------------------------------------------------------

def test_a_swiss_round_pairs_by_score_and_never_twice():
    players = [entry(1, 1), entry(2, 1), entry(3, 0), entry(4, 0)]
    assert swiss_round(players, []) == [(1, 2), (3, 4)]
    played = [Game(1, 1, 2, winner=1), Game(1, 3, 4, winner=3)]
    # 1 and 2 met: 1 goes down to the next it has not met, and the rest follow.
    assert swiss_round(players, played) == [(1, 3), (2, 4)]
    # Going back: 1-3 and 2-4 met too, and 1-4 leaves 2-3, which is new.
    more = [*played, Game(2, 1, 3, winner=1), Game(2, 2, 4, winner=2)]
    assert swiss_round(players, more) == [(1, 4), (2, 3)]
    assert rounds_for(4) == 2 and rounds_for(5) == 3 and rounds_for(2) == 1
    withdrawn = [entry(1), entry(2), entry(3, out=True)]
    assert swiss_round(withdrawn, []) == [(1, 2)]  # who withdrew is not paired again


def test_an_odd_swiss_gives_the_bye_to_the_lowest_without_one():
    players = [entry(1, 2), entry(2, 1), entry(3, 1), entry(4, 0), entry(5, 0)]
    assert swiss_round(players, [])[-1] == (5, None)
    had = [Game(1, 5, None, winner=5)]
    assert swiss_round(players, had)[-1] == (4, None)


def test_a_knockout_seeds_the_best_against_the_worst_and_the_best_sits_out_an_odd_one():
    players = [entry(k, rating=1500 + 100 * k) for k in range(1, 6)]
    assert knockout_round(players) == [(4, 1), (3, 2), (5, None)]
    assert knockout_round(players[:3]) == [(2, 1), (3, None)]
    knocked_out = [*players[:3], dataclasses.replace(players[3], out=True)]
    assert knockout_round(knocked_out) == [(2, 1), (3, None)]  # the loser is not paired


def test_an_arena_pairs_the_nearest_free_but_not_the_one_just_met_and_rewards_a_streak():
    free = [entry(1, 6), entry(2, 4), entry(3, 2), entry(4, 0)]
    assert arena_pairs(free, {}) == [(1, 2), (3, 4)]
    assert arena_pairs(free, {1: 2, 2: 1}) == [(1, 3), (2, 4)]
    assert arena_pairs(free[:2], {1: 2, 2: 1}) == [(1, 2)]  # nobody else is free
    assert [arena_points(streak) for streak in (0, 1, 2, 5)] == [2, 2, 4, 4]


def test_standings_break_ties_by_the_opponents_scores():
    players = [entry(1, 1), entry(2, 1), entry(3, 0), entry(4, 3)]
    games = [Game(1, 1, 3, winner=1), Game(1, 2, 4, winner=4)]
    table = standings(players, games)
    assert [row.user_id for row in table] == [4, 2, 1, 3]  # 2 met the leader
    assert [row.tiebreak for row in table] == [1, 3, 0, 1]
    assert [(row.played, row.won) for row in table] == [(1, 1), (1, 0), (1, 1), (1, 0)]


@pytest.mark.parametrize("body, why", [
    ({"name": "ab"}, "3 to 60 characters"),
    ({"name": "x" * 61}, "3 to 60 characters"),
    ({"name": "Cup\x00"}, "no control characters"),
    ({"name": "Cup", "kind": "round-robin"}, "swiss, knockout, arena"),
    ({"name": "Cup", "variant": "multi-gam"}, "a game of two players"),
    ({"name": "Cup", "length": 0}, "length is a whole number from 1 to 25"),
    ({"name": "Cup", "rounds": 16}, "rounds is a whole number from 0 to 15"),
    ({"name": "Cup", "kind": "arena", "minutes": 500}, "minutes is a whole number"),
    ({"name": "Cup", "capacity": 1}, "capacity is a whole number from 2 to 128"),
    ({"name": "Cup", "clock": None}, "have a clock"),
    ({"name": "Cup", "prize": 100}, "unknown fields"),
    ({"name": "Cup", "description": 5}, "description is text"),
])
def test_a_tournament_is_made_from_checked_fields(body, why):
    with pytest.raises(InvalidOptionError, match=why):
        checked(body, 128)
    assert checked({"name": "  Cup  "}, 128).name == "Cup"


# --- a whole Swiss through the API ------------------------------------------------------

PEOPLE = {"Alice": "10.1.0.1", "Bob": "10.1.0.2", "Carol": "10.1.0.3", "Dave": "10.1.0.4"}
SHOW = dataclasses.replace(FAST, limits=dataclasses.replace(FAST.limits,
                                                            tournament_show_seconds=4.0))


def as_(http, name: str) -> dict[str, str]:
    answer = http.post("/api/signin", json={"name": name, "password": "a good password"},
                       headers=at(PEOPLE[name]))
    assert answer.status_code == 200, answer.text
    return at(PEOPLE[name])


def until_round(http, tournament: str, number: int, seconds: float = 30) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        shown = http.get(f"/api/tournaments/{tournament}").json()
        if shown["status"] == "over" or (shown["round"] >= number and all(
                g["winner"] is None or g["second"] is None
                for g in shown["rounds"][number - 1]["games"])):
            return shown
        time.sleep(0.2)
    raise AssertionError(f"round {number} never came: {shown}")


def play_round(http, shown: dict, number: int, absent: str) -> None:
    """Each table of round ``number``: its present players take their seats; where both
    came, the first to play resigns; the absent one's opponent waits for the forfeit."""
    for game in shown["rounds"][number - 1]["games"]:
        if game["second"] is None:
            continue
        seated = {}
        for name in (game["first"], game["second"]):
            if name == absent:
                continue
            taken = http.post(f"/api/tables/{game['table']}/seats", json={},
                              headers=as_(http, name))
            assert taken.status_code == 201, taken.text
            seated[taken.json()["seat"]] = taken.json()["token"]
        if len(seated) == 2:
            with connect(http, game["table"], seated[0]) as first, \
                    connect(http, game["table"], seated[1]) as second:
                over = play_until_over({0: first, 1: second}, first, lambda seat, q: (
                    {"resign": 1} if q["kind"] == "play" else 0))
            assert over["over"]
        else:
            (seat, token), = seated.items()
            with connect(http, game["table"], token) as socket:  # there: it arrives
                assert state_of(socket)["you"] == seat
                time.sleep(0.2)


def test_a_swiss_of_four_runs_to_its_end_with_a_player_who_never_comes(tmp_path):
    with addressed_client(f"sqlite:///{tmp_path / 'tables.db'}", SHOW) as http:
        for name, where in PEOPLE.items():
            sign_up(http, name, where)
        made = http.post("/api/tournaments", headers=as_(http, "Alice"), json={
            "name": "Tuesday Swiss", "description": "1-point matches, <b>two</b> rounds",
            "kind": "swiss", "length": 1, "rounds": 2, "starts_in": 60,
            "clock": {"delay": 8, "reserve": 60}})
        assert made.status_code == 201, made.text
        tournament = made.json()["id"]
        early = http.post(f"/api/tournaments/{tournament}/start", json={},
                          headers=as_(http, "Alice"))
        assert early.status_code == 409  # nobody has entered yet
        for name in PEOPLE:
            joined = http.post(f"/api/tournaments/{tournament}/join", json={},
                               headers=as_(http, name))
            assert joined.json() == {"status": "entered"}, joined.text
        again = http.post(f"/api/tournaments/{tournament}/join", json={},
                          headers=as_(http, "Bob"))
        assert again.status_code == 409 and "already" in again.json()["error"]
        stranger = http.post(f"/api/tournaments/{tournament}/start", json={},
                             headers=as_(http, "Bob"))
        assert stranger.status_code == 403
        listed = http.get("/api/tournaments").json()
        assert [t["players"] for t in listed["open"]] == [4]
        assert http.post(f"/api/tournaments/{tournament}/start", json={},
                         headers=as_(http, "Alice")).json() == {"status": "starting"}

        first = until_round(http, tournament, 1)
        assert first["status"] == "running" and len(first["rounds"][0]["games"]) == 2
        pairs = [{g["first"], g["second"]} for g in first["rounds"][0]["games"]]
        assert sorted(name for pair in pairs for name in pair) == sorted(PEOPLE)
        me = http.get(f"/api/tournaments/{tournament}", headers=as_(http, "Dave")).json()
        assert me["you"]["entered"] and me["you"]["table"] in {
            g["table"] for g in first["rounds"][0]["games"]}
        # A stranger cannot take a tournament seat.
        sign_up(http, "Eve", "10.1.0.5")
        stolen = http.post(f"/api/tables/{me['you']['table']}/seats", json={},
                           headers=at("10.1.0.5"))
        assert stolen.status_code == 400 and "kept for its two players" in \
            stolen.json()["error"]
        play_round(http, first, 1, absent="Dave")

        second = until_round(http, tournament, 2)
        results = {frozenset((g["first"], g["second"])): g for g in
                   second["rounds"][0]["games"]}
        dave = next(g for pair, g in results.items() if "Dave" in pair)
        assert dave["forfeit"] and dave["winner"] != "Dave"
        again_pairs = [frozenset((g["first"], g["second"])) for g in
                       second["rounds"][1]["games"]]
        assert not set(again_pairs) & set(results)  # nobody meets twice
        winners = {g["winner"] for g in second["rounds"][0]["games"]}
        assert any(pair == frozenset(winners) for pair in again_pairs)  # 1-0 meets 1-0
        play_round(http, second, 2, absent="Dave")

        over = until_round(http, tournament, 3)
        assert over["status"] == "over"
        table = over["standings"]
        assert table[0]["score"] == 2 and table[-1]["name"] == "Dave"
        assert table[-1]["score"] == 0 and [row["rank"] for row in table] == [1, 2, 3, 4]
        assert over["description"] == "1-point matches, <b>two</b> rounds"  # text
        assert [t["id"] for t in http.get("/api/tournaments").json()["over"]] == [tournament]
        page = http.get(f"/tournaments/{tournament}")
        assert page.status_code == 200 and "tournament.js" in page.text


def make(http, who: str, **body) -> str:
    answer = http.post("/api/tournaments", headers=as_(http, who),
                       json={"name": "Cup", "length": 1, "clock": {"delay": 8, "reserve": 60},
                             **body})
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def enter_and_start(http, tournament: str, names: list[str]) -> None:
    for name in names:
        joined = http.post(f"/api/tournaments/{tournament}/join", json={},
                           headers=as_(http, name))
        assert joined.status_code == 200, joined.text
    maker = http.get(f"/api/tournaments/{tournament}").json()["maker"]
    assert http.post(f"/api/tournaments/{tournament}/start", json={},
                     headers=as_(http, maker)).status_code == 200


def test_a_knockout_of_three_gives_the_best_seed_a_bye_and_ends_with_one_left(tmp_path):
    with addressed_client(f"sqlite:///{tmp_path / 'tables.db'}", SHOW) as http:
        for name in ("Alice", "Bob", "Carol"):
            sign_up(http, name, PEOPLE[name])
        tournament = make(http, "Alice", kind="knockout")
        enter_and_start(http, tournament, ["Alice", "Bob", "Carol"])
        first = until_round(http, tournament, 1)
        games = first["rounds"][0]["games"]
        assert {(g["first"], g["second"]) for g in games} == {("Bob", "Carol"),
                                                               ("Alice", None)}
        play_round(http, first, 1, absent="")
        final = until_round(http, tournament, 2)
        (game,) = final["rounds"][1]["games"]
        assert "Alice" in (game["first"], game["second"])
        play_round(http, final, 2, absent="")
        over = until_round(http, tournament, 3)
        assert over["status"] == "over"
        out = [row["name"] for row in over["standings"] if row["out"]]
        champion = over["standings"][0]
        assert len(out) == 2 and champion["name"] not in out
        assert champion["score"] == 2 and [r["score"] for r in over["standings"][1:]] in (
            [1, 0], [1.0, 0.0])  # the final's loser won a round; the first loser none


def test_an_arena_pairs_again_whoever_is_free_and_scores_a_win_two(tmp_path):
    with addressed_client(f"sqlite:///{tmp_path / 'tables.db'}", SHOW) as http:
        for name in ("Alice", "Bob"):
            sign_up(http, name, PEOPLE[name])
        tournament = make(http, "Alice", kind="arena", minutes=5)
        enter_and_start(http, tournament, ["Alice", "Bob"])
        first = until_round(http, tournament, 1)
        assert len(first["rounds"][0]["games"]) == 1
        play_round(http, first, 1, absent="")
        deadline = time.monotonic() + 30
        while True:  # free again, and both present: paired again at once
            shown = http.get(f"/api/tournaments/{tournament}", headers=as_(http, "Bob")).json()
            if len(shown["rounds"][0]["games"]) == 2:
                break
            assert time.monotonic() < deadline, shown
            time.sleep(0.2)
        winner = shown["standings"][0]
        assert winner["score"] == 2 and shown["standings"][1]["score"] == 0
        assert shown["status"] == "running" and shown["kind"] == "arena"


def test_tournaments_are_for_accounts_one_at_a_time_and_a_few_a_day(tmp_path):
    config = dataclasses.replace(SHOW, rates=dataclasses.replace(
        SHOW.rates, tournaments_per_day_per_address=2))
    with addressed_client(f"sqlite:///{tmp_path / 'tables.db'}", config) as http:
        guest = http.post("/api/tournaments", json={"name": "Cup"}, headers=at("10.9.9.9"))
        assert guest.status_code == 401 and "sign in" in guest.json()["error"]
        sign_up(http, "Alice", PEOPLE["Alice"])
        make(http, "Alice")
        second = http.post("/api/tournaments", json={"name": "Cup two"},
                           headers=as_(http, "Alice"))
        assert second.status_code == 429 and "not over yet" in second.json()["error"]
        sign_up(http, "Bob", PEOPLE["Alice"])  # the same address
        third = http.post("/api/tournaments", json={"name": "Cup three"},
                          headers=at(PEOPLE["Alice"]))
        assert third.status_code == 429 and "of the day" in third.json()["error"]
        listed = http.get("/api/tournaments").json()
        assert [t["name"] for t in listed["open"]] == ["Cup"]
        missing = http.get("/api/tournaments/000000000000")
        assert missing.status_code == 404


def test_the_operator_schedules_tournaments_in_the_configuration(tmp_path):
    path = tmp_path / "server.toml"
    path.write_text("""
[[tournaments]]
name = "Hourly arena"
kind = "arena"
minutes = 30
every_minutes = 60
lead_minutes = 50
""")
    config = dataclasses.replace(SHOW, tournaments=load_config(path).tournaments)
    with addressed_client(f"sqlite:///{tmp_path / 'tables.db'}", config) as http:
        deadline = time.monotonic() + 10
        while not (listed := http.get("/api/tournaments").json())["open"]:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        time.sleep(1.5)  # another tick makes no second one
        (made,) = http.get("/api/tournaments").json()["open"]
        assert made["name"] == "Hourly arena" and made["starts"] % 3600 == 0
        assert made["settings"]["minutes"] == 30 and made["kind"] == "arena"
        assert http.get(f"/api/tournaments/{made['id']}").json()["maker"] is None
    assert listed["open"][0]["id"] == made["id"]


@pytest.mark.parametrize("text, why", [
    ("[[tournaments]]\nname = 'x'\n", "3 to 60 characters"),
    ("[[tournaments]]\nname = 'Cup'\nevery_minutes = 5\n", "every_minutes is 10 to 10080"),
    ("[[tournaments]]\nname = 'Cup'\n[[tournaments]]\nname = 'Cup'\n", "two schedules"),
    ("tournaments = 5\n", "an array of tables"),
])
def test_a_schedule_that_is_wrong_says_so(tmp_path, text, why):
    path = tmp_path / "server.toml"
    path.write_text(text)
    with pytest.raises(InvalidOptionError, match=why):
        load_config(path)


def test_a_forfeit_ends_the_table_whoever_is_asked_and_replays():
    table = Table("backgammon", ["human", "human"], kind="match", length=1, seed=7)
    table.run()
    asked = table.question.seat
    table.forfeit(1 - asked)  # the seat not asked never came
    assert table.finished and table.winner == asked
    again = Table.from_json(table.to_json())
    assert again.finished and again.winner == asked and again.forfeited
    assert again.log[-1][-1] == {"seat": 1 - asked, "timeout": True, "forfeit": True}
    with pytest.raises(GammonError, match="play is over"):
        again.forfeit(asked)
