"""The web server without a browser: the lobby's API, the live protocol, seats and
tokens, bad input, and tables that survive a restart."""

from __future__ import annotations

import json

import pytest
from webclient import client, connect, my_turn, new_table, play_out, refusal, until

import gammon
from gammon.table.dice import commitment
from gammon.web.config import ServerConfig
from gammon.web.creation import table_settings


def test_pages_and_variants(database):
    with client(database) as http:
        assert "New table" in http.get("/").text
        names = {v["name"]: v for v in http.get("/api/variants").json()}
        assert {"backgammon", "multi-gam", "acedrex", "long-nardy"} <= set(names)
        assert names["multi-gam"]["players"] == 4
        levels = {level["name"]: level["bot"] for level in names["backgammon"]["bots"]}
        assert levels == {"best": "neural:2", "fast": "neural:0", "beginner": "heuristic"}
        assert http.get("/t/nosuch").status_code == 404
        page = http.get("/rules/backgammon")
        assert page.status_code == 200 and "**BG-" in page.text
        assert page.headers["content-type"].startswith("text/plain")
        assert http.get("/rules/nosuch").status_code == 404


def test_a_person_plays_a_bot_to_the_end_through_the_protocol(database):
    with client(database) as http:
        made = new_table(http)
        # The token is after the "#": a browser never sends it to a server.
        assert made["url"] == f"/t/{made['id']}#token={made['token']}"
        assert "table.js" in http.get(f"/t/{made['id']}").text
        with connect(http, made["id"], made["token"]) as socket:
            table = my_turn(socket)
            assert table["you"] == 0 and table["board"].startswith("<svg")
            assert table["seats"][1]["name"] == "heuristic"  # the beginner level's bot
            moves = 0
            told = set()
            while not table["over"]:
                plays = [a for a in table["actions"] if "steps" in a] or table["actions"]
                socket.send_json({"type": "act", "version": table["version"],
                                  "index": plays[-1]["index"]})
                moves += 1
                table = my_turn(socket)
                told |= {(line["seat"], line["text"].split()[0]) for line in table["lines"]}
                assert not table["errors"]
        assert moves > 5 and table["result"] and table["fair"]["seed"]
        assert {(0, "plays"), (1, "plays"), (0, "rolls"), (1, "rolls")} <= told  # narrated
        seed = int(table["fair"]["seed"])
        assert commitment(seed) == table["fair"]["commitment"]
        record = http.get(f"/api/tables/{made['id']}/record").json()
        assert record["seed"] == seed and record["dice"] == "hmac-sha256"


def test_seats_tokens_and_spectators(database):
    with client(database) as http:
        made = new_table(http, seats=["human", "human"])
        assert http.get("/api/tables").json()[0]["free"] == [1]
        second = http.post(f"/api/tables/{made['id']}/seats", json={}).json()
        assert second["seat"] == 1 and second["token"] != made["token"]
        refused = http.post(f"/api/tables/{made['id']}/seats", json={})
        assert refused.status_code == 400 and "taken" in refused.json()["error"]
        tokens = {0: made["token"], 1: second["token"]}
        with connect(http, made["id"], tokens[0]) as zero, \
                connect(http, made["id"], tokens[1]) as one, \
                connect(http, made["id"]) as watcher:
            seen_by = {0: until(zero, lambda t: t["question"]),
                       1: until(one, lambda t: t["question"])}
            asked = seen_by[0]["question"]["seat"]
            other, table = {0: zero, 1: one}[1 - asked], seen_by[1 - asked]
            assert "actions" not in table  # the other seat sees no choices
            version = table["version"]
            # The other seat's token cannot act for the seat asked; the refusal is short
            # and says the version, and no state is sent again.
            other.send_json({"type": "act", "version": version, "index": 0})
            refused = refusal(other)
            assert "turn" in refused["message"] and refused["version"] == version
            # A spectator sees the board and cannot act.
            seen = until(watcher, lambda t: t["question"])
            assert seen["you"] is None and seen["board"] and "actions" not in seen
            watcher.send_json({"type": "act", "version": version, "index": 0})
            refused = refusal(watcher)
            assert "spectators" in refused["message"] and refused["version"] == version
        with connect(http, made["id"], "forged") as forged:
            message = forged.receive_json()
            assert message["type"] in ("error", "state")
            if message["type"] == "state":
                message, state = forged.receive_json(), message
            else:
                state = forged.receive_json()
            assert "not valid" in message["message"] and state["table"]["you"] is None


