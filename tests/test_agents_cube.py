"""Cube decisions for bots, and bots playing games and matches with the stakes layer."""

from __future__ import annotations

import random

import numpy as np
import pytest

import gammon
from gammon.agents import make_agent
from gammon.agents.cube import (
    CENTRE,
    ME,
    THEM,
    Ahead,
    Chances,
    CubeView,
    MoneyStakes,
    Score,
    action_kind,
    cube_choice,
    cubeful_equity,
    dead_match_equity,
    efficiency,
    live_equity,
    live_match_equity,
    match_equity,
    match_view,
    money_view,
    view_ahead,
)
from gammon.stakes import CubeAction, Match, StakeRules, cube_game


def test_janowski_live_lines_meet_at_the_take_and_cash_points():
    plain = Chances(0.5)  # no gammons: W = L = 1, take point 20%, cash point 80%
    assert live_equity(Chances(0.2), CENTRE) == pytest.approx(-1.0)
    assert live_equity(Chances(0.8), CENTRE) == pytest.approx(1.0)
    assert live_equity(plain, CENTRE) == pytest.approx(0.0)
    assert live_equity(Chances(0.0), ME) == pytest.approx(-1.0)
    assert live_equity(Chances(0.8), ME) == pytest.approx(1.0)
    assert live_equity(Chances(0.2), THEM) == pytest.approx(-1.0)
    assert live_equity(Chances(1.0), THEM) == pytest.approx(1.0)
    # Owning the cube is worth something; the opponent owning it costs as much.
    assert live_equity(plain, ME) == pytest.approx(-live_equity(plain, THEM))
    assert live_equity(plain, ME) > 0
    # Gammons move the points: with gammons both ways the take point is later (25.8%).
    take = 0.8 / 3.1
    assert live_equity(Chances(take, 0.3, 0.3), CENTRE) == pytest.approx(-1.0)
    assert live_equity(Chances(0.27, 0.3, 0.3), CENTRE) > -1.0
    # Beyond a cash point the game may go on to its end: below the take point a loser
    # of gammons loses more than the cube, above the cash point a winner of gammons
    # wins more (gnubg's lines), where a cash would have stopped at one.
    assert live_equity(Chances(0.25, 0.3, 0.3), CENTRE) < -1.0
    assert live_equity(Chances(0.95, 0.3, 0.3), CENTRE) > 1.0
    assert live_equity(Chances(0.95), CENTRE) == pytest.approx(1.0)  # no gammons: flat


def test_money_take_point_lies_between_the_dead_and_the_live_cube():
    def takes(p: float) -> bool:
        return money_view(Chances(1.0 - p), CENTRE).taker_takes

    assert takes(0.24) and not takes(0.19)  # 25% dead, 20% live: about 21.6% mixed
    view = money_view(Chances(0.5), CENTRE)
    assert not view.double and view.taker_takes


def test_money_doubling_window_and_too_good():
    assert not money_view(Chances(0.62), CENTRE).double
    assert money_view(Chances(0.72), CENTRE).double
    # Too good: the opponent would pass, but playing on for the gammons is worth more.
    too_good = money_view(Chances(0.9, 0.6, 0.0), CENTRE)
    assert too_good.no_double > 1.0 and not too_good.double
    # The Jacoby rule: gammons do not count with the cube in the middle, so a gammonish
    # position that would play on is doubled (and cashed).
    assert money_view(Chances(0.9, 0.6, 0.0), CENTRE, jacoby=True).double
    # Cubeful equity owning the cube is above the cubeless one.
    assert cubeful_equity(Chances(0.6), ME) > Chances(0.6).equity


