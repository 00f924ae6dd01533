"""Matches and money games in the terminal: the prompts, the board, the CLI options."""

from __future__ import annotations

import re

from scripted import console
from typer.testing import CliRunner

from gammon.cli.main import app
from gammon.cli.play import run_match, run_session
from gammon.stakes import CubeAction, StakeRules

runner = CliRunner()


class Player:
    """A person at the keyboard who answers every prompt sensibly: doubles now and
    then, takes most doubles, plays the first listed play, and once offers to resign."""

    def __init__(self, script: dict[str, list[str]] | None = None) -> None:
        self.script = {k: list(v) for k, v in (script or {}).items()}
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        for key, answers in self.script.items():
            if key in prompt and answers:
                return answers.pop(0)
        if "(roll/double)" in prompt:
            return "double" if len(self.prompts) % 7 == 0 else ""
        if "(take/drop" in prompt:
            return "take" if len(self.prompts) % 3 else "drop"
        if "(accept/reject)" in prompt:
            return "accept"
        if "Another game" in prompt:
            return "n"
        return "1"


def test_a_match_to_the_end_with_a_person():
    out = console()
    player = Player({"(roll/double)": ["help", "?", "take", "double"],
                     "(take/drop": ["roll", "take"]})
    match = run_match("backgammon", ["human", "random"], 5, seed=11, console=out,
                      input_func=player)
    text = out.export_text()
    assert match.is_over and max(match.score.score) >= 5
    assert re.search(r"wins the 5-point match \d+-\d+", text)
    assert "Game 1 of the 5-point match" in text and "Score: you" in text
    # The cube decisions were asked and answered at the prompt.
    assert any("(roll/double)" in p for p in player.prompts)
    assert "X you double to 2." in text
    assert "answer a double" in text  # the help at a cube decision
    assert "✗ take: no cube is on offer; double or roll" in text
    assert "answer the double first" in text  # "roll" typed while doubled
    # The cube beside the board and the record of cube actions.
    assert "cube" in text and "5-point match: X" in text
    assert "doubles to 2" in text.split("Game record", 1)[1]


def test_crawford_game_is_announced_and_has_no_double():
    out = console()
    player = Player({"(6-": ["resign gammon"], "(5-": ["resign gammon"],
                     "(4-": ["resign gammon"], "(3-": ["resign gammon"],
                     "(2-": ["resign gammon"], "(1-": ["resign gammon"]})
    match = run_match("backgammon", ["human", "random"], 3, seed=2, console=out,
                      input_func=player)
    text = out.export_text()
    assert match.is_over
    assert "(the next game is the Crawford game)" in text
    crawford = text.split("The Crawford game: no doubling", 1)[1].split("Game record")[0]
    assert "doubles" not in crawford and "Crawford" in crawford
    assert "to roll or double" not in crawford


def test_money_session_ledger_and_options():
    out = console()
    rules = StakeRules(jacoby=True, beaver=True)
    session = run_session("backgammon", ["random", "random"], 5, rules, seed=3, console=out,
                          games=3)
    text = out.export_text()
    assert len(session.ledger) == 3
    assert "Ledger" in text and "total" in text
    assert all(e.amounts == tuple(5 * p for p in e.points) for e in session.ledger)
    assert "After 3 games at 5 a point" in text


def test_resigning_and_answering_at_the_prompt():
    out = console()
    player = Player({"human 1 (6-4)": ["resign backgammon"], "(accept/reject)": ["accept"]})
    session = run_session("backgammon", ["human", "human"], 1, StakeRules(), seed=4,
                          console=out, input_func=player, games=1)
    text = out.export_text()
    assert "offers to resign a backgammon" in text
    assert "accepts the backgammon" in text
    assert "wins a backgammon by resignation: 3 points" in text
    assert sorted(session.ledger[0].points) == [-3, 3]


def test_cli_play_match_bots_to_the_end():
    result = runner.invoke(app, ["play", "backgammon", "--match", "3", "--seats",
                                 "random,random", "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert "wins the 3-point match" in result.output


def test_cli_play_money_options():
    result = runner.invoke(app, ["play", "backgammon", "--stake", "5", "--seats",
                                 "random,random", "--seed", "1", "--games", "2", "--jacoby",
                                 "--beaver", "--raccoon", "--auto-doubles", "2",
                                 "--max-cube", "16"])
    assert result.exit_code == 0, result.output
    assert "After 2 games at 5 a point" in result.output
    result = runner.invoke(app, ["play", "backgammon", "--stake", "2", "--no-cube",
                                 "--seats", "random,random", "--games", "1", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "doubles" not in result.output and "no cube" in result.output
    result = runner.invoke(app, ["play", "backgammon", "--stake", "1", "--arithmetic",
                                 "--no-mars", "--seats", "random,random", "--games", "1"])
    assert result.exit_code == 0, result.output


def test_cli_refuses_money_options_in_a_match():
    result = runner.invoke(app, ["play", "backgammon", "--match", "5", "--beaver",
                                 "--seats", "random,random"])
    assert result.exit_code == 2
    assert "money" in result.output
    result = runner.invoke(app, ["play", "backgammon", "--match", "5", "--stake", "2",
                                 "--seats", "random,random"])
    assert result.exit_code == 2


def test_cli_match_without_crawford_and_cube():
    result = runner.invoke(app, ["play", "backgammon", "--match", "2", "--no-crawford",
                                 "--no-cube", "--seats", "random,random", "--seed", "9"])
    assert result.exit_code == 0, result.output
    assert "Crawford" not in result.output and "doubles" not in result.output


def test_double_typed_during_a_play_is_explained():
    out = console()
    player = Player({"(roll/double)": [""], "you (": ["double", "1"]})
    run_session("backgammon", ["human", "random"], 1, StakeRules(), seed=5, console=out,
                input_func=player, games=1)
    text = out.export_text()
    assert "you may not double now" in text
    assert CubeAction.DOUBLE.value == "double"
