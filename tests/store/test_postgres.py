"""The PostgreSQL store's tables (assistant/store/postgres.py) on a real, throw-away database
(tests/pgcluster.py; skipped where PostgreSQL cannot run): the schema's steps as SQL, written out by
hand, each table's reads and writes, the notifications the streams wait for, and a write that loses
a race at the primary key."""

from __future__ import annotations

import psycopg
import pytest

from assistant.store import schema
from assistant.store.errors import DatabaseUnavailable
from assistant.store.postgres import NOTIFY_CHANNEL, PostgresBackend, _q, pool_size, statements


@pytest.fixture
def tables(pg_url):
    backend = PostgresBackend(pg_url)
    backend.migrate()
    yield backend
    backend.close()


def _game(tables, gid="g1", created="2026-01-01") -> None:
    tables.insert_game({"id": gid, "players": "[]", "options": "[]", "created": created, "game": "x"})


def _sql(url, query, *args):
    with psycopg.connect(url, autocommit=True) as conn:
        cur = conn.execute(query, args)
        return cur.fetchall() if query.lstrip().upper().startswith("SELECT") else None


# -- the schema's steps as PostgreSQL's SQL ------------------------------------------------------------------


def test_each_operation_is_one_statement_harmless_where_done_already():
    table = schema.CreateTable(
        "saved",
        (
            schema.Column("gid", schema.TEXT),
            schema.Column("n", schema.INTEGER, True),
            schema.Column("data", schema.BLOB),
        ),
        key=("gid",),
        references=(("gid", "games", "id"),),
    )
    assert statements(table) == [
        (
            'CREATE TABLE IF NOT EXISTS "saved" ("gid" text NOT NULL REFERENCES "games" ("id"), '
            '"n" integer NOT NULL, "data" bytea, PRIMARY KEY ("gid"))',
            [],
        )
    ]
    assert statements(schema.AddColumn("games", schema.Column("edition", schema.INTEGER))) == [
        ('ALTER TABLE "games" ADD COLUMN IF NOT EXISTS "edition" integer', [])
    ]
    assert statements(schema.CreateIndex("i", "t", ("a", "b"))) == [
        ('CREATE INDEX IF NOT EXISTS "i" ON "t" ("a", "b")', [])
    ]
    assert statements(schema.CreateIndex("u", "t", ("a",), unique=True, where="a IS NOT NULL")) == [
        ('CREATE UNIQUE INDEX IF NOT EXISTS "u" ON "t" ("a") WHERE a IS NOT NULL', [])
    ]
    assert statements(schema.Fill("games", "edition", 1)) == [
        ('UPDATE "games" SET "edition" = %s WHERE "edition" IS NULL', [1])
    ]
    assert _q("window") == '"window"'
    with pytest.raises(TypeError, match="no PostgreSQL for the schema operation 'drop everything'"):
        statements("drop everything")


def test_the_steps_are_applied_once_and_named_in_their_order(pg_url):
    backend = PostgresBackend(pg_url)
    try:
        assert backend.migrate() == list(schema.MIGRATION_NAMES)
        assert backend.migrate() == []
        _sql(pg_url, "INSERT INTO rss_migrations (name, applied) VALUES ('zz_later', 'x'), ('aa_later', 'x')")
        assert backend.applied() == [*schema.MIGRATION_NAMES, "aa_later", "zz_later"]
        assert backend.migrate() == []
    finally:
        backend.close()


def test_a_database_with_the_first_steps_gets_only_the_later_ones(pg_url):
    first = schema.STEPS[0]
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE rss_migrations (name text PRIMARY KEY, applied text)")
        for op in first.operations:
            for sql, params in statements(op):
                conn.execute(sql, params)
        conn.execute("INSERT INTO rss_migrations VALUES (%s, 'then')", [first.name])
        conn.execute("INSERT INTO games (id, players, options, created) VALUES ('old', '[]', '[]', 'then')")
    backend = PostgresBackend(pg_url)
    try:
        assert backend.migrate() == list(schema.MIGRATION_NAMES[1:])
        row = backend.game_row("old")
        assert (row["game"], row["edition"], row["persons"]) == ("rolling-stock-stars", 1, None)
    finally:
        backend.close()


# -- what differs for a database on a server ---------------------------------------------------------------


