"""Run inside gnubg (``gnubg -q -t -p mat_driver.py``): import or export match files.

Reads a JSON list from the file named by ``GAMMON_GNUBG_JOBS``; each item is one of:

- ``{"import": PATH}``: gnubg imports the .mat file and reports every game (its info
  and its actions with dice and moves, as ``gnubg.match()`` gives them) and the
  players' names; ``{"load": PATH}``: the same for an SGF file;
- ``{"play": LENGTH, "seed": S, "export": PATH}``: gnubg plays a match against itself
  at 0 ply and exports it as .mat; with ``"save": PATH`` instead of ``"export"``, it
  analyses the match at 0 ply and saves it as SGF;
- ``{"analyse": PATH, "plies": N}``: gnubg imports the .mat file, analyses it at N
  plies and reports its statistics for the match (``{"stats": {"X": ..., "O": ...}}``,
  X the file's first player).

Writes one result per item to ``GAMMON_GNUBG_OUT``. gnubg prints boards on stdout: run
it with stdout sent to /dev/null. Only the standard library and ``gnubg`` here.
"""

import json
import os

import gnubg  # noqa: I001  (gnubg's embedded module)


def games():
    match = gnubg.match(0, 0, 0, 0)
    out = []
    for game in match["games"]:
        actions = []
        for item in game["game"]:
            action = {"action": item.get("action"), "player": item.get("player")}
            if "dice" in item:
                action["dice"] = list(item["dice"])
            if "move" in item:
                action["move"] = [list(step) for step in item["move"]]
            actions.append(action)
        out.append({"info": dict(game["info"]), "actions": actions})
    info = match["match-info"]
    return {"length": info["match-length"], "games": out,
            "names": [info["X"]["name"], info["O"]["name"]]}


def main():
    with open(os.environ["GAMMON_GNUBG_JOBS"]) as file:
        jobs = json.load(file)
    results = []
    gnubg.command("set automatic game off")
    gnubg.command("set confirm new off")  # an unfinished match is no reason to stop
    for job in jobs:
        try:
            if "import" in job:
                gnubg.command(f"import mat {job['import']}")
                results.append(games())
            elif "load" in job:  # gnubg's own SGF
                gnubg.command(f"load match {job['load']}")
                results.append(games())
            elif "analyse" in job:
                plies = int(job.get("plies", 0))
                for what in ("chequerplay", "cubedecision"):
                    gnubg.command(f"set analysis {what} evaluation plies {plies}")
                gnubg.command(f"import mat {job['analyse']}")
                gnubg.command("analyse match")
                results.append({"stats": gnubg.match(1, 0, 1, 0)["stats"]})
            else:
                for player in (0, 1):
                    gnubg.command(f"set player {player} gnubg")
                    gnubg.command(f"set player {player} chequerplay evaluation plies 0")
                    gnubg.command(f"set player {player} cubedecision evaluation plies 0")
                gnubg.command("set automatic game on")
                gnubg.command(f"set seed {int(job['seed'])}")
                gnubg.command(f"new match {int(job['play'])}")
                gnubg.command("set automatic game off")
                if "save" in job:  # analysed, then saved as gnubg's SGF
                    for what in ("chequerplay", "cubedecision"):
                        gnubg.command(f"set analysis {what} evaluation plies 0")
                    gnubg.command("analyse match")
                    gnubg.command(f"save match {job['save']}")
                else:
                    gnubg.command(f"export match mat {job['export']}")
                results.append(games())
        except Exception as error:  # reported, never fatal
            results.append({"error": f"{type(error).__name__}: {error}"})
    with open(os.environ["GAMMON_GNUBG_OUT"], "w") as out:
        json.dump(results, out)


main()
