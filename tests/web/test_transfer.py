"""Export as a transcript (effective events only) and import (replayed through the engine)."""

import io
import json


def _played(table):
    gid = table.started_game()
    table.post_json(gid, {"seq": 3, "event": {"type": "pass", "player": "Amy"}})
    table.post_json(gid, {"seq": 4, "event": {"type": "pass", "player": "Brian"}})
    table.post_json(gid, {"seq": 5, "event": {"type": "undo"}})
    return gid


def test_export_is_a_transcript_of_the_effective_events(client, table, store):
    gid = _played(table)
    resp = client.get(f"/games/{gid}/export")
    assert resp.status_code == 200
    assert resp.mimetype == "application/json"
    assert "attachment" in resp.headers["Content-Disposition"]
    data = resp.get_json()
    assert data["format"] == "rss-table-transcript" and data["version"] == 1
    assert data["game"] == "rolling-stock-stars"
    assert data["players"] == ["Amy", "Brian", "Crystal"] and data["options"] == []
    assert "source" in data
    assert [e["type"] for e in data["events"]] == ["reveal"] * 3 + ["pass"]
    assert data["events"] == store.state(gid)[1].events


def test_import_json_body_recreates_the_game(client, table):
    gid = _played(table)
    transcript = client.get(f"/games/{gid}/export").get_json()
    resp = client.post("/games/import", json=transcript)
    assert resp.status_code == 303
    new_gid = resp.get_json()["id"]
    assert resp.headers["Location"].endswith(f"/games/{new_gid}")
    assert new_gid != gid
    old, new = table.state(gid), table.state(new_gid)
    assert new["seq"] == 4
    assert {k: v for k, v in old.items() if k != "seq"} == {k: v for k, v in new.items() if k != "seq"}


def test_import_uploaded_file_redirects_to_the_table(client, table):
    gid = _played(table)
    raw = client.get(f"/games/{gid}/export").data
    resp = client.post(
        "/games/import",
        data={"csrf_token": table.csrf(), "transcript": (io.BytesIO(raw), "game.json")},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 303
    page = client.get(resp.headers["Location"])
    assert page.status_code == 200 and "Brian: bid or pass" in page.text


def test_import_ignores_checkpoints_and_rejected_events(client, table):
    gid = _played(table)
    transcript = client.get(f"/games/{gid}/export").get_json()
    events = transcript["events"]
    transcript["events"] = (
        events[:3]
        + [
            {"type": "expect", "state": {"turn": 1}},
            {"type": "pass", "player": "Crystal", "reject": True, "why": "out of turn"},
        ]
        + events[3:]
    )
    resp = client.post("/games/import", json=transcript)
    assert resp.status_code == 303
    assert table.state(resp.get_json()["id"])["seq"] == 4


def test_import_refuses_with_the_first_failing_event(client, table, store):
    gid = _played(table)
    transcript = client.get(f"/games/{gid}/export").get_json()
    transcript["events"].append({"type": "pass", "player": "Amy"})  # it is Brian's turn
    resp = client.post("/games/import", json=transcript)
    assert resp.status_code == 422
    body = resp.get_json()
    assert body["index"] == 4 and "event 4" in body["error"]
    assert len(list(store.backend._db().query("SELECT id FROM games"))) == 1


def test_import_refuses_bad_headers(client, table):
    base = {
        "format": "rss-table-transcript",
        "version": 1,
        "game": "rolling-stock-stars",
        "players": ["A", "B"],
        "options": [],
        "events": [],
    }
    for change, words in (
        ({"format": "x"}, "not a transcript"),
        ({"options": ["turbo"]}, "unknown option"),
        ({"players": ["A", "A"]}, "distinct"),
        ({"events": {}}, "events must be a list"),
        ({"players": ["A"]}, "2 to 6"),
    ):
        resp = client.post("/games/import", json={**base, **change})
        assert resp.status_code == 422, change
        assert words in resp.get_json()["error"], (change, resp.get_json())


def test_import_of_not_json_is_400(client, table):
    resp = client.post("/games/import", data="{oops", content_type="application/json")
    assert resp.status_code == 400
    upload = client.post(
        "/games/import",
        data={"csrf_token": table.csrf(), "transcript": (io.BytesIO(b"\xff\xfe"), "x.json")},
        content_type="multipart/form-data",
    )
    assert upload.status_code == 400 and "not a JSON transcript" in upload.text
    missing = client.post("/games/import", data={"csrf_token": table.csrf()})
    assert missing.status_code == 400


def test_export_of_unknown_game_is_404(client):
    assert client.get("/games/nope/export").status_code == 404
    assert json.loads(client.get("/games/nope/export", headers={"Accept": "application/json"}).data)["error"]


def test_an_export_already_downloaded_is_not_built_again(client, table):
    gid = _played(table)
    first = client.get(f"/games/{gid}/export")
    assert first.status_code == 200 and first.headers["Cache-Control"] == "private, no-cache"
    tag = first.headers["ETag"]
    again = client.get(f"/games/{gid}/export", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b""
    seq = table.state(gid)["seq"]
    assert table.post_json(gid, {"seq": seq, "event": {"type": "pass", "player": "Brian"}}).status_code == 200
    changed = client.get(f"/games/{gid}/export", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert changed.get_json()["events"][-1] == {"type": "pass", "player": "Brian"}
