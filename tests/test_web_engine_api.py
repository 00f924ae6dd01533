"""The engine API (/api/engine, docs/engine-api.md): hint, cube and evaluate for every
variant with a network, answered as the analysis functions answer; bad input refused
with reasons, never a 500; the limits of rate and of concurrency; the OpenAPI
description, every route in it and every example in it answered."""

from __future__ import annotations

import asyncio
import itertools
import json
from types import SimpleNamespace

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from webclient import Addressed, at

from gammon.analysis.cli import network_evaluator, read_state
from gammon.analysis.hint import rate_cube, rate_plays
from gammon.core.variant import variant
from gammon.web.app import SECURITY_HEADERS, create_app
from gammon.web.config import Limits, ServerConfig, load_config
from gammon.web.engine import OWNER, PREFIX, Engine, EngineRefused

pytestmark = pytest.mark.web

OPENING_52 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
OPENING_CUBE = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
MATCH_CUBE = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:1:0:5:10"
PLAKOTO_42 = "iA.a..aA.A.a...a.A^C.B.aF:0"  # a middle game with pins: 21 plays of 4-2
NARDY_51 = "i.a...b.A.A.K....A.Aaaa.:0"  # 17 plays of 5-1
GUL_BARA = "ka.a....A.AAH.a..C..A.a.:1"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """One server (the default configuration: the limits are the public ones) for the
    module; each test asks from addresses of its own."""
    return create_app(f"sqlite:///{tmp_path_factory.mktemp('engine') / 'tables.db'}")


@pytest.fixture(scope="module")
def http(app):
    with TestClient(Addressed(app)) as client:
        yield client


@pytest.fixture(scope="module")
def document(http):
    answer = http.get(f"{PREFIX}/openapi.json", headers=at("10.0.0.1"))
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    return json.loads(answer.text)


def ask(http, kind: str, body, address: str = "10.1.0.1", **kwargs):
    if body is not None:
        kwargs["json"] = body
    return http.post(f"{PREFIX}/{kind}", headers={**at(address), **kwargs.pop("headers", {})},
                     **kwargs)


def answered(http, kind: str, body, address: str = "10.1.0.1") -> dict:
    answer = ask(http, kind, body, address)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/json"
    return answer.json()


def evaluator(name: str):
    return network_evaluator(variant(name), None)


# --- the analyses, as the functions give them ---------------------------------------------


@pytest.mark.parametrize("name, position, dice, plies", [
    ("backgammon", OPENING_52, None, 0),
    ("backgammon", OPENING_52, None, 1),
    ("backgammon", "4HPwATDgc/ABMA", "6-6", 0),
    ("plakoto", PLAKOTO_42, "42", 0),
    ("long-nardy", NARDY_51, [5, 1], 0),
    ("multi-gam", "44577/26666/00007/00000:2", "61", 0),
])
def test_a_hint_rates_the_plays_as_rate_plays_does(http, name, position, dice, plies):
    found = answered(http, "hint", {"variant": name, "position": position, "dice": dice,
                                    "plies": plies, "limit": 100})
    text = "".join(map(str, dice)) if isinstance(dice, list) else dice
    state = read_state(variant(name), position, text)
    base = getattr(state, "base", state)
    rated = rate_plays(base, evaluator(name), plies)
    assert found["legal_plays"] == len(rated) == len(found["plays"])
    assert found["plays"][0]["play"] == rated[0].text  # the best play
    assert [p["play"] for p in found["plays"]] == [r.text for r in rated]
    for play, r in zip(found["plays"], rated, strict=True):
        assert play["equity"] == pytest.approx(r.equity, abs=1e-4)
        assert play["plies"] == r.plies
        assert play["diff"] <= 0
        if r.probs:
            assert list(play["probs"].values()) == pytest.approx(list(r.probs), abs=1e-4)
        else:
            assert play["probs"] is None  # Multi-Gam: four seats, no two-sided chances
    assert found["dice"] == list(base.dice) and found["player"] == base.position.turn
    assert found["variant"] == name and found["plies"] == plies