def test_the_kazaross_table():
    for n in range(1, 26):
        assert match_equity(n, n) == pytest.approx(0.5, abs=1e-6)
        for m in range(1, 26):
            assert match_equity(n, m) + match_equity(m, n) == pytest.approx(1.0, abs=1e-4)
    assert match_equity(2, 5) > match_equity(3, 5) > match_equity(4, 5)
    assert match_equity(1, 2) == pytest.approx(0.67736)  # the Crawford game, 1-away 2-away
    # Post-Crawford, the trailer at 2-away is nearly even (the free drop).
    assert match_equity(2, 1, post_crawford=True) == pytest.approx(0.48803)
    assert match_equity(1, 2, post_crawford=True) == pytest.approx(1 - 0.48803)
    assert match_equity(0, 3) == 1.0 and match_equity(3, 0) == 0.0


def test_match_cube_decisions():
    even = match_view(Chances(0.5), 5, 5, 1)
    assert not even.double and even.taker_takes
    strong = match_view(Chances(0.85), 5, 5, 1)
    assert strong.double and not strong.taker_takes
    # At 80%, 5-away 5-away, the taker's cube (a redouble at 4) is worth enough to take:
    # with the cube dead after the double it was a pass.
    assert match_view(Chances(0.8), 5, 5, 1).taker_takes
    assert dead_match_equity(Chances(0.2), 5, 5, 2, False) < match_equity(5, 4)
    # Post-Crawford the trailer doubles at once: the cube costs nothing there.
    assert match_view(Chances(0.5), 4, 1, 1, post_crawford=True).double
    # 2-away 2-away: the doubled game decides the match, and a drop leaves the Crawford
    # game at 1-away 2-away (67.7%): the take point is 32.3%.
    assert match_view(Chances(0.65), 2, 2, 1).taker_takes
    assert not match_view(Chances(0.7), 2, 2, 1).taker_takes


def test_cube_actions_are_recognised():
    assert action_kind(CubeAction.DOUBLE) == "double"
    assert action_kind(CubeAction.ROLL) == "no double"
    assert action_kind(CubeAction.TAKE) == "take"
    assert action_kind(CubeAction.DROP) == "drop"
    assert action_kind(CubeAction.BEAVER) == "beaver"
    answers = [CubeAction.TAKE, CubeAction.DROP, CubeAction.BEAVER]
    take = CubeView(0.2, 0.5, 1.0)
    drop = CubeView(0.9, 1.4, 1.0)
    assert cube_choice(answers, take, answering=True) is CubeAction.TAKE
    assert cube_choice(answers, drop, answering=True) is CubeAction.DROP
    assert cube_choice(answers, take, answering=True, beaver_worth=0.3) is CubeAction.BEAVER
    assert cube_choice([CubeAction.ROLL, CubeAction.DOUBLE], drop, answering=False) \
        is CubeAction.DOUBLE
    hold = CubeView(0.6, 0.5, 1.0)
    assert cube_choice([CubeAction.ROLL, CubeAction.DOUBLE], hold, answering=False) \
        is CubeAction.ROLL

    class Pass:  # another game's "pass" is not a cube decision
        def __str__(self) -> str:
            return "pass"

    assert cube_choice([Pass()], take, answering=True) is None


@pytest.mark.parametrize("specs", [("heuristic", "expectimax:1"), ("pubeval", "random"),
                                   ("mcts:30", "heuristic")])
def test_bots_play_a_money_game_with_the_cube(specs):
    rules = gammon.variant("backgammon")
    agents = [make_agent(spec, rules, i) for i, spec in enumerate(specs)]
    rng = random.Random(7)
    state = cube_game(rules, StakeRules(cube=True, beaver=True, jacoby=True))
    while not state.is_terminal:
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
        else:
            action = agents[state.current_player].choose(state)
            assert action in list(state.legal_actions())
            state = state.apply(action)
    assert sum(state.returns()) == 0 and max(state.returns()) > 0


def test_bots_play_a_match():
    rules = gammon.variant("backgammon")
    agents = [make_agent("heuristic", rules, 1), make_agent("expectimax:1", rules, 2)]
    match = Match(rules, 3)
    winner = match.play(lambda s: agents[s.current_player].choose(s), random.Random(2))
    assert match.is_over and match.score.score[winner] >= 3


