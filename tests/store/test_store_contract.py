"""The store's contract, the same on both stores: SQLite (one file) and PostgreSQL (several app
servers on one database).  Exactly one event per seq, idempotent tokens, refusals that write
nothing, undo, the meanwhile list of a stale post, export and import, seats, resumed games, and
caches that stay right when another process (or server) writes; and the same for a game of every
ruleset the assistant plays (tests/rulesets.py)."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from assistant.store import DatabaseDamaged, DatabaseUnavailable, NotFound, Refused, Stale, Store, StoreError
from tests import rulesets
from tests.project_games import played_game

PLAYERS = ["Amy", "Brian", "Crystal"]


@pytest.fixture
def store(store_target):
    s = Store(store_target)
    yield s
    s.close()


def _game(store, n: int) -> tuple[str, list[dict]]:
    """A new game of the project's played game's players, and its first ``n`` events."""
    data = played_game(limit=n)
    return store.create_game(data["players"], ruleset="rolling-stock-stars"), data["events"]


def test_events_are_appended_once_per_seq_and_tokens_make_retries_safe(store):
    gid, events = _game(store, 12)
    for seq, event in enumerate(events[:6]):
        assert store.append(gid, seq, event, token=f"t{seq}") == seq + 1
    assert store.append(gid, 5, events[5], token="t5") == 6  # a retry: the first answer, nothing written
    with pytest.raises(Stale):
        store.append(gid, 5, events[6])
    with pytest.raises(Stale):
        store.append(gid, 9, events[6])  # ahead of the game
    assert store.seq(gid) == 6 and store.events(gid) == events[:6]


def test_a_refusal_writes_nothing_and_undo_takes_back_the_latest_event(store):
    gid, events = _game(store, 8)
    for seq, event in enumerate(events[:5]):
        store.append(gid, seq, event)
    with pytest.raises(Refused):
        store.append(gid, 5, {"type": "bid", "player": "Nobody", "company": "BME", "price": 1})
    assert store.seq(gid) == 5
    store.append(gid, 5, {"type": "undo"})
    assert store.events(gid) == events[:4] and store.state(gid)[0] == 6
    changes = store.changes_since(gid, 4)
    assert changes[-1].startswith("Undone: ")


def test_export_and_import_give_the_same_game(store):
    data = played_game(limit=80)
    gid = store.import_transcript(data)
    exported = store.export(gid)
    assert exported["events"] == [e for e in data["events"] if e.get("type") != "expect"]
    again = store.import_transcript(exported)
    assert store.state(again)[1].snapshot() == store.state(gid)[1].snapshot()
    with pytest.raises(NotFound):
        store.get_game("no-such-game")


def test_seats_are_kept_per_game_and_phone(store):
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    store.take_seat(gid, "phone-1", "Amy")
    store.take_seat(gid, "phone-2", "Brian")
    store.take_seat(gid, "phone-2", None)
    assert store.seats_taken(gid) == {"Amy"}


def test_ten_threads_posting_the_same_seq_give_exactly_one_winner(store):
    gid, events = _game(store, 1)
    event = events[0]
    results: list = []

    def post(n):
        try:
            results.append(store.append(gid, 0, event, token=f"p{n}"))
        except Stale as err:
            results.append(err)

    threads = [threading.Thread(target=post, args=(n,)) for n in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r for r in results if isinstance(r, int)) == [1]
    assert store.seq(gid) == 1


def test_a_second_store_on_the_same_database_sees_every_change_and_its_cache_stays_right(store_target):
    """Two processes (or two servers on one PostgreSQL): each has its own cache."""
    one, two = Store(store_target), Store(store_target)
    try:
        gid, events = _game(one, 10)
        for seq, event in enumerate(events[:4]):
            one.append(gid, seq, event)
        assert two.state(gid)[1].snapshot() == one.state(gid)[1].snapshot()  # two caches it at seq 4
        two.append(gid, 4, events[4])
        one.append(gid, 5, events[5])  # one's cache is behind: it catches up, then writes
        two.append(gid, 6, {"type": "undo"})
        assert one.seq(gid) == two.seq(gid) == 7
        assert one.state(gid)[1].snapshot() == two.state(gid)[1].snapshot()
        assert one.export(gid) == two.export(gid)
    finally:
        one.close()
        two.close()


def test_counts_of_new_games_are_per_client_and_window_and_the_size_is_known(store):
    tables = store.backend
    assert [tables.count_action("10.0.0.5", "new_game", 100) for _ in range(3)] == [1, 2, 3]
    assert tables.count_action("10.0.0.6", "new_game", 100) == 1
    assert tables.count_action("10.0.0.5", "new_game", 101) == 1  # the next window counts afresh
    assert tables.count_action("10.0.0.5", "new_game", 103) == 1  # and older windows are dropped
    assert tables.count_action("10.0.0.5", "new_game", 100) == 1
    assert tables.size() > 0


def test_same_seq_writes_race_at_the_tables_and_exactly_one_wins_each_round(pg_url):
    """The (game_id, seq) key is PostgreSQL's writers' lock: ten connections, released together,
    each try to write the same row, round after round; exactly one is written each time, the others
    are told the game moved on (without the key, two transactions that both read the same highest
    seq would both insert the next)."""
    from assistant.store.postgres import PostgresBackend

    store = Store(pg_url)
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    writers = [PostgresBackend(pg_url) for _ in range(10)]
    rounds = 40
    try:
        for seq in range(rounds):
            answers = [None] * len(writers)
            start = threading.Barrier(len(writers))

            def write(n, seq=seq, answers=answers, start=start):
                start.wait()
                answers[n] = writers[n].append(gid, seq, f'{{"type": "pass", "n": {n}}}', None, "t")

            threads = [threading.Thread(target=write, args=(n,)) for n in range(len(writers))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(status for status, _ in answers) == ["stale"] * 9 + ["written"], (seq, answers)
        seqs = [row[0] for row in writers[0].rows(gid, 0, None)]
        assert seqs == list(range(1, rounds + 1)), "one row per seq, none twice"
    finally:
        for w in writers:
            w.close()
        store.close()


def _drop_the_events_table(target: str) -> None:
    """Damage the database under the store, from outside it (a separate connection)."""
    if target.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(target, autocommit=True) as conn:
            conn.execute("DROP TABLE events CASCADE")
    else:
        conn = sqlite3.connect(target)
        conn.execute("DROP TABLE events")
        conn.commit()
        conn.close()


def test_a_database_that_fails_under_the_store_raises_the_stores_own_error(store, store_target):
    """Whatever the backend, the callers see a StoreError with a message a person can act on, never
    the database driver's own exception (sqlite3.OperationalError, psycopg.errors.UndefinedTable)."""
    gid, events = _game(store, 3)
    store.append(gid, 0, events[0])
    _drop_the_events_table(store_target)
    with pytest.raises(StoreError) as caught:
        store.append(gid, 1, events[1])
    err = caught.value
    assert isinstance(err, (DatabaseDamaged, DatabaseUnavailable)), type(err)
    assert "database" in err.message and err.message.endswith((".", ")."))
    assert type(err).__module__ == "assistant.store.errors"


