"""Every explanation of every ruleset works at every share price, the top card included (classic's
$100 card has no adjustment table: its book value explanation said KeyError: 100)."""

from __future__ import annotations

import pytest

from assistant.rules import registry
from assistant.rules.core.entities import Corporation
from assistant.rules.core.market import price_row
from assistant.rules.core.phases.dividends import explain_dividend_limit, explain_price_after_dividend
from assistant.rules.core.phases.income import explain_income
from assistant.rules.core.phases.investment import explain_share_price
from assistant.rules.core.pricing import explain_rating
from assistant.rules.core.scores import explain_score

KEYS = ["rolling-stock-stars", "rolling-stock-v2.2", "rolling-stock"]


def _game_with_a_corporation(key: str):
    ruleset = registry.get(key)
    game = ruleset.create(["Amy", "Brian", "Crystal"])
    for color in game.colors:
        game.deck_left[color] = 0
    game.pending_reveals, game.setup = 0, False
    name = next(iter(ruleset.corporations))
    corp = Corporation(name, ruleset.cards.prices[1], ruleset.corporations[name].shares)
    corp.cash, corp.issued, corp.bank_shares, corp.president = 23, 3, 1, "Amy"
    game.corps[name] = corp
    game.players["Amy"].shares[name] = 2
    abbr = next(iter(ruleset.cards.companies))
    game._give_company(abbr, corp)
    return game, corp


@pytest.mark.parametrize("key", KEYS)
def test_every_explanation_works_at_every_share_price(key):
    game, corp = _game_with_a_corporation(key)
    for price in game.cards.prices[1:]:
        game._set_price(corp, price)
        rating = explain_rating(game, corp.name)
        assert rating["lines"] and isinstance(rating["total"], int), price
        for amount in range(0, game.dividend_max(corp) + 1):
            after = explain_price_after_dividend(game, corp.name, amount)
            assert after["lines"] and after["total"] in game.cards.prices, (price, amount)
        assert explain_dividend_limit(game, corp.name)["total"] >= 0
        assert explain_share_price(game, corp.name, True)["total"] >= price
        assert explain_share_price(game, corp.name, False)["total"] <= price
        assert explain_income(game, corp.name)["lines"]
        assert explain_score(game, "Amy")["total"] == game.scores()["Amy"]
        assert price_row(game)


def test_at_the_top_price_classic_says_the_card_has_no_table():
    game, corp = _game_with_a_corporation("rolling-stock")
    game._set_price(corp, game.cards.top_price)
    assert "has no table" in " ".join(explain_rating(game, corp.name)["lines"])
    assert "has no table" in " ".join(explain_price_after_dividend(game, corp.name, 0)["lines"])
