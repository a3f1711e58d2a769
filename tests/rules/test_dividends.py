"""Phase 6, dividends and the share price adjustment (stars), with leapfrogging.

Rulebook, "TURN 2, PHASE 6 – DIVIDENDS", example: "Imagine the same corporation as in the
previous example [Synergistic: DSB, MS, BPM, BSE]. It has three shares issued, a current
share price of 22, and after paying dividends, it has 21 left in its treasury. Its star
count is therefore 3 + 2 + 1 + 1 + 2 (for 21 cash) = 9. With three shares issued, the share
price card asks for 7 stars. Since you have counted two more, the new share price is 27
... If the 27 share price card is not available, the next higher available share price
card must be taken. Note that the location of the 24 share price card doesn't matter here
... (If the corporation had only 2 less cash, its star count would be 8, and the new share
price would be only 24. If the corporations had less than 10 cash, its star count would be
only 7, and the share price would stay the same.)"

Other dividend rules used below: "If you have three shares issued and 8 in the treasury,
the maximum dividend per share is 2"; "Corporations in Receivership pay a dividend of 0";
"The Stars, Inc. corporation always adds two additional stars"; price 0 means bankruptcy
("It's perfectly legal to pay a dividend only to drop to 0 and go bankrupt right after");
75 ends the game only in phase 7.
"""

from __future__ import annotations

import pytest

from assistant.rules import RuleError

from .builders import corporation, drawn_until, enter_phase, phase_ends, table

PLAYERS = ["Amy", "Brian", "Crystal"]
SYN = "Synergistic"
EXAMPLE = ["DSB", "MS", "BPM", "BSE"]


def example(cash, blockers=(), shares=None, bank=1):
    """Synergistic at 22 with 3 issued shares (Amy 2, the bank 1), plus corporations holding
    other share price cards whose stars exactly meet their requirement (they stay put)."""
    g = table(PLAYERS, turn=2)
    corporation(
        g, SYN, price=22, companies=EXAMPLE, cash=cash, shares={"Amy": 2} if shares is None else shares, bank=bank
    )
    # 2 issued shares at 24 or 27 require 5 stars (4.8 / 5.4 rounded): a yellow and an orange
    for (name, price), companies in zip(blockers, (["KK", "WT"], ["NS", "BY"]), strict=False):
        corporation(g, name, price=price, companies=companies, cash=0, shares={"Brian": 1}, bank=1)
    drawn_until(g, "yellow")
    ends = phase_ends(g)
    enter_phase(g, 6)
    return g, ends


def pay_in_order(g, amounts):
    while g.phase == 6 and g.next and g.next.get("for") == "dividend":
        corp = g.next["corporation"]
        g.apply({"type": "dividend", "corporation": corp, "amount": amounts.get(corp, 0)})


def test_star_example_double_up_to_27():
    g, ends = example(cash=30)
    assert g.next == {"player": "Amy", "for": "dividend", "corporation": SYN}
    g.apply({"type": "dividend", "corporation": SYN, "amount": 3})  # 30 - 3 x 3 = 21 left
    end6 = ends[(2, 6)]
    corp = end6["corporations"][SYN]
    assert corp["cash"] == 21 and corp["stars"] == 9
    assert corp["share_price"] == 27
    assert end6["players"]["Amy"]["cash"] == 30 + 2 * 3


def test_star_example_with_2_less_cash_goes_up_one_to_24():
    g, ends = example(cash=28)
    g.apply({"type": "dividend", "corporation": SYN, "amount": 3})  # 19 left: 8 stars
    assert ends[(2, 6)]["corporations"][SYN]["share_price"] == 24


def test_star_example_with_less_than_10_cash_stays():
    g, ends = example(cash=30)
    g.apply({"type": "dividend", "corporation": SYN, "amount": 7})  # 9 left: 7 stars
    corp = ends[(2, 6)]["corporations"][SYN]
    assert corp["cash"] == 9 and corp["share_price"] == 22


