"""Agents by name: ``kind[:option[:option...]]``, the same on the command line and in
Python.

``make_agent("expectimax:2", "backgammon", seed=1)`` builds an agent. The first option
is the kind's main setting (search depth, MCTS iterations, gnubg plies); further
options are ``name=value``. Options are separated by ``:`` so that a list of agents can
be written with commas (``--players expectimax:2,pubeval``).

=================  ======================================================  ==========
kind               what it is                                              variants
=================  ======================================================  ==========
``random``         uniform over the legal actions                          all
``heuristic``      best action by the variant's heuristic evaluator        all
``expectimax:D``   looks D rolls ahead (default 2 in the two-player track  all
                   games, 1 elsewhere); ``width=W`` root candidates
                   (default 8; 4 in Long Nardy, acey-deucey, Acedrex);
                   ``cutoff=X`` skips candidates X points behind the best
                   (default 0.16 in the two-player track games of 15
                   checkers)
``mcts:N``         Monte Carlo tree search, N iterations (default 400;     all
                   acey-deucey 150, Acedrex 40), chance nodes, max-n; ``c=``
                   exploration, ``rollout=random`` to value new leaves
                   by random playouts instead of the evaluator
``money:D``        plays for the money with the end in view: expectimax   Acedrex
                   to D rolls (default 0) on the variant's evaluation of
                   the money a game pays when it ends; resigns when
                   behind with more to lose, and settles a game with
                   nothing pending from turn 100 (``settle=N``);
                   ``pace=``, ``initiative=``, ``offer=`` its
                   evaluation's settings
``neural:P``       the variant's trained network (:mod:`gammon.nn`), at P  all
                   plies of expectimax on it (default 0: the best play by
                   the network); ``width=``, ``cutoff=`` as expectimax;
                   ``net=FILE`` another network of the variant;
                   ``prune=no`` values every play inside the search
                   in full (default: screened by the pruning network
                   where one ships, backgammon's)
``pubeval``        Tesauro's public evaluation function                    backgammon
                                                                           board
``gnubg:P``        GNU Backgammon at P plies (default 0); ``noise=X``      backgammon
``perfect``        the exact values of every position: perfect checker    hypergammon
                   play (cubeless); its cube decisions from the exact      (3 checkers
                   chances                                                 after
                                                                           ``gammon
                                                                           solve 3``)
=================  ======================================================  ==========
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gammon.agents.base import Agent, seeded_rng
from gammon.agents.offered import offered
from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import Rules

#: What seeds a bot: an integer, a string (salted further per use), or None.
Seed = int | str | None


@dataclass(frozen=True)
class AgentKind:
    """A kind of agent: its name, what it is, its main option and its default."""

    name: str
    summary: str
    option: str = ""
    default: str = ""
    build: Callable[..., Agent] | None = None
    #: The ``name=value`` options it takes besides the main setting, in words.
    options: str = ""
    #: ... and their names.
    option_names: tuple[str, ...] = ()
    #: Whether what it needs is on this machine for ``rules`` (None: always).
    ready: Callable[[Rules], bool] | None = None

    def supports(self, rules: Rules) -> bool:
        """Whether it plays ``rules``: the game's row of :mod:`gammon.agents.offered`
        lists the kinds it is played by (the variant's own bot, ``default``, plays them
        all)."""
        return self.name == DEFAULT or self.name in offered(rules).bots

    def is_ready(self, rules: Rules) -> bool:
        return self.supports(rules) and (self.ready is None or self.ready(rules))


def _rules(variant: Rules | str) -> Rules:
    if isinstance(variant, str):
        from gammon.core.variant import variant as get_variant

        return get_variant(variant)
    return variant


def parse_spec(spec: str) -> tuple[str, list[str], dict[str, str]]:
    """``"gnubg:1:noise=0.02"`` -> ``("gnubg", ["1"], {"noise": "0.02"})``."""
    parts = [part.strip() for part in spec.strip().split(":")]
    kind = parts[0].lower()
    positional: list[str] = []
    named: dict[str, str] = {}
    for part in parts[1:]:
        if not part:
            continue
        key, sep, value = part.partition("=")
        if sep:
            named[key.strip().lower()] = value.strip()
        else:
            if named:
                raise InvalidOptionError(
                    f"agent {spec!r}: write the main setting first, then name=value options")
            positional.append(part)
    return kind, positional, named


def _number(spec: str, what: str, text: str, kind: type = int) -> Any:
    try:
        return kind(text)
    except ValueError:
        raise InvalidOptionError(f"agent {spec!r}: {what} is a number, not {text!r}") from None


def _only(spec: str, named: dict[str, str], allowed: tuple[str, ...]) -> None:
    for key in named:
        if key not in allowed:
            known = ", ".join(allowed) or "none"
            raise InvalidOptionError(f"agent {spec!r} has no option {key!r}; its options: {known}")


def _random(spec: str, rules: Rules, seed: Seed, pos: list[str], named: dict[str, str],
        name: str) -> Agent:
    from gammon.agents.players import RandomAgent

    if pos:
        raise InvalidOptionError(f"agent {spec!r}: random takes no setting")
    return RandomAgent(seeded_rng(seed, "random"), name=name)


def _heuristic(spec: str, rules: Rules, seed: Seed, pos: list[str], named: dict[str, str],
        name: str) -> Agent:
    from gammon.agents.players import HeuristicAgent

    if pos:
        raise InvalidOptionError(f"agent {spec!r}: heuristic takes no setting")
    return HeuristicAgent(rules, name=name)


def with_defaults(rules: Rules, kind: str, positional: list[str],
                  named: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """A bot's settings with the game's defaults for its kind (its row of
    :mod:`gammon.agents.offered`) under the ones given: the main setting given wins, and
    each ``name=value`` given replaces the game's."""
    default = offered(rules).options.get(kind)
    if default is None:
        return positional, named
    _, base_positional, base_named = parse_spec(f"{kind}:{default}")
    return positional or base_positional, {**base_named, **named}


