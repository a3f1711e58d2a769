"""The SQLite store's backend (assistant/store/sqlite.py) on real files: the file served and what
becomes of it (deleted, replaced, emptied), its connection's settings, the schema's steps, SQLite's
errors in the store's words, and each table's reads and writes with figures worked out by hand."""

from __future__ import annotations

import os
import sqlite3

import pytest

from assistant.store import schema
from assistant.store.errors import ADVICE, DatabaseDamaged, DatabaseUnavailable
from assistant.store.sqlite import (
    DatabaseVanished,
    SQLiteBackend,
    _immediate,
    _operate,
    file_ident,
    sqlite_utils,
)


@pytest.fixture
def path(tmp_path) -> str:
    return str(tmp_path / "rss.sqlite3")


@pytest.fixture
def backend(path, monkeypatch):
    monkeypatch.delenv("RSS_DB", raising=False)
    backend = SQLiteBackend(path)
    backend.migrate()
    yield backend
    backend.close()


def _game(backend, gid="g1", created="2026-01-01T00:00:00+00:00") -> None:
    backend.insert_game({"id": gid, "players": '["Amy", "Bo"]', "options": "[]", "created": created, "game": "x"})


def _vanished(path, what) -> str:
    return (
        f"The database file {path} was {what} while the server ran: nothing more is saved, so that no "
        "entry is acknowledged and then lost. Restore the file (a backup) and restart the server "
        '(README: "A damaged database file").'
    )


# -- the file served -------------------------------------------------------------------------------------


def test_a_files_identity_is_its_device_and_inode(tmp_path):
    assert file_ident(str(tmp_path / "none")) is None
    (tmp_path / "f").write_text("x")
    st = os.stat(tmp_path / "f")
    assert file_ident(str(tmp_path / "f")) == f"{st.st_dev}:{st.st_ino}"
    assert SQLiteBackend.start_ident(str(tmp_path / "f")) == f"{st.st_dev}:{st.st_ino}"


