"""The investment phase in its own words, entry by entry (Stars phase 1, and the same in v2.2,
whose rulebook writes money as $): each entry's text, what the engine does by itself after it
(``auto``), the banker's moves, and each refusal's reason.  Figures from the rules and the card
data: the BD's face value is 13; the share price cards run 0, 5, 6, 7, 8, 9, 10, 11 ...; a player
starts with 30 (three players)."""

from __future__ import annotations

import pytest

from assistant.rules import RuleError
from assistant.rules.registry import STARS, V22

from .builders import corporation, place, table

PLAYERS = ["Amy", "Brian", "Crystal"]
# (ruleset, its money, the corporation with an income per company: Prussian Railway in Stars, Jupiter in v2.2)
GAMES = [(STARS, "{}", "Prussian Railway"), (V22, "${}", "Jupiter")]


def _entry(g, event) -> dict:
    g.apply(event)
    entry = g.journal[-1]
    return {"text": entry["text"], "auto": list(entry["auto"]), "moves": list(entry["moves"])}


def _refused(g, event) -> str:
    with pytest.raises(RuleError) as refused:
        g.apply(event)
    return refused.value.message


@pytest.mark.parametrize(("ruleset", "money", "corp"), GAMES)
def test_an_auction_entry_by_entry(ruleset, money, corp):
    m = money.format
    g = table(PLAYERS, turn=2, ruleset=ruleset, cash={"Crystal": 14})
    place(g, "BD", "available")
    bid = {"type": "bid", "player": "Amy", "company": "BD"}
    assert _refused(g, bid) == "A bid must be a whole number of coins."  # no price at all
    assert _refused(g, {**bid, "company": "ZZZ", "price": 13}) == "There is no company 'ZZZ'."
    assert _refused(g, {**bid, "player": "Zed", "price": 13}) == "There is no player 'Zed' in this game."
    assert _refused(g, {"type": "leave", "player": "Amy"}) == "No auction is running, so there is nothing to leave."
    assert _entry(g, {**bid, "price": 13}) == {
        "text": f"Amy starts an auction for the BD at {m(13)}",
        "auto": [],
        "moves": [],
    }
    assert _refused(g, {**bid, "player": "Brian", "price": 13}) == (
        f"A raise must be above the current bid of {m(13)}; {m(13)} is not."
    )
    # Brian raises to 14; Crystal has 14, so cannot raise above it and leaves by herself
    assert _entry(g, {**bid, "player": "Brian", "price": 14}) == {
        "text": f"Brian bids {m(14)} for the BD",
        "auto": [f"Crystal cannot raise above {m(14)} and leaves the auction"],
        "moves": [],
    }
    # Amy leaves: Brian wins and pays the bank; the turn goes to the player after the starter
    assert _entry(g, {"type": "leave", "player": "Amy"}) == {
        "text": "Amy leaves the auction for the BD",
        "auto": [f"Brian wins the BD for {m(14)}"],
        "moves": [("Brian", "Bank", 14, "wins the BD")],
    }
    assert (g.players["Brian"].cash, g.order[g.actor], g.passes) == (16, "Brian", 0)


@pytest.mark.parametrize(("ruleset", "money", "corp"), GAMES)
def test_a_start_of_an_auction_counts_the_passes_again(ruleset, money, corp):
    """Amy passes, then Brian starts an auction: the passes in a row start again from none."""
    g = table(PLAYERS, turn=2, ruleset=ruleset)
    place(g, "BD", "available")
    g.apply({"type": "pass", "player": "Amy"})
    assert g.passes == 1
    g.apply({"type": "bid", "player": "Brian", "company": "BD", "price": 13})
    assert g.passes == 0


@pytest.mark.parametrize(("ruleset", "money", "corp"), GAMES)
def test_shares_bought_and_sold_entry_by_entry(ruleset, money, corp):
    """The corporation at 10 with Amy's 2 shares and 1 in the bank: a share bought costs the next
    higher card, 11; then sold, the next lower free one, 10 again."""
    m = money.format
    g = table(PLAYERS, turn=2, ruleset=ruleset)
    corporation(g, corp, price=10, companies=["BD"], cash=5, shares={"Amy": 2}, bank=1)
    place(g, "KME", "available")  # something to do for Brian and Crystal
    assert _entry(g, {"type": "buy_share", "player": "Amy", "corporation": corp}) == {
        "text": f"Amy buys a {corp} share for {m(11)}",
        "auto": [],
        "moves": [("Amy", "Bank", 11, f"buys a {corp} share")],
    }
    assert _refused(g, {"type": "buy_share", "player": "Brian", "corporation": corp}) == (
        f"The bank has no {corp} share to sell."
    )
    g.apply({"type": "pass", "player": "Brian"})
    g.apply({"type": "pass", "player": "Crystal"})
    assert _entry(g, {"type": "sell_share", "player": "Amy", "corporation": corp}) == {
        "text": f"Amy sells a {corp} share for {m(10)}",
        "auto": [],
        "moves": [("Bank", "Amy", 10, f"sells a {corp} share")],
    }
    assert g.players["Amy"].shares[corp] == 2 and g.corps[corp].bank_shares == 1


