"""The engine's legal plays are GNU Backgammon's, roll for roll.

For every position in the samples below and every one of the 21 rolls, the set of boards
the engine's legal plays lead to (``variant.state(position, dice).legal_actions()``) must
equal the set gnubg lists with ``hint`` at 0-ply (every legal play, one per resulting
position), with no difference allowed. Where gnubg is asked afresh, the oracle
(:mod:`oracle`) is held to the same answers, so a difference says which of the three
disagrees.

Samples (seeded, so every run asks the same questions):

* backgammon: 160 positions from random games, picked on purpose to include the player
  on turn with checkers on the bar, bearing off (some with the opponent still in contact,
  some with the last few checkers) and the rest of play, plus hand-made positions for the
  rules that are easy to get wrong (the larger die when only one can be played, bearing
  off with a larger die, doubles partly played, entering against closed points, hitting
  and going on with the same checker, the last checker off before the dice are used);
* nackgammon: 30 positions; hypergammon with 1, 2 and 3 checkers: 20 positions each.

gnubg's hypergammon variations evaluate with hypergammon databases that Debian's package
lacks (``hint`` then comes back empty, with "BearoffEval: assertion 'pbc' failed"). Its
move generator is the same for every variation, so when a probe shows that, hypergammon
positions are asked under ``set variation standard``.

gnubg's answers to the 5,502 queries are stored in tests/data/answers (see :mod:`answers`):
``make test`` checks the engine against them. ``make long`` asks gnubg afresh (split over
two gnubg processes side by side; gnubg spends about 10 ms of wall time on each ``hint``,
whatever the position, so some 30 s) and checks that its answers, and the oracle's, are
the ones stored. That needs ``/usr/games/gnubg`` (``apt-get install gnubg``; ``make test``
installs it). Run: ``.venv/bin/pytest tests/test_gnubg_legal.py`` (``-m slow`` to ask gnubg).
"""

from __future__ import annotations

import random

import answers
import gnubg_runner
import oracle
import pytest

import gammon

SEED = 20240611
PROCESSES = 2  # the CI machine has two cores

#: Positions from random games per variant.
SAMPLES = {
    "backgammon": 160,
    "nackgammon": 30,
    "hypergammon-1": 20,
    "hypergammon-2": 20,
    "hypergammon-3": 20,
}


# --- The samples -------------------------------------------------------------------------


def contact_in_home(position) -> bool:
    """The opponent still has a checker on the bar or in the home board of the player on
    turn (their points 19..24)."""
    theirs = position.row(1 - position.turn)
    return any(theirs[19:26])


