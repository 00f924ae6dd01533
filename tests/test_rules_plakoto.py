"""One test per rule and option of docs/rules/plakoto.md, named after the rule's label.

Positions are written in each player's own numbering (24 = the start, 1 = the last point
before bearing off; our point n is the opponent's 25 - n); checkers not placed are borne
off; ``me`` and ``them`` name the mover's points where the mover's checker, or the other
side's, lies pinned. Expected plays are move text worked out by hand from the rules page.
At the end the compiled move generator is compared with a brute-force reading of the
page (:func:`oracle.pin_results`, which shares no code with the kernel) over positions of
random games, and the faces are tried on the game.
"""

from __future__ import annotations

import json
from fractions import Fraction

import answers
import layouts
import numpy as np
import oracle
import pytest
from layouts import position
from rich.console import Console
from test_invariants_nardy import run_checked
from typer.testing import CliRunner

import gammon
from gammon import Phase, Position, Roll
from gammon.cli.main import app
from gammon.core.dice import two_dice
from gammon.core.variant import MOTHERS_PINNED
from gammon.envs.steps import TurnInSteps
from gammon.notation import format_position, move_text_for, parse_position
from gammon.notation.movetext import find_play, format_play, partial_play
from gammon.render.svg import board_svg
from gammon.render.terminal import render_board
from gammon.stakes import MatchScore, StakeRules, cube_game
from gammon.stakes.rules import cube_default

PK = gammon.variant("plakoto")
plays, _, _ = layouts.rule_helpers(PK)
FREE_AT_HOME = gammon.variant("plakoto", pinned_holds_bear_off=False)
ROLLS = [roll.dice for roll, _ in two_dice()]


def pins(mover: dict[int, int], other: dict[int, int], me: tuple[int, ...] = (),
         them: tuple[int, ...] = (), turn: int = 0) -> Position:
    """``position(mover, other, turn)`` with the mover's checker pinned on the mover's
    points ``me`` and the other side's on the mover's points ``them``."""
    counts = position(mover, other, turn)
    row = bytearray(24)
    for point, who in [(p, turn) for p in me] + [(p, 1 - turn) for p in them]:
        row[(point if turn == 0 else 25 - point) - 1] = who + 1
    return Position(counts.board, 2, turn, bytes(row))


def after(pos: Position, dice: tuple[int, int], text: str, rules=PK):
    """The state after the play ``text`` of ``dice`` from ``pos``."""
    state = rules.state(pos, dice)
    return state.apply(find_play(state, text))


# --- board and start -------------------------------------------------------------------


def test_plakoto_board_backgammons_directions():
    for point in range(1, 25):
        assert PK.shared_slot(0, point, 1) == 25 - point
    assert PK.points == 24 and PK.home == 6 and PK.checkers == 15
    assert PK.game_type.board == "track" and PK.game_type.checkers
    assert PK.notation == "pins" and PK.move_text == "pins"


def test_plakoto_start_fifteen_on_the_24_point():
    start = PK.start_position()
    for player in (0, 1):
        assert {s: n for s, n in enumerate(start.row(player)) if n} == {24: 15}
    assert start.count(1, PK.shared_slot(0, 1, 1)) == 15  # their start is our 1-point
    assert start.pins == bytes(24) and not PK.contact.hitting and PK.contact.pinning


def test_plakoto_opening_starter_throws_again():
    state = PK.initial_state()
    assert state.opening and len(state.chance_outcomes()) == 30
    state = state.apply(Roll((2, 5), opening=True))
    assert state.phase is Phase.CHANCE and not state.opening and state.position.turn == 1
    assert dict((r.dice, p) for r, p in state.chance_outcomes())[(6, 6)] == Fraction(1, 36)
    assert state.apply(Roll((4, 4))).dice == (4, 4)
    lot = gammon.variant("plakoto", reroll_opening=False)
    state = lot.initial_state().apply(Roll((2, 5), opening=True))
    assert state.phase is Phase.DECIDE and state.dice == (5, 2) and state.position.turn == 1


# --- moving -----------------------------------------------------------------------------


