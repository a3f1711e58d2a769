"""The database's checks (assistant/store/dbcheck.py) on real files: what ``inspect`` finds in an
SQLite file (missing, unreadable, a folder, empty, damaged, another program's, garbage in a row, this
app's), serve's start check built on it and the instance folder's list of served files; PostgreSQL's
counterpart on a real database.  The damage is made by hand, so each problem's words are known:
SQLite's own for its integrity check, the module's for the rest."""

from __future__ import annotations

import os
import socket
import sqlite3
import struct
import time

import pytest

from assistant.store import dbcheck
from assistant.store.dbcheck import Report
from assistant.store.errors import DatabaseDamaged

PAGE = 4096  # SQLite's default page size


def _app_db(path, games=(), events=()) -> None:
    """A file with this app's two tables (only the columns the check reads) and the given rows."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE games (id, players, options)")
    conn.execute("CREATE TABLE events (game_id, seq, event)")
    conn.executemany("INSERT INTO games VALUES (?, ?, ?)", games)
    conn.executemany("INSERT INTO events VALUES (?, ?, ?)", events)
    conn.commit()
    conn.close()


def _index_out_of_step(path, rows: int) -> None:
    """A file whose index no longer matches its table: integrity_check says 'row N missing from index
    i' once for each of the ``rows`` rows (the index holds column a, its schema now says column b)."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (a, b)")
    conn.execute("CREATE INDEX i ON t (a)")
    conn.executemany("INSERT INTO t VALUES (?, ?)", [(k, -k) for k in range(1, rows + 1)])
    conn.commit()
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_master SET sql = 'CREATE INDEX i ON t (b)' WHERE name = 'i'")
    conn.commit()
    conn.close()


def _advice(path: str, name: str) -> str:
    return (
        "To restore a backup: stop the server, move the damaged file aside together with its "
        f"{name}-wal and {name}-shm if present (e.g. to {name}.damaged), copy the backup to {path}, and start the "
        "server again; see 'Backing up the database while the server runs' in README.md. "
        "To start an empty database instead, move the file away or name a new file with --db."
    )


# --- Report ---------------------------------------------------------------------------------------


def test_a_report_is_ok_without_problems_and_empty_only_for_an_existing_file_of_0_bytes():
    assert Report("a").ok and not Report("a", problems=["x"]).ok
    assert Report("a", exists=True, size=0).empty
    assert not Report("a", exists=False, size=0).empty  # no file yet: not an emptied one
    assert not Report("a", exists=True, size=1).empty
    assert not Report("a", exists=True, size=None).empty  # a PostgreSQL database is not a file


def test_the_summary_says_games_and_events_or_damage_or_no_file():
    assert Report("db").summary() == "db: no file yet (a new database will be created)"
    assert Report("db", exists=True, problems=["x"]).summary() == "db: DAMAGED"
    one = Report("db", exists=True, size=10, games=1, events=7, seconds=1.004)
    assert one.summary() == "db: 1 game, 7 events; integrity check passed (1.00 s)"
    none = Report("db", exists=True, size=10, games=0, events=0, seconds=0.126)
    assert none.summary() == "db: 0 games, 0 events; integrity check passed (0.13 s)"
    two = Report("db", exists=True, size=10, games=2, events=1, seconds=12.5)
    assert two.summary() == "db: 2 games, 1 events; integrity check passed (12.50 s)"


def test_the_restore_advice_names_the_file_and_its_wal_and_shm():
    path = os.path.join("srv", "rss", "games.sqlite3")
    assert dbcheck.restore_advice(path) == _advice(path, "games.sqlite3")


# --- inspect: an SQLite file ------------------------------------------------------------------------


def test_no_file_yet_is_reported_as_such_with_nothing_read(tmp_path):
    report = dbcheck.inspect(str(tmp_path / "new.sqlite3"))
    assert report == Report(str(tmp_path / "new.sqlite3"))
    assert not report.exists and report.ok and report.games is None and report.seconds == 0.0
    assert not (tmp_path / "new.sqlite3").exists()  # the check never creates the file