@pytest.mark.parametrize("text,why", [
    (json.dumps({"type": "dance"}), "unknown message type"),
    (json.dumps({"type": "act", "version": 0, "index": 999}), "choose an action"),
    (json.dumps({"type": "act", "version": 0, "index": "1"}), "choose an action"),
    (json.dumps({"type": "act", "version": -5, "index": 0}), "moved on"),
    (json.dumps({"type": "act", "index": 0}), "names the version"),
    (json.dumps({"type": "act", "version": 0, "resign": 7}), "resignation"),
    (json.dumps({"type": "preview", "index": "x", "moves": []}), "preview"),
])
def test_bad_messages_get_a_short_error_and_change_nothing(database, text, why):
    with client(database) as http:
        made = new_table(http)
        with connect(http, made["id"], made["token"]) as socket:
            table = my_turn(socket)
            before = table["version"]
            if '"version": 0' in text:
                text = text.replace('"version": 0', f'"version": {before}')
            socket.send_text(text)
            refused = refusal(socket)
            assert why in refused["message"] and refused["version"] == before
            assert len(json.dumps(refused)) < 300  # a refusal, never the whole table again
            # The table still plays (a state already on its way may come first).
            socket.send_json({"type": "act", "version": before, "index": 0})
            after = until(socket, lambda t: t["version"] > before or t["errors"])
            assert after["version"] > before, after["errors"]


def test_a_double_click_acts_once(database):
    with client(database) as http:
        made = new_table(http)
        with connect(http, made["id"], made["token"]) as socket:
            table = my_turn(socket)
            for _ in range(2):
                socket.send_json({"type": "act", "version": table["version"], "index": 0})
            refused = refusal(socket)
            assert "moved on" in refused["message"] and refused["version"] > table["version"]
        entries = http.app.state.store.log(made["id"])[0]
        # The seat's plays that moved: the table also passes for it, unasked, when a
        # later roll leaves it no move (the dice are the table's own, fresh each run).
        plays = [e for e in entries if "play" in e and e["seat"] == 0 and e["moves"]]
        assert len(plays) == 1


def test_bad_tables_are_refused_with_what_is_allowed(database):
    with client(database) as http:
        for body, why in [
            ({"variant": "chess", "seats": ["human", "beginner"]}, "unknown variant"),
            ({"variant": "backgammon", "seats": ["human"]}, "2 seats"),
            ({"variant": "backgammon", "seats": ["beginner", "best"]}, "at least one person"),
            ({"variant": "backgammon", "seats": ["human", "deep blue"]},
             "a bot level of backgammon: best, fast, beginner"),
            ({"variant": "backgammon", "seats": ["human", "beginner"], "kind": "match",
              "length": 99}, "1 to 25"),
            ({"variant": "multi-gam", "seats": ["human"] + ["beginner"] * 3, "kind": "match"},
             "two-player"),
            ({"variant": "backgammon", "seats": ["human", "beginner"], "colour": "red"},
             "unknown fields"),
            ({"variant": "backgammon", "seats": ["human", "beginner"], "kind": "money",
              "cube": "yes"},
             "true or false"),
        ]:
            answer = http.post("/api/tables", json=body)
            assert answer.status_code == 400 and why in answer.json()["error"], answer.text
        assert http.post("/api/tables", content=b"{{{", headers={
            "content-type": "application/json"}).status_code == 400
        assert http.get("/api/tables/nosuch/record").status_code == 404
        assert http.get("/api/tables/nosuch/match.mat").status_code == 404
        assert http.get("/api/tables/" + "x" * 5000 + "/match.mat").status_code == 404


def test_tables_come_back_after_a_restart_with_nothing_lost(database):
    with client(database) as http:
        made = new_table(http, kind="money", stake=2)
        with connect(http, made["id"], made["token"]) as socket:
            table = my_turn(socket)
            for _ in range(3):
                if table["over"]:
                    break
                socket.send_json({"type": "act", "version": table["version"], "index": 0})
                table = my_turn(socket)
        before = http.app.state.lobby.rooms[made["id"]].table.to_json()
    with client(database) as http:  # a new server on the same database
        with connect(http, made["id"], made["token"]) as socket:
            again = my_turn(socket)
            assert again["version"] == table["version"] and again["you"] == 0
        assert http.app.state.lobby.rooms[made["id"]].table.to_json() == before


def test_gammon_verify_checks_a_finished_tables_dice(database, tmp_path):
    from typer.testing import CliRunner

    from gammon.cli.main import app

    with client(database) as http:
        made = new_table(http, variant="hypergammon-1")
        assert http.get(f"/api/tables/{made['id']}/record").status_code == 409  # not yet
        with connect(http, made["id"], made["token"]) as socket:
            play_out(socket, my_turn(socket))
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
        with connect(http, made["id"], made["token"]) as socket:
            play_out(socket, my_turn(socket))
        page = http.get(f"/t/{made['id']}/review")
        assert page.status_code == 200 and "error rate" in page.text and "<svg" in page.text


