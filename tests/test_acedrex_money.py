"""The Acedrex ``money`` bot (issue 34): an evaluation of the money a game will pay
with its end in view (gammon.evaluators.acedrex.AcedrexEndgame), fights valued to their
result, and resigning when behind (gammon.agents.players.MoneyAgent)."""

from __future__ import annotations

import dataclasses

import pytest

import gammon
from gammon import Roll
from gammon.agents import make_agent
from gammon.agents.players import ExpectimaxAgent, MoneyAgent
from gammon.agents.registry import default_bot
from gammon.core.errors import InvalidOptionError
from gammon.evaluators.acedrex import (
    AcedrexEndgame,
    AcedrexHeuristic,
    combat_odds,
    expected_points,
    fight_chain,
    fight_step,
)
from gammon.notation.acedrex import parse_state
from gammon.variants.acedrex import RESIGN, points
from gammon.variants.acedrex.state import changed

ACE = gammon.variant("acedrex")


def test_fight_step_gives_every_result_of_one_combat():
    """ACE-COMBAT-WIN, ACE-DODGE, ACE-PARRY, ACE-TIE: one combat's results."""
    for a, d in [(0, 0), (2, 0), (0, 3), (1, 1)]:
        ace, drex, dodge, parry = fight_step(a, d)
        assert ace + drex + dodge + parry == pytest.approx(1.0)
        assert (ace, drex) == combat_odds(a, d)  # the heuristic's odds are these
    assert fight_step(2, 0)[0] > fight_step(0, 0)[0] > fight_step(0, 3)[0]
    # Equal sides: as likely to win outright, and to win short of 13, either way.
    ace, drex, dodge, parry = fight_step(0, 0)
    assert ace == pytest.approx(drex) and dodge == pytest.approx(parry)
    assert ace == pytest.approx(116 / 342) and dodge == pytest.approx(55 / 342)
    # The attacker's throw known: a 20 always wins, outright.
    # The attacker's 20 known: it wins outright unless the defender's 20 ties it, and
    # then both throw again.
    thrown = fight_step(0, 0, attack=20)
    assert thrown[0] == pytest.approx(18 / 19 + 1 / 19 * 116 / 342)
    assert thrown[1] == pytest.approx(1 / 19 * 116 / 342)


def test_fight_chain_follows_a_dodge_into_the_swapped_fight():
    """ACE-DODGE swaps attacker and defender, ACE-PARRY fights again: a fight fought to
    its result, with the roles the other way round after each dodge."""
    for a, d in [(0, 0), (2, 0), (0, 2), (3, 1)]:
        assert sum(fight_chain(a, d)) == pytest.approx(1.0)
    d_beaten, a_taken, a_beaten, d_taken = fight_chain(0, 0)
    # Without a dodge the charger is beaten as attacker (captured) or wins outright.
    ace, drex, dodge, parry = fight_step(0, 0)
    decided = 1 - parry
    loop = 1 / (1 - (dodge / decided) ** 2)
    assert a_taken == pytest.approx(drex / decided * loop)
    assert d_taken == pytest.approx(dodge / decided * drex / decided * loop)
    # The charger is captured five times as often as it captures: charging costs.
    assert a_taken > 5 * d_taken and d_beaten == pytest.approx(a_taken)
    # Friends in the slot help: the attacker's bonus lowers its risk.
    assert fight_chain(3, 0)[1] < fight_chain(0, 0)[1] < fight_chain(0, 3)[1]
    # A threshold of 2: every win is outright, so no dodge and the chain is one fight.
    ace, drex, _, _ = fight_step(0, 0, threshold=2)
    assert fight_chain(0, 0, threshold=2) == pytest.approx((ace, drex, 0.0, 0.0))


def test_expected_points_grow_with_the_pace_and_stop_at_the_end():
    """ACE-SCORE, ACE-END: the expected score of a player who goes on capturing."""
    assert [expected_points(n, 0.0, 8) for n in range(9)] == [points(n) for n in range(9)]
    assert expected_points(2, 0.5, 8) > expected_points(2, 0.1, 8) > points(2)
    assert expected_points(3, 50.0, 8) == pytest.approx(points(8))
    # A leader's score grows faster than a trailer's: each piece doubles it.
    assert (expected_points(3, 0.5, 8) - points(3)) > (expected_points(0, 0.5, 8))


