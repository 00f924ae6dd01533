"""One test per rule and option of docs/rules/gul-bara.md, named after the rule's label.

Positions are written in each player's own numbering (24 = the start, 1 = the last point
before bearing off; our point n is the opponent's n + 12, counted round), checkers not
placed are borne off. Expected plays are move text worked out by hand from the rules
page. The compiled move generator is compared with the brute-force reading of the page
in tests/oracle.py (:func:`oracle.same_way_results`, which shares no code with the
kernel); the compiled games (:mod:`gammon.kernels.gulbara`, whose turns with their
cascades are written apart from the Python rules) are replayed through the Python rules
and checked for the page's invariants.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction

import answers
import layouts
import numpy as np
import oracle
import pytest
from layouts import position
from typer.testing import CliRunner

import gammon
from gammon import Phase, Position, Roll
from gammon.cli.main import app
from gammon.core.variant import GameState
from gammon.kernels import gulbara as kernel
from gammon.stakes import MatchScore, StakeRules, cube_game
from gammon.stakes.rules import cube_default
from gammon.variants.gulbara import GulMemo

GB = gammon.variant("gul-bara")
plays, _, end_state = layouts.rule_helpers(GB)
GIVE = gammon.variant("gul-bara", unplayed="opponent")
EVERY = gammon.variant("gul-bara", cascade_from=1)
BY_GAME = gammon.variant("gul-bara", cascade_counts="game")
FV = gammon.variant("fevga")
#: Room for every double from 2-2 to 6-6 to be played in full.
ROOMY = ({11: 5, 10: 5, 9: 5}, {24: 15})
#: 3-3 takes the checker on 20 to 11 and no further (their checkers on our 12 and 8); the
#: fourteen at home may not bear off while it is out.
SHORT = ({20: 1, 1: 14}, {24: 14, 20: 1})


def first(state: GameState):
    """The first legal play (enough where every legal play uses the same dice)."""
    return state.legal_actions()[0]


def drive(rules, throws: list[tuple[int, int]],
          choose: Callable[[GameState], object] = first) -> list[GameState]:
    """A game from the start: player 0 wins the lot, then ``throws`` are thrown in turn,
    each turn's plays (the cascade's included) chosen by ``choose``. Every state met."""
    state = rules.initial_state().apply(Roll((6, 1), opening=True))
    seen = [state]
    for dice in throws:
        assert state.is_chance, seen
        state = state.apply(Roll(dice))
        seen.append(state)
        while state.phase is Phase.DECIDE:
            state = state.apply(choose(state))
            seen.append(state)
    return seen


def cascade(state: GameState) -> list[tuple[int, int, tuple[int, ...]]]:
    """Play ``state`` on with first legal plays while its player keeps the dice: (player,
    moves played, dice) of each play; and the state after."""
    steps = []
    mover = state.position.turn
    while state.phase is Phase.DECIDE and state.position.turn == mover:
        play = first(state)
        steps.append((state.position.turn, len(play.moves), state.dice))
        state = state.apply(play)
    return steps, state


# --- board and start ------------------------------------------------------------------


def test_gb_board_is_long_nardys():
    for point in range(1, 25):
        assert GB.shared_slot(0, point, 1) == (point + 11) % 24 + 1
    assert GB.notation == "nardy" and GB.move_text == "nardy" and GB.family == "nardy"
    assert GB.game_type.turns == "own"


def test_gb_start_fifteen_on_the_24_point():
    start = GB.start_position()
    for player in (0, 1):
        assert {s: n for s, n in enumerate(start.row(player)) if n} == {24: 15}
    assert start.count(1, GB.shared_slot(0, 12, 1)) == 15
    assert not GB.contact.hitting and GB.contact.block == 1 and not GB.head.slot


def test_gb_opening_starter_throws_again():
    state = GB.initial_state()
    assert state.opening and len(state.chance_outcomes()) == 30
    after = state.apply(Roll((3, 5), opening=True))
    assert after.phase is Phase.CHANCE and after.position.turn == 1
    assert dict((r.dice, p) for r, p in after.chance_outcomes())[(2, 2)] == Fraction(1, 36)
    thrown = after.apply(Roll((4, 2)))
    assert thrown.dice == (4, 2) and thrown.memo == GulMemo((0, 1), False, False)


# --- moving ---------------------------------------------------------------------------


def test_gb_dice_as_in_long_nardy():
    assert plays(position({20: 1}, {2: 1}), (6, 1)) == {"20/13"}  # our 14 is their 2
    assert plays(position({20: 1}, {21: 1}), (6, 5)) == {"20/14"}  # the higher die
    only = GB.state(position({20: 1}, {2: 1}), (6, 6)).legal_actions()
    assert len(only) == 1 and only[0].moves == ()


def test_gb_closed_by_a_single_checker():
    pos = position({24: 14, 10: 1}, {5: 1, 24: 14})  # their 5 is our 17
    assert "24/17" not in plays(pos, (4, 3))
    assert all(p.hits == 0 for p in GB.state(pos, (4, 3)).legal_actions())
    assert "24/16(2)" in plays(pos, (4, 4))  # passing over our 17


def test_gb_free_start():
    start = GB.start_position(0)
    assert plays(start, (6, 6)) == {"24/18(4)"}  # 18/12 would land on their start
    assert plays(start, (6, 6), FV) == {"24/18"}
    assert "24/23 24/21" in plays(start, (3, 1))


def test_gb_primes_allowed():
    # A prime of our 6..1 with all fifteen of theirs behind it, and all six points of
    # our starting quarter.
    prime = position({24: 9, 7: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 1}, {24: 15})
    assert "24/22 7/6" in plays(prime, (2, 1))
    quarter = position({24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {5: 15})
    assert "24/19 5/1" in plays(quarter, (5, 4))


# --- the cascade ----------------------------------------------------------------------


def test_gb_cascade_to_six_six():
    steps, after = cascade(GB.state(position(*ROOMY), (2, 2)))
    assert steps == [(0, 4, (d, d)) for d in range(2, 7)]
    assert after.is_chance and after.position.turn == 1
    # A 6-6 is the top: nothing follows it.
    steps, after = cascade(GB.state(position(*ROOMY), (6, 6)))
    assert steps == [(0, 4, (6, 6))] and after.position.turn == 1
    # Not after other throws.
    steps, after = cascade(GB.state(position(*ROOMY), (5, 4)))
    assert len(steps) == 1 and after.position.turn == 1


def test_gb_cascade_each_play_its_own():
    state = GB.state(position(*ROOMY), (4, 4))
    state = state.apply(first(state))
    assert state.phase is Phase.DECIDE and state.dice == (5, 5) and state.memo.cascade
    got = {p.result.board for p in state.legal_actions()}
    assert got == oracle.same_way_results(state.position, (5, 5), first_past=0,
                                          start_quarter=False)
    assert {len(p.moves) for p in state.legal_actions()} == {4}


def test_gb_cascade_from_the_fourth_turn():
    throws = [(2, 2), (2, 1), (1, 1), (3, 1), (4, 4), (4, 2), (2, 2)]
    seen = drive(GB, throws)
    doubles = [(s.position.turn, s.dice) for s in seen if s.phase is Phase.DECIDE]
    # Player 0's first three turns (2-2, 1-1, 4-4) are plain; the fourth's 2-2 goes on.
    assert doubles[:6] == [(0, (2, 2)), (1, (2, 1)), (0, (1, 1)), (1, (3, 1)),
                           (0, (4, 4)), (1, (4, 2))]
    assert doubles[6:8] == [(0, (2, 2)), (0, (3, 3))]
    assert seen[-1].memo.turns[0] == 4
    # cascade_from=1: the first 2-2 already cascades.
    seen = drive(EVERY, throws[:1])
    assert [s.dice for s in seen if s.phase is Phase.DECIDE][:2] == [(2, 2), (3, 3)]


def test_gb_cascade_counts_game_the_first_three_rolls_of_the_game():
    """eightygames: the doubles of "the first three rolls of the game" are plain. The
    game's fourth throw is player 1's second turn: its 2-2 cascades, where counting each
    player's turns it would not until player 1's fourth."""
    throws = [(2, 2), (2, 1), (1, 1), (2, 2)]
    seen = drive(BY_GAME, throws)
    doubles = [(s.position.turn, s.dice) for s in seen if s.phase is Phase.DECIDE]
    assert doubles[:4] == [(0, (2, 2)), (1, (2, 1)), (0, (1, 1)), (1, (2, 2))]
    assert doubles[4] == (1, (3, 3))
    plain = [(s.position.turn, s.dice) for s in drive(GB, throws) if s.phase is Phase.DECIDE]
    assert plain == doubles[:4]
    with pytest.raises(gammon.InvalidOptionError, match="choose one of player, game"):
        gammon.variant("gul-bara", cascade_counts="both")


def test_gb_cascade_stops():
    pos = position(*SHORT)
    assert plays(pos, (3, 3)) == {"20/11"}  # three of the four moves
    steps, after = cascade(GB.state(pos, (3, 3)))
    assert steps == [(0, 3, (3, 3))] and after.is_chance and after.position.turn == 1
    # A double of the cascade likewise: 2-2 in full (22/14), then 3-3 stops at 11 (our 8
    # is closed), and nothing follows.
    two = position({22: 1, 1: 14}, SHORT[1])
    steps, after = cascade(GB.state(two, (2, 2)))
    assert steps == [(0, 4, (2, 2)), (0, 1, (3, 3))]
    assert after.is_chance and after.position.turn == 1


def test_gb_unplayed_to_opponent():
    state = GIVE.state(position(*SHORT), (3, 3))
    state = state.apply(first(state))  # 20/11, the fourth 3 unplayed
    assert state.phase is Phase.DECIDE and state.position.turn == 1 and state.dice == (4, 4)
    assert state.memo.given and state.memo.turns == (GIVE.cascade_from,) * 2
    steps, after = cascade(state)
    assert [d for _, _, d in steps] == [(4, 4), (5, 5), (6, 6)][:len(steps)]
    # The receiver then throws for their own turn, which counts as theirs.
    assert after.is_chance and after.position.turn == 1 and not after.memo.given
    thrown = after.apply(Roll((2, 1)))
    assert thrown.memo.turns == (GIVE.cascade_from, GIVE.cascade_from + 1)
    # Handed-over doubles not played in full are lost, not handed back.
    back = GameState(GIVE, position(*SHORT, turn=1), Phase.DECIDE, (3, 3), False, 0,
                     GulMemo((9, 9), True, True))
    after = back.apply(first(back))
    assert after.is_chance and after.position.turn == 1
    # Under the default the same 3-3 passes the dice.
    state = GB.state(position(*SHORT), (3, 3))
    after = state.apply(first(state))
    assert after.is_chance and after.position.turn == 1


# --- bearing off, score, cube ---------------------------------------------------------


def test_gb_bearoff_as_in_long_nardy():
    assert plays(position({7: 1, 3: 1}, {24: 15}), (6, 3)) == {"7/1 3/off", "7/off"}
    assert plays(position({4: 1, 3: 1}, {24: 15}), (6, 5)) == {"4/off 3/off"}


def test_gb_score_single_or_double():
    assert end_state({1: 1}, {1: 14}).returns() == (1.0, -1.0)
    assert end_state({1: 1}, {24: 15}).returns() == (2.0, -2.0)
    # The game ends inside a cascade: 1-1 bears off the last four.
    state = GB.state(position({1: 4}, {24: 15}), (1, 1))
    end = state.apply(first(state))
    assert end.is_terminal and end.winner == 0 and end.returns() == (2.0, -2.0)


def test_gb_double_game_option():
    single = gammon.variant("gul-bara", double_game=False)
    assert end_state({1: 1}, {24: 15}, single).returns() == (1.0, -1.0)
    assert GB.result_name(2) == "a double game"


def test_gb_no_cube():
    assert not cube_default(GB)
    assert not cube_game(GB, score=MatchScore(length=5, score=(0, 0))).cube_in_play
    assert StakeRules(cube=True).cube_for(GB)


# --- positions and options ------------------------------------------------------------


def test_gb_positions_checked():
    shared = Position.from_checkers(
        [[0] * 13 + [1] + [0] * 10 + [14, 0], [0, 1] + [0] * 22 + [14, 0]], 0)
    with pytest.raises(gammon.InvalidOptionError, match="both players"):
        GB.state(shared, (3, 1))
    bar = Position.from_checkers([[0] * 24 + [14, 1], [0] * 24 + [15, 0]], 0)
    with pytest.raises(gammon.InvalidOptionError, match="gul-bara has no bar"):
        GB.state(bar, (3, 1))
    # A hand-made state is past the first turns: its doubles cascade.
    assert GB.memo_of(GB.state(position(*ROOMY), (2, 2))).turns == (4, 4)


def test_gb_options_are_named_and_typed():
    assert GB.options() == {"cascade_from": 4, "cascade_counts": "player", "unplayed": "lost",
                            "double_game": True}
    with pytest.raises(gammon.InvalidOptionError, match="1 or more, not 0"):
        gammon.variant("gul-bara", cascade_from=0)
    with pytest.raises(gammon.InvalidOptionError, match="choose one of lost, opponent"):
        gammon.variant("gul-bara", unplayed="back")
    with pytest.raises(gammon.InvalidOptionError, match="takes a whole number"):
        gammon.variant("gul-bara", cascade_from="4")
    for alias in ("gulbara", "rosespring", "crazy-narde"):
        assert gammon.variant(alias).name == "gul-bara"


# --- the kernel against a brute-force reading of the page -----------------------------


def agree(rules, positions: list[Position]) -> int:
    """Check every roll of ``positions``; return the position-rolls checked."""
    return oracle.agree(rules, positions, lambda pos, dice: oracle.same_way_results(
        pos, dice, first_past=0, start_quarter=False))


HAND_MADE = [GB.start_position(0), position(*ROOMY), position(*SHORT),
             position({22: 1, 1: 14}, SHORT[1])]


@answers.AFRESH
def test_gb_kernel_agrees_with_the_rules_page(afresh):
    """The oracle's answers stored (:mod:`answers`), asked afresh in make long."""
    checked = answers.agree_on_random_games(
        "gul-bara", GB, lambda pos, dice: oracle.same_way_results(
            pos, dice, first_past=0, start_quarter=False), afresh=afresh, count=140,
        seed=35, hand_made=HAND_MADE)
    assert checked >= 3000


