"""Acedrex Backgammon in the terminal, and its command-line faces (play, legal, selfplay).

:func:`run_acedrex` plays one four-seat game: each seat is ``human`` (a person at this
keyboard) or a bot (any agent of :mod:`gammon.agents`: ``random``, ``heuristic``,
``expectimax``, ``mcts``...). Every throw is shown as it happens: the movement roll, the
attacker's and defender's combat throws (and the 1s thrown again), and how each fight
ends. A person moves by typing slots (``B3+7``, ``B3 7``, ``B3>Y1``, ``hand 4``, several
on one line), ``?`` lists every legal action by number, ``help`` explains the rest.

The bots never resign (a uniform choice would resign at almost every turn); the random
bot chooses uniformly among the other legal actions, as
:func:`gammon.variants.acedrex.random_action` does.
"""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from gammon.cli.play import HUMAN, check_seats, make_agent
from gammon.core.dice import Roll
from gammon.core.errors import GammonError, IllegalPlayError, InvalidOptionError
from gammon.core.state import Phase
from gammon.kernels import acedrex as kernel
from gammon.notation.acedrex import START, format_state, parse_state
from gammon.render.acedrex import player_text, render_ring
from gammon.variants.acedrex import (
    ATTACK,
    COLOURS,
    DEFEND,
    HAND,
    JUMP,
    KEEP,
    LETTERS,
    MOVE,
    NO_JUMP,
    ONE,
    PASS,
    PLAYERS,
    REROLL,
    RESIGN,
    RING,
    ROLL,
    Acedrex,
    AcedrexState,
    Action,
    Jump,
    Step,
    fight_result,
    first_stop,
    is_gate,
    owner,
    parse_stop,
    random_action,
    stop_name,
)
from gammon.variants.acedrex import START as START_STAGE

HELP = (
    ("B3+7  or  B3 7", "move the piece on B3 seven steps (the die may be split)"),
    ("B3>Y1", "move the piece on B3 to Y1 (or >jackpot)"),
    ("hand 4", "bring a piece from your hand: 4 steps from before your slot 1"),
    ("B3+5 B7+7", "several parts of the die on one line"),
    ("keep / reroll", "after rolling a 1"),
    ("jump B5>R2 / no", "after rolling a 20"),
    ("pass", "when nothing can move"),
    ("? legal", "list the legal actions, numbered; type a number to take one"),
    ("board", "show the board again"),
    ("resign", "leave the game and settle your bets now"),
    ("quit", "stop: the game ends without a result"),
)

_MOVE = re.compile(
    r"(?P<src>hand|h|[BROY][1-9])\s*(?:\+\s*(?P<steps>\d+)|>\s*(?P<dst>jackpot|j|[BROY][1-9])"
    r"|\s+(?P<plain>\d+))(?:\s*>\s*(?:jackpot|[BROY][1-9])\*?)?\*?",
    re.IGNORECASE,
)
_JUMP = re.compile(r"^(?:jump\s+)?([BROY][1-9])\s*(?:>|\s)\s*([BROY][1-9])$", re.IGNORECASE)


def help_text() -> Group:
    table = Table.grid(padding=(0, 3))
    table.add_column(style="cyan", no_wrap=True)
    table.add_column()
    for left, right in HELP:
        table.add_row("  " + left, right)
    return Group(
        Text("Slots are named by territory (B Blue, R Red, O Orange, Y Yellow) and 1-9. "
             "Pieces travel B1..B9, gate, Y1..Y9, gate, O1..O9, gate, R1..R9, gate, B1. "
             "Landing on an opponent is a charge and needs the whole die; landing on a "
             "gate puts the piece in the jackpot. The rules: docs/rules/acedrex.md."),
        table,
    )


# --- reading what a person types ---------------------------------------------------------


