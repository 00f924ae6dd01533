"""The stored answers (:mod:`answers`) catch an engine that strays, and say where."""

from __future__ import annotations

import answers
import oracle
import pytest

import gammon


def test_a_digest_does_not_depend_on_the_order_of_the_plays():
    assert answers.digest([{b"\x01", b"\x02"}, {(b"\x03", 2)}]) == answers.digest(
        [{b"\x02", b"\x01"}, {(b"\x03", 2)}])
    assert answers.digest([{b"\x01"}, {b"\x02"}]) != answers.digest([{b"\x02"}, {b"\x01"}])


def test_an_engine_that_loses_a_play_fails_and_the_roll_is_named():
    variant = gammon.variant("hypergammon-2")
    engine = answers.boards(variant)

    def loses_the_last_play_of_six_five(position, dice):
        found = engine(position, dice)
        return found[:-1] if dice == (6, 5) and len(found) > 1 else found

    results = answers.each_position(oracle.legal_results)
    answers.check("gnubg-hypergammon-2", engine, results)  # the engine as it is agrees
    with pytest.raises(pytest.fail.Exception, match=r"dice 6-5: the engine has \d+ plays"):
        answers.check("gnubg-hypergammon-2", loses_the_last_play_of_six_five, results)


def test_an_engine_that_lists_a_play_twice_fails():
    engine = answers.boards(gammon.variant("hypergammon-1"))
    with pytest.raises(AssertionError, match="listed twice"):
        answers.check("gnubg-hypergammon-1", lambda p, d: engine(p, d) * 2,
                      answers.each_position(oracle.legal_results))
