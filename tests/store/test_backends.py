"""Which backend a database is (assistant/store/backends.py): an SQLite file or a PostgreSQL URL, and
serve's start check handed to that backend with what it was given."""

from __future__ import annotations

import pytest

from assistant.store.backends import backend, check_before_start
from assistant.store.errors import DatabaseDamaged
from assistant.store.postgres import PostgresBackend
from assistant.store.sqlite import SQLiteBackend


def test_a_file_is_sqlite_and_a_postgresql_url_is_postgresql():
    assert backend("rss.sqlite3") is SQLiteBackend and backend("/srv/postgres/rss.sqlite3") is SQLiteBackend
    assert backend("postgresql://amy@db/games") is PostgresBackend and backend("Postgres://amy@db/g") is PostgresBackend


def test_the_start_check_of_an_empty_file_depends_on_whether_games_were_expected(tmp_path):
    """An empty file in a new instance folder is a new table; named with --db, or in an instance
    folder used before (its secret key there), games were expected: refused, saying which."""
    instance = tmp_path / "instance"
    instance.mkdir()
    db = instance / "rss.sqlite3"
    db.touch()
    assert check_before_start(str(db), str(instance), named=False).games == 0
    with pytest.raises(DatabaseDamaged, match=r"empty \(0 bytes\), but games were expected there \(it was named"):
        check_before_start(str(db), str(instance), named=True)
    (instance / "secret_key").write_text("k" * 64)
    with pytest.raises(DatabaseDamaged, match=r"\(this instance folder has been used before\)"):
        check_before_start(str(db), str(instance))
