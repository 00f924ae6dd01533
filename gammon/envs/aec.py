"""PettingZoo's AEC environment for every variant: one agent per seat, turn by turn.

``gammon.envs.env("long-nardy", seed=...)`` (or :class:`GammonEnv`) is a thin adapter over
the game protocol: the state is the engine's, chance (the dice, Acedrex's D20) is drawn
inside the environment from a generator seeded by ``reset(seed=...)``, and the rewards
are the state's ``returns()`` once the game is over (points won or lost in the track
games, with the cube's value when ``stakes`` or a ``match`` are given; Multi-Gam's place scores;
Acedrex's money). Actions and observations are described in :mod:`gammon.envs.observe`:
action ``k`` is the ``k``-th legal whole decision, the mask a prefix.

:func:`env` wraps the environment as PettingZoo's classic games do theirs (chess, go,
connect four), so that PettingZoo's tests and an unmasked random policy run on it:
``OrderEnforcingWrapper`` (no step before ``reset``), ``AssertOutOfBoundsWrapper`` (here
an action that is no whole number, or outside the action space, raises
:class:`~gammon.core.errors.IllegalPlayError` saying what is allowed) and
``TerminateIllegalWrapper``: an action outside the mask ends the game for every agent,
the agent who tried it rewarded with the illegal-action penalty
(:func:`gammon.envs.games.illegal_penalty`: ``illegal_reward`` points, by default one
more than a backgammon, times the cube's value; -2 with ``whole_match``) and the others
with 0. :class:`GammonEnv` (``raw_env``) is the environment unwrapped: there an action
outside the mask raises :class:`~gammon.core.errors.IllegalPlayError` and changes
nothing.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from gammon.core.errors import IllegalPlayError, InvalidOptionError
from gammon.core.protocol import Rules, play_on
from gammon.envs.games import (
    action_number,
    board_text,
    check_render_mode,
    check_seed,
    check_stakes,
    check_whole_match,
    episode_rules,
    illegal_penalty,
    illegal_scale,
    new_game,
    play_match_on,
)
from gammon.envs.observe import action_mask, afterstates, most_actions, observer_of
from gammon.envs.steps import encoding_for
from gammon.stakes.rules import StakeRules


class GammonEnv(AECEnv):
    """Any variant as a PettingZoo AEC environment (module text).

    ``variant``: a variant's name (with ``options`` as keywords) or a rules object.
    ``stakes``/``match``: play with the doubling cube (and resignations) around the game,
    money or a match of ``match`` points; ``whole_match``: the episode is the whole match,
    each game's end rewarding each seat with its gain of match equity (+1 in all for the
    match's winner, -1 for its loser). ``action_encoding``: ``"play"`` (action ``k`` is
    the ``k``-th legal whole decision) or ``"step"`` (a turn one checker step at a time,
    each number the same step in every state; the two-player track games:
    :mod:`gammon.envs.steps`). ``render_mode``: ``"ansi"`` returns the board
    as text, ``"human"`` prints it.
    """

    RENDER_MODES = ("human", "ansi")
    metadata = {"name": "gammon_v0", "render_modes": list(RENDER_MODES),
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, variant: Rules | str = "backgammon", *,
                 stakes: StakeRules | dict[str, object] | None = None, match: int = 0,
                 whole_match: bool = False, render_mode: str | None = None,
                 action_encoding: str = "play", **options: object) -> None:
        super().__init__()
        check_render_mode(render_mode, self.RENDER_MODES)
        #: The variants the episode plays (one, or a rotation's in turn: tavli), and
        #: what it plays (:func:`episode_rules`); the first game's rules.
        self.variants, self.played = episode_rules(variant, options, match, whole_match)
        self.rules = self.variants[0]
        self.stakes, self.match = check_stakes(self.rules, stakes, match), match
        self.whole_match = check_whole_match(whole_match, match)
        self.render_mode = render_mode
        self.observer = observer_of(self.variants)
        new_game(self.rules, stakes, match)  # refuse bad stakes now, not at reset
        #: The step encoding's numbers (``action_encoding="step"``), else None.
        self.steps = encoding_for(self.rules, action_encoding, self.played)
        self.action_encoding = action_encoding
        players = self.rules.players
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.max_actions = (most_actions(self.variants, self.stakes)
                            if self.steps is None
                            else self.steps.size)
        size = self.observer.size + (0 if self.steps is None else self.steps.sides)
        self.action_spaces = {a: spaces.Discrete(self.max_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(self.observer.low, self.observer.high,
                                          (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.max_actions,), np.int8),
            })
            for a in self.possible_agents
        }
        self._rng = random.Random()
        # Any: None until reset, then read unchecked, and read as a track game's where the
        # steps need its position.
        #: The engine's state of the game (PettingZoo's ``state()`` is the global view).
        self.game: Any = None
        self.state_space = spaces.Box(self.observer.low, self.observer.high, (size,),
                                      np.float32)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- the game ------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = check_seed(seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._enter(new_game(self.rules, self.stakes, self.match))

    def _enter(self, state: Any) -> None:
        """Throw the dice until someone must decide or the game is over (with
        ``whole_match``, the match: the games that end on the way reward each seat with
        its gain of match equity)."""
        gained: list[float]
        if self.whole_match:
            state, gained = play_match_on(self.stakes, state, self._rng,
                                          games=self.played)
            self.game = state
        else:
            self.game = state = play_on(state, self._rng)
            gained = list(state.returns()) if state.is_terminal else []
        if gained:
            for agent, result in zip(self.agents, gained, strict=True):
                self.rewards[agent] = float(result)
        if state.is_terminal:
            for agent in self.agents:
                self.terminations[agent] = True
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        if self.render_mode == "human":
            self.render()

    def step(self, action: object) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if self.steps is not None:
            chosen = self.steps.take(self.game, self._step_index(action))
        else:
            legal = self.game.legal_actions()
            chosen = legal[self._index(action, len(legal))]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if chosen is not None:  # else a step of a turn that goes on, the same agent's
            self._enter(self.game.apply(chosen))
        self._accumulate_rewards()

    def _step_index(self, action: object) -> int:
        assert self.steps is not None
        index = action_number(action, self.max_actions)
        why = self.steps.refusal(self.game, index)
        if why is not None:
            raise IllegalPlayError(why)
        return index

    def action_range(self) -> int:
        """How many numbers the agent to act may choose among, as an error about an
        action that is no number says it: the legal ones (``0 .. n-1``), or with the step
        encoding the whole action space."""
        if self.steps is not None or self.game is None or self.game.is_terminal:
            return self.max_actions
        return len(self.game.legal_actions())

    @staticmethod
    def _index(action: object, legal: int) -> int:
        index = action_number(action, legal)
        if not 0 <= index < legal:
            raise IllegalPlayError(
                f"action {action!r} is not legal here: {legal} legal action"
                f"{'s' if legal != 1 else ''}, numbered 0 to {legal - 1}")
        return index

    # --- what agents see -----------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self.possible_agents.index(agent)
        state = self.game
        mine = state.current_player == player
        if self.steps is not None:  # the board as the steps so far leave it
            mask = np.zeros(self.max_actions, np.int8)
            if mine:
                mask[self.steps.legal(state)] = 1
            return {"observation": self.steps.observe(self.observer, state, player),
                    "action_mask": mask}
        mask = action_mask(len(state.legal_actions()) if mine else 0, self.max_actions)
        return {"observation": self.observer.observe(state, player), "action_mask": mask}

    def state(self) -> np.ndarray:
        """The global state PettingZoo's ``state()`` gives: the board as the first seat
        observes it (``state_space``)."""
        if self.game is None:
            raise InvalidOptionError("call reset() before state()")
        if self.steps is not None:
            return self.steps.observe(self.observer, self.game, 0)
        observed: np.ndarray = self.observer.observe(self.game, 0)
        return observed

    def legal_actions(self) -> list[Any]:
        """The engine's actions behind the numbers, for the agent to act: action ``k`` is
        ``legal_actions()[k]``."""
        return [] if self.game.is_terminal else list(self.game.legal_actions())

    def afterstates(self) -> np.ndarray:
        """For the agent to act, the observation (board units only) of the board each
        legal play leads to, from that agent's side: one row per action, the inputs
        afterstate learners score. Plays only (not cube or other decisions):
        :func:`gammon.envs.observe.afterstates`, as the Gymnasium environment's."""
        return afterstates(self.observer, self.game)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = board_text(self.game.variant, self.game, None, self.possible_agents)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class TerminateIllegal(wrappers.TerminateIllegalWrapper):
    """PettingZoo's ``TerminateIllegalWrapper`` with gammon's penalty: ``scale`` points
    times the cube's value at the decision (:func:`gammon.envs.games.illegal_penalty`),
    worked out before each step."""

    def __init__(self, env: GammonEnv, scale: float) -> None:
        super().__init__(env, illegal_reward=scale)
        self.scale = scale

    def step(self, action: object) -> None:
        raw = self.env.unwrapped
        assert isinstance(raw, GammonEnv)
        if raw.game is not None and not raw.game.is_terminal:
            self._illegal_value = illegal_penalty(self.scale, raw.game, raw.whole_match)
        super().step(action)