def state(text: str, rules=ACE):
    return parse_state(text, rules)


def test_the_end_in_view_a_later_fight_counts_less_near_the_cap():
    """ACE-CAP: a fight that waits for its territory's turn may never come when the cap
    is near, so the evaluation counts it less, and not at all at the cap."""
    evaluator = AcedrexEndgame(ACE, initiative=0.0)
    # Red's charger on O1 fights Orange's piece on an Orange turn, later.
    text = "9/9/Or,8/9 B - - -/-/-/- - 0,0,0,0 {}"
    early = evaluator.value(state(text.format(10)))
    late = evaluator.value(state(text.format(999)))
    at_cap = evaluator.value(state(text.format(1000)))
    # Orange, the defender, expects to gain; less near the cap, nothing at it.
    assert early[2] > late[2] > at_cap[2] == pytest.approx(0.0, abs=1e-9)
    assert abs(early[1]) > abs(late[1]) > abs(at_cap[1]) == 0  # Red, the charger, too
    assert evaluator.turns_left(state(text.format(990))) == 10
    no_cap = AcedrexEndgame(dataclasses.replace(ACE, turn_cap=0))
    assert no_cap.turns_left(state(text.format(990))) == no_cap.horizon


def test_a_jackpot_of_two_is_filled_by_the_next_player():
    """ACE-JACKPOT-FILL: with two pieces in the jackpot the next player fills it (a part
    of any die can end on a gate) and captures what is not theirs."""
    evaluator = AcedrexEndgame(ACE)
    before = evaluator.value(state("9/9/9/9 B - OY -/-/-/-"))  # Blue is to roll: fills
    assert before[0] > 1.0 and before[2] < 0 and before[3] < 0
    after = evaluator.value(state("9/9/9/9 R - OY -/-/-/-"))  # Red fills instead
    assert after[1] > 1.0 and after[0] < 0


def test_a_trailer_attacks_a_leader_defends():
    """The initiative: a fight pays its attacker when they are not ahead (waiting
    cannot win back what they are behind, ACE-CAP settles the scores then)."""
    calm = AcedrexEndgame(ACE, initiative=0.0)
    keen = AcedrexEndgame(ACE, initiative=0.2)
    behind = state("9/9/Or,8/9 B - - -/-/Y/- - 0,0,0,0 10")  # Red is not ahead
    assert keen.value(behind)[1] > calm.value(behind)[1]
    ahead = state("9/9/Or,8/9 B - - -/Y/-/- - 0,0,0,0 10")  # Red leads: no premium
    assert keen.value(ahead)[1] == pytest.approx(calm.value(ahead)[1])


def test_the_money_bot_resigns_when_behind_and_only_then():
    """ACE-RESIGN: the money bot resigns when settling now is worth more than playing
    on; other bots never do."""
    # Red has taken three Blue pieces (score 4); Blue's last piece on the ring attacks a
    # Red piece in Blue's territory this turn: captured, Red's score doubles to 8.
    losing = state("RB,8/R,8/9/9 B - - -/BBB/-/-")
    bot = make_agent("money", ACE, seed=1)
    assert isinstance(bot, MoneyAgent)
    roll = losing.apply(Roll((5,)))
    assert bot.choose(roll) is RESIGN
    assert make_agent("expectimax:1", ACE, seed=1).choose(roll) is not RESIGN
    # Level (nobody has captured): nothing to save by resigning.
    level = state("RB,8/R,8/9/9 B - - -/-/-/-").apply(Roll((5,)))
    assert bot.choose(level) is not RESIGN
    # Red, ahead, never resigns.
    red = state("RB,8/R,8/9/9 R - - -/BBB/-/-").apply(Roll((5,)))
    assert bot.choose(red) is not RESIGN


