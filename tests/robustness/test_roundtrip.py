"""Export -> import round trip over the public conformance games (FORMAT.md transcripts).

Importing a transcript replays its table events (checkpoints and events marked ``reject`` are
ignored); exporting that game and importing the export gives an identical game: same snapshot,
same seq, same events, same export.
"""

from __future__ import annotations

import io
import json

import pytest

from assistant.rules.registry import STARS

from .conftest import GAMES_DIR, conformance_files, csrf_of, header, snapshot_and_seq, table_events, written_events

FILES = conformance_files()
pytestmark = pytest.mark.skipif(not FILES, reason=f"no public conformance games in {GAMES_DIR}")


def _import_json(client, transcript) -> str:
    resp = client.post("/games/import", json=transcript)
    assert resp.status_code == 303, resp.get_data(as_text=True)[:300]
    gid = resp.get_json()["id"]
    assert resp.headers["Location"].endswith(f"/games/{gid}")
    return gid


def _export(client, gid) -> dict:
    resp = client.get(f"/games/{gid}/export")
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    return json.loads(resp.get_data(as_text=True))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_import_export_import_is_identical(client, path):
    original = json.loads(path.read_text(encoding="utf-8"))
    events = table_events(original)  # one per log row
    first = _import_json(client, original)
    exported = _export(client, first)
    # written back as the transcript has them: a phase that ended by itself writes its done there
    assert exported["events"] == written_events(original)
    assert exported["players"] == original["players"] and exported["options"] == original.get("options", [])

    # the export, imported as an uploaded file this time
    resp = client.post(
        "/games/import",
        data={"csrf_token": csrf_of(client), "transcript": (io.BytesIO(json.dumps(exported).encode()), "export.json")},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 303
    second = resp.headers["Location"].rsplit("/", 1)[1]
    assert second != first

    a, b = snapshot_and_seq(client, first), snapshot_and_seq(client, second)
    assert a == b and a["seq"] == len(events)
    assert a | {"seq": None} == STARS.replay(original["players"], original.get("options", []), events).snapshot() | {
        "seq": None
    }
    again = _export(client, second)
    assert again["events"] == exported["events"] and again["players"] == exported["players"]
    assert {k: v for k, v in again.items() if k != "source"} == {k: v for k, v in exported.items() if k != "source"}
    for name in ("history", "players", "corporations", "scoring"):  # the pages show the same game
        pages = [client.get(f"/games/{g}/c/{name}").get_data(as_text=True).replace(g, "GID") for g in (first, second)]
        assert pages[0] == pages[1]


def test_the_first_failing_event_is_named(client, app):
    original = json.loads(FILES[0].read_text(encoding="utf-8"))
    events = table_events(original)
    broken = header(original, events[:10] + [{"type": "pass", "player": "nobody"}] + events[10:])
    games = app.extensions["rss_store"].backend._db().conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    resp = client.post("/games/import", json=broken)
    assert resp.status_code == 422
    body = resp.get_json()
    assert body["index"] == 10 and body["error"].startswith("event 10: ") and len(body["error"]) > 15
    resp = client.post(
        "/games/import",
        data={"csrf_token": csrf_of(client), "transcript": (io.BytesIO(json.dumps(broken).encode()), "broken.json")},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 422 and "event 10: " in resp.get_data(as_text=True)
    assert app.extensions["rss_store"].backend._db().conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == games


def test_checkpoints_and_refused_events_are_ignored_but_an_undo_is_not_a_transcript_event(client):
    original = json.loads(FILES[0].read_text(encoding="utf-8"))
    assert any(e.get("reject") for e in original["events"]) and any(e["type"] == "expect" for e in original["events"])
    gid = _import_json(client, header(original, original["events"][:60]))
    assert _export(client, gid)["events"] == table_events(header(original, original["events"][:60]))
    resp = client.post("/games/import", json=header(original, table_events(original)[:5] + [{"type": "undo"}]))
    assert resp.status_code == 422 and resp.get_json()["index"] == 5
