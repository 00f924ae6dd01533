"""The terminal board: it draws every position, and what it draws can be read back."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

import gammon
from gammon.core.position import Position
from gammon.render import board_text, render_board

BG = gammon.variant("backgammon")
HALF = 12  # points along one edge of a 24-point board


def column(i: int) -> int:
    """Where the i-th point (from the left) of an edge starts in a board line."""
    return 1 + 3 * i + (5 if i >= HALF // 2 else 0)


def read_stack(cells: list[str]) -> tuple[str | None, int]:
    """(letter, count) of a stack given its cells from the edge (or the bar's middle) out."""
    letter, count = None, 0
    for cell in cells:
        if cell in ("X", "O"):
            letter, count = cell, count + 1
        elif cell.isdigit():
            count = int(cell)
    return letter, count


def read_board(text: str) -> dict:
    """Read a plain board back: the stack on each of the viewer's points, bar and trays."""
    lines = text.splitlines()
    top, bottom = lines[2:7], lines[8:13][::-1]  # each from the edge inward
    seen: dict = {}
    for i in range(HALF):
        c = column(i)
        seen[HALF + 1 + i] = read_stack([row[c : c + 3].strip() for row in top])
        seen[HALF - i] = read_stack([row[c : c + 3].strip() for row in bottom])
    seen["bar top"] = read_stack([row[20:23].strip() for row in top[::-1]])
    seen["bar bottom"] = read_stack([row[20:23].strip() for row in bottom[::-1]])
    seen["off top"] = read_stack([row[44:47].strip() for row in top])
    seen["off bottom"] = read_stack([row[44:47].strip() for row in bottom])
    return seen


def expected(position: Position, viewer: int, variant=BG) -> dict:
    other = 1 - viewer
    letters = "XO"
    want: dict = {}
    for point in range(1, variant.points + 1):
        mine = position.count(viewer, point)
        theirs = position.count(other, variant.shared_slot(viewer, point, other))
        if mine:
            want[point] = (letters[viewer], mine)
        elif theirs:
            want[point] = (letters[other], theirs)
        else:
            want[point] = (None, 0)
    for where, player in (("bar top", viewer), ("bar bottom", other)):
        n = position.bar(player)
        want[where] = (letters[player] if n else None, n)
    for where, player in (("off top", other), ("off bottom", viewer)):
        n = position.off(player)
        want[where] = (letters[player] if n else None, n)
    return want


def random_state(seed: int):
    rng = random.Random(seed)
    s = BG.initial_state()
    for _ in range(rng.randrange(0, 400)):
        if s.is_terminal:
            break
        s = s.apply(s.sample_chance(rng)) if s.is_chance else s.apply(rng.choice(s.legal_actions()))
    return s


def test_start_position():
    s = BG.state(BG.start_position(), (6, 5))
    text = board_text(s, names=["alice", "bob"])
    lines = text.splitlines()
    assert lines[0].split() == [str(n) for n in range(13, 25)]
    assert lines[-1].split() == [str(n) for n in range(12, 0, -1)]
    assert text.count("pips 167") == 2
    assert "alice" in text and "bob" in text
    assert "[6] [5]" in text and "X to play" in text
    seen = read_board(text)
    assert seen[24] == ("X", 2) and seen[13] == ("X", 5) and seen[8] == ("X", 3)
    assert seen[6] == ("X", 5) and seen[1] == ("O", 2) and seen[12] == ("O", 5)
    assert seen == expected(s.position, 0)


def test_board_turns_to_the_viewer():
    s = BG.state(BG.start_position(1), (3, 1))
    assert "O to play" in board_text(s)
    assert read_board(board_text(s)) == expected(s.position, 1)  # the player on turn
    assert read_board(board_text(s, 0)) == expected(s.position, 0)
    assert read_board(board_text(s, 0))[24] == ("X", 2)
    assert read_board(board_text(s, 1))[24] == ("O", 2)


def test_tall_stacks_show_their_count():
    position = Position.from_points([{6: 11, 25: 2, 0: 2}, {1: 7, 0: 8}])
    s = BG.state(position, (2, 1))
    text = board_text(s, 0)
    seen = read_board(text)
    assert seen[6] == ("X", 11) and seen[24] == ("O", 7)
    assert seen["bar top"] == ("X", 2) and seen["off bottom"] == ("X", 2)
    assert seen["off top"] == ("O", 8)
    assert "bar 2" in text and "off 8" in text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), viewer=st.sampled_from([None, 0, 1]))
