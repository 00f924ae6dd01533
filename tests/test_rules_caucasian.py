"""Caucasian backgammon (docs/rules/caucasian.md) and the short-backgammon names
(docs/rules/backgammon.md, "Short backgammon"): one test per rule, named after its label.

Positions are in each player's own numbering (backgammon: our point n is the opponent's
25 - n; 25 is the bar); checkers not placed are borne off. Each case is checked against
standard backgammon too, so that the difference is exactly the no hit-and-hide rule.
"""

from __future__ import annotations

import oracle
import pytest
from layouts import position

import gammon
from gammon import Position
from gammon.core.dice import two_dice
from gammon.notation.movetext import format_play

CAU = gammon.variant("caucasian")
BG = gammon.variant("backgammon")
ROLLS = [roll.dice for roll, _ in two_dice()]


def plays(pos: Position, dice: tuple[int, int], rules=CAU) -> set[str]:
    return {format_play(play) for play in rules.state(pos, dice).legal_actions()}


def results(pos: Position, dice: tuple[int, int], rules=CAU) -> set[tuple]:
    """Each legal play as (the mover's points, opposing checkers sent to the bar)."""
    found = set()
    for play in rules.state(pos, dice).legal_actions():
        row = play.result.row(pos.turn)
        found.add((tuple((s, n) for s, n in enumerate(row) if n and s), play.hits))
    return found


def layout(**points: int) -> tuple:
    return tuple(sorted((25 if key == "bar" else int(key[1:]), n) for key, n in points.items()))


# An opposing blot on our 10 (their 15); the rest of theirs far away on their 1 (our 24).
BLOT_10 = {15: 1, 1: 14}


def test_cau_base_is_backgammon():
    assert CAU.start_position() == BG.start_position()
    assert CAU.no_hit_and_hide and not BG.no_hit_and_hide
    for dice in ROLLS:
        assert plays(CAU.start_position(), dice) == plays(BG.start_position(), dice, BG)
    for alias in ("caucasian-backgammon", "caucasian-nardy"):
        assert gammon.variant(alias).name == "caucasian"


def test_cau_no_hide():
    # 13/10* and on to our own 8 with the 2: forbidden; backgammon allows it.
    pos = position({13: 1, 8: 2}, BLOT_10)
    assert "13/10*/8" in plays(pos, (3, 2), BG)
    assert "13/10*/8" not in plays(pos, (3, 2))
    assert (layout(p8=3), 1) not in results(pos, (3, 2))
    # Without hitting, the same checker may go 13/11/8.
    assert (layout(p8=3), 0) in results(pos, (3, 2))


def test_cau_hit_then_cover():
    pos = position({13: 1, 12: 1, 8: 2}, BLOT_10)
    assert "13/10* 12/10" in plays(pos, (3, 2))


def test_cau_hit_then_move_on_to_an_empty_point():
    pos = position({13: 1, 6: 2}, BLOT_10)
    assert "13/10*/8" in plays(pos, (3, 2))


def test_cau_hit_then_hit_again():
    pos = position({13: 1, 6: 2}, {15: 1, 17: 1, 1: 13})  # blots on our 10 and 8
    assert "13/10*/8*" in plays(pos, (3, 2))


def test_cau_hit_then_bear_off():
    # All home; 5/3* hits their blot on our 3 (their 22), then the 3 bears it off.
    pos = position({5: 1, 2: 2}, {22: 1, 1: 14})
    assert "5/3*/off" in plays(pos, (3, 2))


def test_cau_hit_then_hide_later_in_the_turn():
    # 2-2: 14/12*/10 onto an empty point is fine, going on to our own 8 is hiding.
    pos = position({24: 1, 14: 1, 8: 2}, {13: 1, 1: 14})
    assert (layout(p22=1, p8=3), 1) in results(pos, (2, 2), BG)
    assert (layout(p22=1, p8=3), 1) not in results(pos, (2, 2))
    assert (layout(p20=1, p10=1, p8=2), 1) in results(pos, (2, 2))  # stopping on 10
    assert "24/20 14/12*/10" in plays(pos, (2, 2))
    assert "24/22 14/12*/8" in plays(pos, (2, 2), BG)
    assert "24/22 14/12*/8" not in plays(pos, (2, 2))


