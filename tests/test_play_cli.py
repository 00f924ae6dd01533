"""The terminal game, driven by scripted input."""

from __future__ import annotations

import random
import re

import pytest
from scripted import console, script

import gammon
from gammon.cli.play import check_seats, run_game, seat_bot
from gammon.core.errors import InvalidOptionError

BG = gammon.variant("backgammon")


def opening(seed: int):
    """The state after the opening roll that ``run_game`` will throw with ``seed``."""
    rng = random.Random(seed)
    s = BG.initial_state()
    while s.is_chance and s.opening:
        s = s.apply(s.sample_chance(rng))
    return s


def seed_where(wanted) -> int:
    return next(seed for seed in range(10_000) if wanted(opening(seed)))


def record_lines(out: str) -> list[str]:
    return out.split("Game record", 1)[1].strip("─ \n").splitlines()


def test_human_against_random_to_the_end():
    seed = seed_where(lambda s: s.position.turn == 0 and s.dice == (3, 1))
    answer, prompts = script([
        "24/30",  # not a move
        "13/7",  # not with 3-1
        "?",  # the numbered list
        "8/5",  # half of the play ...
        "undo",  # ... taken back
        "undo",  # nothing left to take back
        "8/5",
        "6/5",  # completes 8/5 6/5 ...
        "",  # ... and Enter plays it
    ])
    out_console = console()
    result = run_game(BG, ["human", "random"], seed, out_console, answer)
    out = out_console.export_text()

    assert result.finished and result.winner in (0, 1) and result.points in (1, 2, 3)
    assert result.state.is_terminal
    assert "Opening roll:" in out and "you go first with 3-1" in out
    assert "✗ '24/30': there is no point 30" in out
    assert "✗ 13/7 is not legal with 3-1: 13/7 is 6 pips" in out
    assert re.search(r"\b1\. 24/23 24/21\b", out)  # the list, highest checkers first
    assert "Moved 8/5; still to play: 1." in out
    assert "X to play [1] (played 3)" in "".join(out.split("Moved 8/5")[0].splitlines()[-15:])
    assert "Nothing to undo this turn." in out
    assert "That makes 8/5 6/5. Press Enter to play it" in out
    assert prompts[0] == "you (3-1)> "
    assert "random rolls" in out  # the bot's moves are shown
    # The result, and the record: one line per turn, the first being ours.
    kind = {1: "a single game", 2: "a gammon", 3: "a backgammon"}[result.points]
    assert re.search(f"wins? {kind}: {result.points} points?", out)
    lines = record_lines(out)
    assert len(lines) == len(result.turns)
    assert re.fullmatch(r"\s*1\s+X you\s+31\s+8/5 6/5", lines[0])
    for line, turn in zip(lines, result.turns, strict=True):
        assert line.endswith(turn.text) and "".join(map(str, turn.dice)) in line
    assert result.turns[0].player == 0 and result.turns[1].player == 1


def test_same_seed_same_game():
    records = []
    for _ in range(2):
        answer, _ = script([])
        result = run_game("backgammon", ["human", "random"], 12, console(), answer)
        records.append(result.turns)
    assert records[0] == records[1]


def test_dice_follow_the_seed_whatever_is_played():
    dice = []
    for choice in ("1", "2"):
        answer, _ = script([], then=choice)
        result = run_game(BG, ["human", "random"], 4, console(), answer)
        dice.append([turn.dice for turn in result.turns])
    n = min(map(len, dice))
    assert dice[0][:n] == dice[1][:n]


def test_human_against_human():
    answer, prompts = script([], then="1")
    out_console = console()
    result = run_game(BG, ["human", "human"], 3, out_console, answer)
    out = out_console.export_text()
    assert result.finished
    assert "human 1" in out and "human 2" in out
    assert {p.split(" (")[0] for p in prompts} == {"human 1", "human 2"}
    assert len(record_lines(out)) == len(result.turns)


def test_bots_only():
    first = run_game(BG, ["random", "random"], 8, console(), script([], then=None)[0])
    again = run_game(BG, ["random", "random"], 8, console(), script([], then=None)[0])
    assert first.finished and first.turns == again.turns


def test_quit_and_end_of_input_abandon_the_game():
    for answer in (script(["quit"])[0], script([], then=None)[0]):
        out_console = console()
        result = run_game(BG, ["human", "human"], 1, out_console, answer)
        assert result.winner is None and not result.finished
        assert "Game abandoned." in out_console.export_text()


def test_resign_is_offered_and_the_opponent_answers():
    out_console = console()
    answer, prompts = script(["resign", "reject", "resign gammon", "accept"])
    result = run_game(BG, ["human", "human"], 1, out_console, answer)
    mover = opening(1).position.turn
    assert result.resigned and result.winner == 1 - mover and result.points == 2
    out = out_console.export_text()
    assert "offers to resign a single game" in out and "rejects the single game" in out
    assert "accept or reject?" in out and "accepts the gammon" in out
    assert prompts[1].endswith("(accept/reject)> ")


