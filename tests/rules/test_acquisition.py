"""Phase 3, acquisition: prices, the foreign investor, interventions and receivers.

Canonical rules, phase 3 (abridged): corporations buy companies from other corporations,
players or the foreign investor, one company per transaction, at a price within the
printed span; the transferred company and money cannot be used for further transactions in
the phase ("A Company turned vertical may be the only Company a Corporation owns"). "The
Foreign Investor only sells at the maximum allowed price ... Any Corporation with a higher
Share Price and enough Money available may then immediately intervene ... If more than one
eligible Corporation wants to intervene, the one with the highest Share Price has priority.
If there is no intervention, the announcing Corporation must buy ... Corporations in
Receivership never sell Companies and only buy from the Foreign Investor ...: The
Corporation in Receivership with the highest Share Price tries to buy the most expensive
Company it can afford. Corporations not in Receivership may intervene as usual. Repeat until
the Corporation cannot afford to buy any more Companies from the Foreign Investor. Then
repeat the whole procedure for the Corporation in Receivership that has the next highest
Share Price ... the Overseas Trading Corporation is considered to have the highest Share
Price and pays only Face Value for Companies bought from the Foreign Investor."
"""

from __future__ import annotations

import pytest

from assistant.rules import RuleError

from .builders import FI, corporation, drawn_until, enter_phase, phase_ends, place, table

PLAYERS = ["Amy", "Brian", "Crystal"]
PRUSSIAN, DOPPLER, OVERSEAS, STOCK = "Prussian Railway", "Doppler AG", "Overseas Trading", "Stock Masters"


def receiver_position(other=DOPPLER, other_price=16, other_cash=30):
    """Prussian Railway in receivership (12, cash 20); another corporation run by Amy; the
    foreign investor owns the WT (span 6-14, face 11) and the KME (3-7, face 5)."""
    g = table(PLAYERS, turn=4)
    corporation(g, PRUSSIAN, price=12, companies=["BSE"], cash=20, shares={}, bank=2)
    corporation(g, other, price=other_price, companies=["BY"], cash=other_cash, shares={"Amy": 1}, bank=1)
    place(g, "WT", FI)
    place(g, "KME", FI)
    drawn_until(g, "orange")
    return enter_phase(g, 3)


def menu_of(g, kind):
    return [i for i in g.legal_actions() if i["type"] == kind]


# ---------------------------------------------------------------------------- receivers and interventions


def test_receiver_announces_the_most_expensive_company_and_a_higher_corporation_may_intervene():
    g = receiver_position()
    assert g.next == {"for": "intervention", "company": "WT", "announced_by": PRUSSIAN}
    items = menu_of(g, "acquire")
    assert [(i["corporation"], i["company"], i["min"], i["max"], i["announced_by"]) for i in items] == [
        (DOPPLER, "WT", 14, 14, PRUSSIAN)
    ]
    assert menu_of(g, "no_intervention") == [
        {
            "type": "no_intervention",
            "company": "WT",
            "announced_by": PRUSSIAN,
            "corporation": DOPPLER,
            "president": "Amy",
            "price": 14,
            "after": [],  # a receiver's purchase: any willing intervener may take it (the transcript form)
        },
        {"type": "no_intervention", "company": "WT", "announced_by": PRUSSIAN},
    ]
    # only these two are possible now
    with pytest.raises(RuleError):
        g.apply({"type": "done", "phase": 3})
    with pytest.raises(RuleError):
        g.apply({"type": "acquire", "corporation": DOPPLER, "company": "KME", "price": 7})