def test_a_database_on_a_server_is_named_by_its_url_and_has_no_file(pg_url, monkeypatch):
    assert PostgresBackend.where("postgresql://amy@db/games") == "postgresql://amy@db/games"
    assert PostgresBackend.prepare("postgresql://amy@db/games") is None
    assert PostgresBackend.start_ident("postgresql://amy@db/games") is None
    assert PostgresBackend.remember("postgresql://amy@db/games", "/srv/instance") is None
    assert PostgresBackend.restore_advice("postgresql://amy@db/games") == ""
    assert (PostgresBackend.on_disk, PostgresBackend.kind) == (False, "postgresql")
    assert PostgresBackend.inspect(pg_url).games == 0
    assert PostgresBackend.check_before_start(pg_url, None, True).problems == []
    monkeypatch.setenv("RSS_PG_POOL", "3")
    assert pool_size() == 3
    backend = PostgresBackend(pg_url)
    try:
        assert (backend.pool.min_size, backend.pool.max_size, backend.pool.name) == (1, 3, "rss")
        with backend.pool.connection() as conn:
            assert conn.autocommit is True
        feed = backend.change_feed(0.25)
        assert (feed.url, feed.channel, feed.beat) == (pg_url, NOTIFY_CHANNEL, 0.25)
    finally:
        backend.close()


def test_a_failure_of_the_server_is_said_plainly(tables):
    err = tables.translate(psycopg.OperationalError("connection refused"))
    assert isinstance(err, DatabaseUnavailable)
    assert err.message == (
        "The table's database server cannot be reached right now (OperationalError). Try again in a moment."
    )


# -- the tables ------------------------------------------------------------------------------------------------


def test_games_are_inserted_with_their_first_events_listed_and_counted(tables):
    events = [{"game_id": "b", "seq": s, "event": "{}", "token": f"t{s}", "created": "t"} for s in (1, 2)]
    tables.insert_game({"id": "b", "players": '["A"]', "options": "[]", "created": "2026-01-02", "game": "x"}, events)
    _game(tables, "c", "2026-01-01")
    _game(tables, "a", "2026-01-02")
    assert tables.game_ids() == ["c", "a", "b"]
    assert tables.counts() == (3, 2)
    assert tables.game_row("b")["players"] == '["A"]' and tables.game_row("none") is None
    assert tables.rows("b") == [(1, "{}", "t1", "t"), (2, "{}", "t2", "t")]


def test_counts_are_per_client_action_and_window_and_only_the_last_two_windows_kept(tables, pg_url):
    assert [tables.count_action("c", "new_game", 10) for _ in range(2)] == [1, 2]
    assert tables.count_action("c", "import", 10) == 1 and tables.count_action("d", "new_game", 10) == 1
    assert tables.count_action("c", "new_game", 11) == 1
    assert sorted(r[0] for r in _sql(pg_url, 'SELECT DISTINCT "window" FROM rate_limits')) == [10, 11]
    assert tables.count_action("c", "new_game", 12) == 1
    assert sorted(r[0] for r in _sql(pg_url, 'SELECT DISTINCT "window" FROM rate_limits')) == [11, 12]


def test_the_size_is_the_databases_and_a_games_bytes_its_rows_and_states(tables, pg_url):
    assert tables.size() == _sql(pg_url, "SELECT pg_database_size(current_database())")[0][0] > 0
    assert tables.used() == tables.size()
    _game(tables)
    _game(tables, "g2")
    assert tables.game_bytes("g1") == 0
    tables.append("g1", 0, '{"é": 1}', None, "t")  # 8 characters, 9 bytes (é is two)
    tables.append("g2", 0, "{}", None, "t")
    tables.save_states("g1", "v1", [(1, 1, b"abcd")], "t")
    assert tables.game_bytes("g1") == 9 + 4


