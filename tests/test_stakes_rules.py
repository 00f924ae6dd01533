"""Every rule of docs/rules/stakes.md on hand-built situations.

Each test is named after the rule label it checks (``test_cube_beaver...`` for
**CUBE-BEAVER**); tests/test_rules_pages.py makes sure every label has one.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import gammon
from gammon.core.dice import Roll
from gammon.core.errors import IllegalOutcomeError, IllegalPlayError, InvalidOptionError
from gammon.core.position import Position
from gammon.core.protocol import Phase
from gammon.notation import Situation
from gammon.notation.events import events, lines
from gammon.notation.gnuid import state_gnubg_id, state_match_id, state_match_info
from gammon.notation.movetext import find_play
from gammon.stakes import (
    CubeAction,
    CubeState,
    Match,
    MatchScore,
    Resign,
    ResignAnswer,
    Session,
    StakeRules,
    amounts_for,
    cube_game,
)
from gammon.stakes.record import GameRecord

BG = gammon.variant("backgammon")
ROLL, DOUBLE, TAKE, DROP = CubeAction.ROLL, CubeAction.DOUBLE, CubeAction.TAKE, CubeAction.DROP
BEAVER, RACCOON = CubeAction.BEAVER, CubeAction.RACCOON
ACCEPT, REJECT = ResignAnswer.ACCEPT, ResignAnswer.REJECT


def race(loser: dict[int, int], turn: int = 0) -> Position:
    """Player 0 (to roll) bears off the last checker with any roll; ``loser`` is player
    1's layout. Player 1's points 19-24 are player 0's home board."""
    return Position.from_points([{0: 14, 1: 1}, loser], turn=turn)


SINGLE = {0: 1, 12: 14}
GAMMON = {12: 15}
BACKGAMMON = {12: 14, 20: 1}
#: A middle game with both players far from the end.
MIDDLE = Position.from_points([{24: 2, 13: 5, 8: 3, 6: 5}] * 2)


def at(position: Position = MIDDLE, **kwargs) -> CubeState:
    return CubeState.midgame(BG, position, **kwargs)


def finish(state: CubeState, dice: tuple[int, int] = (6, 5)) -> CubeState:
    """Play on without doubling, throwing ``dice`` and taking the first legal play."""
    while not state.is_terminal:
        if state.preroll:
            state = state.apply(ROLL)
        elif state.is_chance:
            state = state.apply(Roll(dice))
        else:
            state = state.apply(state.legal_actions()[0])
    return state


def opening(state: CubeState, dice: tuple[int, int] = (3, 1)) -> CubeState:
    return state.apply(Roll(dice, opening=True))


# --- the cube --------------------------------------------------------------------------


def test_cube_start_centred_at_one():
    state = cube_game("backgammon")
    assert (state.cube_value, state.cube_owner) == (1, None)
    assert state.is_chance and state.opening
    # The opening throw is played at once: no cube decision before it.
    state = opening(state)
    assert state.phase is Phase.DECIDE and state.dice == (3, 1)
    assert state.legal_actions() is state.base.legal_actions()
    state = state.apply(state.legal_actions()[0])
    # The second player's turn starts with the choice to double.
    assert state.current_player == 1 and state.legal_actions() == (ROLL, DOUBLE)
    # A single game won at cube 1 is worth 1.
    assert finish(at(race(SINGLE))).returns() == (1.0, -1.0)


def test_cube_offer_before_rolling_only():
    state = at()
    assert state.preroll and state.current_player == 0
    assert state.legal_actions() == (ROLL, DOUBLE)
    offered = state.apply(DOUBLE)
    assert offered.offer is not None and offered.offer.value == 2
    assert offered.current_player == 1 and offered.cube_value == 1
    assert offered.legal_actions() == (TAKE, DROP)
    rolled = state.apply(ROLL)
    assert rolled.is_chance and rolled.offer is None
    with pytest.raises(IllegalPlayError, match="before rolling"):
        rolled.apply(DOUBLE)
    played = rolled.apply(Roll((3, 1)))
    with pytest.raises(IllegalPlayError):
        played.apply(DOUBLE)
    # The next turn is player 1's, who may double too (the cube is centred).
    after = played.apply(played.legal_actions()[0])
    assert after.preroll and after.current_player == 1


