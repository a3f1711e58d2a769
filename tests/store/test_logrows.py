"""The log's rows as the store hands them over (assistant/store/logrows.py): each as stored, a going
back (stored as the row it goes back to and the first entry it changes) with the events it brings
back put in, worked out once and kept (the latest few), a row that cannot be read said to be damage,
and a long log read within the request's deadline.  A reader of its own (``RowReader``) on a real
SQLite file; the going-back rows are laid by hand, as the store writes them (``walk.compact``)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from assistant.log import transcript
from assistant.rules.core import deadline
from assistant.store import Store, logrows
from assistant.store.errors import Damaged
from assistant.store.logrows import RowReader
from tests.project_games import bidding_war

PLAYERS = ["Amy", "Brian"]
WHEN = "2026-01-01T00:00:00+00:00"
# rows 11-13, after ten entries all in effect: back to row 1 (the first entry alone), forward to
# row 10 again (the nine after it brought back), back to row 11's game (the first entry alone)
GOING_BACK = [
    {"type": "go_back", "to": 1, "index": 1},
    {"type": "go_back", "to": 10, "index": 1},
    {"type": "go_back", "to": 11, "index": 1},
]


@pytest.fixture
def game(tmp_path):
    """(the store, the game's id, its ten entries): rows 1-10 the entries, 11-13 ``GOING_BACK``."""
    store = Store(str(tmp_path / "rows.sqlite3"))
    pos, events = bidding_war(10, cash=10_000, players=PLAYERS)
    gid = store.import_transcript(transcript.build(PLAYERS, [], None, events, "test", position=pos))
    assert store.backend.seq(gid) == 10
    for seq, row in enumerate(GOING_BACK, 10):
        assert store.backend.append(gid, seq, json.dumps(row), f"t{seq + 1}", WHEN)[0] == "written"
    yield store, gid, events
    store.close()


def _damage(store, gid, seq, text="not a row {"):
    conn = sqlite3.connect(store.path)
    with conn:
        conn.execute("UPDATE events SET event = ? WHERE game_id = ? AND seq = ?", [text, gid, seq])
    conn.close()


def _brought_back(rows) -> dict:
    return {r.seq: r.event["events"] for r in rows if r.event["type"] == "go_back"}


def test_the_rows_are_read_as_stored_a_going_back_with_the_events_it_brings_back(game):
    store, gid, events = game
    rows = RowReader(store.backend).read(gid)
    assert [r.seq for r in rows] == list(range(1, 14))
    assert [r.event for r in rows[:10]] == events
    assert [r.token for r in rows] == [None] * 10 + ["t11", "t12", "t13"]
    assert [r.created for r in rows[10:]] == [WHEN] * 3
    assert all(isinstance(r.created, str) and r.created for r in rows[:10])
    assert [{k: v for k, v in r.event.items() if k != "events"} for r in rows[10:]] == GOING_BACK
    assert _brought_back(rows) == {11: [], 12: events[1:10], 13: []}


def test_some_rows_of_the_log_are_read_with_the_events_their_goings_back_bring_back(game):
    store, gid, events = game
    assert [r.seq for r in RowReader(store.backend).read(gid, 0, 3)] == [1, 2, 3]
    assert [r.event for r in RowReader(store.backend).read(gid, 3, 5)] == events[3:5]
    # each by a reader of its own: the goings back worked out from the log's start
    only = RowReader(store.backend).read(gid, 11, 12)
    assert [r.seq for r in only] == [12]
    assert only[0].event["events"] == events[1:10]
    after_first = RowReader(store.backend).read(gid, 1)
    assert [r.seq for r in after_first] == list(range(2, 14))
    assert _brought_back(after_first) == {11: [], 12: events[1:10], 13: []}
    assert _brought_back(RowReader(store.backend).read(gid, 10, 12)) == {11: [], 12: events[1:10]}


def test_a_going_back_worked_out_once_is_kept(game):
    store, gid, events = game
    reader = RowReader(store.backend)
    reader.read(gid)
    _damage(store, gid, 5)  # the rows before them are not read again for them
    assert _brought_back(reader.read(gid, 10)) == {11: [], 12: events[1:10], 13: []}
    with pytest.raises(Damaged) as damaged:
        RowReader(store.backend).read(gid, 10)  # a reader that has not: the log from its start
    assert damaged.value.message == "database disk image is malformed: a stored row is not readable"


def test_the_latest_goings_back_are_kept(game, monkeypatch):
    store, gid, events = game
    monkeypatch.setattr(logrows, "EXPANDED_KEPT", 2)
    reader = RowReader(store.backend)
    assert _brought_back(reader.read(gid, 0, 12)) == {11: [], 12: events[1:10]}
    assert _brought_back(reader.read(gid, 12)) == {13: []}  # 11, 12 and 13 worked out: 11 let go
    _damage(store, gid, 5)
    assert _brought_back(reader.read(gid, 11)) == {12: events[1:10], 13: []}  # kept
    with pytest.raises(Damaged):
        reader.read(gid, 10)  # 11 is worked out again


def test_more_goings_back_than_are_kept_are_each_read_with_their_events(game, monkeypatch):
    store, gid, events = game
    monkeypatch.setattr(logrows, "EXPANDED_KEPT", 1)  # one read wants three: two let go at once
    assert _brought_back(RowReader(store.backend).read(gid)) == {11: [], 12: events[1:10], 13: []}
    assert _brought_back(RowReader(store.backend).read(gid, 11)) == {12: events[1:10], 13: []}


def test_a_going_back_to_a_row_it_cannot_have_is_damage(game):
    store, gid, _events = game
    store.backend.append(gid, 13, json.dumps({"type": "go_back", "to": 99, "index": 1}), None, WHEN)
    with pytest.raises(Damaged) as damaged:
        RowReader(store.backend).read(gid, 12)
    assert damaged.value.message == (
        "database disk image is malformed: row 14 goes back to a row it cannot: 99, from entry 1"
    )


def test_even_a_one_row_log_is_not_read_past_the_deadline(tmp_path):
    store = Store(str(tmp_path / "one.sqlite3"))
    pos, events = bidding_war(1, cash=10_000, players=PLAYERS)
    gid = store.import_transcript(transcript.build(PLAYERS, [], None, events, "test", position=pos))
    reader = RowReader(store.backend)
    with deadline.within(-1), pytest.raises(deadline.TooLong):
        reader.read(gid)
    assert [r.event for r in reader.read(gid)] == events
    store.close()


def test_the_rows_after_the_ones_asked_are_not_read(game, monkeypatch):
    store, gid, events = game
    store.backend.append(gid, 13, json.dumps({"type": "go_back", "to": 12, "index": 1}), None, WHEN)
    _damage(store, gid, 14)  # unreadable, after the rows asked
    assert _brought_back(RowReader(store.backend).read(gid, 10, 12)) == {11: [], 12: events[1:10]}
    assert _brought_back(RowReader(store.backend).read(gid, 0, 12)) == {11: [], 12: events[1:10]}
    monkeypatch.setattr(logrows, "EXPANDED_KEPT", 1)  # worked out again for the read: up to the rows asked
    assert _brought_back(RowReader(store.backend).read(gid, 0, 12)) == {11: [], 12: events[1:10]}
    with pytest.raises(Damaged):
        RowReader(store.backend).read(gid, 12)
