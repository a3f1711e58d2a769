"""A damaged database file: the real server refuses to start on it (and says how to restore a backup),
``check-db`` says what is wrong, and damage found while the server runs gives a clear 503.

Three kinds of damage, each on a real SQLite file with real games: emptied to 0 bytes, truncated to
half its size, garbage written into its middle.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assistant.log import saved
from assistant.store import DatabaseDamaged, Store
from assistant.store.backends import check_before_start

from .conftest import ROOT, Http, Server, load_transcript

GAMES = 8
SECRET = "robustness-test"  # the servers of conftest.Server sign with it too
DAMAGE = ("zero", "truncated", "garbage", "row")


def build_db(path: Path, games: int = GAMES) -> list[str]:
    """A database with ``games`` whole games, all of it in the main file (WAL checkpointed); its saved
    states signed as the servers of ``run`` sign them (their RSS_SECRET_KEY)."""
    store = Store(path, key=saved.key_from_secret(SECRET))
    data = load_transcript()
    gids = [store.import_transcript(data) for _ in range(games)]
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return gids


def damage(path: Path, kind: str, size: int | None = None) -> None:
    """Damage the file; ``size``: its size when it held only the games (before a server saved states in it)."""
    size = path.stat().st_size if size is None else size
    if kind == "zero":
        os.truncate(path, 0)
    elif kind == "truncated":
        os.truncate(path, size // 2)
    elif kind == "row":  # garbage inside one stored event: the file's structure is whole
        at = path.read_bytes().find(b'{"type": "', size // 2)
        assert at > 0
        with open(path, "r+b") as fh:
            fh.seek(at)
            fh.write(b"\xff}}")
        conn = sqlite3.connect(path)
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]  # SQLite itself sees nothing
        conn.close()
    else:  # 16 KB of garbage in the middle of the file
        with open(path, "r+b") as fh:
            fh.seek(size // 2)
            fh.write(random.Random(7).randbytes(16 * 1024))


def run(*args, env=None, cwd=None) -> subprocess.CompletedProcess:
    full_env = dict(os.environ, PYTHONPATH=str(ROOT), RSS_SECRET_KEY=SECRET) | (env or {})
    full_env.pop("RSS_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "assistant", *args], capture_output=True, text=True, timeout=120, env=full_env, cwd=cwd
    )


def serve_until_refused(db: Path, tmp_path: Path, env=None, named=True) -> subprocess.CompletedProcess:
    """``serve`` on ``db``; it must exit by itself (a refusal), not start listening."""
    args = ["serve", "--host", "127.0.0.1", "--port", "0"] + (["--db", str(db)] if named else [])
    return run(*args, env={"RSS_INSTANCE": str(tmp_path / "instance")} | (env or {}), cwd=tmp_path)


# -- at start --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", DAMAGE)
def test_serve_refuses_a_damaged_file_and_says_how_to_restore(tmp_path, kind):
    db = tmp_path / "games.sqlite3"
    build_db(db)
    damage(db, kind)
    before = db.read_bytes()
    result = serve_until_refused(db, tmp_path)
    print(f"serve on a {kind} database: exit {result.returncode}\n{result.stderr}")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr + result.stdout
    assert str(db) in result.stderr
    assert "restore a backup" in result.stderr and "README" in result.stderr
    assert ("empty (0 bytes)" if kind == "zero" else "damaged") in result.stderr
    assert db.read_bytes() == before  # nothing written over it


def test_an_empty_file_of_a_used_instance_is_refused_but_a_new_instance_starts(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir()
    db = instance / "rss.sqlite3"
    db.touch()
    # a brand-new instance folder (no secret key yet) with an empty file: nothing was expected
    assert check_before_start(str(db), str(instance), named=False).games == 0
    # the same file named with --db: games were expected there
    with pytest.raises(DatabaseDamaged, match="empty"):
        check_before_start(str(db), str(instance), named=True)
    # the instance has been used (its secret key is there): the real server refuses, without --db
    (instance / "secret_key").write_text("k" * 64)
    result = serve_until_refused(db, tmp_path, env={"RSS_SECRET_KEY": ""}, named=False)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "empty (0 bytes)" in result.stderr and "instance folder has been used" in result.stderr
    assert db.stat().st_size == 0


def test_a_new_path_starts_a_fresh_database_and_the_log_says_what_it_holds(tmp_path):
    srv = Server(tmp_path / "new.sqlite3", tmp_path).start()
    try:
        assert "no file yet" in srv.output()
    finally:
        srv.stop()
    db = tmp_path / "full.sqlite3"
    build_db(db, 3)
    srv = Server(db, tmp_path).start()
    try:
        line = next(x for x in srv.output().splitlines() if x.startswith("Database:"))
        print(line)
        assert str(db) in line and "3 games" in line and "integrity check passed" in line
    finally:
        srv.stop()


def test_an_sqlite_file_of_something_else_is_refused(tmp_path):
    db = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, data BLOB)")
    conn.commit()
    conn.close()
    result = serve_until_refused(db, tmp_path)
    assert result.returncode == 2 and "not this app's database" in result.stderr
    assert run("check-db", "--db", str(db)).returncode == 1


# -- check-db --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", DAMAGE)
def test_check_db_reports_damage_with_a_non_zero_exit_code(tmp_path, kind):
    db = tmp_path / "games.sqlite3"
    build_db(db)
    whole = run("check-db", "--db", str(db))
    assert whole.returncode == 0, whole.stdout
    assert whole.stdout.startswith("OK:") and f"{GAMES} games" in whole.stdout
    damage(db, kind)
    before = db.read_bytes()
    result = run("check-db", "--db", str(db))
    print(f"check-db on a {kind} database: exit {result.returncode}\n{result.stdout}")
    assert result.returncode == 1
    assert ("EMPTY" if kind == "zero" else "DAMAGED") in result.stdout
    if kind == "row":
        assert "garbage inside the row" in result.stdout
    assert "restore a backup" in result.stdout and "Traceback" not in result.stderr
    wal = Path(f"{db}-wal")
    assert db.read_bytes() == before and (not wal.exists() or wal.stat().st_size == 0)  # it only reads


def test_check_db_finds_the_default_file_and_says_when_there_is_none(tmp_path):
    env = {"RSS_INSTANCE": str(tmp_path / "inst")}
    result = run("check-db", env=env)
    assert result.returncode == 2 and "No database file" in result.stdout
    (tmp_path / "inst").mkdir()
    build_db(tmp_path / "inst" / "rss.sqlite3", 2)
    result = run("check-db", env=env)
    assert result.returncode == 0 and "2 games" in result.stdout


# -- at run time -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["truncated", "garbage", "row"])
def test_damage_found_while_serving_gives_a_clear_503(tmp_path, kind):
    db = tmp_path / "games.sqlite3"
    gids = build_db(db)
    srv = Server(db, tmp_path).start()
    try:
        client = Http(srv.base)
        status, _, _ = client.request("GET", "/games/new")
        assert status == 200
        damage(db, kind)
        answers = []
        for gid in gids:
            # the page and the state may read different rows: a state starts from the latest saved
            # state (assistant/log/saved.py), a finished game's page replays the whole game for its charts
            page_status, _, page = client.request("GET", f"/games/{gid}", headers={"Accept": "text/html"})
            json_status, body = client.json("GET", f"/games/{gid}/state")
            answers.append((page_status, json_status))
            assert {page_status, json_status} <= {200, 503}, (answers, srv.output()[-4000:])
            if page_status == 503:
                assert "database is damaged" in page.decode() and "Something went wrong" not in page.decode()
            if json_status == 503:
                assert "database disk image is malformed" in body["error"] or kind == "row"
                assert "restore a backup" in body["error"]
        print(f"{kind} at run time, (page, JSON) per game not yet read: {answers}")
        assert any(503 in s for s in answers)
        broken = gids[[503 in a for a in answers].index(True)]
        status, body = client.json("POST", f"/games/{broken}/events", {"seq": 0, "event": {"type": "pass"}})
        assert status in (503, 422, 409, 400) and status != 500
        output = srv.output()
        assert "Traceback" not in output and "database damaged" in output
    finally:
        srv.stop()


def test_a_file_emptied_while_serving_gives_a_clear_503(tmp_path):
    db = tmp_path / "games.sqlite3"
    gids = build_db(db)
    srv = Server(db, tmp_path).start()
    try:
        client = Http(srv.base, timeout=120)
        damage(db, "zero")
        status, body = client.json("GET", f"/games/{gids[1]}/state")
        print(f"emptied at run time: {status} {json.dumps(body)[:200]}")
        assert status == 503 and "damaged" in body["error"]
        # a write cannot take the file's lock (the server's other connections hold theirs): it waits for
        # SQLite's busy timeout, then says the same
        status, body = client.json(
            "POST",
            "/games/import",
            {"format": "rss-table-transcript", "version": 1, "players": ["Amy", "Brian"], "events": []},
        )
        print(f"a write to the emptied file: {status} {json.dumps(body)[:200]}")
        assert status == 503 and "damaged" in body["error"]
        assert "Traceback" not in srv.output()
    finally:
        srv.stop()


@pytest.mark.parametrize("kind", ["truncated"])  # garbage in the middle may spare the pages polls read
def test_the_polls_on_a_damaged_database_get_a_short_503_and_the_log_one_line(tmp_path, kind):
    """Every phone polls once a second: on a damaged file the fast poll answered an empty 500 with a
    30-line traceback per poll; now a short 503 that the phones show, and one log line a minute."""
    db = tmp_path / "games.sqlite3"
    gids = build_db(db)
    size = db.stat().st_size
    srv = Server(db, tmp_path).start()
    try:
        client = Http(srv.base)
        seqs = {gid: client.json("GET", f"/games/{gid}/state")[1]["seq"] for gid in gids}
        for _ in range(6):  # through Flask once (the fast path learns its headers), then fast; a
            # moment later from what each worker's waker knows, without the database (serve/known.py)
            for gid in gids:
                assert client.request("GET", f"/games/{gid}/version?seq={seqs[gid]}")[0] == 204
            time.sleep(0.1)
        damage(db, kind, size)
        time.sleep(
            0.3
        )  # each worker's waker looks every 50 ms  # the middle of the games' rows (the server may have saved states after them)
        answers = []
        for _ in range(5):
            for gid in gids:
                status, headers, body = client.request("GET", f"/games/{gid}/version?seq={seqs[gid]}")
                answers.append(status)
                if status == 503 and headers.get("content-type", "").startswith("text/plain"):
                    assert b"has a problem with its database" in body and len(body) < 200
        assert 500 not in answers and 503 in answers, answers
        time.sleep(0.5)
        output = srv.output()
        assert "Traceback" not in output
        assert output.count("database error under the live-sync polls") <= 2  # one a minute per worker
    finally:
        srv.stop()
