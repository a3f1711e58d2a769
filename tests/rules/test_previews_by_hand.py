"""Decision helpers against figures worked out by hand from the cards and the rules.

``test_previews.py`` checks every preview against the game after really entering the event;
both go through the engine, so a rule the engine gets wrong would be wrong in both.  Here the
expected figures are written out by hand for small positions, from the canonical rules:

* share price moves: "one step ... to the next free share price card" (cards in use are skipped);
* adjust share price: stars (printed per colour: red 1, orange 2, ...; one per full 10 in the
  treasury; Stars, Inc. +2) against the stars printed on the share price card for the issued
  shares: 2 or more above, two steps up; 1 above, one step; equal, no move; below, down;
* Form Corporation: the player gets the President's Share, the bank the 2nd share; if the face
  value is greater than the share price, one more each; the player pays the difference between
  the shares' price and the face value, the bank pays its shares' price;
* income: printed income minus cost of ownership (green on top: red 2; blue: red and orange 4),
  plus synergies in corporations; Junkyard Scrappers receive twice the printed income of a
  company they close.
"""

from __future__ import annotations

from assistant.rules.core.deck import cost_outlook
from assistant.rules.core.phases.acquisition import preview_purchase
from assistant.rules.core.phases.closing import must_close, preview_closing
from assistant.rules.core.phases.dividends import dividend_chart
from assistant.rules.core.phases.investment import share_trade
from assistant.rules.core.phases.ipo import ipo_calculator
from assistant.rules.core.scores import standings

from .builders import FI, corporation, drawn_until, enter_phase, place, table

PLAYERS = ["Amy", "Brian", "Crystal"]
SYNERGISTIC, JUNKYARD, VINTAGE, DOPPLER = "Synergistic", "Junkyard Scrappers", "Vintage Machinery", "Doppler AG"


def test_dividend_chart_of_the_rulebook_synergistic():
    # rulebook: Synergistic at 22 with 3 issued shares (Amy 2, bank 1), 21 in the treasury; its
    # companies' stars: DSB (yellow) 3 + MS (orange) 2 + BPM 1 + BSE 1 (red) = 7
    g = table(PLAYERS, turn=3)
    corporation(g, SYNERGISTIC, price=22, companies=["DSB", "MS", "BPM", "BSE"], cash=21, shares={"Amy": 2}, bank=1)
    drawn_until(g, "yellow")
    enter_phase(g, 6)
    chart = dividend_chart(g)
    # the 22 card allows 7 per share; 21 cash for 3 shares allows 7 too
    assert [r["amount"] for r in chart["rows"]] == list(range(8))
    # amount a: 21 - 3a left; 7 stars of companies + one per full 10; 7 required (3 shares at 22)
    cash_left = [21, 18, 15, 12, 9, 6, 3, 0]
    stars = [9, 8, 8, 8, 7, 7, 7, 7]
    # +2 -> two steps (22 -> 24 -> 27), +1 -> one step (24), 0 -> stays at 22
    new_price = [27, 24, 24, 24, 22, 22, 22, 22]
    effect = ["raise"] * 4 + ["keep"] * 4
    for a, row in enumerate(chart["rows"]):
        assert row["cash_left"] == cash_left[a]
        assert (row["stars"], row["required"]) == (stars[a], 7)
        assert row["new_price"] == new_price[a] and row["effect"] == effect[a]
        assert row["payouts"] == {"Amy": 2 * a, "Bank": a}


