"""Duels: many games between agents, seats rotated fairly, results with intervals.

``duel("backgammon", ["expectimax:2", "pubeval"], games=1000, seed=1, jobs=2)`` plays
1,000 games. Seats rotate: with ``k`` seats, game ``g`` seats the agents shifted by
``g mod k`` places, so over every block of ``k`` games each agent sits in every seat
once, and the ``k`` games of a block share one seeded dice stream (the same opening
roll, the same dice as long as the players' choices let the games run alike). That
removes the advantage of a seat and much of the luck of the dice from the comparison.

Everything is determined by ``seed``: the dice of block ``b`` come from
``seeded_rng(seed, "dice", b)`` and the agent in seat ``s`` of game ``g`` is built
with the seed ``"{seed}:{g}:{s}"``, so the results do not depend on ``jobs`` or on
``ray`` (games run in local processes or as Ray tasks, :mod:`gammon.agents.parallel`,
and are put back in order).

For each agent (distinct spec) the result has its mean points per game with a 95%
confidence interval (normal approximation: 1.96 standard errors, computed over the
blocks of games that share their dice, since those games are not independent), its win
rate per seat (a seat that finishes with the best return wins; equal best returns share
the win), and for the first two agents the mean margin between them per game with its
interval (a paired comparison over the same games).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import NamedTuple, NotRequired, TypedDict

from gammon.agents import parallel
from gammon.agents.base import Agent, seeded_rng
from gammon.agents.registry import make_agent
from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import RandomSource, Rules, State, play_on
from gammon.core.variant import TrackVariant, variant
from gammon.stakes import Match, StakeRules, cube_game

#: Actions after which a game is abandoned as unfinished (no variant needs as many).
MAX_ACTIONS = 50_000
#: z value of a two-sided 95% interval.
Z95 = 1.959963984540054

#: What a duel's games are: cubeless single games; money games with the cube (each
#: game's points, the cube's value included); whole matches with the cube (a match won
#: counts 1, lost 0, so an agent's points are its chance to win the match).
GAME, MONEY, MATCH = "game", "money", "match"
CONTESTS = (GAME, MONEY, MATCH)


@dataclass(frozen=True)
class GameResult:
    """One game of a duel: who sat where (agent index per seat), each seat's return,
    the decisions made and the seconds each seat spent choosing."""

    index: int
    seating: tuple[int, ...]
    returns: tuple[float, ...]
    decisions: tuple[int, ...]
    thinking: tuple[float, ...]
    finished: bool = True
    #: Stopped once its result for every agent was known (:func:`settled_returns`).
    settled: bool = False


class PlayedGame(NamedTuple):
    """What :func:`play_game` gives: the seats' returns, decisions and thinking seconds,
    whether the game ended (an abandoned one returns zeros), and whether it stopped
    early, once its result was known (:func:`settled_returns`)."""

    returns: tuple[float, ...]
    decisions: list[int]
    thinking: list[float]
    finished: bool
    settled: bool = False


@dataclass(frozen=True)
class Summary:
    """Mean and 95% interval of one quantity over games."""

    mean: float
    low: float
    high: float
    sd: float
    n: int

    @classmethod
    def of(cls, values: Sequence[float], block: int = 1) -> Summary:
        """The mean of per-game ``values`` and its 95% interval. Games come in blocks of
        ``block`` that share their dice (the seat rotations), so they are not
        independent: the standard error is that of the block means (a partial last
        block counts as one block). ``sd`` is the spread of single games."""
        n = len(values)
        if n == 0:
            return cls(0.0, 0.0, 0.0, 0.0, 0)
        mean = sum(values) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
        blocks = [sum(values[i : i + block]) / len(values[i : i + block])
                  for i in range(0, n, block)]
        k = len(blocks)
        if k > 1:
            center = sum(blocks) / k
            se = math.sqrt(sum((b - center) ** 2 for b in blocks) / (k - 1) / k)
        else:
            se = 0.0
        half = Z95 * se
        return cls(mean, mean - half, mean + half, sd, n)

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def as_dict(self) -> dict[str, float | list[float]]:
        return {"mean": self.mean, "ci95": [self.low, self.high],
                "half_width": self.half_width, "sd": self.sd, "n": self.n}


@dataclass
class AgentResult:
    name: str
    seats: int  # seats it holds in every game
    points: Summary
    wins: float
    win_rate: float
    seconds_per_move: float
    moves: int

    def as_dict(self) -> dict[str, object]:
        return {
            "agent": self.name, "seats": self.seats, "points": self.points.as_dict(),
            "wins": self.wins, "win_rate": self.win_rate,
            "seconds_per_move": self.seconds_per_move, "moves": self.moves,
        }


@dataclass
class DuelResult:
    variant: str
    options: dict[str, object]
    players: list[str]
    games: int
    seed: int
    jobs: int
    seconds: float
    agents: list[AgentResult]
    margin: Summary | None
    unfinished: int
    results: list[GameResult] = field(default_factory=list, repr=False)
    backend: str = "this process"
    contest: str = GAME
    length: int = 0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def as_dict(self) -> dict[str, object]:
        return {
            "variant": self.variant, "options": self.options, "players": self.players,
            "contest": self.contest, "length": self.length,
            "games": self.games, "seed": self.seed, "jobs": self.jobs,
            "backend": self.backend,
            "seconds": self.seconds, "games_per_second": self.games_per_second,
            "unfinished": self.unfinished,
            "agents": [a.as_dict() for a in self.agents],
            "margin": None if self.margin is None else {
                "first": self.agents[0].name, "second": self.agents[1].name,
                **self.margin.as_dict()},
        }


def seat_specs(specs: Sequence[str], players: int) -> list[str]:
    """The agent of each seat: ``specs`` as given, or repeated when it divides the seats
    (``A,B`` in a four-player game seats ``A,B,A,B``)."""
    specs = [s.strip() for s in specs if s.strip()]
    if not specs:
        raise InvalidOptionError("name the agents, e.g. --players heuristic,random")
    if len(specs) == players:
        return specs
    if players % len(specs) == 0:
        return specs * (players // len(specs))
    raise InvalidOptionError(
        f"this game has {players} seats: give {players} agents (or a number of agents that "
        f"divides {players}), not {len(specs)}"
    )


def seating(game: int, players: int) -> tuple[int, ...]:
    """The spec index of each seat in game ``game``: the seats' specs shifted by
    ``game mod players``."""
    shift = game % players
    return tuple((seat - shift) % players for seat in range(players))


# --- playing -----------------------------------------------------------------------------

_RULES: dict[tuple[str, tuple[tuple[str, object], ...]], Rules] = {}


def _rules(name: str, options: Mapping[str, object]) -> Rules:
    key = (name, tuple(sorted(options.items())))
    if key not in _RULES:
        _RULES[key] = variant(name, **options)
    return _RULES[key]




class _Seats:
    """The agents of a game, with each seat's decisions and thinking seconds."""

    def __init__(self, agents: Sequence[Agent]) -> None:
        self.agents = agents
        self.decisions = [0] * len(agents)
        self.thinking = [0.0] * len(agents)
        self.actions = 0

    def play(self, state: State, dice: RandomSource, max_actions: int,
             series: Match | None = None, settled: Callable[[State], bool] | None = None
             ) -> tuple[State, bool]:
        """Play ``state`` to its end (each step through ``series.apply`` when the game is
        a match's), or until ``settled(state)`` holds at a decision: the last state, and
        whether it ended (or settled) before ``max_actions`` actions in all."""
        def stop(now: State) -> bool:
            return self.actions >= max_actions or (settled is not None and settled(now))

        last = play_on(state, dice, self.choose, until=stop,
                       apply=None if series is None else series.apply)
        return last, last.is_terminal or (settled is not None and settled(last))

    def choose(self, state: State) -> object:
        """The seat's action (a forced one without asking), timed and counted."""
        player = state.current_player
        assert player is not None  # play_on asks at decisions only
        legal = state.legal_actions()
        self.actions += 1
        if len(legal) == 1:
            return legal[0]
        began = time.perf_counter()
        action = self.agents[player].choose(state)
        self.thinking[player] += time.perf_counter() - began
        self.decisions[player] += 1
        return action