def test_plakoto_dice_as_in_backgammon():
    # Only the 5 can be played: our 14 is closed (their 11) and after 20/15 so is our 9.
    assert plays(position({20: 1}, {11: 2, 16: 2, 24: 11}), (6, 5)) == {"20/15"}
    # Either die alone but not both: the larger (our 9, their 16, closed).
    assert plays(position({20: 1}, {16: 2, 24: 13}), (6, 5)) == {"20/14"}
    # A double four times: 20/15/10/5, then the fourth bears off.
    assert plays(position({20: 1}, {24: 15}), (5, 5)) == {"20/off"}
    # No move at all: the one empty play.
    only = PK.state(position({20: 1}, {11: 2, 24: 13}), (6, 6)).legal_actions()
    assert len(only) == 1 and only[0].moves == ()


def test_plakoto_open_point_closed_by_two_or_by_a_pinner():
    # Two of theirs on our 7 (their 18): closed.
    two = position({13: 1, 24: 14}, {18: 2, 24: 13})
    assert all(m.destination != 7 for p in PK.state(two, (6, 1)).legal_actions()
               for m in p.moves)
    # One of theirs on top of a checker of ours on 7: closed, and ours may not move.
    over = pins({13: 1, 7: 1, 24: 13}, {18: 1, 24: 14}, me=(7,))
    for play in PK.state(over, (6, 1)).legal_actions():
        assert all(m.destination != 7 and m.source != 7 for m in play.moves)
    # One of ours on top of one of theirs: open to us, and nothing new is pinned.
    ours = pins({13: 1, 7: 1, 24: 13}, {18: 1, 24: 14}, them=(7,))
    assert "24/23 13/7" in plays(ours, (6, 1))
    landed = after(ours, (6, 1), "24/23 13/7")
    assert landed.position.count(0, 7) == 2 and landed.position.pinned(7) == 1


def test_plakoto_pin_lands_on_a_lone_checker():
    pos = position({13: 1, 24: 14}, {18: 1, 24: 14})  # theirs alone on our 7
    assert "24/23 13/7*" in plays(pos, (6, 1))
    state = after(pos, (6, 1), "24/23 13/7*")
    result = state.position
    assert result.row(1) == pos.row(1) and result.bar(1) == 0  # nothing hit
    assert result.pinned(7) == 1 and result.count(0, 7) == 1
    assert format_position(PK, result) == "ma...............a^.....N:1"
    # Any number may pile on: both 13s land on 7.
    pile = after(position({13: 2, 24: 13}, {18: 1, 24: 14}), (6, 6), "13/7*(2) 24/18(2)")
    assert pile.position.count(0, 7) == 2 and pile.position.pinned(7) == 1
    # The pinned side's point is closed to it and its checker stays put.
    for play in PK.state(result, (6, 5)).legal_actions():
        assert all(m.source != 18 and m.destination != 18 for m in play.moves)


def test_plakoto_pinned_stays_until_every_pinner_left():
    pos = pins({7: 2, 24: 13}, {18: 1, 20: 14}, them=(7,))
    one_left = after(pos, (6, 5), "24/18 7/2").position
    assert one_left.pinned(7) == 1
    assert all(m.source != 18 for p in PK.state(one_left, (2, 1)).legal_actions()
               for m in p.moves)
    both_left = after(pos, (6, 5), "7/1 7/2").position
    assert both_left.pinned(7) is None and both_left.pins == bytes(24)
    assert any(m.source == 18 for p in PK.state(both_left, (2, 1)).legal_actions()
               for m in p.moves)


def test_plakoto_passing_leaves_a_touched_checker_free():
    pos = position({13: 1, 24: 14}, {18: 1, 24: 14})
    state = after(pos, (6, 1), "13/7*/6")
    assert state.position.pins == bytes(24) and state.position.row(1) == pos.row(1)
    # The same play by the other way round (13/12/6) is the same play, written without
    # a star: nothing stays pinned.
    assert format_play(find_play(PK.state(pos, (6, 1)), "13/12/6")) == "13/6"
    assert format_play(find_play(PK.state(pos, (6, 1)), "13/7*/6")) == "13/6"
    # Every stop must be open: with our 7 and 12 closed, 13 cannot reach 6.
    closed = position({13: 1, 24: 14}, {18: 2, 13: 2, 24: 11})
    assert not any(p.result.count(0, 6) for p in PK.state(closed, (6, 1)).legal_actions())


