"""Change of presidency and receivership through share trading (phase 1).

Rulebook, "TURN 2, PHASE 1", sell one share: "The player order is Crystal: 1, Amy: 2,
Brian: 3. Stars, Inc. has three shares issued. Amy is the president ... Crystal and Brian
each own one of the other two shares. ... She decides to sell one Stars, Inc. share ...
both, Crystal and Brian own more shares each than Amy. As they are tied, the player order
decides ... Brian is following Amy closer than Crystal and becomes the new president ...
Now Brian owns the President's Share, and Crystal and the bank own one share each. Amy no
longer owns a Stars, Inc. share."

Canonical rules, Change of Presidency: "the next Player in Player Order (after the current
President) that owns more Shares of that Corporation than the current President becomes
the new President"; Sell One Share: "If the President's Share was sold, consider the acting
Player the current President while checking for Change of Presidency"; Buy One Share in
receivership: "the buying Player becomes the new President".
"""

from __future__ import annotations

from .builders import corporation, drawn_until, enter_phase, place, table

PLAYERS = ["Amy", "Brian", "Crystal"]
STARS = "Stars, Inc."


def stars_position(order, shares, president, price=20, bank=0, cash=None):
    g = table(PLAYERS, order=order, turn=3, cash=cash)
    drawn_until(g, "yellow")
    corporation(g, STARS, price=price, companies=["DSB"], cash=10, shares=shares, bank=bank, president=president)
    place(g, "KK", "available")
    return g


def test_rulebook_example_tie_goes_to_the_player_closer_after_the_seller():
    g = stars_position(["Crystal", "Amy", "Brian"], {"Amy": 1, "Crystal": 1, "Brian": 1}, "Amy")
    enter_phase(g, 1, actor="Amy")
    g.apply({"type": "sell_share", "player": "Amy", "corporation": STARS})
    snap = g.snapshot()
    corp = snap["corporations"][STARS]
    assert corp["president"] == "Brian"
    assert corp["bank_shares"] == 1 and corp["issued"] == 3
    assert snap["players"]["Brian"]["shares"] == {STARS: 1}
    assert snap["players"]["Crystal"]["shares"] == {STARS: 1}
    assert snap["players"]["Amy"]["shares"].get(STARS, 0) == 0
    # the bank pays the next lower card: 18
    assert corp["share_price"] == 18 and snap["players"]["Amy"]["cash"] == 30 + 18


def test_same_sale_with_crystal_right_after_amy():
    g = stars_position(["Amy", "Crystal", "Brian"], {"Amy": 1, "Crystal": 1, "Brian": 1}, "Amy")
    enter_phase(g, 1, actor="Amy")
    g.apply({"type": "sell_share", "player": "Amy", "corporation": STARS})
    assert g.snapshot()["corporations"][STARS]["president"] == "Crystal"


def test_wrap_around_the_player_order():
    """ "the player order is cyclic, the last player is followed by the first"."""
    g = stars_position(["Crystal", "Brian", "Amy"], {"Amy": 1, "Crystal": 1, "Brian": 1}, "Amy")
    enter_phase(g, 1, actor="Amy")
    g.apply({"type": "sell_share", "player": "Amy", "corporation": STARS})
    assert g.snapshot()["corporations"][STARS]["president"] == "Crystal"


def test_president_selling_to_a_tie_stays_president():
    g = stars_position(PLAYERS, {"Amy": 2, "Brian": 1}, "Amy", bank=1)
    enter_phase(g, 1, actor="Amy")
    g.apply({"type": "sell_share", "player": "Amy", "corporation": STARS})
    assert g.snapshot()["corporations"][STARS]["president"] == "Amy"  # 1 against 1 is not "more"


def test_buying_more_shares_than_the_president_takes_over():
    g = stars_position(PLAYERS, {"Amy": 1, "Brian": 1}, "Amy", bank=2)
    enter_phase(g, 1, actor="Brian")
    g.apply({"type": "buy_share", "player": "Brian", "corporation": STARS})
    snap = g.snapshot()
    assert snap["corporations"][STARS]["president"] == "Brian"
    assert snap["corporations"][STARS]["share_price"] == 22  # the next higher card
    assert snap["players"]["Brian"]["cash"] == 30 - 22


def test_buying_to_a_tie_does_not_take_over():
    g = stars_position(PLAYERS, {"Amy": 1}, "Amy", bank=3)
    enter_phase(g, 1, actor="Brian")
    g.apply({"type": "buy_share", "player": "Brian", "corporation": STARS})
    assert g.snapshot()["corporations"][STARS]["president"] == "Amy"  # 1 against 1


def test_last_share_sold_to_the_bank_means_receivership_and_a_buyer_ends_it():
    g = stars_position(PLAYERS, {"Amy": 1}, "Amy", bank=1)
    enter_phase(g, 1, actor="Amy")
    g.apply({"type": "sell_share", "player": "Amy", "corporation": STARS})
    corp = g.snapshot()["corporations"][STARS]
    assert corp["president"] is None and corp["receivership"] is True and corp["bank_shares"] == 2
    # Brian buys the President's Share and becomes president
    g.apply({"type": "buy_share", "player": "Brian", "corporation": STARS})
    corp = g.snapshot()["corporations"][STARS]
    assert corp["president"] == "Brian" and corp["receivership"] is False
    assert g.snapshot()["players"]["Brian"]["shares"] == {STARS: 1}


def test_player_order_in_the_takeover_counts_from_the_current_president():
    """Two players pass the president: the one first after the president in player order
    among those with the most shares takes over."""
    g = stars_position(["Brian", "Crystal", "Amy"], {"Amy": 1, "Brian": 1}, "Amy", bank=1)
    enter_phase(g, 1, actor="Crystal")
    g.apply({"type": "buy_share", "player": "Crystal", "corporation": STARS})  # ties Amy: no change
    assert g.snapshot()["corporations"][STARS]["president"] == "Amy"
    g.apply({"type": "sell_share", "player": "Amy", "corporation": STARS})
    # Amy (0) is passed by Brian (1) and Crystal (1): Brian follows Amy in the order
    assert g.snapshot()["corporations"][STARS]["president"] == "Brian"