def default_depth(rules: Rules) -> int:
    """Expectimax's default depth: 2 where the compiled board search applies (two-player
    track games with alternating turns), else 1."""
    from gammon.agents.search import board_search_applies

    return 2 if board_search_applies(rules) else 1


#: Root candidates expectimax searches beyond depth 0, unless the variant says fewer
#: (its decisions are wide: Long Nardy's fifteen checkers that never leave the board,
#: acey-deucey's entering checkers, Acedrex's parts of a D20, and a move must stay
#: under a second).
DEFAULT_WIDTH = 8


def default_cutoff(rules: Any) -> float | None:
    """How far behind the best (in points) a root candidate may be and still be searched:
    0.16, as gnubg's default move filter, in the two-player track games of fifteen
    checkers, whose many plays make a search costly and whose evaluator is fitted well;
    None (every one of the ``width`` best) elsewhere. Hypergammon's few plays are cheap
    to search all, and its depth-0 scores are rough: with one checker a side the cutoff
    cost expectimax:2 most of its edge (+0.013 points a game over the heuristic against
    +0.036 without, 40,000 games each)."""
    from gammon.agents.search import board_search_applies

    if board_search_applies(rules) and rules.checkers >= 15:
        return 0.16
    return None


def _expectimax(spec: str, rules: Rules, seed: Seed, pos: list[str], named: dict[str, str],
        name: str) -> Agent:
    from gammon.agents.players import ExpectimaxAgent

    depth_text = pos[0] if pos else named.get("depth")
    depth = default_depth(rules) if depth_text is None else _number(spec, "depth", depth_text)
    if not 0 <= depth <= 3:
        raise InvalidOptionError(f"agent {spec!r}: expectimax depth is 0 to 3")
    width, cutoff = _filter(spec, rules, named)
    wide = _number(spec, "wide", named["wide"]) if "wide" in named else None
    if wide is not None and wide < 1:
        raise InvalidOptionError(f"agent {spec!r}: wide is at least 1")
    return ExpectimaxAgent(rules, depth=depth, width=width, name=name, cutoff=cutoff,
                           wide=wide)


