"""The live events of the table's protocol (docs/live-events.md), in all three rulesets.

* ``announce``: a purchase from the foreign investor is announced; the game waits while a
  corporation with priority has the money to intervene ("the intention to buy a specific
  company from the Foreign Investor must be announced before executing the transaction. Any
  Corporation with a higher Share Price and enough Money available may then immediately
  intervene"), and buys at once when none can;
* ``no_intervention`` with a corporation: that corporation lets it go; without: nobody does;
* ``player_done``: one player has finished an any-order phase; the last one ends it.

Each is written in a transcript as the table's own events (``Game.transcript_events``).
"""

from __future__ import annotations

import random
import re

import pytest

from assistant.rules import RuleError, registry
from assistant.rules.core.events import events_of

from .builders import corporation, drawn_until, enter_phase, place, table
from .test_acquisition import DOPPLER, JUNKYARD, OVERSEAS, STOCK, VINTAGE, announcement_position

ANNOUNCE = {"type": "announce", "corporation": JUNKYARD, "company": "WT"}


def kinds(menu):
    return [m["type"] for m in menu]


def test_an_announcement_waits_for_the_corporations_that_may_intervene():
    g = announcement_position(announcer_cash=14)
    g.apply(ANNOUNCE)
    assert g.next == {"for": "intervention", "company": "WT", "announced_by": JUNKYARD}
    assert g.company_owner_name("WT") == "Foreign Investor" or g.owner["WT"] is g.fi
    assert g.journal[-1]["text"] == (
        f"{JUNKYARD} announces buying the WT from the foreign investor for 14; "
        f"{OVERSEAS} (Brian), {DOPPLER} (Crystal), {VINTAGE} (Amy) may intervene"
    )
    # only the two answers are allowed while it waits
    assert set(kinds(g.legal_actions())) == {"acquire", "no_intervention"}
    before = g.snapshot()
    # "Any Corporation with a higher Share Price ... may then immediately intervene": nothing else
    # happens before that is settled, and each refusal says so (not some other reason)
    settle_first = "First settle Junkyard Scrappers' announced purchase of the WT: does a corporation intervene?"
    for bad, why in (
        ({"type": "done", "phase": 3}, settle_first),
        ({"type": "player_done", "player": "Amy", "phase": 3}, settle_first),
        ({"type": "announce", "corporation": STOCK, "company": "WT"}, settle_first),
        ({"type": "acquire", "corporation": STOCK, "company": "BPM", "price": 5}, settle_first),
        (  # Stock Masters (12) is below Junkyard Scrappers (13): no priority over the announcer
            {"type": "no_intervention", "company": "WT", "corporation": STOCK},
            f"{STOCK} may not intervene in Junkyard Scrappers' announced purchase of the WT, so it has nothing to let go.",
        ),
    ):
        with pytest.raises(RuleError) as err:
            g.apply(bad)
        assert err.value.message == why, bad
    assert g.snapshot() == before
    assert g.transcript_events() == []  # an announcement still pending is not written


def test_each_president_lets_it_go_then_the_last_one_intervenes():
    g = announcement_position(announcer_cash=14)
    g.apply(ANNOUNCE)
    g.apply({"type": "no_intervention", "company": "WT", "corporation": OVERSEAS})
    assert (
        g.journal[-1]["text"] == f"{OVERSEAS} lets the WT go; {DOPPLER} (Crystal), {VINTAGE} (Amy) may still intervene"
    )
    lets_go = [m["corporation"] for m in g.legal_actions() if m["type"] == "no_intervention" and m.get("corporation")]
    assert lets_go == [DOPPLER, VINTAGE]
    with pytest.raises(RuleError, match="already let the WT go"):
        g.apply({"type": "acquire", "corporation": OVERSEAS, "company": "WT", "price": 11, "announced_by": JUNKYARD})
    g.apply({"type": "no_intervention", "company": "WT", "corporation": DOPPLER})
    g.apply({"type": "acquire", "corporation": VINTAGE, "company": "WT", "price": 14, "announced_by": JUNKYARD})
    assert g.owner["WT"].name == VINTAGE and g.next == {"for": "acquisition"}
    # written as the intervention alone, which replays with nothing pending
    assert g.transcript_events() == [
        {"type": "acquire", "corporation": VINTAGE, "company": "WT", "price": 14, "announced_by": JUNKYARD}
    ]


