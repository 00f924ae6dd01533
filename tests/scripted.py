"""What the terminal-game tests share: a recording console and scripted input."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable

from rich.console import Console


def console(width: int = 110) -> Console:
    """A plain console that records everything printed, for reading it back."""
    return Console(file=io.StringIO(), width=width, record=True, color_system=None)


def script(lines: Iterable[str], then: str | None = "1") -> tuple[Callable[[str], str], list[str]]:
    """An input function answering ``lines`` in turn, then ``then`` for ever
    (or end of input when ``then`` is None). Also returns the prompts it was shown."""
    queue = list(lines)
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        if queue:
            return queue.pop(0)
        if then is None:
            raise EOFError
        return then

    return answer, prompts
