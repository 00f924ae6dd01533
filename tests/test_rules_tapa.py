"""Tapa (docs/rules/tapa.md): one test per rule, named after its label.

Tapa is Plakoto without the mother; each test checks the difference against
``plakoto`` too, so that it is exactly the rule. Positions are in each player's own
numbering; checkers not placed are borne off (see tests/test_rules_plakoto.py, whose
helpers these tests share).
"""

from __future__ import annotations

import json

import numpy as np
import oracle
import pytest
from layouts import position
from test_invariants_nardy import run_checked
from test_rules_plakoto import HAND_MADE, ROLLS, after, agree, pins
from typer.testing import CliRunner

import gammon
from gammon import Phase
from gammon.cli.main import app
from gammon.core.variant import MOTHERS_PINNED

TAPA = gammon.variant("tapa")
PK = gammon.variant("plakoto")


def test_tapa_rules_are_plakotos_moves():
    assert TAPA.start_position() == PK.start_position()
    assert TAPA.contact.pinning and not TAPA.contact.hitting and not TAPA.cube
    assert not TAPA.ending.backgammons
    assert TAPA.options() == PK.options() and TAPA.notation == PK.notation == "pins"
    positions = oracle.random_game_positions(TAPA, 60, seed=8) + HAND_MADE
    assert sum(1 for p in positions if any(p.pins)) > 30
    for pos in positions:
        for dice in ROLLS:
            ours = {(p.result.board, p.result.pins)
                    for p in TAPA.state(pos, dice).legal_actions()}
            theirs = {(p.result.board, p.result.pins)
                      for p in PK.state(pos, dice).legal_actions()}
            expected = oracle.pin_results(pos, dice, TAPA.pinned_holds_bear_off)
            assert ours == theirs == expected, (pos, dice)


@pytest.mark.slow
def test_tapa_kernel_agrees_with_the_oracle_20000_position_rolls():
    positions = oracle.random_game_positions(TAPA, 960, seed=2034)
    assert sum(1 for p in positions if any(p.pins)) > 300
    assert agree(TAPA, positions) >= 20_000


def test_tapa_no_mother():
    pos = position({7: 1, 2: 14}, {24: 1, 10: 14})  # their mother alone on our 1
    assert after(pos, (6, 1), "7/1* 2/1", PK).winner == 0  # Plakoto: won at once
    state = after(pos, (6, 1), "7/1* 2/1", TAPA)
    assert state.phase is Phase.CHANCE and state.position.pinned(1) == 1
    assert TAPA.announce(TAPA.state(pos, (6, 1)), None, state) == []
    # The game goes on to its bearing off: here player 0 finishes from all home.
    home = pins({1: 1, 2: 1}, {24: 1, 10: 14}, them=(1,))
    end = after(home, (2, 1), "2/off 1/off", TAPA)
    assert end.is_terminal and end.winner == 0 and end.returns() == (2.0, -2.0)


def test_tapa_standstill_draw_when_both_mothers_are_pinned():
    pos = pins({24: 1, 7: 1, 2: 13}, {1: 1, 24: 1, 10: 13}, me=(24,))
    for rules in (TAPA, PK):
        state = after(pos, (6, 1), "7/1* 2/1", rules)
        assert state.is_terminal and state.winner is None and state.memo == MOTHERS_PINNED
        assert state.returns() == (0.0, 0.0)
    # Compiled random games: the pin invariants, the draw, no game cut off; the kernel's
    # games replay through the Python rules (tests/test_invariants_nardy.py, "tapa").
    rows, fails, _ = run_checked("tapa", 300, seed=5)
    fails.pop("wide head exceptions")
    assert not any(fails.values()), {k: v for k, v in fails.items() if v}
    assert (rows[:, 0] != -1).all()
    drawn = rows[:, 0] == -2
    assert drawn.any() and (rows[drawn, 1] == 0).all() and set(rows[~drawn, 1]) == {1, 2}
    assert np.array_equal(rows, TAPA.random_playouts(300, seed=5))
    # Longer than Plakoto's games: a pinned mother does not end them.
    assert rows[:, 2].mean() > PK.random_playouts(300, seed=5)[:, 2].mean()


def test_tapa_command_line():
    runner = CliRunner()
    result = runner.invoke(app, ["selfplay", "tapa", "--games", "200", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["unfinished"] == 0 and stats["draws"] > 0
    result = runner.invoke(app, ["legal", "tapa", "--dice", "61"])
    assert result.exit_code == 0 and "24/17" in result.output, result.output
    result = runner.invoke(app, ["duel", "tapa", "--players", "heuristic,random",
                                 "--games", "4"])
    assert result.exit_code == 0, result.output
