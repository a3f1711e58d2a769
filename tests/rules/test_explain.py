"""Explanations: every computed figure comes with its parts, and the parts add up to the figure
the engine uses (income, stars, price after a dividend, share prices, scores)."""

from __future__ import annotations

import json

import pytest

from assistant.rules import RuleError
from assistant.rules.core.entities import Corporation
from assistant.rules.core.phases.dividends import explain_dividend_limit, explain_price_after_dividend
from assistant.rules.core.phases.income import explain_income
from assistant.rules.core.phases.investment import explain_share_price
from assistant.rules.core.pricing import explain_rating
from assistant.rules.core.scores import explain_score
from assistant.rules.registry import STARS, V22
from assistant.rules.stars.cards import CARDS
from tests.project_games import played_game

from .builders import corporation, drawn_until, place, table
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


def test_income_explanations_of_a_player_the_foreign_investor_and_a_corporation_in_full():
    """Top card green: a red company costs 2 (the back of the deck's top card); Amy's KME earns 2 - 2;
    Brian owns nothing; the foreign investor adds 5; only corporations earn synergies."""
    g = table(PLAYERS, turn=3)
    place(g, "KME", "Amy")
    corporation(g, "Doppler AG", price=20, companies=["SZD"], cash=0, shares={"Amy": 1}, bank=1)
    drawn_until(g, "green")
    costs = "Cost of ownership per company: red 2 (the top card of the deck is green)."
    players_earn_none = "Companies owned by players never earn synergies."
    assert explain_income(g, "Amy") == {
        "title": "Amy's income",
        "total": 0,
        "lines": ["KME: 2 − 2 cost of ownership", costs, players_earn_none],
    }
    assert explain_income(g, "Brian") == {
        "title": "Brian's income",
        "total": 0,
        "lines": ["No companies.", costs, players_earn_none],
    }
    assert explain_income(g, "foreign_investor") == {
        "title": "Foreign investor income",
        "total": 5,
        "lines": ["foreign investor: +5", costs],
    }
    doppler = explain_income(g, "Doppler AG")
    assert doppler["title"] == "Doppler AG income" and doppler["lines"][-1] == costs


@pytest.mark.parametrize(
    "top, flipped, line",
    [
        ("red", False, "No cost of ownership now (the top card of the deck is red)."),
        (None, False, "Cost of ownership per company: red 7, orange 7, yellow 7 (the game end card shows its front)."),
        (
            None,
            True,
            "Cost of ownership per company: red 10, orange 10, yellow 10, green 10 (the game end card shows its back).",
        ),
    ],
)
def test_income_explanation_says_where_the_cost_of_ownership_is_read(top, flipped, line):
    """The cost is read on the back of the deck's top card, or on the game end card once the deck
    is empty: its front (red, orange, yellow 7), its back once flipped (red to green 10)."""
    g = table(PLAYERS, turn=3)
    drawn_until(g, top)
    g.end_flipped = flipped
    assert explain_income(g, "Amy")["lines"][1] == line


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


def test_price_after_dividend_in_full():
    """The rulebook example: 30 in the treasury, 3 per share on 3 shares: 21 left, 9 stars against
    7, double up to 27; with the 27 card in use, on to 30; with 27 and 30 in use, to 33."""
    g = synergistic(cash=30)
    assert explain_price_after_dividend(g, "Synergistic", 3) == {
        "title": "Synergistic share price",
        "total": 27,
        "target": 27,
        "skipped": [],
        "lines": [
            "Pays 3 × 3 shares = 9; 21 cash left.",
            "9★ counted against 7★ required.",
            "2 more: double up to 27.",
        ],
    }
    g = synergistic(cash=30, doppler_at=27)
    assert explain_price_after_dividend(g, "Synergistic", 3)["lines"][-1] == "27 is in use, so it leapfrogs to 30."
    g = table(PLAYERS, turn=3)
    corporation(g, "Synergistic", price=22, companies=["DSB", "MS", "BPM", "BSE"], cash=30, shares={"Amy": 2}, bank=1)
    corporation(g, "Doppler AG", price=27, companies=["WT"], cash=0, shares={"Brian": 1}, bank=1)
    corporation(g, "Stock Masters", price=30, companies=["BY"], cash=0, shares={"Crystal": 1}, bank=1)
    drawn_until(g, "yellow")
    assert explain_price_after_dividend(g, "Synergistic", 3)["lines"][-1] == (
        "27, 30 are in use, so it leapfrogs to 33."
    )


