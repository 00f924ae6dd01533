"""gnubg's SGF match files, read and written (issue 31), checked both ways with gnubg."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gnubg_runner import require_gnubg, run_gnubg
from test_mat import DRIVER, bots_match, from_gnubg, positions, resigned
from typer.testing import CliRunner

from gammon.cli.main import app
from gammon.core.errors import InvalidNotationError
from gammon.notation.mat import replay_match
from gammon.notation.sgf import gnubg_statistics, point, read_sgf, square, write_sgf

SAMPLE = """(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:3][game:0][ws:0][bs:0]
PW[alice]PB[bob]RU[Crawford]RE[W+2R]GS[D:0 0 0 0 0 0 0 0 0 0 0.5 0.1 -0.25 -0.05]
;B[21lnab]A[0][lnab E ver 3 0.49 0.13 0.007 0.14 0.006 -0.009 0C 0 1 0.0 1]LU[-0.01]
;W[52mhxv]
;B[double]
;W[take])
"""


def test_every_square_is_a_letter_of_the_board_whoever_moves():
    """a..x are White's points 1-24 and Black's 24-1; y the bar; z off."""
    assert [square(p, 0) for p in (1, 24, 25, 0)] == ["a", "x", "y", "z"]
    assert [square(p, 1) for p in (1, 24, 25, 0)] == ["x", "a", "y", "z"]
    for player in (0, 1):
        for p in range(26):
            assert point(square(p, player), player) == p
    with pytest.raises(InvalidNotationError, match="not a square"):
        point("!", 0)


def test_a_file_is_read_with_what_gnubg_wrote_beside_the_moves():
    sgf = read_sgf(SAMPLE)
    match = sgf.match
    assert match.length == 3 and match.names == ("alice", "bob")
    (game,) = match.games
    assert game.score == (0, 0) and game.winner == 0 and game.points == 2
    first, second, double, take = game.turns
    assert (first.player, first.dice, first.moves) == (1, (2, 1), [(13, 11), (24, 23)])
    assert (second.player, second.moves) == (0, [(13, 8), (24, 22)])
    assert (double.cube, take.cube) == ("double", "take")
    assert sgf.nodes[0][0]["LU"] == ["-0.01"] and sgf.nodes[0][0]["A"][0] == "0"
    assert gnubg_statistics(sgf) == [
        {"unforced": 0.0, "checker_error": 0.0, "cube_error": 0.0, "luck": 0.5},
        {"unforced": 0.0, "checker_error": 0.0, "cube_error": 0.0, "luck": -0.25}]
    # Played to its resignation: after the take a single game at cube 2, 2 points.
    (record,) = replay_match(match)
    assert record.state.is_terminal and record.state.returns() == (2.0, -2.0)


@pytest.mark.parametrize(("text", "why"), [
    ("(;GM[6];B[21lnab]", "ends inside a game tree"),
    ("(;GM[1];B[aa])", "not backgammon"),
    ("(;GM[6];B[7aab])", "not a roll"),
    ("(;GM[6];B[21lna])", "two letters"),
    ("(;GM[6]B)", "no value"),
    ("", "no game"),
])
def test_bad_files_say_what_is_wrong(text, why):
    with pytest.raises(InvalidNotationError, match=why):
        read_sgf(text)


@pytest.mark.gnubg
def test_gnubg_loads_our_sgf_as_we_played_it(tmp_path):
    """Ten matches of our bots, cube actions and resignations among them, written as SGF:
    gnubg loads each with the same moves, results and names."""
    require_gnubg()
    jobs, ours = [], []
    for k in range(10):
        seats = ("heuristic", "expectimax:1") if k % 2 else ("random", "heuristic")
        games = list(bots_match(3 + 2 * (k % 2), 300 + k, seats).series.games)
        if k < 2:  # a resigned game: the match file then holds only it
            games = [resigned(games[0], 1, 12)]
        path = tmp_path / f"ours{k}.sgf"
        path.write_text(write_sgf(3 + 2 * (k % 2), [f"{seats[0]} <1>", seats[1]], games))
        jobs.append({"load": str(path)})
        ours.append((seats, games))
    results, _ = run_gnubg(DRIVER, jobs, processes=2)
    for (seats, games), result in zip(ours, results, strict=True):
        assert "error" not in result, result
        assert result["names"] == [f"{seats[0]} <1>", seats[1]]
        seen = replay_match(from_gnubg(result))
        assert positions(seen) == positions(games)
        assert [r.state.returns() for r in seen] == [r.state.returns() for r in games]


@pytest.mark.gnubg
def test_we_read_gnubgs_analysed_sgf_and_keep_its_analysis(tmp_path):
    """gnubg plays matches against itself, analyses and saves them as SGF: we play the
    same games (resignations included), keep its analysis, and `gammon analyze` shows
    gnubg's figures beside ours."""
    require_gnubg()
    jobs = [{"play": 5, "seed": 500 + k, "save": str(tmp_path / f"g{k}.sgf")}
            for k in range(4)]
    results, _ = run_gnubg(DRIVER, jobs, processes=2)
    kept = 0
    for job, result in zip(jobs, results, strict=True):
        assert "error" not in result, result
        sgf = read_sgf(Path(job["save"]).read_text())
        ours = replay_match(sgf.match)
        theirs = replay_match(from_gnubg(result))
        assert positions(ours) == positions(theirs)
        assert [r.state.returns() for r in ours] == [r.state.returns() for r in theirs]
        kept += sum(1 for game in sgf.nodes for node in game if "A" in node)
        stats = gnubg_statistics(sgf)
        assert stats is not None and stats[0]["unforced"] > 0
    assert kept > 0
    # The luck of each roll: ours and gnubg's (its LU on the move's node) go the same
    # way wherever gnubg calls the roll lucky or unlucky by a tenth of a point or more.
    from gammon.analysis.cli import network_evaluator
    from gammon.analysis.review import review
    from gammon.core.variant import track_variant

    evaluator = network_evaluator(track_variant("backgammon"), None)
    same = judged = 0
    for job in jobs:
        sgf = read_sgf(Path(job["save"]).read_text())
        reviewed = review(replay_match(sgf.match), evaluator, ["X", "O"], plies=0)
        for number, (game, nodes) in enumerate(zip(sgf.match.games, sgf.nodes,
                                                   strict=True), 1):
            theirs = [float(node["LU"][0]) for turn, node in zip(game.turns, nodes,
                                                                  strict=True)
                      if turn.dice is not None and "LU" in node][1:]  # not the opening
            ours = [roll.luck for roll in reviewed.luck if roll.game == number]
            assert len(ours) == len(theirs)
            for mine, gnubgs in zip(ours, theirs, strict=True):
                if abs(gnubgs) >= 0.1:
                    judged += 1
                    same += (mine > 0) == (gnubgs > 0)
    print(f"luck of the same sign on {same} of {judged} rolls")
    assert judged > 50 and same >= 0.95 * judged
    result = CliRunner().invoke(app, ["analyze", jobs[0]["save"], "--plies", "0",
                                      "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["gnubg"][0]["unforced"] > 0 and len(data["summary"]) == 2


def test_gammon_play_saves_sgf(tmp_path):
    path = tmp_path / "m.sgf"
    result = CliRunner().invoke(app, ["play", "backgammon", "--seats", "random,random",
                                      "--match", "3", "--seed", "2", "--save", str(path)])
    assert result.exit_code == 0, result.output
    sgf = read_sgf(path.read_text())
    assert sgf.match.length == 3 and sgf.match.names == ("random (seat 1)",
                                                         "random (seat 2)")
    assert all(r.state.is_terminal for r in replay_match(sgf.match))
    result = CliRunner().invoke(app, ["play", "long-nardy", "--save", str(tmp_path / "n.sgf")])
    assert result.exit_code == 2 and "save long-nardy as .json" in result.output
