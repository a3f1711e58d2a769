"""The app's requests take turns in a worker: one at a time, more only while the running ones wait.

A worker runs the Flask app on several threads (``front.py``), but Python runs one of them at a
time (its interpreter lock). Four short requests side by side take as long as four in a row, and
each of them waits for all of them; worse, every one of those threads wants the lock back every
few milliseconds, and the worker's event loop, which answers the polls and holds the streams,
waits behind each of them. Measured under 200 tables (``benchmarks/load.py --refresh page``), one
app thread per worker gave a lower p99 and CPU than four in every round. A render lock inside
Flask did not: the requests still went through Flask's own machinery side by side.

But one thread is not enough when a request waits rather than computes: a drawing in a child
process, a costly slot (``web/costly.py``), the database's write lock. So the front admits the
requests here, on the event loop, in the order they came:

* a request starts when no other one started less than ``GRACE`` seconds ago is still running;
* a request that has run ``GRACE`` seconds (it is waiting, or it is costly) no longer holds the
  next one back, up to the worker's threads.

A queued request that its caller gives up on (``cancel``) never runs.
"""

from __future__ import annotations

import asyncio
import os
from collections import deque
from concurrent.futures import Executor

GRACE = 0.05  # seconds a running request holds the next one back


def grace_seconds() -> float:
    """``RSS_GRACE_MS`` (milliseconds; 0: every request starts at once, as plain threads do)."""
    value = os.environ.get("RSS_GRACE_MS")
    return GRACE if not value else max(float(value), 0.0) / 1000


class Admission:
    """Requests of one event loop, admitted to the pool's threads in turns (see the module)."""

    def __init__(self, pool: Executor, threads: int, grace: float | None = None):
        self.pool, self.threads = pool, threads
        self.grace = grace_seconds() if grace is None else grace
        self.queue: deque = deque()  # (future for the caller, job) not started yet
        self.running = 0  # jobs handed to the pool and not finished
        self.fresh = 0  # of those, the ones started less than ``grace`` ago

    def submit(self, job) -> asyncio.Future:
        """A future for ``job()``'s result, run on the pool when its turn comes."""
        loop = asyncio.get_running_loop()
        outer = loop.create_future()
        self.queue.append((outer, job))
        self._admit(loop)
        return outer

    def _admit(self, loop) -> None:
        while self.queue and self.running < self.threads and (self.fresh == 0 or self.grace == 0):
            outer, job = self.queue.popleft()
            if outer.cancelled():
                continue
            turn = _Turn(self, loop, outer)
            try:
                turn.work = self.pool.submit(job)
            except RuntimeError as error:  # the pool is shut down: the worker is stopping
                outer.set_exception(error)
                continue
            self.running += 1
            self.fresh += 1
            turn.timer = loop.call_later(self.grace, turn.aged)
            turn.work.add_done_callback(turn.finished_on_its_thread)
            outer.add_done_callback(turn.given_up)


class _Turn:
    """One admitted job: its timer, its work on the pool and its caller's future."""

    __slots__ = ("admission", "loop", "outer", "timer", "work", "fresh")

    def __init__(self, admission: Admission, loop, outer: asyncio.Future):
        self.admission, self.loop, self.outer = admission, loop, outer
        self.timer = self.work = None
        self.fresh = True

    def aged(self) -> None:
        """``grace`` seconds on: the job no longer holds the next one back."""
        self._let_the_next_in()

    def _let_the_next_in(self) -> None:
        if self.fresh:
            self.fresh = False
            self.admission.fresh -= 1
        self.admission._admit(self.loop)

    def finished_on_its_thread(self, work) -> None:
        self.loop.call_soon_threadsafe(self.finished, work)

    def finished(self, work) -> None:
        """On the loop: the job is done (or was cancelled before it started)."""
        self.timer.cancel()
        self.admission.running -= 1
        if not self.outer.done():
            if work.cancelled():
                self.outer.cancel()
            elif work.exception() is not None:
                self.outer.set_exception(work.exception())
            else:
                self.outer.set_result(work.result())
        self._let_the_next_in()

    def given_up(self, outer) -> None:
        if outer.cancelled():
            self.work.cancel()  # only if no thread has taken it yet
