"""Account names a player can trust: a name draws every character it holds, is written in
one script, and never looks like another account's name or a word the site keeps.

What a name is compared by is its *skeleton*, as Unicode Technical Standard #39 (Unicode
Security Mechanisms, section 4) defines it: ``NFD(prototypes(NFD(name)))``, every
character replaced by the prototype of its confusables class (Cyrillic ``а`` and Latin
``a`` both become ``a``; ``m`` becomes ``rn``), so that two names look alike when their
skeletons are equal. The confusables and the scripts are Unicode's own data, as the
maintained package ``confusable-homoglyphs`` ships them.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import categories, confusables

from gammon.core.errors import GammonError

#: A name's length, in characters once NFKC-normalised.
NAME_CHARS = (3, 20)
#: The categories a name's characters are drawn from: letters and decimal digits, with
#: ``_`` and ``-``; combining marks after them (the vowel signs of Devanagari and Thai).
LETTERS = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Nd"})
MARKS = frozenset({"Mn", "Mc"})
PUNCTUATION = frozenset("_-")
#: Marks one letter may carry (Zalgo text stacks dozens).
MARKS_IN_A_ROW = 3
#: Letters and marks that draw nothing: Unicode's Default_Ignorable_Code_Point characters
#: of those categories (the Hangul fillers, the variation selectors, the combining
#: grapheme joiner, Khmer's inherent vowels, Mongolian's free variation selectors) and
#: the Khitan filler. The other invisible ones (zero-width spaces and joiners, bidi
#: controls, tags, spaces) are of categories a name never holds.
INVISIBLE = frozenset(map(chr, (
    0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x3164,
    0xFFA0, 0x16FE4, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0))))
#: Scripts every name may mix with its own: digits, ``_``, ``-`` (Common) and marks that
#: take the script of their letter (Inherited).
ANY_SCRIPT = frozenset({"COMMON", "INHERITED"})
#: The scripts written together as one (TS #39's augmented script sets): Japanese,
#: Korean, and Chinese with Bopomofo.
WRITTEN_TOGETHER = (frozenset({"HAN", "HIRAGANA", "KATAKANA"}), frozenset({"HAN", "HANGUL"}),
                    frozenset({"HAN", "BOPOMOFO"}))
#: Marks the package's data keeps around right-to-left characters (it is read from the
#: comments of confusables.txt): not part of the characters.
_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


class BadName(GammonError):
    """A name that is not a name: the message says what is wrong and what is allowed."""


def normal(name: str) -> str:
    """A name as it is kept and shown: NFKC-normalised (full-width letters, ligatures and
    compatibility forms become the letters they stand for)."""
    return unicodedata.normalize("NFKC", name)


def check(name: str) -> str:
    """``name`` NFKC-normalised, or :class:`BadName` saying why it is no name."""
    allowed = "letters and digits of one script, with _ or -"
    for char in name:  # before NFKC too, which makes one filler another
        if _draws_nothing(char):
            raise BadName(f"a name may not hold characters that draw nothing "
                          f"({_described(char)}): {allowed}")
    name = normal(name)
    low, high = NAME_CHARS
    if not low <= len(name) <= high:
        raise BadName(f"a name is {low} to {high} characters: {allowed}, beginning with "
                      "a letter or digit")
    marks = 0
    for char in name:
        kind = unicodedata.category(char)
        if _draws_nothing(char):
            raise BadName(f"a name may not hold characters that draw nothing "
                          f"({_described(char)}): {allowed}")
        if kind in MARKS:
            marks += 1
            if marks > MARKS_IN_A_ROW:
                raise BadName(f"a letter carries at most {MARKS_IN_A_ROW} marks: {allowed}")
        elif kind in LETTERS or char in PUNCTUATION:
            marks = 0
        else:
            raise BadName(f"a name holds only {allowed}, not {_described(char)}")
    if unicodedata.category(name[0]) not in LETTERS:
        raise BadName(f"a name begins with a letter or digit, then {allowed}")
    scripts = {categories.alias(char) for char in name} - ANY_SCRIPT
    if len(scripts) > 1 and not any(scripts <= together for together in WRITTEN_TOGETHER):
        shown = " and ".join(sorted(script.title() for script in scripts))
        raise BadName(f"a name is written in one script, and this one mixes {shown}: "
                      f"{allowed}")
    return name


def _draws_nothing(char: str) -> bool:
    return char in INVISIBLE or unicodedata.category(char)[0] in "ZC"


def _described(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'a control character')}"


@cache
def _prototypes() -> dict[str, str]:
    """Each character of a confusables class that is not its prototype, and what it
    becomes in a skeleton.

    The package keeps confusables.txt's pairs (source, prototype) both ways round, the
    direction lost. Every class is a star, its sources about its prototype (which the
    data never maps further), so a class of three or more is recovered whole, joined
    pair by pair, with its prototype at the centre; in a class of two, either may be
    the prototype, and the lesser character is taken: a relabelling of that one
    prototype, which keeps every two strings' skeletons equal or not as Unicode's are.
    A source whose prototype is several characters (``m``: ``rn``) becomes theirs."""
    pairs: dict[str, list[str]] = {}
    for char, found in confusables.confusables_data.items():
        pairs.setdefault(char.translate(_DIRECTION_MARKS), []).extend(
            glyph["c"].translate(_DIRECTION_MARKS) for glyph in found)
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.setdefault(char, char) != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    several: dict[str, str] = {}
    for char, others in pairs.items():
        if len(char) != 1:
            continue
        for other in others:
            if len(other) == 1:
                parent[root(other)] = root(char)
            else:
                several[char] = other
    members: dict[str, list[str]] = {}
    for char in parent:
        members.setdefault(root(char), []).append(char)
    mapping: dict[str, str] = {}
    for found in members.values():
        centre = max(found, key=lambda char: (len(pairs[char]), -ord(char)))
        mapping.update((char, centre) for char in found if char != centre)
    for char, prototype in several.items():
        mapping[char] = "".join(mapping.get(c, c)
                                for c in unicodedata.normalize("NFD", prototype))
    return mapping


def skeleton(text: str) -> str:
    """TS #39's skeleton of ``text``: two strings look alike when theirs are equal."""
    mapping = _prototypes()
    for _ in range(3):  # the data is closed: once is enough, a fixed point either way
        mapped = unicodedata.normalize("NFD", "".join(
            mapping.get(char, char) for char in unicodedata.normalize("NFD", text)))
        if mapped == text:
            break
        text = mapped
    return text


def keys(name: str) -> tuple[str, str]:
    """What a name is compared by, whatever its case: the skeleton of its case-folded
    form (``Alice``, ``ALICE`` and Cyrillic ``аlice`` alike), and the skeleton of its
    skeleton case-folded, which catches the capitals that look like another letter's
    small form (``aIice``, a capital I, for ``alice``)."""
    name = normal(name)
    return (skeleton(normal(name.casefold())), skeleton(normal(skeleton(name).casefold())))


__all__ = ["NAME_CHARS", "BadName", "check", "keys", "normal", "skeleton"]
