"""The compiled vector environment as a ``gymnasium.vector.VectorEnv`` (the ``rl`` extra).

:class:`GymnasiumVectorEnv` holds a :class:`~gammon.envs.vector.VectorEnv` and speaks
Gymnasium's vector protocol over it, so Gymnasium's vector wrappers
(``gymnasium.wrappers.vector.RecordEpisodeStatistics`` and the like) and the libraries
that take a ``gymnasium.vector.VectorEnv`` work on it. The games are the same, seed for
seed: every env is a two-player game in self-play, the observation always from the side
of the player to move (``info["to_play"]``).

- **actions**: ``(num_envs,)`` integers, the ``k``-th legal whole-turn play of each env
  (:mod:`gammon.envs.vector`); the action space is ``Discrete(max_actions)`` per env.
- **masks**: ``info["action_mask"]``, ``(num_envs, max_actions)`` booleans, a prefix of
  ``info["counts"]`` ones. Their width is the most plays a decision of the variant can
  list (``rules.game_type.max_actions``, :func:`gammon.core.variant.most_plays`: 3,875
  for backgammon, 34 for hypergammon), a proved bound, so every decision fits and a step
  never fails once its actions are applied; ``max_actions`` may widen the space, and one
  below the bound is refused when the environment is made, saying the least allowed
  (decisions of over 2,000 plays exist in backgammon; 1,024 would not hold them).
- **rewards** ``(num_envs,)`` ``float32``: the reward of the player who chose the action,
  the points they won (or lost) when the game ended in that step, else 0. Both players'
  are in ``info["rewards"]`` ``(num_envs, 2)``.
- **terminations**: a game ended (by the rules: a game always ends, so nothing is ever
  truncated; ``truncations`` are all False).
- **auto-reset**, Gymnasium's two modes (``autoreset_mode``, in ``metadata`` too):

  - ``AutoresetMode.SAME_STEP`` (the default), as the compiled environment does it: a
    game that ends in a step is scored in that step, and the observation returned is
    already the first decision of the env's next game. The ended game's last
    observation (its last board from the side of the player who ended it, no dice;
    zeros in the stakes units) is in ``info["final_obs"]``, an object array with
    ``None`` for the envs that go on (``info["_final_obs"]`` marks them), and
    ``info["final_info"]`` holds ``winner``, ``turns`` (plays the game took) and
    ``returns``, as Gymnasium's own vector environments give them.
  - ``AutoresetMode.NEXT_STEP``, what ``SyncVectorEnv`` does by default and what
    stateful wrappers such as ``NormalizeObservation`` require: the step that ends a
    game returns that last observation itself, with the reward and the termination; in
    the env's next step its action is ignored (any number will do; the mask offers 0
    alone, ``counts`` 1, and ``to_play`` is the side the last observation is from), and
    the step returns the first decision of its next game, reward 0, not terminated.
    The games are the same as in ``SAME_STEP``, each env's one step later per game it
    ended. ``winner``, ``turns`` and ``returns`` are then in ``info`` itself.

  ``AutoresetMode.DISABLED`` is refused: the compiled games always go on to the next.
  ``SAME_STEP`` stays the default because it wastes no step: ``NEXT_STEP`` spends one
  step per game on an env that does nothing (about 1% of the steps in backgammon, whose
  games between random players take 96 plays, 4% in hypergammon's 23) and gives the
  learner transitions to mask out.
- **per-seat returns**: ``info["final_info"]["returns"]`` (``info["returns"]`` in
  ``NEXT_STEP``) ``(num_envs, 2)`` ``float64``, each seat's rewards summed over the
  episode that ended (zeros in the other rows): ``RecordEpisodeStatistics`` sums the
  deciders' rewards, which in self-play mix both seats (over a whole match the winner's
  gains and the loser's losses of match equity), so its ``r`` is no seat's return;
  these are (+1 and -1 over a match, the points won and lost over a game).
- **seeds**: ``reset(seed=...)`` takes a whole number, None or a list of one seed per
  env (None entries allowed), as :meth:`gammon.envs.vector.VectorEnv.reset` does.
- **gymnasium.make_vec**: ``gymnasium.make_vec("gammon/Backgammon-v0", num_envs=8)``
  gives this environment (:func:`vector_entry_point`) for the variants the compiled
  environment plays; ``vectorization_mode="sync"`` gives single-seat environments
  against bots (:class:`~gammon.envs.single.GammonGymEnv`) instead.
- **the cube and matches** (``stakes``, ``match``, ``whole_match``, as
  :class:`~gammon.envs.vector.VectorEnv` takes them): cube decisions are actions 0 and 1
  (2 for a beaver or raccoon), the reward is the decider's points times the cube, or
  with ``whole_match`` their gain of match equity as each game ends; an episode is one
  game, or the whole match. ``info`` adds the phase, the cube, the score and what ended
  (``game_over``, ``match_over``); ``final_info`` adds ``points`` (and the match's
  ``final_score`` and ``match_winner``).
"""

