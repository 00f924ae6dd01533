"""The Acedrex ring for the terminal, as rich renderables.

The ring is drawn as a square seen from above, each player at their own side: Blue at the
bottom, Red on the left, Orange at the top, Yellow on the right (seats go clockwise).
Pieces travel counter-clockwise: along the bottom from B1 to B9, up the right side from
Y1 to Y9, along the top from O1 to O9 (right to left), down the left side from R1 to R9.
The four corners are the gates to the jackpot, drawn in the middle.

A slot shows its pieces from the centre outward, so the last letter is the outermost
piece (the attacker in a fight). Upper case is untapped, lower case (dimmed) tapped.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from gammon.core.protocol import Phase
from gammon.variants.acedrex import (
    COLOURS,
    JACKPOT,
    JUMP,
    LETTERS,
    MOVE,
    ONE,
    PLAYERS,
    SLOTS,
    AcedrexState,
    first_stop,
    owner,
    stop_name,
    territory,
)

STYLES = ("bold blue", "bold red", "bold dark_orange", "bold yellow")
FRAME = "grey50"
LABEL = "grey62"
CELL = 6  # width of a slot along the top and bottom
SIDE = 8  # width of a slot on the left and right (label and stack)
WIDE = 5  # letters a slot shows before it counts runs


def style(player: int) -> str:
    return STYLES[player % len(STYLES)]


def piece_text(piece: int, tapped: bool = False) -> Text:
    """One piece as its coloured letter (lower case and dim when tapped)."""
    letter = LETTERS[owner(piece)]
    if tapped:
        return Text(letter.lower(), style=style(owner(piece)) + " dim")
    return Text(letter, style=style(owner(piece)))


def player_text(player: int, name: str | None = None) -> Text:
    """A player's letter and name (their colour by default)."""
    return Text.assemble((LETTERS[player], style(player)), " ",
                         (name or COLOURS[player], "bold"))


def stack_text(state: AcedrexState, stop: int) -> Text:
    """The pieces on ``stop`` from the centre out; long stacks count their runs."""
    stack = state.ring[stop]
    if len(stack) <= WIDE:
        return Text.assemble(*(piece_text(x, state.is_tapped(x)) for x in stack))
    # Runs of one kind are counted (R2BY2O); past the width the outermost part shows.
    parts: list[Text] = []
    run: list[int] = []
    for x in (*stack, -1):
        if run and (x < 0 or owner(x) != owner(run[0])
                    or state.is_tapped(x) != state.is_tapped(run[0])):
            parts.append(piece_text(run[0], state.is_tapped(run[0])))
            if len(run) > 1:
                parts.append(Text(str(len(run)), style=LABEL))
            run = []
        if x >= 0:
            run.append(x)
    text = Text.assemble(*parts)
    if text.cell_len > CELL:
        text = Text.assemble(Text("…", style=LABEL), text[text.cell_len - CELL + 1:])
    return text


