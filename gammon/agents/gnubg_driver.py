"""The half of the gnubg opponent that runs inside GNU Backgammon's embedded Python.

Started by :class:`gammon.agents.gnubg.GnubgBridge` as
``gnubg -q -t -p gnubg_driver.py`` with two pipe file descriptors in the environment
(``GAMMON_GNUBG_IN``, ``GAMMON_GNUBG_OUT``); gnubg prints boards to its standard output
all the time, so requests and answers use the pipes, one JSON object per line.

Requests (``board`` is gnubg's: the side not on roll, then the side on roll, 25 counts
each from their owner's side, index 24 the bar):

- ``{"op": "move", "board": ..., "dice": [a, b], "plies": n, "noise": x}``: gnubg's
  best play at ``n`` plies (cubeless, deterministic noise ``x``): answers
  ``{"move": [from, to, from, to, ...]}`` (25 = bar, 0 = off; empty: no move).
- ``{"op": "evaluate", "board": ..., "plies": n}``: ``{"probs": [win, win gammon,
  win backgammon, lose gammon, lose backgammon]}`` for the side on roll.
- ``{"op": "evaluate_many", "boards": [...], "plies": n}``: the same for a list of
  boards, ``{"probs": [[...], ...]}``.
- ``{"op": "cube", "board": ..., "plies": n}``: gnubg's money cube decision for the
  side on roll (cube in the middle, no Jacoby rule, no beavers): ``{"decision": "No
  double, take", "equities": [no double, double/take, double/pass]}`` (cubeful,
  per cube value) and ``"probs"`` as ``evaluate``. With ``"match": {"length": n,
  "score": [on roll, other], "crawford": bool, "cube": v, "owner": -1|0|1}`` (owner 0
  the side on roll, -1 the middle) the decision at that match score, its equities in
  gnubg's normalised match equity.
- ``{"op": "variation", "name": "standard"}``: switch gnubg's variation.
- ``{"op": "quit"}``.

Errors are answered as ``{"error": "..."}``. This file only runs inside gnubg: it uses
nothing but the standard library and the ``gnubg`` module.
"""

import json
import os
import sys


def _context(plies, noise):
    return {"cubeful": 0, "plies": int(plies), "deterministic": 1, "prune": 1,
            "noise": float(noise)}


def _board(request):
    first, second = request["board"]
    return (tuple(int(x) for x in first), tuple(int(x) for x in second))


def serve(gnubg, requests, answers):
    gnubg.command("set automatic game off")
    gnubg.command("set automatic roll off")
    gnubg.command("set cube use off")
    gnubg.command("set jacoby off")
    gnubg.command("new game")
    for line in requests:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
            op = request.get("op")
            if op == "quit":
                answer = {"ok": True}
                answers.write(json.dumps(answer) + "\n")
                answers.flush()
                return
            if op == "move":
                a, b = request["dice"]
                gnubg.command(f"set dice {int(a)} {int(b)}")
                move = gnubg.findbestmove(
                    _board(request), gnubg.cubeinfo(),
                    _context(request.get("plies", 0), request.get("noise", 0.0)),
                )
                answer = {"move": [int(x) for x in move]}
            elif op == "evaluate":
                probs = gnubg.evaluate(_board(request), gnubg.cubeinfo(),
                                       _context(request.get("plies", 0), 0.0))
                answer = {"probs": [float(x) for x in probs[:5]]}
            elif op == "evaluate_many":
                context = _context(request.get("plies", 0), 0.0)
                answer = {"probs": [
                    [float(x) for x in gnubg.evaluate(
                        (tuple(first), tuple(second)), gnubg.cubeinfo(), context)[:5]]
                    for first, second in request["boards"]
                ]}
            elif op == "cube":
                board = _board(request)
                plies = request.get("plies", 0)
                cubeful = dict(_context(plies, 0.0), cubeful=1)
                match = request.get("match")
                info = gnubg.cubeinfo() if match is None else gnubg.cubeinfo(
                    int(match["cube"]), int(match["owner"]), 0, int(match["length"]),
                    tuple(int(x) for x in match["score"]), int(bool(match["crawford"])))
                result = gnubg.cfevaluate(board, info, cubeful)
                probs = gnubg.evaluate(board, gnubg.cubeinfo(), _context(plies, 0.0))
                answer = {"decision": str(result[5]),
                          "equities": [float(x) for x in result[1:4]],
                          "probs": [float(x) for x in probs[:5]]}
            elif op == "variation":
                gnubg.command(f"set variation {request['name']}")
                gnubg.command("new session")
                gnubg.command("new game")
                answer = {"ok": True}
            else:
                answer = {"error": f"unknown op {op!r}"}
        except Exception as error:  # answered, never fatal: the caller decides
            answer = {"error": f"{type(error).__name__}: {error}"}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def main():
    import gnubg  # only inside gnubg

    requests = os.fdopen(int(os.environ["GAMMON_GNUBG_IN"]), "r")
    answers = os.fdopen(int(os.environ["GAMMON_GNUBG_OUT"]), "w")
    try:
        serve(gnubg, requests, answers)
    finally:
        answers.close()
        sys.stderr.flush()


if __name__ == "__main__":
    main()
