"""Is the database whole?  The check behind ``serve`` (before it starts) and ``check-db``: an SQLite
file's checks here, and PostgreSQL's (``inspect_postgres``); each backend names its own (``backends.backend``).

The server refuses to start whenever it would have to guess what happened to the games:

* the file cannot be read (permissions, a folder, not an SQLite file);
* SQLite's ``PRAGMA integrity_check`` finds damage (garbage written into the file, a truncated file),
  or a stored row does not read back as UTF-8 JSON (garbage inside a row, which SQLite cannot see);
* it is an SQLite file of something else (tables, but not this app's ``games`` and ``events``);
* it is empty (0 bytes) where games were expected: the file was named explicitly (``--db`` or
  ``$RSS_DB``), or it sits in an instance folder that has been used (its ``secret_key`` exists), or
  its write-ahead log is still next to it.  A path where no file exists yet, or an empty file in
  a brand-new instance folder, starts a new, empty database.

Every refusal says how to restore a backup (README, "Backing up the database while the server runs").
The check only reads: it opens the file read-only and never creates it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass, field

from assistant.store import dburl
from assistant.store.errors import DatabaseDamaged

SECRET_KEY_FILE = "secret_key"  # assistant.web.secret.KEY_FILE: its presence marks a used instance folder
TABLES = {"games", "events"}
MAX_PROBLEMS = 10  # lines of integrity_check output shown


@dataclass
class Report:
    path: str
    exists: bool = False
    size: int | None = 0  # bytes of the file (None: not a file)
    games: int | None = None
    events: int | None = None
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    # saved states not used (check-db only: statecheck.py): not damage (a cache, treated as absent), but said
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def empty(self) -> bool:
        """A file of 0 bytes (a database that is not a file is never empty in this sense)."""
        return self.exists and self.size == 0

    def summary(self) -> str:
        if not self.exists:
            return f"{self.path}: no file yet (a new database will be created)"
        if self.problems:
            return f"{self.path}: DAMAGED"
        games = f"{self.games} game{'s' if self.games != 1 else ''}, {self.events} events"
        return f"{self.path}: {games}; integrity check passed ({self.seconds:.2f} s)"


# The server must not start on this database: the store's DatabaseDamaged (assistant/store/errors.py),
# whose ``message`` says why and how to restore a backup.


def restore_advice(path: str) -> str:
    name = os.path.basename(path)
    return (
        "To restore a backup: stop the server, move the damaged file aside together with its "
        f"{name}-wal and {name}-shm if present (e.g. to {name}.damaged), copy the backup to {path}, and start the "
        "server again; see 'Backing up the database while the server runs' in README.md. "
        "To start an empty database instead, move the file away or name a new file with --db."
    )


def _wal_nonempty(path: str) -> bool:
    try:
        return os.path.getsize(path + "-wal") > 0
    except OSError:
        return False


def inspect(path: str) -> Report:
    """Read the file (read-only) and run SQLite's integrity check on it."""
    report = Report(str(path))
    started = time.monotonic()
    try:
        report.size = os.path.getsize(path)
        report.exists = True
    except FileNotFoundError:
        return report
    except OSError as err:
        report.exists = True
        report.problems.append(f"the file cannot be read ({err.strerror or err})")
        return report
    if os.path.isdir(path):
        report.problems.append("it is a folder, not a database file")
        return report
    try:
        with open(path, "rb") as fh:
            fh.read(1)  # pragma: no mutate: any read tells whether the file can be read
    except OSError as err:
        report.problems.append(f"the file cannot be read ({err.strerror or err})")
        return report
    if report.size == 0:  # never opened: SQLite deletes the write-ahead log beside a file of 0 bytes,
        report.games = report.events = 0  # even read-only, and the games the file lost may be in it
        return report
    conn = None
    try:
        conn = sqlite3.connect(
            f"file:{_uri_path(path)}?mode=ro",
            uri=True,  # pragma: no mutate: Debian's SQLite (SQLITE_USE_URI) reads a file: URI either way
            timeout=30,  # pragma: no mutate: a lock waited for 30 s or 31: no test waits that long
        )
        integrity_check = "PRAGMA integrity_check"  # pragma: no mutate: SQL is case-blind
        rows = [r[0] for r in conn.execute(integrity_check)]
        if rows != ["ok"]:  # one row may hold several lines: one problem a line
            rows = [line for r in rows for line in str(r).splitlines() if line and not line.startswith("***")]
            report.problems.extend(str(r) for r in rows[:MAX_PROBLEMS])
            if len(rows) > MAX_PROBLEMS:
                report.problems.append(f"... and {len(rows) - MAX_PROBLEMS} more")
            return report
        query = "SELECT name FROM sqlite_master WHERE type = 'table'"  # pragma: no mutate: SQL is case-blind
        tables = {r[0] for r in conn.execute(query)}
        if tables and not TABLES <= tables:
            report.problems.append(
                "it is an SQLite file, but not this app's database (no games and events tables; it has: "
                + ", ".join(sorted(tables)[:5])
                + ")"
            )
            return report
        if TABLES <= tables:
            count = "SELECT COUNT(*) FROM games", "SELECT COUNT(*) FROM events"  # pragma: no mutate: SQL is case-blind
            report.games = conn.execute(count[0]).fetchone()[0]
            report.events = conn.execute(count[1]).fetchone()[0]
            report.problems.extend(_unreadable_rows(conn))
        else:
            report.games = report.events = 0
    except sqlite3.DatabaseError as err:  # not a database, malformed, I/O error, ...
        report.problems.append(f"SQLite cannot read it: {err}")
    finally:
        if conn is not None:
            conn.close()
        report.seconds = time.monotonic() - started
    return report


