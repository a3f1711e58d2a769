"""Load test: simulated tables against a real server on loopback.

``python benchmarks/load.py --tables N --seconds S``   (or ``--find`` to search the largest N)

Starts ``python -m assistant serve`` as a subprocess on 127.0.0.1 (a free port, a temporary
database) unless ``--url`` names a running one.  Each table is a game imported from a
conformance transcript, cut at a random point (so early and late games mix); it has
``--phones`` phones, each with its own keep-alive connection, polling
``GET /games/<id>/version?seq=N`` every ``--poll`` seconds as the page does.  About every
``--event-every`` seconds one phone enters the table's next event through the JSON door
(``POST /games/<id>/events``, events of the transcript in order); now and then two phones
enter it at the same moment (one gets 409) or a phone retries with the same token (the
first answer again).  With ``--refresh components`` every phone that sees a new seq also
re-fetches the table's components, as htmx does on the page (``state``: just /state).

With ``--push`` (issue 28) every phone holds the game's event stream instead of polling
(``GET /games/<id>/stream``), a table enters one event every ``--event-every`` seconds (default
20), and what is measured is the time from the moment the post is sent to each of the table's
phones' stream message (p50/p95/p99/max; every message missing or stream refused is counted);
``--refresh region`` makes each phone then fetch the view's region once, as the page does.  It
also reports the load generator's own event-loop lag.  The generator raises its own open-file
limit (each phone holds two connections: its stream and one for requests).

Prints p50 / p95 / p99 / max latency and requests per second, per kind and overall, and the
number of unexpected answers.  All traffic stays on this machine and stops after
``--seconds`` (plus a few seconds to set up).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gzip
import html as htmllib
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import zlib
from collections import defaultdict
from pathlib import Path

import brotli  # Flask-Compress's own dependencies: the phones accept br and zstd as Chromium does

try:
    from compression import zstd  # Python 3.14+
except ImportError:
    from backports import zstd

ROOT = Path(__file__).resolve().parent.parent
SERVER_ROOT: Path | None = None  # --server-root: another checkout's server under this client model
DEFAULT_TRANSCRIPT = ROOT.parent / "shared" / "conformance" / "games" / "83092.json"
# the components whose hx-trigger is "rss-changed from:body": what a page re-fetches after a change
COMPONENTS = (
    "banner",
    "actions",
    "offering",
    "deck",
    "corporations",
    "players",
    "prices",
    "foreign",
    "history",
    "scoring",
)


# -- a minimal keep-alive HTTP/1.1 client (one per phone) -----------------------------------------
def phone_address(table: int, phone: int, phones: int) -> str:
    """The loopback address a simulated phone connects from, as each phone on a real table's wifi
    has its own: 127.0.0.2 to 127.0.0.251 in turn (the server shares its turns and caps by address,
    so one address for every phone would measure one client, not tables). A server not on the
    loopback (``--url`` elsewhere) sees the system's choice (``Conn``)."""
    return f"127.0.0.{2 + (table * phones + phone) % 250}"


class Conn:
    def __init__(self, host: str, port: int, source: str | None = None):
        self.host, self.port = host, port
        self.source = (source, 0) if source and host.startswith("127.") else None
        self.reader = self.writer = None

    async def _open(self):
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port, local_addr=self.source)

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        content_type: str | None = None,
        headers: dict | None = None,
    ) -> tuple[int, dict, bytes]:
        for attempt in (0, 1):
            if self.writer is None:
                await self._open()
            head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
            head += [f"{k}: {v}" for k, v in (headers or {}).items()]
            if body is not None:
                head += [f"Content-Type: {content_type}", f"Content-Length: {len(body)}"]
            try:
                self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + (body or b""))
                await self.writer.drain()
                return await self._response()
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def _response(self) -> tuple[int, dict, bytes]:
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("closed by the server")
        status = int(status_line.split()[1])
        headers = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            if name == "set-cookie":
                headers.setdefault("set-cookie", []).append(value.strip())
            else:
                headers[name] = value.strip()
        if "content-length" in headers:
            data = await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                data += chunk[:-2]
        elif status in (204, 304) or status < 200:
            data = b""
        else:
            data = await self.reader.read()
            self.close()
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, data


class Phone:
    """A phone's connections, as a browser keeps them: reuse an idle one, open another while all are
    busy (at most 6 per host, as Chromium), and its cookies."""

    MAX_CONNECTIONS = 6

    def __init__(self, host: str, port: int, source: str | None = None):
        self.host, self.port, self.source = host, port, source
        self.idle: list[Conn] = []
        self.opened = 0
        self.cookies: dict[str, str] = {}
        self.slots = asyncio.Semaphore(self.MAX_CONNECTIONS)
        self.log: list | None = None  # (method, path, headers) of every request, when recording

    async def request(self, method, path, body=None, content_type=None, headers=None):
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.log is not None:
            self.log.append((method, path, dict(headers)))
        async with self.slots:
            conn = self.idle.pop() if self.idle else Conn(self.host, self.port, self.source)
            if not conn.writer:
                self.opened += 1
            try:
                status, got, data = await conn.request(method, path, body, content_type, headers)
            finally:
                if conn.writer is not None:
                    self.idle.append(conn)
        for cookie in got.get("set-cookie", []):
            name, _, rest = cookie.partition("=")
            value = rest.split(";", 1)[0]
            if "max-age=0" in cookie.lower() or "expires=thu, 01 jan 1970" in cookie.lower():
                self.cookies.pop(name.strip(), None)
            else:
                self.cookies[name.strip()] = value
        return status, got, data

    def close(self):
        for conn in self.idle:
            conn.close()
        self.idle = []


