"""List every legal play of many positions with GNU Backgammon. Runs inside gnubg.

Usage (gnubg's embedded Python; parameters through the environment, since gnubg takes
extra command-line arguments as files to load)::

    GAMMON_GNUBG_JOBS=jobs.json GAMMON_GNUBG_OUT=out.json \\
        /usr/games/gnubg -q -t -p tests/gnubg_scripts/legal_driver.py >/dev/null

``jobs.json`` is a list of jobs ``{"board": [theirs, mine], "dice": [a, b],
"variation": "standard"}``. ``board`` is in gnubg's layout: the side not on roll first,
then the side on roll, each 25 counts in its owner's numbering (index i = point i + 1,
index 24 = the bar; checkers off are not listed). ``variation`` is a gnubg variation
(``standard``, ``nackgammon``, ``1-chequer-hypergammon``, ...).

For each job the script sets the board (``set board`` with ``gnubg.positionid``) and the
dice, asks ``gnubg.hint(9999)`` at 0-ply (every legal play, one per distinct resulting
position; no move filter prunes at 0-ply) and plays each move with the tuples of
``gnubg.parsemove`` to get the board it leads to. ``out.json`` gets one entry per job,
in order: ``{"plays": [{"move": "24/18 13/11", "board": [theirs, mine]}, ...]}`` (an empty
list: gnubg finds no legal play) or ``{"error": "..."}``.

This file uses only the standard library and the ``gnubg`` module gnubg provides.
"""

import json
import os
import sys

import gnubg  # gnubg's own module, importable only inside gnubg

BAR = 24  # index of the bar in gnubg's 25-count rows


def play_move(board, move):
    """The board after ``move`` (gnubg notation), the mover's checkers moved one by one."""
    theirs = list(board[0])
    mine = list(board[1])
    for source, destination in gnubg.parsemove(move):
        source_index = BAR if source == 25 else source - 1
        if mine[source_index] <= 0:
            raise ValueError(f"{move}: no checker on {source}")
        mine[source_index] -= 1
        if destination > 0:
            mine[destination - 1] += 1
            # Our point n is their point 25 - n, at their index 24 - n.
            opposing = 24 - destination
            if theirs[opposing] == 1:
                theirs[opposing] = 0
                theirs[BAR] += 1
            elif theirs[opposing] > 1:
                raise ValueError(f"{move}: lands on their closed point {destination}")
    return [theirs, mine]


def legal_plays(job):
    board = [list(job["board"][0]), list(job["board"][1])]
    gnubg.command("set board " + gnubg.positionid(board))
    now = [list(row) for row in gnubg.board()]
    if now != board:
        raise ValueError(f"gnubg took the board as {now}")
    dice = job["dice"]
    gnubg.command(f"set dice {dice[0]} {dice[1]}")
    if tuple(gnubg.posinfo()["dice"]) not in ((dice[0], dice[1]), (dice[1], dice[0])):
        raise ValueError(f"gnubg took the dice as {gnubg.posinfo()['dice']}")
    hints = gnubg.hint(9999)["hint"]
    return [{"move": h["move"], "board": play_move(board, h["move"])} for h in hints]


def main():
    with open(os.environ["GAMMON_GNUBG_JOBS"]) as f:
        jobs = json.load(f)
    for command in (
        "set automatic game off",
        "set player 0 human",
        "set player 1 human",
        "set display off",
        "set evaluation chequerplay evaluation plies 0",
    ):
        gnubg.command(command)
    variation = None
    results = []
    for job in jobs:
        if job["variation"] != variation:
            variation = job["variation"]
            gnubg.command("set variation " + variation)
            gnubg.command("new session")  # a plain new game keeps the old variation
        try:
            results.append({"plays": legal_plays(job)})
        except Exception as error:  # report it with the job, keep going
            results.append({"error": f"{type(error).__name__}: {error}"})
    with open(os.environ["GAMMON_GNUBG_OUT"], "w") as f:
        json.dump(results, f)


try:
    main()
except BaseException as error:
    print(f"legal_driver: {type(error).__name__}: {error}", file=sys.stderr)
    raise