def test_the_file_is_named_by_its_whole_path_and_its_folder_made_first(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert SQLiteBackend.where("rss.sqlite3") == str(tmp_path / "rss.sqlite3")
    SQLiteBackend.prepare("a/b/rss.sqlite3")
    assert (tmp_path / "a" / "b").is_dir() and not (tmp_path / "a" / "b" / "rss.sqlite3").exists()
    SQLiteBackend.prepare("a/b/rss.sqlite3")  # (made already: nothing to do)
    assert SQLiteBackend.on_disk is True and SQLiteBackend.kind == "sqlite"


def test_the_checks_of_the_file_are_dbchecks(tmp_path):
    db = str(tmp_path / "rss.sqlite3")
    assert SQLiteBackend.inspect(db).exists is False
    assert SQLiteBackend.check_before_start(db, str(tmp_path), True).exists is False
    SQLiteBackend.remember(db, str(tmp_path / "instance"))
    assert (tmp_path / "instance" / "databases.txt").read_text() == db + "\n"
    assert SQLiteBackend.restore_advice(db).startswith("To restore a backup: stop the server")


def test_a_store_on_a_new_file_takes_the_file_its_first_connection_made(path, monkeypatch):
    monkeypatch.delenv("RSS_DB", raising=False)
    backend = SQLiteBackend(path)
    assert backend.ident is None and not os.path.exists(path)
    backend.migrate()
    assert backend.ident == file_ident(path) is not None
    backend.close()


def test_a_deleted_file_is_said_and_nothing_more_is_read(backend, path):
    _game(backend)
    os.remove(path)
    with pytest.raises(DatabaseVanished) as err:
        backend.game_row("g1")
    assert err.value.message == _vanished(path, "deleted")
    assert isinstance(err.value, DatabaseDamaged)
    assert not os.path.exists(path)  # no new, empty file made in its place


def test_a_replaced_file_is_said(backend, path, tmp_path):
    _game(backend)
    other = sqlite3.connect(tmp_path / "other.sqlite3")
    other.execute("CREATE TABLE x (y)")
    other.close()
    os.replace(tmp_path / "other.sqlite3", path)
    with pytest.raises(DatabaseVanished) as err:
        backend.game_row("g1")
    assert err.value.message == _vanished(path, "replaced by another file")


def test_a_worker_takes_the_servers_file_from_the_environment(path, monkeypatch):
    """The server started on a file: a worker that finds another file there (replaced between) refuses."""
    SQLiteBackend(path).migrate()
    monkeypatch.setenv("RSS_DB", os.path.abspath(path))
    monkeypatch.setenv("RSS_DB_IDENT", "1:2")  # not this file
    worker = SQLiteBackend(path)
    assert worker.ident == "1:2"
    with pytest.raises(DatabaseVanished, match="replaced by another file"):
        worker.game_ids()
    monkeypatch.setenv("RSS_DB", os.path.abspath(path) + ".other")  # the server's file is another
    assert SQLiteBackend(path).ident == file_ident(path)


def test_a_new_connection_on_a_store_that_had_a_file_checks_it_first(path, monkeypatch):
    """A store that knows its file but has no connection (another thread): the file gone, no
    connection is made (it would make a new, empty file)."""
    monkeypatch.delenv("RSS_DB", raising=False)
    SQLiteBackend(path).migrate()
    backend = SQLiteBackend(path)  # its file known, no connection yet
    os.remove(path)
    with pytest.raises(DatabaseVanished):
        backend.game_ids()
    assert not os.path.exists(path)


def test_each_connection_waits_for_locks_keeps_foreign_keys_and_writes_through(backend):
    conn = backend._db().conn
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 30000
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.isolation_level is None  # autocommit: transactions are _immediate's
    assert backend._db() is backend._db()  # one connection per thread


def test_closing_closes_the_connection_and_a_new_one_is_made_after(backend):
    conn = backend._db().conn
    backend.close()
    with pytest.raises(sqlite3.ProgrammingError):
        conn.execute("SELECT 1")
    backend.close()  # twice: nothing to close
    assert backend.game_ids() == []


# -- SQLite's errors in the store's words ------------------------------------------------------------------


def _damaged(detail: str) -> str:
    return f"The database is damaged ({detail}): the games cannot be read or saved until it is restored. " + ADVICE


def test_a_busy_database_is_unavailable_and_damage_is_damage(backend):
    busy = backend.translate(sqlite3.OperationalError("database is locked"))
    assert isinstance(busy, DatabaseUnavailable)
    assert busy.message == "The database cannot be used right now (database is locked). Try again in a moment."
    for err in (
        sqlite3.DatabaseError("database disk image is malformed"),  # not an OperationalError
        sqlite3.OperationalError("no such table: events"),  # emptied or replaced under the server
        sqlite3.OperationalError("Could not decode to UTF-8 column 'event' with text 'x'"),  # garbage in a row
    ):
        damaged = backend.translate(err)
        assert isinstance(damaged, DatabaseDamaged) and damaged.message == _damaged(str(err)), err
    named = sqlite3.OperationalError("disk I/O error")
    for name, kind in (
        ("SQLITE_CORRUPT", DatabaseDamaged),
        ("SQLITE_NOTADB", DatabaseDamaged),
        ("SQLITE_IOERR", DatabaseUnavailable),
    ):
        named.sqlite_errorname = name
        assert type(backend.translate(named)) is kind, name


def test_on_an_emptied_file_every_error_is_damage(backend, path):
    _game(backend)
    os.truncate(path, 0)
    damaged = backend.translate(sqlite3.OperationalError("database is locked"))
    assert isinstance(damaged, DatabaseDamaged) and damaged.message == _damaged("the file is empty (0 bytes)")


def test_an_error_of_the_database_inside_a_method_is_translated(backend, path):
    _game(backend)
    backend._db().conn.execute("DROP TABLE seats")
    with pytest.raises(DatabaseDamaged, match=r"no such table: seats"):
        backend.seats_taken("g1")


# -- the schema's steps ---------------------------------------------------------------------------------------


def test_the_steps_are_applied_once_each_under_their_names(backend, path):
    assert backend.applied() == list(schema.MIGRATION_NAMES)
    backend.migrate()  # nothing pending: nothing done
    assert backend.applied() == list(schema.MIGRATION_NAMES)
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM _sqlite_migrations WHERE migration_set = 'rss-store'").fetchone()[0] == 8
    conn.close()


def test_a_database_of_the_first_version_is_brought_up_to_date_with_its_games(path, monkeypatch):
    """The first version's two backend, without any record of steps: the later steps' columns are added,
    its games said to be Rolling Stock Stars games of the first edition, and its rows kept."""
    monkeypatch.delenv("RSS_DB", raising=False)
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE games (id TEXT PRIMARY KEY, players TEXT NOT NULL, options TEXT NOT NULL, deck TEXT, created TEXT NOT NULL)"
    )
    conn.execute(
        "CREATE TABLE events (game_id TEXT, seq INTEGER, event TEXT NOT NULL, token TEXT, created TEXT NOT NULL, PRIMARY KEY (game_id, seq))"
    )
    conn.execute("INSERT INTO games VALUES ('old', '[\"A\", \"B\"]', '[]', NULL, 'then')")
    conn.execute("INSERT INTO events VALUES ('old', 1, '{}', 'tok', 'then')")
    conn.commit()
    conn.close()
    backend = SQLiteBackend(path)
    backend.migrate()
    row = backend.game_row("old")
    assert (row["game"], row["edition"], row["persons"], row["position"]) == ("rolling-stock-stars", 1, None, None)
    assert backend.rows("old") == [(1, "{}", "tok", "then")]
    backend.close()


