"""Classic Rolling Stock played by the engine: set-up per player count and game type, and the
Players Guide's worked examples (chapter 1 and the figures of chapter 4) as positions on the table.

Positions are laid out the way a person would put the cards on the table (``position``,
``corp``) and the engine's own code runs each phase (``enter``), as in tests/rules/builders.py.
"""

from __future__ import annotations

import pytest

from assistant.rules import RuleError
from assistant.rules.classic import rules
from assistant.rules.classic.cards import CARDS as cards
from assistant.rules.core.entities import Corporation
from assistant.rules.registry import CLASSIC


def position(players, *, cash=None, order=None, turn=2, game_type=(), top="red"):
    """A game after its set-up with nothing on the table; the deck's colours above ``top`` drawn."""
    g = CLASSIC.create(players, list(game_type))
    for color in g.colors[: g.colors.index(top)]:
        g.deck_left[color] = 0
    g.pending_reveals = 0
    g.setup = False
    g.turn = turn
    for name, money in (cash or {}).items():
        g.players[name].cash = money
    if order:
        g.order = list(order)
    return g


def put(g, abbr, to):
    company = cards.companies[abbr]
    g.seen.add(abbr)
    g.deck_left[company.color] = max(0, g.deck_left[company.color] - 1)
    if to == "available":
        g.available.append(abbr)
    elif to == "unavailable":
        g.unavailable.append(abbr)
    elif to == "FI":
        g._give_company(abbr, g.fi)
    elif to in g.players:
        g._give_company(abbr, g.players[to])
    else:
        g._give_company(abbr, g.corps[to])


def corp(g, name, *, price, companies, cash, shares, bank=0):
    c = Corporation(name, price, 10)
    c.cash = cash
    c.issued = sum(shares.values()) + bank
    c.bank_shares = bank
    most = max(shares.values())
    c.president = next(p for p in g.order if shares.get(p) == most)
    g.corps[name] = c
    g.price_holder[price] = name
    for p, n in shares.items():
        g.players[p].shares[name] = n
    for abbr in companies:
        put(g, abbr, name)
    return c


def enter(g, phase, actor=None):
    g.phase = phase
    getattr(g, f"_start_{g.phase_kind}")()
    if actor:
        g.actor = g.order.index(actor)
    g._advance()
    return g


# ---------------------------------------------------------------------------- set-up


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("game_type", ["full", "short", "training"])
def test_setup(n, game_type):
    players = [f"P{i}" for i in range(1, n + 1)]
    g = CLASSIC.create(players, [] if game_type == "full" else [game_type])
    counts = cards.deck_counts[game_type][n]
    assert list(counts) == list(cards.game_types[game_type])
    if n == 2:
        assert set(counts.values()) == {3}
    elif n == 6:
        assert counts == {c: len(cards.companies_by_color[c]) for c in counts}  # 3.8: every company
    else:
        assert counts["red"] == n + 1 and counts["orange"] == {3: 4, 4: 6, 5: 8}[n]
    snap = g.snapshot()
    assert snap["next"]["for"] == "reveal" and snap["next"]["color"] == "red"
    for _ in range(n):
        g.apply({"type": "reveal", "company": g.reveal_choices()[0]})
    snap = g.snapshot()
    assert snap["turn"] == 1 and snap["phase"] == 3
    assert snap["next"] == {"player": "P1", "for": "investment"}
    assert all(p["cash"] == (25 if n == 6 else 30) for p in snap["players"].values())
    assert snap["foreign_investor"] == {"cash": 4, "companies": [], "income": 5}
    assert len(snap["offering"]["available"]) == n
    assert snap["deck_size"] == sum(counts.values()) - n
    assert snap["cost_of_ownership"] == dict.fromkeys(cards.colors, 0)


