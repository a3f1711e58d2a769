"""Which games changed: what the streams' waker (assistant/serve/stream.py) asks the store, each
backend in its own way (``Tables.change_feed()``), so that the server layer holds no SQL.

A feed is used by one thread. ``open()`` connects; ``wait(tick, asked)`` waits for changes and
returns ``(changes, found)``: ``changes`` are ``(game, seq)`` for a log change and ``(game, None)``
for a change of the seats, each reported once; ``found`` are ``(game, seq)`` of the games
``asked()`` names, read in the same snapshot as the changes (only where ``answers_polls``: the
polls are then answered from what the waker heard, assistant/serve/known.py). ``seqs(games)`` gives
the current seq of each (after a lost connection, to catch up), ``still_served()`` whether the
database is still the one the store serves, and ``close()`` lets the connection go.

* SQLite: one query per tick for the rows of ``events`` and ``seats`` past the largest rowids seen.
  Both tables only grow at the end (a seat change writes its row under a new, larger rowid:
  ``SQLiteBackend.take_seat``), so these are exactly the changes since the last tick.
* PostgreSQL: ``LISTEN`` on a connection of its own (outside the pool); the store sends ``NOTIFY``
  on every append and seat change (``PostgresBackend``).
"""

from __future__ import annotations

import os
import time

CHANGES = """SELECT game_id, MAX(seq), MAX(rowid), 0 FROM events WHERE rowid > ? GROUP BY game_id
             UNION ALL SELECT game_id, NULL, MAX(rowid), 1 FROM seats WHERE rowid > ? GROUP BY game_id"""
MARKS = "SELECT (SELECT COALESCE(MAX(rowid), 0) FROM events), (SELECT COALESCE(MAX(rowid), 0) FROM seats)"
FOUND = "SELECT id, (SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = games.id) FROM games WHERE id IN ({})"
SEQS = "SELECT game_id, MAX(seq) FROM events WHERE game_id IN ({}) GROUP BY game_id"


class SQLiteFeed:
    answers_polls = True

    def __init__(self, path: str, served: str | None, ident):
        # served: the file the store serves, as ``ident(path)`` tells it (sqlite.file_ident)
        self.path, self.served, self.ident = path, served, ident
        self.conn = None
        self.marks: list[int] | None = None  # pragma: no mutate: open() sets it before any read

    @property
    def is_open(self) -> bool:
        return self.conn is not None

    def open(self) -> None:
        import sqlite3
        from urllib.request import pathname2url

        uri = "file:" + pathname2url(os.path.abspath(self.path)) + "?mode=ro"
        # pragma below: this SQLite reads a file: name as a URI either way, reads open no transaction of
        # Python's own, and a reader of a WAL database waits on no lock (5 s is also the default)
        self.conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=5)  # pragma: no mutate: see above
        self.marks = list(self.conn.execute(MARKS).fetchone())

    def wait(self, tick: float, asked) -> tuple[list[tuple[str, int | None]], list[tuple[str, int]]]:
        time.sleep(tick)
        conn = self.conn
        conn.execute("BEGIN")  # pragma: no mutate: SQL reads any case (one snapshot: changes and seqs asked)
        try:
            rows = conn.execute(CHANGES, self.marks).fetchall()
            games = asked()
            found = _by_500(conn, FOUND, games) if games else []  # pragma: no mutate: _by_500 of none is []
        finally:
            conn.execute("COMMIT")  # pragma: no mutate: SQL reads any case
        changes = []
        for gid, seq, rowid, seats in rows:
            self.marks[seats] = max(self.marks[seats], rowid)
            changes.append((gid, None if seats else seq))  # pragma: no mutate: a seats row's seq is NULL
        return changes, found

    def seqs(self, games: list[str]) -> list[tuple[str, int]]:
        return _by_500(self.conn, SEQS, games)

    def still_served(self) -> bool:
        """The file is still the one the store serves (not deleted, not replaced by another)."""
        ident = self.ident(self.path)
        if ident is None:
            return False
        if self.served is None:
            self.served = ident
        return ident == self.served

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.conn = None


def _by_500(conn, query: str, games: list[str]) -> list[tuple]:
    """``query``'s rows for ``games``, 500 at a time (its ``{}`` takes the placeholders)."""
    out = []
    for start in range(0, len(games), 500):
        part = games[start : start + 500]
        out += conn.execute(query.format(",".join("?" * len(part))), part).fetchall()
    return out


class PostgresFeed:
    answers_polls = False

    def __init__(self, url: str, channel: str, beat: float):
        self.url, self.channel, self.beat = url, channel, beat
        self.conn = None

    @property
    def is_open(self) -> bool:
        return self.conn is not None

    def open(self) -> None:
        import psycopg

        self.conn = psycopg.connect(self.url, autocommit=True)
        self.conn.execute(f"LISTEN {self.channel}")

    def wait(self, tick: float, asked) -> tuple[list[tuple[str, int | None]], list[tuple[str, int]]]:
        """The notes that come within a heartbeat (``tick``: SQLite's, not needed here)."""
        changes = []
        for note in self.conn.notifies(timeout=self.beat, stop_after=1):
            change = parse_note(note.payload)
            if change:
                changes.append(change)
        return changes, []

    def seqs(self, games: list[str]) -> list[tuple[str, int]]:
        return self.conn.execute(
            "SELECT game_id, MAX(seq) FROM events WHERE game_id = ANY(%s) GROUP BY game_id",  # pragma: no mutate: any case
            [games],
        ).fetchall()

    def still_served(self) -> bool:
        return True

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:  # noqa: BLE001 - a connection already lost
                pass
        self.conn = None


def parse_note(payload: str) -> tuple[str, int | None] | None:
    """A NOTIFY's payload: ``<game> <seq>`` or ``<game> seats``."""
    gid, _, what = payload.partition(" ")
    if what == "seats":
        return gid, None
    return (gid, int(what)) if what.isdigit() else None
