"""The benchmark's positions rated by gnubg's rollouts (benchmarks/rollout_positions.py),
with very few, short rollouts through the real gnubg: a play rated best by mistake falls
behind the one the rollout finds better, each row says how it was rated, a dead cube is
left alone, and the journal resumes without rolling a position out twice."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from gnubg_runner import require_gnubg

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
pytestmark = pytest.mark.gnubg

# Tiny settings: the point is the mechanism, not the figures.
QUICK = ["--trials", "6", "--plies", "0", "--truncation", "2", "--at", "0", "--jobs", "1"]

# A bearoff (gnubg's bearoff databases give its rollout nearly exactly) rated wrongly on
# purpose: the play that leaves a checker more is put first.
BEAROFF = {"position": "994CQADvPAAAAA", "dice": [3, 2], "source": "test",
           "plays": [["4/2 4/1", 0.999], ["4/1 2/off", 0.5]], "rated": {"plies": 3, "deep": 2}}
CONTACT = {"position": "0OfBAQMzbsEBKA", "dice": [6, 4], "source": "test",
           "plays": [["24/20*/14", 0.29208], ["24/20* 13/7", 0.25668],
                     ["24/20* 8/2", 0.17083], ["24/20* 7/1", 0.01038]],
           "rated": {"plies": 3, "deep": 4}}
MONEY = {"position": "jM+YAQxjziMBEQ", "source": "test", "match": None,
         "decision": "No double, take", "equities": [0.11311, -0.16178, 1.0],
         "rated": {"plies": 3}}
DEAD = {"position": "pp0NEwBvdAfAAA", "source": "test",
        "match": {"length": 3, "score": [2, 1], "crawford": False, "cube": 1, "owner": -1},
        "decision": "Never double, take (dead cube)", "equities": [-0.88141, -0.96214, 1.0],
        "rated": {"plies": 3}}


def _write(folder: Path, kind: str, rows: list[dict]) -> None:
    (folder / f"{kind}.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))


def _read(folder: Path, kind: str) -> list[dict]:
    return [json.loads(line) for line in (folder / f"{kind}.jsonl").read_text().splitlines()]


def test_rollouts_rate_the_candidates_and_the_journal_resumes(tmp_path, capsys):
    require_gnubg()
    import rollout_positions

    _write(tmp_path, "checker", [BEAROFF, CONTACT])
    _write(tmp_path, "cube", [MONEY, DEAD])
    common = [*QUICK, "--positions", str(tmp_path), "--journal", str(tmp_path / "journal")]

    # The checker positions first: rolled out, journaled, written back.
    assert rollout_positions.main([*common, "--sets", "checker"]) == 0
    assert "0 rated before, 2 to rate" in capsys.readouterr().err
    bearoff, contact = _read(tmp_path, "checker")
    assert [text for text, _ in bearoff["plays"]] == ["4/1 2/off", "4/2 4/1"]
    assert bearoff["plays"][0][1] == pytest.approx(0.98973, abs=0.002)
    assert len(bearoff["se"]) == 2 and max(bearoff["se"]) < 0.001  # nearly exact
    settings = bearoff["rated"]["rollout"]
    assert settings["trials"] == 6 and settings["plies"] == 0 and settings["truncation"] == 2
    assert bearoff["rated"]["rest"] == {"plies": 3, "deep": 2}

    # Within 0.08 of the best: the first two plays, rolled out on the same seed; the
    # others keep their 3-ply values moved by the mean change of those two.
    rated = contact["rated"]
    assert rated["deep"] == 2 and len(contact["se"]) == 2 and all(s > 0 for s in contact["se"])
    deep = dict(contact["plays"][:2])
    assert set(deep) == {"24/20*/14", "24/20* 13/7"}
    assert contact["plays"][0][1] >= contact["plays"][1][1]
    before = dict(CONTACT["plays"])
    shift = sum(deep[text] - before[text] for text in deep) / 2
    assert rated["shift"] == pytest.approx(shift, abs=2e-5)
    assert dict(contact["plays"][2:]) == pytest.approx(
        {text: before[text] + shift for text in ("24/20* 8/2", "24/20* 7/1")}, abs=2e-5)

    # Then the cube too, with the same command: the journal's checker positions are not
    # rolled out again; the dead cube is left as it was.
    journal = next((tmp_path / "journal").iterdir())
    lines = journal.read_text().splitlines()
    assert len(lines) == 2
    assert rollout_positions.main([*common, "--sets", "checker,cube"]) == 0
    assert "2 rated before, 1 to rate" in capsys.readouterr().err
    assert journal.read_text().splitlines()[:2] == lines
    money, dead = _read(tmp_path, "cube")
    assert dead == DEAD
    assert money["rated"]["rollout"] == settings and len(money["se"]) == 2
    assert money["equities"][2] == 1.0 and money["decision"].lower().startswith(
        ("no double", "double", "too good", "optional"))
    assert _read(tmp_path, "checker") == [bearoff, contact]
    assert rollout_positions.main([*common, "--sets", "checker,cube"]) == 0
    assert "0 to rate" in capsys.readouterr().err

    # The error rates name their reference as the rows record it.
    import error_rate

    assert error_rate.main(["--positions", str(tmp_path), "--agents", "pubeval",
                            "--jobs", "1", "--json", str(tmp_path / "rates.json")]) == 0
    said = capsys.readouterr().out
    assert "checker: gnubg rollouts (cubeless, 6 trials, 0-ply checker play" in said
    assert "cube: gnubg rollouts (cubeful" in said and "1 at gnubg 3-ply (1 with a dead" in said
    (figures,) = json.loads((tmp_path / "rates.json").read_text())
    assert figures["reference"]["checker"].startswith("gnubg rollouts")
    # Each position's loss, in order, for paired comparisons (judge_network.py).
    assert len(figures["checker_losses"]) == 2 and min(figures["checker_losses"]) >= 0.0
    assert figures["checker_error"] == pytest.approx(
        1000 * sum(figures["checker_losses"]) / 2, abs=1e-3)


def test_so_far_writes_the_rolled_out_positions_beside_their_earlier_rows(tmp_path):
    """A run part way: the positions rolled out so far, and the same positions as the
    benchmark has them, rated by nothing new (no gnubg is asked)."""
    import rollout_positions

    _write(tmp_path, "checker", [BEAROFF, CONTACT])
    _write(tmp_path, "cube", [MONEY])
    rolled = {**CONTACT, "plays": CONTACT["plays"][::-1], "rated": {"rollout": {}}}
    journal = tmp_path / "journal" / "rollout-t6-p0-trunc2-at0-w0.08-m5-seed1.jsonl"
    journal.parent.mkdir()
    journal.write_text(json.dumps({"kind": "checker", "index": 1, "row": rolled}) + "\n")
    assert rollout_positions.main([*QUICK, "--positions", str(tmp_path), "--journal",
                                   str(tmp_path / "journal"),
                                   "--so-far", str(tmp_path / "so-far")]) == 0
    assert _read(tmp_path / "so-far" / "rolled", "checker") == [rolled]
    assert _read(tmp_path / "so-far" / "before", "checker") == [CONTACT]
    assert _read(tmp_path / "so-far" / "rolled", "cube") == []
    assert _read(tmp_path, "checker") == [BEAROFF, CONTACT]  # the benchmark untouched


def test_a_paired_difference_takes_out_what_both_agents_share():
    from error_rate import paired_difference

    hard = [0.010, 0.0, 0.030, 0.0]  # positions differ much; the agents by 1 thousandth
    mean, half = paired_difference([loss + 0.001 for loss in hard], hard)
    assert mean == pytest.approx(1.0) and half == pytest.approx(0.0, abs=1e-9)
    mean, half = paired_difference([0.002, 0.0], [0.0, 0.0])
    assert mean == pytest.approx(1.0) and half > 1.0


def test_a_pair_of_agents_not_measured_is_refused_before_any_work(capsys):
    import error_rate

    with pytest.raises(SystemExit):
        error_rate.main(["--agents", "pubeval", "--paired", "pubeval/gnubg:2"])
    assert "pairs A/B of the agents measured (pubeval)" in capsys.readouterr().err
