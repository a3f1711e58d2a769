"""The table's protocol on two 360 px phones in Debian's chromium (issue 17): an announced purchase
waits for the president who may intervene, the turn bar takes a phone to its decisions in one tap,
and taking a held seat asks first. The new screens are axe-clean, light and dark."""

from __future__ import annotations

import json
import re
import urllib.request

from assistant.log import transcript

from .browser import NEEDS_CHROMIUM, PHONE
from .test_intervention import PLAYERS, _hot

pytestmark = NEEDS_CHROMIUM


def _import(live, events) -> str:
    body = json.dumps(transcript.build(PLAYERS, [], None, events, "browser")).encode()
    req = urllib.request.Request(live + "/games/import", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.url


def _state(url) -> dict:
    with urllib.request.urlopen(url + "/state", timeout=10) as resp:
        return json.load(resp)


def _phone(browser, url, seat):
    page = browser.new_context(viewport=PHONE).new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.goto(url)
    page.locator("form.seats").first.get_by_role("button", name=f"I am {seat}", exact=True).click()
    page.wait_for_selector(f"#c-banner .when:has-text('you are {seat}')")
    return page


def _announcement_game():
    """A Stars game (events) where some president may announce a purchase another may intervene in."""
    import random

    from assistant.rules import events_of
    from assistant.rules.registry import STARS

    for seed in range(300):
        rng = random.Random(seed)
        game = STARS.create(PLAYERS)
        while not game.game_over:
            menu = game.legal_actions()
            hot = [m for m in menu if m["type"] == "announce" and m["may_intervene"]]
            if hot and game.corps[hot[0]["may_intervene"][0]].president != hot[0]["president"]:
                return game, _hot(menu)
            quiet = [m for m in menu if m["type"] not in ("announce", "player_done")] or menu
            game.apply(events_of(rng.choice(quiet), lambda *a, r=rng: r.randint(*a) if len(a) == 2 else r.choice(a[0])))
    raise AssertionError("no announcement position")


def test_an_announced_purchase_waits_for_the_president_who_may_intervene(live, browser):
    from .test_accessibility import _problems, axe_sync

    expect = __import__("playwright.sync_api", fromlist=["expect"]).expect
    game, item = _announcement_game()
    url = _import(live, game.events)
    announcer, company = item["corporation"], item["company"]
    intervener = game.corps[item["may_intervene"][0]]
    dan = _phone(browser, url, item["president"])
    brian = _phone(browser, url, intervener.president)

    # Dan: his corporation, the company, Announce
    pick = dan.locator("#c-actions a.pick", has_text=announcer)
    if "primary" not in (pick.get_attribute("class") or ""):
        pick.click()
    offer = dan.locator(f"details.offer:has(input[name='e.company'][value='{company}'])")
    offer.locator("summary").click()
    expect(offer).to_contain_text("the game waits while")
    offer.get_by_role("button", name=re.compile("^.*Announce:")).click()

    # Dan's phone says whom it waits for; Brian's phone asks him, among his own decisions
    expect(dan.locator("#c-banner .next")).to_contain_text(
        f"{company}: {intervener.president} ({intervener.name}) answers first"
    )
    price = game.fi_price(intervener.name, company)
    question = f"Intervene: {intervener.name} buys {company} for {price} instead of {announcer}?"
    group = brian.locator("#c-actions .group.mine", has_text=question)
    expect(group).to_be_visible(timeout=5000)
    expect(brian.locator("#turn")).to_have_attribute("data-mine", "1")
    expect(group.get_by_role("button", name=re.compile("Intervene$"))).to_be_visible()
    expect(group.get_by_role("button", name="Let it go")).to_be_visible()
    assert brian.evaluate("document.documentElement.scrollWidth") <= 360
    axe = axe_sync.Axe()
    for scheme in ("light", "dark"):
        for page in (dan, brian):
            page.emulate_media(color_scheme=scheme)
            assert _problems(page, axe) == [], scheme
    brian.screenshot(path=str(__import__("tests.web.browser", fromlist=["ARTIFACTS"]).ARTIFACTS / "intervene-360.png"))

    # Brian lets it go: if he was the only one, Dan's corporation buys it
    group.get_by_role("button", name="Let it go").click()
    expect(brian.locator("#c-last")).to_contain_text(f"{intervener.name} lets")
    state = _state(url)
    if len(item["may_intervene"]) == 1:
        assert company in state["corporations"][announcer]["companies"]
        assert state["next"]["for"] == "acquisition"
    else:
        assert state["next"]["for"] == "intervention"
    assert dan.problems == [] and brian.problems == []


def test_the_turn_bar_takes_a_phone_to_its_decisions_and_a_held_seat_asks_first(live, browser):
    expect = __import__("playwright.sync_api", fromlist=["expect"]).expect
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(live + "/games/new")
    for i, name in enumerate(PLAYERS):
        page.locator("input[name=name]").nth(i).fill(name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[\w-]{20,}$"))
    url = page.url
    for company in ("BME", "BSE", "KME"):
        body = json.dumps({"seq": _state(url)["seq"], "event": {"type": "reveal", "company": company}}).encode()
        urllib.request.urlopen(
            urllib.request.Request(url + "/events", data=body, headers={"Content-Type": "application/json"})
        )
    page.reload()
    page.locator("form.seats").first.get_by_role("button", name="I am Amy", exact=True).click()
    page.locator("nav.tabs a[data-tab=table]").click()
    expect(page.locator("#region")).to_have_attribute("data-tab", "table")
    page.locator("#turn a.you").click()  # one tap, from the Table view
    expect(page.locator("#region")).to_have_attribute("data-tab", "play")
    expect(page.locator("#c-actions .group.mine").first).to_be_visible()
    assert page.evaluate("window.scrollY") == 0

    other = browser.new_context(viewport=PHONE).new_page()
    other.goto(url)
    held = other.locator("details.take-over", has_text="Amy")
    expect(held).to_contain_text("Amy")
    held.locator("summary").click()
    expect(held).to_contain_text("Amy's phone has this seat. Take it over?")
    held.get_by_role("button", name=re.compile("Amy")).click()
    expect(other.locator("#c-banner .when")).to_contain_text("you are Amy")


def test_three_interveners_are_asked_in_priority_order_and_the_turn_bar_says_so_in_two_lines(live, browser):
    """Issue 25: Junkyard Scrappers announces the WT; Overseas Trading (Brian), Doppler AG (Crystal)
    and Vintage Machinery (Amy) answer in that order.  Every phone's turn bar names them in order
    in at most two lines at 360 px; Amy's phone offers only "Let it go" until the two before her
    have let it go, then Intervene too."""
    from .test_accessibility import _problems, axe_sync
    from .test_games_stored_before import POSITION

    expect = __import__("playwright.sync_api", fromlist=["expect"]).expect
    pos = {
        **POSITION,
        "state": {**POSITION["state"], "offering": {"available": ["HE", "OL", "DSB"], "unavailable": []}},
    }
    data = transcript.build(PLAYERS, [], None, [{"type": "pass", "player": p} for p in PLAYERS], "browser",
                            position=pos)  # fmt: skip
    req = urllib.request.Request(live + "/games/import", data=json.dumps(data).encode(),
                                 headers={"Content-Type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(req, timeout=10) as resp:
        url = resp.url
    phones = {seat: _phone(browser, url, seat) for seat in PLAYERS}
    body = json.dumps({"seq": _state(url)["seq"], "event": {"type": "announce", "corporation": "Junkyard Scrappers",
                                                           "company": "WT"}}).encode()  # fmt: skip
    urllib.request.urlopen(
        urllib.request.Request(url + "/events", data=body, headers={"Content-Type": "application/json"})
    )
    amy = phones["Amy"]
    bar = amy.locator("#turn .next")
    expect(bar).to_have_text("WT: Brian (Overseas Trading) answers first, then Crystal, you", timeout=8000)
    # only Brian's phone says it is his turn: his answer is the one awaited
    expect(phones["Brian"].locator("#turn")).to_have_attribute("data-mine", "1")
    expect(amy.locator("#turn")).not_to_have_attribute("data-mine", "1")
    for seat, page in phones.items():
        expect(page.locator("#turn .next")).to_contain_text("answer", timeout=8000)
        lines = page.evaluate(
            "(() => { const e = document.querySelector('#turn .next'); const s = getComputedStyle(e);"
            " return Math.round(e.getBoundingClientRect().height / parseFloat(s.lineHeight)); })()"
        )
        if lines > 2:
            page.screenshot(path="/tmp/turnbar.png")
        assert lines <= 2, (seat, lines)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    mine = amy.locator("#c-actions .group.mine", has_text="Vintage Machinery may intervene")
    expect(mine).to_be_visible()
    expect(mine.get_by_role("button", name="Let it go")).to_be_visible()
    expect(mine.get_by_role("button", name=re.compile("Intervene$"))).to_have_count(0)
    axe = axe_sync.Axe()
    for scheme in ("light", "dark"):
        amy.emulate_media(color_scheme=scheme)
        assert _problems(amy, axe) == [], scheme
    amy.screenshot(
        path=str(__import__("tests.web.browser", fromlist=["ARTIFACTS"]).ARTIFACTS / "interveners-in-order-360.png")
    )
    # Brian, then Crystal let it go on their phones; then Amy may intervene
    for seat, corp in (("Brian", "Overseas Trading"), ("Crystal", "Doppler AG")):
        group = phones[seat].locator("#c-actions .group.mine", has_text=f"Intervene: {corp} buys WT")
        expect(group).to_be_visible(timeout=8000)  # asked once those before have answered
        group.get_by_role("button", name="Let it go").click()
        expect(phones[seat].locator("#c-last")).to_contain_text(f"{corp} lets")
    mine = amy.locator("#c-actions .group.mine", has_text="Intervene: Vintage Machinery buys WT for 14")
    expect(mine).to_be_visible(timeout=8000)
    mine.get_by_role("button", name=re.compile("Intervene$")).click()
    expect(amy.locator("#c-last")).to_contain_text("Vintage Machinery buys the WT")
    assert "WT" in _state(url)["corporations"]["Vintage Machinery"]["companies"]
    assert all(p.problems == [] for p in phones.values())
