"""Two server processes on one PostgreSQL database serve the same tables: two people,
each in a browser connected to a different process, play a game to the end while a
third client watches on one of them; every action is applied exactly once."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.request

import pytest
from browser import ARTIFACTS, Server, create, play_out, wait_for
from postgres import Postgres
from websockets.sync.client import connect

from gammon.table.table import Table
from gammon.web.store import Store

playwright = pytest.importorskip("playwright.sync_api")

#: Counts what the page sends and what it is refused.
COUNT_ACTS = """window.acts = 0; window.refusals = 0;
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  if (JSON.parse(data).type === "act") window.acts++;
  return send.call(this, data);
};
const Native = window.WebSocket;
window.WebSocket = function (...args) {
  const socket = new Native(...args);
  socket.addEventListener("message", (event) => {
    if (JSON.parse(event.data).type === "error") window.refusals++;
  });
  return socket;
};
window.WebSocket.prototype = Native.prototype;
window.WebSocket.OPEN = Native.OPEN;
"""


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    cluster = Postgres().start()
    database = cluster.database()
    first, second = Server(database).start(), Server(database).start()
    yield first, second, database
    first.stop()
    second.stop()
    cluster.stop()


class Watcher(threading.Thread):
    """A spectator on one process: every version it is shown, until play is over."""

    def __init__(self, server: Server, table: str) -> None:
        super().__init__(daemon=True)
        self.url = server.url.replace("http", "ws") + f"/ws/{table}"
        self.versions: list[int] = []
        self.last: dict = {}

    def run(self) -> None:
        from websockets.sync.client import connect

        with connect(self.url) as socket:
            socket.send(json.dumps({"type": "hello"}))
            while True:
                message = json.loads(socket.recv(timeout=120))
                if message["type"] == "state":
                    self.last = message["table"]
                    self.versions.append(self.last["version"])
                    if self.last["over"]:
                        return


def test_two_processes_play_one_table_and_every_action_is_applied_once(servers, browser):
    first_server, second_server, database = servers
    first = browser.new_context().new_page()
    first.add_init_script(COUNT_ACTS)
    create(first, first_server, "hypergammon-1", ["human", "human"])
    table = first.url.split("/t/")[1].split("#")[0]
    watcher = Watcher(second_server, table)
    watcher.start()
    second = browser.new_context().new_page()
    second.add_init_script(COUNT_ACTS)
    second.goto(second_server.url + "/")  # the other process's lobby lists the table
    second.locator("#tables button", has_text="take a seat").first.click()
    second.wait_for_url(f"**/t/{table}*")
    wait_for(first, "document.querySelector('#seats').textContent.includes('player 2') && "
             "!document.querySelector('#seats').textContent.includes('free seat')")
    play_out([first, second])
    watcher.join(60)
    for page, name in ((first, "first"), (second, "second")):
        page.screenshot(path=str(ARTIFACTS / f"two-processes-{name}.png"))
    acts = sum(page.evaluate("window.acts") for page in (first, second))
    refused = sum(page.evaluate("window.refusals") for page in (first, second))
    store = Store(database)
    log = store.log(table)
    actions = [entry for game in log for entry in game if "seat" in entry]
    assert acts >= 2 and len(actions) == acts - refused  # each accepted act once
    saved = store.row(table)
    assert saved.status == "over" and watcher.last["over"]
    assert watcher.versions == sorted(watcher.versions)  # in order (a seat taken: again)
    assert watcher.versions[-1] == saved.version
    replayed = Table.from_json({**saved.settings, "log": log, "finished": saved.finished})
    assert replayed.over


THINKING = """
[bots]
ponder = { spec = "mcts:100000000", budget = 4 }
"""


def test_a_table_whose_bot_process_dies_is_taken_on_by_another(servers):
    """The process playing a table's bot is killed while the bot thinks: once its lease
    runs out, the other process plays the bot's turn, once."""
    from websockets.sync.client import connect

    _, _, database = servers
    doomed, survivor = (Server(database, config=THINKING).start(),
                        Server(database, config=THINKING).start())
    try:
        made = json.loads(urllib.request.urlopen(urllib.request.Request(
            doomed.url + "/api/tables", headers={"content-type": "application/json"},
            data=json.dumps({"variant": "backgammon",
                             "seats": ["human", "ponder"]}).encode()), timeout=20).read())
        store = Store(database)
        with connect(doomed.url.replace("http", "ws") + f"/ws/{made['id']}") as player:
            player.send(json.dumps({"type": "hello", "token": made["token"]}))
            while not _thinking(store, made["id"]):  # the person plays until the bot thinks
                try:
                    message = json.loads(player.recv(timeout=0.05))
                except TimeoutError:
                    continue
                if message["type"] == "state" and message["table"].get("actions"):
                    player.send(json.dumps({"type": "act", "index": 0,
                                            "version": message["table"]["version"]}))
        asked_at = store.row(made["id"]).version
        doomed.kill()  # mid-thought
        killed = time.monotonic()
        while store.row(made["id"]).version == asked_at:
            assert time.monotonic() - killed < 30, "nobody took the bot's turn on"
            time.sleep(0.2)
        bot = [entry for game in store.log(made["id"]) for entry in game
               if entry.get("seat") == 1]
        assert len(bot) == 1 and "took longer than its 4 s" in bot[0]["note"]
        assert time.monotonic() - killed > 4  # the lease ran out first
    finally:
        doomed.kill()
        survivor.stop()


def _thinking(store: Store, table: str) -> bool:
    """Whether a process holds the table's bots, which are asked."""
    with store.engine.connect() as db:
        runner, needs = db.exec_driver_sql("SELECT runner, needs FROM tables WHERE id = %s",
                                           (table,)).one()
    return runner is not None and needs == "machine"


def _post(server: Server, path: str, body: dict) -> dict:
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


@contextlib.contextmanager
def _socket(server: Server, table: str, token: str | None):
    with connect(server.url.replace("http", "ws") + f"/ws/{table}") as socket:
        socket.send(json.dumps({"type": "hello", "token": token}))
        yield socket


def _next(socket, kind: str, wanted=lambda message: True) -> dict:
    while True:
        message = json.loads(socket.recv(timeout=10))
        if message["type"] == kind and wanted(message):
            return message


def test_a_clock_started_and_a_chat_line_said_on_one_process_show_on_the_other(servers):
    first, second, _ = servers
    made = _post(first, "/api/tables", {"variant": "backgammon", "seats": ["human", "human"],
                                        "clock": {"delay": 10, "reserve": 600}})
    with _socket(second, made["id"], made["token"]) as player:
        before = _next(player, "state")["table"]
        assert before["clock"]["seat"] is None  # nobody on the clock: a seat is free
        other = _post(first, f"/api/tables/{made['id']}/seats", {})
        with contextlib.suppress(TimeoutError):  # the seat is taken, its page not here
            while True:
                message = json.loads(player.recv(timeout=1.0))
                assert message["type"] != "state" or message["table"]["clock"]["seat"] is None
        with _socket(first, made["id"], other["token"]) as opponent:
            # The opponent's page connects, on the other process: now the clock runs.
            arrived = time.monotonic()
            started = _next(player, "state",
                            lambda m: m["table"]["clock"]["seat"] is not None)
            assert started["table"]["version"] == before["version"]  # the clock alone
            assert time.monotonic() - arrived < 3  # told at once, not at the next sweep
            _next(opponent, "state")
            opponent.send(json.dumps({"type": "chat", "text": "hello from the first"}))
            line = _next(player, "chat")["lines"][0]
            assert line["text"] == "hello from the first" and line["name"] == "player 2"
