"""A wall-clock deadline for the work of one request, that the engine's own loops look at.

A Python thread cannot be stopped from outside, so a loop that might not end (the automatic steps
of ``Game._advance``, which every replayed or imported event goes through) calls ``check()``: it
raises ``TooLong`` once the deadline of the work under way has passed.  Whoever starts the work
(the web app, for each request: ``RSS_REQUEST_SECONDS``) sets the deadline with ``within``; without
one, ``check`` never raises (the command line, the tests).  The deadline is per thread (a context
variable), never module-global state; ``check`` costs one look-up and one clock reading.
"""

from __future__ import annotations

import contextlib
import time
from contextvars import ContextVar

_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("rss_deadline", default=None)


class TooLong(Exception):
    """The work went on past its deadline and was stopped; nothing it was doing was kept."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.message = (
            f"This took longer than the {seconds:g} s the server gives one request, and was stopped: "
            "nothing was changed or stored."
        )
        super().__init__(self.message)


@contextlib.contextmanager
def within(seconds: float | None):
    """Run the block with a deadline ``seconds`` from now (None: no deadline)."""
    token = _DEADLINE.set(None if seconds is None else (time.monotonic() + seconds, seconds))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def remaining() -> float | None:
    """Seconds left before the deadline (None: there is none)."""
    current = _DEADLINE.get()
    return None if current is None else current[0] - time.monotonic()


def check() -> None:
    """Raise TooLong once the deadline of the work under way has passed."""
    current = _DEADLINE.get()
    if current is not None and time.monotonic() > current[0]:
        raise TooLong(current[1])
