"""The gammon command as a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

import gammon
from gammon.cli.main import app
from gammon.notation import parse_position_id

runner = CliRunner()
START_ID = "4HPwATDgc/ABMA"


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def test_variants_lists_every_variant_with_options():
    result = run("variants")
    assert result.exit_code == 0
    for cls in gammon.variant_classes():
        assert cls.name in result.output
    assert "checkers_per_side" in result.output


def test_legal_json_lists_every_play_with_text_and_id():
    result = run("legal", "backgammon", "--position", START_ID, "--dice", "31", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["count"] == 16 == len(data["plays"])
    moves = {play["move"] for play in data["plays"]}
    assert "8/5 6/5" in moves and "24/20" in moves
    bg = gammon.variant("backgammon")
    expected = {p.result for p in bg.state(bg.start_position(), (3, 1)).legal_actions()}
    got = {parse_position_id(play["position_id"]) for play in data["plays"]}
    assert got == expected


def test_legal_table_and_xgid_input():
    result = run("legal", "--dice", "66")
    assert result.exit_code == 0
    assert "11 legal plays" in result.output
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
    result = run("legal", "--position", xgid, "--dice", "52", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["count"] == 8


def test_legal_batch_one_json_line_per_input_and_errors_per_line():
    lines = f"{START_ID} 31\n# a comment\n\n{START_ID} 6-6\nnot-an-id 31\n{START_ID} 71\n"
    result = run("legal", "--batch", "-", input=lines)
    assert result.exit_code == 1  # some lines failed
    out = [json.loads(line) for line in result.output.strip().splitlines()]
    assert [o.get("count") for o in out[:2]] == [16, 11]
    assert out[2]["line"] == 5 and "14 characters" in out[2]["error"]
    assert out[3]["line"] == 6 and "1 to 6" in out[3]["error"]


def test_legal_bad_input_is_explained():
    result = run("legal", "--dice", "7")
    assert result.exit_code == 2
    assert "two dice" in result.output
    result = run("legal", "nardy", "--dice", "31")
    assert result.exit_code == 2 and "unknown variant" in result.output
    result = run("legal", "--batch", "/nonexistent/file")
    assert result.exit_code == 2 and "cannot read" in result.output


def test_legal_refuses_what_it_would_otherwise_ignore():
    def said(result) -> str:  # the message as one line, whatever the terminal width
        return " ".join(result.output.split())

    result = run("legal", "--dice", "-31")
    assert result.exit_code == 2 and "write two dice" in said(result)
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
    result = run("legal", "--position", xgid, "--dice", "31")
    assert result.exit_code == 2 and "the ID has the dice 52 but --dice says 31" in said(result)
    result = run("legal", "--position", xgid, "--json")  # the ID's own dice
    assert result.exit_code == 0 and json.loads(result.output)["dice"] == "52"
    result = run("legal", "--batch", "-", "--position", START_ID, input=f"{START_ID} 31\n")
    assert result.exit_code == 2 and "leave out --position and --dice" in said(result)
    result = run("legal", "--position", "AAAAAAAAAAAAAA", "--dice", "31")
    assert result.exit_code == 2 and "the game is over in this position" in said(result)
    result = run("legal", "--position", START_ID)
    assert result.exit_code == 2 and "give the roll with --dice" in said(result)


def test_selfplay_is_deterministic_and_reports_statistics():
    args = ("selfplay", "backgammon", "--games", "300", "--seed", "4", "--json")
    first = json.loads(run(*args).output)
    again = json.loads(run(*args).output)
    assert first["players"] == again["players"] and first["mean_plays"] == again["mean_plays"]
    assert first["games"] == 300 and first["unfinished"] == 0
    assert sum(p["wins"] for p in first["players"]) == 300
    assert abs(sum(p["mean_points"] for p in first["players"])) < 1e-9
    for p in first["players"]:
        assert p["wins"] == p["single"] + p["gammons"] + p["backgammons"]
    table = run("selfplay", "hypergammon-1", "--games", "50")
    assert table.exit_code == 0 and "games/s" in table.output


def test_selfplay_options_are_validated():
    result = run("selfplay", "hypergammon", "-o", "checkers=2")
    assert result.exit_code == 2 and "checkers_per_side" in result.output
    result = run("selfplay", "hypergammon", "-o", "checkers_per_side=2", "--games", "20", "--json")
    assert json.loads(result.output)["options"] == {"checkers_per_side": 2}


@pytest.mark.heavy
def test_warm_command_does_not_recompile():
    env = {**os.environ, "NUMBA_DEBUG_CACHE": "1"}
    command = [sys.executable, "-m", "gammon", "selfplay", "backgammon", "--games", "5", "--json"]
    # make test and make check run `gammon prepare` first: everything is loaded, nothing
    # compiled.
    warm = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    log = warm.stdout + warm.stderr
    assert "data loaded" in log
    assert "saved" not in log, log


def test_id_shows_board_and_all_three_forms():
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:63:2:1:0:7:10"
    result = run("id", xgid)
    assert result.exit_code == 0, result.output
    out = result.output
    assert xgid in out and "4HPwATDgc/ABMA:UQnvABAAEAAE" in out
    assert "6-3" in out and "2, owned by player 1" in out and "7-point match" in out
    assert "1-2" in out and "pips" in out and "BAR" in out
    # The GNU form read back gives the same XGID.
    again = run("id", "4HPwATDgc/ABMA:UQnvABAAEAAE")
    assert xgid in again.output
    bad = run("id", "XGID=nonsense")
    assert bad.exit_code == 2 and "XGID" in bad.output


def test_play_default_seats_fill_every_seat_with_the_computer():
    result = run("play", "multi-gam", "--seed", "1", input="quit\n")
    assert result.exit_code == 0, result.output
    assert "rollout (seat 4)" in result.output and "Game abandoned" in result.output


def test_agents_lists_every_kind_with_its_default_and_variants():
    result = runner.invoke(app, ["agents"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    from gammon.agents import agent_kinds

    for kind in agent_kinds():
        assert kind.name in result.output
    assert "every variant" in result.output
    assert "cutoff=X" in result.output
    rollout_row = next(line for line in result.output.splitlines() if "rollout " in line)
    assert "multi-gam" in rollout_row


def test_long_nardy_results_are_called_oin_mars_and_koks():
    nardy = gammon.variant("long-nardy")
    assert [nardy.result_name(level) for level in (1, 2, 3)] == ["an oin", "a mars", "a koks"]
    assert gammon.variant("backgammon").result_name(2) == "a gammon"
    result = runner.invoke(app, ["selfplay", "long-nardy", "--games", "50", "--seed", "1"],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "mars" in result.output and "koks" in result.output
    assert "gammon" not in result.output.replace("long-nardy", "")


def test_what_the_user_typed_is_shown_as_typed():
    """Markup and emoji codes in the user's text are printed as text, not interpreted."""
    from typer.testing import CliRunner

    from gammon.cli.main import app

    runner = CliRunner()
    for args, shown in ((["legal", "--position", "[/red]", "--dice", "31"], "'[/red]'"),
                        (["play", "[/x]"], "'[/x]'"),
                        (["legal", "--position", "XGID=:x:", "--dice", "31"], "XGID=:x:")):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and shown in result.output, result.output


