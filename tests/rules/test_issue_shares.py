"""Phase 8, issue shares.

Canonical rules: "In Share Price Order, each Corporation may Issue One Share ...
Corporations in Receivership Issue One Share if they have any left."  Issue One Share:
"Works in the same way as Selling One Share ... take the Share given to the Bank from the
stack of unissued Shares ... If the acting Corporation is Stock Masters, the Share Price
does not change. The Stock Masters Corporation simply receives the current Share Price."
Rulebook: "issuing a share is another way to lower the share price to 0, which will trigger
bankruptcy"; "A corporation in receivership will always issue a share if at all possible,
even if it goes bankrupt by doing so."
"""

from __future__ import annotations

import pytest

from assistant.rules import RuleError

from .builders import corporation, drawn_until, enter_phase, phase_ends, table

PLAYERS = ["Amy", "Brian", "Crystal"]


def position(*corps):
    """corps: (name, price, shares, bank, companies)."""
    g = table(PLAYERS, turn=3)
    for name, price, shares, bank, companies in corps:
        corporation(g, name, price=price, companies=companies, cash=10, shares=shares, bank=bank)
    drawn_until(g, "yellow")
    ends = phase_ends(g)
    enter_phase(g, 8)
    return g, ends


def test_issue_moves_down_and_the_bank_pays_the_new_price():
    g, ends = position(("Doppler AG", 20, {"Amy": 1}, 1, ["DSB"]))
    assert g.next == {"player": "Amy", "for": "issue", "corporation": "Doppler AG"}
    assert g.legal_actions() == [
        {"type": "issue", "player": "Amy", "corporation": "Doppler AG", "price": 18},
        {"type": "skip_issue", "player": "Amy", "corporation": "Doppler AG"},
    ]
    g.apply({"type": "issue", "corporation": "Doppler AG"})
    assert g.journal[-1]["text"] == "Doppler AG issues a share for 18"
    assert ("Bank", "Doppler AG", 18, "issues a share") in g.journal[-1]["moves"]
    corp = ends[(3, 8)]["corporations"]["Doppler AG"]
    assert (corp["share_price"], corp["cash"], corp["issued"], corp["bank_shares"], corp["unissued"]) == (
        18,
        28,
        3,
        2,
        2,
    )


def test_issue_leapfrogs_cards_in_use():
    g, ends = position(("Doppler AG", 20, {"Amy": 1}, 1, ["DSB"]), ("Synergistic", 18, {"Brian": 1}, 1, ["KK"]))
    g.apply({"type": "issue", "corporation": "Doppler AG"})
    g.apply({"type": "skip_issue", "corporation": "Synergistic"})
    corps = ends[(3, 8)]["corporations"]
    assert corps["Doppler AG"]["share_price"] == 16 and corps["Doppler AG"]["cash"] == 26
    assert corps["Synergistic"]["share_price"] == 18 and corps["Synergistic"]["issued"] == 2


def test_stock_masters_keeps_its_price_and_receives_it():
    g, ends = position(("Stock Masters", 20, {"Amy": 1}, 1, ["DSB"]))
    assert next(i for i in g.legal_actions() if i["type"] == "issue")["price"] == 20
    g.apply({"type": "issue", "corporation": "Stock Masters"})
    corp = ends[(3, 8)]["corporations"]["Stock Masters"]
    assert (corp["share_price"], corp["cash"], corp["issued"]) == (20, 30, 3)


def test_in_share_price_order_and_only_with_unissued_shares():
    g, _ = position(
        ("Doppler AG", 16, {"Amy": 1}, 1, ["DSB"]),
        ("Stars, Inc.", 24, {"Brian": 2}, 2, ["KK"]),  # all 4 issued: not asked
        ("Synergistic", 20, {"Crystal": 1}, 1, ["NS"]),
    )
    asked = []
    while g.phase == 8:
        asked.append(g.next["corporation"])
        with pytest.raises(RuleError):  # not the turn of the others
            g.apply({"type": "skip_issue", "corporation": "Stars, Inc."})
        g.apply({"type": "skip_issue", "corporation": g.next["corporation"]})
    assert asked == ["Synergistic", "Doppler AG"]


def test_receivership_issues_by_itself():
    g, ends = position(("Doppler AG", 20, {}, 2, ["DSB"]))
    corp = ends[(3, 8)]["corporations"]["Doppler AG"]
    assert (corp["share_price"], corp["cash"], corp["bank_shares"]) == (18, 28, 3)
    assert not any(e["type"] in ("issue", "skip_issue") for e in g.events)
    assert "Doppler AG (in receivership) issues a share for 18" in g._auto


def test_receivership_issues_even_into_bankruptcy():
    g, ends = position(("Doppler AG", 5, {}, 2, ["BSE"]))
    assert "Doppler AG" not in ends[(3, 8)]["corporations"]
    assert "BSE" not in g.owner
    assert [line for line in g._auto if line.startswith("Doppler AG")] == [
        "Doppler AG goes bankrupt (issuing a share dropped its price to 0): its companies leave the game, "
        "its shares are void, its charter is free again",
        "Doppler AG (in receivership) issues a share",
    ]


def test_president_may_issue_into_bankruptcy():
    g, ends = position(("Doppler AG", 5, {"Amy": 1}, 1, ["BSE"]))
    assert next(i for i in g.legal_actions() if i["type"] == "issue")["price"] == 0
    g.apply({"type": "issue", "corporation": "Doppler AG"})
    assert "Doppler AG" not in ends[(3, 8)]["corporations"]
    assert ends[(3, 8)]["players"]["Amy"]["shares"].get("Doppler AG", 0) == 0
    assert "Doppler AG" in g.free_charters()
