"""A first hour with no traps (issue 37, §2), in Debian's chromium on a 360 px phone:

* a phone whose game is not on the server (the server was started again on another database, and
  answers 404) says so at once, in words, on every view, never shows the game as live (no "Your
  turn"), and keeps a tap made meanwhile as not sent; once the game is back, the tap goes by itself;
* a tap aimed at a decision that has just been replaced enters nothing: acquisitions end (another
  phone ends them for the table) and closing's decisions come in their place; a tap on the new
  "I'm done" within half a second of its appearing is not entered, one a moment later is.
"""

from __future__ import annotations

import json
import random
import re
import urllib.request

import pytest

from assistant.rules import events_of
from assistant.rules.registry import STARS

from .browser import NEEDS_CHROMIUM, PHONE, LiveServer
from .conftest import make_app

pytestmark = NEEDS_CHROMIUM
sync_api = pytest.importorskip("playwright.sync_api")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")
PLAYERS = ["Amy", "Brian", "Crystal"]
FRESH_MS = 500  # a new decision takes no tap this long after it appears (static/table.js)


def _acquisitions_then_closing() -> list[dict]:
    """The events of a game in phase 3 where Amy may still act, and may act again in phase 4 once the
    table has ended phase 3 (played by the engine, as tests/web/test_intervention.py's ``_reach``)."""
    for seed in range(300):
        rng = random.Random(seed)
        game = STARS.create(PLAYERS)

        def pick(*args, rng=rng):
            if len(args) == 2:
                return args[0] if rng.random() < 0.5 else rng.randint(*args)
            return rng.choice(args[0])

        while not game.game_over:
            menu = game.legal_actions()
            done = {m["player"] for m in menu if m["type"] == "player_done"}
            if game.phase == 3 and "Amy" in done and menu[0]["type"] != "no_intervention":
                after = STARS.create(PLAYERS)
                for event in game.events:
                    after.apply(event)
                after.apply({"type": "done", "phase": 3})
                if after.phase == 4 and any(
                    m == {"type": "player_done", "player": "Amy", "phase": 4} for m in after.legal_actions()
                ):
                    return list(game.events)
            quiet = [m for m in menu if m["type"] not in ("announce", "player_done")] or menu
            game.apply(events_of(rng.choice(quiet), pick))
    raise AssertionError("no game reached acquisitions followed by closing")


def _post(base: str, path: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.status, json.loads(resp.read() or b"{}")


def _state(base: str, gid: str) -> dict:
    with urllib.request.urlopen(f"{base}/games/{gid}/state", timeout=10) as resp:
        return json.loads(resp.read())


def _import(base: str, events: list[dict]) -> str:
    game = {"format": "rss-table-transcript", "version": 1, "players": PLAYERS, "options": [], "events": events}
    req = urllib.request.Request(
        base + "/games/import", data=json.dumps(game).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.url.rsplit("/", 1)[1]


def _amys_phone(browser, base: str, gid: str, scheme: str = "light"):
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"{base}/games/{gid}")
    page.get_by_role("button", name="I am Amy").click()
    sync_api.expect(page.locator("#c-banner")).to_have_class(re.compile("my-turn"))
    return page, problems


def test_a_phone_whose_game_is_not_on_the_server_says_so_and_keeps_its_tap(tmp_path, browser):
    expect = sync_api.expect
    first_app = make_app(tmp_path / "games.sqlite3")
    other_app = make_app(tmp_path / "elsewhere" / "empty.sqlite3")
    server = LiveServer(first_app)
    server.start()
    try:
        gid = _import(server.url, _acquisitions_then_closing())
        seq = _state(server.url, gid)["seq"]
        page, problems = _amys_phone(browser, server.url, gid, "dark")
        done = page.locator("#c-actions .group.mine").get_by_role("button", name="I'm done with phase 3 (Acquisition)")
        expect(done).to_be_visible()

        # the server is started again on another database: the same address answers 404 for the game
        server.stop()
        server = LiveServer(other_app, port=server.port)
        server.start()
        bar = page.locator("#connection")
        words = bar.locator(".gone-text")  # (the words are in the page from the start, shown only now)
        expect(words).to_be_visible(timeout=4000)
        expect(words).to_contain_text("This game is not on the table's server")
        expect(bar.locator(".offline-text")).to_be_hidden()
        expect(page.locator("#turn")).to_be_hidden()  # never shown as live: no "Your turn"
        assert "Your turn" not in page.title() and "Your turn" not in page.locator("body").inner_text()
        axe = axe_sync.Axe()
        found = axe.run(page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]}})
        assert not found.response["violations"], [v["id"] for v in found.response["violations"]]

        done.click()  # the tap: kept, said not sent
        expect(page.locator("#unsent")).to_be_visible()
        expect(page.locator("#unsent .msg")).to_contain_text("Not sent: this game is not on the table's server.")
        expect(page.locator("form.unsent-form")).to_have_count(1)
        page.locator("nav.tabs a[data-tab=log]").click()  # another view: the words stay
        page.wait_for_timeout(1200)
        expect(words).to_be_visible()
        assert other_app.extensions["rss_store"].game_exists(gid) is False

        # the game's server again: the kept tap goes by itself, once
        server.stop()
        server = LiveServer(first_app, port=server.port)
        server.start()
        expect(bar).to_be_hidden(timeout=5000)
        expect(page.locator("#unsent")).to_be_hidden(timeout=5000)
        state = _state(server.url, gid)
        assert state["seq"] == seq + 1
        page.wait_for_timeout(1500)
        assert _state(server.url, gid)["seq"] == seq + 1
        assert problems == []
    finally:
        server.stop()
        first_app.extensions["rss_store"].close()
        other_app.extensions["rss_store"].close()