# -- the table page as a browser with htmx runs it (--refresh page) --------------------------------
# What the simulated phone does is read from the page the server serves: the element polling
# ("every Ns"), the elements listening for events "from:body" (an HX-Trigger answer header fires
# them), elements loading themselves ("load"), what each swap puts in place (outerHTML, out of
# band).  tests/robustness/test_load_model.py compares it with a real Chromium, request by request.
BROWSER = {
    "User-Agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36",
    "Accept-Encoding": "gzip, deflate, br, zstd",
    "Accept-Language": "en-US,en;q=0.9",
}
NAVIGATE = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"}
XHR = {"Accept": "*/*"}
_TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?)*)\s*/?>")
_ATTR = re.compile(r"([^\s=/>]+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+)))?")
_INTERVAL = re.compile(r"^(\d+(?:\.\d+)?)(ms|s|m)?$")


@dataclasses.dataclass
class HxElement:
    key: str  # its id, else its URL and triggers
    id: str | None
    url: str
    every: float | None  # polling interval (s)
    load: bool  # fetched as soon as it is in the page
    events: list[tuple[str, bool]]  # (event, from:body)
    target: str | None  # the id of the element its answer replaces
    swap: str
    oob: bool
    name: str | None


def _interval(text: str) -> float | None:
    m = _INTERVAL.match(text.strip())
    if not m:
        return None
    return float(m.group(1)) * {"ms": 0.001, "s": 1.0, "m": 60.0, None: 0.001}[m.group(2)]


def parse_hx(html: str) -> list[HxElement]:
    """The elements of an HTML text that fetch by themselves: by polling, on load, or on an event."""
    out = []
    for tag in _TAG.finditer(html):
        if "hx-" not in tag.group(2) and "id=" not in tag.group(2):
            continue
        attrs = {}
        for m in _ATTR.finditer(tag.group(2) or ""):
            value = m.group(2) if m.group(2) is not None else m.group(3) if m.group(3) is not None else m.group(4)
            attrs.setdefault(m.group(1).lower(), htmllib.unescape(value or ""))
        oob = attrs.get("hx-swap-oob", "false") not in ("false", "")
        url = attrs.get("hx-get")
        if url is None:
            if oob and attrs.get("id"):  # an out-of-band element replacing one with hx-get
                out.append(
                    HxElement(attrs["id"], attrs["id"], "", None, False, [], attrs["id"], "outerHTML", True, None)
                )
            continue
        every, load, events = None, False, []
        for spec in (attrs.get("hx-trigger") or "").split(","):
            words = spec.split()
            if not words:
                continue
            if words[0] == "every" and len(words) > 1:
                every = _interval(words[1])
            elif words[0] == "load":
                load = True
            elif words[0] not in ("click", "submit", "change", "revealed", "intersect"):
                events.append((words[0], any(w == "from:body" for w in words[1:])))
        if every is None and not load and not events:
            continue  # fetched only when tapped
        target = attrs.get("hx-target", "this")
        target_id = attrs.get("id") if target == "this" else target[1:] if target.startswith("#") else None
        key = attrs.get("id") or f"{url} {attrs.get('hx-trigger')}"
        out.append(
            HxElement(
                key,
                attrs.get("id"),
                url,
                every,
                load,
                events,
                target_id,
                (attrs.get("hx-swap") or "innerHTML").split()[0],
                oob,
                attrs.get("name"),
            )
        )
    return out


def trigger_events(headers: dict) -> list[str]:
    """The events named by HX-Trigger (a list of names, or a JSON object)."""
    out = []
    for name in ("hx-trigger", "hx-trigger-after-swap", "hx-trigger-after-settle"):
        value = headers.get(name, "").strip()
        if not value:
            continue
        if value.startswith("{"):
            try:
                out += list(json.loads(value))
            except ValueError:
                pass
        else:
            out += [v.strip() for v in value.split(",") if v.strip()]
    return out


class PageModel:
    """The hx elements of one phone's copy of the page, in document order."""

    def __init__(self, url: str):
        self.url = url
        self.elements: list[HxElement] = []

    def load(self, html: str) -> list[HxElement]:
        self.elements = [e for e in parse_hx(html) if not e.oob]
        return [e for e in self.elements if e.load]

    def swap(self, target: str | None, html: str, how: str = "outerHTML") -> list[HxElement]:
        """Put an answer in place (outerHTML of ``target``, and any out-of-band parts); returns the
        elements that load themselves."""
        found = parse_hx(html)
        new = [e for e in found if not e.oob]
        for oob in (e for e in found if e.oob):
            self._replace(oob.key, [] if not oob.url else [oob])
        if target is not None:
            kept = [e for e in self.elements if e.key == target and how != "outerHTML"]
            self._replace(target, kept + new)
        return [e for e in new if e.load]

    def _replace(self, key: str, new: list[HxElement]) -> None:
        keys = {e.key for e in new}
        at = next((i for i, e in enumerate(self.elements) if e.key == key), None)
        if at is None:
            return
        rest = [e for e in self.elements if e.key not in keys and e.key != key]
        at = min(at, len(rest))
        self.elements = rest[:at] + new + rest[at:]

    def listeners(self, event: str, source: HxElement) -> list[HxElement]:
        return [e for e in self.elements if any(ev == event and (body or e is source) for ev, body in e.events)]

    def headers(self, element: HxElement) -> dict:
        headers = {**BROWSER, **XHR, "HX-Request": "true", "HX-Current-URL": self.url}
        if element.id:
            headers["HX-Trigger"] = element.id
        if element.name:
            headers["HX-Trigger-Name"] = element.name
        if element.target:
            headers["HX-Target"] = element.target
        return headers


