"""Learned evaluation: networks per family of games and the shipped weights.

- :mod:`gammon.nn.encoders`: what a network sees of a board, from one player's side;
- :mod:`gammon.nn.network`: the multilayer perceptron, its training step, its file;
- :mod:`gammon.nn.evaluator`: a network as an evaluator the search and agents use.

Training them (self-play, a teacher) is a layer above, :mod:`gammon.training`.

The networks that ship with gammon live in ``gammon/nn/weights``: ``NAME.npz`` for the
variant (or preset) ``NAME``, with ``NAME.json`` beside it saying how it was trained
(the command, the games, the time). :func:`shipped_network` finds the one for a rules
object.
"""

from __future__ import annotations

from pathlib import Path

from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import Rules
from gammon.core.variant import registered
from gammon.nn.kinds import KINDS, sibling
from gammon.nn.network import Network

WEIGHTS = Path(__file__).resolve().parent / "weights"


def network_name(rules: Rules) -> str:
    """The name the shipped network of ``rules`` goes by: the preset whose options are
    exactly the rules' options (``hypergammon-2``, ``acey-deucey-restrictive``), else
    the variant's name (its network serves every setting of its options)."""
    cls = type(rules)
    options = rules.options()
    defaults = cls().options()
    for key, (known, preset) in registered().items():
        if known is cls and preset and {**defaults, **preset} == options:
            return key
    return str(rules.name)


def shipped_network(rules: Rules) -> Path:
    """The file of the network that ships for ``rules``; :class:`InvalidOptionError` when
    none does."""
    for name in dict.fromkeys((network_name(rules), str(rules.name))):
        path = WEIGHTS / f"{name}.npz"
        if path.exists():
            return path
    raise InvalidOptionError(
        f"no trained network ships for {rules.name}; train one with "
        f"`gammon train {rules.name}` and pass it as neural:net=FILE")


def load_network(rules: Rules, path: str | Path | None = None) -> Network:
    """The network at ``path``, or the shipped one of ``rules``; checked to be a network
    of that variant."""
    network = Network.load(path if path is not None else shipped_network(rules))
    made_for = network.meta.get("variant")
    if made_for != rules.name:
        raise InvalidOptionError(
            f"{path or 'the shipped network'} was trained for {made_for}, not {rules.name}")
    return network


def kind_networks(rules: Rules, main: Path) -> dict[str, Network]:
    """The networks of kinds of position beside the network file ``main``
    (:mod:`gammon.nn.kinds`: ``NAME.race.npz`` beside ``NAME.npz``), each checked to be
    a network of ``rules`` made for its kind."""
    found = {}
    for kind in KINDS:
        path = sibling(main, kind)
        if path.exists():
            network = load_network(rules, path)
            if network.meta.get("kind") != kind:
                raise InvalidOptionError(f"{path} is not a network of {kind} positions "
                                         f"(it says {network.meta.get('kind')!r})")
            found[kind] = network
    return found


#: The suffix of a pruning network's file beside the main one (``NAME.prune.npz``), and
#: the mark in its header.
PRUNE = "prune"


def pruning_network(rules: Rules, main: Path) -> Network | None:
    """The pruning network beside the network file ``main`` (``NAME.prune.npz``), if
    any: a small network that screens the plays inside a search, which values only the
    best few of each roll by the main one (:mod:`gammon.agents.search`). Checked to be a
    network of ``rules`` made for that."""
    path = sibling(main, PRUNE)
    if not path.exists():
        return None
    network = load_network(rules, path)
    if network.meta.get("role") != PRUNE:
        raise InvalidOptionError(f"{path} is not a pruning network (its header says role "
                                 f"{network.meta.get('role')!r}, not {PRUNE!r})")
    return network


__all__ = ["PRUNE", "WEIGHTS", "Network", "kind_networks", "load_network", "network_name",
           "pruning_network", "shipped_network"]