def parse_actions(state: AcedrexState, line: str) -> list[Action]:
    """The actions a line means at ``state`` (several steps for a split die).

    Raises :class:`IllegalPlayError` saying why when a part is not legal; nothing is
    applied unless every part is.
    """
    text = line.strip()
    word = text.lower()
    legal = state.legal_actions()
    simple = {"resign": RESIGN, "pass": PASS, "keep": KEEP, "keep 1": KEEP, "k": KEEP,
              "reroll": REROLL, "r": REROLL, "no": NO_JUMP, "n": NO_JUMP,
              "no jump": NO_JUMP, "nojump": NO_JUMP}
    if word in simple:
        action = simple[word]
        if action not in legal:
            raise IllegalPlayError(f"{word!r} is not possible now")
        return [action]
    if state.stage == JUMP:
        match = _JUMP.match(text)
        if not match:
            raise IllegalPlayError("write the jump as B5>R2 (from, to), or no")
        jump = Jump(parse_stop(match.group(1)), parse_stop(match.group(2)))
        if jump not in legal or jump.source == jump.target:
            raise IllegalPlayError(f"{jump} is not possible: the piece must be untapped and "
                                   "alone, the target beside an untapped piece of yours")
        return [jump]
    if state.stage != MOVE:
        raise IllegalPlayError("answer keep or reroll")
    found = list(_MOVE.finditer(text))
    rest = _MOVE.sub("", text).replace(",", " ").strip()
    if not found or rest:
        raise IllegalPlayError(f"cannot read {text!r}: write a move like B3+7, B3 7 or B3>Y1")
    actions: list[Action] = []
    current = state
    for match in found:
        if current.stage != MOVE or current.phase is not Phase.DECIDE:
            raise IllegalPlayError("the die is spent before the last part")
        step = _read_step(current, match)
        moves = current.legal_actions()
        if step not in moves:
            raise IllegalPlayError(_why_not(current, step))
        step = moves[moves.index(step)]  # with its landing, for the record
        actions.append(step)
        current = current.apply(step)
    return actions


def _read_step(state: AcedrexState, match: re.Match[str]) -> Step:
    source = parse_stop(match.group("src"))
    start = first_stop(state.turn) - 1 if source == HAND else source
    if match.group("dst"):
        dst = match.group("dst").lower()
        if dst in ("j", "jackpot"):
            steps = next(k for k in range(1, RING) if is_gate((start + k) % RING))
        else:
            steps = (parse_stop(dst) - start) % RING
    else:
        steps = int(match.group("steps") or match.group("plain"))
    return Step(source, steps)


def _why_not(state: AcedrexState, step: Step) -> str:
    name = stop_name(step.source)
    p = state.turn
    if step.steps < 1 or step.steps > state.left:
        return f"{name}+{step.steps}: you have {state.left} to spend"
    if step.source == HAND and not state.hands[p]:
        return "you have no piece in hand"
    if step.source != HAND:
        stack = state.ring[step.source]
        if not any(owner(x) == p for x in stack):
            return f"you have no piece on {name}"
        if any(owner(x) != p for x in stack):
            return f"your piece on {name} shares the slot with an opponent: it is not Alone"
        if all(state.is_tapped(x) for x in stack if owner(x) == p):
            return f"your piece on {name} has moved this turn"
    start = first_stop(p) - 1 if step.source == HAND else step.source
    target = (start + step.steps) % RING
    if is_gate(target):
        return "the jackpot is full: no move may end on a gate"
    return (f"{stop_name(target)} holds an opponent: a charge needs the whole die "
            f"({state.die}) as the first and only part")


# --- the game ------------------------------------------------------------------------


@dataclass
class AcedrexResult:
    """How a game ended: the last state, and whether it was played out (not quit)."""

    state: AcedrexState
    log: list[str] = field(default_factory=list)
    finished: bool = False

    @property
    def money(self) -> tuple[float, ...]:
        return self.state.returns()


class _Quit(Exception):
    pass


def run_acedrex(
    rules: Acedrex | None = None,
    seats: Sequence[str] = ("human", "random", "random", "random"),
    seed: int | None = None,
    console: Console | None = None,
    input_func: Callable[[str], str] = input,
) -> AcedrexResult:
    """Play one game in the terminal and return how it ended.

    ``seats`` gives each player's kind (Blue, Red, Orange, Yellow). ``seed`` seeds the
    dice and the bots; ``input_func`` reads a person's line (tests pass a script).
    ``quit`` or end of input abandons the game.
    """
    rules = rules if rules is not None else Acedrex()
    kinds = check_seats(seats, PLAYERS)
    console = console if console is not None else Console()
    return _Game(rules, kinds, seed, console, input_func).play()


