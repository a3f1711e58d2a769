"""Classic Rolling Stock's card data and its small rules: the share price tables at every
boundary, the IPO share counts and the Guide's worked figures.
"""

from __future__ import annotations

import json

import pytest

from assistant.rules.classic import rules
from assistant.rules.classic.cards import CARDS as cards

from .conftest import SHARED, require

CLASSIC_JSON = SHARED / "cards" / "rolling-stock.json"
ROW = cards.prices


def by_neighbours(price: int, issued: int, book: int) -> int:
    """The adjustment rule written out (1.5.9 and the cards' tables): below N x next lower card
    two cards down, below N x price one down, below N x next higher one up, else two up."""
    i = ROW.index(price)
    lower, higher = ROW[i - 1], ROW[i + 1]
    if book < issued * lower:
        return ROW[max(0, i - 2)]
    if book < issued * price:
        return ROW[i - 1]
    if book < issued * higher:
        return ROW[i + 1]
    return ROW[min(len(ROW) - 1, i + 2)]


CARDS_WITH_TABLES = [p for p in ROW if p not in (0, 100)]


@pytest.mark.parametrize("price", CARDS_WITH_TABLES)
@pytest.mark.parametrize("issued", range(2, 11))
def test_price_table_at_every_boundary(price, issued):
    i = ROW.index(price)
    bounds = {issued * ROW[i - 1], issued * price, issued * ROW[i + 1]}
    for b in sorted(bounds):
        for book in (b - 1, b, b + 1):
            if book < 0:
                continue
            got = rules.table_row(price, issued, book)[2]
            assert got == by_neighbours(price, issued, book), (price, issued, book)
            steps = rules.price_steps(price, issued, book)
            assert ROW[i + steps] == got
    # the rows cover every book value once, from 0 up
    rows = cards.adjustment_tables[price][issued]
    assert rows[0][0] == 0 and rows[-1][1] is None
    for (_, high, _), (low, _, _) in zip(rows, rows[1:], strict=False):
        assert low == high + 1


def test_the_guide_22_card_with_three_shares():
    """1.5.9's figure: the $22 card, 3 shares issued: $0-59 → 18, $60-65 → 20, $66-71 → 24, $72+ → 26."""
    assert [rules.table_row(22, 3, b)[2] for b in (0, 59, 60, 65, 66, 71, 72, 500)] == [18, 18, 20, 20, 24, 24, 26, 26]


def test_the_guide_dividend_example():
    """1.5.9: DSB, MS, BPM, BSE with $16 left: book value 62, $22 → 20; with $20 left: 66 → 24."""
    companies = ["DSB", "MS", "BPM", "BSE"]
    assert rules.book_value(16, companies) == 62
    assert ROW[ROW.index(22) + rules.price_steps(22, 3, 62)] == 20
    assert rules.book_value(20, companies) == 66
    assert ROW[ROW.index(22) + rules.price_steps(22, 3, 66)] == 24


def test_the_guide_dying_corporation():
    """4.2.2: the Star with the WT: issue at 9 (6 shares, $19), pay 3 a share, book 12 → 7;
    issue at 6 (7 shares, $7), pay 1 a share, book 11 → 0: bankrupt."""
    assert rules.max_payout(9) == 3 and 19 // 6 == 3
    assert ROW[ROW.index(9) + rules.price_steps(9, 6, rules.book_value(1, ["WT"]))] == 7
    assert rules.max_payout(6) == 2 and 7 // 7 == 1
    assert ROW[ROW.index(6) + rules.price_steps(6, 7, rules.book_value(0, ["WT"]))] == 0


@pytest.mark.parametrize(
    "face, price, shares, payment, treasury",
    [
        (8, 11, 1, 3, 14),  # 1.5.2: the MHE at 11 (the Bear)
        (12, 12, 1, 0, 12),  # 1.6.2 example 1: the BD at 12
        (12, 11, 2, 10, 32),  # example 2: the BD at 11
        (90, 45, 2, 0, 90),  # example 3: the LE at 45
        (90, 28, 4, 22, 134),  # example 4: the LE at 28
        # 4.1.4: every starting price for the MAD ($45): shares issued, money paid, treasury
        (45, 22, 3, 21, 87),
        (45, 24, 2, 3, 51),
        (45, 26, 2, 7, 59),
        (45, 28, 2, 11, 67),
        (45, 31, 2, 17, 79),
        (45, 34, 2, 23, 91),
        (45, 37, 2, 29, 103),
        (45, 41, 2, 37, 119),
        (45, 45, 1, 0, 45),
    ],
)
def test_ipo_terms(face, price, shares, payment, treasury):
    assert rules.ipo_terms(face, price) == (shares, payment, treasury)


def test_ipo_never_needs_more_than_four_shares():
    for abbr, c in cards.companies.items():
        for price in cards.ipo_prices[c.color]:
            n = rules.ipo_shares(c.face_value, price)
            assert n * price >= c.face_value and (n == 1 or (n - 1) * price < c.face_value), (abbr, price)
            assert n <= 4


def test_ipo_prices_by_colour():
    """1.5.2 / FORMAT-classic: red 10-14 ... purple 28-45, every card of the row within."""
    spans = {"red": (10, 14), "orange": (10, 20), "yellow": (10, 26), "green": (15, 34), "blue": (22, 45)}
    spans["purple"] = (28, 45)
    for color, (lo, hi) in spans.items():
        assert cards.ipo_prices[color] == tuple(p for p in ROW if lo <= p <= hi)


def test_max_payout_is_a_third_rounded_down():
    for p in ROW[1:-1]:
        assert rules.max_payout(p) == p // 3
    assert rules.max_payout(100) == 0


def test_guide_face_value_sums():
    """4.2.4's scavenger (all red, all orange and the DR) sums to 175, not the 174 the text says;
    4.2.5's builders: FS, SBB, KK, SNCF 112; VP, MM, LHR 209."""
    reds_oranges = [*cards.companies_by_color["red"], *cards.companies_by_color["orange"]]
    assert sum(cards.companies[a].face_value for a in reds_oranges + ["DR"]) == 175
    assert rules.book_value(0, ["FS", "SBB", "KK", "SNCF"]) == 112
    assert rules.book_value(0, ["VP", "MM", "LHR"]) == 209


def test_transcription_matches_the_shared_figures():
    data = json.loads(require(CLASSIC_JSON, "the classic card figures").read_text(encoding="utf-8"))
    assert list(cards.prices) == data["share_price_row"]
    for card in data["share_price_cards"]:
        assert cards.max_payout[card["price"]] == card["max_dividend_per_share"]
        for n, table in card.get("adjustment_table", {}).items():
            rows = [(r["book_value"][0], r["book_value"][1], r["new_price"]) for r in table]
            assert list(cards.adjustment_tables[card["price"]][int(n)]) == rows
    for c in data["companies"]:
        mine = cards.companies[c["abbr"]]
        assert (mine.face_value, [mine.price_min, mine.price_max], mine.income, mine.color, mine.synergies) == (
            c["face_value"],
            c["price_span"],
            c["income"],
            c["color"],
            c["synergies"],
        )
