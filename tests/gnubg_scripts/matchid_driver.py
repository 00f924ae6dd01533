"""Run inside gnubg (``gnubg -q -t -p matchid_driver.py``): cube actions, resignations
and match flow in gnubg itself, with its Match ID after every command.

Reads a JSON list of scenarios from the file named by ``GAMMON_GNUBG_JOBS`` (the
shared runner, tests/gnubg_runner.py ``run_gnubg``). A scenario
is ``{"setup": [command, ...], "steps": [command, ...]}``: the setup commands run first
(players are made human and automatic play is switched off before them), then each step
runs and is reported. A step ``"PLAY"`` plays the first legal play gnubg lists for the
dice on the board (0-ply). Writes to ``GAMMON_GNUBG_OUT`` one list per scenario, one
item per step: ``{"command", "gnubgid", "posinfo"}`` (``"move"`` for PLAY), and one item
``{"command": "setup", ...}`` first.

Only the standard library and the ``gnubg`` module are available here. gnubg prints
boards on stdout: run it with stdout sent to /dev/null.
"""

import json
import os

import gnubg  # noqa: I001  (gnubg's embedded module)


def snapshot(command):
    try:
        return {"command": command, "gnubgid": gnubg.gnubgid(), "posinfo": gnubg.posinfo()}
    except Exception as err:  # no game, for instance
        return {"command": command, "error": f"{type(err).__name__}: {err}"}


def main():
    for command in ("set player 0 human", "set player 1 human", "set automatic game off",
                    "set automatic roll off", "set automatic bearoff off",
                    "set confirm new off", "set confirm default no",
                    "set evaluation chequerplay evaluation plies 0",
                    "set evaluation cubedecision evaluation plies 0"):
        gnubg.command(command)
    with open(os.environ["GAMMON_GNUBG_JOBS"]) as f:
        scenarios = json.load(f)
    results = []
    for scenario in scenarios:
        for command in scenario.get("setup", []):
            gnubg.command(command)
        out = [snapshot("setup")]
        for command in scenario.get("steps", []):
            if command == "PLAY":
                hint = gnubg.hint(9999)
                moves = [h["move"] for h in hint.get("hint", [])] if hint else []
                move = moves[0] if moves else ""
                if move:
                    gnubg.command("move " + move)
                else:
                    gnubg.command("move")
                item = snapshot(command)
                item["move"] = move
                out.append(item)
                continue
            gnubg.command(command)
            out.append(snapshot(command))
        results.append(out)
    with open(os.environ["GAMMON_GNUBG_OUT"], "w") as f:
        json.dump(results, f)


main()
