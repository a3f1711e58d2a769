"""First load of a table page on a phone, measured in chromium: at most 30 KB on the wire,
everything included (page, CSS, htmx, response headers, and the game's event stream: its code and
what it sent); on the next visit the static files come from the browser's cache without a request.
Served by the real server (granian), so that the page opens its stream as it does at a table."""

from __future__ import annotations

import re

import pytest

from .browser import NEEDS_CHROMIUM, PHONE
from .test_restart import Server

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = NEEDS_CHROMIUM
BUDGET = 30 * 1024


def _table(browser, live) -> str:
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(live + "/games/new")
    for i, name in enumerate(("Amy", "Brian", "Crystal")):
        page.locator("input[name=name]").nth(i).fill(name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]{22,}$"))
    for seq in range(1, 4):
        page.locator("#c-actions form.big button").first.click()
        sync_api.expect(page.locator("#region")).to_have_attribute("data-seq", str(seq))  # each tap's answer
    sync_api.expect(page.locator("#c-banner")).to_contain_text("Amy")
    url = page.url
    page.context.close()
    return url


@pytest.fixture
def live(tmp_path):
    """The real server (granian, with the event streams) on a free loopback port."""
    server = Server(tmp_path / "table.sqlite3", tmp_path)
    yield server.base
    server.stop()


def _wire(page):
    """requestId -> {url, bytes}: what crossed the network (encodedDataLength counts headers too;
    a stream still open counts what it received so far)."""
    seen = {}
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.on("Network.requestWillBeSent", lambda e: seen.setdefault(e["requestId"], {}).update(url=e["request"]["url"]))
    cdp.on(
        "Network.responseReceivedExtraInfo",
        lambda e: seen.setdefault(e["requestId"], {}).update(head=len(e.get("headersText") or "")),
    )
    cdp.on(
        "Network.dataReceived",
        lambda e: seen.setdefault(e["requestId"], {}).update(
            so_far=seen[e["requestId"]].get("so_far", 0) + e["encodedDataLength"]
        ),
    )
    cdp.on(
        "Network.loadingFinished", lambda e: seen.setdefault(e["requestId"], {}).update(bytes=e["encodedDataLength"])
    )
    cdp.on("Network.requestServedFromCache", lambda e: seen.setdefault(e["requestId"], {}).update(cached=True))
    return seen


def test_first_load_of_a_table_page_is_at_most_30_kb(live, browser):
    url = _table(browser, live)
    page = browser.new_context(viewport=PHONE).new_page()  # a new phone: empty cache, no cookie
    seen = _wire(page)
    page.goto(url)
    page.wait_for_load_state("load")
    sync_api.expect(page.locator("#c-banner")).to_contain_text("Amy")
    page.wait_for_timeout(300)
    first = {r["url"]: r["bytes"] for r in seen.values() if "/version" not in r["url"] and "bytes" in r}
    streams = [r for r in seen.values() if "/stream" in r.get("url", "")]
    assert streams and not any("bytes" in r for r in streams), streams  # the stream is open
    for r in streams:
        first[r["url"]] = r.get("head", 0) + r.get("so_far", 0)
    assert any("/static/sse." in u for u in first), first  # the stream's code
    total = sum(first.values())
    for where, size in sorted(first.items(), key=lambda kv: -kv[1]):
        print(f"{size:7d} B  {where.removeprefix(live)}")
    print(f"first load of a table page: {total} B = {total / 1024:.1f} KB on the wire (budget 30 KB)")
    assert any("/static/" in u and u.endswith(".js") for u in first), first
    assert sum(1 for u in first if "/static/" in u and u.endswith(".css")) >= 1, first
    assert total <= BUDGET, f"{total} B > {BUDGET} B"

    # the next visit: the page again, the static files straight from the cache
    seen.clear()
    page.goto(url)
    page.wait_for_load_state("load")
    again = [r for r in seen.values() if "/static/" in r.get("url", "")]
    assert len(again) == len([u for u in first if "/static/" in u]), again
    assert all(r.get("cached") and not r.get("bytes") for r in again), again
    page.context.close()