def test_the_indexes_of_the_steps_are_made_as_written(backend, path):
    conn = sqlite3.connect(path)
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'events_token'").fetchone()[0]
    conn.close()
    assert sql == "CREATE UNIQUE INDEX events_token ON events (game_id, token) WHERE token IS NOT NULL"


def test_each_operation_is_done_only_where_it_is_not_there_yet(tmp_path):
    db = sqlite_utils.Database(str(tmp_path / "ops.sqlite3"))
    make = schema.CreateTable(
        "t",
        (schema.Column("a", schema.TEXT), schema.Column("b", schema.INTEGER, True), schema.Column("c", schema.BLOB)),
        key=("a",),
    )
    _operate(db, make)
    _operate(db, make)  # there: nothing done
    assert {c.name: (c.type, c.notnull, c.is_pk) for c in db["t"].columns} == {
        "a": ("TEXT", 0, 1),
        "b": ("INTEGER", 1, 0),
        "c": ("BLOB", 0, 0),
    }
    _operate(db, schema.AddColumn("t", schema.Column("d", schema.INTEGER)))
    _operate(db, schema.AddColumn("t", schema.Column("d", schema.INTEGER)))
    assert db["t"].columns_dict["d"] is int
    _operate(db, schema.CreateIndex("t_b", "t", ("b", "c")))
    _operate(db, schema.CreateIndex("t_b", "t", ("b", "c")))
    assert (
        db.execute("SELECT sql FROM sqlite_master WHERE name = 't_b'").fetchone()[0] == "CREATE INDEX t_b ON t (b, c)"
    )
    db["t"].insert_all([{"a": "x", "b": 1, "d": None}, {"a": "y", "b": 2, "d": 5}])
    _operate(db, schema.Fill("t", "d", 7))
    assert [r["d"] for r in db.query("SELECT d FROM t ORDER BY a")] == [7, 5]
    with pytest.raises(TypeError, match="no SQLite for the schema operation 'drop everything'"):
        _operate(db, "drop everything")


def test_a_table_of_two_key_columns_and_a_reference_is_made_so(tmp_path):
    db = sqlite_utils.Database(str(tmp_path / "ops.sqlite3"))
    _operate(db, schema.STEPS[0].operations[0])
    _operate(db, schema.STEPS[0].operations[1])
    assert [c.name for c in db["events"].columns if c.is_pk] == ["game_id", "seq"]
    assert [(fk.column, fk.other_table, fk.other_column) for fk in db["events"].foreign_keys] == [
        ("game_id", "games", "id")
    ]


# -- the backend --------------------------------------------------------------------------------------------


