"""A tournament in a real browser (issue 50): four people sign up in four browser contexts,
Alice makes a Swiss of 1-point matches on the tournaments page, all four enter, she starts
it; Dave never comes to his table and loses each round by forfeit; the server is killed
between the rounds and started again; the standings on the page end with the winner on
2 points and Dave last. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import re
import time

import pytest
from browser import ARTIFACTS, TEST_CONFIG, Server, launch, wait_for
from test_web_browser_players import ASKED, sign_up

playwright = pytest.importorskip("playwright.sync_api")

#: Ten seconds to come to one's table: Dave's forfeits come quickly.
CONFIG = TEST_CONFIG.replace("[limits]\n", "[limits]\ntournament_show_seconds = 10\n")
PEOPLE = ("Alice", "Bob", "Carol", "Dave")


def games_of(page, round_number: int) -> list[str]:
    """The lines of a round as the page lists them."""
    return page.evaluate(f"""[...document.querySelectorAll('#rounds h3')]
        .filter(h => h.textContent.endsWith(' {round_number}'))
        .flatMap(h => [...h.nextElementSibling.querySelectorAll('li')])
        .map(li => li.textContent)""")


def round_over(page, round_number: int) -> bool:
    lines = games_of(page, round_number)
    return bool(lines) and all("won" in line or "bye" in line for line in lines)


def resign_at_table(pages: list) -> None:
    """Both players at their table: whoever is asked to play first offers to resign the
    match, and the other accepts."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for page in pages:
            if page.evaluate(ASKED):
                resigns = page.locator("#controls details", has=page.locator(
                    "summary", has_text="resign"))
                resigns.locator("summary").click()
                button = resigns.locator("button").first
                button.click()
                button.click()  # the second click confirms
                other = pages[1 - pages.index(page)]
                accept = other.locator("#controls button", has_text=re.compile("^accept"))
                accept.first.click(timeout=30_000)
                for seat in pages:
                    wait_for(seat, "table.over === true")
                return
        time.sleep(0.1)
    raise AssertionError("nobody was asked to play")


def play_round(pages: dict, round_number: int) -> None:
    """The present players go to their tables from the tournament page; where both
    came, one resigns; Dave's opponent waits for the forfeit."""
    present = [name for name in PEOPLE if name != "Dave"]
    for name in present:
        wait_for(pages[name], "!document.querySelector('#seat').hidden")
    tables: dict[str, list] = {}
    for name in present:
        page = pages[name]
        page.click("#seat")
        page.wait_for_url(re.compile(r"/t/\w+"))
        wait_for(page, "document.querySelector('#connection').textContent === 'connected'")
        tables.setdefault(page.url.split("#")[0], []).append(page)
    assert sorted(len(p) for p in tables.values()) == [1, 2]
    for at_table in tables.values():
        if len(at_table) == 2:
            resign_at_table(at_table)
    alone = next(p for p in tables.values() if len(p) == 1)[0]
    wait_for(alone, "document.querySelector('#question').textContent"
                    ".includes('did not come and loses the match by forfeit')",
             timeout=30_000)
    alone.click("#tournament")  # no rematch at a tournament's table: back to it
    alone.wait_for_url(re.compile(r"/tournaments/\w+$"))
    for name in PEOPLE:
        pages[name].goto(f"{pages['url']}/tournaments/{pages['id']}")
        wait_for(pages[name], f"document.querySelectorAll('#rounds h3').length >= "
                              f"{round_number}", timeout=30_000)


def test_a_swiss_of_four_with_a_no_show_and_a_restart_between_rounds(tmp_path):
    server = Server(tmp_path / "tables.db", config=CONFIG).start()
    again = Server(server.database, server.port, config=CONFIG)
    try:
        with launch() as browser:
            contexts = [browser.new_context(extra_http_headers={"X-Forwarded-For":
                                                                f"10.0.2.{n}"})
                        for n in range(1, 5)]
            pages: dict = {name: context.new_page()
                           for name, context in zip(PEOPLE, contexts, strict=True)}
            for name in PEOPLE:
                sign_up(pages[name], server, name)
            alice = pages["Alice"]
            alice.click("a[href='/tournaments']")
            alice.wait_for_url(re.compile(r"/tournaments$"))
            wait_for(alice, "document.querySelectorAll('#variant option').length > 5")
            alice.fill("#name", "Saturday Swiss")
            alice.fill("#length", "1")
            alice.fill("#rounds", "2")
            alice.select_option("#clock", "8/60")
            alice.fill("#description", "<script>alert(1)</script> two rounds")
            alice.click("#make button[type=submit]")
            alice.wait_for_url(re.compile(r"/tournaments/\w+$"))
            pages["id"], pages["url"] = alice.url.rsplit("/", 1)[1], server.url
            for name in PEOPLE:
                page = pages[name]
                page.goto(server.url + f"/tournaments/{pages['id']}")
                wait_for(page, "!document.querySelector('#join').hidden")
                page.click("#join")
                wait_for(page, "document.querySelector('#join').hidden")
            wait_for(alice, "document.querySelectorAll('#standings tr a').length === 4")
            assert alice.locator("#description").inner_text() == \
                "<script>alert(1)</script> two rounds"  # text, never markup
            alice.screenshot(path=str(ARTIFACTS / "tournament-entries-1280.png"))
            alice.click("#start")

            play_round(pages, 1)
            wait_for(alice, "document.querySelectorAll('#rounds h3').length === 2",
                     timeout=30_000)
            assert round_over(alice, 1) and any("forfeit" in line
                                                for line in games_of(alice, 1))
            # The server dies between the rounds and comes back on the same database.
            server.kill()
            time.sleep(1.0)
            again.start()
            play_round(pages, 2)
            wait_for(alice, "document.querySelector('#state').textContent"
                            ".startsWith('Over')", timeout=30_000)
            assert len(games_of(alice, 2)) == 2  # paired once, whatever the restart
            standings = alice.evaluate("""[...document.querySelectorAll('#standings tr')]
                .map(tr => [...tr.children].map(td => td.textContent))""")
            assert [row[2] for row in standings] == ["2", "1", "1", "0"]
            assert standings[-1][1] == "Dave"
            winner = standings[0][1]
            assert alice.locator("#state").inner_text() == f"Over: {winner} won."
            alice.screenshot(path=str(ARTIFACTS / "tournament-over-1280.png"),
                             full_page=True)
            for context in contexts:
                context.close()
    finally:
        server.kill()
        again.kill()