@pytest.mark.parametrize(("ruleset", "money", "corp"), GAMES)
def test_the_presidents_share_bought_from_the_bank_ends_the_receivership(ruleset, money, corp):
    m = money.format
    g = table(PLAYERS, turn=2, ruleset=ruleset)
    corporation(g, corp, price=10, companies=["BD"], cash=5, shares={}, bank=2)
    place(g, "KME", "available")
    assert g.corps[corp].president is None
    assert _entry(g, {"type": "buy_share", "player": "Amy", "corporation": corp})["text"] == (
        f"Amy buys a {corp} share for {m(11)} (the President's Share: Amy ends the receivership)"
    )
    assert g.corps[corp].president == "Amy"


@pytest.mark.parametrize(("ruleset", "money", "corp"), GAMES)
def test_a_share_sold_at_the_lowest_card_bankrupts_the_corporation(ruleset, money, corp):
    """At 5, the lowest card above 0: a share sold takes the price to 0, and the corporation goes
    bankrupt; the seller gets nothing, its shares are void, its companies leave the game."""
    m = money.format
    g = table(PLAYERS, turn=2, ruleset=ruleset)
    corporation(g, corp, price=5, companies=["BD"], cash=3, shares={"Amy": 2}, bank=0)
    place(g, "KME", "available")
    entry = _entry(g, {"type": "sell_share", "player": "Amy", "corporation": corp})
    assert entry["text"] == f"Amy sells a {corp} share for {m(0)}"
    assert entry["auto"][0].startswith(f"{corp} goes bankrupt (its share price fell to {m(0)}): ")
    assert entry["moves"] == [(corp, "Bank", 3, "bankruptcy")]
    assert corp not in g.players["Amy"].shares and g.players["Amy"].cash == 30 and corp not in g.corps


@pytest.mark.parametrize(("ruleset", "money", "corp"), GAMES)
def test_a_player_with_nothing_to_do_passes_by_himself(ruleset, money, corp):
    """Brian has no money and no shares, and nothing is for sale at 0: after Amy's pass he passes
    by himself, and it is Crystal's turn."""
    g = table(PLAYERS, turn=2, ruleset=ruleset, cash={"Brian": 0})
    place(g, "BD", "available")
    assert _entry(g, {"type": "pass", "player": "Amy"}) == {
        "text": "Amy passes",
        "auto": ["Brian has nothing to do and passes"],
        "moves": [],
    }
    assert (g.order[g.actor], g.passes) == ("Crystal", 2)


def test_what_the_table_sees_before_a_trade():
    """share_trade, written out whole: a legal buy, one out of turn, a sale into receivership and a
    sale that bankrupts (the corporation at 10 with 1 share in the bank, at 5 with none)."""
    from assistant.rules.core.phases.investment import share_trade

    corp = "Prussian Railway"
    g = table(PLAYERS, turn=2)
    corporation(g, corp, price=10, companies=["BD"], cash=5, shares={"Amy": 1}, bank=1)
    place(g, "KME", "available")
    buy = {"type": "buy_share", "player": "Amy", "corporation": corp}
    assert share_trade(g, "Amy", corp, buying=True) == {
        "event": buy,
        "price": 11,
        "skipped": [],
        "legal": True,
        "error": None,
        "president_before": "Amy",
        "president_after": "Amy",
        "presidency_changes": False,
        "receivership": False,
        "bankrupt": False,
        "game_ends": False,
    }
    assert share_trade(g, "Brian", corp, buying=True) == {
        "event": {**buy, "player": "Brian"},
        "price": 11,
        "skipped": [],
        "legal": False,
        "error": "It is Amy's turn, not Brian's.",
        "president_before": "Amy",
    }
    sale = share_trade(g, "Amy", corp, buying=False)  # her only share: the bank holds them all
    assert (sale["price"], sale["legal"], sale["president_after"]) == (9, True, None)
    assert (sale["presidency_changes"], sale["receivership"], sale["bankrupt"]) == (True, True, False)
    g.corps[corp].price, g.price_holder = 5, {5: corp}
    broke = share_trade(g, "Amy", corp, buying=False)
    assert (broke["price"], broke["president_after"], broke["bankrupt"]) == (0, None, True)
    assert (broke["presidency_changes"], broke["receivership"], broke["game_ends"]) == (False, False, False)