def test_a_hint_at_a_match_score_rates_by_match_equity(http):
    # Double match point (6-6 in a 7-point match): every play is worth its chance to win.
    dmp = "XGID=-b----E-C---eE---c-e----B-:0:0:1:64:6:6:0:7:10"
    found = answered(http, "hint", {"variant": "backgammon", "position": dmp, "plies": 0,
                                    "limit": 100})
    assert found["units"] == "normalised match equity"
    for play in found["plays"]:
        assert play["equity"] == pytest.approx(2 * play["probs"]["win"] - 1, abs=2e-4)
    money = answered(http, "hint", {"variant": "backgammon", "position": dmp.replace(
        ":6:6:0:7:10", ":0:0:0:0:10"), "plies": 0})
    assert money["units"] == "points"


def test_a_hint_lists_the_best_few(http):
    found = answered(http, "hint", {"variant": "backgammon", "position": OPENING_52,
                                    "plies": 0, "limit": 2})
    assert found["legal_plays"] == 8 and len(found["plays"]) == 2
    assert found["plays"][0]["play"] == "24/22 13/8" and found["plays"][0]["diff"] == 0


@pytest.mark.parametrize("position, units", [(OPENING_CUBE, "points per cube"),
                                             (MATCH_CUBE, "match winning chance")])
def test_the_cube_decision_is_rate_cubes(http, position, units):
    found = answered(http, "cube", {"variant": "backgammon", "position": position,
                                    "plies": 1})
    hint = rate_cube(read_state(variant("backgammon"), position, None),
                     evaluator("backgammon"), 1)
    assert found["decision"] == hint.decision and found["units"] == units
    assert found["equities"] == pytest.approx({"no_double": hint.view.no_double,
                                               "double_take": hint.view.take,
                                               "double_pass": hint.view.drop}, abs=1e-4)
    assert found["chances"]["win"] == pytest.approx(hint.chances.win, abs=1e-4)


@pytest.mark.parametrize("name, position", [
    ("backgammon", OPENING_52), ("plakoto", PLAKOTO_42), ("long-nardy", NARDY_51),
    ("acey-deucey", "bar:15/bar:15/X")])
def test_an_evaluation_is_the_networks_for_the_side_on_roll(http, name, position):
    found = answered(http, "evaluate", {"variant": name, "position": position})
    state = read_state(variant(name), position, None)
    base = getattr(state, "base", state)
    rolling = variant(name).state(base.position, None)
    values = evaluator(name).evaluate([rolling])[0]
    player = base.position.turn
    assert found["player"] == player
    assert found["equity"] == pytest.approx(values[player], abs=1e-4)
    assert found["scores"] == pytest.approx(list(values), abs=1e-4)
    probs = found["probs"]
    assert set(probs) == {"win", "win_gammon", "win_backgammon", "lose_gammon",
                          "lose_backgammon"}
    equity = (2 * probs["win"] - 1 + probs["win_gammon"] + probs["win_backgammon"]
              - probs["lose_gammon"] - probs["lose_backgammon"])
    assert equity == pytest.approx(found["equity"], abs=1e-3)


def test_multi_gam_is_evaluated_seat_by_seat(http):
    found = answered(http, "evaluate", {"variant": "multi-gam",
                                        "position": "00000/00000/00000/00000:0"})
    assert found["probs"] is None and found["units"] == "place score"
    assert len(found["scores"]) == 4 and found["equity"] == found["scores"][0]


def test_the_analysis_runs_in_the_bots_workers_as_one_owner(app, http, monkeypatch):
    thinkers = app.state.engine.thinkers
    asked = []
    real = thinkers.run

    async def run(function, *args, budget, owner=""):
        asked.append((function.__module__, args[0], budget, owner))
        return await real(function, *args, budget=budget, owner=owner)

    monkeypatch.setattr(thinkers, "run", run)
    answered(http, "evaluate", {"variant": "backgammon", "position": OPENING_52})
    assert asked == [("gammon.analysis.engine", "evaluate", Limits().engine_seconds, OWNER)]
    # Bad input is refused on the way in: no worker is asked.
    assert ask(http, "evaluate", {"variant": "backgammon", "position": "x"}).status_code == 400
    assert len(asked) == 1


