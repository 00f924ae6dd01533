"""What a person types about the cube and resigning, and what they are told."""

from __future__ import annotations

import pytest

import gammon
from gammon.core.dice import Roll
from gammon.core.errors import IllegalPlayError
from gammon.core.position import Position
from gammon.stakes import (
    CubeAction,
    CubeState,
    MatchScore,
    Resign,
    ResignAnswer,
    StakeRules,
)
from gammon.stakes.prompt import (
    choices,
    cube_text,
    is_stakes_decision,
    parse_command,
    question,
    result_text,
    score_text,
)

BG = gammon.variant("backgammon")
MIDDLE = Position.from_points([{24: 2, 13: 5, 8: 3, 6: 5}] * 2)
NAMES = ["X", "O"]


def at(**kwargs) -> CubeState:
    return CubeState.midgame(BG, MIDDLE, **kwargs)


def test_before_rolling_double_or_roll():
    state = at()
    assert is_stakes_decision(state)
    assert parse_command(state, "double") is CubeAction.DOUBLE
    assert parse_command(state, " D ") is CubeAction.DOUBLE
    assert parse_command(state, "") is CubeAction.ROLL
    assert parse_command(state, "roll") is CubeAction.ROLL
    assert parse_command(state, "13/11 6/5") is None
    assert choices(state) == "roll/double"
    assert question(state) == "double to 2, or roll?"


def test_answers_to_a_double_and_a_beaver():
    state = at(stakes=StakeRules(beaver=True)).apply(CubeAction.DOUBLE)
    assert parse_command(state, "take") is CubeAction.TAKE
    assert parse_command(state, "pass") is CubeAction.DROP
    assert parse_command(state, "drop") is CubeAction.DROP
    assert parse_command(state, "beaver") is CubeAction.BEAVER
    with pytest.raises(IllegalPlayError, match="not allowed"):
        parse_command(state, "raccoon")
    with pytest.raises(IllegalPlayError, match="answer"):
        parse_command(state, "double")
    assert question(state, NAMES) == (
        "X doubles to 2: take or drop or beaver? (a drop gives up 1 point)")
    assert cube_text(state, NAMES) == "cube 1, in the middle (double to 2 offered)"


def test_resignations_typed():
    state = at(cube_value=2, cube_owner=1)
    assert parse_command(state, "resign") == Resign(1)
    assert parse_command(state, "resign gammon") == Resign(2)
    assert parse_command(state, "resign a backgammon") == Resign(3)
    with pytest.raises(IllegalPlayError):
        parse_command(state, "resign everything")
    offered = state.apply(Resign(2))
    assert question(offered, NAMES) == "X offers to resign a gammon (4 points): accept or reject?"
    assert parse_command(offered, "accept") is ResignAnswer.ACCEPT
    assert parse_command(offered, "no") is ResignAnswer.REJECT
    with pytest.raises(IllegalPlayError, match="resign"):
        parse_command(offered, "take")


def test_commands_out_of_place_are_explained():
    state = at(cube_value=2, cube_owner=1).apply(Resign(1))
    state = state.apply(ResignAnswer.REJECT)
    played = at().apply(CubeAction.ROLL).apply(Roll((3, 1)))
    assert not is_stakes_decision(played)
    with pytest.raises(IllegalPlayError, match="before rolling"):
        parse_command(played, "double")
    with pytest.raises(IllegalPlayError, match="no cube"):
        parse_command(played, "take")
    owned = at(cube_value=2, cube_owner=1)
    assert cube_text(owned, NAMES) == "cube 2, O owns it"
    with pytest.raises(IllegalPlayError, match="declined"):
        parse_command(state, "resign")


def test_score_and_result_texts():
    state = at(score=MatchScore.match(7, (6, 3)))
    assert score_text(state, NAMES) == "match to 7: X 6, O 3 (Crawford game)"
    assert score_text(at(), NAMES) == "money play: X 0, O 0"
    dropped = at(cube_value=2, cube_owner=0).apply(CubeAction.DOUBLE).apply(CubeAction.DROP)
    assert result_text(dropped, NAMES) == "X wins 2 points (the cube was dropped)"
    resigned = at(cube_value=2, cube_owner=0).apply(Resign(2)).apply(ResignAnswer.ACCEPT)
    assert result_text(resigned, NAMES) == "O wins a gammon by resignation: 4 points"
    end = Position.from_points([{0: 14, 1: 1}, {12: 15}])
    state = CubeState.midgame(BG, end, (2, 1), stakes=StakeRules(jacoby=True))
    state = state.apply(state.legal_actions()[0])
    assert result_text(state, NAMES) == "X wins a gammon: 1 point (counted single: Jacoby rule)"


@pytest.mark.parametrize(("variant", "offered", "missing"), [
    ("backgammon", ["resign gammon", "resign backgammon"], []),
    ("long-nardy", ["resign mars"], ["koks"]),
    ("acey-deucey", [], ["gammon"]),
])
def test_the_help_offers_only_the_resignations_the_variant_scores(variant, offered, missing):
    """Issue 31: Long Nardy's help offered `resign koks` and acey-deucey's `resign
    gammon`, which were then refused."""
    from gammon.stakes.prompt import stakes_help

    rules = gammon.variant(variant)
    text = dict(stakes_help(rules))["resign"]
    assert all(words in text for words in offered)
    assert not any(word in text for word in missing)
    state = CubeState.midgame(rules, rules.initial_state().position)
    for words in ["resign", *offered]:  # what the help offers is taken
        assert isinstance(parse_command(state, words), Resign), words
