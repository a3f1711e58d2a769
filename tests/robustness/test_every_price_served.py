"""Classic at $100 (issue 18, failure 7), against the real server: the book-value explanation of a
corporation on classic's top share price card was a 500 (``KeyError: 100``) and the Corps view
silently left it out.  A classic game resumed from a position (FORMAT-position.md) with Bear at
$90; Amy buys the bank's Bear share at the next card, $100, and the game ends at once (Guide
1.6.10; no turn ends with a corporation at $100, so no position has one).  Every page and every
explanation of Bear answers, and says why the top card has no adjustment."""

from __future__ import annotations

from .conftest import Http, import_game

PLAYERS = ["Amy", "Brian", "Crystal"]


def _position(price: int) -> dict:
    state = {
        "players": {
            "Amy": {"cash": 120, "companies": [], "shares": {"Bear": 2}},
            "Brian": {"cash": 30, "companies": [], "shares": {}},
            "Crystal": {"cash": 30, "companies": [], "shares": {}},
        },
        "foreign_investor": {"cash": 4, "companies": []},
        "corporations": {
            "Bear": {
                "cash": 23,
                "share_price": price,
                "companies": ["HE", "BY"],
                "president": "Amy",
                "issued": 3,
                "bank_shares": 1,
            }
        },
        "offering": {"available": ["BME", "BSE", "KME"], "unavailable": []},
        "player_order": PLAYERS,
    }
    deck = {"red": 0, "orange": 2, "yellow": 4, "green": 4, "blue": 4, "purple": 4}
    return {"after": {"turn": 3, "phase": 10}, "state": state, "deck": deck, "out_of_game": ["AKE"]}


def test_a_classic_corporation_at_the_top_price_is_explained_by_the_server(server_factory):
    srv = server_factory()
    client = Http(srv.base)
    transcript = {
        "format": "rss-table-transcript",
        "version": 1,
        "game": "rolling-stock",
        "players": PLAYERS,
        "options": [],
        "position": _position(90),
        "events": [
            {"type": "skip_issue", "corporation": "Bear"},
            {"type": "buy_share", "player": "Amy", "corporation": "Bear"},  # 90 -> 100: the game ends
        ],
    }
    gid = import_game(client, transcript)
    status, state = client.json("GET", f"/games/{gid}/state")
    assert status == 200 and state["corporations"]["Bear"]["share_price"] == 100, state
    assert state["game_over"]
    html = {"Accept": "text/html"}
    status, _, page = client.request("GET", f"/games/{gid}/v/corporations", headers=html)
    assert status == 200 and b"Bear" in page
    pages = [
        "why/stars?corporation=Bear",
        "why/dividend_limit?corporation=Bear",
        "why/share_price?corporation=Bear&side=buy",
        "why/share_price?corporation=Bear&side=sell",
        "why/price?corporation=Bear&amount=0",
        "why/income?entity=Bear",
        "why/score?player=Amy",
    ]
    said = b""
    for path in pages:
        status, _, body = client.request("GET", f"/games/{gid}/{path}", headers=html)
        assert status == 200, (path, status, body[:300])
        said += body
    assert b"has no table" in said + page
    assert "Traceback" not in srv.output() and "KeyError" not in srv.output()