# --- bad input ------------------------------------------------------------------------------

LONG = "o" * 300
BAD = [
    ("hint", {"variant": "chess", "position": OPENING_52}, 400,
     ["unknown variant 'chess'", "backgammon", "plakoto", "long-nardy"]),
    ("hint", {"variant": "acedrex", "position": "x", "dice": "31"}, 422,
     ["acedrex has no network the engine analyses"]),
    ("evaluate", {"variant": "acedrex-quick", "position": "x"}, 422, ["no network"]),
    ("hint", {"variant": "backgammon", "position": "XGID=nonsense"}, 400,
     ["position: an XGID has 10 fields"]),
    ("hint", {"variant": "backgammon", "position": "4HPwATDgc/ABM", "dice": "31"}, 400,
     ["position: a Position ID has exactly 14 characters"]),
    ("hint", {"variant": "plakoto", "position": "o.....O:0", "dice": "31"}, 400,
     ["position: pins position", "24 cells"]),
    ("hint", {"variant": "backgammon", "position": OPENING_52, "plies": 9}, 400,
     ["plies is a whole number from 0 to 2, not 9"]),
    ("hint", {"variant": "backgammon", "position": OPENING_52, "plies": "2"}, 400,
     ["plies is a whole number from 0 to 2"]),
    ("hint", {"variant": "backgammon", "position": OPENING_52, "plies": True}, 400,
     ["plies is a whole number"]),
    ("hint", {"variant": "backgammon", "position": OPENING_52, "plies": -1}, 400,
     ["plies is a whole number"]),
    ("hint", {"variant": "gul-bara", "position": GUL_BARA, "dice": "63", "plies": 2}, 400,
     ["plies is a whole number from 0 to 1 in gul-bara"]),
    ("cube", {"variant": "backgammon", "position": OPENING_CUBE, "plies": 3}, 400,
     ["plies is a whole number from 0 to 2"]),
    ("hint", {"variant": "backgammon", "position": OPENING_52, "limit": 0}, 400,
     ["limit is a whole number from 1 to 100"]),
    ("hint", {"variant": "backgammon", "position": OPENING_52, "limit": 10**30}, 400,
     ["limit is a whole number from 1 to 100"]),
    ("hint", {"position": OPENING_52}, 400, ["missing variant", "takes variant, position"]),
    ("evaluate", {"variant": "backgammon"}, 400, ["missing position"]),
    ("cube", {}, 400, ["missing variant, position"]),
    ("hint", {"variant": ["backgammon"], "position": OPENING_52}, 400,
     ["variant is a name, one of: backgammon"]),
    ("hint", {"variant": "backgammon", "position": 42}, 400, ["position is text"]),
    ("hint", {"variant": "backgammon", "position": {"x": 1}}, 400, ["position is text"]),
    ("hint", {"variant": "backgammon", "position": LONG}, 400,
     ["position is 1 to 256 characters, not 300"]),
    ("hint", {"variant": "backgammon", "position": "4HPwATDgc/ABMA\u00e9"}, 400,
     ["printable ASCII"]),
    ("hint", {"variant": "backgammon", "position": "<script>alert(1)</script>"}, 400,
     ["position:"]),
    ("hint", {"variant": "backgammon", "position": OPENING_52, "verbose": 1}, 400,
     ["unknown fields ['verbose']", "takes variant, position, dice, plies, limit"]),
    ("evaluate", {"variant": "backgammon", "position": OPENING_52, "plies": 1}, 400,
     ["unknown fields ['plies']"]),
    ("hint", {"variant": "backgammon", "position": "4HPwATDgc/ABMA"}, 400,
     ["no dice", "/api/engine/cube"]),
    ("hint", {"variant": "backgammon", "position": "4HPwATDgc/ABMA", "dice": "7"}, 400,
     ["dice '7': write two dice"]),
    ("hint", {"variant": "backgammon", "position": "4HPwATDgc/ABMA", "dice": [7, 1]}, 400,
     ["a die is a whole number from 1 to 6"]),
    ("hint", {"variant": "backgammon", "position": "4HPwATDgc/ABMA", "dice": 31}, 400,
     ["dice are two dice"]),
    ("hint", {"variant": "backgammon", "position": OPENING_52, "dice": "31"}, 400,
     ["the ID has the dice 52 but dice says 31"]),
    ("cube", {"variant": "plakoto", "position": "o......................O:0"}, 422,
     ["plakoto has no cube decisions", "backgammon"]),
    ("cube", {"variant": "backgammon", "position": OPENING_52}, 400,
     ["the position has dice: the cube is decided before the roll"]),
]