def test_cau_covered_hitter():
    # 2-2 with two checkers on 14 and ours on 10: 14/12* and 14/12 (covered), then one
    # of the two goes 12/10: that is the cover moving on, allowed.
    pos = position({14: 2, 10: 1, 6: 2}, {13: 1, 1: 14})
    assert (layout(p12=1, p10=2, p6=1, p4=1), 1) in results(pos, (2, 2))
    assert "14/12*/10 14/12 6/4" in plays(pos, (2, 2))
    # The one left on 12 is the hitter, alone again: it may not follow onto our 10.
    assert (layout(p10=3, p6=2), 1) in results(pos, (2, 2), BG)
    assert (layout(p10=3, p6=2), 1) not in results(pos, (2, 2))
    assert "14/12*/10(2)" in plays(pos, (2, 2), BG)
    assert "14/12*/10(2)" not in plays(pos, (2, 2))


def test_cau_point_held_at_that_moment():
    # 2-2: 14/12*, then 10/8 empties our 10, then the hitter 12/10 lands on an empty
    # point: allowed (only in that order), and 24/22 plays the last two.
    pos = position({24: 1, 14: 1, 10: 1}, {13: 1, 1: 14})
    assert (layout(p22=1, p10=1, p8=1), 1) in results(pos, (2, 2))
    assert "24/22 14/12*/8" in plays(pos, (2, 2))
    # Onto 10 while our checker is still there: hiding.
    assert "24/20 14/12*/10" in plays(pos, (2, 2), BG)
    assert "24/20 14/12*/10" not in plays(pos, (2, 2))


def test_cau_other_checkers_unaffected():
    pos = position({13: 1, 8: 2, 6: 2}, BLOT_10)
    assert "13/10* 8/6" in plays(pos, (3, 2))


def test_cau_entering_hitter():
    # bar/22* hits; going on to our 20 with the 2 is hiding; bar/23/20 does not hit.
    pos = position({25: 1, 20: 2}, {3: 1, 1: 14})
    assert (layout(p20=3), 1) in results(pos, (3, 2), BG)
    assert (layout(p20=3), 1) not in results(pos, (3, 2))
    assert (layout(p20=3), 0) in results(pos, (3, 2))
    assert (layout(p22=1, p18=1, p20=1), 1) in results(pos, (3, 2))
    assert plays(pos, (3, 2)) == {"bar/20", "bar/22* 20/18", "bar/23 20/17"}
    assert plays(pos, (3, 2), BG) - plays(pos, (3, 2)) == {"bar/22*/20"}


def test_cau_dice_use_counts_only_legal_plays():
    # Our 11, 6 and 5 closed: the only way to play both dice is 13/10*/8, hiding, so one
    # die is played: the 3 (13/10*); backgammon plays both.
    pos = position({13: 1, 8: 2}, {15: 1, 14: 2, 19: 2, 20: 2, 1: 8})
    assert plays(pos, (3, 2), BG) == {"13/10*/8"}
    assert plays(pos, (3, 2)) == {"13/10*"}


def test_cau_score_as_backgammon():
    for loser, points in (({19: 1}, 1), ({6: 15}, 2), ({19: 15}, 3), ({25: 1, 6: 14}, 3)):
        rows = [[0] * 26, [0] * 26]
        rows[0][1], rows[0][0] = 1, 14
        for slot, n in loser.items():
            rows[1][slot] = n
        rows[1][0] = 15 - sum(rows[1])
        state = CAU.state(Position.from_checkers(rows, 0), (2, 1))
        end = state.apply(state.legal_actions()[0])
        assert end.returns() == (points, -points)


