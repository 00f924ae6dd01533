"""A browser's side of the web protocol, for the tests that drive the server without
one: a websocket that says hello, and waiting for the states the server broadcasts."""

from __future__ import annotations

from starlette.testclient import TestClient

from gammon.web.app import create_app
from gammon.web.config import Limits, Rates, ServerConfig

#: The tests play far faster than people and make many tables: the message rates, the
#: tables an address may have open and the fastest rated clock are raised for them (the
#: limits have tests of their own, at the defaults).
FAST = ServerConfig(limits=Limits(open_tables=100_000, open_tables_per_address=100_000,
                                  rated_delay=0, rated_reserve=5),
                    rates=Rates(messages_per_second=10_000,
                                messages_per_second_per_address=10_000,
                                sockets_per_minute_per_address=10_000,
                                tables_per_minute_per_address=10_000,
                                sign_ups_per_day_per_address=10_000),
                    bot_delay=0.0)


def client(database: str, config: ServerConfig = FAST) -> TestClient:
    return TestClient(create_app(database, config=config))


def new_table(http: TestClient, **body) -> dict:
    body.setdefault("variant", "backgammon")
    body.setdefault("seats", ["human", "beginner"])
    answer = http.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def connect(http: TestClient, table: str, token: str | None = None):
    """A websocket at ``table`` that has said hello (with ``token``: a seat's)."""
    socket = http.websocket_connect(f"/ws/{table}")
    session = socket.__enter__()
    session.send_json({"type": "hello", "token": token})
    return _Closing(socket, session)


class _Closing:
    """The session, closed at the end of a ``with`` block."""

    def __init__(self, manager, session) -> None:
        self.manager, self.session = manager, session

    def __enter__(self):
        return self.session

    def __exit__(self, *exc) -> None:
        self.manager.__exit__(*exc)


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


def refusal(socket) -> dict:
    """The next error message (states before it are skipped)."""
    while True:
        message = socket.receive_json()
        if message["type"] == "error":
            return message


def play_out(socket, table: dict) -> dict:
    """Answer this seat's questions with the first action until play is over."""
    while not table["over"]:
        socket.send_json({"type": "act", "version": table["version"], "index": 0})
        table = my_turn(socket)
    return table


class Addressed:
    """The application, each request from the address its ``x-test-address`` header
    names (as a trusted proxy's X-Forwarded-For would say): for the tests of what one
    address may do against another."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] in ("http", "websocket"):
            for key, value in scope.get("headers", []):
                if key == b"x-test-address":
                    scope = {**scope, "client": (value.decode(), 1)}
        await self.app(scope, receive, send)


def addressed_client(database: str, config: ServerConfig = FAST) -> TestClient:
    return TestClient(Addressed(create_app(database, config=config)))


def at(address: str) -> dict[str, str]:
    """The headers of a request from ``address`` (see :class:`Addressed`)."""
    return {"x-test-address": address}


#: A stored table whose bot seat (``mcts:100000000``) no server's menu offers: a row
#: written by a server that offered more, or tampered with.
UNOFFERED = "00000000beef"


def store_a_table_with_an_unoffered_bot(store) -> str:
    """Write the table :data:`UNOFFERED` straight into ``store``: its id."""
    from gammon.table.dice import commitment, new_seed
    from gammon.table.table import Table

    seed = new_seed()
    data = Table("backgammon", ["human", "mcts:100000000"], seed=seed, fair=True).to_json()
    del data["log"], data["finished"]
    store.create(UNOFFERED, data, commitment(seed), "someone")
    return UNOFFERED


def play_until_the_bot_is_asked(socket) -> dict:
    """The person at seat 0 plays (its first listed action) until seat 1 is asked: the
    state then."""
    def asked(t: dict) -> bool:
        return bool(t["question"] and t["question"]["seat"] == 1 or t.get("actions"))

    table = until(socket, asked)
    while table.get("actions"):
        socket.send_json({"type": "act", "version": table["version"], "index": 0})
        table = until(socket, asked)
    return table
