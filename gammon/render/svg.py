"""Boards as SVG, for the browser (and for pages such as a game's review).

:func:`board_svg` draws any state of any variant: the two-player track board (from one
player's side, laid out as :mod:`gammon.render.terminal` lays it out), Multi-Gam's
quarter board and the Acedrex ring. Every place a checker can be is an element with a
``data-spot`` attribute naming it for the page's script: ``p1``..``p24`` (points in the
viewer's numbering, or the board's own numbers where the players share them), ``bar``
and ``off``; Acedrex's stops by name (``B3``), ``jackpot`` and ``hand``. Marked spots
(the last play) carry the class ``moved``; the page adds ``from`` and ``target`` as a
person picks a move.

The drawing depends on the state only, so it can be cached, tested and reused.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from gammon.core.play import Play
from gammon.core.protocol import Phase
from gammon.core.variant import GameState
from gammon.stakes.cube import stakes_of
from gammon.variants.acedrex import COLOURS as NAMES
from gammon.variants.acedrex import JACKPOT, SLOTS, first_stop, owner, stop_name

#: Checker colours by player (fill, edge, text).
COLOURS = (("#f5f0e6", "#5b4a33", "#3a2e1f"), ("#3b3b3b", "#101010", "#f0f0f0"),
           ("#c0392b", "#6e1f17", "#ffffff"), ("#2e86c1", "#154360", "#ffffff"))
ACEDREX_COLOURS = ("#2e86c1", "#c0392b", "#e67e22", "#f1c40f")
BOARD = "#7a5230"
FELT = "#2f6f4e"
POINT = ("#d9c7a0", "#a0522d")
SHOWN = 5  # checkers drawn on a point before the count takes over


def _n(value: float) -> str:
    """A coordinate as short as it reads: ``47`` for 47.0, ``46.5`` otherwise."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _attrs(**values: Any) -> str:
    # Attribute values are this module's own numbers, colours and names (never a
    # person's text), so they are written as they are: the drawing is on every step.
    # Single quotes: a board travels inside JSON, where a double quote costs a backslash.
    return " ".join(f"{k.rstrip('_').replace('_', '-')}='{v}'"
                    for k, v in values.items() if v is not None)


def _el(tag: str, body: str = "", **values: Any) -> str:
    attrs = _attrs(**values)
    return f"<{tag} {attrs}>{body}</{tag}>" if body else f"<{tag} {attrs}/>"


#: What every checker of a player is painted with (and its class), said once by the
#: group holding them.
_PAINT = tuple(_attrs(class_=f"player{player}", fill=fill, stroke=edge, stroke_width="2")
               for player, (fill, edge, _) in enumerate(COLOURS))
#: What every board text is written in, said once by the group holding them.
_INK = _attrs(fill="#f3e6cc", text_anchor="middle", font_family="sans-serif")


# A board is drawn again after every step, mostly from the same pieces: the checkers,
# dice and points at the places they stand are kept once written.
@functools.lru_cache(maxsize=4096)
def _checker(x: float, y: float, r: float, player: int, label: str = "") -> str:
    """A checker, painted by its group (``_PAINT``)."""
    parts = [_el("circle", cx=_n(x), cy=_n(y), r=_n(r), class_="checker")]
    if label:
        ink = COLOURS[player % len(COLOURS)][2]
        parts.append(_el("text", escape(label), x=_n(x), y=_n(y + r * 0.38), fill=ink,
                         stroke="none", font_size=f"{r:.0f}", text_anchor="middle",
                         font_family="sans-serif", font_weight="bold"))
    return "".join(parts)


def _checkers(player: int, drawn: Iterable[str]) -> str:
    return f"<g {_PAINT[player % len(_PAINT)]}>{''.join(drawn)}</g>"