@pytest.mark.slow
def test_gb_kernel_agrees_with_the_rules_page_20000_position_rolls():
    assert agree(GB, oracle.random_game_positions(GB, 960, seed=2035)) >= 20_000


# --- the kernel's random games --------------------------------------------------------


def replay(rules, games: int, seed: int) -> dict[str, int]:
    """The compiled games replayed through the Python rules: every throw, play and
    cascade as the kernel made it is what the rules allow, and each game ends with the
    kernel's result. Counts what happened."""
    rows, trace = rules.traced_playouts(games, seed, trace_rows=games * 600)
    assert len(trace) < games * 600  # every game traced whole
    assert (rows[:, 0] >= 0).all()
    seen = {"cascades": 0, "handed over": 0, "plays": 0}
    state = None
    last = -1  # who made the play before
    for row in trace:
        g, player, a, b = (int(x) for x in row[:kernel.T_MOVES])
        if player == -1:
            if state is not None:
                assert state.is_terminal and _result(state) == tuple(rows[g - 1, :2])
            state = rules.initial_state().apply(Roll((a, b), opening=True))
            continue
        if state.is_chance:
            state = state.apply(Roll((a, b)))
        elif player == last:
            seen["cascades"] += 1
        else:
            seen["handed over"] += 1
        last = player
        assert state.current_player == player and state.dice == (max(a, b), min(a, b))
        board = row[kernel.T_BOARD:]
        for p in (0, 1):  # conservation, no bar, a point belongs to one side
            mine = board[p * 26:(p + 1) * 26]
            assert mine.sum() == 15 and mine[25] == 0
        for s in range(1, 25):
            assert not (board[s] and board[26 + (s + 11) % 24 + 1])
        legal = state.legal_actions()
        index = legal.index_of(Position(board.astype(np.int8).tobytes(), 2, player))
        assert index is not None, (g, player, a, b)
        state = state.apply(legal[index])
        seen["plays"] += 1
    assert state is not None and state.is_terminal
    assert _result(state) == tuple(rows[games - 1, :2])
    assert seen["plays"] == rows[:, 2].sum()
    return seen