def test_star_example_leapfrogs_27_in_use():
    g, ends = example(cash=30, blockers=[("Doppler AG", 27)])
    pay_in_order(g, {SYN: 3})
    end6 = ends[(2, 6)]["corporations"]
    assert end6["Doppler AG"]["share_price"] == 27  # its 5 stars meet the 5 required
    assert end6[SYN]["share_price"] == 30


def test_star_example_24_in_use_does_not_matter():
    g, ends = example(cash=30, blockers=[("Doppler AG", 24)])
    pay_in_order(g, {SYN: 3})
    end6 = ends[(2, 6)]["corporations"]
    assert end6["Doppler AG"]["share_price"] == 24
    assert end6[SYN]["share_price"] == 27


def test_star_example_27_and_30_in_use():
    g = table(PLAYERS, turn=2)
    corporation(g, SYN, price=22, companies=EXAMPLE, cash=30, shares={"Amy": 2}, bank=1)
    # 2 shares at 30 require 6 stars: a green (4) and an orange (2)
    corporation(g, "Doppler AG", price=27, companies=["KK", "WT"], cash=0, shares={"Brian": 1}, bank=1)
    corporation(g, "Stock Masters", price=30, companies=["BY", "SZD"], cash=0, shares={"Brian": 1}, bank=1)
    drawn_until(g, "green")
    ends = phase_ends(g)
    enter_phase(g, 6)
    pay_in_order(g, {SYN: 3})
    end6 = ends[(2, 6)]["corporations"]
    assert (end6["Stock Masters"]["share_price"], end6["Doppler AG"]["share_price"]) == (30, 27)
    assert end6[SYN]["share_price"] == 33


def test_dividends_go_in_share_price_order_highest_first():
    g, _ = example(cash=30, blockers=[("Doppler AG", 27), ("Stock Masters", 24)])
    order = []
    while g.phase == 6:
        order.append(g.next["corporation"])
        g.apply({"type": "dividend", "corporation": g.next["corporation"], "amount": 0})
    assert order == ["Doppler AG", "Stock Masters", SYN]


def test_maximum_dividend_is_limited_by_the_card_and_the_treasury():
    # the 22 card allows 7 per share; 3 shares and 8 cash allow only 2
    g, _ = example(cash=8)
    item = g.legal_actions()[0]
    assert (item["type"], item["min"], item["max"]) == ("dividend", 0, 2)
    g, _ = example(cash=100)
    assert g.legal_actions()[0]["max"] == 7


def test_bank_shares_receive_dividends_too():
    g, ends = example(cash=30, shares={"Amy": 1}, bank=2)
    g.apply({"type": "dividend", "corporation": SYN, "amount": 5})
    end6 = ends[(2, 6)]
    assert end6["corporations"][SYN]["cash"] == 15  # 3 shares x 5 left the treasury
    assert end6["players"]["Amy"]["cash"] == 35
    to_bank = [m for m in g.journal[-1]["moves"] if m[1] == "Bank" and m[0] == SYN]
    assert sum(m[2] for m in to_bank) == 10


def test_receivership_pays_nothing_and_still_adjusts():
    g, ends = example(cash=30, shares={}, bank=3)  # in receivership: no decision asked
    corp = ends[(2, 6)]["corporations"][SYN]
    assert corp["cash"] == 30  # 0 paid; 3 stars from the cash + 7 from companies = 10 against 7
    assert corp["share_price"] == 27


def test_stars_inc_counts_two_more_stars():
    g = table(PLAYERS, turn=2)
    # 2 issued shares at 14 require 3 stars (2.8); the MS has 2, Stars, Inc. adds 2: 4, one up
    corporation(g, "Stars, Inc.", price=14, companies=["MS"], cash=0, shares={"Amy": 1}, bank=1)
    drawn_until(g, "orange")
    ends = phase_ends(g)
    enter_phase(g, 6)
    g.apply({"type": "dividend", "corporation": "Stars, Inc.", "amount": 0})
    assert ends[(2, 6)]["corporations"]["Stars, Inc."]["stars"] == 4
    assert ends[(2, 6)]["corporations"]["Stars, Inc."]["share_price"] == 16