@functools.lru_cache(maxsize=1024)
def _die(x: float, y: float, size: float, value: int, used: bool = False) -> str:
    pips = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
            4: [(0, 0), (0, 2), (2, 0), (2, 2)], 5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
            6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}
    body = [_el("rect", x=_n(x), y=_n(y), width=_n(size), height=_n(size), rx="6",
                fill="#fffdf6", stroke="#333", stroke_width="1.5",
                opacity="0.45" if used else "1", class_="die")]
    if value in pips:
        step = size / 4
        for row, col in pips[value]:
            body.append(_el("circle", cx=_n(x + step * (col + 1)), cy=_n(y + step * (row + 1)),
                            r=_n(size / 11), fill="#222"))
    else:  # dice of more sides: the number
        body.append(_el("text", str(value), x=_n(x + size / 2), y=_n(y + size * 0.66),
                        font_size=f"{size / 2:.0f}", text_anchor="middle",
                        font_family="sans-serif", font_weight="bold"))
    return "".join(body)


def _svg(width: int, height: int, body: Iterable[str], label: str) -> str:
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' "
            f"class='board' role='img' aria-label='{escape(label)}'>" + "".join(body)
            + "</svg>")


def _pin_mark(x: float, y: float, r: float) -> str:
    """The mark on a pinned checker (the games that pin): a dark pin head in its middle."""
    return _el("circle", cx=_n(x), cy=_n(y), r=_n(r * 0.3), fill="#111", stroke="#f1c40f",
               stroke_width="2", class_="pin")


# --- the track board --------------------------------------------------------------------

_CW, _MARGIN, _BAR_W, _TRAY_W, _HEIGHT = 46, 24, 46, 60, 480
_POINT_H = 190
_RADIUS = _CW / 2 - 3


@functools.lru_cache(maxsize=64)
def _track_frame(points: int) -> tuple[int, str, tuple[float, ...]]:
    """What a track board of ``points`` points draws whatever stands on it: its width,
    the wood, the felt and the points' numbers (their places are the same from either
    side: each player's own numbers run the same way round), and each column's centre."""
    half = points // 2
    left = half // 2
    width = _MARGIN * 2 + _CW * half + _BAR_W + _TRAY_W + 10
    columns = tuple(_MARGIN + index * _CW + (_BAR_W if index >= left else 0) + _CW / 2
                    for index in range(half))
    labels: list[str] = []
    for row, line in enumerate((range(half + 1, points + 1), range(half, 0, -1))):
        y = _MARGIN - 7 if row == 0 else _HEIGHT - 8
        labels.extend(_el("text", str(point), x=_n(columns[index]), y=str(y))
                      for index, point in enumerate(line))
    frame = (_el("rect", x="0", y="0", width=str(width), height=str(_HEIGHT), fill=BOARD,
                 rx="10")
             + _el("rect", x=str(_MARGIN), y=str(_MARGIN), width=str(_CW * half + _BAR_W),
                   height=str(_HEIGHT - 2 * _MARGIN), fill=FELT)
             + f"<g {_INK} font-size='13'>{''.join(labels)}</g>")
    return width, frame, columns


@functools.lru_cache(maxsize=8192)
def _point_group(point: int, cx: float, row: int, colour: int,
                 stacks: tuple[tuple[int, int], ...], under: int | None, marked: bool,
                 mine: int, theirs: int) -> str:
    """A point and its checkers as one group (a click anywhere on it picks it):
    ``stacks`` the (player, count) standing there, bottom first; ``under`` the player
    whose checker lies pinned there (drawn at the edge, under its pinners)."""
    base = _MARGIN if row == 0 else _HEIGHT - _MARGIN
    tip = base + _POINT_H if row == 0 else base - _POINT_H
    half = _CW / 2
    group = [_el("polygon", points=f"{_n(cx - half)},{base} {_n(cx + half)},{base} "
                 f"{_n(cx)},{tip}", fill=POINT[colour])]
    stacked = 0
    for player, n in stacks:
        drawn = []
        for k in range(min(n, SHOWN - stacked)):
            at = stacked + k
            y = (base + _RADIUS + 2 + at * 2 * _RADIUS if row == 0
                 else base - _RADIUS - 2 - at * 2 * _RADIUS)
            label = str(n) if n > SHOWN - stacked and at == SHOWN - 1 else ""
            drawn.append(_checker(cx, y, _RADIUS, player, label))
            if player == under:
                drawn.append(_pin_mark(cx, y, _RADIUS))
        group.append(_checkers(player, drawn))
        stacked += min(n, SHOWN - stacked)
    return _el("g", "".join(group), class_="spot point" + (" moved" if marked else ""),
               data_spot=f"p{point}", data_mine=str(mine), data_theirs=str(theirs))


