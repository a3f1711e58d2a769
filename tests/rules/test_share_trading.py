"""Phase 1 share trading: prices with leapfrogging, bankruptcy at 0, the game end at 75, and
the end of the phase.

Canonical rules: Buy One Share: "The corresponding Corporation returns its share price card
to the Row and gains the next higher available share price card. The Player pays the new
Share Price to the bank ... If the new Share Price is 75, the game ends immediately after
payment."  Sell One Share: "... gains the next lower available share price card. The Bank
pays the new Share Price to the Player. If the new Share Price is 0, the Corporation Goes
Bankrupt."  Go Bankrupt: "Remove all Companies of the acting Corporation from the game. Set
all Shares of the Corporation aside, no matter which Entity currently owns them ... The
charter card with the Shares is available to Form a Corporation again later in the game.
Return the Money of the Corporation to the Bank."  Phase 1: "As soon as all player order
cards are turned vertical, the phase ends."
"""

from __future__ import annotations

import pytest

from assistant.rules import RuleError

from .builders import corporation, drawn_until, enter_phase, phase_ends, place, table

PLAYERS = ["Amy", "Brian", "Crystal"]


def market(
    price, others=(), amy_cash=30, amy_shares=1, bank=2, corp_cash=10, companies=("DSB",), order=None, private=()
):
    """Turn 4, phase 1, Amy to act; Stars, Inc. at ``price``; ``others``: (name, price) of
    corporations holding other cards (Brian is their president); ``private``: (company, player)."""
    g = table(PLAYERS, cash={"Amy": amy_cash}, turn=4, order=order)
    for abbr, owner in private:
        place(g, abbr, owner)
    corporation(
        g,
        "Stars, Inc.",
        price=price,
        companies=list(companies),
        cash=corp_cash,
        shares={"Amy": amy_shares} if amy_shares else {},
        bank=bank,
    )
    extra = iter(["KK", "NS", "SBB", "B"])
    for name, p in others:
        corporation(g, name, price=p, companies=[next(extra)], cash=0, shares={"Brian": 1}, bank=1)
    drawn_until(g, "yellow")
    return g


@pytest.mark.parametrize(
    "price, others, buy, sell",
    [
        (20, [], 22, 18),
        (20, [("Doppler AG", 22)], 24, 18),
        (20, [("Doppler AG", 22), ("Synergistic", 24)], 27, 18),
        (20, [("Doppler AG", 18), ("Synergistic", 16)], 22, 14),
        (5, [], 6, 0),
    ],
)
def test_menu_prices_skip_cards_in_use(price, others, buy, sell):
    g = enter_phase(market(price, others), 1, actor="Amy")
    items = {i["type"]: i for i in g.legal_actions() if i.get("corporation") == "Stars, Inc."}
    assert items["buy_share"]["price"] == buy
    assert items["sell_share"]["price"] == sell


def test_buying_jumps_over_cards_in_use_and_pays_the_new_price():
    g = enter_phase(market(20, [("Doppler AG", 22)]), 1, actor="Amy")
    g.apply({"type": "buy_share", "player": "Amy", "corporation": "Stars, Inc."})
    snap = g.snapshot()
    assert snap["corporations"]["Stars, Inc."]["share_price"] == 24
    assert snap["players"]["Amy"]["cash"] == 30 - 24
    assert snap["players"]["Amy"]["shares"] == {"Stars, Inc.": 2}
    assert snap["corporations"]["Stars, Inc."]["bank_shares"] == 1
    assert 20 not in g.price_holder  # the old card is back in the row


def test_selling_jumps_down_and_the_bank_pays_the_new_price():
    g = enter_phase(market(20, [("Doppler AG", 18)], amy_shares=2, bank=1), 1, actor="Amy")
    g.apply({"type": "sell_share", "player": "Amy", "corporation": "Stars, Inc."})
    snap = g.snapshot()
    assert snap["corporations"]["Stars, Inc."]["share_price"] == 16
    assert snap["players"]["Amy"]["cash"] == 30 + 16
    assert snap["corporations"]["Stars, Inc."]["bank_shares"] == 2


def test_selling_down_to_0_is_bankruptcy():
    g = table(PLAYERS, turn=4)
    corporation(g, "Stars, Inc.", price=6, companies=["KME"], cash=12, shares={"Amy": 1, "Brian": 1}, bank=0)
    corporation(g, "Doppler AG", price=5, companies=["BSE"], cash=0, shares={"Crystal": 1}, bank=1)
    enter_phase(g, 1, actor="Amy")
    g.apply({"type": "sell_share", "player": "Amy", "corporation": "Stars, Inc."})  # 5 in use: down to 0
    snap = g.snapshot()
    assert "Stars, Inc." not in snap["corporations"]
    assert snap["players"]["Amy"]["cash"] == 30  # the bank pays 0
    assert all("Stars, Inc." not in p["shares"] for p in snap["players"].values())  # Brian's share is void
    assert "KME" not in g.owner  # its companies leave the game
    assert 6 not in g.price_holder
    moves = g.journal[-1]["moves"]
    assert ("Stars, Inc.", "Bank", 12) in [m[:3] for m in moves]  # its money goes back to the bank
    assert "Stars, Inc." in g.free_charters()


