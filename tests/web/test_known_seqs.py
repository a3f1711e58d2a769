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

from assistant.serve import known, stream
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
    loop.close()  # and with it the waker (after its tick: one test makes that 30 s)
    pool.shutdown()


def test_a_poll_is_answered_from_what_the_waker_heard_without_a_database_call(worker):
    store, poll, streams = worker
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    assert poll._quick(gid, "seq=0")[0] == 204  # not known yet: the database answers, the waker is asked
    assert _until(lambda: streams.known.seqs.get(gid) == 0)

    statements: list[str] = []
    conn = store.backend._db().conn  # this thread's connection: the one a poll from here would use
    conn.set_trace_callback(statements.append)
    status, headers, body = poll._quick(gid, "seq=0")
    assert (status, headers[-1], body) == (204, ("X-RSS-Seq", "0"), b"")
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


def test_a_record_older_than_fresh_seconds_is_not_used(worker):
    """The waker stalls (its next look 30 s away) and a row is appended meanwhile: once its last
    look is more than ``FRESH_SECONDS`` old, a poll at the old seq is no longer told "nothing new"
    from the record; the database answers (the view, for the change; 204 at the new seq)."""
    store, poll, streams = worker
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    assert poll._quick(gid, "seq=0")[0] == 204
    assert _until(lambda: streams.known.seqs.get(gid) == 0)

    # the waker's next sleep is 30 s: after at most one more look (the one under way, or the one
    # after its 50 ms sleep) it stalls; none within 0.5 s: it read the 30 s before that look
    streams.tick = 30.0
    heard, asked = streams.known.heard_at, time.monotonic()
    while streams.known.heard_at == heard and time.monotonic() - asked < 0.5:
        time.sleep(0.005)
    heard = streams.known.heard_at
    _, game = store.state(gid)
    store.append(gid, 0, {"type": "reveal", "company": game.next["choices"][0]})  # through another worker
    time.sleep(max(0.0, heard + known.FRESH_SECONDS + 0.2 - time.monotonic()))
    assert (streams.known.heard_at, streams.known.seqs[gid]) == (heard, 0)  # the record is as stale as that
    assert poll._quick(gid, "seq=0") is None  # not 204: the view answers with the change
    status, headers, _ = poll._quick(gid, "seq=1")
    assert (status, headers[-1]) == (204, ("X-RSS-Seq", "1"))  # from the database


def test_a_game_that_does_not_exist_is_never_known(worker):
    store, poll, streams = worker
    assert poll._quick("no-such-game", "seq=0") is None  # the view answers 404
    time.sleep(0.3)  # several ticks of the waker
    assert "no-such-game" not in streams.known.seqs
    assert poll._quick("no-such-game", "seq=0") is None


def test_a_change_is_answered_by_the_view_once_then_to_the_tables_other_phones_from_the_poll(tmp_path):
    """The first poll that sees a change gets the view's answer (the new poller, the trigger that
    refreshes the page); the table's other phones, still at the old seq, get that same answer from
    the poll itself, with no database call; never at another seq."""
    from werkzeug.test import Client

    from assistant.serve.server import below_flask
    from tests.web.conftest import make_app

    app = below_flask(make_app(tmp_path / "rss.sqlite3"))
    store, poll = app.extensions["rss_store"], app.extensions["rss_poll"]
    pool = ThreadPoolExecutor(max_workers=1)
    streams = stream.Streams(store, pool)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        loop.call_soon_threadsafe(streams.start)
        poll.known = streams.known
        amy = Client(app.wsgi_app)  # a phone, through the app's own WSGI stack (below Flask too)
        gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
        assert amy.get(f"/games/{gid}/version?seq=0").status_code == 204  # the view's 204, learned
        assert poll.answer(f"/games/{gid}/version", "seq=0", "localhost")[0] == 204  # the waker is asked
        assert _until(lambda: streams.known.seqs.get(gid) == 0)

        def change(seq: int) -> None:
            _, game = store.state(gid)
            store.append(gid, seq, {"type": "reveal", "company": game.next["choices"][0]})
            assert _until(lambda: streams.known.seqs.get(gid) == seq + 1)

        change(0)
        path = f"/games/{gid}/version"
        assert poll.answer(path, "seq=0", "localhost") is None  # nothing kept yet: the view answers
        first = amy.get(f"{path}?seq=0")
        assert first.status_code == 200
        assert first.headers["HX-Trigger"] == "rss-changed" and first.headers["X-RSS-Seq"] == "1"
        assert f'data-seq="1" hx-get="/games/{gid}/version?seq=1"' in first.get_data(as_text=True)

        statements: list[str] = []
        store.backend._db().conn.set_trace_callback(statements.append)  # the connection a poll here uses
        status, headers, body = poll.answer(path, "seq=0", "localhost")  # Brian's phone, still at 0
        assert (status, body) == (200, first.get_data())
        assert dict(headers)["HX-Trigger"] == "rss-changed" and dict(headers)["X-RSS-Seq"] == "1"
        assert poll.answer(path, "seq=1", "localhost")[0] == 204
        assert poll.answer(path, "seq=5", "localhost") is None  # a seq the game never reached: the view
        assert statements == []

        # the next change: the answer kept for seq 1 is never given for it
        store.backend._db().conn.set_trace_callback(None)
        change(1)
        assert poll.answer(path, "seq=0", "localhost") is None
        assert poll.answer(path, "seq=1", "localhost") is None
        assert 'data-seq="2"' in amy.get(f"{path}?seq=1").get_data(as_text=True)
        assert b'data-seq="2"' in poll.answer(path, "seq=0", "localhost")[2]
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)
        loop.close()
        pool.shutdown()
        streams.waker.join(timeout=20)
        store.close()


