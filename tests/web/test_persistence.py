"""Persistence: a new app on the same file resumes every game exactly."""

import json

from .conftest import Table, make_app


def test_a_new_app_on_the_same_file_finds_the_games_unchanged(tmp_path):
    db = tmp_path / "table.sqlite3"
    first = make_app(db)
    table = Table(first.test_client())
    one = table.started_game()
    table.post_json(one, {"seq": 3, "event": {"type": "pass", "player": "Amy"}})
    table.post_json(one, {"seq": 4, "event": {"type": "pass", "player": "Brian"}})
    table.post_json(one, {"seq": 5, "event": {"type": "undo"}})
    two = table.started_game(["Dirk", "Emma"])
    before = {gid: table.state(gid) for gid in (one, two)}
    page_before = first.test_client().get(f"/games/{one}/c/history").text
    first.extensions["rss_store"].close()

    second = make_app(db)
    again = Table(second.test_client())
    assert second.extensions["rss_store"] is not first.extensions["rss_store"]
    for gid, snap in before.items():
        assert again.state(gid) == snap
    assert second.test_client().get(f"/games/{one}/c/history").text == page_before
    resp = again.post_json(one, {"seq": 6, "event": {"type": "pass", "player": "Brian"}})
    assert resp.get_json() == {"seq": 7}


def test_database_uses_wal(tmp_path, app):
    conn = app.extensions["rss_store"].backend._db().conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_default_database_lives_in_the_instance_folder(tmp_path, monkeypatch):
    from assistant.web import create_app

    monkeypatch.delenv("RSS_DB", raising=False)
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path / "inst")})
    try:
        assert app.config["DATABASE"].startswith(app.instance_path)
    finally:
        app.extensions["rss_store"].close()


def test_rss_db_environment_variable(tmp_path, monkeypatch):
    from assistant.web import create_app

    monkeypatch.setenv("RSS_DB", str(tmp_path / "env.sqlite3"))
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "INSTANCE_PATH": str(tmp_path / "inst")})
    assert app.config["DATABASE"] == str(tmp_path / "env.sqlite3")
    app.extensions["rss_store"].close()


def test_a_stored_log_the_engine_refuses_is_a_clear_409_not_a_500(app, table, store):
    gid = table.started_game()
    with store.backend._db().conn as conn:  # a row the rules refuse, as after a change of the rules engine
        conn.execute(
            "INSERT INTO events (game_id, seq, event, token, created) VALUES (?, 4, ?, NULL, 'x')",
            [gid, '{"type": "pass", "player": "Crystal"}'],
        )
    resp = table.client.get(f"/games/{gid}")
    assert resp.status_code == 409 and "cannot be shown" in resp.text
    assert table.client.get(f"/games/{gid}/state").status_code == 409
    # the log can still be taken away whole: the export holds every stored event, the refused one last
    stored = [
        json.loads(r["event"])
        for r in store.backend._db().query("SELECT event FROM events WHERE game_id = ? ORDER BY seq", [gid])
    ]
    resp = table.client.get(f"/games/{gid}/export")
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    data = resp.get_json()
    assert data["players"] == ["Amy", "Brian", "Crystal"] and data["events"] == stored
    assert len(stored) == 4 and data["events"][-1] == {"type": "pass", "player": "Crystal"}