def _filter(spec: str, rules: Rules, named: dict[str, str]) -> tuple[int, float | None]:
    """A search's move filter: ``width`` root candidates, ``cutoff`` points behind."""
    width = _number(spec, "width", named.get("width", str(DEFAULT_WIDTH)))
    if width < 1:
        raise InvalidOptionError(f"agent {spec!r}: width is at least 1")
    cutoff = default_cutoff(rules)
    if "cutoff" in named:
        cutoff = _number(spec, "cutoff", named["cutoff"], float)
        if cutoff < 0:
            raise InvalidOptionError(f"agent {spec!r}: cutoff is 0 or more")
    return width, cutoff


def _money(spec: str, rules: Any, seed: Seed, pos: list[str], named: dict[str, str],
           name: str) -> Agent:
    from gammon.agents.players import SETTLE_AFTER, MoneyAgent
    from gammon.evaluators import EVALUATORS

    depth_text = pos[0] if pos else named.get("depth", "0")
    depth = _number(spec, "depth", depth_text)
    if not 0 <= depth <= 2:
        raise InvalidOptionError(f"agent {spec!r}: money depth is 0 to 2")
    width, cutoff = _filter(spec, rules, named)
    wide = _number(spec, "wide", named["wide"]) if "wide" in named else None
    if wide is not None and wide < 1:
        raise InvalidOptionError(f"agent {spec!r}: wide is at least 1")
    evaluator = EVALUATORS[rules.money_evaluator](rules)
    if "pace" in named:
        pace = _number(spec, "pace", named["pace"], float)
        if not 0 <= pace <= 1:
            raise InvalidOptionError(f"agent {spec!r}: pace is 0 to 1 captures a turn")
        evaluator.pace = pace
    if "initiative" in named:
        initiative = _number(spec, "initiative", named["initiative"], float)
        if not 0 <= initiative <= 1:
            raise InvalidOptionError(f"agent {spec!r}: initiative is 0 to 1 captures")
        evaluator.initiative = initiative
    if "offer" in named:
        offer = _number(spec, "offer", named["offer"], float)
        if not 0 <= offer <= 1:
            raise InvalidOptionError(f"agent {spec!r}: offer is 0 to 1 captures")
        evaluator.offer = offer
    settle = SETTLE_AFTER
    if "settle" in named:
        settle = _number(spec, "settle", named["settle"])
        if settle < 0:
            raise InvalidOptionError(f"agent {spec!r}: settle is a turn, 0 or more (0: never)")
    return MoneyAgent(rules, depth=depth, width=width, name=name, cutoff=cutoff,
                      wide=wide, evaluator=evaluator, settle=settle)


def _neural(spec: str, rules: Rules, seed: Seed, pos: list[str], named: dict[str, str],
            name: str) -> Agent:
    from gammon.agents.players import ExpectimaxAgent
    from gammon.nn.evaluator import load_evaluator

    plies = _number(spec, "plies", pos[0] if pos else named.get("plies", "0"))
    if not 0 <= plies <= 3:
        raise InvalidOptionError(f"agent {spec!r}: neural plies are 0 to 3")
    width, cutoff = _filter(spec, rules, named)
    prune = named.get("prune", "yes").lower()
    if prune not in ("yes", "no"):
        raise InvalidOptionError(f"agent {spec!r}: prune is 'yes' or 'no', not {prune!r}")
    evaluator = load_evaluator(rules, named.get("net"), prune=prune == "yes")
    return ExpectimaxAgent(rules, depth=plies, width=width, cutoff=cutoff,
                           evaluator=evaluator, name=name)


def _mcts(spec: str, rules: Rules, seed: Seed, pos: list[str], named: dict[str, str],
        name: str) -> Agent:
    from gammon.agents.mcts import DEFAULT_ITERATIONS, MCTSAgent

    text = pos[0] if pos else named.get("iterations")
    iterations = DEFAULT_ITERATIONS if text is None else _number(spec, "iterations", text)
    if iterations < 1:
        raise InvalidOptionError(f"agent {spec!r}: at least one iteration")
    c = _number(spec, "c", named.get("c", "1.0"), float)
    rollout = named.get("rollout", "no").lower()
    if rollout not in ("no", "random"):
        raise InvalidOptionError(f"agent {spec!r}: rollout is 'random' or 'no'")
    return MCTSAgent(rules, iterations=iterations, exploration=c,
                     rng=seeded_rng(seed, "mcts"), name=name, rollouts=rollout == "random")


