"""Required stars on the share price cards: n x price / 10, halves rounded UP.

FORMAT.md, appendix: "Required stars for n issued shares = n x share price / 10, rounded to
the nearest whole number, halves rounded up (5 shares at 13 -> 7; 3 shares at 22 -> 7)."
"Maximum payout per share = share price / 3, rounded down (5 -> 1, 12 -> 4, 20 -> 6,
37 -> 12, 68 -> 22)."  Python's round() sends halves to the even number, so it must not be
used for this.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest

from assistant.rules.stars import pricing
from assistant.rules.stars.cards import CARDS

from .builders import SHARE_PRICE_CARDS

PRICES = CARDS.prices


def required_stars(price, issued):
    return pricing.required_stars(CARDS, price, issued)


def max_dividend(price):
    return CARDS.max_payout[price] or 0


CARDS_WITH_STARS = [p for p in PRICES if p not in (0, 75)]
SHARE_COUNTS = range(2, 8)


def by_hand(n: int, price: int) -> int:
    """n x price / 10 rounded half up, with exact decimal arithmetic."""
    return int((Decimal(n) * Decimal(price) / Decimal(10)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def test_every_card_between_0_and_75_has_stars_for_2_to_7_shares():
    assert CARDS_WITH_STARS == [
        5,
        6,
        7,
        8,
        9,
        10,
        11,
        12,
        13,
        14,
        16,
        18,
        20,
        22,
        24,
        27,
        30,
        33,
        37,
        41,
        45,
        50,
        55,
        61,
        68,
    ]
    for price in CARDS_WITH_STARS:
        assert sorted(SHARE_PRICE_CARDS[price][2]) == list(SHARE_COUNTS), price


@pytest.mark.parametrize("price", CARDS_WITH_STARS)
@pytest.mark.parametrize("n", SHARE_COUNTS)
def test_card_table_is_n_times_price_over_10_rounded_half_up(price, n):
    expected = by_hand(n, price)
    assert SHARE_PRICE_CARDS[price][2][n] == expected
    assert required_stars(price, n) == expected


def test_format_examples():
    assert SHARE_PRICE_CARDS[13][2][5] == 7  # 6.5 -> 7
    assert SHARE_PRICE_CARDS[22][2][3] == 7  # 6.6 -> 7
    assert required_stars(13, 5) == 7 and required_stars(22, 3) == 7


def test_pythons_round_would_get_the_halves_wrong():
    # round() rounds 6.5 to 6 (banker's rounding): 5 shares at 13 would need 6 stars, not 7
    assert round(5 * 13 / 10) == 6 != SHARE_PRICE_CARDS[13][2][5]
    wrong = [
        (n, p)
        for p in CARDS_WITH_STARS
        for n in SHARE_COUNTS
        if round(Fraction(n * p, 10)) != SHARE_PRICE_CARDS[p][2][n]
    ]
    # exactly the halves with an even integer part: 0.5 above an even number
    halves_to_even = [
        (n, p) for p in CARDS_WITH_STARS for n in SHARE_COUNTS if (n * p) % 10 == 5 and (n * p // 10) % 2 == 0
    ]
    assert wrong == halves_to_even
    assert (5, 13) in wrong and len(wrong) >= 5
    # 3 shares at 22 is 6.6: not a half, so round() happens to agree there
    assert round(3 * 22 / 10) == SHARE_PRICE_CARDS[22][2][3] == 7


def test_required_stars_on_every_half_round_up():
    for n in SHARE_COUNTS:
        for price in CARDS_WITH_STARS:
            if (n * price) % 10 == 5:
                assert required_stars(price, n) == (n * price + 5) // 10


@pytest.mark.parametrize("price", CARDS_WITH_STARS)
def test_maximum_payout_is_a_third_rounded_down(price):
    assert SHARE_PRICE_CARDS[price][1] == price // 3
    assert max_dividend(price) == price // 3


def test_format_payout_examples():
    assert [max_dividend(p) for p in (5, 12, 20, 37, 68)] == [1, 4, 6, 12, 22]


def test_0_and_75_cards_have_no_figures():
    for price in (0, 75):
        assert SHARE_PRICE_CARDS[price][1] is None and SHARE_PRICE_CARDS[price][2] is None
        assert max_dividend(price) == 0
