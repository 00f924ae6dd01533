"""A kernel compiled with another module's kernels inlined is recompiled when that
module changes (numba's own cache only watches the defining file)."""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
import sys
from pathlib import Path

import gammon
from gammon.evaluators import exact
from gammon.kernels import cache, tracks
from gammon.kernels.cache import cached_kernels, dependencies, flush_when_changed


class FakeCache:
    def __init__(self, path: Path) -> None:
        self._cache_path = str(path)
        self.flushed = 0

    def flush(self) -> None:
        self.flushed += 1


class FakeDispatcher:
    def __init__(self, path: Path) -> None:
        self._cache = FakeCache(path)


def test_cache_flushed_only_when_a_dependency_changes(tmp_path):
    dispatchers = [FakeDispatcher(tmp_path), FakeDispatcher(tmp_path)]
    flush_when_changed("demo", dispatchers, (tracks,))
    assert [d._cache.flushed for d in dispatchers] == [1, 1]  # no stamp yet
    stamp = (tmp_path / "demo.depends-stamp").read_text()
    assert stamp == hashlib.sha1(Path(tracks.__file__).read_bytes()).hexdigest()
    flush_when_changed("demo", dispatchers, (tracks,))
    assert [d._cache.flushed for d in dispatchers] == [1, 1]  # unchanged: kept
    (tmp_path / "demo.depends-stamp").write_text("an older tracks.py")
    flush_when_changed("demo", dispatchers, (tracks,))
    assert [d._cache.flushed for d in dispatchers] == [2, 2]


def test_what_a_module_depends_on_is_read_from_its_imports(tmp_path):
    for name in ("encoding", "network", "search", "selfplay"):  # as the module's own imports would
        importlib.import_module(f"gammon.kernels.{name}")
    source = tmp_path / "demo.py"
    source.write_text(
        "from gammon.kernels.encoding import encode_track\n"  # a kernel, by name
        "from gammon.kernels import (\n    network,  # a module, in parentheses\n"
        "    search,\n)\n"
        "import gammon.kernels.selfplay\n"  # holds kernels: its own imports count too
        "def later():\n    from gammon.core import variant\n"  # not at the top: left out
    )
    names = [module.__name__ for module in dependencies({"__name__": "demo",
                                                          "__file__": str(source)})]
    assert names == ["gammon.kernels", "gammon.kernels.cache", "gammon.kernels.encoding",
                     "gammon.kernels.network", "gammon.kernels.search",
                     "gammon.kernels.selfplay", "gammon.kernels.tracks",
                     "gammon.rules.blocks"]


def test_every_module_whose_kernels_import_gammon_code_keeps_its_cache_honest():
    """The hypergammon solver once missed this and ran a stale move generator."""
    for found in pkgutil.walk_packages(gammon.__path__, "gammon."):
        if not found.name.endswith("__main__"):
            importlib.import_module(found.name)
    holders = {name: module for name, module in sys.modules.items()
               if name.startswith("gammon.") and cached_kernels(vars(module))}
    assert {"gammon.kernels.tracks", "gammon.evaluators.exact"} <= set(holders)
    for name, module in holders.items():
        assert name in cache.KEPT or not dependencies(vars(module)), name


def test_the_solvers_kernels_are_stamped_with_the_move_generator():
    directory = Path(exact._sweep._cache._cache_path)
    stamp = (directory / "gammon.evaluators.exact.depends-stamp").read_text()
    digest = hashlib.sha1()
    for module in dependencies(vars(exact)):
        digest.update(Path(module.__file__).read_bytes())
    assert tracks in dependencies(vars(exact))
    assert stamp == digest.hexdigest()
