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

The turns are shared fairly between clients (their addresses, ``clients.py``): each address has its
own line, and the lines take turns, one request each, so a client with a hundred requests waiting
holds another's back by at most one of them. With three threads or more (four by
default), an address may hold all of them but one (``client_threads``): one is always left for the
next address. Its line is bounded
(``RSS_CLIENT_QUEUE``): past it a request is refused at once (``Crowded``, a 503 with Retry-After),
before it costs anything.
"""

from __future__ import annotations

import asyncio
from collections import deque
from concurrent.futures import Executor

from assistant.store import settings

GRACE = 0.05  # seconds a running request holds the next one back (RSS_GRACE_MS's default, 50)


class Crowded(Exception):
    """The client's line is full: the request is refused before it waits."""


def grace_seconds() -> float:
    """``RSS_GRACE_MS`` (milliseconds; 0: every request starts at once, as plain threads do)."""
    return settings.get("RSS_GRACE_MS") / 1000


def client_queue() -> int:
    """``RSS_CLIENT_QUEUE`` (32): requests of one address that may wait for their turn in a worker."""
    return settings.get("RSS_CLIENT_QUEUE")


class Admission:
    """Requests of one event loop, admitted to the pool's threads in turns (see the module)."""

    def __init__(self, pool: Executor, threads: int, grace: float | None = None, queue: int | None = None):
        self.pool, self.threads = pool, threads
        self.grace = grace_seconds() if grace is None else grace
        self.queue_limit = client_queue() if queue is None else queue
        # with three threads or more, one is always left for another address
        self.client_threads = threads - 1 if threads >= 3 else threads
        # address: its (turn, its previous turn, arrival, future for the caller, job) not started yet
        self.lines: dict[str, deque] = {}
        self.last: dict[str, int] = {}  # address: the turn of its latest request
        self.holding: dict[str, int] = {}  # address: its jobs handed to the pool and not finished
        self.turn = 0  # the turn of the latest request started
        self.arrivals = 0
        self.running = 0  # jobs handed to the pool and not finished
        self.fresh = 0  # of those, the ones started less than ``grace`` ago

    def submit(self, job, client: str) -> asyncio.Future:
        """A future for ``job()``'s result, run on the pool when its turn comes; ``Crowded`` when
        ``client`` already has ``queue_limit`` requests waiting.

        Turns: a request's turn is one after its address's previous request, or after the request
        started last, whichever is later; the lowest turn goes first (then the address whose
        previous turn is lower, then the earlier). So every address waiting gets one request in
        before any gets a second."""
        loop = asyncio.get_running_loop()
        line = self.lines.setdefault(client, deque())
        if len(line) >= self.queue_limit:
            raise Crowded(client)
        previous = self.last.get(client, 0)
        turn = max(previous, self.turn) + 1
        self.last[client] = turn
        self.arrivals += 1
        outer = loop.create_future()
        line.append((turn, previous, self.arrivals, outer, job))
        self._admit(loop)
        return outer

    @property
    def waiting(self) -> int:
        return sum(len(line) for line in self.lines.values())

    def _next(self):
        """The next (client, future, job) whose turn it is, or None (see ``submit``): the lowest
        turn among the addresses not holding their share of the threads."""
        best = None
        for client, line in list(self.lines.items()):
            while line and line[0][3].cancelled():
                line.popleft()
            if not line:
                self._forget(client)
                continue
            if self.holding.get(client, 0) >= self.client_threads:
                continue
            if best is None or line[0][:3] < self.lines[best][0][:3]:
                best = client
        if best is None:
            return None
        turn, _previous, _arrival, outer, job = self.lines[best].popleft()
        self.turn = max(self.turn, turn)
        return best, outer, job

    def _forget(self, client: str) -> None:
        """An address with nothing waiting nor running is forgotten (its next request starts afresh)."""
        if not self.lines.get(client, True):
            del self.lines[client]
        if client not in self.lines and client not in self.holding:
            self.last.pop(client, None)

    def _admit(self, loop) -> None:
        while self.running < self.threads and (self.fresh == 0 or self.grace == 0):
            chosen = self._next()
            if chosen is None:
                return
            client, outer, job = chosen
            turn = _Turn(self, loop, outer, client)
            try:
                turn.work = self.pool.submit(job)
            except RuntimeError as error:  # the pool is shut down: the worker is stopping
                outer.set_exception(error)
                continue
            self.running += 1
            self.fresh += 1
            self.holding[client] = self.holding.get(client, 0) + 1
            turn.timer = loop.call_later(self.grace, turn.aged)
            turn.work.add_done_callback(turn.finished_on_its_thread)
            outer.add_done_callback(turn.given_up)


class _Turn:
    """One admitted job: its timer, its work on the pool and its caller's future."""

    __slots__ = ("admission", "loop", "outer", "client", "timer", "work", "fresh")

    def __init__(self, admission: Admission, loop, outer: asyncio.Future, client: str):
        self.admission, self.loop, self.outer, self.client = admission, loop, outer, client
        self.timer = self.work = None  # pragma: no mutate: both set by _admit before any callback reads them
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
        admission = self.admission
        admission.running -= 1
        left = admission.holding[self.client] - 1
        if left:
            admission.holding[self.client] = left
        else:
            del admission.holding[self.client]
            admission._forget(self.client)
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
