"""Explanations: every computed figure comes with its parts, and the parts add up to the figure
the engine uses (income, stars, price after a dividend, share prices, scores)."""

from __future__ import annotations

import json

import pytest

from assistant.rules import Game, RuleError, explain

from .builders import corporation, drawn_until, table
from .conftest import CONFORMANCE, require

PLAYERS = ["Amy", "Brian", "Crystal"]


def synergistic(top="yellow", cash=21, price=22, doppler_at=None):
    g = table(PLAYERS, turn=3)
    corporation(
        g, "Synergistic", price=price, companies=["DSB", "MS", "BPM", "BSE"], cash=cash, shares={"Amy": 2}, bank=1
    )
    if doppler_at:
        corporation(g, "Doppler AG", price=doppler_at, companies=["WT"], cash=0, shares={"Brian": 1}, bank=1)
    drawn_until(g, top)
    return g


def test_income_explanation_names_each_company_pair_and_bonus():
    e = explain.income(synergistic(), "Synergistic")
    assert e["total"] == 18
    text = "\n".join(e["lines"])
    for part in (
        "DSB: 5",
        "MS: 3",
        "BPM: 2",
        "BSE: 1",
        "synergy DSB–MS: +2",
        "synergy MS–BPM: +1",
        "synergy MS–BSE: +1",
        "synergy BPM–BSE: +1",
        "Synergistic: 4 synergy markers: +2",
    ):
        assert part in text
    assert "No cost of ownership now" in text


def test_income_explanation_shows_cost_of_ownership_when_blue_is_on_top():
    e = explain.income(synergistic(top="blue"), "Synergistic")
    assert e["total"] == 6  # rulebook: 18 - 3 x 4
    text = "\n".join(e["lines"])
    assert "MS: 3 − 4 cost of ownership" in text and "BSE: 1 − 4 cost of ownership" in text
    assert "red 4, orange 4" in text


def test_stars_explanation_matches_the_dividend_example():
    # rulebook: DSB 3 + MS 2 + BPM 1 + BSE 1 + 2 for 21 cash = 9 stars; 3 shares at 22 require 7
    e = explain.stars(synergistic(), "Synergistic")
    assert (e["total"], e["required"]) == (9, 7)
    assert "cash 21: 2★ (one per full 10)" in e["lines"]


@pytest.mark.parametrize("cash,expected", [(21, 27), (19, 24), (9, 22)])
def test_price_after_dividend_follows_the_rulebook_example(cash, expected):
    e = explain.price_after_dividend(synergistic(cash=cash), "Synergistic", 0)
    assert e["total"] == expected


def test_price_after_dividend_explains_leapfrogging():
    g = synergistic(doppler_at=27)
    e = explain.price_after_dividend(g, "Synergistic", 0)
    assert (e["target"], e["total"], e["skipped"]) == (27, 30, [27])
    assert any("leapfrogs to 30" in line for line in e["lines"])


def test_share_price_explanation_skips_cards_in_use():
    g = synergistic(doppler_at=24)
    e = explain.share_price(g, "Synergistic", buying=True)
    assert e["total"] == 27
    assert any("24 (Doppler AG)" in line for line in e["lines"])


def test_score_explanation_adds_up():
    g = synergistic()
    g.players["Amy"].cash = 7
    e = explain.score(g, "Amy")
    assert e["total"] == 7 + 2 * 22 == g.scores()["Amy"]
    assert "2 × Synergistic at 22 = 44." in e["lines"]


def test_explanations_agree_with_the_snapshot_throughout_a_recorded_game():
    path = require(CONFORMANCE / "games" / "83092.json", "the public conformance transcript")
    data = json.loads(path.read_text())
    g = Game(data["players"])
    checked = 0
    for ev in data["events"]:
        if ev["type"] == "expect":
            continue
        try:
            g.apply(ev)
        except RuleError:
            continue
        snap = g.snapshot()
        for name, corp in snap["corporations"].items():
            assert explain.income(g, name)["total"] == corp["income"]
            assert explain.stars(g, name)["total"] == corp["stars"]
            checked += 1
        for name, p in snap["players"].items():
            assert explain.income(g, name)["total"] == p["income"]
        assert explain.income(g, "foreign_investor")["total"] == snap["foreign_investor"]["income"]
    scores = g.snapshot()["final"]["scores"]
    for name, total in scores.items():
        assert explain.score(g, name)["total"] == total
    assert checked > 500