@pytest.mark.parametrize("number, kind, body, status, words",
                         [(i, *case) for i, case in enumerate(BAD)],
                         ids=[f"{k}-{i}" for i, (k, *_) in enumerate(BAD)])
def test_bad_requests_are_refused_with_what_is_allowed(http, number, kind, body, status,
                                                       words):
    answer = ask(http, kind, body, address=f"10.2.1.{number}")
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/json"  # never a page
    error = answer.json()["error"]
    for word in words:
        assert word in error, error


@pytest.mark.parametrize("content, kind, status, words", [
    (b'{"variant": "backgammon", "position": "' + b"o" * 5000 + b'"}', "application/json",
     413, ["too large: at most 4096 bytes"]),
    (b"{", "application/json", 400, ["send a JSON object"]),
    (b"[1, 2]", "application/json", 400, ["send a JSON object"]),
    (b"\xff\xfe", "application/json", 400, ["send a JSON object"]),
    (b"[" * 3000 + b"]" * 1000, "application/json", 400, ["send a JSON object"]),
    (b"variant=backgammon", "application/x-www-form-urlencoded", 415, ["send JSON"]),
    (b'{"variant": "backgammon"}', "text/plain", 415, ["send JSON"]),
])
def test_bodies_that_are_not_a_small_json_object_are_refused(http, content, kind, status,
                                                             words):
    answer = ask(http, "hint", None, address="10.2.0.2", content=content,
                 headers={"content-type": kind})
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/json"
    for word in words:
        assert word in answer.json()["error"]


def test_every_answer_has_the_security_headers(http):
    for answer in (ask(http, "hint", {"variant": "chess", "position": "x"}, "10.2.0.3"),
                   ask(http, "evaluate", {"variant": "plakoto", "position": PLAKOTO_42},
                       "10.2.0.3"),
                   http.get(f"{PREFIX}/openapi.json")):
        for name, value in SECURITY_HEADERS:
            assert answer.headers[name.decode()] == value.decode()
    # Only POST: another method is refused, not answered.
    assert http.get(f"{PREFIX}/hint").status_code == 405


# --- limits ---------------------------------------------------------------------------------


def test_an_address_asking_too_often_is_answered_429(http):
    burst = ServerConfig().rates.engine_requests_per_minute_per_address
    for _ in range(burst):  # refused requests count too: the cheap way to the limit
        assert ask(http, "hint", {}, address="10.3.0.1").status_code == 400
    over = ask(http, "evaluate", {"variant": "backgammon", "position": OPENING_52},
               address="10.3.0.1")
    assert over.status_code == 429 and "a minute from one address" in over.json()["error"]
    assert int(over.headers["retry-after"]) >= 1
    # Another address is not held back.
    answered(http, "evaluate", {"variant": "backgammon", "position": OPENING_52}, "10.3.0.2")


class Held:
    """Thinkers whose jobs wait until let go: to see what waits, what runs, what is
    refused."""

    workers = 4

    def __init__(self) -> None:
        self.running = self.most = 0
        self.go = asyncio.Event()

    async def run(self, function, *args, budget, owner=""):
        self.running += 1
        self.most = max(self.most, self.running)
        try:
            await self.go.wait()
            return {"kind": args[0]}
        finally:
            self.running -= 1