def settled_returns(state: State, owners: Sequence[int]) -> tuple[float, ...] | None:
    """What a duel needs of a game not over yet whose result is known for every agent
    (``owners``: the agent of each seat), or None. That is so in a game whose money
    sums to zero (Acedrex's, whose ``settled_returns`` give the money of the players who
    resigned, final once they leave) when every player still in it is the same agent's:
    the agents' totals are then those of the end. The seats left get equal shares: the
    duel reads totals per agent, not seat by seat. So are the wins where every seat that
    left did so at a loss (one who left at a loss cannot have the best return, since
    someone must hold more than nothing); a seat that left with nothing lost or with a
    gain is counted against the shares of the seats left (it wins when it holds more
    than each of them would on average), which is all the game says before its end."""
    known = getattr(state, "settled_returns", None)
    if known is None:
        return None
    values = known()
    playing = [seat for seat, value in enumerate(values) if value is None]
    if not playing or len({owners[seat] for seat in playing}) != 1:
        return None
    share = -sum(value for value in values if value is not None) / len(playing)
    return tuple(share if value is None else float(value) for value in values)


def play_game(rules: Rules, agents: Sequence[Agent], dice: RandomSource,
              max_actions: int = MAX_ACTIONS, contest: str = GAME, length: int = 0,
              owners: Sequence[int] | None = None) -> PlayedGame:
    """One game (or one money game with the cube, or one match to ``length``, as
    ``contest`` says): ``agents[p]`` plays seat ``p``; chance from ``dice`` (a
    ``random.Random``); :class:`PlayedGame` says how it went. With ``owners`` (the agent
    of each seat) a game stops as soon as :func:`settled_returns` knows its result."""
    seats = _Seats(agents)
    zero = (0.0,) * len(agents)
    # duel() lets two-player games with the cube alone into money play and matches: the
    # stakes layer's games, on a track.
    if contest == MATCH:
        assert isinstance(rules, TrackVariant)
        match = Match(rules, length, StakeRules(cube=True))
        while not match.is_over:
            _, finished = seats.play(match.new_game(), dice, max_actions, match)
            if not finished:
                return PlayedGame(zero, seats.decisions, seats.thinking, False)
        returns: tuple[float, ...] = tuple(float(p == match.winner) for p in range(2))
        return PlayedGame(returns, seats.decisions, seats.thinking, True)
    start: State
    if contest == MONEY:
        assert isinstance(rules, TrackVariant)
        start = cube_game(rules, StakeRules(cube=True))
    else:
        start = rules.initial_state()

    def settled(now: State) -> bool:
        return owners is not None and settled_returns(now, owners) is not None

    state, finished = seats.play(start, dice, max_actions, settled=settled)
    if not finished:
        return PlayedGame(zero, seats.decisions, seats.thinking, False)
    if not state.is_terminal:
        known = settled_returns(state, owners or ())
        assert known is not None  # what stopped the game
        return PlayedGame(known, seats.decisions, seats.thinking, True, True)
    return PlayedGame(tuple(float(r) for r in state.returns()), seats.decisions,
                      seats.thinking, True)


