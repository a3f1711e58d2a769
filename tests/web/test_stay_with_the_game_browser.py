"""Phones that stay with the game (issue 19), in Debian's chromium: the Screen Wake Lock API is
asked for where the browser has it; where it is missing (plain http on the table's network,
played here by removing the API from the page, since 127.0.0.1 counts as secure) the first tap
starts the silent video; the More view's switch turns it off, and the choice is kept."""

from __future__ import annotations

from .browser import NEEDS_CHROMIUM, PHONE

pytestmark = NEEDS_CHROMIUM

COUNT_REQUESTS = """
  window.__wakeRequests = 0;
  if (navigator.wakeLock) {
    const ask = WakeLock.prototype.request;
    WakeLock.prototype.request = function (...args) { window.__wakeRequests += 1; return ask.apply(this, args); };
  }
"""
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"


def _page(browser, live, script):
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(script)
    page = context.new_page()
    page.goto(live + "/games/new")
    page.locator("input[name=name]").nth(0).fill("Amy")
    page.locator("input[name=name]").nth(1).fill("Brian")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("#sync", state="attached")
    return page


def _wake(page) -> str:
    page.wait_for_function("() => document.documentElement.hasAttribute('data-wake')", timeout=5000)
    return page.evaluate("document.documentElement.getAttribute('data-wake')")


def test_the_wake_lock_is_requested_where_the_browser_has_it(live, browser):
    page = _page(browser, live, COUNT_REQUESTS)
    state = _wake(page)
    asked = page.evaluate("window.__wakeRequests")
    print(f"\nwake lock: requested {asked} time(s); state {state!r}")
    assert asked >= 1
    assert state in ("api", "waiting")  # granted, or refused (headless) and the fallback armed


def test_without_the_api_the_first_tap_starts_the_video_and_more_turns_it_off(live, browser):
    page = _page(browser, live, NO_WAKE_LOCK)
    assert page.evaluate("'wakeLock' in navigator") is False
    assert _wake(page) == "waiting"
    page.locator("#c-banner").click()  # the first tap, anywhere
    page.wait_for_function("() => document.documentElement.getAttribute('data-wake') === 'video'", timeout=5000)
    playing = page.evaluate(
        """() => new Promise(done => { const v = document.querySelector('video.wake-video');
             const t = v.currentTime; setTimeout(() => done({paused: v.paused, muted: v.muted, loop: v.loop,
             advanced: v.currentTime !== t || v.currentTime > 0}), 1200); })"""
    )
    print(f"\nwake fallback: {playing}")
    assert playing == {"paused": False, "muted": True, "loop": True, "advanced": True}
    # More: the switch says so, and turns it off; the choice stays after a reload
    page.locator("nav.tabs a[data-tab=more]").click()
    switch = page.locator("#wake-switch")
    switch.wait_for()
    # the words are written when htmx has settled the tab (wake.js, htmx:afterSettle), after the swap
    page.wait_for_function(
        "() => (document.getElementById('wake-state') || {}).textContent.includes('video')", timeout=5000
    )
    assert switch.is_checked() and "video" in page.locator("#wake-state").inner_text()
    switch.uncheck()
    assert page.evaluate("document.documentElement.getAttribute('data-wake')") == "off"
    assert page.evaluate("document.querySelector('video.wake-video').paused") is True
    page.reload()
    assert _wake(page) == "off"
    page.locator("#wake-switch").check()
    assert _wake(page) == "waiting"


def test_the_manifest_and_icons_load_in_the_browser(live, browser):
    """What "Add to Home Screen" reads: the page's manifest, each icon at its stated size, Apple's touch icon."""
    page = _page(browser, live, "")
    found = page.evaluate(
        """async () => {
          const href = document.querySelector('link[rel=manifest]').href;
          const m = await (await fetch(href)).json();
          const size = src => new Promise(done => { const i = new Image();
              i.onload = () => done(i.naturalWidth + 'x' + i.naturalHeight); i.onerror = () => done('broken'); i.src = src; });
          const icons = [];
          for (const icon of m.icons) { icons.push([icon.sizes, await size(icon.src)]); }
          const apple = await size(document.querySelector('link[rel=apple-touch-icon]').href);
          return {start: m.start_url, display: m.display, name: m.name, icons, apple};
        }"""
    )
    print(f"\nmanifest: {found}")
    assert found["display"] == "standalone" and found["start"] == page.url.replace(live, "")
    assert "Amy" in found["name"] and "Brian" in found["name"]
    for sizes, drawn in found["icons"]:
        assert drawn != "broken" and (sizes == "any" or sizes == drawn), (sizes, drawn)
    assert found["apple"] == "180x180"
