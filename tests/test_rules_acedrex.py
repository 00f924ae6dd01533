"""One test per rule of docs/rules/acedrex.md, named after the rule's label.

Positions are written in the Acedrex notation (docs/rules/acedrex.md, *Position
notation*): four territories Blue/Red/Orange/Yellow, slots 1-9 from the centre out,
lower case tapped; pieces written nowhere are out of play.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

import gammon
from gammon import Phase, Roll
from gammon.core.errors import IllegalOutcomeError, IllegalPlayError, InvalidOptionError
from gammon.notation.acedrex import START, format_state, parse_state
from gammon.variants.acedrex import (
    ATTACK,
    DEFEND,
    HAND,
    JUMP,
    KEEP,
    MOVE,
    NO_JUMP,
    ONE,
    PASS,
    PIECES,
    REROLL,
    RESIGN,
    RING,
    ROLL,
    Acedrex,
    AcedrexState,
    Jump,
    Step,
    combat_stops,
    first_stop,
    is_gate,
    parse_stop,
    points,
    stop_name,
    territory,
)

ACE: Acedrex = gammon.variant("acedrex")  # type: ignore[assignment]
#: The option under which a defender beaten away from home is captured: the tests of
#: captures, scores and the end use it to make captures by winning a fight.
CAPTURING = Acedrex(foreign_defender="captured")
EMPTY = "9/9/9/9"
NONE = "-/-/-/-"


def S(text: str, rules: Acedrex = ACE) -> AcedrexState:
    return parse_state(text, rules)


def throw(state: AcedrexState, *values: int) -> AcedrexState:
    for v in values:
        assert state.phase is Phase.CHANCE, state.stage
        state = state.apply(Roll((v,)))
    return state


def do(state: AcedrexState, *texts: str) -> AcedrexState:
    """Apply the actions written ``texts`` (an action's text, or its unique prefix)."""
    for text in texts:
        legal = state.legal_actions()
        exact = [a for a in legal if str(a) == text]
        found = exact or [a for a in legal if str(a).startswith(text)]
        assert len(found) == 1, (text, [str(a) for a in legal])
        state = state.apply(found[0])
    return state


def texts(state: AcedrexState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def board(state: AcedrexState) -> str:
    return format_state(state).split()[0]


def values(state: AcedrexState) -> list[int]:
    """The throws that can happen at a chance state."""
    return [roll.dice[0] for roll, _ in state.chance_outcomes()]


def fight(text: str, attack: int, defend: int, rules: Acedrex = ACE, die: int = 5):
    """Roll ``die`` in the position ``text`` (mover to roll, with nothing to move), pass,
    and throw the combat; the state after the throws."""
    state = do(throw(S(text, rules), die), "pass")
    assert state.stage == ATTACK, state.stage
    return throw(state, attack, defend)


# --- board, pieces, seats ------------------------------------------------------------


def test_ace_board_ring_of_four_territories_and_gates():
    assert RING == 40
    gates = [s for s in range(RING) if is_gate(s)]
    assert len(gates) == 4
    slots = [s for s in range(RING) if not is_gate(s)]
    assert len(slots) == 36
    assert {territory(s) for s in slots} == {0, 1, 2, 3}
    assert ACE.jackpot_places == 3
    with pytest.raises(InvalidOptionError):
        ACE.state([(0,) if s == 9 else () for s in range(RING)], 0)


def test_ace_seats_letters_and_slot_names():
    assert [stop_name(first_stop(p)) for p in range(4)] == ["B1", "R1", "O1", "Y1"]
    assert stop_name(parse_stop("y9")) == "Y9"
    assert parse_stop("hand") == HAND
    with pytest.raises(InvalidOptionError):
        parse_stop("Z3")


def test_ace_direction_counter_clockwise_through_gates():
    # Blue's B9 +2 is Yellow's Y1, Yellow's Y9 +2 is O1, O9 +2 is R1, R9 +2 is B1.
    for start, end in (("B9", "Y1"), ("Y9", "O1"), ("O9", "R1"), ("R9", "B1")):
        assert stop_name((parse_stop(start) + 2) % RING) == end
        assert is_gate((parse_stop(start) + 1) % RING)
    # Nothing blocks: Blue on B1 may pass a full Yellow territory to land beyond it.
    state = S(f"B,8/9/9/Y,Y,Y,Y,Y,Y,Y,Y,Y B20 - - {NONE}")
    assert "B1+20>O1" in texts(state)
    assert "B1+12>Y3*" not in texts(state)  # landing on Yellow needs the full die


def test_ace_start_one_piece_on_each_own_slot():
    state = ACE.initial_state()
    assert format_state(state) == START
    for p in range(4):
        assert [state.ring[first_stop(p) + k] for k in range(9)] == [
            (p * 9 + k,) for k in range(9)
        ]
    assert state.jackpot == () and not any(state.hands) and not any(state.captured)


def test_ace_stack_lands_outermost():
    state = do(S(f"B,B,7/9/9/9 B1 - - {NONE}"), "B1+1>B2")
    assert board(state) == "1,Bb,7/9/9/9"
    assert state.ring[1][-1] == 0  # the piece from B1 is now outermost on B2


def test_ace_first_highest_throw_starts_ties_throw_again():
    state = ACE.initial_state()
    assert state.stage == "start" and state.is_chance
    assert all(p == Fraction(1, 20) for _, p in state.chance_outcomes())
    state = throw(state, 7, 15, 15, 3)  # Red and Orange tie on 15
    assert state.stage == "start" and state.contenders == (1, 2)
    state = throw(state, 4, 9)  # Orange wins the re-throw
    assert state.stage == ROLL and state.turn == 2 and state.turns == 1
    # The starting throws are not played: the starter rolls afresh.
    assert state.is_chance and state.die == 0
    # A round in which every contender ties is thrown again whole: it is no outcome.
    # While the throws so far are equal, throwing the same again is a little less
    # likely (the rest must not tie it too), and for the last throw impossible.
    three = throw(ACE.initial_state(), 7, 7, 7)
    assert 7 not in values(three) and sum(p for _, p in three.chance_outcomes()) == 1
    with pytest.raises(IllegalOutcomeError, match="thrown again"):
        throw(three, 7)
    two = dict((roll.dice[0], p) for roll, p in throw(ACE.initial_state(), 7, 7)
               .chance_outcomes())
    assert two[7] < two[8] and sum(two.values()) == 1
    assert two[7] == Fraction(1, 20) * (1 - Fraction(1, 20)) / (1 - Fraction(1, 400))


def test_ace_turns_go_clockwise_and_skip_resigned():
    state = do(throw(S(f"B,8/R,8/O,8/Y,8 B - - {NONE}"), 5), "B1+5>B6")
    assert state.turn == 1 and state.stage == ROLL
    state = S(f"B,8/R,8/O,8/9 R - - {NONE} Y 0,0,0,0")
    state = do(throw(state, 5), "R1+5>R6")
    state = do(throw(state, 5), "O1+5>O6")
    assert state.turn == 0  # Yellow resigned: Orange is followed by Blue


# --- a turn -----------------------------------------------------------------------


def test_ace_untap_only_the_movers_pieces():
    state = S(f"b,8/r,8/9/Y,8 Y2 - - {NONE}")
    assert state.is_tapped(0)
    state = do(state, "Y1+2>Y3")  # Blue's turn begins: Blue untaps, Red does not
    assert state.turn == 0 and state.stage == ROLL
    assert not state.is_tapped(0) and state.is_tapped(9) and state.is_tapped(27)
    # A position with the player to roll has them untapped already.
    assert board(S(f"b,8/r,8/9/9 B - - {NONE}")) == "B,8/r,8/9/9"


def test_ace_roll_one_d20():
    state = S(f"B,8/9/9/9 B - - {NONE}")
    outcomes = state.chance_outcomes()
    assert [r.dice for r, _ in outcomes] == [(d,) for d in range(1, 21)]
    assert sum(p for _, p in outcomes) == 1
    assert throw(state, 13).die == 13 and throw(state, 13).left == 13


def test_ace_one_move_may_be_kept_or_rerolled():
    state = throw(S(f"B,8/9/9/9 B - - {NONE}"), 1)
    assert state.stage == ONE and state.current_player == 0
    assert state.legal_actions() == [KEEP, REROLL, RESIGN]
    kept = state.apply(KEEP)
    assert kept.stage == MOVE and kept.die == 1 and texts(kept)[0] == "B1+1>B2"
    again = state.apply(REROLL)
    assert again.is_chance and again.stage == ROLL
    assert throw(again, 1).stage == ONE  # a 1 again: the same choice
    assert throw(again, 6).die == 6


def test_ace_move_lands_on_empty_own_or_gate_never_on_an_opponent_by_a_part():
    state = S(f"B,B,5,R,1/9/9/9 B8 - - {NONE}")
    moves = texts(state)
    assert "B1+1>B2" in moves  # own piece there
    assert "B1+2>B3" in moves  # empty
    assert "B2+7>B9" in moves  # empty
    assert "B2+8>jackpot" in moves  # the gate
    assert "B1+7>B8" not in moves  # Red there, and 7 is not the full die
    assert "B2+6>B8*" not in moves


def test_ace_split_die_among_pieces_and_go_on_while_possible():
    state = S(f"B,B,7/9/9/4,Y,4 B12 - - {NONE}")
    state = do(state, "B1+5>B6")
    assert state.stage == MOVE and state.left == 7 and state.current_player == 0
    assert all(not t.startswith("B6") for t in texts(state))  # moved once only
    state = do(state, "B2+7>B9")
    assert state.stage == ROLL and state.turn == 1
    # What no piece can use is lost: one piece, one part.
    state = do(S(f"B,8/9/9/4,Y,4 B12 - - {NONE}"), "B1+3>B4")
    assert state.stage == ROLL and state.turn == 1
    # With split_die=false the whole die moves one piece.
    whole = S(f"B,B,7/9/9/4,Y,4 B12 - - {NONE}", Acedrex(split_die=False))
    assert texts(whole) == ["B1+12>Y3", "B2+12>Y4", "resign"]  # the gate counts


def test_ace_alone_a_piece_beside_an_opponent_cannot_move():
    state = S(f"BR,B,7/9/9/9 B3 - - {NONE}")
    assert all(t.startswith("B2") or t == "resign" for t in texts(state))
    state = S(f"RB,8/9/9/9 B3 - - {NONE}")  # Blue outermost, still not Alone
    assert texts(state) == ["pass", "resign"]


def test_ace_hand_enters_before_own_slot_one():
    state = S(f"9/9/9/9 B12 BR - {NONE}")
    moves = texts(state)
    assert moves[:3] == ["hand+1>B1", "hand+2>B2", "hand+3>B3"]
    assert "hand+10>jackpot" in moves and "hand+12>Y2" in moves
    state = S(f"9/9/9/9 R3 BR - {NONE}")
    assert texts(state) == ["hand+1>R1", "hand+2>R2", "hand+3>R3", "resign"]
    after = do(state, "hand+3>R3")
    assert board(after) == "9/2,r,6/9/9" and after.hands[1] == ()


def test_ace_charge_full_die_only_first_and_only_part():
    state = S(f"B,B,5,R,1/9/9/9 B7 - - {NONE}")
    moves = texts(state)
    assert "B1+7>B8*" in moves and "B2+6>B8*" not in moves
    after = do(state, "B1+7>B8*")
    assert board(after) == "1,B,5,Rb,1/9/9/9"  # placed outermost
    assert after.turn == 1  # the whole die is spent: no second part
    # After a first part, no charge: Red on B8 is out of reach of what is left.
    state = do(S(f"B,B,5,R,1/9/9/9 B8 - - {NONE}"), "B1+1>B2")
    assert not any(t.endswith("*") for t in texts(state))
    # A piece from hand may charge with the full die too.
    assert "hand+8>B8*" in texts(S(f"7,R,1/9/9/9 B8 B - {NONE}"))


def test_ace_no_move_pass():
    state = S(f"9/RB,8/9/9 B6 - - {NONE}")
    assert state.legal_actions() == [PASS, RESIGN]
    assert state.apply(PASS).turn == 1


def test_ace_tap_each_piece_moves_once_and_stays_tapped_until_its_untap():
    state = do(S(f"B,8/R,8/9/9 B10 - - {NONE}"), "B1+4>B5")
    assert state.turn == 1 and state.is_tapped(0)  # the turn passed, still tapped
    assert board(state) == "4,b,4/R,8/9/9"
    state = do(throw(state, 2), "R1+2>R3")
    assert state.is_tapped(0) and board(state) == "4,b,4/2,r,6/9/9"
    state = do(throw(state, 3), "pass")  # Orange and Yellow have nothing to move
    state = do(throw(state, 3), "pass")
    assert state.turn == 0 and not state.is_tapped(0)  # Blue's next turn: untapped
    assert state.is_tapped(9)


def test_ace_jump_after_spending_a_20():
    text = f"B,B,B,6/9/9/4,Y,4 B20 - - {NONE}"
    state = do(S(text), "B1+20>O1")
    assert state.stage == JUMP and state.current_player == 0
    # B2 may jump to B3 (untapped friend) and back; never onto the tapped piece on O2.
    assert texts(state) == ["jump B2>B3", "jump B3>B2", "no jump", "resign"]
    jumped = do(state, "jump B2>B3")
    assert board(jumped) == "2,Bb,6/9/b,8/4,Y,4" and jumped.turn == 1
    assert do(state, "no jump").turn == 1
    # A jump may reinforce a fight: Blue on R5 beside Red.
    state = do(S(f"B,B,7/4,BR,4/9/9 B20 - - {NONE}"), "B1+20>O1")
    assert "jump B2>R5" in texts(state)
    # No 20, no jump.
    assert do(S(text.replace("B20", "B19")), "B1+19>jackpot").stage == ROLL


def test_ace_combat_20_never_jumps():
    state = fight(f"RB,8/9/9/4,Y,4 B - - {NONE}", 20, 5, die=20)
    assert state.stage == ROLL and state.turn == 1  # no jump decision after the fight


# --- combat ---------------------------------------------------------------------------


def test_ace_scope_active_territory_only_or_the_whole_board():
    text = f"9/RB,8/9/9 B - - {NONE}"  # a fight on R1, Blue to roll
    state = do(throw(S(text), 5), "pass")
    assert state.stage == ROLL and state.turn == 1  # Red's territory is not solved now
    state = do(throw(state, 5), "pass")  # Red's turn: its territory fights
    assert state.stage == ATTACK and state.fighters() == (0, 9)
    board_rules = Acedrex(combat_scope="board")
    state = do(throw(S(text, board_rules), 5), "pass")
    assert state.stage == ATTACK
    # A resigned player's territory is solved on the turn of the next player still in
    # the game (Red resigned: Orange's turn solves Red's territory, then Orange's).
    state = S(f"B,8/OY,8/O,8/9 O - - {NONE} R 0,0,0,0")
    state = do(throw(state, 5), "O1+5>O6")
    assert state.stage == ATTACK and stop_name(state.fight) == "R1"
    assert combat_stops(ACE, 2, (False, True, False, False))[:2] == (
        first_stop(1), first_stop(1) + 1)


def test_ace_pair_outermost_opposing_neighbours():
    state = do(throw(S(f"RBB,8/9/9/9 B - - {NONE}"), 5), "pass")
    attacker, defender = state.fighters()
    assert (attacker // 9, defender // 9) == (0, 1)
    assert state.ring[0].index(attacker) == 1  # the inner Blue, beside Red
    state = do(throw(S(f"BRY,8/9/9/9 B - - {NONE}"), 5), "pass")
    attacker, defender = state.fighters()
    assert (attacker // 9, defender // 9) == (3, 1)  # Yellow attacks Red


def test_ace_tapped_block_stops_fights_further_in():
    state = do(throw(S(f"RBy,8/9/9/9 B - - {NONE}"), 5), "pass")
    assert state.stage == ROLL  # the tapped Yellow blocks Blue-Red below it
    state = do(throw(S(f"RyBO,8/9/9/9 B - - {NONE}"), 5), "pass")
    assert state.fighters() == (18, 0)  # Orange attacks Blue above the tapped Yellow
    # A charger is tapped: its fight waits.
    state = do(S(f"R,B,7/9/9/9 B1 - - {NONE}"), "B2+1>B3")
    assert state.stage == ROLL
    state = do(S(f"R,8/9/9/9 B1 B - {NONE}"), "hand+1>B1*")
    assert board(state) == "Rb,8/9/9/9" and state.stage == ROLL


def test_ace_combat_roll_attacker_then_defender():
    state = do(throw(S(f"RB,8/9/9/9 B - - {NONE}"), 5), "pass")
    assert state.stage == ATTACK and state.chance_outcomes() is not None
    state = throw(state, 9)
    assert state.stage == DEFEND and state.attack == 9
    assert sum(p for _, p in state.chance_outcomes()) == 1


def test_ace_combat_one_is_thrown_again():
    """A 1 is thrown again, so it is no outcome of a combat throw: the others share its
    probability, and applying it is refused."""
    state = do(throw(S(f"RB,8/9/9/9 B - - {NONE}", CAPTURING), 5), "pass")
    assert 1 not in values(state)  # the attacker's 1 does not count
    with pytest.raises(IllegalOutcomeError, match="thrown again"):
        throw(state, 1)
    state = throw(state, 14)
    assert 1 not in values(state)  # nor the defender's
    with pytest.raises(IllegalOutcomeError, match="thrown again"):
        throw(state, 1)
    assert throw(state, 2).captured[0] == (9,)


def test_ace_modifiers_other_untapped_friends_add_one():
    state = do(throw(S(f"RRBBB,8/9/9/9 B - - {NONE}"), 5), "pass")
    state = throw(state, 10)
    from gammon.variants.acedrex import fight_result

    result = fight_result(state, 11)
    assert (result.attack_bonus, result.defend_bonus) == (2, 1)
    assert (result.attack_total, result.defend_total) == (12, 12)
    # Tapped friends add nothing (a tapped Yellow innermost blocks nothing above it).
    state = throw(do(throw(S(f"yRY,8/9/9/9 B - - {NONE}"), 5), "pass"), 10)
    assert state.fighters() == (28, 9)
    assert fight_result(state, 11).attack_bonus == 0


def test_ace_combat_win_thirteen_or_more():
    # Attacker wins outright against a foreign defender: back to its owner's hand.
    assert ACE.foreign_defender == "hand"
    state = fight(f"RB,8/9/9/9 B - - {NONE}", 13, 12)
    assert state.hands[1] == (9,) and state.captured == ((), (), (), ())
    assert board(state) == "B,8/9/9/9"
    # A defender beaten at home goes to its hand too.
    state = fight(f"BR,8/9/9/9 B - - {NONE}", 15, 3)  # Red attacks Blue on B1
    assert state.hands[0] == (0,) and state.captured == ((), (), (), ())
    # The defender wins outright: the attacker is captured.
    state = fight(f"RB,8/9/9/9 B - - {NONE}", 12, 13)
    assert state.captured[1] == (0,) and board(state) == "R,8/9/9/9"
    # foreign_defender=captured: the defender beaten away from home is captured.
    state = fight(f"RB,8/9/9/9 B - - {NONE}", 13, 12, CAPTURING)
    assert state.captured[0] == (9,) and state.hands[1] == ()
    state = fight(f"BR,8/9/9/9 B - - {NONE}", 15, 3, CAPTURING)  # at home: hand still
    assert state.hands[0] == (0,) and state.captured == ((), (), (), ())
    # The threshold is checked on totals (with modifiers).
    state = fight(f"RBB,8/9/9/9 B - - {NONE}", 12, 5)
    assert state.hands[1] == (9,)
    state = fight(f"RBB,8/9/9/9 B - - {NONE}", 11, 5)
    assert board(state) == "BRB,8/9/9/9"  # 12 in all: a dodge


def test_ace_dodge_attacker_wins_low_and_they_swap():
    state = fight(f"RB,8/9/9/9 B - - {NONE}", 12, 11)
    assert board(state) == "BR,8/9/9/9" and not any(state.captured)


def test_ace_parry_defender_wins_low_and_nothing_moves():
    state = fight(f"RB,8/9/9/9 B - - {NONE}", 8, 12)
    assert board(state) == "RB,8/9/9/9" and not any(state.captured)
    assert state.turn == 1  # fought once this turn; again later


def test_ace_tie_throw_again_or_to_the_defender():
    # A tie is thrown again: the defender's equal throw is no outcome, and the attacker's
    # throws are weighted by the defender's answers that do not tie.
    attack = do(throw(S(f"RB,8/9/9/9 B - - {NONE}"), 5), "pass")
    odds = dict((roll.dice[0], p) for roll, p in attack.chance_outcomes())
    assert set(odds) == set(range(2, 21)) and sum(odds.values()) == 1
    assert len(set(odds.values())) == 1  # equal modifiers: every throw ties one answer
    defend = throw(attack, 14)
    assert 14 not in values(defend) and len(values(defend)) == 18
    with pytest.raises(IllegalOutcomeError, match="ties"):
        throw(defend, 14)
    # Unequal modifiers: a throw too high or low to be tied is likelier.
    lopsided = do(throw(S(f"RRRRBB,8/9/9/9 B - - {NONE}"), 5), "pass")
    odds = dict((roll.dice[0], p) for roll, p in lopsided.chance_outcomes())
    assert odds[2] > odds[10] and sum(odds.values()) == 1
    state = fight(f"RB,8/9/9/9 B - - {NONE}", 14, 14, Acedrex(ties="defender"))
    assert state.captured[1] == (0,)  # a 14 tie: the defender wins outright
    state = fight(f"RB,8/9/9/9 B - - {NONE}", 9, 9, Acedrex(ties="defender"))
    assert board(state) == "RB,8/9/9/9" and state.turn == 1  # a parry


# --- jackpot --------------------------------------------------------------------------


def test_ace_jackpot_enter_on_a_gate_and_closed_when_full():
    state = do(S(f"7,B,B/9/9/9 B3 - R {NONE}"), "B8+2>jackpot")
    assert state.jackpot == (9, 0) and not state.is_tapped(0)
    state = S(f"7,B,B/9/9/9 B2 - RYO {NONE}")
    assert "B8+2>jackpot" not in texts(state) and "B9+1>jackpot" not in texts(state)


def test_ace_jackpot_fill_captures_reclaims_and_repeats_the_turn():
    state = S(f"7,B,B/9/9/4,Y,4 B2 - RB {NONE}")
    state = do(state, "B8+2>jackpot")  # the third place: Blue placed last
    assert state.jackpot == () and state.captured[0] == (9,)
    assert state.hands[0] == (0, 2)  # Blue's two jackpot pieces back in hand
    assert state.turn == 0 and state.stage == ROLL and state.turns == 1  # another turn
    # Filled in two parts of one die; solved at the end of the turn.
    state = do(S(f"7,B,B/9/4,O,4/9 B3 - Y {NONE}"), "B8+2>jackpot")
    assert state.stage == MOVE and state.jackpot == (27, 0)
    state = do(state, "B9+1>jackpot")
    assert state.jackpot == () and state.captured[0] == (27,) and state.hands[0] == (0, 1)
    assert state.turn == 0 and state.stage == ROLL


def test_ace_capture_is_kept_for_good():
    state = fight("RB,8/9/9/4,Y,4 B - - R/-/-/-", 13, 2, CAPTURING)
    assert state.captured[0] == (10, 9)
    state = do(throw(state, 4), "pass")
    assert state.captured[0] == (10, 9)


def test_ace_end_at_eight_captures_at_once():
    state = fight("RB,RB,7/9/9/9 B - - RRRYYYO/-/-/-", 13, 2, CAPTURING)
    assert state.is_terminal and state.ended == "captures"
    assert state.captures(0) == 8 and board(state) == "B,RB,7/9/9/9"  # B2 never fought
    assert Acedrex(captures_to_end=1).captures_to_end == 1
    # Nothing left to capture: Red's last piece is taken, only Blue has pieces in play.
    state = fight(f"RB,8/9/9/9 B - - {NONE}", 13, 2, CAPTURING)
    assert state.is_terminal and state.ended == "stalled" and state.returns() == (
        3.0, -1.0, -1.0, -1.0)
    # Or nothing can move: every piece in play is in the jackpot.
    state = do(S(f"8,B/9/9/9 B1 - O {NONE}"), "B9+1>jackpot")
    assert state.is_terminal and state.ended == "stalled"
    with pytest.raises(InvalidOptionError):
        Acedrex(captures_to_end=0)


def test_ace_score_doubles_per_piece():
    assert [points(n) for n in range(10)] == [0, 1, 2, 4, 8, 16, 32, 64, 128, 256]


def test_ace_payout_difference_and_victim_sum_to_zero():
    text = "RB,8/9/9/9 B - - RRO/Y/-/B"  # scores after the fight: 8, 1, 0, 1
    state = fight(text, 13, 2, Acedrex(captures_to_end=4, stake=5,
                                       foreign_defender="captured"))
    assert state.is_terminal and state.scores() == (8, 1, 0, 1)
    # Blue collects 7, 8 and 7 points; Red gets 1 from Orange and pays Blue 7 ...
    assert state.returns() == (110.0, -30.0, -50.0, -30.0)
    assert sum(state.returns()) == 0
    victim = fight(text, 13, 2, Acedrex(captures_to_end=4, payout="victim",
                                        foreign_defender="captured"))
    # Blue took 3 Red (4 points) and 1 Orange (1); Red took 1 Yellow, Yellow took 1 Blue.
    assert victim.returns() == (4 + 1 - 1, -4 + 1, -1, 1 - 1)
    assert sum(victim.returns()) == 0


def test_ace_resign_removes_pieces_settles_and_passes_the_turn():
    text = "B,R,7/R,8/O,8/Y,8 R3 R Y R/-/-/-"
    state = do(S(text), "resign")
    assert state.out[1] and state.turn == 2 and state.stage == ROLL
    assert board(state) == "B,8/9/O,8/Y,8" and state.hands[1] == () and state.jackpot == (28,)
    assert sum(1 for x in state.removed if x // 9 == 1) == 8  # all but the one Blue holds
    # Red settled with everyone: Blue scored 1, the others 0.
    assert state.money == (1, -1, 0, 0)
    assert state.standing() == (3, -1, -1, -1)  # if the game ended now
    # The last two resign: the game ends.
    state = do(throw(state, 2), "resign")  # Orange
    assert state.turn == 3 and state.money == (2, -1, -1, 0)
    state = do(throw(state, 2), "resign")  # Yellow
    assert state.is_terminal and state.ended == "resignations"
    assert sum(state.returns()) == 0 and state.returns()[0] == 3
    # Resigning is offered at every decision.
    assert RESIGN in throw(S(f"B,8/9/9/9 B - - {NONE}"), 1).legal_actions()
    jump = do(S(f"B,B,B,6/9/9/9 B20 - - {NONE}"), "B1+20>O1")
    assert RESIGN in jump.legal_actions() and NO_JUMP in jump.legal_actions()


def test_ace_cap_ends_and_settles():
    rules = Acedrex(turn_cap=3)
    state = S("B,8/R,8/9/9 B - - O/-/-/- - 0,0,0,0 3", rules)  # Blue's is turn 3
    state = do(throw(state, 2), "B1+2>B3")  # turn 3 is over
    assert state.is_terminal and state.ended == "cap"
    assert state.returns() == (3.0, -1.0, -1.0, -1.0)
    with pytest.raises(InvalidOptionError):
        Acedrex(turn_cap=-1)


def test_ace_end_and_ace_cap_quick_preset_and_table_options():
    """ACE-END, ACE-CAP (docs/rules/acedrex.md, Options): the preset ``acedrex-quick``
    ends a game at the fourth capture and after turn 200; a table sets those two options
    within ``Acedrex.table_options`` (every number of captures the rules allow, a cap of
    1 to 1,000 turns: never none)."""
    quick = gammon.variant("acedrex-quick")
    assert quick.options() == {**ACE.options(), "captures_to_end": 4, "turn_cap": 200}
    text = "RB,8/R,8/9/9 B - - RRR/-/-/-"  # Blue's fourth capture is on B1
    rules = dataclasses.replace(quick, foreign_defender="captured")
    end = fight(text, 13, 2, rules)
    assert end.is_terminal and end.ended == "captures" and end.captures(0) == 4
    assert not fight(text, 13, 2, CAPTURING).is_terminal  # eight by default
    capped = do(throw(S("B,8/R,8/9/9 B - - O/-/-/- - 0,0,0,0 200", quick), 2), "B1+2>B3")
    assert capped.is_terminal and capped.ended == "cap"
    assert not do(throw(S("B,8/R,8/9/9 B - - O/-/-/- - 0,0,0,0 200"), 2),
                  "B1+2>B3").is_terminal
    assert Acedrex.table_options == {"captures_to_end": (1, 27), "turn_cap": (1, 1000)}
    assert gammon.variant("acedrex-quick", turn_cap=150).turn_cap == 150


def test_ace_returns_money_zero_until_the_end():
    state = S("RB,8/9/9/9 B - - RRRRRRR/-/-/-")
    assert state.returns() == (0.0, 0.0, 0.0, 0.0)
    end = fight("RB,8/9/9/9 B - - RRRRRRR/-/-/-", 13, 2, CAPTURING)
    assert end.is_terminal and end.returns() == (384.0, -128.0, -128.0, -128.0)
    assert end.winner == 0


# --- protocol -------------------------------------------------------------------------


def test_illegal_action_says_what_is_legal():
    state = S(f"B,8/9/9/9 B3 - - {NONE}")
    with pytest.raises(IllegalPlayError, match="legal: B1"):
        state.apply(Step(0, 5))
    with pytest.raises(ValueError):
        state.apply(Roll((3,)))
    with pytest.raises(ValueError):
        throw(S(f"B,8/9/9/9 B - - {NONE}"), 0)
    assert Jump(0, 1) not in state.legal_actions()


def test_actions_and_states_are_values():
    state = S(f"B,B,7/9/9/9 B12 - - {NONE}")
    assert state.legal_actions()[0] == Step(0, 1)
    assert hash(state) == hash(S(f"B,B,7/9/9/9 B12 - - {NONE}"))
    before = format_state(state)
    do(state, "B1+5>B6")
    assert format_state(state) == before
    assert PASS != NO_JUMP


def test_options_are_validated():
    for bad in ({"combat_scope": "ring"}, {"ties": "attacker"}, {"payout": "all"},
                {"foreign_defender": "gone"}, {"stake": 0}, {"threshold": 1}):
        with pytest.raises(InvalidOptionError):
            gammon.variant("acedrex", **bad)
    assert gammon.variant("acedrex-backgammon").name == "acedrex"


def test_worked_example():
    """The worked example of docs/rules/acedrex.md, throw by throw."""
    state = S("B,2,RBB,2,B,BYr,1/R,R,R,R,R,4/O,O,O,O,O,O,O,1,R/Y,Y,B,Y,Y,Y,Y,2 B B YO RY/B/B/O")
    assert state.standing() == (3, -1, -1, -1)
    state = throw(state, 1)
    state = throw(do(state, "reroll"), 12)
    charges = [t for t in texts(state) if t.endswith("*")]
    assert charges == ["hand+12>Y2*", "Y3+12>O5*"]
    state = do(state, "B1+5>B6")
    assert state.left == 7 and not any(t.endswith("*") for t in texts(state))
    state = do(state, "hand+7>B7")
    assert state.stage == ATTACK and stop_name(state.fight) == "B4"
    attacker, defender = state.fighters()
    assert state.ring[state.fight].index(attacker) == 1 and defender // 9 == 1
    assert 1 not in values(state)  # Blue's 1 is thrown again: no outcome
    state = throw(state, 12)
    from gammon.variants.acedrex import fight_result

    result = fight_result(state, 9)
    assert (result.attack_total, result.defend_total, result.outcome, result.fate) == (
        13, 9, "ace", "hand")
    state = throw(state, 9)
    assert format_state(state) == (
        "3,BB,1,b,Bb,BYR,1/R,R,R,R,R,4/O,O,O,O,O,O,O,1,R/Y,Y,B,Y,Y,Y,Y,2 R R YO RY/B/B/O"
        " - 0,0,0,0 1"
    )
    assert state.standing() == (3, -1, -1, -1)


@pytest.mark.parametrize("name, most", [("acedrex", 8), ("acedrex-quick", 4)])
def test_a_state_in_play_has_no_player_at_the_captures_that_end_the_game(name, most):
    """ACE-END: a game ends as soon as a player has made the captures that end it, so no
    state in play (as a position text describes one) has that many."""
    rules = gammon.variant(name)
    ring = [() for _ in range(RING)]
    taken = tuple(range(PIECES, PIECES + most))  # Red's pieces, taken by Blue
    with pytest.raises(InvalidOptionError, match=f"{most} captures"):
        rules.state(ring, 0, captured=(taken, (), (), ()))
    rules.state(ring, 0, captured=(taken[:-1], (), (), ()))
