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
    english, russian = catalogue("en"), catalogue("ru")
    assert english.keys() == russian.keys()
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
    keys |= {f"create.kind.{kind}" for kind in ("game", "match", "money")}
    keys |= {f"spot.{name}" for name in ("bar", "off", "hand", "jackpot", "source", "target",
                                         "picked")}
    for name in variant_names():
        keys |= {f"variant.{name}", f"summary.{name}"}
        keys |= {f"level.{level}" for level in ServerConfig().menu(variant(name))}
    return keys


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_a_page_asks_for_is_in_the_catalogue(language):
    missing = used_keys() - catalogue(language).keys()
    assert not missing


def test_the_english_summaries_are_the_variants_own():
    english = catalogue("en")
    for name in variant_names():
        assert english[f"summary.{name}"] == variant(name).summary