def track_svg(state: GameState, viewer: int, *, moved: Sequence[str] = (),
              dice: Sequence[int] | None = None, cube: tuple[int, int | None] | None = None,
              names: Sequence[str] | None = None, used: Sequence[int] = ()) -> str:
    """A two-player track board from ``viewer``'s side (module text). ``moved``: spots to
    mark; ``dice`` the dice to show (default the state's; a double as four dice), those
    among ``used`` faded (the moves picked so far); ``cube``: (value, owner)."""
    variant = state.variant
    position = state.position
    points = variant.points
    half = points // 2
    left = half // 2
    other = 1 - viewer
    margin, bar_w, tray_w, height, radius = _MARGIN, _BAR_W, _TRAY_W, _HEIGHT, _RADIUS
    width, frame, columns = _track_frame(points)
    marked = set(moved)

    def count_on(player: int, point: int) -> int:
        slot = point if player == viewer else variant.shared_slot(viewer, point, player)
        return position.count(player, slot)

    body = [frame]
    for row, line in enumerate((range(half + 1, points + 1), range(half, 0, -1))):
        for index, point in enumerate(line):
            under = variant.pinned_on(position, viewer, point)
            mine, theirs = count_on(viewer, point), count_on(other, point)
            order = (viewer, other) if under is None else (under, 1 - under)
            stacks = tuple((p, n) for p, n in ((p, mine if p == viewer else theirs)
                                                for p in order) if n)
            body.append(_point_group(point, columns[index], row, (index + row) % 2, stacks,
                                     under, f"p{point}" in marked, mine, theirs))
    # The bar, with each side's checkers there (the viewer's nearer their home).
    bar_x = margin + left * _CW
    group = [_el("rect", x=str(bar_x), y=str(margin), width=str(bar_w),
                 height=str(height - 2 * margin), fill=BOARD)]
    bar = position.bar_slot
    for player, toward in ((viewer, 1), (other, -1)):
        n = position.count(player, bar)
        if n:
            group.append(_checkers(player, (
                _checker(bar_x + bar_w / 2, height / 2 + toward * (radius + 6 + k * 2 * radius),
                         radius, player, str(n) if n > 4 and k == 3 else "")
                for k in range(min(n, 4)))))
    body.append(_el("g", "".join(group), class_="spot bar" + (" moved" if "bar" in marked
                                                               else ""), data_spot="bar",
                    data_mine=str(position.count(viewer, bar)),
                    data_theirs=str(position.count(other, bar))))
    # The trays: borne-off checkers as thin bars, the viewer's at the bottom.
    tray_x = margin * 2 + _CW * half + bar_w - 10
    group = [_el("rect", x=str(tray_x), y=str(margin), width=str(tray_w - 10),
                 height=str(height - 2 * margin), fill="#5a3b22")]
    for player, bottom_side in ((viewer, True), (other, False)):
        n = position.off(player)
        if not n:
            continue
        fill, edge, _ = COLOURS[player]
        bars = (_el("rect", x=str(tray_x + 6), width=str(tray_w - 22), height="8", rx="2",
                    y=str((height - margin - 8 - k * 11) if bottom_side else (margin + 2 + k * 11)))
                for k in range(n))
        group.append(f"<g {_attrs(fill=fill, stroke=edge)}>{''.join(bars)}</g>")
        count_y = height / 2 + 40 if bottom_side else height / 2 - 30
        group.append(_el("text", f"{n} off", x=_n(tray_x + (tray_w - 10) / 2), y=_n(count_y),
                         fill="#f3e6cc", font_size="12", text_anchor="middle",
                         font_family="sans-serif"))
    body.append(_el("g", "".join(group), class_="spot off" + (" moved" if "off" in marked
                                                               else ""), data_spot="off",
                    data_mine=str(position.off(viewer)), data_theirs=str(position.off(other))))
    # The dice, on the right half; the cube, on the left edge.
    shown = list(dice) if dice is not None else list(state.dice)
    if len(shown) == 2 and shown[0] == shown[1]:
        shown *= 2
    if shown:
        # Centred in the home half, in the gap between two stacks of five (the point
        # columns at either end hold a head or a backgammon's 13 point).
        size, gap = 28, 6
        shown = shown[:4]
        start = (margin + bar_w + (left + half) * _CW / 2
                 - (len(shown) * size + (len(shown) - 1) * gap) / 2)
        spent = list(used)
        for k, value in enumerate(shown[:4]):
            faded = value in spent
            if faded:
                spent.remove(value)
            body.append(_die(start + k * (size + gap), height / 2 - size / 2, size, value,
                             faded))
    seen_by = names[viewer] if names else f"player {viewer + 1}"
    label = f"{variant.name} board seen by {seen_by}"
    if cube is None:
        return _svg(width, height, body, label)
    # The cube in a gutter of its own left of the board, clear of the checkers.
    gutter = 44
    value, owner = cube
    y = height / 2 - 18.0 if owner is None else float(
        height - margin - 40 if owner == viewer else margin + 4)
    wood = _el("rect", x="0", y="0", width=str(gutter + 20), height=str(height), fill=BOARD,
               rx="10")
    box = _el("rect", x="4", y=f"{y:.0f}", width="36", height="36", rx="4",
              fill="#fffdf6", stroke="#222", class_="cube")
    text = _el("text", str(value if value > 1 else 64), x="22", y=f"{y + 24:.0f}",
               font_size="16", text_anchor="middle", font_family="sans-serif",
               font_weight="bold")
    board = f"<g transform='translate({gutter},0)'>" + "".join(body) + "</g>"
    return _svg(width + gutter, height, [wood, board, box, text], label)


