"""Many games stepped in lockstep in compiled code, for training loops that batch.

:class:`VectorEnv` holds ``num_envs`` two-player track games (backgammon, nackgammon,
hypergammon, short, caucasian, Long Nardy; :func:`supported_variants`) in numpy arrays and
steps them all at once in numba (:mod:`gammon.kernels.vector`). It needs neither
PettingZoo nor Gymnasium. Every env is always at a decision of the player to move
(``to_play``):

- **actions** are whole-turn plays, as in the other environments
  (:mod:`gammon.envs.observe`): action ``k`` is the ``k``-th entry of the Python engine's
  ``state.legal_actions()`` for that position and roll, the ``k``-th row of
  :func:`gammon.kernels.tracks.generate_plays`. The legal actions of env ``e`` are
  ``0 .. counts[e] - 1`` (the mask is a prefix; :meth:`VectorEnv.action_mask` writes it
  out). A player who cannot move still decides: one empty play, ``counts[e] == 1``.
  The action space is ``Discrete(max_actions)``, the move generator's capacity
  (:data:`gammon.kernels.tracks.MAX_PLAYS`, the bound the PettingZoo environment uses).
- **observations** ``(num_envs, observation_size)`` ``float32``, from the mover's side:
  :class:`~gammon.nn.encoders.TrackEncoder`'s inputs of the board, then 12 dice units,
  ``1`` at ``high - 1`` and at ``6 + low - 1`` (a double: one in each half). These are the
  first units of the PettingZoo environment's observations.
- **rewards** ``(num_envs, 2)`` ``float32`` per player: the points won and lost when a
  game ends in that step (1, 2 or 3 as the variant scores; 0 for Long Nardy's draw),
  zero-sum, and zeros otherwise.
- **chance** is inside: each env rolls its own dice from its own counter-based
  generator seeded by ``(seed, env index)``, so the same seed and the same actions give
  the same games whatever the threads do.
- **auto-reset**: a game that ends in a step is scored (``dones[e]``, ``rewards[e]``,
  ``info["winner"]``, ``info["turns"]``) and the env is already at the first decision
  of its next game in the observation the same step returns.

``step`` returns ``(obs, rewards, dones, info)`` with ``info`` holding ``counts``,
``to_play``, ``winner`` (-1: no game ended, -2: a draw, else the winner), ``turns``
(plays the ended game took) and ``final_boards`` (the last board of each game that ended,
zeros in the other rows). ``reset`` returns ``(obs, info)`` with ``counts`` and
``to_play``. The arrays returned are the caller's (fresh each step).
:class:`gammon.envs.vector_gym.GymnasiumVectorEnv` gives the same games as a
``gymnasium.vector.VectorEnv``.

For afterstate learners, :meth:`VectorEnv.afterstates` encodes the result of every legal
play of every env from the mover's side, batched with offsets.

Games agree with the Python engine (``tests/test_envs_vector.py``): driving
``rules.initial_state()`` with the env's opening throws, dice and action indices gives the
same boards, players, dice, legal-play counts and returns at every step.
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np

from gammon.core.errors import IllegalPlayError, InvalidOptionError
from gammon.core.variant import TrackVariant, variant_from, variant_names
from gammon.envs.games import check_seed, check_whole, make_rules
from gammon.kernels import tracks
from gammon.kernels import vector as kernel
from gammon.nn.encoders import TrackEncoder

#: How many result boards of a decision each env keeps for the next step; a decision
#: with more plays (a double early in a game) is generated again when its action comes.
#: Measured (benchmarks/bench_vector.py): keeping beats regenerating every time.
KEEP = 64

# The turn flow the kernel compiles is TrackVariant's own: a variant that changes any of
# these has turns of its own (acey-deucey's extra rolls, Multi-Gam's four players).
_TURN_METHODS = ("after_play", "apply_roll", "apply_opening", "returns", "legal_plays",
                 "chance_outcomes", "head_limit", "winner_points")


def why_unsupported(rules: Any) -> str | None:
    """Why ``rules``' games are not two-player track games whose turns simply alternate
    (what the compiled environment and the step encoding play), or None."""
    if not rules.game_type.checkers:
        return f"{rules.name} is not a game of checkers on a track"
    if rules.players != 2:
        return f"{rules.name} has {rules.players} players"
    if rules.sides != 6:
        return f"{rules.name} throws {rules.sides}-sided dice"
    if rules.pinning:
        return (f"{rules.name} pins checkers: its boards carry a pin row, which the compiled "
                "environment and the step encoding do not keep")
    for name in _TURN_METHODS:
        if getattr(type(rules), name) is not getattr(TrackVariant, name):
            return f"{rules.name}'s turns differ from the shared two-player turn ({name})"
    return None


def supported_variants() -> list[str]:
    """The variant names :class:`VectorEnv` plays (with their default options)."""
    names = []
    for name in variant_names():
        try:
            rules = variant_from(name)
        except InvalidOptionError:  # pragma: no cover - every name builds
            continue
        if why_unsupported(rules) is None:
            names.append(name)
    return names


class VectorEnv:
    """``num_envs`` games of ``variant`` in lockstep (module text).

    ``VectorEnv("backgammon", num_envs=1024, seed=0)``; variant options as keywords
    (``VectorEnv("long-nardy", 64, last_roll=True)``). ``threads``: how many chunks the
    envs are stepped in, each on its own thread (``numba.prange``, up to numba's thread
    count) and move-generator workspace; default 1, in the calling thread (a parallel
    launch pays off only on cores that are free: :mod:`gammon.kernels.vector`). The
    games do not depend on it. ``keep``: result boards kept per env between steps
    (:data:`KEEP`; 0 generates every decision again when its action comes).
    """

    def __init__(self, variant: str | Any = "backgammon", num_envs: int = 256,
                 seed: int | None = None, *, threads: int = 1, keep: int = KEEP,
                 **options: Any) -> None:
        rules = make_rules(variant, options)
        why = why_unsupported(rules)
        if why is not None:
            raise InvalidOptionError(
                f"VectorEnv plays the two-player track games whose turns simply alternate; "
                f"{why}. Supported: {', '.join(supported_variants())}")
        num_envs = check_whole("num_envs", num_envs, 1)
        threads = check_whole("threads", threads, 1)
        keep = check_whole("keep", keep, 0)
        seed = check_seed(seed)
        assert isinstance(rules, TrackVariant)
        threads = max(1, min(int(threads), num_envs))
        parallel = threads > 1
        self._reset = kernel.reset_parallel if parallel else kernel.reset
        self._step = kernel.step_parallel if parallel else kernel.step
        self._afterstates = kernel.afterstates_parallel if parallel else kernel.afterstates
        self.threads = threads
        self.rules = rules
        self.num_envs = num_envs
        self.encoder = TrackEncoder(rules)
        #: The size of the action space (module text).
        self.max_actions = tracks.MAX_PLAYS
        #: Board inputs then the dice units.
        self.observation_size = self.encoder.inputs + kernel.DICE_UNITS
        self.keep = keep
        self._rules = rules.kernel.rules
        self._start = np.frombuffer(rules.start_position().board, np.int8).copy()
        size = self._start.shape[0]
        self.boards = np.zeros((num_envs, size), np.int8)
        self._state = np.zeros((num_envs, kernel.FIELDS), np.int64)
        self._rng = np.zeros(num_envs, np.uint64)
        self._cand = np.zeros((num_envs, max(keep, 1), size), np.int8)
        work = [tracks.workspace(2, rules.slots) for _ in range(threads)]
        self._plays = np.stack([w[0] for w in work])
        self._words = np.stack([w[1] for w in work])
        self._checkers = float(rules.checkers)
        self._obs = np.zeros((num_envs, self.observation_size), np.float32)
        self._seed = seed
        self.reset(seed)

    # --- the state, read-only views ------------------------------------------------

    @property
    def counts(self) -> np.ndarray:
        """``(num_envs,)``: legal actions of each env's decision (actions ``0 .. n-1``)."""
        return self._state[:, kernel.S_COUNT].copy()

    @property
    def to_play(self) -> np.ndarray:
        """``(num_envs,)``: the player to move in each env."""
        return self._state[:, kernel.S_PLAYER].copy()

    @property
    def dice(self) -> np.ndarray:
        """``(num_envs, 2)``: the dice each mover plays, high then low."""
        return self._state[:, [kernel.S_HIGH, kernel.S_LOW]].copy()

    @property
    def opening_throws(self) -> np.ndarray:
        """``(num_envs, 2)``: the decisive opening throw of each env's current game,
        player 0's die then player 1's."""
        return self._state[:, [kernel.S_OPEN0, kernel.S_OPEN1]].copy()

    @property
    def turns(self) -> np.ndarray:
        """``(num_envs,)``: plays made so far in each env's current game."""
        return self._state[:, kernel.S_TURNS].copy()

    def observation(self) -> np.ndarray:
        """The current observations (a copy of what the last reset or step returned)."""
        return self._obs.copy()

    def action_mask(self, width: int | None = None) -> np.ndarray:
        """``(num_envs, width)`` booleans, True for the legal actions: a prefix of
        ``counts[e]`` ones. ``width`` defaults to :attr:`max_actions` (24,576 columns:
        for big batches ``counts`` or ``width=counts.max()`` is the cheaper form)."""
        counts = self._state[:, kernel.S_COUNT]
        largest = int(counts.max())
        width = self.max_actions if width is None else check_whole(
            "width", width, largest, meaning=" (the largest count of legal actions)")
        mask: np.ndarray = np.arange(width)[None, :] < counts[:, None]
        return mask

    def _info(self) -> dict[str, Any]:
        return {"counts": self.counts, "to_play": self.to_play}

    # --- stepping ------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game in every env. ``seed`` seeds every env's dice (env ``e``
        draws from the stream of ``(seed, e)``); None draws a fresh seed."""
        seed = check_seed(seed)
        if seed is None:
            seed = secrets.randbits(64)
        kernel.seed_envs(self._rng, np.uint64(int(seed) % (1 << 64)))
        obs = np.empty_like(self._obs)
        self._reset(self.boards, self._state, self._rng, self._start, self._rules,
                     self._cand, self.keep, self._plays, self._words, self.encoder.cross,
                     self._checkers, obs)
        self._obs = obs
        return obs.copy(), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play ``actions[e]`` in every env; ``(obs, rewards, dones, info)`` (module
        text). An action outside ``0 .. counts[e] - 1`` raises :class:`IllegalPlayError`
        and nothing is applied."""
        n = self.num_envs
        actions = np.asarray(actions)
        if actions.shape != (n,) or not np.issubdtype(actions.dtype, np.integer):
            raise IllegalPlayError(
                f"actions must be {n} integers, one per env; got shape {actions.shape} of "
                f"{actions.dtype}")
        actions = actions.astype(np.int64)
        counts = self._state[:, kernel.S_COUNT]
        bad = np.flatnonzero((actions < 0) | (actions >= counts))
        if bad.size:
            shown = ", ".join(f"env {e}: action {actions[e]} of {counts[e]} legal"
                              for e in bad[:5])
            more = f" and {bad.size - 5} more" if bad.size > 5 else ""
            raise IllegalPlayError(f"illegal actions (legal: 0 .. count - 1): {shown}{more}; "
                                   "nothing was applied")
        obs = np.empty_like(self._obs)
        rewards = np.empty((n, 2), np.float32)
        winners = np.empty(n, np.int64)
        turns = np.empty(n, np.int64)
        finals = np.zeros_like(self.boards)
        self._step(actions, self.boards, self._state, self._rng, self._start, self._rules,
                    self._cand, self.keep, self._plays, self._words, self.encoder.cross,
                    self._checkers, obs, rewards, winners, turns, finals)
        self._obs = obs
        info = self._info()
        info["winner"] = winners
        info["turns"] = turns
        info["final_boards"] = finals
        return obs.copy(), rewards, winners != -1, info

    # --- afterstates ---------------------------------------------------------------

    def afterstate_boards(self) -> tuple[np.ndarray, np.ndarray]:
        """The result boards of every env's legal plays, in action order: ``(boards,
        offsets)``, env ``e``'s rows ``boards[offsets[e]:offsets[e + 1]]``."""
        counts = self._state[:, kernel.S_COUNT]
        offsets = np.zeros(self.num_envs + 1, np.int64)
        np.cumsum(counts, out=offsets[1:])
        out = np.empty((int(offsets[-1]), self.boards.shape[1]), np.int8)
        self._afterstates(self.boards, self._state, self._rules, self._cand, self.keep,
                           offsets, out, self._plays, self._words)
        return out, offsets

    def afterstates(self) -> tuple[np.ndarray, np.ndarray]:
        """Every env's legal plays as the encoded positions they lead to, from the
        mover's side (:class:`~gammon.nn.encoders.TrackEncoder`, no dice units):
        ``(x, offsets)``, the rows of env ``e``'s actions ``x[offsets[e]:offsets[e + 1]]``
        in action order. ``np.maximum.reduceat(values, offsets[:-1])`` then gives each
        env's best value."""
        boards, offsets = self.afterstate_boards()
        movers = np.repeat(self._state[:, kernel.S_PLAYER], np.diff(offsets))
        return self.encoder.encode(boards, movers), offsets