TIMES = """() => {
  window.__swapAt = null; window.__downAt = null;
  document.addEventListener("htmx:afterSwap", e => { if (e.detail.target.id === "tab") { window.__swapAt = performance.now(); } });
  document.addEventListener("pointerdown", () => { window.__downAt = performance.now(); }, true);
}"""


def test_a_tap_aimed_at_a_decision_just_replaced_enters_nothing(live, browser):
    expect = sync_api.expect
    gid = _import(live, _acquisitions_then_closing())
    seq = _state(live, gid)["seq"]
    page, problems = _amys_phone(browser, live, gid)
    mine = page.locator("#c-actions .group.mine")
    expect(mine.get_by_role("button", name="I'm done with phase 3 (Acquisition)")).to_be_visible()
    # the finger last touched the tabs (nothing there changes), and is on its way to "I'm done"
    tab = page.locator("nav.tabs a[data-tab=play]").bounding_box()
    page.mouse.move(tab["x"] + tab["width"] / 2, tab["y"] + tab["height"] / 2)
    page.evaluate(TIMES)

    # another phone ends the acquisitions for the table: closing's decisions replace them
    status, _ = _post(live, f"/games/{gid}/events", {"seq": seq, "event": {"type": "done", "phase": 3}})
    assert status == 200
    page.wait_for_function("() => window.__swapAt !== null", timeout=5000, polling=10)
    box = page.evaluate(
        """() => { const b = [...document.querySelectorAll('#c-actions .group.mine button')]
                    .find(b => b.textContent.trim() === "I'm done with phase 4 (Closing)");
                  const r = b.getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; }"""
    )
    page.mouse.click(box["x"], box["y"])  # a real tap at its place, at once (no waiting for it)
    page.wait_for_timeout(1200)
    assert _state(live, gid)["seq"] == seq + 1, "the tap on the decision that had just appeared was entered"
    late = page.evaluate("window.__downAt - window.__swapAt")
    assert late < FRESH_MS - 100, f"the tap came {late:.0f} ms after the new decision: too late to tell"

    # a moment later the same button takes the tap
    mine.get_by_role("button", name="I'm done with phase 4 (Closing)").click()
    expect(page.locator("#c-banner")).not_to_have_class(re.compile("my-turn"), timeout=5000)
    after = _state(live, gid)
    assert after["seq"] == seq + 2
    assert problems == []
    print(f"\nthe tap came {late:.0f} ms after the new decision appeared; nothing was entered")


def test_with_the_event_stream_too_a_game_not_on_the_server_is_said(tmp_path, browser):
    """The same under the real server (granian), where the phone follows the game's event stream:
    the stream is refused (404) after the restart on another database, and the phone says so."""
    from .test_restart import Server

    expect = sync_api.expect
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    server = Server(tmp_path / "a" / "games.sqlite3", tmp_path / "a")
    try:
        gid = _import(server.base, _acquisitions_then_closing())
        page, problems = _amys_phone(browser, server.base, gid)
        page.wait_for_function("() => !!document.querySelector('#live')", timeout=5000)
        server.stop()
        server = Server(tmp_path / "b" / "empty.sqlite3", tmp_path / "b", port=server.port)
        words = page.locator("#connection .gone-text")
        expect(words).to_be_visible(timeout=8000)
        expect(words).to_contain_text("This game is not on the table's server")
        expect(page.locator("#turn")).to_be_hidden()
        assert problems == []
    finally:
        server.stop()
