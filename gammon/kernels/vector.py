"""Compiled vector environment: many two-player track games stepped in lockstep.

The Python face is :class:`gammon.envs.vector.VectorEnv`; this module holds its state
layout and its kernels. Every env's game lives in a few arrays:

- ``boards`` ``(n, 2 * slots)`` ``int8``: the position (see :mod:`gammon.kernels.tracks`);
- ``state`` ``(n, FIELDS)`` ``int64``: the ``S_*`` fields below (player to move, the dice
  to play, how many legal plays they have, the starter, the last-roll flag, plays made,
  the head limit of the decision, the opening throw and the equal throws before it);
- ``rng`` ``(n,)`` ``uint64``: the env's own dice generator (splitmix64, a counter-based
  generator), so an env's dice depend on its seed and index only (or on a seed of its
  own: :func:`seed_each`), never on threads or on the other envs;
- ``cand`` ``(n, keep, 2 * slots)`` ``int8``: the result boards of the decision's legal
  plays, kept when there are at most ``keep`` of them; a larger decision (a double early
  in the game) is generated again when its action comes (the generator is deterministic,
  so the rows come back in the same order).

An env is always at a decision (the engine's DECIDE phase): a step applies the chosen
play (the row of :func:`gammon.kernels.tracks.generate_plays`), then rolls the next dice
and generates the next decision's plays, or scores a finished game and starts the next
one (auto-reset): the opening throws one die per player (equal dice thrown again), the
higher starts with those two dice or, without ``R_OPENING_PLAYS_LOT``, rolls afresh. A
player who cannot move still decides: the generator gives one empty play (count 1).

What is written twice, the two-player turn flow (opening, alternation, Long Nardy's last
roll, scoring), here, in :func:`gammon.kernels.tracks.random_playouts` and in
:class:`gammon.core.variant.TrackVariant`, is tied by
``tests/test_envs_vector.py::test_seeded_games_agree_with_the_python_engine``: the same
dice and action indices driven through the Python engine give the same boards, players,
dice, counts and returns at every step.

The kernels run their envs in ``chunks``, each with its own move-generator workspace
(:func:`gammon.kernels.tracks.workspace`, 3.0 MB): one after the other (:func:`step`) or
one thread each (:func:`step_parallel`, ``numba.prange``). A parallel launch costs
microseconds on an idle machine but milliseconds when another job holds the cores (7.8
ms measured on the 2-core development machine under a background job, four times a
512-env backgammon step), so the serial kernels are the default.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from gammon.kernels import tracks
from gammon.kernels.cache import refresh_when_changed
from gammon.kernels.encoding import encode_track

# Fields of the state array.
S_PLAYER = 0  # the player to move
S_HIGH = 1  # the dice to play, high then low
S_LOW = 2
S_COUNT = 3  # legal plays of the decision (actions 0 .. count - 1)
S_STARTER = 4  # who won the opening
S_LAST_ROLL = 5  # 1: this is the other player's one more turn (R_LAST_ROLL)
S_TURNS = 6  # plays made in this game
S_HEAD = 7  # head limit of the decision
S_OPEN0 = 8  # the opening throw: player 0's die, then player 1's
S_OPEN1 = 9
S_EQUAL = 10  # equal opening throws thrown again before the decisive one (auto doubles)
FIELDS = 11

#: Units after the board inputs: one-hot high die, then one-hot low die.
DICE_UNITS = 12

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STREAM = np.uint64(0xD1B54A32D192ED03)


@njit(cache=True, inline="always")
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _stream(seed, index):
    """The generator's state at the start of the stream of ``(seed, index)``."""
    return _mix(seed ^ _mix(index * _STREAM + _GOLDEN))


@njit(cache=True)
def seed_envs(rng, seed):
    """Give env ``e`` the stream of ``(seed, e)``: independent of every other env."""
    for e in range(rng.shape[0]):
        rng[e] = _stream(seed, np.uint64(e))


@njit(cache=True)
def seed_each(rng, seeds):
    """Give env ``e`` the stream of ``(seeds[e], 0)``, the one :func:`seed_envs` gives env
    0 for that seed: a seed of its own per env, so that the env plays env 0's games of
    that seed (and two envs given one seed play the same games)."""
    for e in range(rng.shape[0]):
        rng[e] = _stream(seeds[e], np.uint64(0))


@njit(cache=True, inline="always")
def _die(rng, e):
    """One fair die of env ``e`` (splitmix64; the top 53 bits scaled to 1..6)."""
    s = rng[e] + _GOLDEN
    rng[e] = s
    return 1 + np.int64(((_mix(s) >> np.uint64(11)) * np.uint64(6)) >> np.uint64(53))


@njit(cache=True)
def _generate(e, boards, state, rules, cand, keep, plays, words):
    """The decision of env ``e``: its legal plays for its dice, kept if few enough."""
    size = boards.shape[1]
    board = boards[e]
    player = state[e, S_PLAYER]
    high = state[e, S_HIGH]
    low = state[e, S_LOW]
    limit = tracks.head_limit(board, player, high, low, rules)
    count = tracks.generate_plays(board, player, high, low, limit, rules, plays, words)
    state[e, S_HEAD] = limit
    state[e, S_COUNT] = count
    if count <= keep:
        cand[e, :count, :] = plays[:count, :size]


