"""The table (gammon.table.table.Table) as the faces use it: one door for every face.

Every variant ``gammon variants`` lists is played to the end by bots through the table
alone, and its JSON log replays to the same state; matches and money sessions run to
their end; the table's question says who must answer what, refuses a wrong seat or an
illegal answer without changing anything, and bad logs are refused with a
:class:`GammonError` that names the game and the entry.
"""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import pytest

import gammon
from gammon.core.errors import GammonError, IllegalPlayError
from gammon.core.play import Play
from gammon.core.variant import variant_names
from gammon.stakes.cube import CubeAction
from gammon.table.table import (
    ACTION,
    CHOICE,
    CUBE,
    NEW_GAME,
    NEXT_GAME,
    PLAY,
    TAKE,
    THROW,
    Question,
    Seat,
    Table,
)

VARIANTS = variant_names()


def bots(name: str) -> list[str]:
    """Cheap seeded bots for every seat: a heuristic first, random players after."""
    players = gammon.variant(name).players
    return ["heuristic"] + ["random"] * (players - 1)


def through_json(table: Table) -> Table:
    """The table as a web server would store and restore it."""
    return Table.from_json(json.loads(json.dumps(table.to_json())))


def snapshot(table: Table) -> tuple[Any, Any]:
    """What must not change when an answer is refused."""
    return copy.deepcopy(table.to_json()), table.state


def answer_until(table: Table, kind: str, limit: int = 5000) -> Question:
    """Play on, every person answering with the first action, until a person is asked a
    question of ``kind``."""
    for _ in range(limit):
        table.run()
        question = table.question
        assert question is not None, f"the table ended before a {kind} question"
        assert table.seats[question.seat].human
        if question.kind == kind:
            return question
        table.act(question.seat, question.actions[0])
    raise AssertionError(f"no {kind} question in {limit} answers")


def first_table_with(name: str, kind: str, seats: list[str], seeds: range,
                     **settings: Any) -> tuple[Table, Question]:
    """The first seeded table among ``seeds`` at which a person is asked ``kind``."""
    for seed in seeds:
        table = Table(name, seats, seed=seed, **settings)
        try:
            return table, answer_until(table, kind)
        except AssertionError:
            continue
    raise AssertionError(f"no {kind} question in {name} with seeds {seeds}")


def check_returns(rules: Any, state: Any) -> None:
    """The returns of a finished game make sense for its variant."""
    returns = state.returns()
    assert len(returns) == rules.players
    assert all(math.isfinite(r) for r in returns)
    winner = state.winner
    if rules.name == "multi-gam":  # places score 5, 3, 2, 1 (MG-SCORE): not zero-sum
        assert sorted(returns) == [1, 2, 3, 5]
        assert winner is not None and returns[winner] == 5
        return
    assert sum(returns) == 0, f"{rules.name} is zero-sum, got {returns}"
    if winner is None:
        assert all(r == 0 for r in returns)
    else:
        assert returns[winner] == max(returns) > 0
        if rules.players == 2:
            assert returns[1 - winner] == -returns[winner] < 0


# --- every variant, bots in every seat ---------------------------------------------------


def test_the_variant_list_is_the_one_gammon_variants_shows() -> None:
    for name in ("backgammon", "nackgammon", "hypergammon-1", "hypergammon-2",
                 "hypergammon-3", "short", "caucasian", "long-nardy", "acey-deucey",
                 "acey-deucey-restrictive", "multi-gam", "acedrex"):
        assert name in VARIANTS
    for name in VARIANTS:
        assert gammon.variant(name).players == len(bots(name))


