"""Random self-play in chunks, on local processes or a Ray cluster.

``gammon selfplay`` plays many whole random games in the variant's compiled playouts
(``rules.random_playouts``). :func:`random_games` cuts them into chunks of
:data:`CHUNK` games, each with its own seed, and runs the chunks as tasks of
:func:`gammon.agents.parallel.run_tasks`: chunk 0 is seeded with the seed itself (so a
run of up to :data:`CHUNK` games is the one a single call of ``random_playouts``
gives), chunk ``k`` with :func:`gammon.agents.parallel.task_seed` of the seed and
``k``. The chunks do not depend on ``jobs`` or on the cluster, so neither do the rows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gammon.agents import parallel
from gammon.core.protocol import Rules

#: Games per chunk (a few tenths of a second of compiled playouts: enough to pay for a
#: task, small enough to spread a run of thousands).
CHUNK = 1000

def chunk_seed(seed: int, index: int) -> int:
    """The seed of chunk ``index`` of a run seeded ``seed``."""
    return seed if index == 0 else parallel.task_seed(seed, "selfplay", index)


def _chunk(shared: tuple[str, dict[str, Any], int], chunk: tuple[int, int]) -> np.ndarray:
    """One chunk's rows: ``chunk`` is (games, seed)."""
    name, options, max_turns = shared
    games, seed = chunk
    rows: np.ndarray = parallel.rules_of(name, options).random_playouts(games, seed, max_turns)
    return rows


def random_games(rules: Rules, games: int, seed: int, max_turns: int, jobs: int = 1,
                 ray: str | None = None,
                 progress: Callable[[int], None] | None = None) -> np.ndarray:
    """``games`` random games of ``rules`` (rows as ``rules.random_playouts`` gives them,
    in chunk order) on ``jobs`` local processes or on Ray at ``ray``. ``progress`` is
    called with the games done as chunks finish."""
    chunks = [(min(CHUNK, games - start), chunk_seed(seed, index))
              for index, start in enumerate(range(0, games, CHUNK))]
    played = 0

    def done(_: int, rows: np.ndarray) -> None:
        nonlocal played
        played += len(rows)
        if progress:
            progress(played)

    parts = parallel.run_tasks(_chunk, chunks, jobs, ray,
                               shared=(rules.name, rules.options(), max_turns), done=done)
    return np.concatenate(parts)
