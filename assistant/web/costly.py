"""Costly work takes turns (issue 26): result images, score checks, imports and resumes.

Each kind of costly work runs at most ``slots`` at a time in a worker process (one by default);
one more request may wait ``WAIT_SECONDS`` for its turn, and any other gets a 503 with
``Retry-After`` at once: a flood of them (eight clients asking for the result image over and over)
costs a worker at most two threads, and the table's pages and polls go on on the others.  The limit
is per worker and not per client: a whole hall behind one router shares one address.  What they
produce is kept by what it shows (a ``RenderedCache`` keyed by the figures drawn), so the same image
asked again is not drawn again.  One gate per kind per app (``app.extensions``), never module-global.

Work that would hold the worker's interpreter (resvg draws with the GIL held) or that might never
end (an import's trial, ``trial.py``) runs in a child process: ``in_a_child`` forks it from
multiprocessing's fork server (one per worker, started on first use: a fork of a process that has
imported what it runs, never of the worker's threads), at low priority, killed at the deadline; it
ends with its worker, even after a kill -9 (``end_with_parent``).
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading

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


def end_with_parent() -> None:
    """In a child of the fork server: it ends when the worker does (even after a kill -9 of it).

    The fork server exits once no process holds its "alive" pipe any more, and every child it
    forks gets a copy (to start processes of its own, which ours never do): so the child lets go
    of it, and the kernel kills the child when its parent, the fork server, is gone
    (Linux: PR_SET_PDEATHSIG).  The worker's death then ends the fork server, which ends them."""
    from multiprocessing import forkserver as fs

    server = getattr(fs, "_forkserver", None)
    alive = getattr(server, "_forkserver_alive_fd", None)
    if alive is not None:
        os.close(alive)
        server._forkserver_alive_fd = None
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
        if os.getppid() == 1:  # the fork server ended already
            os._exit(1)


def in_a_child(target, args: tuple, seconds: float):
    """``target(*args)`` in a child process of the fork server, its answer back; ``TooLong`` when it
    has not answered within ``seconds`` (it is then killed), ``ChildDied`` when it died without one.
    The child is a daemon: a worker that stops takes it along."""
    ctx = forkserver()
    receive, send = ctx.Pipe(duplex=False)  # pragma: no mutate: a two-way pipe carries the one answer alike
    child = ctx.Process(target=_answer, args=(send, target, args), name="rss-child", daemon=True)
    child.start()
    send.close()
    left = deadline.remaining()  # the start of the first child also starts the fork server: it counts
    wait = seconds if left is None else max(min(seconds, left), 0)
    try:
        if not receive.poll(wait):
            raise deadline.TooLong(request_seconds())
        return receive.recv()
    except EOFError:  # it died without a word: past its CPU limit (SIGXCPU), or killed
        child.join(1)
        if child.exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
            raise deadline.TooLong(request_seconds()) from None
        raise ChildDied(child.exitcode) from None
    finally:
        if child.is_alive():
            child.kill()
        child.join(5)  # pragma: no mutate: a killed child ends at once, whatever the bound
        receive.close()


class ChildDied(Exception):
    def __init__(self, code):
        super().__init__(f"the child process died (exit code {code})")


def _answer(conn, target, args) -> None:
    try:
        end_with_parent()
        os.nice(NICE)
        conn.send(target(*args))
    finally:
        conn.close()


CACHED = 64  # results kept per worker (an image is some 50 kB)


def init_app(app) -> None:
    app.extensions["rss_costly"] = RenderedCache(CACHED)
    app.extensions["rss_gates"] = {
        "render": Gate("drawings and score checks"),
        "trial": Gate("imports and resumed games"),
    }


def cache() -> RenderedCache:
    """The results kept by what they show (this worker's)."""
    return current_app.extensions["rss_costly"]


def paint(svg: str) -> bytes:
    """The PNG image of an SVG drawing, made in a child process: resvg holds the GIL for the whole
    drawing (0.2 s for a result image), which in the worker would stall every other request of it;
    in a child (low priority, forked from the fork server) it stalls nothing."""
    from assistant.web.share import svg_to_png

    try:
        return in_a_child(svg_to_png, (svg,), request_seconds())
    except ChildDied:
        raise Busy(description="The drawing could not be made: try again.", retry_after=RETRY_AFTER) from None


def turn(kind: str):
    """``with costly.turn("render"): ...``: wait for this kind's slot (503 Busy past the wait)."""
    return current_app.extensions["rss_gates"][kind].turn()
