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
import threading

import sqlite_utils

from assistant import migrations

SYNCHRONOUS = "FULL"
ENV_IDENT = "RSS_DB_IDENT"  # the file the server started on ("device:inode"), for its workers


class DatabaseVanished(sqlite3.DatabaseError):
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


class SQLiteTables:
    kind = "sqlite"
    unreachable = ()  # a file is never out of reach (its own errors: sqlite3.DatabaseError)

    def __init__(self, path: str):
        self.path = str(path)
        self._local = threading.local()
        self._write_lock = threading.Lock()  # one writing thread of this process at a time
        # the file this store serves: the server's (its workers get it in the environment), else the
        # file as it is now; a store on a file not made yet takes it once its first connection made it
        self.ident = os.environ.get(ENV_IDENT) if os.environ.get("RSS_DB") == os.path.abspath(self.path) else None
        self.ident = self.ident or file_ident(self.path)

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
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            conn.execute("PRAGMA busy_timeout = 30000")
            conn.execute("PRAGMA foreign_keys = ON")
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
        db = self._db()
        db.enable_wal()
        migrations.apply(db)  # the schema, step by step (assistant/migrations.py)

    # -- limits ---------------------------------------------------------------------
    def count_action(self, client: str, action: str, window: int) -> int:
        """Add one to the client's count of ``action`` in ``window``; the count now (older windows go).
        In the database, so every worker process shares it."""
        db = self._db()
        with self._write_lock, _immediate(db.conn):
            db.conn.execute("DELETE FROM rate_limits WHERE window < ?", [window - 1])
            db.conn.execute(
                """INSERT INTO rate_limits (client, action, window, count) VALUES (?, ?, ?, 1)
                   ON CONFLICT (client, action, window) DO UPDATE SET count = count + 1""",
                [client, action, window],
            )
            return db.conn.execute(
                "SELECT count FROM rate_limits WHERE client = ? AND action = ? AND window = ?", [client, action, window]
            ).fetchone()[0]

    def size(self) -> int:
        """The database's size in bytes: the file and its write-ahead log."""
        self.check_file()
        return sum(os.path.getsize(p) for p in (self.path, self.path + "-wal") if os.path.exists(p))

    # -- games ----------------------------------------------------------------------
    def insert_game(self, record: dict, events: list[dict] = ()) -> None:
        db = self._db()
        with self._write_lock, _immediate(db.conn):
            db["games"].insert(record)
            if events:
                db["events"].insert_all(events)

    def game_row(self, gid: str) -> dict | None:
        rows = list(self._db().query("SELECT * FROM games WHERE id = ?", [gid]))
        return rows[0] if rows else None

    def game_ids(self) -> list[str]:
        return [r["id"] for r in self._db().query("SELECT id FROM games ORDER BY created, id")]

    def counts(self) -> tuple[int, int]:
        conn = self._db().conn
        return (
            conn.execute("SELECT count(*) FROM games").fetchone()[0],
            conn.execute("SELECT count(*) FROM events").fetchone()[0],
        )

    # -- seats ----------------------------------------------------------------------
    def take_seat(self, gid: str, phone: str, player: str | None) -> None:
        """The phone's row is written again under a rowid larger than any (leaving a seat too: its
        player is then NULL), so the streams' waker sees every seat change as a new row at the end
        (assistant/web/stream.py)."""
        db = self._db()
        with self._write_lock, _immediate(db.conn):
            after = db.conn.execute("SELECT COALESCE(MAX(rowid), 0) + 1 FROM seats").fetchone()[0]
            db.conn.execute("DELETE FROM seats WHERE game_id = ? AND phone = ?", [gid, phone])
            db.conn.execute(
                "INSERT INTO seats (rowid, game_id, phone, player) VALUES (?, ?, ?, ?)",
                [after, gid, phone, player or None],
            )

    def seats_taken(self, gid: str) -> set[str]:
        q = "SELECT DISTINCT player FROM seats WHERE game_id = ? AND player IS NOT NULL"
        return {r[0] for r in self._db().execute(q, [gid]).fetchall()}

    # -- the log --------------------------------------------------------------------
    def rows(self, gid: str, after: int = 0, upto: int | None = None) -> list[tuple]:
        """(seq, event text, token, created) of the rows after ``after`` (up to ``upto``), in order."""
        q = "SELECT seq, event, token, created FROM events WHERE game_id = ? AND seq > ? AND seq <= ? ORDER BY seq"
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
        q = "SELECT game_id, seq, data FROM saved_states WHERE version = ? ORDER BY game_id, seq"
        return [(gid, seq, bytes(data)) for gid, seq, data in self._db().conn.execute(q, [version])]

    def save_states(self, gid: str, version: str, states: list[tuple[int, int, bytes]], created: str) -> None:
        """Keep the states (row, events in effect, data), in one transaction (one already saved at a
        row stays); the states saved by other versions go."""
        db = self._db()
        with self._write_lock, _immediate(db.conn):
            db.conn.execute("DELETE FROM saved_states WHERE game_id = ? AND version <> ?", [gid, version])
            db.conn.executemany(
                "INSERT OR IGNORE INTO saved_states (game_id, version, seq, events, data, created)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [[gid, version, seq, events, data, created] for seq, events, data in states],
            )

    def seq(self, gid: str) -> int:
        # seqs are 1..n without gaps, so the highest is the count: one primary-key index lookup
        q = "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?"
        return self._db().conn.execute(q, [gid]).fetchone()[0]

    def token_seq(self, gid: str, token: str) -> int | None:
        row = self._db().conn.execute("SELECT seq FROM events WHERE game_id = ? AND token = ?", [gid, token]).fetchone()
        return None if row is None else row[0]

    def append(self, gid: str, expected: int, event_text: str, token: str | None, created: str) -> tuple[str, int]:
        """Insert row ``expected + 1`` if ``expected`` is the game's seq.

        Returns ("written", seq), ("token", the seq the token's event produced) or ("stale", current).
        """
        db = self._db()
        conn = db.conn
        with self._write_lock, _immediate(conn):
            if token is not None:
                row = conn.execute("SELECT seq FROM events WHERE game_id = ? AND token = ?", [gid, token]).fetchone()
                if row is not None:
                    return "token", row[0]
            current = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", [gid]).fetchone()[0]
            if current != expected:
                return "stale", current
            conn.execute(
                "INSERT INTO events (game_id, seq, event, token, created) VALUES (?, ?, ?, ?, ?)",
                [gid, expected + 1, event_text, token, created],
            )
        return "written", expected + 1


class _immediate:
    """``with _immediate(conn):`` one write transaction taken with BEGIN IMMEDIATE."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type, exc, tb):
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")
        return False
