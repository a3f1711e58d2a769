"""The store's own errors under a request: PostgreSQL out of reach is a 503 that says so, and on
SQLite the PostgreSQL driver is never loaded (the store names the errors of its backend; the
driver costs a worker about 20 MB)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg

from .conftest import PLAYERS, make_app

ROOT = Path(__file__).resolve().parents[2]


def test_on_sqlite_a_worker_never_loads_the_postgresql_driver(tmp_path):
    code = (
        "import sys\n"
        "from tests.web.conftest import make_app\n"
        f"app = make_app({str(tmp_path / 'rss.sqlite3')!r})\n"
        "client = app.test_client()\n"
        "assert client.get('/').status_code == 200\n"
        "gid = app.extensions['rss_store'].create_game(['Amy', 'Brian'], ruleset='rolling-stock-stars')\n"
        "assert client.get(f'/games/{gid}/state').status_code == 200\n"
        "print(sorted(m for m in sys.modules if m.startswith('psycopg')))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout


def test_postgresql_out_of_reach_under_a_request_is_a_503_that_says_so(pg_url, tmp_path):
    app = make_app(pg_url, INSTANCE_PATH=str(tmp_path / "instance"))
    store = app.extensions["rss_store"]
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    client = app.test_client()
    assert client.get(f"/games/{gid}/state").status_code == 200
    # the database server stops taking this database's connections and drops the open ones
    name = pg_url.rsplit("/", 1)[1]
    with psycopg.connect(pg_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        )
    answer = client.get(f"/games/{gid}/state")
    assert answer.status_code == 503, answer.get_data(as_text=True)[:500]
    assert "database server cannot be reached" in answer.get_json()["error"]
    with psycopg.connect(pg_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
    store.close()


def test_log_rows_missing_under_a_restored_game_are_a_damaged_database_not_a_crash(tmp_path):
    """A game restored from a saved state holds only its latest journal entries; the older ones are
    read from the log when first needed (the Log's full history, a finished game's charts).  A
    damaged file may just read fewer rows without an error of its own (seen under the full suite:
    "expected the 136 oldest journal entries, got 9", a 500): that is the damaged-database 503."""
    import sqlite3

    from tests.project_games import played_game

    db = tmp_path / "rss.sqlite3"
    app = make_app(db, SAVE_EVERY=5)
    data = played_game()  # to the end: the page shows the final charts, from every entry
    resp = app.test_client().post("/games/import", json=data)
    assert resp.status_code == 303, resp.text
    gid = resp.get_json()["id"]
    app.extensions["rss_store"].close()

    conn = sqlite3.connect(db)
    assert conn.execute("SELECT count(*) FROM saved_states WHERE game_id = ?", [gid]).fetchone()[0] > 0
    conn.execute("DELETE FROM events WHERE game_id = ? AND seq <= 3", [gid])  # what a damaged scan returns
    conn.commit()
    conn.close()

    fresh = make_app(db, SAVE_EVERY=5)  # a fresh worker: the game is restored from its saved state
    try:
        phone = fresh.test_client()
        assert phone.get(f"/games/{gid}/state").get_json()["game_over"]  # the latest entries are enough here
        resp = phone.get(f"/games/{gid}")
        assert resp.status_code == 503, resp.status_code
        assert "damaged" in resp.text and "Something went wrong" not in resp.text
    finally:
        fresh.extensions["rss_store"].close()