@pytest.mark.parametrize("name", VARIANTS)
def test_bots_play_every_variant_to_the_end_through_the_table(name: str) -> None:
    table = Table(name, bots(name), seed=11)
    assert table.state is None and table.question is None and not table.over
    steps = table.run()

    assert table.over
    assert table.state.is_terminal
    assert table.question is None
    assert table.advance() is None
    assert not table.waiting_for_person
    check_returns(table.variant, table.state)

    assert steps[0].kind == NEW_GAME and steps[0].before is None
    assert [s.kind for s in steps[1:]].count(NEW_GAME) == 0
    assert all(s.kind in (THROW, ACTION) for s in steps[1:])
    assert len(steps) - 1 == sum(len(game) for game in table.log) == len(table.log[0])
    assert all(s.seat is None for s in steps if s.kind == THROW)
    assert steps[-1].after == table.state
    for before, after in zip(steps[1:], steps[2:], strict=False):
        assert after.before == before.after


@pytest.mark.parametrize("name", VARIANTS)
def test_every_variant_log_replays_from_json_to_the_same_end(name: str) -> None:
    table = Table(name, bots(name), seed=12)
    table.run()
    replayed = through_json(table)

    assert replayed.over
    assert replayed.state == table.state
    assert replayed.state.returns() == table.state.returns()
    assert replayed.state.winner == table.state.winner
    if hasattr(table.state, "position"):
        assert replayed.state.position == table.state.position
    assert replayed.to_json() == table.to_json()
    assert replayed.log == table.log


@pytest.mark.parametrize("name", ["backgammon", "acey-deucey", "multi-gam", "acedrex"])
def test_same_seed_and_seats_give_the_same_log(name: str) -> None:
    one = Table(name, bots(name), seed=5)
    two = Table(name, bots(name), seed=5)
    one.run()
    two.run()
    assert one.to_json() == two.to_json()
    assert one.state == two.state
    other = Table(name, bots(name), seed=6)
    other.run()
    assert other.to_json()["log"] != one.to_json()["log"]


def test_same_seed_and_same_answers_give_the_same_log_with_a_person_seated() -> None:
    logs = []
    for _ in range(2):
        table = Table("backgammon", ["human", "heuristic"], seed=9)
        for _ in range(6):
            table.run()
            question = table.question
            table.act(question.seat, question.actions[-1])
        logs.append(table.to_json())
    assert logs[0] == logs[1]


# --- matches and money sessions ---------------------------------------------------------


def test_a_match_to_three_is_played_to_its_end_and_replays() -> None:
    table = Table("backgammon", ["heuristic", "random"], kind="match", length=3, seed=4)
    table.run()

    match = table.series
    assert table.over and match.is_over
    winner = match.winner
    assert winner in (0, 1)
    assert match.score.score[winner] >= 3
    assert match.score.score[1 - winner] < 3
    assert len(table.log) == len(match.games) >= 1
    assert all(record.state.is_terminal for record in match.games)
    assert table.question is None and table.advance() is None

    replayed = through_json(table)
    assert replayed.over
    assert replayed.series.score == match.score
    assert replayed.series.winner == winner
    assert replayed.state == table.state
    assert replayed.to_json() == table.to_json()


def test_a_money_session_of_two_games_keeps_a_ledger_and_replays() -> None:
    table = Table("backgammon", ["heuristic", "random"], kind="money", games=2, stake=2,
                  seed=3)
    table.run()

    session = table.series
    assert table.over
    assert len(table.log) == 2
    assert len(session.ledger) == 2
    for entry in session.ledger:
        assert sum(entry.points) == 0 and any(entry.points)
        assert entry.amounts == tuple(2 * p for p in entry.points)
    assert sum(session.balances()) == 0

    replayed = through_json(table)
    assert replayed.over
    assert [e.points for e in replayed.series.ledger] == [e.points for e in session.ledger]
    assert replayed.series.balances() == session.balances()
    assert replayed.state == table.state
    assert replayed.to_json() == table.to_json()


def test_a_table_for_two_refuses_match_play_for_four() -> None:
    with pytest.raises(GammonError, match="two-player"):
        Table("multi-gam", ["random"] * 4, kind="match", length=3)


# --- the door: questions and answers ----------------------------------------------------