@pytest.mark.heavy
def test_prepare_compiles_what_every_variant_uses():
    result = run("prepare")
    assert result.exit_code == 0, result.output
    assert "The engine is compiled and cached" in result.output


@pytest.mark.slow  # 90 s: everything compiled anew (make test's own set-up does the same)
def test_warming_a_variant_fills_an_empty_kernel_cache(tmp_path):
    # No table of three checkers solved here (GAMMON_DATA empty): the network leads.
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "GAMMON_DATA": str(tmp_path)}
    subprocess.run([sys.executable, "-c", "from gammon.cli.warm import warm_variant; "
                    "warm_variant('hypergammon')"], env=env, check=True)
    cached = {path.name.split("-")[0] for path in tmp_path.rglob("*.nbi")}
    # The move generator, the compiled games, and the default bot's evaluator (with three
    # checkers a side, the network's).
    assert {"tracks.generate_plays", "tracks.random_playouts",
            "encoding.encode_track", "network.forward_rows"} <= cached


#: The kernels that take longest to compile (15 s of one core down to 3 s): once each.
ONCE = ("tracks.generate_plays", "acey._game", "multigam._play_on", "multigam._game",
        "vector._step_chunk", "vector._reset_chunk")


@pytest.mark.slow  # 3 min: every kernel compiled from an empty cache, one core
@pytest.mark.timeout(900)
def test_the_longest_kernels_are_compiled_once_whoever_calls_them(tmp_path):
    """numba compiles a kernel again for each new type of argument: a literal (``1``
    rather than an ``int64``), a read-only array (``np.frombuffer`` of bytes), ``prange``'s
    unsigned index. The move generator was compiled five times over (75 s of make test's
    set-up); every caller now passes the same types. From an empty cache: a kernel that
    only other kernels call is not compiled at all when they are loaded from the cache."""
    names = ", ".join(f"'{name}'" for name in ONCE)
    done = subprocess.run(
        [sys.executable, "-c", "import importlib; from gammon.cli.warm import warm_all; "
         f"warm_all(jobs=1); names = [{names}]; "
         "print([len(getattr(importlib.import_module('gammon.kernels.' + n.split('.')[0]), "
         "n.split('.')[1]).signatures) for n in names])"],
        capture_output=True, text=True, check=True,
        env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})
    counts = dict(zip(ONCE, json.loads(done.stdout.strip().splitlines()[-1]), strict=True))
    assert counts == dict.fromkeys(ONCE, 1)


