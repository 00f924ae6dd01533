"""A throwaway PostgreSQL server for the web tests: Debian's postgresql package (``make
test`` installs it), one cluster in a temporary folder, reached only through its Unix
socket there, so nothing on the machine is touched and no port is taken.

PostgreSQL will not run as root: as root, the cluster runs as the package's
``postgres`` user. Without PostgreSQL a test that needs it is skipped on a developer's
machine and fails in CI (``CI`` set).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from itertools import count
from pathlib import Path

import pytest


def bindir() -> Path | None:
    """The newest installed PostgreSQL's programs (Debian keeps them out of the PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class Postgres:
    """``start()`` makes and starts the cluster; ``database()`` gives the SQLAlchemy URL
    of a new empty database; ``stop()`` removes everything."""

    def __init__(self) -> None:
        programs = bindir()
        if programs is None:
            why = "PostgreSQL is not installed (make test installs Debian's postgresql)"
            if os.environ.get("CI"):
                pytest.fail(why)
            pytest.skip(why)
        self.programs = programs
        self.folder = Path(tempfile.mkdtemp(prefix="gammon-pg-"))
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.names = count(1)

    def _run(self, *command: str) -> None:
        subprocess.run([*self.as_user, *command], check=True, capture_output=True,
                       text=True, timeout=120)

    def start(self) -> Postgres:
        data = self.folder / "data"
        self._run(str(self.programs / "initdb"), "-D", str(data), "-A", "trust",
                  "-U", "gammon", "--no-sync")
        options = f"-k {self.folder} -c listen_addresses='' -c fsync=off"
        self._run(str(self.programs / "pg_ctl"), "-D", str(data), "-o", options, "-w",
                  "-l", str(self.folder / "log"), "start")
        return self

    def database(self) -> str:
        import psycopg

        name = f"tables{next(self.names)}"
        with psycopg.connect(host=str(self.folder), user="gammon", dbname="postgres",
                             autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return f"postgresql+psycopg://gammon@/{name}?host={self.folder}"

    def stop(self) -> None:
        try:
            self._run(str(self.programs / "pg_ctl"), "-D", str(self.folder / "data"),
                      "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