def test_two_servers_on_one_database_play_a_tables_bots_once(postgres_server):
    """Two applications on one PostgreSQL database stand for two server processes: the
    person plays on one, a spectator watches on the other, and each bot decision is made
    by one of them only (the table's lease), once."""
    database = str(postgres_server.database())
    with client(database) as first, client(database) as second:
        made = new_table(first, variant="hypergammon-1", seats=["human", "beginner"])
        with connect(first, made["id"], made["token"]) as player, \
                connect(second, made["id"]) as watcher:
            table = play_out(player, my_turn(player))
            seen = until(watcher, lambda t: t["over"])
        assert seen["version"] == table["version"] and seen["result"] == table["result"]
        log = first.app.state.store.log(made["id"])
        bot_actions = sum(1 for game in log for entry in game if entry.get("seat") == 1)
        decisions = sum(app.app.state.lobby.thinkers.decisions for app in (first, second))
        assert bot_actions > 0 and decisions == bot_actions


def test_several_processes_need_postgresql(tmp_path):
    from typer.testing import CliRunner

    from gammon.cli.main import app

    result = CliRunner().invoke(app, ["serve", "--workers", "2", "--database",
                                      f"sqlite:///{tmp_path / 'tables.db'}"])
    assert result.exit_code == 2 and "PostgreSQL" in result.output
    result = CliRunner().invoke(app, ["serve", "--config", str(tmp_path / "none.toml")])
    assert result.exit_code == 2 and "cannot read the server configuration" in result.output


def test_a_finished_backgammon_table_downloads_as_a_mat_file(database):
    """Issue 30: the match downloads for gnubg; it reads back to the same games."""
    from gammon.notation.mat import read_match, replay_match

    with client(database) as http:
        made = new_table(http, variant="hypergammon-1")
        assert http.get(f"/api/tables/{made['id']}/match.mat").status_code == 409  # not yet
        with connect(http, made["id"], made["token"]) as socket:
            final = play_out(socket, my_turn(socket))
        answer = http.get(f"/api/tables/{made['id']}/match.mat")
        assert answer.status_code == 200, answer.text
        assert "attachment" in answer.headers["content-disposition"]
        games = http.app.state.lobby.rooms[made["id"]].table.series.games
        match = read_match(answer.text)
        assert len(match.games) == len(games) == 1
        replayed = replay_match(match, gammon.variant("hypergammon-1"))
        assert replayed[0].state.returns() == games[0].state.returns()
        assert final["mat"] is True
        nardy = new_table(http, variant="long-nardy")
        with connect(http, nardy["id"], nardy["token"]) as socket:
            table = my_turn(socket)
            assert table["mat"] is False
            play_out(socket, table)
        refused = http.get(f"/api/tables/{nardy['id']}/match.mat")
        assert refused.status_code == 409 and "JSON log" in refused.json()["error"]


def test_a_person_who_cannot_move_is_not_asked_at_the_web_table(database):
    """Issue 30: 'Play: no move' had to be clicked every turn of acey-deucey's opening
    (nothing moves before a first doubles or 1-2: a pass at most tables' first turn)."""
    passed = False
    with client(database) as http:
        for _ in range(6):  # a table whose first throw lets the person move passes less
            made = new_table(http, variant="acey-deucey")
            with connect(http, made["id"], made["token"]) as socket:
                table = my_turn(socket)
                for _ in range(6):
                    if table["over"]:
                        break
                    plays = [action for action in table["actions"] if "steps" in action]
                    assert not (len(plays) == 1 and not plays[0]["steps"]), "asked to pass"
                    socket.send_json({"type": "act", "version": table["version"],
                                      "index": 0})
                    table = my_turn(socket)
            log = http.app.state.lobby.rooms[made["id"]].table.log
            passed = passed or any(entry.get("seat") == 0 and entry.get("moves") == []
                                   for game in log for entry in game)
            if passed:
                break
    assert passed, "the table passed for the person"


