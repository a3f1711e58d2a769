"""Every page and helper of a classic game answers (no error) at each kind of decision, with the
classic figures (book value, never stars) where the engine gives them."""

from __future__ import annotations

import random

import pytest

from assistant.rules import events_of
from assistant.rules.classic.game import ClassicGame
from assistant.rules.registry import CLASSIC
from assistant.store import Store

HELPERS = ("dividend", "ipo", "closing", "standings", "banker", "outlook")
WHY = ("income", "price", "share_price", "dividend_limit", "score")


def classic_events(seed: int, stop_at: str) -> tuple[list, ClassicGame]:
    """Events of a seeded classic game up to the first decision of the kind ``stop_at``."""
    rng = random.Random(seed)
    g = CLASSIC.create(["Amy", "Brian", "Crystal"], ["short"])
    while not g.game_over and (g.next or {}).get("for") != stop_at:
        item = rng.choice(g.legal_actions())
        g.apply(events_of(item, lambda *a: rng.randint(*a) if len(a) == 2 else rng.choice(a[0])))
    return list(g.events), g


@pytest.mark.parametrize("stop_at", ["dividend", "ipo", "acquisition", "closing", "issue"])
def test_classic_pages_and_helpers_answer(client, app, stop_at):
    events, g = classic_events(3, stop_at)
    assert (g.next or {}).get("for") == stop_at, "the seeded game reaches the decision"
    store: Store = app.extensions["rss_store"]
    gid = store.import_transcript(
        {
            "format": "rss-table-transcript",
            "version": 1,
            "game": "rolling-stock",
            "players": ["Amy", "Brian", "Crystal"],
            "options": ["short"],
            "events": events,
        }
    )
    page = client.get(f"/games/{gid}")
    assert page.status_code == 200
    assert client.get(f"/games/{gid}/state").get_json()["phase"] == g.phase
    for name in HELPERS:
        resp = client.get(f"/games/{gid}/help/{name}")
        assert resp.status_code in (200, 404), name
        text = resp.text.replace(" ", "")
        assert "★/need" not in text and "None" not in text, name  # classic has no stars
    if stop_at == "acquisition":
        item = next(i for i in g.legal_actions() if i["type"] == "acquire")
        query = {"corporation": item["corporation"], "company": item["company"], "price": item["min"]}
        resp = client.get(f"/games/{gid}/help/acquisition", query_string=query)
        assert resp.status_code == 200 and "Book value" in resp.text and "★ / need" not in resp.text
    corp = next(iter(g.corps), None)
    for kind in WHY:
        params = {"corporation": corp, "entity": corp, "player": "Amy", "amount": 0, "buying": 1}
        resp = client.get(f"/games/{gid}/why/{kind}", query_string=params)
        assert resp.status_code in (200, 400, 404), (kind, resp.status_code)
    if stop_at == "dividend":
        chart = client.get(f"/games/{gid}/help/dividend")
        assert chart.status_code == 200 and "Book value" in chart.text and "★ / need" not in chart.text
        rows = g.legal_actions()[0]["max"] + 1
        assert chart.text.count('class="book-value"') == rows
    assert client.get(f"/games/{gid}/export").get_json()["game"] == "rolling-stock"
