"""The review of a game or match: every decision rated against the network's best.

:func:`review` goes through the records of a match file or a table's log: at every
decision that had a choice it rates every play (:func:`gammon.analysis.hint.
rate_plays`) and every cube decision (:func:`gammon.analysis.hint.rate_cube`), and
keeps how much equity the choice made lost against the best (points per cube value; in
a match the plays are weighed by match equity, normalised to points per cube as gnubg
does (:mod:`gammon.agents.match_play`), and the cube decisions are converted from match
winning chances by the worth of a cube at that score, :func:`cube_worth`) with the
alternatives. Each decision is marked as
gnubg marks them: **doubtful** from 0.04, **error** from 0.08, **blunder** from 0.16.
Per player (:meth:`Review.summary`): the error rates, checker play and cube apart (the
mean loss per decision in thousandths, gnubg's mEMG), the performance rating (PR), the
luck of every roll (:func:`gammon.analysis.rollout.roll_luck`) and the luck-adjusted
result, and in a match the errors in match-winning chance. The network's chances before
every roll (in a match, the chance to win the match) are kept for the plot, and every
action for the page that steps through the match (docs/study.md).

:func:`plot` draws those chances (PNG or SVG, by the file's name) and :func:`html`
writes one page: the summary, the plot, the worst decisions with their boards and
alternatives, every decision in a table, and the match action by action.
"""

from __future__ import annotations

import html as escape
import io
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from gammon.agents.cube import (
    CENTRE,
    ME,
    THEM,
    Chances,
    Score,
    cubeful_match_equity,
    match_equity,
)
from gammon.agents.match_play import MatchSearches
from gammon.agents.search import BoardSearch, make_search
from gammon.analysis.hint import rate_cube, rate_plays
from gammon.analysis.rollout import roll_luck
from gammon.core.play import Play
from gammon.nn.evaluator import NeuralEvaluator
from gammon.notation import move_text_for
from gammon.render.svg import board_svg
from gammon.stakes.cube import CubeAction, CubeState, base_of, cube_value, match_length, stakes_of
from gammon.stakes.record import GameRecord

#: gnubg's thresholds (equity lost, points per cube value).
DOUBTFUL, ERROR, BLUNDER = 0.04, 0.08, 0.16
#: How many of the best plays a decision keeps to show beside the one played.
ALTERNATIVES = 5
#: A choice not to double counts in the performance rating when doubling would have
#: cost less than this (points per cube value): a position near the doubling window.
CLOSE = 0.2


def mark(loss: float) -> str:
    if loss >= BLUNDER:
        return "blunder"
    if loss >= ERROR:
        return "error"
    if loss >= DOUBTFUL:
        return "doubtful"
    return ""


@dataclass(frozen=True)
class Decision:
    """One decision with a choice: where, who, what was done, what was best, the loss."""

    game: int
    number: int
    player: int
    kind: str  # "play" or "cube"
    dice: tuple[int, ...]
    played: str
    best: str
    loss: float
    state: Any = field(repr=False, compare=False, default=None)
    #: Whether the decision counts in the performance rating: every play with a choice
    #: and every answer to a double; a choice whether to double only where doubling was
    #: right, was made, or came within :data:`CLOSE` of right (as XG counts them).
    counted: bool = True
    #: What could have been done and its equity (points per cube value), best first:
    #: the best plays (and the one played), or no double, double/take, double/pass.
    alternatives: tuple[tuple[str, float], ...] = ()
    #: In a match, the chance to win the match one point per cube is worth here
    #: (:func:`cube_worth`): ``loss * worth`` is the loss in match-winning chance.
    worth: float = 1.0

    @property
    def mark(self) -> str:
        return mark(self.loss)


@dataclass(frozen=True)
class Action:
    """One action of the match as it was taken, for the page that steps through them:
    the board before it, what was done, and its rating where it had a choice."""

    game: int
    number: int
    player: int
    text: str
    state: Any = field(repr=False, compare=False)
    decision: Decision | None = None


@dataclass(frozen=True)
class Luck:
    """What one roll gave its roller: the equity after the best play of the roll thrown
    less the average over every roll (cubeless, times the cube: points)."""

    game: int
    player: int
    dice: tuple[int, ...]
    luck: float