def test_a_live_cube_is_worth_something_at_a_match_score():
    """Owning the cube is worth more than the cube in the middle, which is worth more
    than the opponent owning it; in the Crawford game the cube is dead."""
    c = Chances(0.6, 0.2, 0.1)
    score = Score(5, 5)
    mine, middle, theirs = (live_match_equity(c, score, 1, owner) for owner in (ME, CENTRE,
                                                                                   THEM))
    dead = dead_match_equity(c, 5, 5, 1, False)
    assert mine > middle > theirs and mine > dead > theirs
    crawford = match_view(Chances(0.9), 1, 4, 1, crawford=True)
    assert not crawford.double and crawford.no_double == dead_match_equity(
        Chances(0.9), 1, 4, 1, False)
    # Post-Crawford the leader's cube is dead: it never doubles.
    assert not match_view(Chances(0.7), 1, 4, 1, post_crawford=True).double


def test_the_three_point_match_double_of_issue_28_is_no_double():
    """4HPhASjQc+QBMA in a 3-point match at 0-0: gnubg 2-ply says "No double, take"
    (55.1% to win, 16.8% gammons, 12.1% gammons against); with the cube dead after the
    double our bots doubled it."""
    win, gammon_win, gammon_loss = 0.55089, 0.16823, 0.12084
    c = Chances(win, gammon_win / win, gammon_loss / (1 - win))
    view = match_view(c, 3, 3, 1)
    assert not view.double and view.taker_takes
    dead = dead_match_equity(c, 3, 3, 1, False)
    assert dead_match_equity(c, 3, 3, 2, False) > dead  # why the dead cube doubled


@pytest.mark.parametrize("spec", ["neural", "neural:0", "expectimax"])
def test_the_bots_hold_the_cube_in_the_three_point_match_of_issue_28(spec):
    from gammon.notation import situation_from_text
    from gammon.stakes.cube import CubeState
    from gammon.stakes.score import MatchScore

    rules = gammon.variant("backgammon")
    position = situation_from_text("4HPhASjQc+QBMA").position
    state = CubeState.midgame(rules, position, score=MatchScore.match(3, (0, 0)))
    assert state.preroll and CubeAction.DOUBLE in list(state.legal_actions())
    assert make_agent(spec, rules, 1).choose(state) is CubeAction.ROLL


def test_cube_efficiency_is_gnubgs_by_kind_of_position():
    """Contact 0.68; a race 0.55 + 0.00125 a pip of the side on roll between 0.6 and 0.7;
    a bear-off 0.6 (gnubg's EvalEfficiency figures)."""
    assert efficiency(False, False, 150) == pytest.approx(0.68)
    assert efficiency(True, False, 40) == pytest.approx(0.6)
    assert efficiency(True, False, 100) == pytest.approx(0.675)
    assert efficiency(True, False, 160) == pytest.approx(0.7)
    assert efficiency(True, True, 30) == pytest.approx(0.6)


def test_efficiencies_read_race_and_bear_off_from_the_board():
    from gammon.agents.stakes import efficiencies

    rules = gammon.variant("backgammon")
    start = np.frombuffer(rules.initial_state().position.board, np.int8)[None, :]
    assert efficiencies(rules, start, 0)[0] == pytest.approx(0.68)
    rows = [[0] * 26, [0] * 26]
    rows[0][8], rows[0][3] = 10, 5  # 95 pips, all past the other side's checkers
    rows[1][2] = 15
    race = np.frombuffer(gammon.Position.from_checkers(rows).board, np.int8)[None, :]
    assert efficiencies(rules, race, 0)[0] == pytest.approx(0.55 + 0.00125 * 95)
    rows[0][8], rows[0][6] = 0, 10
    home = np.frombuffer(gammon.Position.from_checkers(rows).board, np.int8)[None, :]
    assert efficiencies(rules, home, 0)[0] == pytest.approx(0.6)


