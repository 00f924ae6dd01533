"""The ``gammon`` command: variants, legal plays, IDs, terminal games and self-play."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import re
import sys
import time
import typing
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

import gammon
from gammon.core.dice import agreed_roll
from gammon.core.errors import GammonError, InvalidOptionError
from gammon.core.protocol import Rules
from gammon.core.variant import TrackVariant, track_variant
from gammon.core.words import plural
from gammon.variants.acedrex import Acedrex

#: What ``--ray`` with no address stands for (``gammon.agents.parallel.LOCAL``).
RAY_LOCAL = "local"
#: A word after ``--ray`` that is its address: auto, local, HOST:PORT (and ray://...,
#: read as an address so that it is refused with its reason).
_RAY_ADDRESS = re.compile(r"auto|local|ray://\S+|\[?[\w.:-]+?\]?:\d+")


def ray_argv(args: list[str]) -> list[str]:
    """The command line with ``--ray``'s optional value made explicit: ``--ray`` followed
    by nothing, by an option or by a word that is not an address (a variant name, a
    position) becomes ``--ray local``. Options cannot have optional values in typer."""
    out: list[str] = []
    for index, arg in enumerate(args):
        out.append(arg)
        if arg == "--":
            return out + args[index + 1:]
        if arg == "--ray":
            following = args[index + 1] if index + 1 < len(args) else None
            if following is None or not _RAY_ADDRESS.fullmatch(following):
                out.append(RAY_LOCAL)
    return out


class _Commands(TyperGroup):
    """The command group, reading ``--ray`` with or without its address."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:  # ctx: typer's click
        return super().parse_args(ctx, ray_argv(list(args)))


