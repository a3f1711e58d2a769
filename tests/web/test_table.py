"""The table page and its self-replacing components."""

import re

import pytest

from assistant.rules.registry import STARS
from tests.project_games import played_game

COMPONENTS = [
    "banner",
    "actions",
    "offering",
    "deck",
    "corporations",
    "players",
    "prices",
    "foreign",
    "history",
    "scoring",
    "join",
    "sync",
]


# which view shows which component (each view has its own URL and works without JavaScript)
TABS = {
    "play": ["banner", "actions", "last"],
    "table": ["banner", "offering", "deck", "prices", "foreign"],
    "corporations": ["banner", "corporations"],
    "players": ["banner", "players"],
    "log": ["banner", "history", "undo"],
    "more": ["banner", "join"],
}


def test_the_table_is_split_into_views_each_with_its_own_url(client, table):
    gid = table.started_game()
    seen = set()
    for name, components in TABS.items():
        url = f"/games/{gid}" if name == "play" else f"/games/{gid}/v/{name}"
        page = client.get(url)
        assert page.status_code == 200, name
        for c in components:
            assert f'id="c-{c}"' in page.text, (name, c)
        assert 'id="turn"' in page.text and 'id="connection"' in page.text and 'id="sync"' in page.text
        assert "Turn 1 · Phase 1 Investment" in page.text
        assert "Amy: bid or pass" in page.text
        # the navigation links every view, the current one marked, each with a plain href
        nav = page.text[page.text.index('<nav class="tabs"') :]
        for other in TABS:
            href = f"/games/{gid}" if other == "play" else f"/games/{gid}/v/{other}"
            assert f'href="{href}"' in nav
        assert nav.count('aria-current="page"') == 1
        seen.update(components)
    assert seen >= {c for c in COMPONENTS if c not in ("scoring", "sync")}
    assert client.get(f"/games/{gid}/v/secrets").status_code == 404
    assert client.get(f"/games/{gid}/r/secrets").status_code == 404


@pytest.mark.parametrize("name", list(TABS))
def test_a_views_region_refreshes_itself_once_per_change(client, table, name):
    gid = table.started_game()
    resp = client.get(f"/games/{gid}/r/{name}")
    assert resp.status_code == 200
    html = resp.text
    assert "<html" not in html  # a part of the page, not the page
    # one element re-fetches the region when the poll signals a change; the bar and poller come along
    assert html.count('hx-trigger="rss-changed from:body"') == 1
    assert f'hx-get="/games/{gid}/r/{name}"' in html
    assert 'id="turn"' in html and html.count('hx-swap-oob="true"') == 2
    for c in TABS[name]:
        if c != "banner":
            assert f'id="c-{c}"' in html


@pytest.mark.parametrize("name", COMPONENTS)
def test_each_component_still_renders_alone(client, table, name):
    gid = table.started_game()
    resp = client.get(f"/games/{gid}/c/{name}")
    assert resp.status_code == 200
    if name != "sync":
        assert f'id="c-{name}"' in resp.text


def test_unknown_component_and_unknown_game_are_404(client, table):
    gid = table.new_game()
    assert client.get(f"/games/{gid}/c/secrets").status_code == 404
    resp = client.get("/games/not-a-game")
    assert resp.status_code == 404
    assert "no game at this address" in resp.text
    assert client.get("/games/not-a-game/c/banner").status_code == 404


def test_action_panel_is_the_engine_menu(client, table, store):
    gid = table.started_game()
    _, game = store.state(gid)
    menu = game.legal_actions()
    panel = client.get(f"/games/{gid}/c/actions").text
    assert panel.count('name="e.type" value="bid"') == sum(1 for m in menu if m["type"] == "bid")
    assert panel.count('name="e.type" value="pass"') == 1
    for item in menu:
        if item["type"] == "bid":  # minimum pre-filled, maximum the player's money
            assert f'min="{item["min"]}" max="{item["max"]}" value="{item["min"]}"' in panel
    assert 'name="seq" value="3"' in panel


def test_offering_deck_players_and_prices(client, table):
    gid = table.started_game()
    snap = table.state(gid)
    offering = client.get(f"/games/{gid}/c/offering").text
    for abbr in snap["offering"]["available"]:
        assert abbr in offering
    deck = client.get(f"/games/{gid}/c/deck").text
    assert f"<strong>{snap['deck_size']}</strong> cards left" in deck
    assert "Cost of ownership" in deck
    players = client.get(f"/games/{gid}/c/players").text
    for name in ("Amy", "Brian", "Crystal"):
        assert name in players
    assert "value <strong>30</strong>" in players
    prices = client.get(f"/games/{gid}/c/prices").text
    assert '<span class="p">75</span>' in prices
    foreign = client.get(f"/games/{gid}/c/foreign").text
    assert "Cash <strong>4</strong>" in foreign


def test_history_lists_the_journal_newest_first(client, table, store):
    gid = table.started_game()
    _, game = store.state(gid)
    history = client.get(f"/games/{gid}/c/history").text
    texts = [j["text"] for j in game.journal]
    positions = [history.index(t) for t in reversed(texts)]
    assert positions == sorted(positions)
    assert "Undo the last event" in client.get(f"/games/{gid}/v/log").text  # next to the log, per phone
    assert "csrf_token" not in history  # the log is the same for every phone (rendered once)


def test_scoring_is_empty_until_the_game_ends(client, table):
    gid = table.started_game()
    resp = client.get(f"/games/{gid}/c/scoring")
    assert resp.status_code == 200
    empty = re.fullmatch(r'\s*<section id="c-scoring" class="component empty"[^>]*>\s*</section>\s*', resp.text)
    assert empty, resp.text  # the component is there (it replaces itself when the game ends), with nothing in it
    # a finished game: the final scoring shows every player's total, as the engine scores them
    data = played_game()
    resp = client.post("/games/import", json=data)
    assert resp.status_code == 303
    done = resp.get_json()["id"]
    final = STARS.replay(data["players"], [], data["events"]).snapshot()["final"]
    assert final is not None
    html = client.get(f"/games/{done}/c/scoring").text
    assert "Final scoring" in html and 'class="component empty"' not in html
    rows = re.findall(r"<tr><td>(\d+)</td><td>([^<]+)</td>.*?<td><strong>(-?\d+)</strong></td></tr>", html)
    assert [(name, int(total)) for _, name, total in rows] == [(p, final["scores"][p]) for p in final["ranking"]]


def test_colours_are_paired_with_a_shape_and_letter(client, table):
    gid = table.started_game()
    offering = client.get(f"/games/{gid}/c/offering").text
    assert '<span class="mark" aria-hidden="true">●R</span>' in offering


def test_the_hosts_seat_poll_is_empty_until_a_seat_is_taken(client, app, table):
    gid = table.new_game(["Amy", "Brian"])
    assert client.get(f"/games/{gid}/seats?taken=0").status_code == 204
    other = app.test_client()
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', other.get(f"/games/{gid}").text).group(1)
    other.post(f"/games/{gid}/seat", data={"csrf_token": csrf, "player": "Brian"})
    changed = client.get(f"/games/{gid}/seats?taken=0")
    assert changed.status_code == 200 and changed.headers["HX-Trigger"] == "rss-changed" and changed.data == b""
    assert client.get(f"/games/{gid}/seats?taken=1").status_code == 204
