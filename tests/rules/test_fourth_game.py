"""A fourth game is a folder: the example of docs/rulesets.md (tests/rules/example_game) plays with
the shared engine, registered beside the three real games without touching the engine."""

from __future__ import annotations

import random

import pytest

from assistant.rules import RuleError, registry
from assistant.rules.core.events import EVENTS

from .example_game.ruleset import SPRINT


@pytest.fixture
def games(monkeypatch):
    """The registry with the fourth game added, as docs/rulesets.md shows."""
    monkeypatch.setattr(registry, "RULESETS", registry.frozen({**registry.RULESETS, SPRINT.key: SPRINT}))
    return registry


def test_the_fourth_game_is_found_by_its_key_and_plays_its_own_cards(games):
    ruleset = games.get("example-sprint")
    game = ruleset.create(["Amy", "Brian"])
    assert game.next == {"for": "reveal", "color": "red", "choices": ["AA", "BB", "CC"]}
    game.apply({"type": "reveal", "company": "CC"})
    game.apply({"type": "reveal", "company": "AA"})
    snap = game.snapshot()
    assert snap["players"]["Amy"]["cash"] == 20 and snap["offering"]["available"] == ["CC", "AA"]
    with pytest.raises(RuleError, match="no company"):
        game.apply({"type": "bid", "player": "Amy", "company": "BME", "price": 1})


def test_a_random_game_of_the_fourth_game_runs_to_its_end_on_the_menu(games):
    rng = random.Random(5)
    game = games.get("example-sprint").create(["Amy", "Brian", "Crystal"])
    for _ in range(3000):
        if game.game_over:
            break
        item = rng.choice(game.legal_actions())
        event = {"type": item["type"]}
        for name in EVENTS[item["type"]].fields:
            if name in item:
                event[name] = item[name]
        if item["type"] == "reveal":
            event["company"] = rng.choice(item["choices"])
        if "min" in item:
            event["price" if item["type"] in ("bid", "acquire") else "amount"] = item["min"]
        if item["type"] == "ipo":
            option = item["options"][0]
            event.update(corporation=option["corporation"], price=option["price"])
        game.apply(event)
    assert game.game_over and set(game.final["scores"]) == {"Amy", "Brian", "Crystal"}
    # in its own words (its words.json): a company drawn in play waits "until the next sprint"
    drawn = [e["text"] for e in game.journal if "unavailable" in e["text"]]
    assert drawn and all(t.endswith("(unavailable until the next sprint)") for t in drawn)
    assert game.ruleset.word("charter") == "flag" and game.ruleset.money(3) == "3 coins"


def test_the_fourth_game_leaves_the_three_games_as_they_were(games):
    assert list(games.RULESETS)[:3] == ["rolling-stock-stars", "rolling-stock-v2.2", "rolling-stock"]
    assert registry.STARS.cards.game == "rolling-stock-stars"
