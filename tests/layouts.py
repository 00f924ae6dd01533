"""Two-player positions written as layouts, for the rules tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gammon import Position


def position(mover: dict[int, int], other: dict[int, int], turn: int = 0) -> Position:
    """Player ``turn`` has ``mover``, the other player ``other`` (slot: checkers, each in
    their own numbering, 25 the bar); the rest of the fifteen are off."""
    rows = []
    for layout in (mover, other) if turn == 0 else (other, mover):
        row = [0] * 26
        for slot, count in layout.items():
            row[slot] += count
        row[0] = 15 - sum(row)
        rows.append(row)
    return Position.from_checkers(rows, turn)



def rule_helpers(default: Any) -> tuple[Callable[..., set[str]], Callable[..., set[str]],
                                         Callable[..., Any]]:
    """A rules test's helpers, its variant the default: ``plays(pos, dice, rules)`` (the
    legal plays as move text), ``holding(pos, dice, points, rules)`` (those after which
    the mover holds every one of ``points``) and ``end_state(winner_row, loser_row,
    rules)`` (player 0 bears off its last checker, from ``winner_row``, against
    ``loser_row``)."""
    from gammon.notation.movetext import format_play

    def plays(pos: Position, dice: tuple[int, ...], rules: Any = default) -> set[str]:
        return {format_play(play) for play in rules.state(pos, dice).legal_actions()}

    def holding(pos: Position, dice: tuple[int, ...], points: set[int],
                rules: Any = default) -> set[str]:
        return {format_play(play) for play in rules.state(pos, dice).legal_actions()
                if all(play.result.row(pos.turn)[p] for p in points)}

    def end_state(winner_row: dict[int, int], loser_row: dict[int, int],
                  rules: Any = default) -> Any:
        state = rules.state(position(winner_row, loser_row), (6, 5, 4)[:rules.game_type.dice])
        return state.apply(state.legal_actions()[0])

    return plays, holding, end_state


def duel_points(name: str, players: str, games: int, seed: int = 3) -> dict[str, Any]:
    """The first player's points a game (mean, 95% interval...) in ``gammon duel`` of
    ``name`` between ``players`` (seats rotated), as the command line reports them."""
    import json

    from typer.testing import CliRunner

    from gammon.cli.main import app

    result = CliRunner().invoke(app, ["duel", name, "--players", players, "--games",
                                      str(games), "--seed", str(seed), "--json"])
    assert result.exit_code == 0, result.output
    points: dict[str, Any] = json.loads(result.output)["agents"][0]["points"]
    return points


def random_game_lengths(rules: Any, games: int, seed: int) -> list[int]:
    """The plays of ``games`` whole games of uniformly random choices through the Python
    rules (the compiled playouts' lengths are compared with them)."""
    import random

    rng = random.Random(seed)
    lengths = []
    for _ in range(games):
        state = rules.initial_state()
        while not state.is_terminal:
            state = state.apply(state.sample_chance(rng) if state.is_chance
                                else rng.choice(list(state.legal_actions())))
        lengths.append(state.moves)
    return lengths

