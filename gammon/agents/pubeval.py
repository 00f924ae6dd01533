"""pubeval: Gerald Tesauro's public evaluation function, the classic yardstick.

Tesauro published pubeval (IBM Research, 1993; placed in the public domain) so that
backgammon programs could be compared against one common, decent opponent. It is a
linear function of the board after a move, ``score = w . x``, with one weight table for
contact positions and one for races; the player picks the play with the highest score.
It scores plays, it does not estimate winning chances.

The input vector ``x`` (122 numbers), from the side of the player who just moved, whose
points are numbered 1-24 toward bearing off (our own numbering): for each point, taken
from 24 down to 1, five inputs

- the opponent has exactly one checker there (a blot to hit);
- we have exactly one checker there;
- we have at least two (a made point);
- we have exactly three;
- we have ``(n - 3) / 2`` for ``n >= 4`` checkers (the excess);

then ``x[120]`` = the opponent's checkers on the bar / 2 and ``x[121]`` = our checkers
borne off / 15. Our checkers on the bar and the opponent's borne-off checkers are not
inputs. The race table is used when the position before the move had no contact (every
checker of ours past every checker of the opponent's); a play that bears off the last
checker scores 99999999.

The weights below are Tesauro's published figures as distributed in pubeval.c; they
were checked to agree digit for digit between two independent public copies of that
file (GNU Backgammon's ``pub_eval.c`` and OpenBSD's ``games/backgammon`` ``pubeval.c``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gammon.agents.base import play_rows
from gammon.agents.offered import offered
from gammon.agents.stakes import resolve
from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import Rules
from gammon.evaluators import evaluator_for

# fmt: off
#: Race weights (WT.race).
RACE = np.array([
    0.00000, -0.17160, 0.27010, 0.29906, -0.08471, 0.00000, -1.40375, -1.05121,
    0.07217, -0.01351, 0.00000, -1.29506, -2.16183, 0.13246, -1.03508, 0.00000,
    -2.29847, -2.34631, 0.17253, 0.08302, 0.00000, -1.27266, -2.87401, -0.07456,
    -0.34240, 0.00000, -1.34640, -2.46556, -0.13022, -0.01591, 0.00000, 0.27448,
    0.60015, 0.48302, 0.25236, 0.00000, 0.39521, 0.68178, 0.05281, 0.09266,
    0.00000, 0.24855, -0.06844, -0.37646, 0.05685, 0.00000, 0.17405, 0.00430,
    0.74427, 0.00576, 0.00000, 0.12392, 0.31202, -0.91035, -0.16270, 0.00000,
    0.01418, -0.10839, -0.02781, -0.88035, 0.00000, 1.07274, 2.00366, 1.16242,
    0.22520, 0.00000, 0.85631, 1.06349, 1.49549, 0.18966, 0.00000, 0.37183,
    -0.50352, -0.14818, 0.12039, 0.00000, 0.13681, 0.13978, 1.11245, -0.12707,
    0.00000, -0.22082, 0.20178, -0.06285, -0.52728, 0.00000, -0.13597, -0.19412,
    -0.09308, -1.26062, 0.00000, 3.05454, 5.16874, 1.50680, 5.35000, 0.00000,
    2.19605, 3.85390, 0.88296, 2.30052, 0.00000, 0.92321, 1.08744, -0.11696,
    -0.78560, 0.00000, -0.09795, -0.83050, -1.09167, -4.94251, 0.00000, -1.00316,
    -3.66465, -2.56906, -9.67677, 0.00000, -2.77982, -7.26713, -3.40177, -12.32252,
    0.00000, 3.42040,
])
#: Contact weights (WT.cntc).
CONTACT = np.array([
    0.25696, -0.66937, -1.66135, -2.02487, -2.53398, -0.16092, -1.11725, -1.06654,
    -0.92830, -1.99558, -1.10388, -0.80802, 0.09856, -0.62086, -1.27999, -0.59220,
    -0.73667, 0.89032, -0.38933, -1.59847, -1.50197, -0.60966, 1.56166, -0.47389,
    -1.80390, -0.83425, -0.97741, -1.41371, 0.24500, 0.10970, -1.36476, -1.05572,
    1.15420, 0.11069, -0.38319, -0.74816, -0.59244, 0.81116, -0.39511, 0.11424,
    -0.73169, -0.56074, 1.09792, 0.15977, 0.13786, -1.18435, -0.43363, 1.06169,
    -0.21329, 0.04798, -0.94373, -0.22982, 1.22737, -0.13099, -0.06295, -0.75882,
    -0.13658, 1.78389, 0.30416, 0.36797, -0.69851, 0.13003, 1.23070, 0.40868,
    -0.21081, -0.64073, 0.31061, 1.59554, 0.65718, 0.25429, -0.80789, 0.08240,
    1.78964, 0.54304, 0.41174, -1.06161, 0.07851, 2.01451, 0.49786, 0.91936,
    -0.90750, 0.05941, 1.83120, 0.58722, 1.28777, -0.83711, -0.33248, 2.64983,
    0.52698, 0.82132, -0.58897, -1.18223, 3.35809, 0.62017, 0.57353, -0.07276,
    -0.36214, 4.37655, 0.45481, 0.21746, 0.10504, -0.61977, 3.54001, 0.04612,
    -0.18108, 0.63211, -0.87046, 2.47673, -0.48016, -1.27157, 0.86505, -1.11342,
    1.24612, -0.82385, -2.77082, 1.23606, -1.59529, 0.10438, -1.30206, -4.11520,
    5.62596, -2.75800,
])
# fmt: on

#: The score of a play that bears off the last checker (pubeval.c's value).
WINS = 99999999.0
#: Variants on backgammon's board that pubeval can play: 24 points, 15 checkers each,
#: the two sides moving in opposite directions, hitting.
def supports(variant: Rules) -> bool:
    """pubeval reads backgammon's board: the variants that list it among their bots."""
    return "pubeval" in offered(variant).bots


