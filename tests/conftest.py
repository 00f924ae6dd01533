"""Shared test settings, and the web tests' fixtures.

Property tests draw new examples on every run on a developer's machine; CI (which sets
``CI``) replays a fixed derivation, so a submission's verdict does not depend on luck.
The web tests share a throwaway PostgreSQL cluster per module (``postgres_server``), run
on SQLite and PostgreSQL alike (``database``), and drive a ``gammon serve`` process
(``server``) from Chromium (``browser``), one of each per module.
"""

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


#: Fixtures that start a web server, a browser or a database: their tests are ``web``.
WEB_FIXTURES = {"server", "browser", "database", "postgres_server", "web"}
#: Modules that play thousands of games or position-rolls (the invariants, the oracles,
#: the golden fingerprints, the fuzzers), train or duel networks, or start Ray: their
#: tests are ``heavy`` (make check leaves them out; make test runs them).
HEAVY_MODULES = {"test_movegen_oracle.py", "test_golden.py", "test_fuzz.py",
                 "test_scaleout.py", "test_agents_exact.py", "test_agents_duel.py",
                 "test_analysis.py", "test_nn.py", "test_nn_teacher.py",
                 "test_acedrex_speed.py", "test_acedrex_search.py",
                 "test_benchmark_positions.py",
                 "test_maskable_ppo_example.py"}


@pytest.hookimpl(tryfirst=True)  # before ``-m`` reads the markers
def pytest_collection_modifyitems(config, items):
    """Tests that start a server, a browser or a database are marked ``web``, and those
    of the heavy modules ``heavy`` (``make check`` leaves both out). Tests marked
    ``solved`` read hypergammon-3's table, which ``gammon solve 3`` builds on the machine
    (minutes, 6 GB): ``make hypergammon`` builds it and runs them; elsewhere they wait
    for it."""
    from gammon.evaluators.exact import is_solved, solved_path

    for item in items:
        if item.path.name.startswith("test_web") or WEB_FIXTURES & set(
                getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.web)
        if item.path.name in HEAVY_MODULES or item.path.name.startswith("test_invariants_"):
            item.add_marker(pytest.mark.heavy)
    # The web's modules are the longest and wait the most: dealt to the workers first
    # (pytest-xdist deals whole modules out in this order), so that the run does not end
    # on one of them while the other workers idle. A stable sort keeps each module whole.
    items.sort(key=lambda item: not item.path.name.startswith("test_web"))
    if is_solved(3):
        return
    wait = pytest.mark.skip(reason=f"no table at {solved_path(3)}: make hypergammon")
    for item in items:
        if item.get_closest_marker("solved"):
            item.add_marker(wait)


@pytest.fixture(scope="module")
def postgres_server():
    from postgres import Postgres

    server = Postgres().start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path) -> str:
    """Every test that asks runs on a SQLite file and on a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.db'}"
    return str(request.getfixturevalue("postgres_server").database())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from browser import Server

    running = Server(tmp_path_factory.mktemp("web") / "tables.db").start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser():
    from browser import launch

    with launch() as launched:
        yield launched