def test_no_phone_gets_the_cookie_of_the_phone_the_view_answered(tmp_path):
    """The fast 204 and the kept answer to a change are the view's answers to one phone, given to
    the table's other phones: never with that phone's session cookie (its seat).  The app sends no
    cookie with a poll (``SESSION_REFRESH_EACH_REQUEST`` off); with Flask's own default (on) the view
    sends Amy's cookie with each of her polls, and Brian still never gets it."""
    from werkzeug.test import Client

    from assistant.serve.server import below_flask
    from tests.web.conftest import CSRF_RE, make_app

    app = below_flask(make_app(tmp_path / "rss.sqlite3", SESSION_REFRESH_EACH_REQUEST=True))
    store, poll = app.extensions["rss_store"], app.extensions["rss_poll"]
    try:
        gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
        amy, brian = Client(app.wsgi_app), Client(app.wsgi_app)
        token = CSRF_RE.search(amy.get(f"/games/{gid}").get_data(as_text=True)).group(1)
        assert amy.post(f"/games/{gid}/seat", data={"player": "Amy", "csrf_token": token}).status_code == 303
        path = f"/games/{gid}/version"

        first = amy.get(f"{path}?seq=0")  # the view's 204, learned
        assert first.status_code == 204 and "session=" in first.headers.get("Set-Cookie", "")
        quick = brian.get(f"{path}?seq=0")  # the poll's own 204
        assert quick.status_code == 204 and quick.headers["X-RSS-Seq"] == "0"
        assert "Set-Cookie" not in quick.headers

        _, game = store.state(gid)
        store.append(gid, 0, {"type": "reveal", "company": game.next["choices"][0]})
        seen = amy.get(f"{path}?seq=0")  # the view answers the change, to Amy
        assert seen.status_code == 200 and "session=" in seen.headers.get("Set-Cookie", "")
        assert (gid, 1) in poll._changed  # kept: Brian's poll is answered from it, not by the view
        kept = brian.get(f"{path}?seq=0")  # the same answer, kept, to Brian
        assert (kept.status_code, kept.get_data()) == (200, seen.get_data())
        assert "Set-Cookie" not in kept.headers
        assert brian.get_cookie("session") is None  # Brian's phone holds no session: not Amy's seat
        assert amy.get_cookie("session") is not None
    finally:
        store.close()


# -- the record itself (known.KnownSeqs), as the waker and the loop use it, on figures from the module:
# fresh for FRESH_SECONDS (1 s) after the waker's last look, at most MAX_GAMES (50,000) games and
# MAX_WANTED (1,000) asked about between two looks ------------------------------------------------------
def test_a_game_not_known_is_asked_about_once_and_the_waker_takes_the_question():
    record = known.KnownSeqs()
    assert record.get("g1") is None and record.get("g1") is None and record.get("g2") is None
    assert sorted(record.asked()) == ["g1", "g2"]
    assert record.asked() == []  # taken: asked again only by a later poll
    assert record.get("g1") is None and record.asked() == ["g1"]