# -- measurements ----------------------------------------------------------------------------------
class Stats:
    def __init__(self):
        self.lat: dict[str, list[float]] = defaultdict(list)
        self.unexpected: dict[str, int] = defaultdict(int)
        # phones that stopped (a page that did not open, in the warm-up or later): fewer phones, less load
        self.dropped: dict[str, int] = defaultdict(int)
        self.recording = False

    def add(self, kind: str, seconds: float):
        if self.recording:
            self.lat[kind].append(seconds)

    def bad(self, what: str):
        if self.recording:
            self.unexpected[what] += 1

    def report(self, seconds: float) -> dict:
        out = {}
        every = [x for v in self.lat.values() for x in v]
        for kind, values in sorted(self.lat.items()) + [("all", every)]:
            if not values:
                continue
            values = sorted(values)
            out[kind] = {
                "n": len(values),
                "rps": len(values) / seconds,
                "p50_ms": 1000 * statistics.median(values),
                "p95_ms": 1000 * values[min(len(values) - 1, int(0.95 * len(values)))],
                "p99_ms": 1000 * values[min(len(values) - 1, int(0.99 * len(values)))],
                "max_ms": 1000 * values[-1],
            }
        return out


def warmup_of(args) -> float:
    """Seconds before measuring: with the page, phones open it meanwhile (about 40 a second)."""
    if getattr(args, "warmup", None) is not None:
        return args.warmup
    if getattr(args, "push", False):  # the phones open their streams meanwhile (a few hundred a second)
        return max(10.0, args.tables * args.phones / 400 + 5)
    return max(10.0, args.tables * args.phones / 40 + 2) if args.refresh == "page" else 3.0


def _pct(result: dict, kind: str = "all") -> float:
    return result["kinds"].get(kind, {}).get("p99_ms", float("inf"))