# --- Multi-Gam's quarter board ---------------------------------------------------------


def quarter_svg(state: GameState, *, moved: Sequence[str] = (),
                dice: Sequence[int] | None = None) -> str:
    """Multi-Gam's board: six points in a row that every player travels from the bar to
    off, each point showing each player's checkers side by side."""
    variant = state.variant
    position = state.position
    players = position.players
    points = variant.points
    cw, height, margin = 110, 360, 20
    strip = 40  # below the points' names: the dice
    width = margin * 2 + cw * (points + 2)
    marked = set(moved)
    body = [_el("rect", x="0", y="0", width=str(width), height=str(height + strip), fill=BOARD,
                rx="10"),
            _el("rect", x=str(margin), y=str(margin), width=str(width - 2 * margin),
                height=str(height - 2 * margin - 40), fill=FELT)]
    columns = [("bar", position.bar_slot), *((f"p{s}", s) for s in range(1, points + 1)),
               ("off", 0)]
    radius = 11
    for index, (spot, slot) in enumerate(columns):
        x = margin + index * cw
        classes = "spot" + (" moved" if spot in marked else "")
        fill = "#5a3b22" if spot in ("bar", "off") else POINT[index % 2]
        group = [_el("rect", x=str(x + 4), y=str(margin + 4), width=str(cw - 8),
                     height=str(height - 2 * margin - 48), fill=fill, rx="6")]
        label = spot.upper() if spot in ("bar", "off") else spot[1:]
        body.append(_el("text", label, x=str(x + cw / 2), y=str(height - margin - 22),
                        fill="#f3e6cc", font_size="14", text_anchor="middle",
                        font_family="sans-serif"))
        for player in range(players):
            n = position.count(player, slot)
            lane = x + 14 + player * (cw - 28) / max(players - 1, 1)
            if n:
                group.append(_checkers(player, (
                    _checker(lane, height - margin - 62 - k * (2 * radius + 2), radius, player,
                             str(n) if n > 6 and k == 5 else "") for k in range(min(n, 6)))))
        body.append(_el("g", "".join(group), class_=classes, data_spot=spot))
    shown = list(dice) if dice is not None else list(state.dice)
    for k, value in enumerate(shown[:4]):
        body.append(_die(width - margin - 40 * (k + 1), height - 2, 30, value))
    return _svg(width, height + strip, body, f"{variant.name} board")