def _result(state) -> tuple[int, int]:
    returns = state.returns()
    winner = returns.index(max(returns))
    return (winner, int(returns[winner]))


@pytest.mark.parametrize("rules", [GB, GIVE, EVERY, BY_GAME],
                         ids=["lost", "opponent", "from-1", "by-game"])
def test_gb_compiled_games_keep_the_rules(rules):
    seen = replay(rules, 60, seed=9)
    assert seen["cascades"] > 0
    assert (seen["handed over"] > 0) == (rules.unplayed == "opponent")
    rows = rules.random_playouts(500, seed=4)
    assert (rows[:, 0] >= 0).all() and set(rows[:, 1]) <= {1, 2}
    assert np.array_equal(rows, rules.random_playouts(500, seed=4))


# --- faces ----------------------------------------------------------------------------


def test_gb_command_line():
    runner = CliRunner()
    result = runner.invoke(app, ["selfplay", "gul-bara", "--games", "100", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["games"] == 100 and stats["unfinished"] == 0 and stats["draws"] == 0
    result = runner.invoke(app, ["legal", "gul-bara", "--dice", "66"])
    assert result.exit_code == 0 and "24/18(4)" in result.output, result.output
    result = runner.invoke(app, ["duel", "gul-bara", "--players", "heuristic,random",
                                 "--games", "4"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["play", "gul-bara", "--seats", "random,random",
                                 "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "goes first and rolls" in " ".join(result.output.split())


@pytest.mark.web
def test_gb_web_lobby_and_table(tmp_path):
    """The lobby offers the game (and Moultezim); a person plays a bot to the end, every
    double cascading (cascade_from=1), each of the cascade's doubles asked in turn."""
    from webclient import client, connect, my_turn, new_table

    with client(f"sqlite:///{tmp_path / 'tables.db'}") as http:
        names = {v["name"] for v in http.get("/api/variants").json()}
        assert {"gul-bara", "moultezim"} <= names
        made = new_table(http, variant="gul-bara", options={"cascade_from": 1})
        with connect(http, made["id"], made["token"]) as socket:
            table = my_turn(socket)
            moves = 0
            while not table["over"]:
                plays = [a for a in table["actions"] if "steps" in a] or table["actions"]
                socket.send_json({"type": "act", "version": table["version"],
                                  "index": plays[-1]["index"]})
                moves += 1
                table = my_turn(socket)
                assert not table["errors"]
        assert moves > 5 and table["result"]