# --- bearing off -------------------------------------------------------------------------


def test_plakoto_bearoff_as_in_backgammon():
    assert plays(position({6: 1, 3: 1}, {24: 15}), (6, 5)) == {"6/off 3/off"}
    assert plays(position({7: 1, 3: 1}, {12: 15}), (6, 3)) == {"7/1 3/off", "7/off"}
    # A pinned checker higher up stands on its point: no larger die passes it. Here the
    # option lets bearing off begin, and still neither die bears off the 3.
    held = pins({6: 1, 3: 1}, {19: 1, 12: 14}, me=(6,))
    assert plays(held, (6, 5), FREE_AT_HOME) == {"no move"}
    assert plays(held, (3, 2), FREE_AT_HOME) == {"3/off"}


def test_plakoto_bearoff_pinned_at_home_holds_it_back():
    held = pins({6: 1, 3: 1}, {19: 1, 12: 14}, me=(6,))
    assert plays(held, (2, 1)) == {"3/1"}
    assert plays(held, (2, 1), FREE_AT_HOME) == {"3/off"}
    assert PK.pinned_holds_bear_off and not FREE_AT_HOME.pinned_holds_bear_off
    # Even after bearing off has begun: two off already, one pinned at home.
    begun = pins({5: 1, 2: 12}, {20: 1, 12: 14}, me=(5,))
    held_back = PK.state(begun, (1, 1)).legal_actions()
    assert held_back[0].moves and all(m.destination != 0 for p in held_back for m in p.moves)
    assert any(m.destination == 0 for p in FREE_AT_HOME.state(begun, (1, 1)).legal_actions()
               for m in p.moves)


# --- the mother ----------------------------------------------------------------------------


def test_plakoto_mother_pinned_wins_at_once():
    pos = position({7: 1, 2: 14}, {24: 1, 10: 14})  # their mother alone on our 1
    state = after(pos, (6, 1), "7/1* 2/1")
    assert state.is_terminal and state.winner == 0 and state.returns() == (2.0, -2.0)
    assert state.position.pinned(1) == 1 and state.position.off(1) == 0
    said = PK.announce(PK.state(pos, (6, 1)), None, state)
    assert said and "mother" in said[0][1]
    # Two of theirs on their start: no mother alone there, and the point is closed.
    not_last = position({7: 1, 2: 14}, {24: 2, 10: 13})
    assert "7/1" not in " ".join(plays(not_last, (6, 1)))  # two there: closed


def test_plakoto_mother_wait_while_own_start_holds_checkers():
    pos = position({24: 2, 7: 1, 2: 12}, {24: 1, 10: 14})
    state = after(pos, (6, 1), "7/1* 2/1")
    assert not state.is_terminal and state.phase is Phase.CHANCE
    # Later, still pinning their mother, the last two leave our start: won.
    pinning = pins({24: 2, 1: 2, 2: 11}, {24: 1, 10: 14}, them=(1,))
    won = after(pinning, (6, 5), "24/18 24/19")
    assert won.is_terminal and won.winner == 0 and won.returns() == (2.0, -2.0)
    stays = after(pinning, (6, 5), "24/13")
    assert not stays.is_terminal


def test_plakoto_mothers_draw_when_both_are_pinned():
    # Our mother lies pinned on our 24 under their checker (their 1); their mother is
    # alone on their 24 (our 1), their start still holding it, so play went on.
    pos = pins({24: 1, 7: 1, 2: 13}, {1: 1, 24: 1, 10: 13}, me=(24,))
    assert not PK.state(pos, (6, 1)).is_terminal
    state = after(pos, (6, 1), "7/1* 2/1")
    assert state.is_terminal and state.winner is None and state.memo == MOTHERS_PINNED
    assert state.returns() == (0.0, 0.0)
    assert "draw" in PK.announce(PK.state(pos, (6, 1)), None, state)[0][1]