def test_dividend_chart_leapfrogs_a_card_in_use():
    # as above, with Doppler AG holding the 27 card: two steps up from 22 land on 27, in use -> 30.
    # Doppler keeps its card: WT 2 stars + 3 for 30 cash = 5, as required for 2 shares at 27
    g = table(PLAYERS, turn=3)
    corporation(g, SYNERGISTIC, price=22, companies=["DSB", "MS", "BPM", "BSE"], cash=21, shares={"Amy": 2}, bank=1)
    corporation(g, DOPPLER, price=27, companies=["WT"], cash=30, shares={"Brian": 1}, bank=1)
    drawn_until(g, "yellow")
    enter_phase(g, 6)
    chart = dividend_chart(g)
    assert chart["corporation"] == DOPPLER  # higher share price first
    g.apply({"type": "dividend", "corporation": DOPPLER, "amount": 0})
    assert g.corps[DOPPLER].price == 27
    chart = dividend_chart(g)
    assert chart["corporation"] == SYNERGISTIC
    first = chart["rows"][0]
    assert (first["target"], first["new_price"], first["skipped"]) == (27, 30, [27])


def test_dividend_chart_of_a_corporation_that_drops_whatever_it_pays():
    # Overseas Trading at 20 with 4 issued shares (Amy 2, the bank 2), the DSB (3 stars), 40 cash:
    # the 20 card allows 6 per share, 40 cash for 4 shares 10.  The card requires 8 stars for 4
    # shares; 40 left: 3 + 4 = 7, one fewer: one down to 18; 36 to 16 left: 3 + 3 or less, two
    # or more fewer: two down to 16 (no card in use)
    g = table(PLAYERS, turn=3)
    corporation(g, "Overseas Trading", price=20, companies=["DSB"], cash=40, shares={"Amy": 2}, bank=2)
    drawn_until(g, "yellow")
    enter_phase(g, 6)
    chart = dividend_chart(g)
    assert {k: v for k, v in chart.items() if k != "rows"} == {
        "corporation": "Overseas Trading",
        "price": 20,
        "issued": 4,
        "cash": 40,
    }
    assert [(r["amount"], r["cash_left"], r["stars"], r["required"]) for r in chart["rows"]] == [
        (a, 40 - 4 * a, 3 + (40 - 4 * a) // 10, 8) for a in range(7)
    ]
    assert [(r["target"], r["new_price"], r["skipped"], r["effect"]) for r in chart["rows"]] == [
        (18, 18, [], "drop")
    ] + [(16, 16, [], "drop")] * 6
    assert [r["payouts"] for r in chart["rows"]] == [{"Amy": 2 * a, "Bank": 2 * a} for a in range(7)]


def test_dividend_chart_names_the_top_card_and_bankruptcy():
    # Stars, Inc. at 68 with 2 shares, the HR (5 stars) and 80 cash: 5 + 8 + 2 (its bonus) = 15
    # against the 14 the 68 card requires: one up, to 75, the top card
    g = table(PLAYERS, turn=9)
    drawn_until(g, "blue")
    corporation(g, "Stars, Inc.", price=68, companies=["HR"], cash=80, shares={"Brian": 1}, bank=1)
    enter_phase(g, 6)
    first = dividend_chart(g)["rows"][0]
    assert (first["new_price"], first["effect"]) == (75, "75")
    # Junkyard Scrappers at 6 with 7 shares, the BSE (1 star), 7 cash: 4 stars required; paying 0
    # or 1, 1 star: double down from 6, to 0: bankruptcy
    g = table(PLAYERS, turn=4)
    corporation(g, JUNKYARD, price=6, companies=["BSE"], cash=7, shares={"Amy": 4}, bank=3)
    enter_phase(g, 6)
    rows = dividend_chart(g)["rows"]
    assert [(r["amount"], r["new_price"], r["effect"]) for r in rows] == [(0, 0, "bankrupt"), (1, 0, "bankrupt")]


def ipo_by_hand(face: int, price: int, cash: int) -> dict:
    """Form Corporation, by the canonical rules."""
    shares = 2 if face > price else 1
    payment = shares * price - face
    return {
        "owner_shares": shares,
        "bank_shares": shares,
        "payment": payment,
        "treasury": payment + shares * price,
        "affordable": payment <= cash,
        "value_after": cash - payment + shares * price,
    }


def test_ipo_calculator_follows_form_corporation():
    # Amy owns the BY (orange, face 12, 2 stars) and has 6; orange may go public at 10-14 and 16-20
    g = table(PLAYERS, turn=3, cash={"Amy": 6})
    place(g, "BY", "Amy")
    drawn_until(g, "yellow")
    enter_phase(g, 9)
    calc = ipo_calculator(g)
    assert (calc["company"], calc["owner"], calc["face_value"], calc["cash"]) == ("BY", "Amy", 12, 6)
    prices = sorted({r["price"] for r in calc["rows"]})
    assert prices == [10, 11, 12, 13, 14, 16, 18, 20]
    assert len(calc["rows"]) == len(prices) * 8  # every charter is free
    required = {  # the cards' stars for 2 (one share each) or 4 issued shares (two each)
        (10, 4): 4,
        (11, 4): 4,
        (12, 2): 2,
        (13, 2): 3,
        (14, 2): 3,
        (16, 2): 3,
        (18, 2): 4,
        (20, 2): 4,
    }
    for row in calc["rows"]:
        hand = ipo_by_hand(12, row["price"], 6)
        assert {k: row[k] for k in hand} == hand, row
        assert row["value_before"] == 6 + 12
        bonus = 2 if row["corporation"] == "Stars, Inc." else 0
        assert row["stars"] == 2 + hand["treasury"] // 10 + bonus, row
        assert row["required"] == required[(row["price"], 2 * hand["owner_shares"])], row
    # e.g. at 10: two shares each (12 > 10), Amy pays 2 x 10 - 12 = 8 > 6: not affordable
    at10 = next(r for r in calc["rows"] if r["price"] == 10)
    assert (at10["payment"], at10["treasury"], at10["affordable"]) == (8, 28, False)
    at16 = next(r for r in calc["rows"] if r["price"] == 16)
    assert (at16["payment"], at16["treasury"], at16["affordable"], at16["value_after"]) == (4, 20, True, 18)


def test_share_trade_sale_moves_to_the_next_free_card_and_passes_the_presidency():
    # Vintage Machinery at 14, Amy 2 (president) and Brian 2; Junkyard Scrappers hold the 13 card
    g = table(PLAYERS, turn=3)
    corporation(g, VINTAGE, price=14, companies=["BPM"], cash=5, shares={"Amy": 2, "Brian": 2}, bank=0)
    corporation(g, JUNKYARD, price=13, companies=["MHE"], cash=5, shares={"Crystal": 1}, bank=1)
    drawn_until(g, "orange")
    enter_phase(g, 1, actor="Amy")
    sale = share_trade(g, "Amy", VINTAGE, buying=False)
    # one step down from 14 is 13, in use: 12; Amy keeps 1, Brian has 2 and becomes president
    assert (sale["price"], sale["skipped"], sale["legal"]) == (12, [13], True)
    assert (sale["president_before"], sale["president_after"], sale["presidency_changes"]) == ("Amy", "Brian", True)
    assert not sale["receivership"] and not sale["bankrupt"] and not sale["game_ends"]
    buy = share_trade(g, "Amy", JUNKYARD, buying=True)
    # one step up from 13 is 14, in use: 16; Amy (1 share) does not pass Crystal (1 share)
    assert (buy["price"], buy["skipped"], buy["legal"]) == (16, [14], True)
    assert buy["president_after"] == "Crystal" and not buy["presidency_changes"]


def test_acquisition_preview_income_synergy_stars_and_price():
    # Junkyard Scrappers (13, 2 issued) own the MHE and have 40; Crystal owns the KME (span 3-7)
    g = table(PLAYERS, turn=3)
    corporation(g, JUNKYARD, price=13, companies=["MHE"], cash=40, shares={"Brian": 1}, bank=1)
    place(g, "KME", "Crystal")
    drawn_until(g, "orange")
    enter_phase(g, 3)
    out = preview_purchase(g, JUNKYARD, "KME", 5)
    assert out["legal"] and out["seller"] == "Crystal" and out["span"] == [3, 7]
    before, after = out["effects"][JUNKYARD]["before"], out["effects"][JUNKYARD]["after"]
    # before: MHE income 2; stars 1 (red) + 4 (40 cash) = 5 against 3 (2 shares at 13): +2 -> 14 -> 16
    assert (before["income"], before["stars"], before["required"], before["zero_dividend_price"]) == (2, 5, 3, 16)
    # after: MHE 2 + KME 2 + synergy MHE-KME 1 = 5; stars 1 + 1 + 3 (35 cash) = 5 -> 16 again
    assert (after["income"], after["stars"], after["required"], after["zero_dividend_price"]) == (5, 5, 3, 16)
    assert out["effects"][JUNKYARD]["synergies_gained"] == [["MHE", "KME", 1]]
    too_much = preview_purchase(g, JUNKYARD, "KME", 8)
    assert not too_much["legal"] and "3–7" in too_much["error"]


def test_acquisition_preview_from_the_foreign_investor_is_at_its_price():
    g = table(PLAYERS, turn=3)
    corporation(g, JUNKYARD, price=13, companies=["MHE"], cash=40, shares={"Brian": 1}, bank=1)
    corporation(g, "Overseas Trading", price=10, companies=["BPM"], cash=40, shares={"Amy": 1}, bank=1)
    place(g, "WT", FI)
    drawn_until(g, "orange")
    enter_phase(g, 3)
    # the WT: span 6-14, face value 11; the maximum for Junkyard, face value for Overseas Trading
    assert preview_purchase(g, JUNKYARD, "WT", 14)["span"] == [14, 14]
    overseas = preview_purchase(g, "Overseas Trading", "WT", 11)
    assert overseas["span"] == [11, 11] and overseas["legal"]
    assert preview_purchase(g, JUNKYARD, "WT", 14)["may_intervene"] == ["Overseas Trading"]


def test_closing_preview_for_a_player_and_for_junkyard_scrappers():
    # blue on top: red and orange companies cost 4 each
    g = table(PLAYERS, turn=5)
    corporation(g, JUNKYARD, price=13, companies=["MHE", "KME"], cash=10, shares={"Brian": 1}, bank=1)
    place(g, "BSE", "Crystal")
    drawn_until(g, "blue")
    enter_phase(g, 4)
    player = preview_closing(g, "BSE")
    assert player["before"] == {"income": 1 - 4} and player["after"] == {"income": 0}
    corp = preview_closing(g, "KME")
    # before: (2 - 4) + (2 - 4) + synergy 1 = -3; after: MHE 2 - 4 = -2
    assert corp["before"]["income"] == -3 and corp["after"]["income"] == -2
    # the scrapping bonus: twice the KME's printed income (2): 10 + 4 = 14
    assert corp["cash_after"] == 14
    # stars: 1 + 1 + 1 (10 cash) = 3 before; 1 + 1 (14 cash) = 2 after
    assert (corp["before"]["stars"], corp["after"]["stars"]) == (3, 2)


def test_must_close_proposes_the_worst_companies_first():
    # blue on top: BSE 1 - 4 = -3, KME 2 - 4 = -2: Crystal's income is -5
    for cash, close, income_after in ((1, ["BSE", "KME"], 0), (3, ["BSE"], -2)):
        g = table(PLAYERS, turn=5, cash={"Crystal": cash})
        place(g, "BSE", "Crystal")
        place(g, "KME", "Crystal")
        drawn_until(g, "blue")
        enter_phase(g, 4)
        assert must_close(g) == [
            {"player": "Crystal", "cash": cash, "income": -5, "close": close, "income_after": income_after}
        ]


def test_closing_preview_in_full_and_at_the_end_of_the_phase():
    # yellow on top, no cost: Junkyard Scrappers closing its AKE gets twice its income, 2 x 2, and
    # then nobody can close anything more: the preview shows the phase's end, 20 + 4, before the
    # income phase pays it the DSB's 5
    g = table(PLAYERS, turn=5)
    corporation(g, JUNKYARD, price=20, companies=["AKE", "DSB"], cash=20, shares={"Amy": 1}, bank=1)
    drawn_until(g, "yellow")
    enter_phase(g, 4)
    out = preview_closing(g, "AKE")
    assert {k: out[k] for k in ("event", "legal", "error", "owner", "cash_after")} == {
        "event": {"type": "close", "company": "AKE"},
        "legal": True,
        "error": None,
        "owner": JUNKYARD,
        "cash_after": 24,
    }
    assert preview_closing(g, "DSB")["legal"] is True
    g.apply({"type": "close", "company": "AKE"})
    assert preview_closing(g, "DSB") == {
        "event": {"type": "close", "company": "DSB"},
        "legal": False,
        "error": "Companies are closed in phase 4 (closing); it is phase 6 now.",
        "owner": JUNKYARD,
    }
    assert preview_closing(g, "KME")["owner"] is None


def test_must_close_closes_the_worst_first_and_stops_at_exactly_enough():
    # the end card's front: red, orange and yellow cost 7, green nothing: Brian's AKE 2 - 7 = -5,
    # BSE 1 - 7 = -6, SZD 7: -4 with no money; closing the worst, the BSE, leaves +2
    g = table(PLAYERS, turn=5, cash={"Brian": 0})
    for abbr in ("AKE", "BSE", "SZD"):
        place(g, abbr, "Brian")
    drawn_until(g, None)
    enter_phase(g, 4)
    assert must_close(g) == [{"player": "Brian", "cash": 0, "income": -4, "close": ["BSE"], "income_after": 2}]
    # green on top, red costs 2: Crystal's BSE and BME earn -1 each, -2 with 1 money: closing one
    # leaves exactly enough (1 - 1 = 0)
    g = table(PLAYERS, turn=5, cash={"Crystal": 1})
    for abbr in ("BSE", "BME"):
        place(g, abbr, "Crystal")
    drawn_until(g, "green")
    enter_phase(g, 4)
    assert must_close(g) == [{"player": "Crystal", "cash": 1, "income": -2, "close": ["BSE"], "income_after": -1}]


def test_cost_outlook_counts_the_draws_until_green():
    # orange on top: no cost yet; green on top costs red 2: the BSE (income 1) will lose money
    g = table(PLAYERS, turn=3)
    place(g, "BSE", "Amy")
    place(g, "MHE", "Brian")
    drawn_until(g, "orange")
    enter_phase(g, 5)
    out = cost_outlook(g)
    orange, yellow = g.deck_left["orange"], g.deck_left["yellow"]
    assert (out["now"], out["next"], out["draws"]) == ({}, {"red": 2}, orange + yellow)
    assert out["losing"] == [{"company": "BSE", "owner": "Amy", "income_then": -1}]  # MHE: 2 - 2 = 0


def test_standings_add_money_face_values_and_shares():
    g = table(PLAYERS, turn=3, cash={"Amy": 7, "Brian": 20, "Crystal": 3})
    corporation(g, VINTAGE, price=14, companies=["BPM"], cash=5, shares={"Amy": 2, "Crystal": 1}, bank=1)
    place(g, "KME", "Crystal")
    drawn_until(g, "orange")
    enter_phase(g, 5)
    # incomes were paid at the start of phase 5: Crystal's KME +2 (the table now waits in phase 6)
    rows = standings(g)
    assert [(r["player"], r["cash"], r["companies"], r["shares"], r["total"]) for r in rows] == [
        ("Amy", 7, 0, 2 * 14, 35),
        ("Crystal", 3 + 2, 5, 14, 24),
        ("Brian", 20, 0, 0, 20),
    ]
