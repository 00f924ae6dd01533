"""gammon as an engine for other programs: the Universal Backgammon Interface
(:mod:`gammon.engine.ubgi`) and GNU Backgammon's external player
(:mod:`gammon.engine.external`), both answering through :mod:`gammon.engine.decide`."""
