"""Acedrex in the terminal: scripted people, random bots, and the command line."""

from __future__ import annotations

import json
import re

import pytest
from scripted import console, script
from typer.testing import CliRunner

import gammon
from gammon.cli.acedrex import selfplay_stats
from gammon.cli.main import app
from gammon.cli.play import run_game
from gammon.core.errors import IllegalPlayError, InvalidOptionError
from gammon.notation.acedrex import parse_actions, parse_state
from gammon.render.acedrex import ring_text
from gammon.variants.acedrex import Acedrex, Jump, Step

ACE: Acedrex = gammon.variant("acedrex")  # type: ignore[assignment]
runner = CliRunner()


def run_acedrex(seats, seed, console, input_func=None, rules=ACE):
    answer = input_func if input_func is not None else script([], then=None)[0]
    return run_game(rules, seats, seed, console, answer)


def test_four_bots_play_a_whole_game_showing_every_throw():
    out = console(120)
    result = run_acedrex(["random"] * 4, seed=3, console=out)
    assert result.finished and result.state.is_terminal
    assert sum(result.money) == 0
    text = out.export_text()
    assert "throws" in text and "for the start" in text and "starts." in text
    assert "combat." in text and "(attacker) throws" in text and "(defender) throws" in text
    assert any(word in text for word in ("Ace!", "Drex!", "dodge", "parry"))
    assert "Game over" in text and "money" in text
    # A bot's turn is one line: its roll and the parts of the die.
    assert re.search(r"rolls \d+: [BROY]\d\+\d+>", text)


def test_same_seed_same_game():
    a = run_acedrex(["random"] * 4, seed=5, console=console(120))
    b = run_acedrex(["random"] * 4, seed=5, console=console(120))
    assert a.table.log == b.table.log and a.state == b.state


def test_a_person_plays_by_numbers_to_the_end():
    answer, prompts = script([], then="1")
    out = console(120)
    # A person taking the first action every time makes short steps: a turn cap ends it.
    result = run_acedrex(["human", "random", "random", "random"], seed=1, console=out,
                         input_func=answer, rules=Acedrex(turn_cap=40))
    assert result.finished and prompts
    assert all(p.startswith("Blue [") for p in prompts)
    text = out.export_text()
    assert "Blue (you)" in text and "money now" in text and "jackpot" in text


def test_a_person_types_moves_lists_and_gets_reasons():
    answer, prompts = script(["help", "?", "board", "", "Z9 3", "B1+99", "quit"])
    out = console(120)
    result = run_acedrex(["human", "random", "random", "random"], seed=1, console=out,
                         input_func=answer)
    assert not result.finished
    text = out.export_text()
    assert "Slots are named by territory" in text  # help
    assert re.search(r"\b1\. B\d\+\d+>", text)  # the list
    assert "cannot read 'Z9 3'" in text and "to spend" in text
    assert "Game abandoned." in text


def test_end_of_input_abandons():
    answer, _ = script([], then=None)
    result = run_acedrex(["human"] * 4, seed=2, console=console(120), input_func=answer)
    assert not result.finished


def test_resigning_settles_and_the_bots_finish_at_once():
    answer, prompts = script(["resign", "n", "resign", "y"], then="1")
    out = console(120)
    result = run_acedrex(["human", "random", "random", "random"], seed=4, console=out,
                         input_func=answer)
    assert result.finished and result.state.out[0]
    text = out.export_text()
    assert prompts[1].startswith("Resign and leaves the game and settles")
    assert "leaves the game and settles" in text
    # Once the person is out, the bots play the rest without a line a move.
    assert "No person is left in the game: the bots play it out." in text
    after = text.split("No person is left", 1)[1].split("Game record", 1)[0]
    assert "rolls" not in after
    assert sum(result.money) == 0


def test_parse_actions_forms():
    state = parse_state("B,B,5,R,1/9/9/9 B12 B - -/-/-/-")
    assert parse_actions(state, "B1+5 B2+7") == [Step(0, 5), Step(1, 7)]
    assert parse_actions(state, "b1 5, b2 7") == [Step(0, 5), Step(1, 7)]
    assert parse_actions(state, "B1>B6 hand 7") == [Step(0, 5), Step(-1, 7)]
    assert parse_actions(state, "B2+7>B9") == [Step(1, 7)]
    assert parse_actions(state, "B1>jackpot") == [Step(0, 9)]
    with pytest.raises(IllegalPlayError, match="whole die"):
        parse_actions(state, "B1 7")
    with pytest.raises(IllegalPlayError, match="no piece on B5"):
        parse_actions(state, "B5 2")
    with pytest.raises(IllegalPlayError, match="has moved"):
        parse_actions(state, "B1 1 B2 1 B2 1")  # the piece from B1 is on B2, tapped
    with pytest.raises(IllegalPlayError, match="cannot read"):
        parse_actions(state, "forward")
    with pytest.raises(IllegalPlayError, match="is not possible now"):
        parse_actions(state, "keep")
    engaged = parse_state("RB,8/9/9/9 B5 B - -/-/-/-")
    with pytest.raises(IllegalPlayError, match="not Alone"):
        parse_actions(engaged, "B1 2")
    jump = parse_state("B,B,B,6/9/9/9 B20 - - -/-/-/-")
    jump = jump.apply(Step(0, 20))
    assert parse_actions(jump, "jump B2>B3") == [Jump(1, 2)]
    assert parse_actions(jump, "B2 B3") == [Jump(1, 2)]
    assert str(parse_actions(jump, "no")[0]) == "no jump"
    with pytest.raises(IllegalPlayError, match="not possible"):
        parse_actions(jump, "B2>O1")