def test_setup_refuses_what_classic_does_not_have():
    with pytest.raises(RuleError):
        CLASSIC.create(["A", "B", "C"], ["two_handed"])
    with pytest.raises(RuleError):
        CLASSIC.create(["A", "B", "C"], ["short", "training"])
    with pytest.raises(RuleError):
        CLASSIC.create(["A"])
    with pytest.raises(RuleError):
        CLASSIC.create(["A", "Bear", "C"])


# ---------------------------------------------------------------------------- 1.4.3 - 1.4.4


def test_auction_example_and_new_player_order():
    """1.4.3: Alice 20, Bob 12, Chris 9; MHE and MS available, WT drawn this turn.  Bob starts
    the MHE at 9, Chris cannot raise and leaves, Alice 11, Bob leaves: Alice pays 11, the BD is
    drawn, Chris is next but has nothing to do; everybody passes.  1.4.4: Bob 12 first, then
    Alice and Chris with 9 each in their old order."""
    g = position(["Alice", "Bob", "Chris"], cash={"Alice": 20, "Bob": 12, "Chris": 9}, turn=2, top="orange")
    for abbr in ("MHE", "MS"):
        put(g, abbr, "available")
    put(g, "WT", "unavailable")
    enter(g, 3, actor="Bob")
    with pytest.raises(RuleError, match="drawn this turn"):
        g.apply({"type": "bid", "player": "Bob", "company": "WT", "price": 11})
    with pytest.raises(RuleError, match="17"):
        g.apply({"type": "bid", "player": "Bob", "company": "MS", "price": 12})
    g.apply({"type": "bid", "player": "Bob", "company": "MHE", "price": 9})
    assert g.next == {"player": "Alice", "for": "bid", "company": "MHE"}  # Chris left by himself
    g.apply({"type": "bid", "player": "Alice", "company": "MHE", "price": 11})
    g.apply({"type": "leave", "player": "Bob"})
    g.apply({"type": "reveal", "company": "BD"})
    assert g.players["Alice"].cash == 9 and "MHE" in g.players["Alice"].companies
    # Chris is next (after Bob, who started the auction) but cannot act; nobody can: phase 3 ends
    assert g.phase > 3
    assert g.order == ["Bob", "Alice", "Chris"]


# ---------------------------------------------------------------------------- 1.5.2 going public


def test_ipo_order_and_the_bear_example():
    """1.5.2: the MS (17), WT (11), BPM (7), KME (5), BSE (2) decide in descending face value.
    Going public with the MHE at 11 as the Bear: pay 3, the bank's share pays 11, treasury 14."""
    g = position(["Alice", "Bob", "Chris"], cash={"Alice": 20, "Bob": 20, "Chris": 20})
    for abbr, who in (("MS", "Alice"), ("KME", "Alice"), ("WT", "Bob"), ("BPM", "Bob"), ("BSE", "Chris")):
        put(g, abbr, who)
    enter(g, 2)
    order = []
    while g.phase == 2:
        order.append(g.next["company"])
        g.apply({"type": "skip_ipo", "company": g.next["company"]})
    assert order == ["MS", "WT", "BPM", "KME", "BSE"]

    g = position(["Alice", "Bob", "Chris"], cash={"Alice": 20})
    put(g, "MHE", "Alice")
    enter(g, 2)
    item = next(i for i in g.legal_actions() if i["type"] == "ipo")
    assert sorted({o["price"] for o in item["options"]}) == [10, 11, 12, 13, 14]
    with pytest.raises(RuleError, match="not an IPO price"):
        g.apply({"type": "ipo", "company": "MHE", "corporation": "Bear", "price": 15})
    g.apply({"type": "ipo", "company": "MHE", "corporation": "Bear", "price": 11})
    bear = g.snapshot()["corporations"]["Bear"]
    assert (bear["cash"], bear["issued"], bear["bank_shares"], bear["president"]) == (14, 2, 1, "Alice")
    assert g.players["Alice"].cash == 17 and bear["book_value"] == 22


