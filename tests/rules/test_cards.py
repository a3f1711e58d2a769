"""The card figures in assistant/rules/stars/cards.json against the shared transcription of the cards
(../shared/cards/rolling-stock-stars.json), plus checks that need no file: synergies are
mutual, the bonus follows the colours, the deck make-up follows the setup rules.
"""

from __future__ import annotations

import json

import pytest

from assistant.rules.registry import STARS
from assistant.rules.stars.cards import CARDS

from .builders import SHARE_PRICE_CARDS
from .conftest import CARDS_JSON, require

STARS_BY_COLOR = {c: CARDS.companies[CARDS.companies_by_color[c][0]].stars for c in CARDS.colors}
COLORS = CARDS.colors
COMPANIES = CARDS.companies
CORPORATIONS = STARS.corporations
COST_BY_TOP = CARDS.cost_by_top
DECK_COUNTS = CARDS.deck_counts
FOREIGN_INVESTOR_BONUS = CARDS.foreign_investor_income
FOREIGN_INVESTOR_START = CARDS.foreign_investor_start
HIGHEST_OF_COLOR = CARDS.highest_of_color
IPO_PRICES = CARDS.ipo_prices
PRICES = CARDS.prices
STARTING_CASH = CARDS.starting_cash


@pytest.fixture(scope="module")
def cards():
    return json.loads(require(CARDS_JSON, "the card figures (cards/rolling-stock-stars.json)").read_text())


# ---------------------------------------------------------------- against the shared file


def test_company_list(cards):
    assert [c["abbr"] for c in cards["companies"]] == list(COMPANIES)


@pytest.mark.parametrize(
    "field", ["name", "face_value", "price_span", "income", "color", "stars", "highest_of_color", "synergies"]
)
def test_company_figures(cards, field):
    attr = {"price_span": lambda c: [c.price_min, c.price_max]}.get(field, lambda c: getattr(c, field))
    mismatches = {
        c["abbr"]: (c[field], attr(COMPANIES[c["abbr"]]))
        for c in cards["companies"]
        if c[field] != attr(COMPANIES[c["abbr"]])
    }
    assert mismatches == {}


def test_corporations(cards):
    assert {c["name"]: c["shares"] for c in cards["corporations"]} == {
        name: corp.shares for name, corp in CORPORATIONS.items()
    }


def test_deck_counts(cards):
    expected = {int(n): counts for n, counts in cards["deck"]["companies_per_color_in_deck"].items()}
    assert expected == DECK_COUNTS


def test_cost_of_ownership(cards):
    coo = cards["cost_of_ownership"]
    for color in COLORS:
        assert COST_BY_TOP[color] == coo[f"deck_top_{color}"], color
    assert COST_BY_TOP["end_front"] == coo["game_end_card_front"]
    assert COST_BY_TOP["end_back"] == coo["game_end_card_back"]


def test_share_price_row_and_cards(cards):
    assert list(PRICES) == cards["share_price_row"]
    for card in cards["share_price_cards"]:
        colors, payout, stars = SHARE_PRICE_CARDS[card["price"]]
        assert sorted(colors) == sorted(card["ipo_colors"]), card["price"]
        assert payout == card["max_dividend_per_share"], card["price"]
        expected = None if card["required_stars"] is None else {int(k): v for k, v in card["required_stars"].items()}
        assert stars == expected, card["price"]
    assert len(cards["share_price_cards"]) == len(SHARE_PRICE_CARDS) == 27


def test_money_at_the_start(cards):
    assert {int(n): cash for n, cash in cards["starting_cash"].items()} == STARTING_CASH
    assert cards["foreign_investor"] == {
        "starting_cash": FOREIGN_INVESTOR_START,
        "extra_income": FOREIGN_INVESTOR_BONUS,
    }


# ---------------------------------------------------------------- rules checks (no file needed)


def test_synergies_are_mutual_with_the_same_bonus():
    for a, company in COMPANIES.items():
        for b, bonus in company.synergies.items():
            assert COMPANIES[b].synergies.get(a) == bonus, (a, b)


def test_synergy_bonus_follows_the_colours():
    """FORMAT.md appendix: red-red 1; orange with red 1, with orange 2; yellow with
    red/orange 2, with yellow 4; green with a lower colour 4, with green 8; blue with yellow
    4, with green 8, with blue 16."""
    rank = {c: i for i, c in enumerate(COLORS)}
    table = {
        ("red", "red"): 1,
        ("orange", "red"): 1,
        ("orange", "orange"): 2,
        ("yellow", "red"): 2,
        ("yellow", "orange"): 2,
        ("yellow", "yellow"): 4,
        ("green", "red"): 4,
        ("green", "orange"): 4,
        ("green", "yellow"): 4,
        ("green", "green"): 8,
        ("blue", "yellow"): 4,
        ("blue", "green"): 8,
        ("blue", "blue"): 16,
    }
    for a, company in COMPANIES.items():
        for b, bonus in company.synergies.items():
            hi, lo = sorted((company.color, COMPANIES[b].color), key=lambda c: -rank[c])
            assert table[(hi, lo)] == bonus, (a, b)


def test_stars_and_highest_of_each_colour():
    assert STARS_BY_COLOR == {"red": 1, "orange": 2, "yellow": 3, "green": 4, "blue": 5}
    assert HIGHEST_OF_COLOR == {"red": "MHE", "orange": "PR", "yellow": "DR", "green": "E", "blue": "CDG"}
    faces = [c.face_value for c in COMPANIES.values()]
    assert len(set(faces)) == len(faces) == 36  # face values are unique


def test_deck_counts_follow_the_setup_rules():
    """ "draw a number of companies from each pile that is equal to the number of players.
    Exceptions: With 4 players, draw 5 orange companies. With 5 players, draw 7 orange
    companies. With 6 players, simply use all companies" - plus the highest of each colour."""
    per_color = {c: sum(1 for x in COMPANIES.values() if x.color == c) for c in COLORS}
    for n in range(2, 7):
        for color in COLORS:
            drawn = n
            if color == "orange" and n == 4:
                drawn = 5
            if color == "orange" and n == 5:
                drawn = 7
            expected = per_color[color] if n == 6 else min(drawn + 1, per_color[color])
            assert DECK_COUNTS[n][color] == expected, (n, color)


def test_ipo_prices_per_colour():
    """FORMAT.md appendix: red 10-14; orange 10 ... 20; yellow 16 ... 27; green 22 ... 37; blue 30 ... 37."""
    assert IPO_PRICES == {
        "red": (10, 11, 12, 13, 14),
        "orange": (10, 11, 12, 13, 14, 16, 18, 20),
        "yellow": (16, 18, 20, 22, 24, 27),
        "green": (22, 24, 27, 30, 33, 37),
        "blue": (30, 33, 37),
    }


def test_starting_money():
    assert STARTING_CASH == {2: 30, 3: 30, 4: 30, 5: 30, 6: 25}
    assert (FOREIGN_INVESTOR_START, FOREIGN_INVESTOR_BONUS) == (4, 5)