def _pad(text: Text, width: int, align: str = "center") -> Text:
    text = text.copy()
    text.truncate(width)
    free = width - text.cell_len
    if align == "left":
        return Text.assemble(text, " " * free)
    if align == "right":
        return Text.assemble(" " * free, text)
    return Text.assemble(" " * (free // 2), text, " " * (free - free // 2))


def render_ring(
    state: AcedrexState,
    names: Sequence[str] | None = None,
    highlight: Sequence[int] = (),
) -> Group:
    """The ring, the jackpot, whose turn, and a table of hands, captures and money.

    ``names`` labels the players (default: their colours). ``highlight`` lists ring
    stops to mark (the last move, a fight).
    """
    names = list(names) if names is not None else list(COLOURS)
    marked = set(highlight)
    if state.fight >= 0:
        marked.add(state.fight)
    active = state.turn if state.phase is not Phase.TERMINAL else -1

    def label(stop: int) -> Text:
        name = stop_name(stop)
        if stop in marked:
            return Text(name, style="bold reverse")
        return Text(name, style="bold underline" if territory(stop) == active else LABEL)

    top = [first_stop(2) + k for k in reversed(range(SLOTS))]
    bottom = [first_stop(0) + k for k in range(SLOTS)]
    left = [first_stop(1) + k for k in range(SLOTS)]
    right = [first_stop(3) + k for k in reversed(range(SLOTS))]
    gate = Text("◇", style=FRAME)
    inner = CELL * SLOTS

    def row(stops: list[int], labels: bool) -> Text:
        text = Text(" " * SIDE)
        for stop in stops:
            text.append_text(_pad(label(stop) if labels else stack_text(state, stop), CELL))
        return text

    lines = [row(top, True)]
    top_stacks = row(top, False)
    lines.append(Text.assemble(_pad(gate, SIDE), top_stacks[SIDE:], _pad(gate, SIDE)))
    middle = _middle(state, names)
    for i in range(SLOTS):
        west = Text.assemble(label(left[i]), " ", stack_text(state, left[i]))
        east = Text.assemble(stack_text(state, right[i]), " ", label(right[i]))
        lines.append(Text.assemble(
            _pad(west, SIDE, "left"), _pad(middle[i], inner), _pad(east, SIDE, "right")
        ))
    bottom_stacks = row(bottom, False)
    lines.append(Text.assemble(_pad(gate, SIDE), bottom_stacks[SIDE:], _pad(gate, SIDE)))
    lines.append(row(bottom, True))
    ring = Text("\n").join(lines)
    return Group(ring, LEGEND, players_table(state, names))


#: What the letters mean, under the ring.
LEGEND = Text.assemble(
    ("  B", "bold"), " a piece, ", ("b", "dim"), " tapped (it has moved: it cannot move or "
    "fight again until its owner's next turn); a slot lists its pieces from the centre "
    "out, the last outermost, on top; ", ("◇", FRAME), " a gate to the jackpot.",
    style=LABEL)


def _middle(state: AcedrexState, names: Sequence[str]) -> list[Text]:
    """The nine lines drawn inside the ring: the jackpot and whose turn it is."""
    lines = [Text() for _ in range(SLOTS)]
    places = Text("jackpot ", style="bold")
    for i in range(JACKPOT):
        places.append("[")
        if i < len(state.jackpot):
            places.append_text(piece_text(state.jackpot[i]))
        else:
            places.append(" ")
        places.append("]")
    lines[2] = places
    lines[4] = status_text(state, names)
    lines[6] = Text("travel: B1..B9 → Y1..Y9 → O1..O9 → R1..R9", style=LABEL)
    if state.turns:
        lines[7] = Text(f"turn {state.turns}", style=LABEL)
    return lines


def status_text(state: AcedrexState, names: Sequence[str]) -> Text:
    """Whose turn it is and what they are to do."""
    if state.phase is Phase.TERMINAL:
        reasons = {"captures": f"{state.variant.captures_to_end} captures",
                   "resignations": "resignations", "stalled": "nothing left to capture",
                   "cap": "the turn cap"}
        return Text(f"game over ({reasons.get(state.ended, state.ended)})", style="bold")
    who = player_text(state.turn, names[state.turn])
    if state.stage == "start":
        return Text.assemble("throws for the start: ", who)
    if state.stage == MOVE:
        left = f", {state.left} left" if state.parts else ""
        return Text.assemble("▶ ", who, f" moves: die {state.die}{left}")
    if state.stage == ONE:
        return Text.assemble("▶ ", who, " rolled a 1: keep or reroll")
    if state.stage == JUMP:
        return Text.assemble("▶ ", who, " rolled 20: may jump")
    if state.fight >= 0:
        return Text.assemble("▶ ", who, f"'s turn: combat on {stop_name(state.fight)}")
    return Text.assemble("▶ ", who, " to roll")


def players_table(state: AcedrexState, names: Sequence[str]) -> Table:
    """Each player: pieces on the ring and in hand, captures, score and money."""
    table = Table(box=None, padding=(0, 2), show_edge=False)
    table.add_column("player")
    table.add_column("ring", justify="right")
    table.add_column("hand", justify="right")
    table.add_column("captured")
    table.add_column("points", justify="right")
    table.add_column("money now", justify="right")
    standing = state.standing()
    scores = state.scores()
    for p in range(PLAYERS):
        on_ring = sum(1 for stack in state.ring for x in stack if owner(x) == p)
        captured = Text.assemble(*(piece_text(x) for x in sorted(state.captured[p])))
        if not state.captured[p]:
            captured = Text("-", style=LABEL)
        else:
            captured.append(f" ({len(state.captured[p])})", style=LABEL)
        name = player_text(p, names[p])
        if state.out[p]:
            name.append(" (resigned)", style="italic")
        elif p == state.turn and state.phase is not Phase.TERMINAL:
            name = Text.assemble("▶ ", name)
        money = standing[p]
        table.add_row(
            name, str(on_ring), str(len(state.hands[p])), captured, str(scores[p]),
            Text(f"{money:+d}", style="green" if money > 0 else "red" if money < 0 else ""),
        )
    return table


def ring_text(state: AcedrexState, names: Sequence[str] | None = None) -> str:
    """The ring and table as plain text (no colours), e.g. for logs and tests."""
    console = Console(width=100, color_system=None, file=io.StringIO())
    console.print(render_ring(state, names))
    return console.file.getvalue()  # type: ignore[attr-defined]


__all__ = ["piece_text", "player_text", "players_table", "render_ring", "ring_text",
           "stack_text", "status_text", "style"]
