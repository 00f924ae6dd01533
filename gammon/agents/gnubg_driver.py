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
- ``{"op": "rollout", "ids": ["POSITIONID:MATCHID", ...], "settings": {...}}``: each
  position rolled out by gnubg (``rollout``, the player on roll to roll), every one with
  the same ``settings`` (:func:`_rollout_commands`; the same seed gives every position the
  same dice): ``{"results": [{"equity": e, "se": s, "probs": [...], "probs_se": [...]},
  ...]}``, ``equity`` the cubeless equity of the player on roll (cubeful where the
  settings say ``"cubeful": true``), ``se`` its standard error.
- ``{"op": "rollout_cube", "id": "POSITIONID:MATCHID", "settings": {...}}``: the cube
  decision of the player on roll rolled out (gnubg's ``analyse rollout cube``, cubeful):
  ``{"decision": "No double, take", "equities": [no double, double/take, double/pass],
  "se": [no double, double/take]}`` in the units of the ``cube`` op.
- ``{"op": "variation", "name": "standard"}``: switch gnubg's variation.
- ``{"op": "quit"}``.

Errors are answered as ``{"error": "..."}``. This file only runs inside gnubg: it uses
nothing but the standard library and the ``gnubg`` module.

gnubg prints a rollout's results only where its standard output was a terminal when it
started (``isatty``): the rollout ops need gnubg started on a pseudo-terminal
(``GnubgBridge(terminal=True)``, which sets ``GAMMON_GNUBG_TERMINAL``); this script then
sends that output to ``/dev/null`` and reads it, while a rollout runs, from a file.
gnubg 1.07 cannot roll out a cube decision through ``hint`` from a script (a worker thread
calls a missing progress function); ``analyse rollout cube`` after an evaluated ``hint``
can, which is the route taken.
"""

import json
import os
import re
import sys
import tempfile

#: What a rollout prints for each position: its chances, then their standard errors,
#: the cubeless equity (CL) and, in a cubeful rollout, the cubeful one (CF).
_NUMBER = r"([+-]?\d+\.\d+)"
_RESULT = re.compile(
    r"^\s*" + r"\s+".join([_NUMBER] * 3) + r"\s+-\s+" + r"\s+".join([_NUMBER] * 3)
    + r"\s+CL\s+" + _NUMBER + r"(?:\s+CF\s+" + _NUMBER + r")?\s*$\n"
    r"^\s*\[" + r"\s+".join([_NUMBER] * 3) + r"\s+-\s+" + r"\s+".join([_NUMBER] * 3)
    + r"\s+CL\s+" + _NUMBER + r"(?:\s+CF\s+" + _NUMBER + r")?\s*\]", re.MULTILINE)
_CUBE_LINE = re.compile(r"^\s*\d\.\s+(No (?:re)?double|(?:Re)?[Dd]ouble, (?:take|pass))\s+"
                        + _NUMBER, re.MULTILINE)
_PROPER = re.compile(r"^Proper cube action:\s*(.+?)\s*(?:\(-?\d+(?:\.\d+)?%?\))?\s*$",
                     re.MULTILINE)


def _context(plies, noise):
    return {"cubeful": 0, "plies": int(plies), "deterministic": 1, "prune": 1,
            "noise": float(noise)}


def _board(request):
    first, second = request["board"]
    return (tuple(int(x) for x in first), tuple(int(x) for x in second))


def _printed(gnubg, command):
    """What gnubg prints while it runs ``command``: its standard output (fd 1) is sent to
    a file for the while, then back where it was."""
    import ctypes  # gnubg's C stdio buffers are flushed around the switch

    libc = ctypes.CDLL(None)
    libc.fflush(None)
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as out:
        os.dup2(out.fileno(), 1)
        try:
            gnubg.command(command)
        finally:
            libc.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        out.seek(0)
        return out.read().decode(errors="replace")


def _rollout_commands(settings):
    """gnubg's ``set rollout`` commands for ``settings``: ``trials``, ``seed``, ``plies``
    (checker play in the rollout), ``cube_plies`` (its cube decisions, cubeful only),
    ``truncation`` (plies, 0 for none) and ``truncation_plies`` (the evaluation there),
    ``cubeful``; always with variance reduction, quasi-random dice, the same settings for
    both players and for every ply, one thread, and the bearoff databases' truncation
    as gnubg has it by default."""
    cubeful = "on" if settings.get("cubeful") else "off"
    truncation = int(settings.get("truncation", 0))
    commands = [
        "set threads 1",
        "set output digits 5",
        "set output mwc off",
        f"set rollout trials {int(settings['trials'])}",
        f"set rollout seed {int(settings['seed'])}",
        f"set rollout cubeful {cubeful}",
        "set rollout varredn on",
        "set rollout quasirandom on",
        "set rollout initial off",
        "set rollout players-are-same on",
        "set rollout later enable off",
        "set rollout limit enable off",
        "set rollout jsd stop off",
        f"set rollout chequerplay plies {int(settings['plies'])}",
        f"set rollout chequerplay cubeful {cubeful}",
        "set rollout chequerplay prune on",
        "set rollout chequerplay noise 0",
        f"set rollout cubedecision plies {int(settings.get('cube_plies', 2))}",
        "set rollout cubedecision prune on",
        "set rollout cubedecision noise 0",
        f"set rollout truncation enable {'on' if truncation else 'off'}",
    ]
    if truncation:
        at = int(settings.get("truncation_plies", 2))
        commands += [f"set rollout truncation plies {truncation}",
                     f"set rollout truncation chequerplay plies {at}",
                     "set rollout truncation chequerplay prune on",
                     f"set rollout truncation chequerplay cubeful {cubeful}",
                     f"set rollout truncation cubedecision plies {at}",
                     "set rollout truncation cubedecision prune on"]
    return commands


def _floats(groups):
    return [float(x) for x in groups]


def rollout(gnubg, request):
    """The ``rollout`` op: each position of ``request["ids"]`` rolled out."""
    for command in _rollout_commands(request["settings"]):
        gnubg.command(command)
    cubeful = bool(request["settings"].get("cubeful"))
    gnubg.command("set cube use " + ("on" if cubeful else "off"))
    results = []
    for gnubg_id in request["ids"]:
        gnubg.command(f"set gnubgid {gnubg_id}")
        printed = _printed(gnubg, "rollout")
        final = printed.rpartition("Printing final results")[2]
        match = _RESULT.search(final)
        if match is None:
            raise RuntimeError("gnubg printed no rollout results (its standard output must "
                               "have been a terminal when it started): " + printed[-300:])
        values = match.groups()
        equity = values[7] if cubeful and values[7] is not None else values[6]
        se = values[15] if cubeful and values[15] is not None else values[14]
        results.append({"equity": float(equity), "se": float(se),
                        "probs": _floats(values[0:3] + values[4:6]),
                        "probs_se": _floats(values[8:11] + values[12:14])})
    gnubg.command("set cube use off")
    return {"results": results}


def rollout_cube(gnubg, request):
    """The ``rollout_cube`` op: the cube decision of ``request["id"]`` rolled out."""
    settings = dict(request["settings"], cubeful=True)
    for command in _rollout_commands(settings):
        gnubg.command(command)
    gnubg.command("set cube use on")
    gnubg.command("set jacoby off")
    gnubg.command("set beavers 0")
    gnubg.command("set evaluation cubedecision type evaluation")
    gnubg.command("set evaluation cubedecision evaluation plies 0")
    gnubg.command(f"set gnubgid {request['id']}")
    _printed(gnubg, "hint")  # the cube analysed (0 ply), which the rollout replaces
    rolled = _printed(gnubg, "analyse rollout cube")
    if "Printing final results" not in rolled:
        raise RuntimeError("gnubg did not roll the cube decision out (its standard output "
                           "must have been a terminal when it started): " + rolled[-300:])
    shown = _printed(gnubg, "hint")
    gnubg.command("set cube use off")
    analysis = shown.rpartition("Cube analysis")[2]
    if "Rollout" not in analysis:
        raise RuntimeError("gnubg's cube analysis is not its rollout: " + analysis[-300:])
    equities = {}
    for label, value in _CUBE_LINE.findall(analysis):
        key = label.lower().replace("redouble", "double")
        equities[key] = float(value)
    proper = _PROPER.search(analysis)
    details = [m.groups() for m in _RESULT.finditer(analysis.partition("Rollout details")[2])]
    if len(equities) != 3 or proper is None or len(details) < 2:
        raise RuntimeError("gnubg's cube rollout could not be read: " + analysis[-600:])
    return {"decision": proper.group(1),
            "equities": [equities["no double"], equities["double, take"],
                         equities["double, pass"]],
            "se": [float(details[0][15]), float(details[1][15])]}


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
            elif op == "rollout":
                answer = rollout(gnubg, request)
            elif op == "rollout_cube":
                answer = rollout_cube(gnubg, request)
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

    if os.environ.get("GAMMON_GNUBG_TERMINAL"):
        # Started on a terminal so that gnubg prints its rollouts (see the module text);
        # its boards, printed all the time, go nowhere.
        quiet = os.open(os.devnull, os.O_WRONLY)
        sys.stdout.flush()
        os.dup2(quiet, 1)
        os.close(quiet)
    requests = os.fdopen(int(os.environ["GAMMON_GNUBG_IN"]), "r")
    answers = os.fdopen(int(os.environ["GAMMON_GNUBG_OUT"]), "w")
    try:
        serve(gnubg, requests, answers)
    finally:
        answers.close()
        sys.stderr.flush()


if __name__ == "__main__":
    main()
