"""The app's error log, bounded: a flood of failing requests cannot fill the disk.

Every 500 wrote its whole traceback (about 1.4 KB): a client posting as fast as it can wrote
megabytes a minute, on the disk the database is on.  Now each kind of error is written in full at
most once a minute (per worker process); the others of its kind are counted, and the next one
written says how many were left out.  A kind is what was raised and where (the innermost frame of
its traceback), or, for a message without one, where it was logged: never the message's text,
which may hold a path a client chose.  Past ``KINDS`` kinds, the rest share one.

``RSS_ERROR_LOG_SECONDS`` sets the minute (0: every error written, as before).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from assistant.store import settings

EVERY = 60.0  # seconds: each kind written at most once in this long
KINDS = 200  # kinds told apart (each a few dozen bytes of memory); the rest share one
OTHER = ("other",)


def every() -> float:
    return settings.get("RSS_ERROR_LOG_SECONDS", EVERY)


def _kind(record: logging.LogRecord) -> tuple:
    if record.exc_info and record.exc_info[1] is not None:
        tb = record.exc_info[2]
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        where = (tb.tb_frame.f_code.co_filename, tb.tb_lineno) if tb is not None else None
        return (record.pathname, record.lineno, type(record.exc_info[1]).__qualname__, where)
    return (record.pathname, record.lineno)


class Bounded(logging.Filter):
    """A logging filter: each kind of record passes at most once every ``every`` seconds."""

    def __init__(self, every: float = EVERY, clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.every = every
        self.clock = clock
        self._kinds: dict[tuple, list] = {}  # kind -> [when last written, how many left out since]
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if self.every <= 0:
            return True
        kind = _kind(record)
        now = self.clock()
        with self._lock:
            seen = self._kinds.get(kind)
            if seen is None and len(self._kinds) >= KINDS:
                kind, seen = OTHER, self._kinds.get(OTHER)
            if seen is None:
                self._kinds[kind] = [now, 0]
                return True
            if now - seen[0] < self.every:
                seen[1] += 1
                return False
            left_out, seen[0], seen[1] = seen[1], now, 0
        if left_out:
            record.msg = f"{record.getMessage()} (and {left_out} more like it left out since the last one written)"
            record.args = None
        return True


def init_app(app) -> None:
    """Bound the app's logger (Flask writes a request's unexpected error there, with its
    traceback; so do the error handlers and the limits).  One filter per logger: the apps of one
    process share their logger."""
    logger = app.logger
    if not any(isinstance(f, Bounded) for f in logger.filters):
        logger.addFilter(Bounded(every()))
