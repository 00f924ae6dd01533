"""English for the messages people read: plurals and a verb agreeing with "you".

The one person at a terminal is called "you", and every other player by a name, so a
line that reads "O random rolls 6-5" must read "you roll 6-5" for them; a count of one
takes the singular ("1 legal play").
"""

from __future__ import annotations

#: Verbs that do not just lose their "s" when "you" do them.
_IRREGULAR = {"has": "have", "is": "are", "does": "do", "goes": "go", "passes": "pass",
              "misses": "miss", "wins": "win"}
#: Words that may start a verb phrase but do not change with the subject.
_UNCHANGED = {"cannot", "may", "must", "can", "will"}


def agree(name: str, text: str) -> str:
    """``text``, a phrase whose first word is a verb in the third person ("rolls 6-5"),
    as it reads after ``name``: after "you" the verb loses its "s" ("roll 6-5")."""
    if name != "you" or not text:
        return text
    word, space, rest = text.partition(" ")
    if word in _UNCHANGED:
        return text
    if word in _IRREGULAR:
        word = _IRREGULAR[word]
    elif word.endswith("ies"):
        word = word[:-3] + "y"
    elif word.endswith(("ches", "shes", "sses", "xes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word + space + rest


def plural(count: float, noun: str, many: str | None = None) -> str:
    """``count`` and the noun, singular for exactly one: ``1 point``, ``3 points``."""
    number = int(count) if float(count).is_integer() else count
    return f"{number} {noun if number == 1 else (many or noun + 's')}"