def sample(name: str, count: int) -> list[gammon.Position]:
    """``count`` positions of random games, about 30% with the player on turn on the bar,
    30% bearing off and the rest other play."""
    variant = gammon.variant(name)
    pool = oracle.random_game_positions(variant, 25 * count, seed=SEED, steps=60_000)
    rng = random.Random(SEED)
    bar = [p for p in pool if oracle.on_bar(p)]
    bearoff = [p for p in pool if oracle.bearing_off(p)]
    ending = [p for p in bearoff if p.on_board(p.turn) <= 3]
    contact = [p for p in bearoff if contact_in_home(p) and p.on_board(p.turn) > 3]
    others = [p for p in pool if not oracle.on_bar(p) and not oracle.bearing_off(p)]

    chosen: dict[tuple[bytes, int], gammon.Position] = {}

    def take(group: list[gammon.Position], wanted: int) -> None:
        group = [p for p in group if (p.board, p.turn) not in chosen]
        for p in rng.sample(group, min(wanted, len(group))):
            chosen[(p.board, p.turn)] = p

    take(pool[:1], 1)  # the opening position
    take(bar, count * 3 // 10)
    take(ending, count // 10)
    take(contact, count // 10)
    take(bearoff, max(0, count * 3 // 10 - sum(map(oracle.bearing_off, chosen.values()))))
    take(others, count - len(chosen))
    take(pool, count - len(chosen))  # small pools (hypergammon-1)
    return list(chosen.values())


def make(mine: dict[int, int], theirs: dict[int, int]) -> gammon.Position:
    """Player 0 (``mine``) to move in backgammon; checkers not placed are off."""
    rows = []
    for layout in (mine, theirs):
        row = [0] * 26
        for slot, count in layout.items():
            row[slot] += count
        row[0] = 15 - sum(row)
        rows.append(row)
    return gammon.Position.from_checkers(rows, turn=0)


HOME_CLOSED_BUT_6 = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2}
#: Hand-made backgammon positions (player 0's own numbering), each asked with all rolls.
HAND_MADE = [
    make({20: 1, 1: 14}, {16: 2}),  # 6-5: either die alone, never both: the 6
    make({20: 1, 1: 14}, {16: 2, 11: 2}),  # 6-5: only the 5 moves
    make({5: 1, 2: 1}, {6: 2}),  # larger dice bear off from the highest point only
    make({8: 1, 1: 14}, {6: 2}),  # bear off only once the 8 is home
    make({25: 1, 1: 14}, {1: 2, 2: 2, 3: 2, 5: 2, 6: 2, 12: 2}),  # 4-4 enters, stops at 17
    make({25: 2, 6: 13}, HOME_CLOSED_BUT_6),  # two to enter, only the 6 gets in
    make({25: 2, 6: 13}, {**HOME_CLOSED_BUT_6, 6: 2}),  # a closed board: no play at all
    make({25: 1, 6: 14}, HOME_CLOSED_BUT_6),  # enter with the 6, then go on
    make({13: 1, 6: 14}, {15: 1, 24: 2}),  # hit on the 10 point and go on
    make({2: 1}, {6: 2}),  # the last checker off with one die
    make({4: 1, 1: 1}, {6: 2}),  # the last two checkers
    make({6: 3, 5: 3, 4: 2, 2: 3, 1: 2}, {22: 1, 25: 1, 13: 13}),  # bear-off with contact
]


def questions(name: str) -> list[gammon.Position]:
    """The positions asked of gnubg in ``name`` (every roll of each)."""
    hand_made = HAND_MADE if name == "backgammon" else []
    return hand_made + [p for p in sample(name, SAMPLES[name]) if p not in hand_made]


# --- Asking gnubg ------------------------------------------------------------------------


def variations() -> dict[str, str]:
    """gnubg's variation for each variant: its own, unless gnubg answers nothing there."""
    chosen = dict(gnubg_runner.VARIATIONS)
    probes = [n for n in chosen if n.startswith("hypergammon")]
    jobs = [
        {
            "board": gnubg_runner.to_gnubg(gammon.variant(n).start_position()),
            "dice": [2, 1],
            "variation": chosen[n],
        }
        for n in probes
    ]
    answers, _ = gnubg_runner.gnubg_legal_plays(jobs, processes=1)
    for name, answer in zip(probes, answers, strict=True):
        if not answer.get("plays"):
            chosen[name] = "standard"  # no hypergammon databases: same moves, standard rules
    return chosen


def asking_gnubg(name: str):
    """The :data:`answers.Answers` of gnubg (``hint`` at 0-ply) for variant ``name``."""
    def ask(positions: list[gammon.Position]) -> list[list[set]]:
        gnubg_runner.require_gnubg()
        variation = variations()[name]
        jobs = [{"board": gnubg_runner.to_gnubg(p), "dice": list(dice), "variation": variation}
                for p in positions for dice in answers.ROLLS]
        results, seconds = gnubg_runner.gnubg_legal_plays(jobs, processes=PROCESSES,
                                                          timeout=150)
        print(f"\ngnubg answered {len(jobs)} queries in {seconds:.1f} s")
        found = []
        for index, position in enumerate(positions):
            rolls = results[index * len(answers.ROLLS):(index + 1) * len(answers.ROLLS)]
            found.append([boards(position, dice, answer)
                          for dice, answer in zip(answers.ROLLS, rolls, strict=True)])
        return found
    return ask


def boards(position: gammon.Position, dice, answer: dict) -> set[bytes]:
    """The boards of gnubg's plays in ``answer``, each play leading to a board of its own."""
    where = f"{position!r} dice {dice[0]}-{dice[1]}"
    if "error" in answer:
        raise AssertionError(f"{where}: gnubg failed: {answer['error']}")
    moves: dict[bytes, str] = {}
    for play in answer["plays"]:
        board = gnubg_runner.from_gnubg(play["board"], position)
        assert board not in moves, (
            f"{where}: gnubg's {play['move']} and {moves[board]} lead to one board")
        moves[board] = play["move"]
    return set(moves) or {position.board}  # no legal play: the board stays as it is


def engine_results(name: str):
    variant = gammon.variant(name)
    return lambda position, dice: [
        play.result.board for play in variant.state(position, dice).legal_actions()]


def check(name: str, afresh: bool) -> list[gammon.Position]:
    """The engine's plays of every stored position of ``name`` against gnubg's stored
    answers; ``afresh``: gnubg is asked again, and the oracle held to its answers too."""
    asked = answers.check(
        f"gnubg-{name}", engine_results(name),
        asking_gnubg(name) if afresh else answers.each_position(oracle.legal_results),
        afresh=afresh, questions=lambda: questions(name),
        about=f"{name}: gnubg's legal plays (hint at 0-ply), seed {SEED}")
    if afresh:
        answers.check(f"gnubg-{name}", oracle.legal_results,
                      answers.each_position(oracle.legal_results))
    return asked


# --- The tests ---------------------------------------------------------------------------

AFRESH = [False, pytest.param(True, marks=[pytest.mark.slow, pytest.mark.gnubg])]


def test_samples_cover_the_hard_cases():
    """The backgammon sample has enough positions on the bar and in the bear-off."""
    positions = [p for p, _ in answers.stored("gnubg-backgammon") if p not in HAND_MADE]
    assert len(positions) == SAMPLES["backgammon"] >= 150
    assert sum(oracle.on_bar(p) for p in positions) >= 40
    assert sum(oracle.bearing_off(p) for p in positions) >= 40
    assert sum(oracle.bearing_off(p) and contact_in_home(p) for p in positions) >= 10
    assert sum(oracle.bearing_off(p) and p.on_board(p.turn) <= 3 for p in positions) >= 10


def test_hand_made_positions_are_asked():
    stored = [p for p, _ in answers.stored("gnubg-backgammon")]
    assert stored[:len(HAND_MADE)] == HAND_MADE


@pytest.mark.parametrize("afresh", AFRESH, ids=["stored", "asked_afresh"])
@pytest.mark.parametrize("name", SAMPLES)
def test_positions_match_gnubg(name, afresh):
    asked = check(name, afresh)
    assert len(asked) == SAMPLES[name] + (len(HAND_MADE) if name == "backgammon" else 0)