def test_ipo_the_owner_cannot_pay_is_refused_and_skipped():
    """An IPO the owner cannot pay is refused; with no affordable price the company is skipped."""
    g = position(["A", "B", "C"], cash={"A": 0, "B": 2})
    put(g, "PR", "B")  # orange 19: at 10 two shares, pay 1; at 20 one share, pay 1
    put(g, "BSE", "A")  # red 2: at 10 one share, pay 8 > 0: skipped without asking
    enter(g, 2)
    assert g.next == {"player": "B", "for": "ipo", "company": "PR"}
    with pytest.raises(RuleError, match=r"costs B \$7"):
        g.apply({"type": "ipo", "company": "PR", "corporation": "Eagle", "price": 13})
    g.apply({"type": "ipo", "company": "PR", "corporation": "Eagle", "price": 20})
    assert g.phase == 3  # the BSE was skipped


def test_refusals_write_money_the_symbol_card_and_the_phase_as_the_guide_does():
    """Issue 37: the Guide writes money with $ ("Give each player $30 from the bank"), forms a
    corporation with a symbol card and names phase 6 "corporations buy companies"; these refusals
    said "15", "charter" and "phase 3".  The figures are the cards' (rolling-stock.json): the red
    IPO prices $10-$14, the KME's span $3-$7, the BSE's $1-$3; the price row 12, 13."""

    def refusal(g, event) -> str:
        with pytest.raises(RuleError) as refused:
            g.apply(event)
        return refused.value.message

    g = position(["Alice", "Bob", "Chris"], cash={"Alice": 20})
    put(g, "MHE", "Alice")
    corp(g, "Eagle", price=16, companies=["BSE"], cash=10, shares={"Bob": 1})
    enter(g, 2)
    ipo = {"type": "ipo", "company": "MHE", "corporation": "Bear", "price": 15}
    assert refusal(g, ipo) == "$15 is not an IPO price for a red company (allowed: $10, $11, $12, $13, $14)."
    assert (
        refusal(g, dict(ipo, corporation="Eagle", price=11)) == "Eagle is already in play; choose a free symbol card."
    )

    g = position(["A", "B", "C"], cash={"A": 12})  # enough to bid for the KME, not for a share
    put(g, "KME", "available")
    corp(g, "Orion", price=12, companies=["FR"], cash=10, shares={"B": 1}, bank=1)
    enter(g, 3, actor="A")
    assert refusal(g, {"type": "buy_share", "player": "A", "corporation": "Orion"}) == (
        "An Orion share now costs $13; A has $12."
    )

    g = position(["A", "B", "C"])
    put(g, "KME", "FI")
    put(g, "BSE", "C")
    put(g, "AKE", "available")
    corp(g, "Bear", price=12, companies=["BME"], cash=20, shares={"A": 1}, bank=1)
    corp(g, "Eagle", price=16, companies=["MHE"], cash=20, shares={"B": 1}, bank=1)
    enter(g, 6)
    buy = {"type": "acquire", "corporation": "Bear"}
    assert refusal(g, dict(buy, company="KME", price=5)) == (
        "The foreign investor sells the KME to Bear only at $7 (the maximum of its price span)."
    )
    assert refusal(g, dict(buy, company="BSE", price=9)) == "$9 is outside the price span $1–$3 of the BSE."
    assert refusal(g, dict(buy, company="AKE", price=6)) == (
        "The AKE is not owned by anyone, so it cannot be bought in phase 6 (corporations buy companies)."
    )


# ---------------------------------------------------------------------------- 1.5.3 share trading


