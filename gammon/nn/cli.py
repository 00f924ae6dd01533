"""What ``gammon train`` shows: a progress bar with games per second, the strength checks
as they come, and where the network and its learning curve went.

The command itself is a thin entry in :mod:`gammon.cli.main`; it calls :func:`run_training`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from gammon.core.errors import InvalidOptionError
from gammon.nn.train import (
    Rounds,
    Settings,
    Trainer,
    describe,
    load_for_training,
    plot_curve,
    settings_json,
)


def run_training(settings: Settings, games: int, out: Path, resume: Path | None,
                 plot: Path | None, console: Console,
                 changes: dict[str, Any] | None = None, command: str = "",
                 rounds: Rounds | None = None) -> Trainer:
    """Train (or go on training) until the network has played ``games`` games. A
    resumed network keeps its settings but for the checks and ``changes`` (``lam``,
    ``rate``; ``hidden`` cannot change). ``rounds``: data-parallel self-play
    (:class:`gammon.nn.train.Rounds`), on local processes or Ray."""
    from threadpoolctl import threadpool_limits

    trainer = (load_for_training(resume, rounds=rounds) if resume is not None
               else Trainer(settings, rounds=rounds))
    if resume is not None:
        changes = dict(changes or {})
        hidden = changes.pop("hidden", None)
        if hidden is not None and hidden != trainer.network.hidden:
            raise InvalidOptionError(f"{resume} has {trainer.network.hidden} hidden units; "
                                     "a resumed network keeps its size")
        trainer.settings.check_every = settings.check_every
        trainer.settings.check_games = settings.check_games
        for name, value in changes.items():
            setattr(trainer.settings, name, value)
        trainer.network.meta["settings"] = settings_json(trainer.settings)
    if trainer.games >= games:
        raise InvalidOptionError(
            f"the network has played {trainer.games} games already: ask for more than that")
    if command:
        trainer.network.meta["commands"] = [*trainer.network.meta.get("commands", []), command]
    console.print(f"Training a network for [bold]{trainer.rules.name}[/bold]: "
                  f"{trainer.network.inputs} inputs, {trainer.network.hidden} hidden, "
                  f"{trainer.network.outputs} outputs; from game {trainer.games} to {games}; "
                  f"TD(lambda={trainer.settings.lam}), rate {trainer.settings.rate}.")
    if rounds is not None:
        from gammon.agents.parallel import describe as backend

        console.print(f"Data-parallel rounds of {rounds.shards} shards x {rounds.games} "
                      f"games, on {backend(rounds.jobs, rounds.ray)}.")

    def checked(point: dict[str, Any]) -> None:
        margins = ", ".join(f"against {rival} {m[0]:+.3f} [{m[1]:+.3f}, {m[2]:+.3f}]"
                            for rival, m in point.items() if rival != "games")
        progress.console.print(f"  after {point['games']:,} games: {margins} points a game")

    # Small matrices: one thread is faster than BLAS's own, and leaves the other cores.
    with threadpool_limits(limits=1), Progress(
        TextColumn("{task.description}"), BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,} games"),
        TextColumn("{task.fields[speed]:.0f} games/s"),
        TimeElapsedColumn(), TimeRemainingColumn(), console=console,
    ) as progress:
        task = progress.add_task("self-play", total=games, completed=trainer.games,
                                 speed=0.0)

        def advanced(done: int, speed: float) -> None:
            progress.update(task, completed=done, speed=speed)

        trainer.run(games, out, advanced, checked)
    about = out.with_suffix(".json")
    about.write_text(describe(trainer.network) + "\n")
    console.print(f"Network written to {out} ({trainer.games:,} games, "
                  f"{trainer.network.meta.get('seconds', 0):,.0f} s of training); how it "
                  f"was made in {about}.")
    if plot is not None and trainer.network.meta.get("curve"):
        plot_curve(trainer.network, plot)
        console.print(f"Learning curve drawn in {plot}.")
    return trainer
