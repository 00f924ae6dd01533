"""Keep numba's on-disk cache honest across modules.

numba keys a cached function on the file that defines it only; a kernel compiled with
the move generator of :mod:`gammon.kernels.tracks` inlined (and its constants, such as
the layout of the rules vector) would keep running the old code after ``tracks.py``
changes. So every module that holds cached kernels ends with
``refresh_when_changed(globals())``: a stamp of the sources it depends on is kept beside
the cache, and its kernels are flushed when the stamp no longer matches.

What a module depends on is read from its import statements, not listed by hand: each
gammon module it imports from (a kernel it calls, a constant it freezes), and, through
those that hold cached kernels themselves, what they depend on in turn.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

#: The modules that called :func:`refresh_when_changed` (a test checks none is missing).
KEPT: set[str] = set()

#: A module's own import statements (those of its functions may not have run yet).
_IMPORTS = re.compile(r"^(?:from[ \t]+(gammon[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)"
                      r"|import[ \t]+(gammon[\w.]*))", re.MULTILINE)


def cached_kernels(namespace: Mapping[str, Any]) -> list[Any]:
    """The kernels defined in ``namespace`` (a module's globals) that numba caches on
    disk."""
    name = namespace.get("__name__")
    return [value for value in namespace.values()
            if getattr(getattr(value, "py_func", None), "__module__", None) == name
            and hasattr(getattr(value, "_cache", None), "_cache_path")]


def imported_modules(source: str) -> list[ModuleType]:
    """The gammon modules the Python ``source`` imports from at its top level."""
    found: dict[str, ModuleType] = {}
    for origin, names, plain in _IMPORTS.findall(source):
        for module_name in [plain] if plain else [origin] + [
                f"{origin}.{word}" for word in re.findall(r"\w+", re.sub("#.*", "", names))]:
            module = sys.modules.get(module_name)
            if module is not None and getattr(module, "__file__", None):
                found.setdefault(module_name, module)
    return list(found.values())


def dependencies(namespace: Mapping[str, Any]) -> list[ModuleType]:
    """The modules whose sources the kernels of ``namespace`` are compiled with."""
    own = namespace.get("__name__")
    seen: dict[str, ModuleType] = {}
    waiting = imported_modules(Path(namespace["__file__"]).read_text())
    while waiting:
        module = waiting.pop()
        if module.__name__ in seen or module.__name__ == own:
            continue
        seen[module.__name__] = module
        if cached_kernels(vars(module)):
            waiting.extend(imported_modules(Path(module.__file__ or "").read_text()))
    return sorted(seen.values(), key=lambda module: module.__name__)


def refresh_when_changed(namespace: Mapping[str, Any]) -> None:
    """Flush the cached kernels of the module whose globals are ``namespace`` if the
    sources of its :func:`dependencies` changed since they were compiled. Called last
    in the module, once every kernel is defined."""
    KEPT.add(namespace["__name__"])
    try:
        flush_when_changed(namespace["__name__"], cached_kernels(namespace),
                           dependencies(namespace))
    except OSError:  # no source to read (a frozen install): numba's own check stands
        return


def flush_when_changed(name: str, dispatchers: Iterable[Any],
                       depends_on: Iterable[ModuleType]) -> None:
    """Flush the caches of ``dispatchers`` if the sources of ``depends_on`` changed
    since the stamp called ``name`` was written beside them."""
    dispatchers = list(dispatchers)
    try:
        directory = Path(dispatchers[0]._cache._cache_path)
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
        dispatcher._cache.flush()
    with contextlib.suppress(OSError):
        stamp_file.write_text(stamp)