def test_cube_owner_only_owner_may_double():
    state = at().apply(DOUBLE).apply(TAKE)
    assert (state.cube_value, state.cube_owner) == (2, 1)
    # The doubler (player 0) rolls now, and can never double again while player 1 owns it.
    assert state.is_chance and state.position.turn == 0
    assert not state.may_double(0) and "belongs to player 1" in state.why_no_double(0)
    state = state.apply(Roll((3, 1)))
    state = state.apply(state.legal_actions()[0])
    # Player 1, the owner, may redouble at the start of the turn.
    assert state.preroll and state.current_player == 1
    state = state.apply(DOUBLE)
    assert state.offer.value == 4 and state.current_player == 0
    state = state.apply(TAKE)
    assert (state.cube_value, state.cube_owner) == (4, 0)
    state = state.apply(Roll((2, 1)))
    state = state.apply(state.legal_actions()[0])
    # Player 0 owns it now: a cube decision; then player 1's turn starts with the dice.
    assert state.preroll and state.current_player == 0
    state = state.apply(ROLL).apply(Roll((2, 1)))
    state = state.apply(state.legal_actions()[0])
    assert state.is_chance and not state.preroll and state.position.turn == 1


def test_cube_take_turns_the_cube_and_the_doubler_rolls():
    state = at(cube_value=2, cube_owner=0).apply(DOUBLE)
    taken = state.apply(TAKE)
    assert (taken.cube_value, taken.cube_owner, taken.offer) == (4, 1, None)
    assert taken.is_chance and taken.position.turn == 0
    assert finish(CubeState.midgame(BG, race(SINGLE), cube_value=4, cube_owner=1)
                  ).returns() == (4.0, -4.0)


def test_cube_drop_ends_the_game_at_the_old_value():
    state = at(cube_value=2, cube_owner=0).apply(DOUBLE).apply(DROP)
    assert state.is_terminal and state.winner == 0
    assert state.returns() == (2.0, -2.0)
    assert state.ending is not None and state.ending.how == "drop"
    with pytest.raises(ValueError):
        state.apply(ROLL)


def test_cube_beaver_keeps_cube_with_beaverer():
    rules = StakeRules(beaver=True)
    doubled = at(stakes=rules).apply(DOUBLE)
    assert doubled.legal_actions() == (TAKE, DROP, BEAVER)
    beavered = doubled.apply(BEAVER)
    # Player 1 took the 2 and raised to 4, keeping the cube; player 0 must answer.
    assert beavered.current_player == 0
    assert (beavered.cube_value, beavered.cube_owner) == (2, 1)
    assert beavered.offer.value == 4 and beavered.offer.kind is BEAVER
    assert beavered.legal_actions() == (TAKE, DROP)  # no raccoon without the option
    taken = beavered.apply(TAKE)
    assert (taken.cube_value, taken.cube_owner) == (4, 1)
    assert taken.is_chance and taken.position.turn == 0  # the doubler still rolls
    refused = beavered.apply(DROP)
    assert refused.returns() == (-2.0, 2.0)  # the doubled stake is lost
    # No beaver without the option; none in a match.
    assert at().apply(DOUBLE).legal_actions() == (TAKE, DROP)
    with pytest.raises(IllegalPlayError):
        at().apply(DOUBLE).apply(BEAVER)
    with pytest.raises(InvalidOptionError):
        at(stakes=rules, score=MatchScore.match(7))


def test_cube_raccoon_answers_a_beaver():
    rules = StakeRules(beaver=True, raccoon=True)
    beavered = at(stakes=rules).apply(DOUBLE).apply(BEAVER)
    assert beavered.legal_actions() == (TAKE, DROP, RACCOON)
    raccooned = beavered.apply(RACCOON)
    assert raccooned.current_player == 1
    assert (raccooned.cube_value, raccooned.cube_owner) == (4, 1)
    assert raccooned.offer.value == 8 and raccooned.legal_actions() == (TAKE, DROP)
    taken = raccooned.apply(TAKE)
    assert (taken.cube_value, taken.cube_owner) == (8, 0)  # the raccooner keeps it
    assert raccooned.apply(DROP).returns() == (4.0, -4.0)
    with pytest.raises(InvalidOptionError, match="raccoon needs beaver"):
        StakeRules(raccoon=True)


