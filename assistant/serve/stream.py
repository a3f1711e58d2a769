"""Changes pushed to the phones: one server-sent event stream per game (issue 28).

``GET /games/<id>/stream`` is answered here, on the worker's event loop (assistant/serve/front.py
routes it), never on one of the app's threads: an open stream is a coroutine waiting on an event,
a few kB, so thousands cost next to nothing.  What it sends (``text/event-stream``):

* one message per change of the game's log: ``id: N`` and ``data: N``, N the log's seq after the
  change (what the JSON door answers as ``seq``);
* on connect, if the phone's seq (``Last-Event-ID``, else ``?seq=N``, else none) is not the current
  one, one such message at once;
* a change of the seats taken (not a log row): ``event: seats`` without an ``id``;
* every ``BEAT_SECONDS`` a heartbeat: a comment line (for whatever lies between) and an empty
  ``event: beat`` (the page cannot see a comment; after two beats missed it says "No connection").

No stream queries the database.  One waker per worker process asks the store, for all of its
streams, through the store's change feed (assistant/store/feeds.py): on SQLite one query every
``TICK_SECONDS``, on PostgreSQL ``LISTEN`` on one connection of its own.  Every worker of every server
has its waker, so a change made through any of them reaches every stream.  On SQLite the waker
also keeps the seqs of the games polled, in the same snapshot, so that the polls are answered with
no database call (``known.py``); it starts with the first stream or poll.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time
from urllib.parse import parse_qsl

from assistant.serve.clients import client_streams
from assistant.serve.known import KnownSeqs

log = logging.getLogger("assistant.serve.stream")
PATH = re.compile(r"^/games/([A-Za-z0-9_-]{1,64})/stream$")
BEAT_SECONDS = 5.0
TICK_SECONDS = 0.05  # SQLite: how often the waker looks for changes
BUCKETS = 10  # the heartbeats of a worker's streams are spread over this many slices of BEAT_SECONDS
LOG_EVERY = 60.0
HEADERS = [
    ("content-type", "text/event-stream; charset=utf-8"),
    ("cache-control", "no-store"),
    ("x-accel-buffering", "no"),  # nginx: pass it on as it comes
]
BEAT = ": beat\nevent: beat\ndata:\n\n"
SEATS = "event: seats\ndata: seats\n\n"
RETRY = "retry: 2000\n"  # the browser's own reconnection delay (ms)
TOO_MANY = "Too many open streams from your address: this phone checks for changes every second instead.\n"


def message(seq: int) -> str:
    return f"id: {seq}\ndata: {seq}\n\n"


def game_of(path: str) -> str | None:
    """The game id if ``path`` is a game's stream."""
    match = PATH.match(path)
    return match.group(1) if match else None


def seen_seq(last_event_id: str, query: str) -> int | None:
    """The seq the phone has: ``Last-Event-ID`` (the browser's own reconnection), else ``?seq=N``."""
    for value in [last_event_id.strip(), *(v for k, v in parse_qsl(query) if k == "seq")]:
        if value.isascii() and value.isdigit() and len(value) < 19:
            return int(value)
    return None


class _Stream:
    __slots__ = ("sent", "pending", "seats", "beat", "wake")

    def __init__(self, sent: int | None):
        self.sent = sent  # the seq the phone has
        self.pending: int | None = None  # the game's seq as last heard
        self.seats = False
        self.beat = False
        self.wake = asyncio.Event()

    def take(self) -> str:
        out = []
        if self.pending is not None and self.pending != self.sent:
            out.append(message(self.pending))
            self.sent = self.pending
        if self.seats:
            out.append(SEATS)
            self.seats = False
        if self.beat and not out:
            out.append(BEAT)
        self.beat = False
        return "".join(out)


