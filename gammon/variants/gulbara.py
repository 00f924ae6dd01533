"""Gul bara (Rosespring, "crazy narde"): a running game whose doubles cascade.

The board is Long Nardy's (:class:`SameWayRound`): fifteen checkers each on their own
24-point, both sides the same way round from opposite corners, nothing hit, a single
checker holding a point. No head, first-checker or blocking rule binds the moves. What
is Gul bara's own is the turn: from a player's ``cascade_from``-th turn on, a double
*d* played in full is followed, in the same turn, by the doubles *d* + 1 ... 6-6, each
a play of its own (the move generator plays at most four dice), until one of them
cannot be played in full; the doubles above it are lost, or with ``unplayed="opponent"``
handed to the opponent. The starter of a game throws afresh; a win is 1, or 2 when
the loser has borne off nothing; no cube.

The turn is kept in ``GameState.memo`` (:class:`GulMemo`): how many turns each player
has begun, and whether the dice to play are a cascade's. The compiled playouts are
:mod:`gammon.kernels.gulbara`. docs/rules/gul-bara.md states the rules, the sources and
the readings chosen where they disagree.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from gammon.core.dice import Roll
from gammon.core.errors import InvalidOptionError
from gammon.core.play import Play
from gammon.core.position import Position
from gammon.core.protocol import GameType, Phase
from gammon.core.variant import GameState, register
from gammon.kernels import gulbara as gulbara_kernel
from gammon.kernels import tracks
from gammon.rules import Dice, Ending
from gammon.variants.nardy import SameWayRound

#: The values of ``unplayed``.
UNPLAYED = ("lost", "opponent")
#: What ``cascade_from`` counts: each player's own turns, or the game's throws.
CASCADE_COUNTS = ("player", "game")


@dataclass(frozen=True, slots=True)
class GulMemo:
    """What a Gul bara game remembers between decisions: ``turns[p]``, the turns player
    ``p`` has begun (the throw of the current one included); ``cascade``, whether the
    dice to play are a double of the cascade rather than a throw; ``given``, whether
    they are doubles the opponent could not play, handed over (``unplayed="opponent"``).
    """

    turns: tuple[int, ...] = (0, 0)
    cascade: bool = False
    given: bool = False


@register
@dataclass(frozen=True)
class GulBara(SameWayRound):
    """Gul bara. Options (docs/rules/gul-bara.md):

    - ``cascade_from`` (default 4): the first of a player's own turns whose doubles
      cascade (1: every turn; each player's first three turns play doubles as usual by
      default).
    - ``cascade_counts`` (default ``"player"``): what ``cascade_from`` counts:
      ``"player"``, each player's own turns; ``"game"``, the game's throws of both
      players together (the literal "first three rolls of the game").
    - ``unplayed`` (default ``"lost"``): what becomes of the cascade's doubles above one
      not played in full: ``"lost"``, the turn ends; ``"opponent"``, the opponent plays
      them (as a cascade of their own) before throwing for their turn.
    - ``double_game`` (default True): a loser who has borne off nothing loses 2.
    """

    turns = "own"

    name = "gul-bara"
    summary = (
        "Gul bara (Rosespring): 15 checkers each in opposite corners, both sides the same "
        "way round, no hitting; from a player's fourth turn a double d is followed by "
        "the doubles d+1 up to 6-6 while each is played in full; no cube; 1 or 2 points."
    )
    aliases = ("gulbara", "rosespring", "crazy-narde")
    dice = Dice(opening_plays_lot=False)
    ending = Ending(backgammons=False,
                    result_names=("single game", "double game", "triple game"))
    cube = False
    #: What a web table sets (GB-CASCADE-FROM).
    table_options: ClassVar[Mapping[str, tuple[int, int]]] = {"cascade_from": (1, 20)}

    #: The player's turn from which doubles cascade (GB-CASCADE-FROM).
    cascade_from: int = 4
    #: Whose throws cascade_from counts: "player" or "game" (GB-CASCADE-COUNTS-GAME).
    cascade_counts: str = "player"
    #: The doubles above one not played in full: "lost" or to the "opponent"
    #: (GB-CASCADE-STOPS, GB-UNPLAYED-TO-OPPONENT).
    unplayed: str = "lost"
    #: A loser with nothing borne off loses 2 (GB-DOUBLE-GAME).
    double_game: bool = True

    def __post_init__(self) -> None:
        if self.cascade_from < 1:
            raise InvalidOptionError(
                f"cascade_from is the first of a player's turns (counted from 1) whose "
                f"doubles cascade: 1 or more, not {self.cascade_from}"
            )
        if self.cascade_counts not in CASCADE_COUNTS:
            raise InvalidOptionError(
                f"cascade_counts {self.cascade_counts!r}: choose one of "
                f"{', '.join(CASCADE_COUNTS)} (whose throws cascade_from counts: each "
                "player's own turns, or the game's)"
            )
        if self.unplayed not in UNPLAYED:
            raise InvalidOptionError(
                f"unplayed {self.unplayed!r}: choose one of {', '.join(UNPLAYED)} (what "
                "becomes of the cascade's doubles above one not played in full)"
            )
        self._set_blocks(ending={"gammons": self.double_game})

    @functools.cached_property
    def game_type(self) -> GameType:
        return dataclasses.replace(super().game_type, cascades=True)

    # --- states ----------------------------------------------------------------------

    def initial_state(self) -> GameState:
        return GameState(self, self.start_position(), memo=GulMemo())

    def memo_of(self, state: GameState) -> GulMemo:
        """The state's memo. A state set up by hand (memo None) is taken to be past
        every player's first turns: its doubles cascade (GB-POSITIONS)."""
        if isinstance(state.memo, GulMemo):
            return state.memo
        return GulMemo((self.cascade_from,) * self.players, False)

    # --- chance ----------------------------------------------------------------------

    def apply_roll(self, state: GameState, roll: Roll) -> GameState:
        """A throw begins the mover's next turn (counted in the memo)."""
        after = super().apply_roll(state, roll)
        if state.opening:
            return after
        memo = self.memo_of(state)
        player = state.position.turn
        turns = tuple(n + (p == player) for p, n in enumerate(memo.turns))
        return GameState(self, after.position, after.phase, after.dice, False, after.moves,
                         GulMemo(turns, False))

    # --- decisions -------------------------------------------------------------------

    def cascading(self, state: GameState) -> bool:
        """Whether the dice to play are a double that a cascade may follow: below
        6-6, in a turn from ``cascade_from`` on (the player's own turns, or the game's
        throws), or handed over (GB-CASCADE, GB-CASCADE-FROM, GB-CASCADE-COUNTS-GAME,
        GB-UNPLAYED-TO-OPPONENT)."""
        high, low = state.dice
        memo = self.memo_of(state)
        turns = (sum(memo.turns) if self.cascade_counts == "game"
                 else memo.turns[state.position.turn])
        return high == low and high < self.sides and (
            memo.given or turns >= self.cascade_from)

    def after_play(self, state: GameState, play: Play) -> GameState:
        """End the game; play the cascade's next double if ``play`` played all four
        moves of a cascading double; else hand the doubles above it to the opponent
        (``unplayed="opponent"``), or pass the dice (GB-CASCADE-STOPS)."""
        mover = state.position.turn
        other = (mover + 1) % self.players
        board = play.result.board
        memo = self.memo_of(state)
        moves = state.moves + 1
        if board[mover * self.slots] == self.checkers:
            position = Position.unchecked(board, self.players, mover)
            return GameState(self, position, Phase.TERMINAL, (), False, moves, memo)
        if self.cascading(state):
            nxt = state.dice[0] + 1
            if len(play.moves) == tracks.MAX_DICE:
                position = Position.unchecked(board, self.players, mover)
                return GameState(self, position, Phase.DECIDE, (nxt, nxt), False, moves,
                                 GulMemo(memo.turns, True, memo.given))
            if self.unplayed == "opponent" and not memo.given:
                position = Position.unchecked(board, self.players, other)
                return GameState(self, position, Phase.DECIDE, (nxt, nxt), False, moves,
                                 GulMemo(memo.turns, True, True))
        # Whoever received handed-over doubles throws next for their own turn.
        thrower = mover if memo.given else other
        position = Position.unchecked(board, self.players, thrower)
        return GameState(self, position, Phase.CHANCE, (), False, moves,
                         GulMemo(memo.turns, False, False))

    # --- the faces ask these ---------------------------------------------------------

    def announce(self, before: GameState, taken: Any,
                 after: GameState) -> list[tuple[int | None, str]]:
        """A note about the cascade to the player who played at ``before``."""
        if before.is_chance or before.opening or after.is_terminal or not before.dice:
            return []
        if not self.cascading(before):
            return []
        mover = before.position.turn
        high, low = before.dice
        if after.phase is Phase.DECIDE and after.position.turn == mover:
            return [(mover, f"played {high}-{low} in full: the cascade goes on with "
                            f"{high + 1}-{high + 1}.")]
        if after.phase is Phase.DECIDE:
            return [(mover, f"could not play all four moves of {high}-{low}: the doubles "
                            f"from {high + 1}-{high + 1} go to the opponent.")]
        return [(mover, f"could not play all four moves of {high}-{low}: the cascade "
                        "ends.")]

    # --- playouts --------------------------------------------------------------------

    def random_playouts(
        self, games: int, seed: int | None, max_turns: int = 10000
    ) -> np.ndarray:
        """Whole random games in :mod:`gammon.kernels.gulbara`: rows of (winner, points,
        plays made); winner -1 when ``max_turns`` plays ran out."""
        rows, _ = self.traced_playouts(games, seed, max_turns)
        return rows

    def traced_playouts(
        self, games: int, seed: int | None, max_turns: int = 10000, trace_rows: int = 0,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Random games and their lots and plays: ``(rows, trace)``, the trace's rows as
        :mod:`gammon.kernels.gulbara`'s ``T_*`` columns say."""
        plays, words = self.kernel.workspace()
        if seed is not None:
            tracks.seed_kernels(seed)
        start = np.frombuffer(self.start_position().board, np.int8).copy()
        trace = np.zeros((trace_rows, gulbara_kernel.T_BOARD + len(start)), np.int64)
        rows, written = gulbara_kernel.random_playouts(
            games, start, self.kernel.rules, self.cascade_from,
            self.cascade_counts == "game", self.unplayed == "opponent",
            max_turns, plays, words, trace)
        return rows, trace[:written]
