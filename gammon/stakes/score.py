"""The score around a game: match length, each player's points, the Crawford game.

A :class:`MatchScore` is an immutable value that a game state carries, so that the
state knows whether the cube may be turned (not in the Crawford game) and can write its
GNU Match ID. ``length`` 0 is money play; the score then counts each player's points
won so far in the session, as gnubg counts them.
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.core.errors import InvalidOptionError


@dataclass(frozen=True)
class MatchScore:
    """The score before a game.

    ``length``: points to win the match (0 = money play). ``score``: each player's
    points. ``crawford``: this game is the Crawford game (no doubling).
    ``post_crawford``: the Crawford game has been played. ``crawford_rule``: whether
    the match has a Crawford game at all (**MATCH-CRAWFORD**).
    """

    length: int = 0
    score: tuple[int, ...] = (0, 0)
    crawford: bool = False
    post_crawford: bool = False
    crawford_rule: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.length, int) or isinstance(self.length, bool) or self.length < 0:
            raise InvalidOptionError(
                f"a match is played to 1 point or more (0 = money play), not {self.length!r}"
            )
        score = tuple(self.score)
        if not score or any(not isinstance(s, int) or s < 0 for s in score):
            raise InvalidOptionError(f"a score is whole numbers >= 0, not {self.score!r}")
        object.__setattr__(self, "score", score)
        if self.length:
            if len(score) != 2:
                raise InvalidOptionError("match play is for two players")
            if self.crawford and not self.crawford_rule:
                raise InvalidOptionError("no Crawford game when the Crawford rule is off")
            if self.crawford and (self.length - 1 not in score or max(score) >= self.length
                                  or min(score) == self.length - 1):
                raise InvalidOptionError(
                    f"the Crawford game is played when one player (only) is 1 point from "
                    f"winning the {self.length}-point match, not at {score[0]}-{score[1]}"
                )
        elif self.crawford or self.post_crawford:
            raise InvalidOptionError("money play has no Crawford game")

    @classmethod
    def match(cls, length: int, score: tuple[int, int] = (0, 0), *,
              crawford_rule: bool = True, crawford: bool | None = None) -> MatchScore:
        """The score of a match to ``length`` at ``score``. ``crawford`` None works out
        whether this is the Crawford game the way it usually is when a score is set by
        hand: a player 1 away, the other not, counts as the Crawford game."""
        one_away = [s == length - 1 for s in score]
        if crawford is None:
            crawford = (crawford_rule and length > 1 and sum(one_away) == 1
                        and max(score) < length)
        post = crawford_rule and length > 1 and any(one_away) and not crawford
        return cls(length, tuple(score), crawford, post, crawford_rule)

    @property
    def money(self) -> bool:
        return self.length == 0

    @property
    def is_over(self) -> bool:
        """The match is over: someone has reached the match length."""
        return bool(self.length) and max(self.score) >= self.length

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        return max(range(len(self.score)), key=self.score.__getitem__)

    def away(self, player: int) -> int:
        """Points ``player`` still needs (match play)."""
        return max(self.length - self.score[player], 0)

    def after(self, winner: int | None, points: int | float) -> MatchScore:
        """The score after a game that ``winner`` won with ``points`` (None: a draw).

        The Crawford game is the game after one player first reaches ``length - 1``
        while the other has not; after it, games are post-Crawford (**MATCH-CRAWFORD**,
        **MATCH-POST-CRAWFORD**). This is gnubg's rule too.
        """
        if winner is None or not points:
            return self
        score = list(self.score)
        score[winner] += int(points)
        score_t = tuple(score)
        if not self.length:
            return MatchScore(0, score_t)
        post = self.post_crawford or (self.crawford and score[winner] < self.length)
        crawford = (
            self.crawford_rule and not post and not self.crawford and self.length > 1
            and score[winner] == self.length - 1 and score[1 - winner] != self.length - 1
        )
        return MatchScore(self.length, score_t, crawford, post, self.crawford_rule)

    def text(self) -> str:
        """``3-5 in a 7-point match (Crawford game)``, or the money score."""
        score = "-".join(map(str, self.score))
        if not self.length:
            return f"{score} (money)"
        extra = " (Crawford game)" if self.crawford else (
            " (post-Crawford)" if self.post_crawford and not self.is_over else "")
        return f"{score} in a {self.length}-point match{extra}"

