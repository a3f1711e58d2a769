"""Slow request bodies never hold the threads that serve the tables (issue 18).

granian's WSGI interface reads a request's body on the app's own thread, and has a deadline only
for the request's head: 16 clients that announce an upload and then send a byte every 2 s held
every app thread, and no page was answered. So granian serves the app through its own async
interface (RSGI) and this small front: on the worker's event loop (where a waiting connection costs
nothing) it reads the whole body first, within a deadline, and only then hands the request to the Flask app
on one of the worker's threads. A body that does not arrive in time is answered 408 and never
reaches the app; one larger than the app accepts is refused (413) before it is read.

The deadline: ``BODY_SECONDS`` (15 s), plus one second per ``BODY_RATE`` bytes announced (8 KB/s, a
very slow phone): a 2 MB transcript may take about four minutes.

A request's own deadline (issue 26, ``deadlines.py``): once a thread has taken it, the app has
``RSS_REQUEST_SECONDS`` (10 s) to answer, and the front answers 503 (with Retry-After) a moment
later if it has not, whatever the thread is stuck in; a request that waited as long for a free
thread is answered 503 too and never runs. The requests take turns on the threads (``admit.py``):
one at a time while they compute, more while the running ones wait.

The live-sync poll's "nothing new", nearly every request a server gets, is answered here before
anything else (``poll.FastPoll.answer``): no environ, no middleware, no thread.
"""

from __future__ import annotations

import asyncio
import io
import signal
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from assistant.serve import stream
from assistant.serve.admit import Admission, Crowded
from assistant.serve.clients import client_address, trusted_proxies
from assistant.store import settings
from assistant.web.deadlines import RETRY_AFTER, request_seconds

BODY_SECONDS = 15.0
BODY_RATE = 8 * 1024
POLL_SUFFIX = "/version"
FRONT_MARGIN = 0.25  # seconds past RSS_REQUEST_SECONDS before the front answers for a silent app
OVERDUE = (
    "The server took too long to answer this request (longer than RSS_REQUEST_SECONDS) and stopped "
    "waiting for it. Reload the page to see whether it was saved before entering it again.\n"
)
CROWDED = "Too many requests from your address are waiting at once: this one was not taken. Try again in a moment.\n"


def body_deadline(length: int) -> float:
    """Seconds a body of ``length`` bytes (as announced) may take to arrive."""
    seconds = settings.get("RSS_BODY_SECONDS")
    return seconds + max(length, 0) / BODY_RATE


