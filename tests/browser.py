"""A real server and a real browser for the web tests: ``gammon serve`` in a process of
its own (on a free port, a database of the test's), Debian's Chromium driven by
Playwright through ``executable_path`` (no browser can be downloaded here).

Without Chromium a browser test is skipped on a developer's machine and fails in CI
(``CI`` set), where ``make test`` has installed it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``gammon serve`` in a subprocess; :meth:`kill` is ``kill -9``."""

    def __init__(self, database: Path, port: int | None = None, bot_delay: float = 0.0) -> None:
        self.database = database
        self.port = port or free_port()
        self.bot_delay = bot_delay
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        gammon = Path(sys.executable).parent / "gammon"
        self.process = subprocess.Popen(
            [str(gammon), "serve", "--port", str(self.port), "--database",
             f"sqlite:///{self.database}", "--bot-delay", str(self.bot_delay)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(self.process.stderr.read().decode()  # type: ignore[union-attr]
                                       ) from None
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
