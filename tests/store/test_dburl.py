"""What ``--db`` / ``$RSS_DB`` may name (assistant/store/dburl.py): an SQLite file, or a PostgreSQL URL
once its driver is installed; a URL of another kind or a misspelt one is refused in words."""

from __future__ import annotations

import sys
import types

import pytest

from assistant.store.dburl import BadDatabase, check, is_postgres, redacted

PG = "postgresql://amy:s3cret@db.example:5432/games"
EXTRA = (
    "python -m pip install 'rolling-stock-stars-assistant[postgresql]' "
    "(from a checkout: python -m pip install '.[postgresql]')"
)


def refusal(target) -> str:
    with pytest.raises(BadDatabase) as err:
        check(target)
    assert str(err.value) == err.value.message
    return err.value.message


def test_a_file_path_or_a_postgresql_url_is_used_as_given():
    for target in ("rss.sqlite3", "/srv/rss/rss.sqlite3", "C:/rss.sqlite3", "ab:c.sqlite3", "notes:rss.sqlite3"):
        assert check(target) == target and not is_postgres(target)
    for target in (PG, "postgres://amy@db/games", "PostgreSQL://amy@db/games"):
        assert check(target) == target and is_postgres(target)


def test_nothing_given_another_kind_of_url_or_a_misspelt_one_is_refused_in_words():
    empty = "--db needs an SQLite file path or a postgresql:// URL"
    assert refusal("") == refusal("   ") == refusal(None) == empty
    assert refusal("mysql://amy@db/games") == (
        "--db 'mysql://amy@db/games': the mysql:// kind of database is not supported; "
        "give an SQLite file path, or a postgresql://user@host:port/dbname URL"
    )
    assert "the sqlite:// kind" in refusal("sqlite:///rss.sqlite3")
    for target in (
        "postgresql:/games",
        "Postgres:games",
        "sqlite:rss.sqlite3",
        "mysql:x",
        "http:x",
        "HTTPS:x",
        "file:x",
    ):
        assert refusal(target) == (
            f"--db {target!r} looks like a URL but is not one; write postgresql://user@host:port/dbname "
            "for PostgreSQL, or a plain file path for SQLite"
        )
        assert not is_postgres(target)


@pytest.mark.parametrize("missing", ["psycopg", "psycopg_pool"])
def test_a_postgresql_url_without_its_driver_says_how_to_install_it(monkeypatch, missing):
    """Not installed: the import system finds no such module (None in sys.modules), or a module
    without a spec (find_spec raises ValueError); the URL named without its password."""
    monkeypatch.setitem(sys.modules, missing, None)
    expected = (
        f"--db postgresql://amy:***@db.example:5432/games: PostgreSQL needs the package's postgresql extra "
        f"({missing} is not installed): {EXTRA}"
    )
    assert refusal(PG) == expected
    monkeypatch.setitem(sys.modules, missing, types.ModuleType(missing))  # no __spec__
    assert refusal(PG) == expected


def test_a_url_is_logged_without_its_password():
    assert redacted(PG) == "postgresql://amy:***@db.example:5432/games"
    assert redacted("postgresql://amy:@db/games") == "postgresql://amy:***@db/games"
    for target in ("postgresql://amy@db.example:5432/games", "postgresql://db.example:5432/games", "rss.sqlite3"):
        assert redacted(target) == target