def test_selling_the_presidents_share_and_the_last_share():
    """1.5.3: order Chris, Alice, Bob; the Eagle has 3 shares, one each, Alice president.
    Alice sells: Chris and Bob tie, Bob follows Alice closer and becomes president.
    Then nobody may sell the last share players hold... but two players still hold one each."""
    g = position(["Chris", "Alice", "Bob"], order=["Chris", "Alice", "Bob"])
    for abbr in ("BD", "KME"):
        put(g, abbr, "available")
    corp(g, "Eagle", price=16, companies=["SX"], cash=10, shares={"Alice": 1, "Chris": 1, "Bob": 1})
    g.corps["Eagle"].president = "Alice"
    enter(g, 3, actor="Alice")
    g.apply({"type": "sell_share", "player": "Alice", "corporation": "Eagle"})
    assert g.corps["Eagle"].president == "Bob" and g.players["Alice"].cash == 30 + 15
    # Bob may sell (Chris still holds one); then Chris holds the last share players own
    g.apply({"type": "sell_share", "player": "Bob", "corporation": "Eagle"})
    assert g.corps["Eagle"].president == "Chris"
    assert not any(i["type"] == "sell_share" for i in g.legal_actions())
    with pytest.raises(RuleError, match="bank may never own all"):
        g.apply({"type": "sell_share", "player": "Chris", "corporation": "Eagle"})


def test_buying_the_100_card_ends_the_game_at_once():
    """1.6.3 / 1.7: buying a share whose price becomes $100 ends the game after the purchase."""
    g = position(["A", "B", "C"], cash={"A": 150})
    put(g, "KME", "available")
    corp(g, "Orion", price=90, companies=["FR"], cash=10, shares={"B": 1}, bank=1)
    enter(g, 3, actor="A")
    g.apply({"type": "buy_share", "player": "A", "corporation": "Orion"})
    snap = g.snapshot()
    assert snap["game_over"] and snap["phase"] == 3 and snap["next"] is None
    assert snap["corporations"]["Orion"]["share_price"] == 100
    assert snap["final"]["scores"]["A"] == 50 + 100
    assert snap["final"]["ranking"][0] == "A"


# ---------------------------------------------------------------------------- 1.5.6 acquisitions


def test_foreign_investor_sells_at_the_maximum_and_higher_price_may_intervene():
    g = position(["A", "B", "C"])
    put(g, "KME", "FI")  # span 3-7
    corp(g, "Bear", price=12, companies=["BME"], cash=20, shares={"A": 1}, bank=1)
    corp(g, "Eagle", price=16, companies=["BSE"], cash=20, shares={"B": 1}, bank=1)
    enter(g, 6)
    assert g.next == {"for": "acquisition"}
    with pytest.raises(RuleError, match=r"only at \$7"):  # the Guide writes money with $
        g.apply({"type": "acquire", "corporation": "Bear", "company": "KME", "price": 5})
    with pytest.raises(RuleError, match="no priority"):
        g.apply({"type": "acquire", "corporation": "Bear", "company": "KME", "price": 7, "announced_by": "Eagle"})
    g.apply({"type": "acquire", "corporation": "Eagle", "company": "KME", "price": 7, "announced_by": "Bear"})
    assert g.fi.cash == 4 + 7 and "KME" in g.corps["Eagle"].companies


# ---------------------------------------------------------------------------- 1.5.8 / 1.6.8 income


def income(abbrs, costs=None):
    return CLASSIC.create(["Amy", "Brian", "Crystal"]).corporation_income("Bear", abbrs, costs or {}).total


def test_income_examples():
    """1.5.8: DSB, MS, BPM, BSE earn 12 + 5 synergies = 17.  1.6.8: with green on top (red 1) 15;
    training end card front (red and orange 3) 8; its back (red, orange, yellow 8) a loss of 15;
    the DSB alone on the back: 6 - 8 = -2."""
    bear = ["DSB", "MS", "BPM", "BSE"]
    assert income(bear) == 17
    assert income(bear, rules.cost_of_ownership("training", "green", False)) == 15
    assert income(bear, rules.cost_of_ownership("training", None, False)) == 8
    assert income(bear, rules.cost_of_ownership("training", None, True)) == -15
    assert income(["DSB"], rules.cost_of_ownership("training", None, True)) == -2