@dataclass
class Review:
    """A reviewed game or match."""

    names: list[str]
    decisions: list[Decision] = field(default_factory=list)
    #: Per game, each seat's chance to win (two players) or expected score, before
    #: every roll.
    chances: list[list[tuple[float, ...]]] = field(default_factory=list)
    #: Every roll's luck, where the evaluation can say it (two-player track games).
    luck: list[Luck] = field(default_factory=list)
    #: Each seat's points, game by game.
    results: list[tuple[float, ...]] = field(default_factory=list)
    #: The one evaluation behind every figure: the network and the plies.
    evaluation: str = ""
    #: In a match, per game, player 0's chance to win the match before every roll.
    match_chances: list[list[float]] = field(default_factory=list)
    #: Every action of every game, in order (:class:`Action`).
    actions: list[Action] = field(default_factory=list)

    def summary(self) -> list[dict[str, Any]]:
        """Per player: decisions, equity lost and error rate (mean loss a decision, in
        thousandths), apart for checker play and the cube; the performance rating (PR:
        the mean loss per counted decision times 500, as XG and gnubg give it); the
        marked decisions; the luck of the rolls and the result with and without it."""
        rows = []
        for p, name in enumerate(self.names):
            mine = [d for d in self.decisions if d.player == p]
            plays = [d for d in mine if d.kind == "play"]
            cubes = [d for d in mine if d.kind == "cube"]
            counted = [d for d in mine if d.counted]
            lost = sum(d.loss for d in mine)
            luck = sum(roll.luck for roll in self.luck if roll.player == p)
            points = sum(result[p] for result in self.results)
            rows.append({
                "player": name, "decisions": len(mine), "lost": round(lost, 3),
                "error_rate": _rate(mine), "checker_decisions": len(plays),
                "checker_error_rate": _rate(plays), "cube_decisions": len(cubes),
                "cube_error_rate": _rate(cubes),
                "pr": round(500 * sum(d.loss for d in counted) / len(counted), 1)
                if counted else 0.0,
                "doubtful": sum(d.mark == "doubtful" for d in mine),
                "errors": sum(d.mark == "error" for d in mine),
                "blunders": sum(d.mark == "blunder" for d in mine),
                "luck": round(luck, 3), "points": round(points, 3),
                "luck_adjusted": round(points - luck, 3)})
            if self.match_chances:  # a match: what the errors cost in match terms
                rows[-1]["match_lost"] = round(sum(d.loss * d.worth for d in mine), 4)
        return rows

    def worst(self, count: int = 10) -> list[Decision]:
        return sorted((d for d in self.decisions if d.loss > 0), key=lambda d: -d.loss)[:count]


def _rate(decisions: Sequence[Decision]) -> float:
    """The mean loss a decision, in thousandths of a point (gnubg's mEMG)."""
    return round(1000 * sum(d.loss for d in decisions) / len(decisions), 1) if decisions \
        else 0.0


