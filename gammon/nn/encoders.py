"""What a network sees: the inputs of each family of games, from one player's side.

Every input row is written from the side of one player, the *perspective* (the player
to act or to roll), so one network serves both sides and learns half as much:

- :class:`TrackEncoder`, two-player track games (backgammon and its family, short and
  Caucasian backgammon, Long Nardy, acey-deucey): for each of the perspective player's
  points, in their own numbering, four units for their checkers there and four for
  the opponent's on the same physical point (Tesauro's: at least one, at least two, at
  least three, half of those above three); each side's bar (or waiting checkers) and
  borne-off checkers; each side's pip count, and whether the two sides are still in
  contact (a pure race is another game). 199 inputs on a 24-point board. With
  ``contact=True`` (games whose sides run in opposite directions and hit, the
  backgammon family), nine more for each side, the perspective player's first
  (:func:`gammon.kernels.encoding.encode_contact`): the rolls of 36 that hit one of its
  blots, its rearmost checker and rearmost anchor, the rolls that free the rearmost
  checker, how well the other side contains it, the other side's longest prime and
  closed home points, its pips still behind the other side's rearmost checker, and
  its blots: what the raw counts only imply, spelt out (docs/networks.md measures what
  that is worth). In the games that pin (Plakoto, Tapa) the inputs are ``track+pins``:
  after the raw ones, two units for each of the perspective player's points, in its
  numbering: its own checker lies pinned there, the opponent's does (pinned by the
  perspective player) (:func:`gammon.kernels.encoding.encode_pins`). The counts alone
  cannot say which of a lone checker of each side on a point holds the other, and a
  pinned mother (a side's last checker pinned on its starting point) ends or freezes the
  game: 247 inputs.
- :class:`QuarterEncoder`, Multi-Gam's four players on one quarter board: for each
  seat in turn order from the perspective player, their checkers on each point (the
  same four units), on the bar and off, and whether they have finished.
- :class:`RingEncoder`, Acedrex's ring: for every stop and every seat in turn order from
  the perspective player, that seat's untapped and tapped pieces there (/ 9); each
  seat's pieces in hand and captured (/ 9), money (/ 768, the most a game can move) and
  whether it resigned; the jackpot (/ 3); at a decision the die (one-hot of 20), what
  is left of it (/ 20) and the stage (keep or re-roll a 1, move, jump). Acedrex is not a
  board of counts, so this encoder reads whole states (:meth:`RingEncoder.encode_states`).

An encoder's :meth:`~TrackEncoder.encode` takes board rows (the ``bytes`` of
:class:`~gammon.core.position.Position`, as an ``int8`` array) and the perspective
player of each row, and writes one ``float32`` row of inputs per board, in compiled
code: the move generator's rows go straight in.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import Phase
from gammon.core.variant import TrackVariant
from gammon.kernels import kernel_array
from gammon.kernels.acedrex import PIECES, PLAYERS, RING, SIDES
from gammon.kernels.encoding import (
    CONTACT,
    PIN_UNITS,
    UNITS,
    encode_contact,
    encode_pins,
    encode_quarter,
    encode_track,
    escape_table,
)


def contact_applies(variant: Any) -> bool:
    """Whether the contact features describe ``variant``: two players who hit, on 24
    points with six-point home boards, running in opposite directions."""
    return (variant.game_type.stakes and variant.contact.hitting
            and variant.points == 24 and variant.home == 6 and variant.contact.block == 2
            and all(variant.shared_slot(0, s, 1) == variant.points + 1 - s
                    for s in range(1, variant.points + 1)))


class TrackEncoder:
    """Inputs of a two-player track game (module text)."""

    family = "track"

    def __init__(self, variant: TrackVariant, contact: bool = False) -> None:
        if variant.players != 2:
            raise ValueError(f"{variant.name} has {variant.players} players, not two")
        if contact and not contact_applies(variant):
            raise InvalidOptionError(
                f"the contact features are for games of two sides that hit each other "
                f"running in opposite directions (the backgammon family), not {variant.name}")
        self.contact = contact
        #: The pin units (module text): every network of a game that pins reads them.
        self.pins = variant.game_type.pins
        self.slots = variant.slots
        self.points = variant.points
        self.checkers = variant.checkers
        #: The bytes of a board row it reads: the counts, and the pin row where there is one.
        self.size = 2 * variant.slots + (variant.points if self.pins else 0)
        self.cross = np.zeros((2, variant.slots), np.int64)
        for p in (0, 1):
            for s in range(1, variant.points + 1):
                self.cross[p, s] = variant.shared_slot(p, s, 1 - p)
        #: Where the contact features, or the pin units, start (the raw inputs' count).
        self.raw = self.points * 2 * UNITS + 7
        self.inputs = (self.raw + (2 * CONTACT if contact else 0)
                       + (PIN_UNITS * self.points if self.pins else 0))
        self.home = variant.home
        self.escapes = escape_table() if contact else np.zeros(0, np.int64)

    @property
    def name(self) -> str:
        """What a network's file calls these inputs (its ``encoder``)."""
        return "track+contact" if self.contact else "track+pins" if self.pins else "track"

    def encode(self, boards: np.ndarray, perspective: np.ndarray) -> np.ndarray:
        boards = kernel_array(boards, np.int8)
        sides = kernel_array(perspective, np.int64)
        out = np.empty((boards.shape[0], self.inputs), np.float32)
        encode_track(boards, sides, self.slots, self.points, float(self.checkers),
                     self.cross, out)
        if self.contact:
            encode_contact(boards, sides, self.slots, self.points, self.home, self.cross,
                           self.escapes, out, self.raw)
        if self.pins:
            encode_pins(boards, sides, self.slots, self.points, self.cross, out, self.raw)
        return out


