"""How an environment's game starts: the rules from a name and options, and the first
state, with the stakes around it when asked (shared by every environment)."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from typing import TypedDict, TypeGuard, Unpack

import numpy as np
from rich.console import Console

import gammon
from gammon.agents.cube import match_equity as chance
from gammon.core.errors import IllegalPlayError, InvalidOptionError
from gammon.core.position import Position
from gammon.core.protocol import RandomSource, Rules, State, play_on
from gammon.core.variant import TrackVariant
from gammon.nn.evaluator import result_range
from gammon.render import board_for
from gammon.stakes.cube import CubeState, cube_game, cube_value, match_length, stakes_of
from gammon.stakes.match import Rotation, rotation
from gammon.stakes.prompt import cube_text, is_stakes_decision, question, score_text
from gammon.stakes.rules import StakeRules
from gammon.stakes.score import MatchScore

#: What the environments take as a whole number (:func:`is_whole`).
Whole = int | np.integer | np.ndarray


def make_rules(variant: Rules | str, options: dict[str, object]) -> Rules:
    """The rules object of ``variant`` (a name or a rules object) with ``options``."""
    if isinstance(variant, str):
        return gammon.variant(variant, **options)
    if not (hasattr(variant, "initial_state") and hasattr(variant, "players")):
        raise InvalidOptionError(f"the variant is a name such as 'backgammon' (see "
                                 f"gammon.variant_names()) or a rules object, not "
                                 f"{variant!r}")
    if options:
        raise InvalidOptionError("options go with a variant's name, not a rules object")
    return variant


def is_whole(value: object) -> TypeGuard[Whole]:
    """Whether ``value`` is a whole number as the environments take one: a Python or numpy
    integer, or a numpy array of one integer (what a policy's ``sample()`` or ``argmax``
    gives); never a bool, and never a float, which would be cut silently."""
    if isinstance(value, np.ndarray):
        return value.shape == () and np.issubdtype(value.dtype, np.integer)
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def check_whole(name: str, value: object, least: int, most: int | None = None,
                meaning: str = "") -> int:
    """``value`` as an int, or an error naming the option ``name`` and what it allows: a
    whole number from ``least`` (to ``most``), ``meaning`` said after it."""
    if not is_whole(value) or value < least or (most is not None and value > most):
        allowed = (f"{least} or more" if most is None else f"{least} to {most}") + meaning
        raise InvalidOptionError(f"{name} is a whole number, {allowed}, not {value!r}")
    return int(value)


def action_number(action: object, legal: int) -> int:
    """``action`` as an int, or :class:`IllegalPlayError` when it is no whole number at
    all (a bool, a float, a string): the range is each environment's to judge."""
    if not is_whole(action):
        raise IllegalPlayError(f"an action is a whole number, here 0 to {legal - 1}, not "
                               f"{action!r}")
    return int(action)


def check_seed(seed: object) -> int | None:
    """A seed is a whole number or None (a float would be cut or hashed silently)."""
    if seed is not None and not is_whole(seed):
        raise InvalidOptionError(f"seed is a whole number or None, not {seed!r}")
    return None if seed is None else int(seed)


def check_stakes(rules: Rules, stakes: object, match: object) -> StakeRules | None:
    """``stakes`` as a :class:`~gammon.stakes.rules.StakeRules` (or None), after checking
    it and ``match`` (a whole number of points, 0 for none)."""
    check_whole("match", match, 0, meaning=" (the points to win; 0: no match)")
    if stakes is None or isinstance(stakes, StakeRules):
        return stakes
    if not isinstance(stakes, dict):
        raise InvalidOptionError(f"stakes is a StakeRules, a dict of its options (e.g. "
                                 f"{{'jacoby': True}}, {{}} for the defaults) or None, not "
                                 f"{stakes!r}")
    try:
        return StakeRules(**stakes)
    except TypeError as error:
        raise InvalidOptionError(f"stakes: {error}") from None


