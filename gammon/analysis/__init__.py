"""Study: hint, rollouts and the review of a whole game or match, on the networks.

- :mod:`gammon.analysis.hint`: every play of a position rated, and the cube decision;
- :mod:`gammon.analysis.rollout`: cubeless rollouts with the network's players;
- :mod:`gammon.analysis.review`: every decision of a game or match rated and marked,
  error rates, the winning chances through the game, an HTML page of the worst.
"""
