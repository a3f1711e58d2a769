"""Mid-game positions for the decision-helper tests, reached by real events.

A seeded random playout (driven by the engine's legal menu) is run until a predicate holds;
its events are then imported through the app (``POST /games/import``), so the app replays
exactly the same game.  Positions are searched, not hard-coded, so they survive engine changes.
"""

from __future__ import annotations

import copy
import random
from functools import cache

from assistant.log import transcript
from assistant.rules import events_of
from assistant.rules.core.game import Game
from assistant.rules.core.phases.ipo import ipo_calculator
from assistant.rules.registry import STARS

PLAYERS = ("Amy", "Brian", "Crystal")


def _play(pred, players, seeds, cap) -> Game:
    for seed in seeds:
        rng = random.Random(seed)
        g = STARS.create(list(players))
        for _ in range(cap):
            if pred(g):
                return g
            menu = g.legal_actions()
            if not menu:
                break
            g.apply(events_of(rng.choice(menu), lambda *a, r=rng: r.randint(*a) if len(a) == 2 else r.choice(a[0])))
    raise LookupError("no seeded playout reaches this position")


def _for(g: Game) -> str | None:
    return (g.next or {}).get("for")


def _dividend(g):
    if _for(g) != "dividend":
        return False
    corp = g.corps[g.next["corporation"]]
    return g.dividend_max(corp) >= 2 and corp.bank_shares >= 1


def _ipo(g):
    calc = ipo_calculator(g) if _for(g) == "ipo" else None
    return bool(calc) and any(r["affordable"] for r in calc["rows"]) and any(not r["affordable"] for r in calc["rows"])


def _investment(g):
    if _for(g) != "investment":
        return False
    kinds = {m["type"] for m in g.legal_actions()}
    return {"buy_share", "sell_share"} <= kinds


def _acquisition(g):
    if _for(g) != "acquisition":
        return False
    return any(
        m["type"] == "acquire" and m["min"] < m["max"] and g.owner[m["company"]].kind == "player"
        for m in g.legal_actions()
    )


def _closing(g):
    if _for(g) != "closing":
        return False
    owners = {g.owner[m["company"]].kind for m in g.legal_actions() if m["type"] == "close"}
    return owners == {"player", "corporation"}


def _closing_two(g):
    """Phase 4 with two players who each may close a company of their own."""
    if _for(g) != "closing":
        return False
    return len({m["player"] for m in g.legal_actions() if m["type"] == "close"}) >= 2


def _acquisition_two(g):
    """Phase 3 with two presidents who each may buy a company at a price of their choosing."""
    if _for(g) != "acquisition":
        return False
    items = [m for m in g.legal_actions() if m["type"] == "acquire" and m["min"] < m["max"]]
    # two presidents, each with a company of their own to buy
    return any(a["president"] != b["president"] and a["company"] != b["company"] for a in items for b in items)


def _acquisition_many(g):
    """Phase 3 with several buyers and many companies to choose from."""
    if _for(g) != "acquisition":
        return False
    items = [m for m in g.legal_actions() if m["type"] in ("acquire", "announce") and not m.get("announced_by")]
    return len({m["corporation"] for m in items}) >= 3 and len(items) >= 10


def _dividend_two(g):
    """A dividend decision whose next decision is another corporation's dividend."""
    if not _dividend(g):
        return False
    after = copy.deepcopy(g)
    after.apply({"type": "dividend", "corporation": g.next["corporation"], "amount": 0})
    nxt = after.next or {}
    return nxt.get("for") == "dividend" and nxt.get("corporation") != g.next["corporation"]


def _investment_an(g):
    """Phase 1 with a share of Overseas Trading to buy or sell (a name said with "an")."""
    return _for(g) == "investment" and any(
        m["type"] in ("buy_share", "sell_share") and m["corporation"] == "Overseas Trading" for m in g.legal_actions()
    )


PREDICATES = {
    "dividend_two": _dividend_two,
    "investment_an": _investment_an,
    "acquisition_many": _acquisition_many,
    "acquisition_two": _acquisition_two,
    "dividend": _dividend,
    "ipo": _ipo,
    "investment": _investment,
    "acquisition": _acquisition,
    "closing": _closing,
    "closing_two": _closing_two,
}


@cache
def position(name: str, players: tuple = PLAYERS) -> tuple[tuple, tuple]:
    """(players, events) of the first seeded playout reaching position ``name``."""
    g = _play(PREDICATES[name], players, range(400), 900)
    return tuple(g.players), tuple(g.events)


def game_of(name: str, players: tuple = PLAYERS) -> Game:
    names, events = position(name, players)
    return STARS.replay(list(names), [], list(events))


def import_position(client, name: str, players: tuple = PLAYERS) -> str:
    """Import the position through the app; returns the new game's id."""
    names, events = position(name, players)
    body = transcript.build(list(names), [], None, list(events), "decision-helper test position")
    resp = client.post("/games/import", json=body)
    assert resp.status_code == 303, resp.get_data(as_text=True)
    return resp.headers["Location"].rsplit("/", 1)[1]
