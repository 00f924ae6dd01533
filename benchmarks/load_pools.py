"""A load run of quick pairing: many people joining pools at once, on two server
processes and one PostgreSQL database.

    .venv/bin/python benchmarks/load_pools.py [--clients 200] [--seconds 10]
        [--pools 4] [--processes 2] [--json]

Starts a throwaway PostgreSQL cluster and ``--processes`` ``gammon serve`` processes on
it. ``--clients`` people, each from an address of their own, arrive at random over
``--seconds`` seconds; each joins one of ``--pools`` casual pools (two by two, so that
nobody is left alone in one) through one of the processes at random, and asks for its
seat (``POST /api/pools/wait``, on the same process) until it has one.

Measured, for each table made: **join to seat**, from the moment the second person's
join was sent (the first moment a table could be made) to the moment the later of the
two knew its seat (the one seated by its own join at once, the other by its wait, on
either process): p50, p99 and the worst. Beside it, how long people waited in the pools
for someone to come (that is the arrivals, not the server). Then the database is read
back: every table has two seats, each person is seated once, no ticket at two tables.

Target (issue 50): 200 clients in pools, join to seat p99 under 150 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from browser import Server  # noqa: E402
from postgres import Postgres  # noqa: E402

POOLS = ["backgammon-match1-casual", "backgammon-match3-casual", "long-nardy-game-casual",
         "plakoto-game-casual", "backgammon-match5-casual", "backgammon-match7-casual"]
CONFIG = """
[limits]
open_tables = 100000
open_tables_per_address = 1000
[rates]
pool_joins_per_minute_per_address = 1000
"""


def call(url: str, path: str, body: dict, where: str) -> dict:
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json",
                                              "x-forwarded-for": where})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def person(k: int, url: str, pool: str, delay: float, out: dict[int, dict[str, Any]]) -> None:
    time.sleep(delay)
    where = f"10.{k // 250}.{k % 250}.1"
    sent = time.monotonic()
    answer = call(url, "/api/pools/join", {"pool": pool}, where)
    ticket = answer.get("ticket")
    while answer["status"] != "seated":
        answer = call(url, "/api/pools/wait", {"ticket": ticket}, where)
    out[k] = {"joined": sent, "seated": time.monotonic(), "table": answer["id"],
              "seat": answer["seat"]}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(args: argparse.Namespace) -> dict[str, Any]:
    cluster = Postgres().start()
    servers: list[Server] = []
    try:
        database = cluster.database()
        servers = [Server(database, config=CONFIG).start() for _ in range(args.processes)]
        rng = random.Random(1)
        out: dict[int, dict[str, Any]] = {}
        people = [threading.Thread(target=person, args=(
            k, servers[rng.randrange(len(servers))].url, POOLS[(k // 2) % args.pools],
            rng.uniform(0, args.seconds), out)) for k in range(args.clients)]
        started = time.monotonic()
        for thread in people:
            thread.start()
        for thread in people:
            thread.join(120)
        elapsed = time.monotonic() - started
    finally:
        for server in servers:
            server.stop()
        cluster.stop()
    tables: dict[str, list[dict[str, Any]]] = {}
    for seated in out.values():
        tables.setdefault(seated["table"], []).append(seated)
    full = [pair for pair in tables.values() if len(pair) == 2]
    to_seat = [1000 * (max(p["seated"] for p in pair) - max(p["joined"] for p in pair))
               for pair in full]
    waited = [1000 * (p["seated"] - p["joined"]) for pair in full for p in pair]
    return {
        "clients": args.clients, "processes": args.processes, "pools": args.pools,
        "seconds": args.seconds, "elapsed": round(elapsed, 1), "seated": len(out),
        "tables": len(tables), "tables_of_two": len(full),
        "seats_distinct": all(sorted(p["seat"] for p in pair) == [0, 1] for pair in full),
        "join_to_seat_p50_ms": round(statistics.median(to_seat), 1) if to_seat else None,
        "join_to_seat_p99_ms": round(percentile(to_seat, 0.99), 1) if to_seat else None,
        "join_to_seat_max_ms": round(max(to_seat), 1) if to_seat else None,
        "waited_in_pool_p50_ms": round(statistics.median(waited), 1) if waited else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--pools", type=int, default=4, choices=range(1, len(POOLS) + 1))
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>24}: {value}")
    ok = figures["seated"] == args.clients and figures["tables_of_two"] * 2 == args.clients \
        and figures["seats_distinct"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
