"""Cost of ownership (the back of the deck's top card) and phase 4, closing.

Rulebook, "REMAINING TURNS, PHASE 5 – INCOME", example, continuing the Synergistic
corporation with the DSB, MS, BPM and BSE (income 18 without cost of ownership):

* "If the top face-down card of the deck is a green one, each red company has a cost of
  ownership of 2 ... its income would be 14."
* "Once the top-most company of the deck is a blue one, each red and orange company earns
  4 less. Synergistic would only earn 18 – 3×4 = 6."
* "close the two red companies ... DSB and the MS. That's 5 + 3 base income, 2 for the
  synergy ..., nothing anymore for Synergistic's special ability ..., and finally a
  deduction of 4 ... for the orange MS. Again, we arrive at 6 total income."
* "Once all companies have been drawn, the front-side of the game ending card becomes
  visible. From now on, each yellow, orange, and red company has a cost of ownership of 7.
  Our Synergistic corporation would earn 4×7 = 28 less than the unmodified income. In
  total, it now makes 10 in losses. Even if it closed all but the best company (DSB), it
  would still make 2 in losses per turn."

Canonical rules, phase 4: "If Players will have a negative total income in phase 5, they
must close a sufficient number of Companies ... The Foreign Investor closes Companies whose
Cost Of Ownership exceeds their Income. Corporations in Receivership close red Companies if
the Cost Of Ownership is at least 4 and close orange Companies if the Cost Of Ownership is
at least 7 but always keep the Company with the highest Face Value. The Junkyard Scrappers
Corporation immediately receives twice the printed income for each Company it closes."
Collect Income: "If a Corporation is not able to [pay], it Goes Bankrupt."
"""

from __future__ import annotations

import pytest

from assistant.rules import RuleError
from assistant.rules.core.phases.closing import bankrupt_ahead

from .builders import FI, corporation, drawn_until, enter_phase, phase_ends, place, table

PLAYERS = ["Amy", "Brian", "Crystal"]
EXAMPLE = ["DSB", "MS", "BPM", "BSE"]
NONE = {"red": 0, "orange": 0, "yellow": 0, "green": 0, "blue": 0}


def synergistic(top, companies=EXAMPLE, cash=20, shares=None, bank=1, name="Synergistic", extra=()):
    g = table(PLAYERS, turn=5)
    corporation(
        g, name, price=20, companies=companies, cash=cash, shares={"Amy": 1} if shares is None else shares, bank=bank
    )
    for abbr, owner in extra:
        place(g, abbr, owner)
    drawn_until(g, top)
    return g


@pytest.mark.parametrize(
    "top, income, costs",
    [
        ("yellow", 18, NONE),
        ("green", 14, {**NONE, "red": 2}),
        ("blue", 6, {**NONE, "red": 4, "orange": 4}),
        (None, -10, {**NONE, "red": 7, "orange": 7, "yellow": 7}),  # the game end card's front
    ],
    ids=["no-cost", "green-on-top", "blue-on-top", "end-card-front"],
)
def test_synergistic_example_under_cost_of_ownership(top, income, costs):
    g = synergistic(top)
    snap = g.snapshot()
    assert snap["cost_of_ownership"] == costs
    assert snap["corporations"]["Synergistic"]["income"] == income
    # and phase 5 pays (or takes) exactly that
    ends = phase_ends(g)
    enter_phase(g, 5)
    assert ends[(5, 5)]["corporations"]["Synergistic"]["cash"] == 20 + income


def test_closing_the_two_reds_under_blue_still_earns_6():
    g = synergistic("blue")
    ends = phase_ends(g)
    enter_phase(g, 4)
    assert g.next == {"for": "closing"}
    g.apply({"type": "close", "company": "BPM"})
    g.apply({"type": "close", "company": "BSE"})
    assert sorted(g.snapshot()["corporations"]["Synergistic"]["companies"]) == ["DSB", "MS"]
    assert g.snapshot()["corporations"]["Synergistic"]["income"] == 6
    g.apply({"type": "done", "phase": 4})
    assert ends[(5, 5)]["corporations"]["Synergistic"]["cash"] == 20 + 6


def test_end_card_front_only_the_dsb_still_loses_2():
    g = synergistic(None, companies=["DSB"])
    assert g.snapshot()["corporations"]["Synergistic"]["income"] == -2


