"""The SQLite store's tables: one file (WAL), the embedded default.

The writer's lock is SQLite's own (``BEGIN IMMEDIATE``): a writer checks the token and the current
seq and inserts seq + 1 in one transaction, so across threads and worker processes exactly one row
is written per seq.  Threads of a process queue on a lock of their own rather than in SQLite's busy
wait.  ``synchronous=FULL``: every acknowledged event is on disk (a laptop whose battery dies keeps
it).
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading

from assistant.store import dbcheck, schema
from assistant.store.errors import ADVICE, DatabaseDamaged, DatabaseUnavailable, translating


def _without_array_libraries():
    """sqlite-utils imports numpy and pandas where they are installed, only to store their values,
    which this program never has: numpy alone is 13.6 MB of every server process.  They are kept
    out while it is imported (``np`` and ``pd`` stay None in it), and importable again afterwards."""
    kept_out = [name for name in ("numpy", "pandas") if name not in sys.modules]
    for name in kept_out:
        sys.modules[name] = None  # an import of it raises ImportError
    try:
        import sqlite_utils
    finally:
        for name in kept_out:
            if sys.modules.get(name, False) is None:
                del sys.modules[name]
    return sqlite_utils


sqlite_utils = _without_array_libraries()
Migrations = sqlite_utils.Migrations

SYNCHRONOUS = "FULL"
ENV_IDENT = "RSS_DB_IDENT"  # the file the server started on ("device:inode"), for its workers


class DatabaseVanished(DatabaseDamaged):
    """The database file was deleted or replaced while the server ran: open connections would go on
    writing to a file nobody will read again, so nothing more is read or acknowledged."""

    def __init__(self, path: str, what: str):
        super().__init__(
            f"The database file {path} was {what} while the server ran: nothing more is saved, so that no "
            "entry is acknowledged and then lost. Restore the file (a backup) and restart the server "
            '(README: "A damaged database file").'
        )


def file_ident(path: str) -> str | None:
    """The file's identity (device and inode), or None when there is no file."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return f"{st.st_dev}:{st.st_ino}"


# -- the schema's steps in SQLite (sqlite-utils migrations; their records name this set) -------------
MIGRATION_SET = "rss-store"
_TYPES = {schema.TEXT: str, schema.INTEGER: int, schema.BLOB: bytes}


def _operate(db: sqlite_utils.Database, op) -> None:
    """One operation of a step, done only where the database does not have it yet."""
    if isinstance(op, schema.CreateTable):
        if op.table not in db.table_names():
            db[op.table].create(
                {c.name: _TYPES[c.type] for c in op.columns},
                pk=op.key[0] if len(op.key) == 1 else op.key,  # pragma: no mutate: sqlite-utils takes ("a",) as "a"
                not_null={c.name for c in op.columns if c.not_null},
                foreign_keys=list(op.references),
            )
    elif isinstance(op, schema.AddColumn):
        if op.column.name not in db[op.table].columns_dict:
            db[op.table].add_column(op.column.name, _TYPES[op.column.type])
    elif isinstance(op, schema.CreateIndex):
        db.execute(
            f"CREATE {'UNIQUE ' if op.unique else ''}INDEX IF NOT EXISTS {op.name} ON {op.table} "  # pragma: no mutate: SQL reads any case
            f"({', '.join(op.columns)})" + (f" WHERE {op.where}" if op.where else "")
        )
    elif isinstance(op, schema.Fill):
        db.execute(f"UPDATE {op.table} SET {op.column} = ? WHERE {op.column} IS NULL", [op.value])
    else:
        raise TypeError(f"no SQLite for the schema operation {op!r}")


def migrations() -> Migrations:
    """The schema's steps as sqlite-utils migrations, under the names already recorded."""
    out = Migrations(MIGRATION_SET)
    for step in schema.STEPS:
        out(name=step.name)(lambda db, step=step: [_operate(db, op) for op in step.operations])
    return out


# SQLite's error names that mean the file is damaged (not busy, not locked)
DAMAGED = {"SQLITE_CORRUPT", "SQLITE_NOTADB"}


def _emptied(path: str) -> bool:
    try:
        return os.path.getsize(path) == 0
    except OSError:
        return False