def test_a_path_through_a_file_cannot_be_read(tmp_path):
    (tmp_path / "plain").write_text("x")
    report = dbcheck.inspect(str(tmp_path / "plain" / "rss.sqlite3"))
    assert report.exists and report.problems == ["the file cannot be read (Not a directory)"]


def test_a_folder_is_not_a_database_file(tmp_path):
    report = dbcheck.inspect(str(tmp_path))
    assert report.exists and report.problems == ["it is a folder, not a database file"]
    assert report.games is None


def test_a_file_that_cannot_be_opened_cannot_be_read(tmp_path, monkeypatch):
    """A socket's file: it has a size, but opening it fails (as it would for anybody, root included)."""
    monkeypatch.chdir(tmp_path)
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind("rss.sqlite3")
        report = dbcheck.inspect("rss.sqlite3")
    assert report.exists and report.problems == ["the file cannot be read (No such device or address)"]
    assert report.games is None


def test_an_empty_file_holds_no_games_and_is_not_opened(tmp_path):
    db = tmp_path / "rss.sqlite3"
    db.touch()
    report = dbcheck.inspect(str(db))
    assert (report.exists, report.size, report.games, report.events, report.problems) == (True, 0, 0, 0, [])
    assert report.empty and report.ok


def test_an_empty_file_beside_its_write_ahead_log_leaves_the_log_as_it_is(tmp_path):
    """The log may hold the games the file lost: the check must not touch it (SQLite, opening a file
    of 0 bytes, deletes the -wal beside it, even read-only), and the start check refuses."""
    db = tmp_path / "rss.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("CREATE TABLE games (id, players, options)")
    conn.execute("INSERT INTO games VALUES ('g1', '[]', '{}')")
    conn.commit()
    wal = (tmp_path / "rss.sqlite3-wal").read_bytes()
    assert len(wal) > 0
    conn.close()  # (closing checkpoints and deletes the -wal: it is put back, as a crash would leave it)
    saved = wal
    os.truncate(db, 0)
    (tmp_path / "rss.sqlite3-wal").write_bytes(saved)
    (tmp_path / "rss.sqlite3-shm").unlink(missing_ok=True)
    report = dbcheck.inspect(str(db))
    assert (report.exists, report.size, report.games, report.events, report.problems) == (True, 0, 0, 0, [])
    assert (tmp_path / "rss.sqlite3-wal").read_bytes() == saved
    with pytest.raises(DatabaseDamaged, match=r"is empty \(0 bytes\), but games were expected there"):
        dbcheck.check_file_before_start(str(db), str(tmp_path / "instance"))
    assert (tmp_path / "rss.sqlite3-wal").read_bytes() == saved


def test_a_whole_file_of_this_app_is_counted_and_timed(tmp_path):
    db = tmp_path / "rss.sqlite3"
    games = [("g1", '["Amy", "Bo"]', "{}"), ("g2", "[]", '{"v": 2}')]
    events = [("g1", 1, '{"type": "a"}'), ("g1", 2, '{"type": "b"}'), ("g2", 1, "[]")]
    _app_db(db, games, events)
    before = time.monotonic()
    report = dbcheck.inspect(str(db))
    took = time.monotonic() - before
    assert (report.exists, report.games, report.events, report.problems) == (True, 2, 3, [])
    assert report.size == os.path.getsize(db) and report.size > 0
    assert 0 < report.seconds <= took
    assert sorted(os.listdir(tmp_path)) == ["rss.sqlite3"]  # read only: nothing made beside it


def test_a_file_of_another_program_is_refused_naming_its_first_five_tables(tmp_path):
    db = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(db)
    for name in ("notes", "games", "zebra", "alpha", "cards", "moves"):
        conn.execute(f"CREATE TABLE {name} (x)")
    conn.commit()
    conn.close()
    report = dbcheck.inspect(str(db))
    assert report.problems == [
        "it is an SQLite file, but not this app's database (no games and events tables; it has: "
        "alpha, cards, games, moves, notes)"
    ]
    assert report.games is None