def test_end_card_front_loss_of_10_is_paid_from_the_treasury():
    g = synergistic(None, cash=10)
    ends = phase_ends(g)
    enter_phase(g, 5)
    assert ends[(5, 5)]["corporations"]["Synergistic"]["cash"] == 0


def test_corporation_that_cannot_pay_its_loss_goes_bankrupt():
    g = synergistic(None, cash=9)
    ends = phase_ends(g)
    enter_phase(g, 5)
    after = ends[(5, 5)]
    assert "Synergistic" not in after["corporations"]
    assert after["players"]["Amy"]["shares"].get("Synergistic", 0) == 0
    assert 20 not in g.price_holder  # its share price card is back in the row
    # its charter can be used again
    assert "Synergistic" in g.free_charters()


def test_end_card_back_costs_10_for_red_to_green():
    """Phase 7 flips the end card once no unowned company is left."""
    g = synergistic(None)
    enter_phase(g, 7)
    snap = g.snapshot()
    assert snap["end_card_flipped"] is True
    assert snap["cost_of_ownership"] == {**NONE, "red": 10, "orange": 10, "yellow": 10, "green": 10}
    assert snap["corporations"]["Synergistic"]["income"] == 18 - 40


def test_foreign_investor_closes_companies_with_negative_income_only():
    """Green on top: BSE 1 - 2 < 0 is closed, KME 2 - 2 = 0 is fine, WT (orange) has no cost."""
    g = synergistic("green", extra=[("BSE", FI), ("KME", FI), ("WT", FI)], companies=["DSB"])
    ends = phase_ends(g)
    enter_phase(g, 4)
    assert sorted(ends[(5, 4)]["foreign_investor"]["companies"]) == ["KME", "WT"]


def test_receivership_closes_red_at_4_but_orange_only_at_7():
    g = synergistic("blue", companies=["MHE", "WT", "DSB"], shares={}, bank=2)
    ends = phase_ends(g)
    enter_phase(g, 4)
    assert sorted(ends[(5, 4)]["corporations"]["Synergistic"]["companies"]) == ["DSB", "WT"]

    g = synergistic(None, companies=["MHE", "WT", "DSB"], shares={}, bank=2)
    ends = phase_ends(g)
    enter_phase(g, 4)
    assert ends[(5, 4)]["corporations"]["Synergistic"]["companies"] == ["DSB"]


def test_receivership_does_not_close_at_cost_2():
    g = synergistic("green", companies=["BSE", "MHE"], shares={}, bank=2)
    ends = phase_ends(g)
    enter_phase(g, 4)
    assert sorted(ends[(5, 4)]["corporations"]["Synergistic"]["companies"]) == ["BSE", "MHE"]


def test_receivership_keeps_the_company_with_the_highest_face_value():
    g = synergistic("blue", companies=["BSE", "MHE", "KME"], shares={}, bank=2)
    ends = phase_ends(g)
    enter_phase(g, 4)
    assert ends[(5, 4)]["corporations"]["Synergistic"]["companies"] == ["MHE"]


def test_junkyard_scrappers_in_receivership_get_the_scrapping_bonus():
    g = synergistic("blue", companies=["BSE", "KME", "DSB"], shares={}, bank=2, name="Junkyard Scrappers")
    ends = phase_ends(g)
    enter_phase(g, 4)
    end4 = ends[(5, 4)]["corporations"]["Junkyard Scrappers"]
    assert end4["companies"] == ["DSB"]
    assert end4["cash"] == 20 + 2 * 1 + 2 * 2  # twice the printed incomes of the BSE and the KME


def test_junkyard_scrappers_bonus_when_its_president_closes():
    g = synergistic("yellow", companies=["AKE", "DSB"], name="Junkyard Scrappers")
    enter_phase(g, 4)
    ends = phase_ends(g)
    g.apply({"type": "close", "company": "AKE"})
    # with one company left nobody can close anything more: phase 4 ends by itself
    assert ends[(5, 4)]["corporations"]["Junkyard Scrappers"]["cash"] == 20 + 2 * 2  # twice the AKE's income 2


