"""The rule blocks of the track games (gammon.rules.blocks, docs/architecture.md): each
block's meaning, the compiled layout they generate, and games composed of blocks alone.

A game here is a dataclass that states blocks and nothing else; where it states the
blocks of a registered game it must play that game exactly, and where it changes one
block the difference must be that block's meaning.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace

import oracle
import pytest

import gammon
from gammon import Position, Roll
from gammon.core.protocol import Phase
from gammon.core.variant import TrackVariant
from gammon.kernels import tracks
from gammon.rules import (
    BLOCKS,
    AfterHit,
    BearingOff,
    Blocking,
    Contact,
    Dice,
    Ending,
    Entering,
    Head,
    Track,
    rules_vector,
    slot,
)
from gammon.rules.blocks import LAYOUT, RULES_LENGTH
from gammon.variants.backgammon import Backgammon


def position(mine: dict[int, int], theirs: dict[int, int], turn: int = 0,
             checkers: int = 15) -> Position:
    """A position in each side's own numbering; checkers not placed are borne off."""
    sides = [dict(mine), dict(theirs)]
    for side in sides:
        side[0] = side.get(0, 0) + checkers - sum(side.values())
    if turn:
        sides.reverse()
    return Position.from_points(sides, 24, turn)


def boards(rules: TrackVariant, pos: Position, dice: tuple[int, int]) -> set[bytes]:
    return {play.result.board + play.result.pins
            for play in rules.state(pos, dice).legal_actions()}


@dataclass(frozen=True)
class Hyper(TrackVariant):
    """Hypergammon stated as blocks: three checkers on the 24, 23 and 22 points."""

    name = "blocks-hyper"
    track = Track(start=((24, 1), (23, 1), (22, 1)))


@dataclass(frozen=True)
class Narde(TrackVariant):
    """Long Nardy stated as blocks alone (its options at their defaults)."""

    name = "blocks-narde"
    track = Track(start=((24, 15),), meeting="same-way")
    contact = Contact(hitting=False, block=1)
    head = Head(slot=24, doubles=(6, 4, 3))
    dice = Dice(opening_plays_lot=False)
    blocking = Blocking(six_block=True)
    ending = Ending(backgammons=False, result_names=("oin", "mars", "koks"))


def test_every_block_is_frozen_documented_and_backgammons_by_default():
    for name, block in BLOCKS.items():
        assert block.__doc__ and len(block.__doc__) > 80, name
        made = block()
        first = dataclasses.fields(block)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, first, getattr(made, first))
        assert getattr(gammon.variant("backgammon"), name) == made, name


def test_the_layout_holds_each_compiled_field_once_in_the_kernels_order():
    assert RULES_LENGTH == len(LAYOUT) == tracks.CROSS
    assert [slot(name) for name in LAYOUT] == list(range(RULES_LENGTH))
    for name, (block, field_name, _) in LAYOUT.items():
        assert field_name in {f.name for f in dataclasses.fields(BLOCKS[block])}, name
    assert slot("pins") == tracks.R_PINS and slot("checkers") == tracks.R_CHECKERS
    vector = rules_vector(gammon.variant("long-nardy").blocks())
    assert vector[slot("head")] == 24 and vector[slot("checkers")] == 15
    assert vector[slot("head_doubles")] == (1 << 6) | (1 << 4) | (1 << 3)
    assert vector[slot("mother")] == 0 and vector[slot("six_block")] == 1


def test_a_game_of_blocks_alone_plays_its_registered_twin():
    """Hypergammon and Long Nardy written as blocks: the same rules vector, start and
    legal plays in 300 positions of random games."""
    for composed, twin in ((Hyper(), gammon.variant("hypergammon")),
                           (Narde(), gammon.variant("long-nardy"))):
        assert (composed.kernel.rules == twin.kernel.rules).all()
        assert composed.start_position() == twin.start_position()
        for pos in oracle.random_game_positions(twin, 150, seed=45):
            for dice in ((6, 6), (5, 3), (2, 1)):
                assert boards(composed, pos, dice) == boards(twin, pos, dice)


def test_track_who_meets_whom():
    """The track's ``meeting``: opposite directions (n and 25 - n), the same way round
    from opposite corners (n and n + 12), or one shared track."""
    assert [Track().shared_slot(0, s, 1) for s in (1, 6, 24)] == [24, 19, 1]
    same = Track(meeting="same-way")
    assert [same.shared_slot(0, s, 1) for s in (1, 12, 13, 24)] == [13, 24, 1, 12]
    assert Track(points=6, meeting="shared").shared_slot(0, 4, 3) == 4
    assert Track().checkers == 15 and Hyper().checkers == 3


def test_dice_the_opening_lot_played_or_thrown_again():
    """The dice's ``opening_plays_lot``: the starter plays the lot's two dice, or
    throws afresh."""
    lot = Roll((5, 3), opening=True)
    plays_lot = Backgammon().initial_state().apply(lot)
    assert plays_lot.phase is Phase.DECIDE and plays_lot.dice == (5, 3)

    @dataclass(frozen=True)
    class Rethrow(Backgammon):
        dice = Dice(opening_plays_lot=False)

    rethrow = Rethrow().initial_state().apply(lot)
    assert rethrow.phase is Phase.CHANCE and rethrow.position.turn == 0