def test_when_all_let_it_go_the_announcer_buys():
    g = announcement_position(announcer_cash=14)
    g.apply(ANNOUNCE)
    for corp in (OVERSEAS, DOPPLER, VINTAGE):
        g.apply({"type": "no_intervention", "company": "WT", "corporation": corp})
    assert g.owner["WT"].name == JUNKYARD and g.corps[JUNKYARD].cash == 0
    assert g.journal[-1]["text"] == (
        f"{VINTAGE} lets it go too. Nobody intervenes: {JUNKYARD} buys the WT from the foreign investor for 14"
    )
    assert g.transcript_events() == [{"type": "acquire", "corporation": JUNKYARD, "company": "WT", "price": 14}]


def test_nobody_intervenes_for_the_table_in_one_event():
    g = announcement_position(announcer_cash=14)
    g.apply(ANNOUNCE)
    g.apply({"type": "no_intervention", "company": "WT"})
    assert g.owner["WT"].name == JUNKYARD and g.fi.cash > 0
    assert g.transcript_events() == [{"type": "acquire", "corporation": JUNKYARD, "company": "WT", "price": 14}]


def test_with_nobody_able_to_intervene_the_purchase_goes_through_at_once():
    g = announcement_position(announcer_cash=14)
    g.apply({"type": "announce", "corporation": OVERSEAS, "company": "WT"})  # first in priority: face value
    assert g.owner["WT"].name == OVERSEAS and g.corps[OVERSEAS].cash == 40 - 11
    assert g.next == {"for": "acquisition"}
    assert "nobody could intervene" in g.journal[-1]["text"]
    assert g.transcript_events() == [{"type": "acquire", "corporation": OVERSEAS, "company": "WT", "price": 11}]


def test_money_received_in_the_phase_does_not_make_an_intervener():
    """Doppler AG's 40 are all received this phase: it cannot intervene (money turned vertical)."""
    g = announcement_position(announcer_cash=14)
    g.received[DOPPLER] = 40
    g.apply(ANNOUNCE)
    asked = [m["corporation"] for m in g.legal_actions() if m["type"] == "no_intervention" and m.get("corporation")]
    assert asked == [OVERSEAS, VINTAGE]
    assert [m["corporation"] for m in g.legal_actions() if m["type"] == "acquire"] == [OVERSEAS]  # first in turn


def test_announcing_what_the_corporation_cannot_pay_is_refused():
    g = announcement_position(announcer_cash=13)
    with pytest.raises(RuleError, match="only 13 available, not the 14"):
        g.apply(ANNOUNCE)
    with pytest.raises(RuleError, match="not the foreign investor's"):
        g.apply({"type": "announce", "corporation": JUNKYARD, "company": "BPM"})
    assert g.events == []


