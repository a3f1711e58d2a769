"""The games' event streams (assistant/serve/stream.py) in process: the real store on an SQLite file,
the real ``Streams`` and waker on a real event loop; in front of them, what granian hands a stream
(its RSGI scope and protocol: a few attributes and calls, stood in for here by ``Scope`` and
``Phone``). Expected texts are the module's documented ones: ``id: N`` / ``data: N`` per change,
``event: seats``, the heartbeat, 404/429/503. (Through the real server: test_stream.py.)"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from assistant.serve import stream
from assistant.store import Store

from .conftest import PLAYERS

OPEN = "retry: 2000\n: open\n\n"  # the browser reconnects after 2 s; nothing new to say yet
SEATS = "event: seats\ndata: seats\n\n"
BEAT = ": beat\nevent: beat\ndata:\n\n"


def change(seq: int) -> str:
    return f"id: {seq}\ndata: {seq}\n\n"


class Scope:
    """The request as granian describes it: the streams read its headers and query only."""

    def __init__(self, query: str = "", last_event_id: str | None = None):
        self.headers = {} if last_event_id is None else {"last-event-id": last_event_id}
        self.query_string = query


class Phone:
    """granian's protocol for one request: a short answer, or a stream of text the phone receives
    until it goes away (then the next send fails, as a closed connection's does)."""

    def __init__(self):
        self.status = self.headers = self.body = None
        self.received: list[str] = []
        self.gone = False

    def response_bytes(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def response_stream(self, status, headers):
        self.status, self.headers = status, headers
        return self

    async def send_str(self, text: str) -> None:
        if self.gone:
            raise ConnectionResetError("the phone went away")
        self.received.append(text)


async def until(condition, limit: float = 10.0) -> None:
    """Waits on the loop until ``condition()`` (generous: a loaded machine), else fails."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "never came true"
        await asyncio.sleep(0.01)


@pytest.fixture
def store(tmp_path):
    store = Store(str(tmp_path / "games.sqlite3"))
    yield store
    store.close()


def run(store, table, beat: float = 60.0):
    """``table(streams)`` on a real loop, with the worker's streams (beats every ``beat`` s)."""
    pool = ThreadPoolExecutor(max_workers=2)

    streams = []

    async def main():
        streams.append(stream.Streams(store, pool, beat=beat, tick=0.05))
        try:
            return await table(streams[0])
        finally:
            streams[0].end_all()

    try:
        return asyncio.run(main())
    finally:
        pool.shutdown(wait=True)
        if streams[0].waker is not None:  # with the loop, the waker ends (within a tick)
            streams[0].waker.join(timeout=20)
            assert not streams[0].waker.is_alive()


def _append(store, gid: str, seq: int) -> None:
    _, game = store.state(gid)
    store.append(gid, seq, {"type": "reveal", "company": game.next["choices"][0]})


def test_the_messages_and_what_a_phone_says_it_has():
    assert stream.message(12) == "id: 12\ndata: 12\n\n"
    assert stream.game_of("/games/Ab_-9/stream") == "Ab_-9"
    assert stream.game_of("/games/" + "a" * 64 + "/stream") == "a" * 64
    for path in (
        "/games/" + "a" * 65 + "/stream",
        "/games//stream",
        "/games/x/stream/",
        "/x/games/x/stream",
        "/games/x/version",
    ):
        assert stream.game_of(path) is None, path
    # Last-Event-ID (the browser's own reconnection) first, else ?seq=N; a plain number under 19 digits
    assert stream.seen_seq("7", "seq=4") == 7
    assert stream.seen_seq(" 7 ", "") == 7
    assert stream.seen_seq("", "seq=4") == 4
    assert stream.seen_seq("x", "a=1&seq=4") == 4
    assert stream.seen_seq("", "seq=x&seq=6") == 6
    assert stream.seen_seq("", "seq=" + "9" * 18) == int("9" * 18)
    for last, query in (("", ""), ("", "seq=" + "9" * 19), ("", "seq=-1"), ("\uff11", "q=1"), ("", "sequence=3")):
        assert stream.seen_seq(last, query) is None, (last, query)


def test_what_a_stream_sends_at_once_a_change_a_beat_and_the_seats():
    s = stream._Stream(0)
    assert s.take() == ""  # nothing new
    s.pending = 0
    assert s.take() == ""  # the seq the phone has
    s.beat = True
    assert s.take() == BEAT and s.take() == ""  # a beat once
    s.pending, s.beat = 2, True
    assert s.take() == change(2) and s.sent == 2  # a message is a heartbeat too
    s.seats, s.beat = True, True
    assert s.take() == SEATS and s.take() == ""
    s.pending, s.seats = 3, True
    assert s.take() == change(3) + SEATS


def test_a_phone_gets_the_seq_it_lacks_at_once_then_every_change_and_seat_change(store):
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")

    async def table(streams):
        phones = {
            "at 0": (Phone(), Scope("seq=0")),
            "no seq": (Phone(), Scope()),
            "ahead": (Phone(), Scope("seq=0", "5")),
        }
        tasks = [asyncio.create_task(streams.serve(scope, phone, gid, "127.0.0.1")) for phone, scope in phones.values()]
        await until(lambda: all(phone.received for phone, _ in phones.values()))
        firsts = {name: phone.received[0] for name, (phone, _) in phones.items()}
        statuses = {(phone.status, tuple(phone.headers)) for phone, _ in phones.values()}
        assert streams.by_client == {"127.0.0.1": 3} and len(streams) == 3 and streams.watched() == [gid]
        await asyncio.get_running_loop().run_in_executor(None, _append, store, gid, 0)
        await until(lambda: all(len(phone.received) == 2 for phone, _ in phones.values()))
        store.take_seat(gid, "phone-1", "Amy")
        await until(lambda: all(len(phone.received) == 3 for phone, _ in phones.values()))
        streams.changed([(gid, 1)])  # a seq the phones have: nothing sent
        streams.changed([(gid, 5)])
        await until(lambda: all(len(phone.received) == 4 for phone, _ in phones.values()))
        streams.changed([(gid, 4)])  # an older one heard late: nothing sent
        streams.changed([("another game", 9)])
        streams.changed([(gid, None)])
        await until(lambda: all(len(phone.received) == 5 for phone, _ in phones.values()))
        streams.end_all()  # the worker stops: every stream ends
        await asyncio.wait_for(asyncio.gather(*tasks), 10)
        late = Phone()
        await streams.serve(Scope("seq=0"), late, gid, "127.0.0.1")
        left = streams.by_client, len(streams), streams.watched()
        return firsts, statuses, [phone.received[1:] for phone, _ in phones.values()], late, left

    firsts, statuses, later, late, left = run(store, table)
    assert firsts == {"at 0": OPEN, "no seq": "retry: 2000\n" + change(0), "ahead": "retry: 2000\n" + change(0)}
    headers = (
        ("content-type", "text/event-stream; charset=utf-8"),
        ("cache-control", "no-store"),
        ("x-accel-buffering", "no"),
    )
    assert statuses == {(200, headers)}
    assert later == [[change(1), SEATS, change(5), SEATS]] * 3
    assert (late.status, late.body) == (503, b"The table's server is stopping.\n")
    assert ("retry-after", "2") in late.headers and late.received == []
    assert left == ({}, 0, [])


def test_no_such_game_is_a_404(store):
    async def table(streams):
        phone = Phone()
        await asyncio.wait_for(streams.serve(Scope("seq=0"), phone, "no-such-game", "127.0.0.1"), 10)
        return phone, streams.by_client, len(streams), streams.watched()

    phone, by_client, count, watched = run(store, table)
    assert (phone.status, phone.body) == (404, b"There is no game at this address.\n")
    assert phone.headers == [("content-type", "text/plain; charset=utf-8"), ("cache-control", "no-store")]
    assert (by_client, count, watched) == ({}, 0, [])


def test_one_address_holds_at_most_its_streams_and_one_gone_makes_room(store, monkeypatch):
    """RSS_CLIENT_STREAMS=2: a third stream from the address is a 429 (the phone polls instead);
    another address still gets one; when one of the first two phones goes (seen at the next thing
    sent to it), the address may open one again."""
    monkeypatch.setenv("RSS_CLIENT_STREAMS", "2")
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")

    async def table(streams):
        first, second, third, other, again = Phone(), Phone(), Phone(), Phone(), Phone()
        tasks = [asyncio.create_task(streams.serve(Scope("seq=0"), p, gid, "127.0.0.2")) for p in (first, second)]
        await until(lambda: first.received and second.received)
        await asyncio.wait_for(streams.serve(Scope("seq=0"), third, gid, "127.0.0.2"), 10)
        tasks.append(asyncio.create_task(streams.serve(Scope("seq=0"), other, gid, "127.0.0.3")))
        await until(lambda: other.received)
        held = dict(streams.by_client)
        first.gone = True
        streams.changed([(gid, None)])
        await asyncio.wait_for(tasks[0], 10)  # its stream ended
        after = dict(streams.by_client)
        tasks.append(asyncio.create_task(streams.serve(Scope("seq=0"), again, gid, "127.0.0.2")))
        await until(lambda: again.received)
        return third, held, after, again

    third, held, after, again = run(store, table)
    assert (third.status, third.body.decode()) == (429, stream.TOO_MANY) and ("retry-after", "30") in third.headers
    assert held == {"127.0.0.2": 2, "127.0.0.3": 1}
    assert after == {"127.0.0.2": 1, "127.0.0.3": 1}
    assert again.received == [OPEN]


def test_every_stream_gets_a_heartbeat_when_nothing_else_is_sent(store):
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")

    async def table(streams):
        phones = [Phone() for _ in range(3)]
        for phone in phones:
            asyncio.create_task(streams.serve(Scope("seq=0"), phone, gid, "127.0.0.1"))
        await until(lambda: all(phone.received[1:] for phone in phones))
        return [phone.received[:2] for phone in phones]

    assert run(store, table, beat=2.0) == [[OPEN, BEAT]] * 3  # within 2 s; the wait allows 10


def test_a_database_error_under_a_new_stream_is_a_503_logged_once_a_minute(store, caplog):
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    store.state(gid)  # the game known to the store, as a served game is
    with sqlite3.connect(store.backend.path) as db:
        db.execute("DROP TABLE events")

    async def table(streams):
        phones = [Phone(), Phone()]
        for phone in phones:
            await asyncio.wait_for(streams.serve(Scope("seq=0"), phone, gid, "127.0.0.1"), 10)
        return phones, streams.by_client, len(streams)

    with caplog.at_level(logging.ERROR, logger="assistant.serve.stream"):
        phones, by_client, count = run(store, table)
    for phone in phones:
        assert (phone.status, phone.body) == (503, b"The table's server has a problem with its database; retrying.\n")
        assert ("retry-after", "5") in phone.headers
    lines = [r.getMessage() for r in caplog.records if "under the streams" in r.getMessage()]
    assert len(lines) == 1 and "no such table: events" in lines[0]
    assert (by_client, count) == ({}, 0)


def test_the_database_errors_are_logged_once_a_minute(store, monkeypatch, caplog):
    """A clock from a server started 10 s after its machine booted: the first error under the
    streams, and the first the waker meets, are logged at once; the next ones once 60 s have gone by."""
    pool = ThreadPoolExecutor(max_workers=1)
    streams = stream.Streams(store, pool)
    waker = stream.Waker(streams)  # not started: its log only
    now = [0.0]
    monkeypatch.setattr(stream.time, "monotonic", lambda: now[0])
    logged = {"streams": [], "waker": []}
    try:
        for now[0] in (10.0, 40.0, 69.9, 70.0, 75.0):
            caplog.clear()
            with caplog.at_level(logging.ERROR, logger="assistant.serve.stream"):
                streams._problem(sqlite3.OperationalError("disk I/O error"))
                waker.trouble(sqlite3.DatabaseError("file is not a database"))
            for record in caplog.records:
                text = record.getMessage()
                if text.startswith("database error under the streams (said once a minute): "):
                    assert text.endswith(": OperationalError: disk I/O error")
                    logged["streams"].append(now[0])
                else:
                    assert text == (
                        "the streams' waker lost the database (said once a minute): DatabaseError: file is not a database"
                    )
                    logged["waker"].append(now[0])
    finally:
        pool.shutdown()
    assert logged == {"streams": [10.0, 70.0], "waker": [10.0, 70.0]}


def test_after_the_waker_lost_the_database_the_streams_are_caught_up(store, caplog):
    """The events table goes away under the waker (renamed), which loses the database (the record of
    the seqs with it: the polls ask the database) and tries again a second later. Meanwhile the table
    is back and a row appended: the waker's new connection starts after it, so only its catching up
    (the current seq of every game with streams) tells the phone."""
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    path = store.path

    async def table(streams):
        phone = Phone()
        task = asyncio.create_task(streams.serve(Scope("seq=0"), phone, gid, "127.0.0.1"))
        await until(lambda: phone.received and streams.known.heard_at > float("-inf"))
        with sqlite3.connect(path) as db:
            db.execute("ALTER TABLE events RENAME TO events_away")
        await until(lambda: streams.known.heard_at == float("-inf"))  # the waker lost it
        with sqlite3.connect(path) as db:
            db.execute("ALTER TABLE events_away RENAME TO events")
        await asyncio.get_running_loop().run_in_executor(None, _append, store, gid, 0)
        await until(lambda: len(phone.received) == 2, limit=20)
        streams.end_all()
        await asyncio.wait_for(task, 10)
        return phone.received

    with caplog.at_level(logging.ERROR, logger="assistant.serve.stream"):
        received = run(store, table)
    assert received == [OPEN, change(1)]
    lost = [r.getMessage() for r in caplog.records if "waker lost the database" in r.getMessage()]
    assert lost and lost[0].endswith(": OperationalError: no such table: events")  # what it met


def test_the_streams_heartbeats_are_spread_over_ten_slices(store):
    """Ten streams, one in each tenth of BEAT_SECONDS (not all woken at once); the eleventh shares."""
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")

    async def table(streams):
        phones = [Phone() for _ in range(11)]
        for phone in phones:
            asyncio.create_task(streams.serve(Scope("seq=0"), phone, gid, "127.0.0.1"))
        await until(lambda: all(phone.received for phone in phones))
        return [len(bucket) for bucket in streams.buckets]

    assert run(store, table) == [2] + [1] * 9


def test_a_new_streams_seq_is_read_on_the_workers_own_threads(store):
    """The worker's pool (its one thread busy here) reads the seq: the stream opens once it is free,
    with what was heard meanwhile if that is later than what it read."""
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    pool = ThreadPoolExecutor(max_workers=1)
    busy = threading.Event()

    async def main():
        streams.append(stream.Streams(store, pool, beat=60.0, tick=0.05))
        held = pool.submit(busy.wait, 20)
        phone = Phone()
        task = asyncio.create_task(streams[0].serve(Scope("seq=0"), phone, gid, "127.0.0.1"))
        await asyncio.sleep(1.0)
        before = list(phone.received)
        # a change heard while the seq waits to be read is not lost: the later of the two is sent
        streams[0].changed([(gid, 3)])
        busy.set()
        await until(lambda: phone.received)
        streams[0].end_all()
        await asyncio.wait_for(task, 10)
        return before, held.result(), phone.received

    streams = []
    try:
        before, held, received = asyncio.run(main())
    finally:
        busy.set()
        pool.shutdown(wait=True)
    streams[0].waker.join(timeout=20)
    assert not streams[0].waker.is_alive()  # the loop ended: so did the waker
    assert before == [] and held is True and received == ["retry: 2000\n" + change(3)]


def test_a_change_wakes_every_stream_of_its_game_that_lacks_it(store):
    """No waker here (the streams' loop set by hand): the changes are told by hand. Five phones
    opened at seq 0 and five at seq 2; seq 1, heard late, goes to the five at 0 only, whatever the
    order the game's streams are in; a later game's phone at its own seq is told nothing."""
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    other = store.create_game(PLAYERS, ruleset="rolling-stock-stars")

    async def table(streams):
        streams.loop = asyncio.get_running_loop()  # started: no waker, no beats
        behind, ahead, elsewhere = [Phone() for _ in range(5)], [Phone() for _ in range(5)], Phone()
        for phone in behind:
            asyncio.create_task(streams.serve(Scope(), phone, gid, "127.0.0.1"))
        await until(lambda: all(phone.received for phone in behind))
        for seq in (0, 1):
            await asyncio.get_running_loop().run_in_executor(None, _append, store, gid, seq)
        for phone in ahead:
            asyncio.create_task(streams.serve(Scope(), phone, gid, "127.0.0.1"))
        asyncio.create_task(streams.serve(Scope("seq=0"), elsewhere, other, "127.0.0.1"))
        await until(lambda: all(phone.received for phone in ahead) and elsewhere.received)
        streams.changed([(gid, 1), (other, 0)])
        await until(lambda: all(len(phone.received) == 2 for phone in behind))
        streams.changed([(gid, 2)])
        await until(lambda: all(len(phone.received) == 3 for phone in behind))
        return [p.received for p in behind], [p.received for p in ahead], elsewhere.received

    behind, ahead, elsewhere = run(store, table)
    assert behind == [["retry: 2000\n" + change(0), change(1), change(2)]] * 5
    assert ahead == [["retry: 2000\n" + change(2)]] * 5  # a new phone with no seq: the current one
    assert elsewhere == [OPEN]


def test_a_database_file_moved_away_is_never_trusted_again_even_back_in_place(store, tmp_path):
    """The waker's record of the seqs (what the polls are answered from) is unusable for good once
    the file it serves is not there: moved back, it is the same file, but the record stays unused."""
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    path = store.path

    async def table(streams):
        streams.start()  # as the front does with the first poll
        record = streams.known
        assert record.get(gid) is None  # asked about: the waker looks it up
        await until(lambda: record.get(gid) == 0)
        threads = (streams.waker.name, streams.waker.daemon)
        os.rename(path, path + ".away")
        await until(lambda: record.broken)
        os.rename(path + ".away", path)
        await asyncio.sleep(0.5)  # ten of the waker's looks
        return record.get(gid), record.broken, threads

    assert run(store, table) == (None, True, ("rss-stream-waker", True))  # a daemon: never holds the exit