def _unreadable_rows(conn: sqlite3.Connection) -> list[str]:
    """Rows whose JSON is not valid UTF-8 JSON: garbage inside a row passes SQLite's own check."""
    conn.text_factory = bytes
    problems: list[str] = []
    queries = (
        ("game", "SELECT id, players, options FROM games"),  # pragma: no mutate: SQL is case-blind
        ("event", "SELECT game_id || ' #' || seq, event FROM events"),  # pragma: no mutate: SQL is case-blind
    )
    for what, query in queries:
        for row in conn.execute(query):
            try:
                for value in row[1:]:
                    json.loads(value.decode("utf-8"))  # pragma: no mutate: codec names are case-blind
            except (AttributeError, UnicodeDecodeError, ValueError):
                where = row[0]
                if isinstance(where, bytes):
                    where = where.decode("utf-8", "replace")  # pragma: no mutate: codec names are case-blind
                problems.append(f"{what} {where}: its stored data is not readable (garbage inside the row)")
                if len(problems) >= MAX_PROBLEMS:
                    return problems + ["... (stopped looking)"]
    return problems


def _uri_path(path: str) -> str:
    from urllib.parse import quote

    return quote(os.path.abspath(path))


def games_expected(path: str, instance_path: str | None, named: bool) -> bool:
    """Would an empty file at ``path`` mean games were lost (rather than a new database)?"""
    if named or _wal_nonempty(path):
        return True
    return bool(instance_path) and os.path.exists(os.path.join(instance_path, SECRET_KEY_FILE))


