"""Phase 7, the end card, and the final scoring.

Canonical rules: "Phase 7: End card. If there are no unowned Companies left, flip the game
end card. If it is already flipped, or if the 75 share price card is owned by a
Corporation, the game ends."  "Repeat the turn sequence until the game ends in phase 1 or
phase 7. Then calculate each Player's total value by summing up the Face Value of each of
their private Companies, the Share Price of each of their Shares, and their Money. Rank
Players according to the calculated value (highest value wins), breaking ties by Player
Order (lowest Player Order wins)."  The end card's back: red, orange, yellow and green
companies cost 10.
"""

from __future__ import annotations

from assistant.rules import events_of

from .builders import corporation, drawn_until, enter_phase, phase_ends, place, table

PLAYERS = ["Amy", "Brian", "Crystal"]


IDLE = ("pass", "done", "skip_issue", "skip_ipo", "no_intervention", "dividend", "reveal", "leave")


def idle(g):
    """The most passive menu event (a dividend of 0)."""
    item = min(g.legal_actions(), key=lambda i: IDLE.index(i["type"]) if i["type"] in IDLE else len(IDLE))
    return events_of(item, lambda *a: a[0] if len(a) == 2 else a[0][0])


def late(offering=()):
    """Turn 9, the deck empty; Doppler AG (30; Amy 2, Brian 1), Crystal owns the DSB."""
    g = table(PLAYERS, cash={"Amy": 40, "Brian": 12, "Crystal": 12}, turn=9)
    corporation(g, "Doppler AG", price=30, companies=["HH"], cash=0, shares={"Amy": 2, "Brian": 1}, bank=1)
    place(g, "DSB", "Crystal")
    for abbr in offering:
        place(g, abbr, "available")
    drawn_until(g, None)
    return g


def test_companies_left_in_the_offering_keep_the_game_going():
    g = late(offering=["CDG"])
    enter_phase(g, 7)
    assert not g.game_over and not g.end_flipped
    assert g.snapshot()["cost_of_ownership"]["yellow"] == 7  # the end card's front


def test_nothing_unowned_flips_the_end_card_and_the_next_phase_7_ends_the_game():
    g = late()
    ends = phase_ends(g)
    enter_phase(g, 7)
    assert g.end_flipped and not g.game_over
    assert g.snapshot()["cost_of_ownership"] == {"red": 10, "orange": 10, "yellow": 10, "green": 10, "blue": 0}
    assert ends[(9, 7)]["end_card_flipped"] is True
    # the log says why, with the back's costs (the module docstring)
    assert g._auto[-1] == (
        "No unowned companies are left: the game end card is flipped (cost of ownership 10 "
        "for red, orange, yellow and green); the game ends in the next phase 7"
    )
    # play on to the next phase 7, deciding nothing but the required
    while not g.game_over:
        g.apply(idle(g))
    assert (g.turn, g.phase) == (10, 7)
    assert "The game end card was already flipped: the game ends" in g.journal[-1]["auto"]
    final = g.snapshot()["final"]
    snap = g.snapshot()
    price = snap["corporations"]["Doppler AG"]["share_price"]
    for name, p in snap["players"].items():
        expected = (
            p["cash"] + sum({"DSB": 20}.get(a, 0) for a in p["companies"]) + p["shares"].get("Doppler AG", 0) * price
        )
        assert final["scores"][name] == expected
    assert final["ranking"] == sorted(PLAYERS, key=lambda n: (-final["scores"][n], snap["player_order"].index(n)))


def test_price_75_ends_the_game_in_phase_7():
    g = table(PLAYERS, turn=9)
    corporation(g, "Doppler AG", price=75, companies=["HH"], cash=0, shares={"Amy": 1}, bank=1)
    drawn_until(g, "blue")
    enter_phase(g, 7)
    assert g.game_over and g.phase == 7
    assert g.snapshot()["final"]["scores"] == {"Amy": 30 + 75, "Brian": 30, "Crystal": 30}
    assert g.snapshot()["final"]["ranking"] == ["Amy", "Brian", "Crystal"]


def test_two_corporations_may_share_75():
    """ "Should it happen that other corporations reach 75, too, those corporations don't take
    a new share price card ... The shares of a corporation without a share price card have a
    share price of 75." """
    g = table(PLAYERS, turn=9)
    drawn_until(g, "blue")
    # 2 shares at 68 require 14 stars: HR 5 + Stars, Inc. 2 + 80 cash 8 = 15: one up to 75
    corporation(g, "Stars, Inc.", price=68, companies=["HR"], cash=80, shares={"Brian": 1}, bank=1)
    # 2 shares at 61 require 12 stars: CDG + LHR 10 + 50 cash 5 = 15: double up to 75, taken
    corporation(g, "Doppler AG", price=61, companies=["CDG", "LHR"], cash=50, shares={"Amy": 1}, bank=1)
    ends = phase_ends(g)
    enter_phase(g, 6)
    order = []
    while g.phase == 6:
        order.append(g.next["corporation"])
        g.apply({"type": "dividend", "corporation": g.next["corporation"], "amount": 0})
    assert order == ["Stars, Inc.", "Doppler AG"]
    prices = {n: c["share_price"] for n, c in ends[(9, 6)]["corporations"].items()}
    assert prices == {"Stars, Inc.": 75, "Doppler AG": 75}
    assert g.game_over and g.phase == 7
    assert "Stars, Inc., Doppler AG at 75: the game ends" in g.journal[-1]["auto"]
    assert g.snapshot()["final"]["scores"] == {"Amy": 30 + 75, "Brian": 30 + 75, "Crystal": 30}
