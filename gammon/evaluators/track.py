"""Heuristic evaluation of the track games: a few features, scored for every board at once.

One class serves every track variant (backgammon, nackgammon, hypergammon, Caucasian,
Long Nardy, acey-deucey, Multi-Gam): the geometry (who meets whom, which way each side
moves, who can hit) comes from the variant's crossing table, so the same feature means
the same thing on every board. What differs between variants is how much each feature
matters: :class:`Weights`, one set per family, each weight explained where it is set.

The features, for a player ``p`` against an opponent ``q`` (the columns of
:data:`gammon.kernels.search.FEATURES`), and why each matters:

- **race**: the pip lead, tempo included, in standard deviations of the race. With no
  contact left the game is a pure race and this alone decides it (a normal
  approximation: each roll moves 49/6 pips on average with a spread of about 4.3).
- **exposure** (hitting variants): for every blot of ``p``, the chance that ``q`` hits
  it next turn, from the rolls that hit a blot at each distance (11/36 at 1 pip, 17/36
  at 6, 6/36 at 7 ...; several shooters combine as ``1 - exp(-sum)``), times the share
  of the journey a hit throws away. Being hit is the biggest swing of a contact game.
  **exposure x board**: the same, times the points of the hitter's home board, since
  a checker hit against a strong board may stay out for many rolls.
- **blocks**: each point ``p`` holds (two checkers, or one where a single checker
  blocks, as in Long Nardy) counts for every opposing checker that still has to pass
  it within 6 pips (half within 12). Blocking points are what stop the opponent.
- **prime**: the longest run of held points (a run of 3 starts to hurt, 6 cannot be
  passed at all), while an opposing checker is still behind it.
- **home board x bar**: home-board points count for each opposing checker on the bar
  (at most two): they decide whether a hit checker comes back in.
- **anchors**: points held in the opponent's home board (at most two count), safe
  landing spots for back checkers while there is contact.
- **stacks**: checkers beyond the third on a point are wasted; Tesauro's pubeval
  encodes the same idea.
- **bar**, **back**: checkers on the bar, and checkers still in the opponent's home
  board: they have the longest and most dangerous way to go.
- **home points**, **blots**, **off**: held home-board points (strength for later
  hits), blots of any kind (exposure counts the direct danger; a blot is also a
  liability later), checkers borne off (progress the pips do not show in a bear-off).
- **pips**, **pips squared** (per 100): the raw pip count of each side. Next to the
  race term they let a fitted model learn how much a lead is worth in contact, which
  is far less than in a race.
- **points held, one by one**: whether each point 1..N is held. Not every point is worth
  the same: in backgammon the 5-point, the bar point and the opponent's 5-point anchor
  are worth most; the fitted weights say how much each is.

The features of ``p`` minus those of ``q``, weighted, make a score ``z``; the chance
that ``p`` wins is ``logistic(z)``. Gammons (a loser with nothing borne off) are
estimated from a second race: the winner's pips to finish against the loser's pips to
bring everything home and bear one checker off, with a floor while there is contact
(hits make gammons too). The values returned are expected points per player:
``P(win) (1 + P(gammon | win)) - P(lose) (1 + P(gammon | lose))``.

The weights of backgammon were fitted (logistic regression, :mod:`gammon.agents.fit`)
to the outcomes of games between pubeval and the heuristic itself; the other families
start from them, changed where their rules change what a feature means.

With more than two players (Multi-Gam) every opponent counts: exposure sums the threats
of all of them, blocks count every opposing checker, and the pairwise chances of
finishing ahead of each other player give the expected place and so the expected score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gammon.core.position import Position
from gammon.core.variant import GameState, TrackVariant
from gammon.evaluators.base import finished_returns
from gammon.kernels import kernel_array
from gammon.kernels.search import FEATURES, pair_features, two_player_chances

#: Rolls out of 36 that let one checker hit a blot ``d`` pips away (no blocks counted):
#: every way the dice sum or one die makes ``d``. A standard backgammon table.
SHOTS = np.zeros(25, np.float64)
for _d, _n in {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2,
               12: 3, 15: 1, 16: 1, 18: 1, 20: 1, 24: 1}.items():
    SHOTS[_d] = _n / 36.0

#: Mean pips of a roll of two dice (doubles count four times): 49/6.
MEAN_ROLL = 49 / 6
#: Standard deviation of the pips of one roll.
ROLL_SD = 4.3
#: Scale that makes a logistic curve follow the normal distribution function.
LOGISTIC = 1.7
#: Prime values by length: a run of 3 starts to hurt, 6 cannot be passed.
PRIME_VALUE = np.array([0.0, 0.0, 0.0, 0.15, 0.4, 0.8, 1.4, 1.4, 1.4, 1.4, 1.4, 1.4, 1.4])


@dataclass(frozen=True)
class Weights:
    """How much each feature moves the score ``z`` (logistic scale: 0.1 in ``z`` is
    about 2.5% of winning chances in an even position).

    A position is scored from the side of the player who is *not* on roll (usually the
    one who just played): ``mover`` weighs that player's features, ``roller`` those of
    the player about to roll: the weights of :data:`~gammon.kernels.search.FEATURES`,
    optionally followed by one weight per point for holding it (missing ones are 0).
    The two sides differ where the turn matters: the mover's blots are about to be shot
    at, the roller's are not yet; the roller's checker on the bar must come in now.
    ``race`` weighs the race term while there is contact (a pure race uses it at weight
    1); ``tempo`` is the pips being on roll is worth (half a roll); ``bias`` is added.
    """

    race: float
    mover: tuple[float, ...]
    roller: tuple[float, ...]
    tempo: float = MEAN_ROLL / 2
    bias: float = 0.0
    #: Optional logistic models of the gammon rates while there is contact: the chance
    #: that a win of the mover is a gammon, and that a loss is. Each is ``(bias, race,
    #: mover's features..., roller's features...)``. Without them the rates come from
    #: the race to bear off a first checker, with a floor for contact.
    gammon_win: tuple[float, ...] | None = None
    gammon_lose: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if len(self.mover) < len(FEATURES) or len(self.roller) != len(self.mover):
            raise ValueError(f"give {len(FEATURES)} feature weights ({', '.join(FEATURES)}) "
                             "and as many for the roller")
        for model in (self.gammon_win, self.gammon_lose):
            if model is not None and (len(model) < 2 + 2 * len(FEATURES) or len(model) % 2):
                raise ValueError("a gammon model has a bias, a race weight and two sets of "
                                 "feature weights")

    @classmethod
    def named(cls, race: float, mover: dict[str, float], roller: dict[str, float],
              tempo: float = MEAN_ROLL / 2) -> Weights:
        for weights in (mover, roller):
            unknown = set(weights) - set(FEATURES)
            if unknown:
                raise ValueError(f"unknown features {sorted(unknown)}")
        return cls(race, tuple(mover.get(n, 0.0) for n in FEATURES),
                   tuple(roller.get(n, 0.0) for n in FEATURES), tempo)

    @classmethod
    def symmetric(cls, race: float, tempo: float = MEAN_ROLL / 2, **weights: float) -> Weights:
        """The same weight for both sides (the roller's features count against)."""
        return cls.named(race, weights, {k: -v for k, v in weights.items()}, tempo)

    def replace(self, race: float | None = None, tempo: float | None = None,
                **weights: float) -> Weights:
        """These weights with some changed: ``name=w`` sets the mover's weight to ``w``
        and the roller's to ``-w`` (a symmetric feature)."""
        k = len(FEATURES)
        mover = dict(zip(FEATURES, self.mover[:k], strict=True))
        roller = dict(zip(FEATURES, self.roller[:k], strict=True))
        for name, value in weights.items():
            mover[name] = value
            roller[name] = -value
        return Weights(self.race if race is None else race,
                       tuple(mover[n] for n in FEATURES) + self.mover[k:],
                       tuple(roller[n] for n in FEATURES) + self.roller[k:],
                       self.tempo if tempo is None else tempo, self.bias)


#: The hand-set weights the other families start from: one weight per feature, the same
#: for both sides (the roller's count against).
HAND = Weights.symmetric(
    race=0.7, exposure=-1.6, exposure_board=-0.19, blocks=1.2, prime=1.0, home_bar=0.12,
    anchors=0.2, stacks=-0.05,
)
#: Backgammon and the games on its board (nackgammon, Caucasian): fitted by
#: ``python -m gammon.agents.fit backgammon`` to gnubg's 0-ply cubeless chances of
#: 55,627 contact positions from games of pubeval and the heuristic (15% random plays);
#: mean error of the chance to win 0.056. The mover's and the roller's weights, then
#: one weight per point held (points 1-24), then the gammon models.
BACKGAMMON = Weights(
    race=0.5597, bias=-0.1760,
    mover=(
        0.3680, -0.3434, 0.3657, 0.4229, 0.0753, -0.0858, -0.0747, -0.3676, -0.2012, 0.1691,
        -0.0092, 0.0894, 1.4664, 1.2310, -0.2390, -0.1241, 0.0074, 0.0749, 0.1628, 0.2871,
        0.1576, 0.1074, 0.1348, 0.0711, 0.0222, -0.0082, -0.0281, -0.0929, -0.0711, -0.1157,
        -0.1304, -0.2142, 0.1892, 0.1552, 0.0631, -0.0599, -0.2148, -0.3345,
    ),
    roller=(
        -0.3663, 0.0757, -0.3745, -0.3204, -0.0657, 0.1087, 0.0711, 0.3528, 0.2261, -0.1358,
        0.0250, -0.1086, -1.4529, -1.2257, 0.2527, 0.1165, -0.0126, -0.0810, -0.1689, -0.2425,
        -0.1686, -0.0981, -0.1065, -0.0553, -0.0108, 0.0526, 0.0725, 0.1361, 0.0864, 0.1774,
        0.1848, 0.2684, -0.1869, -0.1446, -0.0469, 0.0761, 0.2033, 0.3348,
    ),
    gammon_win=(
        -3.2190, 0.3450, -0.4655, 0.1284, -0.1547, 0.1150, 0.1360, 0.2254, -0.0956, -0.2424,
        0.1759, -0.0117, 0.0210, 0.0840, 1.0291, 0.2718, -0.2954, -0.1308, 0.0118, 0.0466,
        0.1301, 0.2260, -0.0084, -0.0698, -0.0003, 0.0392, -0.0074, 0.1111, 0.0436, 0.0427,
        0.0938, 0.2587, 0.2326, 0.2563, -0.3018, -0.1138, -0.0729, -0.0036, -0.0178, 0.0378,
        -1.1226, 0.6554, -0.7108, 0.0991, 0.1680, 0.0248, 0.0048, 0.3240, 0.3281, -0.1517,
        -0.0043, -1.8579, 1.0170, -0.7430, 0.0315, 0.0101, -0.0128, -0.0448, -0.0103, -0.1253,
        -0.0270, -0.0568, 0.0531, 0.0925, 0.1578, 0.1081, 0.2431, 0.4074, 0.2890, 0.4473,
        0.5525, 0.5530, -0.0392, -0.2250, -0.0581, 0.0987, 0.2914, 0.4856,
    ),
    gammon_lose=(
        -2.6250, -0.3950, -0.6422, 0.7967, -0.6028, -0.1971, 0.1210, -0.0244, 0.0211, 0.2012,
        0.2765, -0.1205, 0.0010, -1.6849, -0.0321, -0.3852, 0.0913, 0.0274, 0.0006, -0.0385,
        -0.0228, -0.1785, -0.0011, -0.0940, 0.0372, 0.0432, 0.0831, 0.0080, 0.0983, 0.2750,
        0.1792, 0.2996, 0.3451, 0.3948, -0.0987, -0.2583, -0.0845, 0.0369, 0.2615, 0.4204,
        -0.1687, 0.1047, -0.3398, 0.0953, 0.1795, 0.3644, -0.0890, -0.1930, 0.1089, -0.0140,
        0.0080, 0.0525, 0.9743, 0.4682, -0.3271, -0.1327, 0.0050, 0.0655, 0.1524, 0.2229,
        0.0483, 0.0027, 0.0449, 0.0900, 0.0398, 0.1351, 0.1319, 0.1024, 0.1818, 0.2657, 0.1903,
        0.2871, -0.2743, -0.0871, -0.0643, 0.0191, 0.0498, 0.0478,
    ),
)

#: Hypergammon: three checkers or fewer, so few points can be held; the race and the
#: hits decide.
HYPERGAMMON = HAND.replace(race=0.9, blocks=0.8, prime=0.5, anchors=0.1, stacks=0.0)
#: Long Nardy: no hitting, so no exposure; a single checker holds a point, and blocking
#: (up to a six-point block, which the rules allow while a checker is ahead of it) is
#: the whole strategy besides the race.
NARDY = HAND.replace(race=0.8, exposure=0.0, exposure_board=0.0, blocks=1.5,
                           prime=1.2, home_bar=0.0, anchors=0.0, stacks=-0.02, bar=0.0,
                           back=0.0, blots=0.0)
#: Acey-deucey: backgammon's geometry, but everyone starts off the board (the bar is
#: the start, not a penalty) and doubles earn extra rolls, so tempo is worth more.
ACEY = HAND.replace(race=0.8, bar=0.0, back=0.0, tempo=MEAN_ROLL / 2 + 2)
#: Multi-Gam: five checkers, six points, three opponents whose threats add up; the
#: race decides the places; no tempo (four players take turns).
MULTIGAM = HAND.replace(race=1.0, exposure=-1.2, exposure_board=0.0, blocks=0.6,
                              prime=0.6, home_bar=0.0, anchors=0.0, back=0.0, tempo=0.0)


#: The weights of each family of games (:attr:`TrackVariant.family`).
FAMILY_WEIGHTS = {"backgammon": BACKGAMMON, "hypergammon": HYPERGAMMON, "nardy": NARDY,
                  "acey": ACEY, "multigam": MULTIGAM}


def weights_for(variant: TrackVariant) -> Weights:
    """The weights of ``variant``'s family."""
    return FAMILY_WEIGHTS[variant.family]


def _players(to_move: np.ndarray | int, n: int) -> np.ndarray:
    """``to_move`` as an int64 array of ``n`` players."""
    if isinstance(to_move, int | np.integer):
        return np.full(n, int(to_move), np.int64)
    return kernel_array(to_move, np.int64)


def _padded(weights: tuple[float, ...], width: int) -> np.ndarray:
    """Feature weights with zeros for the held points not given."""
    vector = np.zeros(width)
    vector[: len(weights)] = weights[:width]
    return vector


def _model(model: tuple[float, ...], width: int) -> np.ndarray:
    """A gammon model ``(bias, race, mover's..., roller's...)`` padded to ``width``
    features per side."""
    half = (len(model) - 2) // 2
    return np.concatenate([model[:2], _padded(model[2 : 2 + half], width),
                           _padded(model[2 + half :], width)])


def _cross(variant: TrackVariant, p: int, q: int) -> np.ndarray:
    """``q``'s slot of each of ``p``'s slots 1..N+1 (the bar included; -1 for off)."""
    n = variant.points
    cross = np.full(n + 2, -1, np.int64)
    for s in range(1, n + 1):
        cross[s] = variant.shared_slot(p, s, q)
    cross[n + 1] = _bar_cross(variant, p, q)
    return cross


def _bar_cross(variant: TrackVariant, p: int, q: int) -> int:
    """Where ``p``'s bar lies on ``q``'s track: before ``p``'s first point, so one step
    beyond ``q``'s slot of ``p``'s highest point in the direction ``q`` sees it."""
    n = variant.points
    top = variant.shared_slot(p, n, q)
    below = variant.shared_slot(p, n - 1, q) if n > 1 else top - 1
    return top + (top - below)


class TrackHeuristic:
    """The heuristic evaluator of a track variant (see the module text).

    :meth:`values` scores a batch of boards (numpy rows of board bytes) given who rolls
    next; :meth:`evaluate` scores states of any phase (terminal ones exactly).
    """

    def __init__(self, variant: TrackVariant, weights: Weights | None = None) -> None:
        self.variant = variant
        self.weights = weights or weights_for(variant)
        self.players = variant.players
        self.slots = variant.slots
        self.size = self.players * self.slots
        self.points = variant.points
        self.home = variant.home
        self.checkers = variant.checkers
        self.made_at = variant.contact.block if variant.contact.hitting else 1
        self.enter_first = bool(variant.entering.enter_first)
        self.gammons = bool(variant.ending.gammons)
        self.cross = {
            (p, q): _cross(variant, p, q)
            for p in range(self.players) for q in range(self.players) if p != q
        }
        self.shots = SHOTS if variant.contact.hitting else np.zeros_like(SHOTS)
        width = len(FEATURES) + self.points
        w = self.weights
        self.mover_weights = _padded(w.mover, width)
        self.roller_weights = _padded(w.roller, width)
        self.gammon_win = None if w.gammon_win is None else _model(w.gammon_win, width)
        self.gammon_lose = None if w.gammon_lose is None else _model(w.gammon_lose, width)
        fitted = self.gammon_win is not None and self.gammon_lose is not None
        self._gw = self.gammon_win if fitted else np.zeros(2 + 2 * width)
        self._gl = self.gammon_lose if fitted else np.zeros(2 + 2 * width)
        self._ints = np.array([self.slots, self.points, self.home, self.made_at,
                               int(self.enter_first), int(self.gammons), int(fitted)], np.int64)
        self._floats = np.array([float(self.checkers), w.race, w.bias, w.tempo, MEAN_ROLL,
                                 ROLL_SD, LOGISTIC])

    # --- features ----------------------------------------------------------------------

    def features(self, boards: np.ndarray, p: int, q: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``p``'s features against ``q`` (columns :data:`FEATURES`), whether the two
        are in contact, ``p``'s pips, and (columns) ``p``'s pips to bring everything
        home, home-board points, checkers off and on the bar: computed in
        :func:`gammon.kernels.search.pair_features`, one pass over the boards."""
        n = boards.shape[0]
        features = np.zeros((n, len(FEATURES) + self.points))
        contact = np.zeros(n, np.bool_)
        pips = np.zeros(n)
        extra = np.zeros((n, 4))
        pair_features(boards, p, q, self.slots, self.points, self.home, self.made_at,
                      float(self.checkers), self.cross[(p, q)], self.shots, PRIME_VALUE,
                      self.enter_first, features, contact, pips, extra)
        return features, contact, pips, extra

    def strength(self, boards: np.ndarray, p: int, q: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Like :meth:`features`, weighted into one score (``p`` counted as the mover;
        what several players need, where each faces every other)."""
        features, contact, pips, extra = self.features(boards, p, q)
        return features @ self.mover_weights, contact, pips, extra

    def _race_z(self, lead: np.ndarray, total: np.ndarray) -> np.ndarray:
        """A pip lead (tempo included) in logistic units of the race's spread."""
        sigma = ROLL_SD * np.sqrt(np.maximum(total, 1.0) / MEAN_ROLL)
        return LOGISTIC * lead / sigma

    def _gammon_chance(self, winner: np.ndarray, loser: np.ndarray, wpips: np.ndarray,
                       lead: np.ndarray, contact: np.ndarray) -> np.ndarray:
        """Chance that the loser bears nothing off before the winner finishes, given
        that the winner wins.

        In a race: the winner's pips to finish against the loser's pips to bring every
        checker home plus a roll to bear one off. In contact the hits make gammons too:
        a floor that grows with the loser's checkers on the bar and the winner's home
        board (about a fifth of the games between equal players end in a gammon).
        ``winner``/``loser``: the ``extra`` columns of :meth:`features`.
        """
        if not self.gammons:
            return np.zeros(winner.shape[0])
        need = loser[:, 0] + 4.0  # pips to bring every checker home, and a roll to bear off
        z = self._race_z(need - wpips + lead, need + wpips)
        chance = 1.0 / (1.0 + np.exp(-z))
        floor = np.minimum(0.12 + 0.08 * np.minimum(loser[:, 3], 3.0) + 0.03 * winner[:, 1], 0.6)
        chance = np.where(contact, np.maximum(chance, floor), chance)
        return np.where(loser[:, 2] > 0, 0.0, chance)

    # --- scoring -----------------------------------------------------------------------

    def values(self, boards: np.ndarray, to_move: np.ndarray | int) -> np.ndarray:
        """Expected returns per player, ``(len(boards), players)``, of boards where
        ``to_move`` rolls next. Boards where someone has finished are not scored here
        (see :meth:`evaluate` and the search, which score them exactly)."""
        boards = kernel_array(boards, np.int8)
        n = boards.shape[0]
        to_move = _players(to_move, n)
        if self.players == 2:
            return self._two(boards, to_move)
        return self._many(boards, to_move)

    def _two(self, boards: np.ndarray, to_move: np.ndarray) -> np.ndarray:
        win0, g0, g1 = self.chances(boards, to_move)
        v0 = win0 * (1.0 + g0) - (1.0 - win0) * (1.0 + g1)
        return np.stack([v0, -v0], axis=1)

    def chances(self, boards: np.ndarray, to_move: np.ndarray | int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Two players: player 0's chance to win, and the chances that a win of player 0
        and a win of player 1 are gammons (or better). One compiled pass
        (:func:`gammon.kernels.search.two_player_chances`); :meth:`chances_numpy` is
        the same model written with numpy, kept as its readable reference."""
        boards = kernel_array(boards, np.int8)
        n = boards.shape[0]
        to_move = _players(to_move, n)
        win0, g0, g1 = np.empty(n), np.empty(n), np.empty(n)
        two_player_chances(boards, to_move, self._ints, self._floats, self.cross[(0, 1)],
                           self.cross[(1, 0)], self.shots, PRIME_VALUE, self.mover_weights,
                           self.roller_weights, self._gw, self._gl, win0, g0, g1)
        return win0, g0, g1

    def chances_numpy(self, boards: np.ndarray, to_move: np.ndarray | int
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`chances`, step by step in numpy."""
        boards = kernel_array(boards, np.int8)
        to_move = np.broadcast_to(np.asarray(to_move, np.int64), (boards.shape[0],))
        w = self.weights
        f0, c0, pips0, e0 = self.features(boards, 0, 1)
        f1, c1, pips1, e1 = self.features(boards, 1, 0)
        contact = c0 | c1
        tempo = np.where(to_move == 0, w.tempo, -w.tempo)
        lead0 = pips1 - pips0 + tempo  # player 0's lead in the race
        race = self._race_z(lead0, pips0 + pips1)
        # Player 0's positional score: as the mover when player 1 is on roll, else as
        # the roller (the mover's score counts against).
        zero_moved = to_move == 1
        as_mover = f0 @ self.mover_weights + f1 @ self.roller_weights + w.bias
        as_roller = -(f1 @ self.mover_weights + f0 @ self.roller_weights + w.bias)
        race_m = np.where(zero_moved, race, -race)
        z_m = np.where(zero_moved, as_mover, -as_roller) + w.race * race_m
        z = np.where(contact, np.where(zero_moved, z_m, -z_m), race)
        win0 = 1.0 / (1.0 + np.exp(-z))
        g0 = self._gammon_chance(e0, e1, pips0, tempo, contact)
        g1 = self._gammon_chance(e1, e0, pips1, -tempo, contact)
        if self.gammon_win is not None and self.gammon_lose is not None and self.gammons:
            # Fitted gammon rates in contact, from the mover's side.
            fm = np.where(zero_moved[:, None], f0, f1)
            fr = np.where(zero_moved[:, None], f1, f0)
            x = np.column_stack([np.ones(len(race)), race_m, fm, fr])
            gw = 1.0 / (1.0 + np.exp(-(x @ self.gammon_win)))
            gl = 1.0 / (1.0 + np.exp(-(x @ self.gammon_lose)))
            # Nothing borne off yet is needed for a gammon.
            gw = np.where(np.where(zero_moved, e1[:, 2], e0[:, 2]) > 0, 0.0, gw)
            gl = np.where(np.where(zero_moved, e0[:, 2], e1[:, 2]) > 0, 0.0, gl)
            g0 = np.where(contact, np.where(zero_moved, gw, gl), g0)
            g1 = np.where(contact, np.where(zero_moved, gl, gw), g1)
        return win0, g0, g1

    def _many(self, boards: np.ndarray, to_move: np.ndarray) -> np.ndarray:
        """Several players: pairwise chances of finishing ahead, then expected scores."""
        w = self.weights
        players = self.players
        n = boards.shape[0]
        done = [boards[:, p * self.slots] >= self.checkers for p in range(players)]
        # Threats and blocks add up over the opponents: any of them may hit a blot.
        strength = []
        pips = []
        for p in range(players):
            total = np.zeros(n)
            for q in range(players):
                if q != p:
                    s, _, pip, _ = self.strength(boards, p, q)
                    total += s
            strength.append(total)
            pips.append(pip)
        ahead = np.zeros((n, players))
        for p in range(players):
            for q in range(players):
                if q == p:
                    continue
                lead = pips[q] - pips[p]
                race = self._race_z(lead, pips[p] + pips[q])
                z = w.race * race + strength[p] - strength[q]
                chance = 1.0 / (1.0 + np.exp(-z))
                # A finished player is ahead of everyone still playing.
                chance = np.where(done[p] & ~done[q], 1.0, chance)
                chance = np.where(done[q] & ~done[p], 0.0, chance)
                ahead[:, p] += chance
        return self._scores(ahead)

    def _scores(self, ahead: np.ndarray) -> np.ndarray:
        """Expected score from the expected number of players one finishes ahead of:
        linear between the scores of the places (0 ahead = last place)."""
        scores = self.variant.place_scores
        table = np.array(list(scores[: self.players])[::-1], np.float64)  # by players beaten
        return np.interp(ahead, np.arange(self.players, dtype=np.float64), table)

    # --- states ------------------------------------------------------------------------

    def evaluate(self, states: Sequence[Any]) -> np.ndarray:
        """Expected returns per player of each state (terminal ones exactly)."""
        out, live = finished_returns(states, self.players)
        if not live:
            return out
        boards = np.frombuffer(
            b"".join(states[i].position.board for i in live), np.int8
        ).reshape(len(live), self.size)
        to_move = np.array([states[i].position.turn for i in live], np.int64)
        values = self.values(boards, to_move)
        if self.players > 2:
            values = self._fix_ranked(values, [states[i] for i in live])
        out[live] = values
        return out

    def _fix_ranked(self, values: np.ndarray, states: list[GameState]) -> np.ndarray:
        """Players already ranked (Multi-Gam) get exactly their place's score."""
        scores = self.variant.place_scores
        for i, state in enumerate(states):
            for place, player in enumerate(self.variant.ranking(state)):
                values[i, player] = scores[place]
        return values

    def terminal_value(self, board: bytes, winner: int) -> np.ndarray:
        """Exact returns of a two-player board where ``winner`` has borne off everything."""
        points = float(self.variant.winner_points(Position(board, self.players, winner), winner))
        value = np.full(self.players, -points)
        value[winner] = points
        return value