def test_cube_max_limits_every_raise():
    assert StakeRules().max_cube == 64
    state = at(cube_value=32, cube_owner=0)
    assert state.legal_actions() == (ROLL, DOUBLE)
    assert state.apply(DOUBLE).apply(TAKE).cube_value == 64
    top = at(cube_value=64, cube_owner=0)
    assert top.is_chance and not top.preroll
    assert "limit" in top.why_no_double(0)
    with pytest.raises(IllegalPlayError, match="limit"):
        top.apply(DOUBLE)
    # A beaver may not pass the limit either.
    rules = StakeRules(beaver=True, raccoon=True, max_cube=8)
    doubled = at(stakes=rules, cube_value=2, cube_owner=0).apply(DOUBLE)
    assert doubled.legal_actions() == (TAKE, DROP, BEAVER)
    assert doubled.apply(BEAVER).legal_actions() == (TAKE, DROP)
    assert at(stakes=rules, cube_value=4, cube_owner=0).apply(DOUBLE).legal_actions() == (
        TAKE, DROP)
    # ... nor an automatic double.
    state = cube_game(BG, StakeRules(auto_doubles=5, max_cube=4))
    for _ in range(2):
        state = state.apply(Roll((2, 2), opening=True))
    assert state.cube_value == 4 and state.auto_doubles == 2
    # At the limit an equal throw changes nothing: thrown again, it is no outcome.
    assert len(state.chance_outcomes()) == 30
    with pytest.raises(IllegalOutcomeError):
        state.apply(Roll((2, 2), opening=True))
    with pytest.raises(InvalidOptionError):
        StakeRules(max_cube=0)


def test_cube_arithmetic_progression():
    rules = StakeRules(progression="arithmetic", beaver=True, raccoon=True)
    values, value, owner = [], 1, None
    for _ in range(4):
        taken = at(stakes=rules, cube_value=value, cube_owner=owner).apply(DOUBLE).apply(TAKE)
        value, owner = taken.cube_value, 0
        values.append(value)
    assert values == [2, 3, 4, 5]
    # A drop loses the value before the raise; a beaver adds one more step.
    assert at(stakes=rules, cube_value=3, cube_owner=0).apply(DOUBLE).apply(DROP).returns() \
        == (3.0, -3.0)
    beavered = at(stakes=rules).apply(DOUBLE).apply(BEAVER)
    assert (beavered.cube_value, beavered.offer.value) == (2, 3)
    assert beavered.apply(RACCOON).offer.value == 4
    # A gammon at cube 3 is 6 points; the GNU Match ID cannot hold a 3.
    won = finish(CubeState.midgame(BG, race(GAMMON), stakes=rules, cube_value=3, cube_owner=0))
    assert won.returns() == (6.0, -6.0)
    with pytest.raises(InvalidOptionError, match="powers? of two|1, 2, 4"):
        state_match_id(won)
    with pytest.raises(InvalidOptionError):
        StakeRules(progression="fibonacci")


def test_cube_score_gammon_and_backgammon_times_cube():
    assert finish(at(race(GAMMON), cube_value=4, cube_owner=1)).returns() == (8.0, -8.0)
    assert finish(at(race(BACKGAMMON), cube_value=4, cube_owner=1)).returns() == (12.0, -12.0)
    assert finish(at(race(SINGLE), cube_value=2, cube_owner=0)).returns() == (2.0, -2.0)
    # Long Nardy: a mars is 2, times the cube.
    nardy = gammon.variant("long-nardy")
    start = nardy.start_position()
    rows = [list(r) for r in start.checkers]
    rows[0] = [14, 1] + [0] * (len(rows[0]) - 2)
    state = CubeState.midgame(nardy, Position.from_checkers(rows), cube_value=2, cube_owner=0)
    won = finish(state)
    assert won.returns() == (4.0, -4.0) and won.result_level == 2


