"""Explanations: every computed figure comes with its parts, and the parts add up to the figure
the engine uses (income, stars, price after a dividend, share prices, scores)."""

from __future__ import annotations

import json

import pytest

from assistant.rules import RuleError
from assistant.rules.core.phases.dividends import explain_price_after_dividend
from assistant.rules.core.phases.income import explain_income
from assistant.rules.core.phases.investment import explain_share_price
from assistant.rules.core.pricing import explain_rating
from assistant.rules.core.scores import explain_score
from assistant.rules.registry import STARS
from assistant.rules.stars.cards import CARDS
from tests.project_games import played_game

from .builders import corporation, drawn_until, table
from .conftest import CONFORMANCE, require

COMPANIES = CARDS.companies

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
    e = explain_income(synergistic(), "Synergistic")
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
    e = explain_income(synergistic(top="blue"), "Synergistic")
    assert e["total"] == 6  # rulebook: 18 - 3 x 4
    text = "\n".join(e["lines"])
    assert "MS: 3 − 4 cost of ownership" in text and "BSE: 1 − 4 cost of ownership" in text
    assert "red 4, orange 4" in text


def test_stars_explanation_matches_the_dividend_example():
    # rulebook: DSB 3 + MS 2 + BPM 1 + BSE 1 + 2 for 21 cash = 9 stars; 3 shares at 22 require 7
    e = explain_rating(synergistic(), "Synergistic")
    assert (e["total"], e["required"]) == (9, 7)
    assert "cash 21: 2★ (one per full 10)" in e["lines"]


@pytest.mark.parametrize("cash,expected", [(21, 27), (19, 24), (9, 22)])
def test_price_after_dividend_follows_the_rulebook_example(cash, expected):
    e = explain_price_after_dividend(synergistic(cash=cash), "Synergistic", 0)
    assert e["total"] == expected


def test_price_after_dividend_explains_leapfrogging():
    g = synergistic(doppler_at=27)
    e = explain_price_after_dividend(g, "Synergistic", 0)
    assert (e["target"], e["total"], e["skipped"]) == (27, 30, [27])
    assert any("leapfrogs to 30" in line for line in e["lines"])


def test_share_price_explanation_skips_cards_in_use():
    g = synergistic(doppler_at=24)
    e = explain_share_price(g, "Synergistic", buying=True)
    assert e["total"] == 27
    assert any("24 (Doppler AG)" in line for line in e["lines"])


def test_score_explanation_adds_up():
    g = synergistic()
    g.players["Amy"].cash = 7
    e = explain_score(g, "Amy")
    assert e["total"] == 7 + 2 * 22 == g.scores()["Amy"]
    assert "2 × Synergistic at 22 = 44." in e["lines"]


# ---------------------------------------------------------------------------- figures by hand
# The rules written out again here, independently of assistant/rules/compute.py, from the card
# figures (the cards are checked against the printed cards in test_cards.py) and the rulebook.

STARS_OF_COLOR = {"red": 1, "orange": 2, "yellow": 3, "green": 4, "blue": 5}  # printed on the cards
# "The back of the top-most card in that deck determines the current cost of ownership": green
# backs cost red 2, blue backs red and orange 4, the game end card 7 (front) and 10 (back).
COST_BY_TOP = {
    "red": {},
    "orange": {},
    "yellow": {},
    "green": {"red": 2},
    "blue": {"red": 4, "orange": 4},
    "end front": {"red": 7, "orange": 7, "yellow": 7},
    "end back": {"red": 10, "orange": 10, "yellow": 10, "green": 10},
}


def costs_by_hand(g) -> dict:
    top = g.top_color() or ("end back" if g.end_flipped else "end front")
    return COST_BY_TOP[top]


def income_by_hand(g, owner: str) -> int:
    costs = costs_by_hand(g)
    if owner == "foreign_investor":
        companies = g.fi.companies
    elif owner in g.players:
        companies = g.players[owner].companies
    else:
        companies = g.corps[owner].companies
    base = sum(COMPANIES[a].income - costs.get(COMPANIES[a].color, 0) for a in companies)
    if owner == "foreign_investor":
        return base + 5  # the foreign investor's own +5
    if owner in g.players:
        return base  # no synergies outside corporations
    pairs = [
        COMPANIES[a].synergies[b]
        for i, a in enumerate(companies)
        for b in companies[i + 1 :]
        if b in COMPANIES[a].synergies
    ]
    total = base + sum(pairs)
    if owner == "Prussian Railway":
        total += len(companies)
    elif owner == "Doppler AG":
        total += COMPANIES[max(companies, key=lambda a: COMPANIES[a].face_value)].income
    elif owner == "Synergistic":
        total += len(pairs) // 2
    elif owner == "Vintage Machinery":
        total += min(10, sum(costs.get(COMPANIES[a].color, 0) for a in companies))
    return total