app = typer.Typer(
    cls=_Commands,
    help="gammon: backgammon and its relatives, exactly by their rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
# No emoji codes: ":x:" in an XGID is text.
console = Console(emoji=False)
errors = Console(stderr=True, emoji=False)


def _version(shown: bool) -> None:
    if shown:
        print(f"gammon {gammon.__version__}")
        raise typer.Exit()


# The command's own options, before a command (no docstring: the help is app's).
@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    pass

VariantArg = Annotated[str, typer.Argument(help="Variant name (see `gammon variants`).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="Variant option as NAME=VALUE; repeatable."),
]
RayOpt = Annotated[
    str | None,
    typer.Option("--ray", metavar="[ADDRESS]", show_default=False, help=(
        "Spread the games over a Ray cluster instead of local processes: --ray alone "
        "starts (or joins) Ray on this machine; --ray ADDRESS joins a cluster (auto or "
        "HEAD:6379, from a node of the cluster). The same seed gives the same numbers either way. "
        "Needs pip install 'gammon\\[ray]' on every node; see docs/scale-out.md.")),
]


def _fail(message: str) -> typer.Exit:
    # A Text, not markup: the message may quote what the user typed ("[/red]", ":x:").
    errors.print(Text.assemble(("error:", "bold red"), " ", message))
    return typer.Exit(2)


def _parse_options(name: str, pairs: list[str] | None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise InvalidOptionError(f"option {pair!r}: write NAME=VALUE, e.g. checkers_per_side=2")
        value: Any = raw
        if raw.lower() in ("true", "yes", "on"):
            value = True
        elif raw.lower() in ("false", "no", "off"):
            value = False
        elif re.fullmatch(r"-?[0-9]+", raw):
            value = int(raw)
        key = key.replace("-", "_")
        if key in options:
            raise InvalidOptionError(
                f"option {key} is given twice ({key}={options[key]!r} and {pair!r}): give "
                f"each option once")
        options[key] = value
    return options


def _variant(name: str, pairs: list[str] | None = None) -> Rules:
    try:
        return gammon.variant(name, **_parse_options(name, pairs))
    except GammonError as error:
        raise _fail(str(error)) from None


@app.command()
def variants() -> None:
    """List the variants, their players and their options."""
    table = Table(title="gammon variants", show_lines=True)
    table.add_column("variant", style="bold", no_wrap=True)
    table.add_column("players", justify="right")
    table.add_column("checkers", justify="right")
    table.add_column("rules and options", overflow="fold")
    for cls in gammon.variant_classes():
        hints = typing.get_type_hints(cls)
        lines = [cls.summary]
        names = [*cls.aliases, *cls.presets]
        if names:
            lines.append(f"[dim]also:[/] {', '.join(names)}")
        for f in dataclasses.fields(cls):
            kind = hints[f.name].__name__
            lines.append(f"[dim]option:[/] {f.name} ({kind}, default {f.default!r})")
        table.add_row(cls.name, str(cls().players), str(cls().checkers), "\n".join(lines))
    console.print(table)


@app.command()
def agents() -> None:
    """List the bots: what each is, its main setting and default, the variants it plays."""
    from gammon.agents import agent_kinds

    rules = [cls() for cls in gammon.variant_classes()]
    table = Table(title="gammon agents (kind[:setting][:name=value])", show_lines=True)
    table.add_column("agent", style="bold", no_wrap=True)
    table.add_column("what it is", overflow="fold")
    table.add_column("setting (default)", overflow="fold")
    table.add_column("plays", overflow="fold")
    for kind in agent_kinds():
        plays = [r.name for r in rules if kind.supports(r)]
        setting = f"{kind.option} ({kind.default})" if kind.option else ""
        if kind.options:
            setting += f"\n[dim]options:[/] {kind.options}"
        table.add_row(kind.name, kind.summary, setting,
                      "every variant" if len(plays) == len(rules) else ", ".join(plays))
    console.print(table)


def _read_position(variant: TrackVariant, text: str) -> gammon.Position:
    from gammon.notation import parse_position

    return parse_position(variant, text)


def _position_and_dice(
    variant: TrackVariant, text: str | None, dice: str | None
) -> tuple[gammon.Position, tuple[int, ...]]:
    """The position of ``text`` (default: the start) and the roll of ``dice``, or of the
    XGID or Match ID when it holds one; the two must agree when both give dice."""
    from gammon.notation import situation_from_text

    if text is None:
        position, written = variant.start_position(), None
    elif variant.notation == "gnu" and variant.players == 2:
        situation = situation_from_text(text, checkers=variant.checkers)
        position, written = situation.position, situation.dice
    else:
        position, written = _read_position(variant, text), None
    roll = agreed_roll(written, dice, variant.sides, variant.dice.count)
    if roll is None:
        raise InvalidOptionError("give the roll with --dice, e.g. --dice 31")
    return position, roll


def _legal_json(variant: TrackVariant, position: gammon.Position,
                dice: tuple[int, ...]) -> dict:
    from gammon.notation import format_position

    state = variant.state(position, dice)
    plays = [
        {
            "move": _play_text(variant, play),
            "position_id": format_position(variant, play.result),
        }
        for play in state.legal_actions()
    ]
    return {
        "position_id": format_position(variant, position),
        "dice": "".join(map(str, dice)),
        "count": len(plays),
        "plays": plays,
    }


def _play_text(variant: TrackVariant, play: gammon.Play) -> str:
    """A play as the variant's players write it (gnubg's text, or the variant's own)."""
    from gammon.cli.play import move_text_for

    return move_text_for(variant).format_play(play)


@app.command()
def legal(
    variant_name: VariantArg = "backgammon",
    position: Annotated[
        str | None,
        typer.Option("--position", "-p", help="The variant's position notation: for the "
                     "backgammon family a GNU Position ID, POSITIONID:MATCHID or XGID. "
                     "Default: the starting position."),
    ] = None,
    dice: Annotated[str | None, typer.Option("--dice", "-d", help="Dice, e.g. 31.")] = None,
    as_json: JsonOpt = False,
    batch: Annotated[
        str | None,
        typer.Option("--batch", help="File (or - for stdin) of 'POSITION DICE' lines; "
                     "writes one JSON object per line."),
    ] = None,
    option: OptionOpt = None,
) -> None:
    """List every legal play of a position and roll, with move text and resulting ID."""
    rules = _variant(variant_name, option)
    if not isinstance(rules, TrackVariant):  # a game of whole states: Acedrex
        from gammon.cli.acedrex import cli_legal

        assert isinstance(rules, Acedrex), "every variant is a track game or Acedrex"
        try:
            if cli_legal(rules, position, dice, as_json, batch, console):
                raise typer.Exit(1)
        except (GammonError, OSError) as error:
            raise _fail(str(error)) from None
        return
    if batch is not None:
        if position is not None or dice is not None:
            raise _fail("--batch reads a position and dice from each of its lines: leave out "
                        "--position and --dice")
        if batch == "-":
            failed = _legal_batch(rules, sys.stdin)
        else:
            try:
                with Path(batch).open() as lines:
                    failed = _legal_batch(rules, lines)
            except OSError as error:
                raise _fail(f"cannot read {batch}: {error.strerror}") from None
        if failed:
            raise typer.Exit(1)
        return
    try:
        start, rolled = _position_and_dice(rules, position, dice)
        result = _legal_json(rules, start, rolled)
    except GammonError as error:
        raise _fail(str(error)) from None
    if as_json:
        print(json.dumps(result, indent=2))
        return
    table = Table(title=f"{plural(result['count'], 'legal play')} for {result['dice']} "
                  f"from {result['position_id']}")
    table.add_column("#", justify="right")
    table.add_column("play", style="bold")
    table.add_column("resulting position")
    for index, play in enumerate(result["plays"], 1):
        table.add_row(str(index), play["move"] or "(no move)", play["position_id"])
    console.print(table)


def _legal_batch(rules: TrackVariant, lines: typing.Iterable[str]) -> bool:
    """Answer 'POSITION DICE' lines with one JSON object each; True if any failed."""
    failed = False
    for number, line in enumerate(lines, 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        try:
            if len(fields) != 2:
                raise GammonError(f"write 'POSITION DICE', got {len(fields)} fields")
            result = _legal_json(rules, *_position_and_dice(rules, fields[0], fields[1]))
        except GammonError as error:
            failed = True
            result = {"line": number, "input": line.strip(), "error": str(error)}
        print(json.dumps(result), flush=True)
    return failed


@app.command("id")
def id_command(
    text: Annotated[str, typer.Argument(help="XGID=... or POSITIONID:MATCHID")],
) -> None:
    """Show a situation given as XGID or GNU ID: the board, and all three forms."""
    from gammon.notation import situation_from_text
    from gammon.render.terminal import render_board

    try:
        situation = situation_from_text(text)
        state = track_variant("backgammon").state(situation.position, situation.dice)
    except GammonError as error:
        raise _fail(str(error)) from None
    console.print(render_board(state, viewer=situation.position.turn))
    table = Table(show_header=False, box=None, padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    for field, value in situation.describe().items():
        table.add_row(field, value)
    console.print(table)


#: The options of `gammon play` (a game, a match or money play, and the stakes).
SeatsOpt = Annotated[
    str | None,
    typer.Option(help="Comma-separated seats, player 0 first: human or a bot name. "
                 "Default: you against the computer in every other seat."),
]
DiceSeedOpt = Annotated[int | None, typer.Option(help="Seed for the dice.")]
MatchOpt = Annotated[
    int | None, typer.Option(min=1, max=64, help="Play a match to this many points (with "
                             "the cube), 1 to 64 as gnubg's match IDs allow.")
]
StakeOpt = Annotated[
    float | None, typer.Option(help="Play money games for this stake per point (a "
                               "positive number).")
]
CubeOpt = Annotated[
    bool | None,
    typer.Option("--cube/--no-cube", help="The doubling cube (default: the variant's, "
                 "in a match or money play; none in a single plain game)."),
]
JacobyOpt = Annotated[
    bool, typer.Option(help="Jacoby rule: gammons count single while the cube is centred "
                       "(money play).")
]
BeaverOpt = Annotated[bool, typer.Option(help="Allow beavers (money play).")]
RaccoonOpt = Annotated[bool, typer.Option(help="Allow raccoons after a beaver.")]
AutoDoublesOpt = Annotated[
    int, typer.Option(min=0, help="Automatic doubles on equal opening throws, at most.")
]
MaxCubeOpt = Annotated[int, typer.Option(min=1, help="Highest cube value.")]
ArithmeticOpt = Annotated[
    bool, typer.Option(help="Stakes rise 1, 2, 3, 4... instead of 1, 2, 4, 8...")
]
NoMarsOpt = Annotated[
    bool | None,
    typer.Option("--no-mars/--mars", help="With the cube every win counts single "
                 "(default: the variant's; on in short backgammon and Caucasian)."),
]
CrawfordOpt = Annotated[
    bool, typer.Option("--crawford/--no-crawford", help="The Crawford rule in a match.")
]
MoneyGamesOpt = Annotated[
    int | None, typer.Option(min=1, help="Money play: this many games (default: ask).")
]
SaveOpt = Annotated[
    Path | None, typer.Option(help="Write the game or match here when play stops: a "
                              ".mat or .sgf match file (backgammon, as gnubg reads "
                              "them) or the table's JSON log (.json, every "
                              "variant).")]


@app.command()
def play(
    variant_name: VariantArg = "backgammon",
    seats: SeatsOpt = None,
    seed: DiceSeedOpt = None,
    option: OptionOpt = None,
    match: MatchOpt = None,
    stake: StakeOpt = None,
    cube: CubeOpt = None,
    jacoby: JacobyOpt = False,
    beaver: BeaverOpt = False,
    raccoon: RaccoonOpt = False,
    auto_doubles: AutoDoublesOpt = 0,
    max_cube: MaxCubeOpt = 64,
    arithmetic: ArithmeticOpt = False,
    no_mars: NoMarsOpt = None,
    crawford: CrawfordOpt = True,
    games: MoneyGamesOpt = None,
    save: SaveOpt = None,
) -> None:
    """Play a game in the terminal; --match N plays a match, --stake X money games.
    `gammon play tavli` plays Portes, Plakoto and Fevga in turn, a match (5 points
    unless --match says otherwise)."""
    from gammon.agents.registry import default_bot
    from gammon.cli.play import play_table, seat
    from gammon.stakes import StakeRules
    from gammon.stakes.match import rotation

    games_in_turn = rotation(variant_name)
    if games_in_turn is not None:
        _play_rotation(games_in_turn, seats, match, stake, games, option, seed, save,
                       console)
        return
    rules = _variant(variant_name, option)
    if seats is None:
        seats = ",".join(["human"] + [default_bot(rules)] * (rules.players - 1))
    names = [name.strip() for name in seats.split(",") if name.strip()]
    cube_options = (cube is not None or jacoby or beaver or raccoon or auto_doubles > 0
                    or max_cube != 64 or arithmetic or no_mars is not None)
    money = stake is not None or games is not None or cube_options
    try:
        if stake is not None and not (math.isfinite(stake) and stake > 0):
            raise InvalidOptionError(
                f"the stake is a positive number of units a point (1, 2.5, ...), not {stake}")
        if save is not None:
            _check_save(rules, save)
        if len(names) != rules.players:
            raise InvalidOptionError(
                f"{rules.name} has {rules.players} seats; --seats gave {len(names)}")
        stakes = None
        if match is not None or money:
            if cube_options and not rules.game_type.stakes:
                raise InvalidOptionError(
                    f"the doubling cube is for two-player games; {rules.name} has "
                    f"{rules.players} players: leave out the cube options")
            stakes = StakeRules(
                cube=cube, max_cube=max_cube, beaver=beaver, raccoon=raccoon, jacoby=jacoby,
                auto_doubles=auto_doubles, no_mars_with_cube=no_mars,
                progression="arithmetic" if arithmetic else "geometric",
            )
        if match is not None:
            if stake is not None or games is not None:
                raise InvalidOptionError("--match plays for points: no --stake or --games")
            table = seat(rules, names, kind="match", length=match, stakes=stakes, seed=seed,
                         crawford=crawford)
        elif money:
            amount = 1 if stake is None else (int(stake) if stake == int(stake) else stake)
            table = seat(rules, names, kind="money", stake=amount, stakes=stakes, seed=seed,
                         games=games)
        else:
            table = seat(rules, names, seed=seed)
        play_table(table, console)
        if save is not None:
            save.write_text(_saved(table, names, save.suffix))
            console.print(f"Saved to {save}.")
    except (GammonError, OSError) as error:
        raise _fail(str(error)) from None


def _play_rotation(games_in_turn: Any, seats: str | None, match: int | None,
                   stake: float | None, games: int | None, option: list[str] | None,
                   seed: int | None, save: Path | None, console: Console) -> None:
    """`gammon play tavli`: a match whose games are several variants in turn."""
    from gammon.agents.registry import DEFAULT
    from gammon.cli.play import play_table, seat

    try:
        if stake is not None or games is not None:
            raise InvalidOptionError(f"{games_in_turn.name} is played as a match for points: "
                                     "no --stake or --games (--match sets its length)")
        games_in_turn.check("match", dict.fromkeys(option or ()))
        if save is not None and save.suffix != ".json":
            raise InvalidOptionError(f"a {games_in_turn.name} match is saved as its .json "
                                     f"log, not {save.name!r}")
        # Each game of the match against its own bot.
        names = [name.strip() for name in (seats or f"human,{DEFAULT}").split(",")
                 if name.strip()]
        table = seat(games_in_turn.name, names, kind="match", length=match or 5, seed=seed)
        play_table(table, console)
        if save is not None:
            save.write_text(json.dumps(table.to_json(), indent=1) + "\n")
            console.print(f"Saved to {save}.")
    except (GammonError, OSError) as error:
        raise _fail(str(error)) from None


def _check_save(rules: Rules, path: Path) -> None:
    """Refuse before play a file that could not be written."""
    if path.suffix not in (".mat", ".sgf", ".json"):
        raise InvalidOptionError(f"--save writes a .mat or .sgf match file or a .json "
                                 f"log, not {path.name!r}")
    if path.suffix in (".mat", ".sgf") and not (rules.notation == "gnu"
                                                and rules.players == 2):
        raise InvalidOptionError(f"a {path.suffix} file holds backgammon; save "
                                 f"{rules.name} as .json")
    if not path.parent.exists():
        raise InvalidOptionError(f"no folder {str(path.parent)!r} to save into")


def _saved(table: Any, names: list[str], suffix: str) -> str:
    """The played table as its file: a match file (``.mat``) or its JSON log."""
    from gammon.notation.mat import write_match

    if suffix == ".sgf":
        from gammon.cli.play import seat_names
        from gammon.notation.sgf import write_sgf

        return write_sgf(table.length, seat_names(table.variant, names, "human"),
                         table.series.games)
    if suffix == ".mat":
        from gammon.cli.play import seat_names

        return write_match(table.length, seat_names(table.variant, names, "human"),
                           table.series.games,
                           [f'[Variation "{table.variant.name}"]'])
    return json.dumps(table.to_json(), indent=1) + "\n"


@app.command()
def selfplay(
    variant_name: VariantArg = "backgammon",
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed.")] = 0,
    as_json: JsonOpt = False,
    max_turns: Annotated[int, typer.Option(min=1, help="Plays before a game is cut off.")] = 10000,
    jobs: Annotated[int, typer.Option(min=1, help="Local processes playing chunks of "
                                      "games side by side.")] = 1,
    ray: RayOpt = None,
    option: OptionOpt = None,
) -> None:
    """Random-vs-random games through the compiled playouts; prints statistics."""
    from gammon.agents.playouts import random_games

    rules = _variant(variant_name, option)
    if not isinstance(rules, TrackVariant):  # Acedrex: its own playout columns
        from gammon.cli.acedrex import cli_selfplay

        assert isinstance(rules, Acedrex), "every variant is a track game or Acedrex"
        if jobs > 1 or ray is not None:
            raise _fail("Acedrex's self-play runs in one process: leave out --jobs and --ray")
        cli_selfplay(rules, games, seed, as_json, max_turns, console)
        return
    began = time.perf_counter()
    with Progress(
        TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
        TimeRemainingColumn(), console=errors, transient=True, disable=as_json or games < 5000,
    ) as progress:
        task = progress.add_task(f"{rules.name} self-play", total=games)
        try:
            # Chunks of games with seeds of their own: the same rows on any backend.
            results = random_games(rules, games, seed, max_turns, jobs, ray,
                                   lambda done: progress.update(task, completed=done))
        except GammonError as error:
            raise _fail(str(error)) from None
    elapsed = time.perf_counter() - began
    stats = _selfplay_stats(rules, results, elapsed, seed)
    if as_json:
        print(json.dumps(stats, indent=2))
        return
    if rules.players > 2:
        _print_places(rules, stats)
        return
    table = Table(title=f"{rules.name}: {games} random games, seed {seed}")
    table.add_column("player", justify="right")
    table.add_column("wins", justify="right")
    for name in rules.result_names:
        table.add_column(name, justify="right")
    table.add_column("mean points", justify="right")
    for row in stats["players"]:
        table.add_row(
            str(row["player"]), str(row["wins"]), str(row["single"]), str(row["gammons"]),
            str(row["backgammons"]), f"{row['mean_points']:+.3f}",
        )
    console.print(table)
    console.print(
        f"{games} games in {elapsed:.2f} s: [bold]{stats['games_per_second']:.0f} games/s[/], "
        f"mean {stats['mean_plays']:.1f} plays a game, {stats['draws']} drawn, "
        f"{stats['unfinished']} unfinished"
    )


def _print_places(rules: TrackVariant, stats: dict) -> None:
    """The self-play table of a game of more than two players: places and scores."""
    seats = rules.players
    table = Table(title=f"{rules.name}: {stats['games']} random games, seed {stats['seed']}")
    table.add_column("seat", justify="right")
    for place in range(seats):
        table.add_column(_ordinal(place + 1), justify="right")
    table.add_column("mean score", justify="right")
    for row in stats["players"]:
        table.add_row(str(row["player"]), *map(str, row["places"]), f"{row['mean_score']:.3f}")
    console.print(table)
    order = stats["turn_order"]
    names = ["the starter", *(f"{_ordinal(k + 1)} in turn" for k in range(1, seats))]
    console.print(
        "Mean score by turn order: "
        + ", ".join(f"{name} {row['mean_score']:.3f}"
                    for name, row in zip(names, order, strict=True))
        + f" (average {stats['mean_score']:.3f}): the starter's edge is [bold]"
        f"{order[0]['mean_score'] - stats['mean_score']:+.3f}[/] points a game"
    )
    console.print(
        f"{stats['games']} games in {stats['seconds']:.2f} s: "
        f"[bold]{stats['games_per_second']:.0f} games/s[/], mean {stats['mean_plays']:.1f} "
        f"plays a game, {stats['unfinished']} unfinished"
    )


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ..."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10 if n % 100 not in (11, 12, 13) else 0)
    return f"{n}{suffix or 'th'}"


def _selfplay_stats(rules: TrackVariant, results: np.ndarray, elapsed: float, seed: int) -> dict:
    """Statistics of ``rules.random_playouts`` rows.

    Two players: rows of (winner, points, plays); per player the wins by kind and the
    mean net points. More players: rows of (winner, points, plays, starter, score per
    seat..., place per seat...); per seat the count of each place and the mean score,
    and the mean score by turn order (the starter first), which shows what moving first
    is worth.
    """
    winners, points, plays = results[:, 0], results[:, 1], results[:, 2]
    stats = {
        "variant": rules.name,
        "options": rules.options(),
        "games": int(len(results)),
        "seed": seed,
        "seconds": elapsed,
        "games_per_second": len(results) / elapsed if elapsed > 0 else float("inf"),
        "mean_plays": float(plays.mean()),
        "unfinished": int((winners == -1).sum()),
        "draws": int((winners == -2).sum()),
    }
    if rules.players > 2:
        return stats | _place_stats(rules.players, results)
    players = []
    for p in range(rules.players):
        won = winners == p
        net = np.where(won, points, np.where(winners >= 0, -points, 0))
        players.append({
            "player": p,
            "wins": int(won.sum()),
            "single": int((won & (points == 1)).sum()),
            "gammons": int((won & (points == 2)).sum()),
            "backgammons": int((won & (points == 3)).sum()),
            "mean_points": float(net.mean()),
        })
    return stats | {"players": players}


def _place_stats(seats: int, results: np.ndarray) -> dict:
    """Per seat and per turn order: places and mean scores (finished games only)."""
    done = results[results[:, 0] >= 0]
    starters = done[:, 3]
    scores = done[:, 4 : 4 + seats]
    places = done[:, 4 + seats : 4 + 2 * seats]
    players = [
        {
            "player": p,
            "wins": int((places[:, p] == 1).sum()),
            "places": [int((places[:, p] == k).sum()) for k in range(1, seats + 1)],
            "mean_score": float(scores[:, p].mean()) if len(done) else 0.0,
        }
        for p in range(seats)
    ]
    turn_order = []
    for k in range(seats):
        seat = (starters + k) % seats
        own = scores[np.arange(len(done)), seat]
        turn_order.append({
            "after_starter": k,
            "wins": int((places[np.arange(len(done)), seat] == 1).sum()),
            "mean_score": float(own.mean()) if len(done) else 0.0,
        })
    mean = float(scores.mean()) if len(done) else 0.0
    return {"players": players, "turn_order": turn_order, "mean_score": mean}


@app.command()
def duel(
    variant_name: VariantArg = "backgammon",
    players: Annotated[str, typer.Option(
        help="Agents, comma-separated, one per seat (or fewer, repeated): random, "
             "heuristic, expectimax[:DEPTH], mcts[:ITERATIONS], rollout[:GAMES], pubeval, "
             "gnubg[:PLIES] ('gammon agents' lists them)."
    )] = "heuristic,random",
    games: Annotated[int, typer.Option(min=1, help="Number of games (of matches with "
                                       "--match).")] = 100,
    seed: Annotated[int, typer.Option(help="Seed for dice and agents.")] = 0,
    jobs: Annotated[int, typer.Option(min=1, help="Games played side by side (local "
                                      "processes).")] = 1,
    ray: RayOpt = None,
    journal: Annotated[Path | None, typer.Option(
        help="Write each game down in this file as it ends; run the same duel again to go "
             "on where it stopped.")] = None,
    match: Annotated[int | None, typer.Option(
        min=1, max=25, help="Play whole matches to this many points with the cube: each "
        "agent's chance to win a match, with its interval.")] = None,
    money: Annotated[bool, typer.Option(
        "--money", help="Play money games with the cube: points per game, the cube's "
        "value included.")] = False,
    as_json: JsonOpt = False,
    option: OptionOpt = None,
) -> None:
    """Agents against each other, seats rotated: points per game with 95% intervals
    (cubeless single games unless --money or --match says otherwise)."""
    from gammon.agents.cli import run_duel
    from gammon.agents.duel import GAME, MATCH, MONEY

    if match is not None and money:
        raise _fail("play either matches (--match N) or money games (--money), not both")
    rules = _variant(variant_name, option)
    contest = MATCH if match is not None else MONEY if money else GAME
    try:
        run_duel(rules, players, games, seed, jobs, as_json, console, errors, ray, journal,
                 contest, match or 0)
    except GammonError as error:
        raise _fail(str(error)) from None


#: The options of `gammon train` that say how the work is shared and what it learns from.
ShardsOpt = Annotated[int | None, typer.Option(
    min=1, help="Data-parallel rounds: shards a round, each playing --shard-games "
    "games from the round's weights (default 8 with --jobs or --ray; given alone, "
    "the rounds run in this process, the same weights as on Ray). Without --jobs, "
    "--ray or --shards training is sequential.")]
ShardGamesOpt = Annotated[int, typer.Option(min=1, help="Games a shard plays a "
    "round.")]
ContactOpt = Annotated[bool | None, typer.Option(
    "--contact/--raw", help="Add the contact features to the inputs (shots, escapes, "
    "containment, primes...: the backgammon family; docs/networks.md), or read the "
    "raw inputs only. Default: the features with --teacher, raw inputs in "
    "self-play.", show_default=False)]
TeacherOpt = Annotated[str | None, typer.Option(
    help="Learn a teacher's evaluations instead of self-play's: gnubg[:PLIES] "
    "(PLIES 0-2; backgammon), or neural (the shipped network, at 0 plies: what --prune "
    "learns). --games is then how many self-play games of the shipped network give the "
    "positions it labels.")]
EpochsOpt = Annotated[int, typer.Option(min=1, help="With --teacher: passes of Adam over "
    "the labelled positions.")]
TeacherProcessesOpt = Annotated[int, typer.Option(
    min=1, help="With --teacher: gnubg processes labelling at once.")]
InitOpt = Annotated[Path | None, typer.Option(
    help="With --teacher: start from this network's weights (its size and inputs) "
    "instead of random ones, e.g. the shipped network for a network of one kind.")]
KindOpt = Annotated[str, typer.Option(
    help="With --teacher: a network for one kind of position alone (race), read beside "
    "the main network as NAME.race.npz (docs/networks.md).")]
PruneOpt = Annotated[bool, typer.Option(
    "--prune", help="A pruning network, read beside the main network as NAME.prune.npz: "
    "small (--hidden), on the raw inputs, taught by the shipped network (the teacher "
    "'neural'); a search values only the best few plays of each roll by it in full "
    "(docs/networks.md).")]


def _pruning_teacher(teacher: str | None, contact: bool | None, kind: str,
                     init: Path | None) -> tuple[str, bool]:
    """The teacher and the inputs of a pruning network (``--prune``): the shipped
    network, the raw inputs; anything else asked for is refused."""
    if contact or kind or init or (teacher or "neural").lower() != "neural":
        raise _fail("--prune trains a pruning network on the raw inputs, taught by the "
                    "shipped network: leave out --contact, --kind, --init and --teacher")
    return "neural", False


@app.command()
def train(
    variant_name: VariantArg = "backgammon",
    games: Annotated[int, typer.Option(min=1, help="Self-play games the network will have "
                                        "played in all (a resumed one counts its own).")] = 10_000,
    out: Annotated[Path | None, typer.Option(help="The network file (.npz) to write; "
                                             "default VARIANT.npz here.")] = None,
    resume: Annotated[Path | None, typer.Option(help="Go on training this network file, "
                                                "with the settings it was made with.")] = None,
    plot: Annotated[Path | None, typer.Option(help="The learning curve's PNG; default "
                                              "next to the network.")] = None,
    hidden: Annotated[int | None, typer.Option(min=1, help="Hidden units (default 128).")
                      ] = None,
    lam: Annotated[float | None, typer.Option(
        "--lambda", min=0.0, max=1.0, help="TD(lambda)'s lambda (default 0.7; a resumed "
        "network keeps its own unless this is given).")] = None,
    rate: Annotated[float | None, typer.Option(
        min=0.0, help="Learning rate (default 0.004, Acedrex 0.00002; a resumed network "
        "keeps its own unless this is given).")] = None,
    check_every: Annotated[int | None, typer.Option(
        min=0, help="Measure the network every this many games (0: never); default a "
        "tenth of the run.")] = None,
    check_games: Annotated[int, typer.Option(min=2, help="Games per strength check.")] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the network and of the dice.")] = 1,
    jobs: Annotated[int, typer.Option(min=1, help="Local processes for data-parallel "
                                      "self-play (more than 1 trains in rounds, see "
                                      "--shards).")] = 1,
    ray: RayOpt = None,
    shards: ShardsOpt = None,
    shard_games: ShardGamesOpt = 25,
    contact: ContactOpt = None,
    teacher: TeacherOpt = None,
    epochs: EpochsOpt = 40,
    teacher_processes: TeacherProcessesOpt = 16,
    kind: KindOpt = "",
    prune: PruneOpt = False,
    init: InitOpt = None,
    option: OptionOpt = None,
) -> None:
    """Train a network by TD(lambda) self-play (or on a teacher's evaluations, with
    --teacher), with checkpoints and a learning curve."""
    from gammon.nn import PRUNE
    from gammon.training.cli import run_teacher, run_training
    from gammon.training.teacher import TeacherPlan
    from gammon.training.train import HIDDEN, LAMBDA, SHARDS, Rounds, Settings, default_rate

    rules = _variant(variant_name, option)
    if prune:
        teacher, contact = _pruning_teacher(teacher, contact, kind, init)
    out = out if out is not None else Path(f"{rules.name}.npz")
    plot = plot if plot is not None else out.with_suffix(".png")
    every = check_every if check_every is not None else max(games // 10, 1)
    settings = Settings(rules.name, rules.options(), hidden or HIDDEN,
                        LAMBDA if lam is None else lam,
                        default_rate(rules) if rate is None else rate,
                        seed, every, check_games,
                        teacher is not None if contact is None else contact)
    changes = {"hidden": hidden, "lam": lam, "rate": rate, "contact": contact or None}
    parallel = jobs > 1 or ray is not None or shards is not None
    command = " ".join(["gammon", *sys.argv[1:]])
    try:
        if (kind or init) and teacher is None:
            raise InvalidOptionError("--kind and --init train on a teacher's evaluations: "
                                     "add --teacher gnubg[:PLIES]")
        if teacher is not None:
            if parallel:
                raise InvalidOptionError("--teacher trains in this process: --jobs, --ray "
                                         "and --shards are for self-play")
            plan = TeacherPlan(teacher, games, epochs, rate=1e-3 if rate is None else rate,
                               processes=teacher_processes,
                               check_every=check_every if check_every is not None
                               else max(epochs // 4, 1), kind=kind,
                               role=PRUNE if prune else "")
            run_teacher(settings, plan, out, resume, plot, console, command, init)
            return
        rounds = (Rounds(shards or SHARDS, shard_games, jobs, ray) if parallel else None)
        run_training(settings, games, out, resume, plot, console,
                     {k: v for k, v in changes.items() if v is not None}, command, rounds)
    except (GammonError, OSError) as error:
        raise _fail(str(error)) from None


VariantOpt = Annotated[str, typer.Option("--variant", help="Variant name.")]
NetOpt = Annotated[Path | None, typer.Option(help="A network of `gammon train` instead of "
                                                "the shipped one.")]


@app.command()
def hint(
    position: Annotated[str, typer.Argument(help="The position: an XGID or GNU ID for "
                                            "backgammon, the variant's notation otherwise.")],
    variant_name: VariantOpt = "backgammon",
    dice: Annotated[str | None, typer.Option(help="The roll to play, e.g. 31; without "
                                             "dice, the cube decision.")] = None,
    plies: Annotated[int, typer.Option(min=0, max=3, help="Plies of search on the "
                                       "network.")] = 2,
    net: NetOpt = None,
    as_json: JsonOpt = False,
    option: OptionOpt = None,
) -> None:
    """The best plays of a roll with their equities, or the cube decision."""
    from gammon.analysis.cli import network_evaluator, print_hint, read_state

    rules = _variant(variant_name, option)
    try:
        evaluator = network_evaluator(rules, net)
        print_hint(console, rules, read_state(rules, position, dice), evaluator, plies,
                   as_json)
    except GammonError as error:
        raise _fail(str(error)) from None


@app.command()
def rollout(
    position: Annotated[str, typer.Argument(help="The position (as for hint).")],
    variant_name: VariantOpt = "backgammon",
    dice: Annotated[str | None, typer.Option(help="The roll whose plays are rolled out; "
                                             "without it, the position itself.")] = None,
    plays: Annotated[str | None, typer.Option(help="Plays to roll out side by side, "
                                              "comma-separated (default: the network's "
                                              "best three).")] = None,
    games: Annotated[int, typer.Option(min=1, help="Games per play.")] = 500,
    jobs: Annotated[int, typer.Option(min=1, help="Processes.")] = 1,
    ray: RayOpt = None,
    seed: Annotated[int, typer.Option(help="Seed of the dice.")] = 1,
    net: NetOpt = None,
    as_json: JsonOpt = False,
    option: OptionOpt = None,
) -> None:
    """Cubeless rollouts with the network's players, 95% intervals, luck-adjusted."""
    from gammon.analysis.cli import network_evaluator, read_state, run_rollout

    rules = _variant(variant_name, option)
    try:
        evaluator = network_evaluator(rules, net)
        state = read_state(rules, position, dice)
        chosen = [p.strip() for p in plays.split(",") if p.strip()] if plays else None
        run_rollout(console, rules, state, evaluator, games, seed, jobs, chosen, as_json, ray)
    except GammonError as error:
        raise _fail(str(error)) from None


@app.command()
def analyze(
    record: Annotated[Path, typer.Argument(help="A match file (.mat, or gnubg's .sgf, "
                                           "whose analysis is shown too) or a table's "
                                           "log (.json, every variant with a "
                                           "network).")],
    plies: Annotated[int, typer.Option(min=0, max=2, help="Plies of search.")] = 1,
    plot: Annotated[Path | None, typer.Option(help="Draw each side's winning chances "
                                              "through the game here (.png or .svg).")] =
    None,
    html: Annotated[Path | None, typer.Option("--html", help="Write one page with the "
                                              "boards of the worst decisions.")] = None,
    net: NetOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Rate every decision of a game or match: equity lost, marks, error rates."""
    from gammon.analysis.cli import run_analyze

    try:
        run_analyze(console, record, net, plies, plot, html, as_json)
    except (GammonError, OSError) as error:
        raise _fail(str(error)) from None


EngineBotOpt = Annotated[str | None, typer.Option(
    "--bot", help="The bot that answers (see `gammon agents`: neural, neural:1, gnubg:2, "
    "expectimax...; default: each game's leading bot, neural:2 in backgammon).")]
EnginePliesOpt = Annotated[int | None, typer.Option(
    min=0, max=3, help="Plies of search for the bots that search by plies.")]


def _engine(bot: str | None, plies: int | None) -> Any:
    from gammon.engine.decide import Engine

    engine = Engine()
    try:
        engine.configure(bot=bot or "", plies=plies)
    except GammonError as error:
        raise _fail(str(error)) from None
    return engine


@app.command()
def ubgi(bot: EngineBotOpt = None, plies: EnginePliesOpt = None) -> None:
    """Speak the Universal Backgammon Interface on standard input and output (a GUI's
    engine: `ubgi`, a position as an XGID or FIBS board, `quit`)."""
    from gammon.engine.ubgi import run

    run(_engine(bot, plies))


@app.command()
def external(
    port: Annotated[int, typer.Option(min=1, max=65535, help="The port gnubg connects "
                                      "to: `set player 1 external localhost:PORT`.")],
    host: Annotated[str, typer.Option(help="The address to listen on (the protocol has "
                                      "no authentication: keep it local).")] = "127.0.0.1",
    bot: EngineBotOpt = None,
    plies: EnginePliesOpt = None,
) -> None:
    """Play as GNU Backgammon's external player: FIBS boards in, moves and cube
    actions out, until interrupted."""
    from gammon.engine.external import ExternalServer

    engine = _engine(bot, plies)
    engine.prepare()
    try:
        server = ExternalServer(engine, port, host)
    except OSError as error:
        raise _fail(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    console.print(f"gammon plays gnubg's external player on {host}:{server.port} "
                  f"(in gnubg: set player 1 external {host}:{server.port}); Ctrl-C ends")
    with server, contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()


@app.command()
def prepare(
    variants: Annotated[list[str] | None, typer.Argument(
        help="Only these variants (default: every variant and the vector environment).",
        show_default=False)] = None,
) -> None:
    """Compile the engine's kernels now, so that no game waits for them later (make play
    compiles backgammon's before its first game and the rest in the background; make
    test compiles everything once)."""
    from gammon.cli.warm import warm_all, warm_variant

    started = time.perf_counter()
    names = [_variant(name).name for name in variants or []]
    with console.status("Compiling the engine...") as status:
        if names:
            for name in names:
                status.update(f"Compiling the engine: {name}...")
                warm_variant(name)
        else:
            warm_all(lambda name: status.update(f"Compiling the engine: {name}..."))
    console.print(f"The engine is compiled and cached ({time.perf_counter() - started:.0f} s).")


@app.command()
def solve(
    checkers: Annotated[int, typer.Argument(
        min=1, max=3, help="Checkers a side: 1, 2 or 3 (1 and 2 ship solved).")] = 3,
) -> None:
    """Solve hypergammon exactly and keep its table where the `perfect` bot reads it
    (three checkers: about 8 minutes on two cores and 6.6 GB of memory; the table takes
    171 MB)."""
    from gammon.evaluators.exact import solved_path, write_table

    path = solved_path(checkers)
    started = time.perf_counter()
    with console.status(f"Solving hypergammon with {checkers} checkers a side...") as status:
        _, sweeps = write_table(checkers, path, progress=lambda line: status.update(
            f"Solving hypergammon with {checkers} checkers a side: {line}"))
    console.print(f"Hypergammon with {checkers} checkers a side is solved ({sweeps} sweeps, "
                  f"{time.perf_counter() - started:.0f} s): {path}. The `perfect` bot plays "
                  "by it and leads hypergammon's bots.")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port.")] = 8000,
    database: Annotated[str, typer.Option(
        help="SQLAlchemy URL of the tables' database: a SQLite file by default (made on "
        "first start; one process), or postgresql+psycopg://user:pass@host/db (any number "
        "of processes and machines).")] = "sqlite:///gammon.db",
    workers: Annotated[int, typer.Option(min=1, max=64, help="Server processes on this "
                                         "port (more than one needs PostgreSQL).")] = 1,
    config: Annotated[Path | None, typer.Option(
        help="The server's configuration (TOML): bot levels beyond the menu, limits, "
        "rates; see docs/security.md.")] = None,
    bot_delay: Annotated[float | None, typer.Option(min=0.0, help="Seconds between a bot's "
                                                    "moves, so people can follow them "
                                                    "(0.5 unless the configuration says).")
                         ] = None,
    proxy: Annotated[str, typer.Option(
        help="Addresses of the reverse proxies whose X-Forwarded-For names the client "
        "(comma-separated; * for any): the per-address limits count the client, not the "
        "proxy.")] = "127.0.0.1",
) -> None:
    """The web app: a lobby of tables, every variant, people and bots, live."""
    import os
    import resource

    import uvicorn

    from gammon.web.config import listening_hosts, load_config
    from gammon.web.store import Store

    try:
        settings = load_config(config, **({} if bot_delay is None else
                                          {"bot_delay": bot_delay}))
        store = Store(database)  # made (or upgraded) once, before any worker starts
    except GammonError as error:
        raise _fail(str(error)) from None
    except Exception as error:  # a bad database URL or an unreachable server
        raise _fail(f"cannot open the database {database!r}: {error}") from None
    if workers > 1 and not store.postgres:
        raise _fail("several server processes share their tables through PostgreSQL: "
                    "give --database postgresql+psycopg://..., or serve with --workers 1")
    store.engine.dispose()
    # Each websocket is a file: let the process have what its limits promise, if it may.
    wanted = settings.limits.sockets + 1000
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        limit = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, limit), hard))
    # The bearoff databases, before any bot needs them within its time budget.
    from gammon.evaluators import bearoff

    if not bearoff.built():
        with console.status("Building the bearoff databases (once, about ten seconds)..."):
            bearoff.prepare()
    # The names it answers for: the configured ones and what it listens on.
    hosts = list(dict.fromkeys([*settings.hosts, *listening_hosts(host)]))
    os.environ["GAMMON_SERVE"] = json.dumps({
        "database": database, "config": str(config) if config else None,
        "bot_delay": settings.bot_delay, "hosts": hosts})
    console.print(f"gammon serves on http://{host}:{port}/ ({workers} process"
                  f"{'es' if workers > 1 else ''}, tables in {store.engine.url!r}) for the "
                  f"host names {', '.join(hosts)} (hosts in --config adds others); Ctrl-C "
                  "stops it, and every table is there when it starts again.")
    uvicorn.run("gammon.web.app:app_from_environment", factory=True, host=host, port=port,
                workers=workers, log_level="warning",
                http="gammon.web.serving:HTTP", ws="gammon.web.serving:WebSockets",
                ws_max_size=settings.limits.message_chars * 4, ws_max_queue=8,
                limit_concurrency=settings.limits.sockets + 100, timeout_keep_alive=5,
                timeout_graceful_shutdown=math.ceil(settings.limits.shutdown_seconds),
                ws_per_message_deflate=settings.compress_websockets,
                proxy_headers=True, forwarded_allow_ips=proxy)


@app.command()
def verify(
    record: Annotated[Path | None, typer.Argument(help="A table's record: the JSON of "
                                                  "/api/tables/ID/record, or Table.to_json.")
                      ] = None,
    database: Annotated[str | None, typer.Option(
        help="Instead of a record: replay every table of a server's database and list "
        "those that do not replay or whose bots it does not offer.")] = None,
    config: Annotated[Path | None, typer.Option(
        help="The server's configuration (its bot menu), with --database.")] = None,
    set_aside: Annotated[bool, typer.Option(
        "--set-aside", help="With --database: quarantine the damaged open tables.")] = False,
) -> None:
    """Check a finished table's dice: the seed matches its published commitment, and every
    throw of the log is the one the seed gives. With --database, check every table a
    server keeps."""
    from gammon.table.dice import commitment
    from gammon.table.table import Table

    if database is not None:
        _verify_database(database, config, set_aside)
        return
    if record is None:
        raise _fail("give a table's record (a JSON file), or --database URL")
    try:
        data = json.loads(record.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise _fail(f"cannot read {record}: {error}") from None
    if not isinstance(data, dict) or data.get("seed") is None:
        raise _fail("the record has no seed: only a finished table's record reveals it")
    published = data.get("commitment")
    if published is not None and commitment(int(data["seed"])) != published:
        raise _fail("the seed does not match the commitment the table published: the "
                    "dice were not the ones promised")
    try:
        table = Table.from_json(data)
    except GammonError as error:
        raise _fail(f"the log does not follow the seed: {error}") from None
    throws = sum(1 for game in data["log"] for entry in game if "roll" in entry)
    console.print(f"All {throws} throws of {len(data['log'])} game(s) are the ones the seed "
                  f"gives" + (", and the seed matches the published commitment"
                              if published is not None else "")
                  + f" ({table.variant.name}, {'fair' if table.fair else 'seeded'} dice).")


def _server_store(database: str, config: Path | None) -> tuple[Any, Any]:
    from gammon.web.config import load_config
    from gammon.web.store import Store

    try:
        return Store(database), load_config(config)
    except GammonError as error:
        raise _fail(str(error)) from None
    except Exception as error:
        raise _fail(f"cannot open the database {database!r}: {error}") from None


def _verify_database(database: str, config: Path | None, set_aside: bool) -> None:
    from gammon.web import admin

    store, settings = _server_store(database, config)
    checked, damaged = admin.verify(store, settings, set_aside)
    if not damaged:
        console.print(f"All {checked} tables replay, and their bots are offered.")
        return
    grid = Table("table", "status", "why", title=f"{len(damaged)} of "
                 f"{checked} tables cannot be played here")
    for damage in damaged:
        grid.add_row(damage.id, damage.status, Text(damage.reason))
    console.print(grid)
    raise typer.Exit(1)


admin_app = typer.Typer(help="A server operator's commands on its database.",
                        no_args_is_help=True)
app.add_typer(admin_app, name="admin")
DatabaseOpt = Annotated[str, typer.Option(help="The server's database (SQLAlchemy URL).")]


@admin_app.command("tables")
def admin_tables(
    database: DatabaseOpt = "sqlite:///gammon.db",
    status: Annotated[str | None, typer.Option(
        help="Only tables of this status: open, over, archived or quarantined.")] = None,
) -> None:
    """List the stored tables (the quarantined ones with why they were set aside)."""
    from gammon.web.store import STATUSES

    if status is not None and status not in STATUSES:
        raise _fail(f"status is one of {', '.join(STATUSES)}, not {status!r}")
    store, _ = _server_store(database, None)
    rows = store.rows(status)
    grid = Table("table", "variant", "status", "version", "why", title=f"{len(rows)} tables")
    for saved in rows:
        grid.add_row(saved.id, Text(str(saved.settings.get("variant", "?"))), saved.status,
                     str(saved.version), Text(saved.reason or saved.damaged))
    console.print(grid)


@admin_app.command("release")
def admin_release(
    table: Annotated[str, typer.Argument(help="The quarantined table's ID.")],
    database: DatabaseOpt = "sqlite:///gammon.db",
    config: Annotated[Path | None, typer.Option(help="The server's configuration.")] = None,
) -> None:
    """Put a quarantined table back into play, once it replays again."""
    from gammon.web import admin

    store, settings = _server_store(database, config)
    try:
        room = admin.release(store, table, settings)
    except GammonError as error:
        raise _fail(str(error)) from None
    console.print(f"Table {table} replays again ({room.version} steps): it is "
                  f"{'over' if room.table.over else 'back in play'}.")


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    app()
