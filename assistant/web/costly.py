"""Costly work takes turns (issue 26): result images, charts, score checks, imports and resumes.

Each kind of costly work runs at most ``slots`` at a time in a worker process (one by default);
a request that finds them all busy waits ``WAIT_SECONDS`` for one, then gets a 503 with
``Retry-After``: a flood of them (eight clients asking for the result image over and over) costs a
worker one thread, and the table's pages and polls go on on the others.  The limit is per worker
and not per client: a whole hall behind one router shares one address.  What they produce is kept
by what it shows (``RenderedCache``, keyed by the figures drawn), so the same image asked again is
not drawn again.  One gate per kind per app (``app.extensions``), never module-global.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool

from flask import current_app
from werkzeug.exceptions import ServiceUnavailable

from assistant.rules.core import deadline
from assistant.web.deadlines import RETRY_AFTER, request_seconds
from assistant.web.rendered import RenderedCache

WAIT_SECONDS = 1.0
NICE = 10  # the child processes' priority: below the tables' requests
PRELOAD = ["assistant.web.trial", "assistant.web.share"]  # what the fork server imports once


class Busy(ServiceUnavailable):
    name = "Busy"


class Gate:
    """At most ``slots`` of one kind of costly work at a time (in this worker process), and at most
    one request waiting for a slot: a waiting request holds one of the app's threads too."""

    def __init__(self, what: str, slots: int = 1, wait: float = WAIT_SECONDS):
        self.what, self.wait = what, wait
        self._slots = threading.BoundedSemaphore(slots)
        self._waiting = threading.BoundedSemaphore(1)

    @contextlib.contextmanager
    def turn(self):
        if not self._slots.acquire(blocking=False):
            if not self._waiting.acquire(blocking=False):
                raise self._busy()
            try:
                if not self._slots.acquire(timeout=self.wait):
                    raise self._busy()
            finally:
                self._waiting.release()
        try:
            yield
        finally:
            self._slots.release()

    def _busy(self) -> Busy:
        return Busy(
            description=f"The server is busy with other {self.what} right now. Try again in a few seconds.",
            retry_after=RETRY_AFTER,
        )


def forkserver():
    """multiprocessing's fork server context (one fork server per worker process, started on first
    use): a child process costs a fork of a process that has imported what it runs, not a new
    interpreter, and never a fork of the worker's own threads."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)
    return ctx


def _painter_starts() -> None:
    """In the painter process: end with its parent, and give way to the tables' requests."""
    end_with_parent()
    os.nice(NICE)


def end_with_parent() -> None:
    """Linux: this process is killed when its parent dies (PR_SET_PDEATHSIG)."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
        except (OSError, AttributeError):
            pass


class Painter:
    """Turns SVG drawings into PNG images in a process of its own: resvg holds the GIL for the
    whole drawing (0.2 s for a result image), which in the worker would stall every other request
    of it; in the painter process it stalls nothing, at low priority.  Started on first use."""

    def __init__(self):
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def png(self, svg: str) -> bytes:
        from assistant.web.share import svg_to_png

        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(1, mp_context=forkserver(), initializer=_painter_starts)
            pool = self._pool
        seconds = deadline.remaining()
        try:
            return pool.submit(svg_to_png, svg).result(timeout=None if seconds is None else max(seconds, 0.1))
        except FutureTimeout:
            raise deadline.TooLong(request_seconds()) from None
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            raise Busy(description="The drawing could not be made: try again.", retry_after=RETRY_AFTER) from None


CACHED = 64  # results kept per worker (an image is some 50 kB)


def init_app(app) -> None:
    app.extensions["rss_costly"] = RenderedCache(CACHED)
    app.extensions["rss_painter"] = Painter()
    app.extensions["rss_gates"] = {
        "render": Gate("drawings and score checks"),
        "trial": Gate("imports and resumed games"),
    }


def cache() -> RenderedCache:
    """The results kept by what they show (this worker's)."""
    return current_app.extensions["rss_costly"]


def paint(svg: str) -> bytes:
    """The PNG image of an SVG drawing, made in the painter process (``Painter``)."""
    return current_app.extensions["rss_painter"].png(svg)


def turn(kind: str):
    """``with costly.turn("render"): ...``: wait for this kind's slot (503 Busy past the wait)."""
    return current_app.extensions["rss_gates"][kind].turn()
