"""Our Match IDs against gnubg's own, through cube actions, resignations and matches.

One gnubg process (tests/gnubg_scripts/matchid_driver.py) runs every scenario and
reports ``gnubgid()`` after each command. We replay the same commands on a
:class:`CubeState` (hand-built situations, read from the same GNU ID) or a
:class:`Match` (whole matches, with gnubg's opening throws and plays) and compare the
whole GNU ID (Position ID and Match ID) after every step, refusals included: where
gnubg refuses a command (a double in the Crawford game, with the cube on the other
side...), our state refuses it too and both IDs stay as they were.

The one place we differ from gnubg on purpose (docs/rules/stakes.md, CUBE-RACCOON): a
raccoon taken leaves the cube with the raccooner; gnubg gives it to the beaverer. The
raccoon scenario therefore stops before the take.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gnubg_runner import require_gnubg, run_gnubg

import gammon
from gammon.core.dice import Roll
from gammon.core.errors import IllegalPlayError
from gammon.notation import Situation, parse_match_id
from gammon.notation.gnuid import state_gnubg_id
from gammon.notation.movetext import find_play
from gammon.stakes import (
    CubeAction,
    CubeState,
    Match,
    Resign,
    ResignAnswer,
    Session,
    StakeRules,
)

DRIVER = Path(__file__).resolve().parent / "gnubg_scripts" / "matchid_driver.py"
BG = gammon.variant("backgammon")

pytestmark = pytest.mark.gnubg

#: A middle-game position (player 1 on roll in the IDs below).
START = "4HPwATDgc/ABMA"
MID = "sNvBATDYc+AAWA"


def gid(position: str, **fields) -> str:
    from gammon.notation.gnuid import parse_position_id

    turn = fields.get("on_roll", 0)
    return Situation(parse_position_id(position, turn), **{
        k: v for k, v in fields.items() if k != "on_roll"}).gnubg_id()


def money(position: str = MID, jacoby: bool = False, **fields) -> str:
    return gid(position, jacoby=jacoby, **fields)


#: (name, rules, setup commands, steps). ``rules`` are ours; the setup tells gnubg the same.
SITUATIONS = [
    ("money double take", StakeRules(), ["set jacoby off", "set beavers 0"],
     money(on_roll=1), ["double", "take", "set dice 3 1", "PLAY"]),
    ("money double drop", StakeRules(), ["set jacoby off", "set beavers 0"],
     money(on_roll=0, score=(3, 5)), ["double", "drop"]),
    ("money owned cube redouble", StakeRules(), ["set jacoby off", "set beavers 0"],
     money(on_roll=0, cube_value=4, cube_owner=0), ["double", "take"]),
    ("money cube on the other side", StakeRules(), ["set jacoby off", "set beavers 0"],
     money(on_roll=0, cube_value=2, cube_owner=1), ["double", "set dice 5 2", "PLAY",
                                                    "double", "drop"]),
    ("money beaver take", StakeRules(beaver=True), ["set jacoby off", "set beavers 1"],
     money(on_roll=1), ["double", "beaver", "take"]),
    ("money beaver drop", StakeRules(beaver=True), ["set jacoby off", "set beavers 1"],
     money(on_roll=0, cube_value=2, cube_owner=0), ["double", "beaver", "drop"]),
    ("money raccoon drop", StakeRules(beaver=True, raccoon=True),
     ["set jacoby off", "set beavers 2"], money(on_roll=1), ["double", "beaver", "beaver",
                                                             "drop"]),
    ("money jacoby resign gammon", StakeRules(jacoby=True), ["set jacoby on", "set beavers 0"],
     money(on_roll=1, jacoby=True, cube_value=2, cube_owner=0),
     ["resign gammon", "reject", "resign single", "resign backgammon", "accept"]),
    ("money cube 32 redoubled to 64", StakeRules(), ["set jacoby off", "set beavers 0"],
     money(on_roll=1, cube_value=32, cube_owner=1), ["double", "take", "set dice 2 2",
                                                     "PLAY"]),
    ("25-point match, cube 8 redoubled", StakeRules(), ["set jacoby off"],
     gid(MID, on_roll=0, score=(10, 12), match_length=25, cube_value=8, cube_owner=0),
     ["double", "take", "set dice 5 5", "PLAY"]),
    ("1-point match: the cube is dead", StakeRules(), ["set jacoby off"],
     gid(MID, on_roll=0, match_length=1), ["double", "resign single", "accept"]),
    ("match double take", StakeRules(), ["set jacoby off"],
     gid(MID, on_roll=0, score=(2, 4), match_length=7, cube_value=2, cube_owner=0),
     ["double", "take", "set dice 6 6", "PLAY"]),
    ("match dead cube", StakeRules(), ["set jacoby off"],
     gid(MID, on_roll=1, score=(2, 4), match_length=5, cube_value=2, cube_owner=1),
     ["double", "drop"]),
    ("match drop makes the Crawford game", StakeRules(), ["set jacoby off"],
     gid(MID, on_roll=1, score=(2, 3), match_length=7), ["double", "drop"]),
    ("Crawford game refuses the double", StakeRules(), ["set jacoby off"],
     gid(MID, on_roll=0, score=(6, 3), match_length=7, crawford=True),
     ["double", "set dice 4 2", "PLAY", "resign gammon", "accept"]),
    ("post-Crawford double", StakeRules(), ["set jacoby off"],
     gid(MID, on_roll=1, score=(6, 3), match_length=7), ["double", "take"]),
    ("match beaver refused", StakeRules(), ["set jacoby off", "set beavers 3"],
     gid(MID, on_roll=0, score=(1, 1), match_length=5), ["double", "beaver", "take"]),
    ("match resign after rolling", StakeRules(), ["set jacoby off"],
     gid(MID, on_roll=0, dice=(5, 3), score=(0, 1), match_length=3, cube_value=2,
         cube_owner=1), ["resign backgammon", "accept"]),
    ("match gammon past the length", StakeRules(), ["set jacoby off"],
     gid("4P8PAAADAAAAAA", on_roll=1, dice=(6, 5), score=(3, 3), match_length=5,
         cube_value=2, cube_owner=1), ["PLAY"]),
]

#: Whole matches from ``new match`` (or money sessions from ``new session``, length 0);
#: each ``new game`` starts the next game.
FLOWS = [
    ("money session with automatic doubles and a beaver", 0, [
        "set seed 6", "set jacoby on", "set automatic doubles 3", "set beavers 1",
        "new session"], [
        "PLAY", "double", "beaver", "take", "set dice 3 1", "PLAY", "double", "resign single",
        "accept", "new game", "PLAY", "double", "drop", "new game", "resign backgammon",
        "reject", "resign single", "accept"]),
    ("3-point match through the Crawford game", 3, [
        "set seed 11", "set jacoby off", "set crawford on", "new match 3"], [
        "PLAY", "double", "take", "set dice 6 5", "PLAY", "resign single", "accept",
        "new game", "PLAY", "double", "set dice 3 1", "PLAY", "resign single", "reject",
        "resign gammon", "accept", "new game", "double", "resign single", "accept"]),
    ("5-point match with a gammon resignation", 5, [
        "set seed 5", "set jacoby off", "set crawford on", "new match 5"], [
        "resign gammon", "accept", "new game", "PLAY", "double", "drop",
        "new game", "PLAY", "double", "take", "set dice 2 1", "PLAY", "double", "drop",
        "resign single", "accept",
        "new game", "PLAY", "set dice 4 4", "PLAY", "double", "take", "resign single",
        "accept"]),
]


def jobs() -> list[dict]:
    scenarios = [{"setup": setup + [f"set gnubgid {start}"], "steps": steps}
                 for _, _, setup, start, steps in SITUATIONS]
    return scenarios + [{"setup": setup, "steps": steps} for _, _, setup, steps in FLOWS]


@pytest.fixture(scope="module")
def gnubg_results():
    require_gnubg()
    results, _ = run_gnubg(DRIVER, jobs(), processes=2)
    return results


def translate(state: CubeState, command: str, item: dict,
              match: Match | Session | None = None) -> CubeState:
    """Our state after gnubg's ``command`` (the same state where gnubg refuses it),
    applied through ``match`` when given."""
    word, *rest = command.split()
    step = match.apply if match is not None else state.apply
    try:
        if word == "double":
            return step(CubeAction.DOUBLE)
        # gnubg: accept / reject answer a resignation first, else the cube.
        if word == "take" or (word == "accept" and not state.resignation):
            return step(CubeAction.TAKE)
        if word == "drop" or (word == "reject" and not state.resignation):
            return step(CubeAction.DROP)
        if word in ("accept", "reject"):
            return step(ResignAnswer(word))
        if word in ("beaver", "redouble"):
            kind = state.offer.kind if state.offer else None
            return step(CubeAction.BEAVER if kind is CubeAction.DOUBLE
                        else CubeAction.RACCOON)
        if word == "resign":
            return step(Resign({"single": 1, "gammon": 2, "backgammon": 3}[rest[0]]))
        if command.startswith("set dice"):
            if state.preroll:
                state = step(CubeAction.ROLL)
                step = match.apply if match is not None else state.apply
            return step(Roll((int(rest[1]), int(rest[2]))))
        if word == "PLAY":
            legal = state.legal_actions()
            play = find_play(state.base, item["move"]) if item["move"] else legal[0]
            return step(play)
    except IllegalPlayError:
        return state
    raise AssertionError(f"unknown command {command!r}")


def opening(match: Match | Session, item: dict) -> CubeState:
    """Start our next game with gnubg's opening throw, after as many equal throws as
    gnubg's cube shows automatic doubles."""
    state = match.new_game()
    cube = parse_match_id(item["gnubgid"].split(":")[1]).cube_value
    while state.cube_value < cube:
        state = match.apply(Roll((3, 3), opening=True))
    info = item["posinfo"]
    high, low = info["dice"]
    starter = info["turn"]
    return match.apply(Roll((high, low) if starter == 0 else (low, high), opening=True))


