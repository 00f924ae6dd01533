"""Where the web server's bots think: a bounded pool of worker processes.

A bot decision never runs on the event loop, which must keep answering every browser.
:class:`Thinkers` sends it to one of a fixed number of worker processes (pebble's
process pool), which run at a lower priority than the server and with a ceiling on their
address space. Each decision has a time budget: a worker that overruns it is stopped
(pebble terminates the process and starts a fresh one), as is one that runs out of
memory or dies, and the decision is played by the fallback bot instead, in a thread,
with a note that says why. The pool's workers are forked from a server process that has
imported the engine once (multiprocessing's forkserver), so a replacement is ready in
a moment.

The workers are shared fairly between the addresses that made the tables (and asked
for the reviews): at most one job per worker is handed to the pool at a time, and the
next free worker goes to the address that waited longest for its turn, round robin, so
five busy tables of one address cost another person's bot one turn in six, not a place
behind all of them. Only a job a worker has taken is on its time budget: a decision that
waits its turn is not charged for the wait.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import resource
import threading
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from pebble import ProcessExpired, ProcessPool

from gammon.agents.registry import make_agent
from gammon.core.dice import Roll
from gammon.core.protocol import State
from gammon.core.variant import variant

log = logging.getLogger("gammon.web")


@dataclass(frozen=True)
class Decision:
    """What a bot answered and, when it was not the bot asked for, why."""

    action: Any
    note: str = ""


def _start_worker(memory_bytes: int, server: int) -> None:
    """A worker's first moments: below the server in priority, under its memory
    ceiling, and bound to the life of the server process ``server``."""
    os.nice(10)
    if memory_bytes:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    threading.Thread(target=_end_with, args=(server,), daemon=True).start()


#: What the workers' forkserver decides once as it starts (the game, the bot): a process
#: reads the compiled kernels from numba's cache the first time it calls them (0.4 s
#: here, seconds on a busy machine); the kernels of these serve every bot and track game
#: after, and every worker forked from it has them already.
WARM = (("plakoto", "neural:1"), ("backgammon", "expectimax:1"))


def warm() -> None:
    """The bots' first decisions, made before any table asks for one (in the
    forkserver: :mod:`gammon.web.preload`), so that a table's first bot move is as quick
    as the rest (issue 46)."""
    for name, spec in WARM:
        try:
            rules = variant(name)
            state = rules.initial_state().apply(Roll((3, 1), opening=True))
            if state.is_chance:
                state = state.apply(Roll((3, 1)))
            think(spec, state, "0")
        except Exception:  # a warm-up that fails leaves the first decision slow, no more
            log.exception("warming a bot worker with %s %s", name, spec)


def _end_with(server: int, every: float = 1.0) -> None:
    """End this worker once the server process is gone. A server killed outright (kill
    -9, a crash, the out-of-memory killer) cannot stop its pool, and a worker forked by
    the forkserver is not its child: without this it thinks on, an orphan taking a core
    for as long as its search lasts (a stopped test server's mcts:200000000 kept one
    busy for minutes)."""
    while True:
        time.sleep(every)
        try:
            os.kill(server, 0)
        except (ProcessLookupError, PermissionError):  # gone (or its number reused)
            os._exit(1)


def think(spec: str, state: State, seed: str | None) -> Any:
    """One decision of the bot ``spec`` at ``state``."""
    return make_agent(spec, state.variant, seed).choose(state)


def _think_in_worker(spec: str, state: State, seed: str | None) -> Any:
    """:func:`think` in a worker process, which ends when it hits its memory ceiling: an
    allocation refused there surfaces as a MemoryError or, from inside compiled code, a
    SystemError, and a process in that state is not trusted with the next decision (the
    pool starts a fresh one, and the decision reads "ran out of memory or stopped")."""
    try:
        return think(spec, state, seed)
    except (MemoryError, SystemError):
        os._exit(1)


class FairShare:
    """``slots`` jobs at once; when all are busy, the next free slot goes to the owner
    whose turn it is, round robin over the owners waiting."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.busy = 0
        self.waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    @asynccontextmanager
    async def slot(self, owner: str) -> AsyncIterator[None]:
        if self.busy < self.slots and not self.waiting:
            self.busy += 1
        else:
            turn = asyncio.get_running_loop().create_future()
            self.waiting.setdefault(owner, deque()).append(turn)
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():  # given the slot as it left
                    self._pass_on()
                else:
                    self._forget(owner, turn)
                raise
        try:
            yield
        finally:
            self._pass_on()

    def waiting_for(self, owner: str) -> int:
        return len(self.waiting.get(owner, ()))

    def _pass_on(self) -> None:
        while self.waiting:
            owner, turns = next(iter(self.waiting.items()))
            turn = turns.popleft()
            if turns:
                self.waiting.move_to_end(owner)  # its next job waits for the others
            else:
                del self.waiting[owner]
            if not turn.done():
                turn.set_result(None)  # the slot passes straight on: busy stays
                return
        self.busy -= 1

    def _forget(self, owner: str, turn: asyncio.Future[None]) -> None:
        turns = self.waiting.get(owner)
        if turns is not None and turn in turns:
            turns.remove(turn)
            if not turns:
                del self.waiting[owner]


