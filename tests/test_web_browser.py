"""The web app in a real browser: people create tables, play whole games by clicking, and
watch bots; screenshots of every board go to ``test-artifacts/``."""

from __future__ import annotations

import re

import pytest
from browser import ARTIFACTS, Server, chromium, wait_for

playwright = pytest.importorskip("playwright.sync_api")

TURN = re.compile("Your turn|Play is over|wins|drawn|Final ranking|Money at the end|Score:")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("web") / "tables.db").start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        yield launched
        launched.close()


def create(page, server, variant: str, seats: list[str]) -> None:
    """Create a table in the lobby's form, as a person would."""
    page.goto(server.url + "/")
    page.select_option("#variant", variant)
    for seat, kind in enumerate(seats):
        page.select_option(f"#seat{seat}", kind)
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/t/\w+"))


def over(page) -> bool:
    return page.locator("#question").inner_text().startswith(("Play is over",)) or bool(
        page.locator("#controls a").count())


def take_turn(page) -> None:
    """Answer the question of this page's seat: a play checker by checker on the board
    (then Confirm), any other question by its first button."""
    for _ in range(12):
        confirm = page.locator("#confirm")
        if confirm.count() and confirm.is_enabled():
            confirm.click()
            return
        source = page.locator("#board .spot.source")
        target = page.locator("#board .spot.target")
        if target.count():
            target.first.click()
        elif source.count():
            source.first.click()
        else:
            buttons = page.locator("#controls > button:not([disabled])")
            labels = [buttons.nth(i).inner_text() for i in range(buttons.count())]
            plain = [i for i, text in enumerate(labels) if not text.startswith("resign")
                     and text not in ("Undo", "Confirm")]
            if plain:
                buttons.nth(plain[0]).click()
                return
        page.wait_for_timeout(60)


def play_out(pages: list, limit: int = 600) -> None:
    """Every page answers its own questions until play is over."""
    for _ in range(limit):
        if over(pages[0]):
            return
        acted = False
        for page in pages:
            if page.locator("#question").inner_text().startswith("Your turn") and \
                    page.locator("#controls button:not([disabled])").count():
                take_turn(page)
                acted = True
        if not acted:
            pages[0].wait_for_timeout(80)
    raise AssertionError("play did not end")


#: Counts the checkers the page slides (the bots' plays are animated).
COUNT_SLIDES = """window.slides = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.slides++;
  return animate.apply(this, args);
};
"""


def test_a_person_plays_a_whole_backgammon_game_against_a_bot_by_clicking(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.add_init_script(COUNT_SLIDES)
    create(page, server, "backgammon", ["human", "beginner"])
    page.wait_for_selector("#board svg")
    wait_for(page, "document.querySelector('#question').textContent.length > 0")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "backgammon-start.png"))
    play_out([page])
    assert "wins" in page.locator("#question").inner_text() or over(page)
    page.screenshot(path=str(ARTIFACTS / "backgammon-end.png"))
    assert page.evaluate("window.slides") > 10  # the bot's checkers slid
    # The record reveals the dice seed once play is over.
    assert "Dice seed" in page.locator("#fair").inner_text()
    page.close()


def test_a_checker_dragged_onto_a_highlighted_point_moves_there(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    create(page, server, "backgammon", ["human", "beginner"])
    page.wait_for_selector("#board .spot.source", timeout=20_000)
    assert page.locator("#undo").is_disabled()
    box = page.locator("#board .spot.source").first.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 20, box["y"] + box["height"] / 2 + 20,
                    steps=4)
    target = page.locator("#board .spot.target").first.bounding_box()  # shown while dragging
    assert target is not None
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2,
                    steps=4)
    page.mouse.up()
    wait_for(page, "!document.querySelector('#undo').disabled")
    page.click("#undo")  # the move is taken back like a clicked one
    wait_for(page, "document.querySelector('#undo').disabled")
    assert page.locator("#board .spot.source").count()
    page.close()


def test_two_people_play_each_other_in_two_browsers(server, browser):
    first = browser.new_context().new_page()
    create(first, server, "hypergammon-1", ["human", "human"])
    table = first.url.split("/t/")[1].split("?")[0]
    second = browser.new_context().new_page()
    second.goto(server.url + "/")
    second.locator("#tables button", has_text="take a seat").first.click()
    second.wait_for_url(re.compile(rf"/t/{table}"))
    play_out([first, second])
    for page, name in ((first, "first"), (second, "second")):
        page.screenshot(path=str(ARTIFACTS / f"two-people-{name}.png"))
        assert over(page)


@pytest.mark.parametrize("variant", ["multi-gam", "acedrex"])
def test_four_seats_with_a_person_and_bots_run_to_the_end(server, browser, variant):
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    if variant == "acedrex":  # a short game: at most 12 turns
        answer = page.request.post(server.url + "/api/tables", data={
            "variant": "acedrex", "seats": ["human", "beginner", "beginner", "beginner"],
            "options": {"turn_cap": 12}})
        page.goto(server.url + answer.json()["url"])
    else:
        create(page, server, variant, ["human", "beginner", "beginner", "beginner"])
    page.wait_for_selector("#board svg")
    page.screenshot(path=str(ARTIFACTS / f"{variant}-start.png"))
    play_out([page], limit=2000)
    page.screenshot(path=str(ARTIFACTS / f"{variant}-end.png"))
    assert over(page)
    page.close()


def test_a_server_killed_mid_game_comes_back_and_the_page_reconnects(tmp_path, browser):
    server = Server(tmp_path / "tables.db").start()
    again = Server(server.database, server.port)
    page = browser.new_page()
    # A fresh question of this seat: its controls come back once the new state is in.
    asked = ("document.querySelector('#question').textContent.startsWith('Your turn') && "
             "[...document.querySelectorAll('#controls button')].some(b => !b.disabled)")
    try:
        create(page, server, "backgammon", ["human", "beginner"])
        for _ in range(3):
            wait_for(page, asked)
            take_turn(page)
        wait_for(page, asked)
        record = page.locator("#record li").all_inner_texts()
        server.kill()
        wait_for(page, "document.querySelector('#connection').textContent"
                               ".includes('reconnecting')")
        again.start()
        wait_for(page, "document.querySelector('#connection').textContent"
                               " === 'connected'", timeout=30_000)
        wait_for(page, asked)
        assert page.locator("#record li").all_inner_texts() == record  # nothing lost or new
        take_turn(page)
        wait_for(page, f"document.querySelectorAll('#record li').length > "
                               f"{len(record)}")
    finally:
        page.close()
        server.kill()
        again.kill()