# --- score and cube -------------------------------------------------------------------------


def end_state(loser_row: dict[int, int]):
    """Player 0 bears off its last checker (on its 1-point) against ``loser_row``."""
    state = PK.state(position({1: 1}, loser_row), (6, 5))
    return state.apply(state.legal_actions()[0])


def test_plakoto_score_single_or_double_never_triple():
    assert end_state({1: 14}).returns() == (1.0, -1.0)
    assert end_state({1: 15}).returns() == (2.0, -2.0)
    assert end_state({20: 15}).returns() == (2.0, -2.0)  # in our home board: still 2
    assert PK.result_name(2) == "a double game" and not PK.ending.backgammons


def test_plakoto_no_cube():
    assert not cube_default(PK)
    assert not cube_game(PK, score=MatchScore(length=5, score=(0, 0))).cube_in_play
    assert StakeRules(cube=True).cube_for(PK)


# --- positions, notation, options ------------------------------------------------------------


def test_plakoto_notation_pins_written_and_read():
    assert format_position(PK, PK.start_position()) == "o......................O:0"
    pos = pins({24: 13, 13: 1, 3: 1}, {22: 1, 24: 14}, them=(3,), turn=0)
    text = format_position(PK, pos)
    assert text == "m..........a.........a^.N:0"
    assert parse_position(PK, text) == pos
    theirs = parse_position(PK, "m..........a.........A^.N:1")
    assert theirs.pinned(3) == 0 and theirs.turn == 1  # ours under theirs on our 3
    # Every position of random games with a pin reads back as it was written.
    found = [p for p in oracle.random_game_positions(PK, 300, seed=4) if any(p.pins)]
    assert len(found) > 100
    for p in found:
        assert parse_position(PK, format_position(PK, p)) == p
    for bad, words in [("^o.....................O:0", "must follow"),
                       ("o......................O^^:0", "must follow"),
                       ("o.....................O:0", "needs 24 cells"),
                       ("o......................O:2", "0 or 1"),
                       ("o......x...............O:0", "must be '.'")]:
        with pytest.raises(gammon.GammonError, match=words):
            parse_position(PK, bad)
    # Move text: a * marks a pin, and a pinned checker's move is refused with the reason.
    assert move_text_for(PK).introduction.startswith("Moves are written")
    stuck = pins({13: 1, 7: 1, 24: 13}, {18: 1, 24: 14}, me=(7,))
    with pytest.raises(gammon.IllegalPlayError, match="pinned"):
        find_play(PK.state(stuck, (6, 1)), "7/1 13/12")
    part = partial_play(PK.state(position({13: 1, 24: 14}, {18: 1, 24: 14}), (6, 1)), "13/7")
    assert part.text == "13/7*" and part.position.pinned(7) == 1


def test_plakoto_open_point_closed_by_a_pinner_in_moves_typed_in_parts():
    """A point where one of theirs pins one of ours is closed to a touch-down in a play
    typed in parts, and to an environment's step, though the counts after 21/15 are
    those of a board that 21/16/10 could reach."""
    pos = pins({21: 1, 15: 1, 24: 13}, {10: 1, 24: 14}, me=(15,))
    state = PK.state(pos, (6, 5))
    for text in ("21/15", "21/15/10"):
        with pytest.raises(gammon.IllegalPlayError, match="lands on 15, which the opponent"):
            partial_play(state, text)
    assert partial_play(state, "21/16/10").text == partial_play(state, "21/10").text == "21/10"
    legal = TurnInSteps(state).legal_steps()
    assert (21, 6) not in legal and (21, 5) in legal


def test_plakoto_pin_lands_on_a_lone_checker_and_moves_on():
    """A touch-down on a lone checker that moves on pins nothing: no star for it."""
    pos = position({24: 14, 9: 1}, {19: 1, 21: 1, 6: 13})  # theirs alone on our 6 and 4
    state = PK.state(pos, (3, 2))
    assert "9/4*" in plays(pos, (3, 2)) and "9/6*/4*" not in plays(pos, (3, 2))
    play = find_play(state, "9/4*")
    assert play.hits == 1 and play.result.pinned(4) == 1 and play.result.pinned(6) is None