def test_a_failed_transaction_writes_nothing(backend):
    _game(backend)
    conn = backend._db().conn
    with pytest.raises(ValueError), _immediate(conn):
        conn.execute("INSERT INTO seats (game_id, phone, player) VALUES ('g1', 'p', 'Amy')")
        raise ValueError("stop")
    assert backend.seats_taken("g1") == set()
    with _immediate(conn) as same:
        assert same is conn
        conn.execute("INSERT INTO seats (game_id, phone, player) VALUES ('g1', 'p', 'Amy')")
    assert backend.seats_taken("g1") == {"Amy"}


def test_counts_are_per_client_action_and_window_and_only_the_last_two_windows_kept(backend, path):
    assert [backend.count_action("c", "new_game", 10) for _ in range(2)] == [1, 2]
    assert backend.count_action("c", "import", 10) == 1
    assert backend.count_action("c", "new_game", 11) == 1
    conn = sqlite3.connect(path)
    windows = sorted(r[0] for r in conn.execute("SELECT DISTINCT window FROM rate_limits"))
    assert windows == [10, 11]  # window 10 is the one before 11: kept
    conn.close()
    assert backend.count_action("c", "new_game", 12) == 1
    conn = sqlite3.connect(path)
    assert sorted(r[0] for r in conn.execute("SELECT DISTINCT window FROM rate_limits")) == [11, 12]
    conn.close()


def test_the_size_is_the_file_and_its_log_and_the_bytes_used_its_pages_in_use(backend, path):
    _game(backend)
    assert backend.size() == os.path.getsize(path) + os.path.getsize(path + "-wal")
    conn = sqlite3.connect(path)
    pages, free, size = (
        conn.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count", "freelist_count", "page_size")
    )
    conn.close()
    assert backend.used() == (pages - free) * size
    backend._db().conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert backend.size() == os.path.getsize(path)  # an empty log: the file alone


def test_what_a_game_holds_is_its_events_and_saved_states_bytes(backend):
    _game(backend)
    _game(backend, "g2")
    assert backend.game_bytes("g1") == 0
    backend.append("g1", 0, '{"é": 1}', None, "t")  # 8 characters, 9 bytes (é is two)
    backend.append("g2", 0, "{}", None, "t")
    backend.save_states("g1", "v1", [(1, 1, b"abcd")], "t")
    assert backend.game_bytes("g1") == 9 + 4


def test_games_are_listed_by_when_then_id_and_counted(backend):
    _game(backend, "b", "2026-01-02")
    _game(backend, "c", "2026-01-01")
    _game(backend, "a", "2026-01-02")
    assert backend.game_ids() == ["c", "a", "b"]
    backend.append("a", 0, "{}", None, "t")
    backend.append("a", 1, "{}", None, "t")
    assert backend.counts() == (3, 2)
    assert backend.game_row("none") is None and backend.game_row("c")["created"] == "2026-01-01"


def test_a_game_is_inserted_with_its_first_events_in_one_go(backend):
    events = [{"game_id": "g1", "seq": s, "event": "{}", "token": None, "created": "t"} for s in (1, 2)]
    backend.insert_game(
        {"id": "g1", "players": "[]", "options": "[]", "created": "t", "game": "x"},
        events,
    )
    assert backend.seq("g1") == 2
    with pytest.raises(DatabaseDamaged):  # the same game again: refused whole (no second row)
        backend.insert_game({"id": "g1", "players": "[]", "options": "[]", "created": "t"}, events)
    assert backend.counts() == (1, 2)


def test_a_seat_change_is_a_new_row_at_the_end_and_leaving_frees_the_seat(backend, path):
    _game(backend)
    backend.take_seat("g1", "phone-1", "Amy")
    backend.take_seat("g1", "phone-2", "Bo")
    backend.take_seat("g1", "phone-1", "")  # phone 1 leaves
    assert backend.seats_taken("g1") == {"Bo"}
    backend.take_seat("g1", "phone-2", "Amy")
    assert backend.seats_taken("g1") == {"Amy"} and backend.seats_taken("g2") == set()
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT rowid, phone, player FROM seats ORDER BY rowid").fetchall()
    conn.close()
    assert rows == [(3, "phone-1", None), (4, "phone-2", "Amy")]