def review(records: Sequence[GameRecord], evaluator: NeuralEvaluator, names: Sequence[str],
           plies: int = 1) -> Review:
    """Rate every decision of ``records`` (see the module text)."""
    rules = evaluator.variant
    search = make_search(rules, evaluator)
    # A match's plays are weighed by match equity, as the bots play them.
    searches = MatchSearches(rules, evaluator, search)
    writer = move_text_for(rules)
    network = evaluator.network
    result = Review(list(names), evaluation=(
        f"the {network.meta.get('name', rules.name)} network ({network.w1.shape[1]} hidden "
        f"units) at {plies} {'ply' if plies == 1 else 'plies'} for plays and cube decisions"
        f"; luck at 0 plies"))
    for game, record in enumerate(records, 1):
        chances: list[tuple[float, ...]] = []
        match_chances: list[float] = []
        state = record.start
        match = bool(match_length(state))
        number = 0
        for step in record.taken():
            before, state = state, state.apply(step)
            base = base_of(before)
            if before.is_chance:
                if not base.opening and not base.is_terminal:
                    chances.append(_chances(evaluator, base))
                    if match and evaluator.players == 2:
                        match_chances.append(_match_chance(evaluator, before))
                    after = base_of(state)
                    if isinstance(search, BoardSearch) and after.dice:
                        cube = cube_value(before)
                        lucky = roll_luck(search, evaluator, base, after.dice)[0]
                        result.luck.append(Luck(game, base.position.turn,
                                                tuple(after.dice), cube * float(lucky)))
                continue
            number += 1
            player = before.current_player
            if isinstance(step, CubeAction) and step is not CubeAction.BEAVER:
                decision = _cube(before, step, evaluator, plies, game, number, player)
            elif base.is_chance or isinstance(step, CubeAction):
                decision = None  # a resignation offered or answered before the roll
            elif len(base.legal_actions()) > 1:
                decision = _play(base, step, evaluator, searches.at(before), plies, game,
                                 number, player)
            else:
                decision = None
            if decision is not None:
                if decision.kind == "play" and stakes_of(before) is not None:
                    decision = replace(decision, state=before)  # the board with its cube
                if decision.kind == "play" and match:
                    decision = replace(decision, worth=cube_worth(before, player))
                result.decisions.append(decision)
            text = writer.format_action(step) if isinstance(step, Play) and step.moves \
                else "no move" if isinstance(step, Play) else str(step)
            result.actions.append(Action(game, number, player, text, before, decision))
        result.chances.append(chances)
        if match:
            result.match_chances.append(match_chances)
        if state.is_terminal:
            result.results.append(tuple(float(x) for x in state.returns()))
    return result


def _chances(evaluator: NeuralEvaluator, state: Any) -> tuple[float, ...]:
    board = np.frombuffer(state.position.board, np.int8)[None, :]
    if evaluator.players == 2:
        win0 = float(evaluator.chances(board, state.position.turn)[0][0])
        return (win0, 1.0 - win0)
    return tuple(float(v) for v in evaluator.values(board, state.position.turn)[0])


def _play(state: Any, step: Any, evaluator: NeuralEvaluator, search: Any, plies: int,
          game: int, number: int, player: int) -> Decision | None:
    rated = rate_plays(state, evaluator, plies, search=search)
    chosen = next((r for r in rated if r.action is step or r.action == step), None)
    if chosen is None:
        return None
    best = rated[0]
    # A play searched less deep than the best may score above it at 0 ply: compare
    # it with the best at its own depth.
    peers = [r for r in rated if r.plies == chosen.plies]
    top = peers[0] if peers else best
    loss = max(0.0, top.equity - chosen.equity)
    shown = rated[:ALTERNATIVES]
    if chosen not in shown:
        shown.append(chosen)
    return Decision(game, number, player, "play", tuple(state.dice), chosen.text, best.text,
                    loss, state, alternatives=tuple((r.text, r.equity) for r in shown))


def _cube(state: CubeState, step: CubeAction, evaluator: NeuralEvaluator, plies: int,
          game: int, number: int, player: int) -> Decision | None:
    answering = state.offer is not None
    doubler = 1 - player if answering else player
    base = state.base
    if base.position.turn != doubler:
        return None
    cube = state.cube_value if state.offer is None else state.offer.stake
    hint = rate_cube(state if not answering else _before_double(state), evaluator, plies)
    view = hint.view
    worth = cube_worth(state, doubler, cube)
    middle = 0.0
    if state.score.length:  # match chances as points per cube, 0 half way (gnubg's way)
        need, other = state.score.away(doubler), state.score.away(1 - doubler)
        post = state.score.post_crawford
        middle = (match_equity(need - cube, other, post)
                  + match_equity(need, other - cube, post)) / 2
    figures = tuple((text, (value - middle) / worth) for text, value in (
        ("no double", view.no_double), ("double, take", view.take),
        ("double, pass", view.drop)))
    if answering:
        took = step is CubeAction.TAKE
        right = view.taker_takes
        loss = 0.0 if took == right else abs(view.take - view.drop) / worth
        played, best = ("take" if took else "drop"), ("take" if right else "drop")
    else:
        doubled = step is CubeAction.DOUBLE
        right = view.double
        double_value = min(view.take, view.drop)
        loss = 0.0 if doubled == right else abs(double_value - view.no_double) / worth
        played = "double" if doubled else "no double"
        best = "double" if right else "no double"
        close = abs(double_value - view.no_double) / worth < CLOSE
        return Decision(game, number, player, "cube", (), played, best, loss, state,
                        counted=doubled or right or close, alternatives=figures, worth=worth)
    return Decision(game, number, player, "cube", (), played, best, loss, state,
                    alternatives=figures, worth=worth)