def test_an_sqlite_file_without_tables_is_a_new_database(tmp_path):
    db = tmp_path / "rss.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 3")  # written to the file's header: a file of one page
    conn.close()
    report = dbcheck.inspect(str(db))
    assert report.size == PAGE
    assert (report.games, report.events, report.problems) == (0, 0, [])


def test_a_file_that_is_not_an_sqlite_file_cannot_be_read_by_sqlite(tmp_path):
    db = tmp_path / "rss.sqlite3"
    db.write_bytes(b"these are not the games you are looking for\n" * 200)
    report = dbcheck.inspect(str(db))
    assert report.problems == ["SQLite cannot read it: file is not a database"]
    assert report.games is None and report.seconds > 0


def test_a_file_sqlite_cannot_open_is_reported_so(tmp_path):
    """A path longer than SQLite takes (512 bytes): the file reads, but SQLite cannot open it."""
    folder = tmp_path / ("d" * 200) / ("e" * 200) / ("f" * 150)
    folder.mkdir(parents=True)
    _app_db(tmp_path / "short.sqlite3", [("g1", "[]", "{}")])
    db = folder / "rss.sqlite3"
    db.write_bytes((tmp_path / "short.sqlite3").read_bytes())
    report = dbcheck.inspect(str(db))
    assert report.problems == ["SQLite cannot read it: unable to open database file"]
    assert report.games is None


def test_the_integrity_checks_words_are_the_problems_one_a_line_without_its_headings(tmp_path):
    """Three pages past the last used one, counted in the header: SQLite says so in one row of three
    lines under a '*** in database main ***' heading."""
    db = tmp_path / "rss.sqlite3"
    _app_db(db, [("g1", "[]", "{}")])
    pages = os.path.getsize(db) // PAGE
    with open(db, "r+b") as fh:
        fh.seek(0, os.SEEK_END)
        fh.write(bytes(3 * PAGE))
        fh.seek(28)  # the header's page count
        fh.write(struct.pack(">I", pages + 3))
    report = dbcheck.inspect(str(db))
    assert report.problems == [f"Page {pages + k} is never used" for k in (1, 2, 3)]
    assert report.games is None and report.seconds > 0


@pytest.mark.parametrize("rows", [2, 10])
def test_up_to_ten_lines_of_the_integrity_check_are_all_shown(tmp_path, rows):
    db = tmp_path / "rss.sqlite3"
    _index_out_of_step(db, rows)
    assert dbcheck.inspect(str(db)).problems == [f"row {k} missing from index i" for k in range(1, rows + 1)]


def test_past_ten_lines_of_the_integrity_check_the_rest_are_counted(tmp_path):
    db = tmp_path / "rss.sqlite3"
    _index_out_of_step(db, 13)
    problems = dbcheck.inspect(str(db)).problems
    assert problems == [f"row {k} missing from index i" for k in range(1, 11)] + ["... and 3 more"]


def test_garbage_inside_a_row_is_found_in_a_game_and_in_an_event(tmp_path):
    db = tmp_path / "rss.sqlite3"
    games = [
        ("good", "[]", "{}"),
        ("bad-players", b"\xff[]", "{}"),  # not UTF-8
        ("bad-options", "[]", "{not json"),
        (b"\xffid", "[]", None),  # no options at all, and an id that is not UTF-8 either
        (7, "[]", "{"),
    ]
    events = [("good", 1, '{"type": "a"}'), ("good", 2, "{oops"), ("good", 3, b"\xfe")]
    _app_db(db, games, events)
    report = dbcheck.inspect(str(db))
    garbage = "its stored data is not readable (garbage inside the row)"
    assert report.problems == [
        f"game bad-players: {garbage}",
        f"game bad-options: {garbage}",
        f"game \ufffdid: {garbage}",
        f"game 7: {garbage}",
        f"event good #2: {garbage}",
        f"event good #3: {garbage}",
    ]
    assert (report.games, report.events) == (5, 3)