def test_entering_first_or_loose():
    """The entering block's ``enter_first``: with a checker on the bar nothing else
    moves; without it (Multi-Gam's loose bar) another checker may."""

    @dataclass(frozen=True)
    class Loose(Backgammon):
        entering = Entering(enter_first=False)

    pos = position({25: 1, 13: 14}, {19: 15})
    strict, loose = boards(Backgammon(), pos, (6, 5)), boards(Loose(), pos, (6, 5))
    assert strict < loose
    bar = 25
    assert all(Position(b[:52], 2, 0).count(0, bar) == 0 for b in strict)
    assert any(Position(b[:52], 2, 0).count(0, bar) == 1 for b in loose)


def test_contact_hitting_blocking_or_pinning():
    """The contact block: a lone opposing checker landed on is hit (to the bar), or
    blocks, or lies pinned under the lander."""

    @dataclass(frozen=True)
    class Blocked(Backgammon):
        contact = Contact(hitting=False)

    @dataclass(frozen=True)
    class Pinned(Backgammon):
        contact = Contact(hitting=False, pinning=True)

    pos = position({24: 2, 6: 13}, {5: 1, 6: 14})  # their lone checker on our 20
    hit = Backgammon().state(pos, (4, 1)).legal_actions()
    assert any(play.hits for play in hit)
    landed = {m.destination for play in Blocked().state(pos, (4, 1)).legal_actions()
              for m in play.moves}
    assert 20 not in landed
    pinned = [play for play in Pinned().state(Pinned().with_pin_row(pos), (4, 1))
              .legal_actions() if any(m.destination == 20 for m in play.moves)]
    assert pinned and all(Pinned().pinned_on(p.result, 0, 20) == 1 for p in pinned)
    assert Pinned().game_type.pins and not Backgammon().game_type.pins


def test_after_hit_no_hit_and_run():
    """The after-hit block's ``no_run``: the checker that hit stays where it hit for
    the rest of the turn."""

    @dataclass(frozen=True)
    class Stays(Backgammon):
        after_hit = AfterHit(no_run=True)

    pos = position({24: 1, 6: 14}, {5: 1, 6: 14})
    runs = any(m.source == 20 for play in Backgammon().state(pos, (4, 3)).legal_actions()
               for m in play.moves)
    stays = any(m.source == 20 for play in Stays().state(pos, (4, 3)).legal_actions()
                for m in play.moves)
    assert runs and not stays


def test_head_one_checker_a_turn():
    """The head block's ``slot``: one checker leaves the head a turn (two on the first
    roll's doubles it lists)."""
    free = replace(Narde.head, slot=0)

    @dataclass(frozen=True)
    class Headless(Narde):
        head = free

    pos = position({24: 14, 18: 1}, {24: 14, 20: 1})
    def from_head(rules):
        return max(sum(1 for m in play.moves if m.source == 24)
                   for play in rules.state(pos, (5, 3)).legal_actions())
    assert from_head(Narde()) == 1 and from_head(Headless()) == 2


def test_blocking_six_in_a_row():
    """The blocking block's ``six_block``: no six points in a row unless an opposing
    checker is ahead of them."""

    @dataclass(frozen=True)
    class Walls(Narde):
        blocking = Blocking()

    # Our 18 to 14 held; 13 would close six in a row (their home board) with every
    # opposing checker (on their 24 and 23, our 12 and 11) still to pass it.
    pos = position({24: 9, 18: 1, 17: 1, 16: 1, 15: 1, 14: 2},
                   {24: 14, 23: 1})
    def closes(rules):
        return any(all(play.result.row(0)[13:19])
                   for play in rules.state(pos, (1, 2)).legal_actions())
    assert closes(Walls()) and not closes(Narde())


def test_bearing_off_with_a_larger_die():
    """The bearing-off block's ``larger``: a die above the highest point bears off the
    highest checker."""

    @dataclass(frozen=True)
    class Exact(Backgammon):
        bearing_off = BearingOff(larger=False)

    pos = position({3: 2}, {24: 15})
    assert any(m.destination == 0 for p in Backgammon().state(pos, (6, 5)).legal_actions()
               for m in p.moves)
    assert not any(m.destination == 0 for p in Exact().state(pos, (6, 5)).legal_actions()
                   for m in p.moves)


def test_ending_what_a_win_scores():
    """The ending block: 1, 2 with gammons, 3 with backgammons, as the game scores."""

    @dataclass(frozen=True)
    class Single(Backgammon):
        ending = Ending(gammons=False, backgammons=False)

    pos = position({1: 1}, {24: 15})
    for rules, points, results in ((Backgammon(), 3, 3), (Single(), 1, 1)):
        state = rules.state(pos, (2, 1))
        done = state.apply(state.legal_actions()[0])
        assert done.returns() == (points, -points)
        assert rules.game_type.results == results