def test_players_say_they_are_done_and_the_last_one_ends_the_phase():
    g = announcement_position(announcer_cash=14)
    assert g.could_act() == ["Amy", "Brian", "Crystal"]
    done = [m for m in g.legal_actions() if m["type"] == "done"][0]
    assert done["waiting_for"] == ["Amy", "Brian", "Crystal"]
    g.apply({"type": "player_done", "player": "Amy", "phase": 3})
    assert g.journal[-1]["text"] == "Amy is done; waiting for Brian, Crystal"
    with pytest.raises(RuleError, match="already said"):
        g.apply({"type": "player_done", "player": "Amy", "phase": 3})
    g.apply({"type": "player_done", "player": "Crystal", "phase": 3})
    # Brian acts, then Amy acts again: she was not done after all
    g.apply(ANNOUNCE)
    g.apply({"type": "no_intervention", "company": "WT"})
    buy = next(m for m in g.legal_actions() if m["type"] == "acquire" and m["corporation"] == STOCK)
    g.apply(events_of(buy, lambda *x: x[0]))
    assert g.not_done_yet() == ["Amy", "Brian"]
    g.apply({"type": "player_done", "player": "Brian", "phase": 3})
    assert g.phase == 3
    g.apply({"type": "player_done", "player": "Amy", "phase": 3})
    # phase 4 (closing) follows, in any order: Amy's Stock Masters owns the BD and the MHE and may
    # close one; every other corporation owns one company ("never zero") and no player owns one
    assert (g.phase, g.next, g.could_act()) == (4, {"for": "closing"}, ["Amy"])
    assert any(
        "Everyone who could act is done (Crystal, Brian, Amy): Acquisitions done" in a for a in g.journal[-1]["auto"]
    )
    written = g.transcript_events()
    assert [e["type"] for e in written] == ["acquire", "acquire", "done"]
    assert written[-1] == {"type": "done", "phase": 3}


def test_the_table_may_end_the_phase_for_everyone_and_the_log_says_who():
    g = announcement_position(announcer_cash=14)
    g.apply({"type": "player_done", "player": "Amy", "phase": 3})
    g.apply({"type": "done", "phase": 3, "by": "Crystal"})
    assert g.journal[-1]["text"] == "Acquisitions done (ended by Crystal for the table)"
    assert g.transcript_events() == [{"type": "done", "phase": 3}]


def closing_position():
    """Phase 4: Amy owns the MHE herself; Brian's Doppler AG owns two companies; Crystal has nothing to close."""
    g = table(["Amy", "Brian", "Crystal"], turn=4)
    g.players["Amy"].companies.append("MHE")
    g.owner["MHE"] = g.players["Amy"]
    corporation(g, DOPPLER, price=16, companies=["BY", "BPM"], cash=10, shares={"Brian": 1}, bank=1)
    drawn_until(g, "orange")
    return enter_phase(g, 4)


def test_closing_waits_for_the_owners_who_could_close():
    g = closing_position()
    assert g.could_act() == ["Amy", "Brian"]
    with pytest.raises(RuleError, match="nothing left to do"):
        g.apply({"type": "player_done", "player": "Crystal", "phase": 4})
    g.apply({"type": "player_done", "player": "Brian", "phase": 4})
    # Amy closes her only company: nobody else could act, and everyone who could has said so
    g.apply({"type": "close", "company": "MHE"})
    assert g.phase != 4
    assert [e["type"] for e in g.transcript_events()] == ["close", "done"]


# ---------------------------------------------------------------------- all three rulesets, from play
def find_announcement(key: str, seed: int, least: int = 1):
    """A game of ``key`` played at random until some corporation could announce a purchase that
    at least ``least`` others may intervene in."""
    rng = random.Random(seed)
    rs = registry.get(key)
    weights = {"buy_share": 4, "ipo": 3, "pass": 1, "bid": 0.6, "done": 0.2, "close": 0.05, "player_done": 0}
    for _attempt in range(40):
        g = rs.create(["P1", "P2", "P3", "P4"], [])
        while not g.game_over and len(g.events) < 600:
            menu = g.legal_actions()
            hot = [m for m in menu if m["type"] == "announce" and len(m["may_intervene"]) >= least]
            if hot:
                return g, hot[0]
            quiet = [m for m in menu if m["type"] != "announce"] or menu
            item = rng.choices(quiet, [weights.get(m["type"], 1) for m in quiet])[0]
            g.apply(events_of(item, lambda *a: rng.randint(*a) if len(a) == 2 else rng.choice(a[0])))
    raise AssertionError(f"no announcement with interveners in {key}")