def test_command_line_errors_are_messages_not_tracebacks():
    """Issue 31: each of these ended in a traceback."""
    result = run("id", "AAAAAAAAAAAAAA")  # every checker borne off: the game is over
    assert result.exit_code == 2 and "the game is over" in result.output
    assert "Traceback" not in result.output
    for stake in ("inf", "nan", "0", "-1"):
        result = run("play", "--stake", stake, "--seats", "random,random", "--games", "1")
        assert result.exit_code == 2 and "positive number" in result.output, stake
    result = run("play", "--match", "99999999999999999999")
    assert result.exit_code == 2 and "64" in result.output


def test_names_in_a_match_file_are_text_not_markup(tmp_path):
    """Issue 31: a player named `[/red]` stopped `gammon analyze` (MarkupError) and one
    named `[bold red]Evil[/]` was shown styled."""
    match = tmp_path / "evil.mat"
    match.write_text('; [Variation "backgammon"]\n\n 3 point match\n\n Game 1\n'
                     ' [/red] : 0                      [bold red]Evil[/] : 0\n'
                     '  1)                             54: 13/8 24/20\n')
    result = run("analyze", str(match), "--plies", "0")
    assert result.exit_code == 0, result.output
    # Shown as written (the column may wrap the name), not taken as style tags.
    assert "[/red]" in result.output and "[bold" in result.output


def test_a_repeated_option_and_a_duel_of_one_are_refused():
    """Issue 31: a repeated -o kept the last value and a duel of one agent ran."""
    result = run("play", "long-nardy", "-o", "mars=true", "-o", "mars=false")
    assert result.exit_code == 2 and "given twice" in result.output
    result = run("duel", "--players", "random", "--games", "2")
    assert result.exit_code == 2 and "two or more" in result.output
    assert "random,heuristic" in result.output


def test_prepare_compiles_the_variants_named():
    """`make play` compiles only the first game's kernels before the board (issue 31:
    a first run waited for every variant's)."""
    result = run("prepare", "short-nardy")
    assert result.exit_code == 0 and "compiled and cached" in result.output
    result = run("prepare", "chess")
    assert result.exit_code == 2 and "backgammon" in result.output