def test_price_after_dividend_down_to_0_says_bankruptcy():
    """Junkyard Scrappers at 6 with 7 shares and the BSE: 1 star against 4, double down to 0."""
    g = table(PLAYERS, turn=4)
    corporation(g, "Junkyard Scrappers", price=6, companies=["BSE"], cash=7, shares={"Amy": 4}, bank=3)
    e = explain_price_after_dividend(g, "Junkyard Scrappers", 1)
    assert e["total"] == 0 and e["lines"][0] == "Pays 1 × 7 shares = 7; 0 cash left."
    assert e["lines"][-1] == "The 0 card means bankruptcy."
    e = explain_price_after_dividend(synergistic(cash=30), "Synergistic", 0)
    assert "The 0 card means bankruptcy." not in e["lines"]


def test_classic_price_after_dividend_counts_the_cash_left_in_the_book_value():
    """Classic 1.5.9: the DSB, MS, BPM, BSE at $22 with 3 shares, $22 in the treasury, $2 per
    share: $16 left."""
    from assistant.rules.registry import CLASSIC

    g = CLASSIC.create(["A", "B", "C"], [])
    corp = Corporation("Bear", 22, 10)
    corp.cash, corp.issued, corp.bank_shares, corp.president = 22, 3, 1, "A"
    g.corps["Bear"], g.price_holder[22] = corp, "Bear"
    g.players["A"].shares["Bear"] = 2
    for abbr in ("DSB", "MS", "BPM", "BSE"):
        g._give_company(abbr, corp)
    e = explain_price_after_dividend(g, "Bear", 2)
    assert e["lines"][0] == "Pays $2 × 3 shares = $6; $16 cash left."
    assert e["lines"][1].startswith("Book value: $16 cash + DSB ")


def test_dividend_limit_in_full():
    """The 22 card allows 7 per share; 8 in the treasury for 3 shares 2 (the rulebook's example);
    the 75 card has no payout printed: 0."""
    g = synergistic(cash=8)
    assert explain_dividend_limit(g, "Synergistic") == {
        "title": "Synergistic dividend",
        "total": 2,
        "lines": ["The 22 card allows up to 7 per share.", "8 cash for 3 issued shares allows 2 per share."],
    }
    g = table(PLAYERS, turn=9)
    corporation(g, "Doppler AG", price=75, companies=["WT"], cash=40, shares={"Brian": 1}, bank=1)
    assert explain_dividend_limit(g, "Doppler AG")["lines"][0] == "The 75 card allows up to 0 per share."
    assert explain_dividend_limit(g, "Doppler AG")["total"] == 0


def test_share_price_explanation_skips_cards_in_use():
    """Synergistic at 22, the 24 card held by Doppler AG: buying takes the next higher free card,
    27; selling the next lower, 20 (the Stars share price cards: ... 20, 22, 24, 27 ...)."""
    g = synergistic(doppler_at=24)
    assert explain_share_price(g, "Synergistic", buying=True) == {
        "title": "Buying a Synergistic share",
        "total": 27,
        "lines": [
            "Buying moves Synergistic from 22 to the next higher free card: 27.",
            "Cards in use are skipped: 24 (Doppler AG).",
            "The buyer pays the new price, 27.",
        ],
    }
    assert explain_share_price(g, "Synergistic", buying=False) == {
        "title": "Selling a Synergistic share",
        "total": 20,
        "lines": [
            "Selling moves Synergistic from 22 to the next lower free card: 20.",
            "The seller receives the new price, 20.",
        ],
    }


def test_share_price_explanation_in_v22_money():
    """The same in v2.2 (whose rulebook writes money as $; Saturn for Synergistic, Eagle for Doppler
    AG... any two corporations do): Saturn at $22, the $24 card Eagle's."""
    g = table(PLAYERS, turn=3, ruleset=V22)
    corporation(g, "Saturn", price=22, companies=["DSB", "MS"], cash=5, shares={"Amy": 2}, bank=1)
    corporation(g, "Eagle", price=24, companies=["WT"], cash=0, shares={"Brian": 1}, bank=1)
    assert explain_share_price(g, "Saturn", buying=True)["lines"] == [
        "Buying moves Saturn from $22 to the next higher free card: $27.",
        "Cards in use are skipped: $24 (Eagle).",
        "The buyer pays the new price, $27.",
    ]
    assert explain_share_price(g, "Saturn", buying=False)["lines"][0] == (
        "Selling moves Saturn from $22 to the next lower free card: $20."
    )


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