def test_scavenger_and_builder_figures():
    """4.2.3: all red and orange companies and the DR earn 40 + 63 = 103; red cost 1: 97; red and
    orange 3: 61; red, orange, yellow 6: 13.  4.2.5: FS, SBB, KK, SNCF earn 48; VP, MM, LHR earn 81
    (the Guide's 97 counts a VP-MM synergy chapter 6 does not list)."""
    scavenger = [*cards.companies_by_color["red"], *cards.companies_by_color["orange"], "DR"]
    inc = CLASSIC.create(["Amy", "Brian", "Crystal"]).corporation_income("Bear", scavenger, {})
    assert sum(p for _, p, _ in inc.companies) == 40 and sum(s[2] for s in inc.synergies) == 63
    assert inc.total == 103
    assert income(scavenger, {"red": 1}) == 97
    assert income(scavenger, {"red": 3, "orange": 3}) == 61
    assert income(scavenger, {"red": 6, "orange": 6, "yellow": 6}) == 13
    assert income(["FS", "SBB", "KK", "SNCF"]) == 48
    assert income(["VP", "MM", "LHR"]) == 81
    assert "MM" not in cards.companies["VP"].synergies


def test_income_phase_bankrupts_a_corporation_that_cannot_pay():
    g = position(["A", "B", "C"])
    corp(g, "Star", price=10, companies=["BME", "BSE", "WT"], cash=3, shares={"A": 1}, bank=1)
    g.deck_left = dict.fromkeys(g.deck_left, 0)  # the end card shows: red and orange cost 10
    g.end_flipped = False
    enter(g, 8)
    assert "Star" not in g.corps and 10 not in g.price_holder


# ---------------------------------------------------------------------------- 1.5.9 dividends


def test_dividend_example_moves_by_book_value():
    """1.5.9: DSB, MS, BPM, BSE, 3 shares at 22, $16 left after the dividend: book 62, to 20;
    with $20 left: book 66, to 24; if the 24 card is in use, on to the next free card up."""
    g = position(["A", "B", "C"])
    corp(g, "Bear", price=22, companies=["DSB", "MS", "BPM", "BSE"], cash=16 + 3 * 2, shares={"A": 2}, bank=1)
    enter(g, 9)
    assert g.next == {"player": "A", "for": "dividend", "corporation": "Bear"}
    assert g.legal_actions()[0]["max"] == 7  # 22 / 3; 22 cash for 3 shares also allows 7
    g.apply({"type": "dividend", "corporation": "Bear", "amount": 2})
    assert g.corps["Bear"].price == 20 and g.players["A"].cash == 30 + 4

    g = position(["A", "B", "C"])
    corp(g, "Bear", price=22, companies=["DSB", "MS", "BPM", "BSE"], cash=20, shares={"A": 2}, bank=1)
    # the Eagle (26, first: higher price) drops to 24: book 16 + 32 = 48 with 2 shares
    corp(g, "Eagle", price=26, companies=["SX"], cash=32, shares={"B": 1}, bank=1)
    enter(g, 9)
    g.apply({"type": "dividend", "corporation": "Eagle", "amount": 0})
    assert g.corps["Eagle"].price == 24
    g.apply({"type": "dividend", "corporation": "Bear", "amount": 0})
    assert g.corps["Bear"].price == 26


def test_dividend_above_the_maximum_is_refused():
    g = position(["A", "B", "C"])
    corp(g, "Bear", price=13, companies=["BD"], cash=40, shares={"A": 1}, bank=1)
    enter(g, 9)
    with pytest.raises(RuleError, match=r"at most \$4"):
        g.apply({"type": "dividend", "corporation": "Bear", "amount": 5})


# ---------------------------------------------------------------------------- 1.6.1 issuing


