"""Players in a real browser: two people sign up, play a rated match with a clock in two
browser contexts, the server is killed mid-match and the clocks resume where they were,
one lets the clock run out, both ratings move by what Glicko-2 gives, they chat, and the
rematch starts the next match. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import re
import time

import pytest
from browser import ARTIFACTS, Server, launch, take_turn, wait_for

from gammon.table.ratings import Rating, rate

playwright = pytest.importorskip("playwright.sync_api")

ASKED = ("document.querySelector('#question').textContent.startsWith('Your turn') && "
         "[...document.querySelectorAll('#controls button')].some(b => !b.disabled)")


def sign_up(page, server, name: str) -> None:
    page.goto(server.url + "/")
    page.fill("#name", name)
    page.fill("#password", f"{name} plays backgammon")
    page.click("#sign-up")
    wait_for(page, f"document.querySelector('#me').textContent === 'signed in as {name}'")


def clocks(page) -> dict[str, float]:
    """The clocks the page shows: each name's minutes and seconds, in seconds."""
    found = {}
    for text in page.locator("#clocks .clock").all_inner_texts():
        name, shown = re.match(r"(\S+) (\d+:\d\d)", text).groups()  # type: ignore[union-attr]
        minutes, seconds = shown.split(":")
        found[name] = int(minutes) * 60 + int(seconds)
    return found


def test_two_people_play_a_rated_match_on_the_clock_chat_and_rematch(tmp_path):
    server = Server(tmp_path / "tables.db").start()
    again = Server(server.database, server.port)
    with launch() as browser:
        # Two people of two addresses (the server trusts its local proxy's
        # X-Forwarded-For): accounts of one address are not rated against each other.
        alice_context, bob_context = (
            browser.new_context(extra_http_headers={"X-Forwarded-For": f"10.0.0.{n}"})
            for n in (1, 2))
        alice, bob = alice_context.new_page(), bob_context.new_page()
        try:
            sign_up(alice, server, "Alice")
            sign_up(bob, server, "Bob")
            # The lobby's form offers the clock and rated play...
            alice.select_option("#kind", "match")
            alice.fill("#length", "3")
            alice.select_option("#seat1", "human")
            alice.select_option("#clock", "8/60")
            alice.check("#rated")
            alice.click("#create-button")
            alice.wait_for_url(re.compile(r"/t/\w+"))
            listed = alice.evaluate("fetch('/api/tables').then(r => r.json())")
            assert listed[0]["rated"] and listed[0]["clock"]["reserve"] == 60
            # ...and this match is made with a shorter reserve (twenty seconds: enough
            # for a few moves and a restart on a busy machine), so the test need not wait
            # a minute more for it to run out.
            made = alice.evaluate("""fetch('/api/tables', {method: 'POST',
                headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({variant: 'backgammon', seats: ['human', 'human'],
                    kind: 'match', length: 3, rated: true,
                    clock: {delay: 2, reserve: 20}})}).then(r => r.json())""")
            alice.goto(server.url + made["url"])
            bob.goto(server.url + "/")
            bob.locator("tr", has_text=made["id"]).get_by_role("button").click()
            bob.wait_for_url(re.compile(made["id"]))
            for page in (alice, bob):
                wait_for(page, "document.querySelectorAll('#clocks .clock').length === 2")
                wait_for(page, "document.querySelector('#seats').textContent.includes('Bob')")
            assert set(clocks(alice)) == {"Alice", "Bob"}

            # They chat: shown as text, never as HTML.
            alice.fill("#chat-text", "good luck <b>Bob</b>")
            alice.click("#chat-form button")
            wait_for(bob, "document.querySelector('#chat').textContent.includes('good luck')")
            assert bob.locator("#chat li").last.inner_text() == "Alice: good luck <b>Bob</b>"
            assert bob.locator("#chat b").count() == 0

            # Three plays each (what a result needs to be rated), then the server is
            # killed mid-match.
            played = ("Math.min(...[0, 1].map(s => table.record.filter("
                      "l => l.seat === s && l.text.includes('/')).length))")
            while True:
                deadline = time.monotonic() + 30
                while not any(page.evaluate(ASKED) for page in (alice, bob)):
                    assert time.monotonic() < deadline, "nobody is asked to move"
                    alice.wait_for_timeout(50)
                if alice.evaluate(played) >= 3:
                    break
                take_turn(alice if alice.evaluate(ASKED) else bob)
            running = "Alice" if alice.evaluate(ASKED) else "Bob"
            waiting = "Bob" if running == "Alice" else "Alice"
            wait_for(alice, "document.querySelector('#clocks .running') !== null && "
                            "document.querySelector('#clocks .running').textContent"
                            f".startsWith('{running}')")
            before = clocks(alice)
            alice.screenshot(path=str(ARTIFACTS / "players-clock-1280.png"))
            server.kill()
            killed = time.monotonic()
            time.sleep(2.0)
            again.start()
            for page in (alice, bob):
                wait_for(page, "document.querySelector('#connection').textContent"
                               " === 'connected'", timeout=30_000)
            wait_for(alice, "document.querySelector('#clocks .running') !== null")
            after = clocks(alice)
            assert after[waiting] == before[waiting]  # the clock that was not running
            assert bob.locator("#chat li").count() == 1  # not shown again on reconnecting
            assert alice.locator("#clocks .running").inner_text().split()[0] == running

            # Nobody moves: the one on the clock runs out of time and loses the match.
            for page in (alice, bob):
                wait_for(page, "document.querySelector('#question').textContent"
                               ".includes('ran out of time')", timeout=70_000)
            assert time.monotonic() - killed < 70
            bob.screenshot(path=str(ARTIFACTS / "players-on-time-1280.png"))
            assert bob.evaluate("table.closed") is None  # rated: no "not rated: why"
            won, lost = rate(Rating(), [(Rating(), 1.0)]), rate(Rating(), [(Rating(), 0.0)])
            for page, name in ((alice, "Alice"), (bob, "Bob")):
                me = page.evaluate("fetch('/api/me').then(r => r.json())")
                rating = me["ratings"]["backgammon:match3"]
                expected = lost if name == running else won
                assert rating["rating"] == round(expected.rating, 2)
                assert rating["deviation"] == round(expected.deviation, 2)

            # The rematch: one asks, the other joins the same new table.
            alice.click("#rematch")
            alice.wait_for_url(lambda url: made["id"] not in url)
            wait_for(bob, "document.querySelector('#rematch') !== null && "
                          "document.querySelector('#rematch').textContent === "
                          "'join the rematch'")
            bob.click("#rematch")
            bob.wait_for_url(lambda url: made["id"] not in url)
            assert alice.url == bob.url
            for page in (alice, bob):
                wait_for(page, "document.querySelectorAll('#clocks .clock').length === 2")
            assert alice.locator("#seats .you").inner_text().startswith("1. Alice")
            assert bob.locator("#seats .you").inner_text().startswith("2. Bob")

            # Bob's page, from his link in the lobby: the match, rated, with Alice's page
            # a click away and the finished match's files.
            bob.goto(server.url + "/")
            bob.click("#my-page")
            bob.wait_for_url(re.compile(r"/u/Bob$"))
            wait_for(bob, "document.querySelectorAll('#games tr a').length >= 4")
            standing = bob.locator("#ratings tr").first.locator("td")
            assert standing.nth(0).inner_text() == "backgammon, 3-point matches"
            assert standing.nth(2).inner_text() == "1"  # one rated result
            assert bob.locator("#ratings svg.graph").count() == 1
            row = bob.locator("#games tr", has_text="Alice")
            assert row.count() == 1 and ("won" if running == "Alice" else "lost") in \
                row.inner_text()
            links = [row.locator("a").nth(k).get_attribute("href") for k in range(5)]
            assert links == ["/u/Alice", f"/t/{made['id']}", f"/t/{made['id']}/review",
                             f"/api/tables/{made['id']}/record",
                             f"/api/tables/{made['id']}/match.mat"]
            bob.screenshot(path=str(ARTIFACTS / "players-page-1280.png"), full_page=True)
            row.locator("a").first.click()
            bob.wait_for_url(re.compile(r"/u/Alice$"))
            wait_for(bob, "document.querySelector('#player').textContent === 'Alice'")
        finally:
            alice_context.close()
            bob_context.close()
            server.kill()
            again.kill()


