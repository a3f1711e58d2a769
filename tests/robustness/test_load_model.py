"""The load model is the real page: for one change, a simulated phone of ``benchmarks/load.py
--refresh page`` makes the same requests as a real Chromium phone with the table page open
(the page as it polls, ``RSS_STREAMS=off``; with the stream, one message and one fetch of the
region per change: tests/web/test_stream_browser.py).

Both watch the same game on the real server (``python -m assistant serve``, worker processes);
one event enters through the JSON door.  From the poll that sees the change to the first poll
with the new seq, both request the same URLs in the same order with the same htmx headers,
Accept / Accept-Encoding and cookie names.  The simulator reads everything it does from the
served page, so when the page changes it follows, and this test says when it no longer can.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import threading
import time
from http.cookies import SimpleCookie
from urllib.parse import urlsplit

import pytest

from benchmarks import load
from tests.project_games import played_game

# isort: off
from tests.web.conftest import browser  # noqa: F401 - the chromium fixture (conftest first: import order)
from tests.web.browser import CHROMIUM, PHONE
# isort: on

from .conftest import Http, header, import_game

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (scripts/test.sh)")

# the order in which the page issues its requests, as htmx makes them
ISSUE_ORDER = """
(() => {
  const open = XMLHttpRequest.prototype.open;
  window.__issued = [];
  XMLHttpRequest.prototype.open = function (method, url) {
    const u = new URL(url, location.href);
    window.__issued.push(u.pathname + u.search);
    return open.apply(this, arguments);
  };
})();
"""
COMPARED = ("accept", "accept-encoding", "hx-request", "hx-trigger", "hx-trigger-name", "hx-target", "hx-current-url")


def _request(method: str, url: str, headers: dict) -> tuple:
    """What must be the same: method, path and query, the compared headers, the cookies' names."""
    parts = urlsplit(url)
    headers = {k.lower(): v for k, v in headers.items()}
    cookies = sorted(SimpleCookie(headers.get("cookie", "")).keys())
    return (
        method,
        parts.path + (f"?{parts.query}" if parts.query else ""),
        {k: headers.get(k) for k in COMPARED},
        cookies,
    )


def _window(requests: list[tuple], gid: str, old: int, new: int) -> list[tuple]:
    """From the last poll at the old seq to the first poll at the new one."""
    poll_old = f"/games/{gid}/version?seq={old}"
    poll_new = f"/games/{gid}/version?seq={new}"
    paths = [r[1] for r in requests]
    assert poll_old in paths and poll_new in paths, paths[-20:]
    start = len(paths) - 1 - paths[::-1].index(poll_old)
    end = paths.index(poll_new, start)
    return requests[start : end + 1]


class SimulatedPhone:
    """One phone of benchmarks/load.py --refresh page, in a thread of its own."""

    def __init__(self, base: str, gid: str, transcript: dict):
        parts = urlsplit(base)
        args = argparse.Namespace(poll=1.0, refresh="page", seconds=60, warmup=0)
        self.sim = load.Sim(args, parts.hostname, parts.port, transcript)
        self.table = load.Table(self.sim, 0)
        self.table.gid = gid
        self.phone = load.Phone(parts.hostname, parts.port)
        self.phone.log = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        self.sim.stats.recording = True
        asyncio.run(self.table.page_phone(self.phone, time.monotonic() + 120, self.stop))

    def requests(self) -> list[tuple]:
        return [_request(m, p, h) for m, p, h in list(self.phone.log)]


def test_simulated_phone_requests_what_chromium_requests(server_factory, browser):  # noqa: F811
    data = played_game()
    srv = server_factory(env={"RSS_STREAMS": "off"})  # the poll's model (the streams': load.py --push)
    client = Http(srv.base)
    gid = import_game(client, header(data, data["events"][:20]))

    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    seen: list[tuple] = []
    page.on("request", lambda r: seen.append(_request(r.method, r.url, r.all_headers())))
    page.add_init_script(ISSUE_ORDER)
    page.goto(f"{srv.base}/games/{gid}")
    simulated = SimulatedPhone(srv.base, gid, data)
    simulated.thread.start()
    try:
        deadline = time.monotonic() + 20
        poll_old = f"/games/{gid}/version?seq=20"
        while time.monotonic() < deadline and not (
            any(r[1] == poll_old for r in seen) and any(r[1] == poll_old for r in simulated.requests())
        ):
            page.wait_for_timeout(100)
        status, body = client.json("POST", f"/games/{gid}/events", {"seq": 20, "event": data["events"][20]})
        assert status == 200 and body["seq"] == 21
        sync_api.expect(page.locator("#sync")).to_have_attribute("data-seq", "21", timeout=10_000)
        poll_new = f"/games/{gid}/version?seq=21"
        while time.monotonic() < deadline + 20 and not (
            any(r[1] == poll_new for r in seen) and any(r[1] == poll_new for r in simulated.requests())
        ):
            page.wait_for_timeout(100)
        page_issued = page.evaluate("window.__issued")
    finally:
        simulated.stop.set()
        simulated.thread.join(timeout=20)
        context.close()

    issued = [(None, p) for p in page_issued]
    order = [r[1] for r in _window(issued, gid, 20, 21)]
    real = _window(seen, gid, 20, 21)
    model = _window(simulated.requests(), gid, 20, 21)
    print(f"one change: Chromium made {len(real) - 1} requests, the simulated phone {len(model) - 1}")
    # the order htmx issued them in (Chromium reports concurrent requests in any order)
    assert order == [m[1] for m in model], f"\nChromium:  {order}\nsimulated: {[m[1] for m in model]}"
    assert sorted(real, key=repr) == sorted(model, key=repr)
    assert real[0] == model[0] and real[-1] == model[-1]
    assert len(real) >= 3  # the poll that saw the change, at least one refresh, the next poll
    assert simulated.sim.stats.unexpected == {}


