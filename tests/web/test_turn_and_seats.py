"""The turn bar takes you to your decisions with one tap from any view, and taking a seat another
phone holds asks first (issue 17)."""

from __future__ import annotations

import re


def _seat(client, table, gid, player):
    resp = client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(gid), "player": player})
    assert resp.status_code == 303


def test_on_another_view_the_turn_bar_links_to_my_decisions(client, table):
    gid = table.started_game()
    actor = table.state(gid)["next"]["player"]
    _seat(client, table, gid, actor)
    for view in ("table", "corporations", "players", "log", "more"):
        bar = client.get(f"/games/{gid}/v/{view}").text.split('id="turn"')[1].split("</header>")[0]
        link = re.search(r'<a class="you button" href="([^"]+)"[^>]*>', bar)
        assert link and link.group(1) == f"/games/{gid}", view
        assert "Your turn: your decisions" in bar
    play = client.get(f"/games/{gid}").text.split('id="turn"')[1].split("</header>")[0]
    assert '<strong class="you">' in play and 'class="you button"' not in play
    other = next(p for p in table.state(gid)["player_order"] if p != actor)
    _seat(client, table, gid, other)
    bar = client.get(f"/games/{gid}/v/table").text.split('id="turn"')[1].split("</header>")[0]
    assert "Your turn" not in bar


def test_taking_a_seat_another_phone_holds_asks_first(table, client):
    gid = table.started_game()
    _seat(client, table, gid, "Amy")
    second = client.application.test_client()  # another phone: a client with its own cookie
    who = second.get(f"/games/{gid}").text  # a phone without a seat is asked: Who are you?
    block = re.search(r'<details class="take-over">(.*?)</details>', who, re.S)
    assert block and "Amy's phone has this seat. Take it over?" in block.group(1)
    assert re.search(r'<button type="submit" name="player" value="Amy" class="danger">', block.group(1))
    assert not re.search(r'<button type="submit" name="player" value="Amy"(?! class="danger")', who)
    free = re.search(r'<button type="submit" name="player" value="Brian">I am Brian</button>', who)
    assert free, "a free seat is one tap"
