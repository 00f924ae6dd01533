"""Tavli, the Greek match of three games in turn (docs/rules/tavli.md): each rule's
label in a test's name. The rotation's machinery is checked on the real tavli and on a
rotation of two games, so that a rule is seen to come from the match and not from one
variant."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

import gammon
from gammon.cli.main import app
from gammon.core.errors import InvalidOptionError
from gammon.stakes.match import ROTATIONS, Match, Rotation, rotation
from gammon.table.table import Table

TWO = Rotation("portes-fevga", ("portes", "fevga"), "a rotation of two games")


def played(games_in_turn: Rotation | str, seed: int, length: int = 5) -> Table:
    """A whole match between two random players."""
    table = Table(games_in_turn, ["random", "random"], kind="match", length=length,
                  seed=seed)
    table.run()
    assert table.over
    return table


def test_tavli_games_in_turn():
    """TAVLI-GAMES: Portes, Plakoto, Fevga, then Portes again."""
    assert ROTATIONS["tavli"].variants == ("portes", "plakoto", "fevga")
    assert rotation("Tavli") is ROTATIONS["tavli"]
    match = Match("tavli", 7)
    assert [match.variant_of(g).name for g in range(5)] == [
        "portes", "plakoto", "fevga", "portes", "plakoto"]
    for seed in range(3):
        table = played("tavli", seed, length=7)
        names = [record.state.base.variant.name for record in table.series.games]
        assert names == [match.variant_of(g).name for g in range(len(names))]


@pytest.mark.parametrize("games_in_turn", [TWO, "tavli"], ids=["two", "tavli"])
def test_tavli_winner_starts(games_in_turn):
    """TAVLI-WINNER-STARTS: the winner of a game has the first turn of the next, throws
    both dice for it, and no opening lot is thrown; the first game opens as Portes."""
    for seed in range(4):
        table = played(games_in_turn, seed)
        games = table.series.games
        assert len(games) >= 2
        assert table.log[0][0].get("opening") is True
        for before, record, entries in zip(games, games[1:], table.log[1:], strict=False):
            assert "opening" not in entries[0] and len(entries[0]["roll"]) == 2
            first = next(e for e in entries if "seat" in e)
            assert first["seat"] == before.state.winner
            assert record.start.base.position.turn == before.state.winner


@pytest.mark.parametrize("games_in_turn", [TWO, "tavli"], ids=["two", "tavli"])
def test_tavli_score(games_in_turn):
    """TAVLI-SCORE: each game adds what its own rules score (1 or 2) to the winner, and
    the match ends when a player reaches its length."""
    for seed in range(4):
        table = played(games_in_turn, seed)
        score = [0, 0]
        for record in table.series.games:
            state = record.state
            assert record.start.score.score == tuple(score)
            points = state.base.returns()[state.winner]
            assert points in (1, 2)
            score[state.winner] += int(points)
        assert max(score) >= 5 > min(score)
        assert table.winner == score.index(max(score))


def test_tavli_no_cube():
    """TAVLI-NO-CUBE: no game of the match offers the cube, and no game is a Crawford
    game (the rule is about the cube)."""
    table = played("tavli", 11, length=3)
    assert not table.series.score.crawford_rule
    for record in table.series.games:
        assert not record.start.cube_in_play
    assert all("double" not in json.dumps(entries) for entries in table.log)


def test_tavli_length():
    """TAVLI-LENGTH: a match to any number of points; the terminal plays 5 unless told."""
    assert Match("tavli", 1).length == 1
    with pytest.raises(InvalidOptionError, match="1 point or more"):
        Match("tavli", 0)
    result = CliRunner().invoke(app, ["play", "tavli", "--seats", "random,random",
                                      "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "5-point match" in result.output


def test_a_tavli_table_replays_from_its_log():
    table = played("tavli", 5)
    again = Table.from_json(json.loads(json.dumps(table.to_json())))
    assert again.name == "tavli" and again.to_json() == table.to_json()
    assert again.series.score == table.series.score


def test_tavli_is_refused_where_it_cannot_be_played():
    with pytest.raises(InvalidOptionError, match="play it as a match"):
        Table("tavli", ["human", "random"])
    with pytest.raises(InvalidOptionError, match="takes no variant options"):
        Table("tavli", ["human", "random"], kind="match", length=5,
              options={"reroll_opening": False})
    runner = CliRunner()
    for args, said in ((["--stake", "2"], "no --stake"), (["-o", "triple_game=true"],
                                                           "takes no variant options"),
                       (["--save", "x.mat"], ".json log")):
        result = runner.invoke(app, ["play", "tavli", "--seats", "random,random", *args])
        assert result.exit_code != 0 and said in result.output


def test_a_variant_match_is_unchanged_by_rotations():
    match = Match("backgammon", 3)
    assert not match.rotation.several and match.name == "backgammon"
    assert match.score.crawford_rule
    rng = random.Random(1)
    match.play(lambda s: rng.choice(s.legal_actions()), rng)
    assert {record.state.base.variant.name for record in match.games} == {"backgammon"}
    assert all(entries.start.base.opening for entries in match.games)
    assert gammon.variant("portes").cube is False


def test_a_default_seat_plays_each_game_with_that_games_own_bot():
    """A tavli seat keeps one bot kind for the match: ``default`` is each game's own
    (its first ready bot with its settings), so Plakoto's bot need not be Portes's."""
    from gammon.agents.registry import default_bot, make_agent

    for name in ("portes", "plakoto", "fevga", "backgammon"):
        rules = gammon.variant(name)
        assert make_agent("default", rules, 1).name == make_agent(default_bot(rules), rules,
                                                                  1).name
    with pytest.raises(InvalidOptionError, match="takes no setting"):
        make_agent("default:2", "portes")
    table = Table("tavli", ["default", "default"], kind="match", length=3, seed=4)
    table.run()
    assert table.over and len(table.series.games) >= 2


def test_a_web_level_keeps_its_bot_or_plays_each_games_own():
    """The web's tavli levels: a level whose bot is the same in the three games keeps
    that bot (each game's network is loaded for its own game); where the games' bots
    differ (here an operator's Fevga), the level plays each game with its own
    (``default``)."""
    import dataclasses

    from gammon.web.config import ServerConfig

    games = [gammon.variant(name) for name in ("portes", "plakoto", "fevga")]
    config = ServerConfig()
    bests = {config.menu(rules)["best"].spec for rules in games}
    shared = config.shared_menu(games)["best"].spec
    assert shared == (bests.pop() if len(bests) == 1 else "default")
    fevga = config.menu(games[2])["best"]
    mixed = ServerConfig(bots={"fevga": {"best": dataclasses.replace(fevga,
                                                                     spec="expectimax:2")}})
    assert mixed.shared_menu(games)["best"].spec == "default"
    assert mixed.shared_menu(games)["best"].budget >= fevga.budget
