"""Hint, rollouts and reviews on the shipped networks."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

import gammon
from gammon.analysis.cli import network_evaluator, read_state
from gammon.analysis.hint import rate_cube, rate_plays
from gammon.analysis.review import mark, review
from gammon.analysis.rollout import rollout
from gammon.cli.main import app
from gammon.core.errors import InvalidOptionError
from gammon.table.table import MATCH, Table

BG = gammon.variant("backgammon")
OPENING_52 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
runner = CliRunner()


def test_every_play_is_rated_best_first():
    evaluator = network_evaluator(BG, None)
    state = read_state(BG, OPENING_52, None).base
    rated = rate_plays(state, evaluator, plies=1)
    assert len(rated) == len(state.legal_actions()) == 8
    assert all(a.plies >= b.plies for a, b in zip(rated, rated[1:], strict=False))
    deep = [r for r in rated if r.plies == 1]
    assert [r.equity for r in deep] == sorted((r.equity for r in deep), reverse=True)
    assert {"13/11 13/8", "24/22 13/8"} & {r.text for r in rated[:2]}
    for r in rated:
        win, gammon_, backgammon, lose_gammon, lose_backgammon = r.probs
        assert 0 <= backgammon <= gammon_ <= win <= 1 and lose_backgammon <= lose_gammon


def test_the_cube_decision_of_a_position():
    evaluator = network_evaluator(BG, None)
    start = read_state(BG, START, None)
    hint = rate_cube(start, evaluator, plies=0)
    assert hint.decision == "No double, take" and not hint.view.double
    assert 0.4 < hint.chances.win < 0.6
    result = runner.invoke(app, ["hint", START, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["decision"] == "No double, take"


def test_hint_takes_the_three_point_match_double_gnubg_takes():
    """Issue 31's XGID: gnubg 2-ply says "Double, take" at this 3-point match score;
    the cube decision two rolls ahead agrees (the one on averaged chances said pass)."""
    evaluator = network_evaluator(BG, None)
    state = read_state(BG, "XGID=aB-Ba-B-DA--bB--cc-e----B-:0:0:1:00:0:0:0:3:10", None)
    hint = rate_cube(state, evaluator, plies=2)
    assert hint.decision == "Double, take"
    assert hint.view.taker_takes and hint.view.double


def test_hint_on_the_command_line_and_its_errors():
    result = runner.invoke(app, ["hint", OPENING_52, "--plies", "0"])
    assert result.exit_code == 0 and "8 legal plays of 5-2" in result.output
    result = runner.invoke(app, ["hint", OPENING_52, "--dice", "31"])
    assert result.exit_code == 2 and "give one" in result.output
    result = runner.invoke(app, ["hint", "x", "--variant", "acedrex"])
    assert result.exit_code == 2 and "no network" in result.output
    result = runner.invoke(app, ["hint", "nonsense", "--dice", "31"])
    assert result.exit_code == 2
    nardy = gammon.variant("long-nardy")
    from gammon.notation import format_position

    start = format_position(nardy, nardy.start_position())
    result = runner.invoke(app, ["hint", start, "--variant", "long-nardy", "--dice", "63",
                                 "--plies", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)) >= 1


def test_rollouts_follow_the_seed_and_jobs_do_not_change_them():
    evaluator = network_evaluator(gammon.variant("hypergammon-2"), None)
    rules = evaluator.variant
    start = rules.initial_state()
    while start.is_chance:
        start = start.apply(start.sample_chance(__import__("random").Random(3)))
    plays = rate_plays(start, evaluator)[:2]
    starts = [(r.text, start.apply(r.action)) for r in plays]
    one = rollout(rules, evaluator, starts, start.position.turn, 40, seed=5, jobs=1)
    two = rollout(rules, evaluator, starts, start.position.turn, 40, seed=5, jobs=2)
    assert one == two
    for result in one:
        e = result.equity
        assert e.low <= e.mean <= e.high and e.n == 40 and len(result.probs) == 5


def test_a_match_is_reviewed(tmp_path):
    table = Table("backgammon", ["heuristic", "neural:0"], kind=MATCH, length=3, seed=4)
    table.run()
    evaluator = network_evaluator(BG, None)
    reviewed = review(table.series.games, evaluator, ["heuristic", "neural"], plies=0)
    summary = reviewed.summary()
    assert [r["player"] for r in summary] == ["heuristic", "neural"]
    assert all(r["decisions"] > 5 for r in summary)
    # The network agrees with itself at 0 ply: it loses nothing.
    assert summary[1]["lost"] == pytest.approx(0.0, abs=1e-6)
    assert summary[0]["lost"] > 0
    assert all(d.mark in ("", "doubtful", "error", "blunder") for d in reviewed.decisions)
    assert mark(0.05) == "doubtful" and mark(0.1) == "error" and mark(0.2) == "blunder"
    assert reviewed.chances and all(0 <= p[0] <= 1 for p in reviewed.chances[0])
    # Checker play and the cube apart; PR over the counted decisions; luck and results.
    for p, row in enumerate(summary):
        mine = [d for d in reviewed.decisions if d.player == p]
        counted = [d for d in mine if d.counted]
        assert row["checker_decisions"] + row["cube_decisions"] == row["decisions"]
        assert row["pr"] == pytest.approx(500 * sum(d.loss for d in counted) / len(counted),
                                          abs=0.05)
        assert row["luck"] == pytest.approx(sum(r.luck for r in reviewed.luck
                                                if r.player == p), abs=5e-4)
        assert row["luck_adjusted"] == pytest.approx(row["points"] - row["luck"], abs=2e-3)
    assert summary[0]["points"] == -summary[1]["points"] != 0
    assert summary[0]["cube_decisions"] > 0  # a match: the cube was there
    assert "network" in reviewed.evaluation and "0 plies" in reviewed.evaluation
    # A match: the chance to win the match before every roll, and errors in its terms.
    assert len(reviewed.match_chances) == len(table.series.games)
    first = reviewed.match_chances[0]
    assert abs(first[0] - 0.5) < 0.1 and all(0.0 <= p <= 1.0 for p in first)
    final = reviewed.match_chances[-1][-1]
    assert (final > 0.9) == (table.series.score.winner == 0)
    for p, row in enumerate(summary):
        mine = [d for d in reviewed.decisions if d.player == p]
        assert all(0.0 < d.worth <= 1.0 for d in mine)
        assert row["match_lost"] == pytest.approx(sum(d.loss * d.worth for d in mine),
                                                  abs=1e-4)
    assert summary[0]["match_lost"] > 0


def test_the_luck_of_a_roll_is_measured_against_the_average_roll():
    """Luck (issue 31): the equity after the best play of the roll thrown less the
    average over every roll, and the same for each result probability; over all 21 rolls
    it averages to nothing. Before the first roll of a game in the starting position 3-1
    is lucky, 2-1 unlucky, 4-4 luckier than 6-4; seen by the other side, the luck turns
    round (a gammon won is the other's gammon lost)."""
    from gammon.agents.search import BoardSearch
    from gammon.analysis.rollout import _other_side, roll_luck

    evaluator = network_evaluator(BG, None)
    search = BoardSearch(BG, evaluator)
    state = read_state(BG, START, None).base
    lucks = {roll: roll_luck(search, evaluator, state, roll) for roll in search.rolls}
    average = sum(p * lucks[r] for r, p in zip(search.rolls, search.probs, strict=True))
    assert np.allclose(average, 0.0, atol=1e-9)
    equity = {roll: luck[0] for roll, luck in lucks.items()}
    assert equity[(3, 1)] > 0 and equity[(4, 4)] > equity[(6, 4)] and equity[(2, 1)] < 0
    for luck in lucks.values():  # the equity's luck is that of its probabilities
        win, win_g, win_bg, lose_g, lose_bg = luck[1:]
        # To the network's float32 precision, in absolute terms: the luck is a small
        # difference of probabilities near 0.5, and its last digits follow the
        # processor's arithmetic (issue 43: a relative tolerance failed on another one).
        assert luck[0] == pytest.approx(2 * win + win_g + win_bg - lose_g - lose_bg, abs=1e-6)
    other = _other_side(lucks[(3, 1)])
    assert other[0] == -lucks[(3, 1)][0] and other[1] == -lucks[(3, 1)][1]
    assert other[4] == lucks[(3, 1)][2]  # the other's gammons lost: the roller's won


def test_gammon_analyze_writes_its_plot_and_page(tmp_path):
    from gammon.notation.mat import write_match

    table = Table("backgammon", ["heuristic", "expectimax:1"], kind=MATCH, length=3, seed=6)
    table.run()
    match = tmp_path / "m.mat"
    match.write_text(write_match(3, ("heuristic", "expectimax"), table.series.games))
    plot, page = tmp_path / "m.png", tmp_path / "m.html"
    result = runner.invoke(app, ["analyze", str(match), "--plies", "0", "--plot", str(plot),
                                 "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert "PR" in result.output and "The worst decisions" in result.output
    assert plot.read_bytes()[:4] == b"\x89PNG"
    text = page.read_text()
    assert text.count("<svg") >= 2 and "error rate" in text
    log = tmp_path / "mg.json"
    mg = Table("multi-gam", ["heuristic", "random", "random", "neural:0"], seed=2)
    mg.run()
    log.write_text(json.dumps(mg.to_json()))
    result = runner.invoke(app, ["analyze", str(log), "--plies", "0", "--json"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)["summary"]) == 4
    for bad, why in ((tmp_path / "none.mat", "cannot read"),
                     (plot, "not text")):
        result = runner.invoke(app, ["analyze", str(bad)])
        assert result.exit_code == 2 and why in result.output


def test_a_match_with_a_resigned_game_is_analysed(tmp_path):
    """Issue 31: `gammon analyze` stopped at a resignation (no decision to make in the
    chance phase)."""
    match = tmp_path / "r.mat"
    result = runner.invoke(app, ["play", "backgammon", "--match", "3", "--seed", "5",
                                 "--save", str(match)], input="resign\n")
    assert result.exit_code == 0, result.output
    assert "Wins 1 point" in match.read_text()
    result = runner.invoke(app, ["analyze", str(match), "--plies", "0", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)["summary"]
    assert [row["player"] for row in summary] == ["human", "neural"]


def test_no_network_no_hint():
    with pytest.raises(InvalidOptionError, match="no network"):
        network_evaluator(gammon.variant("acedrex"), None)


def test_hint_and_rollout_fit_eighty_columns_without_cutting_numbers():
    """Issue 31: the equity and difference columns were cut (`-0.0…`) at 80 columns."""
    for args in (["hint", OPENING_52, "--plies", "0"],
                 ["rollout", OPENING_52, "--games", "12"]):
        result = runner.invoke(app, args, terminal_width=80)
        assert result.exit_code == 0, result.output
        assert "…" not in result.output
        assert max(map(len, result.output.splitlines())) <= 80
    hint = runner.invoke(app, ["hint", OPENING_52, "--plies", "0"]).output
    rated = json.loads(runner.invoke(app, ["hint", OPENING_52, "--plies", "0", "--json"]
                                     ).output)
    for row in rated:  # every equity whole, as --json gives it
        assert f"{row['equity']:+.3f}" in hint


def test_the_review_page_shows_alternatives_pips_the_cube_and_every_decision():
    """Issue 31: each decision's alternatives with their equities (the cube's three
    figures), pip counts and the cube on the board, and a filter of every decision."""
    from gammon.analysis.review import html

    table = Table("backgammon", ["heuristic", "neural:0"], kind=MATCH, length=3, seed=4)
    table.run()
    evaluator = network_evaluator(BG, None)
    reviewed = review(table.series.games, evaluator, ["<i>heuristic</i>", "neural"], plies=0)
    page = html(reviewed, "Review")
    assert "<i>heuristic</i>" not in page and "&lt;i&gt;heuristic&lt;/i&gt;" in page
    assert "Pips: " in page and "Cube 1, in the middle." in page
    # The worst decisions' alternatives, and every decision's in the step-through.
    assert page.count("class='alternatives'") == min(10, len(reviewed.worst(10))) + len(
        reviewed.decisions)
    worst = reviewed.worst(1)[0]
    assert worst.played in page and worst.best in page and "played" in page
    for decision in reviewed.decisions:
        assert decision.alternatives
        if decision.kind == "cube":
            assert [text for text, _ in decision.alternatives] == [
                "no double", "double, take", "double, pass"]
        else:  # the best first, the one played among them
            equities = [e for _, e in decision.alternatives[:-1]]
            assert equities == sorted(equities, reverse=True)
            assert decision.played in [text for text, _ in decision.alternatives]
    assert page.count("<tr class=") == len(reviewed.decisions)
    assert 'id="errors"' in page and "tr.fine" in page  # the filter
    # The whole match, action by action: a board each, with links before and after.
    actions = reviewed.actions
    assert len(actions) >= len(reviewed.decisions)
    assert sum(1 for a in actions if a.decision is not None) == len(reviewed.decisions)
    assert page.count("name='walk'") == len(actions) == page.count("<section id='v")
    assert page.count("after &rarr;") == len(actions) - 1
    assert f"#w{len(actions) - 1}:checked~#v{len(actions) - 1}" in page
    assert f"1 of {len(actions)}. Game 1, action 1" in page


@pytest.mark.parametrize("plies", [1, 2])
def test_hint_chances_are_those_behind_each_equity(plies):
    """Issue 31: `hint` showed 2-ply equities beside 0-ply chances; the chances of a
    play searched deeper now come from the same search, so they make its equity."""
    evaluator = network_evaluator(BG, None)
    state = read_state(BG, OPENING_52, None).base
    rated = rate_plays(state, evaluator, plies=plies)
    deep = [r for r in rated if r.plies == plies]
    assert deep
    for r in deep:
        win, win_g, win_bg, lose_g, lose_bg = r.probs
        assert 2 * win - 1 + win_g + win_bg - lose_g - lose_bg == pytest.approx(r.equity,
                                                                             abs=1e-6)


def test_hint_and_luck_read_the_pins_and_the_mother():
    """In the games that pin the analysis reads the pin row and ends games where the
    rules do: Plakoto's mother pinned with none of the pinner's own checkers on its start
    is a double game won at once, rated at its exact value and chances at one roll as at
    none; pinning it in Tapa is not. With two of the mover's checkers on its start over a
    pinned mother, every roll lifts both and wins, so no roll is luckier than another."""
    from layouts import position

    from gammon.agents.search import BoardSearch
    from gammon.analysis.rollout import roll_luck
    from gammon.core.position import Position

    mother = position({7: 1, 2: 14}, {24: 1, 10: 14})
    pinned = Position(position({24: 2, 1: 2, 2: 11}, {24: 1, 10: 14}).board, 2, 0,
                      bytes([2] + [0] * 23))
    for name in ("plakoto", "tapa"):
        rules = gammon.variant(name)
        evaluator = network_evaluator(rules, None)
        state = rules.state(mother, (6, 1))
        for plies in (0, 1):
            rated = rate_plays(state, evaluator, plies=plies)
            pins_it = next(r for r in rated if r.text == "7/1* 2/1")
            won = pins_it.equity == 2.0 and pins_it.probs == (1.0, 1.0, 0.0, 0.0, 0.0)
            assert won is (name == "plakoto")
            assert rated[0] is pins_it or name == "tapa"
        search = BoardSearch(rules, evaluator)
        lucks = [roll_luck(search, evaluator, rules.state(pinned), roll)
                 for roll in search.rolls]
        assert np.allclose(lucks, 0.0) is (name == "plakoto")
