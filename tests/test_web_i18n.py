"""The pages' message catalogues: English and Russian say the same things, and every
message a page asks for is in both."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gammon.core.variant import variant, variant_names
from gammon.web.config import ServerConfig

STATIC = Path(__file__).resolve().parent.parent / "gammon" / "web" / "static"
LANGUAGES = ("en", "ru")


def catalogue(language: str) -> dict[str, str]:
    return json.loads((STATIC / "i18n" / f"{language}.json").read_text(encoding="utf-8"))


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_english_and_russian_have_the_same_messages_with_the_same_placeholders():
    """Both say every word of the pages; the narration's lines (``n.*``) are in the
    Russian one only: in English the page shows the server's own words."""
    english, russian = catalogue("en"), catalogue("ru")
    assert english.keys() == {key for key in russian if not key.startswith("n.")}
    for key, text in english.items():
        assert text.strip() and russian[key].strip(), key
        assert placeholders(text) == placeholders(russian[key]), key
    assert re.search("[а-яА-Я]", russian["table.your_turn"])


def used_keys() -> set[str]:
    """The messages the pages ask for by name: in the HTML's data-i18n attributes and in
    the scripts' t("...") calls, and the families the scripts make names of."""
    keys = set()
    for page in STATIC.glob("*.html"):
        keys |= set(re.findall(r'data-i18n(?:-title|-placeholder)?="([^"]+)"', page.read_text()))
    for script in STATIC.glob("*.js"):
        keys |= set(re.findall(r'\bt\("([a-z_.]+)"', script.read_text()))
        keys |= set(re.findall(r'"((?:table|chat|seat|spot)\.[a-z_]+)"', script.read_text()))
    views = STATIC.parent / "views.py"  # the record's lines the pages word
    keys |= {f"n.{name}" for name in re.findall(r'"(record_\w+)"', views.read_text())}
    keys |= {f"create.kind.{kind}" for kind in ("game", "match", "money")}
    keys |= {f"spot.{name}" for name in ("bar", "off", "hand", "jackpot", "source", "target",
                                         "picked")}
    for name in variant_names():
        keys |= {f"variant.{name}", f"summary.{name}"}
        keys |= {f"level.{level}" for level in ServerConfig().menu(variant(name))}
    return keys


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_a_page_asks_for_is_in_the_catalogue(language):
    wanted = {key for key in used_keys() if language == "ru" or not key.startswith("n.")}
    missing = wanted - catalogue(language).keys()
    assert not missing


def test_the_english_summaries_are_the_variants_own():
    english = catalogue("en")
    for name in variant_names():
        assert english[f"summary.{name}"] == variant(name).summary


def test_every_narrated_message_is_in_russian_with_the_values_it_is_given():
    """Tables of several kinds played at random: each line the server tells with a
    message has that message in the Russian catalogue, its placeholders filled by the
    line's values (a *_seat value gives a name, throws the list of throws)."""
    import random

    from gammon.table import narrate
    from gammon.table.table import Table

    russian = catalogue("ru")
    seen = set()
    for name, settings in (("backgammon", {"kind": "match", "length": 5}),
                           ("backgammon", {"kind": "money", "games": 2}),
                           ("long-nardy", {}), ("multi-gam", {}), ("acedrex", {})):
        players = variant(name).players
        table = Table(name, ["human"] * players, seed=11, **settings)
        rng = random.Random(11)
        steps = []
        for _ in range(3000):
            for step in [*steps, *table.run()]:
                for line in narrate.narrate(table, step, [f"p{k}" for k in range(players)]):
                    if not line.message:
                        continue
                    seen.add(line.message)
                    text = russian[f"n.{line.message}"]
                    given = {field.removesuffix("_seats").removesuffix("_seat")
                             .removesuffix("_result") for field in line.values}
                    for field, value in line.values.items():
                        if field.endswith("_result"):
                            assert f"result.{value}" in russian, value
                    assert placeholders(text) <= given, (line.message, line.values)
            question = table.question
            if question is None:
                break
            actions = list(question.actions)
            if question.kind == "take":  # take, so that the cube goes on
                actions = [a for a in actions if str(a) == "take"] or actions
            steps = [step] if (step := table.act(question.seat, rng.choice(actions))) else []
    assert {"rolls", "plays", "opening_plays", "double", "take", "match_game"} <= seen
    assert seen & {"wins", "wins_cube", "wins_drop"}


def test_the_questions_a_variant_asks_are_worded_in_the_pages_language():
    """The page words a question in its language where ``questionText`` (table.js)
    knows its form: the decisions a variant asks besides its plays (Russian
    backgammon's lot, acey-deucey's doubles number) match one of those forms, and each
    form's message is in both catalogues."""
    import dataclasses

    from gammon import Position, Roll
    from gammon.variants.acey import CHOOSE, AceyMemo

    script = (STATIC / "table.js").read_text(encoding="utf-8")
    body = script[script.index("function questionText"):]
    body = body[:body.index("\n}\n")]
    forms = [re.compile(pattern) for pattern in re.findall(r"= /(.+?)/\.exec", body)]
    keys = set(re.findall(r't\("(question\.\w+)"', body))
    assert {"question.lot", "question.doubles"} <= keys
    for language in LANGUAGES:
        assert keys <= set(catalogue(language)), language
    russian = variant("russian")
    lot = russian.initial_state().apply(Roll((2, 4), opening=True))
    acey = variant("acey-deucey")
    rows = [[0] * 26, [0] * 26]
    rows[0][24], rows[0][6], rows[1][7], rows[1][1] = 1, 14, 2, 13
    chooser = dataclasses.replace(
        acey.state(Position.from_checkers(rows, 0), (2, 1)), dice=(),
        memo=AceyMemo((True, True), CHOOSE, (True, True)))
    for prompt in (russian.decision_prompt(lot), acey.decision_prompt(chooser),
                   f"choose the doubles number (1-{acey.sides})"):
        assert prompt and any(form.match(prompt) for form in forms), prompt
