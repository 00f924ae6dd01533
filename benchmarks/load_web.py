"""A bounded load test of the web server on loopback: many tables, many websockets.

    .venv/bin/python benchmarks/load_web.py [--tables 50] [--seconds 60] [--think 0.5] [--json]

Starts ``gammon serve`` (bots' delay 0, a fresh SQLite database in a temporary folder),
creates ``--tables`` backgammon tables of two people each, and connects four websockets
per table: both players and two spectators (200 clients for 50 tables). Each player
answers its own questions with the first listed action after ``--think`` seconds (a
quick person; 0 answers at once, which keeps every table busy all the time), for
``--seconds``; then everything stops by itself.

Measured: the latency from a player sending an action to each client receiving the
state that shows it (the acting player's and every other client's), p50 and p99. Then
the database is read back: every action a player saw accepted is in the log exactly
once, and the log holds no action nobody sent (nothing lost, nothing applied twice).
Target: p99 under 100 ms on the 2-core development machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import httpx2 as httpx  # noqa: E402
import websockets  # noqa: E402
from browser import Server  # noqa: E402


class Load:
    def __init__(self) -> None:
        self.sent: dict[tuple[str, int], float] = {}  # (table, version before) -> when
        self.latencies: list[float] = []
        self.accepted: dict[tuple[str, int], int] = {}  # (table, seat) -> actions seen applied
        self.refused = 0
        self.draining = False  # no new actions: the ones in flight arrive
        self.stop = False


async def client(load: Load, url: str, table: str, token: str | None, seat: int | None,
                 think: float) -> None:
    query = f"?token={token}" if token else ""
    async with websockets.connect(f"{url}/ws/{table}{query}", max_size=None) as socket:
        pending: int | None = None  # the version this player acted at
        seen: set[int] = set()  # actions of this table whose broadcast arrived here
        while not load.stop:
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=0.5)
            except TimeoutError:
                continue
            now = time.perf_counter()
            message = json.loads(raw)
            if message["type"] == "error":
                load.refused += 1
                continue
            if message["type"] != "state":
                continue
            state = message["table"]
            version = state["version"]
            # Every client: the latency of each action this state is the first to show.
            for (where, before), when in list(load.sent.items()):
                if where == table and before < version and before not in seen:
                    seen.add(before)
                    load.latencies.append(now - when)
            if pending is not None and version > pending:
                key = (table, seat if seat is not None else -1)
                load.accepted[key] = load.accepted.get(key, 0) + 1
                pending = None
            if seat is not None and state.get("actions") and pending is None \
                    and not state["over"] and not load.draining:
                if think:
                    await asyncio.sleep(think)
                pending = version
                load.sent[(table, version)] = time.perf_counter()
                await socket.send(json.dumps({"type": "act", "version": version, "index": 0}))


async def run(url: str, tables: int, seconds: float, think: float
              ) -> tuple[Load, list[str]]:
    load = Load()
    ids = []
    tasks = []
    async with httpx.AsyncClient(base_url=url) as http:
        for _ in range(tables):
            made = (await http.post("/api/tables", json={
                "variant": "backgammon", "seats": ["human", "human"], "kind": "money",
                "games": 1000})).json()
            other = (await http.post(f"/api/tables/{made['id']}/seats")).json()
            ids.append(made["id"])
            for token, seat in ((made["token"], made["seat"]), (other["token"], other["seat"]),
                                (None, None), (None, None)):
                tasks.append(asyncio.create_task(client(load, url.replace("http", "ws"),
                                                        made["id"], token, seat, think)))
    await asyncio.sleep(seconds)
    load.draining = True
    await asyncio.sleep(3.0)
    load.stop = True
    await asyncio.gather(*tasks, return_exceptions=True)
    return load, ids


def check_log(database: Path, ids: list[str], load: Load) -> dict[str, int]:
    """Every accepted action is in the log once; the log has no action not accepted."""
    db = sqlite3.connect(database)
    logged = {}
    for table in ids:
        for seat in (0, 1):
            rows = db.execute("SELECT entry FROM entries WHERE table_id = ?", (table,)).fetchall()
            count = sum(1 for (entry,) in rows
                        if ("play" in entry or '"action"' in entry)
                        and json.loads(entry).get("seat") == seat)
            logged[(table, seat)] = count
    missing = sum(max(load.accepted.get(k, 0) - v, 0) for k, v in logged.items())
    extra = sum(max(v - load.accepted.get(k, 0), 0) for k, v in logged.items())
    return {"actions_accepted": sum(load.accepted.values()), "actions_logged": sum(logged.values()),
            "missing": missing, "extra": extra}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=0.5,
                        help="seconds a player takes to act")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "load.db"
        server = Server(database).start()
        try:
            load, ids = asyncio.run(run(server.url, args.tables, args.seconds, args.think))
        finally:
            server.stop()
        log = check_log(database, ids, load)
    latencies = sorted(load.latencies)
    p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
    p99 = latencies[int(0.99 * (len(latencies) - 1))] * 1000 if latencies else float("nan")
    figures = {"tables": args.tables, "clients": 4 * args.tables, "seconds": args.seconds,
               "think": args.think,
               "deliveries": len(latencies), "p50_ms": round(p50, 1), "p99_ms": round(p99, 1),
               "refused": load.refused, **log}
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{figures['clients']} websocket clients on {args.tables} tables for "
              f"{args.seconds:g} s, {args.think:g} s to act: "
              f"{log['actions_accepted']} actions, {len(latencies)} "
              f"deliveries; action to broadcast p50 {p50:.1f} ms, p99 {p99:.1f} ms "
              f"(target p99 < 100 ms)")
        print(f"log: {log['actions_logged']} actions logged, {log['missing']} lost, "
              f"{log['extra']} applied twice or unasked; {load.refused} refusals")
    return 0 if log["missing"] == 0 and log["extra"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
