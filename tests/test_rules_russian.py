"""One test per rule and option of docs/rules/russian.md, named after the rule's label.

Positions are written in each player's numbering, which in this game is the same for
both (24 = the far end of the starting table, 1 = the last point before bearing off;
25 the bar, where checkers wait to enter); checkers not placed are borne off. Expected
plays are move text worked out by hand from the rules page. The compiled move generator
is compared with a brute-force reading of the page (:func:`oracle_results`, written
here and sharing no code with the kernel; :func:`oracle.legal_boards` applies the dice
rules every game shares) over positions of random games, and the turn that follows a
double is checked in the Python rules and the compiled playouts alike.
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
from typer.testing import CliRunner

import gammon
from gammon import Phase, Roll
from gammon.cli.main import app
from gammon.core.variant import COMPLEMENT, LotChoice
from gammon.kernels import tracks
from gammon.notation import move_text_for
from gammon.stakes import MatchScore, cube_game
from gammon.stakes.rules import cube_default

RU = gammon.variant("russian")
plays, holding, end_state = layouts.rule_helpers(RU)
BAR, HOME = 25, 6


def after(rules, pos, dice):
    """The state after the first legal play of ``dice`` (the play, then the state)."""
    state = rules.state(pos, dice)
    play = max(state.legal_actions(), key=lambda p: len(p.moves))
    return play, state.apply(play)


# --- board and start -------------------------------------------------------------------


def test_ru_board_one_track_numbered_alike():
    for point in range(1, 25):
        assert RU.shared_slot(0, point, 1) == RU.shared_slot(1, point, 0) == point
    assert RU.points == 24 and RU.home == HOME and RU.contact.hitting


def test_ru_start_off_the_board():
    start = RU.start_position()
    for player in (0, 1):
        assert {s: n for s, n in enumerate(start.row(player)) if n} == {BAR: 15}


def test_ru_opening_the_starter_chooses():
    state = RU.initial_state()
    assert state.opening and len(state.chance_outcomes()) == 30
    lot = state.apply(Roll((2, 4), opening=True))
    assert lot.phase is Phase.DECIDE and lot.position.turn == 1 and lot.dice == (4, 2)
    assert list(lot.legal_actions()) == [LotChoice(True), LotChoice(False)]
    assert RU.decision_prompt(lot) == (
        "play the lot's 4-2 (play) or throw both dice again (throw)")
    kept = lot.apply(LotChoice(True))
    assert kept.phase is Phase.DECIDE and kept.dice == (4, 2) and kept.position.turn == 1
    assert plays(kept.position, kept.dice) == {"bar/23 bar/21"}
    thrown = lot.apply(LotChoice(False))
    assert thrown.phase is Phase.CHANCE and thrown.position.turn == 1
    assert dict((r.dice, p) for r, p in thrown.chance_outcomes())[(6, 6)] == Fraction(1, 36)
    with pytest.raises(gammon.IllegalPlayError, match="first choose"):
        lot.apply(kept.legal_actions()[0])
    # Typed by a person: the label or the name.
    moves = move_text_for(RU)
    assert moves.read_actions(lot, "throw") == [LotChoice(False)]
    assert moves.read_actions(lot, "Play the lot") == [LotChoice(True)]
    with pytest.raises(gammon.IllegalPlayError, match=r"throw again \(throw\)"):
        moves.read_actions(lot, "thro")


def test_ru_opening_option():
    lot = gammon.variant("russian", opening="lot").initial_state().apply(
        Roll((2, 4), opening=True))
    assert lot.phase is Phase.DECIDE and lot.dice == (4, 2) and lot.memo is None
    afresh = gammon.variant("russian", opening="throw").initial_state().apply(
        Roll((2, 4), opening=True))
    assert afresh.phase is Phase.CHANCE and afresh.position.turn == 1
    with pytest.raises(gammon.InvalidOptionError, match="choice, lot, throw"):
        gammon.variant("russian", opening="both")


# --- entering and moving ------------------------------------------------------------------


def test_ru_enter():
    start = RU.start_position(0)
    assert plays(start, (6, 3)) == {"bar/22 bar/19"}
    assert plays(start, (1, 1)) == {"bar/24(4)"}
    # Two opposing checkers on 19 close it to a 6; their lone checker on 22 is hit.
    pos = position({BAR: 15}, {19: 2, 22: 1, BAR: 12})
    assert plays(pos, (6, 3)) == {"bar/22*"}


def test_ru_enter_all_first():
    pos = position({BAR: 2, 20: 13}, {BAR: 15})
    assert plays(pos, (4, 3)) == {"bar/22 bar/21"}
    one = position({BAR: 1, 20: 14}, {BAR: 15})
    assert plays(one, (4, 3)) == {"bar/21 20/17", "bar/22 20/16", "bar/18"}
    # A checker hit later waits as well.
    hit = position({BAR: 1, 10: 14}, {5: 2, 6: 2, 19: 11})
    assert all(p.startswith("bar/") for p in plays(hit, (5, 2)))


def test_ru_move_same_way():
    pos = position({20: 1}, {14: 2, 17: 1, 1: 12})
    # 20/14 is closed to the 6; the 3 hits on 17 and the 6 goes on from there.
    assert plays(pos, (6, 3)) == {"20/17*/11"}
    # 5 and 1 cannot both be played (14 is closed from 15 and from 19): the 5.
    assert plays(pos, (5, 1)) == {"20/15"}


def test_ru_hit():
    state = RU.state(position({20: 1, 1: 14}, {17: 1, 2: 14}), (3, 1))
    assert plays(state.position, (3, 1)) == {"20/17*/16", "20/16"}
    hit = next(p for p in state.legal_actions() if p.hits)
    assert hit.result.bar(1) == 1 and hit.result.count(1, 17) == 0


def test_ru_both_dice():
    # 6 then 1: 20/14 is closed to the 6 first; through 19 the checker plays both.
    assert plays(position({20: 1}, {14: 2, 1: 13}), (6, 1)) == {"20/13"}
    # Either die alone but not both (9 is closed): the higher.
    assert plays(position({20: 1}, {9: 2, 1: 13}), (6, 5)) == {"20/14"}
    # Only the 6 can be played at all (15 is closed).
    assert plays(position({20: 1}, {15: 2, 9: 2, 1: 11}), (6, 5)) == {"20/14"}


# --- doubles ------------------------------------------------------------------------------


def test_ru_doubles():
    pos = position({20: 2, 10: 2}, {1: 15})
    assert all(len(p.moves) == 4 for p in RU.state(pos, (3, 3)).legal_actions())


def test_ru_complement():
    play, state = after(RU, position({20: 2, 10: 2}, {1: 15}), (6, 6))
    assert len(play.moves) == 4
    assert state.phase is Phase.DECIDE and state.position.turn == 0 and state.dice == (1, 1)
    assert state.memo == COMPLEMENT
    for n in range(1, 7):
        _, s = after(RU, position({20: 2, 16: 2}, {1: 15}), (n, n))
        assert s.phase is Phase.DECIDE and s.dice == (7 - n, 7 - n)


def test_ru_again():
    _, complement = after(RU, position({20: 2, 10: 2}, {1: 15}), (6, 6))
    play = max(complement.legal_actions(), key=lambda p: len(p.moves))
    again = complement.apply(play)
    assert again.phase is Phase.CHANCE and again.position.turn == 0 and again.memo is None
    assert RU.announce(complement, play, again) == [
        (0, "played the complement 1-1 in full: another throw.")]
    # Another double starts the same again.
    thrown = again.apply(Roll((5, 5)))
    _, second = after(RU, thrown.position, (5, 5))
    assert second.dice == (2, 2) and second.position.turn == 0


def test_ru_part_lost():
    # Only two of the four sixes can be played: no complement, the other player throws.
    play, state = after(RU, position({20: 2}, {14: 2, 1: 13}), (6, 6))
    assert len(play.moves) < 4
    assert state.phase is Phase.CHANCE and state.position.turn == 1
    # The complement not played in full: no throw again. After 6-6 from 20 the checkers
    # stand on 14, 8 or 2, and every point one below is closed.
    closed = position({20: 4}, {19: 2, 13: 2, 7: 2, 1: 2})
    play, complement = after(RU, closed, (6, 6))
    assert len(play.moves) == 4 and complement.dice == (1, 1)
    (none,) = complement.legal_actions()
    assert none.moves == ()
    passed = complement.apply(none)
    assert passed.phase is Phase.CHANCE and passed.position.turn == 1

def test_ru_entering_doubles():
    pos = position({BAR: 3, 20: 12}, {1: 15})
    play, state = after(RU, pos, (4, 4))
    assert len(play.moves) == 4
    assert state.phase is Phase.CHANCE and state.position.turn == 1
    loose = gammon.variant("russian", complement_while_entering=True)
    _, state = after(loose, pos, (4, 4))
    assert state.phase is Phase.DECIDE and state.dice == (3, 3) and state.position.turn == 0


def test_ru_complement_and_again_options():
    pos = position({20: 2, 10: 2}, {1: 15})
    _, plain = after(gammon.variant("russian", complement=False), pos, (6, 6))
    assert plain.phase is Phase.CHANCE and plain.position.turn == 0
    once = gammon.variant("russian", again=False)
    _, complement = after(once, pos, (6, 6))
    assert complement.dice == (1, 1)
    done = complement.apply(max(complement.legal_actions(), key=lambda p: len(p.moves)))
    assert done.phase is Phase.CHANCE and done.position.turn == 1
    # Turns of one throw and no decision but plays: what the board search plays.
    backgammon_like = gammon.variant("russian", complement=False, again=False,
                                     opening="lot")
    assert backgammon_like.game_type.turns == "alternate"
    assert gammon.variant("russian", complement=False, again=False).game_type.turns == "own"
    assert RU.game_type.turns == "own" and RU.game_type.cascades


# --- bearing off and scoring ------------------------------------------------------------


def test_ru_bear_off():
    assert plays(position({7: 1, 3: 1}, {20: 15}), (6, 3)) == {"7/1 3/off", "7/off"}
    assert plays(position({4: 1, 3: 1}, {20: 15}), (6, 5)) == {"4/off 3/off"}


def test_ru_score():
    assert end_state({1: 1}, {1: 14}).returns() == (1.0, -1.0)
    assert end_state({1: 1}, {1: 15}).returns() == (2.0, -2.0)
    assert end_state({1: 1}, {1: 14, 20: 1}).returns() == (3.0, -3.0)
    assert end_state({1: 1}, {1: 14, BAR: 1}).returns() == (3.0, -3.0)
    assert end_state({1: 1}, {1: 14, 18: 1}).returns() == (2.0, -2.0)


def test_ru_no_cube():
    assert not cube_default(RU)
    assert not cube_game(RU, score=MatchScore(length=5, score=(0, 0))).cube_in_play


def test_ru_options_are_named_and_typed():
    assert RU.options() == {"complement": True, "again": True,
                            "complement_while_entering": False, "opening": "choice"}
    with pytest.raises(gammon.InvalidOptionError, match="takes true or false"):
        gammon.variant("russian", again="yes")
    assert gammon.variant("russian-backgammon").name == "russian"


# --- the kernel against a brute-force reading of the page -------------------------------


def oracle_results(pos, dice: tuple[int, int]) -> set[bytes]:
    """Every legal resulting board of ``dice``, from the page alone (RU-ENTER,
    RU-ENTER-ALL-FIRST, RU-MOVE, RU-HIT, RU-BOTH-DICE, RU-DOUBLES, RU-BEAR-OFF): one
    track numbered alike for both sides."""
    mover = pos.turn

    def step(state: tuple[tuple[int, ...], tuple[int, ...]], source: int, die: int):
        mine, theirs = state
        if not mine[source] or (mine[BAR] and source != BAR):
            return None
        target = source - die
        if target >= 1:
            if theirs[target] >= 2:
                return None
        else:
            if source == BAR or any(mine[HOME + 1:]):
                return None
            if target < 0 and any(mine[source + 1:HOME + 1]):
                return None
            target = 0
        moved, other = list(mine), list(theirs)
        moved[source] -= 1
        moved[target] += 1
        if target and other[target] == 1:
            other[target] = 0
            other[BAR] += 1
        return tuple(moved), tuple(other)

    def moves(state, die: int):
        return [m for m in (step(state, s, die) for s in range(1, BAR + 1)) if m]

    start = (tuple(pos.row(mover)), tuple(pos.row(1 - mover)))
    boards, _ = oracle.legal_boards(start, dice, moves)
    out = set()
    for mine, theirs in boards:
        rows = [theirs, theirs]
        rows[mover] = mine
        out.add(bytes(rows[0] + rows[1]))
    return out


HAND_MADE = [
    RU.start_position(0), position({BAR: 15}, {19: 2, 22: 1, BAR: 12}),
    position({BAR: 1, 20: 14}, {BAR: 15}), position({BAR: 1, 10: 14}, {5: 2, 6: 2, 19: 11}),
    position({20: 1}, {14: 2, 17: 1, 1: 12}), position({7: 1, 3: 1}, {20: 15}),
]


@answers.AFRESH
def test_ru_kernel_agrees_with_the_rules_page(afresh):
    """The oracle's answers stored (:mod:`answers`), asked afresh in make long."""
    checked = answers.agree_on_random_games(
        "russian", RU, oracle_results, afresh=afresh, count=140, seed=47,
        hand_made=HAND_MADE)
    assert checked >= 3000