def test_acedrex_tables_set_the_captures_to_end_and_the_turn_cap(database):
    """ACE-END, ACE-CAP: a table of Acedrex sets `captures_to_end` and `turn_cap` (the
    rules page's options), offered by /api/variants with their ranges, and the quick
    preset; every other option, and values out of range, are refused with what is
    allowed."""
    with client(database) as http:
        names = {v["name"]: v for v in http.get("/api/variants").json()}
        offered = {o["name"]: o for o in names["acedrex"]["options"]}
        assert offered == {
            "captures_to_end": {"name": "captures_to_end", "default": 8, "low": 1,
                                "high": 27},
            "turn_cap": {"name": "turn_cap", "default": 1000, "low": 1, "high": 1000}}
        quick = {o["name"]: o["default"] for o in names["acedrex-quick"]["options"]}
        assert quick == {"captures_to_end": 4, "turn_cap": 200}
        assert names["backgammon"]["options"] == []
        seats = ["human", "beginner", "beginner", "beginner"]
        made = http.post("/api/tables", json={"variant": "acedrex", "seats": seats,
                                              "options": {"captures_to_end": 3,
                                                          "turn_cap": 150}})
        assert made.status_code == 201, made.text
        settings = table_settings({"variant": "acedrex-quick", "seats": seats,
                                   "options": {"turn_cap": 150}}, ServerConfig())
        rules = gammon.variant(settings["variant"], **settings["options"])
        assert (rules.captures_to_end, rules.turn_cap) == (4, 150)  # the preset, then ours
        for options, why in [
            ({"turn_cap": 0}, "turn_cap is a whole number from 1 to 1000"),
            ({"turn_cap": 1001}, "turn_cap is a whole number from 1 to 1000"),
            ({"captures_to_end": 28}, "captures_to_end is a whole number from 1 to 27"),
            ({"captures_to_end": "8"}, "captures_to_end is a whole number"),
            ({"captures_to_end": True}, "captures_to_end is a whole number"),
            ({"split_die": False}, "its options: captures_to_end (1 to 27), turn_cap (1 to "
                                   "1000)"),
        ]:
            answer = http.post("/api/tables", json={"variant": "acedrex", "seats": seats,
                                                    "options": options})
            assert answer.status_code == 400 and why in answer.json()["error"], answer.text
        answer = http.post("/api/tables", json={"variant": "backgammon",
                                                "seats": ["human", "beginner"],
                                                "options": {"jacoby": True}})
        assert answer.status_code == 400 and "it has none to set" in answer.json()["error"]


def test_a_tavli_table_plays_its_games_in_turn_as_a_match(database):
    """TAVLI-GAMES, TAVLI-LENGTH on the web: the lobby offers tavli as a match only,
    with the bot levels its three games share; a table's snapshot names the rotation
    and the game being played, which changes when a game ends; options, other kinds and
    a .mat download are refused."""
    with client(database) as http:
        names = {v["name"]: v for v in http.get("/api/variants").json()}
        tavli = names["tavli"]
        assert tavli["kinds"] == ["match"] and tavli["games"] == ["portes", "plakoto", "fevga"]
        assert tavli["players"] == 2 and tavli["options"] == []
        levels = {level["name"]: level["bot"] for level in tavli["bots"]}
        games = [gammon.variant(name) for name in tavli["games"]]
        assert levels["best"] == ServerConfig().shared_menu(games)["best"].spec
        assert levels["beginner"] == "heuristic"
        assert names["portes"]["kinds"] == ["game", "match", "money"]
        assert names["multi-gam"]["kinds"] == ["game", "money"]
        for body, why in [
            ({"kind": "game"}, "played as a match"),
            ({"kind": "<script>" * 100}, "played as a match"),
            ({"kind": ["match"]}, "played as a match"),
            ({"options": {"triple_game": True}}, "takes no variant options"),
            ({"seats": ["human", "deep blue"]}, "a bot level of portes+plakoto+fevga"),
            ({"length": 30}, "1 to 25"),
        ]:
            answer = http.post("/api/tables", json={
                "variant": "tavli", "seats": ["human", "beginner"], "kind": "match", **body})
            assert answer.status_code == 400 and why in answer.json()["error"], answer.text
        # 3 points need two games at least (a game scores 2 at most).
        made = new_table(http, variant="tavli", kind="match", length=3,
                         seats=["human", "beginner"])
        games: list[str] = []
        with connect(http, made["id"], made["token"]) as socket:
            table = my_turn(socket)
            assert table["rotation"] == {"name": "tavli",
                                         "games": ["portes", "plakoto", "fevga"]}
            while not table["over"]:
                if not games or games[-1] != table["variant"]:
                    games.append(table["variant"])
                socket.send_json({"type": "act", "version": table["version"],
                                  "index": table["actions"][0]["index"]})
                table = my_turn(socket)
            assert not table["mat"]
        cycle = ["portes", "plakoto", "fevga"]
        assert len(games) >= 2 and games == [cycle[g % 3] for g in range(len(games))]
        assert http.get(f"/api/tables/{made['id']}/match.mat").status_code == 409