def test_at_most_a_thousand_games_are_asked_about_between_two_looks():
    record = known.KnownSeqs()
    for i in range(1001):
        assert record.get(f"g{i}") is None
    assert len(record.asked()) == 1000
    record.get("late")  # room again once the waker took them
    assert record.asked() == ["late"]


def test_what_the_waker_found_and_the_changes_it_heard_give_the_seqs():
    record = known.KnownSeqs()
    record.heard([("g1", 3), ("g2", 0)], [])
    assert (record.get("g1"), record.get("g2")) == (3, 0)
    # changes: a new seq of a game known; a seat change (no seq) leaves it; a game not asked about
    # stays unknown (a poll asks about it, and the waker looks it up)
    record.heard([], [("g1", 4), ("g2", None), ("g3", 9)])
    assert (record.get("g1"), record.get("g2"), record.get("g3")) == (4, 0, None)
    assert record.asked() == ["g3"]
    record.heard([("g3", 9)], [])
    assert record.get("g3") == 9


def test_the_record_is_used_only_within_a_second_of_the_wakers_last_look():
    record = known.KnownSeqs()
    record.heard([("g1", 3)], [])
    assert record.get("g1") == 3
    record.heard_at = time.monotonic() - 0.5  # a look half a second ago: fresh
    assert record.get("g1") == 3
    record.heard_at = time.monotonic() - 1.5  # a second and a half: stale, ask the database
    assert record.get("g1") is None
    assert record.asked() == []  # known, only stale: nothing to look up
    record.heard([], [])  # the next look, even one that found nothing new, makes it fresh again
    assert record.get("g1") == 3


def test_past_fifty_thousand_games_the_record_starts_again():
    record = known.KnownSeqs()
    record.heard([(f"g{i}", i) for i in range(49_999)], [])
    record.heard([("last", 1)], [])  # 50,000: all kept
    assert (record.get("g0"), record.get("g49998"), record.get("last")) == (0, 49_998, 1)
    record.heard([("one more", 2), ("and another", 3)], [])  # 50,002: the old ones are forgotten
    assert (record.get("g0"), record.get("last"), record.get("one more"), record.get("and another")) == (
        None,
        None,
        2,
        3,
    )
    assert len(record.seqs) == 2


def test_a_database_lost_empties_the_record_until_the_waker_reads_again_and_for_good_forever():
    record = known.KnownSeqs()
    record.heard([("g1", 3)], [])
    record.lost()  # a database error: nothing known until the waker reads the database again
    assert record.get("g1") is None and not record.broken
    record.heard([("g1", 4)], [])
    assert record.get("g1") == 4
    record.lost(for_good=True)  # the file went away or was replaced
    assert record.get("g1") is None and record.broken
    record.heard([("g1", 5)], [])  # whatever the waker hears after, the record is never trusted
    assert record.get("g1") is None
    record.lost()  # a later plain loss does not make it trusted again
    record.heard([("g1", 6)], [])
    assert record.get("g1") is None and record.broken


def test_fresh_means_less_than_a_second_old(monkeypatch):
    """The module: the record is used while the waker's last look is less than FRESH_SECONDS old
    (a clock stood still at 100 s, then at 100.999 s and 101 s)."""
    record = known.KnownSeqs()
    monkeypatch.setattr(known.time, "monotonic", lambda: 100.0)
    record.heard([("g1", 3)], [])
    monkeypatch.setattr(known.time, "monotonic", lambda: 100.999)
    assert record.get("g1") == 3
    monkeypatch.setattr(known.time, "monotonic", lambda: 101.0)
    assert record.get("g1") is None


class _Polled(list):
    """What the waker found, read back by a poll on the loop after each game it enters (the loop
    runs between any two of the waker's statements)."""

    def __init__(self, record, found):
        super().__init__(found)
        self.record, self.seen = record, []

    def __iter__(self):
        for gid, seq in list.__iter__(self):
            yield gid, seq
            self.seen.append(self.record.get(gid))


def test_a_poll_while_the_waker_enters_what_it_found_is_told_nothing_from_the_record():
    """Until the look is over (its time noted), a game just entered is not used: a fresh record,
    and one the waker lost, both send such a poll to the database (None), never a half-done look."""
    record = known.KnownSeqs()
    found = _Polled(record, [("g1", 3), ("g2", 5)])
    record.heard(found, [])
    assert found.seen == [None, None] and (record.get("g1"), record.get("g2")) == (3, 5)
    record.lost()
    found = _Polled(record, [("g1", 4)])
    record.heard(found, [])
    assert found.seen == [None] and record.get("g1") == 4
