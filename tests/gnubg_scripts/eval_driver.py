"""Evaluate many positions with GNU Backgammon at 0-ply, cubeless. Runs inside gnubg.

Usage (gnubg's embedded Python; parameters through the environment)::

    GAMMON_GNUBG_JOBS=jobs.json GAMMON_GNUBG_OUT=out.json \\
        /usr/games/gnubg -q -t -p tests/gnubg_scripts/eval_driver.py >/dev/null

``jobs.json`` is a list of boards in gnubg's layout: ``[theirs, mine]``, the side not on
roll first, each 25 counts in its owner's numbering (index i = point i + 1, index 24 =
the bar). ``out.json`` gets gnubg's ``evaluate`` of each, for the side on roll: win, win
a gammon, win a backgammon, lose a gammon, lose a backgammon, equity. In a bearoff gnubg
reads its bearoff databases (two-sided up to six checkers a side, one-sided beyond).

This file uses only the standard library and the ``gnubg`` module gnubg provides.
"""

import json
import os

import gnubg  # gnubg's own module, importable only inside gnubg

gnubg.command("set automatic game off")
gnubg.command("new game")  # a game, for the cube information evaluate needs
CONTEXT = dict(cubeful=0, plies=0, deterministic=1, prune=1, noise=0.0)
with open(os.environ["GAMMON_GNUBG_JOBS"]) as jobs:
    boards = json.load(jobs)
results = [list(gnubg.evaluate((tuple(b[0]), tuple(b[1])), gnubg.cubeinfo(), CONTEXT))
           for b in boards]
with open(os.environ["GAMMON_GNUBG_OUT"], "w") as out:
    json.dump(results, out)
