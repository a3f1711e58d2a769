"""Long screens at 360 px (issue 37): the IPO form showed every symbol card's full ability text
(about 1,900 px).  With the abilities folded it fits two phone screens, light and dark, axe clean,
and the abilities are one tap away."""

from __future__ import annotations

import json
import urllib.request

from assistant.log import transcript

from .browser import NEEDS_CHROMIUM, PHONE
from .helper_positions import PLAYERS, _play

pytestmark = NEEDS_CHROMIUM


def _import(live, players, events) -> str:
    body = json.dumps(transcript.build(list(players), [], None, list(events), "long screens")).encode()
    req = urllib.request.Request(live + "/games/import", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.url.rsplit("/", 1)[1]


def test_the_ipo_form_fits_two_phone_screens_with_the_abilities_folded(browser, live):
    from .test_accessibility import _problems, axe_sync

    # the first IPO of a game: every symbol card still free (the 1,900 px form)
    game = _play(lambda g: (g.next or {}).get("for") == "ipo" and len(g.free_charters()) == 8, PLAYERS, range(50), 400)
    gid = _import(live, game.players, game.events)
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live}/games/{gid}/v/play")
    form = page.locator("#c-actions form.act:has(input[name='e.corporation'])")
    form.first.wait_for()
    height = form.first.bounding_box()["height"]
    whole = page.evaluate("document.documentElement.scrollHeight")
    print(f"\nIPO form at 360 px: {height:.0f} px (the page {whole} px)")
    # the whole page, with the seat chooser of a phone not seated yet, in two screens (1,784 px before)
    assert height <= 2 * PHONE["height"] and whole <= 2 * PHONE["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # each choice still a whole touch target, every price's cost and every card's name in sight
    small = page.evaluate("""() => [...document.querySelectorAll('label.radio, .who .seats button')]
        .map(e => e.getBoundingClientRect()).filter(r => r.height < 44 || r.width < 44).length""")
    assert small == 0
    prices = [i.get_attribute("value") for i in form.first.locator("input[name='e.price']").all()]
    for price in prices:
        label = form.first.locator("label.radio", has=page.locator(f"input[name='e.price'][value='{price}']"))
        assert label.is_visible() and "pays" in label.inner_text() and "treasury" in label.inner_text()
    assert prices
    assert form.first.locator("label.radio:has(input[name='e.corporation']):visible").count() == 8
    axe = axe_sync.Axe()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert _problems(page, axe) == [], scheme
    # Overseas Trading's ability in full (its charter) is folded: one tap shows it
    full = "pays only face value instead of the maximum price"
    assert not form.first.get_by_text(full).is_visible()
    form.first.locator("details.abilities summary").click()
    assert form.first.get_by_text(full).is_visible()


def test_the_bankruptcy_ahead_warning_on_a_phone_light_and_dark(browser, live):
    """Issue 37: in classic phase 7 the warning names Horse and the closing that saves it."""
    from .test_accessibility import _problems, axe_sync
    from .test_bankrupt_ahead_web import _table

    body = json.dumps(_table("rolling-stock")).encode()
    req = urllib.request.Request(live + "/games/import", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        gid = resp.url.rsplit("/", 1)[1]
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live}/games/{gid}/v/play")
    warning = page.locator("#c-actions .bankrupt-ahead")
    assert warning.is_visible() and "Horse will go bankrupt in phase 8 (collect income)" in warning.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    axe = axe_sync.Axe()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert _problems(page, axe) == [], scheme
