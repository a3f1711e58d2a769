"""The PostgreSQL store's tables: the same log as SQLite's, for several app servers on one database.

Used through psycopg 3 with its connection pool.  The tables are SQLite's (``games``, ``events``,
``seats``), with the same columns and the event JSON stored as text exactly as written, so that an
export is the same byte for byte on either store.  The writer's lock is the ``events`` primary key
(game_id, seq): a writer checks the token and the current seq and inserts seq + 1 in one
transaction, and of two servers inserting the same seq the second gets a unique violation, which
is a stale post (or, for a token already used, the answer of the first).  Every server's polls and
caches compare the game's highest seq (one primary-key lookup), so changes made through any server
are seen by all.
"""

from __future__ import annotations

import threading

import psycopg
import psycopg.rows
from psycopg import errors as pgerrors
from psycopg_pool import ConnectionPool, PoolTimeout

from assistant.store import dbcheck, schema, settings
from assistant.store.errors import DatabaseUnavailable, translating

MIGRATIONS_TABLE = "rss_migrations"
NOTIFY_CHANNEL = "rss_live"  # the streams' waker LISTENs on it (assistant/serve/stream.py)
CONNECT_WAIT_SECONDS = 5.0  # how long a request waits for a pooled connection (see __init__)

# -- the schema's steps in PostgreSQL's SQL ------------------------------------------------------
_TYPES = {schema.TEXT: "text", schema.INTEGER: "integer", schema.BLOB: "bytea"}


def _q(name: str) -> str:
    return f'"{name}"'  # "window" is a reserved word in PostgreSQL


def statements(op) -> list[tuple[str, list]]:
    """One operation of a step as PostgreSQL statements (with their parameters), each harmless
    where the database already has what it makes."""
    if isinstance(op, schema.CreateTable):
        columns = [
            f"{_q(c.name)} {_TYPES[c.type]}{' NOT NULL' if c.not_null or c.name in op.key else ''}" for c in op.columns
        ]
        refs = {col: f" REFERENCES {_q(table)} ({_q(other)})" for col, table, other in op.references}
        pairs = zip(columns, op.columns, strict=True)  # pragma: no mutate: of one length (the same columns)
        columns = [text + refs.get(c.name, "") for text, c in pairs]
        key = f"PRIMARY KEY ({', '.join(_q(k) for k in op.key)})"
        return [(f"CREATE TABLE IF NOT EXISTS {_q(op.table)} ({', '.join([*columns, key])})", [])]
    if isinstance(op, schema.AddColumn):
        return [
            (f"ALTER TABLE {_q(op.table)} ADD COLUMN IF NOT EXISTS {_q(op.column.name)} {_TYPES[op.column.type]}", [])
        ]
    if isinstance(op, schema.CreateIndex):
        where = f" WHERE {op.where}" if op.where else ""
        return [
            (
                f"CREATE {'UNIQUE ' if op.unique else ''}INDEX IF NOT EXISTS {_q(op.name)} ON {_q(op.table)} "
                f"({', '.join(_q(c) for c in op.columns)}){where}",
                [],
            )
        ]
    if isinstance(op, schema.Fill):
        return [(f"UPDATE {_q(op.table)} SET {_q(op.column)} = %s WHERE {_q(op.column)} IS NULL", [op.value])]
    raise TypeError(f"no PostgreSQL for the schema operation {op!r}")


def pool_size() -> int:
    return settings.get("RSS_PG_POOL")


