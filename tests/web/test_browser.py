"""In a real browser (Debian's chromium via Playwright): live sync between two phones,
htmx without CSP violations, and playing without JavaScript."""

import os
import re

import pytest

from assistant.rules.registry import STARS

from .browser import ARTIFACTS, CHROMIUM, PHONE

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (scripts/test.sh)")


def _phone(browser, **kw):
    context = browser.new_context(viewport=PHONE, **kw)
    page = context.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return page, problems


def _new_game(page, base, names=("Amy", "Brian", "Crystal")):
    page.goto(base + "/games/new")
    for i, name in enumerate(names):
        page.locator("input[name=name]").nth(i).fill(name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]{22,}$"))
    return page.url


def test_two_phones_stay_in_step_without_reload(live, browser):
    amy, amy_problems = _phone(browser)
    url = _new_game(amy, live)
    table, table_problems = _phone(browser, color_scheme="dark")
    table.goto(url + "/v/table")  # this phone shows the Table view (offering, deck, prices)
    table.evaluate("window.__notReloaded = true")
    expect = sync_api.expect

    for _ in range(3):  # the initial offering: one big button per possible company
        amy.locator("#c-actions form.big button").first.click()
        amy.wait_for_timeout(300)
    expect(amy.locator("#c-banner .next")).to_have_text("Amy: bid or pass", timeout=5000)
    expect(table.locator("#c-banner .next")).to_have_text("Amy: bid or pass", timeout=5000)
    expect(table.locator("#c-offering .chip")).to_have_count(3, timeout=5000)

    amy.get_by_role("button", name="I am Amy").click()
    expect(amy.locator("#c-banner")).to_have_class(re.compile("my-turn"))
    amy.get_by_role("button", name="Pass").click()
    expect(table.locator("#c-banner .next")).to_have_text("Brian: bid or pass", timeout=5000)
    _nav(table, "log")
    expect(table.locator("#c-history")).to_contain_text("Amy", timeout=5000)
    assert table.evaluate("window.__notReloaded") is True  # htmx swapped parts; no reload

    ARTIFACTS.mkdir(exist_ok=True)
    table.screenshot(path=str(ARTIFACTS / "table-dark-360.png"), full_page=True)
    amy.screenshot(path=str(ARTIFACTS / "seat-light-360.png"), full_page=True)
    width = table.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"page is {width}px wide on a 360px phone"
    assert amy_problems == [] and table_problems == [], amy_problems + table_problems


def test_stale_refusal_appears_next_to_the_form(live, browser):
    import json
    import urllib.request

    page, problems = _phone(browser)
    url = _new_game(page, live, ("Amy", "Brian"))
    for _ in range(2):
        page.locator("#c-actions form.big button").first.click()
        page.wait_for_timeout(300)
    sync_api.expect(page.locator("#c-banner .next")).to_contain_text("Amy", timeout=5000)
    page.route("**/version*", lambda route: route.abort())  # this phone stops seeing changes
    seq = int(page.locator("#sync").get_attribute("data-seq"))
    body = json.dumps({"seq": seq, "event": {"type": "pass", "player": "Amy"}}).encode()
    req = urllib.request.Request(url + "/events", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=5) as resp:  # another phone passes for Amy
        assert json.load(resp) == {"seq": seq + 1}
    page.get_by_role("button", name="Pass").click()
    refusal = page.locator("#c-actions .refusal")
    sync_api.expect(refusal).to_contain_text("changed while you were deciding", timeout=5000)
    sync_api.expect(refusal).to_contain_text("Amy")
    sync_api.expect(page.locator("#c-banner .next")).to_contain_text("Brian", timeout=5000)
    assert page.locator("#sync").get_attribute("data-seq") == str(seq + 1)
    aborted = ("409", "version", "ERR_FAILED", "htmx:sendError", "htmx:afterRequest")  # the polls aborted above
    assert [p for p in problems if not any(a in p for a in aborted)] == []


def test_playing_without_javascript(live, browser):
    page, problems = _phone(browser, java_script_enabled=False)
    url = _new_game(page, live, ("Amy", "Brian"))
    button = page.locator("#c-actions form.big button").first
    company = button.get_attribute("value")
    button.click()  # a plain form post and a redirect: no script runs
    page.wait_for_url(url)
    sync_api.expect(page.locator("#c-last")).to_contain_text(f"{company} drawn for the initial offering")
    state = page.request.get(url + "/state").json()
    assert state["seq"] == 1 and company in state["offering"]["available"]
    page.locator("#c-actions form.big button").first.click()
    sync_api.expect(page.locator("#c-banner .next")).to_have_text("Amy: bid or pass")
    assert problems == []


