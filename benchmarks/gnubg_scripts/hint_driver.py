"""Runs inside gnubg (``gnubg -q -t -p hint_driver.py``): gnubg's rating of every play.

Jobs (``GAMMON_GNUBG_JOBS``): ``{"board": [theirs, mine], "dice": [a, b], "plies": n}``
in gnubg's layout (the side on roll second). For each, ``gnubg.hint(9999)`` at ``n``
plies (cubeless): every play with its equity, best first, each with the board it leads
to. Results to ``GAMMON_GNUBG_OUT``. Only the standard library and ``gnubg`` here.
"""

import json
import os

import gnubg  # noqa: I001  (gnubg's embedded module)

BAR = 24


def after(board, move):
    theirs, mine = list(board[0]), list(board[1])
    for source, destination in gnubg.parsemove(move):
        mine[BAR if source == 25 else source - 1] -= 1
        if destination > 0:
            mine[destination - 1] += 1
            if theirs[24 - destination] == 1:
                theirs[24 - destination] = 0
                theirs[BAR] += 1
    return [theirs, mine]


def main():
    with open(os.environ["GAMMON_GNUBG_JOBS"]) as file:
        jobs = json.load(file)
    for command in ("set automatic game off", "set player 0 human", "set player 1 human",
                    "set display off", "set cube use off", "new game"):
        gnubg.command(command)
    results = []
    for job in jobs:
        try:
            board = [list(job["board"][0]), list(job["board"][1])]
            plies = int(job["plies"])
            gnubg.command(f"set evaluation chequerplay evaluation plies {plies}")
            gnubg.command("set board " + gnubg.positionid(board))
            gnubg.command(f"set dice {job['dice'][0]} {job['dice'][1]}")
            hints = gnubg.hint(9999)["hint"]
            results.append({"plays": [{"move": h["move"], "equity": float(h["equity"]),
                                       "board": after(board, h["move"])} for h in hints]})
        except Exception as error:  # reported, never fatal
            results.append({"error": f"{type(error).__name__}: {error}"})
    with open(os.environ["GAMMON_GNUBG_OUT"], "w") as out:
        json.dump(results, out)


main()
