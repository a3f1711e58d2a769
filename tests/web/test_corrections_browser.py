"""Correcting a dividend three turns back on a 360 px phone (issue 16): from the Log, the entry's
choices, the preview of what changes, then the correction; axe-clean light and dark."""

from __future__ import annotations

import json
import urllib.request

from assistant.log import transcript
from tests.project_games import one_per_row

from .browser import NEEDS_CHROMIUM, PHONE
from .test_corrections import PLAYERS, dividend_game

pytestmark = NEEDS_CHROMIUM


def _post(url, body) -> str:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.url


def _events(live, gid) -> list[dict]:
    """The game's entries, one per log row (the export also writes the done of a phase that ended
    by itself, which is no entry)."""
    with urllib.request.urlopen(f"{live}/games/{gid}/export", timeout=10) as resp:
        return one_per_row(json.loads(resp.read()))


def test_a_dividend_three_turns_back_is_corrected_on_a_phone(browser, live):
    from .test_accessibility import _problems, axe_sync

    events, index, amount = dividend_game()
    gid = _post(live + "/games/import", transcript.build(PLAYERS, [], None, events, "browser")).rsplit("/", 1)[1]
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live}/games/{gid}/v/log")
    page.click(f"a[href='/games/{gid}/correct/{index}']")
    # it opens on the dividend as logged, the other choices folded: two screens at most (issue 37)
    height = page.evaluate("document.documentElement.scrollHeight")
    print(f"\ncorrection page at 360 px: {height} px")
    assert height <= 2 * PHONE["height"]
    assert (
        page.locator("form.act.as-logged input[name='e.corporation']").get_attribute("value")
        == events[index]["corporation"]
    )
    axe = axe_sync.Axe()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert _problems(page, axe) == [], scheme
    page.click("details.other-choices summary")
    quick = page.locator(f"form.act:has(input[type=hidden][name='e.amount'][value='{amount}']) button")
    if quick.count():  # the amount as a button of its own
        quick.first.click()
    else:
        form = page.locator("form.act:has(input[type=number][name='e.amount'])")
        form.locator("input[name='e.amount']").fill(str(amount))
        form.locator("button[type=submit]").first.click()
    page.wait_for_selector("text=Yes, correct it")
    assert "later entr" in page.inner_text("section.correct") and "What to move on the table" in page.inner_text(
        "section.correct"
    )
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert _problems(page, axe) == [], scheme
    page.click("text=Yes, correct it")
    page.wait_for_url("**/v/log")
    after = _events(live, gid)
    assert after[index] == dict(events[index], amount=amount)
    assert after[:index] == events[:index]
    for scheme in ("light", "dark"):  # the Log with its Correct… links
        page.emulate_media(color_scheme=scheme)
        assert _problems(page, axe) == [], scheme


def _state(live, gid) -> dict:
    with urllib.request.urlopen(f"{live}/games/{gid}/state", timeout=10) as resp:
        body = json.loads(resp.read())
    body.pop("seq")
    return body


def expect(locator):
    from playwright.sync_api import expect as _expect

    return _expect(locator)


def _undo(page, names: str) -> None:
    """Undo from the Log, checking that the prompt names what it takes back."""
    page.get_by_text("Undo the last event…").click()
    confirm = page.locator("#c-undo form.confirm")
    expect(confirm).to_contain_text(names)
    confirm.get_by_role("button", name="Yes, undo it").click()


def test_a_correction_a_going_back_and_an_undo_of_each_on_a_phone(browser, live):
    """Issue 27 at 360 px: a correction (the Log shows it as its own row), its undo (the prompt names
    it), then "Go back to here…" in the full history (the confirmation names what changes) and its undo."""
    from .test_accessibility import _problems, axe_sync

    events, index, amount = dividend_game()
    gid = _post(live + "/games/import", transcript.build(PLAYERS, [], None, events, "browser")).rsplit("/", 1)[1]
    start = _state(live, gid)
    page = browser.new_context(viewport=PHONE).new_page()
    corp = events[index]["corporation"]
    page.goto(f"{live}/games/{gid}/correct/{index}/preview?e.type=dividend&e.corporation={corp}&e.amount={amount}")
    page.click("text=Yes, correct it")
    page.wait_for_url("**/v/log")
    expect(page.locator(".correction-row")).to_contain_text(f"Corrected entry {index + 1}")
    expect(page.locator(".correction-row")).to_contain_text("The banker moves")
    _undo(page, f"the correction of entry {index + 1}")
    expect(page.locator(".correction-row")).to_have_count(0)
    assert _state(live, gid) == start
    page.goto(f"{live}/games/{gid}/v/log?history=everything")
    page.click(f"a[href='/games/{gid}/back/10']")
    section = page.locator("section.correct")
    expect(section).to_contain_text("Go back to the game as it was after row 10?")
    expect(section).to_contain_text("What to move on the table")
    axe = axe_sync.Axe()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert _problems(page, axe) == [], scheme
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scroll
    page.click("text=Yes, go back")
    page.wait_for_url("**/v/log")
    assert _events(live, gid) == events[:10]
    _undo(page, "going back to row 10")
    page.wait_for_timeout(300)
    assert _state(live, gid) == start and _events(live, gid) == events