# --- the Acedrex ring --------------------------------------------------------------------


def ring_svg(state: Any, *, moved: Sequence[str] = ()) -> str:
    """The Acedrex ring as a square: each territory's nine stops along its side, the
    gates at the corners, the jackpot and hands in the middle (as the terminal board)."""
    cell, margin = 64, 70
    side = cell * SLOTS
    size = side + 2 * margin
    marked = set(moved)
    body = [_el("rect", x="0", y="0", width=str(size), height=str(size), fill=BOARD, rx="10"),
            _el("rect", x=str(margin), y=str(margin), width=str(side), height=str(side),
                fill=FELT)]

    def place(territory: int, k: int) -> tuple[float, float]:
        """Centre of stop ``k`` (0-8) of a territory: Blue along the bottom left to
        right, Yellow up the right, Orange along the top right to left, Red down the
        left."""
        if territory == 0:
            return margin + cell * k + cell / 2, size - margin / 2
        if territory == 3:
            return size - margin / 2, size - margin - cell * k - cell / 2
        if territory == 2:
            return size - margin - cell * k - cell / 2, margin / 2
        return margin / 2, margin + cell * k + cell / 2

    for territory in range(4):
        for k in range(SLOTS):
            stop = first_stop(territory) + k
            name = stop_name(stop)
            x, y = place(territory, k)
            classes = ("spot stop" + (" moved" if name in marked else "")
                       + (" fight" if stop == state.fight else ""))
            body.append(_el("rect", x=f"{x - cell / 2 + 3:.0f}", y=f"{y - margin / 2 + 3:.0f}"
                            if territory in (0, 2) else f"{y - cell / 2 + 3:.0f}",
                            width=str(cell - 6 if territory in (0, 2) else margin - 6),
                            height=str(margin - 6 if territory in (0, 2) else cell - 6),
                            fill=POINT[k % 2], rx="5", class_=classes, data_spot=name,
                            **({"stroke": "#ff1744", "stroke_width": "4"}
                               if stop == state.fight else {})))
            label_y = y + (22 if territory == 0 else -16 if territory == 2 else 26)
            body.append(_el("text", name, x=f"{x:.0f}", y=f"{label_y:.0f}",
                            fill="#3a2e1f", font_size="10", text_anchor="middle",
                            font_family="sans-serif"))
            # A stop's pieces side by side, from the centre outward (the outermost
            # fights), each whole; more than four: the outermost four and the count.
            stack = state.ring[stop]
            shown = stack[-4:]
            for j, piece in enumerate(shown):
                tapped = state.is_tapped(piece)
                fill = ACEDREX_COLOURS[owner(piece)]
                body.append(_el("circle", cx=f"{x + (j - (len(shown) - 1) / 2) * 15:.1f}",
                                cy=f"{y - 4:.0f}", r="7", fill=fill, stroke="#111",
                                stroke_width="1.5", opacity="0.5" if tapped else "1",
                                class_="piece"))
            if len(stack) > 4:
                body.append(_el("text", f"{len(stack)} pieces", x=f"{x:.0f}", y=f"{y + 10:.0f}",
                                fill="#fff", font_size="10", text_anchor="middle",
                                font_family="sans-serif"))
    # The jackpot and the hands, in the middle.
    centre = size / 2
    body.append(_el("rect", x=f"{centre - 90:.0f}", y=f"{centre - 60:.0f}", width="180",
                    height="50", fill="#5a3b22", rx="8", class_="spot jackpot",
                    data_spot="jackpot"))
    body.append(_el("text", "jackpot", x=f"{centre:.0f}", y=f"{centre - 66:.0f}", fill="#f3e6cc",
                    font_size="13", text_anchor="middle", font_family="sans-serif"))
    for j in range(JACKPOT):
        x = centre - 50 + j * 50
        if j < len(state.jackpot):
            body.append(_el("circle", cx=f"{x:.0f}", cy=f"{centre - 35:.0f}", r="14",
                            fill=ACEDREX_COLOURS[owner(state.jackpot[j])], stroke="#111"))
        else:
            body.append(_el("circle", cx=f"{x:.0f}", cy=f"{centre - 35:.0f}", r="14",
                            fill="none", stroke="#f3e6cc", stroke_dasharray="3 3"))
    # The legend: each player's colour as a piece, their words in the board's light ink
    # (coloured words on the felt were hard to read, red above all).
    for p in range(4):
        text = f"{NAMES[p]}: {len(state.hands[p])} in hand, {len(state.captured[p])} captured"
        y = centre + 20 + p * 20
        line = [_el("rect", x=f"{centre - 136:.0f}", y=f"{y - 16:.0f}", width="272",
                    height="20", rx="4", fill=FELT),
                _el("circle", cx=f"{centre - 125:.0f}", cy=f"{y - 5:.0f}", r="7",
                    fill=ACEDREX_COLOURS[p], stroke="#111", stroke_width="1.5"),
                _el("text", text, x=f"{centre - 112:.0f}", y=f"{y:.0f}", fill="#f3e6cc",
                    font_size="14", font_family="sans-serif", font_weight="bold",
                    class_="legend")]
        # The line of the player on turn is their hand, where a piece enters from.
        on_turn = p == state.turn and not state.is_terminal
        body.append(_el("g", "".join(line), class_="spot hand" if on_turn else "legend-line",
                        **({"data_spot": "hand"} if on_turn else {})))
    fighters = state.fighters()
    if state.die and fighters is None:  # the movement die, while it is being spent
        body.append(_die(centre - 22, centre + 105, 44, state.die))
    if fighters is not None:
        # A combat being thrown for, on the board: who fights whom where, and the
        # attacker's throw once it has fallen.
        attacker, defender = fighters
        words = (f"combat on {stop_name(state.fight)}: {NAMES[owner(attacker)]} attacks "
                 f"{NAMES[owner(defender)]}")
        body.append(_el("text", words, x=f"{centre:.0f}", y=f"{centre + 125:.0f}",
                        fill="#f3e6cc", font_size="14", text_anchor="middle",
                        font_family="sans-serif", font_weight="bold", class_="combat"))
        if state.attack:
            body.append(_die(centre - 22, centre + 140, 44, state.attack))
    return _svg(size, size, body, "Acedrex ring")