def test_cube_jacoby_gammons_single_while_centred():
    jacoby = StakeRules(jacoby=True)
    assert finish(at(race(GAMMON), stakes=jacoby)).returns() == (1.0, -1.0)
    assert finish(at(race(BACKGAMMON), stakes=jacoby)).returns() == (1.0, -1.0)
    # Once a double was taken the gammon counts.
    assert finish(at(race(GAMMON), stakes=jacoby, cube_value=2, cube_owner=1)).returns() == (
        4.0, -4.0)
    # Off: the gammon counts with a centred cube.
    assert finish(at(race(GAMMON))).returns() == (2.0, -2.0)
    # An automatic double leaves the cube centred: still single (times 2).
    assert finish(at(race(GAMMON), stakes=jacoby, cube_value=2)).returns() == (2.0, -2.0)
    # Without the cube the cube stays centred: every game is single.
    nocube = StakeRules(jacoby=True, cube=False)
    assert finish(at(race(BACKGAMMON), stakes=nocube)).returns() == (1.0, -1.0)
    # Money play only.
    with pytest.raises(InvalidOptionError, match="money"):
        Match(BG, 5, jacoby)


def test_cube_auto_doubles_on_equal_opening_throws():
    rules = StakeRules(auto_doubles=2)
    state = cube_game(BG, rules)
    # While a double is due, an equal throw is an outcome of its own (36 throws).
    assert len(state.chance_outcomes()) == 36
    for expected in (2, 4):
        state = state.apply(Roll((4, 4), opening=True))
        assert state.cube_value == expected and state.cube_owner is None
        assert state.is_chance and state.opening
    assert state.auto_doubles == 2
    # Then it is only thrown again: no outcome (the 30 unequal throws are).
    assert len(state.chance_outcomes()) == 30
    with pytest.raises(IllegalOutcomeError):
        state.apply(Roll((4, 4), opening=True))
    state = opening(state, (5, 2))
    assert state.cube_value == 4 and state.phase is Phase.DECIDE
    # Off by default; never in a match; arithmetic steps by one.
    assert len(cube_game(BG).chance_outcomes()) == 30
    with pytest.raises(InvalidOptionError, match="auto_doubles"):
        cube_game(BG, rules, MatchScore.match(7))
    arithmetic = cube_game(BG, StakeRules(auto_doubles=3, progression="arithmetic"))
    for _ in range(3):
        arithmetic = arithmetic.apply(Roll((1, 1), opening=True))
    assert arithmetic.cube_value == 4
    # The record says so.
    record = GameRecord(cube_game(BG, rules))
    record.apply(Roll((6, 6), opening=True))
    assert [e.kind for e in events(record)] == ["opening", "auto-double"]


def test_cube_no_mars_with_cube_every_win_single():
    rules = StakeRules(no_mars_with_cube=True)
    assert finish(at(race(GAMMON), stakes=rules)).returns() == (1.0, -1.0)
    assert finish(at(race(BACKGAMMON), stakes=rules, cube_value=4, cube_owner=1)).returns() \
        == (4.0, -4.0)
    # Without the cube, mars counts again.
    off = StakeRules(no_mars_with_cube=True, cube=False)
    assert finish(at(race(GAMMON), stakes=off)).returns() == (2.0, -2.0)
    nardy = gammon.variant("long-nardy")
    rows = [list(r) for r in nardy.start_position().checkers]
    rows[0] = [14, 1] + [0] * (len(rows[0]) - 2)
    state = CubeState.midgame(nardy, Position.from_checkers(rows), stakes=rules)
    assert finish(state).returns() == (1.0, -1.0)
    # Left at None, the variant decides: off for backgammon and Long Nardy, on for short
    # backgammon and the Caucasian game (docs/rules/short.md); False switches it off.
    default = StakeRules()
    assert default.no_mars_with_cube is None
    assert finish(at(race(GAMMON), stakes=default)).returns() == (2.0, -2.0)
    assert not default.no_mars_for(nardy) and not default.no_mars_for(BG)
    for name in ("short", "caucasian"):
        assert default.no_mars_for(gammon.variant(name))
        assert not StakeRules(no_mars_with_cube=False).no_mars_for(gammon.variant(name))
    with pytest.raises(InvalidOptionError, match="no_mars_with_cube"):
        StakeRules(no_mars_with_cube="yes")  # type: ignore[arg-type]