class _Game:
    def __init__(self, rules: Acedrex, kinds: list[str], seed: int | None, console: Console,
                 input_func: Callable[[str], str]) -> None:
        self.rules = rules
        self.kinds = kinds
        self.console = console
        self.input = input_func
        self.dice = random.Random(seed)
        # The random bots keep their own generator (seeded games replay as before);
        # any other kind is an agent of gammon.agents.
        self.bots: dict[int, Any] = {
            p: random.Random(None if seed is None else f"{seed}:{p}") if kind == "random"
            else make_agent(kind, None if seed is None else f"{seed}:{p}", rules)
            for p, kind in enumerate(kinds) if kind != HUMAN
        }
        humans = [p for p, kind in enumerate(kinds) if kind == HUMAN]
        self.names = [
            f"{COLOURS[p]} (you)" if kind == HUMAN and len(humans) == 1
            else f"{COLOURS[p]} ({kind})" for p, kind in enumerate(kinds)
        ]
        self.line: Text | None = None  # a bot's turn, printed when it is complete
        self.shown: object = None  # what the board showed when last drawn
        self.log: list[str] = []

    # --- output ------------------------------------------------------------------------

    def who(self, player: int) -> Text:
        return player_text(player, self.names[player])

    def say(self, *parts: str | Text) -> None:
        self.flush()
        text = Text.assemble(*parts)
        self.log.append(text.plain)
        self.console.print(text)

    def flush(self) -> None:
        if self.line is not None:
            line, self.line = self.line, None
            self.log.append(line.plain)
            self.console.print(line)

    def board(self, state: AcedrexState, again: bool = True) -> None:
        """Draw the board; with ``again`` false, only when it changed since last drawn."""
        self.flush()
        key = (state.ring, state.hands, state.jackpot, state.captured, state.turns,
               state.stage, state.left)
        if again or key != self.shown:
            self.console.print(render_ring(state, self.names))
        self.shown = key

    # --- the loop ------------------------------------------------------------------------

    def play(self) -> AcedrexResult:
        title = Text.assemble(("Acedrex Backgammon", "bold"), ": ",
                              *_join([self.who(p) for p in range(PLAYERS)], ", "))
        self.console.rule(title)
        self.say(("Pieces travel counter-clockwise, turns go clockwise. Type help at your "
                  "prompt for how to move.", "italic"))
        state = self.rules.initial_state()
        try:
            while not state.is_terminal:
                if state.is_chance:
                    roll = state.sample_chance(self.dice)
                    after = state.apply(roll)
                    self.narrate_throw(state, roll, after)
                else:
                    player = state.turn
                    if self.kinds[player] == HUMAN:
                        actions = self.ask(state)
                    else:
                        bot = self.bots[player]
                        actions = [random_action(state, bot) if isinstance(bot, random.Random)
                                   else bot.choose(state)]
                    after = state
                    for action in actions:
                        before, after = after, after.apply(action)
                        self.narrate_action(before, action, after)
                self.narrate_changes(state, after)
                state = after
        except _Quit:
            self.say("Game abandoned.")
            return AcedrexResult(state, self.log, finished=False)
        self.finish(state)
        return AcedrexResult(state, self.log, finished=True)

    # --- narration -----------------------------------------------------------------------

    def narrate_throw(self, state: AcedrexState, roll: Roll, after: AcedrexState) -> None:
        value = roll.dice[0]
        p = state.turn
        if state.stage == START_STAGE:
            self.say(self.who(p), f" throws {value} for the start.")
            if after.stage == START_STAGE and not after.throws:
                tied = " and ".join(COLOURS[q] for q in after.contenders)
                self.say(f"  {tied} tie: they throw again.")
            elif after.stage != START_STAGE:
                self.say(self.who(after.turn), " starts.")
            return
        if state.stage == ROLL:
            if self.kinds[p] == HUMAN:
                self.flush()
                self.console.print()
                self.console.rule(Text.assemble(self.who(p), f" rolls {value}"), style="grey50")
                self.log.append(f"{self.names[p]} rolls {value}")
                return
            if self.line is not None and self.line.plain.endswith("reroll"):
                self.line.append(f", rolls {value}")
            else:
                self.flush()
                self.line = Text.assemble(self.who(p), f" rolls {value}")
            if after.stage == MOVE:
                self.line.append(":")
            return
        if state.stage == ATTACK:
            attacker, _ = state.fighters()  # type: ignore[misc]
            if value == 1:
                self.say("  ", self.who(owner(attacker)), " throws 1: again.")
            else:
                self.say("  ", self.who(owner(attacker)), f" (attacker) throws {value}.")
            return
        if state.stage == DEFEND:
            attacker, defender = state.fighters()  # type: ignore[misc]
            if value == 1:
                self.say("  ", self.who(owner(defender)), " throws 1: again.")
                return
            self.say("  ", self.who(owner(defender)), f" (defender) throws {value}.")
            self.say("  ", self.fight_text(state, value))

    def fight_text(self, state: AcedrexState, defend: int) -> Text:
        r = fight_result(state, defend)
        a, d = owner(r.attacker), owner(r.defender)

        def total(throw: int, bonus: int) -> str:
            return f"{throw}+{bonus}={throw + bonus}" if bonus else str(throw)

        score = f"{total(r.attack, r.attack_bonus)} against {total(r.defend, r.defend_bonus)}"
        if r.outcome == "tie":
            return Text(f"→ {score}: a tie, both throw again.", style="bold")
        if r.outcome == "dodge":
            return Text.assemble(("→ ", "bold"), f"{score}: ", ("dodge", "bold"),
                                 f" — the attacker wins with {r.attack_total}, under "
                                 f"{self.rules.threshold}: the two swap places.")
        if r.outcome == "parry":
            return Text.assemble(("→ ", "bold"), f"{score}: ", ("parry", "bold"),
                                 f" — the defender holds with {r.defend_total}, under "
                                 f"{self.rules.threshold}: nothing moves.")
        if r.outcome == "ace":
            fate = ("is captured by " + COLOURS[a]) if r.fate == "captured" else \
                "goes back to its hand"
            return Text.assemble(("→ ", "bold"), f"{score}: ", ("Ace!", "bold green"),
                                 f" {COLOURS[a]} wins; {COLOURS[d]}'s piece {fate}.")
        return Text.assemble(("→ ", "bold"), f"{score}: ", ("Drex!", "bold green"),
                             f" {COLOURS[d]} wins; {COLOURS[a]}'s attacker is captured.")

    def narrate_action(self, before: AcedrexState, action: Action,
                       after: AcedrexState) -> None:
        p = before.turn
        if self.kinds[p] == HUMAN:
            if action is RESIGN:
                self.say(self.who(p), " resigns.")
            elif before.legal_actions() != [PASS, RESIGN]:
                self.say(self.who(p), f": {action}")
            return
        text = "reroll" if action is REROLL else str(action)
        if action is RESIGN:
            self.say(self.who(p), " resigns.")
            return
        if self.line is None:
            self.line = Text.assemble(self.who(p), ":")
        self.line.append(f" {text}" if self.line.plain.endswith(":") else f", {text}")

    def narrate_changes(self, before: AcedrexState, after: AcedrexState) -> None:
        """Fights about to be thrown, the jackpot paying out, resignations, the end."""
        if after.stage == ATTACK and not (
            before.stage in (ATTACK, DEFEND) and before.fight == after.fight
            and before.turns == after.turns
        ):
            attacker, defender = after.fighters()  # type: ignore[misc]
            self.say(Text.assemble(
                ("⚔ Combat on ", "bold"), (stop_name(after.fight), "bold"), ": ",
                self.who(owner(attacker)), " attacks ", self.who(owner(defender)), "."
            ))
        if before.jackpot and not after.jackpot and len(after.removed) == len(before.removed):
            q = owner(before.jackpot[-1]) if len(before.jackpot) == 3 else after.turn
            taken = [x for x in after.captured[q] if x not in before.captured[q]]
            letters = " ".join(LETTERS[owner(x)] for x in taken) or "nothing"
            again = "" if after.is_terminal else " and moves again"
            self.say(Text.assemble(("★ The jackpot is full: ", "bold"), self.who(q),
                                   f" captures {letters}, takes their own pieces back into "
                                   f"hand{again}."))
        for p in range(PLAYERS):
            if after.out[p] and not before.out[p]:
                owed = after.money[p] - before.money[p]
                self.say("  ", self.who(p), f" leaves the game and settles: {owed:+d}.")
        if after.is_terminal and not before.is_terminal:
            self.flush()

    # --- a person's decision -------------------------------------------------------------

    def ask(self, state: AcedrexState) -> list[Action]:
        player = state.turn
        legal = state.legal_actions()
        if legal == [PASS, RESIGN]:
            self.board(state, again=False)
            self.say(self.who(player), " cannot move: pass.")
            return [PASS]
        self.board(state, again=False)
        if state.stage == ONE:
            self.say("You rolled a 1: ", ("keep", "cyan"), " it or ", ("reroll", "cyan"), ".")
        elif state.stage == JUMP:
            self.say("You rolled a 20: you may jump a piece (", ("jump B5>R2", "cyan"),
                     ") or not (", ("no", "cyan"), ").")
        while True:
            try:
                line = self.input(self.prompt(state))
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                raise _Quit from None
            command = line.strip().lower()
            if command in ("quit", "q", "exit"):
                raise _Quit
            if command in ("help", "h"):
                self.console.print(help_text())
                continue
            if command in ("?", "legal", "list", "moves", "hint"):
                self.list_actions(legal)
                continue
            if command in ("board", "show", "b"):
                self.board(state)
                continue
            if command == "":
                self.say("Type a move like ", ("B3+7", "cyan"), "; ", ("?", "cyan"),
                         " lists what is legal, ", ("help", "cyan"), " explains more.")
                continue
            if command.isdigit():
                number = int(command)
                if 1 <= number <= len(legal):
                    chosen = legal[number - 1]
                    if chosen is RESIGN and not self.confirm_resign(state):
                        continue
                    return [chosen]
                self.refuse(f"choose an action from 1 to {len(legal)} (? lists them)")
                continue
            try:
                actions = parse_actions(state, line)
            except GammonError as error:
                self.refuse(str(error))
                continue
            if actions == [RESIGN] and not self.confirm_resign(state):
                continue
            return actions

    def prompt(self, state: AcedrexState) -> str:
        name = COLOURS[state.turn]
        if state.stage == MOVE:
            left = f", {state.left} left" if state.parts else ""
            return f"{name} [die {state.die}{left}]> "
        if state.stage == ONE:
            return f"{name} [rolled 1: keep/reroll]> "
        return f"{name} [20: jump or no]> "

    def confirm_resign(self, state: AcedrexState) -> bool:
        p = state.turn
        settle = _settle_now(state, p)
        answer = self.input(f"Resign and settle {settle:+d} now? (y/n) ").strip().lower()
        return answer in ("y", "yes")

    def list_actions(self, legal: list[Action]) -> None:
        width = len(str(len(legal)))
        items = [Text.assemble((f"{i:>{width}}.", "cyan"), f" {a}")
                 for i, a in enumerate(legal, 1)]
        self.console.print(Columns(items, padding=(0, 3), column_first=True))

    def refuse(self, reason: str) -> None:
        self.console.print(Text.assemble(("✗ ", "bold red"), reason))

    # --- the end -----------------------------------------------------------------------

    def finish(self, state: AcedrexState) -> None:
        self.flush()
        self.console.print()
        self.board(state)
        reasons = {"captures": f"a player has {self.rules.captures_to_end} captures",
                   "resignations": "only one player is left",
                   "stalled": "nothing can be captured any more", "cap": "the turn cap"}
        self.say(("Game over", "bold"), f" after {state.turns} turns: "
                 f"{reasons.get(state.ended, state.ended)}.")
        table = Table(title="money", show_edge=False)
        table.add_column("player")
        table.add_column("captures", justify="right")
        table.add_column("points", justify="right")
        table.add_column("money", justify="right")
        scores = state.scores()
        for p in sorted(range(PLAYERS), key=lambda q: -state.money[q]):
            table.add_row(self.who(p), str(state.captures(p)), str(scores[p]),
                          f"{state.money[p]:+d}")
        self.console.print(table)
        for p in range(PLAYERS):
            self.log.append(f"{self.names[p]}: {state.money[p]:+d}")


