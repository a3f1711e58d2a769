"""The game turn by turn (assistant.rules.history): each player's wealth (money + face values
of companies + shares at their share price, the rulebook's final scoring) and each
corporation's share price, at the start, at the end of every turn and now, against figures
worked out by hand for a short two-player game played with real events."""

from __future__ import annotations

import random

import pytest

from assistant.rules import events_of, registry
from assistant.rules.core.game import Game
from assistant.rules.core.history import history
from assistant.rules.registry import STARS
from tests.project_games import played_game

PR = "Prussian Railway"
TURN_1 = [
    {"type": "reveal", "company": "BME"},
    {"type": "reveal", "company": "BSE"},
    {"type": "bid", "player": "Amy", "company": "BME", "price": 4},  # Amy 30 - 4 = 26, BME face value 1
    {"type": "leave", "player": "Brian", "company": "BME"},
    {"type": "reveal", "company": "MHE"},
    {"type": "bid", "player": "Brian", "company": "BSE", "price": 3},  # Brian 30 - 3 = 27, BSE face value 2
    {"type": "leave", "player": "Amy", "company": "BSE"},
    {"type": "reveal", "company": "WT"},
    {"type": "done", "phase": 4},  # income: Amy +1 (27), Brian +1 (28)
    # Brian pays 8 for 1 share at 10 (20 + 10 = 30); the BSE goes into the corporation
    {"type": "ipo", "player": "Brian", "company": "BSE", "corporation": PR, "price": 10},
    {"type": "skip_ipo", "player": "Amy", "company": "BME"},
]
TURN_2 = [
    {"type": "pass", "player": "Brian"},
    {"type": "buy_share", "player": "Amy", "corporation": PR, "price": 11},  # Amy 27 - 11 = 16; price 11
    {"type": "pass", "player": "Brian"},
    {"type": "pass", "player": "Amy"},
    {"type": "reveal", "company": "BY"},
    {"type": "acquire", "corporation": PR, "company": "BME", "price": 2},  # Amy 16 + 2 = 18, no company
    {"type": "done", "phase": 3},
    {"type": "done", "phase": 4},
    {"type": "dividend", "player": "Brian", "corporation": PR, "amount": 2},  # +2 each; price 12
    {"type": "skip_issue", "player": "Brian", "corporation": PR},
]


def _game(events) -> Game:
    return STARS.replay(["Amy", "Brian"], [], events)


def test_wealth_and_prices_at_the_end_of_each_turn():
    h = history(_game(TURN_1 + TURN_2))
    assert h["labels"] == ["start", "1", "2"]
    assert h["turns"] == [0, 1, 2]
    assert h["players"] == {
        "Amy": [30, 27 + 1, 20 + 12],  # end of turn 1: 27 money + BME 1; turn 2: 20 money + 1 share at 12
        "Brian": [30, 20 + 10, 22 + 12],
    }
    assert h["corporations"] == {PR: [None, 10, 12]}


def test_the_current_state_is_a_last_point_when_it_differs_from_the_last_turn_end():
    game = _game(TURN_1 + TURN_2)
    assert game.turn == 3 and history(game)["labels"] == ["start", "1", "2"]  # nothing changed since
    game.apply({"type": "sell_share", "player": "Brian", "corporation": PR, "price": 11})
    h = history(game)
    assert h["labels"] == ["start", "1", "2", "now"] and h["turns"][-1] == 3
    assert h["players"] == {"Amy": [30, 28, 32, 20 + 11], "Brian": [30, 30, 34, 33]}
    assert h["corporations"] == {PR: [None, 10, 12, 11]}


def test_mid_turn_one():
    h = history(_game(TURN_1[:4]))
    assert h == {
        "labels": ["start", "now"],
        "turns": [0, 1],
        "players": {"Amy": [30, 27], "Brian": [30, 30]},
        "corporations": {},
    }


def test_a_whole_game_ends_with_the_final_scores_and_leaves_the_game_alone():
    t = played_game()
    game = STARS.replay(t["players"], t.get("options", []), t["events"])
    assert game.game_over
    before = (game.snapshot(), len(game.events), len(game.journal))
    h = history(game)
    assert (game.snapshot(), len(game.events), len(game.journal)) == before
    assert h["labels"][0] == "start" and h["labels"][-1] == "end"
    assert h["labels"][1:-1] == [str(t) for t in range(1, len(h["labels"]) - 1)]
    assert {name: values[-1] for name, values in h["players"].items()} == game.final["scores"]
    assert all(len(v) == len(h["labels"]) for v in [*h["players"].values(), *h["corporations"].values()])
    assert list(h["players"]) == list(t["players"])
    for name, corp in game.corps.items():
        assert h["corporations"][name][-1] == corp.price
    assert len(h["corporations"]) >= 3  # corporations were founded (and some may be gone)


@pytest.mark.parametrize("key, options", [("rolling-stock", ["short"]), ("rolling-stock-v2.2", [])])
def test_other_rulesets(key, options):
    """Classic Rolling Stock (its own engine, its own phases) and v2.2: a seeded menu-driven game."""
    ruleset = registry.get(key)
    players = ["Amy", "Brian", "Crystal"]
    rng = random.Random(7)
    game = ruleset.create(players, options)
    turn_ends = set()
    while not game.game_over and len(game.events) < 400:
        item = rng.choice(game.legal_actions())
        before = game.turn
        game.apply(events_of(item, lambda *a: a[0] if len(a) == 2 else rng.choice(a[0])))
        turn_ends.update(range(before, game.turn))  # the turns this event ended (one event may end two)
    h = history(game)
    assert h["labels"][0] == "start"
    assert h["labels"][-1] == ("end" if game.game_over else "now")
    assert h["labels"][1 : 1 + len(turn_ends)] == [str(t) for t in sorted(turn_ends)]
    assert {name: values[-1] for name, values in h["players"].items()} == game.scores()
    assert h["players"]["Amy"][0] == ruleset.create(players, options).scores()["Amy"]
    for name, corp in game.corps.items():
        assert h["corporations"][name][-1] == corp.price
