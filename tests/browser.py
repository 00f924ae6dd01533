"""A real server and a real browser for the web tests: ``gammon serve`` in a process of
its own (on a free port, a database of the test's), Debian's Chromium driven by
Playwright through ``executable_path`` (no browser can be downloaded here).

Without Chromium a browser test is skipped on a developer's machine and fails in CI
(``CI`` set), where ``make test`` has installed it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: Where the browser tests leave their screenshots, to be looked at.
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


def chromium() -> str:
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        why = "Chromium is not installed (make test installs Debian's chromium package)"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    return path


@contextlib.contextmanager
def launch() -> Iterator[Any]:
    """Debian's Chromium, driven by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


def wait_for(page, expression: str, timeout: float = 30_000) -> None:
    """Wait until the JavaScript ``expression`` is true in ``page``. Playwright's own
    wait_for_function evaluates its text inside the page, which the page's
    Content-Security-Policy forbids (no eval); this asks from outside, as evaluate does."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout / 1000:g} s: {expression}")
        page.wait_for_timeout(50)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: The browser tests make tables faster than a person: the per-address limits on tables
#: and the fastest rated clock are eased for them (they have tests of their own, at the
#: defaults).
TEST_CONFIG = """
[limits]
open_tables_per_address = 100
rated_delay = 2
rated_reserve = 20
[rates]
tables_per_minute_per_address = 100
sockets_per_minute_per_address = 1000
"""


class Server:
    """``gammon serve`` in a subprocess, on a SQLite file (a Path) or any database URL,
    with a configuration (TOML text); :meth:`kill` is ``kill -9``."""

    def __init__(self, database: Path | str, port: int | None = None, bot_delay: float = 0.0,
                 config: str = TEST_CONFIG) -> None:
        self.database = database
        self.port = port or free_port()
        self.bot_delay = bot_delay
        self.config = config
        self.process: subprocess.Popen[bytes] | None = None
        #: What the server wrote to stderr: a file, not a pipe nobody reads (a pipe that
        #: fills stops the server mid-test).
        self.log = Path(tempfile.mkstemp(prefix="gammon-serve-", suffix=".log")[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url_of_database(self) -> str:
        return (f"sqlite:///{self.database}" if isinstance(self.database, Path)
                else self.database)

    def start(self) -> Server:
        gammon = Path(sys.executable).parent / "gammon"
        config = Path(tempfile.mkstemp(prefix="gammon-serve-", suffix=".toml")[1])
        config.write_text(self.config)
        with self.log.open("ab") as errors:
            self.process = subprocess.Popen(
                [str(gammon), "serve", "--port", str(self.port), "--database",
                 self.url_of_database, "--bot-delay", str(self.bot_delay), "--config",
                 str(config)],
                stdout=subprocess.DEVNULL, stderr=errors)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(self.log.read_text()) from None
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # SIGKILL: no chance to tidy up
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


# --- a person at the page ------------------------------------------------------------

def create(page, server, variant: str, seats: list[str]) -> None:
    """Create a table in the lobby's form, as a person would."""
    page.goto(server.url + "/")
    page.select_option("#variant", variant)
    for seat, kind in enumerate(seats):
        page.select_option(f"#seat{seat}", kind)
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/t/\w+"))


def over(page) -> bool:
    return page.locator("#question").inner_text().startswith(("Play is over",)) or bool(
        page.locator("#controls a").count())


def take_turn(page) -> None:
    """Answer the question of this page's seat: a play checker by checker on the board
    (then Confirm), any other question by its first button."""
    for _ in range(12):
        confirm = page.locator("#confirm")
        if confirm.count() and confirm.is_enabled():
            confirm.click()
            return
        source = page.locator("#board .spot.source")
        target = page.locator("#board .spot.target")
        if target.count():
            target.first.click()
        elif source.count():
            source.first.click()
        else:
            buttons = page.locator("#controls > button:not([disabled]):not(#rematch)")
            labels = [buttons.nth(i).inner_text() for i in range(buttons.count())]
            plain = [i for i, text in enumerate(labels) if not text.startswith("resign")
                     and text not in ("Undo", "Confirm")]
            if plain:
                buttons.nth(plain[0]).click()
                return
        page.wait_for_timeout(60)


def play_out(pages: list, limit: int = 600) -> None:
    """Every page answers its own questions until play is over."""
    for _ in range(limit):
        if over(pages[0]):
            return
        acted = False
        for page in pages:
            if page.locator("#question").inner_text().startswith("Your turn") and \
                    page.locator("#controls button:not([disabled])").count():
                take_turn(page)
                acted = True
        if not acted:
            pages[0].wait_for_timeout(80)
    raise AssertionError("play did not end")