class Thinkers:
    """``workers`` processes that think for every table of this server process; a
    decision over ``budget`` seconds, or over ``memory_bytes`` of memory, is played by
    ``fallback`` instead."""

    def __init__(self, workers: int, memory_bytes: int, fallback: str) -> None:
        self.workers = workers or max(1, os.cpu_count() or 1)
        self.fallback = fallback
        self.memory_bytes = memory_bytes
        self.pool = self._new_pool()
        self.share = FairShare(self.workers)
        #: Decisions asked for, and those the fallback played.
        self.decisions = self.overruns = 0

    def _new_pool(self) -> ProcessPool:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["gammon.web.workers", "gammon.agents.registry",
                                        "gammon.table.table", "gammon.web.preload"])
        return ProcessPool(max_workers=self.workers, context=context,
                           initializer=_start_worker, initargs=(self.memory_bytes, os.getpid()))

    def start(self) -> None:
        """Start the workers now (the first start of a forkserver waits for its imports:
        never on the event loop)."""
        self.pool.schedule(os.getpid).result(timeout=120)

    async def decide(self, spec: str, state: State, seed: str | None, budget: float,
                     name: str, owner: str = "") -> Decision:
        """The action of the bot ``spec`` (shown as ``name``) at ``state``, in the share
        of the workers of ``owner`` (the hashed address that made the table)."""
        async with self.share.slot(owner):
            return await self._decide(spec, state, seed, budget, name)

    async def _decide(self, spec: str, state: State, seed: str | None, budget: float,
                      name: str) -> Decision:
        self.decisions += 1
        try:
            future = self.pool.schedule(_think_in_worker, args=(spec, state, seed),
                                        timeout=budget)
        except RuntimeError:  # every worker died at once: pebble gives the pool up
            log.warning("the bots' worker pool broke; starting a new one")
            self.pool.stop()
            self.pool = self._new_pool()
            future = self.pool.schedule(_think_in_worker, args=(spec, state, seed),
                                        timeout=budget)
        try:
            return Decision(await asyncio.wrap_future(future))
        except FutureTimeout:
            why = f"{name} took longer than its {budget:g} s"
        except ProcessExpired:
            why = f"{name} ran out of memory or stopped"
        except Exception as error:  # a bot's own failure: the table plays on
            log.exception("bot %s failed", spec)
            why = f"{name} failed ({type(error).__name__})"
        self.overruns += 1
        log.warning("%s; %s plays for it", why, self.fallback)
        action = await asyncio.to_thread(think, self.fallback, state, seed)
        return Decision(action, f"{why}: the {self.fallback} bot played for it")

    async def run(self, function: Any, *args: Any, budget: float, owner: str = "") -> Any:
        """``function(*args)`` in a worker (other long work: a game's review), in the
        share of ``owner``; a TimeoutError when it takes more than ``budget`` seconds."""
        async with self.share.slot(owner):
            future = self.pool.schedule(function, args=args, timeout=budget)
            return await asyncio.wrap_future(future)

    def close(self) -> None:
        self.pool.stop()
        self.pool.join(timeout=5)
