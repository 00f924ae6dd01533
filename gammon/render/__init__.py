"""Boards drawn for people: the terminal board (rich) now, SVG later."""

from gammon.render.terminal import board_text, render_board

__all__ = ["board_text", "render_board"]