def test_the_question_asks_the_person_to_play_the_dice() -> None:
    table = Table("backgammon", ["human", "heuristic"], seed=2)
    table.run()
    question = table.question

    assert question is not None
    assert question.seat == 0
    assert question.kind == PLAY
    high, low = question.state.dice
    assert question.text == f"play {high}-{low}"
    assert question.state == table.state
    assert list(question.actions) == list(table.state.legal_actions())
    assert all(isinstance(a, Play) for a in question.actions)
    assert table.waiting_for_person
    assert table.advance() is None
    assert table.run() == []


def test_an_answer_from_the_wrong_seat_is_refused_and_changes_nothing() -> None:
    table = Table("backgammon", ["human", "heuristic"], seed=2)
    table.run()
    question = table.question
    before, state = snapshot(table)

    with pytest.raises(IllegalPlayError, match="seat 1 may not act now: seat 0"):
        table.act(1, question.actions[0])
    with pytest.raises(IllegalPlayError):
        table.act(7, question.actions[0])

    assert table.to_json() == before
    assert table.state == state
    assert table.question == question


@pytest.mark.parametrize("answer", ["13/7 8/7", "nonsense", None, 5, CubeAction.DOUBLE,
                                    CubeAction.TAKE])
def test_an_illegal_answer_is_refused_and_changes_nothing(answer: Any) -> None:
    table = Table("backgammon", ["human", "heuristic"], seed=2)
    table.run()
    question = table.question
    before, state = snapshot(table)

    with pytest.raises(IllegalPlayError):
        table.act(0, answer)

    assert table.to_json() == before
    assert table.state == state
    assert table.question == question


def test_a_play_legal_elsewhere_but_not_here_is_refused() -> None:
    table = Table("backgammon", ["human", "heuristic"], seed=2)
    table.run()
    here = {a.result.board for a in table.question.actions}
    elsewhere = None
    for seed in range(20, 60):
        other = Table("backgammon", ["human", "heuristic"], seed=seed)
        other.run()
        plays = [a for a in other.question.actions if a.result.board not in here]
        if plays:
            elsewhere = plays[0]
            break
    assert elsewhere is not None
    before, state = snapshot(table)

    with pytest.raises(IllegalPlayError):
        table.act(0, elsewhere)

    assert table.to_json() == before and table.state == state


def test_a_legal_answer_moves_the_table_on() -> None:
    table = Table("backgammon", ["human", "heuristic"], seed=2)
    table.run()
    question = table.question
    entries = len(table.log[-1])
    play = question.actions[0]

    step = table.act(0, play)

    assert step is not None
    assert step.kind == ACTION and step.seat == 0 and step.taken == play
    assert step.before == question.state and step.after == table.state
    assert len(table.log[-1]) == entries + 1
    entry = table.log[-1][-1]
    assert entry["seat"] == 0 and "play" in entry
    assert entry["board"] == play.result.board.hex()
    assert table.state != question.state
    # The table goes on: the bot answers and the dice are thrown until the person is
    # asked again, or the game ends.
    table.run()
    assert table.over or table.question.seat == 0


def test_nothing_may_be_answered_once_the_table_is_over() -> None:
    table = Table("hypergammon-1", ["random", "random"], seed=1)
    table.run()
    assert table.over
    with pytest.raises(IllegalPlayError, match="over"):
        table.act(0, None)


def test_a_restored_table_asks_the_same_question() -> None:
    table = Table("backgammon", ["human", "heuristic"], kind="money", seed=8)
    for _ in range(4):
        table.run()
        question = table.question
        table.act(question.seat, question.actions[0])
    table.run()
    restored = through_json(table)
    assert restored.question == table.question
    assert restored.to_json() == table.to_json()