# -- one table -------------------------------------------------------------------------------------
class Table:
    def __init__(self, sim: Sim, n: int):
        self.sim, self.n = sim, n
        self.rng = random.Random(n)
        self.gid = None
        self.seq = 0
        self.k = 0
        self.tokens = 0

    async def start(self, conn: Phone):
        events = self.sim.events
        self.k = self.rng.randrange(0, max(1, len(events) - 60))  # a game cut at a random point
        body = json.dumps(dict(self.sim.header, events=events[: self.k])).encode()
        for _ in range(200):  # imports take turns in each worker (issue 26): a busy one says when to come back
            status, headers, data = await conn.request("POST", "/games/import", body, "application/json")
            if status != 503:
                break
            await asyncio.sleep(min(float(headers.get("retry-after") or 1), 2.0) * self.rng.random())
        if status != 303:
            raise RuntimeError(f"import failed: {status} {data[:200]!r}")
        self.gid = json.loads(data)["id"]
        # the log's length: the events imported, less those taken without a row (a late "done")
        status, _, data = await conn.request("GET", f"/games/{self.gid}/state")
        self.seq = json.loads(data)["seq"] if status == 200 else self.k

    async def phone(self, conn: Phone, deadline: float, j: int = 0):
        if self.sim.args.refresh == "page":
            return await self.page_phone(conn, deadline, seat=j)
        sim, stats = self.sim, self.sim.stats
        seen = self.seq
        await asyncio.sleep(self.rng.uniform(0, sim.args.poll))
        while time.monotonic() < deadline:
            t0 = time.perf_counter()
            try:
                status, headers, _ = await conn.request("GET", f"/games/{self.gid}/version?seq={seen}")
            except (ConnectionError, asyncio.IncompleteReadError, OSError) as err:
                stats.bad(f"poll: {type(err).__name__}")
                await asyncio.sleep(sim.args.poll)
                continue
            stats.add("poll", time.perf_counter() - t0)
            if status not in (200, 204):
                stats.bad(f"poll {status}")
            elif status == 200:
                seen = int(headers.get("x-rss-seq", seen))
                await self.refresh(conn)
            wait = sim.args.poll - (time.perf_counter() - t0)
            await asyncio.sleep(max(0.0, wait))

    async def page_phone(self, phone: Phone, deadline: float, stop: asyncio.Event | None = None, seat: int = 0):
        """One phone with the table page open: what htmx does, read from the page itself.  With
        ``--seated``, the table's j-th phone first takes the j-th player's seat (phones past the
        players watch), as players do when they join."""
        sim, stats = self.sim, self.sim.stats
        # phones open the page over the warm-up (not all in the same second), then poll
        await asyncio.sleep(self.rng.uniform(0, max(sim.args.poll, warmup_of(sim.args) - 2)))
        path = f"/games/{self.gid}"
        page = PageModel(f"http://{phone.host}:{phone.port}{path}")
        t0 = time.perf_counter()
        status, headers, body = await phone.request("GET", path, headers={**BROWSER, **NAVIGATE})
        stats.add("page", time.perf_counter() - t0)
        if status == 200 and getattr(sim.args, "seated", False) and seat < len(sim.header["players"]):
            status, headers, body = await self.take_seat(
                phone, path, sim.header["players"][seat], _decoded(headers, body)
            )
        if status != 200:
            stats.bad(f"page {status}")
            stats.dropped[f"page {status}"] += 1  # counted in the warm-up too: this phone stops here
            return
        pending: set[asyncio.Task] = set()
        polling: list[HxElement] = []  # the pollers in the page whose timers run (htmx: one per element)

        def fetch_all(elements, source=None):
            for element in elements:
                task = asyncio.ensure_future(self.hx_fetch(phone, page, element, "refresh", fetch_all))
                pending.add(task)
                task.add_done_callback(pending.discard)
            start_pollers()

        def in_page(element: HxElement) -> bool:
            return any(e is element for e in page.elements)

        def start_pollers():
            # htmx starts an element's "every" timer when the element enters the page, and a timer
            # whose element has been swapped out never fires again; every poller of the page runs
            polling[:] = [e for e in polling if in_page(e)]
            for element in page.elements:
                if element.every is not None and not any(e is element for e in polling):
                    polling.append(element)
                    task = asyncio.ensure_future(poll(element))
                    pending.add(task)
                    task.add_done_callback(pending.discard)

        def stopped() -> bool:
            return time.monotonic() >= deadline or bool(stop and stop.is_set())

        async def poll(element: HxElement):
            next_at = time.monotonic() + element.every
            while not stopped():
                await asyncio.sleep(max(0.0, next_at - time.monotonic()))
                if stopped() or not in_page(element):
                    return
                fired = time.monotonic()
                await self.hx_fetch(phone, page, element, "poll", fetch_all)
                # the interval runs from each firing; a swapped-in poller has started its own timer
                next_at = max(fired + element.every, time.monotonic())

        fetch_all(page.load(_decoded(headers, body)))
        while not stopped():
            await asyncio.sleep(0.05 if stop is not None else max(0.0, min(1.0, deadline - time.monotonic())))
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)

    async def take_seat(self, phone: Phone, path: str, player: str, page: str):
        """The seat form of the page sent as a browser sends it, then the page it leads to."""
        form = re.search(
            r'<form method="post" action="([^"]+/seat)"[^>]*>.*?name="csrf_token" value="([^"]+)"', page, re.S
        )
        if form is None:
            return 0, {}, b"no seat form in the page"
        body = f"csrf_token={form.group(2)}&player={urllib.parse.quote(player)}".encode()
        status, headers, data = await phone.request(
            "POST", htmllib.unescape(form.group(1)), body, "application/x-www-form-urlencoded", headers=BROWSER
        )
        if status != 303:
            return status, headers, data
        return await phone.request("GET", path, headers={**BROWSER, **NAVIGATE})

    async def hx_fetch(self, phone: Phone, page: PageModel, element: HxElement, kind: str, fetch_all) -> bool:
        """One htmx request of ``element``; fires the events its answer names, then swaps it in."""
        stats = self.sim.stats
        t0 = time.perf_counter()
        try:
            status, headers, body = await phone.request("GET", element.url, headers=page.headers(element))
        except (ConnectionError, asyncio.IncompleteReadError, OSError) as err:
            stats.bad(f"{kind}: {type(err).__name__}")
            return False
        stats.add(kind, time.perf_counter() - t0)
        if status not in (200, 204):
            stats.bad(f"{kind} {status}")
            return False
        for event in trigger_events(headers):
            fetch_all(page.listeners(event, element), element)
        if status == 204 or element.swap == "none":
            return False
        fetch_all(page.swap(element.target, _decoded(headers, body), element.swap))
        return True

    async def refresh(self, conn: Phone):
        mode, stats = self.sim.args.refresh, self.sim.stats
        if mode == "none":
            return
        paths = [f"/games/{self.gid}/state"] if mode == "state" else [f"/games/{self.gid}/c/{c}" for c in COMPONENTS]
        for path in paths:
            t0 = time.perf_counter()
            status, _, _ = await conn.request("GET", path)
            stats.add("refresh", time.perf_counter() - t0)
            if status != 200:
                stats.bad(f"refresh {status}")

    async def enter_events(self, conns: list[Phone], deadline: float):
        sim, stats, args = self.sim, self.sim.stats, self.sim.args
        await asyncio.sleep(self.rng.uniform(0, args.event_every))
        while time.monotonic() < deadline:
            if self.k >= len(sim.events):
                await self.start(conns[0])  # the transcript is over: a new game at this table
            event = sim.events[self.k]
            self.tokens += 1
            token = f"t{self.n}-{self.tokens}"
            roll = self.rng.random()
            phones = self.rng.sample(conns, 2)
            body = {"seq": self.seq, "token": token, "event": event}
            if roll < args.conflicts:  # two phones tap at the same moment, each its own token
                other = dict(body, token=token + "b")
                answers = await asyncio.gather(self.post(phones[0], body), self.post(phones[1], other))
            elif roll < args.conflicts + args.retries:  # bad Wi-Fi: the same request twice
                answers = [await self.post(phones[0], body)]
                answers.append(await self.post(phones[1], body))
            else:
                answers = [await self.post(phones[0], body)]
            codes = sorted(a[0] for a in answers)
            new = {a[1] for a in answers if a[0] == 200}
            if len(new) != 1 or (roll < args.conflicts and codes != [200, 409]):
                stats.bad(f"event answers {codes}")
                status, _, data = await conns[0].request("GET", f"/games/{self.gid}/state")
                self.seq = json.loads(data)["seq"] if status == 200 else self.seq
                await asyncio.sleep(args.event_every)
                continue
            self.seq = new.pop()
            self.k += 1
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * args.event_every)

    async def post(self, conn: Phone, body: dict) -> tuple[int, int | None]:
        stats = self.sim.stats
        t0 = time.perf_counter()
        try:
            status, _, data = await conn.request(
                "POST", f"/games/{self.gid}/events", json.dumps(body).encode(), "application/json"
            )
        except (ConnectionError, asyncio.IncompleteReadError, OSError) as err:
            stats.bad(f"event: {type(err).__name__}")
            return 0, None
        stats.add("event" if status == 200 else f"event {status}", time.perf_counter() - t0)
        return status, json.loads(data).get("seq") if data else None


def _decoded(headers: dict, body: bytes) -> str:
    coding = headers.get("content-encoding", "").lower()
    if coding == "gzip":
        body = gzip.decompress(body)
    elif coding == "deflate":
        body = zlib.decompress(body)
    elif coding == "br":
        body = brotli.decompress(body)
    elif coding == "zstd":
        body = zstd.decompress(body)
    elif coding not in ("", "identity"):
        raise ValueError(f"unknown Content-Encoding {coding!r}")
    return body.decode("utf-8", "replace")


