"""Cubeless rollouts: games played on from a position by the network's players.

:func:`rollout` plays ``games`` games from each of several starting states (the
positions after the plays of one roll being compared, or one position before a roll)
with the variant's network choosing every play at 0 ply, and gives each start the mean
result with a 95% interval.

Two ways of spending less luck on the same number of games:

- **The same dice for every start** (common random numbers): game ``g`` of every start
  throws the dice of one seeded stream, so what separates two plays is not which rolls
  they happened to get.
- **Luck adjustment** (two-player games whose turns alternate, as gnubg does it): before
  each roll of a game, the network's value of the position one roll ahead, averaged
  over the 21 rolls, is what the roller could expect; the value after the roll that came
  minus that expectation is the roll's luck. A game's result less the luck of all its
  rolls has the same mean and a much smaller spread. The same is done for each result
  (won, won a gammon, ... : the network's probability of it one roll ahead), so the
  chances shown beside the equity are luck-adjusted as it is (issue 31: they were raw).
  The 21 rolls are searched in one batch, and the roll that came is then played by the
  same search.

Games run in ``jobs`` local processes, or as Ray tasks with ``ray``
(:mod:`gammon.agents.parallel`); the seed fixes every game whatever ``jobs`` is and
wherever it runs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from gammon.agents import parallel
from gammon.agents.base import seeded_rng
from gammon.agents.search import BoardSearch, best_action, make_search
from gammon.core.protocol import Rules
from gammon.nn.evaluator import NeuralEvaluator, equity, flip, outcome_targets

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% interval over ``n`` games."""

    mean: float
    low: float
    high: float
    n: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        n = len(values)
        mean = sum(values) / n if n else 0.0
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(n) if n else 0.0
        return cls(mean, mean - half, mean + half, n)


@dataclass(frozen=True)
class RolloutResult:
    """A start's rollout: its equity (points, for ``player``; luck-adjusted where it
    could be) and, in two-player games, the share of games won, won by a gammon or
    more, by a backgammon, lost by a gammon or more, by a backgammon."""

    label: str
    player: int
    equity: Estimate
    probs: tuple[Estimate, ...] = ()


def _game(rules: Rules, evaluator: NeuralEvaluator, search: Any, state: Any,
          dice: random.Random, adjust: bool) -> tuple[tuple[float, ...], np.ndarray]:
    """One game from ``state``: each player's result, and player 0's luck (its equity's
    and each of its result probabilities', :func:`roll_luck`)."""
    luck = np.zeros(6)
    while not state.is_terminal:
        if state.is_chance:
            roll = state.sample_chance(dice)
            if adjust and not state.opening:
                mine = roll_luck(search, evaluator, state, roll.dice)
                luck += mine if state.position.turn == 0 else _other_side(mine)
            state = state.apply(roll)
            continue
        legal = state.legal_actions()
        action = legal[0] if len(legal) == 1 else best_action(search, state, 0, 1)
        state = state.apply(action)
    return tuple(float(r) for r in state.returns()), luck


def roll_luck(search: BoardSearch, evaluator: NeuralEvaluator, state: Any,
              dice: Sequence[int]) -> np.ndarray:
    """What ``dice`` gave the player to roll at ``state``, by the network at 0 plies: the
    value after the best play of the roll thrown less the average over every roll, for
    the equity (index 0) and for each result probability (win, win gammon, win
    backgammon, lose gammon, lose backgammon), from the roller's side. Rollouts take it
    off each game's result; the review sums it per player."""
    player = state.position.turn
    board = np.frombuffer(state.position.kernel_row, np.int8)[None, :]
    replies = search.best_replies(board, player)[0]  # the best play of each roll
    out = flip(evaluator.outputs(replies, 1 - player))  # the roller's side
    ends = search.ends(replies, player)
    for i in np.flatnonzero(ends != -1):
        out[i] = outcome_targets(search.returns(replies[i], int(ends[i])), player,
                                 search.variant)
    rows = np.column_stack([equity(out), out])
    thrown = search.rolls.index((max(dice), min(dice)))
    return rows[thrown] - search.probs @ rows


def _other_side(luck: np.ndarray) -> np.ndarray:
    """A luck vector of :func:`roll_luck` seen by the other player."""
    return np.array([-luck[0], -luck[1], luck[4], luck[5], luck[2], luck[3]])


def _trials(run: tuple[str, dict[str, Any], Any, list[Any], int, bool],
            trials: range) -> list[tuple[int, int, tuple[float, ...], np.ndarray]]:
    """Games ``trials`` of every start of the rollout ``run`` (the variant's name and
    options, the network and its kinds' networks, the start states without their rules,
    the seed, whether to adjust for luck): one task of :func:`rollout`."""
    name, options, (network, kinds), bare, seed, adjust = run
    rules = parallel.rules_of(name, options)
    starts = [replace(state, variant=rules) for state in bare]
    evaluator = NeuralEvaluator(rules, network, kinds)
    search = make_search(rules, evaluator)
    out = []
    for trial in trials:
        for s, state in enumerate(starts):
            dice = seeded_rng(seed, "rollout", trial)  # the same dice for every start
            returns, luck = _game(rules, evaluator, search, state, dice, adjust)
            out.append((trial, s, returns, luck))
    return out


def rollout(rules: Rules, evaluator: NeuralEvaluator, starts: Sequence[tuple[str, Any]],
            player: int, games: int, seed: int = 0, jobs: int = 1,
            progress: Callable[[int, int], None] | None = None,
            ray: str | None = None) -> list[RolloutResult]:
    """Roll out every start (``(label, state)``) ``games`` times; results for
    ``player`` (see the module text). ``jobs`` local processes, or Ray at ``ray``."""

    adjust = isinstance(make_search(rules, evaluator), BoardSearch)
    states = [state for _, state in starts]
    # Every game has its own dice, so the cutting into tasks changes only the speed.
    side_by_side = parallel.workers(jobs, ray)
    chunk = max(1, min(25, games // max(side_by_side * 4, 1)))
    work = [range(k, min(k + chunk, games)) for k in range(0, games, chunk)]
    played = 0

    def done(_: int, part: list[tuple[int, int, tuple[float, ...], np.ndarray]]) -> None:
        nonlocal played
        played += len(part) // len(states)
        if progress:
            progress(played, games)

    with threadpool_limits(limits=1):
        # The states travel without their rules (a used rules object holds its compiled
        # kernel, which does not pickle); each worker puts its own back.
        bare = [replace(state, variant=None, _legal=None) for state in states]
        parts = parallel.run_tasks(_trials, work, jobs, ray,
                                   shared=(rules.name, rules.options(),
                                           (evaluator.network, evaluator.kinds),
                                           bare, seed, adjust), done=done)
    rows = sorted(row for part in parts for row in part)
    results = []
    for s, (label, _) in enumerate(starts):
        mine = [(returns, luck if player == 0 else _other_side(luck))
                for _, k, returns, luck in rows if k == s]
        points = [r[player] - float(luck[0]) for r, luck in mine]
        probs: tuple[Estimate, ...] = ()
        if rules.players == 2:
            # Each result's share less its own luck: the same mean, less spread.
            happened = [(r[player] > 0, r[player] >= 2, r[player] >= 3, r[player] <= -2,
                         r[player] <= -3) for r, _ in mine]
            probs = tuple(Estimate.of([float(h[j]) - float(luck[1 + j])
                                       for h, (_, luck) in zip(happened, mine, strict=True)])
                          for j in range(5))
        results.append(RolloutResult(label, player, Estimate.of(points), probs))
    return results
