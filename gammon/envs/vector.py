"""Many games stepped in lockstep in compiled code, for training loops that batch.

:class:`VectorEnv` holds ``num_envs`` two-player track games whose turns simply alternate
and that do not pin (backgammon, Long Nardy...; :func:`supported_variants` lists them) in
numpy arrays and steps them all at once in numba (:mod:`gammon.kernels.vector`). It needs neither
PettingZoo nor Gymnasium. Every env is always at a decision of the player to move
(``to_play``):

- **actions** are whole-turn plays, as in the other environments
  (:mod:`gammon.envs.observe`): action ``k`` is the ``k``-th entry of the Python engine's
  ``state.legal_actions()`` for that position and roll, the ``k``-th row of
  :func:`gammon.kernels.tracks.generate_plays`. The legal actions of env ``e`` are
  ``0 .. counts[e] - 1`` (the mask is a prefix; :meth:`VectorEnv.action_mask` writes it
  out). A player who cannot move still decides: one empty play, ``counts[e] == 1``.
  The action space is ``Discrete(max_actions)``, the most plays a decision of the
  variant can list (``rules.game_type.max_actions``, proved by
  :func:`gammon.core.variant.most_plays`: 3,875 for backgammon; the bound the PettingZoo
  environment uses).
- **observations** ``(num_envs, observation_size)`` ``float32``, from the mover's side:
  :class:`~gammon.nn.encoders.TrackEncoder`'s inputs of the board, then 12 dice units,
  ``1`` at ``high - 1`` and at ``6 + low - 1`` (a double: one in each half). These are the
  first units of the PettingZoo environment's observations.
- **rewards** ``(num_envs, 2)`` ``float32`` per player: the points won and lost when a
  game ends in that step (1, 2 or 3 as the variant scores; 0 for Long Nardy's draw),
  zero-sum, and zeros otherwise.
- **chance** is inside: each env rolls its own dice from its own counter-based
  generator seeded by ``(seed, env index)`` (or, given a list of seeds, one per env, by
  ``(seeds[e], 0)``: :meth:`VectorEnv.reset`), so the same seed and the same actions
  give the same games whatever the threads do.
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

**The cube and matches** (``stakes``, ``match``, ``whole_match``, the options of the
PettingZoo and Gymnasium environments, :mod:`gammon.envs.games`): the cube, the offer
and the score of every env live in numpy arrays around the kernel, since a cube decision
needs no move generator. Before a roll, a player who may double (the engine's
``CubeState.why_no_double``) decides first: action :data:`ROLL` (0) or :data:`DOUBLE`
(1); the opponent answers :data:`TAKE` (0), :data:`DROP` (1) or, where ``stakes``
allow a beaver (or a raccoon after one), :data:`RAISE` (2). ``phase`` (and
``info["phase"]``) says which decision an env is at; an env at a cube decision is left
alone by the kernel in that step. The kernel has drawn the roll already: it is not shown
(``dice`` and the dice units are zero) until the player rolls. Observations add
:data:`gammon.envs.observe.EXTRA_UNITS` units, so that they are the PettingZoo
environment's whole observation. Rewards are the engine's ``returns()`` (points times
the cube, the Jacoby rule, "no mars with the cube"; a drop scores the value before the
double), or with ``whole_match`` each player's gain of match equity as each game ends
(+1 and -1 over the match), ``dones`` then marking the end of a match. docs/vector.md
has the numbers.

Games agree with the Python engine (``tests/test_envs_vector.py``): driving
``rules.initial_state()`` with the env's opening throws, dice and action indices gives the
same boards, players, dice, legal-play counts and returns at every step; with the stakes
(``tests/test_envs_vector_stakes.py``) the engine's ``CubeState`` driven alike gives the
same cube decisions, cube values and owners, scores, rewards and observations.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from gammon.core.errors import IllegalPlayError, InvalidOptionError
from gammon.core.protocol import Rules
from gammon.core.variant import TrackVariant, variant_from, variant_names
from gammon.envs.games import (
    check_seed,
    check_stakes,
    check_whole,
    check_whole_match,
    is_whole,
    make_rules,
    match_equity,
    new_game,
)
from gammon.envs.observe import EXTRA_UNITS
from gammon.kernels import tracks
from gammon.kernels import vector as kernel
from gammon.nn.encoders import TrackEncoder
from gammon.stakes.rules import GEOMETRIC, StakeRules
from gammon.stakes.score import MatchScore

#: How many result boards of a decision each env keeps for the next step; a decision
#: with more plays (a double early in a game) is generated again when its action comes.
#: Measured (benchmarks/bench_vector.py): keeping beats regenerating every time.
KEEP = 64

#: The decision an env is at (``info["phase"]``; with ``stakes`` or ``match`` only): a
#: play, a double-or-roll decision before the roll, an answer to a double (or beaver).
PLAY, DOUBLE_OR_ROLL, TAKE_OR_DROP = 0, 1, 2
#: The cube decisions' fixed action numbers: before the roll, 0 rolls and 1 doubles; to
#: an offer, 0 takes, 1 drops and 2 raises again (a beaver, or a raccoon after a beaver,
#: where ``stakes`` allow them).
ROLL, DOUBLE = 0, 1
TAKE, DROP, RAISE = 0, 1, 2
_CUBE_ACTIONS = {DOUBLE_OR_ROLL: "0 roll, 1 double", TAKE_OR_DROP: "0 take, 1 drop"}
# What an offer on the table is (the engine's CubeAction of the raise).
_OFFER_DOUBLE, _OFFER_BEAVER, _OFFER_RACCOON = 1, 2, 3
# The decision-kind units of gammon.envs.observe's extra units: a play, double-or-roll,
# an answer to an offer (the phases, in order).
_KIND_UNITS = 5

# The turn flow the kernel compiles is TrackVariant's own: a variant that changes any of
# these has turns of its own (acey-deucey's extra rolls, Multi-Gam's four players).
_TURN_METHODS = ("after_play", "apply_roll", "apply_opening", "returns", "legal_plays",
                 "chance_outcomes", "head_limit", "winner_points")


def why_not_alternating(rules: Any) -> str | None:
    """Why ``rules``' games are not two-player track games whose turns simply alternate
    (what the step encoding plays), or None."""
    # Any: any rules object, read for the dice's sides (a track game's, not the Rules
    # protocol's) once it has said it is a game of checkers.
    if not rules.game_type.checkers:
        return f"{rules.name} is not a game of checkers on a track"
    if rules.players != 2:
        return f"{rules.name} has {rules.players} players"
    if rules.sides != 6:
        return f"{rules.name} throws {rules.sides}-sided dice"
    if rules.game_type.dice != 2:
        return f"{rules.name} throws {rules.game_type.dice} dice a turn"
    if rules.game_type.turns != "alternate":
        return (f"{rules.name}'s turns are its own (more than one throw, or a choice "
                "besides the plays)")
    for name in _TURN_METHODS:
        if getattr(type(rules), name) is not getattr(TrackVariant, name):
            return f"{rules.name}'s turns differ from the shared two-player turn ({name})"
    return None


def why_unsupported(rules: Rules) -> str | None:
    """Why the compiled environment does not play ``rules``' games, or None: those of
    :func:`why_not_alternating`, and the games that pin, whose pin row (and the end at a
    pinned mother) its kernel does not keep."""
    why = why_not_alternating(rules)
    if why is None and rules.game_type.pins:
        return (f"{rules.name} pins checkers: its boards carry a pin row, which the compiled "
                "environment does not keep (action_encoding='step' and the other "
                "environments play it)")
    return why


#: What ``reset`` and the environment take as ``seed``: one for every env, or a list of
#: one per env (:meth:`VectorEnv.reset`).
Seeds = int | Sequence[int | None] | None


def check_seeds(seed: object, num_envs: int) -> int | list[int | None] | None:
    """``seed`` as :meth:`VectorEnv.reset` takes it: a whole number or None, or a list
    (a tuple, a 1-D array) of ``num_envs`` of them, one per env; anything else, or a list
    of another length, is refused saying what is allowed."""
    if isinstance(seed, np.ndarray) and seed.ndim == 1:
        seed = seed.tolist()
    if not isinstance(seed, list | tuple):
        if seed is not None and not is_whole(seed):
            raise InvalidOptionError(
                f"seed is a whole number, None, or a list of {num_envs} seeds (one per "
                f"env, each a whole number or None), not {seed!r}")
        return check_seed(seed)
    if len(seed) != num_envs:
        raise InvalidOptionError(
            f"a list of seeds gives one per env: {num_envs} of them (whole numbers or "
            f"None), not {len(seed)}")
    for env, each in enumerate(seed):
        if each is not None and not is_whole(each):
            raise InvalidOptionError(f"seed[{env}] (env {env}'s seed) is a whole number "
                                     f"or None, not {each!r}")
    return [None if each is None else int(each) for each in seed]


def supported_variants(why: Callable[[Rules], str | None] = why_unsupported) -> list[str]:
    """The variant names :class:`VectorEnv` plays (with their default options); with
    ``why`` another test of what is refused (:func:`why_not_alternating`: the step
    encoding's)."""
    names = []
    for name in variant_names():
        try:
            rules = variant_from(name)
        except InvalidOptionError:  # pragma: no cover - every name builds
            continue
        if why(rules) is None:
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
    ``stakes`` (a :class:`~gammon.stakes.rules.StakeRules` or a dict of its options),
    ``match`` (points; a game of that match from 0-0 per episode) and ``whole_match``
    (the episode is the whole match): the cube and matches, as the other environments
    take them (module text).
    """

    def __init__(self, variant: Rules | str = "backgammon", num_envs: int = 256,
                 seed: Seeds = None, *, threads: int = 1, keep: int = KEEP,
                 stakes: StakeRules | dict[str, object] | None = None, match: int = 0,
                 whole_match: bool = False, **options: object) -> None:
        rules = make_rules(variant, options)
        why = why_unsupported(rules)
        if why is not None:
            raise InvalidOptionError(
                f"VectorEnv plays the two-player track games whose turns simply alternate; "
                f"{why}. Supported: {', '.join(supported_variants())}")
        assert isinstance(rules, TrackVariant)  # why_unsupported passes TrackVariant's turns
        self._setup_stakes(rules, stakes, match, whole_match)
        num_envs = check_whole("num_envs", num_envs, 1)
        threads = check_whole("threads", threads, 1)
        keep = check_whole("keep", keep, 0)
        seed = check_seeds(seed, num_envs)
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
        self.max_actions = int(rules.game_type.max_actions)
        #: Board inputs then the dice units (and with the stakes the extra units).
        self._base_size = self.encoder.inputs + kernel.DICE_UNITS
        self.observation_size = self._base_size + (EXTRA_UNITS if self.staked else 0)
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
        self._all = np.ones(num_envs, np.bool_)
        # The cube and the match around each env's game (used with the stakes only).
        self._phase = np.zeros(num_envs, np.int64)
        self._cube = np.ones(num_envs, np.int64)
        self._owner = np.full(num_envs, -1, np.int64)
        self._offer_kind = np.zeros(num_envs, np.int64)
        self._offer_by = np.zeros(num_envs, np.int64)
        self._offer_value = np.zeros(num_envs, np.int64)
        self._offer_stake = np.zeros(num_envs, np.int64)
        self._score = np.zeros((num_envs, 2), np.int64)
        self._crawford = np.zeros(num_envs, np.bool_)
        self._post_crawford = np.zeros(num_envs, np.bool_)
        self._seed = seed
        self.reset(seed)

    def _setup_stakes(self, rules: TrackVariant, stakes: object, match: int,
                      whole_match: bool) -> None:
        """Check and keep the options of the cube and the match (as the PettingZoo and
        Gymnasium environments take them: :mod:`gammon.envs.games`)."""
        checked = check_stakes(rules, stakes, match)
        self.whole_match = check_whole_match(whole_match, match)
        #: The points of the match (0: money games).
        self.match = int(match)
        #: The cube and match layer is on (``stakes`` or ``match`` given).
        self.staked = checked is not None or self.match > 0
        self.stakes: StakeRules | None = None
        if not self.staked:
            return
        new_game(rules, checked, self.match)  # the variant and the options agree
        self.stakes = checked if checked is not None else StakeRules()
        if self.stakes.list_resignations:
            raise InvalidOptionError(
                "VectorEnv offers no resignations: list_resignations is for the "
                "single-agent and PettingZoo environments (stakes may set the cube's "
                "options: cube, max_cube, progression, beaver, raccoon, jacoby, "
                "auto_doubles, no_mars_with_cube)")
        self._cube_in_play = self.stakes.cube_for(rules)
        self._jacoby = self.stakes.jacoby and not self.match
        self._no_mars = self._cube_in_play and self.stakes.no_mars_for(rules)
        self._auto_doubles = (self.stakes.auto_doubles
                              if self._cube_in_play and not self.match else 0)
        self._roll_again = not rules.dice.opening_plays_lot

    # --- the state, read-only views ------------------------------------------------

    @property
    def counts(self) -> np.ndarray:
        """``(num_envs,)``: legal actions of each env's decision (actions ``0 .. n-1``);
        2 or 3 at a cube decision."""
        counts = self._state[:, kernel.S_COUNT]
        if not self.staked:
            return counts.copy()
        answers = 2 + self._may_raise().astype(np.int64)
        result: np.ndarray = np.where(self._phase == PLAY, counts,
                                      np.where(self._phase == DOUBLE_OR_ROLL, 2, answers))
        return result

    @property
    def to_play(self) -> np.ndarray:
        """``(num_envs,)``: the player to decide in each env (to an offer, the player
        asked to take it)."""
        movers = self._state[:, kernel.S_PLAYER]
        if not self.staked:
            return movers.copy()
        result: np.ndarray = np.where(self._phase == TAKE_OR_DROP, 1 - self._offer_by, movers)
        return result

    @property
    def dice(self) -> np.ndarray:
        """``(num_envs, 2)``: the dice each mover plays, high then low; ``(0, 0)`` at a
        cube decision, made before the roll (the env has drawn them already; they are
        not shown)."""
        dice = self._state[:, [kernel.S_HIGH, kernel.S_LOW]].copy()
        if self.staked:
            dice[self._phase != PLAY] = 0
        return dice

    @property
    def phase(self) -> np.ndarray:
        """``(num_envs,)``: the decision of each env: :data:`PLAY` (0),
        :data:`DOUBLE_OR_ROLL` (1) or :data:`TAKE_OR_DROP` (2); all 0 without stakes."""
        return self._phase.copy()

    @property
    def cube_value(self) -> np.ndarray:
        """``(num_envs,)``: the cube's value in each env's game (1 without stakes)."""
        return self._cube.copy()

    @property
    def cube_owner(self) -> np.ndarray:
        """``(num_envs,)``: the player who owns the cube, -1 while it is centred."""
        return self._owner.copy()

    @property
    def score(self) -> np.ndarray:
        """``(num_envs, 2)``: each player's points in the match so far (a match played
        whole, ``whole_match``; zeros otherwise)."""
        return self._score.copy()

    @property
    def crawford(self) -> np.ndarray:
        """``(num_envs,)``: whether the env's game is the match's Crawford game."""
        return self._crawford.copy()

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
        ``counts[e]`` ones. ``width`` defaults to :attr:`max_actions` (3,875 columns for
        backgammon: for big batches ``counts`` or ``width=counts.max()`` is the cheaper
        form)."""
        counts = self.counts
        largest = int(counts.max())
        width = self.max_actions if width is None else check_whole(
            "width", width, largest, meaning=" (the largest count of legal actions)")
        mask: np.ndarray = np.arange(width)[None, :] < counts[:, None]
        return mask

    def _info(self) -> dict[str, np.ndarray]:
        info = {"counts": self.counts, "to_play": self.to_play}
        if self.staked:
            info.update(phase=self.phase, cube_value=self.cube_value,
                        cube_owner=self.cube_owner)
            if self.match:
                info.update(score=self.score, crawford=self.crawford)
        return info

    # --- the cube and the match (stakes) ---------------------------------------------

    def _next_value(self, value: np.ndarray) -> np.ndarray:
        assert self.stakes is not None
        raised: np.ndarray = value * 2 if self.stakes.progression == GEOMETRIC else value + 1
        return raised

    def _may_raise(self) -> np.ndarray:
        """Per env: the answer to the offer on the table may raise again (a beaver to a
        double, a raccoon to a beaver: money play, below the cube's limit)."""
        stakes = self.stakes
        assert stakes is not None
        further = (self._next_value(self._offer_value) <= stakes.max_cube) & (self.match == 0)
        may: np.ndarray = further & (((self._offer_kind == _OFFER_DOUBLE) & stakes.beaver)
                                     | ((self._offer_kind == _OFFER_BEAVER) & stakes.raccoon))
        return may

    def _may_double(self, envs: np.ndarray) -> np.ndarray:
        """Per env of ``envs``: the player about to roll may double first (the engine's
        ``CubeState.why_no_double``: the cube in play, not the Crawford game, not dead,
        theirs or centred, below its limit, not Long Nardy's last roll)."""
        assert self.stakes is not None
        if not self._cube_in_play:
            return np.zeros(envs.size, np.bool_)
        player = self._state[envs, kernel.S_PLAYER]
        cube = self._cube[envs]
        may: np.ndarray = ((~self._crawford[envs])
                           & ((self._owner[envs] == -1) | (self._owner[envs] == player))
                           & (self._next_value(cube) <= self.stakes.max_cube)
                           & (self._state[envs, kernel.S_LAST_ROLL] == 0))
        if self.match:
            may &= self._score[envs, player] + cube < self.match
        return may

    def _new_cube(self, envs: np.ndarray) -> None:
        """A centred cube for the new games of ``envs``, doubled by equal opening throws
        with ``auto_doubles``, as far as the limit allows."""
        assert self.stakes is not None
        self._cube[envs] = 1
        self._owner[envs] = -1
        self._offer_kind[envs] = 0
        equal = self._state[envs, kernel.S_EQUAL]
        for throw in range(self._auto_doubles):
            raised = self._next_value(self._cube[envs])
            due = (equal > throw) & (raised <= self.stakes.max_cube)
            self._cube[envs] = np.where(due, raised, self._cube[envs])

    def _before_roll(self, envs: np.ndarray) -> None:
        """``envs`` have just come to a roll (the kernel has drawn it): a double-or-roll
        decision first where their player may double, else the play."""
        self._phase[envs] = np.where(self._may_double(envs), DOUBLE_OR_ROLL, PLAY)

    def _cube_actions(self, actions: np.ndarray, phase: np.ndarray) -> np.ndarray:
        """Apply the cube decisions of the envs at one; the envs whose player dropped."""
        roll = (phase == DOUBLE_OR_ROLL) & (actions == ROLL)
        double = np.flatnonzero((phase == DOUBLE_OR_ROLL) & (actions == DOUBLE))
        answer = phase == TAKE_OR_DROP
        take = np.flatnonzero(answer & (actions == TAKE))
        dropped = answer & (actions == DROP)
        raised = np.flatnonzero(answer & (actions == RAISE))
        self._phase[roll] = PLAY
        if double.size:
            self._phase[double] = TAKE_OR_DROP
            self._offer_kind[double] = _OFFER_DOUBLE
            self._offer_by[double] = self._state[double, kernel.S_PLAYER]
            self._offer_stake[double] = self._cube[double]
            self._offer_value[double] = self._next_value(self._cube[double])
        if take.size:
            # A double taken goes to the taker; a beaver or raccoon taken stays with the
            # player who raised (the engine's CubeState._answer_cube).
            kind = self._offer_kind[take]
            self._cube[take] = self._offer_value[take]
            self._owner[take] = np.where(kind == _OFFER_DOUBLE, 1 - self._offer_by[take],
                                         self._offer_by[take])
            self._offer_kind[take] = 0
            self._phase[take] = PLAY
        if raised.size:
            kind = self._offer_kind[raised]
            answerer = 1 - self._offer_by[raised]
            self._cube[raised] = self._offer_value[raised]
            self._owner[raised] = np.where(kind == _OFFER_DOUBLE, answerer, self._owner[raised])
            self._offer_kind[raised] = np.where(kind == _OFFER_DOUBLE, _OFFER_BEAVER,
                                                _OFFER_RACCOON)
            self._offer_by[raised] = answerer
            self._offer_stake[raised] = self._offer_value[raised]
            self._offer_value[raised] = self._next_value(self._offer_value[raised])
        return dropped

    def _score_games(self, ended: np.ndarray, winners: np.ndarray, rewards: np.ndarray,
                     dropped: np.ndarray, info: dict[str, np.ndarray]) -> np.ndarray:
        """Score the games of ``ended`` with the cube (``rewards`` holds the kernel's
        points of those played out, and gets the env's rewards), move the match on, and
        give those envs a new cube; the envs whose episode ended."""
        n = self.num_envs
        points = np.zeros(n, np.int64)
        over = np.zeros(n, np.bool_)
        match_winner = np.full(n, -1, np.int64)
        final_score = np.zeros((n, 2), np.int64)
        for e in ended:
            winner = int(winners[e])
            if winner < 0:  # Long Nardy's draw: nothing won
                won = 0
            elif dropped[e]:
                won = int(self._offer_stake[e])
            else:  # CubeState.points_for: Jacoby (cube centred), no mars, times the cube
                level = int(rewards[e, winner])
                if level > 1 and ((self._jacoby and self._owner[e] == -1) or self._no_mars):
                    level = 1
                won = level * int(self._cube[e])
            points[e] = won
            rewards[e] = 0.0
            if not self.whole_match:
                over[e] = True
                if won:
                    rewards[e, winner] = won
                    rewards[e, 1 - winner] = -won
                continue
            before = MatchScore(self.match, (int(self._score[e, 0]), int(self._score[e, 1])),
                                bool(self._crawford[e]), bool(self._post_crawford[e]))
            after = before.after(None if winner < 0 else winner, won)
            for seat in (0, 1):
                rewards[e, seat] = match_equity(after, seat) - match_equity(before, seat)
            final_score[e] = after.score
            if after.is_over:  # a new match from 0-0
                over[e] = True
                match_winner[e] = -1 if after.winner is None else after.winner
                self._score[e] = 0
                self._crawford[e] = self._post_crawford[e] = False
            else:
                self._score[e] = after.score
                self._crawford[e] = after.crawford
                self._post_crawford[e] = after.post_crawford
        self._new_cube(ended)
        info["points"] = points
        info["dropped"] = dropped
        info["game_over"] = winners != -1
        if self.whole_match:
            info["match_over"] = over
            info["match_winner"] = match_winner
            info["final_score"] = final_score
        return over

    def _observe_stakes(self, base: np.ndarray) -> np.ndarray:
        """The observations with the stakes: the kernel's ``base`` (the board from the
        mover's side and the dice), the board from the answering player's side at an
        offer, no dice at a cube decision, then the extra units of
        :class:`gammon.envs.observe.TrackObserver` (the same numbers)."""
        n = self.num_envs
        obs = np.zeros((n, self.observation_size), np.float32)
        obs[:, : self._base_size] = base
        inputs = self.encoder.inputs
        answer = np.flatnonzero(self._phase == TAKE_OR_DROP)
        if answer.size:
            obs[answer, :inputs] = self.encoder.encode(self.boards[answer],
                                                       1 - self._offer_by[answer])
        obs[self._phase != PLAY, inputs: self._base_size] = 0.0
        at = self._base_size
        rows = np.arange(n)
        obs[rows, at + self._phase] = 1.0
        at += _KIND_UNITS
        player = self.to_play
        obs[:, at] = np.log2(self._cube) / 6.0
        owner = np.where(self._owner == -1, 0, np.where(self._owner == player, 1, 2))
        obs[rows, at + 1 + owner] = 1.0
        obs[:, at + 4] = self._phase == TAKE_OR_DROP  # an offer, always to the decider
        if self.match:
            mine = self.match - self._score[rows, player]
            theirs = self.match - self._score[rows, 1 - player]
            obs[:, at + 5] = np.minimum(1.0, mine / 25.0)
            obs[:, at + 6] = np.minimum(1.0, theirs / 25.0)
            obs[:, at + 7] = self._crawford
        return obs

    # --- stepping ------------------------------------------------------------------

    def reset(self, seed: Seeds = None) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """Start a new game in every env. ``seed`` seeds every env's dice: a whole number
        (env ``e`` draws from the stream of ``(seed, e)``), None (a fresh seed), or a list
        of one seed per env, as Gymnasium's vector environments take them (env ``e``
        draws from the stream of ``(seed[e], 0)``, so it plays the games env 0 plays
        after ``reset(seed[e])``, and envs given one seed play the same games; a None
        entry draws a fresh seed for that env)."""
        seeds = check_seeds(seed, self.num_envs)
        if isinstance(seeds, list):
            kernel.seed_each(self._rng, np.array(
                [secrets.randbits(64) if s is None else s % (1 << 64) for s in seeds],
                np.uint64))
        else:
            fresh = secrets.randbits(64) if seeds is None else seeds % (1 << 64)
            kernel.seed_envs(self._rng, np.uint64(fresh))
        obs = np.empty((self.num_envs, self._base_size), np.float32)
        self._reset(self.boards, self._state, self._rng, self._start, self._rules,
                     self._cand, self.keep, self._plays, self._words, self.encoder.cross,
                     self._checkers, obs)
        if self.staked:
            every = np.arange(self.num_envs)
            self._score[:] = 0
            self._crawford[:] = self._post_crawford[:] = False
            self._phase[:] = PLAY
            self._new_cube(every)
            if self._roll_again:  # the starter rolls afresh after the opening throw
                self._before_roll(every)
            obs = self._observe_stakes(obs)
        self._obs = obs
        return obs.copy(), self._info()

    def step(self, actions: npt.ArrayLike, active: npt.ArrayLike | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """Play ``actions[e]`` in every env; ``(obs, rewards, dones, info)`` (module
        text). An action outside ``0 .. counts[e] - 1`` raises :class:`IllegalPlayError`
        and nothing is applied. ``active`` (``(num_envs,)`` booleans; default every env)
        steps only the envs it marks: the others stay at their decision, their actions
        ignored and not checked, with rewards 0, no game ended and their observations
        unchanged (what Gymnasium's ``NEXT_STEP`` auto-reset needs of an env whose game
        ended in the step before)."""
        n = self.num_envs
        actions = np.asarray(actions)
        if actions.shape != (n,) or not np.issubdtype(actions.dtype, np.integer):
            raise IllegalPlayError(
                f"actions must be {n} integers, one per env; got shape {actions.shape} of "
                f"{actions.dtype}")
        if active is None:
            chosen = self._all
            actions = actions.astype(np.int64)
        else:
            chosen = np.asarray(active)
            if chosen.shape != (n,) or chosen.dtype != np.bool_:
                raise InvalidOptionError(
                    f"active is {n} booleans, one per env (True: step it), or None for "
                    f"every env; got shape {chosen.shape} of {chosen.dtype}")
            actions = np.where(chosen, actions, 0).astype(np.int64)
        counts = self.counts
        bad = np.flatnonzero((actions < 0) | (actions >= counts))
        if bad.size:
            shown = ", ".join(f"env {e}: action {actions[e]} of {counts[e]} legal"
                              + self._what_is_legal(e, counts[e]) for e in bad[:5])
            more = f" and {bad.size - 5} more" if bad.size > 5 else ""
            raise IllegalPlayError(f"illegal actions (legal: 0 .. count - 1): {shown}{more}; "
                                   "nothing was applied")
        obs = np.empty((n, self._base_size), np.float32)
        rewards = np.empty((n, 2), np.float32)
        winners = np.empty(n, np.int64)
        turns = np.empty(n, np.int64)
        finals = np.zeros_like(self.boards)
        if self.staked:  # an env left alone (phase -1) makes no decision of either kind
            phase = np.where(chosen, self._phase, -1)
            playing = phase == PLAY
            dropped = self._cube_actions(actions, phase)
        else:
            playing = chosen
        self._step(actions, playing, self.boards, self._state, self._rng, self._start,
                   self._rules, self._cand, self.keep, self._plays, self._words,
                   self.encoder.cross, self._checkers, obs, rewards, winners, turns, finals)
        dones = winners != -1
        info: dict[str, np.ndarray] = {}
        if self.staked:
            which = np.flatnonzero(dropped)
            if which.size:  # the doubler wins the stake before the offer
                winners[which] = self._offer_by[which]
                turns[which] = self._state[which, kernel.S_TURNS]
                finals[which] = self.boards[which]
                kernel.open_games(which, self.boards, self._state, self._rng, self._start,
                                  self._rules, self._cand, self.keep, self._plays,
                                  self._words, self.encoder.cross, self._checkers, obs)
            ended = np.flatnonzero(winners != -1)
            dones = self._score_games(ended, winners, rewards, dropped, info)
            self._phase[ended] = PLAY
            rolled = playing & (winners == -1)
            if self._roll_again:
                rolled[ended] = True
            self._before_roll(np.flatnonzero(rolled))
            obs = self._observe_stakes(obs)
        self._obs = obs
        info.update(self._info())
        info["winner"] = winners
        info["turns"] = turns
        info["final_boards"] = finals
        return obs.copy(), rewards, dones, info

    def _what_is_legal(self, env: int, count: int) -> str:
        """What an env's legal actions mean, at a cube decision."""
        if not self.staked or self._phase[env] == PLAY:
            return ""
        if self._phase[env] == DOUBLE_OR_ROLL:
            return f" ({_CUBE_ACTIONS[DOUBLE_OR_ROLL]}: a cube decision before the roll)"
        kind = "beaver" if self._offer_kind[env] == _OFFER_DOUBLE else "raccoon"
        raise_ = f", 2 {kind}" if count == 3 else ""
        offer = {_OFFER_DOUBLE: "double", _OFFER_BEAVER: "beaver",
                 _OFFER_RACCOON: "raccoon"}[int(self._offer_kind[env])]
        return (f" ({_CUBE_ACTIONS[TAKE_OR_DROP]}{raise_}: the answer to a {offer} to "
                f"{self._offer_value[env]})")

    # --- afterstates ---------------------------------------------------------------

    def afterstate_boards(self) -> tuple[np.ndarray, np.ndarray]:
        """The result boards of every env's legal plays, in action order: ``(boards,
        offsets)``, env ``e``'s rows ``boards[offsets[e]:offsets[e + 1]]`` (none for an
        env at a cube decision)."""
        state = self._state
        if self.staked:  # a cube decision has no plays: no rows
            state = state.copy()
            state[self._phase != PLAY, kernel.S_COUNT] = 0
        counts = state[:, kernel.S_COUNT]
        offsets = np.zeros(self.num_envs + 1, np.int64)
        np.cumsum(counts, out=offsets[1:])
        out = np.empty((int(offsets[-1]), self.boards.shape[1]), np.int8)
        self._afterstates(self.boards, state, self._rules, self._cand, self.keep,
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
