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

Pieces written nowhere are out of play (a resigned player's, normally). The text states a
turn at its roll or its move, and reads back to the same state there. A state between
those (the starting throws, a 1 kept or thrown again, a jump, a combat's throws) is
written as its pieces and whose turn it is; read back, it is that player's turn at the
roll. The Acedrex state
is not a :class:`~gammon.core.position.Position`, so this form is not a
:class:`~gammon.notation.codecs.PositionCodec`; the command line calls
:func:`parse_state` and :func:`format_state` directly.
"""

from __future__ import annotations

import re
from typing import Any

from gammon.core.errors import GammonError, IllegalPlayError, InvalidNotationError
from gammon.core.protocol import Phase
from gammon.notation.codecs import PositionCodec, register_codec
from gammon.notation.movetext import MoveText, register_move_text
from gammon.variants.acedrex import (
    HAND,
    JUMP,
    KEEP,
    LETTERS,
    MOVE,
    NO_JUMP,
    PASS,
    PIECES,
    PLAYERS,
    REROLL,
    RESIGN,
    RING,
    SLOTS,
    Acedrex,
    AcedrexState,
    Action,
    Jump,
    Step,
    first_stop,
    is_gate,
    owner,
    parse_stop,
    stop_name,
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
    """The position of ``state`` in the notation (canonical at a roll or a move: parsing
    it gives it back; see the module text for the stages between)."""
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
    rules = rules if rules is not None else Acedrex()
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


CODEC = PositionCodec(
    "Acedrex position (RING TURN HANDS JACKPOT CAPTURES [OUT [MONEY [TURNS]]]), e.g. "
    + START,
    lambda rules, text: parse_state(text, rules),
    lambda rules, state: format_state(state),
)
register_codec("acedrex", CODEC)


# --- actions as people type them ------------------------------------------------------

_MOVE = re.compile(
    r"(?P<src>hand|h|[BROY][1-9])\s*(?:\+\s*(?P<steps>\d+)|>\s*(?P<dst>jackpot|j|[BROY][1-9])"
    r"|\s+(?P<plain>\d+))(?:\s*>\s*(?:jackpot|[BROY][1-9])\*?)?\*?",
    re.IGNORECASE,
)
_JUMP = re.compile(r"^(?:jump\s+)?([BROY][1-9])\s*(?:>|\s)\s*([BROY][1-9])$", re.IGNORECASE)
_WORDS = {"resign": RESIGN, "pass": PASS, "keep": KEEP, "keep 1": KEEP, "k": KEEP,
          "reroll": REROLL, "r": REROLL, "no": NO_JUMP, "n": NO_JUMP,
          "no jump": NO_JUMP, "nojump": NO_JUMP}


class AcedrexMoves(MoveText):
    """Acedrex's actions as people type them: parts of the die from a slot (``B3+7``,
    ``B3 7``, ``B3>Y1``, ``hand 4``, several on a line), jumps (``B5>R2``) and words."""

    intro = ("Slots are named by territory (B Blue, R Red, O Orange, Y Yellow) and 1-9. "
             "Pieces travel B1..B9, gate, Y1..Y9, gate, O1..O9, gate, R1..R9, gate, B1. "
             "Landing on an opponent is a charge and needs the whole die; landing on a "
             "gate puts the piece in the jackpot. The rules: docs/rules/acedrex.md.")
    examples = (
        ("B3+7  or  B3 7", "move the piece on B3 seven steps (the die may be split)"),
        ("B3>Y1", "move the piece on B3 to Y1 (or >jackpot)"),
        ("hand 4", "bring a piece from your hand: 4 steps from before your slot 1"),
        ("B3+5 B7+7", "several parts of the die on one line"),
        ("keep / reroll", "after rolling a 1"),
        ("jump B5>R2 / no", "after rolling a 20"),
        ("pass", "when nothing can move"),
    )
    example = "B3+7"

    def __init__(self) -> None:
        super().__init__(RING)

    def read_actions(self, state: Any, text: str) -> list[Any]:
        """The actions a line means at ``state`` (several parts of a split die).

        Raises :class:`IllegalPlayError` saying why when a part is not legal; nothing is
        applied unless every part is.
        """
        return parse_actions(state, text)


register_move_text("acedrex", lambda rules: AcedrexMoves())


def parse_actions(state: AcedrexState, line: str) -> list[Action]:
    """The actions a line means at ``state`` (several steps for a split die).

    Raises :class:`IllegalPlayError` saying why when a part is not legal; nothing is
    applied unless every part is.
    """
    text = line.strip()
    word = text.lower()
    legal = state.legal_actions()
    if word in _WORDS:
        action = _WORDS[word]
        if action not in legal:
            raise IllegalPlayError(f"{word!r} is not possible now")
        return [action]
    if state.stage == JUMP:
        match = _JUMP.match(text)
        if not match:
            raise IllegalPlayError("write the jump as B5>R2 (from, to), or no")
        jump = Jump(parse_stop(match.group(1)), parse_stop(match.group(2)))
        if jump not in legal or jump.source == jump.target:
            raise IllegalPlayError(f"{jump} is not possible: the piece must be untapped and "
                                   "alone, the target beside an untapped piece of yours")
        return [jump]
    if state.stage != MOVE:
        raise IllegalPlayError("answer keep or reroll")
    found = list(_MOVE.finditer(text))
    rest = _MOVE.sub("", text).replace(",", " ").strip()
    if not found or rest:
        raise IllegalPlayError(f"cannot read {text!r}: write a move like B3+7, B3 7 or B3>Y1")
    actions: list[Action] = []
    current = state
    for match in found:
        if current.stage != MOVE or current.phase is not Phase.DECIDE:
            raise IllegalPlayError("the die is spent before the last part")
        step = _read_step(current, match)
        moves = current.legal_actions()
        if step not in moves:
            raise IllegalPlayError(_why_not(current, step))
        legal_step = moves[moves.index(step)]  # with its landing, for the record
        actions.append(legal_step)
        current = current.apply(legal_step)
    return actions


def _read_step(state: AcedrexState, match: re.Match[str]) -> Step:
    source = parse_stop(match.group("src"))
    start = first_stop(state.turn) - 1 if source == HAND else source
    if match.group("dst"):
        dst = match.group("dst").lower()
        if dst in ("j", "jackpot"):
            steps = next(k for k in range(1, RING) if is_gate((start + k) % RING))
        else:
            steps = (parse_stop(dst) - start) % RING
    else:
        steps = int(match.group("steps") or match.group("plain"))
    return Step(source, steps)


def _why_not(state: AcedrexState, step: Step) -> str:
    name = stop_name(step.source)
    p = state.turn
    if step.steps < 1 or step.steps > state.left:
        return f"{name}+{step.steps}: you have {state.left} to spend"
    if step.source == HAND and not state.hands[p]:
        return "you have no piece in hand"
    if step.source != HAND:
        stack = state.ring[step.source]
        if not any(owner(x) == p for x in stack):
            return f"you have no piece on {name}"
        if any(owner(x) != p for x in stack):
            return f"your piece on {name} shares the slot with an opponent: it is not Alone"
        if all(state.is_tapped(x) for x in stack if owner(x) == p):
            return f"your piece on {name} has moved this turn"
    start = first_stop(p) - 1 if step.source == HAND else step.source
    target = (start + step.steps) % RING
    if is_gate(target):
        return "the jackpot is full: no move may end on a gate"
    return (f"{stop_name(target)} holds an opponent: a charge needs the whole die "
            f"({state.die}) as the first and only part")


__all__ = ["CODEC", "START", "AcedrexMoves", "format_state", "parse_actions", "parse_state"]
