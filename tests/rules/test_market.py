"""core/market.py: a price move along the Stars share price row, leapfrogging cards in use
(rulebook: "if that share price card is in use, you will skip it"; "find the next available share
price card in the direction of the price change"), and the move in words."""

from __future__ import annotations

import dataclasses

import pytest

from assistant.rules import registry
from assistant.rules.core.market import PriceMove, move, price_row

from .builders import corporation, table

CARDS = registry.get("rolling-stock-stars").cards


def stars_move(price: int, steps: int, in_use=()) -> PriceMove:
    return move(price, steps, set(in_use), CARDS.prices, CARDS.price_index)


def test_one_step_up_past_two_cards_in_use_lands_on_the_next_free_card_and_says_so():
    # the Stars row ... 10, 11, 12, 13 ...: +1 from 10 points at 11; 11 and 12 are in use, so 13
    m = stars_move(10, 1, in_use=(11, 12))
    assert (m.old, m.steps, m.target, m.new, m.skipped) == (10, 1, 11, 13, (11, 12))
    assert m.describe() == "up: 10 → 11, 11, 12 in use, so 13"
    assert m.describe(lambda v: f"${v}") == "up: $10 → $11, $11, $12 in use, so $13"


def test_two_steps_down_and_no_step_in_words():
    # ... 16, 18, 20 ...: −2 from 20 points at 16, free
    assert stars_move(20, -2).describe() == "double down: 20 → 16"
    m = stars_move(20, 0)
    assert (m.old, m.steps, m.target, m.new, m.skipped) == (20, 0, 20, 20, ())
    assert m.describe() == "stays at 20"


def test_the_first_card_and_the_last_never_block():
    # 0, 5, 6 ...: −1 from 6 points at 5, in use, so 0 (bankruptcy), even were 0 "in use"
    m = stars_move(6, -1, in_use=(5, 0))
    assert (m.target, m.new, m.skipped) == (5, 0, (5,))
    # ... 61, 68, 75: +2 from 61 points at 75, the top, which several corporations may hold
    m = stars_move(61, 2, in_use=(68, 75))
    assert (m.target, m.new, m.skipped) == (75, 75, ())


def test_a_move_is_frozen_and_compares_by_its_fields():
    m = stars_move(10, 1)
    assert m == PriceMove(10, 1, 11, 11, ()) and hash(m) == hash(PriceMove(10, 1, 11, 11, ()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.new = 12


def test_the_price_row_names_each_cards_holder_and_every_corporation_at_the_top():
    """ "Should it happen that other corporations reach 75●, too, those corporations don't take a
    new share price card" (rulebook, phase 6): the top card is shown with all of them."""
    g = table(["Amy", "Brian", "Crystal"], turn=9)
    corporation(g, "Stars, Inc.", price=75, companies=["HR"], cash=0, shares={"Brian": 1}, bank=1)
    corporation(g, "Doppler AG", price=75, companies=["CDG"], cash=0, shares={"Amy": 1}, bank=1)
    corporation(g, "Stock Masters", price=68, companies=["LHR"], cash=0, shares={"Amy": 1}, bank=1)
    row = price_row(g)
    assert [r["price"] for r in row] == list(CARDS.prices)
    held = {r["price"]: r["holders"] for r in row if r["holders"]}
    assert held == {68: ["Stock Masters"], 75: ["Stars, Inc.", "Doppler AG"]}
