"""Decision helpers in a real browser at a phone viewport (Debian's chromium via Playwright).

Each test imports the first N table events of the conformance game 83092 (../shared) through
the app, opens the table on a 360×740 phone, opens the helper with ONE tap from the decision it
serves, and checks its figures against the engine (``assistant.rules.preview`` / ``explain`` on
the same events).  Screenshots of each helper go to tests/artifacts/helper-*.png.
"""

from __future__ import annotations

import json
import os
import re
import urllib.request
from functools import cache, lru_cache
from pathlib import Path

import pytest

from assistant.log import transcript
from assistant.rules.core.deck import cost_outlook
from assistant.rules.core.game import Game
from assistant.rules.core.phases.acquisition import preview_purchase
from assistant.rules.core.phases.closing import preview_closing
from assistant.rules.core.phases.dividends import dividend_chart, explain_price_after_dividend
from assistant.rules.core.phases.income import explain_income
from assistant.rules.core.phases.investment import share_trade
from assistant.rules.core.phases.ipo import ipo_calculator
from assistant.rules.core.records import banker_sheet
from assistant.rules.core.scores import explain_score, standings
from assistant.rules.registry import STARS
from assistant.rules.stars import rulebook
from tests.renaming import SAID_WITH_AN

from .browser import ARTIFACTS, CHROMIUM, PHONE

GAME = Path(__file__).resolve().parents[3] / "shared" / "conformance" / "games" / "83092.json"

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (scripts/test.sh)"),
    pytest.mark.skipif(not GAME.exists(), reason=f"the conformance game is not at {GAME} (../shared is absent)"),
]
expect = sync_api.expect if sync_api else None


# ---------------------------------------------------------------------- positions of game 83092
@lru_cache(maxsize=1)
def table_events() -> tuple[list, tuple]:
    data = json.loads(GAME.read_text(encoding="utf-8"))
    return data["players"], tuple(e for e in data["events"] if transcript.is_table_event(e))


def _kinds(g):
    return {m["type"] for m in g.legal_actions()}


POSITIONS = {
    "dividend": lambda g: (
        (g.next or {}).get("for") == "dividend" and g.dividend_max(g.corps[g.next["corporation"]]) >= 2
    ),
    "ipo": lambda g: (g.next or {}).get("for") == "ipo",
    "trade": lambda g: (g.next or {}).get("for") == "investment" and {"buy_share", "sell_share"} <= _kinds(g),
    "acquisition": lambda g: (
        (g.next or {}).get("for") == "acquisition"
        and any(m["type"] == "acquire" and m["min"] < m["max"] for m in g.legal_actions())
    ),
    "closing": lambda g: (g.next or {}).get("for") == "closing" and "close" in _kinds(g) and g.turn > 2,
}


@cache
def prefix(name: str) -> int:
    """How many table events of 83092 lead to the first position ``name``."""
    players, events = table_events()
    g = STARS.create(players)
    for i, ev in enumerate(events):
        if POSITIONS[name](g):
            return i
        g.apply(ev)
    raise LookupError(name)


def engine_game(n: int) -> Game:
    players, events = table_events()
    return STARS.replay(players, [], list(events[:n]))