def test_money_is_the_default_and_the_old_bots_keep_their_names():
    assert default_bot("acedrex") == "money"
    assert default_bot("acedrex-quick") == "money"
    old = make_agent("expectimax:1", ACE, seed=1)
    assert isinstance(old, ExpectimaxAgent) and not isinstance(old, MoneyAgent)
    assert type(old.evaluator) is AcedrexHeuristic and old.depth == 1
    bot = make_agent("money:1:pace=0.01:initiative=0.2:offer=0.1", ACE, seed=1)
    assert isinstance(bot.evaluator, AcedrexEndgame) and bot.depth == 1
    assert (bot.evaluator.pace, bot.evaluator.initiative, bot.evaluator.offer) == (
        0.01, 0.2, 0.1)
    for spec, why in [("money:3", "depth is 0 to 2"), ("money:pace=2", "pace is 0 to 1"),
                      ("money:initiative=-1", "initiative is 0 to 1"),
                      ("money:tempo=1", "no option 'tempo'")]:
        with pytest.raises(InvalidOptionError, match=why):
            make_agent(spec, ACE)
    with pytest.raises(InvalidOptionError, match="does not play backgammon"):
        make_agent("money", "backgammon")


def test_counting_actions_part_way_agrees_with_listing_them():
    """The search asks every leaf whether it is too wide to search; the state answers
    without listing every step, and must answer as the full list would."""
    import random

    rules = gammon.variant("acedrex")
    rng = random.Random(4)
    state, asked = rules.initial_state(), 0
    while asked < 400:
        if state.is_terminal:
            state = rules.initial_state()
            continue
        if state.is_chance:
            state = state.apply(state.sample_chance(rng))
            continue
        # A decision of the MOVE stage lists its steps when asked: a copy without them.
        fresh = changed(state) if state.stage == "move" else state
        counts = [fresh.has_more_actions_than(n) for n in (0, 1, 2, 3, 12, 40)]
        legal = state.legal_actions()
        assert counts == [len(legal) > n for n in (0, 1, 2, 3, 12, 40)]
        asked += 1
        state = state.apply(rng.choice([a for a in legal if a != RESIGN] or legal))
    assert asked == 400


def test_a_lone_piece_in_the_jackpot_is_a_gift():
    """ACE-JACKPOT-FILL: a piece alone in the jackpot goes to whoever ends two parts of
    a die on gates, and one of the others nearly always can before the round is out.
    The money bot no longer puts one there to save a step (a cell game of issue 34:
    Blue did so at turn 65 and Red took it the next turn)."""
    position = state("oooo,oo,4,rrrrrr,rrr,1/y,y,5,o,oo/b,6,yy,yyyyy/7,bb,BBBbbb B16-9 - - "
                     "-/-/-/- - 0,0,0,0 65")
    entry = next(a for a in position.legal_actions() if str(a) == "Y9+1>jackpot")
    alone = AcedrexEndgame(ACE).money(position.apply(entry))
    assert alone[0] == pytest.approx(-0.9)  # taken 0.9 of the time: a capture costs 1
    assert alone[1:] == pytest.approx([0.3] * 3)  # each taker (3 - 1 - 1) / 3
    assert str(make_agent("money", ACE, seed=1).choose(position)) != "Y9+1>jackpot"


def test_a_fill_sends_the_fillers_own_pieces_home():
    """ACE-JACKPOT-FILL: the filler takes their own pieces there back into their hand,
    and the piece that fills goes with them: pieces off the ring, which the forces
    count less (IN_HAND)."""
    evaluator = AcedrexEndgame(ACE)
    # Blue's two pieces in the jackpot, Blue to roll (any die fills it): Blue's three
    # pieces go home, 0.9 of the time. Nothing else is in play.
    value = evaluator.value(state("9/9/9/9 B - BB -/-/-/-"))
    force = 2 - 0.9 * 3 * 0.3
    assert value[0] == pytest.approx(force * 3 / 4)
    assert value[1] == pytest.approx(-force / 4)


