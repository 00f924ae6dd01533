"""Duels: deterministic under a seed, seats rotated fairly, intervals computed right."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import gammon
from gammon.agents import duel
from gammon.agents.duel import (
    Summary,
    journal_summary,
    play_game,
    seat_specs,
    seating,
    settled_returns,
)
from gammon.cli.main import app
from gammon.core.errors import InvalidOptionError


def _key(result):
    return [(r.index, r.seating, r.returns, r.decisions) for r in result.results]


def test_a_duel_repeats_under_its_seed():
    first = duel("hypergammon-3", ["heuristic", "random"], 8, seed=5)
    again = duel("hypergammon-3", ["heuristic", "random"], 8, seed=5)
    assert _key(first) == _key(again)
    other = duel("hypergammon-3", ["heuristic", "random"], 8, seed=6)
    assert _key(first) != _key(other)


def test_jobs_do_not_change_the_games():
    one = duel("hypergammon-2", ["heuristic", "random"], 10, seed=2, jobs=1)
    two = duel("hypergammon-2", ["heuristic", "random"], 10, seed=2, jobs=2)
    assert _key(one) == _key(two)
    assert one.agents[0].points == two.agents[0].points


def test_a_journal_lets_a_stopped_duel_go_on(tmp_path):
    whole = duel("hypergammon-2", ["heuristic", "random"], 10, seed=2)
    journal = tmp_path / "games.jsonl"
    duel("hypergammon-2", ["heuristic", "random"], 4, seed=2, journal=journal)
    lines = journal.read_text().splitlines()
    assert len(lines) == 1 + 4
    journal.write_text("\n".join(lines) + '\n{"index": 9, "seat')  # stopped mid-line
    so_far = journal_summary(journal)
    assert so_far.games == 4 and _key(so_far) == _key(whole)[:4]
    went_on = duel("hypergammon-2", ["heuristic", "random"], 10, seed=2, journal=journal)
    assert _key(went_on) == _key(whole)
    assert went_on.agents[0].points == whole.agents[0].points
    assert len(journal.read_text().splitlines()) == 1 + 10
    with pytest.raises(InvalidOptionError, match="journal of another duel.*seed 2 there, 3"):
        duel("hypergammon-2", ["heuristic", "random"], 10, seed=3, journal=journal)
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    with pytest.raises(InvalidOptionError, match="not a duel's journal"):
        duel("hypergammon-2", ["heuristic", "random"], 10, seed=2, journal=notes)
    assert notes.read_text() == "my notes\n"


def test_seats_rotate_over_each_block():
    for players in (2, 4):
        blocks = [seating(g, players) for g in range(players)]
        for seat in range(players):
            assert sorted(b[seat] for b in blocks) == list(range(players))
    assert seat_specs(["a", "b"], 4) == ["a", "b", "a", "b"]
    with pytest.raises(InvalidOptionError, match="give 4 agents"):
        seat_specs(["a", "b", "c"], 4)


def test_rotated_games_share_their_dice():
    """Two agents that play alike (the heuristic is expectimax of depth 0) get the same
    games in both seats of a block: every block is a wash, so the mean is exactly 0."""
    result = duel("hypergammon-3", ["heuristic", "expectimax:0"], 6, seed=4)
    for a, b in zip(result.results[::2], result.results[1::2], strict=True):
        assert a.returns == b.returns
    assert result.agents[0].points.mean == 0.0
    assert result.agents[0].points.half_width == 0.0


def test_four_player_duel_scores_every_seat():
    result = duel("multi-gam", ["heuristic", "random"], 4, seed=1)
    assert [a.seats for a in result.agents] == [2, 2]
    for game in result.results:
        assert sorted(game.returns) == [1.0, 2.0, 3.0, 5.0]
    total = sum(a.points.mean * a.seats for a in result.agents)
    assert total == pytest.approx(11.0)
    assert sum(a.wins for a in result.agents) == pytest.approx(4.0)


def test_interval_over_blocks():
    s = Summary.of([1.0, 3.0, 2.0, 2.0], block=2)
    assert s.mean == 2.0 and s.half_width == 0.0  # both blocks average 2
    s = Summary.of([1.0, 1.0, 3.0, 3.0], block=2)
    assert s.mean == 2.0
    assert s.half_width == pytest.approx(1.959963984540054 * 1.0)  # sd of block means 1.414/1.414
    assert Summary.of([5.0]).half_width == 0.0


def test_duel_command_prints_json():
    runner = CliRunner()
    result = runner.invoke(app, ["duel", "hypergammon-1", "--players", "heuristic,random",
                                 "--games", "6", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 6 and data["variant"] == "hypergammon"
    assert [a["agent"] for a in data["agents"]] == ["heuristic", "random"]
    assert set(data["agents"][0]["points"]) >= {"mean", "ci95", "half_width"}
    assert data["margin"]["first"] == "heuristic"


def test_duel_command_table_and_errors():
    runner = CliRunner()
    result = runner.invoke(app, ["duel", "hypergammon-1", "--players", "heuristic,random",
                                 "--games", "4"])
    assert result.exit_code == 0, result.output
    assert "points per game" in result.output and "games/s" in result.output
    bad = runner.invoke(app, ["duel", "long-nardy", "--players", "pubeval,random", "--games",
                              "2"])
    assert bad.exit_code == 2 and "does not play" in bad.output
    assert gammon.variant("backgammon").players == 2


def test_duel_command_journal(tmp_path):
    runner = CliRunner()
    journal = tmp_path / "duel.jsonl"
    command = ["duel", "hypergammon-1", "--players", "heuristic,random", "--seed", "1",
               "--json", "--journal", str(journal)]
    first = runner.invoke(app, [*command, "--games", "4"])
    assert first.exit_code == 0, first.output
    more = runner.invoke(app, [*command, "--games", "6"])
    assert more.exit_code == 0, more.output
    assert json.loads(more.output)["games"] == 6
    assert len(journal.read_text().splitlines()) == 1 + 6
    other = runner.invoke(app, [*command, "--games", "6", "--players", "random,random"])
    assert other.exit_code == 2 and "journal of another duel" in other.output


def test_matches_with_the_cube_count_a_match_won_as_one():
    result = duel("backgammon", ["expectimax:1", "heuristic"], 4, seed=3, contest="match",
                  length=3)
    assert result.contest == "match" and result.length == 3
    for game in result.results:
        assert sorted(game.returns) == [0.0, 1.0] and game.finished
    shares = [a.points.mean for a in result.agents]
    assert sum(shares) == pytest.approx(1.0)  # every match has one winner
    assert _key(result) == _key(duel("backgammon", ["expectimax:1", "heuristic"], 4, seed=3,
                                     contest="match", length=3))


def test_money_games_with_the_cube_count_the_cube():
    result = duel("backgammon", ["heuristic", "random"], 16, seed=4, contest="money")
    values = {abs(r) for game in result.results for r in game.returns}
    cubes = {2 ** k for k in range(7)}  # the cube's values, times one, two or three
    assert all(any(v == cube * level for cube in cubes for level in (1, 2, 3))
               for v in values)
    assert max(values) > 3.0  # the cube turned somewhere in sixteen games
    assert all(sum(game.returns) == 0 for game in result.results)


def test_contests_are_checked():
    with pytest.raises(InvalidOptionError, match="two-player games with a cube"):
        duel("multi-gam", ["heuristic"], 4, contest="money")
    with pytest.raises(InvalidOptionError, match="1 to 25 points"):
        duel("backgammon", ["heuristic", "random"], 2, contest="match", length=0)
    runner = CliRunner()
    both = runner.invoke(app, ["duel", "--players", "heuristic,random", "--match", "3",
                               "--money"])
    assert both.exit_code == 2 and "not both" in both.output
    table = runner.invoke(app, ["duel", "hypergammon-1", "--players", "heuristic,random",
                                "--games", "2", "--match", "1"])
    assert table.exit_code == 0 and "1-point matches with the cube" in table.output
    assert "matches won" in table.output


def test_an_acedrex_game_stops_once_every_agents_result_is_known():
    """A seat that resigned has its money for good (ACE-RESIGN); when the players left
    are all one agent's, the duel stops there: each agent's total is that of the game
    played to its end."""
    from gammon.agents.base import seeded_rng
    from gammon.agents.registry import make_agent

    rules = gammon.variant("acedrex")
    specs = ["money", "heuristic", "heuristic", "heuristic"]
    stopped = 0
    for game in (1, 3):  # games of this seed in which the money seat resigns
        order = seating(game, 4)
        owners = [0 if specs[order[s]] == "money" else 1 for s in range(4)]

        def agents(order=order, game=game):
            return [make_agent(specs[order[s]], rules, f"1:{game}:{s}") for s in range(4)]

        early = play_game(rules, agents(), seeded_rng(1, "dice", game), owners=owners)
        whole = play_game(rules, agents(), seeded_rng(1, "dice", game))
        assert early.finished and whole.finished and not whole.settled
        money = owners.index(0)
        assert early.returns[money] == whole.returns[money]
        assert sum(early.returns) == pytest.approx(0)
        stopped += early.settled and sum(early.decisions) < sum(whole.decisions)
    assert stopped == 2


def test_settled_returns_need_one_agent_left():
    class Resigned:
        def __init__(self, *money):
            self.money = money

        def settled_returns(self):
            return self.money

    owners = [0, 1, 1, 1]
    assert settled_returns(Resigned(-3.0, None, None, None), owners) == (-3.0, 1.0, 1.0, 1.0)
    assert settled_returns(Resigned(None, -3.0, None, None), owners) is None  # A plays on
    # Left level or ahead: A's total is known, the seats left share the rest.
    assert settled_returns(Resigned(0.0, None, None, None), owners) == (0.0, 0.0, 0.0, 0.0)
    assert settled_returns(Resigned(6.0, None, None, None), owners) == (6.0, -2.0, -2.0, -2.0)
    assert settled_returns(Resigned(None, None, None, None), owners) is None
    assert settled_returns(object(), owners) is None  # a game that cannot say
