"""Phase 5, income: synergies and the corporations' income abilities.

Rulebook, "TURN 2, PHASE 5 – INCOME", example: "The Synergistic corporation ... consists of
the DSB, the MS, the BPM, and the BSE. Its base income is 5 + 3 + 2 + 1 = 11. The DSB
pairs with the MS, yielding +2. The MS pairs with both the BPM and the BSE for +1 each.
Finally, the BPM pairs with the BSE for +1. The synergies add up to +5 ... the special
ability grants another +2 income for four synergy markers. Thus, the total income is
11 + 5 + 2 = 18."

Canonical rules, Collect Income: "Prussian Railway adds 1 per Company it owns; Doppler AG
doubles the printed income of its Company with the highest Face Value; Synergistic adds 1
for every two of its synergy markers; Vintage Machinery reduces its total Cost of
Ownership by up to 10 (the Cost of Ownership cannot become negative)." "The Foreign
Investor also adds 5." Synergies are for corporations only.
"""

from __future__ import annotations

import pytest

from assistant.rules.core.compute import synergy_pairs
from assistant.rules.stars.cards import CARDS

from .builders import FI, corporation, drawn_until, enter_phase, phase_ends, place, table

PLAYERS = ["Amy", "Brian", "Crystal"]
SYNERGISTIC_EXAMPLE = ["DSB", "MS", "BPM", "BSE"]


def corp_position(name, companies, top, cash=20, extra=()):
    g = table(PLAYERS, turn=3)
    corporation(g, name, price=20, companies=companies, cash=cash, shares={"Amy": 1}, bank=1)
    for abbr, owner in extra:
        place(g, abbr, owner)
    drawn_until(g, top)
    return g


def income_paid(g, name):
    """Enter phase 5 and return what the corporation received (its cash at the end of phase 5
    minus before)."""
    before = g.corps[name].cash
    ends = phase_ends(g)
    enter_phase(g, 5)
    return ends[(g.turn, 5)]["corporations"][name]["cash"] - before


def test_synergistic_example_pairs():
    pairs = {frozenset(p[:2]): p[2] for p in synergy_pairs(SYNERGISTIC_EXAMPLE, CARDS.companies)}
    assert pairs == {
        frozenset({"DSB", "MS"}): 2,
        frozenset({"MS", "BPM"}): 1,
        frozenset({"MS", "BSE"}): 1,
        frozenset({"BPM", "BSE"}): 1,
    }


def test_synergistic_example_income_is_18():
    g = corp_position("Synergistic", SYNERGISTIC_EXAMPLE, "yellow")  # no cost of ownership yet
    assert g.snapshot()["cost_of_ownership"] == {c: 0 for c in ("red", "orange", "yellow", "green", "blue")}
    assert g.snapshot()["corporations"]["Synergistic"]["income"] == 18
    assert income_paid(g, "Synergistic") == 18


def test_same_companies_in_another_corporation_earn_no_synergistic_bonus():
    g = corp_position("Stock Masters", SYNERGISTIC_EXAMPLE, "yellow")
    assert g.snapshot()["corporations"]["Stock Masters"]["income"] == 16  # 11 + 5 synergies


def test_synergistic_bonus_needs_two_markers():
    g = corp_position("Synergistic", ["DSB", "MS"], "yellow")  # one pair: 5 + 3 + 2
    assert g.snapshot()["corporations"]["Synergistic"]["income"] == 10
    g = corp_position("Synergistic", ["MS", "BPM", "BSE"], "yellow")  # 3 pairs: 6 + 3 + 1
    assert g.snapshot()["corporations"]["Synergistic"]["income"] == 10


def test_private_companies_have_no_synergies_and_the_foreign_investor_adds_5():
    g = corp_position(
        "Synergistic", ["PR"], "yellow", extra=[("DSB", "Brian"), ("MS", "Brian"), ("OL", FI), ("KME", FI)]
    )
    snap = g.snapshot()
    assert snap["players"]["Brian"]["income"] == 8  # 5 + 3, the DSB-MS synergy does not count
    assert snap["foreign_investor"]["income"] == 3 + 2 + 5  # OL-KME synergy does not count either
    ends = phase_ends(g)
    enter_phase(g, 5)
    assert ends[(3, 5)]["players"]["Brian"]["cash"] == 30 + 8
    assert ends[(3, 5)]["foreign_investor"]["cash"] == 4 + 10


def test_prussian_railway_adds_one_per_company():
    g = corp_position("Prussian Railway", ["MHE", "BPM"], "orange")
    assert g.snapshot()["corporations"]["Prussian Railway"]["income"] == 2 + 2 + 1 + 2  # + MHE-BPM synergy
    assert income_paid(g, "Prussian Railway") == 7


def test_doppler_doubles_the_printed_income_of_its_highest_face_value_company():
    g = corp_position("Doppler AG", ["MS", "BSE"], "yellow")
    # 3 + 1, MS-BSE synergy 1, the MS (17, the highest face value) counts twice: +3
    assert g.snapshot()["corporations"]["Doppler AG"]["income"] == 8


def test_doppler_doubles_printed_income_not_income_after_cost():
    g = corp_position("Doppler AG", ["WT"], "blue")  # orange costs 4: 3 - 4 + 3
    assert g.snapshot()["corporations"]["Doppler AG"]["income"] == 2


@pytest.mark.parametrize(
    "top, expected",
    [
        ("blue", 2 + 3 - 8 + 8),  # cost 4 + 4 = 8, fully relieved
        (None, 2 + 3 - 14 + 10),  # end card front: 7 + 7 = 14, relief only 10
        ("yellow", 5),  # no cost: no relief, never a bonus
    ],
)
def test_vintage_machinery_relief_up_to_10(top, expected):
    g = corp_position("Vintage Machinery", ["MHE", "WT"], top)
    assert g.snapshot()["corporations"]["Vintage Machinery"]["income"] == expected
    assert income_paid(g, "Vintage Machinery") == expected


def test_the_log_and_the_banker_give_every_income_and_a_bankruptcy_does_not_stop_the_others():
    """Top card green: red companies cost 2.  Amy's KME earns 2 - 2 = 0, Brian's BSE 1 - 2 = -1,
    Crystal's DSB (yellow) 5; the foreign investor, with no company, its 5.  Junkyard Scrappers
    (the BME, 1 - 2 = -1, nothing in its treasury) cannot pay and goes bankrupt ("a corporation
    that cannot pay goes bankrupt"); Overseas Trading after it still earns its SZD's 7."""
    g = table(PLAYERS, turn=3)
    for abbr, owner in (("KME", "Amy"), ("BSE", "Brian"), ("DSB", "Crystal")):
        place(g, abbr, owner)
    corporation(g, "Junkyard Scrappers", price=10, companies=["BME"], cash=0, shares={"Amy": 1}, bank=1)
    corporation(g, "Overseas Trading", price=20, companies=["SZD"], cash=0, shares={"Brian": 1}, bank=1)
    drawn_until(g, "green")
    enter_phase(g, 5)
    assert g._auto[:2] == [
        "Junkyard Scrappers goes bankrupt (it cannot pay its income of -1 with 0): its companies leave "
        "the game, its shares are void, its charter is free again",
        "Income: Amy +0, Brian −1, Crystal +5, foreign investor +5, Overseas Trading +7",
    ]
    assert g._moves == [
        ("Brian", "Bank", 1, "income"),
        ("Bank", "Crystal", 5, "income"),
        ("Bank", "Foreign investor", 5, "income"),
        ("Bank", "Overseas Trading", 7, "income"),
    ]