def _rollout(spec: str, rules: Rules, seed: Seed, pos: list[str], named: dict[str, str],
        name: str) -> Agent:
    from gammon.agents.rollout import DEFAULT_GAMES, RolloutAgent

    text = pos[0] if pos else named.get("games")
    games = DEFAULT_GAMES if text is None else _number(spec, "games", text)
    width = _number(spec, "width", named.get("width", "8"))
    if games < 1 or width < 1:
        raise InvalidOptionError(f"agent {spec!r}: games and width are at least 1")
    policy = named.get("policy", "greedy").lower()
    if policy not in ("random", "greedy"):
        raise InvalidOptionError(f"agent {spec!r}: policy is 'random' or 'greedy'")
    return RolloutAgent(rules, games=games, width=width, rng=seeded_rng(seed, "rollout"),
                        name=name, greedy=policy == "greedy")


def _pubeval(spec: str, rules: Rules, seed: Seed, pos: list[str], named: dict[str, str],
        name: str) -> Agent:
    from gammon.agents.pubeval import PubevalAgent

    if pos:
        raise InvalidOptionError(f"agent {spec!r}: pubeval takes no setting")
    return PubevalAgent(rules, name=name)


def _perfect(spec: str, rules: Rules, seed: Seed, pos: list[str], named: dict[str, str],
             name: str) -> Agent:
    from gammon.agents.players import ExpectimaxAgent
    from gammon.evaluators.exact import ExactEvaluator

    if pos:
        raise InvalidOptionError(f"agent {spec!r}: perfect takes no setting")
    return ExpectimaxAgent(rules, depth=0, evaluator=ExactEvaluator(rules), name=name)


def _solved(rules: Any) -> bool:
    from gammon.evaluators.exact import is_solved

    return is_solved(int(rules.checkers_per_side))


def _network_ships(rules: Rules) -> bool:
    from gammon.nn import shipped_network

    try:
        shipped_network(rules)
    except InvalidOptionError:
        return False
    return True


def _default(spec: str, rules: Rules, seed: Seed, pos: list[str], named: dict[str, str],
             name: str) -> Agent:
    if pos:
        raise InvalidOptionError(f"agent {spec!r}: default takes no setting (it is the "
                                 "variant's own bot with the variant's settings)")
    return make_agent(default_bot(rules), rules, seed)


def _gnubg(spec: str, rules: Rules, seed: Seed, pos: list[str], named: dict[str, str],
        name: str) -> Agent:
    from gammon.agents.gnubg import GnubgAgent

    text = pos[0] if pos else named.get("plies", "0")
    plies = _number(spec, "plies", text)
    noise = _number(spec, "noise", named.get("noise", "0"), float)
    if not 0 <= plies <= 4:
        raise InvalidOptionError(f"agent {spec!r}: gnubg plies are 0 to 4")
    if noise < 0:
        raise InvalidOptionError(f"agent {spec!r}: noise is 0 or more")
    return GnubgAgent(rules, plies=plies, noise=noise, name=name)


#: The kind that stands for each variant's own bot.
DEFAULT = "default"

