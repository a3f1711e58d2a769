"""A store's games as timelines (assistant/store/timelines.py): the worker's cache (the same timeline
again, the latest few games, never an older row over a newer one), moved forward by the rows another
store wrote (only those read), the states saved every ``save_every`` rows and counted in the game's
budget (or not written, said in the log), and a restored game's older entries fetched once (the
latest few kept).  What is kept in memory is told from what is read again by a row damaged in the
file after it was read: a read of the log then fails."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from assistant.log import saved, transcript
from assistant.store import Store, budget, timelines
from assistant.store.errors import Damaged, Full, Unreplayable
from tests.project_games import bidding_war

PLAYERS = ["Amy", "Brian"]
MB = 1024 * 1024


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "timelines.sqlite3")


@pytest.fixture(autouse=True)
def default_caps(monkeypatch):
    monkeypatch.delenv("RSS_GAME_MAX_MB", raising=False)
    monkeypatch.delenv("RSS_DB_MAX_MB", raising=False)
    monkeypatch.delenv("RSS_CACHE_GAMES", raising=False)


def _game(store, entries: int, imported: int = 0) -> tuple[str, list[dict]]:
    """A game of ``entries`` bids, the first ``imported`` of them imported, the others entered one by one."""
    pos, events = bidding_war(entries, cash=10_000, players=PLAYERS)
    gid = store.import_transcript(transcript.build(PLAYERS, [], None, events[:imported], "t", position=pos))
    for seq in range(imported, entries):
        store.append(gid, seq, events[seq])
    return gid, events


def _damage(path, gid, seq):
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE events SET event = 'not a row {' WHERE game_id = ? AND seq = ?", [gid, seq])
    conn.close()


def _states(path, gid) -> list[int]:
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT seq FROM saved_states WHERE game_id = ? ORDER BY seq", [gid])]
    finally:
        conn.close()


def _bytes(path, gid) -> int:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT COALESCE(SUM(length(CAST(event AS BLOB))), 0) FROM events WHERE game_id = ?", [gid])
        states = conn.execute("SELECT COALESCE(SUM(length(data)), 0) FROM saved_states WHERE game_id = ?", [gid])
        return rows.fetchone()[0] + states.fetchone()[0]
    finally:
        conn.close()


def _budget(monkeypatch, limit: int) -> None:
    monkeypatch.setenv("RSS_GAME_MAX_MB", str(limit / MB))
    assert budget.game_max_bytes() == limit


def test_the_same_timeline_is_answered_until_the_game_moves_on(path):
    store = Store(path)
    gid, events = _game(store, 5)
    latest = store.timeline(gid)
    assert latest.seq == 5
    assert store.timeline(gid) is latest
    earlier = store.timeline(gid, 2)
    assert earlier.seq == 2
    assert earlier.game.snapshot() == Store(path).timeline(gid, 2).game.snapshot()
    assert earlier.walk.out == events[:2]
    assert store.timeline(gid) is latest  # an earlier row built is not kept over the latest
    built = Store(path)
    replayed = built.timeline(gid)
    assert built.timeline(gid) is replayed  # kept


def test_rows_another_store_wrote_are_read_alone(path):
    store, other = Store(path), Store(path)
    gid, events = _game(store, 5, imported=3)
    assert store.timeline(gid).seq == 5
    more, more_events = _game(other, 7, imported=3)
    # moved on here from 5 to 7 by other's rows: only rows 6 and 7 read
    assert store.timeline(more).seq == 7
    pos, events = bidding_war(7, cash=10_000, players=PLAYERS)
    other.append(gid, 5, events[5])
    other.append(gid, 6, events[6])
    _damage(path, gid, 1)
    moved = store.timeline(gid)
    assert (moved.seq, moved.walk.out) == (7, events)
    assert store.timeline(gid) is moved  # kept
    with pytest.raises(Damaged):
        Store(path).timeline(gid)  # a store that had not read it: the log from its start


def test_rows_another_store_wrote_up_to_a_row_asked_are_read_alone(path):
    store, other = Store(path), Store(path)
    gid, events = _game(store, 3)
    pos, events = bidding_war(5, cash=10_000, players=PLAYERS)
    other.append(gid, 3, events[3])
    other.append(gid, 4, events[4])
    _damage(path, gid, 1)
    moved = store.timeline(gid, 4)
    assert (moved.seq, moved.walk.out) == (4, events[:4])


def test_rows_another_store_wrote_that_undo_are_read_with_the_log(path):
    store, other = Store(path), Store(path)
    gid, events = _game(store, 3)
    other.append(gid, 3, {"type": "undo"})
    assert store.timeline(gid).walk.out == events[:2]


def test_a_log_the_engine_refuses_is_said_to_be_unreplayable(path):
    store = Store(path)
    gid, events = _game(store, 3)
    store.backend.append(gid, 3, '{"type": "pass", "player": "Nobody"}', None, "2026-01-01T00:00:00+00:00")
    with pytest.raises(Unreplayable) as refused:
        Store(path).timeline(gid)
    assert refused.value.message.startswith("the rules engine refuses the stored events of this game: ")
    # the cached game moved on by the row: refused, then the whole log replayed says so
    with pytest.raises(Unreplayable):
        store.timeline(gid)


def test_the_latest_games_are_kept(path, monkeypatch):
    monkeypatch.setenv("RSS_CACHE_GAMES", "2")
    store = Store(path)
    assert store.cache_size == 2
    first, _ = _game(store, 2)
    second, _ = _game(store, 2)
    kept = {gid: store.timeline(gid) for gid in (first, second)}
    assert store.timeline(first) is kept[first]  # first used last: second is the oldest
    third, _ = _game(store, 2)
    store.timeline(third)
    assert store.timeline(first) is kept[first]
    assert store.timeline(second) is not kept[second]  # let go, built again
    assert store.timeline(third) is not None


def test_a_state_is_saved_every_save_every_rows(path):
    store = Store(path, save_every=3)
    pos, events = bidding_war(7, cash=10_000, players=PLAYERS)
    gid = store.import_transcript(transcript.build(PLAYERS, [], None, [], "t", position=pos))
    seen = []
    for seq in range(7):
        store.append(gid, seq, events[seq])
        seen.append(_states(path, gid))
    assert seen == [[], [], [3], [3], [3], [3, 6], [3, 6]]
    assert Store(path, save_every=3).timeline(gid).walk.out == events


def test_saved_states_count_in_the_games_budget(path, monkeypatch):
    store = Store(path, save_every=10**6)
    gid, events = _game(store, 3)
    pos, events = bidding_war(4, cash=10_000, players=PLAYERS)
    data = b"a state" * 100
    stored = saved.MAC_BYTES + len(data)
    rows = _bytes(path, gid)
    _budget(monkeypatch, rows + stored - 1)
    store.save_states(gid, [(3, 3, data)])  # past the budget: not written
    assert _states(path, gid) == []
    _budget(monkeypatch, rows + stored)
    store.save_states(gid, [(3, 3, data)])
    assert _states(path, gid) == [3]
    assert _bytes(path, gid) == rows + stored
    # the next row is counted with the state
    row = len('{"type": "bid", "player": "Brian", "company": "BME", "price": 4}')
    assert events[3] == {"type": "bid", "player": "Brian", "company": "BME", "price": 4}
    _budget(monkeypatch, rows + stored + row - 1)
    with pytest.raises(Full):
        store.append(gid, 3, events[3])
    _budget(monkeypatch, rows + stored + row)
    assert store.append(gid, 3, events[3]) == 4


def test_states_not_written_are_said_in_the_log(path, monkeypatch, caplog):
    store = Store(path, save_every=10**6)
    gid, _events = _game(store, 3)
    _budget(monkeypatch, _bytes(path, gid) + 10)
    with caplog.at_level(logging.WARNING, logger="assistant.store.store"):
        store.save_states(gid, [(2, 2, b"a state" * 10), (3, 3, b"a state" * 10)])
    assert _states(path, gid) == []
    [record] = [r for r in caplog.records if "saved states" in r.getMessage()]
    assert record.getMessage().startswith(f"game {gid}: 2 saved states were not written (This game's log is full (")
    store.save_states(gid, [])  # none: nothing to write or say
    assert len([r for r in caplog.records if "saved states" in r.getMessage()]) == 1


def _restored(path):
    """A game of 110 entries with states saved at rows 20, 40, ... 100, each holding its latest 64 entries."""
    store = Store(path, save_every=20)
    gid, events = _game(store, 110, imported=110)
    assert _states(path, gid) == [20, 40, 60, 80, 100]
    return gid, events


def test_a_restored_games_older_entries_are_fetched_once(path):
    gid, events = _restored(path)
    store = Store(path, save_every=20)
    latest = store.timeline(gid)
    assert not latest.game.journal.fetched  # from the state saved at row 100
    assert list(latest.game.journal)[0]["event"] == events[0]
    assert len(list(latest.game.journal)) == 110
    _damage(path, gid, 1)
    store.append(gid, 110, {"type": "undo"})
    again = store.timeline(gid)  # row 111: from the state at 100 again, its older entries kept
    assert not again.game.journal.fetched
    assert len(list(again.game.journal)) == 109
    with pytest.raises(Damaged):
        list(Store(path, save_every=20).timeline(gid).game.journal)


def test_the_older_entries_of_the_latest_few_saved_states_are_kept(path, monkeypatch):
    monkeypatch.setattr(timelines, "HEADS_KEPT", 1)
    gid, _events = _restored(path)
    store = Store(path, save_every=20)
    assert len(list(store.timeline(gid, 110).game.journal)) == 110  # from the state at 100
    assert len(list(store.timeline(gid, 90).game.journal)) == 90  # from the state at 80: 100's let go
    _damage(path, gid, 1)
    assert len(list(store.timeline(gid, 95).game.journal)) == 95  # at 80 again: kept
    with pytest.raises(Damaged):
        list(store.timeline(gid, 105).game.journal)


def test_a_restored_game_with_rows_missing_before_its_state_is_damage(path):
    gid, _events = _restored(path)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("DELETE FROM events WHERE game_id = ? AND seq = 5", [gid])
    conn.close()
    latest = Store(path, save_every=20).timeline(gid)
    with pytest.raises(Damaged) as damaged:
        list(latest.game.journal)
    assert damaged.value.message == (
        "database disk image is malformed: rows of this game's log are missing (99 of 100 read)"
    )


def test_a_restored_game_whose_older_rows_the_engine_refuses_is_unreplayable(path):
    gid, events = _restored(path)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            "UPDATE events SET event = ? WHERE game_id = ? AND seq = 2", ['{"type": "pass", "player": "Nobody"}', gid]
        )
    conn.close()
    latest = Store(path, save_every=20).timeline(gid)
    assert latest.walk.out[-1] == events[-1]
    with pytest.raises(Unreplayable) as refused:
        list(latest.game.journal)
    assert isinstance(refused.value.message, str) and refused.value.message
