"""The table on a phone at the moment of play (issue 11), in Debian's chromium at 360 x 740 and
320 x 640, with two phones as two browser contexts, each point checked as a player would see it.

Figures (view heights, requests and bytes per change, time to show a lost connection) are printed
(run with ``-s``) and screenshots go to tests/artifacts/."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.request
from urllib.parse import urlsplit, urlunsplit

import pytest

from assistant.log import transcript
from assistant.rules.registry import STARS

from . import helper_positions
from .browser import ARTIFACTS, CHROMIUM

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (scripts/test.sh)")
expect = sync_api.expect

PHONES = {"360": {"width": 360, "height": 740}, "320": {"width": 320, "height": 640}}
TABS = ("play", "table", "corporations", "players", "log", "more")


def _phone(browser, size="360", **kw):
    context = browser.new_context(viewport=PHONES[size], **kw)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    return page


def _new_game(page, base, names=("Amy", "Brian")):
    page.goto(base + "/games/new")
    for i, name in enumerate(names):
        page.locator("input[name=name]").nth(i).fill(name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]{22,}$"))
    return page.url


def _post_event(url, event) -> int:
    """Another phone enters ``event`` through the JSON door; returns the new seq."""
    with urllib.request.urlopen(url + "/state", timeout=10) as resp:
        seq = json.load(resp)["seq"]
    body = json.dumps({"seq": seq, "event": event}).encode()
    req = urllib.request.Request(url + "/events", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.load(resp)["seq"]


def _import(base, position, players=helper_positions.PLAYERS) -> str:
    names, events = helper_positions.position(position, players)
    body = json.dumps(transcript.build(list(names), [], None, list(events), "phone test")).encode()
    req = urllib.request.Request(base + "/games/import", data=body, headers={"Content-Type": "application/json"})

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **kw):
            return None

    try:
        urllib.request.build_opener(NoRedirect).open(req, timeout=10)
    except urllib.error.HTTPError as err:  # 303 to the table page
        assert err.code == 303
        return base + err.headers["Location"]
    raise AssertionError("import did not redirect")


def _seat(page, name):
    page.locator("form.seats").first.get_by_role("button", name=f"I am {name}", exact=True).click()
    expect(page.locator("#c-banner .when")).to_contain_text(f"you are {name}")


def _president_picks(browser, url, president, corp):
    """A phone seated as ``president`` that tapped ``corp`` in phase 3's picker."""
    page = _phone(browser)
    page.goto(url)
    _seat(page, president)
    pick = page.locator("#c-actions a.pick", has_text=corp)
    if "primary" not in (pick.get_attribute("class") or ""):
        pick.click()
        expect(pick).to_have_class(re.compile("primary"))
    return page


def _in_viewport(page, selector) -> bool:
    return page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
            return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }""",
        selector,
    )


def _settled(page, seq):
    expect(page.locator("#sync")).to_have_attribute("data-seq", str(seq), timeout=10_000)
    expect(page.locator("#region")).to_have_attribute("data-seq", str(seq), timeout=10_000)


def _check_fits(page, where):
    """No sideways scroll, body text of at least 16 px, touch targets of at least 44 x 44 px."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{where}: {width}px wide"
    small_text = page.evaluate("""() => [...document.querySelectorAll('main p, main li, main td, main label, #turn p')]
        .filter(e => e.offsetParent !== null && e.closest('small, .fv, .auto, .why, .hint') === null)
        .filter(e => parseFloat(getComputedStyle(e).fontSize) < 16)
        .map(e => e.textContent.trim().slice(0, 30))""")
    assert small_text == [], f"{where}: body text under 16 px: {small_text}"
    small = page.evaluate("""() => [...document.querySelectorAll(
        'main button, main .button, main select, main input:not([type=hidden]), main label.radio, main summary, nav.tabs a')]
        .filter(e => e.offsetParent !== null)
        .map(e => { const r = e.getBoundingClientRect();
                    return {h: Math.round(r.height), w: Math.round(r.width), what: (e.innerText || e.name || '').slice(0, 30)}; })
        .filter(r => r.h < 44 || r.w < 44)""")
    assert small == [], f"{where}: touch targets under 44 px: {small}"


def _shot(page, name, full=False):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=full)