def encode(boards: np.ndarray, player: int) -> np.ndarray:
    """pubeval's 122 inputs for each board (rows of board bytes), from ``player``'s
    side (the player who just moved)."""
    boards = np.asarray(boards)
    own = boards[:, player * 26 : player * 26 + 26].astype(np.int64)
    opp = boards[:, (1 - player) * 26 : (1 - player) * 26 + 26].astype(np.int64)
    x = np.zeros((boards.shape[0], 122))
    for k in range(24):
        point = 24 - k  # x's block k is point 24 - k
        mine = own[:, point]
        theirs = opp[:, 25 - point]  # the opponent's checkers on our point
        x[:, 5 * k] = (theirs == 1) & (mine == 0)
        x[:, 5 * k + 1] = mine == 1
        x[:, 5 * k + 2] = mine >= 2
        x[:, 5 * k + 3] = mine == 3
        x[:, 5 * k + 4] = np.where(mine >= 4, (mine - 3) / 2.0, 0.0)
    x[:, 120] = opp[:, 25] / 2.0
    x[:, 121] = own[:, 0] / 15.0
    return x


def is_race(board: bytes, player: int) -> bool:
    """No contact: every checker of ``player`` is past every opposing checker."""
    own = board[player * 26 : player * 26 + 26]
    opp = board[(1 - player) * 26 : (1 - player) * 26 + 26]
    back = max((s for s in range(1, 26) if own[s]), default=0)
    their_back = max((s for s in range(1, 26) if opp[s]), default=0)
    return back + their_back <= 24


def pubeval(boards: np.ndarray, player: int, race: bool) -> np.ndarray:
    """pubeval's score of each board just played by ``player``."""
    boards = np.asarray(boards)
    scores = encode(boards, player) @ (RACE if race else CONTACT)
    won = boards[:, player * 26] == 15
    return np.where(won, WINS, scores)


class PubevalAgent:
    """Plays the legal play pubeval scores highest (the first of equals). pubeval has no
    notion of the cube: under stakes, cube decisions use the heuristic's chances."""

    def __init__(self, variant: Rules, name: str = "pubeval") -> None:
        if not supports(variant):
            raise InvalidOptionError(
                f"pubeval plays backgammon's board with 15 checkers a side, "
                f"not {variant.name}"
            )
        self.name = name
        self.variant = variant
        self._evaluator = evaluator_for(variant)

    def choose(self, state: Any) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        answer, state = resolve(state, self._evaluator)  # cube decisions: the heuristic's
        if answer is not None:
            return answer
        legal = state.legal_actions()
        rows = play_rows(legal)
        player = state.position.turn
        if rows is None:
            rows = np.array([np.frombuffer(p.result.board, np.int8) for p in legal])
        scores = pubeval(rows[:, :52], player, is_race(state.position.board, player))
        return legal[int(np.argmax(scores))]
