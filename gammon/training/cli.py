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
from gammon.core.protocol import Rules
from gammon.nn.network import Network
from gammon.training.teacher import TeacherPlan, TeacherSpec
from gammon.training.train import (
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
    (:class:`gammon.training.train.Rounds`), on local processes or Ray."""
    from threadpoolctl import threadpool_limits

    trainer = (load_for_training(resume, rounds=rounds) if resume is not None
               else Trainer(settings, rounds=rounds))
    if resume is not None:
        changes = dict(changes or {})
        hidden = changes.pop("hidden", None)
        if hidden is not None and hidden != trainer.network.hidden:
            raise InvalidOptionError(f"{resume} has {trainer.network.hidden} hidden units; "
                                     "a resumed network keeps its size")
        if changes.pop("contact", False) and not trainer.settings.contact:
            raise InvalidOptionError(f"{resume} reads the raw inputs only; a resumed "
                                     "network keeps its inputs (leave out --contact)")
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
        progress.console.print(f"  after {point['games']:,} games: {margins(point)}")

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


def initial_network(rules: Rules, path: Path) -> Network:
    """The network at ``path`` as the start of a new teacher run: its weights, size and
    inputs, without the record of how it was trained (kept as ``initialised_from``)."""
    start = Network.load(path)
    if start.meta.get("variant") != rules.name:
        raise InvalidOptionError(f"{path} is a network of {start.meta.get('variant')}, "
                                 f"not {rules.name}")
    kept = ("name", "variant", "options", "family", "encoder", "residual")
    meta = {key: start.meta[key] for key in kept if key in start.meta}
    meta.update(games=0, seconds=0.0, curve=[], initialised_from={
        "file": path.name, "hidden": start.hidden, "encoder": start.meta.get("encoder"),
        "teacher": start.meta.get("teacher", {}).get("teacher")})
    return Network(start.w1.copy(), start.b1.copy(), start.w2.copy(), start.b2.copy(), meta)


def margins(point: dict[str, Any]) -> str:
    """A learning curve's point as words: the margin against each rival."""
    return ", ".join(f"against {rival} {m[0]:+.3f} [{m[1]:+.3f}, {m[2]:+.3f}]"
                     for rival, m in point.items() if rival not in ("games", "epochs")
                     ) + " points a game"


def run_teacher(settings: Settings, plan: TeacherPlan, out: Path, resume: Path | None,
                plot: Path | None, console: Console, command: str = "",
                init: Path | None = None) -> Network:
    """Train (or go on training) a network on a teacher's evaluations
    (:mod:`gammon.training.teacher`): sample positions, have them labelled, fit; every stage
    saved as it goes, so the same command with ``--resume OUT`` picks up where it
    stopped. ``init``: start from that network's weights (its size and inputs) instead
    of random ones, fitting the data file already beside ``out`` if there is one."""
    from gammon.agents.gnubg import supports
    from gammon.agents.search import board_search_applies
    from gammon.training.teacher import TeacherRun, adam_path, data_path
    from gammon.training.train import new_network

    rules = settings.rules()
    spec = TeacherSpec.parse(plan.teacher)  # a bad name fails before anything runs
    if spec.name == "gnubg" and not supports(rules):
        raise InvalidOptionError(f"the gnubg teacher evaluates standard backgammon, not "
                                 f"{rules.name}: train it by self-play (no --teacher)")
    if spec.name == "neural" and (not board_search_applies(rules) or rules.game_type.pins):
        raise InvalidOptionError(
            f"a pruning network screens the plays of the board search of a two-player game "
            f"without pins (backgammon and its kin, the tables of Greece and Turkey but "
            f"Plakoto and Tapa), not {rules.name}")
    if init is not None and resume is not None:
        raise InvalidOptionError("--init starts a run and --resume goes on with one: "
                                 "give one of them")
    if resume is not None:
        network = Network.load(resume)
        if network.meta.get("variant") != rules.name:
            raise InvalidOptionError(f"{resume} is a network of "
                                     f"{network.meta.get('variant')}, not {rules.name}")
        if resume != out:
            for source, target in ((data_path(resume), data_path(out)),
                                   (adam_path(resume), adam_path(out))):
                if source.exists():
                    target.write_bytes(source.read_bytes())
    else:
        # A run from another network's weights may fit the positions and labels of an
        # earlier run (its data file put beside OUT): only the optimiser is a leftover.
        for leftover in (data_path(out), adam_path(out))[init is not None:]:
            if leftover.exists():
                raise InvalidOptionError(
                    f"{leftover} is left from an earlier run: add --resume {out} to go on "
                    f"with that run, or remove it to start afresh")
        network = new_network(settings) if init is None else initial_network(rules, init)
    if command:
        network.meta["commands"] = [*network.meta.get("commands", []), command]
    console.print(f"Training a network for [bold]{rules.name}[/bold] on {plan.teacher}'s "
                  f"evaluations: {network.inputs} inputs ({network.meta.get('encoder')}), "
                  f"{network.hidden} hidden, {network.outputs} outputs; positions from "
                  f"{plan.games:,} self-play games, {plan.epochs} epochs of Adam at rate "
                  f"{plan.rate}.")
    with Progress(
        TextColumn("{task.description}"), BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,}"),
        TimeElapsedColumn(), TimeRemainingColumn(), console=console,
    ) as progress:
        task: list[Any] = []

        def event(kind: str, *args: Any) -> None:
            if kind == "stage":
                if task:
                    progress.update(task[0], visible=False)
                task[:] = [progress.add_task(args[0], total=args[1])]
            elif kind == "done":
                progress.update(task[0], completed=args[0])
            elif kind == "epoch":
                entry = args[0]
                progress.console.print(
                    f"  epoch {entry['epoch']}: rate {entry['rate']:.2e}, equity error on "
                    f"held-out positions {entry['held_out_equity_error']:.4f}")
            elif kind == "check":
                point = args[0]
                progress.console.print(f"  after {point['epochs']} epochs: {margins(point)}")

        TeacherRun(rules, network, plan, settings.seed, settings.check_games, out,
                   event).run()
    about = out.with_suffix(".json")
    about.write_text(describe(network) + "\n")
    console.print(f"Network written to {out} ({network.meta['teacher']['epochs_done']} "
                  f"epochs on {network.meta['teacher'].get('positions', 0):,} positions "
                  f"labelled by {plan.teacher}); how it was made in {about}.")
    if plot is not None and network.meta["teacher"].get("curve"):
        plot_curve(network, plot)
        console.print(f"Learning curve drawn in {plot}.")
    return network
