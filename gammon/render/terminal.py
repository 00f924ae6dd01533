"""A backgammon board for the terminal, as a rich renderable.

The board is drawn the way players know it, from one player's side (the *viewer*):
the viewer's points 13-24 along the top from left to right, 12-1 along the bottom, the
bar in the middle and the borne-off trays on the right, so the viewer's home board is
at the bottom right and their checkers travel anticlockwise. Points are numbered from
the viewer's side; the other player's checkers are placed through the variant's
:meth:`~gammon.core.variant.TrackVariant.shared_slot`, so a variant whose players share
points differently (both moving the same way from opposite heads, as in Long Nardy)
only changes which point a checker is drawn on.

Long Nardy is drawn the way nardy players know it, and that picture is the same one: the
viewer's head (their 24-point) in the top right corner, the opponent's head diagonally
opposite in the bottom left (the viewer's 12-point), both sides running anticlockwise,
leftwards along the top and rightwards along the bottom. A game without hitting has no
bar, so the middle of the board is a plain divider; a game with a head rule colours each
head's number in its owner's colour, counts the checkers left on each head beside the
board, and says under the board which way the checkers run.

Each point shows up to five checkers; a taller stack shows four and then its count. In
a game that pins, a pinned checker is drawn at the edge of the board as its owner's
letter in small case between parentheses, ``(o)``, under the stack that pins it, and a
line under the board says so.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from gammon.core.play import Play
from gammon.core.position import Position
from gammon.core.protocol import Phase
from gammon.core.variant import GameState, TrackVariant
from gammon.core.words import agree
from gammon.stakes.cube import stakes_of

#: Checker letters and styles, by player number.
SYMBOLS = ("X", "O", "Y", "Z")
STYLES = ("bold red", "bold cyan", "bold green", "bold magenta")
HEIGHT = 5  # checkers shown on a point before the count takes over
FRAME = "grey50"
LABEL = "grey70"
MARK = ("grey35", "grey50")  # empty points, alternately
HIGHLIGHT = "bold yellow"


def symbol(player: int) -> str:
    """The letter that stands for ``player``'s checkers."""
    return SYMBOLS[player % len(SYMBOLS)]


def style(player: int) -> str:
    """The rich style of ``player``'s checkers."""
    return STYLES[player % len(STYLES)]


def checker(player: int) -> Text:
    """``player``'s checker letter, coloured."""
    return Text(symbol(player), style=style(player))


def _stack(count: int, row: int, player: int) -> Text:
    """Row ``row`` (0 = the edge of the board) of a stack of ``count`` checkers, 3 wide."""
    if count > HEIGHT and row == HEIGHT - 1:
        return Text(f"{count:^3}", style=style(player))
    if count > row:
        return Text(f" {symbol(player)} ", style=style(player))
    return Text("   ")


def _pinned_stack(count: int, row: int, player: int, pinned: int) -> Text:
    """Row ``row`` of a point where ``player``'s ``count`` checkers pin one of
    ``pinned``'s: the pinned checker at the edge, the stack on top of it."""
    if row == 0:
        return Text(f"({symbol(pinned).lower()})", style=style(pinned))
    if count > HEIGHT - 1 and row == HEIGHT - 1:
        return Text(f"{count:^3}", style=style(player))
    return _stack(count, row - 1, player)


