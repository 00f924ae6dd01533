"""Acey-deucey in the terminal game, driven by scripted input, and from the command line."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable

import pytest
from scripted import console
from typer.testing import CliRunner

import gammon
from gammon import IllegalPlayError, Position
from gammon.cli.main import app
from gammon.cli.play import run_game
from gammon.notation import move_text_for
from gammon.variants.acey import CHOOSE, AceyMemo, DoublesChoice

AD = gammon.variant("acey-deucey")
RESTRICTIVE = gammon.variant("acey-deucey-restrictive")


def answers(at_choice: list[str]) -> tuple[Callable[[str], str], list[str]]:
    """Plays the first listed play; at the first doubles prompt answers ``at_choice`` in
    turn, later ones with the first number offered. Also returns the prompts."""
    queue = list(at_choice)
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 2000:
            raise EOFError
        match = re.search(r"\[choose the doubles number \((\d)", prompt)
        if match:
            return queue.pop(0) if queue else match.group(1)
        return "1"

    return answer, prompts


def record_lines(out: str) -> list[str]:
    return out.split("Game record", 1)[1].strip("─ \n").splitlines()


CHOICE_PROMPT = "you [choose the doubles number (1-6)]> "


def test_a_person_names_the_doubles_after_an_acey_deucey():
    answer, prompts = answers(["9", "?", "help", "board", "seven", "4-4"])
    out_console = console()
    result = run_game(AD, ["human", "random"], 2, out_console, answer)
    out = out_console.export_text()
    assert result.finished
    assert "go first and roll." in out or "goes first and rolls." in out
    assert "played the 1 and the 2 of the acey-deucey: a number to play as doubles" in out
    assert "X you, choose the doubles number (1-6)." in out
    choice = prompts.index(CHOICE_PROMPT)
    assert prompts[choice:choice + 6] == [CHOICE_PROMPT] * 6
    assert "✗ 9: the doubles number is 1 to 6" in out
    assert "You may choose doubles 1, doubles 2, doubles 3, doubles 4, doubles 5, doubles 6"\
        in out
    assert "the number to play as doubles (also 44, d4)" in out  # the help
    assert "✗ 'seven': type the number to play as doubles" in out
    # Then the doubles, as a play: here the opening (AD-ENTER-ALL) leaves only one.
    assert prompts[choice + 6] != "you (4-4)> "
    assert "X you: doubles 4" in out
    assert "X you play bar/21(4), the only legal play." in out
    assert "another roll." in out
    # The record: the 1-2, the choice (no dice), the doubles.
    lines = record_lines(out)
    assert len(lines) == len(result.turns)
    named = next(i for i, t in enumerate(result.turns) if t.text == "doubles 4")
    assert result.turns[named - 1].dice == (2, 1) and result.turns[named].dice == ()
    assert result.turns[named + 1].dice == (4, 4)
    assert re.fullmatch(r"\s*\d+\s+X you\s+doubles 4", lines[named])


def test_only_the_numbers_that_play_most_are_offered():
    # A seed that brings a choice of fewer than six numbers: another is refused with the
    # reason.
    for seed in range(40):
        seen: list[str] = []
        answer, _ = answers([])

        def picky(prompt: str, seen: list[str] = seen, answer=answer) -> str:
            match = re.search(r"\[choose the doubles number \((\d)((?: or \d)+)\)", prompt)
            if match and not seen:
                seen.append(prompt)
                offered = {match.group(1), *re.findall(r"\d", match.group(2))}
                return next(str(n) for n in range(1, 7) if str(n) not in offered)
            return answer(prompt)

        out_console = console()
        result = run_game(AD, ["human", "random"], seed, out_console, picky)
        if seen:
            break
    out = out_console.export_text()
    assert result.finished and seen
    numbers = re.search(r"choose the doubles number \(([\d or]+)\)", seen[0]).group(1)
    assert f"plays fewer of the four moves than another number can: choose {numbers}" in out


def test_decision_hooks_of_the_variant():
    # The position of test_ad_choice_most_moves: 1, 4 and 5 play all four moves.
    pos = Position.from_checkers([_row({24: 1, 6: 14}), _row({7: 2, 1: 13})], 0)
    chooser = dataclasses.replace(AD.state(pos, (2, 1)), dice=(),
                                  memo=AceyMemo((True, True), CHOOSE, (True, True)))
    assert AD.decision_prompt(chooser) == "choose the doubles number (1 or 4 or 5)"
    moves = move_text_for(AD)
    for text, number in (("4", 4), ("44", 4), ("4-4", 4), ("4s", 4), ("doubles 5", 5),
                         (" 1 ", 1), ("D1", 1)):
        assert moves.read_actions(chooser, text) == [DoublesChoice(number)]
    for text, message in (("2", "choose 1 or 4 or 5"), ("45", "type the number"),
                          ("0", "1 to 6"), ("", "type the number")):
        with pytest.raises(IllegalPlayError, match=message):
            moves.read_actions(chooser, text)
    assert AD.decision_prompt(AD.state(pos, (3, 1))) is None


def _row(layout: dict[int, int]) -> list[int]:
    row = [0] * 26
    for slot, n in layout.items():
        row[slot] = n
    row[0] = 15 - sum(row)
    return row


def test_restrictive_game_announces_its_rules():
    out_console = console()
    result = run_game(RESTRICTIVE, ["random", "random"], 2, out_console, input)
    out = out_console.export_text()
    assert result.finished
    assert "cannot move: nothing moves before a first doubles or 1-2." in out
    assert "one die names the doubles." in out
    # The die that names the doubles is thrown, then played as a double.
    assert re.search(r"one die names the doubles\.\n.*random \(seat \d\) rolls \d and plays ", out)
    assert "could not play all the 1 and 2 of the acey-deucey: the turn ends" in out
    assert "could not play all the four moves of the double: the turn ends" in out


def test_bots_only_same_seed_same_game():
    first = run_game(AD, ["random", "random"], 8, console(), input)
    again = run_game("acey", ["random", "random"], 8, console(), input)
    assert first.finished and first.turns == again.turns
    assert any(turn.text.startswith("doubles ") for turn in first.turns)


# --- the command line ------------------------------------------------------------------

runner = CliRunner()


def test_cli_play_and_quit():
    result = runner.invoke(app, ["play", "acey-deucey", "--seed", "1"], input="?\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Acey-Deucey" in result.output and "X to play" in result.output
    assert "Game abandoned." in result.output


def test_cli_selfplay_both_rule_sets():
    for name in ("acey-deucey", "acey-deucey-restrictive"):
        result = runner.invoke(app, ["selfplay", name, "--games", "300", "--seed", "4",
                                     "--json"])
        assert result.exit_code == 0, result.output
        stats = json.loads(result.output)
        assert stats["games"] == 300 and stats["unfinished"] == 0 and stats["draws"] == 0
        assert sum(p["wins"] for p in stats["players"]) == 300
        assert all(p["gammons"] == 0 for p in stats["players"])  # single game scoring
    result = runner.invoke(app, ["selfplay", "acey-deucey", "--games", "300", "--json",
                                 "-o", "scoring=backgammon"])
    assert result.exit_code == 0
    assert sum(p["gammons"] + p["backgammons"] for p in json.loads(result.output)["players"])


def test_cli_variants_lists_the_options():
    result = runner.invoke(app, ["variants"])
    assert result.exit_code == 0
    for word in ("acey-deucey", "acey-deucey-restrictive", "start_on_doubles",
                 "forfeit_unplayed", "scoring"):
        assert word in result.output
