"""The bots each game offers, in one table: which kinds play it, strongest first (the
first that can play on this machine is its default opponent: :func:`default_bot`), and
the settings each kind plays it at by default.

A game that is not in the table (a new one) offers :data:`SEARCH_FIRST`: the search
leads until a network of its own beats it, and the row that says so comes with the
duel that showed it (docs/strength.md). A kind that reads a particular board (gnubg,
pubeval, the perfect player) is offered only where its row names it, so adding a kind
for every game means adding it to the rows here, and nowhere else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from gammon.core.protocol import Rules
from gammon.core.variant import preset_name


@dataclass(frozen=True)
class Offer:
    """The bots a game offers, strongest first, and the kinds' default settings there
    (``{"mcts": "150"}``), written as in a bot's name after its kind."""

    bots: tuple[str, ...]
    options: Mapping[str, str] = field(default_factory=dict)


#: What a game without a row offers: its search first, then its network.
SEARCH_FIRST = ("expectimax", "mcts", "heuristic", "random", "neural")
#: The games whose network a roll deep beat expectimax:2 (docs/strength.md, Networks);
#: pubeval reads backgammon's board, which these games share.
_NETWORK_FIRST_BOARD = ("neural", "expectimax", "pubeval", "mcts", "heuristic", "random")
_NETWORK_FIRST = ("neural", "expectimax", "mcts", "heuristic", "random")
_NEURAL_1 = MappingProxyType({"neural": "1"})
_WIDE = MappingProxyType({"neural": "1", "expectimax": "width=4"})

#: The table, by the name a game is listed by (a preset's own name, such as
#: ``hypergammon-2``, before its family's).
OFFERS: Mapping[str, Offer] = MappingProxyType({
    # gnubg plays the standard game only. The network two rolls deep beat expectimax:2.
    "backgammon": Offer(("neural", "expectimax", "gnubg", "pubeval", "mcts", "heuristic",
                         "random"), {"neural": "2"}),
    "nackgammon": Offer(_NETWORK_FIRST_BOARD, _NEURAL_1),
    # Solved: the perfect player leads (gammon.evaluators.exact). One and two checkers
    # ship solved; three are solved on the machine by `gammon solve 3`, and until then
    # the network two rolls deep leads, which beat expectimax:2.
    "hypergammon-1": Offer(("perfect", *SEARCH_FIRST)),
    "hypergammon-2": Offer(("perfect", *SEARCH_FIRST)),
    "hypergammon-3": Offer(("perfect", *_NETWORK_FIRST), {"neural": "2"}),
    # The network (self-play, docs/networks.md) a roll deep beats expectimax:2.
    "portes": Offer(_NETWORK_FIRST_BOARD, _NEURAL_1),
    "tavla": Offer(_NETWORK_FIRST_BOARD, _NEURAL_1),
    # The pinning games: the network (track+pins inputs) a roll deep beat the heuristic,
    # the default before (blind to the pins), by +3.976 [+3.962, +3.990] a game over
    # 2,000 games (Tapa's +3.970 [+3.956, +3.984]). The search reads the pin row and
    # the mother (gammon.agents.search).
    "plakoto": Offer(("neural", "expectimax", "heuristic", "random"), _NEURAL_1),
    "tapa": Offer(("neural", "expectimax", "heuristic", "random"), _NEURAL_1),
    # pubeval reads the board; gnubg would play moves the no-hiding rule forbids.
    "short": Offer(_NETWORK_FIRST_BOARD, _NEURAL_1),
    "caucasian": Offer(_NETWORK_FIRST_BOARD, _NEURAL_1),
    "long-nardy": Offer(_NETWORK_FIRST, _WIDE),
    # The network at one roll beat expectimax:2 over 2,000 games.
    "fevga": Offer(_NETWORK_FIRST, _WIDE),
    # Moultezim's network, trained on to 400,000 games, at one roll beat expectimax:2
    # over 2,000 games (at 200,000 it was level).
    "moultezim": Offer(_NETWORK_FIRST, _WIDE),
    # The network at one roll beat expectimax (one roll) over 2,000 games.
    "gul-bara": Offer(_NETWORK_FIRST, _WIDE),
    # The network a roll deep beat expectimax:1.
    "acey-deucey": Offer(_NETWORK_FIRST, {"neural": "1", "expectimax": "width=4",
                                          "mcts": "150"}),
    # Four players: rollouts lead; the network is level with the search.
    "multi-gam": Offer(("rollout", *SEARCH_FIRST)),
    # Wide decisions (each part of a D20 can go to many places): the search keeps four
    # root candidates and scores a decision of more than twelve actions as it stands
    # rather than by its best action (the money bot too, when it searches: money:1).
    "acedrex": Offer(("money", "expectimax", "mcts", "heuristic", "neural", "random"),
                     {"expectimax": "width=4:wide=12", "mcts": "40",
                      "money": "width=4:wide=12"}),
})


def offered(rules: Rules) -> Offer:
    """What ``rules`` (a game's rules) offers: its listed name's row, else its family's,
    else :data:`SEARCH_FIRST` with no settings."""
    listed = preset_name(rules.name, rules.options())
    found = OFFERS.get(listed) if listed else None
    return found or OFFERS.get(rules.name) or Offer(SEARCH_FIRST)


__all__ = ["OFFERS", "SEARCH_FIRST", "Offer", "offered"]