def render_board(
    state: GameState,
    viewer: int | None = None,
    *,
    names: Sequence[str] | None = None,
    position: Position | None = None,
    dice_left: Sequence[int] | None = None,
    highlight: Play | None = None,
) -> Text:
    """The board of ``state`` seen from ``viewer`` (default: the player on turn).

    ``names`` labels the players (default ``player 0``, ...). ``position`` draws another
    board for the same game (a play being typed in parts) and ``dice_left`` the dice
    still to play, the used ones dimmed. ``highlight`` marks the points a play (usually
    the last one) moved from and to.
    """
    variant = state.variant
    position = position if position is not None else state.position
    players = position.players
    if players != 2:
        raise ValueError(f"the terminal board draws two-player games, not {players} players")
    points = variant.points
    if points % 2:
        raise ValueError(f"the board needs an even number of points, not {points}")
    viewer = position.turn if viewer is None else viewer
    other = 1 - viewer
    names = list(names) if names is not None else [f"player {p}" for p in range(players)]

    def count_on(player: int, point: int) -> int:
        slot = point if player == viewer else variant.shared_slot(viewer, point, player)
        return position.count(player, slot)

    def owner(point: int) -> tuple[int, int]:
        """(player, count) on the viewer's ``point``; the viewer first if both are there
        (the one on top where one is pinned)."""
        under = variant.pinned_on(position, viewer, point)
        for player in (viewer, other):
            n = count_on(player, point)
            if n and player != under:
                return player, n
        return -1, 0

    marked = _touched(highlight, variant, viewer) if highlight is not None else set()
    heads = _heads(variant, viewer)
    half = points // 2
    left = half // 2  # points between the board's left edge and the bar
    top = list(range(half + 1, points + 1))
    bottom = list(range(half, 0, -1))

    def labels(row: list[int]) -> Text:
        text = Text(" ")
        for i, point in enumerate(row):
            if i == left:
                text.append("     ")
            look = style(heads[point]) if point in heads else LABEL
            text.append(f"{point:^3}", style=HIGHLIGHT if point in marked else look)
        return text

    def cells(row: list[int], depth: int, upper: bool) -> Text:
        text = Text()
        for i, point in enumerate(row):
            if i == left:
                text.append("│", style=FRAME)
                text.append(bar_cell(depth, upper))
                text.append("│", style=FRAME)
            player, n = owner(point)
            under = variant.pinned_on(position, viewer, point)
            if under is not None:
                text.append(_pinned_stack(n, depth, player, under))
            elif n:
                text.append(_stack(n, depth, player))
            elif depth == 0:
                text.append(" ▼ " if upper else " ▲ ", style=MARK[point % 2])
            else:
                text.append("   ")
        return text

    def bar_cell(depth: int, upper: bool) -> Text:
        # The viewer's checkers wait on the upper bar, next to where they enter.
        player = viewer if upper else other
        n = position.bar(player)
        # Stack from the middle of the board outward.
        return _stack(n, HEIGHT - 1 - depth, player) if n else Text("   ")

    def tray(depth: int, upper: bool) -> Text:
        player = other if upper else viewer
        n = position.off(player)
        return _stack(n, depth, player)

    top_name, top_figures = _player_lines(names, other, position, variant)
    bottom_name, bottom_figures = _player_lines(names, viewer, position, variant)
    # Beside the board: the top player level with the top edge, the viewer with the bottom.
    side = {0: top_name, 1: top_figures, HEIGHT: _status(state, position.turn, names, dice_left),
            2 * HEIGHT - 1: bottom_figures, 2 * HEIGHT: bottom_name}
    side.update(_stakes(state, viewer, names))

    inner = 3 * len(top)
    rows: list[Text] = []
    for depth in range(HEIGHT):
        rows.append(_row(cells(top, depth, True), tray(depth, True)))
    middle = Text(" " * (3 * left))
    # Without hitting nothing ever waits on a bar: the middle is only the divider.
    middle.append("│BAR│" if variant.contact.hitting else "│   │", style=FRAME)
    middle.append(" " * (inner - 3 * left))
    rows.append(_row(middle, Text("OFF", style=FRAME)))
    for depth in reversed(range(HEIGHT)):
        rows.append(_row(cells(bottom, depth, False), tray(depth, False)))
    rule = "─" * (3 * left), "─" * (inner - 3 * left)
    lines = [labels(top), Text(f"┌{rule[0]}┬───┬{rule[1]}┐┌───┐", style=FRAME)]
    for i, row in enumerate(rows):
        lines.append(Text.assemble(row, "   ", side[i]) if i in side else row)
    lines.append(Text(f"└{rule[0]}┴───┴{rule[1]}┘└───┘", style=FRAME))
    lines.append(labels(bottom))
    if heads:
        lines.append(_way_round(heads))
    pinned = {under for point in range(1, points + 1)
              if (under := variant.pinned_on(position, viewer, point)) is not None}
    if pinned:
        lines.append(_pin_legend(sorted(pinned), names))
    return Text("\n").join(lines)


def _row(points: Text, tray: Text) -> Text:
    """One line of the board: the points (with the bar) and the tray, framed."""
    return Text.assemble(("│", FRAME), points, ("││", FRAME), tray, ("│", FRAME))


def _player_lines(
    names: Sequence[str], player: int, position: Position, variant: TrackVariant
) -> tuple[Text, Text]:
    head = Text.assemble(checker(player), " ", (names[player], "bold"))
    figures = Text(f"  pips {position.pips(player)}", style="default")
    figures.append(f"   off {position.off(player)}")
    if position.bar(player):
        figures.append(f"   bar {position.bar(player)}")
    if variant.head.slot:
        figures.append(f"   head {position.count(player, variant.head.slot)}")
    return head, figures


def _heads(variant: TrackVariant, viewer: int) -> dict[int, int]:
    """``{viewer's point number: player}`` for each player's head (head rule only)."""
    if not variant.head.slot:
        return {}
    other = 1 - viewer
    return {
        variant.head.slot: viewer,
        variant.shared_slot(other, variant.head.slot, viewer): other,
    }