def test_intervention_buys_for_the_intervener_and_the_receiver_goes_on():
    g = receiver_position()
    g.apply({"type": "acquire", "corporation": DOPPLER, "company": "WT", "price": 14, "announced_by": PRUSSIAN})
    assert g.company_owner_name("WT") == DOPPLER and g.corps[DOPPLER].cash == 16 and g.fi.cash == 4 + 14
    # the receiver still has 20: next it announces the KME (7); Doppler (16 left) may intervene
    assert g.next == {"for": "intervention", "company": "KME", "announced_by": PRUSSIAN}
    g.apply({"type": "no_intervention", "company": "KME"})
    assert g.company_owner_name("KME") == PRUSSIAN and g.corps[PRUSSIAN].cash == 13
    # now nobody can act in phase 3: no player owns a company, the receiver never sells, Doppler
    # AG keeps at least one company and the foreign investor has none left; the phase ends by
    # itself, and phase 4 waits for Amy (Doppler AG owns two companies and may close one)
    assert g.next == {"for": "closing"}
    assert "Nobody can act any more in this phase: Acquisitions done" in g.journal[-1]["auto"]
    assert g.transcript_events()[-1] == {"type": "done", "phase": 3}


def test_no_intervention_means_the_receiver_buys_at_the_maximum():
    g = receiver_position()
    g.apply({"type": "no_intervention", "company": "WT"})
    assert g.company_owner_name("WT") == PRUSSIAN and g.corps[PRUSSIAN].cash == 6
    # 6 left: the KME (7) is too expensive, the receiver is done
    assert g.next == {"for": "acquisition"}
    assert g.owner["KME"] is g.fi


def test_lower_share_price_cannot_intervene_so_the_receiver_buys_at_once():
    g = receiver_position(other=STOCK, other_price=10)
    assert g.company_owner_name("WT") == PRUSSIAN and g.corps[PRUSSIAN].cash == 6
    assert g.next == {"for": "acquisition"}
    assert not any(e["type"] == "acquire" for e in g.events)  # nobody was asked


def test_overseas_trading_intervenes_from_a_lower_price_and_pays_face_value():
    g = receiver_position(other=OVERSEAS, other_price=10)
    assert g.next == {"for": "intervention", "company": "WT", "announced_by": PRUSSIAN}
    item = menu_of(g, "acquire")[0]
    assert (item["corporation"], item["min"], item["max"]) == (OVERSEAS, 11, 11)  # WT's face value
    with pytest.raises(RuleError):
        g.apply({"type": "acquire", "corporation": OVERSEAS, "company": "WT", "price": 14, "announced_by": PRUSSIAN})
    g.apply({"type": "acquire", "corporation": OVERSEAS, "company": "WT", "price": 11, "announced_by": PRUSSIAN})
    assert g.corps[OVERSEAS].cash == 30 - 11 and g.company_owner_name("WT") == OVERSEAS


def test_intervener_needs_enough_money():
    g = receiver_position(other_cash=10)  # Doppler has 10 < 14: cannot intervene for the WT
    assert g.company_owner_name("WT") == PRUSSIAN  # bought without asking
    assert g.next == {"for": "acquisition"}


def test_receiver_with_the_higher_share_price_goes_first():
    g = table(PLAYERS, turn=4)
    corporation(g, PRUSSIAN, price=12, companies=["BSE"], cash=20, shares={}, bank=2)
    corporation(g, STOCK, price=14, companies=["BME"], cash=20, shares={}, bank=2)
    place(g, "WT", FI)
    drawn_until(g, "orange")
    enter_phase(g, 3)
    assert g.company_owner_name("WT") == STOCK


def test_overseas_trading_in_receivership_goes_first_and_pays_face_value():
    g = table(PLAYERS, turn=4)
    corporation(g, STOCK, price=14, companies=["BME"], cash=20, shares={}, bank=2)
    corporation(g, OVERSEAS, price=10, companies=["BSE"], cash=11, shares={}, bank=2)
    place(g, "WT", FI)
    drawn_until(g, "orange")
    ends = phase_ends(g)
    enter_phase(g, 3)
    end3 = ends[(4, 3)]["corporations"]
    assert end3[OVERSEAS]["companies"] == ["BSE", "WT"] and end3[OVERSEAS]["cash"] == 0


