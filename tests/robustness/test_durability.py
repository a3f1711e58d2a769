"""The store's durability and write discipline: WAL + synchronous=FULL on every connection, one
transaction per accepted event, nothing written for a refusal, idempotent double taps, and a state
cache that stays exact when another process writes to the same file."""

from __future__ import annotations

import threading

import pytest

from assistant.rules.core.game import Game
from assistant.rules.registry import STARS
from assistant.store import Refused, Stale, Store, effective_events

from .conftest import csrf_of, load_transcript, snapshot_and_seq, table_events

PLAYERS = ["Amy", "Brian", "Crystal"]


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "durable.sqlite3")
    yield s
    s.close()


def _started(store) -> str:
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    for seq in range(3):
        _, game = store.state(gid)
        store.append(gid, seq, {"type": "reveal", "company": game.next["choices"][0]})
    return gid


def test_every_connection_uses_wal_and_full_sync(store):
    seen = []

    def look():
        conn = store.backend._db().conn
        seen.append(
            (conn.execute("PRAGMA journal_mode").fetchone()[0], conn.execute("PRAGMA synchronous").fetchone()[0])
        )
        store.close()

    threads = [threading.Thread(target=look) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    look()
    assert seen == [("wal", 2)] * 4  # 2 = FULL: the WAL is synced at every commit


def test_one_transaction_per_accepted_event_and_none_for_a_refusal(store):
    gid = _started(store)
    conn = store.backend._db().conn
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    try:
        store.append(gid, 3, {"type": "pass", "player": "Amy"}, token="t1")
        accepted = list(statements)
        statements.clear()
        with pytest.raises(Refused):
            store.append(gid, 4, {"type": "pass", "player": "Amy"})
        refused = list(statements)
        statements.clear()
        with pytest.raises(Stale):
            store.append(gid, 3, {"type": "pass", "player": "Brian"})
        stale = list(statements)
    finally:
        conn.set_trace_callback(None)

    def writes(stmts):
        return [
            s.split()[0].upper()
            for s in stmts
            if s.split()[0].upper() in ("BEGIN", "COMMIT", "ROLLBACK", "INSERT", "UPDATE", "DELETE")
        ]

    assert writes(accepted) == ["BEGIN", "INSERT", "COMMIT"]
    assert writes(refused) == []  # refused before any write transaction
    assert writes(stale) == []  # the seq is checked before, and again inside the write
    assert store.seq(gid) == 4


def test_a_double_tap_on_a_form_is_applied_once(app, client):
    csrf = csrf_of(client)
    gid = client.post("/games/new", data={"csrf_token": csrf, "name": PLAYERS}).headers["Location"].rsplit("/")[-1]
    store = app.extensions["rss_store"]
    for seq in range(3):
        store.append(gid, seq, {"type": "reveal", "company": store.state(gid)[1].next["choices"][0]})
    form = {"csrf_token": csrf_of(client, gid), "seq": "3", "token": "tap-1", "e.type": "pass", "e.player": "Amy"}
    first = client.post(f"/games/{gid}/act", data=form)
    second = client.post(f"/games/{gid}/act", data=form)
    assert (first.status_code, second.status_code) == (303, 303)
    htmx = client.post(f"/games/{gid}/act", data=form, headers={"HX-Request": "true"})
    assert htmx.status_code == 200  # the htmx double tap gets the fresh panel, not an error
    assert store.seq(gid) == 4 and [r.token for r in store.rows(gid)].count("tap-1") == 1


def test_stored_events_are_exactly_the_fields_the_engine_reads(store):
    gid = _started(store)
    store.append(gid, 3, {"type": "pass", "player": "Amy", "why": "x" * 1000, "note": {"a": [1, 2]}, "reject": False})
    assert store.rows(gid)[-1].event == {"type": "pass", "player": "Amy"}
    for bad in (
        {"type": "pass", "player": "Brian", "reject": True},
        {"type": "expect", "state": {}},
        {"type": "pass", "player": "Brian", "company": "\ud800"},
    ):
        with pytest.raises(Refused):
            store.append(gid, 4, bad)
    with pytest.raises(Refused):
        store.append(gid, 4, {"type": "pass", "player": "Brian"}, token="\udcff")
    assert store.seq(gid) == 4


@pytest.mark.parametrize(
    "players", [["A" * 61, "B"], ["Amy", "amy"], ["Amy", "A\u202emy"], ["A\x00", "B"], ["Ａmy", "Amy"], ["\ud800", "B"]]
)
def test_odd_names_are_refused_with_a_message(store, players):
    with pytest.raises(Refused) as err:
        store.create_game(players, ruleset="rolling-stock-stars")
    assert err.value.message


def test_the_state_catches_up_with_rows_written_by_another_process(tmp_path):
    data = load_transcript()
    events = table_events(data)
    db = tmp_path / "shared.sqlite3"
    writer, reader = Store(db), Store(db)
    gid = writer.create_game(data["players"], ruleset="rolling-stock-stars")
    for i, e in enumerate(events[:50]):
        writer.append(gid, i, e)
    assert reader.state(gid)[0] == 50  # full replay once, then cached
    for i, e in enumerate(events[50:80], 50):
        writer.append(gid, i, e)
    seq, game = reader.state(gid)  # 30 new rows: applied to the cached state, not replayed from scratch
    assert seq == 80 and game.snapshot() == STARS.replay(data["players"], [], events[:80]).snapshot()
    writer.append(gid, 80, {"type": "undo"})
    seq, game = reader.state(gid)  # an undo among the new rows: replayed
    assert seq == 81 and game.snapshot() == STARS.replay(data["players"], [], events[:79]).snapshot()
    assert effective_events(reader.rows(gid)) == events[:79]
    assert len(game.journal) == 79
    writer.close()
    reader.close()


def test_a_cached_state_is_not_changed_by_the_next_event(store):
    gid = _started(store)
    seq, before = store.state(gid)
    snap, journal, events = before.snapshot(), list(before.journal), list(before.events)
    store.append(gid, seq, {"type": "pass", "player": "Amy"})
    assert before.snapshot() == snap and before.journal == journal and before.events == events
    assert len(store.state(gid)[1].journal) == len(journal) + 1


def test_web_answers_agree_after_the_catch_up(app, client, tmp_path):
    gid = client.post(
        "/games/import", json={"format": "rss-table-transcript", "version": 1, "players": PLAYERS, "events": []}
    ).get_json()["id"]
    assert snapshot_and_seq(client, gid)["seq"] == 0  # this app has read (and cached) the game
    client.get(f"/games/{gid}")
    other = Store(app.config["DATABASE"])  # e.g. a second server process on the same file
    for seq in range(3):
        other.append(gid, seq, {"type": "reveal", "company": other.state(gid)[1].next["choices"][0]})
    _, theirs = other.state(gid)
    # every answer of this app shows the other writer's events
    shown = snapshot_and_seq(client, gid)
    assert shown.pop("seq") == 3 and shown == theirs.snapshot()
    assert client.get(f"/games/{gid}/version?seq=0").status_code != 204  # a phone at seq 0 hears of it
    history = client.get(f"/games/{gid}/c/history").get_data(as_text=True)
    for entry in theirs.journal:
        assert entry["text"] in history
    first = theirs.next["player"]
    panel = client.get(f"/games/{gid}/c/actions").get_data(as_text=True)
    assert 'name="seq" value="3"' in panel and f'name="e.player" value="{first}"' in panel
    # and this app writes after them: stale at seq 0, accepted at seq 3
    event = {"type": "pass", "player": first}
    assert client.post(f"/games/{gid}/events", json={"seq": 0, "event": event}).status_code == 409
    resp = client.post(f"/games/{gid}/events", json={"seq": 3, "event": event})
    assert resp.status_code == 200 and resp.get_json()["seq"] == 4
    assert [r.event for r in other.rows(gid)][-1] == event
    other.close()


def test_what_a_stale_phone_missed_is_listed_exactly(store):
    from assistant.log.meanwhile import entry_text

    data = load_transcript()
    events = table_events(data)
    gid = store.create_game(data["players"], ruleset="rolling-stock-stars")
    for i, e in enumerate(events[:100]):
        store.append(gid, i, e)
    full = [entry_text(j) for j in STARS.replay(data["players"], [], events[:100]).journal]
    for seen in (0, 50, 97, 99, 100, 150, -3):
        assert store.changes_since(gid, seen, limit=1000) == full[max(0, min(seen, 100)) :]
    assert store.changes_since(gid, 90, limit=4) == ["(6 earlier changes)"] + full[-4:]
    store.append(gid, 100, {"type": "undo"})
    store.append(gid, 101, events[99])
    assert store.changes_since(gid, 100, limit=1000) == ["Undone: " + full[99], full[99]]


def test_hot_paths_neither_replay_nor_connect(app, client, monkeypatch):
    """The poll, GET /state and an accepted event use the thread's connection and the cached state."""
    import sqlite3

    data = load_transcript()
    events = table_events(data)
    gid = client.post("/games/import", json={**data, "events": events[:200]}).get_json()["id"]
    store = app.extensions["rss_store"]
    assert client.get(f"/games/{gid}/version?seq=200").status_code == 204  # warm: connection, cache

    def refuse(*args, **kwargs):
        raise AssertionError("a hot path replayed the game or opened a connection")

    monkeypatch.setattr(Game, "replay", classmethod(refuse))
    monkeypatch.setattr(sqlite3, "connect", refuse)
    for _ in range(20):
        assert client.get(f"/games/{gid}/version?seq=200").status_code == 204
    assert client.get(f"/games/{gid}/state").get_json()["seq"] == 200
    for seq in range(200, 210):
        assert client.post(f"/games/{gid}/events", json={"seq": seq, "event": events[seq]}).status_code == 200
        assert client.get(f"/games/{gid}/version?seq={seq}").headers["X-RSS-Seq"] == str(seq + 1)
    stale = client.post(f"/games/{gid}/events", json={"seq": 205, "event": events[210]})
    assert stale.status_code == 409 and len(stale.get_json()["changes"]) == 5  # listed without a replay
    assert store.seq(gid) == 210


def test_previews_in_another_thread_never_touch_the_shared_cached_game(store):
    """Helper pages preview events on the cached game (Game.clone / Game.preview) while other
    request threads read it and append to it: the cached game must never change, not even for
    a moment."""
    import threading

    gid = _started(store)
    seq, game = store.state(gid)
    before = (len(game.events), len(game.journal), game.snapshot())
    stop = threading.Event()
    seen = []

    def watch():
        while not stop.is_set():
            seen.append((len(game.events), len(game.journal)))

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        for _ in range(200):
            game.clone()
            game.preview({"type": "pass", "player": "Amy"})
    finally:
        stop.set()
        watcher.join()
    assert set(seen) == {before[:2]}
    assert (len(game.events), len(game.journal), game.snapshot()) == before
    assert store.append(gid, seq, {"type": "pass", "player": "Amy"}) == seq + 1
    _, now = store.state(gid)
    assert len(now.events) == len(now.journal) == 4
    assert now.snapshot() == STARS.replay(PLAYERS, [], [r.event for r in store.rows(gid)]).snapshot()
