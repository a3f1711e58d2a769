"""The board (/games/<id>/board) through Flask's test client (issue 19): what it shows, that it
holds no controls, its region and QR code, and the More view's link to it."""

from __future__ import annotations

import re

from .board_positions import SIX, crowded, ended_with_holdings, finished


def _import(client, data) -> str:
    resp = client.post("/games/import", json=data)
    assert resp.status_code == 303, resp.text
    return resp.get_json()["id"]


def test_the_board_shows_the_whole_table_and_no_controls(client, store):
    gid = _import(client, crowded("rolling-stock-stars"))
    game = store.state(gid)[1]
    page = client.get(f"/games/{gid}/board").text
    for name, corp in game.corps.items():
        card = page.split(f'data-b="corp-{name}"', 1)[1].split("</article>", 1)[0]
        assert f'<span class="price" title="share price">{corp.price}</span>' in card
        assert f"treasury <strong>{corp.cash}</strong>" in card and (corp.president or "receivership") in card
        for abbr in corp.companies:
            assert f">{abbr} <span" in card or f">{abbr}<" in card
    for name in SIX:
        assert f'data-b="player-{name}"' in page
    assert 'aria-label="Phase track"' in page and 'aria-current="step"' in page
    assert "Foreign investor" in page and "Share price row" in page and "Deck:" in page
    assert not re.search(r"<(form|button|input|select|textarea)\b", page), "the board is for looking only"
    region = client.get(f"/games/{gid}/board/r").text
    assert 'id="board"' in region and 'hx-swap-oob="true"' in region  # the poller comes along


def test_the_board_of_a_finished_game_shows_the_final_scoring_and_charts(client, store):
    gid = _import(client, finished())
    page = client.get(f"/games/{gid}/board").text
    final = store.state(gid)[1].snapshot()["final"]
    assert "Final scoring" in page and 'class="line-chart"' in page
    for name in final["ranking"]:
        assert f"<td>{name}</td>" in page


def test_the_finished_board_ranks_the_players_with_their_scores(client):
    """Final scores worked out by hand in tests/web/test_share.py: Amy 138 (cash 30, CDG 60, two
    shares at 24), Crystal 60 (cash 15, HH 45), Brian 39 (cash 15, one share at 24)."""
    gid = _import(client, ended_with_holdings())
    page = client.get(f"/games/{gid}/board").text
    rows = re.findall(
        r"<tr[^>]*><td>(\d+)</td><td>([^<]+)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td><td><strong>(\d+)</strong>",
        page,
    )
    assert rows == [
        ("1", "Amy", "30", "60", "48", "138"),
        ("2", "Crystal", "15", "45", "0", "60"),
        ("3", "Brian", "15", "0", "24", "39"),
    ]


def test_the_more_view_links_the_board_with_a_qr_code(client, table):
    gid = table.started_game()
    more = client.get(f"/games/{gid}/v/more").text
    assert f'href="/games/{gid}/board"' in more and f'src="/games/{gid}/board/qr.svg"' in more
    qr = client.get(f"/games/{gid}/board/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and "<svg" in qr.text
    assert client.get("/games/no-such-game/board").status_code == 404
