"""Keep numba's on-disk cache honest across modules.

numba keys a cached function on the file that defines it only; a kernel compiled with
the move generator of :mod:`gammon.kernels.tracks` inlined (and its constants, such as
the layout of the rules vector) would keep running the old code after ``tracks.py``
changes. Every module whose kernels call into another module's kernels registers them
here: a stamp of the sources they depend on is kept beside the cache, and the cache is
flushed when the stamp no longer matches.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType


def refresh_when_changed(
    name: str, dispatchers: Iterable[object], depends_on: Iterable[ModuleType]
) -> None:
    """Flush the caches of ``dispatchers`` if the sources of ``depends_on`` changed."""
    dispatchers = list(dispatchers)
    try:
        directory = Path(dispatchers[0]._cache._cache_path)  # type: ignore[attr-defined]
        digest = hashlib.sha1()
        for module in depends_on:
            digest.update(Path(module.__file__ or "").read_bytes())
        stamp = digest.hexdigest()
    except (AttributeError, IndexError, OSError):
        return
    stamp_file = directory / f"{name}.depends-stamp"
    with contextlib.suppress(OSError):
        if stamp_file.read_text() == stamp:
            return
    for dispatcher in dispatchers:
        dispatcher._cache.flush()  # type: ignore[attr-defined]
    with contextlib.suppress(OSError):
        stamp_file.write_text(stamp)