def test_cube_variants_defaults():
    for name in ("backgammon", "short", "short-nardy", "nackgammon", "hypergammon",
                 "caucasian", "long-nardy"):
        state = cube_game(name)
        assert state.cube_in_play, name
    assert not cube_game("acey-deucey").cube_in_play
    assert cube_game("acey-deucey", cube=True).cube_in_play
    multi = cube_game("multi-gam")
    assert not multi.cube_in_play and multi.resign_offers() == ()
    with pytest.raises(InvalidOptionError, match="two players"):
        cube_game("multi-gam", cube=True)
    with pytest.raises(InvalidOptionError):
        Match("multi-gam", 5)


@pytest.mark.parametrize("name", ["backgammon", "nackgammon", "hypergammon", "caucasian",
                                  "long-nardy", "acey-deucey"])
def test_cube_protocol_random_games_end_zero_sum(name):
    rng = random.Random(name)
    options = {"cube": True, "beaver": True, "raccoon": True, "auto_doubles": 2}
    values = {1, 2, 4, 8, 16, 32, 64}
    for _ in range(6):
        state = cube_game(name, **options)
        steps = 0
        while not state.is_terminal:
            steps += 1
            assert steps < 20000
            if state.is_chance:
                assert state.current_player is None
                state = state.apply(state.sample_chance(rng))
                continue
            actions = list(state.legal_actions())
            # Doubling now and then, taking mostly: games of sensible length.
            weights = [0.2 if a in (DOUBLE, DROP, BEAVER, RACCOON) else 1.0 for a in actions]
            before = state
            state = state.apply(rng.choices(actions, weights)[0])
            if state.preroll:
                # A cube decision only ever starts a turn of the other player.
                assert before.current_player != state.current_player or before.preroll
            assert state.cube_value in values
        results = state.returns()
        assert sum(results) == 0
        assert max(results) in (0.0, *{v * k for v in values for k in (1, 2, 3)})


# --- resignation -----------------------------------------------------------------------


def test_resign_offer_by_the_player_to_act():
    state = at()
    assert state.resign_offers() == (Resign(1), Resign(2), Resign(3))
    assert Resign(2) not in state.legal_actions()  # not listed by default
    listed = at(stakes=StakeRules(list_resignations=True))
    assert listed.legal_actions() == (ROLL, DOUBLE, Resign(1), Resign(2), Resign(3))
    offered = state.apply(Resign(2))
    assert offered.current_player == 1 and offered.legal_actions() == (ACCEPT, REJECT)
    # After rolling, and before rolling when no cube decision is due.
    rolled = state.apply(ROLL).apply(Roll((3, 1)))
    assert rolled.apply(Resign(1)).current_player == 1
    crawford = at(score=MatchScore.match(5, (4, 2)))
    assert crawford.is_chance and crawford.resign_offers()
    assert crawford.apply(Resign(1)).current_player == 1
    # Acey-deucey scores single games: only a single game may be resigned.
    acey = cube_game("acey-deucey").apply(Roll((4, 2), opening=True))
    while acey.is_chance:
        acey = acey.apply(Roll((4, 2), opening=True) if acey.opening else Roll((5, 3)))
    assert acey.resign_offers() == (Resign(1),)
    with pytest.raises(IllegalPlayError, match="gammon"):
        acey.apply(Resign(2))
    with pytest.raises(InvalidOptionError):
        Resign(4)


def test_resign_accept_scores_the_level_times_cube():
    state = at(cube_value=2, cube_owner=1)
    assert state.apply(Resign(2)).apply(ACCEPT).returns() == (-4.0, 4.0)
    assert state.apply(Resign(3)).apply(ACCEPT).returns() == (-6.0, 6.0)
    assert state.apply(Resign(1)).apply(ACCEPT).returns() == (-2.0, 2.0)
    # The Jacoby rule and "no mars" score a resigned gammon as they score a gammon.
    jacoby = at(stakes=StakeRules(jacoby=True))
    assert jacoby.apply(Resign(2)).apply(ACCEPT).returns() == (-1.0, 1.0)
    nomars = at(stakes=StakeRules(no_mars_with_cube=True), cube_value=2, cube_owner=0)
    assert nomars.apply(Resign(3)).apply(ACCEPT).returns() == (-2.0, 2.0)
    # Answering a double, a player may resign instead (gnubg allows it).
    doubled = at(cube_value=4, cube_owner=0).apply(DOUBLE)
    assert Resign(2) in doubled.resign_offers()
    resigned = doubled.apply(Resign(2))
    assert resigned.current_player == 0
    assert resigned.apply(ACCEPT).returns() == (8.0, -8.0)
    back = resigned.apply(REJECT)
    assert back.offer is not None and back.current_player == 1
    assert back.legal_actions() == (TAKE, DROP)