# --- any state -----------------------------------------------------------------------------


def moved_spots(play: Play | None, board: str) -> list[str]:
    """The spots a play moved from and to, in its mover's numbering (the board is drawn
    from the mover's side when it is theirs to act)."""
    if play is None or board == "ring":
        return []
    spots = []
    for move in play.moves:
        for slot in (move.source, move.destination):
            spots.append("off" if slot == 0 else "bar" if slot == play.result.slots - 1
                         else f"p{slot}")
    return spots


def board_svg(state: Any, viewer: int = 0, *, moved: Sequence[str] = (),
              cube: tuple[int, int | None] | None = None,
              names: Sequence[str] | None = None, used: Sequence[int] = ()) -> str:
    """The board of any state (the stakes' wrapped game for a cube state), drawn as the
    variant's ``board`` says; ``used``: dice spent by the moves picked so far."""
    if stakes_of(state) is not None:
        if cube is None and state.cube_in_play:
            cube = (state.cube_value, state.cube_owner)
        state = state.base
    kind = state.variant.board
    if kind == "ring":
        return ring_svg(state, moved=moved)
    if kind == "quarter":
        return quarter_svg(state, moved=moved)
    dice = state.dice if state.phase is Phase.DECIDE else ()
    return track_svg(state, viewer, moved=moved, dice=dice, cube=cube, names=names, used=used)


__all__ = ["board_svg", "moved_spots", "quarter_svg", "ring_svg", "track_svg"]
