"""Phase 1 auctions: the rulebook's complete auction example and the auction procedure.

Rulebook, "TURN 1, PHASE 1 – INVESTMENT", example of a complete auction: Amy, Brian and
Crystal, turn 2, order Amy 1, Brian 2, Crystal 3; Amy 20, Brian 12, Crystal 9; offering
MHE, WT (drawn this turn, unavailable) and MS.  Brian bids 9 for the MHE, Crystal cannot
raise and leaves, Amy raises to 11, Brian leaves; Amy pays 11, the BD is drawn (turned
vertical), Crystal is next, and everybody has to pass: the phase ends.
"""

from __future__ import annotations

from .builders import enter_phase, phase_ends, place, table

PLAYERS = ["Amy", "Brian", "Crystal"]


def example_position(amy_cash=20):
    """Turn 2, phase 1, Brian to act (Amy won the auction that drew the WT)."""
    g = table(PLAYERS, cash={"Amy": amy_cash, "Brian": 12, "Crystal": 9}, turn=2, fi_cash=9)
    # setup drew BSE, KME, BPM; turn 1's auctions drew the MHE and the MS, turn 2's the WT
    place(g, "BSE", "Crystal")
    place(g, "KME", "Brian")
    place(g, "BPM", "Amy")
    place(g, "MHE", "available")
    place(g, "MS", "available")
    place(g, "WT", "unavailable")
    return enter_phase(g, 1, actor="Brian")


def test_brian_can_only_start_an_auction_for_the_mhe():
    g = example_position()
    assert g.next == {"player": "Brian", "for": "investment"}
    bids = [item for item in g.legal_actions() if item["type"] == "bid"]
    # the WT is not available, the MS needs 17 and Brian has 12
    assert [(b["company"], b["min"], b["max"]) for b in bids] == [("MHE", 8, 12)]


def test_complete_auction_example():
    g = example_position()
    ends = phase_ends(g)

    g.apply({"type": "bid", "player": "Brian", "company": "MHE", "price": 9})
    # Crystal has only 9, so she cannot raise and leaves by herself; Amy is next
    snap = g.snapshot()
    assert snap["next"] == {"player": "Amy", "for": "bid", "company": "MHE"}
    assert snap["auction"]["high_bid"] == 9 and snap["auction"]["high_bidder"] == "Brian"
    assert sorted(snap["auction"]["bidders"]) == ["Amy", "Brian"]

    g.apply({"type": "bid", "player": "Amy", "company": "MHE", "price": 11})
    assert g.next == {"player": "Brian", "for": "bid", "company": "MHE"}

    g.apply({"type": "leave", "player": "Brian"})
    # Amy pays 11 and gets the MHE; a new company is drawn (orange is on top)
    assert g.next["for"] == "reveal" and g.next["color"] == "orange"
    assert g.players["Amy"].cash == 9 and "MHE" in g.players["Amy"].companies

    g.apply({"type": "reveal", "company": "BD"})
    # Crystal (after Brian, who started the auction) cannot do anything, nor can Amy
    # (9) or Brian (12) with only the MS (17) available: everybody passes, phase 1 ends
    end1 = ends[(2, 1)]
    assert {p: s["cash"] for p, s in end1["players"].items()} == {"Amy": 9, "Brian": 12, "Crystal": 9}
    assert sorted(end1["players"]["Amy"]["companies"]) == ["BPM", "MHE"]
    assert sorted(end1["offering"]["available"]) == ["MS"]
    assert sorted(end1["offering"]["unavailable"]) == ["BD", "WT"]
    assert "auction" not in end1
    assert (g.turn, g.phase) == (2, 4)  # no decision was needed in phases 1 (rest), 2 and 3


def test_eight_would_have_let_crystal_bid():
    """ "8 would have been a legal bid, too, but Brian wanted to prevent Crystal from bidding"."""
    g = example_position()
    g.apply({"type": "bid", "player": "Brian", "company": "MHE", "price": 8})
    assert g.next == {"player": "Crystal", "for": "bid", "company": "MHE"}
    raise_item = next(i for i in g.legal_actions() if i["type"] == "bid")
    assert (raise_item["min"], raise_item["max"]) == (9, 9)


def test_auction_starter_alone_wins_at_once():
    """Nobody can raise: the starter pays the bid right away and a card is drawn."""
    g = example_position(amy_cash=9)  # now neither Amy nor Crystal can raise a bid of 9
    g.apply({"type": "bid", "player": "Brian", "company": "MHE", "price": 9})
    assert g.players["Brian"].cash == 3 and "MHE" in g.players["Brian"].companies
    assert g.next["for"] == "reveal"


def test_next_action_follows_the_starter_not_the_winner():
    """Canonical rules, Auction: "the next regular action of phase 1 is taken by the next
    Player in Player Order following the Player that started the auction"."""
    g = table(PLAYERS, turn=1)
    for abbr in ("BME", "BSE", "KME"):
        place(g, abbr, "available")
    enter_phase(g, 1)
    g.apply({"type": "bid", "player": "Amy", "company": "BSE", "price": 2})
    g.apply({"type": "bid", "player": "Brian", "company": "BSE", "price": 3})
    g.apply({"type": "leave", "player": "Crystal"})
    g.apply({"type": "leave", "player": "Amy"})
    g.apply({"type": "reveal", "company": "MHE"})  # the last red card is always the MHE
    assert "BSE" in g.players["Brian"].companies and g.players["Brian"].cash == 27
    assert g.next == {"player": "Brian", "for": "investment"}  # after Amy (starter), not after Brian
    assert g.unavailable == ["MHE"]  # drawn during the phase: not available until the wrap-up


def test_left_players_are_skipped_for_the_rest_of_the_auction():
    g = table(PLAYERS, turn=1)
    for abbr in ("BME", "BSE", "KME"):
        place(g, abbr, "available")
    enter_phase(g, 1)
    g.apply({"type": "bid", "player": "Amy", "company": "KME", "price": 5})
    g.apply({"type": "leave", "player": "Brian"})
    g.apply({"type": "bid", "player": "Crystal", "company": "KME", "price": 6})
    assert g.next == {"player": "Amy", "for": "bid", "company": "KME"}
    g.apply({"type": "bid", "player": "Amy", "company": "KME", "price": 7})
    assert g.next == {"player": "Crystal", "for": "bid", "company": "KME"}  # Brian is skipped


def test_bid_may_exceed_the_price_span():
    """ "it may exceed the price range printed on the company card"."""
    g = table(PLAYERS, turn=1)
    for abbr in ("BME", "BSE", "KME"):
        place(g, abbr, "available")
    enter_phase(g, 1)
    g.apply({"type": "bid", "player": "Amy", "company": "BME", "price": 30})  # BME's span is 1-2
    assert g.players["Amy"].cash == 0 and "BME" in g.players["Amy"].companies