# ---------------------------------------------------------------------------------------------
# Turn 1 at a table with two phones: setup reveals, auctions, passes, wrap-up, closing, IPOs.


def _nav(page, view):
    """Tap a view in the navigation (htmx swaps the view in place)."""
    page.locator(f"nav.tabs a[data-tab={view}]").click()
    sync_api.expect(page.locator("#region")).to_have_attribute("data-tab", view)


def _look(page, view, check):
    """Check something on another view, then go back to Play."""
    _nav(page, view)
    check()
    _nav(page, "play")


def _check_phone_layout(page, where: str) -> None:
    """360 px: no sideways scrolling, touch targets of at least 44 px, colours paired with a mark."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{where}: page is {width}px wide on a 360px phone"
    small = page.evaluate("""() => [...document.querySelectorAll(
        'button, .button, select, input[type=number], input[type=text], label.radio, label.check, summary')]
        .filter(e => e.offsetParent !== null)
        .map(e => { const r = e.getBoundingClientRect();
                    return {h: Math.round(r.height), w: Math.round(r.width), what: (e.innerText || e.name || '').slice(0, 40)}; })
        .filter(r => r.h < 44 || r.w < 44)""")
    assert small == [], f"{where}: touch targets under 44 px: {small}"
    unmarked = page.evaluate("""() => [...document.querySelectorAll('.chip, button[class*="c-"]')]
        .filter(e => !(e.querySelector('.mark') && e.querySelector('.mark').textContent.trim().length >= 2))
        .map(e => e.outerHTML.slice(0, 80))""")
    assert unmarked == [], f"{where}: a colour without its shape and letter: {unmarked}"


def _shot(page, name: str) -> str:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    return str(path)


def test_turn_one_on_two_phones_from_the_reveals_to_the_ipo(live, browser):
    """Two phones (Amy's creates the game, Brian's joins by the QR link) play turn 1 at 360 px.

    Every event is made by tapping; after each one both phones show it without a reload, and at
    the end the JSON door's state equals the engine's replay of the same events.
    """
    import json
    import urllib.request
    from urllib.parse import urlsplit, urlunsplit

    from assistant.web import labels, lan

    expect = sync_api.expect
    players = ["Amy", "Brian", "Crystal"]
    amy, amy_problems = _phone(browser)
    amy.goto(live + "/games/new")
    _check_phone_layout(amy, "new game form")
    url = _new_game(amy, live, players)
    gid = url.rsplit("/", 1)[1]
    port = urlsplit(live).port

    # -- joining by the link behind the QR code ------------------------------------------------
    link = amy.locator("#c-join .link a")
    href = link.get_attribute("href")
    assert link.inner_text().strip() == href
    parts = urlsplit(href)
    assert (parts.hostname, parts.port, parts.path) == ("192.168.7.7", port, f"/games/{gid}")  # the LAN address
    src = amy.locator("#c-join img.qr").get_attribute("src")
    with urllib.request.urlopen(live + src, timeout=5) as resp:  # as the phone fetched it (Host: loopback)
        drawn = _qr_path(resp.read().decode())
    assert drawn == _qr_path(lan.qr_svg(href))  # the QR code encodes exactly this link
    brian, brian_problems = _phone(browser)
    brian.goto(urlunsplit(parts._replace(netloc=f"127.0.0.1:{port}")))  # the test server's loopback address
    assert brian.url.endswith(f"/games/{gid}")
    amy.get_by_role("button", name="I am Amy").click()
    brian.get_by_role("button", name="I am Brian").click()
    expect(brian.locator("#c-banner .when")).to_contain_text("you are Brian")
    phones = {"Amy": amy, "Brian": brian}
    for page in phones.values():
        page.evaluate("window.__sameDocument = true")

    game = STARS.create(players)  # the engine, fed the same events in step, says what every phone must show
    events: list[dict] = []

    def settled(page, seq):
        expect(page.locator("#sync")).to_have_attribute("data-seq", str(seq), timeout=5000)
        expect(page.locator("#c-actions input[name=seq]").first).to_have_value(str(seq), timeout=5000)

    def step(phone: str, event: dict, tap, check=None):
        """``tap(page)`` makes ``event`` on one phone; then both phones must show its outcome."""
        page = phones[phone]
        settled(page, len(events))
        game.apply(event)
        events.append(event)
        tap(page)
        entry = game.journal[-1]
        for other in phones.values():
            settled(other, len(events))
            expect(other.locator("#c-banner .next")).to_contain_text(
                labels.next_text(game.next, {m["type"] for m in game.legal_actions()}), timeout=5000
            )
            expect(other.locator("#c-last")).to_contain_text(entry["text"], timeout=5000)
            for auto in entry["auto"]:
                expect(other.locator("#c-last")).to_contain_text(auto)
        if check:
            for other in phones.values():
                check(other)
        for other in phones.values():
            assert other.evaluate("window.__sameDocument") is True  # changes came in place: no reload

    def tap(name, fill=None, prefilled=None):
        def do(page):
            button = page.locator("#c-actions").get_by_role("button", name=name, exact=True)
            fold = page.locator("#c-actions details.other", has=page.locator("button", has_text=name))
            if fold.count() and not fold.first.evaluate("d => d.open"):  # another seat's decision
                fold.first.locator(":scope > summary").click()  # its own, not a fold inside it
            if fill is not None or prefilled is not None:
                form = page.locator("#c-actions form.act", has=page.get_by_role("button", name=name, exact=True))
                box = form.locator("input[type=number]")
                if prefilled is not None:
                    expect(box).to_have_value(str(prefilled))  # the minimum is pre-filled
                if fill is not None:
                    box.fill(str(fill))
            button.click()

        return do

    def reveal(company):
        return tap(company)

    def ipo(price, charter, company):
        def do(page):
            price_row = page.locator("label.radio", has=page.locator(f'input[name="e.price"][value="{price}"]'))
            expect(price_row).to_contain_text(f"{price}: Amy pays")
            price_row.click()
            page.locator("label.radio", has=page.locator(f'input[name="e.corporation"][value="{charter}"]')).click()
            shots.append(_shot(page, "04-ipo-choice-360.png"))
            _check_phone_layout(page, "IPO choice")
            page.locator("#c-actions").get_by_role("button", name=f"Take {company} public").click()

        return do

    shots: list[str] = []

    # -- setup: the initial offering, one reveal per player -----------------------------------------
    expect(brian.locator("#c-banner .when")).to_have_text(re.compile("Setup: initial offering"))
    step("Amy", {"type": "reveal", "company": "BME"}, reveal("BME"))
    step("Brian", {"type": "reveal", "company": "BSE"}, reveal("BSE"))
    step(
        "Amy",
        {"type": "reveal", "company": "KME"},
        reveal("KME"),
        check=lambda p: _look(p, "table", lambda: expect(p.locator("#c-offering .chip")).to_have_count(3)),
    )
    expect(amy.locator("#c-banner")).to_have_class(re.compile("my-turn"))
    expect(brian.locator("#c-banner")).not_to_have_class(re.compile("my-turn"))
    shots.append(_shot(amy, "01-after-setup-360.png"))
    _check_phone_layout(amy, "after setup")

    # -- phase 1: an auction started, raised and left; the automatic reveal after it -------------------
    step(
        "Amy",
        {"type": "bid", "player": "Amy", "company": "KME", "price": 5},
        tap("Start an auction for KME", prefilled=5),
    )
    step(
        "Brian",
        {"type": "bid", "player": "Brian", "company": "KME", "price": 6},
        tap("Raise the bid for KME", prefilled=6),
        check=lambda p: _look(
            p, "table", lambda: expect(p.locator("#c-offering .auction")).to_contain_text("high bid 6 by Brian")
        ),
    )
    step("Amy", {"type": "leave", "player": "Crystal"}, tap("Leave the auction for KME"))  # Amy's phone for Crystal
    step("Amy", {"type": "bid", "player": "Amy", "company": "KME", "price": 7}, tap("Raise the bid for KME", fill=7))
    expect(brian.locator("#c-banner")).to_have_class(re.compile("my-turn"))
    shots.append(_shot(brian, "02-auction-360.png"))
    _check_phone_layout(brian, "during an auction")
    step(
        "Brian",
        {"type": "leave", "player": "Brian"},
        tap("Leave the auction for KME"),
        check=lambda p: _look(
            p, "players", lambda: expect(p.locator("#c-players article", has_text="Amy")).to_contain_text("KME")
        ),
    )
    assert game.next["for"] == "reveal" and game.next["choices"] == ["MHE"]  # the last red card
    step(
        "Brian",
        {"type": "reveal", "company": "MHE"},
        reveal("MHE"),
        check=lambda p: _look(p, "table", lambda: expect(p.locator("#c-offering")).to_contain_text("MHE")),
    )
    step(
        "Brian",
        {"type": "bid", "player": "Brian", "company": "BSE", "price": 2},
        tap("Start an auction for BSE", prefilled=2),
    )
    step("Amy", {"type": "bid", "player": "Crystal", "company": "BSE", "price": 3}, tap("Raise the bid for BSE"))
    step("Amy", {"type": "leave", "player": "Amy"}, tap("Leave the auction for BSE"))
    step("Brian", {"type": "leave", "player": "Brian"}, tap("Leave the auction for BSE"))
    step("Amy", {"type": "reveal", "company": "WT"}, reveal("WT"))
    # -- passes until phase 1 ends; the wrap-up: new order, the foreign investor buys and a card is drawn ----
    step("Amy", {"type": "pass", "player": "Crystal"}, tap("Pass"))
    step("Amy", {"type": "pass", "player": "Amy"}, tap("Pass"))
    step(
        "Brian",
        {"type": "pass", "player": "Brian"},
        tap("Pass"),
        check=lambda p: _look(p, "table", lambda: expect(p.locator("#c-foreign")).to_contain_text("BME")),
    )
    assert game.phase == 2 and game.next["for"] == "reveal"
    step("Brian", {"type": "reveal", "company": "BY"}, reveal("BY"))
    # -- phase 4 is open because players own companies: "phase done" -------------------------------------
    assert game.phase == 4 and game.next == {"for": "closing"}
    expect(amy.locator("#c-banner .when")).to_contain_text("Phase 4 Closing")
    expect(amy.locator("#c-actions")).to_contain_text("Close KME")
    shots.append(_shot(amy, "03-phase4-closing-360.png"))
    _check_phone_layout(amy, "phase 4")
    # Amy says she is done on her phone; Brian ends the phase for the table, after a confirmation
    # that names Crystal, who has not said it
    step(
        "Amy",
        {"type": "player_done", "player": "Amy", "phase": 4},
        lambda p: p.locator("#c-actions .group.mine").get_by_role("button", name="I'm done").click(),
        check=lambda p: expect(p.locator("#c-banner .next")).to_contain_text("waiting for Crystal"),
    )

    def end_for_the_table(page):
        page.locator("#c-actions summary", has_text="End phase 4 for the whole table").click()
        expect(page.locator("#c-actions details[open] p")).to_contain_text("Crystal has not said they are done")
        page.get_by_role("button", name="Yes: end phase 4 for the whole table").click()

    step("Brian", {"type": "done", "phase": 4, "by": "Brian"}, end_for_the_table)
    # -- phase 9: one IPO (price, then charter), one skip ---------------------------------------------------
    assert game.phase == 9 and game.next["company"] == "KME"
    step(
        "Amy",
        {"type": "ipo", "company": "KME", "corporation": "Prussian Railway", "price": 10},
        ipo(10, "Prussian Railway", "KME"),
        check=lambda p: _look(
            p, "corporations", lambda: expect(p.locator("#c-corporations")).to_contain_text("Prussian Railway")
        ),
    )
    step("Amy", {"type": "skip_ipo", "company": "BSE"}, tap("Keep BSE private"))

    # -- turn 2 starts with a corporation on the table ------------------------------------------------------
    assert game.turn == 2 and game.phase == 1
    for page in phones.values():
        expect(page.locator("#c-banner .when")).to_contain_text("Turn 2 · Phase 1 Investment")
        _nav(page, "corporations")
        expect(page.locator("#c-corporations article")).to_have_count(1)
        corp = page.locator("#c-corporations article")
        expect(corp).to_contain_text("President: Amy")
        expect(corp).to_contain_text("Income")
        expect(corp.locator("ul.why").first).to_contain_text("KME")
        expect(corp).to_contain_text("required")
        _nav(page, "table")
        expect(page.locator("#c-prices li.used")).to_contain_text("PRU")
        _nav(page, "corporations")
    shots.append(_shot(brian, "05-turn2-corporation-360.png"))
    _check_phone_layout(brian, "turn 2")
    brian.emulate_media(color_scheme="dark")
    assert brian.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(18, 19, 22)"
    shots.append(_shot(brian, "06-turn2-dark-360.png"))
    _check_phone_layout(brian, "dark mode")

    # -- the JSON door: the state equals the engine's replay of the same events --------------------------
    with urllib.request.urlopen(f"{live}/games/{gid}/state", timeout=5) as resp:
        served = json.load(resp)
    expected = STARS.replay(players, [], events).snapshot()
    assert served == dict(expected, seq=len(events))
    with urllib.request.urlopen(f"{live}/games/{gid}/export", timeout=5) as resp:
        # the taps made exactly these events (written as a transcript writes them: the last word of
        # phase 4 as the table's done)
        assert json.load(resp)["events"] == game.transcript_events()
    assert amy_problems == [] and brian_problems == [], amy_problems + brian_problems
    print("screenshots:", *shots, sep="\n  ")


def _qr_path(svg) -> str:
    return re.search(r'<path d="([^"]+)"', str(svg)).group(1)
