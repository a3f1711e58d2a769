"""Games the project owns, for tests that need a game to work on.

Built with the engine itself: a seeded, menu-driven playout (``legal_actions()`` then
``events_of``), so a clone without ``../shared`` beside it has long, real games to test with.
The same seed always gives the same game.
"""

from __future__ import annotations

import functools
import random

from assistant.rules import events_of
from assistant.rules.registry import STARS

PLAYERS = ("P1", "P2", "P3", "P4")


# a table that founds corporations eagerly and trades, so the game is long (286 events for seed 276)
# (purchases from the foreign investor are announced; the phases are ended by the table's done)
WEIGHTS = {
    "buy_share": 1.0,
    "sell_share": 1.0,
    "ipo": 5.0,
    "acquire": 3.0,
    "announce": 3.0,
    "skip_ipo": 0.2,
    "player_done": 0,
}


def _amount(rng: random.Random, lo: int, hi: int) -> int:
    return lo if rng.random() < 0.6 else rng.randint(lo, hi)


@functools.lru_cache(maxsize=8)
def _playout(seed: int, players: tuple[str, ...], limit: int) -> tuple[dict, ...]:
    rng = random.Random(seed)
    game = STARS.create(list(players))
    while not game.game_over and len(game.events) < limit:
        menu = game.legal_actions()
        item = rng.choices(menu, [WEIGHTS.get(i["type"], 1.0) for i in menu])[0]
        game.apply(events_of(item, lambda *a: _amount(rng, *a) if len(a) == 2 else rng.choice(a[0])))
    return tuple(game.transcript_events())  # as a transcript writes them


def one_per_row(data: dict) -> list[dict]:
    """A transcript's events one per log row, as the app keeps them when they are entered one by
    one: without the ``done`` of a phase that had already ended by itself because nobody could act
    in it (the transcript holds it; the app accepts it and writes nothing)."""
    game = STARS.create(data["players"], data.get("options") or [])
    return [event for event in data["events"] if game.apply(event)]


def played_game(seed: int = 276, players=PLAYERS, limit: int = 600) -> dict:
    """A transcript (rss-table-transcript v1) of a game played by the menu: table events only."""
    events = [dict(e) for e in _playout(seed, tuple(players), limit)]
    return {
        "format": "rss-table-transcript",
        "version": 1,
        "game": "rolling-stock-stars",
        "players": list(players),
        "options": [],
        "events": events,
    }


def bidding_war(entries: int, cash: int = 30_000, players=("Amy", "Brian")) -> tuple[dict, list[dict]]:
    """(a position, the events after it): a game resumed at the start of a turn
    (FORMAT-position.md) in which two players, each with ``cash``, bid two companies up one coin at
    a time, ``entries`` entries long, every one in effect (a log as long as wanted)."""
    from assistant.rules.core import position

    players = list(players)
    deck = dict(STARS.create(players).deck_left)
    deck["red"] = 1
    state = {
        "players": {p: {"cash": cash, "companies": [], "shares": {}} for p in players},
        "corporations": {},
        "foreign_investor": {"cash": 4, "companies": []},
        "offering": {"available": ["BME", "BSE"], "unavailable": []},
        "player_order": players,
    }
    pos = {"after": {"turn": 1, "phase": 9}, "state": state, "deck": deck, "out_of_game": []}
    game = position.resume(STARS, players, [], pos)
    events = []
    while len(events) < entries:
        nxt = game.next or {}
        if nxt.get("for") == "bid":
            event = {"type": "bid", "player": nxt["player"], "company": nxt["company"], "price": game.auction.high + 1}
        elif nxt.get("for") == "investment" and game.available:
            event = {"type": "bid", "player": nxt["player"], "company": game.available[0], "price": 1}
        else:
            break
        game.apply(event)
        events.append(event)
    return pos, events
