"""Phase 9, IPO: the rulebook's examples of forming a corporation.

* "You go public with the MHE (8 face value). You pick the Prussian Railway ... As starting
  share price, you choose 11. You have to pay 3 into the treasury ... The bank receives
  the second Prussian Railway share and pays 11 ... the Prussian Railway charter card with
  the three remaining shares ... and 14 cash in its treasury."
* Example 1: BY (12) at 12: one share, pays nothing, two shares issued, 12 in the treasury.
* Example 2: BY (12) at 11: two shares, pays 10, four shares issued, 32 in the treasury.
* Example 3: CDG (60) at 30: two shares, pays nothing, four shares issued, 60 in the treasury.
* The order example: Amy owns the MS (17) and the KME (5), Brian the WT (11) and the BPM
  (7), Crystal the BSE (2): MS, WT, BPM, KME, BSE.
"""

from __future__ import annotations

import pytest

from assistant.rules import RuleError
from assistant.rules.registry import STARS

from .builders import corporation, drawn_until, enter_phase, phase_ends, place, table

CORPORATIONS = STARS.corporations

PLAYERS = ["Amy", "Brian", "Crystal"]


def ipo_position(abbr, top=None, amy_cash=30):
    g = table(PLAYERS, cash={"Amy": amy_cash}, turn=1)
    if top:
        drawn_until(g, top)
    place(g, abbr, "Amy")
    ends = phase_ends(g)
    enter_phase(g, 9)
    assert g.next == {"player": "Amy", "for": "ipo", "company": abbr}
    return g, ends


@pytest.mark.parametrize(
    "abbr, top, corporation, price, shares_each, payment, treasury",
    [
        ("MHE", None, "Prussian Railway", 11, 1, 3, 14),  # the Prussian Railway example
        ("BY", "orange", "Doppler AG", 12, 1, 0, 12),  # example 1
        ("BY", "orange", "Doppler AG", 11, 2, 10, 32),  # example 2
        ("CDG", "blue", "Stock Masters", 30, 2, 0, 60),  # example 3
    ],
    ids=["prussian-railway-MHE-11", "example1-BY-12", "example2-BY-11", "example3-CDG-30"],
)
def test_rulebook_ipo_examples(abbr, top, corporation, price, shares_each, payment, treasury):
    g, ends = ipo_position(abbr, top)
    g.apply({"type": "ipo", "company": abbr, "corporation": corporation, "price": price})
    snap = ends[(1, 9)]
    corp = snap["corporations"][corporation]
    assert corp["share_price"] == price
    assert corp["companies"] == [abbr]
    assert corp["cash"] == treasury
    assert corp["issued"] == 2 * shares_each
    assert corp["bank_shares"] == shares_each
    assert corp["unissued"] == CORPORATIONS[corporation].shares - 2 * shares_each
    assert corp["president"] == "Amy" and corp["receivership"] is False
    amy = snap["players"]["Amy"]
    assert amy["cash"] == 30 - payment
    assert amy["shares"] == {corporation: shares_each}
    assert abbr not in amy["companies"]


def test_prussian_railway_keeps_three_unissued_shares():
    g, ends = ipo_position("MHE")
    g.apply({"type": "ipo", "company": "MHE", "corporation": "Prussian Railway", "price": 11})
    assert ends[(1, 9)]["corporations"]["Prussian Railway"]["unissued"] == 3


def test_ipo_menu_lists_the_examples_terms():
    g, _ = ipo_position("BY", "orange")
    options = next(i for i in g.legal_actions() if i["type"] == "ipo")["options"]
    at = {o["price"]: o for o in options if o["corporation"] == "Doppler AG"}
    # orange companies may start at 10, 11, 12, 13, 14, 16, 18, 20
    assert sorted(at) == [10, 11, 12, 13, 14, 16, 18, 20]
    assert (at[12]["owner_shares"], at[12]["payment"], at[12]["treasury"]) == (1, 0, 12)
    assert (at[11]["owner_shares"], at[11]["payment"], at[11]["treasury"]) == (2, 10, 32)
    assert (at[20]["owner_shares"], at[20]["payment"], at[20]["treasury"]) == (1, 8, 28)


def test_face_value_equal_to_the_price_pays_nothing():
    """ "In case the share price matches the face value, you simply don't have to pay anything"."""
    g, ends = ipo_position("BY", "orange", amy_cash=0)
    g.apply({"type": "ipo", "company": "BY", "corporation": "Synergistic", "price": 12})
    assert ends[(1, 9)]["players"]["Amy"]["cash"] == 0


def test_owner_who_cannot_pay_at_any_price_is_not_asked():
    """A red company (IPO 10-14) owned by a player with no money: MHE (8) needs at least 2."""
    g = table(PLAYERS, cash={"Amy": 1}, turn=1)
    place(g, "MHE", "Amy")
    place(g, "BSE", "Brian")
    enter_phase(g, 9)
    assert g.next == {"player": "Brian", "for": "ipo", "company": "BSE"}


def test_ipo_order_example():
    g = table(PLAYERS, turn=2)
    for abbr, owner in (("MS", "Amy"), ("KME", "Amy"), ("WT", "Brian"), ("BPM", "Brian"), ("BSE", "Crystal")):
        place(g, abbr, owner)
    drawn_until(g, "orange")
    enter_phase(g, 9)
    seen = []
    while g.phase == 9 and g.turn == 2:
        nxt = g.next
        seen.append((nxt["company"], nxt["player"]))
        g.apply({"type": "skip_ipo", "company": nxt["company"]})
    assert seen == [("MS", "Amy"), ("WT", "Brian"), ("BPM", "Brian"), ("KME", "Amy"), ("BSE", "Crystal")]