def _play_one(job: tuple[str, dict[str, object], list[str], int, int, int, str, int]
              ) -> GameResult:
    name, options, specs, game, seed, max_actions, contest, length = job
    rules = _rules(name, options)
    players = len(specs)
    order = seating(game, players)
    agents = [make_agent(specs[order[s]], rules, f"{seed}:{game}:{s}") for s in range(players)]
    dice = seeded_rng(seed, "dice", game // players)
    owners = [specs.index(specs[order[s]]) for s in range(players)]
    played = play_game(rules, agents, dice, max_actions, contest, length, owners)
    return GameResult(game, order, played.returns, tuple(played.decisions),
                      tuple(played.thinking), played.finished, played.settled)


def _play_some(shared: tuple[str, dict[str, object], list[str], int, int, str, int],
               games: tuple[int, ...]) -> list[GameResult]:
    """The games numbered ``games`` of a duel: one task of :func:`duel`."""
    name, options, specs, seed, max_actions, contest, length = shared
    return [_play_one((name, options, specs, g, seed, max_actions, contest, length))
            for g in games]


class JournalHeader(TypedDict):
    """The first line of a duel's journal: the duel it is of."""

    variant: str
    options: dict[str, object]
    players: list[str]
    seed: int
    #: Written for money play and matches only (a cubeless duel's journal reads as it
    #: always did).
    contest: NotRequired[str]
    length: NotRequired[int]


def read_journal(path: Path) -> tuple[JournalHeader, dict[int, GameResult]]:
    """A duel's journal (:class:`Journal`): its header and the games written so far by
    number (a last line cut short is left out)."""
    lines = path.read_text().splitlines()
    header: JournalHeader | None
    try:
        header = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or "variant" not in header:
        raise InvalidOptionError(f"{path} is not a duel's journal (its first line should "
                                 "name the duel): name another file")
    results = {}
    for line in lines[1:]:
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            break  # a line cut short when the duel was stopped: played again
        results[row["index"]] = GameResult(
            row["index"], tuple(row["seating"]), tuple(row["returns"]),
            tuple(row["decisions"]), tuple(row["thinking"]), row["finished"],
            row.get("settled", False))
    return header, results


def journal_summary(path: Path) -> DuelResult:
    """The summary of the games in a duel's journal, for a duel still under way."""
    header, results = read_journal(path)
    rules = _rules(header["variant"], header["options"])
    return summarise(rules, header["players"], sorted(results.values(), key=lambda r: r.index),
                     header["seed"], 0, 0.0, header.get("contest", GAME),
                     header.get("length", 0))


class Journal:
    """A duel's games so far, one JSON line each after a header naming the duel, so that
    a long duel stopped part way goes on where it stopped (``duel(..., journal=path)``).
    A journal of another duel (variant, options, seats or seed) is refused."""

    def __init__(self, path: Path, header: dict[str, object]) -> None:
        self.path = path
        self.results: dict[int, GameResult] = {}
        header = json.loads(json.dumps(header))  # as it reads back: tuples become lists
        if path.exists() and path.stat().st_size:
            found, self.results = read_journal(path)
            if found != header:
                differ = "; ".join(f"{key} {found.get(key)} there, {header[key]} here"
                                   for key in header if found.get(key) != header[key])
                raise InvalidOptionError(
                    f"{path} is the journal of another duel ({differ}): name another "
                    "file, or delete it to start again")
            path.write_text("".join(line + "\n" for line in
                                    [json.dumps(header)] + [json.dumps(asdict(r))
                                                            for r in self.results.values()]))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(header) + "\n")

    def add(self, results: list[GameResult]) -> None:
        with self.path.open("a") as file:
            for result in results:
                self.results[result.index] = result
                file.write(json.dumps(asdict(result)) + "\n")