@pytest.mark.slow
def test_ru_kernel_agrees_with_the_rules_page_20000_position_rolls():
    positions = oracle.random_game_positions(RU, 960, seed=2047)
    assert oracle.agree(RU, positions, oracle_results) >= 20_000


# --- the turn after a double, in the rules and the compiled playouts --------------------


@pytest.mark.parametrize("options", [{}, {"complement": False}, {"again": False},
                                     {"complement_while_entering": True}])
def test_ru_compiled_turn_follows_the_rules(options):
    """The compiled ``after_double`` says what the Python rules do after every kind of
    play (a double in full or not, a complement, thrown entering or not), and the
    compiled random games last as long as the Python rules' random games (under the
    default rules)."""
    rules = gammon.variant("russian", **options)
    base = position({20: 2, 10: 2}, {1: 15})
    entering = position({BAR: 3, 20: 12}, {1: 15})
    for pos in (base, entering):
        for n in range(1, 7):
            for complement in (False, True):
                state = rules.state(pos, (n, n))
                if complement:
                    state = type(state)(rules, state.position, state.phase, state.dice,
                                        False, 0, COMPLEMENT)
                for play in state.legal_actions():
                    python = rules.after_double(state, play)
                    compiled = tracks.after_double(
                        len(play.moves) == 4, complement, pos.bar(0) > 0, rules.kernel.rules)
                    assert {"": 0, COMPLEMENT: 1, "again": 2}[python] == compiled
    if options:
        return  # the games' lengths: under the default rules
    lengths = layouts.random_game_lengths(rules, 100, seed=3)
    rows = rules.random_playouts(1500, seed=3)
    assert (rows[:, 0] >= 0).all() and set(rows[:, 1]) <= {1, 2, 3}
    assert abs(np.mean(lengths) / rows[:, 2].mean() - 1) < 0.08, (np.mean(lengths),
                                                                   rows[:, 2].mean())


# --- faces --------------------------------------------------------------------------------


def test_ru_command_line():
    runner = CliRunner()
    result = runner.invoke(app, ["selfplay", "russian", "--games", "100", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["games"] == 100 and stats["unfinished"] == 0 and stats["draws"] == 0
    result = runner.invoke(app, ["legal", "russian", "--dice", "63"])
    assert result.exit_code == 0 and "bar/22 bar/19" in result.output, result.output
    result = runner.invoke(app, ["play", "russian", "--seats", "random,random", "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert "the complement" in result.output and "another throw" in result.output


def test_ru_bots_beat_random():
    """The heuristic, seats rotated, wins clearly over 40 games against random play, and
    the search (the default bot) over a few."""
    for players, games in (("heuristic,random", 40), ("expectimax:1,random", 4)):
        points = layouts.duel_points("russian", players, games)
        assert points["ci95"][0] > 0 and points["mean"] >= 1.0, points
