"""Our GNU IDs and XGIDs against GNU Backgammon's own conversions.

One gnubg process handles a seeded sample of situations (tests/gnubg_scripts/ids_driver.py):
for each, gnubg reads our XGID (``set xgid``) and our GNU ID (``set gnubgid``) and reports
its ``gnubgid()``, ``board()`` and ``posinfo()``. We check that

- gnubg turns our XGID into the GNU ID we make of the same situation;
- gnubg reads our GNU ID back unchanged, with the board the way round we say (the side
  *not* on roll first in the Position ID, contrary to gnubg's manual);
- we read gnubg's answer back into the same situation.

gnubg cannot hold a double on offer: ``set xgid`` with ``D`` and ``set gnubgid`` with the
doubled bit both step back to the doubler on roll before doubling. The sample includes a
few such cases and expects exactly that.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from gnubg_runner import require_gnubg, run_gnubg

from gammon.core.position import Position
from gammon.notation import Situation

DRIVER = Path(__file__).resolve().parent / "gnubg_scripts" / "ids_driver.py"
SEED = 20240611
SAMPLE = 40

pytestmark = pytest.mark.gnubg


def random_position(rng: random.Random) -> Position:
    """15 checkers each over off, points and bar; no point held by both players."""
    while True:
        rows = [[0] * 26, [0] * 26]
        # some positions mostly borne in or off, most spread over the board
        home_bias = rng.random() < 0.3
        for _ in range(15):
            slot = rng.randint(0, 8) if home_bias else rng.randint(0, 25)
            rows[0][slot] += 1
        free = [0, 25] + [n for n in range(1, 25) if not rows[0][25 - n]]
        for _ in range(15):
            rows[1][rng.choice(free)] += 1
        if rng.random() < 0.5:
            rows.reverse()
        closed = all(row[25] for row in rows) and all(
            all(row[p] >= 2 for p in range(1, 7)) for row in rows
        )
        if not closed:
            return Position.from_checkers(rows, turn=rng.randint(0, 1))


def random_situation(rng: random.Random, double: bool = False) -> Situation:
    position = random_position(rng)
    length = rng.choice([0, 0, 0, 1, 3, 5, 7, 9, 11, 17, 25])
    if length:
        score = (rng.randint(0, length - 1), rng.randint(0, length - 1))
        if length > 1 and rng.random() < 0.3:  # put someone one away
            side = rng.randint(0, 1)
            score = (
                (length - 1, score[1] % (length - 1))
                if side == 0
                else (
                    score[0] % (length - 1),
                    length - 1,
                )
            )
        crawford = length > 1 and length - 1 in score and rng.random() < 0.5
    else:
        score = (rng.randint(0, 9), rng.randint(0, 9))
        crawford = False
    cube = 1 if crawford else 1 << rng.choice([0, 0, 1, 1, 2, 3, 6])
    owner = None if cube == 1 else rng.choice([None, 0, 1, 1, 0])
    dice = None
    if not double and rng.random() < 0.7:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    return Situation(
        position,
        dice=dice,
        cube_value=cube,
        cube_owner=owner,
        score=score,
        match_length=length,
        crawford=crawford,
        jacoby=not length and rng.random() < 0.5,
        beaver=not length and rng.random() < 0.5,
        max_cube=1 << rng.choice([10, 10, 8, 0]),
        double_offered=double,
    )


def sample() -> list[Situation]:
    rng = random.Random(SEED)
    return [random_situation(rng, double=i % 10 == 9) for i in range(SAMPLE)]


@pytest.fixture(scope="module")
def gnubg_answers() -> list[tuple[Situation, dict]]:
    require_gnubg()
    situations = sample()
    items = [{"xgid": s.xgid(), "gnubgid": s.gnubg_id()} for s in situations]
    answers, _ = run_gnubg(DRIVER, items)
    assert len(answers) == len(situations)
    return list(zip(situations, answers, strict=True))


def as_gnubg_keeps_it(s: Situation) -> Situation:
    """What gnubg holds of ``s``: no double on offer (it steps back before it)."""
    return s.replace(double_offered=False) if s.double_offered else s


def test_sample_is_varied() -> None:
    situations = sample()
    assert sum(s.money for s in situations) >= 5
    assert sum(s.crawford for s in situations) >= 2
    assert sum(s.double_offered for s in situations) >= 3
    assert sum(s.on_roll == 0 for s in situations) >= 5
    assert sum(s.position.bar(0) + s.position.bar(1) > 0 for s in situations) >= 5
    assert sum(s.cube_owner is not None for s in situations) >= 5


def test_xgid_to_gnu_id_as_gnubg(gnubg_answers) -> None:
    for s, answer in gnubg_answers:
        got = answer["xgid"]
        assert got is not None, f"gnubg refused {s.xgid()}"
        assert "error" not in got, (s.xgid(), got)
        assert got["gnubgid"] == as_gnubg_keeps_it(s).gnubg_id(), s.xgid()


def test_gnu_id_round_trip_through_gnubg(gnubg_answers) -> None:
    for s, answer in gnubg_answers:
        got = answer["gnubgid"]
        assert got is not None, f"gnubg refused {s.gnubg_id()}"
        assert "error" not in got, (s.gnubg_id(), got)
        assert got["gnubgid"] == as_gnubg_keeps_it(s).gnubg_id(), s.gnubg_id()


def test_gnubg_board_orientation(gnubg_answers) -> None:
    # gnubg's board() is (side not on roll, side on roll), each from its own side
    for s, answer in gnubg_answers:
        kept = as_gnubg_keeps_it(s)
        for got in (answer["xgid"], answer["gnubgid"]):
            pos = kept.position
            assert got["board"] == [
                list(pos.row(1 - pos.turn)[1:]),
                list(pos.row(pos.turn)[1:]),
            ], kept.gnubg_id()
            assert got["posinfo"]["turn"] == kept.turn
            assert sorted(got["posinfo"]["dice"]) == sorted(kept.dice or (0, 0))
            assert got["posinfo"]["doubled"] == 0


def test_we_read_gnubgs_answers(gnubg_answers) -> None:
    for s, answer in gnubg_answers:
        expected = as_gnubg_keeps_it(s).replace(beaver=False, max_cube=1024)
        for got in (answer["xgid"], answer["gnubgid"]):
            assert Situation.from_gnubg_id(got["gnubgid"]) == expected
