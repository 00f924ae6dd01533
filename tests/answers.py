"""Answers of the oracles and of gnubg, stored so that ``make test`` need not ask again.

The plain-Python oracles (:mod:`oracle`, and each tavli game's in its test module) and
gnubg's processes take most of the time of the tests that check the move generator, and
asking them the same seeded questions again tests nothing new: only the engine's side
changes from one commit to the next. So each set of questions is stored in
``tests/data/answers/NAME.txt``: one line a position (its board, turn and pins) with a
digest of the answers to all 21 rolls (all 56 throws in a game of three dice).

* ``make test`` checks the engine's plays against the stored digests. Where one differs,
  the oracle is asked about that position alone, to say which roll and which boards.
* ``make long`` asks every stored question afresh (``afresh=True``) and checks that the
  oracle, or gnubg, still gives the answers stored: the store cannot drift from its source.
* ``make answers`` writes the files again (``GAMMON_WRITE_ANSWERS=1``), after the
  questions or an oracle were meant to change; say so in the commit.
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import oracle as oracle_module
import pytest

from gammon.core.position import Position

STORE = Path(__file__).resolve().parent / "data" / "answers"
#: The 21 rolls, in the order the digests take them.
ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]
#: The 56 throws of three dice, likewise.
THROWS = [(a, b, c) for a in range(1, 7) for b in range(1, a + 1) for c in range(1, b + 1)]


def rolls_of(rules) -> list[tuple[int, ...]]:
    """The throws a game's answers are stored for: :data:`ROLLS`, or :data:`THROWS`."""
    return THROWS if rules.game_type.dice == 3 else ROLLS

#: The answers to every roll of each position: ``[set of results] * 21`` a position.
Answers = Callable[[list[Position]], list[list[set]]]
#: One question: the results of the plays of ``dice`` in ``position``.
Results = Callable[[Position, tuple[int, ...]], Iterable[Any]]


def writing() -> bool:
    """Whether this run writes the stored answers again (``make answers``)."""
    return os.environ.get("GAMMON_WRITE_ANSWERS") == "1"


def each_position(results: Results, rolls: list[tuple[int, ...]] = ROLLS) -> Answers:
    """An :data:`Answers` that asks ``results`` one position-roll at a time."""
    return lambda positions: [[set(results(p, dice)) for dice in rolls] for p in positions]


def _text(item: Any) -> str:
    if isinstance(item, bytes):
        return item.hex()
    if isinstance(item, tuple):
        return ":".join(_text(part) for part in item)
    if isinstance(item, int):
        return str(item)
    raise TypeError(f"a stored answer holds bytes, ints and tuples of them, not {item!r}")


def digest(answers: list[set]) -> str:
    """A digest of one position's answers (64 bits: the odds of a false match are nil)."""
    text = "|".join(",".join(sorted(_text(item) for item in results)) for results in answers)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _line(position: Position, answer: str) -> str:
    board = base64.b64encode(position.board).decode()
    pins = base64.b64encode(position.pins).decode() or "-"
    return f"{board} {position.turn} {pins} {answer}"


def _parse(line: str) -> tuple[Position, str]:
    board, turn, pins, answer = line.split()
    return Position(base64.b64decode(board), 2, int(turn),
                    b"" if pins == "-" else base64.b64decode(pins)), answer


def stored(name: str) -> list[tuple[Position, str]]:
    """The positions of ``name`` with the digests of their stored answers."""
    path = STORE / f"{name}.txt"
    if not path.exists():
        pytest.fail(f"{path} is missing: `make answers` writes it")
    return [_parse(line) for line in path.read_text().splitlines()
            if line and not line.startswith("#")]


def write(name: str, about: str, positions: list[Position], answers: Answers,
          rolls: int = 21) -> None:
    STORE.mkdir(parents=True, exist_ok=True)
    lines = [f"# {about}",
             f"# base64 board, turn, base64 pins (- for none), digest of {rolls} rolls"]
    lines += [_line(p, digest(a)) for p, a in zip(positions, answers(positions), strict=True)]
    (STORE / f"{name}.txt").write_text("\n".join(lines) + "\n")