@pytest.mark.parametrize("bad, shown", [(10, 10), (12, 10)])
def test_the_search_for_garbage_stops_at_ten_rows(tmp_path, bad, shown):
    db = tmp_path / "rss.sqlite3"
    _app_db(db, [("g", "[]", "{}")], [("g", seq, "{" if seq <= bad else "{}") for seq in range(1, 16)])
    garbage = "its stored data is not readable (garbage inside the row)"
    expected = [f"event g #{seq}: {garbage}" for seq in range(1, shown + 1)] + ["... (stopped looking)"]
    assert dbcheck.inspect(str(db)).problems == expected


def test_nine_rows_of_garbage_are_all_shown(tmp_path):
    db = tmp_path / "rss.sqlite3"
    _app_db(db, [("g", "[]", "{}")], [("g", seq, "{" if seq <= 9 else "{}") for seq in range(1, 16)])
    garbage = "its stored data is not readable (garbage inside the row)"
    assert dbcheck.inspect(str(db)).problems == [f"event g #{seq}: {garbage}" for seq in range(1, 10)]


# --- games expected, the instance folder's list of served files ----------------------------------------


def test_games_are_expected_in_a_named_file_beside_a_log_or_in_a_used_instance_folder(tmp_path):
    db = str(tmp_path / "rss.sqlite3")
    instance = tmp_path / "instance"
    instance.mkdir()
    assert dbcheck.games_expected(db, None, named=True)
    assert not dbcheck.games_expected(db, None, named=False)
    assert not dbcheck.games_expected(db, "", named=False)
    assert not dbcheck.games_expected(db, str(instance), named=False)
    (tmp_path / "rss.sqlite3-wal").write_bytes(b"")  # an empty log: nothing was lost in it
    assert not dbcheck.games_expected(db, str(instance), named=False)
    (tmp_path / "rss.sqlite3-wal").write_bytes(b"x")
    assert dbcheck.games_expected(db, None, named=False)
    (tmp_path / "rss.sqlite3-wal").unlink()
    (instance / "secret_key").write_text("k" * 64)
    assert dbcheck.games_expected(db, str(instance), named=False)


def test_remember_lists_each_file_served_once_by_its_whole_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    instance = tmp_path / "instance" / "new"  # not made yet: remember makes it
    dbcheck.remember("rss.sqlite3", str(instance))
    dbcheck.remember(str(tmp_path / "rss.sqlite3"), str(instance))  # the same file, named otherwise
    dbcheck.remember("other.sqlite3", str(instance))
    listed = (instance / "databases.txt").read_text(encoding="utf-8")
    assert listed == f"{tmp_path / 'rss.sqlite3'}\n{tmp_path / 'other.sqlite3'}\n"


def test_remember_reads_the_list_with_its_blank_lines_and_spaces_and_writes_nothing_without_a_folder(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "databases.txt").write_text(f"\n  {tmp_path / 'rss.sqlite3'}  \n\n", encoding="utf-8")
    dbcheck.remember("rss.sqlite3", str(instance))
    assert (instance / "databases.txt").read_text(encoding="utf-8") == f"\n  {tmp_path / 'rss.sqlite3'}  \n\n"
    dbcheck.remember("rss.sqlite3", None)
    dbcheck.remember("rss.sqlite3", "")
    assert sorted(os.listdir(tmp_path)) == ["instance"]


# --- the start check of an SQLite file ----------------------------------------------------------------


def test_a_new_path_starts_even_when_named(tmp_path):
    db = str(tmp_path / "rss.sqlite3")
    for named in (False, True):
        report = dbcheck.check_file_before_start(db, str(tmp_path), named=named)
        assert not report.exists and report.ok