def test_money_with_the_cube_asks_double_then_take() -> None:
    table = Table("backgammon", ["human", "human"], kind="money", games=1, seed=1)
    question = answer_until(table, CUBE)
    doubler = question.seat

    assert question.kind == CUBE
    assert set(question.actions) == {CubeAction.ROLL, CubeAction.DOUBLE}
    assert "double" in question.text
    table.act(doubler, CubeAction.DOUBLE)

    take = table.question
    assert take is not None
    assert take.seat == 1 - doubler
    assert take.kind == TAKE
    assert {CubeAction.TAKE, CubeAction.DROP} <= set(take.actions)
    assert "take" in take.text
    with pytest.raises(IllegalPlayError):
        table.act(doubler, CubeAction.TAKE)
    table.act(take.seat, CubeAction.TAKE)

    assert table.log[-1][-2] == {"seat": doubler, "action": "double"}
    assert table.log[-1][-1] == {"seat": 1 - doubler, "action": "take"}
    assert table.state.cube_value == 2 and table.state.cube_owner == 1 - doubler
    replayed = through_json(table)
    assert replayed.to_json() == table.to_json()
    assert replayed.state == table.state


def test_a_drop_ends_the_game_and_the_ledger_counts_the_cube() -> None:
    table = Table("backgammon", ["human", "human"], kind="money", games=1, stake=2, seed=1)
    question = answer_until(table, CUBE)
    doubler = question.seat
    table.act(doubler, CubeAction.DOUBLE)
    table.act(1 - doubler, CubeAction.DROP)

    assert table.state.is_terminal and table.over
    points = table.series.ledger[-1].points
    assert points[doubler] == 1 and points[1 - doubler] == -1
    assert table.series.ledger[-1].amounts[doubler] == 2


def test_acey_deucey_doubles_number_is_a_choice() -> None:
    table, question = first_table_with("acey-deucey", CHOICE, ["human", "random"],
                                       range(1, 40))
    assert question.kind == CHOICE
    assert "doubles" in question.text
    assert question.actions and not any(isinstance(a, Play) for a in question.actions)
    assert {str(a) for a in question.actions} <= {f"doubles {n}" for n in range(1, 7)}
    choice = question.actions[0]
    step = table.act(question.seat, choice)
    assert step.taken == choice
    assert table.log[-1][-1] == {"seat": question.seat, "action": str(choice)}
    assert through_json(table).to_json() == table.to_json()


def test_acedrex_moves_are_choices() -> None:
    table, question = first_table_with("acedrex", CHOICE, ["human", "random", "random",
                                                           "random"], range(1, 20))
    assert question.kind == CHOICE
    assert question.text
    assert question.actions and not any(isinstance(a, Play) for a in question.actions)
    before = len(table.log[-1])
    table.act(question.seat, question.actions[0])
    assert len(table.log[-1]) == before + 1
    assert table.log[-1][-1] == {"seat": question.seat, "action": str(question.actions[0])}
    assert through_json(table).to_json() == table.to_json()


def test_the_table_takes_only_answers_on_offer_so_that_its_log_replays() -> None:
    """The rules of acey-deucey also take a bare number (``5``) for the doubles choice,
    but the table takes only the actions it offers: what it logs is what was on offer,
    so the log replays."""
    table, question = first_table_with("acey-deucey", CHOICE, ["human", "random"],
                                       range(1, 40))
    choice = question.actions[-1]
    before = table.to_json()
    with pytest.raises(IllegalPlayError, match="not a legal answer"):
        table.act(question.seat, choice.number)
    assert table.to_json() == before
    table.act(question.seat, choice)
    assert table.log[-1][-1]["action"] == str(choice)
    replayed = through_json(table)
    assert replayed.state == table.state
    assert replayed.to_json() == table.to_json()


# --- bad logs ---------------------------------------------------------------------------


def finished(name: str = "backgammon", seed: int | None = 7, **settings: Any) -> dict:
    """The JSON of a finished table of two bots."""
    rules = gammon.variant(name)
    table = Table(name, ["heuristic"] + ["random"] * (rules.players - 1), seed=seed,
                  **settings)
    table.run()
    return json.loads(json.dumps(table.to_json()))


def index_of(entries: list[dict], key: str, start: int = 0) -> int:
    return next(i for i, e in enumerate(entries) if i >= start and key in e)


def refused(data: Any) -> GammonError:
    """The error from_json raises for ``data``: a GammonError, never another type."""
    try:
        Table.from_json(data)
    except GammonError as error:
        return error
    except Exception as error:  # noqa: BLE001 - the point of the test
        raise AssertionError(
            f"from_json raised {type(error).__name__}: {error}, not a GammonError") from None
    raise AssertionError("from_json accepted a bad log")