from __future__ import annotations

import inspect
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from gammon.core.errors import InvalidOptionError
from gammon.envs.games import check_whole
from gammon.envs.single import GammonGymEnv
from gammon.envs.vector import KEEP, Seeds, VectorEnv

#: The auto-reset modes the environment plays (module text).
_MODES = (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP)


def check_autoreset_mode(mode: Any) -> AutoresetMode:
    """``mode`` as an :class:`AutoresetMode` (given as one or as its value, as
    ``SyncVectorEnv`` takes it), if it is one this environment plays (module text)."""
    try:
        checked = mode if isinstance(mode, AutoresetMode) else AutoresetMode(mode)
    except (ValueError, TypeError):
        checked = None
    if checked not in _MODES:
        raise InvalidOptionError(
            f"autoreset_mode is AutoresetMode.SAME_STEP or AutoresetMode.NEXT_STEP (or "
            f"their values {AutoresetMode.SAME_STEP.value!r}, "
            f"{AutoresetMode.NEXT_STEP.value!r}), not {mode!r}"
            + (": the compiled games always go on to the next game, so auto-reset cannot "
               "be disabled" if checked is AutoresetMode.DISABLED else ""))
    assert checked is not None
    return checked


class GymnasiumVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of ``variant`` in self-play, as a Gymnasium vector environment
    (module text). ``max_actions``: the size of each env's action space and of the masks
    (default and least: the most plays a decision of the variant can list);
    ``autoreset_mode``: ``SAME_STEP`` (default) or ``NEXT_STEP``, an
    :class:`~gymnasium.vector.AutoresetMode` or its value (module text); ``seed``,
    ``threads``, ``keep`` and the variant's ``options`` as in
    :class:`~gammon.envs.vector.VectorEnv`, and its ``stakes``, ``match`` and
    ``whole_match``."""

    #: The default's; each environment has its own, with its ``autoreset_mode``.
    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, variant: Any = "backgammon", num_envs: int = 256,
                 seed: Seeds = None, *, max_actions: int | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
                 threads: int = 1, keep: int = KEEP, stakes: Any = None, match: int = 0,
                 whole_match: bool = False, **options: Any) -> None:
        self.autoreset_mode = check_autoreset_mode(autoreset_mode)
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": []}
        #: The compiled environment underneath (its state, afterstates, boards).
        self.games = VectorEnv(variant, num_envs, seed, threads=threads, keep=keep,
                               stakes=stakes, match=match, whole_match=whole_match,
                               **options)
        self.num_envs = self.games.num_envs
        least = self.games.max_actions
        self.max_actions = least if max_actions is None else check_whole(
            "max_actions", max_actions, least,
            meaning=f" (the size of the action space and the masks: a decision of "
                    f"{self.games.rules.name} can list up to {least:,} plays, and a mask is "
                    "never cut short)")
        checkers = self.games.rules.checkers
        # As the PettingZoo environment bounds the same units (gammon.envs.observe).
        self.single_observation_space = spaces.Box(
            0.0, float(max(2, checkers)), (self.games.observation_size,), np.float32)
        self.single_action_space = spaces.Discrete(self.max_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None
        # Each seat's rewards so far in each env's episode (final_info["returns"]).
        self._returns = np.zeros((self.num_envs, 2), np.float64)
        # NEXT_STEP: the envs whose game ended in the last step, whose next step shows
        # the first decision of their next game (the compiled env is already there).
        self._waiting = np.zeros(self.num_envs, np.bool_)

    def _mask(self, counts: np.ndarray) -> np.ndarray:
        largest = int(counts.max())
        if largest > self.max_actions:  # pragma: no cover - the bound is proved to hold
            env = int(np.argmax(counts))
            raise InvalidOptionError(
                f"env {env} has a decision with {largest} legal actions, more than "
                f"max_actions={self.max_actions}, the bound gammon.core.variant.most_plays "
                "proves: please report the position")
        mask: np.ndarray = np.arange(self.max_actions)[None, :] < counts[:, None]
        return mask

    def reset(self, *, seed: Seeds = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game in every env (``seed`` as :meth:`VectorEnv.reset`: a whole number,
        None, or a list of one per env); ``(obs, info)`` with ``action_mask``, ``counts``
        and ``to_play``. No reset options are taken."""
        if options:
            raise InvalidOptionError(f"reset takes no options (every env starts a new "
                                     f"game), not {options!r}")
        obs, info = self.games.reset(seed)
        info["action_mask"] = self._mask(info["counts"])
        self._returns = np.zeros((self.num_envs, 2), np.float64)
        self._waiting = np.zeros(self.num_envs, np.bool_)
        return obs, info

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """One play in every env: ``(obs, rewards, terminations, truncations, info)``
        (module text). An action outside an env's legal ones raises
        :class:`~gammon.core.errors.IllegalPlayError` and nothing is applied (with
        ``NEXT_STEP``, the action of an env starting its next game is ignored)."""
        movers = self.games.to_play
        waiting = self._waiting
        obs, both, dones, info = self.games.step(
            actions, active=~waiting if waiting.any() else None)
        envs = np.arange(self.num_envs)
        rewards = both[envs, movers]
        finals = info.pop("final_boards")
        info["rewards"] = both
        self._returns += both
        self._waiting = dones.copy() if self.autoreset_mode is AutoresetMode.NEXT_STEP \
            else waiting
        if not dones.any():
            info["action_mask"] = self._mask(info["counts"])
            return obs, rewards, dones, np.zeros(self.num_envs, bool), info
        ended = np.flatnonzero(dones)
        final = np.zeros((ended.size, self.games.observation_size), np.float32)
        final[:, : self.games.encoder.inputs] = self.games.encoder.encode(
            finals[ended], movers[ended])
        returns = np.where(dones[:, None], self._returns, 0.0)
        self._returns[ended] = 0.0
        if self.autoreset_mode is AutoresetMode.NEXT_STEP:
            # The ended games' last observations now; their next games' in the next step.
            obs[ended] = final
            info["counts"][ended] = 1  # an action to ignore: 0 always lies in the space
            info["to_play"][ended] = movers[ended]
            info["returns"] = returns
        else:
            self._final_info(info, final, ended, dones, returns)
        info["action_mask"] = self._mask(info["counts"])
        return obs, rewards, dones, np.zeros(self.num_envs, bool), info

    def _final_info(self, info: dict[str, Any], final: np.ndarray, ended: np.ndarray,
                    dones: np.ndarray, returns: np.ndarray) -> None:
        """``SAME_STEP``'s ``final_obs`` and ``final_info`` (module text), into ``info``."""
        info["final_obs"] = np.full(self.num_envs, None, dtype=object)
        for row, env in enumerate(ended):
            info["final_obs"][env] = final[row]
        info["_final_obs"] = dones.copy()
        final_info = {"winner": info["winner"], "turns": info["turns"], "returns": returns}
        for name in ("points", "final_score", "match_winner"):
            if name in info:
                final_info[name] = info[name]
        info["final_info"] = {}
        for name, value in final_info.items():
            info["final_info"][name] = value
            info["final_info"][f"_{name}"] = dones.copy()
        info["_final_info"] = dones.copy()


