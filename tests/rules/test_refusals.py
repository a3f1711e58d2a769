"""Illegal events at specific moments: each is refused with ``RuleError``, a message for the
table that names the numbers involved, and the game exactly as it was.

The list follows FORMAT.md, "Refused events": "a bid below face value or above the
bidder's money, a raise that does not exceed the current bid, acting out of turn, buying a
share without the money for it, an acquisition price outside the printed span (or not the
foreign investor's fixed price), spending money the corporation does not have or received
in this phase, buying a company that already changed hands in this phase or the only
company of another corporation, closing a corporation's last company, done while a player
still has to close companies, a dividend above the maximum, an IPO price not allowed for
the company's colour, already taken, or not affordable", plus wrong reveals.
"""

from __future__ import annotations

import pytest

from assistant.rules import RuleError, events_of

from .builders import FI, corporation, drawn_until, enter_phase, place, table

PLAYERS = ["Amy", "Brian", "Crystal"]


# ---------------------------------------------------------------------------- positions


def auction():
    """The rulebook's auction example: turn 2, Amy 20, Brian 12, Crystal 9, Brian to act;
    MHE (8) and MS (17) available, WT drawn this turn."""
    g = table(PLAYERS, cash={"Amy": 20, "Brian": 12, "Crystal": 9}, turn=2, fi_cash=9)
    for abbr, where in (
        ("BSE", "Crystal"),
        ("KME", "Brian"),
        ("BPM", "Amy"),
        ("MHE", "available"),
        ("MS", "available"),
        ("WT", "unavailable"),
    ):
        place(g, abbr, where)
    return enter_phase(g, 1, actor="Brian")


def auction_running():
    g = auction()
    g.apply({"type": "bid", "player": "Brian", "company": "MHE", "price": 9})  # Crystal leaves by herself
    return g  # Amy to raise


def card_drawn():
    g = auction_running()
    g.apply({"type": "bid", "player": "Amy", "company": "MHE", "price": 11})
    g.apply({"type": "leave", "player": "Brian"})
    return g  # an orange card is being drawn


def shares():
    """Turn 3, phase 1: Stars, Inc. at 20 with two shares in the bank; Brian has 10 (enough
    for the BME in the offering, not for a share)."""
    g = table(PLAYERS, cash={"Brian": 10}, turn=3)
    place(g, "BME", "available")
    drawn_until(g, "yellow")
    corporation(g, "Stars, Inc.", price=20, companies=["DSB"], cash=10, shares={"Amy": 2}, bank=2)
    return enter_phase(g, 1, actor="Brian")


def trading():
    """Turn 3, phase 3: Doppler AG (Amy; 5 cash; WT, MHE) and Stock Masters (Brian; 40 cash;
    BY); Crystal owns the KME, the foreign investor the BSE."""
    g = table(PLAYERS, turn=3)
    corporation(g, "Doppler AG", price=14, companies=["WT", "MHE"], cash=5, shares={"Amy": 1}, bank=1)
    corporation(g, "Stock Masters", price=13, companies=["BY"], cash=40, shares={"Brian": 1}, bank=1)
    place(g, "KME", "Crystal")
    place(g, "BSE", FI)
    drawn_until(g, "orange")
    return enter_phase(g, 3)


def traded():
    """The same after Stock Masters bought the MHE from Doppler AG for 8."""
    g = trading()
    g.apply({"type": "acquire", "corporation": "Stock Masters", "company": "MHE", "price": 8})
    return g


def closing():
    g = trading()
    g.apply({"type": "done", "phase": 3})
    assert g.phase == 4
    return g


def must_close():
    """Green on top (red costs 2): Brian has no money and the BSE (income 1 - 2 = -1)."""
    g = table(PLAYERS, cash={"Brian": 0}, turn=5)
    place(g, "BSE", "Brian")
    drawn_until(g, "green")
    return enter_phase(g, 4)


def dividends(cash=30):
    """Synergistic at 22 (7 per share at most) with 3 issued shares."""
    g = table(PLAYERS, turn=3)
    corporation(g, "Synergistic", price=22, companies=["DSB", "MS"], cash=cash, shares={"Amy": 2}, bank=1)
    drawn_until(g, "yellow")
    return enter_phase(g, 6)