def test_a_play_changed_to_an_illegal_one_is_refused_naming_the_entry() -> None:
    data = finished()
    entries = data["log"][0]
    first = index_of(entries, "play")
    second = index_of(entries, "play", first + 1)
    # The second play's board is the first play's: not a play of the second roll.
    entries[second] = {**entries[second], "board": entries[first]["board"]}
    error = refused(data)
    assert isinstance(error, IllegalPlayError)
    assert f"game 1, entry {second + 1}" in str(error)


def test_an_action_that_is_not_on_offer_is_refused_naming_the_entry() -> None:
    data = finished()  # a single game: no cube
    entries = data["log"][0]
    at = index_of(entries, "play")
    entries[at] = {"seat": entries[at]["seat"], "action": "double"}
    error = refused(data)
    assert f"game 1, entry {at + 1}" in str(error)


def test_an_entry_from_the_wrong_seat_is_refused_naming_the_entry() -> None:
    data = finished()
    entries = data["log"][0]
    at = index_of(entries, "play")
    entries[at] = {**entries[at], "seat": 1 - entries[at]["seat"]}
    error = refused(data)
    assert f"game 1, entry {at + 1}" in str(error)


def test_a_changed_throw_on_a_seeded_table_is_refused_naming_the_entry() -> None:
    data = finished(seed=7)
    entries = data["log"][0]
    at = index_of(entries, "roll", 1)  # an ordinary throw, after the opening
    dice = entries[at]["roll"]
    entries[at] = {"roll": [6, 6] if dice != [6, 6] else [1, 1]}
    error = refused(data)
    assert f"game 1, entry {at + 1}" in str(error)
    assert "seed" in str(error)


def test_a_throw_that_cannot_happen_is_refused_naming_the_entry() -> None:
    data = finished(seed=None)
    entries = data["log"][0]
    at = index_of(entries, "roll", 1)
    entries[at] = {"roll": [7, 0]}
    error = refused(data)
    assert f"game 1, entry {at + 1}" in str(error)


def test_a_throw_where_a_play_is_due_is_refused_naming_the_entry() -> None:
    data = finished()
    entries = data["log"][0]
    at = index_of(entries, "play")
    entries[at] = {"roll": [5, 2]}
    error = refused(data)
    assert f"game 1, entry {at + 1}" in str(error)


def test_entries_after_the_end_of_the_game_are_refused() -> None:
    data = finished()
    data["log"][0].append({"roll": [5, 2]})
    error = refused(data)
    assert f"game 1, entry {len(data['log'][0])}" in str(error)


@pytest.mark.parametrize("entry", [None, [5, 2], "52", {}, {"roll": "52"}, {"roll": None},
                                   {"roll": [[5], 2]}, {"seat": 0, "play": "x", "board": 5},
                                   {"seat": 0, "play": "x", "board": "zz"}],
                         ids=json.dumps)
def test_a_mistyped_entry_is_refused_naming_the_entry(entry: Any) -> None:
    data = finished()
    data["log"][0][3] = entry
    error = refused(data)
    assert "game 1, entry 4" in str(error)


@pytest.mark.parametrize("name", ["multi-gam", "acedrex", "acey-deucey"])
def test_a_tampered_entry_of_other_variants_is_refused_naming_the_entry(name: str) -> None:
    data = finished(name, seed=3)
    entries = data["log"][0]
    at = index_of(entries, "seat")
    entries[at] = {**entries[at], "seat": (entries[at]["seat"] + 1) % 2}
    error = refused(data)
    assert f"game 1, entry {at + 1}" in str(error)
    data = finished(name, seed=3)
    entries = data["log"][0]
    entries[at] = {"seat": entries[at]["seat"], "action": "no such thing"}
    error = refused(data)
    assert f"game 1, entry {at + 1}" in str(error)