def test_receivers_never_sell():
    g = receiver_position()
    g.apply({"type": "no_intervention", "company": "WT"})
    assert not any(i["company"] in ("BSE", "WT") for i in menu_of(g, "acquire"))
    with pytest.raises(RuleError):
        g.apply({"type": "acquire", "corporation": DOPPLER, "company": "BSE", "price": 2})


def test_receiver_cannot_be_told_to_buy():
    """Receivers only buy from the foreign investor, by themselves at the start of the phase."""
    g = table(PLAYERS, turn=4)
    corporation(g, PRUSSIAN, price=12, companies=["BSE"], cash=20, shares={}, bank=2)
    corporation(g, STOCK, price=10, companies=["BY"], cash=5, shares={"Amy": 1}, bank=1)
    place(g, "KME", "Crystal")
    drawn_until(g, "orange")
    enter_phase(g, 3)
    assert g.next == {"for": "acquisition"}
    with pytest.raises(RuleError) as err:
        g.apply({"type": "acquire", "corporation": PRUSSIAN, "company": "KME", "price": 5})
    assert "receivership" in err.value.message


# ---------------------------------------------------------------------------- ordinary purchases


def trading_position(seller_cash=0, buyer_cash=40):
    g = table(PLAYERS, turn=4)
    corporation(g, "Vintage Machinery", price=14, companies=["BPM"], cash=seller_cash, shares={"Amy": 1}, bank=1)
    corporation(g, "Junkyard Scrappers", price=13, companies=["MHE"], cash=buyer_cash, shares={"Brian": 1}, bank=1)
    place(g, "KME", "Crystal")
    place(g, "BSE", FI)
    drawn_until(g, "orange")
    return enter_phase(g, 3)


def test_span_is_inclusive_and_limited_by_the_treasury():
    g = trading_position(buyer_cash=5)
    item = next(i for i in menu_of(g, "acquire") if i["company"] == "KME" and i["corporation"] == "Junkyard Scrappers")
    assert (item["min"], item["max"]) == (3, 5)  # span 3-7, but only 5 in the treasury
    g.apply({"type": "acquire", "corporation": "Junkyard Scrappers", "company": "KME", "price": 3})
    assert g.players["Crystal"].cash == 33


@pytest.mark.parametrize("price", [3, 7])
def test_both_ends_of_the_span(price):
    g = trading_position()
    g.apply({"type": "acquire", "corporation": "Junkyard Scrappers", "company": "KME", "price": price})
    assert g.corps["Junkyard Scrappers"].cash == 40 - price


def test_foreign_investor_sells_at_the_maximum():
    g = trading_position()
    item = next(i for i in menu_of(g, "announce") if i["company"] == "BSE" and i["corporation"] == "Junkyard Scrappers")
    assert (item["min"], item["max"]) == (3, 3)
    g.apply({"type": "acquire", "corporation": "Junkyard Scrappers", "company": "BSE", "price": 3})
    assert g.fi.cash == 4 + 3


def test_buy_first_then_sell_the_original_company():
    """ "a corporation that owns only one subsidiary company in the beginning of the phase
    could first buy another company (which is thereby turned vertical) and then sell the
    company it originally owned"."""
    g = trading_position(seller_cash=10)
    g.apply({"type": "acquire", "corporation": "Vintage Machinery", "company": "KME", "price": 5})
    g.apply({"type": "acquire", "corporation": "Junkyard Scrappers", "company": "BPM", "price": 8})
    assert g.corps["Vintage Machinery"].companies == ["KME"]  # its only company, bought this phase
    # and the KME cannot move again now
    with pytest.raises(RuleError):
        g.apply({"type": "acquire", "corporation": "Junkyard Scrappers", "company": "KME", "price": 5})


