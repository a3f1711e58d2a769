"""Start from the table as it lies on a 360 px phone (issue 16): a whole four-player mid-game
position entered by taps (counted), then a turn played on the phone."""

from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import Error as PlaywrightError

from assistant.rules import registry
from tests.rules.test_positions import _play

from .browser import NEEDS_CHROMIUM, PHONE
from .test_score_check_browser import Taps

pytestmark = NEEDS_CHROMIUM


def _position():
    _, ends, _ = _play(registry.STARS, [], 5)
    turn = max(t for t in ends if ends[t]["state"]["corporations"] and ends[t]["deck"]["blue"])
    return ends[turn]


def _state(live, gid) -> dict:
    with urllib.request.urlopen(f"{live}/games/{gid}/state", timeout=10) as resp:
        return json.loads(resp.read())


def test_a_four_player_mid_game_position_is_entered_by_taps_and_a_turn_played(browser, live):
    pos = _position()
    state = pos["state"]
    page = browser.new_context(viewport=PHONE).new_page()
    taps = Taps(page)
    page.goto(live + "/")
    taps.click("text=Start from the table as it lies")
    for n, name in enumerate(state["player_order"]):
        taps.type(f"ol.names li:nth-child({n + 1}) input", name)
    taps.click("button:has-text('Next')")
    taps.type("input[name='turn']", str(pos["after"]["turn"]))
    for corp, c in state["corporations"].items():
        taps.click(f"details.corp-entry:has(select[name='price-{corp}']) > summary")
        taps.choose(f"select[name='price-{corp}']", str(c["share_price"]))
        taps.type(f"input[name='treasury-{corp}']", str(c["cash"]))
        if c["bank_shares"]:
            taps.type(f"input[name='bank-{corp}']", str(c["bank_shares"]))
        taps.click(f"details.corp-entry:has(select[name='price-{corp}']) details > summary")
        for abbr in c["companies"]:
            taps.click(f"input[name='co-corp-{corp}'][value='{abbr}']")
    for i, name in enumerate(state["player_order"]):
        p = state["players"][name]
        taps.type(f"input[name='cash-{i}']", str(p["cash"]))
        if p["companies"]:
            taps.click(f"details:has(input[name='co-{i}']) > summary")
            for abbr in p["companies"]:
                taps.click(f"input[name='co-{i}'][value='{abbr}']")
        if p["shares"]:
            taps.click(f"details:has(input[name^='sh-{i}-']) > summary")
            for corp, n in p["shares"].items():
                taps.type(f"input[name='sh-{i}-{corp}']", str(n))
    taps.type("input[name='fi-cash']", str(state["foreign_investor"]["cash"]))
    for field, abbrs in (
        ("co-fi", state["foreign_investor"]["companies"]),
        ("co-offer", state["offering"]["available"]),
        ("co-unavailable", state["offering"]["unavailable"]),
        ("co-out", pos["out_of_game"]),
    ):
        if abbrs:
            taps.click(f"details:has(input[name='{field}']) > summary")
            for abbr in abbrs:
                taps.click(f"input[name='{field}'][value='{abbr}']")
    taps.click("button:has-text('Start from here')")
    page.wait_for_url("**/games/*")
    gid = page.url.rstrip("/").rsplit("/", 1)[1]
    print(f"\nresuming a 4-player position at the end of turn {pos['after']['turn']}: {taps.count} taps")
    shown = _state(live, gid)
    assert shown["turn"] == pos["after"]["turn"] + 1
    assert {p: v["cash"] for p, v in shown["players"].items()} == {p: v["cash"] for p, v in state["players"].items()}
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # play on: tap the table's decisions on the phone until the turn is over
    turn = shown["turn"]
    for _ in range(120):
        if _state(live, gid)["turn"] > turn:
            break
        try:  # the view is refreshed after each entry: a button may be replaced under the click
            page.locator("#c-actions form.act button[type=submit]:visible").first.click(timeout=5000)
        except PlaywrightError:
            pass
        page.wait_for_timeout(800)  # new buttons ignore taps for a moment (nothing moves under a finger)
    assert _state(live, gid)["turn"] > turn, "a whole turn was played on the phone"


def test_the_resume_pages_pass_axe_at_360_px_light_and_dark(browser, live):
    from .test_accessibility import _problems, axe_sync

    page = browser.new_context(viewport=PHONE).new_page()
    axe = axe_sync.Axe()
    for path in ("/resume", "/resume/table?game=rolling-stock-stars&name=Amy&name=Brian&name=Crystal&name=Dirk"):
        page.goto(live + path)
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert _problems(page, axe) == [], (path, scheme)