def _tree(pid: int) -> list[int]:
    """The process and its descendants (the server's worker processes), from Linux /proc."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            todo += [int(c) for c in Path(f"/proc/{p}/task/{p}/children").read_text().split()]
        except OSError:
            pass
    return out


def cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU time of a process and its workers (Linux /proc), to tell the server's own cost."""
    if pid is None:
        return None
    total = 0.0
    for p in _tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            continue
    return total


def rss_mb(pid: int | None) -> float | None:
    """Resident memory of the server and its workers (MB; shared pages counted in each)."""
    if pid is None:
        return None
    total = 0
    for p in _tree(pid):
        try:
            status = Path(f"/proc/{p}/status").read_text()
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return total / 1024


class Sim:
    def __init__(self, args, host: str, port, transcript: dict, pid=None):
        """``port``: one server's port, or the ports of several servers on one database (a table's
        phones are spread over them, as a load balancer would); ``pid``: the process (or processes,
        the database's included) whose CPU and memory are the server's."""
        self.args, self.host = args, host
        self.ports = list(port) if isinstance(port, (list, tuple)) else [port]
        self.pids = [p for p in (pid if isinstance(pid, (list, tuple)) else [pid]) if p is not None]
        self.header = {k: v for k, v in transcript.items() if k != "events"}
        self.events = [e for e in transcript["events"] if e.get("type") != "expect" and not e.get("reject")]
        self.stats = Stats()

    async def measure(self, args, warm: float, deadline: float, machine: dict, at_start=None) -> None:
        """Record from ``warm`` to ``deadline``: the server's CPU and memory, the generator's own CPU
        and the machine's load, into ``machine`` (``at_start()`` runs as the recording begins)."""
        await asyncio.sleep(max(0.0, warm - time.monotonic()))
        if at_start is not None:
            at_start()
        print(f"measuring for {args.seconds:g} s", file=sys.stderr, flush=True)  # a profiler may start now
        self.stats.recording = True
        cpu0, own0 = self.cpu(), time.process_time()
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        self.stats.recording = False
        cpu1, own1 = self.cpu(), time.process_time()
        if cpu0 is not None and cpu1 is not None:
            machine["server_cpu_pct"] = 100 * (cpu1 - cpu0) / args.seconds
            machine["server_rss_mb"] = sum(rss_mb(p) or 0 for p in self.pids)
        machine["client_cpu_pct"] = 100 * (own1 - own0) / args.seconds
        machine["loadavg_1min"] = os.getloadavg()[0]

    def cpu(self) -> float | None:
        if not self.pids:
            return None
        return sum(cpu_seconds(p) or 0.0 for p in self.pids)

    async def run(self) -> dict:
        args = self.args
        tables = [Table(self, n) for n in range(args.tables)]
        ports = self.ports
        phones = {
            t.n: [
                Phone(self.host, ports[(t.n + j) % len(ports)], phone_address(t.n, j, args.phones))
                for j in range(args.phones)
            ]
            for t in tables
        }
        for t in tables:  # set-up, not measured
            await t.start(phones[t.n][0])
        warm = time.monotonic() + warmup_of(args)
        deadline = warm + args.seconds
        tasks = [t.phone(c, deadline, j) for t in tables for j, c in enumerate(phones[t.n])]
        tasks += [t.enter_events(phones[t.n], deadline) for t in tables]

        machine = {}

        await asyncio.gather(self.measure(args, warm, deadline, machine), *tasks)
        machine["connections"] = sum(p.opened for ps in phones.values() for p in ps)
        for ps in phones.values():
            for p in ps:
                p.close()
        return {
            "kinds": self.stats.report(args.seconds),
            "unexpected": dict(self.stats.unexpected),
            "dropped": dict(self.stats.dropped),
            "machine": machine,
        }


# -- --push: phones holding the game's event stream (issue 28) -------------------------------------
class StreamReader:
    """One phone's event stream: ``GET /games/<id>/stream?seq=N`` on a connection of its own, then
    the server-sent events as they come (chunked): ``(id, arrival)`` of every message."""

    def __init__(self, host: str, port: int, source: str | None = None):
        self.host, self.port = host, port
        self.source = (source, 0) if source and host.startswith("127.") else None
        self.got: list[tuple[int, float]] = []
        self.writer = None
        self.status = None
        self.ended = False

    async def run(self, path: str, on_message) -> None:
        reader, self.writer = await asyncio.open_connection(self.host, self.port, local_addr=self.source)
        head = [f"GET {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Accept: text/event-stream"]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
        await self.writer.drain()
        self.status = int((await reader.readline()).split()[1])
        while (await reader.readline()) not in (b"\r\n", b"\n", b""):
            pass
        if self.status != 200:
            return
        buf = b""
        while True:
            size_line = await reader.readline()
            if not size_line:
                break
            size = int(size_line.split(b";")[0], 16)
            data = await reader.readexactly(size + 2)
            if size == 0:
                break
            buf += data[:-2]
            while b"\n\n" in buf:
                event, buf = buf.split(b"\n\n", 1)
                for line in event.split(b"\n"):
                    if line.startswith(b"id: "):
                        seq = int(line[4:])
                        self.got.append((seq, time.perf_counter()))
                        on_message(seq)
        self.ended = True

    def close(self):
        if self.writer is not None:
            self.writer.close()