def test_help_and_bad_numbers():
    out_console = console()
    answer, _ = script(["help", "999", "board", "", "quit"])
    run_game(BG, ["human", "human"], 2, out_console, answer)
    out = out_console.export_text()
    assert "Commands" in out and "undo" in out
    assert "✗ choose a play from 1 to" in out
    assert "Type your move, like 13/11 6/5" in out


def test_seats_are_checked():
    with pytest.raises(InvalidOptionError, match="human, random"):
        seat_bot("expert")
    with pytest.raises(InvalidOptionError, match="person"):
        seat_bot("human")
    assert seat_bot("Random").name == "random"
    with pytest.raises(InvalidOptionError, match="human, random"):
        run_game(BG, ["human", "expert"], 1, console(), script([])[0])
    with pytest.raises(InvalidOptionError, match="2 seats"):
        check_seats(["human"], 2)
    assert check_seats([" Human", "RANDOM "], 2) == ["human", "random"]


@pytest.mark.parametrize("name", ["backgammon", "long-nardy", "acey-deucey"])
def test_a_bots_play_is_also_written_in_the_viewers_numbers(name):
    variant = gammon.variant(name)
    out_console = console()
    result = run_game(variant, ["human", "random"], 5, out_console, script([], then="1")[0])
    out = out_console.export_text()
    bot_plays = [t for t in result.turns if t.player == 1 and t.text != "no move"]
    assert bot_plays
    first = bot_plays[0].text
    said = re.search(re.escape(first) + r"(?:, the only legal play)? \(O's numbering; on "
                     r"your board ([^)]+(?:\(\d\))?)\)", " ".join(out.split()))
    assert said, out
    sources = [int(m) for m in re.findall(r"(\d+)/", first)]
    seen = [int(m) for m in re.findall(r"(\d+)/", said[1])]
    assert seen == [variant.shared_slot(1, s, 0) for s in sources]


def test_multigam_plays_need_no_translation():
    out_console = console()
    run_game(gammon.variant("multi-gam"), ["human", "random", "random", "random"], 5,
             out_console, script([], then="1")[0])
    assert "numbering" not in out_console.export_text()


def test_each_variants_help_teaches_its_own_rules():
    def help_text(name: str) -> str:
        out_console = console()
        answer, _ = script(["help", "quit"])
        run_game(gammon.variant(name), ["human", "human"], 2, out_console, answer)
        return " ".join(out_console.export_text().split())

    nardy = help_text("long-nardy")
    assert "Nothing is hit in Long Nardy" in nardy and "head, 24" in nardy
    assert "bar/22" not in nardy and "hit on the way" not in nardy
    # Only the resignations the variant scores (issue 31: koks is off by default).
    assert "resign mars" in nardy and "resign koks" not in nardy
    acey = help_text("acey-deucey")
    assert "checkers waiting off the board enter from bar" in acey
    assert "resign gammon" not in acey
    assert "resign gammon, resign backgammon" in help_text("backgammon")


def test_a_head_rule_refusal_says_so():
    from gammon.notation import move_text_for

    nardy = gammon.variant("long-nardy")
    state = nardy.state(nardy.start_position(), (1, 1))
    with pytest.raises(gammon.IllegalPlayError, match=r"only one checker may leave the head "
                       r"\(24\) in a turn; two only on a first roll of 6-6, 4-4, 3-3"):
        move_text_for(nardy).find_play(state, "24/23(2) 23/22(2)")


@pytest.mark.parametrize("width", [60, 80, 120])
def test_the_numbered_list_reads_in_order_across_its_rows(width):
    """Issue 31: the list ran down its columns, so a line read 1 3 5 ... 2 4 6."""
    seed = seed_where(lambda s: s.position.turn == 0 and s.dice == (3, 1))  # 16 plays
    out_console = console(width)
    run_game(BG, ["human", "random"], seed, out_console, script(["?", "quit"])[0])
    listing = out_console.export_text().split("lists the legal plays")[0]
    rows = [[int(n) for n in re.findall(r"(\d+)\. ", line)] for line in listing.splitlines()
            if re.match(r"\s*\d+\. ", line)]
    assert len(rows) > 1 and max(map(len, rows)) > 1  # it does wrap into columns
    across = [n for row in rows for n in row]
    assert across == list(range(1, len(across) + 1))


def test_the_help_states_the_variants_rules():
    """Issue 31: short backgammon refused a hitter that hides, and its help did not say
    the rule."""
    from typer.testing import CliRunner

    from gammon.cli.main import app

    result = CliRunner().invoke(app, ["play", "short", "--seats", "human,random", "--seed",
                                      "3"], input="help\n?\nquit\n")
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Rules: Short backgammon" in text and "may not hide" in text
