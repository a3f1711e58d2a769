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

import os
import threading

import psycopg
import psycopg.rows
from psycopg import errors as pgerrors
from psycopg_pool import ConnectionPool, PoolTimeout

MIGRATIONS_TABLE = "rss_migrations"
NOTIFY_CHANNEL = "rss_live"  # the streams' waker LISTENs on it (assistant/web/stream.py)

# The same named steps as the SQLite store's migrations (assistant/migrations.py), in PostgreSQL's SQL.
MIGRATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "games_and_events",
        (
            """CREATE TABLE IF NOT EXISTS games (
                id text PRIMARY KEY, players text NOT NULL, options text NOT NULL, deck text,
                created text NOT NULL)""",
            """CREATE TABLE IF NOT EXISTS events (
                game_id text NOT NULL REFERENCES games (id), seq integer NOT NULL, event text NOT NULL,
                token text, created text NOT NULL, PRIMARY KEY (game_id, seq))""",
            "CREATE UNIQUE INDEX IF NOT EXISTS events_token ON events (game_id, token) WHERE token IS NOT NULL",
        ),
    ),
    ("two_handed_persons", ("ALTER TABLE games ADD COLUMN IF NOT EXISTS persons text",)),
    (
        "games_name_their_ruleset",
        (
            "ALTER TABLE games ADD COLUMN IF NOT EXISTS game text",
            "UPDATE games SET game = 'rolling-stock-stars' WHERE game IS NULL",
        ),
    ),
    (
        "seats",
        (
            """CREATE TABLE IF NOT EXISTS seats (
                game_id text NOT NULL, phone text NOT NULL, player text, PRIMARY KEY (game_id, phone))""",
        ),
    ),
    ("games_resume_from_a_position", ("ALTER TABLE games ADD COLUMN IF NOT EXISTS position text",)),
    (
        "rate_limits",
        (
            """CREATE TABLE IF NOT EXISTS rate_limits (
                client text NOT NULL, action text NOT NULL, "window" integer NOT NULL, count integer NOT NULL,
                PRIMARY KEY (client, action, "window"))""",
        ),
    ),
    (
        "saved_states",
        (
            """CREATE TABLE IF NOT EXISTS saved_states (
                game_id text NOT NULL, version text NOT NULL, seq integer NOT NULL, events integer NOT NULL,
                data bytea NOT NULL,
                created text NOT NULL, PRIMARY KEY (game_id, version, seq))""",
        ),
    ),
    (
        "games_keep_their_rules_edition",
        (
            "ALTER TABLE games ADD COLUMN IF NOT EXISTS edition integer",
            "UPDATE games SET edition = 1 WHERE edition IS NULL",
        ),
    ),
)


def pool_size() -> int:
    return int(os.environ.get("RSS_PG_POOL", "8"))


