"""The table's protocol on two 360 px phones in Debian's chromium (issue 17): an announced purchase
waits for the president who may intervene, the turn bar takes a phone to its decisions in one tap,
and taking a held seat asks first. The new screens are axe-clean, light and dark."""

from __future__ import annotations

import json
import re
import urllib.request

from assistant import transcript

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
    expect(dan.locator("#c-banner .next")).to_contain_text(f"waiting for {intervener.president} ({intervener.name})")
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
    page.locator("nav.tabs a[data-view=table]").click()
    expect(page.locator("#region")).to_have_attribute("data-view", "table")
    page.locator("#turn a.you").click()  # one tap, from the Table view
    expect(page.locator("#region")).to_have_attribute("data-view", "play")
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
