"""Anyone with a game's link can no longer wipe it (issue 18, failure 3), against the real server:
undos past three in a row must be confirmed, every undone entry comes back with redo, the full
history keeps every entry, and a CSRF token from game B's page does not post to game A."""

from __future__ import annotations

from tests.project_games import played_game

from .conftest import Http, Server, import_game
from .test_hostile_network import Phone


def test_a_game_cannot_be_wiped_by_its_link(tmp_path):
    srv = Server(tmp_path / "games.sqlite3", tmp_path).start()
    try:
        client = Http(srv.base)
        gid = import_game(client, played_game(limit=40))
        _, before = client.json("GET", f"/games/{gid}/export")

        def post(event, **extra):
            _, state = client.json("GET", f"/games/{gid}/state")
            return client.json("POST", f"/games/{gid}/events", {"seq": state["seq"], "event": event, **extra})

        statuses = [post({"type": "undo"})[0] for _ in range(302)]  # the probe's 302 undos
        print(f"\n302 undos without confirmation: {statuses.count(200)} done, {statuses.count(422)} refused")
        assert statuses[:3] == [200] * 3 and set(statuses[3:]) == {422}
        for _ in range(5):
            assert post({"type": "undo"}, confirm=True)[0] == 200
        while post({"type": "redo"})[0] == 200:
            pass
        _, after = client.json("GET", f"/games/{gid}/export")
        assert after["events"] == before["events"]  # every undone entry came back
        _, history = client.json("GET", f"/games/{gid}/history")
        assert [r["event"]["type"] for r in history["rows"]].count("undo") == 8

        # a form of another game's page does not post to this one
        phone = Phone(srv.base)
        other = import_game(client, played_game(limit=10))
        _, state = client.json("GET", f"/games/{gid}/state")
        fields = {"seq": str(state["seq"]), "e.type": "pass", "e.player": "P1"}
        status, _, body = phone.form(f"/games/{gid}/act", {**fields, "csrf_token": phone.csrf(other)})
        assert status == 400 and b"CSRF" in body
        assert client.json("GET", f"/games/{gid}/state")[1]["seq"] == state["seq"]
    finally:
        srv.stop()
