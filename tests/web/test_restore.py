"""Nothing undone is lost (issue 18, failure 3): a redo restores the most recently undone entry
while nothing new has been entered; the Log lists undone entries with a one-tap Restore; undoing
more than a few in a row asks first (and the JSON door wants "confirm"); the Log and a history
export show every entry ever made, while the transcript export stays as it is."""

from __future__ import annotations

import html
import re

from tests.project_games import played_game

from .htmlforms import forms


def _game(client) -> str:
    resp = client.post("/games/import", json=played_game(limit=40))
    assert resp.status_code == 303
    return resp.get_json()["id"]


def _post(table, gid, event, **extra):
    return table.post_json(gid, {"seq": table.state(gid)["seq"], "event": event, **extra})


def test_undone_entries_come_back_with_redo_in_order(client, table):
    gid = _game(client)
    before = client.get(f"/games/{gid}/export").get_json()["events"]
    for _ in range(3):
        assert _post(table, gid, {"type": "undo"}).status_code == 200
    assert client.get(f"/games/{gid}/export").get_json()["events"] == before[:-3]
    assert _post(table, gid, {"type": "redo"}).status_code == 200
    assert client.get(f"/games/{gid}/export").get_json()["events"] == before[:-2]
    # something new entered (here the entry that was undone, entered again by hand): what is
    # still undone can no longer be restored, but it is not lost
    assert _post(table, gid, before[-2]).status_code == 200
    refused = _post(table, gid, {"type": "redo"})
    assert refused.status_code == 422 and "nothing to restore" in refused.get_json()["error"]
    history = client.get(f"/games/{gid}/history").get_json()
    assert history["format"] == "rss-table-history"
    kinds = [r["event"]["type"] for r in history["rows"]]
    assert kinds.count("undo") == 3 and kinds.count("redo") == 1
    texts = [r["text"] for r in history["rows"]]
    assert sum(t.startswith("Undone: ") for t in texts) == 3 and sum(t.startswith("Restored: ") for t in texts) == 1
    # the transcript export holds the events in effect only; importing it ignores any history
    again = client.post("/games/import", json={**client.get(f"/games/{gid}/export").get_json(), "history": history})
    assert again.status_code == 303


def test_the_log_restores_undone_entries_with_one_tap(client, table):
    gid = _game(client)
    before = client.get(f"/games/{gid}/export").get_json()["events"]
    for _ in range(2):
        _post(table, gid, {"type": "undo"})
    log = client.get(f"/games/{gid}/v/log").text
    restore = [f for f in forms(log) if f.action.endswith("/redo")]
    assert [f.fields["count"] for f in restore] == ["1", "2"]
    assert "Restore (and the 1 above)" in html.unescape(log)
    resp = client.post(restore[1].action, data=restore[1].submission())  # the older one: both come back
    assert resp.status_code == 303
    assert client.get(f"/games/{gid}/export").get_json()["events"] == before
    assert "Nothing undone to restore." in client.get(f"/games/{gid}/v/log").text


def test_many_undos_in_a_row_ask_first(client, table):
    gid = _game(client)
    for _ in range(3):
        assert _post(table, gid, {"type": "undo"}).status_code == 200
    refused = _post(table, gid, {"type": "undo"})
    assert refused.status_code == 422 and '"confirm": true' in refused.get_json()["error"]
    assert table.state(gid)["seq"] == 43
    assert _post(table, gid, {"type": "undo"}, confirm=True).status_code == 200
    log = html.unescape(client.get(f"/games/{gid}/undo").text)
    assert "4 entries have just been undone in a row." in log


def test_the_full_history_shows_undone_entries(client, table):
    gid = _game(client)
    _post(table, gid, {"type": "undo"})
    page = html.unescape(client.get(f"/games/{gid}/v/log?history=everything").text)
    block = re.search(r'<ol class="log full-log">(.*?)</ol>', page, re.S).group(1)
    items = re.findall(r"<li[^>]*>(.*?)(?: <a class=\"back-link\"[^>]*>[^<]*</a>)?</li>", block)
    assert len(items) == 41 and items[-1].startswith("Undone: ")