def cube_worth(state: Any, player: int, cube: int | None = None) -> float:
    """What one cube's worth of points is worth to ``player`` in chances to win the
    match at ``state``'s score (half the swing between winning and losing the cube): how
    a match's equities are normalised to points per cube and back (gnubg's way); 1 in
    money play."""
    if not match_length(state):
        return 1.0
    cube = state.cube_value if cube is None else cube
    score = state.score
    need, other = score.away(player), score.away(1 - player)
    post = score.post_crawford
    return max((match_equity(need - cube, other, post)
                - match_equity(need, other - cube, post)) / 2, 1e-6)


def _match_chance(evaluator: NeuralEvaluator, state: CubeState) -> float:
    """Player 0's chance to win the match before a roll: the network's chances at the
    cube and score, with the cube's life (:func:`gammon.agents.cube.cubeful_match_equity`)."""
    base = state.base
    board = np.frombuffer(base.position.board, np.int8)[None, :]
    win0, g0, g1 = (float(x[0]) for x in evaluator.chances(board, base.position.turn))
    score = state.score
    owner = CENTRE if state.cube_owner is None else ME if state.cube_owner == 0 else THEM
    return cubeful_match_equity(Chances(win0, g0, g1),
                                Score(score.away(0), score.away(1), score.post_crawford),
                                state.cube_value, owner, score.crawford)


def _before_double(state: CubeState) -> CubeState:
    """The state the double was offered at (the answer is judged by the doubler's
    equities there)."""
    return replace(state, offer=None, preroll=True, _legal=[])


# --- the plot and the page ---------------------------------------------------------------


def plot(reviewed: Review, path: Path | io.StringIO, fmt: str = "png") -> None:
    """Each seat's winning chances (expected score with more than two) before every roll,
    game after game, as PNG or SVG."""
    import matplotlib  # the plot only: an optional extra, slow to import

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(9, 3.6))
    x = 0
    # In a match the chance that matters is the match's.
    series: list[list[tuple[float, ...]]] = reviewed.chances
    if reviewed.match_chances:
        series = [[(p, 1.0 - p) for p in game] for game in reviewed.match_chances]
    for game, points in enumerate(series, 1):
        if not points:
            continue
        xs = list(range(x, x + len(points)))
        for seat, name in enumerate(reviewed.names):
            axes.plot(xs, [p[seat] for p in points], color=f"C{seat}",
                      label=name if game == 1 else None)
        if x:
            axes.axvline(x - 0.5, color="grey", linewidth=0.6)
        x += len(points)
    two = len(reviewed.names) == 2
    axes.set_ylabel(("chance to win the match" if reviewed.match_chances else "chance to win")
                    if two else "expected score")
    axes.set_xlabel("rolls (games separated by lines)")
    if two:
        axes.set_ylim(0, 1)
        axes.axhline(0.5, color="grey", linewidth=0.5, linestyle=":")
    axes.legend(loc="upper right")
    figure.tight_layout()
    figure.savefig(path, format=fmt, dpi=100)
    plt.close(figure)


def _pips(state: Any, names: Sequence[str]) -> str:
    """Each side's pip count, where the board has one."""
    base = base_of(state)
    position = getattr(base, "position", None)
    if position is None or not hasattr(position, "pips") or base.variant.board != "track":
        return ""
    return "Pips: " + ", ".join(f"{escape.escape(names[p])} {position.pips(p)}"
                                for p in range(len(names))) + "."