def import_game(base: str, n: int) -> str:
    """POST /games/import with the first ``n`` events; returns the table page's URL."""
    players, events = table_events()
    body = json.dumps(transcript.build(players, [], None, list(events[:n]), "browser test")).encode()
    req = urllib.request.Request(base + "/games/import", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:  # follows the 303 to the table page
        return resp.url


# ---------------------------------------------------------------------- fixtures


@pytest.fixture
def phone(browser):
    """A phone page, and the console problems it collected (CSP violations show up there)."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    yield page, problems
    context.close()


def shot(page_or_locator, name: str) -> str:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"helper-{name}.png"
    page_or_locator.screenshot(path=str(path))
    return str(path)


def fits_the_phone(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"page is {width}px wide on a 360px phone"


def tap_helper(page, scope: str, label: str):
    """One tap on the helper link ``label`` inside ``scope``; returns the helper box it opened."""
    link = page.locator(f"{scope} a.helper-link", has_text=label).first
    slot = link.locator("xpath=../following-sibling::div[contains(@class,'helper-slot')][1]")
    link.click()
    box = slot.locator(".helper-box")
    expect(box).to_be_visible(timeout=5000)
    return box


def nav(page, view: str) -> None:
    """Tap a view in the navigation."""
    page.locator(f"nav.tabs a[data-tab={view}]").click()
    expect(page.locator("#region")).to_have_attribute("data-tab", view)


def numbers(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"-?\d+", text)]


# ---------------------------------------------------------------------- the helpers
def test_dividend_chart_one_tap_and_a_row_pays(live, phone):
    page, problems = phone
    n = prefix("dividend")
    game = engine_game(n)
    chart = dividend_chart(game)
    page.goto(import_game(live, n))
    group = page.locator("#c-actions .group", has_text="dividend of")
    box = tap_helper(page, "#c-actions", "Dividend chart")
    rows = box.locator("tbody.row")
    expect(rows).to_have_count(len(chart["rows"]))
    for i, r in enumerate(chart["rows"]):
        row = rows.nth(i)
        assert row.get_attribute("data-amount") == str(r["amount"])
        assert numbers(row.locator("td.cash").inner_text()) == [r["cash_left"]]
        assert numbers(row.locator("td.stars").inner_text()) == [r["stars"], r["required"]]
        assert numbers(row.locator("td.new-price").inner_text())[0] == r["new_price"]
    assert group.count() == 1
    fits_the_phone(page)
    path = shot(box, "dividend-chart")
    # "Why?" of a row's new price: the engine's explanation opens below it
    r = chart["rows"][-1]
    rows.last.locator("a.why").click()
    why = rows.last.locator(".why-box")
    expect(why).to_be_visible(timeout=5000)
    ex = explain_price_after_dividend(game, chart["corporation"], r["amount"])
    for line in ex["lines"]:
        expect(why).to_contain_text(line)
    shot(box, "dividend-why")
    # tapping the amount pays it: the app then shows the chart's new price
    rows.last.locator("button.pay").click()
    expect(page.locator("#c-banner")).not_to_contain_text(f"dividend of {chart['corporation']}", timeout=5000)
    state = json.loads(urllib.request.urlopen(page.url + "/state", timeout=5).read())
    assert state["corporations"][chart["corporation"]]["share_price"] == r["new_price"]
    assert state["corporations"][chart["corporation"]]["cash"] == r["cash_left"]
    assert problems == [], problems
    assert Path(path).exists()


def test_ipo_calculator_one_tap(live, phone):
    page, problems = phone
    n = prefix("ipo")
    calc = ipo_calculator(engine_game(n))
    page.goto(import_game(live, n))
    box = tap_helper(page, "#c-actions", "IPO calculator")
    by_price = {}
    for r in calc["rows"]:
        by_price.setdefault(r["price"], r)
    rows = box.locator("tbody.row")
    expect(rows).to_have_count(len(by_price))
    for i, price in enumerate(sorted(by_price)):
        r = by_price[price]
        row = rows.nth(i)
        assert row.get_attribute("data-price") == str(price)
        assert numbers(row.locator("td.payment").inner_text())[0] == r["payment"]
        assert numbers(row.locator("td.treasury").inner_text()) == [r["treasury"]]
        assert numbers(row.locator("td.shares").inner_text()) == [r["owner_shares"], r["bank_shares"]]
        assert numbers(row.locator("td.value").inner_text()) == [r["value_after"]]
        assert ("cannot afford" in row.inner_text()) == (not r["affordable"])
    shot(box, "ipo-calculator")
    fits_the_phone(page)
    assert problems == [], problems


def test_share_trade_preview_one_tap(live, phone):
    page, problems = phone
    n = prefix("trade")
    game = engine_game(n)
    page.goto(import_game(live, n))
    for kind, label in (("buy_share", "buy"), ("sell_share", "sell")):
        item = next(m for m in game.legal_actions() if m["type"] == kind)
        t = share_trade(game, item["player"], item["corporation"], kind == "buy_share")
        said = "an" if item["corporation"] in SAID_WITH_AN else "a"  # "Sell an Overseas Trading share"
        form = page.locator(
            "#c-actions form.act", has_text=f"{'Buy' if label == 'buy' else 'Sell'} {said} {item['corporation']} share"
        )
        link = form.locator("xpath=following-sibling::p[1]").locator("a.helper-link", has_text="What happens?")
        link.click()
        box = form.locator("xpath=following-sibling::div[contains(@class,'helper-slot')][1]").locator(".helper-box")
        expect(box).to_be_visible(timeout=5000)
        assert numbers(box.locator(".price").inner_text()) == [t["price"]] == [item["price"]]
        expect(box.locator(".president")).to_be_visible()
        if t["presidency_changes"] and not t["receivership"]:
            expect(box.locator(".president")).to_contain_text(t["president_after"])
        fits_the_phone(page)
        shot(box, f"trade-{label}")
    assert problems == [], problems


def test_acquisition_what_if_one_tap_and_its_form(live, phone):
    page, problems = phone
    n = prefix("acquisition")
    game = engine_game(n)
    item = next(m for m in game.legal_actions() if m["type"] == "acquire" and m["min"] < m["max"])
    page.goto(import_game(live, n))
    # phase 3: tap the corporation, then the company; its what-if is one tap away
    pick = page.locator("#c-actions a.pick", has_text=item["corporation"])
    if "primary" not in (pick.get_attribute("class") or ""):
        pick.click()
        expect(pick).to_have_class(re.compile("primary"))
    offer = page.locator("#c-actions details.offer").filter(
        has=page.locator(f'input[name="e.company"][value="{item["company"]}"]')
    )
    offer.locator("summary").click()
    typed = item["min"] + 1  # the price typed in the offer's own field goes with "What if?" (issue 37)
    offer.locator('input[name="e.price"]').fill(str(typed))
    offer.locator("a.helper-link", has_text="What if?").click()
    box = page.locator("#c-actions .helper-box.acquisition")
    expect(box).to_be_visible(timeout=5000)

    def check(price):
        out = preview_purchase(game, item["corporation"], item["company"], price)
        eff = out["effects"][item["corporation"]]
        expect(box.locator("p.figure")).to_have_text(
            f"{item['corporation']} buys {item['company']} for {price}.", timeout=5000
        )  # this what-if is shown
        table = box.locator(f'table[data-corporation="{item["corporation"]}"]')
        expect(table).to_be_visible(timeout=5000)
        assert numbers(table.locator("tr.income td").nth(1).inner_text())[0] == eff["after"]["income"]
        assert numbers(table.locator("tr.stars td").nth(1).inner_text()) == [
            eff["after"]["stars"],
            eff["after"]["required"],
        ]
        assert numbers(table.locator("tr.zero td").nth(1).inner_text())[-1] == eff["after"]["zero_dividend_price"]
        assert numbers(table.locator("tr.cash td").nth(1).inner_text()) == [
            game.corps[item["corporation"]].cash - price
        ]

    check(typed)
    fits_the_phone(page)
    shot(box, "acquisition-what-if")
    # change the price in the what-if form (a GET): the box is replaced by the new what-if
    box.locator('input[name="price"]').fill(str(item["max"]))
    box.get_by_role("button", name="Show what-if").click()
    check(item["max"])
    # outside the span: a refusal with a link to its rule
    box.locator('input[name="price"]').fill(str(item["max"] + 1))
    box.get_by_role("button", name="Show what-if").click()
    expect(box.locator(".refusal")).to_be_visible(timeout=5000)
    expect(box.locator(".refusal a.rule-link")).to_be_visible()
    assert problems == [], problems


def test_closing_what_if_one_tap(live, phone):
    page, problems = phone
    n = prefix("closing")
    game = engine_game(n)
    item = next(m for m in game.legal_actions() if m["type"] == "close")
    out = preview_closing(game, item["company"])
    page.goto(import_game(live, n))
    close = page.locator("#c-actions details.confirm-close").filter(
        has=page.locator(f'input[name="e.company"][value="{item["company"]}"]')
    )
    close.locator("xpath=following-sibling::p[1]").locator("a.helper-link", has_text="What if?").click()
    box = page.locator("#c-actions .helper-box.closing").first
    expect(box).to_be_visible(timeout=5000)
    assert numbers(box.locator("tr.income td").nth(0).inner_text()) == [out["before"]["income"]]
    assert numbers(box.locator("tr.income td").nth(1).inner_text())[0] == out["after"]["income"]
    fits_the_phone(page)
    shot(box, "closing-what-if")
    overview = tap_helper(page, "#c-actions", "Who must close?")
    expect(overview).to_contain_text("Who must close?")
    shot(overview, "closing-who-must-close")
    assert problems == [], problems


def test_standings_banker_outlook_and_why_from_the_components(live, phone):
    page, problems = phone
    n = prefix("dividend") + 1  # just after a dividend: its payments are on the banker's sheet
    game = engine_game(n)
    page.goto(import_game(live, n))
    # standings now (players view)
    nav(page, "players")
    box = tap_helper(page, "#c-players", "Standings now")
    rows = box.locator("tr[data-player]")
    want = standings(game)
    expect(rows).to_have_count(len(want))
    for i, r in enumerate(want):
        assert rows.nth(i).get_attribute("data-player") == r["player"]
        assert numbers(rows.nth(i).locator("td.total").inner_text()) == [r["total"]]
    fits_the_phone(page)
    shot(box, "standings")
    # banker's sheet: the latest entries in the log, and its own panel
    nav(page, "log")
    history = page.locator("#c-history")
    for line in banker_sheet(game.journal[-1]):
        expect(history.locator("ul.banker").first).to_contain_text(line)
    box = tap_helper(page, "#c-history", "Banker's sheet")
    for line in banker_sheet(game.journal[-1]):
        expect(box).to_contain_text(line)
    shot(box, "bankers-sheet")
    # cost of ownership outlook (deck, on the Table view)
    nav(page, "table")
    box = tap_helper(page, "#c-deck", "Cost of ownership outlook")
    out = cost_outlook(game)
    if out["draws"] is not None:
        assert numbers(box.locator(".draws").inner_text()) == [out["draws"]]
    shot(box, "cost-outlook")
    # Why? next to a player's income and value
    player = game.order[0]
    nav(page, "players")
    article = page.locator("#c-players article", has_text=player).first
    for kind, ex in (("income", explain_income(game, player)), ("score", explain_score(game, player))):
        article.locator(f'a.why[href*="/why/{kind}"]').click()
        why = article.locator(".why-box")
        expect(why).to_be_visible(timeout=5000)
        expect(why).to_contain_text(str(ex["total"]))
        for line in ex["lines"]:
            expect(why).to_contain_text(line)
        shot(article, f"why-{kind}")
        why.get_by_role("link", name="Hide").click()
        expect(article.locator(".why-box")).to_have_count(0, timeout=5000)
    fits_the_phone(page)
    assert problems == [], problems


def test_a_refusal_links_to_its_rule_on_the_rules_page(live, phone):
    page, problems = phone
    n = prefix("trade")
    game = engine_game(n)
    page.goto(import_game(live, n))
    bid = next(m for m in game.legal_actions() if m["type"] == "bid")
    form = (
        page.locator("#c-actions form.act")
        .filter(has=page.locator(f'input[name="e.company"][value="{bid["company"]}"]'))
        .first
    )
    number = form.locator('input[name="e.price"]')
    number.evaluate("(el, v) => { el.removeAttribute('max'); el.value = v; }", str(bid["max"] + 1))
    form.locator("button[type=submit]").first.click()
    refusal = page.locator("#c-actions .refusal")
    expect(refusal).to_be_visible(timeout=5000)
    link = refusal.locator("a.rule-link")
    anchor = link.get_attribute("href").split("#", 1)[1]
    title = rulebook.section(anchor)["title"]
    expect(link).to_contain_text(title)
    shot(page.locator("#c-actions"), "refusal-rule-link")
    link.click()
    page.wait_for_url(re.compile(r"/rules\?game=.*#" + re.escape(anchor)))
    section = page.locator(f"section.rule#{anchor}")
    expect(section).to_be_in_viewport()
    assert page.evaluate("document.querySelector(':target').id") == anchor
    expect(page.get_by_role("link", name="Back to the table")).to_be_visible()
    fits_the_phone(page)
    shot(page, "rules-page")
    assert [p for p in problems if "422" not in p] == [], problems


def test_helpers_without_javascript_are_pages(live, browser):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    n = prefix("dividend")
    chart = dividend_chart(engine_game(n))
    url = import_game(live, n)
    page.goto(url)
    page.locator("#c-actions a.helper-link", has_text="Dividend chart").click()
    page.wait_for_url(re.compile(r"/help/dividend$"))
    expect(page.locator("tbody.row")).to_have_count(len(chart["rows"]))
    shot(page, "dividend-chart-nojs")
    page.locator("tbody.row").first.locator("button.pay").click()  # a plain POST, then back to the table
    page.wait_for_url(url)
    expect(page.locator("#c-last")).to_contain_text(f"{chart['corporation']}")
    context.close()
