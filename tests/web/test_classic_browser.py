"""Classic Rolling Stock in a real browser on a phone (Debian's chromium via Playwright): the
new-game form creates a short game, and turn 1 and the start of turn 2 are played by tapping —
the setup reveals, an auction, passes, closing done, an IPO — with every step checked against
the classic engine fed the same events, and the JSON door's state equal to its replay."""

from __future__ import annotations

import json
import os
import re
import urllib.request

import pytest

from assistant.rules.registry import CLASSIC

from .browser import CHROMIUM, PHONE

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (scripts/test.sh)")


def test_classic_first_turn_on_a_phone(live, browser):
    from assistant.web import labels

    expect = sync_api.expect
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))

    players = ["Amy", "Brian", "Crystal"]
    page.goto(live + "/games/new")
    for i, name in enumerate(players):
        page.locator("input[name=name]").nth(i).fill(name)
    page.locator('input[name=ruleset][value="rolling-stock"]').check()
    page.locator('input[name="game_type-rolling-stock"][value="short"]').check()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]{22,}$"))
    gid = page.url.rsplit("/", 1)[1]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the classic table page is {width}px wide on a 360px phone"

    game = CLASSIC.create(players, ["short"])
    events: list[dict] = []

    def step(event: dict, name: str, fill=None):
        expect(page.locator("#sync")).to_have_attribute("data-seq", str(len(events)), timeout=5000)
        game.apply(event)
        events.append(event)
        button = page.locator("#c-actions").get_by_role("button", name=name, exact=True)
        if fill is not None:
            form = page.locator("#c-actions form.act", has=page.get_by_role("button", name=name, exact=True))
            form.locator("input[type=number]").fill(str(fill))
        button.click()
        expect(page.locator("#sync")).to_have_attribute("data-seq", str(len(events)), timeout=5000)
        expect(page.locator("#c-banner .next")).to_have_text(
            labels.next_text(game.next, {m["type"] for m in game.legal_actions()}), timeout=5000
        )
        expect(page.locator("#c-last")).to_contain_text(game.journal[-1]["text"], timeout=5000)  # the Play view

    # -- setup: one red company per player ------------------------------------------------------------
    for abbr in ("BME", "KME", "MHE"):
        step({"type": "reveal", "company": abbr}, abbr)
    assert game.phase == 3
    expect(page.locator("#c-banner .when")).to_contain_text("Phase 3")
    # -- phase 3: an auction, raised and left; the card drawn after it ----------------------------------
    step({"type": "bid", "player": "Amy", "company": "MHE", "price": 8}, "Start an auction for MHE")
    step({"type": "bid", "player": "Brian", "company": "MHE", "price": 9}, "Raise the bid for MHE")
    step({"type": "leave", "player": "Crystal"}, "Leave the auction for MHE")
    step({"type": "leave", "player": "Amy"}, "Leave the auction for MHE")
    step({"type": "reveal", "company": game.reveal_choices()[0]}, game.reveal_choices()[0])
    while game.phase == 3:  # Brian (after Amy, who started the auction), then everybody passes
        step({"type": "pass", "player": game.next["player"]}, "Pass")
    # phase 4 runs by itself; in phase 5 the foreign investor buys the BME ($4) and a card is drawn
    assert game.phase == 5 and game.fi.companies == ["BME"] and game.next["for"] == "reveal"
    step({"type": "reveal", "company": game.reveal_choices()[0]}, game.reveal_choices()[0])
    # phase 6 ends by itself (no corporation); phase 7 is open because players own companies
    assert game.phase == 7 and game.next == {"for": "closing"}
    expect(page.locator("#c-banner .when")).to_contain_text("Phase 7")
    # an unseated phone ends it for the whole table: it asks first, naming who has not said "I'm done"
    page.locator("#c-actions summary", has_text="End phase 7 for the whole table").click()
    expect(page.locator("#c-actions details[open] p")).to_contain_text(
        "not said they are done. End phase 7 for everyone"
    )
    step({"type": "done", "phase": 7}, "Yes: end phase 7 for the whole table")
    # phases 8-10, then turn 2: nothing to issue, Brian's MHE may go public in phase 2
    assert game.turn == 2 and game.phase == 2 and game.next["company"] == "MHE"
    page.locator("label.radio", has=page.locator('input[name="e.price"][value="11"]')).click()
    page.locator("label.radio", has=page.locator('input[name="e.corporation"][value="Bear"]')).click()
    game.apply({"type": "ipo", "company": "MHE", "corporation": "Bear", "price": 11})
    events.append({"type": "ipo", "company": "MHE", "corporation": "Bear", "price": 11})
    page.locator("#c-actions").get_by_role("button", name="Take MHE public").click()
    expect(page.locator("#sync")).to_have_attribute("data-seq", str(len(events)), timeout=5000)
    page.locator("nav.tabs a[data-tab=corporations]").click()  # the Corps view
    bear = page.locator("#c-corporations article", has_text="Bear")
    expect(bear).to_contain_text("President: Brian")
    expect(bear).to_contain_text("14")  # treasury: 3 from Brian and 11 from the bank
    assert game.corps["Bear"].cash == 14 and game.snapshot()["corporations"]["Bear"]["book_value"] == 22

    # -- the JSON door says what the engine says ------------------------------------------------------
    with urllib.request.urlopen(f"{live}/games/{gid}/state") as resp:
        state = json.loads(resp.read())
    state.pop("seq", None)
    again = CLASSIC.replay(players, ["short"], events)
    assert state == json.loads(json.dumps(again.snapshot()))
    assert problems == []