@translating
class PostgresBackend:
    """The SQL of the PostgreSQL store (the game logic is in assistant.store)."""

    kind = "postgresql"
    DATABASE_ERRORS = (psycopg.Error, PoolTimeout)

    # -- what differs for a database on a server (backends.backend) -------------------------------
    @staticmethod
    def where(target: str) -> str:
        return target

    @staticmethod
    def prepare(target: str) -> None:
        """Nothing to make: the tables are made by ``migrate``."""

    @staticmethod
    def start_ident(target: str) -> str | None:
        return None  # not a file: nothing to be replaced under the server

    on_disk = False

    def change_feed(self, beat: float):
        """Which games changed, for the streams' waker (feeds.py): LISTEN on a connection of its own."""
        from assistant.store.feeds import PostgresFeed

        return PostgresFeed(self.url, NOTIFY_CHANNEL, beat)

    @staticmethod
    def inspect(target: str):
        return dbcheck.inspect_postgres(target)

    @staticmethod
    def check_before_start(target: str, instance_path: str | None, named: bool):
        return dbcheck.check_postgres_before_start(target)  # (a database is not a file that can be emptied)

    @staticmethod
    def remember(target: str, instance_path: str | None) -> None:
        """Nothing to note: a database that is not a file cannot vanish unnoticed."""

    @staticmethod
    def restore_advice(target: str) -> str:
        return ""  # PostgreSQL's own backups (README: 'Beyond one machine: PostgreSQL')

    def translate(self, err: Exception) -> DatabaseUnavailable:
        """PostgreSQL failed (down, restarting, unreachable): the store's error, said plainly."""
        return DatabaseUnavailable(
            f"The table's database server cannot be reached right now ({type(err).__name__}). Try again in a moment."
        )

    def __init__(self, url: str):
        self.url = url
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=pool_size(),
            kwargs={"autocommit": True},
            # a connection is checked before it is lent: those a restart of PostgreSQL closed are
            # replaced, not handed to a request (issue 38: 10-12 posts answered 503 after a restart)
            check=ConnectionPool.check_connection,
            # a request waits this long for a connection: a server out of reach is said in seconds
            # (a 503), not after psycopg_pool's 30 s default (the request deadline is 10 s)
            timeout=CONNECT_WAIT_SECONDS,
            open=True,  # pragma: no mutate: psycopg_pool (3.3) opens a pool made without it too
            name="rss",
        )
        self._migrate_lock = threading.Lock()

    def close(self) -> None:
        self.pool.close()

    # -- schema ---------------------------------------------------------------------
    def migrate(self) -> list[str]:
        """Apply the migrations not yet applied (all servers may start at once: one takes a lock)."""
        applied_now = []
        with self._migrate_lock, self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(4242001)")  # pragma: no mutate: SQL reads any case
            conn.execute(f"CREATE TABLE IF NOT EXISTS {MIGRATIONS_TABLE} (name text PRIMARY KEY, applied text)")
            done = {r[0] for r in conn.execute(f"SELECT name FROM {MIGRATIONS_TABLE}")}
            for step in schema.STEPS:  # assistant/store/schema.py: each step written once
                if step.name in done:
                    continue
                for op in step.operations:
                    for sql, params in statements(op):
                        conn.execute(sql, params)
                conn.execute(f"INSERT INTO {MIGRATIONS_TABLE} (name, applied) VALUES (%s, now()::text)", [step.name])
                applied_now.append(step.name)
        return applied_now

    def applied(self) -> list[str]:
        """The names of the schema's steps applied to this database, in the steps' order (the ones one
        start applies share its transaction's time), then any this version does not know."""
        with self.pool.connection() as conn:
            done = {r[0] for r in conn.execute(f"SELECT name FROM {MIGRATIONS_TABLE}")}
        known = [step.name for step in schema.STEPS if step.name in done]
        return known + sorted(done - set(known))

    # -- games ----------------------------------------------------------------------
    def insert_game(self, record: dict, events: list[dict] = ()) -> None:
        """The game's row and its first events, in one transaction."""
        with self.pool.connection() as conn, conn.transaction():
            cols = list(record)
            conn.execute(
                f"INSERT INTO games ({', '.join(cols)}) VALUES ({', '.join(['%s'] * len(cols))})",
                [record[c] for c in cols],
            )
            if events:
                with conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO events (game_id, seq, event, token, created) VALUES (%s, %s, %s, %s, %s)",  # pragma: no mutate: SQL reads any case
                        [(e["game_id"], e["seq"], e["event"], e["token"], e["created"]) for e in events],
                    )

    def game_row(self, gid: str) -> dict | None:
        with self.pool.connection() as conn, conn.cursor(row_factory=psycopg.rows.dict_row) as cur:
            cur.execute("SELECT * FROM games WHERE id = %s", [gid])  # pragma: no mutate: SQL reads any case
            return cur.fetchone()

    def game_ids(self) -> list[str]:
        q = "SELECT id FROM games ORDER BY created, id"  # pragma: no mutate: SQL reads any case
        with self.pool.connection() as conn:
            return [r[0] for r in conn.execute(q)]

    def counts(self) -> tuple[int, int]:
        with self.pool.connection() as conn:
            q = "SELECT count(*) FROM games", "SELECT count(*) FROM events"  # pragma: no mutate: SQL reads any case
            games = conn.execute(q[0]).fetchone()[0]
            events = conn.execute(q[1]).fetchone()[0]
        return games, events

    def count_action(self, client: str, action: str, window: int) -> int:
        """Add one to the client's count of ``action`` in ``window``; the count now (older windows go)."""
        with self.pool.connection() as conn, conn.transaction():
            older = 'DELETE FROM rate_limits WHERE "window" < %s'  # pragma: no mutate: SQL reads any case
            conn.execute(older, [window - 1])
            row = conn.execute(
                """INSERT INTO rate_limits (client, action, "window", count) VALUES (%s, %s, %s, 1)
                   ON CONFLICT (client, action, "window") DO UPDATE SET count = rate_limits.count + 1
                   RETURNING count""",
                [client, action, window],
            ).fetchone()
        return row[0]

    def size(self) -> int:
        """The database's size in bytes."""
        q = "SELECT pg_database_size(current_database())"  # pragma: no mutate: SQL reads any case
        with self.pool.connection() as conn:
            return conn.execute(q).fetchone()[0]

    def used(self) -> int:
        return self.size()

    def game_bytes(self, gid: str) -> int:
        """What one game's log rows and saved states hold, in bytes."""
        with self.pool.connection() as conn:
            return sum(
                conn.execute(q, [gid]).fetchone()[0]
                for q in (
                    "SELECT COALESCE(SUM(octet_length(event)), 0) FROM events WHERE game_id = %s",  # pragma: no mutate: SQL reads any case
                    "SELECT COALESCE(SUM(octet_length(data)), 0) FROM saved_states WHERE game_id = %s",  # pragma: no mutate: SQL reads any case
                )
            )

    # -- seats ----------------------------------------------------------------------
    def take_seat(self, gid: str, phone: str, player: str | None) -> None:
        with self.pool.connection() as conn, conn.transaction():
            leave = "DELETE FROM seats WHERE game_id = %s AND phone = %s"  # pragma: no mutate: SQL reads any case
            conn.execute(leave, [gid, phone])
            if player:
                take = "INSERT INTO seats (game_id, phone, player) VALUES (%s, %s, %s)"  # pragma: no mutate: SQL reads any case
                conn.execute(take, [gid, phone, player])
            notify = "SELECT pg_notify(%s, %s)"  # pragma: no mutate: SQL reads any case
            conn.execute(notify, [NOTIFY_CHANNEL, f"{gid} seats"])  # sent on commit

    def seats_taken(self, gid: str) -> set[str]:
        with self.pool.connection() as conn:
            q = "SELECT DISTINCT player FROM seats WHERE game_id = %s"  # pragma: no mutate: SQL reads any case
            return {r[0] for r in conn.execute(q, [gid])}

    # -- the log --------------------------------------------------------------------
    def rows(self, gid: str, after: int = 0, upto: int | None = None) -> list[tuple]:
        """(seq, event text, token, created) of the rows after ``after`` (up to ``upto``), in order."""
        with self.pool.connection() as conn:
            return list(
                conn.execute(
                    "SELECT seq, event, token, created FROM events WHERE game_id = %s AND seq > %s AND seq <= %s"  # pragma: no mutate: SQL reads any case
                    " ORDER BY seq",  # pragma: no mutate: SQL reads any case
                    [gid, after, 2**31 - 1 if upto is None else upto],
                )
            )

    # -- saved states (a cache of the log's replay: assistant/log/saved.py) ----------
    def saved_state(self, gid: str, version: str, upto: int, events: int) -> tuple[int, bytes] | None:
        """(seq, data) of the latest state saved by ``version`` at or before row ``upto`` with at
        most ``events`` events in effect, or None."""
        with self.pool.connection() as conn:
            row = conn.execute(
                "SELECT seq, data FROM saved_states WHERE game_id = %s AND version = %s AND seq <= %s"  # pragma: no mutate: SQL reads any case
                " AND events <= %s ORDER BY seq DESC LIMIT 1",  # pragma: no mutate: SQL reads any case
                [gid, version, upto, events],
            ).fetchone()
        return None if row is None else (row[0], bytes(row[1]))

    def saved_states_of(self, version: str) -> list[tuple[str, int, bytes]]:
        """(game id, row, data) of every state saved by ``version`` (check-db, copy-db)."""
        with self.pool.connection() as conn:
            q = "SELECT game_id, seq, data FROM saved_states WHERE version = %s ORDER BY game_id, seq"  # pragma: no mutate: SQL reads any case
            rows = conn.execute(q, [version]).fetchall()
        return [(gid, seq, bytes(data)) for gid, seq, data in rows]

    def save_states(self, gid: str, version: str, states: list[tuple[int, int, bytes]], created: str) -> None:
        """Keep the states (row, events in effect, data), in one transaction (one saved at the same
        row is written over: one whose signature did not hold is then replaced); the states saved by other versions go."""
        with self.pool.connection() as conn, conn.transaction():
            others = "DELETE FROM saved_states WHERE game_id = %s AND version <> %s"  # pragma: no mutate: any case
            conn.execute(others, [gid, version])
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO saved_states (game_id, version, seq, events, data, created)"  # pragma: no mutate: SQL reads any case
                    " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (game_id, version, seq) DO UPDATE"  # pragma: no mutate: SQL reads any case
                    " SET events = EXCLUDED.events, data = EXCLUDED.data, created = EXCLUDED.created",  # pragma: no mutate: SQL reads any case
                    [[gid, version, seq, events, data, created] for seq, events, data in states],
                )

    def seq(self, gid: str) -> int:
        with self.pool.connection() as conn:
            q = "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = %s"  # pragma: no mutate: SQL reads any case
            return conn.execute(q, [gid]).fetchone()[0]

    def token_seq(self, gid: str, token: str) -> int | None:
        with self.pool.connection() as conn:
            q = "SELECT seq FROM events WHERE game_id = %s AND token = %s"  # pragma: no mutate: SQL reads any case
            row = conn.execute(q, [gid, token]).fetchone()
        return None if row is None else row[0]

    def append(self, gid: str, expected: int, event_text: str, token: str | None, created: str) -> tuple[str, int]:
        """Insert row ``expected + 1`` if ``expected`` is the game's seq.

        Returns ("written", seq), ("token", the seq the token's event produced) or ("stale", current).
        """
        try:
            with self.pool.connection() as conn, conn.transaction():
                if token is not None:
                    used = "SELECT seq FROM events WHERE game_id = %s AND token = %s"  # pragma: no mutate: SQL reads any case
                    row = conn.execute(used, [gid, token]).fetchone()
                    if row is not None:
                        return "token", row[0]
                last = "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = %s"  # pragma: no mutate: SQL reads any case
                current = conn.execute(last, [gid]).fetchone()[0]
                if current != expected:
                    return "stale", current
                conn.execute(
                    "INSERT INTO events (game_id, seq, event, token, created) VALUES (%s, %s, %s, %s, %s)",  # pragma: no mutate: SQL reads any case
                    [gid, expected + 1, event_text, token, created],
                )
                # every server's streams hear of it once the row is committed (assistant/serve/stream.py)
                notify = "SELECT pg_notify(%s, %s)"  # pragma: no mutate: SQL reads any case
                conn.execute(notify, [NOTIFY_CHANNEL, f"{gid} {expected + 1}"])
                return "written", expected + 1
        except pgerrors.UniqueViolation:
            # another server wrote this seq (or this token) first: what it wrote decides
            if token is not None:
                earlier = self.token_seq(gid, token)
                if earlier is not None:
                    return "token", earlier
            return "stale", self.seq(gid)