def test_the_swap_example_does_not_work_with_the_same_money():
    """ "Vintage Machinery buys MHE for 8 from Junkyard Scrappers, and at the same time
    Junkyard Scrappers buys the BPM from Vintage Machinery for 8, too, so we just swap
    companies and no money - don't work": the 8 received cannot pay for the BPM."""
    g = table(PLAYERS, turn=4)
    corporation(g, "Vintage Machinery", price=14, companies=["BPM", "AKE"], cash=8, shares={"Amy": 1}, bank=1)
    corporation(g, "Junkyard Scrappers", price=13, companies=["MHE", "BSE"], cash=0, shares={"Brian": 1}, bank=1)
    drawn_until(g, "orange")
    enter_phase(g, 3)
    g.ends_idle_phases = False  # as a transcript replays: else nobody can act after the sale and phase 3 ends
    g.apply({"type": "acquire", "corporation": "Vintage Machinery", "company": "MHE", "price": 8})
    assert g.corps["Junkyard Scrappers"].cash == 8
    assert not any(i["corporation"] == "Junkyard Scrappers" for i in menu_of(g, "acquire"))
    with pytest.raises(RuleError) as err:
        g.apply({"type": "acquire", "corporation": "Junkyard Scrappers", "company": "BPM", "price": 8})
    assert "0" in err.value.message and "8" in err.value.message


def test_phase_3_ends_by_itself_without_money_for_any_minimum_price():
    g = table(PLAYERS, turn=4)
    corporation(g, "Vintage Machinery", price=14, companies=["BPM"], cash=0, shares={"Amy": 1}, bank=1)
    place(g, "KME", "Crystal")
    enter_phase(g, 3)
    assert g.phase == 4


def test_phase_3_ends_by_itself_when_every_corporation_is_in_receivership():
    g = table(PLAYERS, turn=4)
    corporation(g, "Vintage Machinery", price=14, companies=["BPM"], cash=50, shares={}, bank=2)
    place(g, "KME", "Crystal")
    enter_phase(g, 3)
    assert g.phase == 4 and g.company_owner_name("KME") == "Crystal"


def test_intervention_in_an_announced_purchase_of_a_corporation_with_a_president():
    """An ``acquire`` with ``announced_by`` naming a corporation run by a player: the buyer
    needs priority over the announcer."""
    g = trading_position(seller_cash=20)  # Vintage 14 > Junkyard 13
    g.apply(
        {
            "type": "acquire",
            "corporation": "Vintage Machinery",
            "company": "BSE",
            "price": 3,
            "announced_by": "Junkyard Scrappers",
        }
    )
    assert g.company_owner_name("BSE") == "Vintage Machinery"
    g = trading_position(seller_cash=20)
    with pytest.raises(RuleError):
        g.apply(
            {
                "type": "acquire",
                "corporation": "Junkyard Scrappers",
                "company": "BSE",
                "price": 3,
                "announced_by": "Vintage Machinery",
            }
        )


# ---------------------------------------------------------------------------- announcements and interventions
# "If there is no intervention, the announcing Corporation must buy the specified Company":
# so only a corporation that can buy may announce (no fake announcements), and the menu lists
# every intervention in every purchase that may be announced.

VINTAGE, JUNKYARD = "Vintage Machinery", "Junkyard Scrappers"


def announcement_position(announcer_cash, announcer_companies=("MHE",)):
    """Junkyard Scrappers (13, Brian) may announce buying the foreign investor's WT (max 14);
    Vintage Machinery (14, Amy, 40) and Doppler AG (16, Crystal, 40) have priority over it,
    Stock Masters (12, Amy, 40) has not; Overseas Trading (10, Brian, 40) comes first of all."""
    g = table(PLAYERS, turn=4)
    corporation(
        g, JUNKYARD, price=13, companies=list(announcer_companies), cash=announcer_cash, shares={"Brian": 1}, bank=1
    )
    corporation(g, VINTAGE, price=14, companies=["BPM"], cash=40, shares={"Amy": 1}, bank=1)
    corporation(g, DOPPLER, price=16, companies=["BY"], cash=40, shares={"Crystal": 1}, bank=1)
    corporation(g, STOCK, price=12, companies=["BD"], cash=40, shares={"Amy": 1}, bank=1)
    corporation(g, OVERSEAS, price=10, companies=["BSE"], cash=40, shares={"Brian": 1}, bank=1)
    place(g, "WT", FI)
    drawn_until(g, "orange")
    return enter_phase(g, 3)