def test_double_down_to_0_is_bankruptcy_after_the_dividend_is_paid():
    g = table(PLAYERS, turn=4)
    corporation(g, "Junkyard Scrappers", price=6, companies=["BSE"], cash=7, shares={"Amy": 4}, bank=3)
    ends = phase_ends(g)
    enter_phase(g, 6)
    assert g.legal_actions()[0]["max"] == 1  # 7 cash for 7 shares
    g.apply({"type": "dividend", "corporation": "Junkyard Scrappers", "amount": 1})
    # 7 shares at 6 require 4 stars (4.2); 1 star: double down from 6 is 0
    end6 = ends[(4, 6)]
    assert "Junkyard Scrappers" not in end6["corporations"]
    assert end6["players"]["Amy"]["cash"] == 30 + 4  # the dividend was paid first
    assert end6["players"]["Amy"]["shares"].get("Junkyard Scrappers", 0) == 0


@pytest.mark.parametrize("price, up", [(61, 75), (68, 75)])
def test_reaching_75_in_phase_6_ends_the_game_in_phase_7(price, up):
    g = table(PLAYERS, turn=6)
    drawn_until(g, "blue")
    # 2 shares at 61 or 68 require 12 or 14 stars: CDG + LHR (10) + 50 cash -> 15 stars
    corporation(g, "Doppler AG", price=price, companies=["CDG", "LHR"], cash=50, shares={"Amy": 1}, bank=1)
    ends = phase_ends(g)
    enter_phase(g, 6)
    g.apply({"type": "dividend", "corporation": "Doppler AG", "amount": 0})
    assert ends[(6, 6)]["corporations"]["Doppler AG"]["share_price"] == up
    assert ends[(6, 6)]["game_over"] is False
    assert g.game_over and g.phase == 7 and g.snapshot()["next"] is None
    assert g.snapshot()["final"]["scores"]["Amy"] == 30 + 75


# ---------------------------------------------------------------- what the log, the banker and the menu say
def test_the_dividend_is_logged_and_each_holder_paid_by_the_corporation():
    """The rulebook example: Synergistic pays 3 per share on its 3 shares (Amy 2, the bank 1),
    30 - 9 = 21 left: Amy gets 6, the bank 3; 9 stars against 7: double up to 27."""
    g, _ = example(cash=30)
    assert g.legal_actions() == [{"type": "dividend", "player": "Amy", "corporation": SYN, "min": 0, "max": 7}]
    g.apply({"type": "dividend", "corporation": SYN, "amount": 3})
    assert g.journal[-1]["text"].startswith(f"{SYN} pays 3 per share; ")
    moves = g.journal[-1]["moves"]
    assert moves[:2] == ((SYN, "Amy", 6, "dividend"), (SYN, "Bank", 3, "dividend on bank shares"))


def test_a_receiver_is_logged_paying_nothing():
    g, _ = example(cash=30, shares={}, bank=3)
    assert any(line.startswith(f"{SYN} (in receivership) pays 0 per share; ") for line in g._auto), g._auto


def test_a_dividend_that_drops_the_price_to_0_is_logged_as_the_bankruptcy_it_is():
    g = table(PLAYERS, turn=4)
    corporation(g, "Junkyard Scrappers", price=6, companies=["BSE"], cash=7, shares={"Amy": 4}, bank=3)
    enter_phase(g, 6)
    g.apply({"type": "dividend", "corporation": "Junkyard Scrappers", "amount": 1})
    assert any(
        line.startswith("Junkyard Scrappers goes bankrupt (its share price fell to 0): ")
        for line in g.journal[-1]["auto"]
    )


def test_refusals_say_what_a_dividend_may_be():
    """3 shares and 8 in the treasury: at most 2 per share (the rulebook's example), though the
    22 card allows 7."""
    g, _ = example(cash=8)
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "dividend", "corporation": SYN, "amount": -1})
    assert refused.value.message == "The dividend is a whole number of coins per share, 0 or more."
    with pytest.raises(RuleError) as refused:
        g.apply({"type": "dividend", "corporation": SYN, "amount": 3})
    assert refused.value.message == (
        "Synergistic can pay at most 2 per share (share price 22 allows 7; 8 cash for 3 shares)."
    )
