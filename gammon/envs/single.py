"""Gymnasium environments: one seat learns, bots play the other seats.

``gymnasium.make("gammon/Backgammon-v0", opponents="expectimax:1")`` (after ``import
gammon.envs``, or as ``gymnasium.make("gammon.envs:gammon/Backgammon-v0")``) gives the
learner seat ``seat`` of a game against bots named as on the command line
(:func:`gammon.agents.make_agent`). Observations and actions are those of the PettingZoo
environment (:mod:`gammon.envs.observe`), or with ``action_encoding="step"`` a turn taken
one checker step at a time, each number the same step in every state
(:mod:`gammon.envs.steps`); the dice and the bots' choices come from generators seeded
by ``reset(seed=...)``, so a seed replays a game exactly. For afterstate learners,
:meth:`GammonGymEnv.afterstates` encodes the board each legal play of the learner's
decision leads to, as the PettingZoo environment's ``afterstates()`` does.

The reward is the learner's result when the game ends (zero before). Gymnasium has no
action masks in its spaces, so an action outside the mask (the observation's
``action_mask``, :meth:`GammonGymEnv.action_masks` for sb3-contrib's ``MaskablePPO``;
``info["legal_actions"]`` counts them) cannot simply be refused: it ends the episode with
``info["illegal_action"]`` saying why, and a reward on one scale whatever the stakes:
``illegal_reward`` points of a cube at 1, times the cube's value when the action was
tried, as every result of the game is (:func:`gammon.envs.games.illegal_penalty`). The
default ``illegal_reward`` is one point below the most a two-player track game can cost
at a cube of 1 (-4 for backgammon: -4 at a cube of 1, -8 at 2, in money play, in a match
of any length), so an illegal action costs more than the worst the learner could be
held to by legal play from there; -2 with ``whole_match`` (rewards in match equity, not
multiplied); -1 in Multi-Gam, whose places score 1 to 5; in Acedrex one below the most
money a player can lose. An action that is no whole number at all (a bool, a float, a string) is the
caller's slip, not the policy's choice: it raises
:class:`~gammon.core.errors.IllegalPlayError`.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from gammon.agents import make_agent
from gammon.agents.base import Agent
from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import Rules, State, play_on
from gammon.core.variant import variant_names
from gammon.envs.games import (
    PlaySoFar,
    action_number,
    board_text,
    check_render_mode,
    check_seed,
    check_stakes,
    check_whole,
    check_whole_match,
    episode_rules,
    illegal_penalty,
    illegal_scale,
    new_game,
    play_match_on,
)
from gammon.envs.observe import action_mask, afterstates, most_actions, observer_of
from gammon.envs.steps import encoding_for
from gammon.envs.vector import supported_variants
from gammon.stakes.match import ROTATIONS
from gammon.stakes.rules import StakeRules

#: What a step of the episode returns inside the environment: the observation, the
#: reward, whether it terminated or was truncated, and the info (``legal_actions``, and
#: ``illegal_action`` when one ended the episode).
Stepped = tuple[dict[str, np.ndarray], float, bool, bool, dict[str, int | str]]


class GammonGymEnv(gymnasium.Env):
    """One seat of any variant against bots (module text).

    ``opponents``: one bot name for every other seat, or a list with one per other seat
    in seat order. ``seat``: the learner's seat (0-based). ``stakes``/``match`` as in
    :class:`gammon.envs.GammonEnv`; ``options`` are the variant's. ``action_encoding``:
    ``"play"`` (action ``k`` is the ``k``-th legal whole decision, every variant) or
    ``"step"`` (each number is the same checker step in every state, a turn taken one
    checker at a time: :mod:`gammon.envs.steps`; the observation's board is then the
    board as the steps so far leave it, and 6 more units say how many dice of each value
    are left to play, / 4). ``whole_match``: the episode is a whole match of ``match``
    points, game after game at the new score, and the rewards are the learner's gains of
    match equity as each game ends (they add up to +1 for a match won, -1 for one lost).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, variant: Rules | str = "backgammon", *,
                 opponents: str | list[str] | tuple[str, ...] = "random", seat: int = 0,
                 stakes: StakeRules | dict[str, object] | None = None, match: int = 0,
                 illegal_reward: float | None = None, render_mode: str | None = None,
                 action_encoding: str = "play", whole_match: bool = False,
                 **options: object) -> None:
        #: The variants the episode plays (one, or a rotation's in turn: tavli), and
        #: what it plays (:func:`episode_rules`); the first game's rules.
        self.variants, self.played = episode_rules(variant, options, match, whole_match)
        self.rules = self.variants[0]
        #: The step encoding's numbers (``action_encoding="step"``), else None.
        self.steps = encoding_for(self.rules, action_encoding, self.played)
        self.action_encoding = action_encoding
        players = self.rules.players
        seat = check_whole("seat", seat, 0, players - 1, f" in {self.rules.name}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else opponents
        if not isinstance(names, list | tuple) or len(names) != players - 1 \
                or not all(isinstance(name, str) for name in names):
            raise InvalidOptionError(
                f"opponents is a bot's name (e.g. 'heuristic', 'expectimax:1') for every "
                f"other seat, or a list with one name per other seat ({players - 1} in "
                f"{self.rules.name}); not {opponents!r}")
        for name in names:
            for rules in self.variants:  # an unknown bot is refused here, with its reason
                make_agent(name, rules)
        check_render_mode(render_mode, tuple(self.metadata["render_modes"]))
        self.opponent_names = list(names)
        self.seat = seat
        self.stakes, self.match = check_stakes(self.rules, stakes, match), match
        new_game(self.rules, self.stakes, match)
        #: A match played as one episode, rewards in match equity (module text).
        self.whole_match = check_whole_match(whole_match, match)
        self._gained = 0.0
        self.render_mode = render_mode
        self.observer = observer_of(self.variants)
        self.max_actions = (most_actions(self.variants, self.stakes)
                            if self.steps is None
                            else self.steps.size)
        self.observation_size = self.observer.size + (0 if self.steps is None
                                                      else self.steps.sides)
        #: The illegal-action penalty's scale, in points of a cube at 1 (module text).
        self.illegal_reward = illegal_scale(self.rules, self.whole_match, illegal_reward)
        self.action_space = spaces.Discrete(self.max_actions)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(self.observer.low, self.observer.high,
                                      (self.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.max_actions,), np.int8),
        })
        # Any: None until reset, then read unchecked, and read as a track game's where the
        # steps or the board need its position.
        #: The engine's state of the game.
        self.game: Any = None
        #: Why the episode ended before the game did (an illegal action), else None.
        self._ended: str | None = None
        self._dice = random.Random()
        #: Each other seat's bot, for each variant the episode plays.
        self._bots: dict[tuple[int, str], Agent] = {}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray],
                                                              dict[str, Any]]:
        super().reset(seed=check_seed(seed))
        self._ended = None
        draws = self.np_random.integers(0, 2**62, size=self.rules.players)
        self._dice = random.Random(int(draws[0]))
        others = [p for p in range(self.rules.players) if p != self.seat]
        self._bots = {(p, rules.name): make_agent(name, rules, seed=int(draws[1 + k]))
                      for k, (p, name) in enumerate(zip(others, self.opponent_names,
                                                        strict=True))
                      for rules in self.variants}
        self._advance(new_game(self.rules, self.stakes, self.match))
        return self._observation(), self._info()

    def _advance(self, state: State) -> None:
        """Throw the dice and let the bots act until the learner decides or the game ends
        (with ``whole_match``, the match: what the games that ended on the way gained the
        learner in match equity is its next reward)."""
        # Any: called at a decision, whose current_player the State protocol leaves
        # int | None.
        def choose(s: Any) -> object:
            return self._bots[s.current_player, s.variant.name].choose(s)

        def mine(s: State) -> bool:
            return bool(s.current_player == self.seat)

        if self.whole_match:
            self.game, gained = play_match_on(self.stakes, state, self._dice, choose, mine,
                                              self.played)
            self._gained = gained[self.seat]
        else:
            self.game = play_on(state, self._dice, choose, until=mine)

    def step(self, action: object) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                            dict[str, Any]]:
        if self.game is None:
            raise InvalidOptionError("call reset() before step()")
        if self.game.is_terminal or self._ended is not None:
            why = self._ended or "the game is over"
            raise InvalidOptionError(f"{why}: the episode has ended, call reset() to play "
                                     "another")
        if self.steps is not None:
            return self._step_in_steps(action)
        legal = self.game.legal_actions()
        index = action_number(action, len(legal))  # not a number at all: the caller's slip
        if not 0 <= index < len(legal):
            return self._illegal(f"action {action!r} is not legal: {len(legal)} legal "
                                 f"action(s), numbered 0 to {len(legal) - 1}")
        return self._apply(legal[index])

    def _step_in_steps(self, action: object) -> Stepped:
        assert self.steps is not None
        index = action_number(action, self.max_actions)
        why = self.steps.refusal(self.game, index)
        if why is not None:
            return self._illegal(why)
        chosen = self.steps.take(self.game, index)
        if chosen is None:  # a step of a turn that goes on
            return self._observation(), 0.0, False, False, self._info()
        return self._apply(chosen)

    def _illegal(self, why: str) -> Stepped:
        self._ended = "an illegal action ended the episode"
        info = self._info() | {"illegal_action": why}
        penalty = illegal_penalty(self.illegal_reward, self.game, self.whole_match)
        return self._observation(), penalty, True, False, info

    def _apply(self, chosen: object) -> Stepped:
        self._advance(self.game.apply(chosen))
        if self.whole_match:
            reward = self._gained
        else:
            reward = float(self.game.returns()[self.seat]) if self.game.is_terminal else 0.0
        return self._observation(), reward, self.game.is_terminal, False, self._info()

    def _mask(self) -> np.ndarray:
        """The learner's mask (``int8``): its legal actions while the episode lasts, none
        once it has ended (the game over, or an illegal action)."""
        state = self.game
        mine = state.current_player == self.seat and self._ended is None
        if self.steps is None:
            return action_mask(len(state.legal_actions()) if mine else 0, self.max_actions)
        mask = np.zeros(self.max_actions, np.int8)
        if mine:
            mask[self.steps.legal(state)] = 1
        return mask

    def _observation(self) -> dict[str, np.ndarray]:
        if self.steps is None:
            observed = self.observer.observe(self.game, self.seat)
        else:  # the board as the steps so far leave it, and the dice still to play
            observed = self.steps.observe(self.observer, self.game, self.seat)
        return {"observation": observed, "action_mask": self._mask()}

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as sb3-contrib's ``MaskablePPO`` asks for them: booleans,
        one per action of the action space, True for actions ``0 .. n-1`` of the learner's
        decision (the observation's ``action_mask`` as ``bool``); all False once the
        episode has ended. Through Gymnasium's wrappers:
        ``env.get_wrapper_attr("action_masks")()``."""
        if self.game is None:
            raise InvalidOptionError("call reset() before action_masks()")
        masks: np.ndarray = self._mask().astype(bool)
        return masks

    def afterstates(self) -> np.ndarray:
        """At the learner's decision, the board units of the observation of each board its
        legal plays lead to, from its side: one row per entry of :meth:`legal_actions`
        (the actions of ``action_encoding="play"``), the inputs an afterstate learner
        scores to choose its action (TD-Gammon's way), as the PettingZoo environment's
        ``afterstates()`` gives them (:func:`gammon.envs.observe.afterstates`). Plays
        only: refused at a cube decision, for a game that is no track game, and once the
        episode has ended."""
        if self._ended is not None:
            raise InvalidOptionError(f"{self._ended}: no afterstates, call reset() to play "
                                     "another")
        return afterstates(self.observer, self.game)

    def _info(self) -> dict[str, int | str]:
        if self.game.is_terminal:
            return {"legal_actions": 0}
        legal = (len(self.game.legal_actions()) if self.steps is None
                 else len(self.steps.legal(self.game)))
        return {"legal_actions": legal}

    def legal_actions(self) -> list[Any]:
        """The engine's actions behind the numbers: action ``k`` is ``legal_actions()[k]``."""
        return [] if self.game.is_terminal else list(self.game.legal_actions())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        part: PlaySoFar = {}
        turn = None if self.steps is None or self.game.is_terminal else self.steps.turn(
            self.game)
        if turn is not None and turn.board != self.game.position.board:
            # A turn half played in steps: the board so far, the dice still to play.
            part = {"position": turn.position, "dice_left": list(turn.dice)}
        return board_text(self.game.variant, self.game, self.seat,
                          [f"player_{p}" for p in range(self.rules.players)], **part)


def env_id(variant: str) -> str:
    """The Gymnasium id of a variant: ``long-nardy`` is ``gammon/LongNardy-v0``."""
    return "gammon/" + "".join(part.capitalize() for part in variant.split("-")) + "-v0"


def register_envs() -> list[str]:
    """Register one Gymnasium id per variant and per rotation (``gammon/Tavli-v0``: a
    5-point match, ``match=N`` for another length) (idempotent); returns the ids.
    ``gymnasium.make`` of an id gives :class:`GammonGymEnv`; ``gymnasium.make_vec`` of the
    id of a variant the compiled vector environment plays
    (:func:`gammon.envs.vector.supported_variants`) gives that environment in self-play
    (:func:`gammon.envs.vector_gym.vector_entry_point`), and with
    ``vectorization_mode="sync"`` (the only mode of the other variants) Gymnasium's
    ``SyncVectorEnv`` of :class:`GammonGymEnv`, one seat against bots in each env."""
    ids = []
    compiled = set(supported_variants())
    for name in variant_names():
        ident = env_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(
                id=ident, entry_point="gammon.envs.single:GammonGymEnv",
                vector_entry_point=("gammon.envs.vector_gym:vector_entry_point"
                                    if name in compiled else None),
                kwargs={"variant": name})
        ids.append(ident)
    for name in ROTATIONS:  # a whole match of the rotation's games (5 points unless asked)
        ident = env_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(id=ident, entry_point="gammon.envs.single:GammonGymEnv",
                               kwargs={"variant": name, "match": 5, "whole_match": True})
        ids.append(ident)
    return ids
