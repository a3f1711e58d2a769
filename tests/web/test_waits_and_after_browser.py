"""What the phone shows while it waits and after (issue 28, section 3), in Debian's chromium at
360 px: a decision helper belongs to its decision, the join QR code steps aside once a phone has
joined, and the screens changed for it pass axe in light and dark.  Screenshots go to
tests/artifacts/waits-*.png."""

from __future__ import annotations

import json
import urllib.request

import pytest

from assistant.log import transcript

from . import helper_positions
from .browser import ARTIFACTS, NEEDS_CHROMIUM, PHONE
from .test_browser import _new_game

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


def _axe(page, where) -> list[str]:
    """axe (WCAG 2.1 A and AA) and the phone checks of test_accessibility, in light and dark."""
    from .test_accessibility import _problems, axe_sync

    axe = axe_sync.Axe()
    out = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        out += [f"{where} {scheme}: {p}" for p in _problems(page, axe)]
        _shot(page, f"{where}-{scheme}")
    page.emulate_media(color_scheme="light")
    return out


def test_the_join_code_folds_to_one_line_once_a_phone_has_joined(live, browser):
    host = _phone(browser)
    url = _new_game(host, live)
    _seat(host, "Amy")
    expect(host.locator("#c-join img.qr")).to_be_visible()  # large until another phone joins
    other = _phone(browser)
    other.goto(url)
    _seat(other, "Brian")
    # the host's Play view folds the code to one line by itself (Crystal has no phone yet)
    line = host.locator("#c-join details.other > summary")
    expect(line).to_have_text("▸\xa0Join this table: 2 of 3 seats taken", timeout=10_000)
    expect(host.locator("#c-join img.qr")).to_be_hidden()
    box = line.bounding_box()
    assert box["height"] <= 60, f"the folded join code is {box['height']} px tall"
    # the decisions are on the first screen, above the folded code
    first = host.locator("#c-actions button").first
    assert first.bounding_box()["y"] + first.bounding_box()["height"] <= PHONE["height"]
    report = _axe(host, "join-folded")
    line.click()  # one tap shows the code again
    expect(host.locator("#c-join img.qr")).to_be_visible()
    report += _axe(host, "join-unfolded")
    assert report == [], "\n".join(report)
    assert host.problems == [] and other.problems == []


def test_a_server_on_127_0_0_1_says_phones_cannot_join(tmp_path, browser):
    from .browser import LiveServer
    from .conftest import make_app

    app = make_app(tmp_path / "bound.sqlite3", BIND_HOST="127.0.0.1")
    server = LiveServer(app)
    server.start()
    try:
        host = _phone(browser)
        url = _new_game(host, server.url)
        link = host.locator("#c-join .link a")
        expect(link).to_have_text(url)  # the address it answers on, not the LAN address
        note = host.locator("#c-join p.warn")
        expect(note).to_contain_text("Phones cannot reach this address")
        note.scroll_into_view_if_needed()
        report = _axe(host, "join-loopback")
        assert report == [], "\n".join(report)
        assert host.problems == []
    finally:
        server.stop()
        app.extensions["rss_store"].close()


def test_the_new_game_form_shows_the_chosen_games_own_variants(live, browser):
    page = _phone(browser)
    page.goto(live + "/games/new")
    two_handed = page.get_by_text("Two-handed", exact=True)
    two_player = page.get_by_text("Two-player variant", exact=True)
    expect(two_handed).to_be_visible()  # Stars, chosen by default
    expect(two_player).to_be_hidden()
    report = _axe(page, "new-game-stars")
    page.locator("#ruleset-rolling-stock input[name=ruleset]").check()
    expect(two_player).to_be_visible()  # classic's own variants, and its game types
    expect(two_handed).to_be_hidden()
    expect(page.locator("#ruleset-rolling-stock").get_by_text("Short game: no purple companies")).to_be_visible()
    page.locator("#ruleset-rolling-stock").scroll_into_view_if_needed()
    report += _axe(page, "new-game-classic")
    page.locator("#ruleset-rolling-stock-v2\\.2 input[name=ruleset]").check()
    expect(two_player).to_be_hidden()
    expect(two_handed).to_be_hidden()
    assert report == [], "\n".join(report)
    assert page.problems == []


def test_the_v22_rules_page_in_its_own_words(live, browser):
    page = _phone(browser)
    page.goto(live + "/rules?ruleset=rolling-stock-v2.2#collect-income")
    section = page.locator("section#collect-income")
    expect(section).to_contain_text("Jupiter adds $1 per COMPANY it owns")  # v2.2 prints its terms in small capitals
    expect(page.locator("header .brand")).to_have_text("Rolling Stock v2.2")
    report = _axe(page, "rules-v22")
    page.goto(live + "/")
    expect(page.locator("header .brand")).to_have_text("Rolling Stock")
    report += _axe(page, "home")
    assert report == [], "\n".join(report)
    assert page.problems == []