@pytest.mark.parametrize("key", list(registry.RULESETS))
def test_announce_intervene_and_decline_in_every_ruleset(key):
    g, item = find_announcement(key, 17)
    announcer, company = item["corporation"], item["company"]
    base = g.fork()
    g.apply({"type": "announce", "corporation": announcer, "company": company})
    assert g.next == {"for": "intervention", "company": company, "announced_by": announcer}
    interventions = [m for m in g.legal_actions() if m["type"] == "acquire"]
    assert [m["corporation"] for m in interventions] == item["may_intervene"][:1]  # the first in priority
    asked = [m["corporation"] for m in g.legal_actions() if m["type"] == "no_intervention" and m.get("corporation")]
    assert asked == item["may_intervene"]
    # intervene
    a = g.fork()
    first = interventions[0]
    a.apply(events_of(first, lambda *x: x[0]))
    assert a.owner[company].name == first["corporation"]
    # decline, one by one
    b = g.fork()
    for corp in item["may_intervene"]:
        b.apply({"type": "no_intervention", "company": company, "corporation": corp})
    assert b.owner[company].name == announcer
    # the transcript forms replay to the same games
    rs = registry.get(key)
    for played in (a, b):
        again = rs.replay(list(base.players), [], played.transcript_events())
        assert again.snapshot() == played.snapshot()


@pytest.mark.parametrize("key", list(registry.RULESETS))
def test_the_second_intervener_waits_for_the_first_in_every_ruleset(key):
    """Stars and v2.2: "again the one with higher share price has priority" (Overseas Trading /
    Orion first); classic (Players' Guide): the corporation with the highest share price has
    priority.  The second in priority is refused until the first lets the company go."""
    g, item = find_announcement(key, 17, least=2)
    announcer, company = item["corporation"], item["company"]
    first, second = item["may_intervene"][:2]
    ranked = sorted(item["may_intervene"], key=lambda c: (g.ability(c) != "foreign_investor_first", -g.corps[c].price))
    assert ranked == item["may_intervene"]  # the order, from the share prices on the table
    g.apply({"type": "announce", "corporation": announcer, "company": company})
    jump = {"type": "acquire", "corporation": second, "company": company, "price": g.fi_price(second, company),
            "announced_by": announcer}  # fmt: skip
    with pytest.raises(RuleError, match=f"^{re.escape(first)} answers first"):
        g.apply(jump)
    g.apply({"type": "no_intervention", "company": company, "corporation": first})
    g.apply(jump)
    assert g.owner[company].name == second


def test_the_only_corporation_that_may_intervene_lets_it_go_without_a_too():
    """Issue 37: "Star lets it go too" when Star was the only one.  Overseas Trading and Doppler AG
    have no money here, so only Vintage Machinery may intervene."""
    g = announcement_position(announcer_cash=14)
    g.corps[OVERSEAS].cash = g.corps[DOPPLER].cash = 0
    g.apply(ANNOUNCE)
    asked = [m["corporation"] for m in g.legal_actions() if m["type"] == "no_intervention" and m.get("corporation")]
    assert asked == [VINTAGE]
    g.apply({"type": "no_intervention", "company": "WT", "corporation": VINTAGE})
    assert g.journal[-1]["text"] == (
        f"{VINTAGE} lets it go. Nobody intervenes: {JUNKYARD} buys the WT from the foreign investor for 14"
    )


# ---------------------------------------------------------------------- "I'm done" in the closing phase, in words
def test_the_closing_phase_ends_in_its_own_words():
    g = closing_position()
    assert [m for m in g.legal_actions() if m["type"] in ("player_done", "done")] == [
        {"type": "player_done", "player": "Amy", "phase": 4},
        {"type": "player_done", "player": "Brian", "phase": 4},
        {"type": "done", "phase": 4, "waiting_for": ["Amy", "Brian"]},
    ]
    g.apply({"type": "player_done", "player": "Brian", "phase": 4})
    assert g.journal[-1]["text"] == "Brian is done; waiting for Amy"
    g.apply({"type": "player_done", "player": "Amy", "phase": 4})
    assert g.journal[-1]["text"] == "Amy is done"
    assert "Everyone who could act is done (Brian, Amy): Closing done" in g.journal[-1]["auto"]
    g = closing_position()
    g.apply({"type": "done", "phase": 4})
    assert g.journal[-1]["text"] == "Closing done"
    g = closing_position()
    g.apply({"type": "close", "company": "BPM"})  # Doppler AG keeps the BY: only Amy could act
    g.apply({"type": "close", "company": "MHE"})  # and now nobody
    assert "Nobody can act any more in this phase: Closing done" in g.journal[-1]["auto"]