def test_a_tampered_entry_of_a_later_game_names_that_game() -> None:
    data = finished(kind="money", games=2)
    entries = data["log"][1]
    at = index_of(entries, "play")
    entries[at] = {**entries[at], "board": "00"}
    error = refused(data)
    assert f"game 2, entry {at + 1}" in str(error)


@pytest.mark.parametrize("change", [
    ("format", None), ("format", "gammon-match"), ("version", 2), ("version", "1"),
    ("version", None)])
def test_a_wrong_format_or_version_is_refused(change: tuple[str, Any]) -> None:
    data = finished()
    key, value = change
    data[key] = value
    error = refused(data)
    assert key in str(error)


@pytest.mark.parametrize("data", [None, [], "gammon-table", 5])
def test_json_that_is_not_a_table_is_refused(data: Any) -> None:
    refused(data)


@pytest.mark.parametrize("key", ["variant", "options", "seats", "kind", "length",
                                 "stake", "stakes", "crawford", "games", "seed", "log"])
def test_a_table_missing_a_key_is_refused_with_a_gammon_error(key: str) -> None:
    data = finished()
    del data[key]
    error = refused(data)
    assert key in str(error)


@pytest.mark.parametrize("key,value", [
    ("variant", "no-such-game"), ("variant", 5), ("variant", None),
    ("seats", 5), ("seats", ["human", "human"]), ("seats", [{"kind": "random"}]),
    ("kind", "tournament"), ("stakes", []), ("stakes", {"no_such_option": 1}),
    ("games", "2"), ("games", 0), ("seed", [1]), ("options", {"no_such_option": 1}),
    ("options", "x"),
    ("log", None), ("log", 5), ("log", [None]), ("log", [5]),
], ids=lambda v: json.dumps(v) if not isinstance(v, str) else v)
def test_a_mistyped_table_is_refused_with_a_gammon_error(key: str, value: Any) -> None:
    data = finished()
    data[key] = value
    refused(data)


def test_a_truncated_game_followed_by_another_is_refused_naming_the_game() -> None:
    data = finished(kind="money", games=2)
    data["log"][0] = data["log"][0][:5]
    error = refused(data)
    assert "game 1" in str(error) or "game 2" in str(error), str(error)


def test_a_truncated_log_replays_to_the_game_in_progress() -> None:
    data = finished()
    data["log"][0] = data["log"][0][:7]
    table = Table.from_json(data)
    assert not table.over
    assert len(table.log[0]) == 7
    assert not table.state.is_terminal


@pytest.mark.parametrize("settings", [{}, {"kind": "money", "games": 1},
                                      {"kind": "match", "length": 1}],
                         ids=["single-game", "money-1-game", "match-to-1"])
def test_a_game_more_than_the_table_plays_is_refused_naming_it(settings: dict) -> None:
    """An unseeded table: the extra game's throws are not checked against a seed, so only
    the table's own stakes can tell that it is one game too many."""
    data = finished(seed=None, **settings)
    data["log"].append(copy.deepcopy(data["log"][0]))
    error = refused(data)
    assert "game 2" in str(error), str(error)


@pytest.mark.parametrize("name", ["acey-deucey", "backgammon"])
def test_a_person_who_cannot_move_is_not_asked(name):
    """Issue 30: "Play: no move" had to be clicked every time; the table passes for a
    person whose one play is no move, and logs it as their action."""
    import random

    table = Table(gammon.variant(name), [Seat("human"), Seat("human")], seed=3)
    rng = random.Random(3)
    passed = 0
    for _ in range(4000):
        steps = table.run()
        passed += sum(1 for s in steps if s.kind == ACTION and s.seat is not None
                      and isinstance(s.taken, Play) and not s.taken.moves)
        question = table.question
        if question is None:
            break
        assert not (question.kind == PLAY and len(question.actions) == 1
                    and not question.actions[0].moves), "asked to pass"
        if question.kind == NEXT_GAME:
            break
        table.act(question.seat, rng.choice(list(question.actions)))
    assert passed > 0
    assert all(entry.get("seat") in (0, 1) for entry in table.log[-1] if "play" in entry)