def test_issue_at_the_next_lower_free_card():
    g = position(["A", "B", "C"])
    corp(g, "Bear", price=13, companies=["BD"], cash=0, shares={"A": 1}, bank=1)
    corp(g, "Eagle", price=12, companies=["BY"], cash=0, shares={"B": 1}, bank=1)
    enter(g, 1)
    assert g.next == {"player": "A", "for": "issue", "corporation": "Bear"}
    g.apply({"type": "issue", "corporation": "Bear"})  # 12 in use: 11
    assert (g.corps["Bear"].price, g.corps["Bear"].cash, g.corps["Bear"].issued) == (11, 11, 3)


# ---------------------------------------------------------------------------- 1.6.10 the end


def test_end_check_flips_when_the_offering_is_empty_and_ends_next_turn():
    g = position(["A", "B", "C"], game_type=["short"])
    g.deck_left = dict.fromkeys(g.deck_left, 0)
    g.phase = 10
    g._start_end_check()
    assert g.end_flipped and not g.game_over
    assert g.costs() == {"red": 15, "orange": 15, "yellow": 15, "green": 15}
    assert g._auto == [
        "No company is left in the offering: the game end card is flipped (cost of ownership "
        "red $15, orange $15, yellow $15, green $15); the game ends in the next phase 10"  # the Guide writes $
    ]
    g._advance()  # the last turn: nothing to decide on an empty table
    assert g.game_over and g.snapshot()["phase"] == 10 and g.turn == 3
    assert g._auto[-2] == "The game end card was already flipped: the game ends"


def test_end_check_ends_the_game_when_corporations_hold_100():
    """1.6.10: the game ends in phase 10 when a corporation is at $100 (the card several may
    share), though companies are left in the offering and the end card is not flipped."""
    g = position(["A", "B", "C"])
    put(g, "BSE", "available")
    corp(g, "Alpha", price=100, companies=["KME"], cash=0, shares={"A": 2}, bank=0)
    corp(g, "Beta", price=100, companies=["AKE"], cash=0, shares={"B": 2}, bank=0)
    g.phase = 10
    g._start_end_check()
    assert g.game_over and not g.end_flipped
    assert g._auto[0] == "Alpha, Beta at $100: the game ends"


# ---------------------------------------------------------------------------- refusals name a rule


def test_every_refusal_links_to_a_guide_section():
    from assistant.rules.classic import rulebook
    from assistant.rules.classic.game import EVENT_RULES

    anchors = {s["anchor"] for s in rulebook.sections()}
    assert set(EVENT_RULES.values()) <= anchors
    assert all(s["text"] and s["title"] for s in rulebook.sections())
    g = position(["A", "B", "C"])
    corp(g, "Bear", price=13, companies=["BD"], cash=40, shares={"A": 1}, bank=1)
    put(g, "KME", "B")
    enter(g, 9)
    refused = [
        ({"type": "dividend", "corporation": "Bear", "amount": 9}, "dividends-and-share-price"),
        ({"type": "done", "phase": 7}, "closing-companies"),
        ({"type": "done", "phase": 6}, "buying-companies"),
        ({"type": "issue", "corporation": "Bear"}, "issuing-shares"),
        ({"type": "bid", "player": "A", "company": "KME", "price": 5}, "phase-3-auctions-and-share-trading"),
        ({"type": "no_intervention", "company": "KME"}, None),
    ]
    for event, anchor in refused:
        with pytest.raises(RuleError) as err:
            g.apply(event)
        assert err.value.message
        if anchor:
            assert err.value.rule == anchor, (event, err.value.rule)