class PushSim(Sim):
    """T tables x P phones, each phone holding its game's stream; one event per table every
    ``--event-every`` seconds; from each post sent to each phone's message."""

    async def run(self) -> dict:
        args = self.args
        tables = [Table(self, n) for n in range(args.tables)]
        ports = self.ports
        phones = {
            t.n: [
                Phone(self.host, ports[(t.n + j) % len(ports)], phone_address(t.n, j, args.phones))
                for j in range(args.phones)
            ]
            for t in tables
        }
        streams = {
            t.n: [
                StreamReader(self.host, ports[(t.n + j) % len(ports)], phone_address(t.n, j, args.phones))
                for j in range(args.phones)
            ]
            for t in tables
        }
        sent: dict[tuple[int, int], float] = {}  # (table, seq) -> when its post was sent
        noop = [0]  # posts taken without a change (the same seq answered): no message is sent for them
        refreshes: set[asyncio.Task] = set()
        region_bytes: list[int] = []
        gate = asyncio.Semaphore(8)

        async def start(t):  # set-up, not measured
            async with gate:
                await t.start(phones[t.n][0])

        await asyncio.gather(*(start(t) for t in tables))
        opening = asyncio.Semaphore(64)
        holders = []

        def on_message(t, j):
            def seen(seq):
                if args.refresh == "region":
                    task = asyncio.ensure_future(self.refresh_region(t, phones[t.n][j], region_bytes))
                    refreshes.add(task)
                    task.add_done_callback(refreshes.discard)

            return seen

        async def hold(t, j):
            async with opening:
                if args.seated and j < len(self.header["players"]):  # the phone's player joins first
                    path = f"/games/{t.gid}"
                    _, got, page = await phones[t.n][j].request("GET", path, headers={**BROWSER, **NAVIGATE})
                    player = self.header["players"][j]
                    status, _, _ = await t.take_seat(phones[t.n][j], path, player, _decoded(got, page))
                    if status != 200:
                        self.stats.dropped[f"seat {status}"] += 1
                reader = streams[t.n][j]
                task = asyncio.ensure_future(reader.run(f"/games/{t.gid}/stream?seq={t.seq}", on_message(t, j)))
            try:
                await task
            except (ConnectionError, asyncio.IncompleteReadError, OSError) as err:
                self.stats.bad(f"stream: {type(err).__name__}")

        for t in tables:
            for j in range(args.phones):
                holders.append(asyncio.ensure_future(hold(t, j)))
        warm = time.monotonic() + warmup_of(args)
        deadline = warm + args.seconds
        lag: list[float] = []
        machine = {}

        async def enter(t):
            await asyncio.sleep(max(0.0, warm - time.monotonic()) + t.rng.uniform(0, args.event_every))
            while time.monotonic() < deadline - 2:
                if t.k >= len(self.events):
                    await t.start(phones[t.n][0])
                    for reader in streams[t.n]:  # a new game: the phones follow it
                        reader.close()
                    for j in range(args.phones):
                        holders.append(asyncio.ensure_future(hold(t, j)))
                    await asyncio.sleep(args.event_every)
                    continue
                t0 = time.perf_counter()
                status, seq = await t.post(
                    phones[t.n][0], {"seq": t.seq, "token": f"p{t.n}-{t.k}", "event": self.events[t.k]}
                )
                if status == 200 and seq is not None:
                    if seq > t.seq:  # a change: its message is awaited on every phone
                        sent[(t.n, seq)] = t0
                    else:  # taken without a change (the late "done" of a phase that ended by itself): no message
                        noop[0] += 1
                    t.seq, t.k = seq, t.k + 1
                else:
                    self.stats.bad(f"event {status}")
                    _, _, data = await phones[t.n][0].request("GET", f"/games/{t.gid}/state")
                    t.seq = json.loads(data)["seq"]
                await asyncio.sleep(args.event_every)

        async def watch_lag():
            while time.monotonic() < deadline:
                t0 = time.perf_counter()
                await asyncio.sleep(0.1)
                if self.stats.recording:
                    lag.append(time.perf_counter() - t0 - 0.1)

        def streams_open():
            machine["streams_open"] = sum(1 for rs in streams.values() for r in rs if r.status == 200 and not r.ended)

        def measure():
            return self.measure(args, warm, deadline, machine, at_start=streams_open)

        await asyncio.gather(measure(), watch_lag(), *(enter(t) for t in tables))
        await asyncio.sleep(2.0)  # the last messages on their way
        if refreshes:
            await asyncio.gather(*refreshes, return_exceptions=True)
        push, missing = [], 0
        for (n, seq), t0 in sent.items():
            for reader in streams[n]:
                at = next((when for got, when in reader.got if got >= seq and when >= t0), None)
                if at is None:
                    missing += 1
                else:
                    push.append(at - t0)
        refused = sum(1 for rs in streams.values() for r in rs if r.status not in (None, 200))
        for rs in streams.values():
            for r in rs:
                r.close()
        for ps in phones.values():
            for p in ps:
                p.close()
        for h in holders:
            h.cancel()
        await asyncio.gather(*holders, return_exceptions=True)
        machine["connections"] = sum(p.opened for ps in phones.values() for p in ps) + sum(
            1 for rs in streams.values() for r in rs if r.status is not None
        )
        out = {"kinds": self.stats.report(args.seconds), "unexpected": dict(self.stats.unexpected), "machine": machine}
        out["dropped"] = dict(self.stats.dropped)
        out["push"] = _spread(push) | {"changes": len(sent), "missing": missing, "refused": refused, "no_ops": noop[0]}
        out["lag"] = _spread(lag)
        if region_bytes:
            out["region_bytes"] = {"mean": statistics.mean(region_bytes), "max": max(region_bytes)}
        return out

    async def refresh_region(self, t: Table, phone: Phone, sizes: list[int]) -> None:
        """What the page does after a message: one fetch of the view's region (htmx's headers)."""
        path = f"/games/{t.gid}/r/play"
        headers = {
            **BROWSER,
            **XHR,
            "HX-Request": "true",
            "HX-Current-URL": f"http://{phone.host}:{phone.port}/games/{t.gid}",
        }
        t0 = time.perf_counter()
        try:
            status, got, body = await phone.request(
                "GET", path, headers={**headers, "HX-Trigger": "region", "HX-Target": "view"}
            )
        except (ConnectionError, asyncio.IncompleteReadError, OSError) as err:
            self.stats.bad(f"refresh: {type(err).__name__}")
            return
        self.stats.add("refresh", time.perf_counter() - t0)
        if status != 200:
            self.stats.bad(f"refresh {status}")
        elif self.stats.recording:
            sizes.append(len(body) + sum(len(k) + len(str(v)) + 4 for k, v in got.items()) + 17)


