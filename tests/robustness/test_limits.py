"""Limits that protect the disk (issue 18, failure 4), against the real server with two worker
processes: new games and imports per client are rate-limited with one count shared by the workers
(429 with Retry-After), the database takes no new game past its size cap while running games go
on, and ``serve`` says how much disk is free, warning below a threshold."""

from __future__ import annotations

import json

from .conftest import Http, Server, import_game, load_transcript


def _transcript() -> dict:
    return {**load_transcript(), "events": []}


def test_new_games_per_client_are_limited_with_one_count_for_all_workers(tmp_path):
    srv = Server(tmp_path / "games.sqlite3", tmp_path, env={"RSS_CREATE_LIMIT": "60/600"}).start()
    try:
        answers = []
        for _ in range(61):
            client = Http(srv.base)  # a new connection each time: both workers answer
            status, headers, _ = client.request(
                "POST", "/games/import", json.dumps(_transcript()).encode(), {"Content-Type": "application/json"}
            )
            answers.append((status, headers))
            client.close()
        statuses = [s for s, _ in answers]
        print(f"\n61 imports: {statuses.count(303)} made, then {statuses[-1]}")
        assert statuses[:60] == [303] * 60 and statuses[60] == 429
        headers = {k.lower(): v for k, v in answers[60][1].items()}
        assert 0 < int(headers["retry-after"]) <= 601
        status, body = Http(srv.base).json("POST", "/games/import", _transcript())
        assert status == 429 and "Too many new games from this device" in body["error"]
        assert "Traceback" not in srv.output()
    finally:
        srv.stop()


def test_past_the_size_cap_no_new_game_and_no_new_row(tmp_path):
    """Every write counts against the cap (issue 38 §5; before, the games under way went on writing)."""
    db = tmp_path / "games.sqlite3"
    srv = Server(db, tmp_path).start()
    client = Http(srv.base)
    gid = import_game(client, _transcript())
    srv.stop()
    srv = Server(db, tmp_path, env={"RSS_DB_MAX_MB": "0.001"}).start()  # about 1 KB: already past it
    try:
        client = Http(srv.base)
        status, body = client.json("POST", "/games/import", _transcript())
        assert status == 507 and "database is full" in body["error"] and "save nothing more" in body["error"]
        status, state = client.json("GET", f"/games/{gid}/state")
        event = {"type": "reveal", "company": state["next"]["choices"][0]}
        status, body = client.json("POST", f"/games/{gid}/events", {"seq": state["seq"], "event": event})
        assert status == 507 and "database is full" in body["error"] and "RSS_DB_MAX_MB" in body["error"], body
        assert client.json("GET", f"/games/{gid}/state")[1]["seq"] == state["seq"], "nothing was written"
    finally:
        srv.stop()


def test_serve_says_how_much_disk_is_free_and_warns_below_the_threshold(tmp_path):
    srv = Server(tmp_path / "games.sqlite3", tmp_path).start()
    said = srv.output()
    srv.stop()
    print("\n" + next(line for line in said.splitlines() if line.startswith("Disk:")))
    assert "MB free on the database's disk" in said and "WARNING" not in said
    srv = Server(tmp_path / "games.sqlite3", tmp_path, env={"RSS_DISK_WARN_MB": "100000000"}).start()
    said = srv.output()
    srv.stop()
    assert "WARNING: the disk is nearly full" in said
