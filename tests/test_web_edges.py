"""The web server's edges that rated play must be able to trust (issue 44): the host
names it answers for, the scheme of an Origin, the security headers on the answers
uvicorn makes by itself, a stored language named like a property of every object, a
shutdown that ends whatever the websockets do, and a warning about one table logged
once. The raw-socket tests share one ``gammon serve``; the last test stops it."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import json
import logging
import os
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest
from browser import Server, wait_for
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect
from webclient import (
    FAST,
    client,
    connect,
    new_table,
    play_until_the_bot_is_asked,
    store_a_table_with_an_unoffered_bot,
)

from gammon.core.errors import InvalidOptionError
from gammon.web import rooms
from gammon.web.app import SECURITY_HEADERS
from gammon.web.config import host_names, load_config
from gammon.web.live import Connection
from gammon.web.store import Store

#: The shared server: few websockets (so that uvicorn's concurrency limit, sockets + 100,
#: is reached with a hundred idle connections), a short shutdown, fast tests.
CONFIG = """
[limits]
open_tables_per_address = 100
sockets = 8
shutdown_seconds = 2
[rates]
tables_per_minute_per_address = 100
sockets_per_minute_per_address = 1000
messages_per_second = 10000
messages_per_second_per_address = 10000
"""


@pytest.fixture()
def database(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("edges") / "tables.db", config=CONFIG).start()
    yield running
    running.stop()


def raw(port: int, data: bytes, seconds: float = 10) -> tuple[int, dict[str, list[str]], bytes]:
    """Send ``data`` as it is and read the answer until the server closes: its status,
    its headers (lower-case names, every value) and its body."""
    with socket.create_connection(("127.0.0.1", port), timeout=seconds) as connection:
        connection.sendall(data)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers: dict[str, list[str]] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    return int(lines[0].split()[1]), headers, body


def upgrade(port: int, path: str = "/ws/000000000000", host: str | None = None,
            key: bool = True, version: str = "13", origin: str | None = None) -> bytes:
    """A websocket handshake's request."""
    lines = [f"GET {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}",
             "Upgrade: websocket", "Connection: Upgrade", f"Sec-WebSocket-Version: {version}"]
    if key:
        lines.append("Sec-WebSocket-Key: " + base64.b64encode(os.urandom(16)).decode())
    if origin:
        lines.append(f"Origin: {origin}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def assert_security_headers(headers) -> None:
    """Every one of SECURITY_HEADERS, once, as the application says it."""
    for name, value in SECURITY_HEADERS:
        found = headers.get_list(name.decode()) if hasattr(headers, "get_list") else \
            headers.get(name.decode())
        assert found == [value.decode()], (name, found)


def post(url: str, body: dict, headers: dict[str, str]) -> int:
    sent = urllib.request.Request(url, data=json.dumps(body).encode(), headers={
        "content-type": "application/json", **headers})
    try:
        with urllib.request.urlopen(sent, timeout=20) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


# --- 1. the host names a server answers for ---------------------------------------------

def test_another_host_name_is_answered_400_on_http_and_websockets(database):
    with client(database) as http:
        assert http.get("/").status_code == 200
        refused = http.get("/", headers={"host": "evil.example"})
        assert refused.status_code == 400
        assert_security_headers(refused.headers)
        # A page of evil.example rebound by DNS to this server: its Origin is its Host.
        rebound = http.post("/api/tables", json={"variant": "backgammon",
                                                 "seats": ["human", "human"]},
                            headers={"host": "evil.example:8000",
                                     "origin": "http://evil.example:8000"})
        assert rebound.status_code == 400
        assert http.app.state.store.count_open() == 0
        made = new_table(http)
        with pytest.raises(WebSocketDenialResponse) as denied, http.websocket_connect(
                f"/ws/{made['id']}", headers={"host": "evil.example"}):
            pass
        assert denied.value.status_code == 400
        assert_security_headers(denied.value.headers)


def test_the_configured_host_names_and_their_subdomains_are_answered(database):
    config = dataclasses.replace(FAST, hosts=host_names(["tables.example.org",
                                                         "*.games.example"]))
    with client(database, config) as http:
        for host, status in (("tables.example.org", 200), ("TABLES.example.org:443", 200),
                             ("a.games.example", 200), ("games.example.evil", 400),
                             ("testserver", 400), ("example.org", 400)):
            assert http.get("/", headers={"host": host}).status_code == status, host


def test_hosts_in_the_configuration_are_checked_and_written_as_the_host_header_has_them(
        tmp_path):
    path = tmp_path / "server.toml"
    path.write_text('hosts = ["Tables.Example.org", "::1", "*.example.net", "192.0.2.7"]\n')
    assert load_config(path).hosts == ("tables.example.org", "[::1]", "*.example.net",
                                       "192.0.2.7")
    assert load_config(None).hosts == ("localhost", "127.0.0.1", "[::1]", "testserver")
    for wrong in ('"tables.example.org"', '["a.org:8000"]', '["a b"]', '["*a.org"]',
                  '["a.*.org"]', "[]", "[3]"):
        path.write_text(f"hosts = {wrong}\n")
        with pytest.raises(InvalidOptionError, match="hosts"):
            load_config(path)


def test_the_trailing_slash_redirect_never_names_another_host(served):
    status, headers, _ = raw(served.port, b"GET /api/tables/ HTTP/1.1\r\nHost: evil.example"
                             b"\r\nConnection: close\r\n\r\n")
    assert status == 400 and "location" not in headers
    assert_security_headers(headers)
    status, headers, _ = raw(served.port, f"GET /api/tables/ HTTP/1.1\r\nHost: 127.0.0.1:"
                             f"{served.port}\r\nConnection: close\r\n\r\n".encode())
    assert status == 307 and headers["location"] == [f"http://127.0.0.1:{served.port}"
                                                     "/api/tables"]


# --- 2. the Origin's scheme -------------------------------------------------------------

def test_a_page_of_another_scheme_is_another_site(database):
    body = {"variant": "backgammon", "seats": ["human", "human"]}
    with client(database) as http:  # the TestClient's site is http://testserver
        for origin, status in (("https://testserver", 403), ("http://testserver:8080", 403),
                               ("null", 403), ("http://testserver", 201),
                               ("HTTP://TestServer:80", 201)):
            answer = http.post("/api/tables", json=body, headers={"origin": origin})
            assert answer.status_code == status, origin
        made = new_table(http)
        with pytest.raises(WebSocketDisconnect) as refused, http.websocket_connect(
                f"/ws/{made['id']}", headers={"origin": "https://testserver"}):
            pass
        assert refused.value.code == 1008
        with http.websocket_connect(f"/ws/{made['id']}",
                                    headers={"origin": "http://testserver"}) as socket:
            socket.send_json({"type": "hello"})
            assert socket.receive_json()["type"] == "state"


def test_behind_a_tls_proxy_the_forwarded_scheme_is_the_one_an_origin_must_have(served):
    """docs/deploy.md's proxy ends TLS and says so in X-Forwarded-Proto (trusted from
    127.0.0.1): a page of https://site may post, one of http://site may not."""
    site = f"127.0.0.1:{served.port}"
    body = {"variant": "backgammon", "seats": ["human", "human"]}
    url = served.url + "/api/tables"
    assert post(url, body, {"origin": f"https://{site}", "x-forwarded-proto": "https"}) == 201
    assert post(url, body, {"origin": f"http://{site}", "x-forwarded-proto": "https"}) == 403
    assert post(url, body, {"origin": f"https://{site}"}) == 403
    assert post(url, body, {"origin": f"http://{site}"}) == 201


# --- 3. the answers uvicorn makes without the application -------------------------------

def test_a_server_error_carries_the_security_headers(database):
    """The error handler's 500 (outside every middleware Starlette's add_middleware
    adds) goes through the Gate too."""
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from gammon.web.app import create_app

    app = create_app(database, config=FAST)

    async def broken(request):
        raise RuntimeError("a bug of ours")

    app.router.routes.append(Route("/broken", broken))
    with TestClient(app, raise_server_exceptions=False) as http:
        answer = http.get("/broken")
        assert answer.status_code == 500
        assert_security_headers(answer.headers)


def test_a_request_uvicorn_cannot_parse_is_answered_with_the_security_headers(served):
    for garbage in (b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n",
                    b"GET / HTTP/9.9\r\n\r\n"):
        status, headers, _ = raw(served.port, garbage)
        assert status == 400, garbage
        assert_security_headers(headers)


def test_every_refused_websocket_handshake_carries_the_security_headers(served):
    for request, wanted in (
            (upgrade(served.port, origin="https://evil.example"), 403),  # the app closes
            (upgrade(served.port, host="evil.example"), 400),  # the host allow-list
            (upgrade(served.port, key=False), 400),  # the websockets library refuses
            (upgrade(served.port, version="12"), 400)):
        status, headers, _ = raw(served.port, request)
        assert status == wanted, request
        assert_security_headers(headers)


def test_a_request_over_the_concurrency_limit_is_answered_503_with_the_headers(served):
    idle = []  # sockets + 100 = 108 connections: uvicorn's limit_concurrency
    try:
        for _ in range(110):
            idle.append(socket.create_connection(("127.0.0.1", served.port)))
        time.sleep(0.3)
        status, headers, _ = raw(served.port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:"
                                 f"{served.port}\r\nConnection: close\r\n\r\n".encode())
        assert status == 503
        assert_security_headers(headers)
    finally:
        for connection in idle:
            connection.close()
    time.sleep(0.3)
    with urllib.request.urlopen(served.url + "/api/variants", timeout=20) as answer:
        assert answer.status == 200


# --- 4. a stored language named like a property of every object -------------------------

@pytest.mark.parametrize("language", ["constructor", "__proto__", "toString",
                                      "hasOwnProperty"])
def test_a_stored_language_named_like_an_object_property_shows_english(served, browser,
                                                                        language):
    context = browser.new_context()
    context.add_init_script(f"localStorage.setItem('gammon:language', {json.dumps(language)});")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" else None)
    page.goto(served.url + "/")
    # The catalogue was read (the picker is filled by translatePage) and the lobby ran.
    wait_for(page, "document.getElementById('language').options.length === 2 && "
                   "!document.getElementById('variant').disabled", 20_000)
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.evaluate("document.getElementById('language').value") == "en"
    assert page.locator("[data-i18n='create.title']").inner_text() == "New table"
    assert errors == []
    context.close()


# --- 5. a bounded shutdown --------------------------------------------------------------

def test_a_send_that_swallows_its_cancellation_does_not_hold_the_handler():
    """As asyncio.wait_for can lose a cancellation on Python 3.11: a send that goes on
    after one; the connection's sender is cancelled again and the handler is done."""

    class Stuck:
        client_state = None

        async def send_text(self, text: str) -> None:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                await asyncio.sleep(3600)  # the cancellation lost

        async def close(self, *args) -> None:
            await asyncio.sleep(3600)

    async def run() -> float:
        connection = Connection(Stuck(), send_seconds=3600)  # type: ignore[arg-type]
        connection.push("{}")
        await asyncio.sleep(0.05)  # the sender is in its send
        started = time.monotonic()
        await asyncio.wait_for(connection.finish(2.0), 10)
        assert connection.sender.done()
        return time.monotonic() - started

    took: list[float] = []  # in a thread of its own: Playwright's loop may run in this one
    thread = threading.Thread(target=lambda: took.append(asyncio.run(run())))
    thread.start()
    thread.join(15)
    assert took and took[0] < 3


# --- 6. a warning about one table, once -------------------------------------------------

def test_a_warning_about_one_table_is_logged_once_not_on_every_sweep(database, caplog,
                                                                     monkeypatch):
    monkeypatch.setattr(rooms, "SWEEP", 0.05)
    monkeypatch.setattr(rooms, "HEAD_START", 0.0)
    table_id = store_a_table_with_an_unoffered_bot(Store(database))
    caplog.set_level(logging.WARNING, logger="gammon.web")
    with client(database) as http:
        seat = http.post(f"/api/tables/{table_id}/seats", json={}).json()
        with connect(http, table_id, seat["token"]) as socket:
            play_until_the_bot_is_asked(socket)
            sweeps = http.app.state.lobby
            time.sleep(1.5)  # some thirty sweeps find it
            assert sweeps.thinkers.decisions == 0
    said = [r for r in caplog.records if "its bots are not played here" in r.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in said][:3]


# Last: it stops the module's server.
def test_sigterm_stops_the_server_whatever_its_websockets_do(served):
    """Websockets that stop reading while a game is played fast at their table: the
    server's sends to them wait on full buffers (mid-send) when SIGTERM comes, and the
    process still ends within its shutdown_seconds (2) and a margin."""
    from websockets.sync.client import connect as connect_to

    made = json.loads(urllib.request.urlopen(urllib.request.Request(
        served.url + "/api/tables", data=json.dumps({
            "variant": "backgammon", "seats": ["human", "beginner"], "kind": "money",
            "games": 1000}).encode(), headers={"content-type": "application/json"}),
        timeout=20).read())
    stalled = []
    for _ in range(4):
        watcher = socket.socket()
        watcher.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        watcher.connect(("127.0.0.1", served.port))
        watcher.sendall(upgrade(served.port, f"/ws/{made['id']}"))
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += watcher.recv(1)
        hello, mask = b'{"type":"hello"}', os.urandom(4)
        watcher.sendall(bytes([0x81, 0x80 | len(hello)]) + mask
                        + bytes(b ^ mask[i % 4] for i, b in enumerate(hello)))
        stalled.append(watcher)  # and never read again
    seen = [0]

    def play() -> None:
        with connect_to(served.url.replace("http", "ws") + f"/ws/{made['id']}") as player:
            player.send(json.dumps({"type": "hello", "token": made["token"]}))
            try:
                while True:
                    message = json.loads(player.recv(timeout=30))
                    if message["type"] == "state":
                        seen[0] += 1
                        if message["table"].get("actions"):
                            player.send(json.dumps({"type": "act", "index": 0,
                                                    "version": message["table"]["version"]}))
            except Exception:  # the server stopped
                return

    threading.Thread(target=play, daemon=True).start()
    deadline = time.monotonic() + 120
    while seen[0] < 400:  # some 8 MB to each watcher: far more than its buffers hold
        assert time.monotonic() < deadline, f"only {seen[0]} states in two minutes"
        time.sleep(0.1)
    process = served.process
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(12)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        pytest.fail("SIGTERM did not stop the server in 12 s")
    finally:
        for watcher in stalled:
            watcher.close()
    assert time.monotonic() - started < 8