class InActionSpace(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's ``AssertOutOfBoundsWrapper``, with gammon's words: an action that is
    no whole number (``True``, ``1.5``, ``None`` for an agent still playing) or lies
    outside the action space raises :class:`~gammon.core.errors.IllegalPlayError` saying
    what is allowed."""

    def step(self, action: object) -> None:
        agent = self.agent_selection
        if not (action is None and (self.terminations[agent] or self.truncations[agent])):
            raw = self.env.unwrapped
            assert isinstance(raw, GammonEnv)
            size = raw.max_actions
            index = action_number(action, raw.action_range())
            if not 0 <= index < size:
                raise IllegalPlayError(f"action {action!r} is outside the action space: "
                                       f"0 to {size - 1}")
        super().step(action)


def env(variant: Rules | str = "backgammon", *, illegal_reward: float | None = None,
        **kwargs: Any) -> GammonEnv:
    """PettingZoo's usual entry point: :class:`GammonEnv` wrapped as PettingZoo's classic
    games are (module text): an illegal action ends the game, costing the agent that
    tried it ``illegal_reward`` points times the cube (default: one more than a
    backgammon, -4; -2 with ``whole_match``)."""
    raw = GammonEnv(variant, **kwargs)
    scale = illegal_scale(raw.rules, raw.whole_match, illegal_reward)
    wrapped: GammonEnv = wrappers.OrderEnforcingWrapper(InActionSpace(
        TerminateIllegal(raw, scale)))
    return wrapped


raw_env = GammonEnv