def test_player_must_close_to_pay_a_negative_income():
    g = synergistic("green", companies=["DSB"], extra=[("BSE", "Brian")])
    g.players["Brian"].cash = 0  # BSE: 1 - 2 = -1 and no money to pay it
    enter_phase(g, 4)
    assert not any(item["type"] == "done" for item in g.legal_actions())
    before = g.snapshot()
    must = "Brian must close companies first: 0 money and -1 income (a player must be able to pay a negative income)."
    with pytest.raises(RuleError) as err:
        g.apply({"type": "done", "phase": 4})
    assert err.value.message == must
    with pytest.raises(RuleError) as err:
        g.apply({"type": "player_done", "player": "Brian", "phase": 4})
    assert err.value.message == must
    assert g.snapshot() == before
    g.apply({"type": "close", "company": "BSE"})
    g.apply({"type": "done", "phase": 4})
    assert g.phase != 4


def test_player_who_can_pay_a_negative_income_need_not_close():
    g = synergistic("green", companies=["DSB"], extra=[("BSE", "Brian")])
    g.players["Brian"].cash = 1
    ends = phase_ends(g)
    enter_phase(g, 4)
    g.apply({"type": "done", "phase": 4})
    assert ends[(5, 5)]["players"]["Brian"]["cash"] == 0


# ---------------------------------------------------------------- bankruptcy ahead (issue 37)
# End card front (red, orange, yellow cost 7): Synergistic with the DSB (yellow, income 5) and the
# BSE (red, income 1), no synergy between them and so no pair bonus: 5 - 7 + 1 - 7 = -8.  Closing
# the BSE leaves 5 - 7 = -2.  With 3 in its treasury it cannot pay 8, but can pay 2.
def test_before_the_income_phase_a_corporation_that_cannot_pay_is_named_with_the_closing_that_saves_it():
    g = synergistic(None, companies=["DSB", "BSE"], cash=3)
    enter_phase(g, 4)
    assert g.next == {"for": "closing"}
    (row,) = bankrupt_ahead(g)
    assert row == {
        "corporation": "Synergistic", "president": "Amy", "cash": 3, "income": -8,
        "close": ["BSE"], "cash_after": 3, "income_after": -2,
    }  # fmt: skip
    # the advice holds: closing the BSE (nothing else can be closed then, so phase 4 ends), it
    # pays 2 in phase 5 and stays
    ends = phase_ends(g)
    g.apply({"type": "close", "company": "BSE"})
    assert ends[(5, 5)]["corporations"]["Synergistic"]["cash"] == 3 - 2


def test_when_no_closing_saves_it_the_bankruptcy_ahead_says_so_and_happens():
    g = synergistic(None, companies=["DSB", "BSE"], cash=1)  # closing the BSE leaves -2: 1 cannot pay it
    enter_phase(g, 4)
    (row,) = bankrupt_ahead(g)
    assert (row["income"], row["close"]) == (-8, None)
    ends = phase_ends(g)
    g.apply({"type": "done", "phase": 4})
    assert "Synergistic" not in ends[(5, 5)]["corporations"]


# ---------------------------------------------------------------- closing, as the log and the banker say it
def test_the_log_names_each_automatic_closing_with_its_reason_and_bonus():
    """Blue on top: red and orange cost 4.  The foreign investor closes the BSE (1 - 4 < 0); the
    receiver of Junkyard Scrappers closes its reds, the BME and the KME (cost 4), the BME first
    (lower face value), each with the scrapping bonus of twice its printed income (1, 2)."""
    g = synergistic(
        "blue", companies=["KME", "BME", "DSB"], shares={}, bank=2, name="Junkyard Scrappers", extra=[("BSE", FI)]
    )
    enter_phase(g, 4)
    assert g._auto[:3] == [
        "The foreign investor closes the BSE (income 1, cost 4)",
        "Junkyard Scrappers (in receivership) closes the BME and receives a scrapping bonus of 2",
        "Junkyard Scrappers (in receivership) closes the KME and receives a scrapping bonus of 4",
    ]
    assert g._moves[:2] == [
        ("Bank", "Junkyard Scrappers", 2, "scrapping bonus for the BME"),
        ("Bank", "Junkyard Scrappers", 4, "scrapping bonus for the KME"),
    ]


def test_a_closing_at_the_table_is_written_with_its_bonus():
    g = synergistic("yellow", companies=["AKE", "DSB"], name="Junkyard Scrappers", extra=[("BSE", "Brian")])
    enter_phase(g, 4)
    assert [i for i in g.legal_actions() if i["type"] == "close"] == [
        {"type": "close", "company": "BSE", "owner": "Brian", "player": "Brian"},
        {"type": "close", "company": "AKE", "owner": "Junkyard Scrappers", "player": "Amy"},
        {"type": "close", "company": "DSB", "owner": "Junkyard Scrappers", "player": "Amy"},
    ]
    g.apply({"type": "close", "company": "BSE"})
    assert g.journal[-1]["text"] == "Brian closes the BSE"
    g.apply({"type": "close", "company": "AKE"})
    assert g.journal[-1]["text"] == "Junkyard Scrappers closes the AKE and receives a scrapping bonus of 4"
    assert g.journal[-1]["moves"][0] == ("Bank", "Junkyard Scrappers", 4, "scrapping bonus for the AKE")