KINDS: dict[str, AgentKind] = {
    kind.name: kind
    for kind in (
        AgentKind("random", "uniform over the legal actions", build=_random),
        AgentKind("heuristic", "best action by the variant's heuristic evaluator",
                  build=_heuristic),
        AgentKind("expectimax", "looks ahead over rolls (exact probabilities) on the "
                  "heuristic", "depth", "2 (two-player track games), else 1",
                  build=_expectimax, option_names=("width", "depth", "cutoff", "wide"),
                  options="width=W root candidates (8; 4 in long-nardy, acey-deucey, "
                  "acedrex), cutoff=X points behind the best not searched (0.16 in "
                  "two-player track games of 15 checkers), wide=N decisions of more "
                  "than N actions inside the tree scored as they stand (12 in acedrex)"),
        AgentKind("money", "plays for the money with the end in view: expectimax on the "
                  "variant's evaluation of the money expected when the game ends (turn cap, "
                  "captures that end it, scores)", "depth", "0", build=_money,
                  option_names=("depth", "width", "cutoff", "wide", "pace", "initiative", "offer",
                                "settle"),
                  options="width=, cutoff=, wide= as expectimax; pace=X captures a player "
                  "is expected to make a turn (0), initiative=X what a fight is worth "
                  "to an attacker who is not ahead, in captures (0), offer=X what a "
                  "lone piece in the jackpot is worth to them (0), settle=N the turn from "
                  "which it settles a game with nothing pending (100; 0 never)"),
        AgentKind("neural", "the variant's trained network; at 1-3 plies expectimax on it",
                  "plies", "0", build=_neural,
                  option_names=("plies", "width", "cutoff", "net", "prune"),
                  ready=_network_ships,
                  options="width=W and cutoff=X as expectimax, net=FILE a network of "
                  "`gammon train` instead of the shipped one, prune=no every play "
                  "inside the search valued by the full network"),
        AgentKind("mcts", "Monte Carlo tree search with chance nodes, max-n values",
                  "iterations", "400 (acey-deucey 150, Acedrex 40)", build=_mcts,
                  option_names=("c", "iterations", "rollout"),
                  options="c=exploration (1.0), rollout=random to value new leaves by "
                  "random games"),
        AgentKind("rollout", "compiled games played on from each candidate, successive "
                  "halving", "games per candidate", "4000", build=_rollout,
                  option_names=("games", "width", "policy"),
                  options="width=W candidates by the heuristic (8), policy=greedy|random "
                  "who plays the games (greedy)"),
        AgentKind("pubeval", "Tesauro's public evaluation function (1993)",
                  build=_pubeval),
        AgentKind("gnubg", "GNU Backgammon through its embedded Python", "plies", "0",
                  build=_gnubg, option_names=("noise", "plies"),
                  options="noise=X evaluation noise (0)"),
        AgentKind(DEFAULT, "the variant's own bot, the one `gammon play` seats (its first "
                  "ready bot, with the variant's settings): in a match of several games "
                  "in turn (tavli) each game's own", build=_default),
        AgentKind("perfect", "the exact value of every position (hypergammon, solved: one "
                  "and two checkers ship, `gammon solve 3` builds three)", build=_perfect,
                  ready=_solved),
    )
}


def agent_kinds() -> list[AgentKind]:
    """Every kind of agent, in the order of :data:`KINDS`."""
    return list(KINDS.values())


def default_bot(variant: Rules | str) -> str:
    """The bot that leads ``variant``'s list and can play here: the first of the bots
    it is offered (:mod:`gammon.agents.offered`) whose kind is ready (a solved game's
    perfect player once its table is on this machine, the next one until then)."""
    rules = _rules(variant)
    return next(name for name in offered(rules).bots
                if name not in KINDS or KINDS[name].is_ready(rules))


def supported(spec: str, variant: Rules | str) -> bool:
    """Whether the agent ``spec`` plays ``variant``."""
    kind, _, _ = parse_spec(spec)
    return kind in KINDS and KINDS[kind].supports(_rules(variant))


def make_agent(spec: str, variant: Rules | str, seed: Seed = None) -> Any:
    """The agent named ``spec`` (``kind[:option...]``) for ``variant`` (a rules object
    or a variant name), seeded with ``seed`` (None: unseeded).

    Raises :class:`InvalidOptionError` for an unknown kind, a bad option, or a variant
    the kind does not play, with a message that says what is possible.
    """
    kind, positional, named = parse_spec(spec)
    if kind == "human":
        raise InvalidOptionError("'human' is a seat for a person, not a bot")
    if kind not in KINDS:
        raise InvalidOptionError(
            f"unknown agent {spec!r}; known agents: {', '.join(KINDS)} "
            "(e.g. expectimax:2, mcts:2000, gnubg:0)"
        )
    rules = _rules(variant)
    entry = KINDS[kind]
    if not entry.supports(rules):
        raise InvalidOptionError(f"agent {kind} does not play {rules.name}")
    assert entry.build is not None
    # Named by what was asked for: the kind alone when no setting was given.
    name = kind if not positional and not named else spec.strip().lower()
    _only(spec, named, entry.option_names)  # before the variant's defaults join them
    positional, named = with_defaults(rules, kind, positional, named)
    return entry.build(spec, rules, seed, positional, named, name)