# --- the kernel against a brute-force reading of the page -----------------------------


def cau_results(pos: Position, dice: tuple[int, int]) -> set[bytes]:
    """Every legal resulting board: backgammon's moves (tests/oracle.py), each refused
    when a checker that hit this turn and stands alone would land on a point its owner
    holds at that moment; the dice rules over what remains."""

    def finish(order: list[int]) -> dict:
        stopped: dict = {}
        frontier = {(oracle.board_of(pos), frozenset())}
        for used, die in enumerate(order):
            following = set()
            for board, hitters in frontier:
                moves = []
                for source in range(1, 26):
                    step = oracle.single_move(board, source, die)
                    if step is None:
                        continue
                    after, target, hit = step
                    alone = source in hitters and board.mine[source] == 1
                    if alone and target > 0 and board.mine[target] > 0:
                        continue
                    standing = set(hitters)
                    if alone:
                        standing.discard(source)
                        if target > 0:
                            standing.add(target)
                    if hit:
                        standing.add(target)
                    moves.append((after, frozenset(standing)))
                if not moves:
                    stopped[board] = max(stopped.get(board, 0), used)
                following.update(moves)
            frontier = following
        for board, _ in frontier:
            stopped[board] = len(order)
        return stopped

    high, low = max(dice), min(dice)
    if high == low:
        found = finish([high] * 4)
        most = max(found.values())
        boards = {b for b, n in found.items() if n == most}
    else:
        first, second = finish([high, low]), finish([low, high])
        most = max(max(first.values()), max(second.values()))
        if most == 1:
            boards = {b for b, n in first.items() if n == 1} or {
                b for b, n in second.items() if n == 1
            }
        else:
            boards = {b for b, n in first.items() if n == most}
            boards |= {b for b, n in second.items() if n == most}
    return {oracle.engine_bytes(b, pos.turn) for b in boards}


HAND_MADE = [
    position({13: 1, 8: 2}, BLOT_10), position({24: 1, 14: 1, 8: 2}, {13: 1, 1: 14}),
    position({14: 2, 10: 1, 6: 2}, {13: 1, 1: 14}), position({24: 1, 14: 1, 10: 1}, {13: 1, 1: 14}),
    position({25: 1, 20: 2}, {3: 1, 1: 14}),
]


def test_cau_kernel_agrees_with_the_rules_page():
    positions = oracle.random_game_positions(CAU, 100, seed=3) + HAND_MADE
    for pos in positions:
        for dice in ROLLS:
            got = [p.result.board for p in CAU.state(pos, dice).legal_actions()]
            assert len(got) == len(set(got))
            assert set(got) == cau_results(pos, dice), (pos, dice)


def test_cau_compiled_generator_alone_finds_every_double():
    pos = position({24: 1, 14: 1, 10: 1}, {13: 1, 1: 14})
    rows = CAU.kernel.plays(pos.board, 0, 2, 2)
    assert {rows[i, :52].tobytes() for i in range(len(rows))} == cau_results(pos, (2, 2))


# --- short backgammon ----------------------------------------------------------------


def test_short_alias():
    for name in ("short", "short-backgammon", "short-nardy"):
        short = gammon.variant(name)
        assert type(short) is type(BG) and short.name == "backgammon"
        assert short.start_position() == BG.start_position()


@pytest.mark.parametrize(("loser", "points"), [({19: 1}, 1), ({6: 15}, 2), ({19: 15}, 3)])
def test_short_score_oin_mars_koks(loser, points):
    short = gammon.variant("short")
    rows = [[0] * 26, [0] * 26]
    rows[0][1], rows[0][0] = 1, 14
    for slot, n in loser.items():
        rows[1][slot] = n
    rows[1][0] = 15 - sum(rows[1])
    state = short.state(Position.from_checkers(rows, 0), (2, 1))
    assert state.apply(state.legal_actions()[0]).returns() == (points, -points)
