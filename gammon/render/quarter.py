"""The quarter board of Multi-Gam for the terminal, as a rich renderable.

Six points between the BAR on the left and OFF on the right, numbered 1 to 6 in the
direction everyone moves (BAR -> 1 -> ... -> 6 -> OFF). A point holds one player's
checkers, drawn as a stack of that player's letter in that player's colour (X red,
O cyan, Y green, Z magenta, as on the two-player board); the BAR and OFF list each
player's checkers there. Beside the board: whose turn it is and the dice, one line per
player (pips, BAR, OFF, place once finished), and the ranking so far.

    ┌──────┬────────────────────────┬──────┐
    │ X 2  │     O               Z  │ Z 3  │   X you to play [6] [1]
    │ O 1  │ X   O       Y       Z  │      │
    ...
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.text import Text

from gammon.core.play import Play
from gammon.core.position import Position
from gammon.core.protocol import Phase
from gammon.core.variant import GameState, TrackVariant
from gammon.core.words import agree
from gammon.render.terminal import (
    FRAME,
    HIGHLIGHT,
    LABEL,
    MARK,
    checker,
    dice_to_play,
    style,
    symbol,
)

HEIGHT = 5  # rows of the board: the tallest stack one player can build is shown whole
CELL = 4  # characters per point
TRAY = 6  # characters of the BAR and OFF columns
PLACES = ("1st", "2nd", "3rd", "4th")


def place_name(place: int) -> str:
    """``1st``, ``2nd``, ... for a place counted from 0."""
    return PLACES[place] if place < len(PLACES) else f"{place + 1}th"


def ranking_of(state: GameState) -> tuple[int, ...]:
    """The finishing order so far (the variant's :meth:`~TrackVariant.ranking`)."""
    return state.variant.ranking(state)


def _slot(variant: TrackVariant, player: int, point: int) -> int:
    """``player``'s slot for the board's point ``point`` (1 = first after the BAR)."""
    own0 = variant.points + 1 - point  # player 0's slot; others through the crossing
    return own0 if player == 0 else variant.shared_slot(0, own0, player)


def render_quarter(
    state: GameState,
    *,
    names: Sequence[str] | None = None,
    position: Position | None = None,
    dice_left: Sequence[int] | None = None,
    highlight: Play | None = None,
    scores: Sequence[int] | None = None,
) -> Text:
    """The quarter board of ``state`` with the players, whose turn, and the ranking.

    ``names`` labels the players (default ``player 0``, ...). ``position`` draws another
    board for the same game (a play being typed in parts) and ``dice_left`` the dice
    still to play, the used ones struck out. ``highlight`` marks the points a play moved
    from and to. ``scores`` are the points per place, shown beside finished players.
    """
    variant = state.variant
    position = position if position is not None else state.position
    players, points = position.players, variant.points
    bar = points + 1
    names = list(names) if names is not None else [f"player {p}" for p in range(players)]
    ranking = ranking_of(state)
    marked = _touched(highlight, variant) if highlight is not None else set()

    def stack_cell(point: int, row: int) -> Text:
        """Row ``row`` counted from the bottom of the stack on ``point``."""
        for player in range(players):
            n = position.count(player, _slot(variant, player, point))
            if n:
                return Text(f" {symbol(player)}  " if n > row else " " * CELL,
                            style=style(player))
        if row == 0:
            return Text(" ·  ", style=MARK[point % 2])
        return Text(" " * CELL)

    def tray(slot: int, row: int) -> Text:
        """Line ``row`` of the BAR (``slot`` = bar) or OFF (``slot`` = 0): one player each."""
        here = [(p, position.count(p, slot)) for p in range(players) if position.count(p, slot)]
        if row >= len(here):
            return Text(" " * TRAY)
        player, n = here[row]
        return Text.assemble(" ", checker(player), f" {n}".ljust(TRAY - 2))

    def label(point: int) -> Text:
        return Text(f" {point}  ", style=HIGHLIGHT if point in marked else LABEL)

    head = Text.assemble((" BAR".ljust(TRAY + 1), LABEL), " ")
    for point in range(1, points + 1):
        head.append_text(label(point))
    head.append(" ")
    head.append(" OFF", style=LABEL)
    inner = CELL * points
    lines = [
        head,
        Text(f"┌{'─' * TRAY}┬{'─' * inner}─┬{'─' * TRAY}┐", style=FRAME),
    ]
    for depth in range(HEIGHT):
        row = HEIGHT - 1 - depth
        line = Text.assemble(("│", FRAME), tray(bar, depth), ("│", FRAME))
        for point in range(1, points + 1):
            line.append_text(stack_cell(point, row))
        line.append(" ")
        line.append_text(Text.assemble(("│", FRAME), tray(0, depth), ("│", FRAME)))
        lines.append(line)
    lines.append(Text(f"└{'─' * TRAY}┴{'─' * inner}─┴{'─' * TRAY}┘", style=FRAME))
    arrow = " BAR → 1 → 2 → 3 → 4 → 5 → 6 → OFF" if points == 6 else " BAR → ... → OFF"
    lines.append(Text(arrow, style="grey42"))

    side = [_status(state, names, dice_left, ranking), Text()]
    for player in range(players):
        side.append(_player_line(state, position, player, names, ranking, scores))
    side.append(Text())
    side.append(_ranking_line(ranking, names, players))
    width = max(len(line) for line in lines)
    out = []
    for i, line in enumerate(lines):
        j = i - 1  # the side text starts level with the top of the frame
        if 0 <= j < len(side):
            padded = line.copy()
            padded.append(" " * (width - len(line) + 2))
            padded.append_text(side[j])
            out.append(padded)
        else:
            out.append(line)
    for extra in side[len(lines) - 1:]:
        out.append(Text(" " * (width + 3)) + extra)
    return Text("\n").join(out)


#: The longest name the side panel shows whole: the board and its panel fit 80 columns.
NAME_WIDTH = 10


def _status(state: GameState, names: Sequence[str], dice_left: Sequence[int] | None,
            ranking: Sequence[int]) -> Text:
    if state.phase is Phase.TERMINAL:
        text = Text("Game over: ")
        if ranking:
            text.append_text(checker(ranking[0]))
            text.append(f" {names[ranking[0]]} {agree(names[ranking[0]], 'wins')}", style="bold")
        return text
    if state.phase is Phase.CHANCE and state.opening:
        return Text("Opening: each player throws one die")
    player = state.position.turn
    text = Text.assemble(checker(player), " ", (names[player], "bold"))
    if state.phase is Phase.CHANCE:
        text.append(" to roll")
        return text
    text.append(" to play ")
    text.append_text(dice_to_play(state.dice, dice_left))
    return text


def _player_line(state: GameState, position: Position, player: int, names: Sequence[str],
                 ranking: Sequence[int], scores: Sequence[int] | None) -> Text:
    on_turn = state.phase is not Phase.TERMINAL and not state.opening
    mark = "▶ " if on_turn and player == position.turn else "  "
    width = max(len(_short(n)) for n in names)
    text = Text.assemble((mark, "bold"), checker(player), " ",
                         (_short(names[player]).ljust(width), "bold"), "  ")
    if player in ranking:
        place = list(ranking).index(player)
        text.append(f"{place_name(place)} place", style="bold")
        if scores is not None and place < len(scores):
            plural = "s" if scores[place] != 1 else ""
            text.append(f", {scores[place]} point{plural}")
        if position.off(player) == state.variant.checkers:
            text.append("  (all off)", style="grey50")
        return text
    text.append(f"pips {position.pips(player):>2}  bar {position.bar(player)}  "
                f"off {position.off(player)}")
    return text


def _short(name: str, width: int = NAME_WIDTH) -> str:
    """A name cut to ``width`` for the side panel, keeping a seat's number at its end
    (``rollout (seat 2)`` is ``rollout 2``: three bots of one kind stay apart)."""
    if len(name) <= width:
        return name
    seat = re.fullmatch(r"(.+) \(seat (\d+)\)", name)
    head, _, tail = name.rpartition(" ")
    if seat:
        head, tail = seat.groups()
    if head and tail.isdigit():
        cut = head if len(head) + len(tail) + 1 <= width else head[: width - len(tail) - 2] + "…"
        return f"{cut} {tail}"
    return name[: width - 1] + "…"


def _ranking_line(ranking: Sequence[int], names: Sequence[str], players: int) -> Text:
    text = Text("Ranking: ", style="bold")
    if not ranking:
        text.append("nobody has finished yet", style="grey50")
        return text
    for place, player in enumerate(ranking):
        if place:
            text.append(", ")
        text.append(f"{place_name(place)} ")
        text.append_text(checker(player))
        text.append(f" {names[player]}")
    return text


def _touched(play: Play, variant: TrackVariant) -> set[int]:
    """The board's points that ``play`` moved checkers from or to."""
    mover = play.result.turn
    found = set()
    for move in play.moves:
        for slot in (move.source, move.destination):
            if 1 <= slot <= variant.points:
                own0 = slot if mover == 0 else variant.shared_slot(mover, slot, 0)
                found.add(variant.points + 1 - own0)
    return found


def quarter_text(state: GameState, **options: object) -> str:
    """The board as plain text (no colours), e.g. for logs and tests."""
    return render_quarter(state, **options).plain  # type: ignore[arg-type]


__all__ = ["place_name", "quarter_text", "ranking_of", "render_quarter"]