@translating
class SQLiteBackend:
    kind = "sqlite"
    DATABASE_ERRORS = (sqlite3.Error,)

    # -- what differs for a database that is a file (backends.backend) ---------------------------
    @staticmethod
    def where(target: str) -> str:
        """The file, as every process names it (an absolute path)."""
        return os.path.abspath(target)

    @staticmethod
    def prepare(target: str) -> None:
        """Its folder exists before the file is made."""
        os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)

    @staticmethod
    def start_ident(target: str) -> str | None:
        """The file the server starts on, so that its workers can tell if it is replaced."""
        return file_ident(target)

    on_disk = True  # the disk's free space is the database's (limits.disk_report)

    @staticmethod
    def inspect(target: str):
        return dbcheck.inspect(target)

    @staticmethod
    def check_before_start(target: str, instance_path: str | None, named: bool):
        return dbcheck.check_file_before_start(target, instance_path, named)

    @staticmethod
    def remember(target: str, instance_path: str | None) -> None:
        """Note that this server serves the file (a file that then vanishes is not replaced silently)."""
        dbcheck.remember(target, instance_path)

    @staticmethod
    def restore_advice(target: str) -> str:
        return dbcheck.restore_advice(target)

    def translate(self, err: sqlite3.Error) -> DatabaseDamaged | DatabaseUnavailable:
        """SQLite's error as the store's: a damaged file says so, never "something went wrong"."""
        damaged = (
            not isinstance(err, sqlite3.OperationalError)
            or getattr(err, "sqlite_errorname", "") in DAMAGED  # pragma: no mutate: any default not in DAMAGED
            or str(err).startswith("no such table")  # the file was emptied or replaced under the server
            or str(err).startswith("Could not decode to UTF-8")  # garbage inside a row
        )
        detail = str(err)
        if _emptied(self.path):  # a write to an emptied file waits, then "locked"
            damaged, detail = True, "the file is empty (0 bytes)"
        if damaged:
            return DatabaseDamaged(
                f"The database is damaged ({detail}): the games cannot be read or saved until it is restored. " + ADVICE
            )
        return DatabaseUnavailable(f"The database cannot be used right now ({err}). Try again in a moment.")

    def __init__(self, path: str):
        self.path = str(path)
        self._local = threading.local()
        self._write_lock = threading.Lock()  # one writing thread of this process at a time
        # the file this store serves: the server's (its workers get it in the environment), else the
        # file as it is now; a store on a file not made yet takes it once its first connection made it
        self.ident = os.environ.get(ENV_IDENT) if os.environ.get("RSS_DB") == os.path.abspath(self.path) else None
        self.ident = self.ident or file_ident(self.path)

    def change_feed(self, beat: float):
        """Which games changed, for the streams' waker (feeds.py)."""
        from assistant.store.feeds import SQLiteFeed

        return SQLiteFeed(self.path, self.ident, file_ident)

    def check_file(self) -> None:
        """Raise DatabaseVanished if the file is gone or is another file than the one served."""
        now = file_ident(self.path)
        if now is None:
            raise DatabaseVanished(self.path, "deleted")
        if self.ident is None:
            self.ident = now
        elif now != self.ident:
            raise DatabaseVanished(self.path, "replaced by another file")

    def _db(self) -> sqlite_utils.Database:
        db = getattr(self._local, "db", None)
        if db is not None or self.ident is not None:
            self.check_file()  # one stat: the file is still the one served (a connection would make a new one)
        if db is None:
            # (the connection's timeout is busy_timeout's, set again just below before any lock is taken)
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)  # pragma: no mutate: see above
            conn.execute("PRAGMA busy_timeout = 30000")  # pragma: no mutate: SQL reads any case
            conn.execute("PRAGMA foreign_keys = ON")  # pragma: no mutate: SQL reads any case
            conn.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")  # per connection
            db = sqlite_utils.Database(conn)
            self._local.db = db
            self.check_file()
        return db

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.conn.close()
            self._local.db = None

    # -- schema ---------------------------------------------------------------------
    def migrate(self) -> None:
        """Apply the schema's pending steps (assistant/store/schema.py), all under one write lock
        (BEGIN IMMEDIATE), so that worker processes starting together apply each exactly once; each
        with its record, or not at all."""
        db = self._db()
        db.enable_wal()
        steps = migrations()
        if not steps.pending(db):
            return
        db.conn.execute("BEGIN IMMEDIATE")  # pragma: no mutate: SQL reads any case
        try:
            steps.apply(db)  # inside the transaction, each step is a savepoint
        except BaseException:
            rollback = "ROLLBACK"  # pragma: no mutate: SQL reads any case
            db.conn.execute(rollback)
            raise
        db.conn.execute("COMMIT")  # pragma: no mutate: SQL reads any case

    def applied(self) -> list[str]:
        """The names of the schema's steps applied to this database, in order."""
        return [m.name for m in migrations().applied(self._db())]

    # -- limits ---------------------------------------------------------------------
    def count_action(self, client: str, action: str, window: int) -> int:
        """Add one to the client's count of ``action`` in ``window``; the count now (older windows go).
        In the database, so every worker process shares it."""
        db = self._db()
        with self._write_lock, _immediate(db.conn):
            older = "DELETE FROM rate_limits WHERE window < ?"  # pragma: no mutate: SQL reads any case
            db.conn.execute(older, [window - 1])
            db.conn.execute(
                """INSERT INTO rate_limits (client, action, window, count) VALUES (?, ?, ?, 1)
                   ON CONFLICT (client, action, window) DO UPDATE SET count = count + 1""",
                [client, action, window],
            )
            count = "SELECT count FROM rate_limits WHERE client = ? AND action = ? AND window = ?"  # pragma: no mutate: SQL reads any case
            return db.conn.execute(count, [client, action, window]).fetchone()[0]

    def size(self) -> int:
        """The database's size in bytes: the file and its write-ahead log."""
        self.check_file()
        return sum(os.path.getsize(p) for p in (self.path, self.path + "-wal") if os.path.exists(p))

    def used(self) -> int:
        """The bytes the database's pages in use hold (its write-ahead log's committed pages
        included; free pages and the log file's own size not)."""
        conn = self._db().conn
        names = ("page_count", "freelist_count", "page_size")  # pragma: no mutate: SQL reads any case
        pages, free, size = (conn.execute(f"PRAGMA {p}").fetchone()[0] for p in names)
        return (pages - free) * size

    def game_bytes(self, gid: str) -> int:
        """What one game's log rows and saved states hold, in bytes."""
        conn = self._db().conn
        q = (
            "SELECT COALESCE(SUM(length(CAST(event AS BLOB))), 0) FROM events WHERE game_id = ?",  # pragma: no mutate: SQL reads any case
            "SELECT COALESCE(SUM(length(data)), 0) FROM saved_states WHERE game_id = ?",  # pragma: no mutate: SQL reads any case
        )
        return sum(conn.execute(s, [gid]).fetchone()[0] for s in q)

    # -- games ----------------------------------------------------------------------
    def insert_game(self, record: dict, events: list[dict] = ()) -> None:
        db = self._db()
        with self._write_lock, _immediate(db.conn):
            db["games"].insert(record)
            if events:
                db["events"].insert_all(events)

    def game_row(self, gid: str) -> dict | None:
        q = "SELECT * FROM games WHERE id = ?"  # pragma: no mutate: SQL reads any case
        rows = list(self._db().query(q, [gid]))
        return rows[0] if rows else None

    def game_ids(self) -> list[str]:
        q = "SELECT id FROM games ORDER BY created, id"  # pragma: no mutate: SQL reads any case
        return [r["id"] for r in self._db().query(q)]

    def counts(self) -> tuple[int, int]:
        conn = self._db().conn
        q = "SELECT count(*) FROM games", "SELECT count(*) FROM events"  # pragma: no mutate: SQL reads any case
        return conn.execute(q[0]).fetchone()[0], conn.execute(q[1]).fetchone()[0]

    # -- seats ----------------------------------------------------------------------
    def take_seat(self, gid: str, phone: str, player: str | None) -> None:
        """The phone's row is written again under a rowid larger than any (leaving a seat too: its
        player is then NULL), so the streams' waker sees every seat change as a new row at the end
        (assistant/serve/stream.py)."""
        db = self._db()
        with self._write_lock, _immediate(db.conn):
            last = "SELECT COALESCE(MAX(rowid), 0) + 1 FROM seats"  # pragma: no mutate: SQL reads any case
            after = db.conn.execute(last).fetchone()[0]
            leave = "DELETE FROM seats WHERE game_id = ? AND phone = ?"  # pragma: no mutate: SQL reads any case
            db.conn.execute(leave, [gid, phone])
            db.conn.execute(
                "INSERT INTO seats (rowid, game_id, phone, player) VALUES (?, ?, ?, ?)",  # pragma: no mutate: SQL reads any case
                [after, gid, phone, player or None],
            )

    def seats_taken(self, gid: str) -> set[str]:
        q = "SELECT DISTINCT player FROM seats WHERE game_id = ? AND player IS NOT NULL"  # pragma: no mutate: SQL reads any case
        return {r[0] for r in self._db().execute(q, [gid]).fetchall()}

    # -- the log --------------------------------------------------------------------
    def rows(self, gid: str, after: int = 0, upto: int | None = None) -> list[tuple]:
        """(seq, event text, token, created) of the rows after ``after`` (up to ``upto``), in order."""
        q = "SELECT seq, event, token, created FROM events WHERE game_id = ? AND seq > ? AND seq <= ? ORDER BY seq"  # pragma: no mutate: SQL reads any case
        return self._db().conn.execute(q, [gid, after, 2**62 if upto is None else upto]).fetchall()

    # -- saved states (a cache of the log's replay: assistant/log/saved.py) ----------
    def saved_state(self, gid: str, version: str, upto: int, events: int) -> tuple[int, bytes] | None:
        """(seq, data) of the latest state saved by ``version`` at or before row ``upto`` with at
        most ``events`` events in effect, or None."""
        q = """SELECT seq, data FROM saved_states WHERE game_id = ? AND version = ? AND seq <= ? AND events <= ?
               ORDER BY seq DESC LIMIT 1"""
        row = self._db().conn.execute(q, [gid, version, upto, events]).fetchone()
        return None if row is None else (row[0], bytes(row[1]))

    def saved_states_of(self, version: str) -> list[tuple[str, int, bytes]]:
        """(game id, row, data) of every state saved by ``version`` (check-db, copy-db)."""
        q = "SELECT game_id, seq, data FROM saved_states WHERE version = ? ORDER BY game_id, seq"  # pragma: no mutate: SQL reads any case
        return [(gid, seq, bytes(data)) for gid, seq, data in self._db().conn.execute(q, [version])]

    def save_states(self, gid: str, version: str, states: list[tuple[int, int, bytes]], created: str) -> None:
        """Keep the states (row, events in effect, data), in one transaction (one saved at the same
        row is written over: one whose signature did not hold is then replaced); the states saved by other versions go."""
        db = self._db()
        with self._write_lock, _immediate(db.conn):
            others = (
                "DELETE FROM saved_states WHERE game_id = ? AND version <> ?"  # pragma: no mutate: SQL reads any case
            )
            db.conn.execute(others, [gid, version])
            db.conn.executemany(
                "INSERT OR REPLACE INTO saved_states (game_id, version, seq, events, data, created)"  # pragma: no mutate: SQL reads any case
                " VALUES (?, ?, ?, ?, ?, ?)",  # pragma: no mutate: SQL reads any case
                [[gid, version, seq, events, data, created] for seq, events, data in states],
            )

    def seq(self, gid: str) -> int:
        # seqs are 1..n without gaps, so the highest is the count: one primary-key index lookup
        q = "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?"  # pragma: no mutate: SQL reads any case
        return self._db().conn.execute(q, [gid]).fetchone()[0]

    def token_seq(self, gid: str, token: str) -> int | None:
        q = "SELECT seq FROM events WHERE game_id = ? AND token = ?"  # pragma: no mutate: SQL reads any case
        row = self._db().conn.execute(q, [gid, token]).fetchone()
        return None if row is None else row[0]

    def append(self, gid: str, expected: int, event_text: str, token: str | None, created: str) -> tuple[str, int]:
        """Insert row ``expected + 1`` if ``expected`` is the game's seq.

        Returns ("written", seq), ("token", the seq the token's event produced) or ("stale", current).
        """
        db = self._db()
        conn = db.conn
        with self._write_lock, _immediate(conn):
            if token is not None:
                used = "SELECT seq FROM events WHERE game_id = ? AND token = ?"  # pragma: no mutate: SQL reads any case
                row = conn.execute(used, [gid, token]).fetchone()
                if row is not None:
                    return "token", row[0]
            last = "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?"  # pragma: no mutate: SQL reads any case
            current = conn.execute(last, [gid]).fetchone()[0]
            if current != expected:
                return "stale", current
            conn.execute(
                "INSERT INTO events (game_id, seq, event, token, created) VALUES (?, ?, ?, ?, ?)",  # pragma: no mutate: SQL reads any case
                [gid, expected + 1, event_text, token, created],
            )
        return "written", expected + 1


class _immediate:
    """``with _immediate(conn):`` one write transaction taken with BEGIN IMMEDIATE."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")  # pragma: no mutate: SQL reads any case
        return self.conn

    def __exit__(self, exc_type, exc, tb):
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")  # pragma: no mutate: SQL reads any case
        return False