def test_done_refusals_say_why():
    g = closing_position()
    for event, message in (
        ({"type": "player_done", "player": "Zed", "phase": 4}, "'Zed' is not a player in this game."),
        ({"type": "done", "phase": 5}, "Only phase 3 (acquisition) and phase 4 (closing) are declared done."),
        ({"type": "done", "phase": 3}, "It is phase 4, not phase 3."),
    ):
        with pytest.raises(RuleError) as refused:
            g.apply(event)
        assert refused.value.message == message


def test_closing_after_saying_done_means_not_done_after_all():
    g = table(["Amy", "Brian", "Crystal"], turn=4)
    corporation(g, DOPPLER, price=16, companies=["BY", "BPM", "KME"], cash=10, shares={"Brian": 1}, bank=1)
    for abbr in ("MHE", "AKE"):
        place(g, abbr, "Amy")
    drawn_until(g, "orange")
    enter_phase(g, 4)
    g.apply({"type": "player_done", "player": "Brian", "phase": 4})
    g.apply({"type": "close", "company": "KME"})  # Brian closes for Doppler AG: he is not done
    assert g.not_done_yet() == ["Amy", "Brian"]
    g.apply({"type": "player_done", "player": "Amy", "phase": 4})
    g.apply({"type": "close", "company": "AKE"})  # Amy closes her own: she is not done either
    assert g.not_done_yet() == ["Amy", "Brian"]


def test_at_the_end_of_the_phase_nobody_could_act_and_nothing_is_asked():
    """The game as the closing phase ends (a preview within the phase): ended by everyone having
    said done, or by nobody being able to close anything more."""
    g = closing_position()
    g.apply({"type": "player_done", "player": "Brian", "phase": 4})
    for event in ({"type": "close", "company": "MHE"}, {"type": "player_done", "player": "Amy", "phase": 4}):
        end = g.preview(event, within_phase=True)
        assert (end.phase, end.next, end.could_act(), end.not_done_yet()) == (4, None, [], [])
    g = closing_position()
    g.apply({"type": "close", "company": "BPM"})  # Doppler AG keeps the BY
    end = g.preview({"type": "close", "company": "MHE"}, within_phase=True)
    assert (end.phase, end.next, end.could_act()) == (4, None, [])


def test_a_player_short_of_money_may_say_done_in_the_acquisition_phase():
    """Green on top: Amy's BSE earns 1 - 2 = -1 and she has no money: she must close it, but in the
    closing phase; in the acquisition phase, as president of Doppler AG, she may say she is done."""
    g = table(["Amy", "Brian", "Crystal"], turn=4, cash={"Amy": 0})
    corporation(g, DOPPLER, price=16, companies=["DSB"], cash=30, shares={"Amy": 1}, bank=1)
    place(g, "BSE", "Amy")
    place(g, "KME", "Brian")
    drawn_until(g, "green")
    enter_phase(g, 3)
    assert g.could_act() == ["Amy"]
    g.apply({"type": "player_done", "player": "Amy", "phase": 3})
    assert g.journal[-1]["text"] == "Amy is done"


def test_the_table_cannot_end_the_closing_phase_while_players_are_short():
    """Green on top: Amy's and Brian's BSE and BME earn -1 each, and they have no money."""
    g = table(["Amy", "Brian", "Crystal"], turn=4, cash={"Amy": 0, "Brian": 0})
    place(g, "BSE", "Amy")
    place(g, "BME", "Brian")
    drawn_until(g, "green")
    enter_phase(g, 4)
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "done", "phase": 4})
    assert refused.value.message == (
        "Amy must close companies first: 0 money and -1 income; Brian must close companies first: 0 money and "
        "-1 income (a player must be able to pay a negative income)."
    )


