"""The schema's steps are written once (assistant/store/schema.py) and each backend makes the same
tables from them: a new SQLite file and a new PostgreSQL database get the same columns, with the
same primary keys and NOT NULLs, and record the same steps by name."""

from __future__ import annotations

import sqlite3

from assistant.store import Store

# Written by hand from the steps' descriptions (assistant/store/schema.py, module docstring):
# table -> [(column, type, not null, part of the primary key)]
EXPECTED = {
    "games": [
        ("id", "text", False, True),
        ("players", "text", True, False),
        ("options", "text", True, False),
        ("deck", "text", False, False),
        ("created", "text", True, False),
        ("persons", "text", False, False),  # two_handed_persons
        ("game", "text", False, False),  # games_name_their_ruleset
        ("position", "text", False, False),  # games_resume_from_a_position
        ("edition", "integer", False, False),  # games_keep_their_rules_edition
    ],
    "events": [
        ("game_id", "text", False, True),
        ("seq", "integer", False, True),
        ("event", "text", True, False),
        ("token", "text", False, False),
        ("created", "text", True, False),
    ],
    "seats": [("game_id", "text", False, True), ("phone", "text", False, True), ("player", "text", False, False)],
    "rate_limits": [
        ("client", "text", False, True),
        ("action", "text", False, True),
        ("window", "integer", False, True),
        ("count", "integer", False, False),
    ],
    "saved_states": [
        ("game_id", "text", False, True),
        ("version", "text", False, True),
        ("seq", "integer", False, True),
        ("events", "integer", True, False),
        ("data", "blob", True, False),
        ("created", "text", True, False),
    ],
}
STEP_NAMES = [
    "games_and_events",
    "two_handed_persons",
    "games_name_their_ruleset",
    "seats",
    "games_resume_from_a_position",
    "rate_limits",
    "saved_states",
    "games_keep_their_rules_edition",
]


def _sqlite_columns(path: str) -> dict:
    conn = sqlite3.connect(path)
    out = {}
    for table in EXPECTED:
        rows = conn.execute(f"PRAGMA table_info({table})").fetchall()  # cid, name, type, notnull, default, pk
        out[table] = [(r[1], r[2].lower(), bool(r[3]), r[5] > 0) for r in rows]
    conn.close()
    return out


def _postgres_columns(url: str) -> dict:
    import psycopg

    kinds = {"text": "text", "integer": "integer", "bytea": "blob"}
    out = {}
    with psycopg.connect(url) as conn:
        for table in EXPECTED:
            key = {
                r[0]
                for r in conn.execute(
                    """SELECT a.attname FROM pg_index i
                       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
                       WHERE i.indrelid = %s::regclass AND i.indisprimary""",
                    [table],
                )
            }
            rows = conn.execute(
                """SELECT column_name, data_type, is_nullable FROM information_schema.columns
                   WHERE table_name = %s AND table_schema = current_schema() ORDER BY ordinal_position""",
                [table],
            ).fetchall()
            # a primary key's columns are NOT NULL by definition in PostgreSQL: compare the rest
            out[table] = [(n, kinds[t], nullable == "NO" and n not in key, n in key) for n, t, nullable in rows]
    return out


def test_a_new_database_has_every_steps_tables_and_columns(store_target):
    store = Store(store_target)
    try:
        applied = store.backend.applied()
    finally:
        store.close()
    if store_target.startswith("postgresql://"):
        columns = _postgres_columns(store_target)
    else:
        columns = _sqlite_columns(store_target)
    assert columns == EXPECTED
    assert applied == STEP_NAMES


def test_a_steps_column_is_text_and_may_be_null_unless_it_says_otherwise():
    # the steps are built with _c once, when the module is imported; its defaults, called here
    from assistant.store.schema import BLOB, INTEGER, Column, _c

    assert _c("deck") == Column("deck", "text", False)
    assert _c("seq", INTEGER) == Column("seq", "integer", False)
    assert _c("created", not_null=True) == Column("created", "text", True)
    assert _c("data", BLOB, True) == Column("data", "blob", True)
    assert _c("deck").not_null is False
