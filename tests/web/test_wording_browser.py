"""The new-game form on a 360 px phone (issue 37): "Companies in the open deck" showed with the
open companies variant off.  It shows only once the variant is ticked."""

from __future__ import annotations

from .browser import NEEDS_CHROMIUM, PHONE

pytestmark = NEEDS_CHROMIUM


def test_the_open_decks_companies_show_only_with_that_variant_ticked(browser, live):
    from .test_accessibility import _problems, axe_sync

    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(live + "/games/new")
    deck = page.get_by_text("Companies in the open deck").first
    assert not deck.is_visible()
    page.locator("input[name=option][value=open_companies]").first.check()
    assert deck.is_visible()
    axe = axe_sync.Axe()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert _problems(page, axe) == [], scheme
    page.locator("input[name=option][value=open_companies]").first.uncheck()
    assert not deck.is_visible()