def test_a_file_served_before_and_gone_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    instance = tmp_path / "instance"
    dbcheck.remember(str(tmp_path / "rss.sqlite3"), str(instance))
    assert dbcheck.check_file_before_start("other.sqlite3", str(instance)).exists is False
    with pytest.raises(DatabaseDamaged) as caught:
        dbcheck.check_file_before_start("rss.sqlite3", str(instance))
    assert caught.value.message == (
        f"The database file rss.sqlite3 is gone, but this server has served it before "
        f"({instance / 'databases.txt'} says so). The server does not start a new, empty table in its place. "
        + _advice("rss.sqlite3", "rss.sqlite3")
        + " To start afresh on purpose, remove the file's line from databases.txt."
    )


def test_without_an_instance_folder_no_file_is_known(tmp_path, monkeypatch):
    """The list is the instance folder's: without one, a databases.txt in the working folder is no list."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "databases.txt").write_text(f"{tmp_path / 'rss.sqlite3'}\n", encoding="utf-8")
    assert not dbcheck.check_file_before_start("rss.sqlite3", None).exists


def _refusal(path, problems: str) -> str:
    return (
        f"The database file {path} is damaged or unreadable: {problems}. "
        "The server does not start on it, so that nothing is written over the games it may still hold. "
        f"Run `python -m assistant check-db --db {path}` for the details. " + _advice(str(path), "rss.sqlite3")
    )


@pytest.mark.parametrize(
    "rows, detail",
    [
        (1, "row 1 missing from index i"),
        (2, "row 1 missing from index i; row 2 missing from index i"),
        (3, "row 1 missing from index i; row 2 missing from index i (and more)"),
    ],
)
def test_a_damaged_file_is_refused_with_its_first_two_problems(tmp_path, rows, detail):
    db = tmp_path / "rss.sqlite3"
    _index_out_of_step(db, rows)
    with pytest.raises(DatabaseDamaged) as caught:
        dbcheck.check_file_before_start(str(db), str(tmp_path))
    assert caught.value.message == _refusal(db, detail)


def test_an_empty_file_is_refused_where_games_were_expected_saying_why(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir()
    db = instance / "rss.sqlite3"
    db.touch()
    assert dbcheck.check_file_before_start(str(db), str(instance)).empty
    tail = "The server does not start a blank table over it. " + _advice(str(db), "rss.sqlite3")
    with pytest.raises(DatabaseDamaged) as caught:
        dbcheck.check_file_before_start(str(db), str(instance), named=True)
    assert caught.value.message == (
        f"The database file {db} is empty (0 bytes), but games were expected there "
        f"(it was named with --db or $RSS_DB). " + tail
    )
    (instance / "secret_key").write_text("k" * 64)
    with pytest.raises(DatabaseDamaged) as caught:
        dbcheck.check_file_before_start(str(db), str(instance))
    assert caught.value.message == (
        f"The database file {db} is empty (0 bytes), but games were expected there "
        f"(this instance folder has been used before). " + tail
    )


def test_a_whole_file_starts_whatever_was_expected(tmp_path):
    db = tmp_path / "rss.sqlite3"
    _app_db(db, [("g1", "[]", "{}")], [("g1", 1, "{}")])
    (tmp_path / "secret_key").write_text("k" * 64)
    report = dbcheck.check_file_before_start(str(db), str(tmp_path), named=True)
    assert (report.games, report.events, report.problems) == (1, 1, [])


# --- PostgreSQL -------------------------------------------------------------------------------------


def _pg_tables(url, games=(), events=()) -> None:
    import psycopg

    with psycopg.connect(url) as conn:
        conn.execute("CREATE TABLE games (id text)")
        conn.execute("CREATE TABLE events (game_id text, seq int, event text)")
        for gid in games:
            conn.execute("INSERT INTO games VALUES (%s)", (gid,))
        for row in events:
            conn.execute("INSERT INTO events VALUES (%s, %s, %s)", row)


def _with_password(url: str) -> tuple[str, str]:
    """The URL with a password added (the test cluster trusts local connections: any password does),
    and the same as the report names it."""
    scheme, rest = url.split("://", 1)
    user, at = rest.split("@", 1)
    return f"{scheme}://{user}:s3cret@{at}", f"{scheme}://{user}:***@{at}"


def test_a_new_postgresql_database_has_no_games_and_its_password_is_not_shown(pg_url):
    url, shown = _with_password(pg_url)
    report = dbcheck.inspect_postgres(url)
    assert report.path == shown and "s3cret" not in report.path
    assert (report.exists, report.size, report.games, report.events, report.problems) == (True, None, 0, 0, [])
    assert not report.empty and report.seconds > 0


def test_a_postgresql_database_is_counted_and_its_unreadable_events_named(pg_url):
    games = ["g1", "g2", "g3"]
    events = [("g1", 1, '{"type": "a"}'), ("g1", 2, "{oops"), ("g2", 1, "[]"), ("g2", 2, "")]
    _pg_tables(pg_url, games, events)
    before = time.monotonic()
    report = dbcheck.inspect_postgres(pg_url)
    took = time.monotonic() - before
    assert (report.games, report.events) == (3, 4)
    assert sorted(report.problems) == ["event 2 of game g1 is not readable", "event 2 of game g2 is not readable"]
    assert 0 < report.seconds <= took


def test_postgresql_shows_ten_unreadable_events_and_counts_them_all(pg_url):
    _pg_tables(pg_url, ["g"], [("g", seq, "{") for seq in range(1, 13)])
    report = dbcheck.inspect_postgres(pg_url)
    assert report.events == 12 and len(report.problems) == 10
    assert set(report.problems) <= {f"event {seq} of game g is not readable" for seq in range(1, 13)}


def test_a_postgresql_database_with_only_one_of_the_tables_is_new(pg_url):
    import psycopg

    with psycopg.connect(pg_url) as conn:
        conn.execute("CREATE TABLE games (id text)")
        conn.execute("INSERT INTO games VALUES ('g1')")
    report = dbcheck.inspect_postgres(pg_url)
    assert (report.games, report.events, report.problems) == (0, 0, [])


def test_postgresql_that_does_not_answer_cannot_be_used(pg_url):
    report = dbcheck.inspect_postgres("postgresql://amy:pw@127.0.0.1:1/none")
    assert report.path == "postgresql://amy:***@127.0.0.1:1/none"
    assert len(report.problems) == 1 and report.problems[0].startswith("PostgreSQL cannot be used: ")
    assert "127.0.0.1" in report.problems[0] and "OperationalError" not in report.problems[0]
    with pytest.raises(DatabaseDamaged) as caught:
        dbcheck.check_postgres_before_start("postgresql://amy:pw@127.0.0.1:1/none")
    assert caught.value.message.startswith(
        "The database postgresql://amy:***@127.0.0.1:1/none cannot be used: PostgreSQL cannot be used: "
    )
    assert caught.value.message.endswith(
        ". The server does not start on it. Check that PostgreSQL is running and the URL is right "
        "(README: 'Beyond one machine: PostgreSQL')."
    )


def test_the_postgresql_start_check_names_the_first_two_problems(pg_url):
    _pg_tables(pg_url, ["g"], [("g", 1, "{}"), ("g", 2, "{"), ("g", 3, "{"), ("g", 4, "{")])
    with pytest.raises(DatabaseDamaged) as caught:
        dbcheck.check_postgres_before_start(pg_url)
    message = caught.value.message
    first_two = message.split(" cannot be used: ", 1)[1].split(". The server", 1)[0].split("; ")
    assert len(first_two) == 2 and set(first_two) <= {f"event {seq} of game g is not readable" for seq in (2, 3, 4)}


def test_a_whole_postgresql_database_starts(pg_url):
    _pg_tables(pg_url, ["g"], [("g", 1, "{}")])
    report = dbcheck.check_postgres_before_start(pg_url)
    assert (report.games, report.events, report.problems) == (1, 1, [])
