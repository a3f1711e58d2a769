"""A poll is answered from the seqs the worker's stream waker heard, with no database call
(assistant/serve/known.py): the real store on an SQLite file, the real waker on an event loop of
its own, the real fast poll.  (Through the real server, a database deleted, replaced or damaged
under polls answered this way still gives 503: tests/robustness/test_vanished_db.py and
test_damaged_db.py.)"""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from assistant.serve import stream
from assistant.serve.poll import FastPoll
from assistant.store import Store

PLAYERS = ["Amy", "Brian", "Crystal"]
HEADERS = [("Cache-Control", "no-store")]  # the view's own 204 headers, as the poll learns them


def _until(condition, seconds: float = 3.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


@pytest.fixture
def worker(tmp_path):
    """(store, poll, streams): one worker's pieces, its loop running in a thread."""
    store = Store(str(tmp_path / "games.sqlite3"))
    pool = ThreadPoolExecutor(max_workers=1)
    streams = stream.Streams(store, pool)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    loop.call_soon_threadsafe(streams.start)  # as the front does with the first poll
    poll = FastPoll(None, store)
    poll._headers = HEADERS
    poll.known = streams.known
    yield store, poll, streams
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=5)
    pool.shutdown()


def test_a_poll_is_answered_from_what_the_waker_heard_without_a_database_call(worker):
    store, poll, streams = worker
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    assert poll._quick(gid, "seq=0")[0] == 204  # not known yet: the database answers, the waker is asked
    assert _until(lambda: streams.known.seqs.get(gid) == 0)

    statements: list[str] = []
    conn = store.tables._db().conn  # this thread's connection: the one a poll from here would use
    conn.set_trace_callback(statements.append)
    status, headers, _ = poll._quick(gid, "seq=0")
    assert (status, headers[-1]) == (204, ("X-RSS-Seq", "0"))
    assert poll._quick(gid, "seq=7") is None  # another seq: the view answers (from the database)
    assert statements == []

    # a change entered through another worker: within the waker's tick, seq 0 is no longer current
    conn.set_trace_callback(None)
    _, game = store.state(gid)
    store.append(gid, 0, {"type": "reveal", "company": game.next["choices"][0]})
    conn.set_trace_callback(statements.append)
    assert _until(lambda: streams.known.seqs.get(gid) == 1)
    assert poll._quick(gid, "seq=0") is None  # the view answers: the new poller, the change
    assert poll._quick(gid, "seq=1")[0] == 204
    assert statements == []


def test_a_game_that_does_not_exist_is_never_known(worker):
    store, poll, streams = worker
    assert poll._quick("no-such-game", "seq=0") is None  # the view answers 404
    time.sleep(0.3)  # several ticks of the waker
    assert "no-such-game" not in streams.known.seqs
    assert poll._quick("no-such-game", "seq=0") is None