def test_a_decision_cannot_be_revised():
    """ "Amy has to decide first, and cannot revise her decision later during the same phase"."""
    g = table(PLAYERS, turn=2)
    for abbr, owner in (("MS", "Amy"), ("WT", "Brian")):
        place(g, abbr, owner)
    drawn_until(g, "orange")
    enter_phase(g, 9)
    g.apply({"type": "skip_ipo", "company": "MS"})
    before = g.snapshot()
    with pytest.raises(RuleError):
        g.apply({"type": "ipo", "company": "MS", "corporation": "Doppler AG", "price": 16})
    assert g.snapshot() == before


def test_two_companies_of_one_owner_form_two_corporations():
    g = table(PLAYERS, turn=2)
    place(g, "MHE", "Amy")
    place(g, "KME", "Amy")
    ends = phase_ends(g)
    enter_phase(g, 9)
    g.apply({"type": "ipo", "company": "MHE", "corporation": "Prussian Railway", "price": 10})
    # the 10 card is taken now: the KME cannot start at 10 any more
    prices = {o["price"] for o in next(i for i in g.legal_actions() if i["type"] == "ipo")["options"]}
    assert prices == {11, 12, 13, 14}
    corps = {o["corporation"] for o in next(i for i in g.legal_actions() if i["type"] == "ipo")["options"]}
    assert "Prussian Railway" not in corps
    g.apply({"type": "ipo", "company": "KME", "corporation": "Doppler AG", "price": 11})
    snap = ends[(2, 9)]
    assert snap["players"]["Amy"]["cash"] == 30 - 2 - 6
    assert snap["players"]["Amy"]["shares"] == {"Prussian Railway": 1, "Doppler AG": 1}


def test_the_prussian_railway_example_as_the_banker_moves_it():
    """ "You have to pay 3 into the treasury ... The bank receives the second Prussian Railway share
    and pays 11": Amy pays 3, the bank 11."""
    g, _ = ipo_position("MHE")
    assert [{k: v for k, v in i.items() if k != "options"} for i in g.legal_actions()] == [
        {"type": "ipo", "player": "Amy", "company": "MHE"},
        {"type": "skip_ipo", "player": "Amy", "company": "MHE"},
    ]
    g.apply({"type": "ipo", "company": "MHE", "corporation": "Prussian Railway", "price": 11})
    assert g.journal[-1]["moves"][:2] == (
        ("Amy", "Prussian Railway", 3, "IPO payment"),
        ("Bank", "Prussian Railway", 11, "buys IPO shares"),
    )
    assert g.journal[-1]["text"] == (
        "Amy forms Prussian Railway with the MHE at 11: 1 share each for Amy and the bank, Amy pays 3, treasury 14"
    )


def test_example_2_as_the_banker_moves_it():
    """Example 2: BY (12) at 11, two shares each: Amy pays 2 x 11 - 12 = 10, the bank 22."""
    g, _ = ipo_position("BY", "orange")
    g.apply({"type": "ipo", "company": "BY", "corporation": "Doppler AG", "price": 11})
    assert g.journal[-1]["moves"][:2] == (
        ("Amy", "Doppler AG", 10, "IPO payment"),
        ("Bank", "Doppler AG", 22, "buys IPO shares"),
    )


def test_a_company_staying_private_is_named():
    g, _ = ipo_position("MHE")
    g.apply({"type": "skip_ipo", "company": "MHE"})
    assert g.journal[-1]["text"] == "The MHE stays private"


def test_refusals_name_the_allowed_prices_and_the_cost():
    """A red company starts at 10, 11, 12, 13 or 14; 23 is no share price card; the MHE (8) at 14
    with 5 money: one share (worth more than the face value), 14 - 8 = 6 to pay."""
    g, _ = ipo_position("MHE", amy_cash=5)
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "ipo", "company": "MHE", "corporation": "Doppler AG", "price": 23})
    assert refused.value.message == "23 is not a share price."
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "ipo", "company": "MHE", "corporation": "Doppler AG", "price": 20})
    assert refused.value.message == "20 is not an IPO price for a red company (allowed: 10, 11, 12, 13, 14)."
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "ipo", "company": "MHE", "corporation": "Doppler AG", "price": 14})
    assert refused.value.message == "Forming Doppler AG at 14 costs Amy 6 (1 × 14 − face value 8); Amy has 5."


def test_an_ipo_out_of_turn_or_out_of_its_phase_is_refused():
    """Descending face value order: the MHE (8) before the BSE (2); IPOs are phase 9."""
    g = table(PLAYERS, turn=1)
    place(g, "MHE", "Amy")
    place(g, "BSE", "Brian")
    enter_phase(g, 9)
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "skip_ipo", "company": "BSE"})
    assert refused.value.message == (
        "It is the MHE's turn to go public or not (descending face value order), not the BSE's."
    )
    g.phase = 6
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "skip_ipo", "company": "MHE"})
    assert refused.value.message == "IPOs happen in phase 9; it is phase 6 now."


def test_a_company_cannot_go_public_when_every_charter_is_in_play():
    """Eight corporations, eight charters: the MHE's owner is not asked, the log says why."""
    g = table(PLAYERS, turn=2)
    prices, companies = (10, 11, 12, 13, 14, 16, 18, 20), ("BSE", "KME", "AKE", "WT", "BY", "BD", "KK", "DSB")
    taken = zip(CORPORATIONS, prices, companies, strict=True)
    for name, price, abbr in taken:
        corporation(g, name, price=price, companies=[abbr], cash=0, shares={"Brian": 1}, bank=1)
    place(g, "MHE", "Amy")
    enter_phase(g, 9)
    assert "The MHE cannot go public: no charter is free" in g._auto