def test_closing_refusals_say_why():
    g = table(PLAYERS, turn=5)
    corporation(g, "Synergistic", price=20, companies=["DSB"], cash=20, shares={"Amy": 1}, bank=1)
    corporation(g, "Doppler AG", price=16, companies=["MHE", "BPM"], cash=0, shares={}, bank=2)
    for abbr, owner in (("BSE", "Brian"), ("KME", FI), ("WT", "available")):
        place(g, abbr, owner)
    drawn_until(g, "green")
    enter_phase(g, 4)
    for event, message in (
        ({"type": "close", "company": "XYZ"}, "There is no company 'XYZ'."),
        ({"type": "close", "company": "WT"}, "The WT is not owned by anyone."),
        ({"type": "close", "company": "KME"}, "The foreign investor closes its companies by itself."),
        (
            {"type": "close", "company": "MHE"},
            "Doppler AG is in receivership; the receiver closes companies by itself.",
        ),
        (
            {"type": "close", "company": "DSB"},
            "The DSB is the only company of Synergistic; a corporation keeps at least one.",
        ),
    ):
        with pytest.raises(RuleError) as refused:
            g.apply(event)
        assert refused.value.message == message
    g.apply({"type": "done", "phase": 4})
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "close", "company": "BSE"})
    assert refused.value.message.startswith("Companies are closed in phase 4 (closing); it is phase ")


def test_a_receiver_that_cannot_pay_is_named_with_no_closing():
    """In receivership nobody may close its companies: its row says so (close None, the same cash
    and income after).  End card front: the BSE 1 - 7 = -6 with 3 in the treasury."""
    g = synergistic(None, companies=["BSE"], cash=3, shares={}, bank=2, extra=[("KME", "Amy")])  # Amy may close it
    enter_phase(g, 4)
    assert bankrupt_ahead(g) == [
        {
            "corporation": "Synergistic",
            "president": None,
            "cash": 3,
            "income": -6,
            "close": None,
            "cash_after": 3,
            "income_after": -6,
        }
    ]


def test_the_scrapping_bonus_counts_in_the_fewest_closings():
    """End card front (red, orange, yellow 7; green nothing): Junkyard Scrappers with the KME and
    the BPM (2 - 7 = -5 each), the BY (3 - 7 = -4) and the SZD (7) earns -7 with nothing in its
    treasury.  Closing the KME leaves -2 and brings twice its income, 4: enough, so one closing
    does; the BPM would do as well, the first found is kept (without the bonus it would take two)."""
    g = synergistic(None, companies=["KME", "BPM", "BY", "SZD"], cash=0, name="Junkyard Scrappers")
    enter_phase(g, 4)
    (row,) = bankrupt_ahead(g)
    assert (row["income"], row["close"], row["cash_after"], row["income_after"]) == (-7, ["KME"], 4, -2)


def test_automatic_closings_go_cheapest_first_and_every_receiver_closes():
    """Blue on top (red and orange cost 4): the foreign investor closes its MHE (8) before its BY
    (12); Doppler AG is run by Amy and closes nothing by itself, but the receiver of Synergistic
    after it closes its reds, the KME (5) before the AKE (6), keeping the DSB."""
    g = table(PLAYERS, turn=5)
    corporation(g, "Doppler AG", price=24, companies=["WT", "BD"], cash=20, shares={"Amy": 1}, bank=1)
    corporation(g, "Synergistic", price=20, companies=["AKE", "KME", "DSB"], cash=20, shares={}, bank=2)
    for abbr in ("BY", "MHE"):
        place(g, abbr, FI)
    drawn_until(g, "blue")
    enter_phase(g, 4)
    assert g._auto[:4] == [
        "The foreign investor closes the MHE (income 2, cost 4)",
        "The foreign investor closes the BY (income 3, cost 4)",
        "Synergistic (in receivership) closes the KME",
        "Synergistic (in receivership) closes the AKE",
    ]
