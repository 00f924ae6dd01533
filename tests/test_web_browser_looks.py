"""Every variant's table as people see it: at 1280x900 and on a phone (390x844), in
English and in Russian. The screenshots go to ``test-artifacts/``, to be looked at."""

from __future__ import annotations

import re

import pytest
from browser import ARTIFACTS, wait_for
from kinds import REPRESENTATIVES

from gammon.core.variant import variant, variant_names

playwright = pytest.importorskip("playwright.sync_api")

SIZES = ((1280, 900), (390, 844))
LOCALES = {"en": "en-GB", "ru": "ru-RU"}
CYRILLIC = re.compile("[а-яА-ЯёЁ]")


#: The variants whose tables are looked at: one of each kind, then (make long) the rest.
SHOWN = [pytest.param(REPRESENTATIVES, id="one-of-each-kind"), pytest.param(
    tuple(name for name in variant_names() if name not in REPRESENTATIVES),
    marks=pytest.mark.slow, id="the-rest")]


@pytest.mark.parametrize("language", sorted(LOCALES))
@pytest.mark.parametrize("names", SHOWN)
def test_every_variants_table_fits_a_phone_and_speaks_the_browsers_language(
        server, browser, language, names):
    context = browser.new_context(locale=LOCALES[language], viewport={"width": 1280,
                                                                      "height": 900})
    page = context.new_page()
    try:
        for width, height in SIZES:  # the lobby, on a phone too
            page.set_viewport_size({"width": width, "height": height})
            page.goto(server.url + "/")
            wait_for(page, "!document.querySelector('#create-button').disabled")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(ARTIFACTS / f"lobby-{width}-{language}.png"),
                            full_page=True)
        for name in names:
            page.set_viewport_size({"width": 1280, "height": 900})
            page.goto(server.url + "/")
            wait_for(page, "!document.querySelector('#create-button').disabled")
            page.select_option("#variant", name)
            for seat in range(1, variant(name).players):
                page.select_option(f"#seat{seat}", "beginner")
            heading = page.locator("h2").nth(1).inner_text()
            assert bool(CYRILLIC.search(heading)) == (language == "ru"), heading
            summary = page.locator("#summary").inner_text()
            assert summary and bool(CYRILLIC.search(summary)) == (language == "ru")
            page.click("#create-button")
            page.wait_for_url(re.compile(r"/t/\w+"))
            wait_for(page, "document.querySelector('#board svg') !== null && "
                           "document.querySelector('#question').textContent.length > 0")
            question = page.locator("#question").inner_text()
            if language == "ru":
                assert CYRILLIC.search(page.locator("#title").inner_text())
                assert not question.startswith("Your turn")
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                page.wait_for_timeout(150)
                # Nothing wider than the screen, and the board as wide as it can be.
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                # (asked in one go: the bots' moves draw the board again meanwhile)
                board = page.evaluate("document.querySelector('#board svg')"
                                      ".getBoundingClientRect().width")
                assert board >= min(width - 40, 880)
                page.screenshot(path=str(ARTIFACTS / f"board-{name}-{width}-{language}.png"))
        page.goto(server.url + "/")  # the tables just made, listed in the lobby
        wait_for(page, "document.querySelectorAll('#tables a').length >= "
                       f"{min(len(names), 13)}")
        listed = page.locator("#tables").inner_text()
        assert ("player 1" in listed) == (language == "en")
    finally:
        context.close()
