"""Caucasian backgammon (docs/rules/caucasian.md): one test per rule, named after its
label.

Caucasian builds on short backgammon: the no-hide rule and its finer points are tested
for both games in tests/test_rules_short.py (and the compiled generator against a
brute-force reading of both pages there). Here: what Caucasian changes. Positions are
in each player's own numbering (25 is the bar); checkers not placed are borne off.
"""

from __future__ import annotations

import layouts
import pytest
from layouts import position

import gammon
from gammon import Position
from gammon.core.dice import two_dice
from gammon.stakes import StakeRules
from gammon.variants.short import Short

CAU = gammon.variant("caucasian")
plays, _, _ = layouts.rule_helpers(CAU)
SHORT = gammon.variant("short")
BG = gammon.variant("backgammon")
HOME_ONLY = gammon.variant("caucasian", no_hide_home_only=True)
ROLLS = [roll.dice for roll, _ in two_dice()]


def test_cau_base_is_short_backgammon():
    assert isinstance(CAU, Short)
    assert CAU.start_position() == SHORT.start_position() == BG.start_position()
    assert CAU.after_hit.no_hide and CAU.result_names == SHORT.result_names
    assert StakeRules().no_mars_for(CAU)
    for dice in ROLLS:
        assert plays(CAU.start_position(), dice) == plays(SHORT.start_position(), dice, SHORT)
    for alias in ("caucasian-backgammon", "caucasian-nardy"):
        assert gammon.variant(alias).name == "caucasian"
    # The no-hide rule is the game: it is not an option.
    assert "no_hit_and_hide" not in CAU.options()
    assert CAU.options() == {"no_bear_off_hitter": False, "no_hide_home_only": False,
                             "koks": False}


def test_cau_hit_then_bear_off():
    # All home; 5/3* hits their blot on our 3 (their 22), then the 3 bears it off. Short
    # backgammon refuses it (SHORT-NO-BEAR-OFF-HITTER).
    pos = position({5: 1, 2: 2}, {22: 1, 1: 14})
    assert "5/3*/off" in plays(pos, (3, 2))
    assert "5/3*/off" not in plays(pos, (3, 2), SHORT)
    # A pair too: hit, cover, and both borne off.
    pos = position({6: 2, 4: 1}, {22: 1, 1: 14})
    assert "6/3*/off(2)" in plays(pos, (3, 3))
    # Option: short backgammon's reading.
    strict = gammon.variant("caucasian", no_bear_off_hitter=True)
    assert plays(pos, (3, 3), strict) == plays(pos, (3, 3), SHORT) == {"6/3*/off 6/3 4/1"}


def test_cau_home_only():
    # A hit on our 10 (outside the home board) binds nobody under the option: the
    # hitter may go on to our 8 where ours stand.
    pos = position({13: 1, 8: 2}, {15: 1, 1: 14})
    assert "13/10*/8" in plays(pos, (3, 2), HOME_ONLY)
    assert "13/10*/8" not in plays(pos, (3, 2))
    # A hit on our 5 (in the home board) does: 8/5* and on to our 3 is hiding.
    pos = position({8: 1, 3: 2, 13: 2}, {20: 1, 1: 14})
    assert "8/5*/3" in plays(pos, (3, 2), BG)
    assert "8/5*/3" not in plays(pos, (3, 2), HOME_ONLY)
    assert "8/5*/3" not in plays(pos, (3, 2))
    # An entering hit is in the opponent's home board: free under the option.
    pos = position({25: 1, 20: 2}, {3: 1, 1: 14})
    assert "bar/22*/20" in plays(pos, (3, 2), HOME_ONLY)
    assert "bar/22*/20" not in plays(pos, (3, 2))


@pytest.mark.parametrize(("loser", "points"), [({19: 1}, 1), ({6: 15}, 2), ({19: 15}, 2),
                                                ({25: 1, 6: 14}, 2)])
def test_cau_score_as_short_backgammon(loser, points):
    rows = [[0] * 26, [0] * 26]
    rows[0][1], rows[0][0] = 1, 14
    for slot, n in loser.items():
        rows[1][slot] = n
    rows[1][0] = 15 - sum(rows[1])
    state = CAU.state(Position.from_checkers(rows, 0), (2, 1))
    end = state.apply(state.legal_actions()[0])
    assert end.returns() == (points, -points)
    assert CAU.result_name(2) == "a mars"