def stars_by_hand(g, name: str) -> int:
    corp = g.corps[name]
    owned = sum(STARS_OF_COLOR[COMPANIES[a].color] for a in corp.companies) + corp.cash // 10
    return owned + (2 if name == "Stars, Inc." else 0)


def required_by_hand(price: int, issued: int) -> int:
    return (issued * price * 2 + 10) // 20  # issued x price / 10, halves rounded up


def score_by_hand(g, player: str) -> int:
    p = g.players[player]
    return (
        p.cash
        + sum(COMPANIES[a].face_value for a in p.companies)
        + sum(n * g.corps[c].price for c, n in p.shares.items())
    )


def check_by_hand(g) -> int:
    checked = 0
    for name, corp in g.corps.items():
        assert explain_income(g, name)["total"] == income_by_hand(g, name), name
        st = explain_rating(g, name)
        assert st["total"] == stars_by_hand(g, name), name
        assert st["required"] == required_by_hand(corp.price, corp.issued), name
        checked += 1
    for name in g.players:
        assert explain_income(g, name)["total"] == income_by_hand(g, name), name
        assert explain_score(g, name)["total"] == score_by_hand(g, name), name
    assert explain_income(g, "foreign_investor")["total"] == income_by_hand(g, "foreign_investor")
    return checked


def test_by_hand_figures_match_the_rulebook_example():
    # the rulebook's Synergistic: income 18 without cost, 6 with blue on top; 9 stars, 7 required
    assert income_by_hand(synergistic(), "Synergistic") == 18
    assert income_by_hand(synergistic(top="blue"), "Synergistic") == 6
    assert stars_by_hand(synergistic(), "Synergistic") == 9 and required_by_hand(22, 3) == 7


def test_explanations_agree_with_figures_by_hand_throughout_a_played_game():
    data = played_game()
    g = STARS.create(data["players"])
    checked = 0
    for ev in data["events"]:
        g.apply(ev)  # every event of the played game is legal: a refusal fails the test
        checked += check_by_hand(g)
    assert g.game_over and checked > 500
    for name, total in g.snapshot()["final"]["scores"].items():
        assert explain_score(g, name)["total"] == total == score_by_hand(g, name)


def test_explanations_agree_with_a_recorded_game():
    """The public transcript's recorded states (income and stars written down at the table) and
    the figures by hand, at every step; the events marked ``reject`` must be refused."""
    path = require(CONFORMANCE / "games" / "83092.json", "the public conformance transcript")
    data = json.loads(path.read_text())
    g = STARS.create(data["players"])
    explained_at_phase_end = {}

    def explain_all(game) -> dict:
        check_by_hand(game)
        out = {name: (explain_income(game, name)["total"], explain_rating(game, name)["total"]) for name in game.corps}
        out.update({name: (explain_income(game, name)["total"], None) for name in game.players})
        out["foreign_investor"] = (explain_income(game, "foreign_investor")["total"], None)
        return out

    g.on_phase_end = lambda game: explained_at_phase_end.__setitem__((game.turn, game.phase), explain_all(game))
    recorded = by_hand = refused = 0
    for ev in data["events"]:
        if ev["type"] == "expect":
            # a checkpoint at a phase end ("at") or after the last event; it may leave figures out
            at = ev.get("at")
            explained = explained_at_phase_end[(at["turn"], at["phase"])] if at else explain_all(g)
            state = ev["state"]
            for name, corp in state.get("corporations", {}).items():
                if "income" in corp:
                    assert explained[name][0] == corp["income"], (name, at, len(g.events))
                    recorded += 1
                if "stars" in corp:
                    assert explained[name][1] == corp["stars"], (name, at, len(g.events))
                    recorded += 1
            for name, p in state.get("players", {}).items():
                if "income" in p:
                    assert explained[name][0] == p["income"], (name, at, len(g.events))
                    recorded += 1
            if "income" in state.get("foreign_investor", {}):
                assert explained["foreign_investor"][0] == state["foreign_investor"]["income"]
            continue
        event = {k: v for k, v in ev.items() if k not in ("reject", "why")}
        if ev.get("reject"):
            with pytest.raises(RuleError):
                g.apply(event)
            refused += 1
            continue
        g.apply(event)
        by_hand += check_by_hand(g)
    assert recorded > 500 and by_hand > 500 and refused > 0
    for name, total in g.snapshot()["final"]["scores"].items():
        assert explain_score(g, name)["total"] == total
