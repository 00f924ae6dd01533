"""Tournaments: what they are and how their rounds are paired, without the database
(:mod:`gammon.web.director` runs them).

Three kinds:

- **Swiss** (``swiss``): a fixed number of rounds (by default enough to find a winner
  among the players, ⌈log2 n⌉), every player in every round. A round pairs the players
  by score, then rating, then the order they joined, each with the next one below them
  they have not met (a search that goes back when the last ones have all met: no pair
  meets twice while that can be avoided). With an odd number, the lowest-ranked
  player who has had no bye sits out with a point. A win is a point; the standings
  break ties by the opponents' scores summed (Buchholz), then rating.
- **Knockout** (``knockout``): the players still in, seeded by rating, the first
  against the last, the second against the one before, and so on; with an odd number
  the best seed goes through with a bye. A loss puts a player out; the last one in wins.
  A win or a bye is a point, so the standings read how far each went.
- **Arena** (``arena``): for a number of minutes, everyone present plays as many matches
  as they can, paired again as soon as their match is over with another player free at
  that moment, the nearest in the standings, not the one just met when another is
  free. Scored as PlayStrategy's arenas score backgammon: a win is 2 points, a loss
  none, and a win after two wins in a row (a player "on fire") 4.

A player who does not come to their table within the show time
(``[limits] tournament_show_seconds``) loses that match by forfeit (both, if neither
comes). A forfeit is never rated.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from gammon.core.errors import InvalidOptionError
from gammon.core.variant import variant, variant_names
from gammon.stakes.match import ROTATIONS
from gammon.table.clock import time_control

SWISS, KNOCKOUT, ARENA = "swiss", "knockout", "arena"
KINDS = (SWISS, KNOCKOUT, ARENA)
#: A pairing of nobody: the second of a bye.
BYE = None


@dataclass(frozen=True)
class Entry:
    """A player in a tournament, as its row says."""

    user_id: int
    name: str
    rating: float
    joined: float
    score: float = 0.0
    out: bool = False  # a knockout's loser, or withdrawn
    byes: int = 0
    streak: int = 0  # an arena's wins in a row


@dataclass(frozen=True)
class Game:
    """A match of a tournament (``second`` None: a bye), and who won it once known
    (``winner`` None while it is played; -1: nobody, neither came)."""

    round: int
    first: int
    second: int | None
    table_id: str = ""
    winner: int | None = None
    forfeit: bool = False

    def opponent(self, user_id: int) -> int | None:
        return self.second if self.first == user_id else self.first


def rounds_for(players: int) -> int:
    """A Swiss tournament's rounds when its maker leaves them to us."""
    return max(1, math.ceil(math.log2(max(players, 2))))


def ranked(entries: Iterable[Entry]) -> list[Entry]:
    """Best first: score, rating, then who joined first."""
    return sorted(entries, key=lambda e: (-e.score, -e.rating, e.joined, e.user_id))


def met(games: Iterable[Game]) -> set[frozenset[int]]:
    return {frozenset((g.first, g.second)) for g in games if g.second is not None}


def swiss_round(entries: list[Entry], games: list[Game]) -> list[tuple[int, int | None]]:
    """The next Swiss round's pairs (module text), a bye last."""
    players = ranked(e for e in entries if not e.out)
    pairs: list[tuple[int, int | None]] = []
    if len(players) % 2:
        had_bye = {g.first for g in games if g.second is None}
        sitting = next((e for e in reversed(players) if e.user_id not in had_bye),
                       players[-1])
        players.remove(sitting)
        pairs.append((sitting.user_id, BYE))
    seen = met(games)
    found = _pair_down([e.user_id for e in players], seen)
    if found is None:  # everyone has met everyone they could: meet again, by rank
        ids = [e.user_id for e in players]
        found = list(zip(ids[::2], ids[1::2], strict=True))
    return [*found, *pairs]


def _pair_down(ids: list[int], seen: set[frozenset[int]]) -> list[tuple[int, int | None]] | None:
    """Each of ``ids`` (ranked) with the next below not yet met, going back as needed;
    None when no such pairing exists. Iterative (a stack of choices)."""
    if not ids:
        return []
    # Each frame: the players left, the pairs so far, and the next candidate to try.
    stack: list[tuple[list[int], list[tuple[int, int | None]], int]] = [(ids, [], 1)]
    while stack:
        left, pairs, candidate = stack.pop()
        if not left:
            return pairs
        first = left[0]
        for k in range(candidate, len(left)):
            if frozenset((first, left[k])) not in seen:
                stack.append((left, pairs, k + 1))  # the choice after this one
                rest = left[1:k] + left[k + 1:]
                stack.append((rest, [*pairs, (first, left[k])], 1))
                break
    return None


def knockout_round(entries: list[Entry]) -> list[tuple[int, int | None]]:
    """The next knockout round's pairs: the best seed against the worst (module text)."""
    players = sorted((e for e in entries if not e.out),
                     key=lambda e: (-e.rating, e.joined, e.user_id))
    bye = players.pop(0) if len(players) % 2 else None
    pairs: list[tuple[int, int | None]] = []
    while players:
        pairs.append((players.pop(0).user_id, players.pop().user_id))
    if bye is not None:
        pairs.append((bye.user_id, BYE))
    return pairs