def test_resign_reject_goes_on_and_asks_more():
    state = at()
    rejected = state.apply(Resign(2)).apply(REJECT)
    assert rejected.preroll and rejected.current_player == 0
    assert rejected.resign_offers() == (Resign(3),)
    with pytest.raises(IllegalPlayError, match="declined"):
        rejected.apply(Resign(1))
    assert rejected.apply(Resign(3)).current_player == 1
    # Once the game moves on, any offer again.
    moved = rejected.apply(ROLL)
    assert moved.resign_offers() == (Resign(1), Resign(2), Resign(3))
    with pytest.raises(IllegalPlayError):
        state.apply(Resign(1)).apply(TAKE)


# --- match play ------------------------------------------------------------------------


def play_out(match: Match, *script) -> None:
    """Start a game with opening throw 3-1 (player 0 starts) and apply ``script``;
    the literal "play" plays the first legal play."""
    state = match.new_game()
    state = match.apply(Roll((3, 1), opening=True))
    for step in script:
        if step == "play":
            step = state.legal_actions()[0]
        state = match.apply(step)


def test_match_score_carries_points():
    match = Match(BG, 7)
    play_out(match, "play", DOUBLE, TAKE, Roll((5, 2)), Resign(2), ACCEPT)
    # Player 1 doubled, player 0 took; player 1 rolled and resigned a gammon: 2 x 2.
    assert match.score.score == (4, 0)
    play_out(match, Resign(1), ACCEPT)
    assert match.score.score == (4, 1)
    state = match.new_game()
    assert state.score.score == (4, 1)
    assert len(match.games) == 3 and not match.is_over
    # A gammon played out: gammon values count in full in a match.
    match = Match(BG, 7)
    match.games.append(GameRecord(CubeState.midgame(BG, race(GAMMON), score=match.score,
                                                    cube_value=2, cube_owner=0)))
    state = match.state
    while not state.is_terminal:
        state = match.apply(ROLL if state.preroll else (
            Roll((6, 5)) if state.is_chance else state.legal_actions()[0]))
    assert match.score.score == (4, 0)


def test_match_end_at_the_length():
    match = Match(BG, 3)
    play_out(match, Resign(3), ACCEPT)
    assert match.is_over and match.winner == 1 and match.score.score == (0, 3)
    with pytest.raises(InvalidOptionError, match="over"):
        match.new_game()
    # Past the length: 2 points short, a gammon at cube 4 scores 8.
    match = Match(BG, 5, score=(1, 3))
    play_out(match, "play", DOUBLE, TAKE, Roll((2, 1)), "play", DOUBLE)
    assert match.state.offer.value == 4
    match.apply(TAKE)
    match.apply(Resign(2))
    match.apply(ACCEPT)
    assert match.score.score == (1, 11) and match.winner == 1
    assert state_match_info(match.state).score == (1, 11)


def test_match_crawford_game_has_no_double():
    match = Match(BG, 5)
    play_out(match, Resign(2), ACCEPT)
    play_out(match, Resign(2), ACCEPT)
    assert match.score.score == (0, 4) and match.score.crawford
    state = match.new_game()
    state = match.apply(Roll((3, 1), opening=True))
    state = match.apply(state.legal_actions()[0])
    assert state.is_chance and not state.preroll
    assert "Crawford" in state.why_no_double(1)
    with pytest.raises(IllegalPlayError, match="Crawford"):
        state.apply(DOUBLE)
    # Without the Crawford rule the trailer may double in that game.
    free = Match(BG, 5, crawford=False, score=(0, 4))
    assert not free.score.crawford
    state = free.new_game()
    state = free.apply(Roll((1, 3), opening=True))
    state = free.apply(state.legal_actions()[0])
    assert state.preroll and state.current_player == 0
    assert MatchScore.match(5, (3, 4), crawford_rule=False).crawford is False


