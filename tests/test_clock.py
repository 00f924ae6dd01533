"""Clocks (delay plus reserve) and losing on time, in the table itself."""

from __future__ import annotations

import pytest

from gammon.core.errors import GammonError, IllegalPlayError, InvalidOptionError
from gammon.table.clock import PER_GAME, Clock, TimeControl, time_control
from gammon.table.table import TIMEOUT, Table


def test_the_delay_is_free_and_the_reserve_pays_beyond_it():
    clock = Clock.start(TimeControl(delay=10, reserve=60), 2).turn(0, 1, now=100.0)
    assert clock.deadline == 170.0
    assert clock.reserve_left(0, 105.0) == 60.0  # within the delay
    assert clock.reserve_left(0, 125.0) == 45.0
    assert clock.reserve_left(1, 125.0) == 60.0  # not on the clock
    after = clock.turn(1, 1, now=125.0)
    assert after.reserves == (45.0, 60.0) and after.seat == 1 and after.since == 125.0
    assert not after.expired(194.0) and after.expired(195.0)


def test_a_reserve_never_goes_below_zero_and_a_table_without_a_question_stops_it():
    clock = Clock.start(TimeControl(delay=0, reserve=10), 2).turn(1, 1, now=0.0)
    stopped = clock.turn(None, 1, now=30.0)
    assert stopped.reserves == (10.0, 0.0) and stopped.seat is None
    assert stopped.deadline == 0.0 and not stopped.expired(1e9)


def test_the_same_decision_keeps_running():
    clock = Clock.start(TimeControl(delay=5, reserve=60), 2).turn(0, 1, now=0.0)
    again = clock.turn(0, 1, now=20.0)  # a write that did not change who decides
    assert again == clock
    assert again.turn(1, 1, now=30.0).reserves == (35.0, 60.0)  # charged once


def test_reserves_per_game_start_afresh_at_each_game_and_per_match_do_not():
    for per, expected in ((PER_GAME, (30.0, 30.0)), ("match", (10.0, 30.0))):
        clock = Clock.start(TimeControl(delay=0, reserve=30, per=per), 2).turn(0, 1, now=0.0)
        assert clock.turn(1, 2, now=20.0).reserves == expected


def test_a_clock_round_trips_through_its_text():
    clock = Clock.start(TimeControl(delay=3, reserve=90, per=PER_GAME), 4).turn(2, 5, 1234.5)
    assert Clock.from_text(clock.to_text()) == clock
    assert Clock.from_text("") is None


@pytest.mark.parametrize("value, word", [
    ({"delay": -1, "reserve": 60}, "delay"), ({"delay": 5, "reserve": 4}, "reserve"),
    ({"delay": True, "reserve": 60}, "delay"), ({"delay": 5, "reserve": "60"}, "reserve"),
    ({"delay": 5, "reserve": 60, "per": "week"}, "per"), ({"hours": 1}, "unknown"),
    ("5+60", "object"),
])
def test_bad_time_controls_say_what_is_allowed(value, word):
    with pytest.raises(InvalidOptionError, match=word):
        time_control(value)


def test_no_clock_is_none():
    assert time_control(None) is None and time_control(False) is None


def _asked(table: Table) -> int:
    table.run()
    assert table.question is not None
    return table.question.seat


def test_running_out_of_time_loses_the_match_and_replays_from_the_log():
    table = Table("backgammon", ["human", "human"], kind="match", length=5, seed=7)
    seat = _asked(table)
    step = table.time_out(seat)
    assert step.kind == TIMEOUT and table.over and table.winner == 1 - seat
    assert table.question is None
    again = Table.from_json(table.to_json())
    assert again.timed_out == seat and again.winner == 1 - seat and again.over


def test_only_the_seat_asked_can_run_out_of_time():
    table = Table("backgammon", ["human", "human"], seed=3)
    seat = _asked(table)
    with pytest.raises(IllegalPlayError, match="not asked"):
        table.time_out(1 - seat)
    data = table.to_json()
    data["log"][-1].append({"seat": 1 - seat, "timeout": True})
    with pytest.raises(GammonError, match="not asked"):
        Table.from_json(data)


def test_running_out_of_time_in_money_play_loses_the_game_at_the_cube_and_ends_play():
    table = Table("backgammon", ["human", "human"], kind="money", stake=3, seed=5)
    seat = _asked(table)
    table.time_out(seat)
    assert table.over and table.winner is None  # money play has no winner, only money
    balances = table.series.balances()
    assert balances[seat] == -3 and balances[1 - seat] == 3