def test_appending_writes_the_next_row_once_per_seq_and_once_per_token(backend):
    _game(backend)
    assert backend.append("g1", 0, "{}", "tok", "t") == ("written", 1)
    assert backend.append("g1", 0, "{}", None, "t") == ("stale", 1)
    assert backend.append("g1", 5, "{}", "other", "t") == ("stale", 1)
    assert backend.append("g1", 1, "{}", "tok", "t") == ("token", 1)  # the token's row, whatever the seq
    assert backend.append("g1", 1, "{}", None, "t") == ("written", 2)
    assert backend.append("g1", 0, "{}", "tok", "t") == ("token", 1)  # a retry after another row
    assert backend.seq("g1") == 2 and backend.seq("none") == 0
    assert backend.token_seq("g1", "tok") == 1 and backend.token_seq("g1", "nope") is None


def test_on_a_file_not_made_yet_a_busy_error_stays_a_busy_error(tmp_path):
    backend = SQLiteBackend(str(tmp_path / "new.sqlite3"))
    assert isinstance(backend.translate(sqlite3.OperationalError("database is locked")), DatabaseUnavailable)
    backend.close()  # no connection made yet: nothing to close


def test_the_change_feed_watches_the_file_served(backend, path):
    feed = backend.change_feed(0.5)
    assert (feed.path, feed.served, feed.ident) == (path, file_ident(path), file_ident)


def test_a_step_that_fails_leaves_the_database_as_it_was(path, monkeypatch):
    """The first version's backend, with a trigger that refuses any change to a game: the step that
    fills in the games' ruleset fails, and the steps before it in the same go (a column added) are
    not kept, nor recorded."""
    monkeypatch.delenv("RSS_DB", raising=False)
    first = ("id", "players", "options", "deck", "created")
    conn = sqlite3.connect(path)
    conn.execute(f"CREATE TABLE games ({', '.join(first)})")
    conn.execute("CREATE TABLE events (game_id, seq, event, token, created)")
    conn.execute("INSERT INTO games VALUES ('old', '[]', '[]', NULL, 'then')")
    conn.execute("CREATE TRIGGER frozen BEFORE UPDATE ON games BEGIN SELECT RAISE(ABORT, 'games are frozen'); END")
    conn.commit()
    conn.close()
    backend = SQLiteBackend(path)
    with pytest.raises(DatabaseDamaged, match="games are frozen"):
        backend.migrate()
    assert not backend._db().conn.in_transaction
    backend.close()
    conn = sqlite3.connect(path)
    assert tuple(r[1] for r in conn.execute("PRAGMA table_info(games)")) == first  # no persons column
    assert {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} == {"games", "events"}
    conn.close()


def test_the_bytes_used_leave_out_the_free_pages(backend, path):
    _game(backend)
    backend.save_states("g1", "v1", [(1, 1, bytes(100_000))], "t")  # 25 pages of 4 KB or so
    backend.save_states("g1", "v2", [], "t")  # v1's go: their pages are free
    conn = backend._db().conn
    free = conn.execute("PRAGMA freelist_count").fetchone()[0]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    assert free >= 24
    assert backend.used() == (pages - free) * 4096


def test_sqlite_utils_is_imported_without_numpy_and_numpy_stays_importable():
    """(tests/store/test_lean_imports.py sees it in a server process; here the import is done again.)"""
    import sys

    from assistant.store.sqlite import _without_array_libraries

    if sys.modules.get("numpy") is not None or sys.modules.get("pandas") is not None:
        pytest.skip("numpy or pandas is loaded in this process already")
    import importlib.util

    if importlib.util.find_spec("numpy") is None:  # (found, not loaded)
        pytest.skip("numpy is not installed here: nothing to keep out")
    saved = {name: module for name, module in sys.modules.items() if name.partition(".")[0] == "sqlite_utils"}
    for name in saved:
        del sys.modules[name]
    try:
        fresh = _without_array_libraries()
        assert fresh is sys.modules["sqlite_utils"] and fresh is not saved["sqlite_utils"]
        assert sys.modules["sqlite_utils.db"].np is None and sys.modules["sqlite_utils.db"].pd is None
        assert "numpy" not in sys.modules and "pandas" not in sys.modules  # importable again
    finally:
        for name in [n for n in sys.modules if n.partition(".")[0] == "sqlite_utils"]:
            del sys.modules[name]
        sys.modules.update(saved)