def _cube_text(state: Any, names: Sequence[str]) -> str:
    stakes = stakes_of(state)
    if stakes is None or not stakes.cube_in_play:
        return ""
    owner = "in the middle" if state.cube_owner is None else \
        f"owned by {escape.escape(names[state.cube_owner])}"
    offered = f"; {state.offer.stake} offered" if state.offer is not None else ""
    return f"Cube {state.cube_value}, {owner}{offered}."


def _alternatives(d: Decision) -> str:
    """The choices of a decision with their equities, the one played and the best
    marked."""
    if not d.alternatives:
        return ""
    top = max(equity for _, equity in d.alternatives) if d.kind == "play" else None
    rows = []
    for text, equity in d.alternatives:
        tags = [tag for tag, on in (("played", text == d.played or text.startswith(
            d.played + ",")), ("best", text == d.best)) if on]
        diff = "" if top is None or equity == top else f"{equity - top:+.3f}"
        rows.append(f"<tr><td>{escape.escape(text)}</td><td>{equity:+.3f}</td>"
                    f"<td>{diff}</td><td>{', '.join(tags)}</td></tr>")
    return ("<table class='alternatives'><tr><th>choice</th><th>equity</th><th>diff</th>"
            f"<th></th></tr>{''.join(rows)}</table>")


def html(reviewed: Review, title: str, worst: int = 10) -> str:
    """One page: the summary, the plot, the boards of the worst decisions with their
    alternatives, and every decision in a table that can show only the marked ones."""
    names = reviewed.names
    chart = io.StringIO()
    plot(reviewed, chart, "svg")
    rows = "".join(
        f"<tr><td>{escape.escape(r['player'])}</td><td>{r['checker_decisions']}</td>"
        f"<td>{r['checker_error_rate']:.1f}</td><td>{r['cube_decisions']}</td>"
        f"<td>{r['cube_error_rate']:.1f}</td><td>{r['pr']:.1f}</td>"
        f"<td>{r['lost']:.3f}</td><td>{r['doubtful']}</td>"
        f"<td>{r['errors']}</td><td>{r['blunders']}</td><td>{r['luck']:+.3f}</td>"
        f"<td>{r['points']:+g}</td><td>{r['luck_adjusted']:+.3f}</td>"
        + (f"<td>{r['match_lost']:.1%}</td>" if "match_lost" in r else "") + "</tr>"
        for r in reviewed.summary())
    match_column = "<th>match chance lost</th>" if reviewed.match_chances else ""
    items = []
    for d in reviewed.worst(worst):
        dice = "-".join(map(str, d.dice))
        board = board_svg(d.state, d.player) if d.state is not None else ""
        facts = " ".join(x for x in (_pips(d.state, names), _cube_text(d.state, names)) if x) \
            if d.state is not None else ""
        items.append(
            f"<section><h3>Game {d.game}, decision {d.number}: "
            f"{escape.escape(names[d.player])} ({d.mark or 'small'}, "
            f"-{d.loss:.3f})</h3><p>{'Roll ' + dice + ': ' if dice else ''}played "
            f"<b>{escape.escape(d.played)}</b>; best <b>{escape.escape(d.best)}</b>.</p>"
            f"<p>{facts}</p><div class='board'>{board}</div>{_alternatives(d)}</section>")
    walk, walk_style = _step_through(reviewed)
    every = "".join(
        f"<tr class='{d.mark or 'fine'}'><td>{d.game}</td><td>{d.number}</td>"
        f"<td>{escape.escape(names[d.player])}</td><td>{'-'.join(map(str, d.dice))}</td>"
        f"<td>{escape.escape(d.played)}</td><td>{escape.escape(d.best)}</td>"
        f"<td>{d.loss:.3f}</td><td>{d.mark}</td></tr>" for d in reviewed.decisions)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{escape.escape(title)}</title>