def interventions_in(g, announcer, company="WT"):
    """The corporations the menu asks once ``announcer`` announces buying ``company``, in the
    order they answer, each with what it would pay ([] if it cannot announce it)."""
    h = g.clone()
    try:
        h.apply({"type": "announce", "corporation": announcer, "company": company})
    except RuleError:
        return []
    return [
        (i["corporation"], i["price"], i["price"])
        for i in menu_of(h, "no_intervention")
        if i.get("corporation") and i["company"] == company
    ]


def test_menu_lists_every_intervention_with_its_price_best_priority_first():
    g = announcement_position(announcer_cash=14)
    # WT: span 6-14, face value 11; Overseas Trading pays face value, the others the maximum
    assert interventions_in(g, JUNKYARD) == [(OVERSEAS, 11, 11), (DOPPLER, 14, 14), (VINTAGE, 14, 14)]
    own = next(i for i in menu_of(g, "announce") if i["corporation"] == JUNKYARD and i["company"] == "WT")
    assert (own["min"], own["max"], own["may_intervene"]) == (14, 14, [OVERSEAS, DOPPLER, VINTAGE])
    # Stock Masters (12) announcing: everyone but Overseas Trading's announcement has someone above
    assert [c for c, _, _ in interventions_in(g, STOCK)] == [OVERSEAS, DOPPLER, VINTAGE, JUNKYARD]
    assert interventions_in(g, OVERSEAS) == []  # nobody comes before Overseas Trading
    g.apply({"type": "announce", "corporation": JUNKYARD, "company": "WT"})
    assert g.next == {"for": "intervention", "company": "WT", "announced_by": JUNKYARD}
    # the interveners answer in priority order: only Overseas Trading may take it now
    assert [i["corporation"] for i in menu_of(g, "acquire")] == [OVERSEAS]
    g.apply({"type": "no_intervention", "company": "WT", "corporation": OVERSEAS})
    item = next(i for i in menu_of(g, "acquire") if i.get("announced_by") == JUNKYARD)
    assert item == {
        "type": "acquire",
        "corporation": DOPPLER,
        "company": "WT",
        "seller": "the foreign investor",
        "president": "Crystal",
        "min": 14,
        "max": 14,
        "announced_by": JUNKYARD,
    }
    g.apply({"type": "acquire", "corporation": DOPPLER, "company": "WT", "price": 14, "announced_by": JUNKYARD})
    assert g.company_owner_name("WT") == DOPPLER and g.corps[DOPPLER].cash == 26 and g.corps[JUNKYARD].cash == 14
    assert (
        g.journal[-1]["text"]
        == f"{DOPPLER} buys the WT from the foreign investor for 14 (intervening in Junkyard Scrappers' announced purchase)"
    )


def test_fake_announcement_is_refused_and_changes_nothing():
    g = announcement_position(announcer_cash=13)  # 13 < 14: Junkyard cannot buy the WT
    assert interventions_in(g, JUNKYARD) == []
    assert not any(i["corporation"] == JUNKYARD and i["company"] == "WT" for i in menu_of(g, "acquire"))
    before = g.snapshot()
    with pytest.raises(RuleError) as err:
        g.apply({"type": "acquire", "corporation": DOPPLER, "company": "WT", "price": 14, "announced_by": JUNKYARD})
    assert err.value.message == (
        f"{JUNKYARD} cannot announce buying the WT: it has only 13, not the 14 the foreign investor asks, "
        "and an announcing corporation must be able to buy (no fake announcements)."
    )
    assert err.value.rule == "phase-3-acquisition"
    assert g.snapshot() == before and g.events == []
    # Doppler may still buy the WT on its own announcement
    g.apply({"type": "acquire", "corporation": DOPPLER, "company": "WT", "price": 14})
    assert g.company_owner_name("WT") == DOPPLER


