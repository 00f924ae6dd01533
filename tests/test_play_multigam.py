"""Multi-Gam at the terminal and on the command line, four seats, as a person uses them."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys

import pytest
from scripted import console, script
from typer.testing import CliRunner

import gammon
from gammon.cli.main import app
from gammon.cli.play import move_text_for, run_game
from gammon.core.errors import InvalidOptionError
from gammon.notation import parse_position
from gammon.render.quarter import quarter_text

MG = gammon.variant("multi-gam")
runner = CliRunner()


def opening(seed: int):
    """The state after the opening that ``run_game`` throws with ``seed``."""
    rng = random.Random(seed)
    state, throws = MG.initial_state(), 0
    while state.is_chance and state.opening:
        state = state.apply(state.sample_chance(rng))
        throws += 1
    return state, throws


def record_lines(out: str) -> list[str]:
    return out.split("Game record", 1)[1].strip("─ \n").splitlines()


def test_four_random_seats_play_to_the_end_and_rank():
    out_console = console()
    result = run_game(MG, ["random"] * 4, 3, out_console)
    out = out_console.export_text()
    assert result.finished and result.state.is_terminal
    assert sorted(result.ranking) == [0, 1, 2, 3] and result.winner == result.ranking[0]
    assert result.points == 5
    said = " ".join(out.split())
    assert "Opening roll: random (seat 1) throws" in said and "goes first with" in said
    for place, points in zip(("1st", "2nd", "3rd", "4th"), (5, 3, 2, 1), strict=True):
        assert re.search(rf"[XOYZ] random \(seat \d\) {place}: {points} points?", out)
    assert out.count("bears off the last checker and finishes") == 3
    # The record: the opening, then one line per play; finished players never play.
    lines = record_lines(out)
    assert lines[0].strip().startswith("opening  X:")
    assert len(lines) == len(result.turns) + 1
    # Turns pass clockwise to the next player who has not finished: a ranked player
    # has finished after their last play.
    last = {turn.player: i for i, turn in enumerate(result.turns)}
    ranked = set(result.ranking[:3])
    for i in range(1, len(result.turns)):
        q = result.turns[i - 1].player
        while True:
            q = (q + 1) % 4
            if not (q in ranked and last[q] < i):
                break
        assert result.turns[i].player == q
    assert sorted(result.ranking[:3], key=last.__getitem__) == list(result.ranking[:3])


def test_same_seed_same_game_and_opening_in_the_record():
    runs = []
    for _ in range(2):
        out_console = console()
        result = run_game("multi-gam", ["random"] * 4, 11, out_console)
        runs.append((result.turns, record_lines(out_console.export_text())[0]))
    assert runs[0] == runs[1]


def test_tied_opening_names_who_throws_again():
    seed = next(s for s in range(500) if opening(s)[1] > 1)
    state, _ = opening(seed)
    out_console = console()
    run_game(MG, ["random"] * 4, seed, out_console)
    out = out_console.export_text()
    said = " ".join(out.split())
    assert re.search(r"a tie for the highest: random \(seat \d\) and random \(seat \d\) "
                     r"throw again", said)
    assert "Roll-off: " in said
    assert re.search(r"opening  X:\d O:\d Y:\d Z:\d, then [XOYZ]:\d", out)
    assert f"goes first with {state.dice[0]}-{state.dice[1]}" in out


def test_human_types_moves_on_the_boards_numbers():
    seed = next(s for s in range(2000) if opening(s)[0].current_player == 0
                and opening(s)[0].dice == (6, 1))
    answer, prompts = script([
        "help",
        "?",
        "bar/5",  # not with 6-1
        "resign",  # not with four players
        "bar/6",  # half of the snipe ...
        "undo",
        "bar/6",
        "6/off",  # ... completes it
        "",
    ])
    out_console = console()
    result = run_game(MG, ["human", "random", "random", "random"], seed, out_console, answer)
    out = out_console.export_text()
    assert prompts[0] == "you (6-1)> "
    assert "Moves use the board's numbers: the BAR is 0" in out
    assert "resign" not in out.split("Commands", 1)[1].split("this text", 1)[0]
    assert re.search(r"1\. bar/1 bar/6\s+2\. bar/off", out)
    assert "✗ bar/5 is not legal with 6-1: bar/5 is 5 pips" in out
    assert "✗ nobody wins by your resigning with more than two players" in out
    assert "Moved bar/6; still to play: 1." in out
    assert "That makes bar/off. Press Enter to play it" in out
    assert re.search(r"^\s+1\s+X you\s+61\s+bar/off$", "\n".join(record_lines(out)), re.M)
    # The board: four colours' letters, whose turn, the ranking line.
    assert "X you to play [6] [1]" in out and "▶ X you" in out
    assert "Ranking: nobody has finished yet" in out and "Ranking: 1st" in out
    assert result.finished and sorted(result.ranking) == [0, 1, 2, 3]


def test_four_humans_and_quitting():
    answer, prompts = script([], then="1")
    result = run_game(MG, ["human"] * 4, 5, console(), answer)
    assert result.finished
    assert {p.split(" (")[0] for p in prompts} == {"human 1", "human 2", "human 3", "human 4"}
    answer, _ = script(["quit"])
    out_console = console()
    result = run_game(MG, ["human", "random", "human", "random"], 5, out_console, answer)
    assert not result.finished and "Game abandoned." in out_console.export_text()


def test_seats_are_checked():
    with pytest.raises(InvalidOptionError, match="give 4 seats, not 2"):
        run_game(MG, ["human", "random"], 1, console())
    assert move_text_for(MG).example == "bar/3 2/6"
    assert move_text_for(gammon.variant("backgammon")).example == "13/11 6/5"


def test_quarter_board_shows_colours_turn_and_ranking():
    position = parse_position(MG, "01237/77777/00055/44444:0")
    state = MG.state(position, (6, 1), ranking=(1,))
    text = quarter_text(state, names=["you", "O", "Y", "Z"], scores=(5, 3, 2, 1))
    lines = text.splitlines()
    assert lines[0].split() == ["BAR", "1", "2", "3", "4", "5", "6", "OFF"]
    assert "X you to play [6] [1]" in lines[1]
    assert "1st place, 5 points" in text and "Ranking: 1st O O" in text
    bottom = lines[6]
    assert re.search(r"│ X   X   X   Z   Y   ·\s+│", bottom)
    assert "│ X 1  │" in lines[2] and "│ Y 3  │" in lines[3]
    bots = quarter_text(state, names=["you"] + [f"rollout (seat {p})" for p in (2, 3, 4)])
    assert all(f"rollout {p}" in bots for p in (2, 3, 4))  # the panel keeps them apart


# --- the command line ----------------------------------------------------------------------


def test_cli_play_four_seats():
    result = runner.invoke(app, ["play", "multi-gam", "--seats", "human,random,random,random",
                                 "--seed", "1"], input="1\n" * 40)
    assert result.exit_code == 0, result.output
    assert "Final ranking" in result.output and "Game record" in result.output
    result = runner.invoke(app, ["play", "multi-gam", "--seats", "human,random"])
    assert result.exit_code == 2 and "multi-gam has 4 seats; --seats gave 2" in result.output


def test_a_person_plays_a_whole_game_against_the_default_bots_from_the_command_line():
    """`gammon play multi-gam` as a person starts it (issue 49): three of the default
    bot, every play the first listed, to the final ranking."""
    result = runner.invoke(app, ["play", "multi-gam", "--seed", "3"], input="1\n" * 200)
    assert result.exit_code == 0, result.output
    assert "rollout (seat 2)" in result.output and "Final ranking" in result.output


def test_cli_legal_in_multigam_notation():
    result = runner.invoke(app, ["legal", "multi-gam", "--dice", "61", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["position_id"] == "00000/00000/00000/00000:0" and data["count"] == 2
    assert {p["move"] for p in data["plays"]} == {"bar/1 bar/6", "bar/off"}
    result = runner.invoke(app, ["legal", "multi-gam", "-p", "03777/00000/00000/00000:0",
                                 "-d", "6-1", "--json"])
    assert {p["position_id"] for p in json.loads(result.output)["plays"]} == {
        "37777/00000/00000/00000:0", "46777/00000/00000/00000:0"}
    lines = "00000/00000/00000/00000:1 33\n30000/30000/00000/00000 21\n"
    result = runner.invoke(app, ["legal", "multi-gam", "--batch", "-"], input=lines)
    out = [json.loads(line) for line in result.output.strip().splitlines()]
    assert result.exit_code == 1 and out[0]["count"] == 3 and "point 3 holds" in out[1]["error"]


def test_cli_selfplay_reports_each_seats_mean_score():
    result = runner.invoke(app, ["selfplay", "multi-gam", "--games", "2000", "--seed", "4",
                                 "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["games"] == 2000 and stats["unfinished"] == 0 and stats["games_per_second"] > 0
    seats = stats["players"]
    assert [s["player"] for s in seats] == [0, 1, 2, 3]
    assert all(sum(s["places"]) == 2000 for s in seats)
    assert sum(s["wins"] for s in seats) == 2000
    assert sum(s["mean_score"] for s in seats) == pytest.approx(11.0)
    order = stats["turn_order"]
    assert [row["after_starter"] for row in order] == [0, 1, 2, 3]
    assert sum(row["mean_score"] for row in order) == pytest.approx(11.0)
    assert stats["mean_score"] == pytest.approx(2.75)
    table = runner.invoke(app, ["selfplay", "multi-gam", "--games", "300"])
    assert table.exit_code == 0 and "mean score" in table.output
    assert "the starter's edge is" in table.output


def test_cli_selfplay_two_player_keys_unchanged():
    result = runner.invoke(app, ["selfplay", "backgammon", "--games", "50", "--json"])
    stats = json.loads(result.output)
    assert set(stats) == {"variant", "options", "games", "seed", "seconds", "games_per_second",
                          "mean_plays", "unfinished", "draws", "players"}
    assert set(stats["players"][0]) == {"player", "wins", "single", "gammons", "backgammons",
                                        "mean_points"}


@pytest.mark.heavy
def test_cli_selfplay_warm_does_not_recompile():
    env = {**os.environ, "NUMBA_DEBUG_CACHE": "1"}
    command = [sys.executable, "-m", "gammon", "selfplay", "multi-gam", "--games", "5", "--json"]
    # make test and make check run `gammon prepare` first: everything is loaded, nothing
    # compiled.
    warm = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    log = warm.stdout + warm.stderr
    assert "data loaded" in log and "saved" not in log, log
