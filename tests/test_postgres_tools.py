"""PostgreSQL's tools (issue 20): ``--db`` takes a postgresql:// URL and refuses anything that only
looks like one; ``copy-db`` moves a table's games from SQLite and checks every export; ``check-db``
checks a PostgreSQL store."""

from __future__ import annotations

import subprocess
import sys

import pytest

from assistant.store import Store, dburl
from tests.project_games import played_game

from .rules.conftest import REPO

pytestmark = pytest.mark.server


def _cli(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "assistant", *args],
        capture_output=True,
        text=True,
        cwd=cwd or REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "RSS_SECRET_KEY": "t"},
        timeout=120,
    )


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("mysql://root@db/rss", "the mysql:// kind of database is not supported"),
        ("sqlite:///x.db", "the sqlite:// kind of database is not supported"),
        ("postgresql:/rss", "looks like a URL but is not one"),
        ("postgres:rss", "looks like a URL but is not one"),
    ],
)
def test_a_db_that_is_neither_a_file_nor_a_postgresql_url_is_refused_and_nothing_is_made(tmp_path, target, words):
    run = _cli("serve", "--host", "127.0.0.1", "--port", "1", "--db", target, cwd=tmp_path)
    assert run.returncode != 0 and words in run.stderr
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(dburl.BadDatabase, match=words.split(" ")[0]):
        dburl.check(target)
    assert dburl.check("postgresql://u@h:5/d") and dburl.check("games/rss.sqlite3")


def _sqlite_store_with_games(path) -> Store:
    store = Store(str(path))
    data = played_game(limit=60)
    gid = store.import_transcript(data)
    seq = store.seq(gid)
    store.append(gid, seq, {"type": "undo"}, token="u1")
    store.append(gid, seq + 1, data["events"][seq - 1], token="again")
    other = store.create_game(["Amy", "Brian", "Crystal"], ["short"], ruleset="rolling-stock")
    store.append(other, 0, {"type": "reveal", "company": store.state(other)[1].next["choices"][0]})
    return store


def test_copy_db_moves_every_game_with_its_whole_log_and_checks_the_exports(tmp_path, pg_url):
    source = _sqlite_store_with_games(tmp_path / "old.sqlite3")
    gids = source.backend.game_ids()
    run = _cli("copy-db", "--from", str(tmp_path / "old.sqlite3"), "--to", pg_url)
    assert run.returncode == 0, run.stderr + run.stdout
    assert "2 games copied" in run.stdout and "every copied game exports identically" in run.stdout
    target = Store(pg_url)
    try:
        for gid in gids:
            assert target.export(gid) == source.export(gid)
            assert target.backend.rows(gid) == source.backend.rows(gid)  # undo rows and tokens too
        played = next(g for g in gids if source.backend.token_seq(g, "again") is not None)
        # a retry of a post made before the move is answered as the first time
        assert target.append(played, 0, {"type": "undo"}, token="again") == source.seq(played)
    finally:
        target.close()
        source.close()
    again = _cli("copy-db", "--from", str(tmp_path / "old.sqlite3"), "--to", pg_url)
    assert again.returncode == 0 and "0 games copied, 2 already there" in again.stdout


def test_check_db_checks_a_postgresql_store(tmp_path, pg_url):
    store = Store(pg_url)
    gid = store.create_game(["Amy", "Brian"], ruleset="rolling-stock-stars")
    store.close()
    ok = _cli("check-db", "--db", pg_url)
    assert ok.returncode == 0 and "OK: " in ok.stdout and "1 game" in ok.stdout
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("INSERT INTO events VALUES (%s, 1, 'garbage{', NULL, 'x')", [gid])
    bad = _cli("check-db", "--db", pg_url)
    assert bad.returncode == 1 and "DAMAGED" in bad.stdout and f"event 1 of game {gid} is not readable" in bad.stdout
    down = _cli("check-db", "--db", "postgresql://postgres@127.0.0.1:1/none")
    assert down.returncode == 1 and "PostgreSQL cannot be used" in down.stdout
