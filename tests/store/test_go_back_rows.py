"""A going back is stored as a row number, not the events it brings back (issue 38 §5: about 12 KB a
row, 600 of them grew the database by 10 MB); the store puts the events back when it reads it, rows
written before (with their events) are still read, and reading a log stops at the request's deadline."""

from __future__ import annotations

import json

import pytest

from assistant.log.walk import Walk, expand
from assistant.rules.core import deadline
from assistant.store import Store
from tests.project_games import bidding_war

PLAYERS = ["Amy", "Brian"]


def _game(store: Store, entries: int) -> tuple[str, list[dict]]:
    from assistant.log import transcript

    pos, events = bidding_war(entries, cash=10_000, players=PLAYERS)
    gid = store.import_transcript(transcript.build(PLAYERS, [], None, events, "test", position=pos))
    return gid, events


def _stored(store: Store, gid: str, seq: int) -> str:
    return store.backend.rows(gid, seq - 1, seq)[0][1]


def test_a_going_back_is_stored_as_its_row_and_read_with_its_events(tmp_path):
    path = str(tmp_path / "back.sqlite3")
    store = Store(path)
    gid, events = _game(store, 60)  # rows 1-60: one entry each, all in effect
    store.append(gid, 60, {"type": "go_back", "to": 1})  # row 61: only the first entry in effect
    store.append(gid, 61, {"type": "go_back", "to": 60})  # row 62: the 59 entries after it back again
    # written as: the row it goes back to and the first entry it changes, nothing more (the first
    # entry is the same in both: the 59 after it are taken out, then brought back)
    assert json.loads(_stored(store, gid, 61)) == {"type": "go_back", "to": 1, "index": 1}
    assert json.loads(_stored(store, gid, 62)) == {"type": "go_back", "to": 60, "index": 1}
    assert len(_stored(store, gid, 62)) < 60
    fresh = Store(path)  # nothing in memory: the events worked out from the log
    rows = fresh.rows(gid)
    assert rows[60].event["events"] == []
    assert rows[61].event["events"] == events[1:60]
    assert fresh.rows(gid, 61)[0].event["events"] == events[1:60], "read alone, the same"
    assert fresh.events(gid) == events[:60]
    assert fresh.state(gid)[1].snapshot() == Store(path).state(gid)[1].snapshot()
    fresh.append(gid, 62, {"type": "undo"})  # takes the going back back: the first entry alone again
    assert Store(path).events(gid) == events[:1]


def test_goings_back_written_before_with_their_events_are_still_read(tmp_path):
    path = str(tmp_path / "old.sqlite3")
    store = Store(path)
    gid, events = _game(store, 30)
    old = [  # as the versions before wrote them
        {"type": "go_back", "to": 10, "index": 10, "events": []},
        {"type": "go_back", "to": 30, "index": 10, "events": events[10:30]},
    ]
    for seq, row in enumerate(old, 30):
        assert store.backend.append(gid, seq, json.dumps(row), None, "2026-01-01T00:00:00+00:00")[0] == "written"
    fresh = Store(path)
    assert [r.event for r in fresh.rows(gid, 30)] == old
    assert fresh.events(gid) == events[:30]
    fresh.append(gid, 32, {"type": "go_back", "to": 31})  # a new one after them: back to the first ten
    assert json.loads(_stored(fresh, gid, 33)) == {"type": "go_back", "to": 31, "index": 10}
    assert Store(path).events(gid) == events[:10]


def test_reading_a_log_stops_at_the_requests_deadline(tmp_path):
    """A deadline already passed: the log is not read (before, a preview read the whole log outside
    the deadline's checks and ran 0.17 s past its 503)."""
    store = Store(str(tmp_path / "late.sqlite3"))
    gid, _events = _game(store, 40)
    store.append(gid, 40, {"type": "go_back", "to": 1})
    rows = store.rows(gid)
    with deadline.within(0):
        with pytest.raises(deadline.TooLong):
            store.rows(gid)
        with pytest.raises(deadline.TooLong):
            expand(rows)
        with pytest.raises(deadline.TooLong):
            Store(store.path).timeline(gid).go_back_preview(2)
    assert Walk.of(rows).out == _events[:1]
