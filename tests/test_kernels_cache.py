"""A kernel compiled with another module's kernels inlined is recompiled when that
module changes (numba's own cache only watches the defining file)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from gammon.kernels import multigam, tracks
from gammon.kernels.cache import refresh_when_changed


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
    refresh_when_changed("demo", dispatchers, (tracks,))
    assert [d._cache.flushed for d in dispatchers] == [1, 1]  # no stamp yet
    stamp = (tmp_path / "demo.depends-stamp").read_text()
    assert stamp == hashlib.sha1(Path(tracks.__file__).read_bytes()).hexdigest()
    refresh_when_changed("demo", dispatchers, (tracks,))
    assert [d._cache.flushed for d in dispatchers] == [1, 1]  # unchanged: kept
    (tmp_path / "demo.depends-stamp").write_text("an older tracks.py")
    refresh_when_changed("demo", dispatchers, (tracks,))
    assert [d._cache.flushed for d in dispatchers] == [2, 2]


def test_multigam_kernels_are_stamped_with_tracks():
    directory = Path(multigam.random_playouts._cache._cache_path)
    stamp = (directory / "multigam.depends-stamp").read_text()
    assert stamp == hashlib.sha1(Path(tracks.__file__).read_bytes()).hexdigest()
