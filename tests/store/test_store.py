"""The store: append-only log, undo semantics, expected-seq check, tokens, per-instance cache."""

import threading

import pytest

from assistant.store import Refused, Row, Stale, Store, effective_events

PLAYERS = ["Amy", "Brian", "Crystal"]


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "store.sqlite3")


def _setup(store):
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    for seq in range(3):
        _, game = store.state(gid)
        store.append(gid, seq, {"type": "reveal", "company": game.next["choices"][0]})
    return gid


def test_effective_events_apply_undo():
    rows = [
        Row(i + 1, e, None, "")
        for i, e in enumerate(
            [
                {"type": "a"},
                {"type": "b"},
                {"type": "undo"},
                {"type": "c"},
                {"type": "undo"},
                {"type": "undo"},
                {"type": "undo"},
                {"type": "d"},
            ]
        )
    ]
    assert effective_events(rows) == [{"type": "d"}]


def test_refused_event_writes_nothing(db):
    store = Store(db)
    gid = _setup(store)
    with pytest.raises(Refused) as err:
        store.append(gid, 3, {"type": "pass", "player": "Crystal"})
    assert "Amy" in err.value.message
    assert store.seq(gid) == 3 and len(store.rows(gid)) == 3


def test_stale_carries_the_current_seq(db):
    store = Store(db)
    gid = _setup(store)
    with pytest.raises(Stale) as err:
        store.append(gid, 1, {"type": "pass", "player": "Amy"})
    assert (err.value.expected, err.value.current) == (1, 3)


def test_token_makes_append_idempotent(db):
    store = Store(db)
    gid = _setup(store)
    assert store.append(gid, 3, {"type": "pass", "player": "Amy"}, token="k") == 4
    assert store.append(gid, 3, {"type": "pass", "player": "Amy"}, token="k") == 4
    assert store.append(gid, 4, {"type": "pass", "player": "Brian"}, token="other") == 5
    assert [r.token for r in store.rows(gid)][-2:] == ["k", "other"]


def test_undo_is_appended_and_nothing_is_deleted(db):
    store = Store(db)
    gid = _setup(store)
    store.append(gid, 3, {"type": "pass", "player": "Amy"})
    assert store.append(gid, 4, {"type": "undo"}) == 5
    assert len(store.rows(gid)) == 5
    assert len(store.events(gid)) == 3
    assert store.state(gid)[1].next == {"player": "Amy", "for": "investment"}


def test_nothing_to_undo(db):
    store = Store(db)
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    with pytest.raises(Refused):
        store.append(gid, 0, {"type": "undo"})


def test_changes_since_names_events_and_undos(db):
    store = Store(db)
    gid = _setup(store)
    store.append(gid, 3, {"type": "pass", "player": "Amy"})
    store.append(gid, 4, {"type": "undo"})
    changes = store.changes_since(gid, 3)
    assert len(changes) == 2
    assert "Amy" in changes[0] and changes[1].startswith("Undone: ") and "Amy" in changes[1]


def test_each_store_has_its_own_cache_and_sees_the_database(db):
    one, two = Store(db), Store(db)
    gid = _setup(one)
    assert two.state(gid)[0] == 3
    one.append(gid, 3, {"type": "pass", "player": "Amy"})
    seq, game = two.state(gid)
    assert seq == 4 and game.next["player"] == "Brian"
    assert one._cache is not two._cache


def test_concurrent_writers_with_the_same_seq_one_wins(db):
    store = Store(db)
    gid = _setup(store)
    results = []

    def write(name):
        try:
            results.append(store.append(gid, 3, {"type": "pass", "player": "Amy"}))
        except Stale as err:
            results.append(err)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r for r in results if isinstance(r, int)) == [4]
    assert sum(isinstance(r, Stale) for r in results) == 3
    assert store.seq(gid) == 4


def test_state_is_cached_per_seq(db):
    store = Store(db)
    gid = _setup(store)
    first = store.state(gid)[1]
    assert store.state(gid)[1] is first
    store.append(gid, 3, {"type": "pass", "player": "Amy"})
    assert store.state(gid)[1] is not first
    assert first.next["player"] == "Amy"  # the cached game was not changed in place
