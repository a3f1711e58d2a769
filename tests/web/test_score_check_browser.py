"""The score check on a 360 px phone (issue 16): a four-player end position entered by taps, the
taps counted; the result readable, light and dark, with no axe violation."""

from __future__ import annotations

from .browser import NEEDS_CHROMIUM, PHONE
from .test_accessibility import _problems, axe_sync

pytestmark = NEEDS_CHROMIUM

# The end of a four-player game of Rolling Stock Stars as it lies on the table
PLAYERS = ["Amy", "Brian", "Crystal", "Dirk"]
PRICES = {"Doppler AG": "33", "Stock Masters": "75", "Overseas Trading": "24"}
MONEY = {"Amy": "48", "Brian": "112", "Crystal": "7", "Dirk": "63"}
COMPANIES = {"Amy": ["FRA"], "Crystal": ["HH", "LHR"], "Dirk": ["BR"]}
SHARES = {
    "Amy": {"Doppler AG": "3", "Stock Masters": "1"},
    "Brian": {"Stock Masters": "3"},
    "Crystal": {"Overseas Trading": "4"},
    "Dirk": {"Doppler AG": "1", "Overseas Trading": "2"},
}


class Taps:
    """Every tap the player makes: a button, a field to type in, a box to tick, a list to open."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def click(self, selector):
        self.count += 1
        self.page.click(selector)

    def type(self, selector, text):
        self.count += 1  # the tap into the field; typing is on the keyboard
        self.page.fill(selector, text)

    def choose(self, selector, value):
        self.count += 2  # open the list, tap the value
        self.page.select_option(selector, value)


def test_a_four_player_end_position_is_scored_on_a_phone_in_few_taps(browser, live):
    page = browser.new_context(viewport=PHONE).new_page()
    taps = Taps(page)
    page.goto(live + "/")
    taps.click("text=Check final scores")
    for n, name in enumerate(PLAYERS):
        taps.type(f"ol.names li:nth-child({n + 1}) input", name)
    taps.click("button:has-text('Next')")
    for corp, price in PRICES.items():
        taps.choose(f"select[name='price-{corp}']", price)
    for i, name in enumerate(PLAYERS):
        block = f"fieldset.player-end:nth-of-type({i + 2})"
        taps.type(f"input[name='cash-{i}']", MONEY[name])
        if name in COMPANIES:
            taps.click(f"{block} details:nth-of-type(1) summary")
            for abbr in COMPANIES[name]:
                taps.click(f"input[name='co-{i}'][value='{abbr}']")
        taps.click(f"{block} details:nth-of-type(2) summary")
        for corp, n in SHARES[name].items():
            taps.type(f"input[name='sh-{i}-{corp}']", n)
    taps.click("button:has-text('Score it')")
    page.wait_for_selector("ol.ranking")
    ranking = page.locator("ol.ranking li").all_inner_texts()
    # Brian 112 + 3 x 75; Amy 48 + 56 + 3 x 33 + 75; Crystal 7 + 45 + 58 + 4 x 24; Dirk 63 + 34 + 33 + 2 x 24
    assert ranking == ["Brian 337", "Amy 278", "Crystal 206", "Dirk 178"]
    print(f"\nscore check of a 4-player end position: {taps.count} taps")
    assert taps.count <= 60
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    axe = axe_sync.Axe()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert _problems(page, axe) == [], scheme
    page.goto(live + "/scores")
    assert _problems(page, axe) == []


def test_a_two_handed_check_on_a_phone_names_the_winner_light_and_dark(browser, live):
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(live + "/scores")
    page.check("input[name='option'][value='two_handed']")
    page.fill("ol.names li:nth-child(1) input", "Amy")
    page.fill("ol.names li:nth-child(2) input", "Brian")
    page.click("button:has-text('Next')")
    assert page.locator("select[name='order']").count() == 4
    for i, cash in enumerate(["200", "60", "55", "50"]):  # the rulebook's example: Brian wins
        page.fill(f"input[name='cash-{i}']", cash)
    page.click("button:has-text('Score it')")
    page.wait_for_selector("ol.ranking")
    assert page.locator(".winner").inner_text().startswith("Brian wins the two-handed game")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    axe = axe_sync.Axe()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert _problems(page, axe) == [], scheme
