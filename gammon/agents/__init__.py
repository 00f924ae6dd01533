"""Bots for every variant, the yardsticks they are measured against, and duels.

- :func:`make_agent` builds an agent from its name, ``kind[:option...]``: ``random``,
  ``heuristic``, ``expectimax:2``, ``mcts:2000``, ``pubeval``, ``gnubg:0``
  (:mod:`gammon.agents.registry`).
- An agent's ``choose(state)`` returns one of ``state.legal_actions()``; an evaluator's
  ``evaluate(states)`` gives every player's expected return (:mod:`gammon.agents.base`).
- :func:`evaluator_for` is a variant's heuristic evaluator
  (:mod:`gammon.evaluators`).
- :func:`duel` plays agents against each other with seats rotated and reports means
  with 95% intervals (:mod:`gammon.agents.duel`).
- :mod:`gammon.agents.cube` decides doubles and takes from winning chances.
"""

from gammon.agents.base import Agent
from gammon.agents.duel import DuelResult, duel
from gammon.agents.registry import agent_kinds, make_agent, parse_spec, supported
from gammon.evaluators import evaluator_for
from gammon.evaluators.base import Evaluator

__all__ = [
    "Agent",
    "DuelResult",
    "Evaluator",
    "agent_kinds",
    "duel",
    "evaluator_for",
    "make_agent",
    "parse_spec",
    "supported",
]
