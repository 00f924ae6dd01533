"""Runs inside GNU Backgammon (``gnubg -q -t -p selfplay_speed.py``): times gnubg's own
0-ply self-play, a cubeless rollout of the starting position with no truncation, no
variance reduction, one thread. ``GAMMON_TRIALS`` games; prints ``RESULT games seconds``
on standard error."""

import os
import sys
import time

import gnubg

trials = int(os.environ.get("GAMMON_TRIALS", "1296"))
for command in ("set automatic game off", "set threads 1", "set cube use off", "new game",
                f"set rollout trials {trials}", "set rollout truncation enable off",
                "set rollout cubeful off", "set rollout chequerplay plies 0",
                "set rollout varredn off", "set rollout quasirandom off",
                "set rollout late enable off", "set rollout rotate off"):
    gnubg.command(command)
began = time.perf_counter()
gnubg.command("rollout")
sys.stderr.write(f"RESULT {trials} {time.perf_counter() - began:.4f}\n")