def compare(ours: str, theirs: dict, where: str) -> None:
    assert "error" not in theirs, f"{where}: gnubg: {theirs['error']}"
    assert ours == theirs["gnubgid"], f"{where}: ours {ours}, gnubg {theirs['gnubgid']}"


@pytest.mark.parametrize("index", range(len(SITUATIONS)), ids=[s[0] for s in SITUATIONS])
def test_record_match_id_situations_equal_gnubg(gnubg_results, index):
    name, rules, _, start, steps = SITUATIONS[index]
    results = gnubg_results[index]
    state = CubeState.from_situation(Situation.from_gnubg_id(start), BG, rules)
    compare(state_gnubg_id(state), results[0], f"{name}: start")
    for command, item in zip(steps, results[1:], strict=True):
        state = translate(state, command, item)
        compare(state_gnubg_id(state), item, f"{name}: after {command!r}")


@pytest.mark.parametrize("index", range(len(FLOWS)), ids=[f[0] for f in FLOWS])
def test_record_match_id_match_flow_equals_gnubg(gnubg_results, index):
    name, length, _, steps = FLOWS[index]
    results = gnubg_results[len(SITUATIONS) + index]
    if length:
        match: Match | Session = Match(BG, length)
    else:
        match = Session(BG, stakes=StakeRules(jacoby=True, beaver=True, auto_doubles=3))
    state = opening(match, results[0])
    compare(state_gnubg_id(state), results[0], f"{name}: game 1")
    games = 1
    for command, item in zip(steps, results[1:], strict=True):
        if command == "new game":
            games += 1
            state = opening(match, item)
        else:
            state = translate(state, command, item, match)
        compare(state_gnubg_id(state), item, f"{name}: game {games} after {command!r}")
    final = parse_match_id(results[-1]["gnubgid"].split(":")[1])
    if isinstance(match, Match):
        assert match.score.score == final.score
        assert match.is_over == (max(final.score) >= length)
    else:
        assert tuple(match.won) == final.score