class QuarterEncoder:
    """Inputs of Multi-Gam (module text)."""

    family = name = "quarter"

    def __init__(self, variant: TrackVariant) -> None:
        self.slots = variant.slots
        self.points = variant.points
        self.checkers = variant.checkers
        self.players = variant.players
        self.size = variant.players * variant.slots
        self.inputs = self.players * (self.points * UNITS + 3)

    def encode(self, boards: np.ndarray, perspective: np.ndarray) -> np.ndarray:
        boards = kernel_array(boards, np.int8)
        out = np.empty((boards.shape[0], self.inputs), np.float32)
        encode_quarter(boards, kernel_array(perspective, np.int64), self.slots,
                       self.points, float(self.checkers), self.players, out)
        return out


class RingEncoder:
    """Inputs of Acedrex (module text)."""

    family = name = "ring"
    #: Money is scaled by the most a player can win or lose in one game: three times the
    #: score of nine captures (256 points), at stake 1.
    MONEY_SCALE = 768.0
    STAGES = ("one", "move", "jump")

    def __init__(self, variant: Any) -> None:
        self.players, self.ring, self.sides = PLAYERS, RING, SIDES
        self.money_scale = self.MONEY_SCALE * variant.options().get("stake", 1)
        self.inputs = (RING * PLAYERS * 2 + PLAYERS * 4 + 1 + SIDES + 1 + len(self.STAGES))
        #: Where a piece counts at its stop, from each perspective: its seat's untapped unit.
        self.units = [[(piece // PIECES - player) % PLAYERS * 2
                       for piece in range(PLAYERS * PIECES)] for player in range(PLAYERS)]

    def encode_states(self, states: Any, perspective: Any) -> np.ndarray:
        """One row of inputs per state, from the side of ``perspective[i]``."""
        players, sides, width, units = self.players, self.sides, self.inputs, self.units
        # Every input is a count of ninths (pieces) or a value set once: the counts are
        # gathered as flat indices and summed in one call, the rest set after.
        ninths: list[int] = []
        flat: list[int] = []
        values: list[float] = []
        hands_at = self.ring * players * 2
        for row, (state, player) in enumerate(zip(states, perspective, strict=True)):
            base = row * width
            player = int(player)
            tapped = state.tapped
            unit = units[player]
            for stop, stack in enumerate(state.ring):
                if stack:
                    at = base + stop * players * 2
                    ninths += [at + unit[piece] + (tapped >> piece & 1) for piece in stack]
            at = base + hands_at
            for seat in range(players):
                p = (player + seat) % players
                ninths += [at] * len(state.hands[p]) + [at + 1] * len(state.captured[p])
                flat += [at + 2, at + 3]
                values += [max(-1.0, min(1.0, state.money[p] / self.money_scale)),
                           1.0 if state.out[p] else 0.0]
                at += 4
            flat.append(at)
            values.append(len(state.jackpot) / 3.0)
            at += 1
            if state.phase is Phase.DECIDE:
                if 1 <= state.die <= sides:
                    flat.append(at + state.die - 1)
                    values.append(1.0)
                flat.append(at + sides)
                values.append(state.left / sides)
                if state.stage in self.STAGES:
                    flat.append(at + sides + 1 + self.STAGES.index(state.stage))
                    values.append(1.0)
        size = len(states) * width
        out = (np.bincount(np.array(ninths, np.int64), minlength=size) / 9.0).astype(np.float32)
        out[np.array(flat, np.int64)] = values
        return out.reshape(len(states), width)


#: The encoders, by the board a variant names (``rules.board``).
ENCODERS: dict[str, Any] = {"track": TrackEncoder, "quarter": QuarterEncoder,
                            "ring": RingEncoder}


def encoder_for(variant: Any, name: str | None = None
                ) -> TrackEncoder | QuarterEncoder | RingEncoder:
    """The encoder of the board ``variant`` names; ``name`` (a network file's
    ``encoder``) may ask for the track board's contact features: ``track+contact``. The
    games that pin read ``track+pins``, and only they."""
    encoder = ENCODERS.get(variant.board)
    if encoder is None:
        raise ValueError(f"no encoder for {variant.name}'s board {variant.board!r}")
    if name == "track+contact" and encoder is TrackEncoder:
        return TrackEncoder(variant, contact=True)
    if name == "track+pins" and not variant.game_type.pins:
        raise InvalidOptionError(f"the pin inputs 'track+pins' are for the games that pin "
                                 f"(Plakoto, Tapa), not {variant.name}")
    result: TrackEncoder | QuarterEncoder | RingEncoder = encoder(variant)
    if name is not None and name != result.name:
        raise InvalidOptionError(f"{variant.name} has no inputs called {name!r} (its "
                                 f"networks read {result.name!r})")
    return result