def check(name: str, engine: Results, oracle: Answers, *, afresh: bool = False,
          questions: Callable[[], list[Position]] | None = None,
          about: str = "", rolls: list[tuple[int, ...]] = ROLLS) -> list[Position]:
    """Check the engine's plays of every roll of ``name``'s stored positions against the
    stored answers; with ``afresh``, also that ``oracle`` still gives them. Returns the
    positions checked.

    ``engine(position, dice)`` lists the results of the plays (each must be listed once);
    ``oracle`` answers a list of positions; ``questions`` makes the positions anew when
    the answers are written again; ``rolls`` the throws asked (:func:`rolls_of`)."""
    if writing() and afresh:
        if questions is None:
            raise ValueError(f"{name}: no questions to write answers for")
        write(name, about or name, questions(), oracle, len(rolls))
    pairs = stored(name)
    positions = [position for position, _ in pairs]
    if afresh:
        fresh = [digest(a) for a in oracle(positions)]
        changed = [p for (p, answer), new in zip(pairs, fresh, strict=True) if new != answer]
        assert not changed, (
            f"{name}: the oracle no longer gives the stored answers for {len(changed)} of "
            f"{len(pairs)} positions, the first {changed[0]!r}; if it was meant to change, "
            f"`make answers`")
    for position, answer in pairs:
        plays = [list(engine(position, dice)) for dice in rolls]
        for dice, results in zip(rolls, plays, strict=True):
            assert len(results) == len(set(results)), (
                f"{name}: {position!r} dice {dice}: a result is listed twice")
        if digest([set(results) for results in plays]) != answer:
            pytest.fail(f"{name}: {position!r}: "
                        f"{_difference(position, plays, oracle, rolls)}")
    return positions


#: A test's two runs: against the stored answers (make test), and asking afresh (make long).
AFRESH = pytest.mark.parametrize(
    "afresh", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["stored", "asked_afresh"])


def name_of(game: str, options: dict[str, Any]) -> str:
    """The stored answers' name for ``game`` under ``options``."""
    return game + "".join(f"-{key}={value}" for key, value in sorted(options.items()))


def boards(rules) -> Results:
    """The boards the plays of ``rules`` lead to: what most games' answers hold."""
    return lambda position, dice: [
        play.result.board for play in rules.state(position, dice).legal_actions()]


def agree(name: str, rules, oracle: Results, *, afresh: bool,
          questions: Callable[[], list[Position]], about: str,
          engine: Results | None = None) -> int:
    """:func:`check` for an oracle asked one position-roll at a time, the engine's
    answers the boards of its plays unless ``engine`` says otherwise; the position-rolls
    checked."""
    rolls = rolls_of(rules)
    positions = check(name, engine or boards(rules), each_position(oracle, rolls),
                      afresh=afresh, questions=questions, about=about, rolls=rolls)
    return len(positions) * len(rolls)


def agree_on_random_games(name: str, rules, oracle: Results, *, afresh: bool, count: int,
                          seed: int, hand_made: list[Position],
                          engine: Results | None = None) -> int:
    """:func:`agree` on ``count`` positions of seeded random games of ``rules`` and the
    ``hand_made`` ones."""
    return agree(name, rules, oracle, afresh=afresh, engine=engine,
                 questions=lambda: oracle_module.random_game_positions(rules, count, seed=seed)
                 + hand_made,
                 about=f"{name}: {count} positions of random games (seed {seed}) and the "
                       "hand-made ones")


def _difference(position: Position, plays: list[list], oracle: Answers,
                rolls: list[tuple[int, ...]]) -> str:
    """Which rolls of ``position`` the engine answers other than the oracle does now."""
    lines = []
    for dice, results, expected in zip(rolls, plays, oracle([position])[0], strict=True):
        got = set(results)
        if got != expected:
            lines.append(f"dice {'-'.join(map(str, dice))}: the engine has {len(got)} plays, the "
                         f"oracle {len(expected)}; the engine lacks "
                         f"{sorted(map(_text, expected - got))[:4]}, has extra "
                         f"{sorted(map(_text, got - expected))[:4]}")
    return "\n".join(lines) or (
        "the engine and the oracle agree here, but not with the stored answer: the store "
        "is stale (`make answers` writes it again from the oracle)")