async def _one_phone(answer, seconds: float, players: list[str] | None = None, seat: int = 0) -> None:
    """One simulated phone of ``load.py --refresh page`` (``--seated`` when ``players`` are given)
    at table "x" of a plain HTTP server answering with ``answer``, for ``seconds``."""
    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    args = argparse.Namespace(poll=1.0, refresh="page", seconds=seconds, warmup=0, seated=players is not None)
    table = load.Table(load.Sim(args, "127.0.0.1", port, {"events": [], "players": players or []}), 0)
    table.gid = "x"
    phone = load.Phone("127.0.0.1", port)
    try:
        await table.page_phone(phone, time.monotonic() + seconds, seat=seat)
    finally:
        phone.close()
        server.close()


def test_simulated_phone_runs_every_poller_of_the_page():
    """htmx runs every element's "every" timer, not only the first one's: a page showing the join
    view's seat poller (every 2 s) ahead of the version poller (every 1 s) polls both.  (With only
    the first one, as the model once ran, such a phone polls the seats and never the version.)
    A plain HTTP server serves that page here: this tests the model's reading of a page."""
    page = (
        b"<html><body>"
        b'<div class="sync" hx-get="/g/seats" hx-trigger="every 2s" hx-swap="none"></div>'
        b'<div id="sync" hx-get="/g/version" hx-trigger="every 1s" hx-swap="outerHTML"></div>'
        b"</body></html>"
    )
    asked: list[str] = []

    async def answer(reader, writer):
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                path = head.split(b" ", 2)[1].decode()
                asked.append(path)
                status, body = (b"200 OK", page) if path == "/games/x" else (b"204 No Content", b"")
                writer.write(b"HTTP/1.1 %s\r\nContent-Length: %d\r\n\r\n%s" % (status, len(body), body))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    # the phone opens the page within its first second, then polls until the deadline
    asyncio.run(_one_phone(answer, seconds=6))
    assert asked[0] == "/games/x", asked
    # at least 5 s of polling: the version poller fires every second, the seats poller every two
    assert asked.count("/g/version") >= 4, asked
    assert asked.count("/g/seats") >= 2, asked


def test_a_seated_phone_takes_its_players_seat_with_the_pages_form():
    """``--seated``: the table's j-th phone sends the page's seat form for the j-th player, with the
    form's CSRF token and its cookie, as a browser does, then opens the page it is sent to."""
    page = (
        b'<html><body><form method="post" action="/games/x/seat" class="seats">'
        b'<input type="hidden" name="csrf_token" value="tok.en">'
        b'<button type="submit" name="player" value="Amy">I am Amy</button></form></body></html>'
    )
    asked: list[tuple[str, str, bytes]] = []

    async def answer(reader, writer):
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                method, path = head.decode().split(" ", 2)[:2]
                length = int(
                    next(
                        (
                            line.split(":")[1]
                            for line in head.decode().split("\r\n")
                            if line.lower().startswith("content-length:")
                        ),
                        "0",
                    )
                )
                body = await reader.readexactly(length) if length else b""
                cookie = next((line for line in head.decode().split("\r\n") if line.lower().startswith("cookie:")), "")
                asked.append((f"{method} {path}", cookie, body))
                if method == "POST":
                    reply = b"HTTP/1.1 303 See Other\r\nLocation: /games/x\r\nContent-Length: 0\r\n\r\n"
                else:
                    reply = b"HTTP/1.1 200 OK\r\nSet-Cookie: session=s1; Path=/\r\nContent-Length: %d\r\n\r\n%s" % (
                        len(page),
                        page,
                    )
                writer.write(reply)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    asyncio.run(_one_phone(answer, seconds=1, players=["Amy", "Brian"], seat=1))
    assert [a[0] for a in asked[:3]] == ["GET /games/x", "POST /games/x/seat", "GET /games/x"], asked
    assert asked[1][2] == b"csrf_token=tok.en&player=Brian"
    assert "session=s1" in asked[1][1]
