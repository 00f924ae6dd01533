"""Acedrex positions as text (the grammar is in docs/rules/acedrex.md, *Position notation*).

::

    position  := ring " " turn " " hands " " jackpot " " captures [" " out [" " money [" " turns]]]
    ring      := territory "/" territory "/" territory "/" territory     (Blue, Red, Orange, Yellow)
    territory := token ("," token)*                     (tokens cover exactly nine slots)
    token     := stack | count                          (count: 1-9 empty slots in a row)
    stack     := piece+                                 (from the slot's centre outward)
    piece     := "B" | "R" | "O" | "Y" | "b" | "r" | "o" | "y"   (lower case: tapped)
    turn      := player [die ["-" left]]                (to roll / to move die / left to spend)
    hands     := "-" | PIECE+                           (upper case only)
    jackpot   := "-" | PIECE+                           (in the order placed)
    captures  := group "/" group "/" group "/" group    (what Blue, Red, Orange, Yellow took)
    group     := "-" | PIECE+
    out       := "-" | player+                          (players who resigned)
    money     := int "," int "," int "," int            (settled so far)
    turns     := int                                    (turns played)

Pieces written nowhere are out of play (a resigned player's, normally). The Acedrex state
is not a :class:`~gammon.core.position.Position`, so this form is not a
:class:`~gammon.notation.codecs.PositionCodec`; the command line calls
:func:`parse_state` and :func:`format_state` directly.
"""

from __future__ import annotations

import re

from gammon.core.errors import GammonError, InvalidNotationError
from gammon.core.state import Phase
from gammon.core.variant import variant as get_variant
from gammon.variants.acedrex import (
    LETTERS,
    MOVE,
    PIECES,
    PLAYERS,
    RING,
    SLOTS,
    Acedrex,
    AcedrexState,
    first_stop,
    owner,
)

_TURN = re.compile(r"^([BROY])(?:(\d{1,2})(?:-(\d{1,2}))?)?$")
START = "B,B,B,B,B,B,B,B,B/R,R,R,R,R,R,R,R,R/O,O,O,O,O,O,O,O,O/Y,Y,Y,Y,Y,Y,Y,Y,Y B - - -/-/-/-"


def _letter(piece: int, tapped: bool = False) -> str:
    letter = LETTERS[owner(piece)]
    return letter.lower() if tapped else letter


def _group(pieces: list[int] | tuple[int, ...], keep_order: bool = False) -> str:
    ordered = pieces if keep_order else sorted(pieces)
    return "".join(_letter(x) for x in ordered) or "-"


def format_state(state: AcedrexState) -> str:
    """The position of ``state`` in the notation (canonical: parsing it gives it back)."""
    territories = []
    for p in range(PLAYERS):
        tokens: list[str] = []
        empty = 0
        for k in range(SLOTS):
            stack = state.ring[first_stop(p) + k]
            if not stack:
                empty += 1
                continue
            if empty:
                tokens.append(str(empty))
                empty = 0
            tokens.append("".join(_letter(x, state.is_tapped(x)) for x in stack))
        if empty:
            tokens.append(str(empty))
        territories.append(",".join(tokens))
    turn = LETTERS[state.turn]
    if state.stage == MOVE and state.phase is Phase.DECIDE:
        turn += str(state.die)
        if state.parts:
            turn += f"-{state.left}"
    hands = _group([x for hand in state.hands for x in hand])
    fields = [
        "/".join(territories), turn, hands, _group(state.jackpot, keep_order=True),
        "/".join(_group(c) for c in state.captured),
    ]
    optional = [
        "".join(LETTERS[p] for p in range(PLAYERS) if state.out[p]) or "-",
        ",".join(str(m) for m in state.money),
        str(state.turns),
    ]
    defaults = ["-", "0,0,0,0", "0"]
    while optional and optional[-1] == defaults[len(optional) - 1]:
        optional.pop()
    return " ".join(fields + optional)


