"""In a real browser (Debian's chromium via Playwright): live sync between two phones,
htmx without CSP violations, and playing without JavaScript."""

import os
import re
import threading
from pathlib import Path

import pytest

from .conftest import make_app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PHONE = {"width": 360, "height": 740}

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (scripts/test.sh)")


@pytest.fixture
def live(tmp_path):
    """The app behind waitress on a free loopback port."""
    from waitress import create_server

    app = make_app(tmp_path / "live.sqlite3")
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"
    server.close()
    app.extensions["rss_store"].close()


@pytest.fixture
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


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
    table.goto(url)
    table.evaluate("window.__notReloaded = true")
    expect = sync_api.expect

    for _ in range(3):  # the initial offering: one big button per possible company
        amy.locator("#c-actions form.big button").first.click()
        amy.wait_for_timeout(300)
    expect(amy.locator("#c-banner .next")).to_have_text("Amy: bid, buy or sell a share, or pass", timeout=5000)
    expect(table.locator("#c-banner .next")).to_have_text("Amy: bid, buy or sell a share, or pass", timeout=5000)
    expect(table.locator("#c-offering .chip")).to_have_count(3, timeout=5000)

    amy.get_by_role("button", name="I am Amy").click()
    expect(amy.locator("#c-banner")).to_have_class(re.compile("my-turn"))
    amy.get_by_role("button", name="Pass").click()
    expect(table.locator("#c-banner .next")).to_have_text("Brian: bid, buy or sell a share, or pass", timeout=5000)
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
    assert [p for p in problems if "409" not in p and "version" not in p] == []


def test_playing_without_javascript(live, browser):
    page, problems = _phone(browser, java_script_enabled=False)
    url = _new_game(page, live, ("Amy", "Brian"))
    page.locator("#c-actions form.big button").first.click()
    page.wait_for_url(url)
    assert "1 " in page.locator("#c-history").inner_text() or page.locator("#c-history li").count() >= 1
    page.locator("#c-actions form.big button").first.click()
    sync_api.expect(page.locator("#c-banner .next")).to_have_text("Amy: bid, buy or sell a share, or pass")
    assert problems == []