def test_money_received_in_the_phase_does_not_make_an_announcement_real():
    # Junkyard has 10 and sells the KME (span 3-7) to Vintage for 7: 17 in its treasury, but the 7
    # received in this phase cannot be used, so it cannot pay 14 for the WT
    g = announcement_position(announcer_cash=10, announcer_companies=("MHE", "KME"))
    assert interventions_in(g, JUNKYARD) == []  # 10 < 14 before the sale too
    g.apply({"type": "acquire", "corporation": VINTAGE, "company": "KME", "price": 7})
    assert g.corps[JUNKYARD].cash == 17
    assert interventions_in(g, JUNKYARD) == []
    with pytest.raises(RuleError) as err:
        g.apply({"type": "acquire", "corporation": DOPPLER, "company": "WT", "price": 14, "announced_by": JUNKYARD})
    assert "only 10 not received in this phase, not the 14" in err.value.message
    assert "no fake announcements" in err.value.message


def test_intervention_needs_priority_over_the_announcer_and_is_no_self_intervention():
    g = announcement_position(announcer_cash=14)
    for buyer, price in ((STOCK, 14), (JUNKYARD, 14)):
        with pytest.raises(RuleError):
            g.apply(
                {"type": "acquire", "corporation": buyer, "company": "WT", "price": price, "announced_by": JUNKYARD}
            )
    assert g.events == []


def test_interveners_answer_in_priority_order_while_an_announcement_waits():
    """Rulebook (Stars, turn 2, phase 3): "ask each president of a corporation with a higher
    share price if they want to intervene ... If more than one corporation wants to intervene,
    again the one with higher share price has priority"; "Overseas Trading always has first
    priority (as if its share price is higher than any other)".  Junkyard Scrappers (13)
    announces the WT: Overseas Trading (10, first by its ability), then Doppler AG (16), then
    Vintage Machinery (14) answer, in that order."""
    g = announcement_position(announcer_cash=14)
    g.apply({"type": "announce", "corporation": JUNKYARD, "company": "WT"})
    vintage = {"type": "acquire", "corporation": VINTAGE, "company": "WT", "price": 14, "announced_by": JUNKYARD}
    with pytest.raises(RuleError) as err:
        g.apply(vintage)
    assert err.value.message.startswith("Overseas Trading and Doppler AG answer first")
    assert len(g.events) == 1 and g.owner["WT"] is g.fi  # nothing stored, nothing moved
    g.apply({"type": "no_intervention", "company": "WT", "corporation": OVERSEAS})
    with pytest.raises(RuleError) as err:
        g.apply(vintage)
    assert err.value.message.startswith("Doppler AG answers first")
    # a corporation further down may let it go early; that does not let it jump the queue
    g.apply({"type": "no_intervention", "company": "WT", "corporation": DOPPLER})
    g.apply(vintage)
    assert g.company_owner_name("WT") == VINTAGE and g.corps[VINTAGE].cash == 40 - 14
    # written as the table's transcript: only the intervention (declined offers are no events)
    assert g.transcript_events() == [vintage]