<style>body{{font-family:system-ui,sans-serif;max-width:1000px;margin:1rem auto;
color:#23201c;background:#f6f1e7}} table{{border-collapse:collapse}}
td,th{{border-bottom:1px solid #d9cdb8;padding:.3rem .6rem;text-align:left}}
.board svg{{max-width:720px;width:100%;height:auto}} section{{margin:1.5rem 0}}
tr.blunder td{{background:#f3c9c0}} tr.error td{{background:#f6dfc4}}
tr.doubtful td{{background:#f4efcf}}
#marked:checked ~ table tr.fine, #errors:checked ~ table tr.fine,
#errors:checked ~ table tr.doubtful{{display:none}}
.walk section{{display:none}} .walk input{{display:none}} .walk label{{cursor:pointer;
color:#1f5f8b;margin-right:1rem;text-decoration:underline}}{walk_style}</style>
</head><body><h1>{escape.escape(title)}</h1>
<p>Every decision with a choice, rated against the network's best (equity lost in points
per cube value; doubtful from {DOUBTFUL}, error from {ERROR}, blunder from {BLUNDER};
an error rate is the mean loss per decision in thousandths; PR, the performance rating,
is the mean loss per counted decision times 500, where a choice not to double counts
when doubling was within {CLOSE} of right; luck is what the rolls gave, in points, and
the adjusted result is the result less it). Every figure on this page comes from one
evaluation: {escape.escape(reviewed.evaluation)}.</p>
<table><tr><th>player</th><th>plays</th><th>error rate</th><th>cube decisions</th>
<th>error rate</th><th>PR</th><th>equity lost</th><th>doubtful</th><th>errors</th>
<th>blunders</th><th>luck</th><th>result</th><th>luck-adjusted</th>{match_column}</tr>
{rows}</table>
<h2>{'Match-winning' if reviewed.match_chances else 'Winning'} chances</h2>{chart.getvalue()}
<h2>The worst decisions</h2>{''.join(items) or '<p>None lost anything.</p>'}
<h2>Every decision</h2>
<input type="radio" name="show" id="all" checked><label for="all">all</label>
<input type="radio" name="show" id="marked"><label for="marked">doubtful and worse</label>
<input type="radio" name="show" id="errors"><label for="errors">errors and blunders</label>
<table class="every"><tr><th>game</th><th>#</th><th>player</th><th>dice</th><th>played</th>
<th>best</th><th>lost</th><th>mark</th></tr>{every}</table>
<h2>The match, action by action</h2>{walk}
</body></html>
"""


#: The most actions the page steps through (each is a board of its own).
STEPS = 600


def _step_through(reviewed: Review) -> tuple[str, str]:
    """Every action of the match in turn, one board at a time with links to the one
    before and after (radio buttons and CSS: no script); and its style rules."""
    actions = reviewed.actions[:STEPS]
    if not actions:
        return "<p>No action to show.</p>", ""
    names = reviewed.names
    inputs, sections, rules = [], [], []
    for k, a in enumerate(actions):
        inputs.append(f"<input type='radio' name='walk' id='w{k}'"
                      f"{' checked' if k == 0 else ''}>")
        rules.append(f"#w{k}:checked~#v{k}")
        links = "".join(
            f"<label for='w{j}'>{label}</label>"
            for j, label in ((k - 1, "&larr; before"), (k + 1, "after &rarr;"))
            if 0 <= j < len(actions))
        d = a.decision
        rating = f" ({d.mark or 'fine'}, -{d.loss:.3f}; best {escape.escape(d.best)})" \
            if d is not None else ""
        facts = " ".join(x for x in (_pips(a.state, names), _cube_text(a.state, names)) if x)
        sections.append(
            f"<section id='v{k}'><p>{k + 1} of {len(actions)}. Game {a.game}, action "
            f"{a.number}: {escape.escape(names[a.player])} &mdash; "
            f"<b>{escape.escape(a.text)}</b>{rating}</p><p>{links}</p><p>{facts}</p>"
            f"<div class='board'>{board_svg(a.state, a.player)}</div>"
            f"{_alternatives(d) if d is not None else ''}</section>")
    more = f"<p>The first {STEPS} actions of {len(reviewed.actions)}.</p>" \
        if len(reviewed.actions) > STEPS else ""
    style = ",".join(rules) + "{display:block}"
    return f"<div class='walk'>{''.join(inputs)}{''.join(sections)}</div>{more}", style


__all__ = ["Action", "Decision", "Luck", "Review", "html", "mark", "plot", "review"]