def test_plakoto_notation_on_the_boards():
    pos = pins({24: 13, 13: 1, 3: 1}, {22: 1, 24: 14}, them=(3,))
    console = Console(width=120, record=True)
    console.print(render_board(PK.state(pos, (2, 1)), viewer=0))
    drawn = console.export_text()
    assert "(o) player 1's checker pinned under the checkers on its point" in drawn
    console = Console(width=120, record=True)
    console.print(render_board(PK.state(PK.start_position(), (2, 1)), viewer=0))
    assert "pinned" not in console.export_text()  # the legend only where a pin is
    svg = board_svg(PK.state(pos, (2, 1)), 0)
    assert svg.count("class='pin'") == 1
    assert "class='pin'" not in board_svg(PK.state(PK.start_position(), (2, 1)), 0)


def test_plakoto_pin_positions_checked():
    both = position({7: 1, 24: 14}, {18: 1, 24: 14})  # a shared point, no pin said
    with pytest.raises(gammon.InvalidOptionError, match="one of them must be pinned"):
        PK.state(both, (3, 1))
    two_under = pins({7: 2, 24: 13}, {18: 1, 24: 14}, me=(7,))
    with pytest.raises(gammon.InvalidOptionError, match="alone under"):
        PK.state(two_under, (3, 1))
    bar = Position.from_checkers([[0] * 24 + [14, 1], [0] * 24 + [15, 0]], 0)
    with pytest.raises(gammon.InvalidOptionError, match="no bar"):
        PK.state(bar, (3, 1))
    with pytest.raises(gammon.InvalidOptionError, match="pins nothing"):
        gammon.variant("portes").state(pins({24: 15}, {24: 15}), (3, 1))
    assert PK.state(position({24: 15}, {24: 15}), (3, 1)).position.pins == bytes(24)


def test_plakoto_options_are_named_and_typed():
    assert PK.options() == {"reroll_opening": True, "pinned_holds_bear_off": True}
    with pytest.raises(gammon.InvalidOptionError, match="takes true or false, not 1"):
        gammon.variant("plakoto", pinned_holds_bear_off=1)
    with pytest.raises(gammon.InvalidOptionError, match="no option"):
        gammon.variant("plakoto", mother=False)
    assert gammon.variant("tavli-plakoto").name == "plakoto"


# --- the kernel against a brute-force reading of the page -------------------------------


HAND_MADE = [
    PK.start_position(0), position({13: 1, 24: 14}, {18: 1, 24: 14}),
    pins({13: 1, 7: 1, 24: 13}, {18: 1, 24: 14}, me=(7,)),
    pins({13: 1, 7: 1, 24: 13}, {18: 1, 24: 14}, them=(7,)),
    pins({7: 2, 24: 13}, {18: 1, 24: 14}, them=(7,)),
    pins({6: 1, 3: 1}, {19: 1, 24: 14}, me=(6,)),
    pins({5: 1, 2: 12}, {20: 1, 24: 14}, me=(5,)),
    pins({24: 1, 7: 1, 2: 13}, {1: 1, 24: 1, 10: 13}, me=(24,)),
]


def agree(rules, positions: list[Position]) -> int:
    """Check every roll of ``positions``; return the position-rolls checked."""
    for pos in positions:
        for dice in ROLLS:
            got = [(p.result.board, p.result.pins)
                   for p in rules.state(pos, dice).legal_actions()]
            assert len(got) == len(set(got)), (pos, dice)
            expected = oracle.pin_results(pos, dice, rules.pinned_holds_bear_off)
            assert set(got) == expected, (pos, dice)
    return len(positions) * len(ROLLS)