def test_ring_drawing_shows_every_part():
    state = parse_state("B,B,Rb,B,B,4/R,R,R,6/O,O,O,O,O,O,1,RRBYYO,O/Y,Y,Y,Y,Y,4 B12-5 "
                        "BR RY RO/-/-/B")
    text = ring_text(state)
    for label in ("B1", "B9", "R1", "R9", "O1", "O9", "Y1", "Y9"):
        assert label in text
    assert "Rb" in text  # a tapped piece in lower case
    assert "R2BY2O" in text  # a tall stack counted by runs
    assert "jackpot [R][Y][ ]" in text
    assert "die 12, 5 left" in text
    assert "RO (2)" in text and "+5" in text  # Blue's captures and money standing


def test_cli_play_four_seats_and_default_seats():
    result = runner.invoke(app, ["play", "acedrex", "--seats", "random,random,random,random",
                                 "--seed", "6"])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    result = runner.invoke(app, ["play", "acedrex", "--seed", "6"], input="quit\n")
    assert result.exit_code == 0 and "Blue (you)" in result.output
    result = runner.invoke(app, ["play", "acedrex", "--seats", "human,random,random"])
    assert result.exit_code == 2 and "4 seats" in result.output
    result = runner.invoke(app, ["play", "acedrex", "--seats", "human,robot,random,random"])
    assert result.exit_code == 2 and "unknown player kind" in result.output


def test_a_person_plays_a_whole_game_against_the_default_bots_from_the_command_line():
    """`gammon play acedrex` as a person starts it (issue 49): three of the default bot,
    every question answered by its first choice, the game played to its end."""
    result = runner.invoke(app, ["play", "acedrex", "--seed", "1"], input="1\n" * 2000)
    assert result.exit_code == 0, result.output
    assert "Blue (you)" in result.output and "Red (money)" in result.output
    assert "Game over after" in result.output and "Game abandoned" not in result.output


def test_ace_end_and_ace_cap_table_settings_in_the_terminal():
    """ACE-END, ACE-CAP (docs/rules/acedrex.md, Options, Tables): ``gammon play`` takes
    the quick preset and the two options a table sets, and the game ends by them."""
    result = runner.invoke(app, ["play", "acedrex-quick", "--seats",
                                 "random,random,random,random", "--seed", "6"])
    assert result.exit_code == 0, result.output
    turns, reason = re.search(r"Game over after (\d+) turns: ([^.]+)\.", result.output).groups()
    assert int(turns) <= 200 and reason in ("a player has 4 captures", "the turn cap")
    result = runner.invoke(app, ["play", "acedrex", "--seats", "random,random,random,random",
                                 "--seed", "6", "-o", "captures_to_end=30"])
    assert result.exit_code == 2 and "captures_to_end is 1 to 27" in result.output
    result = runner.invoke(app, ["play", "acedrex", "--seats", "random,random,random,random",
                                 "--seed", "6", "-o", "turn_cap=5"])
    assert result.exit_code == 0 and "Game over after 5 turns: the turn cap." in result.output
    assert "acedrex-quick" in runner.invoke(app, ["variants"]).output


def test_cli_selfplay_statistics():
    result = runner.invoke(app, ["selfplay", "acedrex", "--games", "300", "--seed", "2",
                                 "--json", "-o", "turn_cap=60"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["games"] == 300 and stats["money_sums_to_zero"]
    assert stats["ended_by_captures"] + stats["ended_by_turn_cap"] == 300
    assert stats["ended_by_turn_cap"] > 0
    assert len(stats["players"]) == 4
    result = runner.invoke(app, ["selfplay", "acedrex", "--games", "50", "--max-turns", "20"])
    assert result.exit_code == 0 and "games/s" in result.output and "turn cap" in result.output
    stats = selfplay_stats(ACE, 50, 1, max_turns=20)
    assert stats["max_turns"] <= 20 and stats["options"]["turn_cap"] == 20


def test_options_from_the_command_line():
    result = runner.invoke(app, ["selfplay", "acedrex", "--games", "20", "-o", "ties=maybe"])
    assert result.exit_code == 2 and "ties" in result.output
    with pytest.raises(InvalidOptionError):
        run_acedrex(["human", "random"], seed=None, console=console(120))


def test_cli_stake_plays_for_money_and_match_is_refused():
    result = runner.invoke(app, ["play", "acedrex", "--seats", "random,random,random,random",
                                 "--seed", "6", "--stake", "2", "--games", "1"])
    assert result.exit_code == 0, result.output
    assert "Ledger" in result.output and "pays" in result.output
    result = runner.invoke(app, ["play", "acedrex", "--match", "3"])
    assert result.exit_code == 2 and "two-player games" in result.output
    result = runner.invoke(app, ["play", "acedrex", "--stake", "2", "--beaver"])
    assert result.exit_code == 2 and "cube is for two-player games" in result.output


def test_the_title_fits_and_the_record_shows_each_throw():
    """Issue 31: at 80 columns the title was cut (`rando…`) and the record left out the
    throws."""
    result = CliRunner().invoke(app, ["play", "acedrex", "--seats",
                                      "random,random,random,random", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "…" not in result.output.split("Game record")[0]
    assert "Yellow (random)" in " ".join(result.output.split())
    record = result.output.split("Game record")[1].splitlines()
    first = next(line for line in record if line.strip().startswith("1 "))
    assert re.search(r"Red \(random\)\s+\d+(/\d+)?\s+R\d", first), first
