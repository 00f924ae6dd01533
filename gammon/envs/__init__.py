"""Learning environments for every variant (the ``rl`` extra: ``pip install gammon[rl]``).

- :func:`env` / :class:`GammonEnv`: PettingZoo's AEC environment, one agent per seat
  (:mod:`gammon.envs.aec`);
- ``gymnasium.make("gammon/Backgammon-v0")`` and one id per variant (:func:`env_id`):
  one seat against bots (:mod:`gammon.envs.single`), registered when this package is
  imported;
- :class:`VectorEnv`: many games stepped in lockstep in compiled code
  (:mod:`gammon.envs.vector`; needs neither PettingZoo nor Gymnasium), and the same as a
  ``gymnasium.vector.VectorEnv``: :class:`GymnasiumVectorEnv`
  (:mod:`gammon.envs.vector_gym`).

Actions are whole decisions, observations arrays: :mod:`gammon.envs.observe` says how,
and why.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "env": "gammon.envs.aec", "raw_env": "gammon.envs.aec", "GammonEnv": "gammon.envs.aec",
    "GammonGymEnv": "gammon.envs.single", "env_id": "gammon.envs.single",
    "register_envs": "gammon.envs.single", "VectorEnv": "gammon.envs.vector",
    "GymnasiumVectorEnv": "gammon.envs.vector_gym",
    "max_actions": "gammon.envs.observe", "observer_for": "gammon.envs.observe",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'gammon.envs' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


try:  # Register the Gymnasium ids when Gymnasium is there (the rl extra).
    import gymnasium  # noqa: F401
except ImportError:  # pragma: no cover - the vector environment needs neither
    pass
else:
    from gammon.envs.single import register_envs

    register_envs()

__all__ = sorted(_EXPORTS)
