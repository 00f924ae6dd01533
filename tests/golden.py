"""Golden fingerprints of the engine's behaviour, for refactoring without changing it.

Each fingerprint is an md5 (or a small JSON value) of seeded work that touches a layer:

- ``games/NAME``: for every variant and option set (the defaults, each true-or-false
  option turned the other way, each preset), seeded random games through the Python
  engine: every legal list in order, the action taken, each chance outcome and the
  results;
- ``playouts/NAME``: the compiled random games of every variant (``random_playouts``);
- ``duel/NAME``: a seeded duel's results (each agent's points), seats rotated;
- ``table/NAME``: the JSON log of a seeded table played by bots (a match with the cube in
  backgammon), as the web server stores it.

``python tests/golden.py`` prints the fingerprints; ``--write`` stores them in
``tests/data/golden.json``, which ``tests/test_golden.py`` checks. Write them again only
when behaviour is meant to change, and say so in the commit.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import sys
import typing
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gammon  # noqa: E402
from gammon.agents.duel import duel  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "data" / "golden.json"
GAMES = 6
#: Turns a golden random game may last (Acedrex's random games average 91 turns).
MOST_DECISIONS = 600


def option_sets() -> list[tuple[str, str, dict[str, Any]]]:
    """(fingerprint name, variant, options) for every variant and option set."""
    sets = []
    for cls in gammon.variant_classes():
        sets.append((cls.name, cls.name, {}))
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if hints[f.name] is bool:
                sets.append((f"{cls.name}:{f.name}={not f.default}", cls.name,
                             {f.name: not f.default}))
        for preset in getattr(cls, "presets", {}):
            sets.append((preset, preset, {}))
    return sets


def game_fingerprint(rules: Any, games: int, seed: int) -> str:
    digest = hashlib.md5()
    for game in range(games):
        rng = random.Random(seed * 1000 + game)
        state = rules.initial_state()
        for _ in range(MOST_DECISIONS):
            if state.is_terminal:
                break
            if state.is_chance:
                outcome = state.sample_chance(rng)
                digest.update(f"chance {outcome}\n".encode())
                state = state.apply(outcome)
                continue
            legal = list(state.legal_actions())
            action = rng.choice(legal)
            digest.update(("|".join(map(str, legal)) + f" -> {action}\n").encode())
            state = state.apply(action)
        digest.update(f"end {state.is_terminal} {state.returns() if state.is_terminal else ''}"
                      .encode())
    return digest.hexdigest()


def fingerprints() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, variant, options in option_sets():
        rules = gammon.variant(variant, **options)
        out[f"games/{name}"] = game_fingerprint(rules, GAMES, 1)
    for cls in gammon.variant_classes():
        rules = gammon.variant(cls.name)
        rows = rules.random_playouts(40, 7)
        out[f"playouts/{cls.name}"] = hashlib.md5(rows.tobytes()).hexdigest()
        seats = ["heuristic", "random"] if rules.players == 2 else ["random"] * rules.players
        if cls.name == "acedrex":
            seats = ["random"] * 4
        result = duel(rules, seats, 4, seed=3).as_dict()
        out[f"duel/{cls.name}"] = [round(agent["points"]["mean"], 9)
                                   for agent in result["agents"]]
    for name, kind, length, seats in (
            ("backgammon", "match", 3, ["heuristic", "random"]),
            ("long-nardy", "game", 0, ["random", "random"]),
            ("multi-gam", "game", 0, ["random"] * 4)):
        from gammon.table.table import Table

        table = Table(name, seats, kind=kind, length=length, seed=5)
        table.run()
        log = json.dumps(table.to_json(), sort_keys=True)
        out[f"table/{name}"] = hashlib.md5(log.encode()).hexdigest()
    return out


def main(argv: list[str]) -> int:
    found = fingerprints()
    if "--write" in argv:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        print(f"{len(found)} fingerprints written to {GOLDEN}")
    else:
        print(json.dumps(found, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