def vector_entry_point(num_envs: int = 1, variant: Any = "backgammon",
                       **kwargs: Any) -> GymnasiumVectorEnv:
    """What ``gymnasium.make_vec`` makes of a registered id (its ``vector_entry_point``,
    :func:`gammon.envs.single.register_envs`): ``num_envs`` compiled games of ``variant``
    in self-play, ``kwargs`` as :class:`GymnasiumVectorEnv` takes them. The options of
    one seat against bots (``opponents``, ``seat``...) mean nothing here and are refused,
    pointing to ``vectorization_mode="sync"``, which makes single environments."""
    seat_only = sorted(set(kwargs) & _seat_options())
    if seat_only:
        raise InvalidOptionError(
            f"gymnasium.make_vec gives the compiled vector environment here (every env "
            f"a game in self-play), which takes no {', '.join(seat_only)}; for one seat "
            f"against bots in each env, make_vec(..., vectorization_mode=\"sync\") "
            f"makes {num_envs} GammonGymEnv")
    return GymnasiumVectorEnv(variant, num_envs, **kwargs)


def _seat_options() -> set[str]:
    """The options of :class:`~gammon.envs.single.GammonGymEnv` that this environment does
    not take (read from both signatures, so that the list cannot go stale)."""
    single = inspect.signature(GammonGymEnv).parameters
    vector = inspect.signature(GymnasiumVectorEnv).parameters
    return {name for name, parameter in single.items()
            if parameter.kind is parameter.KEYWORD_ONLY} - set(vector)
