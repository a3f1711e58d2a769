"""No request can pin a worker (issue 26): every request's work has a wall-clock deadline.

``RSS_REQUEST_SECONDS`` (default 10) counted from when one of the app's threads takes the request
(reading its body and waiting for a free thread do not count):

* the app's thread runs the request within that deadline (``rules.core.deadline``): the engine's
  loops look at it and stop with ``TooLong``, answered here as a 503 that says so; nothing is stored;
* the front (``front.py``) answers 503 itself when the thread has not answered shortly after the
  deadline, whatever it is stuck in: the client never waits longer;
* the costly one-off work (imports and resumes: a position or transcript nobody has seen yet) is
  first tried in a process of its own under a CPU and memory limit (``trial.py``), which is killed
  at the deadline.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.exceptions import ServiceUnavailable

from assistant.rules.core import deadline
from assistant.store import settings

REQUEST_SECONDS = 10.0
RETRY_AFTER = 5  # seconds a client is told to wait after a 503 of an overloaded or overdue request


def request_seconds() -> float:
    """``RSS_REQUEST_SECONDS``: a positive number of seconds, else the default."""
    return settings.get("RSS_REQUEST_SECONDS")


class Deadline:
    """WSGI middleware: the app runs each request within ``request_seconds()`` (on its own thread)."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        with deadline.within(request_seconds()):
            return self.app(environ, start_response)


class Overdue(ServiceUnavailable):
    name = "Taking too long"


def _too_long(err: deadline.TooLong):
    from assistant.web.errors import _handle

    return _handle(Overdue(description=err.message, retry_after=RETRY_AFTER))


def init_app(app: Flask) -> None:
    app.register_error_handler(deadline.TooLong, _too_long)
