"""Training networks: TD(lambda) self-play (:mod:`gammon.training.train`) and learning a
teacher's evaluations (:mod:`gammon.training.teacher`), with the command line's side of
both (:mod:`gammon.training.cli`).

Training sits above the bots (it plays games with them, duels them and spreads its work
with their parallel runner) and writes the networks that the evaluation layer
(:mod:`gammon.nn`) reads: docs/architecture.md.
"""
