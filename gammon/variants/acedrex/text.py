"""What the throws of an Acedrex game did, in words, for the game's log."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gammon.variants.acedrex.actions import ATTACK, DEFEND, START
from gammon.variants.acedrex.board import COLOURS, owner
from gammon.variants.acedrex.combat import fight_result

if TYPE_CHECKING:
    from gammon.variants.acedrex.state import AcedrexState

def throw_notes(state: AcedrexState, value: int,
                 after: AcedrexState) -> list[tuple[int | None, str]]:
    """What a throw was for and what it did."""
    p = state.turn
    if state.stage == START:
        notes: list[tuple[int | None, str]] = [(p, f"throws {value} for the start.")]
        if after.stage == START and not after.throws:
            tied = " and ".join(COLOURS[q] for q in after.contenders)
            notes.append((None, f"{tied} tie for the highest: they throw again."))
        elif after.stage != START:
            notes.append((after.turn, "starts."))
        return notes
    if state.stage == ATTACK:
        attacker, _ = state.combat()
        return [(owner(attacker), f"(attacker) throws {value}.")]
    if state.stage == DEFEND:
        _, defender = state.combat()
        return [(owner(defender), f"(defender) throws {value}."),
                (None, fight_text(state, value))]
    return []


def fight_text(state: AcedrexState, defend: int) -> str:
    """A combat's result in words: the totals and what came of them."""
    r = fight_result(state, defend)
    a, d = owner(r.attacker), owner(r.defender)

    def total(throw: int, bonus: int) -> str:
        return f"{throw}+{bonus}={throw + bonus}" if bonus else str(throw)

    score = f"{total(r.attack, r.attack_bonus)} against {total(r.defend, r.defend_bonus)}"
    threshold = state.variant.threshold
    if r.outcome == "dodge":
        return (f"→ {score}: dodge — the attacker wins with {r.attack_total}, under "
                f"{threshold}: the two swap places.")
    if r.outcome == "parry":
        return (f"→ {score}: parry — the defender holds with {r.defend_total}, under "
                f"{threshold}: nothing moves.")
    if r.outcome == "ace":
        fate = f"is captured by {COLOURS[a]}" if r.fate == "captured" else "goes back to its hand"
        return f"→ {score}: Ace! {COLOURS[a]} wins; {COLOURS[d]}'s piece {fate}."
    return f"→ {score}: Drex! {COLOURS[d]} wins; {COLOURS[a]}'s attacker is captured."
