"""Classic explanations and decision helpers agree with what the engine then does.

Seeded classic games are played from the menu; at every dividend, IPO, acquisition and closing
decision the helpers are asked, and their figures are checked against the engine's own state
after the event and against the Guide's book value rule worked out here.
"""

from __future__ import annotations

import random

import pytest

from assistant.rules import events_of
from assistant.rules.classic.cards import CARDS as cards
from assistant.rules.core.deck import cost_outlook
from assistant.rules.core.market import price_row
from assistant.rules.core.phases.acquisition import preview_purchase
from assistant.rules.core.phases.dividends import dividend_chart, explain_dividend_limit, explain_price_after_dividend
from assistant.rules.core.phases.income import explain_income
from assistant.rules.core.phases.ipo import ipo_calculator
from assistant.rules.core.pricing import explain_rating
from assistant.rules.core.scores import explain_score
from assistant.rules.registry import CLASSIC

ROW = cards.prices


def by_hand(price: int, issued: int, book: int) -> int:
    """Guide 1.5.9, the card's table: the target card before skipping cards in use."""
    i = ROW.index(price)
    for limit, steps in ((issued * ROW[i - 1], -2), (issued * price, -1), (issued * ROW[i + 1], 1)):
        if book < limit:
            return ROW[max(0, min(len(ROW) - 1, i + steps))]
    return ROW[min(len(ROW) - 1, i + 2)]


def book(g, name, cash):
    return cash + sum(cards.companies[a].face_value for a in g.corps[name].companies)


def check_dividend_helpers(g, stats):
    chart = dividend_chart(g)
    name = chart["corporation"]
    corp = g.corps[name]
    assert [r["amount"] for r in chart["rows"]] == list(range(g.dividend_max(corp) + 1))
    for row in chart["rows"]:
        assert "stars" not in row
        assert row["book_value"] == book(g, name, row["cash_left"])
        assert row["target"] == by_hand(corp.price, corp.issued, row["book_value"])
        after = g.preview({"type": "dividend", "corporation": name, "amount": row["amount"]})
        assert row["new_price"] == (after.corps[name].price if name in after.corps else 0)
        why = explain_price_after_dividend(g, name, row["amount"])
        assert why["total"] == row["new_price"] and why["target"] == row["target"]
        assert any("Book value" in line for line in why["lines"])
        stats["dividend rows"] += 1
    bv = explain_rating(g, name)
    assert bv["total"] == g.snapshot()["corporations"][name]["book_value"]
    assert explain_dividend_limit(g, name)["total"] == g.dividend_max(corp)


def check_ipo_helpers(g, stats):
    calc = ipo_calculator(g)
    face = cards.companies[calc["company"]].face_value
    for row in calc["rows"]:
        n = row["owner_shares"]
        assert n * row["price"] >= face and (n == 1 or (n - 1) * row["price"] < face)
        assert row["payment"] == n * row["price"] - face
        assert row["treasury"] == row["payment"] + n * row["price"]
        assert row["book_value"] == row["treasury"] + face
        stats["ipo rows"] += 1


def check_acquisition_helpers(g, menu, stats):
    # an announced purchase from the foreign investor is previewed as the purchase it makes
    purchases = [{**i, "type": "acquire"} for i in menu if i["type"] in ("acquire", "announce")]
    for item in purchases[:3]:
        out = preview_purchase(g, item["corporation"], item["company"], item["min"])
        assert out["legal"], out
        after = g.preview(events_of(item, lambda *a: a[0] if len(a) == 2 else a[0][0]))
        for name, eff in out["effects"].items():
            assert eff["after"]["income"] == after.corp_income(name).total
            assert eff["after"]["book_value"] == after.snapshot()["corporations"][name]["book_value"]
        stats["acquisition previews"] += 1


@pytest.mark.parametrize("seed, n", [(11, 3), (12, 4), (13, 5), (14, 2), (15, 6)])
def test_helpers_agree_with_the_engine(seed, n):
    rng = random.Random(seed)
    g = CLASSIC.create([f"P{i}" for i in range(1, n + 1)], ["short"] if seed % 2 else [])
    stats = {"dividend rows": 0, "ipo rows": 0, "acquisition previews": 0}
    while not g.game_over and len(g.events) < 1500:
        menu = g.legal_actions()
        nxt = g.next or {}
        if nxt.get("for") == "dividend":
            check_dividend_helpers(g, stats)
        elif nxt.get("for") == "ipo":
            check_ipo_helpers(g, stats)
        elif nxt.get("for") == "acquisition":
            check_acquisition_helpers(g, menu, stats)
        for name in g.corps:
            assert explain_income(g, name)["total"] == g.corp_income(name).total
        for p in g.players:
            assert explain_score(g, p)["total"] == g.scores()[p]
        item = rng.choice(menu)
        g.apply(events_of(item, lambda *a: rng.randint(*a) if len(a) == 2 else rng.choice(a[0])))
    assert all(v > 0 for v in stats.values()), stats
    assert sum(r["holders"] != [] for r in price_row(g)) == len({c.price for c in g.corps.values()})
    outlook = cost_outlook(g)
    assert outlook["now"] == g.costs()


def test_stars_are_explained_as_book_value_in_classic():
    for seed in range(20):
        g, rng = CLASSIC.create(["A", "B", "C"]), random.Random(seed)
        while not g.corps and not g.game_over:
            item = rng.choice(g.legal_actions())
            g.apply(events_of(item, lambda *a, r=rng: r.randint(*a) if len(a) == 2 else r.choice(a[0])))
        if g.corps:
            break
    name = next(iter(g.corps))
    assert explain_rating(g, name) == explain_rating(g, name)
    assert explain_rating(g, name)["total"] == g.snapshot()["corporations"][name]["book_value"]


def test_a_book_value_equal_to_the_market_value_is_said_to_be_equal():
    """Guide 1.6.2, example 1: the BD (face value 12) goes public at 12: two shares issued, 12 in
    the treasury.  Book value 12 + 12 = 24, market value 2 × 12 = 24: equal (it said "above")."""
    from assistant.rules.core.entities import Corporation

    g = CLASSIC.create(["Amy", "Brian", "Crystal"], ["short"])
    corp = Corporation("Bear", 12, g.charters["Bear"].shares)
    corp.cash, corp.companies, corp.issued, corp.bank_shares, corp.president = 12, ["BD"], 2, 1, "Amy"
    g.corps["Bear"] = corp
    g.players["Amy"].shares["Bear"] = 1
    g.owner["BD"] = corp
    why = explain_rating(g, "Bear")
    assert why["total"] == 24
    assert "Market value: 2 shares × $12 = $24; the book value is equal to it." in why["lines"]
    corp.cash = 13
    assert "Market value: 2 shares × $12 = $24; the book value is above it." in explain_rating(g, "Bear")["lines"]