def check_render_mode(render_mode: object, modes: tuple[str, ...]) -> str | None:
    """``render_mode`` when it is one of ``modes`` or None, else an error listing them."""
    if render_mode is not None and (not isinstance(render_mode, str)
                                    or render_mode not in modes):
        raise InvalidOptionError(f"render_mode {render_mode!r}: choose one of "
                                 f"{', '.join(modes)} or None")
    return render_mode


def check_reward(name: str, value: object) -> float:
    """A reward given as an option: a finite real number (not a bool)."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.integer
                                                              | np.floating) \
            or not math.isfinite(value):
        raise InvalidOptionError(f"{name} is a finite number, not {value!r}")
    return float(value)


def most_points(rules: Rules) -> int:
    """The most points one game of a two-player track game can win or lose before the
    cube: a single game, one more for a gammon (mars), one more for a backgammon (koks),
    as the variant scores them."""
    return int(rules.game_type.results)


def illegal_scale(rules: Rules, whole_match: bool, illegal_reward: object = None) -> float:
    """The illegal-action penalty's scale (``illegal_reward``; docs/envs.md, "Chance,
    rewards, seeds"): given, a finite number; by default one point below the most a game
    can cost at a cube of 1 in a two-player track game (a backgammon: -4), with
    ``whole_match`` -2 (below a match lost, -1 in match equity), else one below the
    results a network maps (:func:`gammon.nn.evaluator.result_range`: Multi-Gam -1)."""
    if illegal_reward is not None:
        return check_reward("illegal_reward", illegal_reward)
    if whole_match:
        return -2.0
    if rules.board == "track" and rules.players == 2:
        return -float(most_points(rules) + 1)
    return float(result_range(rules)[0]) - 1.0


def illegal_penalty(scale: float, state: State, whole_match: bool) -> float:
    """The reward of an illegal action at ``state``: the ``scale`` in points of a cube at
    1, times the cube's value there, as every result of the game is (not with
    ``whole_match``, whose rewards are match equity). So with the default scale an
    illegal action costs more than the worst the player could be held to by legal play
    from that decision (a backgammon at the cube's value, dropping any double), with the
    cube or without, in money play or a match, on the scale of the game's results."""
    return scale if whole_match else scale * cube_value(state)


def new_game(rules: Rules, stakes: object = None, match: int = 0) -> State:
    """A game's first state: the variant's own, or with the cube and a match score when
    ``stakes`` (a :class:`~gammon.stakes.rules.StakeRules` or a dict of its options) or
    ``match`` are given."""
    if stakes is None and not match:
        return rules.initial_state()
    if not rules.game_type.stakes:
        raise InvalidOptionError(f"{rules.name} is not played with stakes around it")
    stakes = check_stakes(rules, stakes, match)
    if stakes is None:
        stakes = StakeRules()
    score = MatchScore.match(int(match)) if match else None
    # A variant played with stakes is a TrackVariant (only TrackVariant.game_type says
    # ``stakes``): a fact about the values that the Rules protocol cannot express.
    return cube_game(rules, stakes, score)  # type: ignore[arg-type]


def check_whole_match(whole_match: object, match: int) -> bool:
    """``whole_match`` is a bool, and asks for a match (``match`` points) to play whole."""
    if not isinstance(whole_match, bool | np.bool_):
        raise InvalidOptionError(f"whole_match is True or False, not {whole_match!r}")
    if whole_match and not match:
        raise InvalidOptionError("whole_match plays a match as one episode: give its "
                                 "length too (match=N)")
    return bool(whole_match)


def match_equity(score: MatchScore, seat: int) -> float:
    """``seat``'s match equity at ``score``, from -1 (the match lost) to +1 (won): twice
    its chance to win the match (Kazaross-XG2's table) less one."""
    other = 1 - seat
    post = score.post_crawford and (score.away(seat) == 1) != (score.away(other) == 1)
    return 2.0 * chance(score.away(seat), score.away(other), post) - 1.0


def episode_rules(variant: Rules | str, options: dict[str, object], match: object,
                  whole_match: object) -> tuple[tuple[Rules, ...], Rotation]:
    """The rules of the games an episode plays, the first game's first, and what it
    plays (:func:`gammon.stakes.match.played`): the one variant's games
    (:func:`make_rules`), or a rotation of several (``"tavli"``: Portes, Plakoto and
    Fevga in turn within one match). A rotation of several is a match: its episode is
    the whole match (``match=N`` and ``whole_match=True``), each game by its own rules,
    so it takes no variant options."""
    found = rotation(variant) if isinstance(variant, str) else None
    if found is None:
        games = Rotation.of(make_rules(variant, options))
        return games.rules(), games
    found.check("match", options)
    if not match or whole_match is not True:
        raise InvalidOptionError(
            f"{found.name} is a match of {', '.join(found.variants)} in turn, and an "
            f"episode is the whole match: give match=N (the points to win) and "
            f"whole_match=True")
    return found.rules(), found


def play_match_on(stakes: StakeRules | None, state: State, dice: RandomSource,
                  choose: Callable[[CubeState], object] | None = None,
                  until: Callable[[CubeState], bool] | None = None,
                  games: Rotation | None = None) -> tuple[CubeState, list[float]]:
    """:func:`~gammon.core.protocol.play_on` across the games of a match played as one
    episode (``whole_match``): a game that ends starts the next at the new score (of the
    same variant, or of the next of ``games`` played in turn, as
    :class:`~gammon.stakes.match.Match`
    plays it), until a decision or the end of the match. The state reached, and each
    seat's gain of match equity over the games that ended on the way (the rewards: they
    add up to +1 for the match's winner and -1 for its loser over the episode)."""
    gained = [0.0, 0.0]
    # A match played as one episode is a game with the stakes (new_game with match=N).
    assert isinstance(state, CubeState)
    games = games or Rotation.of(state.variant)
    while True:
        state = play_on(state, dice, choose, until=until)
        if not state.is_terminal:
            return state, gained
        before, after = state.score, state.result_score
        for seat in (0, 1):
            gained[seat] += match_equity(after, seat) - match_equity(before, seat)
        if after.is_over:
            return state, gained
        rules = games.after(state.variant)
        assert isinstance(rules, TrackVariant)  # a match's games are played on a track
        start = games.start_after(rules, state.winner)
        state = cube_game(rules, stakes if stakes is not None else StakeRules(), after,
                          start=start)


class PlaySoFar(TypedDict, total=False):
    """A turn half played in steps: drawn over the state's own board and dice, as the
    terminal draws a play typed in parts."""

    position: Position
    dice_left: list[int]


def board_text(rules: Rules, state: State, viewer: int | None, names: list[str],
               **part: Unpack[PlaySoFar]) -> str:
    """The board of ``state`` as plain text, as the terminal draws it: with stakes, the
    board shows the cube, the match score and who must decide what (as in ``gammon
    play``), and the lines under it say the cube, the score and, at a cube or resignation
    decision, who is asked what. ``part``: ``position`` and ``dice_left`` of a play made
    so far in steps, drawn as the terminal draws a play typed in parts."""
    console = Console(file=io.StringIO(), width=100, record=True)
    console.print(board_for(rules).draw(state, viewer=viewer, names=names, **part))
    if (stakes := stakes_of(state)) is not None:
        console.print(cube_text(stakes, names) + (f"; {score_text(stakes, names)}"
                                                 if match_length(stakes) else ""))
        decider = stakes.current_player
        if is_stakes_decision(stakes) and decider is not None:
            console.print(f"{names[decider]} to decide: "
                          f"{question(stakes, names)}")
    text: str = console.export_text()
    return text
