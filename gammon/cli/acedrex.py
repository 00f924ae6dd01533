"""``gammon legal`` and ``gammon selfplay`` for Acedrex, whose positions are whole states
and whose throws are one D20: its legal actions listed with the position each leads
to, and statistics of its compiled random games. (It is played in the terminal by the
same face as every variant, :mod:`gammon.cli.play`.)
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from gammon.core.dice import Roll
from gammon.core.errors import GammonError, InvalidOptionError
from gammon.core.protocol import Phase
from gammon.core.words import plural
from gammon.kernels import acedrex as kernel
from gammon.notation.acedrex import START, format_state, parse_state
from gammon.render.acedrex import player_text
from gammon.variants.acedrex import COLOURS, KEEP, MOVE, PLAYERS, Acedrex

# --- gammon legal acedrex ------------------------------------------------------------


def legal_json(rules: Acedrex, position: str | None, die: int | None) -> dict[str, Any]:
    """The legal actions of a position (the notation; the start with Blue by default)
    when the die is ``die`` (or the die written in the position)."""
    state = parse_state(position or START, rules)
    if die is not None:
        if state.stage == MOVE:
            raise InvalidOptionError("the position already has a die; leave out --dice")
        if not 1 <= die <= rules.sides:
            raise InvalidOptionError(f"the die is 1 to {rules.sides}, not {die}")
        state = state.apply(Roll((die,)))
        if state.stage == "one":
            state = state.apply(KEEP)
    elif state.stage != MOVE:
        raise InvalidOptionError("give the die with --dice, e.g. --dice 12")
    actions = []
    for action in state.legal_actions():
        after = state.apply(action)
        actions.append({
            "action": str(action),
            "position": format_state(after),
            "next": after.stage if after.phase is not Phase.TERMINAL else "over",
        })
    return {"position": format_state(state), "die": state.die, "left": state.left,
            "count": len(actions), "actions": actions}


def print_legal(console: Console, result: dict[str, Any]) -> None:
    table = Table(title=f"{plural(result['count'], 'legal action')} for die {result['die']} "
                  f"({result['left']} left) from {result['position']}")
    table.add_column("#", justify="right")
    table.add_column("action", style="bold")
    table.add_column("then")
    table.add_column("resulting position")
    for i, action in enumerate(result["actions"], 1):
        table.add_row(str(i), action["action"], action["next"], action["position"])
    console.print(table)


# --- gammon selfplay acedrex ---------------------------------------------------------


def selfplay_stats(rules: Acedrex, games: int, seed: int, max_turns: int | None = None,
                   resign_rate: float = 0.0) -> dict[str, Any]:
    """Random games in the compiled playouts: money, captures, how games end, speed."""
    if max_turns is not None and (rules.turn_cap == 0 or max_turns < rules.turn_cap):
        rules = Acedrex(**{**rules.options(), "turn_cap": max_turns})
    rules.random_playouts(1, seed)  # compile (or load) outside the timing
    began = time.perf_counter()
    rows = rules.random_playouts(games, seed, resign_rate=resign_rate)
    elapsed = time.perf_counter() - began
    money = rows[:, kernel.C_MONEY:kernel.C_MONEY + PLAYERS]
    captures = rows[:, kernel.C_CAPTURES:kernel.C_CAPTURES + PLAYERS]
    best = money.argmax(axis=1)
    ends = rows[:, kernel.C_END]
    players = [
        {
            "player": p,
            "colour": COLOURS[p],
            "mean_money": float(money[:, p].mean()),
            "mean_captures": float(captures[:, p].mean()),
            "most_money": int((best == p).sum()),
        }
        for p in range(PLAYERS)
    ]
    return {
        "variant": rules.name,
        "options": rules.options(),
        "games": games,
        "seed": seed,
        "seconds": elapsed,
        "games_per_second": games / elapsed if elapsed > 0 else float("inf"),
        "mean_turns": float(rows[:, kernel.C_TURNS].mean()),
        "max_turns": int(rows[:, kernel.C_TURNS].max()),
        "mean_decisions": float(rows[:, kernel.C_DECISIONS].mean()),
        "ended_by_captures": int((ends == kernel.END_CAPTURES).sum()),
        "ended_by_resignations": int((ends == kernel.END_RESIGNATIONS).sum()),
        "ended_by_turn_cap": int((ends == kernel.END_CAP).sum()),
        "ended_stalled": int((ends == kernel.END_STALLED).sum()),
        "money_sums_to_zero": bool((money.sum(axis=1) == 0).all()),
        "players": players,
    }


def print_selfplay(console: Console, stats: dict[str, Any]) -> None:
    table = Table(title=f"acedrex: {stats['games']} random games, seed {stats['seed']}")
    table.add_column("player")
    table.add_column("mean money", justify="right")
    table.add_column("mean captures", justify="right")
    table.add_column("most money", justify="right")
    for row in stats["players"]:
        table.add_row(player_text(row["player"]), f"{row['mean_money']:+.2f}",
                      f"{row['mean_captures']:.2f}", str(row["most_money"]))
    console.print(table)
    console.print(
        f"{stats['games']} games in {stats['seconds']:.2f} s: "
        f"[bold]{stats['games_per_second']:.0f} games/s[/], mean {stats['mean_turns']:.1f} "
        f"turns (longest {stats['max_turns']}); ended by captures {stats['ended_by_captures']}, "
        f"resignations {stats['ended_by_resignations']}, nothing left to capture "
        f"{stats['ended_stalled']}, turn cap {stats['ended_by_turn_cap']} "
        f"(cap {stats['options']['turn_cap']})"
    )


__all__ = ["cli_legal", "cli_selfplay", "legal_json", "print_legal", "print_selfplay",
           "selfplay_stats"]


# --- what `gammon legal/selfplay acedrex` call -------------------------------------------


def cli_legal(rules: Acedrex, position: str | None, dice: str | None, as_json: bool,
              batch: str | None, console: Console) -> bool:
    """``gammon legal acedrex``; with ``batch`` (a file, or - for stdin), one position
    (its die in the TURN field) per line and one JSON object per line out. True when
    some line failed."""
    if batch == "-":
        return _legal_lines(rules, sys.stdin)
    if batch is not None:
        with Path(batch).open() as lines:
            return _legal_lines(rules, lines)
    die = None
    if dice is not None:
        if not dice.strip().isdigit():
            raise InvalidOptionError(f"--dice {dice!r}: acedrex rolls one D20, e.g. --dice 12")
        die = int(dice)
    result = legal_json(rules, position, die)
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        print_legal(console, result)
    return False


def _legal_lines(rules: Acedrex, lines: Iterable[str]) -> bool:
    failed = False
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            result = legal_json(rules, text, None)
        except GammonError as error:
            failed = True
            result = {"line": number, "input": text, "error": str(error)}
        print(json.dumps(result), flush=True)
    return failed


def cli_selfplay(rules: Acedrex, games: int, seed: int, as_json: bool, max_turns: int,
                 console: Console) -> None:
    """``gammon selfplay acedrex``: ``max_turns`` lowers the turn cap when smaller."""
    stats = selfplay_stats(rules, games, seed, max_turns)
    if as_json:
        print(json.dumps(stats, indent=2))
    else:
        print_selfplay(console, stats)