@njit(cache=True)
def _roll(e, state, rng):
    a = _die(rng, e)
    b = _die(rng, e)
    state[e, S_HIGH] = max(a, b)
    state[e, S_LOW] = min(a, b)


@njit(cache=True)
def _open(e, boards, state, rng, start, rules):
    """A new game in env ``e``: the start position and the opening (module text)."""
    boards[e, :] = start
    equal = 0
    while True:
        a = _die(rng, e)
        b = _die(rng, e)
        if a != b:
            break
        equal += 1
    state[e, S_EQUAL] = equal
    starter = 0 if a > b else 1
    state[e, S_OPEN0] = a
    state[e, S_OPEN1] = b
    state[e, S_PLAYER] = starter
    state[e, S_STARTER] = starter
    state[e, S_LAST_ROLL] = 0
    state[e, S_TURNS] = 0
    if rules[tracks.R_OPENING_PLAYS_LOT] == 0:
        _roll(e, state, rng)
    else:
        state[e, S_HIGH] = max(a, b)
        state[e, S_LOW] = min(a, b)


@njit(cache=True)
def _observe(lo, hi, boards, state, slots, points, checkers, cross, obs):
    """Observations of envs ``lo .. hi - 1``: the board from the mover's side
    (:func:`gammon.kernels.encoding.encode_track`), then the dice units."""
    if hi <= lo:
        return
    inputs = obs.shape[1] - DICE_UNITS
    perspective = np.empty(hi - lo, np.int64)
    for e in range(lo, hi):
        perspective[e - lo] = state[e, S_PLAYER]
    encode_track(boards[lo:hi], perspective, slots, points, checkers, cross,
                 obs[lo:hi, :inputs])
    for e in range(lo, hi):
        for k in range(DICE_UNITS):
            obs[e, inputs + k] = 0.0
        obs[e, inputs + state[e, S_HIGH] - 1] = 1.0
        obs[e, inputs + 6 + state[e, S_LOW] - 1] = 1.0


@njit(cache=True)
def _reset_chunk(c, lo, hi, boards, state, rng, start, rules, cand, keep, plays, words, cross,
                 checkers, obs):
    work = plays[c]
    table = words[c]
    for e in range(lo, hi):
        _open(e, boards, state, rng, start, rules)
        _generate(e, boards, state, rules, cand, keep, work, table)
    _observe(lo, hi, boards, state, rules[tracks.R_POINTS] + 2, rules[tracks.R_POINTS],
             checkers, cross, obs)


@njit(cache=True)
def reset(boards, state, rng, start, rules, cand, keep, plays, words, cross, checkers, obs):
    """Start a game in every env and write its first observation."""
    n = boards.shape[0]
    per = (n + plays.shape[0] - 1) // plays.shape[0]
    for c in range(plays.shape[0]):
        _reset_chunk(c, c * per, min(n, c * per + per), boards, state, rng, start, rules,
                     cand, keep, plays, words, cross, checkers, obs)


@njit(cache=True, parallel=True)
def reset_parallel(boards, state, rng, start, rules, cand, keep, plays, words, cross, checkers,
                   obs):
    """:func:`reset` with one thread per chunk."""
    n = boards.shape[0]
    per = (n + plays.shape[0] - 1) // plays.shape[0]
    for c in prange(plays.shape[0]):
        _reset_chunk(np.int64(c), c * per, min(n, c * per + per), boards, state, rng, start, rules,
                     cand, keep, plays, words, cross, checkers, obs)


@njit(cache=True)
def _step_one(e, action, boards, state, rng, start, rules, cand, keep, plays, words,
              rewards, winners, turns, finals):
    size = boards.shape[1]
    player = state[e, S_PLAYER]
    if state[e, S_COUNT] <= keep:
        for i in range(size):
            boards[e, i] = cand[e, action, i]
    else:
        tracks.generate_plays(boards[e], player, state[e, S_HIGH], state[e, S_LOW],
                              state[e, S_HEAD], rules, plays, words)
        for i in range(size):
            boards[e, i] = plays[action, i]
    state[e, S_TURNS] += 1
    rewards[e, 0] = 0.0
    rewards[e, 1] = 0.0
    winners[e] = -1
    turns[e] = 0
    winner, last_roll = tracks.turn_end(boards[e], player, state[e, S_STARTER],
                                        state[e, S_LAST_ROLL] == 1, rules)
    state[e, S_LAST_ROLL] = 1 if last_roll else 0
    if winner == -1:
        state[e, S_PLAYER] = 1 - player
        _roll(e, state, rng)
    else:
        winners[e] = winner
        turns[e] = state[e, S_TURNS]
        for i in range(size):  # the game's last board, before the next game's opens
            finals[e, i] = boards[e, i]
        if winner >= 0:
            points = tracks.winner_points(boards[e], winner, rules)
            rewards[e, winner] = points
            rewards[e, 1 - winner] = -points
        _open(e, boards, state, rng, start, rules)
    _generate(e, boards, state, rules, cand, keep, plays, words)