def _spread(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    values = sorted(values)

    def at(q):
        return 1000 * values[min(len(values) - 1, int(q * len(values)))]

    return {"n": len(values), "p50_ms": at(0.5), "p95_ms": at(0.95), "p99_ms": at(0.99), "max_ms": 1000 * values[-1]}


def raise_open_files(wanted: int) -> int:
    """Lift this process's soft open-file limit towards ``wanted`` (at most the hard limit); the limit now."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# -- the server under test -------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    def __init__(self, workdir: Path, nice: int = 0, workers: int | None = None, threads=None, server=None, db=None):
        self.port = free_port()
        root = str(SERVER_ROOT or ROOT)  # the checkout whose server is measured (--server-root)
        env = dict(os.environ, RSS_SECRET_KEY="load-test", PYTHONPATH=root, RSS_INSTANCE=str(workdir / "inst"))
        env["RSS_CREATE_LIMIT"] = "1000000/600"  # every simulated table is made from this one address
        if server:
            env["RSS_SERVER"] = server
        cmd = [
            sys.executable,
            "-m",
            "assistant",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--db",
            db or str(workdir / "load.sqlite3"),
        ]
        cmd += ["--workers", str(workers)] if workers else []
        cmd += ["--threads", str(threads)] if threads else []
        self.log = open(workdir / f"server-{self.port}.log", "w")
        self.proc = subprocess.Popen(cmd, cwd=workdir, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        if nice:
            os.setpriority(os.PRIO_PROCESS, self.proc.pid, nice)
        for _ in range(600):  # 30 s: a loaded machine starts it slowly
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=2):
                    return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("the server did not start:\n" + (workdir / f"server-{self.port}.log").read_text()[-2000:])

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def _sim(args):
    return PushSim if args.push else Sim


def run_once(args, transcript: dict) -> dict:
    if args.url:
        host, port = args.url.removeprefix("http://").rstrip("/").split(":")
        return asyncio.run(_sim(args)(args, host, int(port), transcript).run())
    if args.postgres:
        return run_on_postgres(args, transcript)
    with tempfile.TemporaryDirectory(prefix="rss-load-") as tmp:
        server = ServerProcess(Path(tmp), args.nice, args.workers, args.threads, args.server)
        try:
            return asyncio.run(_sim(args)(args, "127.0.0.1", server.port, transcript, server.proc.pid).run())
        finally:
            server.stop()


def run_on_postgres(args, transcript: dict) -> dict:
    """``args.postgres`` app servers on one throw-away PostgreSQL (tests/pgcluster.py); the server's
    CPU and memory are the app servers' and PostgreSQL's together."""
    sys.path.insert(0, str(ROOT))  # tests/pgcluster.py, the throw-away cluster of the tests
    from tests.pgcluster import Cluster, why_not

    why = why_not()
    if why:
        raise SystemExit(f"--postgres: {why}")
    with Cluster() as cluster, tempfile.TemporaryDirectory(prefix="rss-load-") as tmp:
        url = cluster.fresh_database("load")
        postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
        servers = []
        try:
            for n in range(args.postgres):
                work = Path(tmp) / f"s{n}"
                work.mkdir()
                servers.append(ServerProcess(work, args.nice, args.workers, args.threads, args.server, db=url))
            ports = [s.port for s in servers]
            pids = [s.proc.pid for s in servers] + [postmaster]
            return asyncio.run(_sim(args)(args, "127.0.0.1", ports, transcript, pids).run())
        finally:
            for s in servers:
                s.stop()


def print_report(tables: int, result: dict) -> None:
    report, unexpected = result["kinds"], result["unexpected"]
    print(
        f"tables={tables} phones/table={ARGS.phones} poll={ARGS.poll}s event-every={ARGS.event_every}s "
        f"refresh={ARGS.refresh} measured={ARGS.seconds}s server={ARGS.server or 'default'} "
        f"workers={ARGS.workers or 'default'} "
        + (f"store=PostgreSQL with {ARGS.postgres} app servers" if ARGS.postgres else "store=SQLite, one server")
        + (f" RSS_CACHE_GAMES={os.environ['RSS_CACHE_GAMES']}" if os.environ.get("RSS_CACHE_GAMES") else "")
        + (" push" if ARGS.push else "")
    )
    print(f"  {'kind':<10} {'requests':>8} {'rps':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for kind, r in report.items():
        print(
            f"  {kind:<10} {r['n']:>8} {r['rps']:>8.1f} {r['p50_ms']:>8.2f} {r['p95_ms']:>8.2f} {r['p99_ms']:>8.2f}"
            f" {r['max_ms']:>8.1f}"
        )
    m = result.get("machine", {})
    if m:
        print(
            f"  server CPU {m.get('server_cpu_pct', float('nan')):.0f}% of a core, "
            f"memory {m.get('server_rss_mb') or float('nan'):.0f} MB, load generator "
            f"{m['client_cpu_pct']:.0f}%, 1-min load average {m['loadavg_1min']:.2f} on {os.cpu_count()} CPUs, "
            f"{m.get('connections', 0)} connections"
        )
    push = result.get("push")
    if push:
        print(
            f"  push: {push['changes']} changes x {ARGS.phones} phones, post sent -> stream message: "
            f"p50 {push.get('p50_ms', float('nan')):.1f} ms, p95 {push.get('p95_ms', float('nan')):.1f} ms, "
            f"p99 {push.get('p99_ms', float('nan')):.1f} ms, max {push.get('max_ms', float('nan')):.0f} ms; "
            f"missing {push['missing']}, streams refused {push['refused']}, open at the start "
            f"{m.get('streams_open', 0)} of {tables * ARGS.phones}; posts taken without a change (no message): "
            f"{push.get('no_ops', 0)}"
        )
        lag = result["lag"]
        print(
            f"  load generator's event-loop lag: p50 {lag.get('p50_ms', 0):.1f} ms, p99 {lag.get('p99_ms', 0):.1f} ms, "
            f"max {lag.get('max_ms', 0):.0f} ms; open-file limit {OPEN_FILES}"
        )
        if result.get("region_bytes"):
            rb = result["region_bytes"]
            print(f"  region fetched after a message: {rb['mean']:.0f} B on the wire on average, {rb['max']} B at most")
    if unexpected:
        print(f"  unexpected answers: {dict(unexpected)}")
    if result.get("dropped"):
        print(f"  phones that stopped (their page did not open, the warm-up included): {result['dropped']}")
    sys.stdout.flush()


ARGS = None
OPEN_FILES = None


def main(argv=None) -> int:
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=20, help="measured time per run (after --warmup)")
    ap.add_argument(
        "--warmup",
        type=float,
        help="seconds before measuring (default 3; --refresh page: 10, phones open the page meanwhile)",
    )
    ap.add_argument("--phones", type=int, default=6)
    ap.add_argument("--poll", type=float, default=1.0, help="seconds between polls of one phone")
    ap.add_argument(
        "--event-every", type=float, help="mean seconds between events of one table (default 5; --push: 20, exactly)"
    )
    ap.add_argument(
        "--push",
        action="store_true",
        help="every phone holds the game's event stream (no polls); measures post sent -> each phone's message",
    )
    ap.add_argument("--conflicts", type=float, default=0.1, help="share of events two phones enter at once")
    ap.add_argument("--retries", type=float, default=0.05, help="share of events sent twice with one token")
    ap.add_argument(
        "--refresh",
        choices=("none", "state", "components", "page", "region"),
        default="none",
        help="what a phone does: poll only (none), then fetch /state, or every component, or (page) "
        "exactly what the served table page makes htmx do (its poller, cadence and refreshes); "
        "--push: region (each phone fetches the view's region after each message, as the page does)",
    )
    ap.add_argument(
        "--seated",
        action="store_true",
        help="each phone of a table takes a player's seat first, as players do (phones past the players watch)",
    )
    ap.add_argument("--transcript", default=str(DEFAULT_TRANSCRIPT))
    ap.add_argument("--workers", type=int, help="the server's worker processes (default: its own default)")
    ap.add_argument("--threads", type=int, help="the server's threads per worker (default: its own default)")
    ap.add_argument("--server", choices=("granian", "waitress"), help="RSS_SERVER for the server started")
    ap.add_argument("--url", help="use this running server (http://127.0.0.1:PORT) instead of starting one")
    ap.add_argument(
        "--postgres",
        type=int,
        default=0,
        metavar="N",
        help="N app servers on one throw-away PostgreSQL (Debian's postgresql) instead of one server on SQLite",
    )
    ap.add_argument(
        "--compare",
        action="store_true",
        help="in the same run: one server on SQLite, then --postgres servers (default 2) on one PostgreSQL",
    )
    ap.add_argument("--find", action="store_true", help="raise --tables until p99 of all requests reaches 100 ms")
    ap.add_argument("--limit-ms", type=float, default=100.0)
    ap.add_argument("--json", action="store_true", help="also print each report as one JSON line")
    ap.add_argument(
        "--nice",
        type=int,
        default=0,
        help="niceness of the server and the load generator (negative needs root): on a shared "
        "machine, to measure the app rather than the neighbours",
    )
    ap.add_argument(
        "--server-root",
        type=Path,
        help="the checkout whose server is started (default: this one): two versions measured under "
        "one client model (benchmarks/side_by_side.py --same-client)",
    )
    ARGS = args = ap.parse_args(argv)
    global OPEN_FILES, SERVER_ROOT
    SERVER_ROOT = args.server_root
    if args.event_every is None:
        args.event_every = 20.0 if args.push else 5.0
    if args.push:  # each phone: its stream and a connection for requests
        OPEN_FILES = raise_open_files(args.tables * args.phones * 2 + 1024)
    if args.nice:
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)
    transcript = json.loads(Path(args.transcript).read_text(encoding="utf-8"))

    def one(tables: int) -> dict:
        args.tables = tables
        return run_once(argparse.Namespace(**vars(args)), transcript)

    if args.compare:
        for postgres in (0, args.postgres or 2):
            args.postgres = ARGS.postgres = postgres
            result = one(args.tables)
            print_report(args.tables, result)
            if args.json:
                print(json.dumps({"tables": args.tables, "postgres": postgres, **result}))
        return 0
    if not args.find:
        result = one(args.tables)
        print_report(args.tables, result)
        if args.json:
            print(json.dumps({"tables": args.tables, **result}))
        return 0

    best = None
    tables = max(1, args.tables)
    while tables <= 1000:
        result = one(tables)
        print_report(tables, result)
        if args.json:
            print(json.dumps({"tables": tables, **result}))
        if _pct(result) >= args.limit_ms or result["unexpected"]:
            break
        best = (tables, result)
        tables = int(tables * 1.5) if tables >= 20 else tables + 10
    if best:
        r = best[1]["kinds"]["all"]
        print(
            f"largest load held at p99 < {args.limit_ms:.0f} ms: {best[0]} tables "
            f"({best[0] * args.phones} phones): p50 {r['p50_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms, "
            f"{r['rps']:.0f} requests/s"
        )
    else:
        print(f"p99 was over {args.limit_ms:.0f} ms already at {args.tables} tables")
    return 0


if __name__ == "__main__":
    sys.exit(main())
