"""Tracebacks cannot fill the disk: a flood of failing requests writes a bounded log.

Each answer of 500 wrote its whole traceback (about 1.6 KB): 3,407 posts in 5 s made 5.6 MB of
log, on the disk the database is on.  Now each distinct error is written in full once a minute
(per worker), and the next one written after the minute says how many were left out
(``assistant/web/errorlog.py``).  The failing request is the test hook of ``assistant/web/trial.py``
(``RSS_TEST_HOOKS=1``, a transcript with ``"test_hook": "fail"``): an import failing like a bug.
"""

from __future__ import annotations

import logging
import sys
import time

from assistant.web.errorlog import KINDS, Bounded

from .conftest import Http

FLOOD = 1000
WORKERS = 2  # the server_factory's default
FAILING = {
    "format": "rss-table-transcript",
    "version": 1,
    "players": ["Amy", "Brian"],
    "events": [],
    "test_hook": "fail",
}
MESSAGE = "test hook: an import failing like a bug"


def test_a_flood_of_failing_requests_writes_a_bounded_log(server_factory):
    srv = server_factory(env={"RSS_TEST_HOOKS": "1"})
    client = Http(srv.base, timeout=60)
    start = len(srv.output().encode())
    began = time.monotonic()
    for _ in range(FLOOD):
        status, body = client.json("POST", "/games/import", FAILING)
        assert status == 500 and body["error"] == "Something went wrong on the server.", body
    took = time.monotonic() - began
    assert client.json("GET", "/games/nope/state")[0] == 404  # still serving
    time.sleep(0.3)
    written = srv.output().encode()[start:]
    minutes = int(took // 60) + 1
    print(f"\n{FLOOD} failing requests in {took:.1f} s wrote {len(written):,} bytes of log")
    text = written.decode()
    # the error is said, with its traceback, at least once, and at most once a minute per worker
    assert MESSAGE in text and "Traceback" in text
    assert text.count("Traceback") <= WORKERS * minutes, text[:3000]
    assert len(written) < 8 * 1024 * minutes, text[:3000]


def _record(logger: logging.Logger, message: str, path: str, exc=None) -> logging.LogRecord:
    exc_info = None
    if exc is not None:
        try:
            raise exc
        except Exception:
            exc_info = sys.exc_info()
    return logger.makeRecord(logger.name, logging.ERROR, __file__, 1, message, (path,), exc_info)


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_each_error_is_written_once_a_minute_and_then_with_how_many_were_left_out():
    clock = Clock()
    bounded = Bounded(every=60, clock=clock)
    logger = logging.getLogger("tests.errorlog")

    def passes(message, path, exc=None):
        record = _record(logger, message, path, exc)
        return bounded.filter(record), record.getMessage()

    # the first of its kind is written; the next 99 within the minute are not, whatever the path
    assert passes("Exception on %s [POST]", "/games/a", KeyError("x")) == (True, "Exception on /games/a [POST]")
    assert not any(passes("Exception on %s [POST]", f"/games/{i}", KeyError("x"))[0] for i in range(99))
    # another kind of error is its own: written once
    assert passes("Exception on %s [POST]", "/games/b", ValueError("y"))[0]
    assert not passes("Exception on %s [POST]", "/games/b", ValueError("y"))[0]
    # a message without an exception is a kind by where it is logged (its text may hold a path)
    assert passes("database error on %s", "/games/c")[0]
    assert not passes("database error on %s", "/games/d")[0]
    clock.now += 59.9
    assert not passes("Exception on %s [POST]", "/games/e", KeyError("x"))[0]
    clock.now += 0.2  # a minute after the first
    ok, text = passes("Exception on %s [POST]", "/games/f", KeyError("x"))
    assert ok and text == "Exception on /games/f [POST] (and 100 more like it left out since the last one written)"
    ok, text = passes("database error on %s", "/games/g")
    assert ok and text == "database error on /games/g (and 1 more like it left out since the last one written)"
    assert not passes("Exception on %s [POST]", "/games/h", KeyError("x"))[0]
    clock.now += 60  # the count starts again from the one written
    ok, text = passes("Exception on %s [POST]", "/games/i", KeyError("x"))
    assert ok and text == "Exception on /games/i [POST] (and 1 more like it left out since the last one written)"
    clock.now += 60  # none left out: the message as it is
    assert passes("Exception on %s [POST]", "/games/j", KeyError("x")) == (True, "Exception on /games/j [POST]")


def test_past_so_many_kinds_the_rest_share_one():
    bounded = Bounded(every=60, clock=Clock())
    logger = logging.getLogger("tests.errorlog")
    records = [
        logger.makeRecord(logger.name, logging.ERROR, __file__, line, "at %d", (line,), None) for line in range(1000)
    ]
    written = sum(bounded.filter(r) for r in records)
    assert written == KINDS + 1  # each of the first KINDS, then one of all the others