def test_open_companies_deck_is_checked_and_followed():
    players = ["A", "B", "C"]
    counts = cards.deck_counts["short"][3]
    deck = [a for color, k in counts.items() for a in cards.companies_by_color[color][:k]]
    with pytest.raises(RuleError, match="holds 4 red"):
        CLASSIC.create(players, ["short", "open_companies"], deck=deck[1:])
    with pytest.raises(RuleError, match="no purple"):
        CLASSIC.create(players, ["short", "open_companies"], deck=[*deck[:-1], "TSI"])
    with pytest.raises(RuleError, match="only given"):
        CLASSIC.create(players, ["short"], deck=deck)
    g = CLASSIC.create(players, ["short", "open_companies"], deck=deck)
    assert g.reveal_choices() == ["BME", "BSE", "KME", "AKE"]
    with pytest.raises(RuleError, match="not in this"):
        g.apply({"type": "reveal", "company": "MHE"})


def test_share_redemption_variant():
    """3.6: instead of issuing, a corporation with at least 3 shares issued redeems one from the
    bank as a player buys one: the price moves to the next higher free card, which it pays."""
    g = position(["A", "B", "C"], game_type=["share_redemption"])
    corp(g, "Bear", price=13, companies=["BD"], cash=30, shares={"A": 2}, bank=1)
    corp(g, "Eagle", price=14, companies=["BY"], cash=5, shares={"B": 1}, bank=1)
    corp(g, "Horse", price=20, companies=["SX"], cash=50, shares={"C": 1}, bank=1)
    enter(g, 1)
    assert g.next["corporation"] == "Horse"  # 2 shares issued: it may only issue or not
    assert [i["type"] for i in g.legal_actions()] == ["issue", "skip_issue"]
    with pytest.raises(RuleError, match="at least 3"):
        g.apply({"type": "redeem", "corporation": "Horse"})
    g.apply({"type": "skip_issue", "corporation": "Horse"})
    g.apply({"type": "skip_issue", "corporation": "Eagle"})
    item = next(i for i in g.legal_actions() if i["type"] == "redeem")
    assert item["price"] == 15  # 14 is the Eagle's: the next free card up
    g.apply({"type": "redeem", "corporation": "Bear"})
    bear = g.corps["Bear"]
    assert (bear.price, bear.cash, bear.issued, bear.bank_shares, bear.unissued) == (15, 15, 2, 0, 8)
    plain = position(["A", "B", "C"])
    corp(plain, "Bear", price=13, companies=["BD"], cash=30, shares={"A": 2}, bank=1)
    enter(plain, 1)
    with pytest.raises(RuleError, match="variant"):
        plain.apply({"type": "redeem", "corporation": "Bear"})


def test_a_corporation_with_every_share_issued_may_only_redeem_or_skip():
    """1.6.1 / 3.6: a corporation with all its 10 shares issued has none left to issue; in the
    share redemption variant it is still asked, to redeem one (at the next higher free card)."""
    g = position(["A", "B", "C"], game_type=["share_redemption"])
    corp(g, "Bear", price=13, companies=["BD"], cash=30, shares={"A": 9}, bank=1)
    enter(g, 1)
    assert g.legal_actions() == [
        {"type": "skip_issue", "player": "A", "corporation": "Bear"},
        {"type": "redeem", "player": "A", "corporation": "Bear", "price": 14},
    ]
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "issue", "corporation": "Bear"})
    assert refused.value.message == "Bear has issued all its 10 shares."


# ---------------------------------------------------------------------------- chapter 4's examples


def test_going_public_low_and_buying_the_bank_shares():
    """4.1.4: with the MAD and $99, going public at $22 as the Orion costs $21: three shares each
    for the owner and the bank, treasury $87.  In phase 3 the three bank shares cost 24, 26 and 28:
    "there they go, your remaining $78"."""
    g = position(["Alice", "Bob", "Chris"], cash={"Alice": 99, "Bob": 0, "Chris": 0}, top="purple")
    put(g, "MAD", "Alice")
    enter(g, 2)
    g.apply({"type": "ipo", "company": "MAD", "corporation": "Orion", "price": 22})
    orion = g.corps["Orion"]
    assert (orion.cash, orion.issued, orion.bank_shares, g.players["Alice"].cash) == (87, 6, 3, 78)
    assert g.phase == 3 and g.next == {"player": "Alice", "for": "investment"}
    paid = []
    for _ in range(3):
        item = next(i for i in g.legal_actions() if i["type"] == "buy_share")
        paid.append(item["price"])
        g.apply({"type": "buy_share", "player": "Alice", "corporation": "Orion"})
    assert paid == [24, 26, 28] and g.players["Alice"].cash == 0
    assert g.players["Alice"].shares["Orion"] == 6 and orion.price == 28


