"""What the phone shows while it waits and after (issue 28, section 3), in Debian's chromium at
360 px: a decision helper belongs to its decision, the join QR code steps aside once a phone has
joined, and the screens changed for it pass axe in light and dark.  Screenshots go to
tests/artifacts/waits-*.png."""

from __future__ import annotations

import json
import urllib.request

import pytest

from assistant import transcript

from . import helper_positions
from .browser import ARTIFACTS, NEEDS_CHROMIUM, PHONE

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = NEEDS_CHROMIUM
expect = sync_api.expect


def _phone(browser, scheme="light"):
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    return page


def _import(base, position) -> str:
    names, events = helper_positions.position(position)
    body = json.dumps(transcript.build(list(names), [], None, list(events), "waits test")).encode()
    req = urllib.request.Request(base + "/games/import", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:  # follows the 303 to the table page
        return resp.url


def _shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"waits-{name}.png"))


def _seat(page, name):
    page.locator("form.seats").first.get_by_role("button", name=f"I am {name}", exact=True).click()
    expect(page.locator("#c-banner .when")).to_contain_text(f"you are {name}")


def test_an_open_dividend_chart_stays_with_its_own_decision(live, browser):
    """Open the first corporation's dividend chart, pay: the next corporation's decision shows no
    chart of the first (its figures would be stale), and its own chart opens with its own name."""
    game = helper_positions.game_of("dividend_two")
    first = game.next["corporation"]
    page = _phone(browser)
    page.goto(_import(live, "dividend_two"))
    _seat(page, game.next["player"])
    link = page.locator("#c-actions a.helper-link", has_text="Dividend chart").first
    link.click()
    box = page.locator("#c-actions .helper-box")
    expect(box).to_contain_text(f"Dividend chart: {first}")
    _shot(page, "dividend-open")
    box.locator("button.pay").first.click()  # pays the chart's first row
    expect(page.locator("#c-banner")).not_to_contain_text(f"dividend of {first}", timeout=5000)
    expect(page.locator("#c-banner")).to_contain_text("dividend of")
    page.wait_for_timeout(300)  # the swap has settled (a carried-over helper would be in by now)
    expect(page.locator("#c-actions")).not_to_contain_text(f"Dividend chart: {first}")
    expect(page.locator(".helper-box")).to_have_count(0)
    _shot(page, "dividend-next")
    page.locator("#c-actions a.helper-link", has_text="Dividend chart").first.click()
    expect(page.locator("#c-actions .helper-box")).to_be_visible()
    expect(page.locator("#c-actions .helper-box")).not_to_contain_text(f"Dividend chart: {first}")
    assert page.problems == []