# ---------------------------------------------------------------------- interventions, in words
def test_priority_with_the_foreign_investor_in_words():
    """Stars: Overseas Trading first, then the higher share price; classic: no such charter."""
    assert announcement_position(announcer_cash=14).priority_order() == (
        "Overseas Trading first, then the higher share price"
    )
    assert registry.get("rolling-stock").create(["A", "B", "C"], []).priority_order() == "the higher share price first"


def test_intervention_refusals_say_why():
    g = announcement_position(announcer_cash=14)
    for event, message in (
        ({"type": "no_intervention", "company": "WT"}, "No announced purchase is waiting for interventions."),
        ({"type": "announce", "corporation": JUNKYARD, "company": "XYZ"}, "There is no company 'XYZ'."),
        (
            {"type": "acquire", "corporation": DOPPLER, "company": "WT", "price": 14, "announced_by": "Nobody"},
            "'Nobody' is not a corporation in play.",
        ),
        (
            {"type": "acquire", "corporation": DOPPLER, "company": "WT", "price": 14, "announced_by": DOPPLER},
            "Doppler AG cannot intervene in its own purchase; leave out announced_by.",
        ),
        (
            {"type": "acquire", "corporation": STOCK, "company": "WT", "price": 14, "announced_by": JUNKYARD},
            "Stock Masters has no priority over Junkyard Scrappers (Overseas Trading first, then the higher share "
            "price), so it cannot intervene.",
        ),
    ):
        with pytest.raises(RuleError) as refused:
            g.apply(event)
        assert refused.value.message == message, event
    g.apply({"type": "player_done", "player": "Brian", "phase": 3})
    g.apply(ANNOUNCE)
    assert "Brian" not in g.said_done  # announcing, he was not done after all
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "no_intervention", "company": "BPM"})
    assert refused.value.message == "The purchase waiting for interventions is of the WT."
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "acquire", "corporation": VINTAGE, "company": "WT", "price": 14, "announced_by": JUNKYARD})
    assert "may intervene only once they have let the WT go" in refused.value.message
    g.apply({"type": "no_intervention", "company": "WT", "corporation": OVERSEAS})
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "no_intervention", "company": "WT", "corporation": OVERSEAS})
    assert refused.value.message == "Overseas Trading has already let the WT go."
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "acquire", "corporation": VINTAGE, "company": "WT", "price": 14, "announced_by": JUNKYARD})
    assert "may intervene only once it has let the WT go" in refused.value.message


def test_announcing_more_than_the_money_not_received_is_refused_in_full():
    g = announcement_position(announcer_cash=13)
    with pytest.raises(RuleError) as refused:
        g.apply(ANNOUNCE)
    assert refused.value.message == (
        "Junkyard Scrappers has only 13 available, not the 14 the foreign investor asks for the WT: "
        "a corporation announces only what it can buy."
    )
    g = announcement_position(announcer_cash=14)
    g.received[JUNKYARD] = 1
    with pytest.raises(RuleError) as refused:
        g.apply(ANNOUNCE)
    assert refused.value.message == (
        "Junkyard Scrappers has only 13 available, not the 14 the foreign investor asks for the WT (money "
        "received in this phase cannot be spent in it): a corporation announces only what it can buy."
    )


def test_purchases_without_intervention_are_written_in_full():
    g = announcement_position(announcer_cash=14)
    g.apply({"type": "announce", "corporation": OVERSEAS, "company": "WT"})
    assert (
        g.journal[-1]["text"]
        == "Overseas Trading buys the WT from the foreign investor for 11 (nobody could intervene)"
    )
    g = announcement_position(announcer_cash=14)
    g.apply(ANNOUNCE)
    g.apply({"type": "no_intervention", "company": "WT"})
    assert g.journal[-1]["text"] == "Nobody intervenes: Junkyard Scrappers buys the WT from the foreign investor for 14"