def test_match_post_crawford_doubling_again():
    match = Match(BG, 5, score=(0, 3))
    play_out(match, Resign(1), ACCEPT)
    assert match.score.crawford and match.score.score == (0, 4)
    play_out(match, Resign(1), ACCEPT)  # player 0 resigns the Crawford game
    assert match.score.score == (0, 5) and match.is_over
    match = Match(BG, 5, score=(0, 4))
    assert match.score.crawford
    # Player 1 resigns the Crawford game: 1-4, post-Crawford.
    state = match.new_game()
    state = match.apply(Roll((1, 3), opening=True))
    state = match.apply(Resign(1))
    state = match.apply(ACCEPT)
    assert match.score.score == (1, 4)
    assert match.score.post_crawford and not match.score.crawford
    state = match.new_game()
    state = match.apply(Roll((1, 3), opening=True))
    state = match.apply(state.legal_actions()[0])
    # Player 0, the trailer, may double after the Crawford game.
    assert state.preroll and state.current_player == 0
    state = match.apply(DOUBLE)
    state = match.apply(DROP)
    assert match.score.score == (2, 4) and not match.is_over
    # Reaching 4-4 after the Crawford game: no second Crawford game.
    later = MatchScore.match(5, (3, 4), crawford=False).after(0, 1)
    assert later.score == (4, 4) and not later.crawford


def test_match_dead_cube_for_a_player_who_wins_anyway():
    state = at(score=MatchScore.match(7, (6, 3), crawford=False))
    assert not state.preroll and "dead" in state.why_no_double(0)
    state = at(score=MatchScore.match(7, (3, 5)), cube_value=2, cube_owner=0)
    assert state.preroll  # 3 + 2 < 7
    state = at(score=MatchScore.match(7, (5, 3)), cube_value=2, cube_owner=0)
    assert not state.preroll  # 5 + 2 reaches 7
    with pytest.raises(IllegalPlayError, match="dead"):
        state.apply(DOUBLE)


def test_match_money_only_options_refused():
    for options in ({"beaver": True}, {"beaver": True, "raccoon": True}, {"jacoby": True},
                    {"auto_doubles": 1}):
        with pytest.raises(InvalidOptionError, match="money"):
            Match(BG, 7, StakeRules(**options))
    with pytest.raises(InvalidOptionError):
        Match(BG, 0)
    with pytest.raises(InvalidOptionError):
        MatchScore(7, (6, 3), crawford=True, post_crawford=False, crawford_rule=False)


# --- money sessions --------------------------------------------------------------------


def test_session_ledger_money_and_standings():
    session = Session(BG, stake=5)
    state = session.new_game()
    assert state.score.money and state.score.score == (0, 0)
    state = session.apply(Roll((3, 1), opening=True))
    state = session.apply(state.legal_actions()[0])
    session.apply(DOUBLE)
    session.apply(DROP)
    assert session.ledger[-1].points == (-1, 1) and session.ledger[-1].amounts == (-5, 5)
    state = session.new_game()
    assert state.score.score == (0, 1)  # points won so far, as gnubg counts a session
    session.apply(Roll((1, 3), opening=True))
    session.apply(Resign(3))
    session.apply(ACCEPT)
    assert session.standings() == (2, -2)
    assert session.balances() == (10, -10)
    assert session.table()[-1].split()[-2:] == ["10", "-10"]
    with pytest.raises(InvalidOptionError):
        Session(BG, stake=0)


def test_session_multi_gam_ranks_accumulate():
    session = Session("multi-gam", stake=1)
    session.add((5, 3, 2, 1))
    session.add((1, 5, 3, 2))
    assert session.standings() == (6, 8, 5, 3)
    # Every pair settles the difference of their points.
    assert amounts_for((5, 3, 2, 1), 1) == (9, 1, -3, -7)
    assert session.balances() == (9 - 7, 1 + 9, -3 + 1, -7 - 3)
    assert sum(session.balances()) == 0
    # A played game goes in the same way.
    rng = random.Random(4)
    entry = session.play_game(lambda s: rng.choice(s.legal_actions()), rng)
    assert sorted(entry.points) == [1, 2, 3, 5]
    # Acedrex's results are money already (they sum to zero): times the stake.
    acedrex = Session("acedrex", stake=Fraction(1, 2))
    acedrex.add((12, -4, -4, -4))
    assert acedrex.balances() == (6, -2, -2, -2)