def test_analyses_wait_their_turn_and_too_many_are_refused():
    async def scenario():
        config = ServerConfig(limits=Limits(engine_jobs=2, engine_waiting=1,
                                            engine_jobs_per_address=2))
        held = Held()
        engine = Engine(config, held)
        request = engine.checked("evaluate", {"variant": "backgammon",
                                              "position": OPENING_52})
        jobs = [asyncio.create_task(engine.run(request, f"10.4.0.{k // 2}"))
                for k in range(3)]
        await asyncio.sleep(0.01)
        assert held.running == 2  # two at once; the third waits its turn
        with pytest.raises(EngineRefused) as busy:
            await engine.run(request, "10.4.0.9")
        assert busy.value.status == 503 and "busy" in str(busy.value)
        with pytest.raises(EngineRefused) as own:
            await engine.run(request, "10.4.0.0")  # this address has two being made
        assert own.value.status == 429 and "2 analyses you asked for are being made" in \
            str(own.value)
        held.go.set()
        assert [await job for job in jobs] == [{"kind": "evaluate"}] * 3
        assert held.most == 2 and engine.in_flight == 0 and not engine.by_address

    asyncio.run(scenario())


def test_analyses_never_take_every_worker():
    config = ServerConfig(limits=Limits(engine_jobs=8))
    assert Engine(config, SimpleNamespace(workers=4)).at_once == 3
    assert Engine(config, SimpleNamespace(workers=1)).at_once == 1


def test_an_analysis_over_its_time_is_answered_503():
    class Slow(Held):
        async def run(self, function, *args, budget, owner=""):
            raise TimeoutError

    async def scenario():
        engine = Engine(ServerConfig(), Slow())
        request = engine.checked("hint", {"variant": "backgammon", "position": OPENING_52})
        with pytest.raises(EngineRefused) as slow:
            await engine.run(request, "10.5.0.1")
        assert slow.value.status == 503 and "took longer than 15 s" in str(slow.value)
        assert engine.in_flight == 0

    asyncio.run(scenario())


def test_a_server_may_offer_no_engine(tmp_path):
    config = ServerConfig(limits=Limits(engine_jobs=0))
    http = TestClient(create_app(f"sqlite:///{tmp_path / 'tables.db'}", config=config))
    answer = http.post(f"{PREFIX}/evaluate", json={"variant": "backgammon",
                                                   "position": OPENING_52})
    assert answer.status_code == 404 and "no engine analysis" in answer.json()["error"]


def test_the_engines_limits_are_configured(tmp_path):
    path = tmp_path / "server.toml"
    path.write_text("[limits]\nengine_jobs = 1\nengine_plies = 1\nengine_seconds = 5\n"
                    "[rates]\nengine_requests_per_minute_per_address = 5\n")
    config = load_config(path)
    assert (config.limits.engine_jobs, config.limits.engine_plies) == (1, 1)
    assert config.limits.engine_seconds == 5 and \
        config.rates.engine_requests_per_minute_per_address == 5
    engine = Engine(config, SimpleNamespace(workers=2))
    with pytest.raises(EngineRefused, match="plies is a whole number from 0 to 1"):
        engine.checked("hint", {"variant": "backgammon", "position": OPENING_52, "plies": 2})
    path.write_text("[limits]\nengine_jobs = \"many\"\n")
    with pytest.raises(ValueError, match="engine_jobs is a int"):
        load_config(path)
    # The description gives the server's own limits.
    assert "5 times a minute" in engine.document["info"]["description"]
    assert engine.document["components"]["schemas"]["HintRequest"]["properties"]["plies"][
        "description"].startswith("Plies of expectimax search on the network (at most 1")


# --- the description ------------------------------------------------------------------------