def test_random_positions_read_back(seed, viewer):
    s = random_state(seed)
    text = board_text(s, viewer)
    seen_by = s.position.turn if viewer is None else viewer
    assert read_board(text) == expected(s.position, seen_by)
    for player in (0, 1):
        assert f"pips {s.position.pips(player)}" in text
    labels = text.splitlines()[0].split() + text.splitlines()[-1].split()
    assert sorted(map(int, labels)) == list(range(1, 25))


def test_phases_are_stated():
    assert "X to roll" in board_text(BG.state(BG.start_position(), None))
    rng = random.Random(1)
    s = BG.initial_state()
    while not s.is_terminal:
        s = s.apply(s.sample_chance(rng)) if s.is_chance else s.apply(rng.choice(s.legal_actions()))
    assert f"{'XO'[s.winner]} player {s.winner} wins" in board_text(s)


def test_colours_tell_the_players_apart():
    s = BG.state(BG.start_position(), (6, 5))
    console = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor",
                      width=100)
    console.print(render_board(s))
    out = console.file.getvalue()
    assert "\x1b[" in out
    board = render_board(s)
    styles = {str(span.style) for span in board.spans
              if board.plain[span.start : span.end].strip() in ("X", "O")}
    assert len(styles) >= 2


def test_partial_play_and_highlight():
    s = BG.state(BG.start_position(), (6, 5))
    play = next(iter(s.legal_actions()))
    board = render_board(s, position=play.result, dice_left=(5,), highlight=play)
    assert "to play [5] (played 6)" in board.plain
    assert read_board(board.plain) == expected(play.result, 0)


def test_smaller_variants_render():
    rules = gammon.variant("hypergammon")
    s = rules.state(rules.start_position(), (4, 2))
    seen = read_board(board_text(s))
    assert seen[24] == ("X", 1) and seen[22] == ("X", 1) and seen[1] == ("O", 1)


def test_only_two_players():
    s = BG.state(BG.start_position(), (6, 5))
    three = Position(bytes(26 * 3), 3, 0)
    with pytest.raises(ValueError, match="two-player"):
        render_board(s, position=three)


def test_multigam_board_and_panel_fit_80_columns():
    from gammon.render.quarter import render_quarter

    mg = gammon.variant("multi-gam")
    state = mg.state(mg.start_position(), (6, 5))
    names = ["you", "expectimax 2", "expectimax 3", "heuristic 4"]
    board = render_quarter(state, names=names, dice_left=(5,))
    lines = board.plain.splitlines()
    assert max(len(line) for line in lines) <= 80, board.plain
    assert "expecti… 2" in board.plain and "expecti… 3" in board.plain
    assert "to play [5] (played 6)" in board.plain


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), viewer=st.sampled_from([0, 1]))
def test_the_svg_board_shows_each_stack_in_its_players_colours(seed, viewer):
    """The web's board (drawn on every step, so written compactly: a checker takes its
    colours from the group of its player's checkers) reads back as the position."""
    import json
    import xml.etree.ElementTree as ET

    from gammon.render.svg import COLOURS, board_svg

    s = random_state(seed)
    svg = board_svg(s, viewer)
    assert len(json.dumps(svg)) == len(svg) + 2  # it travels in JSON as it is
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.fromstring(svg)
    seen: dict = {}
    for group in root.iter(f"{ns}g"):
        spot = group.get("data-spot", "")
        if not spot.startswith("p"):
            continue
        stacks = []
        for painted in group.iter(f"{ns}g"):
            checkers = [c for c in painted if c.get("class") == "checker"]
            if checkers:
                player = next(p for p, (fill, edge, _) in enumerate(COLOURS)
                              if painted.get("fill") == fill and painted.get("stroke") == edge)
                assert painted.get("class") == f"player{player}"
                stacks.append((player, len(checkers)))
        seen[int(spot[1:])] = stacks
    other = 1 - viewer
    for point in range(1, 25):
        mine = s.position.count(viewer, point)
        theirs = s.position.count(other, BG.shared_slot(viewer, point, other))
        want = [(viewer, min(mine, 5))] if mine else [(other, min(theirs, 5))] if theirs else []
        assert seen[point] == want, point


def test_a_players_name_stays_inside_the_svg_boards_label():
    """The board's attributes are single-quoted: a name with quotes, angle brackets or
    script is escaped into the label and adds no attribute or element."""
    import xml.etree.ElementTree as ET

    from gammon.render.svg import board_svg

    name = "a' onload='alert(1)\" <script>x</script>&"
    root = ET.fromstring(board_svg(BG.initial_state(), 0, names=[name, "b"]))
    assert root.get("aria-label") == f"backgammon board seen by {name}"
    assert root.get("onload") is None
    assert not [e for e in root.iter() if e.tag.endswith("script")]