def test_session_settle_transfers():
    session = Session("multi-gam", stake=2)
    session.add((5, 3, 2, 1))
    balances = session.balances()
    payments = session.transfers()
    got = [0] * 4
    for payer, payee, amount in payments:
        assert amount > 0
        got[payer] -= amount
        got[payee] += amount
    assert tuple(got) == balances
    two = Session(BG, stake=3)
    two.add((-2, 2))
    assert two.transfers() == [(0, 1, 6)]


# --- the record ------------------------------------------------------------------------


def test_record_events_every_roll_play_cube_action():
    record = GameRecord(cube_game(BG, StakeRules(beaver=True)))
    state = record.apply(Roll((3, 1), opening=True))
    state = record.apply(find_play(state.base, "8/5 6/5"))
    state = record.apply(DOUBLE)
    state = record.apply(BEAVER)
    state = record.apply(TAKE)
    state = record.apply(Roll((6, 5)))
    state = record.apply(state.legal_actions()[0])
    state = record.apply(ROLL)
    state = record.apply(Roll((2, 1)))
    state = record.apply(Resign(2))
    state = record.apply(REJECT)
    state = record.apply(Resign(3))
    state = record.apply(ACCEPT)
    kinds = [e.kind for e in events(record)]
    assert kinds == ["opening", "play", "double", "beaver", "take", "roll", "play",
                     "roll", "resign", "reject", "resign", "accept", "result"]
    texts = lines(record)
    assert "8/5 6/5" in texts[1] and "beavers to 4" in texts[3]
    assert texts[-1].endswith("wins a backgammon by resignation: 12 points")
    replayed = list(record.replay())
    assert replayed[-1] == state and len(replayed) == len(record.steps) + 1


def test_record_match_id_known_values():
    """Match IDs that gnubg wrote for the same situations (tests/test_stakes_gnubg.py
    checks many more against gnubg itself)."""
    state = CubeState.from_situation(Situation.from_gnubg_id(
        "4HPwATDgc/ABMA:cAkAAAAAAAAA"), BG, StakeRules(jacoby=True, beaver=True,
                                                        raccoon=True))
    assert state_match_id(state) == "cAkAAAAAAAAA"
    state = state.apply(DOUBLE)
    assert state_match_id(state) == "cBEAAAAAAAAA"
    state = state.apply(BEAVER)
    assert state_match_id(state) == "QRkAAAAAAAAA"  # gnubg's beaver: the doubler answers
    state = state.apply(RACCOON)
    assert state_match_id(state) == "QhEAAAAAAAAA"
    state = state.apply(DROP)
    assert state_match_id(state) == "QgQAAAAAIAAA"
    # A finished match past its length, as gnubg writes it.
    end = Position.from_points([{6: 15}, {0: 13, 1: 2}], turn=1)
    won = finish(CubeState.midgame(BG, end, (6, 5), score=MatchScore.match(5, (3, 3)),
                                   cube_value=2, cube_owner=1))
    assert state_gnubg_id(won) == "AAAAwP8fAAAAAA:EQKgADAAOAAE"


def test_what_a_state_plays_for_is_answered_for_plain_games_and_stakes_alike():
    """The faces ask the stakes through one place (``gammon.stakes.cube``): a plain
    game plays for one point, in no match, with no resignations to offer."""
    from gammon.stakes.cube import cube_value, match_length, resign_offers, stakes_of

    plain = BG.initial_state()
    assert (stakes_of(plain), cube_value(plain), match_length(plain),
            resign_offers(plain)) == (None, 1, 0, ())
    state = cube_game(BG, score=MatchScore(5, (1, 2)))
    rng = random.Random(3)
    while not state.preroll:  # the opening roll, its play and the next turn's start
        state = state.apply(state.sample_chance(rng) if state.is_chance
                            else state.legal_actions()[0])
    state = state.apply(DOUBLE).apply(TAKE)
    while state.is_chance:
        state = state.apply(state.sample_chance(rng))
    assert stakes_of(state) is state
    assert (cube_value(state), match_length(state)) == (2, 5)
    assert resign_offers(state) == state.resign_offers() and resign_offers(state)