def test_two_people_are_paired_from_the_lobby_and_sit_at_one_table(tmp_path):
    """Quick pairing in the browser: Alice (signed in) waits in the rated 3-point pool
    and sees how long and how wide; Bob signs in and joins it; both pages go to one
    table, each to a seat of its own."""
    server = Server(tmp_path / "tables.db").start()
    try:
        with launch() as browser:
            contexts = [browser.new_context(extra_http_headers={"X-Forwarded-For":
                                                                f"10.0.1.{n}"})
                        for n in (1, 2)]
            alice, bob = (context.new_page() for context in contexts)
            for page, name in ((alice, "Alice"), (bob, "Bob")):
                sign_up(page, server, name)
                wait_for(page, "document.querySelectorAll('#pool-choice option').length > 10")
                page.select_option("#pool-choice", "backgammon-match3-rated")
            assert "rated" in alice.locator("#pool-choice option:checked").inner_text()
            alice.click("#pool-join")
            wait_for(alice, "document.querySelector('#pool-status').textContent"
                            ".startsWith('Looking for an opponent')")
            assert alice.locator("#pool-leave").is_visible()
            alice.screenshot(path=str(ARTIFACTS / "pools-waiting-1280.png"))
            bob.click("#pool-join")
            for page in (alice, bob):
                page.wait_for_url(re.compile(r"/t/\w+"), timeout=30_000)
                wait_for(page, "document.querySelectorAll('#clocks .clock').length === 2")
            assert alice.url.split("#")[0] == bob.url.split("#")[0]
            assert "Alice" in alice.locator("#seats .you").inner_text()
            assert "Bob" in bob.locator("#seats .you").inner_text()
            bob.screenshot(path=str(ARTIFACTS / "pools-seated-1280.png"))
            for context in contexts:
                context.close()
    finally:
        server.stop()