def test_a_look_ahead_sees_the_market_a_strong_roll_loses():
    """The same average chance is worth doubling sooner when the next roll swings it:
    a roll that passes the cash point loses the market (gnubg's cubeful search), which
    Janowski's model on the averaged chances cannot see."""
    def tree(*chances: float) -> Ahead:
        share = 1.0 / max(len(chances), 1)
        return Ahead(Chances(0.7), rolls=tuple((share, Ahead(Chances(p))) for p in chances))

    money = MoneyStakes()
    quiet = view_ahead(tree(0.7, 0.7), money, 1, CENTRE)
    swing = view_ahead(tree(0.95, 0.45), money, 1, CENTRE)
    assert swing.take - swing.no_double > quiet.take - quiet.no_double
    # With no roll to look at, the view is Janowski's at the root.
    assert view_ahead(tree(), money, 1, CENTRE) == money_view(Chances(0.7), CENTRE)
    # After a roll that leaves the doubler far behind, the opponent redoubles and the
    # doubler drops: the take costs the two points of the cube, more than Janowski's
    # equity with the opponent owning the cube (-0.968 a cube) there.
    collapse = view_ahead(tree(0.05), money, 1, CENTRE)
    assert collapse.take == pytest.approx(-2.0)
    assert 2 * cubeful_equity(Chances(0.05), THEM) == pytest.approx(-1.936)


#: Benchmark cube positions (benchmarks/positions/cube.jsonl, money) where Janowski's
#: model on the chances averaged one roll ahead disagreed with gnubg 2-ply, by a large
#: margin: the bear-off that is a pass, a double that is a pass, two doubles that are
#: takes.
GNUBG_MONEY_DECISIONS = [
    ("DgAA8AAAAAAAAA", CubeAction.DOUBLE, False),
    ("bDagYEPrYzsAAA", CubeAction.DOUBLE, False),
    ("lb7ABwBVPQcHAA", CubeAction.DOUBLE, True),
    ("tdsAAB3jbg4IQA", CubeAction.DOUBLE, True),
]


@pytest.mark.parametrize(("position_id", "action", "take"), GNUBG_MONEY_DECISIONS)
def test_neural_two_rolls_ahead_decides_the_cube_as_gnubg(position_id, action, take):
    from gammon.notation import parse_position_id
    from gammon.stakes.cube import CubeState

    rules = gammon.variant("backgammon")
    state = CubeState.midgame(rules, parse_position_id(position_id))
    agent = make_agent("neural:2", rules, 1)
    assert agent.choose(state) is action
    answer = agent.choose(state.apply(CubeAction.DOUBLE))
    assert (answer in (CubeAction.TAKE, CubeAction.BEAVER)) is take


def test_a_sure_win_doubles_the_opponent_out():
    """A double that will be passed is worth what playing on wins when no gammon is
    left (FgAAEAAAAAAAAA: one checker on the ace point against three): the bot doubles,
    as gnubg does ("Double, pass"), and the game ends; with gammons left it plays on."""
    assert CubeView(1.0, 2.0, 1.0).double
    assert not CubeView(1.01, 2.0, 1.0).double  # too good: plays on for the gammon
    assert not CubeView(0.8, 0.8, 1.0).double  # a take no better than rolling
    from gammon.notation import parse_position_id
    from gammon.stakes.cube import CubeState

    rules = gammon.variant("backgammon")
    state = CubeState.midgame(rules, parse_position_id("FgAAEAAAAAAAAA"))
    for spec in ("neural:0", "neural:2"):
        agent = make_agent(spec, rules, 1)
        assert agent.choose(state) is CubeAction.DOUBLE
        assert agent.choose(state.apply(CubeAction.DOUBLE)) is CubeAction.DROP