def _way_round(heads: dict[int, int]) -> Text:
    """The line under a board with heads: where they are and which way checkers run."""
    text = Text(" heads ")
    for i, (point, player) in enumerate(sorted(heads.items(), reverse=True)):
        if i:
            text.append(", ")
        text.append_text(checker(player))
        text.append(f" {point}", style=style(player))
    text.append(" · both sides run ◄ along the top, ► along the bottom", style=LABEL)
    return text


def _pin_legend(pinned: Sequence[int], names: Sequence[str]) -> Text:
    """The line under a board with pins: what ``(x)`` and ``(o)`` stand for."""
    text = Text(" ")
    for i, player in enumerate(pinned):
        if i:
            text.append(", ")
        text.append(f"({symbol(player).lower()})", style=style(player))
        text.append(f" {names[player]}'s checker", style=LABEL)
    text.append(" pinned under the checkers on its point", style=LABEL)
    return text


def _stakes(state: GameState, viewer: int, names: Sequence[str]) -> dict[int, Text]:
    """Beside the board of a game with stakes (:class:`gammon.stakes.CubeState`): the
    cube on its owner's side (in the middle while centred), the match score under the
    status line, and the status of a cube decision. Nothing for a plain game."""
    stakes = stakes_of(state)
    if stakes is None:
        return {}
    lines: dict[int, Text] = {}
    if stakes.cube_in_play:
        cube = Text("  ")
        cube.append(f" {stakes.cube_value} ", style="bold black on white")
        owner = stakes.cube_owner
        cube.append(" cube" + ("" if owner is None else f" ({names[owner]})"), style=LABEL)
        row = HEIGHT - 1 if owner is None else (2 * HEIGHT - 2 if owner == viewer else 2)
        lines[row] = cube
    score = stakes.score
    if score.length:
        text = Text(f"  {score.length}-point match: ", style=LABEL)
        for p, points in enumerate(score.score):
            if p:
                text.append(", ", style=LABEL)
            text.append_text(checker(p))
            text.append(f" {points}")
        if score.crawford:
            text.append(" Crawford", style="italic")
        lines[HEIGHT + 1] = text
    decider = stakes.current_player
    if decider is not None and (stakes.preroll or stakes.offer or stakes.resignation):
        text = Text("  ")
        text.append_text(checker(decider))
        if stakes.resignation is not None:
            text.append(" to accept or reject the resignation")
        elif stakes.offer is not None:
            text.append(f" to answer the {stakes.offer.kind.value} to {stakes.offer.value}",
                        style="bold")
        else:
            text.append(" to roll or double")
        lines[HEIGHT] = text
    return lines


def _status(state: GameState, player: int, names: Sequence[str],
            dice_left: Sequence[int] | None) -> Text:
    text = Text("  ")
    if state.phase is Phase.TERMINAL:
        if not any(state.returns()):
            text.append("drawn", style="bold")
            return text
        winner = state.winner if state.winner is not None else player
        text.append_text(checker(winner))
        text.append(f" {names[winner]} {agree(names[winner], 'wins')}", style="bold")
        return text
    text.append_text(checker(player))
    if state.phase is Phase.CHANCE:
        text.append(" to roll")
        return text
    question = state.variant.decision_prompt(state)
    if question is not None or not state.dice:  # a decision that is not a play
        text.append(f" to {question or 'decide'}")
        return text
    text.append(" to play ")
    text.append_text(dice_to_play(state.dice, dice_left))
    return text


def dice_to_play(dice: tuple[int, ...], left: Sequence[int] | None) -> Text:
    """The dice of a roll, ``[5] [3]``; with ``left`` (a play under way) those still to
    play, and the others said as played (strike-through is lost on some terminals)."""
    text = Text()
    still = list(left) if left is not None else None
    played = []
    for die in _all_dice(dice):
        if still is None or die in still:
            text.append(f"[{die}] ", style="bold")
            if still is not None:
                still.remove(die)
        else:
            played.append(str(die))
    if played:
        text.append(f"(played {' '.join(played)})", style="dim")
    text.rstrip()
    return text


def _all_dice(dice: tuple[int, ...]) -> list[int]:
    if len(dice) == 2 and dice[0] == dice[1]:
        return [dice[0]] * 4
    return list(dice)


def _touched(play: Play, variant: TrackVariant, viewer: int) -> set[int]:
    """The viewer's point numbers that ``play`` moved checkers from or to."""
    mover = play.result.turn
    found = set()
    for move in play.moves:
        for slot in (move.source, move.destination):
            if 1 <= slot <= variant.points:
                same = mover == viewer
                found.add(slot if same else variant.shared_slot(mover, slot, viewer))
    return found


def board_text(state: GameState, viewer: int | None = None, **options: object) -> str:
    """The board as plain text (no colours), e.g. for logs and tests."""
    return render_board(state, viewer, **options).plain  # type: ignore[arg-type]


__all__ = ["render_board", "board_text", "symbol", "style", "checker"]