def test_a_seat_change_is_said_to_the_streams_and_leaving_frees_the_seat(tables, pg_url):
    _game(tables)
    with psycopg.connect(pg_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        tables.take_seat("g1", "phone-1", "Amy")
        tables.take_seat("g1", "phone-2", "Bo")
        tables.take_seat("g1", "phone-1", "")  # phone 1 leaves
        heard = [n.payload for n in listener.notifies(timeout=5, stop_after=3)]
    assert heard == ["g1 seats"] * 3
    assert tables.seats_taken("g1") == {"Bo"} and tables.seats_taken("g2") == set()
    assert _sql(pg_url, "SELECT phone, player FROM seats") == [("phone-2", "Bo")]


def test_rows_are_read_after_one_row_and_up_to_another(tables):
    _game(tables)
    for seq in range(4):
        tables.append("g1", seq, f'{{"n": {seq + 1}}}', f"t{seq + 1}" if seq % 2 else None, f"at {seq + 1}")
    assert [r[0] for r in tables.rows("g1")] == [1, 2, 3, 4]
    assert tables.rows("g1", 1, 3) == [(2, '{"n": 2}', "t2", "at 2"), (3, '{"n": 3}', None, "at 3")]
    assert tables.rows("g1", 3) == [(4, '{"n": 4}', "t4", "at 4")]
    assert tables.rows("g1", 0, 0) == [] and tables.rows("other") == []


def test_appending_writes_the_next_row_once_per_seq_and_token_and_says_so(tables, pg_url):
    _game(tables)
    with psycopg.connect(pg_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        assert tables.append("g1", 0, "{}", "tok", "t") == ("written", 1)
        assert tables.append("g1", 0, "{}", None, "t") == ("stale", 1)
        assert tables.append("g1", 5, "{}", "other", "t") == ("stale", 1)
        assert tables.append("g1", 1, "{}", "tok", "t") == ("token", 1)  # the token's row, whatever the seq
        assert tables.append("g1", 1, "{}", None, "t") == ("written", 2)
        assert tables.append("g1", 0, "{}", "tok", "t") == ("token", 1)  # a retry after another row
        heard = [n.payload for n in listener.notifies(timeout=5, stop_after=2)]
    assert heard == ["g1 1", "g1 2"]  # only the rows written
    assert tables.seq("g1") == 2 and tables.seq("none") == 0
    assert tables.token_seq("g1", "tok") == 1 and tables.token_seq("g1", "nope") is None
    assert tables.rows("g1", 1) == [(2, "{}", None, "t")]


def _waits_on_a_lock(url) -> bool:
    q = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
    return _sql(url, q)[0][0] > 0


@pytest.mark.parametrize(
    "ours, theirs, answer",
    [(None, None, ("stale", 2)), ("mine", None, ("stale", 2)), ("mine", "mine", ("token", 2))],
)
def test_a_write_another_server_wins_at_the_key_answers_with_what_that_server_wrote(
    tables, pg_url, ours, theirs, answer
):
    """Another server inserts row 2 first and commits while this one waits on the key: this write
    loses at the primary key, and answers with the other's row: stale, or (the same token sent to
    both, a retry) the row that token made."""
    import threading
    import time

    _game(tables)
    tables.append("g1", 0, "{}", None, "t")
    other = psycopg.connect(pg_url)  # its transaction left open: the row not committed yet
    other.execute("INSERT INTO events (game_id, seq, event, token, created) VALUES ('g1', 2, '{}', %s, 'x')", [theirs])
    result = []
    writer = threading.Thread(target=lambda: result.append(tables.append("g1", 1, "{}", ours, "t")))
    writer.start()
    for _ in range(6000):  # until the writer waits on the other's row (nothing is asserted of the time)
        if _waits_on_a_lock(pg_url):
            break
        time.sleep(0.01)
    else:
        pytest.fail("the write never reached the other's row")
    other.commit()
    other.close()
    writer.join()
    assert result == [answer]
    assert tables.rows("g1", 1) == [(2, "{}", theirs, "x")]


def test_saved_states_the_latest_that_fits_and_only_the_latest_versions(tables):
    _game(tables)
    _game(tables, "g2")
    tables.save_states("g1", "v1", [(10, 8, b"ten"), (20, 15, b"twenty")], "t")
    tables.save_states("g2", "v1", [(5, 5, b"five")], "t")
    assert tables.saved_state("g1", "v1", 25, 100) == (20, b"twenty")
    assert tables.saved_state("g1", "v1", 19, 100) == (10, b"ten")  # at or before row 19
    assert tables.saved_state("g1", "v1", 20, 14) == (10, b"ten")  # at most 14 events in effect
    assert tables.saved_state("g1", "v1", 9, 100) is None and tables.saved_state("g1", "v2", 25, 100) is None
    assert tables.saved_states_of("v1") == [("g1", 10, b"ten"), ("g1", 20, b"twenty"), ("g2", 5, b"five")]
    tables.save_states("g1", "v1", [(20, 16, b"again")], "t")  # the same row: written over
    assert tables.saved_state("g1", "v1", 25, 100) == (20, b"again")
    assert tables.saved_state("g1", "v1", 25, 15) == (10, b"ten")  # its events: 16 now
    tables.save_states("g1", "v2", [(30, 20, b"new")], "t")  # another version: v1's go (this game's)
    assert tables.saved_states_of("v1") == [("g2", 5, b"five")]
    assert tables.saved_states_of("v2") == [("g1", 30, b"new")]


def test_without_an_upper_row_every_row_is_read_up_to_the_largest_seq_a_column_holds(tables, pg_url):
    _game(tables)
    tables.append("g1", 0, "{}", None, "t")
    _sql(pg_url, "INSERT INTO events (game_id, seq, event, created) VALUES ('g1', 2147483647, '[]', 't')")  # 2**31 - 1
    assert [r[0] for r in tables.rows("g1")] == [1, 2147483647]