def test_the_description_is_openapi_with_every_engine_route(app, document):
    assert document["openapi"].startswith("3.")
    assert {"title", "version"} <= set(document["info"])
    routes = {(route.path, method.lower()) for route in app.routes
              if route.path.startswith(PREFIX) for method in route.methods - {"HEAD"}}
    described = {(path, method) for path, item in document["paths"].items()
                 for method in item}
    assert routes == described
    schemas = document["components"]["schemas"]
    for schema in schemas.values():
        jsonschema.Draft202012Validator.check_schema(schema)
    # Every reference leads somewhere.
    text = json.dumps(document)
    for name in {part.split('"')[0] for part in text.split("#/components/schemas/")[1:]}:
        assert name in schemas
    # The variants are the registry's, less those without a network.
    names = schemas["HintRequest"]["properties"]["variant"]["enum"]
    assert {"backgammon", "plakoto", "long-nardy", "multi-gam"} <= set(names)
    assert "acedrex" not in names
    assert "plakoto" not in schemas["CubeRequest"]["properties"]["variant"]["enum"]
    # The sizes are the server's.
    position = schemas["HintRequest"]["properties"]["position"]
    assert position["maxLength"] == Limits().engine_position_chars


def _examples(document):
    for path, item in document["paths"].items():
        operation = item.get("post")
        if operation is None:
            continue
        content = operation["requestBody"]["content"]["application/json"]
        for name, example in content["examples"].items():
            yield path, name, example["value"], content["schema"], \
                operation["responses"]["200"]["content"]["application/json"]["schema"]


def test_every_example_of_the_description_is_answered_as_described(http, document):
    components = {"components": document["components"]}
    examples = list(_examples(document))
    assert {path for path, *_ in examples} == {f"{PREFIX}/{k}"
                                               for k in ("hint", "cube", "evaluate")}
    for k, (path, name, body, request, response) in enumerate(examples):
        jsonschema.validate(body, {**request, **components})
        answer = http.post(path, json=body, headers=at(f"10.6.0.{k}"))
        assert answer.status_code == 200, (path, name, answer.text)
        jsonschema.validate(answer.json(), {**response, **components})



# --- anything at all ------------------------------------------------------------------------

POSITIONS = [OPENING_52, OPENING_CUBE, MATCH_CUBE, "4HPwATDgc/ABMA", "4HPwATDgc/ABMA:cAkAAAAAAAAA",
             PLAKOTO_42, NARDY_51, GUL_BARA, "bar:15/bar:15/X", "00000/00000/00000/00000:0"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**6), st.floats(),
                    st.text(max_size=12))
ANYTHING = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=8)


@st.composite
def spliced(draw) -> str:
    """A position of some variant with a few characters of it replaced."""
    text = draw(st.sampled_from(POSITIONS))
    at = draw(st.integers(0, len(text)))
    cut = draw(st.integers(0, 3))
    return text[:at] + draw(st.text("abcABCoO.:/-^,0123456789Xx =\u00e9", max_size=3)) \
        + text[at + cut:]


BODIES = st.fixed_dictionaries({}, optional={
    "variant": st.one_of(st.sampled_from(["backgammon", "plakoto", "long-nardy", "gul-bara",
                                          "multi-gam", "acey-deucey", "acedrex", "chess",
                                          " Backgammon ", ""]), ANYTHING),
    "position": st.one_of(st.sampled_from(POSITIONS), spliced(), ANYTHING),
    "dice": st.one_of(st.sampled_from(["63", "1-1", [6, 6], [0, 3], "66 ", "9"]), ANYTHING),
    "plies": st.one_of(st.integers(-1, 3), ANYTHING),
    "limit": st.one_of(st.integers(-1, 101), ANYTHING),
    "extra": ANYTHING,
})
ADDRESSES = itertools.count()


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["hint", "cube", "evaluate"]), BODIES)
def test_any_request_is_answered_as_json_and_never_with_a_server_error(http, kind, body):
    number = next(ADDRESSES)  # an address of its own: the rate is another test's
    answer = ask(http, kind, None, address=f"10.7.{number // 250 % 250}.{number % 250}",
                 content=json.dumps(body),  # NaN and Infinity too, as Python's JSON reads
                 headers={"content-type": "application/json"})
    assert answer.status_code in (200, 400, 413, 422), (kind, body, answer.text)
    assert answer.headers["content-type"] == "application/json"
    assert ("error" in answer.json()) == (answer.status_code != 200)