@pytest.mark.parametrize("options", [{}, {"pinned_holds_bear_off": False}])
@answers.AFRESH
def test_plakoto_kernel_agrees_with_the_rules_page(options, afresh):
    """The oracle's answers stored (:mod:`answers`), asked afresh in make long: boards
    with their pins."""
    rules = gammon.variant("plakoto", **options)
    count = 200 if not options else 60
    name = answers.name_of("plakoto", options)
    checked = answers.agree_on_random_games(
        name, rules, lambda pos, dice: oracle.pin_results(pos, dice, rules.pinned_holds_bear_off),
        afresh=afresh, count=count, seed=33, hand_made=HAND_MADE,
        engine=lambda pos, dice: [(p.result.board, p.result.pins)
                                  for p in rules.state(pos, dice).legal_actions()])
    positions = [p for p, _ in answers.stored(name)]
    assert sum(1 for p in positions if any(p.pins)) > count // 2  # pins are exercised
    assert checked >= (4000 if not options else 1000)


@pytest.mark.slow
def test_plakoto_kernel_agrees_with_the_rules_page_20000_position_rolls():
    assert agree(PK, oracle.random_game_positions(PK, 960, seed=2033)) >= 20_000


# --- the kernel's random games ------------------------------------------------------------


def test_plakoto_compiled_games_keep_the_rules():
    """Compiled random games, checked move by move by the pin invariants of
    tests/test_invariants_nardy.py (no pinned checker moves, no landing where they stand
    on top, the pin row true to the counts, the mother): every game ends, by bearing off
    or by the mother, and scores 1 or 2 (0 for a draw)."""
    rows, fails, _ = run_checked("plakoto", 300, seed=5)
    fails.pop("wide head exceptions")
    assert not any(fails.values()), {k: v for k, v in fails.items() if v}
    assert (rows[:, 0] != -1).all()
    drawn = rows[:, 0] == -2
    assert drawn.any() and (rows[drawn, 1] == 0).all()
    assert set(rows[~drawn, 1]) == {1, 2}
    assert np.array_equal(rows, PK.random_playouts(300, seed=5))


# --- faces --------------------------------------------------------------------------------


def test_plakoto_command_line():
    runner = CliRunner()
    result = runner.invoke(app, ["selfplay", "plakoto", "--games", "200", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["games"] == 200 and stats["unfinished"] == 0 and stats["draws"] > 0
    assert all(p["backgammons"] == 0 for p in stats["players"])
    result = runner.invoke(app, ["legal", "plakoto", "--dice", "61", "--position",
                                 "n..........a.....A.....N:0", "--json"])
    assert result.exit_code == 0, result.output
    listed = {p["move"]: p["position_id"] for p in json.loads(result.output)["plays"]}
    assert listed["24/23 13/7*"] == "ma...............a^.....N:0"
    result = runner.invoke(app, ["duel", "plakoto", "--players", "heuristic,random",
                                 "--games", "4"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["play", "plakoto", "--seats", "random,random", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "wins" in result.output or "drawn" in result.output


def test_plakoto_engines_of_counts_alone_refuse_it():
    """The vector environment reads boards of counts alone: it refuses a game whose
    boards carry pins, so nothing plays it blind to them. The board search and the
    compiled self-play read the pin row and the mother (tests/test_agents_search.py,
    tests/test_nn.py)."""
    from gammon.agents import make_agent
    from gammon.agents.search import BoardSearch, board_search_applies
    from gammon.envs.vector import VectorEnv, supported_variants

    assert board_search_applies(PK) and board_search_applies(gammon.variant("portes"))
    assert "plakoto" not in supported_variants()
    with pytest.raises(gammon.InvalidOptionError, match="pins checkers"):
        VectorEnv("plakoto", 2)
    assert isinstance(make_agent("expectimax", PK).search, BoardSearch)
    # The bots see a win by the mother: they take it when they can.
    pos = position({7: 1, 2: 14}, {24: 1, 10: 14})
    state = PK.state(pos, (6, 1))
    for spec in ("heuristic", "expectimax:1", "expectimax:2"):
        chosen = make_agent(spec, PK, seed=1).choose(state)
        assert state.apply(chosen).winner == 0, spec


def test_plakoto_table_plays_and_restores_a_game():
    from gammon.table import Table

    for seed in range(3):
        table = Table("plakoto", ["heuristic", "random"], seed=seed)
        table.run()
        assert table.over and table.state.is_terminal
        again = Table.from_json(json.loads(json.dumps(table.to_json())))
        assert again.state == table.state and again.log == table.log