def _settle_now(state: AcedrexState, player: int) -> int:
    """What ``player`` would get (or pay, negative) by resigning now."""
    after = state.apply(RESIGN)
    return after.money[player] - state.money[player]


def _join(parts: list[Text], separator: str) -> list[Text | str]:
    joined: list[Text | str] = []
    for i, part in enumerate(parts):
        if i:
            joined.append(separator)
        joined.append(part)
    return joined


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
    table = Table(title=f"{result['count']} legal actions for die {result['die']} "
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


__all__ = [
    "AcedrexResult",
    "cli_legal",
    "cli_play",
    "cli_selfplay",
    "legal_json",
    "parse_actions",
    "print_legal",
    "print_selfplay",
    "run_acedrex",
    "selfplay_stats",
]


# --- what `gammon play/legal/selfplay acedrex` call -------------------------------------


def cli_play(rules: Acedrex, seats: str, seed: int | None, console: Console) -> None:
    """``gammon play acedrex`` (the command's default seats: one person against three
    random bots)."""
    names = [seat.strip() for seat in seats.split(",") if seat.strip()]
    if len(names) != PLAYERS:
        raise InvalidOptionError(
            f"acedrex has {PLAYERS} seats (Blue, Red, Orange, Yellow); --seats gave "
            f"{len(names)}, e.g. --seats human,random,random,random"
        )
    run_acedrex(rules, names, seed, console)


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