class PostgresTables:
    """The SQL of the PostgreSQL store (the game logic is in assistant.store)."""

    kind = "postgresql"
    # the driver's errors that mean the database server cannot be reached (the app answers 503)
    unreachable = (psycopg.Error, PoolTimeout)

    def __init__(self, url: str):
        self.url = url
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=pool_size(),
            kwargs={"autocommit": True},
            open=True,
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
            conn.execute("SELECT pg_advisory_xact_lock(4242001)")
            conn.execute(f"CREATE TABLE IF NOT EXISTS {MIGRATIONS_TABLE} (name text PRIMARY KEY, applied text)")
            done = {r[0] for r in conn.execute(f"SELECT name FROM {MIGRATIONS_TABLE}")}
            for name, statements in MIGRATIONS:
                if name in done:
                    continue
                for sql in statements:
                    conn.execute(sql)
                conn.execute(f"INSERT INTO {MIGRATIONS_TABLE} (name, applied) VALUES (%s, now()::text)", [name])
                applied_now.append(name)
        return applied_now

    def applied(self) -> list[str]:
        with self.pool.connection() as conn:
            return [r[0] for r in conn.execute(f"SELECT name FROM {MIGRATIONS_TABLE} ORDER BY name")]

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
                        "INSERT INTO events (game_id, seq, event, token, created) VALUES (%s, %s, %s, %s, %s)",
                        [(e["game_id"], e["seq"], e["event"], e["token"], e["created"]) for e in events],
                    )

    def game_row(self, gid: str) -> dict | None:
        with self.pool.connection() as conn, conn.cursor(row_factory=psycopg.rows.dict_row) as cur:
            cur.execute("SELECT * FROM games WHERE id = %s", [gid])
            return cur.fetchone()

    def game_ids(self) -> list[str]:
        with self.pool.connection() as conn:
            return [r[0] for r in conn.execute("SELECT id FROM games ORDER BY created, id")]

    def counts(self) -> tuple[int, int]:
        with self.pool.connection() as conn:
            games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
            events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
        return games, events

    def count_action(self, client: str, action: str, window: int) -> int:
        """Add one to the client's count of ``action`` in ``window``; the count now (older windows go)."""
        with self.pool.connection() as conn, conn.transaction():
            conn.execute('DELETE FROM rate_limits WHERE "window" < %s', [window - 1])
            row = conn.execute(
                """INSERT INTO rate_limits (client, action, "window", count) VALUES (%s, %s, %s, 1)
                   ON CONFLICT (client, action, "window") DO UPDATE SET count = rate_limits.count + 1
                   RETURNING count""",
                [client, action, window],
            ).fetchone()
        return row[0]

    def size(self) -> int:
        """The database's size in bytes."""
        with self.pool.connection() as conn:
            return conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]

    # -- seats ----------------------------------------------------------------------
    def take_seat(self, gid: str, phone: str, player: str | None) -> None:
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("DELETE FROM seats WHERE game_id = %s AND phone = %s", [gid, phone])
            if player:
                conn.execute("INSERT INTO seats (game_id, phone, player) VALUES (%s, %s, %s)", [gid, phone, player])
            conn.execute("SELECT pg_notify(%s, %s)", [NOTIFY_CHANNEL, f"{gid} seats"])  # sent on commit

    def seats_taken(self, gid: str) -> set[str]:
        with self.pool.connection() as conn:
            return {r[0] for r in conn.execute("SELECT DISTINCT player FROM seats WHERE game_id = %s", [gid])}

    # -- the log --------------------------------------------------------------------
    def rows(self, gid: str, after: int = 0, upto: int | None = None) -> list[tuple]:
        """(seq, event text, token, created) of the rows after ``after`` (up to ``upto``), in order."""
        with self.pool.connection() as conn:
            return list(
                conn.execute(
                    "SELECT seq, event, token, created FROM events WHERE game_id = %s AND seq > %s AND seq <= %s"
                    " ORDER BY seq",
                    [gid, after, 2**31 - 1 if upto is None else upto],
                )
            )

    # -- saved states (a cache of the log's replay: assistant/log/saved.py) ----------
    def saved_state(self, gid: str, version: str, upto: int, events: int) -> tuple[int, bytes] | None:
        """(seq, data) of the latest state saved by ``version`` at or before row ``upto`` with at
        most ``events`` events in effect, or None."""
        with self.pool.connection() as conn:
            row = conn.execute(
                "SELECT seq, data FROM saved_states WHERE game_id = %s AND version = %s AND seq <= %s"
                " AND events <= %s ORDER BY seq DESC LIMIT 1",
                [gid, version, upto, events],
            ).fetchone()
        return None if row is None else (row[0], bytes(row[1]))

    def saved_states_of(self, version: str) -> list[tuple[str, int, bytes]]:
        """(game id, row, data) of every state saved by ``version`` (check-db, copy-db)."""
        with self.pool.connection() as conn:
            rows = conn.execute(
                "SELECT game_id, seq, data FROM saved_states WHERE version = %s ORDER BY game_id, seq", [version]
            ).fetchall()
        return [(gid, seq, bytes(data)) for gid, seq, data in rows]

    def save_states(self, gid: str, version: str, states: list[tuple[int, int, bytes]], created: str) -> None:
        """Keep the states (row, events in effect, data), in one transaction (one already saved at a
        row stays); the states saved by other versions go."""
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("DELETE FROM saved_states WHERE game_id = %s AND version <> %s", [gid, version])
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO saved_states (game_id, version, seq, events, data, created)"
                    " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                    [[gid, version, seq, events, data, created] for seq, events, data in states],
                )

    def seq(self, gid: str) -> int:
        with self.pool.connection() as conn:
            return conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = %s", [gid]).fetchone()[0]

    def token_seq(self, gid: str, token: str) -> int | None:
        with self.pool.connection() as conn:
            row = conn.execute("SELECT seq FROM events WHERE game_id = %s AND token = %s", [gid, token]).fetchone()
        return None if row is None else row[0]

    def append(self, gid: str, expected: int, event_text: str, token: str | None, created: str) -> tuple[str, int]:
        """Insert row ``expected + 1`` if ``expected`` is the game's seq.

        Returns ("written", seq), ("token", the seq the token's event produced) or ("stale", current).
        """
        try:
            with self.pool.connection() as conn, conn.transaction():
                if token is not None:
                    row = conn.execute(
                        "SELECT seq FROM events WHERE game_id = %s AND token = %s", [gid, token]
                    ).fetchone()
                    if row is not None:
                        return "token", row[0]
                current = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = %s", [gid]).fetchone()[
                    0
                ]
                if current != expected:
                    return "stale", current
                conn.execute(
                    "INSERT INTO events (game_id, seq, event, token, created) VALUES (%s, %s, %s, %s, %s)",
                    [gid, expected + 1, event_text, token, created],
                )
                # every server's streams hear of it once the row is committed (assistant/web/stream.py)
                conn.execute("SELECT pg_notify(%s, %s)", [NOTIFY_CHANNEL, f"{gid} {expected + 1}"])
                return "written", expected + 1
        except pgerrors.UniqueViolation:
            # another server wrote this seq (or this token) first: what it wrote decides
            if token is not None:
                earlier = self.token_seq(gid, token)
                if earlier is not None:
                    return "token", earlier
            return "stale", self.seq(gid)