def duel(variant: Rules, specs: Sequence[str], games: int, seed: int = 0, jobs: int = 1,
         progress: Callable[[int, int], None] | None = None,
         max_actions: int = MAX_ACTIONS, ray: str | None = None,
         journal: Path | None = None, contest: str = GAME, length: int = 0) -> DuelResult:
    """Play ``games`` games of ``variant`` (a name or rules object) between the agents
    ``specs`` (one per seat, or a list that divides the seats) and summarise them.
    ``contest`` says what a game is (:data:`CONTESTS`): a cubeless game, a money game
    with the cube, or a whole match to ``length`` points with the cube.

    ``jobs`` processes play games side by side (1: in this process); with ``ray`` (an
    address, or ``"local"``) the games are Ray tasks instead
    (:func:`gammon.agents.parallel.run_tasks`). The games are the same either way.
    ``progress`` is called with (games done, games) as results come in. With
    ``journal`` (a file) each game is written down as it ends and the games already
    there are not played again (:class:`Journal`); the seconds are this run's only.
    """
    rules = _rules(variant, {}) if isinstance(variant, str) else variant
    players = rules.players
    seats = seat_specs(specs, players)
    for spec in dict.fromkeys(seats):  # fail early on a bad spec or variant
        make_agent(spec, rules, 0)
    if games < 1:
        raise InvalidOptionError("play at least one game")
    if contest not in CONTESTS:
        raise InvalidOptionError(f"a duel plays {', '.join(CONTESTS)}, not {contest!r}")
    if contest != GAME and (players != 2 or not rules.cube):
        raise InvalidOptionError(f"money play and matches with the cube are for two-player "
                                 f"games with a cube; {rules.name} is not one")
    if contest == MATCH and not 1 <= length <= 25:
        raise InvalidOptionError(f"a match is to 1 to 25 points, not {length}")
    if contest != MATCH:
        length = 0
    options = rules.options()
    jobs = max(1, min(jobs, games))
    began = time.perf_counter()
    # Every game has its own seeds, so how the games are cut into tasks changes only
    # the speed: a few games a task, to pay each task's overhead less often.
    side_by_side = parallel.workers(jobs, ray)
    chunk = 1 if side_by_side == 1 else max(1, min(8, games // (side_by_side * 8)))
    header: dict[str, object] = {"variant": rules.name, "options": options, "players": seats,
                                 "seed": seed}
    if contest != GAME:  # a cubeless duel's journal reads as it always did
        header.update(contest=contest, length=length)
    book = None if journal is None else Journal(journal, header)
    kept = {} if book is None else {g: r for g, r in book.results.items() if g < games}
    missing = [g for g in range(games) if g not in kept]
    tasks = [tuple(missing[i : i + chunk]) for i in range(0, len(missing), chunk)]
    played = len(kept)

    def done(_: int, part: list[GameResult]) -> None:
        nonlocal played
        played += len(part)
        if book is not None:
            book.add(part)
        if progress:
            progress(played, games)

    parts = parallel.run_tasks(_play_some, tasks, jobs, ray,
                               shared=(rules.name, options, seats, seed, max_actions,
                                       contest, length),
                               done=done) if tasks else []
    seconds = time.perf_counter() - began
    results = sorted([*kept.values(), *(r for part in parts for r in part)],
                     key=lambda r: r.index)
    summary = summarise(rules, seats, results, seed, side_by_side, seconds, contest, length)
    summary.backend = parallel.describe(jobs, ray)
    return summary


def summarise(rules: Rules, seats: list[str], results: list[GameResult], seed: int, jobs: int,
              seconds: float, contest: str = GAME, length: int = 0) -> DuelResult:
    """Per-agent means, intervals and win rates of a list of games."""
    names = list(dict.fromkeys(s.lower() for s in seats))
    index_of = [names.index(s.lower()) for s in seats]
    per_game: list[list[float]] = [[] for _ in names]
    wins = [0.0] * len(names)
    moves = [0] * len(names)
    think = [0.0] * len(names)
    holds = [index_of.count(e) for e in range(len(names))]
    for result in results:
        total = [0.0] * len(names)
        best = max(result.returns)
        winners = [s for s, r in enumerate(result.returns) if r == best]
        for seat, value in enumerate(result.returns):
            entry = index_of[result.seating[seat]]
            total[entry] += value
            moves[entry] += result.decisions[seat]
            think[entry] += result.thinking[seat]
            if result.finished and seat in winners:
                wins[entry] += 1.0 / len(winners)
        for e in range(len(names)):
            per_game[e].append(total[e] / holds[e])
    block = len(seats)
    agents = [
        AgentResult(
            name, holds[e], Summary.of(per_game[e], block), wins[e],
            wins[e] / (holds[e] * len(results)) if results else 0.0,
            think[e] / moves[e] if moves[e] else 0.0, moves[e],
        )
        for e, name in enumerate(names)
    ]
    margin = None
    if len(names) >= 2:
        margin = Summary.of([a - b for a, b in zip(per_game[0], per_game[1], strict=True)],
                            block)
    return DuelResult(
        rules.name, rules.options(), seats, len(results), seed, jobs, seconds, agents, margin,
        sum(1 for r in results if not r.finished), results, contest=contest, length=length,
    )
