"""Run inside gnubg (``gnubg -q -t -p ids_driver.py``): convert IDs with gnubg itself.

Reads a JSON list from the file named by ``GAMMON_GNUBG_JOBS``; each item may have
``"xgid"`` (given to ``set xgid``) and ``"gnubgid"`` (given to ``set gnubgid``). Writes
to ``GAMMON_GNUBG_OUT`` one result per item: what gnubg's ``gnubgid()``, ``board()`` and
``posinfo()`` say after each command, ``null`` where gnubg refused the input, or
``{"error": ...}`` where gnubg raised an exception when asked.
gnubg prints boards on stdout: run it with stdout sent to /dev/null.

Only the standard library and the ``gnubg`` module are available here.
"""

import json
import os

import gnubg  # noqa: I001  (gnubg's embedded module)

# A position no sample uses (player 1 on roll with 15 checkers on the 6 point, player 0
# with 14 on the 2 point and one on the bar). gnubg keeps its old board when it refuses
# an ID, so a refusal shows up as this position still being set.
SENTINEL = "/n8AAEDg/w8AAA:cIkKAAAAAAAE"
SENTINEL_POSITION = SENTINEL.split(":")[0]


def state():
    try:
        gid = gnubg.gnubgid()
        if gid.split(":")[0] == SENTINEL_POSITION:
            return None
        return {"gnubgid": gid, "board": gnubg.board(), "posinfo": gnubg.posinfo()}
    except Exception as err:  # gnubg has no position to show, for instance
        return {"error": f"{type(err).__name__}: {err}"}


def main():
    gnubg.command("set automatic game off")
    # SetXGID asks whether to swap the players when player 0 is on roll; answering yes
    # would renumber them. Never swap.
    gnubg.command("set confirm default no")
    gnubg.command("new game")
    with open(os.environ["GAMMON_GNUBG_JOBS"]) as f:
        items = json.load(f)
    results = []
    for item in items:
        result = {}
        for key, command in (("xgid", "set xgid "), ("gnubgid", "set gnubgid ")):
            if item.get(key):
                gnubg.command("set gnubgid " + SENTINEL)
                assert gnubg.gnubgid() == SENTINEL, gnubg.gnubgid()
                gnubg.command(command + item[key])
                result[key] = state()
        results.append(result)
    with open(os.environ["GAMMON_GNUBG_OUT"], "w") as f:
        json.dump(results, f)


main()
