"""Which games changed, as the streams' waker asks each backend (assistant/store/feeds.py): a log
change as (game, its latest row), a change of the seats as (game, None), each reported once; the
games a poll asked about, read in the same snapshot (SQLite); the current rows of games; whether the
file is still the one served.  Real stores: an SQLite file, and a PostgreSQL database (LISTEN)."""

from __future__ import annotations

import os
import sqlite3

import pytest

from assistant.store import Store
from assistant.store.feeds import SQLiteFeed, _by_500, parse_note
from assistant.store.sqlite import file_ident

PLAYERS = ["Amy", "Brian", "Crystal"]


def _reveal(store, gid, times):
    for _ in range(times):
        seq, game = store.state(gid)
        store.append(gid, seq, {"type": "reveal", "company": game.next["choices"][0]})


@pytest.fixture
def sqlite_store(tmp_path):
    store = Store(str(tmp_path / "feed.sqlite3"))
    yield store
    store.close()


def test_each_change_is_reported_once_with_the_games_latest_row(sqlite_store):
    store = sqlite_store
    old = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    _reveal(store, old, 2)
    store.take_seat(old, "phone-1", "Amy")
    feed = store.backend.change_feed(5.0)
    assert not feed.is_open
    feed.open()
    assert feed.is_open
    assert feed.wait(0, list) == ([], [])  # what was there before it opened is no change
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    assert feed.wait(0, list) == ([], [])  # a new game has no row yet
    _reveal(store, gid, 2)
    assert feed.wait(0, list) == ([(gid, 2)], [])  # two rows: one change, the latest
    assert feed.wait(0, list) == ([], [])
    store.take_seat(gid, "phone-1", "Brian")
    assert feed.wait(0, list) == ([(gid, None)], [])
    store.take_seat(gid, "phone-1", None)  # a seat let go: a change too
    assert feed.wait(0, list) == ([(gid, None)], [])
    _reveal(store, old, 1)
    store.take_seat(old, "phone-2", "Brian")
    _reveal(store, gid, 1)
    changes, found = feed.wait(0, list)
    assert sorted(changes, key=str) == sorted([(old, 3), (old, None), (gid, 3)], key=str)
    assert found == []
    assert feed.wait(0, list) == ([], [])
    conn = feed.conn
    feed.close()
    assert not feed.is_open
    with pytest.raises(sqlite3.ProgrammingError):  # let go
        conn.execute("SELECT 1")
    feed.close()  # twice is nothing
    assert not feed.is_open


def test_the_games_a_poll_asked_about_are_read_with_the_changes(sqlite_store):
    store = sqlite_store
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    fresh = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    _reveal(store, gid, 2)
    feed = store.backend.change_feed(5.0)
    feed.open()
    _reveal(store, gid, 1)
    changes, found = feed.wait(0, lambda: [gid, fresh, "no-such-game"])
    assert changes == [(gid, 3)]
    assert sorted(found) == sorted([(gid, 3), (fresh, 0)])  # a game not there: not said
    assert feed.seqs([gid, fresh, "no-such-game"]) == [(gid, 3)]  # only games with rows
    assert feed.seqs([]) == []
    feed.close()


def test_the_feed_only_reads(sqlite_store):
    store = sqlite_store
    store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    feed = store.backend.change_feed(5.0)
    feed.open()
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        feed.conn.execute("DELETE FROM games")
    feed.close()


def test_games_are_asked_about_500_at_a_time():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (x TEXT)")
    names = [f"g{n}" for n in range(1001)]
    conn.executemany("INSERT INTO t VALUES (?)", [(n,) for n in names])
    asked = []
    conn.set_trace_callback(asked.append)
    rows = _by_500(conn, "SELECT x FROM t WHERE x IN ({})", names)
    assert sorted(x for (x,) in rows) == sorted(names)  # each once
    assert [q.count("'g") for q in asked] == [500, 500, 1]
    assert _by_500(conn, "SELECT x FROM t WHERE x IN ({})", []) == []
    conn.close()


def test_the_file_is_still_the_one_served_until_it_is_deleted_or_replaced(tmp_path):
    path = tmp_path / "served.sqlite3"
    sqlite3.connect(path).close()
    feed = SQLiteFeed(str(path), file_ident(str(path)), file_ident)
    assert feed.still_served()
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).close()
    os.replace(other, path)
    assert not feed.still_served()
    os.remove(path)
    assert not feed.still_served()
    # not told which file: the one there when first asked
    sqlite3.connect(path).close()
    first = SQLiteFeed(str(path), None, file_ident)
    assert first.still_served()
    assert first.served == file_ident(str(path))
    sqlite3.connect(other).close()
    os.replace(other, path)
    assert not first.still_served()


def test_a_note_names_a_game_and_its_latest_row_or_its_seats():
    assert parse_note("g1 12") == ("g1", 12)
    assert parse_note("g1 0") == ("g1", 0)
    assert parse_note("g1 seats") == ("g1", None)
    for payload in ("g1", "g1 ", "g1 -1", "g1 1.5", "g1 Seats", "g1 1 2", ""):
        assert parse_note(payload) is None, payload


def test_postgresql_changes_come_as_notes_each_waking_the_feed_at_once(pg_url):
    store = Store(pg_url)
    try:
        gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
        quiet = store.backend.change_feed(0.2)
        quiet.open()
        assert quiet.wait(0, list) == ([], [])  # none within the beat
        quiet.close()
        # a beat of a minute: a note wakes the feed at once, not at the beat's end
        feed = store.backend.change_feed(60.0)
        assert not feed.is_open and not feed.answers_polls
        feed.open()
        assert feed.is_open
        _reveal(store, gid, 1)
        assert feed.wait(0, list) == ([(gid, 1)], [])
        store.take_seat(gid, "phone-1", "Amy")
        assert feed.wait(0, list) == ([(gid, None)], [])
        assert feed.seqs([gid, "no-such-game"]) == [(gid, 1)]
        assert feed.still_served()
        conn = feed.conn
        feed.close()
        assert conn.closed
        assert not feed.is_open
        feed.close()
    finally:
        store.close()


def test_a_postgresql_feed_whose_connection_is_lost_closes(pg_url):
    store = Store(pg_url)
    try:
        feed = store.backend.change_feed(0.2)
        feed.open()
        feed.conn.close()
        feed.close()  # a connection already lost: let go all the same
        assert not feed.is_open
    finally:
        store.close()