class Streams:
    """A worker's streams, by game, and its waker (started with the first stream)."""

    def __init__(self, store, pool, beat: float = BEAT_SECONDS, tick: float = TICK_SECONDS):
        self.store, self.pool = store, pool
        self.beat_seconds, self.tick = beat, tick
        self.games: dict[str, set[_Stream]] = {}
        self.buckets: list[set[_Stream]] = [set() for _ in range(BUCKETS)]
        self.loop: asyncio.AbstractEventLoop | None = None
        self.waker: _Waker | None = None
        self._beats: asyncio.Task | None = None  # pragma: no mutate: only holds the task (never read)
        self._next = 0
        self._logged = -LOG_EVERY
        self.known = KnownSeqs()  # what the polls answer from (known.py), kept by the waker
        self.feed = store.backend.change_feed(BEAT_SECONDS)  # which games changed (store/feeds.py)
        self.client_limit = client_streams()  # RSS_CLIENT_STREAMS: one address's open streams
        self.by_client: dict[str, int] = {}
        self.closing = False  # the worker stops: every stream ends at once (``end_all``)

    def __len__(self) -> int:
        return sum(len(b) for b in self.buckets)

    # -- one stream ---------------------------------------------------------------------------
    async def serve(self, scope, protocol, gid: str, client: str) -> None:
        """Answer ``GET /games/<gid>/stream``: 404 for no such game, 429 past the client's streams
        (the phone polls instead), else the stream until the phone goes."""
        held = self.by_client.get(client, 0)
        if held >= self.client_limit:
            _text(protocol, 429, TOO_MANY, [("retry-after", "30")])
            return
        self.by_client[client] = held + 1
        try:
            await self._serve(scope, protocol, gid)
        finally:
            left = self.by_client[client] - 1
            if left:
                self.by_client[client] = left
            else:
                del self.by_client[client]

    async def _serve(self, scope, protocol, gid: str) -> None:
        self.start()
        if self.closing:
            return _text(protocol, 503, "The table's server is stopping.\n", [("retry-after", "2")])
        stream = _Stream(seen_seq(scope.headers.get("last-event-id") or "", scope.query_string))
        self.games.setdefault(gid, set()).add(stream)  # before the seq is read: no change falls between
        bucket = self.buckets[self._next % BUCKETS]
        self._next += 1
        bucket.add(stream)
        try:
            try:
                current = await self.loop.run_in_executor(self.pool, self._current, gid)
            except Exception as err:  # noqa: BLE001 - any database error: a short 503, said once a minute
                self._problem(err)
                _text(
                    protocol,
                    503,
                    "The table's server has a problem with its database; retrying.\n",
                    [("retry-after", "5")],
                )
                return
            if current is None:
                _text(protocol, 404, "There is no game at this address.\n")
                return
            stream.pending = current if stream.pending is None else max(current, stream.pending)
            first = stream.take() or ": open\n\n"
            transport = protocol.response_stream(200, HEADERS)
            await transport.send_str(RETRY + first)
            while not self.closing:
                await stream.wake.wait()
                stream.wake.clear()
                chunk = stream.take()
                if chunk:
                    await transport.send_str(chunk)
        except Exception:  # noqa: BLE001 - the phone went away (or the worker stops)
            return
        finally:
            bucket.discard(stream)
            same = self.games.get(gid)
            if same is not None:
                same.discard(stream)
                if not same:
                    del self.games[gid]

    def end_all(self) -> None:
        """The worker stops: every stream ends now (and every one opened after), so that no phone's
        open stream holds the worker until it is killed; the phones reconnect to the next server."""
        self.closing = True
        for bucket in self.buckets:
            for stream in bucket:
                stream.wake.set()

    def _current(self, gid: str) -> int | None:
        return self.store.seq(gid) if self.store.game_exists(gid) else None

    # -- the waker's news, on the loop ------------------------------------------------------------
    def changed(self, changes: list[tuple[str, int | None]]) -> None:
        """(game, new seq) for a log change, (game, None) for a seat change: wake its streams."""
        for gid, seq in changes:
            for stream in self.games.get(gid, ()):
                if seq is None:
                    stream.seats = True
                elif stream.pending is None or seq > stream.pending:
                    stream.pending = seq
                else:
                    continue
                stream.wake.set()

    def watched(self) -> list[str]:
        return list(self.games)

    def start(self) -> None:
        """Start the heartbeats and the waker (on the loop: with the first stream or poll)."""
        if self.loop is not None:
            return
        self.loop = asyncio.get_running_loop()
        self._beats = self.loop.create_task(self._beat())
        self.waker = waker_for(self)
        self.waker.start()

    async def _beat(self) -> None:
        """Every slice of BEAT_SECONDS, the streams of one bucket get their heartbeat (not all at once)."""
        i = 0
        while True:
            await asyncio.sleep(self.beat_seconds / BUCKETS)
            for stream in self.buckets[i % BUCKETS]:
                stream.beat = True
                stream.wake.set()
            i += 1

    def _problem(self, err: Exception) -> None:
        now = time.monotonic()
        if now - self._logged >= LOG_EVERY:
            self._logged = now
            log.error("database error under the streams (said once a minute): %s: %s", type(err).__name__, err)


# -- wakers: one per worker ----------------------------------------------------------------------
class _Waker(threading.Thread):
    def __init__(self, streams: Streams):
        super().__init__(name="rss-stream-waker", daemon=True)
        self.streams = streams
        self.loop = streams.loop
        self._logged = -LOG_EVERY

    def tell(self, changes: list[tuple[str, int | None]]) -> None:
        if changes:
            self.loop.call_soon_threadsafe(self.streams.changed, changes)

    def catch_up(self, current) -> None:
        """After a lost connection: the games with streams, as they are now (one query)."""
        gids = asyncio.run_coroutine_threadsafe(_watched(self.streams), self.loop).result(timeout=10)
        if gids:
            self.tell(current(gids))

    def trouble(self, err: Exception) -> None:
        now = time.monotonic()
        if now - self._logged >= LOG_EVERY:
            self._logged = now
            log.error("the streams' waker lost the database (said once a minute): %s: %s", type(err).__name__, err)


async def _watched(streams: Streams) -> list[str]:
    return streams.watched()


def waker_for(streams: Streams) -> _Waker:
    return Waker(streams)


class Waker(_Waker):
    """The store's change feed (assistant/store/feeds.py: one query per tick on SQLite, ``LISTEN``
    on PostgreSQL) told to the streams; where the feed answers polls, the seqs of the games polled
    too, from the same snapshot (known.py). A lost connection is opened again, and the games with
    streams are caught up."""

    def run(self) -> None:
        known = self.streams.known
        feed = self.streams.feed
        opened = False
        while not self.loop.is_closed():  # the worker's loop gone: nothing left to tell
            try:
                if not feed.is_open:
                    feed.open()
                    if opened:  # the connection was lost: whatever changed meanwhile
                        self.catch_up(feed.seqs)
                    opened = True
                changes, found = feed.wait(self.streams.tick, known.asked if feed.answers_polls else list)
                self.tell(changes)
                if feed.answers_polls:
                    if feed.still_served():
                        known.heard(found, changes)
                    else:
                        known.lost(for_good=True)
            except Exception as err:  # noqa: BLE001 - reopen and go on
                if feed.answers_polls:
                    known.lost()
                self.trouble(err)
                feed.close()
                time.sleep(1.0)


def _text(protocol, status: int, text: str, extra=()) -> None:
    protocol.response_bytes(
        status, [("content-type", "text/plain; charset=utf-8"), ("cache-control", "no-store"), *extra], text.encode()
    )