def arena_pairs(free: list[Entry], last_opponent: dict[int, int]) -> list[tuple[int, int]]:
    """Pairs of the arena's free players: each, best first, with the nearest below in the
    standings that is not the one it just met (that one only when no other is free)."""
    order = [e.user_id for e in ranked(free)]
    pairs = []
    while len(order) >= 2:
        first = order.pop(0)
        pick = next((k for k, other in enumerate(order)
                     if last_opponent.get(first) != other), 0)
        pairs.append((first, order.pop(pick)))
    return pairs


def arena_points(streak: int) -> int:
    """An arena win's points for a player with ``streak`` wins in a row before it."""
    return 4 if streak >= 2 else 2


@dataclass
class Standing:
    name: str
    user_id: int
    score: float
    tiebreak: float
    played: int
    won: int
    out: bool
    rating: float = field(repr=False, default=1500.0)


def standings(entries: list[Entry], games: list[Game]) -> list[Standing]:
    """The table of the tournament: score, then the opponents' scores summed
    (Buchholz), then rating."""
    scores = {e.user_id: e.score for e in entries}
    rows = []
    for entry in entries:
        mine = [g for g in games if entry.user_id in (g.first, g.second)
                and g.winner is not None]
        opponents = [g.opponent(entry.user_id) for g in mine]
        rows.append(Standing(entry.name, entry.user_id, entry.score,
                             sum(scores.get(o, 0.0) for o in opponents if o is not None),
                             sum(1 for g in mine if g.second is not None),
                             sum(1 for g in mine if g.winner == entry.user_id),
                             entry.out, entry.rating))
    return sorted(rows, key=lambda r: (-r.score, -r.tiebreak, -r.rating, r.name))




# --- a tournament's settings, checked --------------------------------------------------

#: What a tournament may be made with (``POST /api/tournaments``, or an operator's
#: ``[[tournaments]]`` schedule, which adds ``every_minutes`` and ``lead_minutes``).
FIELDS = frozenset({"name", "description", "kind", "variant", "length", "clock", "rated",
                    "rounds", "minutes", "capacity", "starts_in"})
NAME_CHARS, DESCRIPTION_CHARS = (3, 60), 300


@dataclass(frozen=True)
class Setup:
    """A tournament as asked for, checked: its name and description (text), kind, the
    settings its tables and rounds are made with, and the minutes until it starts."""

    name: str
    description: str
    kind: str
    settings: dict[str, object]
    starts_in: float


def _words(value: object, what: str, low: int, high: int, lines: bool = False) -> str:
    if not isinstance(value, str):
        raise InvalidOptionError(f"{what} is text")
    value = value.strip()
    bad = [c for c in value if (unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn")
                                and not (lines and c == "\n"))]
    if bad or not low <= len(value) <= high:
        raise InvalidOptionError(f"{what} is {low} to {high} characters of text"
                                 + (" (lines allowed)" if lines else "")
                                 + ", no control characters")
    return value


def _number(body: dict[str, object], key: str, low: int, high: int, default: int) -> int:
    value = body.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidOptionError(f"{key} is a whole number from {low} to {high}")
    return value


def checked(body: dict[str, object], capacity: int) -> Setup:
    """The tournament ``body`` asks for, every field checked against an allow-list;
    InvalidOptionError saying what is wrong and what is allowed."""
    unknown = set(body) - FIELDS
    if unknown:
        raise InvalidOptionError(f"unknown fields {sorted(str(u)[:20] for u in unknown)[:5]};"
                                 f" a tournament takes {', '.join(sorted(FIELDS))}")
    name = _words(body.get("name"), "name", *NAME_CHARS)
    description = _words(body.get("description", ""), "description", 0, DESCRIPTION_CHARS,
                         lines=True)
    kind = body.get("kind", SWISS)
    if kind not in KINDS:
        raise InvalidOptionError(f"kind is one of {', '.join(KINDS)}")
    game = body.get("variant", "backgammon")
    names = [n for n in variant_names() if variant(n).players == 2] + list(ROTATIONS)
    if game not in names:
        raise InvalidOptionError(f"variant is a game of two players: {', '.join(names)}")
    clock = time_control(body.get("clock", {"delay": 12, "reserve": 180}))
    if clock is None:
        raise InvalidOptionError("a tournament's tables have a clock: {\"delay\": seconds, "
                                 "\"reserve\": seconds}")
    rated = body.get("rated", False)
    if not isinstance(rated, bool):
        raise InvalidOptionError("rated is true or false")
    settings: dict[str, object] = {
        "variant": game, "kind": "match", "length": _number(body, "length", 1, 25, 1),
        "clock": clock.to_json(), "rated": rated,
        "rounds": _number(body, "rounds", 0, 15, 0) if kind == SWISS else 0,
        "minutes": _number(body, "minutes", 5, 240, 60) if kind == ARENA else 0,
        "capacity": _number(body, "capacity", 2, capacity, min(capacity, 64))}
    starts_in = _number(body, "starts_in", 1, 7 * 24 * 60, 10)
    return Setup(name, description, str(kind), settings, float(starts_in))


__all__ = ["ARENA", "BYE", "FIELDS", "KINDS", "KNOCKOUT", "SWISS", "Entry", "Game", "Setup",
           "Standing", "arena_pairs", "arena_points", "checked", "knockout_round", "met",
           "ranked", "rounds_for", "standings", "swiss_round"]