def parse_state(text: str, rules: Acedrex | None = None) -> AcedrexState:
    """Read a position; raises :class:`InvalidNotationError` saying what is wrong."""
    rules = rules if rules is not None else get_variant("acedrex")  # type: ignore[assignment]
    fields = text.split()
    if not 5 <= len(fields) <= 8:
        raise InvalidNotationError(
            f"an Acedrex position has 5 to 8 fields (RING TURN HANDS JACKPOT CAPTURES "
            f"[OUT [MONEY [TURNS]]]), not {len(fields)}"
        )
    counters = [0] * PLAYERS

    def new_piece(letter: str, where: str) -> int:
        if letter.upper() not in LETTERS:
            raise InvalidNotationError(f"{letter!r} in {where}: pieces are B, R, O, Y")
        p = LETTERS.index(letter.upper())
        if counters[p] == PIECES:
            raise InvalidNotationError(f"more than {PIECES} pieces of {letter.upper()}")
        counters[p] += 1
        return p * PIECES + counters[p] - 1

    ring: list[list[int]] = [[] for _ in range(RING)]
    tapped: list[int] = []
    territories = fields[0].split("/")
    if len(territories) != PLAYERS:
        raise InvalidNotationError(
            f"the ring is {PLAYERS} territories separated by '/', not {len(territories)}"
        )
    for p, written in enumerate(territories):
        slot = 0
        for token in written.split(","):
            if token.isdigit():
                if not 1 <= int(token) <= SLOTS:
                    raise InvalidNotationError(f"{token!r}: a run of empty slots is 1 to 9")
                slot += int(token)
                continue
            if not token:
                raise InvalidNotationError(f"territory {LETTERS[p]}: an empty token (write 1)")
            if slot >= SLOTS:
                raise InvalidNotationError(f"territory {LETTERS[p]} ({written!r}) has over 9 slots")
            for letter in token:
                piece = new_piece(letter, f"territory {LETTERS[p]}")
                ring[first_stop(p) + slot].append(piece)
                if letter.islower():
                    tapped.append(piece)
            slot += 1
        if slot != SLOTS:
            raise InvalidNotationError(
                f"territory {LETTERS[p]} ({written!r}) covers {slot} slots, not {SLOTS}"
            )
    match = _TURN.match(fields[1])
    if not match:
        raise InvalidNotationError(
            f"turn {fields[1]!r}: a player letter, then the die and -left if moving (B12-5)"
        )
    turn = LETTERS.index(match.group(1))
    die = int(match.group(2)) if match.group(2) else None
    left = int(match.group(3)) if match.group(3) else None
    if left is not None and die is not None and left >= die:
        raise InvalidNotationError(f"turn {fields[1]!r}: what is left must be less than the die")

    def pieces(word: str, where: str) -> list[int]:
        if word == "-":
            return []
        if not word.isupper():
            raise InvalidNotationError(f"{where} {word!r}: upper-case letters or '-'")
        return [new_piece(letter, where) for letter in word]

    hand_pieces = pieces(fields[2], "hands")
    hands: list[list[int]] = [[] for _ in range(PLAYERS)]
    for x in hand_pieces:
        hands[owner(x)].append(x)
    jackpot = pieces(fields[3], "jackpot")
    groups = fields[4].split("/")
    if len(groups) != PLAYERS:
        raise InvalidNotationError(f"captures are {PLAYERS} groups separated by '/'")
    captured = [pieces(group, f"captures of {LETTERS[p]}") for p, group in enumerate(groups)]
    out: list[int] = []
    if len(fields) > 5 and fields[5] != "-":
        for letter in fields[5]:
            if letter not in LETTERS or LETTERS.index(letter) in out:
                raise InvalidNotationError(f"out {fields[5]!r}: distinct letters B, R, O, Y")
            out.append(LETTERS.index(letter))
    money = [0] * PLAYERS
    if len(fields) > 6:
        try:
            money = [int(m) for m in fields[6].split(",")]
        except ValueError:
            money = []
        if len(money) != PLAYERS or sum(money) != 0:
            raise InvalidNotationError(
                f"money {fields[6]!r}: four integers that sum to zero, comma-separated"
            )
    turns = 0
    if len(fields) > 7:
        if not fields[7].isdigit():
            raise InvalidNotationError(f"turns {fields[7]!r}: a whole number")
        turns = int(fields[7])
    for p in out:
        if any(owner(x) == p for stack in ring for x in stack) or hands[p] or any(
            owner(x) == p for x in jackpot
        ):
            raise InvalidNotationError(f"{LETTERS[p]} resigned, so has no pieces in play")
    try:
        return rules.state(
            ring, turn, die=die, left=left, tapped=tapped, hands=hands, jackpot=jackpot,
            captured=captured, out=out, money=money, turns=turns,
        )
    except GammonError as error:
        raise InvalidNotationError(str(error)) from None


__all__ = ["START", "format_state", "parse_state"]