# ------------------------------------------------------------------ every game the assistant plays
def test_every_game_is_kept_entry_by_entry_exported_imported_and_served_again(store_target, every_ruleset):
    """The contract for each registered ruleset and the example fourth game (tests/rulesets.py): a
    game of it created through the store, its first 30 events from a table's menu (the example's
    whole game is shorter) appended one by one."""
    ruleset = every_ruleset
    players = rulesets.players_for(ruleset)
    events = rulesets.playout(ruleset, players, 30)
    count = len(events)
    assert count >= 20
    store = Store(store_target)
    try:
        gid = store.create_game(players, ruleset=ruleset.key)
        assert store.seq(gid) == 0 and store.get_game(gid).ruleset == ruleset.key
        for n, event in enumerate(events):
            assert store.append(gid, n, event, token=f"entry-{n}") == n + 1  # exactly one row per event
        assert store.append(gid, count - 1, events[-1], token=f"entry-{count - 1}") == count  # a retry
        with pytest.raises(Stale):
            store.append(gid, count - 1, events[-1])  # the same seq again, without the token
        with pytest.raises(Refused) as refused:
            store.append(gid, count, {"type": "pass", "player": "Nobody"})
        assert refused.value.message  # in words, for the table
        assert store.seq(gid) == count and store.events(gid) == events  # nothing written by either
        # undo takes back the latest event, redo brings it back: a row each
        assert store.append(gid, count, {"type": "undo"}) == count + 1
        assert store.events(gid) == events[:-1]
        assert store.append(gid, count + 1, {"type": "redo"}) == count + 2
        assert store.events(gid) == events
        exported = store.export(gid)
        assert exported["game"] == ruleset.key and exported["players"] == players
        # as they were sent, the undone and restored one once, and the done of a phase that ended
        # by itself (nobody could act in it) written back
        rulesets.written_back(exported["events"], events)
        again = store.import_transcript(exported)
        assert store.get_game(again).ruleset == ruleset.key
        assert store.seq(again) == count and store.events(again) == events
        snapshot = store.state(gid)[1].snapshot()
    finally:
        store.close()
    fresh = Store(store_target)  # another process, or a server restarted, on the same database
    try:
        assert fresh.get_game(gid).ruleset == ruleset.key
        assert fresh.seq(gid) == count + 2 and fresh.events(gid) == events
        seq, game = fresh.state(gid)
        assert seq == count + 2 and game.ruleset.key == ruleset.key
        assert game.snapshot() == snapshot
        assert fresh.export(gid) == exported
    finally:
        fresh.close()