def test_buying_the_75_card_ends_the_game_after_payment():
    g = market(68, amy_cash=80)
    ends = phase_ends(g)
    enter_phase(g, 1, actor="Amy")
    g.apply({"type": "buy_share", "player": "Amy", "corporation": "Stars, Inc."})
    snap = g.snapshot()
    assert snap["game_over"] is True and snap["phase"] == 1 and snap["next"] is None
    assert snap["players"]["Amy"]["cash"] == 80 - 75
    # Amy: 5 money + 2 shares at 75; Brian and Crystal: their money
    assert snap["final"]["scores"] == {"Amy": 5 + 150, "Brian": 30, "Crystal": 30}
    assert snap["final"]["ranking"] == ["Amy", "Brian", "Crystal"]
    assert (4, 1) not in ends  # "The phase in which the game ends gets no such checkpoint"
    with pytest.raises(RuleError):
        g.apply({"type": "pass", "player": "Brian"})


def test_leapfrogging_onto_75_ends_the_game_too():
    g = market(61, [("Doppler AG", 68)], amy_cash=75)
    enter_phase(g, 1, actor="Amy")
    g.apply({"type": "buy_share", "player": "Amy", "corporation": "Stars, Inc."})
    assert g.game_over and g.snapshot()["corporations"]["Stars, Inc."]["share_price"] == 75


def test_score_counts_private_companies_at_face_value():
    g = market(68, amy_cash=80, private=[("BSE", "Crystal"), ("MHE", "Crystal")])
    enter_phase(g, 1, actor="Amy")
    g.apply({"type": "buy_share", "player": "Amy", "corporation": "Stars, Inc."})
    assert g.snapshot()["final"]["scores"]["Crystal"] == 30 + 2 + 8


def test_ties_in_the_final_score_go_by_player_order():
    g = market(68, amy_cash=80, order=["Crystal", "Amy", "Brian"])
    enter_phase(g, 1, actor="Amy")
    g.apply({"type": "buy_share", "player": "Amy", "corporation": "Stars, Inc."})
    assert g.snapshot()["final"]["ranking"] == ["Amy", "Crystal", "Brian"]  # Crystal ties Brian at 30


def test_phase_ends_when_all_players_passed_in_a_row():
    g = market(20, amy_cash=30)
    ends = phase_ends(g)
    enter_phase(g, 1, actor="Amy")
    g.apply({"type": "pass", "player": "Amy"})
    g.apply({"type": "buy_share", "player": "Brian", "corporation": "Stars, Inc."})
    g.apply({"type": "pass", "player": "Crystal"})
    g.apply({"type": "pass", "player": "Amy"})  # Brian's card is horizontal again: not over
    assert g.phase == 1 and g.next == {"player": "Brian", "for": "investment"}
    assert (4, 1) not in ends
    g.apply({"type": "pass", "player": "Brian"})  # now all three cards are vertical
    assert (4, 1) in ends and g.phase != 1


def test_passing_does_not_stop_a_player_acting_later():
    g = enter_phase(market(20), 1, actor="Amy")
    g.apply({"type": "pass", "player": "Amy"})
    g.apply({"type": "pass", "player": "Brian"})
    g.apply({"type": "buy_share", "player": "Crystal", "corporation": "Stars, Inc."})
    g.apply({"type": "buy_share", "player": "Amy", "corporation": "Stars, Inc."})
    assert g.snapshot()["players"]["Amy"]["shares"] == {"Stars, Inc.": 2}


def test_player_with_nothing_to_do_passes_by_itself():
    # Brian: no money, no shares, nothing affordable; he is skipped
    g = market(20)
    g.players["Brian"].cash = 0  # (before the engine takes over)
    enter_phase(g, 1, actor="Amy")
    g.apply({"type": "pass", "player": "Amy"})
    assert g.next == {"player": "Crystal", "for": "investment"}


def test_no_share_to_buy_when_the_bank_has_none():
    g = enter_phase(market(20, amy_shares=2, bank=0), 1, actor="Amy")
    assert not any(i["type"] == "buy_share" for i in g.legal_actions())
    with pytest.raises(RuleError):
        g.apply({"type": "buy_share", "player": "Amy", "corporation": "Stars, Inc."})