class BufferedBodies:
    """An RSGI app in front of a WSGI app: bodies buffered on the event loop, the app on threads."""

    def __init__(self, wsgi, threads: int, max_body: int, store=None, poll=None):
        self.wsgi = wsgi
        self.max_body = max_body
        self.poll = poll  # the poll's fast answer (poll.FastPoll), given before any WSGI request is made
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="rss-app")
        self.admission = Admission(self.pool, threads)  # the requests take turns on the threads (admit.py)
        self.trusted = trusted_proxies()  # RSS_TRUSTED_PROXIES (clients.py)
        self.overdue = 0  # threads still running a request answered 503 at its deadline
        # the games' event streams, on this loop (assistant/serve/stream.py); None: no streams
        self.streams = None if store is None else stream.Streams(store, self.pool)
        if self.streams is not None and poll is not None and self.streams.feed.answers_polls:
            poll.known = self.streams.known  # the polls answered from what the waker hears (known.py)

    def __rsgi_init__(self, loop) -> None:
        """On the worker's stop signal (SIGTERM, from granian's master) the open event streams end
        at once: granian waits for every connection to finish before the worker ends, and kills it
        after ``SHUTDOWN_SECONDS`` otherwise (issue 37).  granian's own handler on the loop still runs:
        the signal also reaches the loop through its wake-up file (signal.set_wakeup_fd)."""
        # Ctrl-C in a terminal signals every process of its group: a worker that stopped on it
        # by itself could be seen by granian's master as one that crashed, and be started again
        # in place of the stop. The workers stop when the master tells them (SIGTERM) instead.
        try:
            loop.remove_signal_handler(signal.SIGINT)
        except (AttributeError, NotImplementedError, RuntimeError, ValueError):
            pass
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if self.streams is None:
            return
        streams = self.streams

        def stopping(signum, frame) -> None:
            loop.call_soon_threadsafe(streams.end_all)

        signal.signal(signal.SIGTERM, stopping)

    async def __rsgi__(self, scope, protocol):
        """One request: its body read here (408 past the deadline, 413 too large), then the app."""
        if scope.proto != "http":
            return
        if self.poll is not None and scope.method == "GET" and scope.path.endswith(POLL_SUFFIX):
            head = scope.headers
            if "content-length" not in head and "transfer-encoding" not in head:
                if self.streams is not None and self.streams.loop is None:
                    self.streams.start()  # the waker keeps the games' seqs for the polls too
                answer = self.poll.answer(scope.path, scope.query_string, head.get("host") or "")
                if answer is not None:
                    protocol.response_bytes(*answer)
                    return
        client = client_address(scope.client, scope.headers.get("x-forwarded-for"), self.trusted)
        gid = stream.game_of(scope.path) if self.streams is not None and scope.method == "GET" else None
        if gid is not None:
            await self.streams.serve(scope, protocol, gid, client)
            return
        headers = [(k.lower(), v) for k, v in scope.headers.items()]
        length = next((v for k, v in headers if k == "content-length"), "")
        announced = int(length) if length.isdigit() else 0
        if announced > self.max_body:
            _reply(protocol, 413, f"Request body too large: at most {self.max_body} bytes.\n")
            return
        body = b""
        if announced or any(k == "transfer-encoding" for k, _ in headers):
            try:
                body = await asyncio.wait_for(self._rsgi_body(protocol), body_deadline(announced))
            except TimeoutError:
                _reply(protocol, 408, "The request's body did not arrive in time.\n")
                return
            except _TooLarge:
                _reply(protocol, 413, f"Request body too large: at most {self.max_body} bytes.\n")
                return
            except Exception:  # the client went away
                return
        # everything else on one of the app's threads, the polls the fast answer left (a new seq) too:
        # Flask on this loop would hold every other request of the worker meanwhile
        try:
            answer = await self._on_a_thread(_environ(scope, headers, body, client), client)
        except Crowded:
            return _reply(protocol, 503, CROWDED, [("retry-after", "1")])
        if answer is None:
            return _reply(protocol, 503, OVERDUE, [("retry-after", str(RETRY_AFTER))])
        status, out_headers, chunks = answer
        protocol.response_bytes(status, out_headers, b"".join(chunks))

    async def _on_a_thread(self, environ, client: str):
        """The app's answer, from one of its threads; None when it did not come by the request's
        deadline (``RSS_REQUEST_SECONDS`` from when the thread took it, or as long waiting for one).
        The thread cannot be stopped: it goes on, and its answer is dropped.  When a thread takes the
        request it only notes the time: the loop is woken once per request, by the answer."""
        taken: list[float] = []  # when a thread took it (time.monotonic), set by that thread

        def job():
            taken.append(time.monotonic())
            return _run(self.wsgi, environ)

        done = self.admission.submit(job, client)  # Crowded: the client's line is full
        seconds = request_seconds()
        try:
            return await asyncio.wait_for(asyncio.shield(done), seconds)
        except TimeoutError:
            pass
        if not taken and done.cancel():  # still waiting for a thread: it never runs
            return None
        # a moment more than the app's own deadline: its own 503 says more, when it can answer
        left = taken[0] + seconds + FRONT_MARGIN - time.monotonic() if taken else FRONT_MARGIN
        try:
            return await asyncio.wait_for(asyncio.shield(done), max(left, 0.0))
        except TimeoutError:
            self.overdue += 1
            done.add_done_callback(self._finished_late)
            return None

    def _finished_late(self, _done) -> None:
        self.overdue -= 1

    async def _rsgi_body(self, protocol) -> bytes:
        parts, size = [], 0
        async for chunk in protocol:
            size += len(chunk)
            if size > self.max_body:
                raise _TooLarge()
            parts.append(chunk)
        return b"".join(parts)


class _TooLarge(Exception):
    pass


def _reply(protocol, status: int, text: str, extra: list | None = None) -> None:
    protocol.response_bytes(
        status, [("content-type", "text/plain; charset=utf-8"), ("connection", "close"), *(extra or [])], text.encode()
    )


def _split(address: str, default_port: str) -> tuple[str, str]:
    address = address or ""
    host, sep, port = address.rpartition(":")
    return (host, port) if sep else (address, default_port)


def _environ(scope, headers: list[tuple[str, str]], body: bytes, client: str | None = None) -> dict:
    """The WSGI environ of an RSGI request (PEP 3333: the path as latin-1 text of its UTF-8 bytes);
    ``REMOTE_ADDR`` is ``client``, the address behind a trusted proxy (clients.py), when given."""
    server_host, server_port = _split(scope.server, "80")
    client_host, client_port = _split(scope.client, "")
    if client:
        client_host = client
    environ = {
        "REQUEST_METHOD": scope.method,
        "SCRIPT_NAME": "",
        "PATH_INFO": scope.path.encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope.query_string,
        "SERVER_NAME": server_host,
        "SERVER_PORT": server_port,
        "SERVER_PROTOCOL": f"HTTP/{scope.http_version}",
        "REMOTE_ADDR": client_host,
        "REMOTE_PORT": client_port,
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.scheme,
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "CONTENT_LENGTH": str(len(body)) if body else "",
    }
    for name, value in headers:
        if name == "content-type":
            environ["CONTENT_TYPE"] = value
        elif name != "content-length":
            key = "HTTP_" + name.upper().replace("-", "_")
            environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ


def _run(wsgi, environ) -> tuple[int, list[tuple[str, str]], list[bytes]]:
    """Call the WSGI app on this thread: (status, headers, body)."""
    answer: dict = {}

    def start_response(status, headers, exc_info=None):
        if exc_info and "written" in answer:  # PEP 3333: only once the body has begun (it is sent)
            raise exc_info[1].with_traceback(exc_info[2])
        answer["status"], answer["headers"] = int(status.split(" ", 1)[0]), list(headers)
        return lambda data: answer.setdefault("written", []).append(data)

    result = wsgi(environ, start_response)
    try:
        chunks = list(answer.get("written", [])) + [bytes(c) for c in result]
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    return answer["status"], answer["headers"], chunks