def _scroll_to_bottom(page):
    """Scroll to the very bottom (again, if the view was still growing, e.g. an image loading)."""
    for _ in range(20):
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        if page.evaluate("() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("could not scroll to the bottom")


def _nav(page, view):
    page.locator(f"nav.tabs a[data-tab={view}]").click()
    expect(page.locator("#region")).to_have_attribute("data-tab", view)
    expect(page.locator("#tab")).not_to_have_class(re.compile(r"htmx-(swapping|settling)"))  # the swap is done


# ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", ["360", "320"])
def test_whose_turn_stays_in_view_in_every_view_light_and_dark(live, browser, size):
    """#turn is on screen after scrolling to the bottom of every view; every view fits the phone."""
    page = _phone(browser, size)
    url = _new_game(page, live, ("Amy", "Brian", "Crystal"))
    _seat(page, "Amy")
    for company in ("BME", "BSE", "KME"):
        page.locator("#c-actions").get_by_role("button", name=company, exact=True).click()
        expect(page.locator("#c-last")).to_contain_text(company)
    _post_event(url, {"type": "bid", "player": "Amy", "company": "KME", "price": 5})
    expect(page.locator("#c-banner .next")).to_contain_text("Brian", timeout=10_000)
    heights = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for view in TABS:
            _nav(page, view)
            page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
            assert page.evaluate(
                "() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2"
            )
            assert _in_viewport(page, "#turn"), f"{view}: the turn bar scrolled away"
            assert _in_viewport(page, "nav.tabs"), f"{view}: the navigation scrolled away"
            _check_fits(page, f"{view} {scheme} {size}")
            heights[view] = page.evaluate("document.documentElement.scrollHeight")
            page.evaluate("window.scrollTo(0, 0)")
            _shot(page, f"view-{view}-{scheme}-{size}.png")
    print(
        f"\nview heights at {size} px (px, screens):",
        {v: (h, round(h / PHONES[size]["height"], 1)) for v, h in heights.items()},
    )
    assert page.problems == []


def test_join_flow_from_the_link_to_a_seated_your_turn_phone(live, browser):
    host = _phone(browser)
    url = _new_game(host, live)
    # the host's phone: the QR code and the link, large, on the first screen; then "Who are you?"
    expect(host.locator("#c-join img.qr")).to_be_visible()
    assert _in_viewport(host, "#c-join img.qr")
    expect(host.locator("#c-join .count")).to_contain_text("0 of 2 seats taken")
    _shot(host, "join-host-360.png")
    _seat(host, "Amy")
    href = host.locator("#c-join .link a").get_attribute("href")
    assert urlsplit(href).path == urlsplit(url).path
    # the other phone opens the link (here on the loopback address): it first asks who it is
    other = _phone(browser)
    other.add_init_script("window.__buzz = []; navigator.vibrate = (p) => { window.__buzz.push(p); return true; };")
    other.goto(urlunsplit(urlsplit(href)._replace(netloc=urlsplit(live).netloc)))
    expect(other.locator("#c-who h2")).to_have_text("Who are you?")
    assert _in_viewport(other, "#c-who h2")
    expect(other.locator("#c-who").get_by_role("button", name="Just watching (no seat)")).to_be_visible()
    expect(other.locator("#c-who")).to_contain_text("I am Amy · taken")
    _shot(other, "join-who-360.png")
    _seat(other, "Brian")
    expect(other.locator("#c-who")).to_have_count(0)
    # every seat is taken: the QR code leaves the host's Play view by itself (no reload)
    host.evaluate("window.__sameDocument = true")
    expect(host.locator("#c-join")).to_have_count(0, timeout=10_000)
    assert host.evaluate("window.__sameDocument") is True
    # setup on the host's phone
    for company in ("BME", "BSE"):
        host.locator("#c-actions").get_by_role("button", name=company, exact=True).click()
        expect(host.locator("#c-last")).to_contain_text(company)
    _nav(host, "more")
    expect(host.locator("#c-join .count")).to_contain_text("2 of 2 seats taken")
    _nav(host, "play")
    # Amy's turn: unmistakable on her phone (words and colour), not on Brian's
    expect(host.locator("#turn")).to_contain_text("Your turn")
    expect(host.locator("#turn")).to_have_class(re.compile("mine"))
    expect(other.locator("#turn")).not_to_contain_text("Your turn", timeout=10_000)
    # Brian's phone puts Amy's decisions behind "Enter for Amy…"
    fold = other.locator("#c-actions details.other", has_text="Enter for Amy")
    expect(fold).to_have_count(1)
    assert not fold.evaluate("d => d.open")
    # Brian reads the table, scrolled down, when Amy passes: his bar, title and vibration say it
    _nav(other, "table")
    other.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    other.evaluate("window.__buzz = []")
    assert other.evaluate("window.scrollY") > 0
    host.locator("#c-actions").get_by_role("button", name="Pass", exact=True).click()
    expect(other.locator("#turn")).to_contain_text("Your turn", timeout=10_000)
    expect(other.locator("#turn")).to_have_class(re.compile("mine"))
    assert _in_viewport(other, "#turn")
    expect(other).to_have_title(re.compile("^▶ Your turn"))
    assert other.evaluate("window.__buzz.length") >= 1
    colour = other.evaluate("getComputedStyle(document.getElementById('turn')).backgroundColor")
    assert colour != host.evaluate("getComputedStyle(document.getElementById('turn')).backgroundColor")
    # his own decisions are the first thing on his Play view
    _nav(other, "play")
    first = other.locator("#c-actions .group").first
    expect(first).to_have_class(re.compile("mine"))
    expect(first).to_contain_text("Brian")
    assert _in_viewport(other, "#c-actions .group.mine h3")
    _shot(other, "your-turn-360.png")
    other.emulate_media(color_scheme="dark")
    _shot(other, "your-turn-dark-360.png")
    _check_fits(other, "your turn, dark")
    assert host.problems == [] and other.problems == []


def test_a_remote_change_keeps_scroll_open_panels_and_typed_input(live, browser):
    """Phase 3 with two presidents: Brian is typing a price when Amy's corporation buys."""
    url = _import(live, "acquisition_two")
    names, events = helper_positions.position("acquisition_two")

    game = STARS.replay(list(names), [], list(events))
    menu = [m for m in game.legal_actions() if m["type"] == "acquire" and m["min"] < m["max"]]
    # two presidents with a purchase each ("Brian" types, "Amy" buys: the seats the position gives)
    presidents = [p for p in ("Brian", "Crystal", "Amy") if any(m["president"] == p for m in menu)]
    typer, buyer = presidents[0], presidents[1]
    brian_item = next(m for m in menu if m["president"] == typer)
    amy_item = next(m for m in menu if m["president"] == buyer and m["company"] != brian_item["company"])

    brian = _phone(browser)
    brian.goto(url)
    _seat(brian, typer)
    amy = _phone(browser, "320")
    amy.goto(url)
    _seat(amy, buyer)
    _shot(brian, "phase3-picker-360.png", full=True)

    # Brian: his corporation, then a company; he types a price and leaves the field focused
    corp_link = brian.locator("#c-actions a.pick", has_text=brian_item["corporation"])
    if "primary" not in (corp_link.get_attribute("class") or ""):
        corp_link.click()
    offer = brian.locator(f"details.offer:has(input[name='e.company'][value='{brian_item['company']}'])")
    offer.locator("summary").click()
    box = offer.locator("input[name='e.price']")
    typed = str(brian_item["min"] + 1)
    box.fill(typed)
    offer.locator("a.helper-link", has_text="What if?").click()  # and a decision helper opened
    helper = offer.locator(".helper-box.acquisition")
    expect(helper).to_be_visible()
    box.focus()
    brian.evaluate("window.scrollTo(0, 120)")
    y = box.bounding_box()["y"]
    seq = int(brian.locator("#sync").get_attribute("data-seq"))
    wire = _Wire(brian)

    # Amy's phone buys a company for her corporation
    corp_link = amy.locator("#c-actions a.pick", has_text=amy_item["corporation"])
    if "primary" not in (corp_link.get_attribute("class") or ""):
        corp_link.click()
    amy_offer = amy.locator(f"details.offer:has(input[name='e.company'][value='{amy_item['company']}'])")
    amy_offer.locator("summary").click()
    amy_offer.get_by_role("button").first.click()
    expect(amy.locator("#c-last.entered")).to_contain_text(amy_item["company"])

    expect(brian.locator("#c-last")).to_contain_text(amy_item["company"], timeout=10_000)
    _settled(brian, seq + 1)
    assert offer.evaluate("d => d.open"), "the open purchase closed"
    expect(helper).to_be_visible()  # the open helper stayed open
    assert box.input_value() == typed, "the typed price was cleared"
    assert box.evaluate("e => e === document.activeElement"), "the focus moved"
    assert round(box.bounding_box()["y"] - y) == 0, "the typed-in box moved on screen"
    count, size = wire.cost()
    print(f"\nremote change (phase 3, Play view): {count} requests, {size} bytes")
    assert count <= 2 and size <= 8 * 1024
    # Brian's purchase still goes through with his typed price; its result shows where he looks
    brian.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    offer.get_by_role("button").first.click()
    expect(brian.locator("#c-last.entered")).to_contain_text(brian_item["company"])
    below_bar = brian.evaluate(
        """() => document.getElementById('c-last').getBoundingClientRect().top
                 >= document.getElementById('turn').getBoundingClientRect().bottom"""
    )
    if not below_bar:  # the result line is out of sight: it shows above the navigation instead
        expect(brian.locator(".last.toast")).to_contain_text(brian_item["company"])
        assert _in_viewport(brian, ".last.toast")
        _shot(brian, "entry-result-toast-360.png")
    print("own result shown as", "the line on top" if below_bar else "a toast above the navigation")
    assert brian.problems == [] and amy.problems == []


class _Wire:
    """What one phone fetches: every request but the idle polls (204, empty), with its bytes on the wire."""

    def __init__(self, page):
        self.page = page
        self.responses = []
        self.idle = []
        self.since = time.time() * 1000  # requests sent before (still in flight) are not the change's
        page.on("requestfinished", self._done)

    def _done(self, request):
        response = request.response()
        if response is None or 0 < request.timing["startTime"] < self.since:
            return
        sizes = request.sizes()
        size = sizes["responseBodySize"] + sizes["responseHeadersSize"]
        if ("/version" in request.url or "/seats" in request.url) and response.status == 204:
            self.idle.append(sizes["responseBodySize"])  # an idle poll
        else:
            self.responses.append((request.url, response.status, size))

    def cost(self):
        # two more idle polls after the change: everything the change caused has arrived
        seen = len([u for u in self.idle])
        deadline = time.monotonic() + 15
        while len(self.idle) < seen + 3 and time.monotonic() < deadline:
            self.page.wait_for_timeout(200)
        assert all(size == 0 for size in self.idle), "an idle poll carried a body"
        return len(self.responses), sum(size for _, _, size in self.responses)


@pytest.mark.parametrize("view", ["play", "table", "log"])
def test_requests_and_bytes_per_change_made_elsewhere(live, browser, view):
    watcher = _phone(browser)
    url = _new_game(watcher, live, ("Amy", "Brian", "Crystal"))
    for company in ("BME", "BSE", "KME"):
        _post_event(url, {"type": "reveal", "company": company})
    _seat(watcher, "Brian")
    _nav(watcher, view)
    _settled(watcher, 3)
    wire = _Wire(watcher)
    _post_event(url, {"type": "pass", "player": "Amy"})  # made on another phone
    expect(watcher.locator("#c-banner .next")).to_contain_text("Brian:", timeout=10_000)
    _settled(watcher, 4)
    count, size = wire.cost()
    print(f"\nchange made elsewhere, {view} view: {count} requests, {size} bytes on the wire: {wire.responses}")
    assert count <= 2, wire.responses
    assert size <= 8 * 1024, wire.responses


def test_own_entry_costs_one_request_and_shows_its_result(live, browser):
    page = _phone(browser, "320")
    url = _new_game(page, live)
    for company in ("BME", "BSE"):
        _post_event(url, {"type": "reveal", "company": company})
    _seat(page, "Amy")
    _settled(page, 2)
    wire = _Wire(page)
    page.locator("#c-actions").get_by_role("button", name="Pass", exact=True).click()
    expect(page.locator("#c-last.entered")).to_contain_text("Amy passes")
    assert _in_viewport(page, "#c-last")
    count, size = wire.cost()
    print(f"\nown entry: {count} request(s), {size} bytes")
    assert count == 1


def test_the_undo_confirmation_opens_in_view_and_names_the_consequence(live, browser):
    page = _phone(browser, "320")
    url = _new_game(page, live, ("Amy", "Brian", "Crystal"))
    for company in ("BME", "BSE", "KME"):
        _post_event(url, {"type": "reveal", "company": company})
    _post_event(url, {"type": "pass", "player": "Amy"})
    page.reload()
    _nav(page, "log")
    page.get_by_text("Undo the last event…").click()
    confirm = page.locator("#c-undo form.confirm")
    expect(confirm).to_be_visible()
    expect(confirm).to_contain_text("Amy passes")
    expect(confirm).to_contain_text("Every phone goes back")
    assert _in_viewport(page, "#c-undo form.confirm button.danger")
    _shot(page, "undo-confirm-320.png")
    confirm.get_by_role("button", name="Yes, undo it").click()
    expect(page.locator("#c-banner .next")).to_contain_text("Amy:")
    with urllib.request.urlopen(url + "/state", timeout=10) as resp:
        assert json.load(resp)["next"]["player"] == "Amy"


def _amy_on_a_live_server(live_server, browser):
    """Amy's phone on a stoppable server, at her first decision: (page, game address)."""
    page = _phone(browser)
    url = _new_game(page, live_server.url)
    for company in ("BME", "BSE"):
        _post_event(url, {"type": "reveal", "company": company})
    _seat(page, "Amy")
    _settled(page, 2)
    return page, url


def test_a_dropped_server_is_shown_and_a_tap_made_offline_is_sent_again_by_itself(live_server, browser):
    """A tap made while the server is away is kept without moving anything under the finger, and
    sent again by itself within 3 s of the server answering again, exactly once (issue 17)."""
    page, url = _amy_on_a_live_server(live_server, browser)
    expect(page.locator("#connection")).to_be_hidden()

    lost = time.monotonic()
    live_server.stop()
    expect(page.locator("#connection")).to_be_visible(timeout=10_000)
    print(f"\n#connection shown {time.monotonic() - lost:.1f} s after the server stopped")
    button = page.locator("#c-actions").get_by_role("button", name="Pass", exact=True)
    before = button.bounding_box()
    button.click()
    unsent = page.locator("#unsent")
    expect(unsent).to_contain_text("1 tap kept: it goes by itself once the server answers")
    expect(page.locator("#c-actions form.unsent-form")).to_have_count(1)
    after = button.bounding_box()
    moved = abs(after["y"] - before["y"]) + abs(after["x"] - before["x"])
    print(f"the 'not sent' notice moved the tapped button by {moved:.0f} px")
    assert moved == 0
    _shot(page, "offline-360.png")

    live_server.start()
    back = time.monotonic()
    # the tap's own answer marks the entry "entered"; a refresh for the same change landing after it
    # (the poll, under load) shows it unmarked: what counts is that it is there, once (seq 3 below)
    expect(page.locator("#c-last")).to_contain_text("Amy passes", timeout=3_000)
    print(f"the kept tap was sent again {time.monotonic() - back:.1f} s after the server came back")
    expect(page.locator("#connection")).to_be_hidden()
    expect(unsent).to_be_hidden()
    page.wait_for_timeout(1500)  # and only once
    with urllib.request.urlopen(url + "/state", timeout=10) as resp:
        assert json.load(resp)["seq"] == 3
    # and the phone catches up by itself with what other phones do
    _post_event(url, {"type": "pass", "player": "Brian"})
    _settled(page, 4)
    expect(page.locator("#c-last")).to_contain_text("Brian passes")


def test_a_tap_kept_offline_that_no_longer_fits_is_said_in_words(live_server, browser, tmp_path):
    """The server comes back, but the game changed meanwhile: the kept tap is refused as stale, in words."""
    from assistant.store import Store

    page, url = _amy_on_a_live_server(live_server, browser)
    live_server.stop()
    expect(page.locator("#connection")).to_be_visible(timeout=10_000)
    page.locator("#c-actions").get_by_role("button", name="Start an auction for BME").click()
    expect(page.locator("#unsent")).to_be_visible()
    # meanwhile the table goes on without this phone (another phone, entered on the server's database)
    gid = url.rsplit("/", 1)[1]
    store = Store(str(tmp_path / "live.sqlite3"))
    store.append(gid, 2, {"type": "pass", "player": "Amy"})
    store.close()
    live_server.start()
    notice = page.locator("#unsent")
    expect(notice).to_contain_text("the game changed meanwhile, so it no longer fits", timeout=5_000)
    _shot(page, "offline-tap-no-longer-fits-360.png")
    notice.get_by_role("button", name="OK").click()
    expect(notice).to_be_hidden()
    with urllib.request.urlopen(url + "/state", timeout=10) as resp:
        state = json.load(resp)
    assert state["seq"] == 3 and not state.get("auction")  # the stale tap was not entered


def test_closing_a_company_asks_first_in_place_and_names_the_consequence(live, browser):
    from .turn_one import AT_PHASE_4, PLAYERS, TURN_ONE

    page = _phone(browser, "320")
    url = _new_game(page, live, PLAYERS)
    for event in TURN_ONE[:AT_PHASE_4]:
        _post_event(url, event)
    _seat(page, "Amy")
    close = page.locator("#c-actions details.confirm-close", has_text="Close KME")
    close.locator("summary").click()
    form = close.locator("form.confirm")
    expect(form).to_contain_text("KME leaves the game for good")
    expect(form).to_contain_text("income")
    assert _in_viewport(page, "#c-actions details.confirm-close[open] button.danger")
    _shot(page, "close-confirm-320.png")


def test_views_work_without_javascript(live, browser):
    page = _phone(browser, java_script_enabled=False)
    url = _new_game(page, live)
    page.get_by_role("button", name="I am Amy").click()
    page.locator("#c-actions form.big button").first.click()
    page.wait_for_url(url)
    for view in TABS[1:]:
        page.locator(f"nav.tabs a[data-tab={view}]").click()
        page.wait_for_url(f"{url}/v/{view}")
        expect(page.locator(f"nav.tabs a[data-tab={view}]")).to_have_attribute("aria-current", "page")
    page.go_back()
    page.wait_for_url(f"{url}/v/log")
    page.get_by_text("Undo the last event…").click()
    page.get_by_role("button", name="Yes, undo it").click()
    page.wait_for_url(f"{url}/v/log")
    expect(page.locator("#c-history")).to_contain_text("Nothing yet")


def test_phase_3_stays_short_with_many_purchases(live, browser):
    """Tap a corporation you run, then a company (owner, span, income and synergy change), then buy."""
    players = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
    url = _import(live, "acquisition_many", players)
    names, events = helper_positions.position("acquisition_many", players)

    game = STARS.replay(list(names), [], list(events))
    items = [m for m in game.legal_actions() if m["type"] in ("acquire", "announce")]
    buyers = {m["corporation"] for m in items}
    president = next(m["president"] for m in items)
    corp = next(m["corporation"] for m in items if m["president"] == president)
    page = _president_picks(browser, url, president, corp)
    offers = page.locator("#c-actions details.offer")
    mine = [m for m in items if m["corporation"] == corp]
    expect(offers).to_have_count(len(mine))
    height = page.evaluate("document.documentElement.scrollHeight")
    print(
        f"\nphase 3: {len(buyers)} buyers, {len(items)} purchases; the Play view is {height} px ({len(mine)} rows shown)"
    )
    # only the chosen corporation's companies are listed, one short row each (folded until tapped)
    assert page.locator("#c-actions details.offer[open]").count() == 0
    assert height <= 2 * 740
    _check_fits(page, "phase 3")
    _shot(page, "phase3-many-360.png", full=True)
    item = mine[0]
    offer = offers.filter(has=page.locator(f"input[name='e.company'][value='{item['company']}']"))
    summary = offer.locator("summary")
    expect(summary).to_contain_text(f"from {item['seller']}")
    expect(summary).to_contain_text(str(item["min"]))
    expect(summary).to_contain_text("income")
    summary.click()
    if item["min"] < item["max"]:
        offer.locator("input[name='e.price']").fill(str(item["max"]))
    offer.get_by_role("button").first.click()
    expect(page.locator("#c-last.entered")).to_contain_text(item["company"])
    assert page.problems == []