def ipo(amy_cash=30):
    """Phase 9, Amy decides for the MHE (red: 10-14); Doppler AG holds the 11 card."""
    g = table(PLAYERS, cash={"Amy": amy_cash}, turn=2)
    corporation(g, "Doppler AG", price=11, companies=["KME"], cash=5, shares={"Brian": 1}, bank=1)
    place(g, "MHE", "Amy")
    return enter_phase(g, 9)


# ---------------------------------------------------------------------------- the table

CASES = [
    # (id, position, event, what the message must name)
    ("bid below face value", auction, {"type": "bid", "player": "Brian", "company": "MHE", "price": 7}, ["8", "7"]),
    ("bid above money", auction, {"type": "bid", "player": "Brian", "company": "MHE", "price": 13}, ["12", "13"]),
    (
        "auction for a company drawn this turn",
        auction,
        {"type": "bid", "player": "Brian", "company": "WT", "price": 11},
        ["WT"],
    ),
    (
        "auction for a company not in the offering",
        auction,
        {"type": "bid", "player": "Brian", "company": "DR", "price": 29},
        ["DR"],
    ),
    ("out of turn", auction, {"type": "bid", "player": "Crystal", "company": "MHE", "price": 8}, ["Brian", "Crystal"]),
    ("pass out of turn", auction, {"type": "pass", "player": "Amy"}, ["Brian", "Amy"]),
    (
        "raise not above the current bid",
        auction_running,
        {"type": "bid", "player": "Amy", "company": "MHE", "price": 9},
        ["9"],
    ),
    (
        "raise above money",
        auction_running,
        {"type": "bid", "player": "Amy", "company": "MHE", "price": 21},
        ["20", "21"],
    ),
    (
        "raise out of turn",
        auction_running,
        {"type": "bid", "player": "Brian", "company": "MHE", "price": 10},
        ["Amy", "Brian"],
    ),
    (
        "raise for another company",
        auction_running,
        {"type": "bid", "player": "Amy", "company": "MS", "price": 17},
        ["MHE"],
    ),
    ("leave out of turn", auction_running, {"type": "leave", "player": "Brian"}, ["Amy", "Brian"]),
    ("share trade during an auction", auction_running, {"type": "pass", "player": "Amy"}, ["MHE"]),
    ("reveal of a wrong colour", card_drawn, {"type": "reveal", "company": "DSB"}, ["orange", "yellow"]),
    ("reveal of a card already seen", card_drawn, {"type": "reveal", "company": "MS"}, ["MS"]),
    ("reveal of an unknown company", card_drawn, {"type": "reveal", "company": "XYZ"}, ["XYZ"]),
    ("any other event while a card is drawn", card_drawn, {"type": "pass", "player": "Crystal"}, ["orange"]),
    (
        "buying a share without the money",
        shares,
        {"type": "buy_share", "player": "Brian", "corporation": "Stars, Inc."},
        ["22", "10"],
    ),
    (
        "selling a share one does not own",
        shares,
        {"type": "sell_share", "player": "Brian", "corporation": "Stars, Inc."},
        ["Brian", "Stars, Inc."],
    ),
    (
        "buying a share of a corporation not in play",
        shares,
        {"type": "buy_share", "player": "Brian", "corporation": "Synergistic"},
        ["Synergistic"],
    ),
    (
        "acquisition price above the span",
        trading,
        {"type": "acquire", "corporation": "Stock Masters", "company": "KME", "price": 8},
        ["3", "7", "8"],
    ),
    (
        "acquisition price below the span",
        trading,
        {"type": "acquire", "corporation": "Stock Masters", "company": "KME", "price": 2},
        ["3", "7", "2"],
    ),
    (
        "foreign investor not at its fixed price",
        trading,
        {"type": "acquire", "corporation": "Stock Masters", "company": "BSE", "price": 2},
        ["3"],
    ),
    (
        "acquisition without the money",
        trading,
        {"type": "acquire", "corporation": "Doppler AG", "company": "KME", "price": 6},
        ["5", "6"],
    ),
    (
        "money received in this phase",
        traded,
        {"type": "acquire", "corporation": "Doppler AG", "company": "KME", "price": 7},
        ["5", "7"],
    ),
    (
        "company already moved in this phase",
        traded,
        {"type": "acquire", "corporation": "Doppler AG", "company": "MHE", "price": 4},
        ["MHE"],
    ),
    (
        "only company of a corporation",
        traded,
        {"type": "acquire", "corporation": "Stock Masters", "company": "WT", "price": 6},
        ["WT", "Doppler AG"],
    ),
    (
        "buying one's own company",
        trading,
        {"type": "acquire", "corporation": "Doppler AG", "company": "WT", "price": 6},
        ["WT"],
    ),
    (
        "acquisition outside phase 3",
        shares,
        {"type": "acquire", "corporation": "Stars, Inc.", "company": "DSB", "price": 15},
        ["3"],
    ),
    ("closing a corporation's last company", closing, {"type": "close", "company": "BY"}, ["BY", "Stock Masters"]),
    ("closing the foreign investor's company", closing, {"type": "close", "company": "BSE"}, ["foreign investor"]),
    ("done 4 while a player must close", must_close, {"type": "done", "phase": 4}, ["Brian", "0", "-1"]),
    ("done for the wrong phase", must_close, {"type": "done", "phase": 3}, ["4", "3"]),
    (
        "dividend above the card's maximum",
        dividends,
        {"type": "dividend", "corporation": "Synergistic", "amount": 8},
        ["7"],
    ),
    (
        "dividend above what the treasury allows",
        lambda: dividends(cash=8),
        {"type": "dividend", "corporation": "Synergistic", "amount": 3},
        ["2", "8", "3"],
    ),
    ("negative dividend", dividends, {"type": "dividend", "corporation": "Synergistic", "amount": -1}, ["0"]),
    (
        "IPO price not allowed for the colour",
        ipo,
        {"type": "ipo", "company": "MHE", "corporation": "Synergistic", "price": 16},
        ["16", "red", "10"],
    ),
    (
        "IPO price not a share price",
        ipo,
        {"type": "ipo", "company": "MHE", "corporation": "Synergistic", "price": 15},
        ["15"],
    ),
    (
        "IPO price already taken",
        ipo,
        {"type": "ipo", "company": "MHE", "corporation": "Synergistic", "price": 11},
        ["11", "Doppler AG"],
    ),
    (
        "IPO price not affordable",
        lambda: ipo(amy_cash=5),
        {"type": "ipo", "company": "MHE", "corporation": "Synergistic", "price": 14},
        ["6", "5"],
    ),
    (
        "IPO with a charter in use",
        ipo,
        {"type": "ipo", "company": "MHE", "corporation": "Doppler AG", "price": 12},
        ["Doppler AG"],
    ),
    (
        "IPO of another company than the one whose turn it is",
        ipo,
        {"type": "ipo", "company": "KME", "corporation": "Synergistic", "price": 12},
        ["MHE"],
    ),
]


@pytest.mark.parametrize("position, event, names", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_refused_with_the_numbers_and_nothing_changes(position, event, names):
    g = position()
    before, menu, events = g.snapshot(), g.legal_actions(), list(g.events)
    with pytest.raises(RuleError) as err:
        g.apply(event)
    message = err.value.message
    assert isinstance(message, str) and message.strip()
    for name in names:
        assert name in message, f"{name!r} not in {message!r}"
    assert g.snapshot() == before
    assert g.legal_actions() == menu
    assert g.events == events
    # the game goes on: the first legal item is still accepted
    g.apply(events_of(menu[0], lambda *a: a[0] if len(a) == 2 else a[0][0]))


def test_each_menu_item_of_the_positions_is_accepted():
    """The counterpart: what the menu offers at these moments is accepted (on copies)."""
    for position in (
        auction,
        auction_running,
        card_drawn,
        shares,
        trading,
        traded,
        closing,
        must_close,
        dividends,
        ipo,
    ):
        g = position()
        for item in g.legal_actions():
            for end in (0, 1):
                g.clone().apply(events_of(item, lambda *a, end=end: a[end] if len(a) == 2 else a[0][-end]))
