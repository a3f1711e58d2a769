"""The PostgreSQL store's backend (assistant/store/postgres.py) on a real, throw-away database
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
def backend(pg_url):
    backend = PostgresBackend(pg_url)
    backend.migrate()
    yield backend
    backend.close()


def _game(backend, gid="g1", created="2026-01-01") -> None:
    backend.insert_game({"id": gid, "players": "[]", "options": "[]", "created": created, "game": "x"})


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


def test_a_failure_of_the_server_is_said_plainly(backend):
    err = backend.translate(psycopg.OperationalError("connection refused"))
    assert isinstance(err, DatabaseUnavailable)
    assert err.message == (
        "The table's database server cannot be reached right now (OperationalError). Try again in a moment."
    )


# -- the backend ------------------------------------------------------------------------------------------------


def test_games_are_inserted_with_their_first_events_listed_and_counted(backend):
    events = [{"game_id": "b", "seq": s, "event": "{}", "token": f"t{s}", "created": "t"} for s in (1, 2)]
    backend.insert_game({"id": "b", "players": '["A"]', "options": "[]", "created": "2026-01-02", "game": "x"}, events)
    _game(backend, "c", "2026-01-01")
    _game(backend, "a", "2026-01-02")
    assert backend.game_ids() == ["c", "a", "b"]
    assert backend.counts() == (3, 2)
    assert backend.game_row("b")["players"] == '["A"]' and backend.game_row("none") is None
    assert backend.rows("b") == [(1, "{}", "t1", "t"), (2, "{}", "t2", "t")]


def test_counts_are_per_client_action_and_window_and_only_the_last_two_windows_kept(backend, pg_url):
    assert [backend.count_action("c", "new_game", 10) for _ in range(2)] == [1, 2]
    assert backend.count_action("c", "import", 10) == 1 and backend.count_action("d", "new_game", 10) == 1
    assert backend.count_action("c", "new_game", 11) == 1
    assert sorted(r[0] for r in _sql(pg_url, 'SELECT DISTINCT "window" FROM rate_limits')) == [10, 11]
    assert backend.count_action("c", "new_game", 12) == 1
    assert sorted(r[0] for r in _sql(pg_url, 'SELECT DISTINCT "window" FROM rate_limits')) == [11, 12]


def test_the_size_is_the_databases_and_a_games_bytes_its_rows_and_states(backend, pg_url):
    assert backend.size() == _sql(pg_url, "SELECT pg_database_size(current_database())")[0][0] > 0
    assert backend.used() == backend.size()
    _game(backend)
    _game(backend, "g2")
    assert backend.game_bytes("g1") == 0
    backend.append("g1", 0, '{"é": 1}', None, "t")  # 8 characters, 9 bytes (é is two)
    backend.append("g2", 0, "{}", None, "t")
    backend.save_states("g1", "v1", [(1, 1, b"abcd")], "t")
    assert backend.game_bytes("g1") == 9 + 4


def test_a_seat_change_is_said_to_the_streams_and_leaving_frees_the_seat(backend, pg_url):
    _game(backend)
    with psycopg.connect(pg_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        backend.take_seat("g1", "phone-1", "Amy")
        backend.take_seat("g1", "phone-2", "Bo")
        backend.take_seat("g1", "phone-1", "")  # phone 1 leaves
        heard = [n.payload for n in listener.notifies(timeout=5, stop_after=3)]
    assert heard == ["g1 seats"] * 3
    assert backend.seats_taken("g1") == {"Bo"} and backend.seats_taken("g2") == set()
    assert _sql(pg_url, "SELECT phone, player FROM seats") == [("phone-2", "Bo")]


def test_appending_writes_the_next_row_once_per_seq_and_token_and_says_so(backend, pg_url):
    _game(backend)
    with psycopg.connect(pg_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        assert backend.append("g1", 0, "{}", "tok", "t") == ("written", 1)
        assert backend.append("g1", 0, "{}", None, "t") == ("stale", 1)
        assert backend.append("g1", 5, "{}", "other", "t") == ("stale", 1)
        assert backend.append("g1", 1, "{}", "tok", "t") == ("token", 1)  # the token's row, whatever the seq
        assert backend.append("g1", 1, "{}", None, "t") == ("written", 2)
        assert backend.append("g1", 0, "{}", "tok", "t") == ("token", 1)  # a retry after another row
        heard = [n.payload for n in listener.notifies(timeout=5, stop_after=2)]
    assert heard == ["g1 1", "g1 2"]  # only the rows written
    assert backend.seq("g1") == 2 and backend.seq("none") == 0
    assert backend.token_seq("g1", "tok") == 1 and backend.token_seq("g1", "nope") is None
    assert backend.rows("g1", 1) == [(2, "{}", None, "t")]


def _waits_on_a_lock(url) -> bool:
    q = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
    return _sql(url, q)[0][0] > 0


@pytest.mark.parametrize(
    "ours, theirs, answer",
    [(None, None, ("stale", 2)), ("mine", None, ("stale", 2)), ("mine", "mine", ("token", 2))],
)
def test_a_write_another_server_wins_at_the_key_answers_with_what_that_server_wrote(
    backend, pg_url, ours, theirs, answer
):
    """Another server inserts row 2 first and commits while this one waits on the key: this write
    loses at the primary key, and answers with the other's row: stale, or (the same token sent to
    both, a retry) the row that token made."""
    import threading
    import time

    _game(backend)
    backend.append("g1", 0, "{}", None, "t")
    other = psycopg.connect(pg_url)  # its transaction left open: the row not committed yet
    other.execute("INSERT INTO events (game_id, seq, event, token, created) VALUES ('g1', 2, '{}', %s, 'x')", [theirs])
    result = []
    writer = threading.Thread(target=lambda: result.append(backend.append("g1", 1, "{}", ours, "t")))
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
    assert backend.rows("g1", 1) == [(2, "{}", theirs, "x")]


def test_without_an_upper_row_every_row_is_read_up_to_the_largest_seq_a_column_holds(backend, pg_url):
    _game(backend)
    backend.append("g1", 0, "{}", None, "t")
    _sql(pg_url, "INSERT INTO events (game_id, seq, event, created) VALUES ('g1', 2147483647, '[]', 't')")  # 2**31 - 1
    assert [r[0] for r in backend.rows("g1")] == [1, 2147483647]


def test_a_request_waits_for_a_connection_less_than_its_deadline(backend):
    """With the server out of reach, the pool's wait ends in the store's 503 before the request's
    deadline (RSS_REQUEST_SECONDS, 10 s) would: psycopg_pool's own default is 30 s."""
    from assistant.store import settings

    assert 0 < backend.pool.timeout < settings.get("RSS_REQUEST_SECONDS")