def test_an_intervention_with_nothing_pending_says_those_ahead_declined_aloud():
    """The transcript form (FORMAT.md: "Offers that were declined are not events"): with no
    announcement waiting, an ``acquire`` with ``announced_by`` by Vintage Machinery (the lowest
    of the three interveners) says that Overseas Trading and Doppler AG, asked first at the
    table, declined: it is accepted, so every transcript replays."""
    g = announcement_position(announcer_cash=14)
    g.apply({"type": "acquire", "corporation": VINTAGE, "company": "WT", "price": 14, "announced_by": JUNKYARD})
    assert g.company_owner_name("WT") == VINTAGE
    with pytest.raises(RuleError):  # the WT changed hands: Doppler's intervention is too late
        g.apply({"type": "acquire", "corporation": DOPPLER, "company": "WT", "price": 14, "announced_by": JUNKYARD})


# ---------------------------------------------------------------------------- purchases in words and money
JUNKYARD_ = "Junkyard Scrappers"


def test_a_purchase_is_written_and_paid_to_the_seller():
    g = trading_position()
    g.apply({"type": "acquire", "corporation": JUNKYARD_, "company": "KME", "price": 5})
    assert g.journal[-1]["text"] == "Junkyard Scrappers buys the KME from Crystal for 5"
    assert g.journal[-1]["moves"] == ((JUNKYARD_, "Crystal", 5, "buys the KME"),)
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "acquire", "corporation": "Vintage Machinery", "company": "KME", "price": 5})
    assert refused.value.message == "The KME already changed hands in this phase."


def test_a_receivers_purchase_is_logged():
    """Prussian Railway (12) in receivership, nobody above it: it buys the foreign investor's WT at
    its maximum, 14, by itself."""
    g = receiver_position(other_price=10)
    assert "Prussian Railway (in receivership) buys the WT from the foreign investor for 14" in g._auto


def test_purchase_refusals_say_why():
    """The KME's span is 3-7; the BSE's maximum 3, the foreign investor's price."""
    g = trading_position(buyer_cash=5)
    for event, message in (
        ({"corporation": JUNKYARD_, "company": "XYZ", "price": 5}, "There is no company 'XYZ'."),
        (
            {"corporation": JUNKYARD_, "company": "WT", "price": 5},
            "The WT is not owned by anyone, so it cannot be bought in phase 3 (acquisition).",
        ),
        ({"corporation": JUNKYARD_, "company": "MHE", "price": 5}, "Junkyard Scrappers already owns the MHE."),
        (
            {"corporation": JUNKYARD_, "company": "BPM", "price": 5},
            "The BPM is the only company of Vintage Machinery; a corporation keeps at least one.",
        ),
        (
            {"corporation": JUNKYARD_, "company": "BSE", "price": 2},
            "The foreign investor sells the BSE to Junkyard Scrappers only at 3 (the maximum of its price span).",
        ),
        ({"corporation": JUNKYARD_, "company": "KME", "price": 2}, "2 is outside the price span 3–7 of the KME."),
        (
            {"corporation": JUNKYARD_, "company": "KME", "price": 6},
            "Junkyard Scrappers has only 5 available for the KME, not 6.",
        ),
    ):
        with pytest.raises(RuleError) as refused:
            g.apply({"type": "acquire", **event})
        assert refused.value.message == message, event
    g.received[JUNKYARD_] = 1
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "acquire", "corporation": JUNKYARD_, "company": "KME", "price": 5})
    assert refused.value.message == (
        "Junkyard Scrappers has only 4 available for the KME, not 5 (money received in this phase cannot be spent in it)."
    )


def test_a_receiver_is_not_told_to_buy_and_nothing_is_bought_outside_phase_3():
    g = receiver_position(other_price=10)
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "acquire", "corporation": PRUSSIAN, "company": "KME", "price": 7})
    assert refused.value.message == (
        "Prussian Railway is in receivership: the receiver only buys from the foreign investor, by itself at the "
        "start of the phase."
    )
    g.phase = 4
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "acquire", "corporation": DOPPLER, "company": "KME", "price": 7})
    assert refused.value.message == "Companies are bought in phase 3 (acquisition); it is phase 4 now."
