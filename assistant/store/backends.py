"""Which backend a database is: the one place that tells an SQLite file and PostgreSQL apart (what
``--db`` names is checked in ``dburl.py``). What differs between them is theirs to say (their
``prepare``, ``where``, ``inspect``, ``check_before_start``, ``remember``, ``change_feed``, ...).

The backends are imported when asked for, so that the supervisor, which only checks the database
before each start, does not load the store."""

from __future__ import annotations

from assistant.store.dburl import is_postgres
from assistant.store.errors import DatabaseDamaged  # noqa: F401 - what check_before_start raises


def backend(target: str):
    """The backend class of the database ``target`` names (``SQLiteBackend`` or ``PostgresBackend``):
    the one place that tells them apart.  What differs between them is theirs to say (their
    ``prepare``, ``where``, ``inspect``, ``check_before_start``, ``remember``, ...)."""
    if is_postgres(target):
        from assistant.store.postgres import PostgresBackend  # psycopg: installed with the postgresql extra

        return PostgresBackend
    from assistant.store.sqlite import SQLiteBackend

    return SQLiteBackend


def check_before_start(path: str, instance_path: str | None = None, named: bool = False):
    """The start check of ``serve``: the report, or DatabaseDamaged with what to do (the backend's own)."""
    return backend(path).check_before_start(path, instance_path, named)