def test_quiet_means_no_fight_and_an_empty_jackpot():
    evaluator = AcedrexEndgame(ACE)
    assert evaluator.quiet(state("B,8/R,8/O,8/Y,8 B5 - - -/-/-/- - 0,0,0,0 150"))
    assert not evaluator.quiet(state("B,8/R,8/O,8/Y,8 B5 - Y -/-/-/- - 0,0,0,0 150"))
    assert not evaluator.quiet(state("BR,8/9/O,8/Y,8 B5 - - -/-/-/- - 0,0,0,0 150"))


def test_the_money_bot_settles_a_dead_game_from_turn_100():
    """ACE-RESIGN, ACE-CAP: a game with nothing pending (no fight, an empty jackpot) is
    settled from turn 100 on by a money bot for whom playing on is worth no more than
    the scores of the moment, which is what the cap would pay: level, behind or ahead.
    Before turn 100, with a fight standing, or with ``settle=0`` it plays on."""
    bot = make_agent("money", ACE, seed=1)
    assert bot.settle == 100
    quiet = "B,8/R,8/O,8/Y,8 B5 - - {}/-/-/- - 0,0,0,0 {}"
    assert bot.choose(state(quiet.format("-", 150))) is RESIGN  # level
    assert bot.choose(state(quiet.format("R", 150))) is RESIGN  # ahead: banks +3
    assert bot.choose(state(quiet.format("-", 99))) is not RESIGN
    engaged = state("B,8/BR,8/O,8/Y,8 B5 - - -/-/-/- - 0,0,0,0 150")
    assert bot.choose(engaged) is not RESIGN
    never = make_agent("money:settle=0", ACE, seed=1)
    assert never.settle == 0 and never.choose(state(quiet.format("-", 150))) is not RESIGN
    with pytest.raises(InvalidOptionError, match="settle is a turn"):
        make_agent("money:settle=-1", ACE)


def test_equal_parts_spend_the_most_of_the_die():
    """ACE-SPLIT, ACE-JACKPOT-ENTER: most parts of a die score alike; the money bot takes
    the one that spends the most, where the first (the shortest step) spent a 19 a stop
    at a time until its last part could only end on a gate (the terminal game: Red's
    first turn left a lone piece in the jackpot, and Orange took it)."""
    home = ",".join(["R"] * 9)
    position = state(f"B,B,B,B,B,B,B,B,B/{home}/O,O,O,O,O,O,O,O,O/Y,Y,Y,Y,Y,Y,Y,Y,Y R19 - - "
                     "-/-/-/-")
    bot = make_agent("money", ACE, seed=1)
    # Every step inside Red's own territory scores alike (a 19 from R1 ends on a gate).
    assert str(bot.choose(position)) == "R1+8>R9"
    while position.current_player == 1 and position.stage == "move":
        position = position.apply(bot.choose(position))
    assert not position.jackpot


def test_a_charge_in_the_movers_own_territory_is_a_fight_to_come():
    """ACE-TAPPED-BLOCK, ACE-SCOPE: a charger is tapped, so a charge into the mover's own
    territory blocks that slot's combat this turn and fights when the territory comes
    round again. The money evaluation counts it as a later fight (a cell game of issue
    34: Red charged six Yellow pieces in its own territory, scored as a quiet step)."""
    position = state("3,ooo,ooo,1,o,1,O/4,yy,yyyyyy,y,2/2,o,1,bbbb,RRR,bbbb,RR,b/4,R,2,RR,R "
                     "R20 - - -/-/-/- - 0,0,0,0 91")
    charge = next(a for a in position.legal_actions() if str(a) == "Y5+20>R5*")
    after = position.apply(charge)
    evaluator = AcedrexEndgame(ACE)
    money = evaluator.money(after)
    assert money[1] < 0 < money[3]  # Red's charger against five friends of Yellow's
    assert not evaluator.quiet(after)
    # The heuristic (expectimax:1's) still sees no fight there this turn.
    assert AcedrexHeuristic(ACE).value(after) == pytest.approx([0.0] * 4)
    assert not make_agent("money", ACE, seed=1).choose(position).charge