@njit(cache=True)
def _step_chunk(c, lo, hi, actions, active, boards, state, rng, start, rules, cand, keep, plays,
                words, cross, checkers, obs, rewards, winners, turns, finals):
    work = plays[c]
    table = words[c]
    for e in range(lo, hi):
        if active[e]:
            _step_one(e, actions[e], boards, state, rng, start, rules, cand, keep, work, table,
                      rewards, winners, turns, finals)
        else:  # at a decision outside the kernel (the cube's): left as it is
            rewards[e, 0] = 0.0
            rewards[e, 1] = 0.0
            winners[e] = -1
            turns[e] = 0
    _observe(lo, hi, boards, state, rules[tracks.R_POINTS] + 2, rules[tracks.R_POINTS],
             checkers, cross, obs)


@njit(cache=True)
def step(actions, active, boards, state, rng, start, rules, cand, keep, plays, words, cross,
         checkers, obs, rewards, winners, turns, finals):
    """Apply ``actions[e]`` (a row of env ``e``'s legal plays, checked by the caller) in
    every env whose ``active[e]`` is set (the others keep their state and get rewards 0,
    winner -1), then roll on or score and start anew (module text). Writes the new
    observations, the rewards ``(n, 2)`` (points won, zero-sum; zero unless the game
    ended), ``winners`` (-1: not ended, -2: a draw, else the winner), ``turns`` (plays
    the ended game took, else 0) and, for the envs whose game ended, ``finals[e]``: that
    game's last board (the other rows are left as they were)."""
    n = boards.shape[0]
    per = (n + plays.shape[0] - 1) // plays.shape[0]
    for c in range(plays.shape[0]):
        _step_chunk(c, c * per, min(n, c * per + per), actions, active, boards, state, rng,
                    start, rules, cand, keep, plays, words, cross, checkers, obs, rewards,
                    winners, turns, finals)


@njit(cache=True, parallel=True)
def step_parallel(actions, active, boards, state, rng, start, rules, cand, keep, plays, words,
                  cross, checkers, obs, rewards, winners, turns, finals):
    """:func:`step` with one thread per chunk."""
    n = boards.shape[0]
    per = (n + plays.shape[0] - 1) // plays.shape[0]
    for c in prange(plays.shape[0]):
        _step_chunk(np.int64(c), c * per, min(n, c * per + per), actions, active, boards, state,
                    rng, start, rules, cand, keep, plays, words, cross, checkers, obs, rewards,
                    winners, turns, finals)


@njit(cache=True)
def open_games(which, boards, state, rng, start, rules, cand, keep, plays, words, cross,
               checkers, obs):
    """A new game in each env of ``which`` (a game ended outside the kernel: a double
    dropped), its first decision generated and observed; the other envs untouched."""
    slots = rules[tracks.R_POINTS] + 2
    for i in range(which.shape[0]):
        e = which[i]
        _open(e, boards, state, rng, start, rules)
        _generate(e, boards, state, rules, cand, keep, plays[0], words[0])
        _observe(e, e + 1, boards, state, slots, rules[tracks.R_POINTS], checkers, cross, obs)


@njit(cache=True)
def _afterstates_chunk(c, lo, hi, boards, state, rules, cand, keep, offsets, out, plays,
                       words):
    size = boards.shape[1]
    work = plays[c]
    for e in range(lo, hi):
        count = state[e, S_COUNT]
        at = offsets[e]
        if count <= keep:
            for k in range(count):
                for i in range(size):
                    out[at + k, i] = cand[e, k, i]
        else:
            tracks.generate_plays(boards[e], state[e, S_PLAYER], state[e, S_HIGH],
                                  state[e, S_LOW], state[e, S_HEAD], rules, work, words[c])
            for k in range(count):
                for i in range(size):
                    out[at + k, i] = work[k, i]


@njit(cache=True)
def afterstates(boards, state, rules, cand, keep, offsets, out, plays, words):
    """The result boards of every env's legal plays, in action order: env ``e``'s in
    ``out[offsets[e]:offsets[e + 1]]`` (kept rows copied, others generated again)."""
    n = boards.shape[0]
    per = (n + plays.shape[0] - 1) // plays.shape[0]
    for c in range(plays.shape[0]):
        _afterstates_chunk(c, c * per, min(n, c * per + per), boards, state, rules, cand,
                           keep, offsets, out, plays, words)


@njit(cache=True, parallel=True)
def afterstates_parallel(boards, state, rules, cand, keep, offsets, out, plays, words):
    """:func:`afterstates` with one thread per chunk."""
    n = boards.shape[0]
    per = (n + plays.shape[0] - 1) // plays.shape[0]
    for c in prange(plays.shape[0]):
        _afterstates_chunk(np.int64(c), c * per, min(n, c * per + per), boards, state, rules, cand,
                           keep, offsets, out, plays, words)


# Kernels above inline other modules' code: recompile them when it changes.
refresh_when_changed(globals())