def inspect_postgres(url: str) -> Report:
    """PostgreSQL's counterpart of ``inspect``: the server answers, and every stored row reads back.

    PostgreSQL checks its own pages (and recovers from a crash by itself); what is ours to check is
    that the store's tables are there or can be made, and that no stored row is garbage.  The empty
    file and the replaced file of SQLite have no counterpart: a database is not a file."""
    import psycopg

    report = Report(path=dburl.redacted(url), exists=True, size=None)
    started = time.monotonic()
    try:
        with psycopg.connect(url, connect_timeout=10) as conn:
            query = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"  # pragma: no mutate: SQL is case-blind
            tables = {r[0] for r in conn.execute(query)}
            if TABLES <= tables:
                count = "SELECT count(*) FROM games"  # pragma: no mutate: SQL is case-blind
                report.games = conn.execute(count).fetchone()[0]
                report.events = 0
                # a server-side cursor: big logs stream (a client-side one reads the same rows, all at once)
                with conn.cursor(name="rows") as cur:  # pragma: no mutate: the cursor's name is any name
                    cur.execute("SELECT game_id, seq, event FROM events")  # pragma: no mutate: SQL is case-blind
                    for gid, seq, text in cur:
                        report.events += 1
                        try:
                            json.loads(text)
                        except ValueError:
                            if len(report.problems) < MAX_PROBLEMS:
                                report.problems.append(f"event {seq} of game {gid} is not readable")
            else:
                report.games, report.events = 0, 0  # a new database: the tables are made at start
    except psycopg.Error as err:
        report.problems.append(f"PostgreSQL cannot be used: {str(err).strip() or type(err).__name__}")
    report.seconds = time.monotonic() - started
    return report


KNOWN_FILES = "databases.txt"  # in the instance folder: the SQLite files this server has served


def _known(instance_path: str) -> list[str]:
    try:
        with open(os.path.join(instance_path, KNOWN_FILES), encoding="utf-8") as f:
            return [line.strip() for line in f if line.strip()]
    except OSError:
        return []


def remember(path: str, instance_path: str | None) -> None:
    """Note in the instance folder that this server serves ``path`` (so that a file that then
    vanishes is not silently replaced by a new, empty one at the next start)."""
    if not instance_path:
        return
    known = _known(instance_path)
    path = os.path.abspath(path)
    if path not in known:
        os.makedirs(instance_path, exist_ok=True)
        with open(os.path.join(instance_path, KNOWN_FILES), "a", encoding="utf-8") as f:
            f.write(path + "\n")


def check_postgres_before_start(url: str) -> Report:
    """(Nothing is expected of an empty database: it is not a file that can be emptied or replaced.)"""
    report = inspect_postgres(url)
    if report.problems:
        raise DatabaseDamaged(
            f"The database {report.path} cannot be used: {'; '.join(report.problems[:2])}. "
            "The server does not start on it. Check that PostgreSQL is running and the URL is right "
            "(README: 'Beyond one machine: PostgreSQL')."
        )
    return report


def check_file_before_start(path: str, instance_path: str | None = None, named: bool = False) -> Report:
    report = inspect(path)
    # (without an instance folder no file is known: not a databases.txt in the working folder)
    if not report.exists and instance_path and os.path.abspath(path) in _known(instance_path):
        raise DatabaseDamaged(
            f"The database file {path} is gone, but this server has served it before "
            f"({os.path.join(instance_path, KNOWN_FILES)} says so). The server does not start a new, "
            "empty table in its place. " + restore_advice(path) + " To start afresh on purpose, remove the "
            f"file's line from {KNOWN_FILES}."
        )
    if report.problems:
        detail = "; ".join(report.problems[:2]) + (" (and more)" if len(report.problems) > 2 else "")
        raise DatabaseDamaged(
            f"The database file {path} is damaged or unreadable: {detail}. "
            "The server does not start on it, so that nothing is written over the games it may still hold. "
            f"Run `python -m assistant check-db --db {path}` for the details. " + restore_advice(path)
        )
    if report.exists and report.size == 0 and games_expected(path, instance_path, named):
        why = "it was named with --db or $RSS_DB" if named else "this instance folder has been used before"
        raise DatabaseDamaged(
            f"The database file {path} is empty (0 bytes), but games were expected there ({why}). "
            "The server does not start a blank table over it. " + restore_advice(path)
        )
    return report