def test_selling_two_of_three_ipo_shares():
    """4.1.4: going public at $22 gives three shares; in phase 3 one sells for $20, another for $18;
    the last one players hold stays."""
    g = position(["Alice", "Bob", "Chris"], cash={"Alice": 30, "Bob": 0, "Chris": 0}, top="purple")
    put(g, "MAD", "Alice")
    enter(g, 2)
    g.apply({"type": "ipo", "company": "MAD", "corporation": "Orion", "price": 22})
    got = []
    for _ in range(2):
        g.apply({"type": "sell_share", "player": "Alice", "corporation": "Orion"})
        got.append(g.corps["Orion"].price)
        assert g.next == {"player": "Alice", "for": "investment"}  # Bob and Chris have nothing to do
    assert got == [20, 18] and g.players["Alice"].cash == 30 - 21 + 38
    assert not any(i["type"] == "sell_share" for i in g.legal_actions() if i.get("player") == "Alice")


def test_short_term_investment_in_the_horse():
    """4.2.1: the Horse at $22: buying a share pays $24; issuing a share later drops it a card,
    and selling pays the next lower card."""
    g = position(["A", "B", "C"], cash={"A": 40})
    put(g, "KME", "available")
    corp(g, "Horse", price=22, companies=["DR"], cash=0, shares={"B": 2}, bank=1)
    enter(g, 3, actor="A")
    g.apply({"type": "buy_share", "player": "A", "corporation": "Horse"})
    assert g.players["A"].cash == 16 and g.corps["Horse"].price == 24
    g.corps["Horse"].price = 26  # phase 9 took it to 26 (the example's "only manages to go up to $26")
    g.price_holder = {26: "Horse"}
    enter(g, 1)
    g.apply({"type": "issue", "corporation": "Horse"})
    assert g.corps["Horse"].price == 24 and g.corps["Horse"].cash == 24
    assert g.phase == 3
    g.actor = g.order.index("A")
    g.apply({"type": "sell_share", "player": "A", "corporation": "Horse"})
    assert g.players["A"].cash == 16 + 22  # "you have made a $2 loss"


# ---------------------------------------------------------------------------- 1.5.7: phase 6 is open
def test_phase_6_opens_for_a_corporation_with_exactly_the_minimum_price():
    """The Bear holds exactly $3, the KME's minimum price (span 3-7), and Brian owns the KME: phase 6
    (buy companies) waits for the table, and the Bear may buy the KME for 3; with $2 it could not,
    and the phase passes by itself."""
    for cash, opens in ((3, True), (2, False)):
        g = position(["Amy", "Brian", "Crystal"], cash={"Amy": 10, "Brian": 10, "Crystal": 10}, top="green")
        corp(g, "Bear", price=10, companies=["BME"], cash=cash, shares={"Amy": 2})
        put(g, "KME", "Brian")
        enter(g, g.phase_no("acquisition"))
        assert (g.phase_kind == "acquisition") is opens, cash
        if opens:
            item = next(i for i in g.legal_actions() if i["type"] == "acquire" and i["company"] == "KME")
            assert (item["corporation"], item["min"], item["max"]) == ("Bear", 3, 3)
            g.apply({"type": "acquire", "corporation": "Bear", "company": "KME", "price": 3})
            assert "KME" in g.corps["Bear"].companies and g.corps["Bear"].cash == 0
