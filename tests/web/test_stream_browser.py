"""Changes pushed to the phones (issue 28), in Debian's chromium against the real server (granian,
two workers, so a change entered through one worker reaches a stream held by the other).

A change entered at the table shows on a second phone's screen (its region swapped in, measured
in the page) within 250 ms over the game's event stream, with one stream message and one fetch
of the region (at most 2 requests and 8 KB); with the stream refused (a proxy in the way) the
same phone polls by itself and the change shows within the poll's second.  A stream that closes
shows the connection notice at once, and a tap kept meanwhile goes by itself once the stream is
back.  A stream that falls silent (the laptop sleeps) shows the notice after two missed heartbeats.
"""

from __future__ import annotations

import os
import re
import signal
import statistics
import threading
import time

import pytest

from .browser import NEEDS_CHROMIUM, PHONE
from .test_restart import Server
from .turn_one import PLAYERS, TURN_ONE

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = NEEDS_CHROMIUM

CHANGES = TURN_ONE[:8]  # reveals, bids and a leave: each one log row
STREAM_MS = 250  # issue 28: a change on a second phone's screen within a quarter of a second
POLL_MS = 1000 + 500  # without the stream: the poll's second, plus the fetch on a loaded machine
PER_CHANGE_BYTES = 8 * 1024
ROUNDS = 3  # tables played at most, when the machine's load explains a slow one
PROBE_SECONDS = 0.005

# In the page: when #region was last swapped in, by its seq (performance time of this page).
WATCH = """() => {
  window.rssShown = {};
  const note = () => {
    const r = document.getElementById("region");
    if (r && !(r.dataset.seq in window.rssShown)) { window.rssShown[r.dataset.seq] = Date.now(); }
  };
  new MutationObserver(note).observe(document.getElementById("tab"), {childList: true, subtree: true});
  note();
}"""


@pytest.fixture
def served(tmp_path):
    server = Server(tmp_path / "table.sqlite3", tmp_path)
    yield server
    server.stop()


def _phone(browser, url, refuse_stream=False):
    context = browser.new_context(viewport=PHONE)
    if refuse_stream:  # a proxy that does not let the stream through
        context.route(re.compile(r".*/stream(\?.*)?$"), lambda route: route.abort())
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.requests = []
    page.on("request", lambda r: page.requests.append((time.time(), r.url)))
    page.wire = {}  # requestId -> what the browser's network stack saw, at the browser's own times
    page.offset = None  # wall clock minus the browser's monotonic clock (from a request's wallTime)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")

    def wall(e) -> float:  # an event's own timestamp on the wall clock (not when Python got to it)
        return e["timestamp"] + page.offset

    def sent(e):
        page.offset = e["wallTime"] - e["timestamp"]
        page.wire.setdefault(e["requestId"], {}).update(url=e["request"]["url"], at=wall(e), ts=e["timestamp"])

    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.responseReceived", lambda e: page.wire.setdefault(e["requestId"], {}).update(got=True))
    cdp.on(
        "Network.dataReceived",
        lambda e: (
            page.wire.setdefault(e["requestId"], {})
            .setdefault("chunks", [])
            .append((wall(e), max(e["encodedDataLength"], e["dataLength"])))
        ),
    )
    cdp.on(
        "Network.eventSourceMessageReceived",
        lambda e: (
            page.wire.setdefault(e["requestId"], {})
            .setdefault("messages", [])
            .append((wall(e), e["eventName"], e["eventId"], e["timestamp"]))
        ),
    )
    cdp.on(
        "Network.loadingFinished",
        lambda e: page.wire.setdefault(e["requestId"], {}).update(total=e["encodedDataLength"]),
    )
    if url is None:  # the caller goes somewhere first
        return page
    page.goto(url)
    page.wait_for_selector("#c-banner")
    page.evaluate(WATCH)
    return page


def _stream_open(page) -> dict:
    """The page's stream as the wire saw it, once it is open (its answer's head has come)."""
    stream = next(r for r in page.wire.values() if "/stream" in r.get("url", ""))
    deadline = time.time() + 10
    while not stream.get("got") and time.time() < deadline:
        page.wait_for_timeout(50)
    assert stream.get("got"), page.wire
    return stream


def _post(served, gid, seq, event, token):
    status, answer = served.post_json(f"/games/{gid}/events", {"seq": seq, "token": token, "event": event})
    assert status == 200, answer
    return answer["seq"]


class _Probe(threading.Thread):
    """A thread of this process that sleeps PROBE_SECONDS again and again and adds up how late it
    woke: how long one thread waited for a CPU on this machine meanwhile (``late``, seconds).  A
    change goes from thread to thread (the post, the server's loop and app thread, its waker, the
    browser's network stack and page), one at a time: the load can make it later by about as much."""

    def __init__(self):
        super().__init__(name="cpu-probe", daemon=True)
        self.late = 0.0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            start = time.monotonic()
            time.sleep(PROBE_SECONDS)
            self.late += max(0.0, time.monotonic() - start - PROBE_SECONDS)


def _changes(served, gid, page, bound_ms, probe=None):
    """Enter CHANGES one by one; for each, a dict: ``seq``, ``sent`` (the post, this process's
    clock), ``shown`` (the region swapped in, the page's clock: the same wall clock), ``ms`` between
    them, and ``waited_ms``: how late a thread woke meanwhile, all told (``_Probe``)."""
    seq = served.state(gid)["seq"]
    out = []
    for n, event in enumerate(CHANGES):
        time.sleep(1.3)  # a table's pace (and the poll's phase varies)
        before, sent = probe.late if probe else 0.0, time.time()
        seq = _post(served, gid, seq, event, f"s{n}")
        page.wait_for_function("s => window.rssShown[s] !== undefined", arg=str(seq), timeout=bound_ms + 5000)
        after = probe.late if probe else 0.0
        shown = page.evaluate("s => window.rssShown[s]", str(seq)) / 1000
        waited = None if probe is None else 1000 * (after - before)
        out.append({"seq": seq, "sent": sent, "shown": shown, "ms": 1000 * (shown - sent), "waited_ms": waited})
    return out


def _loaded(change) -> bool:
    """The machine's load explains a change slower than STREAM_MS: meanwhile a thread of this
    machine waited for a CPU, all told, at least as long as the change was late (``_Probe``)."""
    return change["waited_ms"] is not None and change["waited_ms"] >= change["ms"] - STREAM_MS


def _stream_round(served, browser, probe) -> list[dict]:
    """One table: a new game, two phones on it, CHANGES entered; each change timed (``_changes``) and
    split at the stream's message into the server's part (post sent -> message in the second phone's
    network stack) and the browser's (message -> region fetched and on screen), both at the
    browser's own timestamps.  Asserted here, whatever the machine's load: per change exactly one
    message (with its seq) and, after it, one fetch of the region, at most 8 KB together; no poll."""
    gid = served.new_game(PLAYERS)
    url = f"{served.base}/games/{gid}"
    first, second = _phone(browser, url), _phone(browser, url)
    page = second
    try:
        page.wait_for_function("() => !!document.getElementById('live')")
        stream = _stream_open(page)
        changes = _changes(served, gid, page, STREAM_MS, probe)
        page.wait_for_timeout(300)  # the last events of the browser's network stack reach this process
        fetches = [r for r in page.wire.values() if f"/games/{gid}/r/" in r.get("url", "")]
        for c in changes:
            sent, shown = c["sent"], c["shown"]
            messages = [m for m in stream.get("messages", []) if (m[1], m[2]) == ("message", str(c["seq"]))]
            assert len(messages) == 1, (c, stream.get("messages"))
            c["message"], message_ts = messages[0][0], messages[0][3]
            during = [r for r in fetches if sent <= r["at"] <= shown]
            # the order on the browser's own monotonic clock: the wall clock it is mapped to is read
            # again at each request, and may step by a few ms between two of them
            assert len(during) == 1 and message_ts <= during[0]["ts"], (c, [(r["at"], r["url"]) for r in fetches])
            c["stream_ms"] = 1000 * (c["message"] - sent)
            c["page_ms"] = 1000 * (shown - c["message"])
            message = sum(n for at, n in stream.get("chunks", []) if sent <= at <= shown)
            fetched = during[0].get("total", 0)
            assert 0 < message and 0 < fetched and message + fetched <= PER_CHANGE_BYTES, (message, fetched)
        assert not [u for _, u in page.requests if "/version" in u]  # no poll while the stream is open
        assert not page.problems and not first.problems, page.problems + first.problems
    finally:
        first.context.close()
        second.context.close()
    return changes


def test_a_change_shows_on_another_phone_within_250_ms_over_the_stream(served, browser):
    """Median within 250 ms, none past 500 ms, from the post sent to the region on the second
    phone's screen.  A round that misses it is played again (up to ROUNDS) only when the machine's
    load explains every change that was late: a thread woke late, all told, by at least as much
    meanwhile (a missed wake-up, up to a 5 s heartbeat late, is no such change: it fails at once)."""
    probe = _Probe()
    probe.start()
    try:
        _rounds(served, browser, probe)
    finally:
        probe.done.set()


def _rounds(served, browser, probe) -> None:
    for played in range(1, ROUNDS + 1):
        changes = _stream_round(served, browser, probe)
        ms = [c["ms"] for c in changes]
        print(f"round {played}: post sent -> region on the second phone's screen (ms):", [round(x) for x in ms])
        print("  post -> the stream's message:", [round(c["stream_ms"]) for c in changes])
        print("  message -> region on screen: ", [round(c["page_ms"]) for c in changes])
        print(
            "  a thread's wake-ups late meanwhile, all told (ms):",
            [c["waited_ms"] and round(c["waited_ms"]) for c in changes],
        )
        if statistics.median(ms) <= STREAM_MS and max(ms) <= 2 * STREAM_MS:
            return
        slow = [c for c in changes if c["ms"] > STREAM_MS]
        assert all(_loaded(c) for c in slow), f"late by more than the machine's load explains: {slow}"
    pytest.fail(f"{ROUNDS} rounds, each slow under the machine's load, none within {STREAM_MS} ms")


def test_with_the_stream_refused_the_phone_polls_by_itself(served, browser):
    gid = served.new_game(PLAYERS)
    url = f"{served.base}/games/{gid}"
    page = _phone(browser, url, refuse_stream=True)
    ms = [c["ms"] for c in _changes(served, gid, page, POLL_MS)]
    print("stream refused, polls: post sent -> region on screen (ms):", [round(x) for x in ms])
    assert max(ms) <= POLL_MS, ms
    assert [u for _, u in page.requests if "/version" in u]
    assert page.locator("#connection").is_hidden()  # a refused stream is no lost connection
    assert not page.problems, page.problems


NOTICE_AT = """() => {
  window.rssNotice = null;
  window.rssPolls = [];  // when each poll was sent (the page's clock)
  document.addEventListener("htmx:beforeSend", e => {
    if (e.detail.elt.classList.contains("sync")) { window.rssPolls.push(Date.now()); }
  });
  const c = document.getElementById("connection");
  new MutationObserver(() => { if (!c.hidden && window.rssNotice === null) { window.rssNotice = Date.now(); } })
    .observe(c, {attributes: true});
}"""


def test_a_closed_stream_shows_the_notice_at_once_and_a_kept_tap_goes_once_it_is_back(tmp_path, browser):
    """The stream closes (the server stops): the notice shows before any poll could have said so; a
    tap made meanwhile is kept and goes by itself, once, when the server answers again; then the
    phone follows the stream again."""
    from .test_phone import _new_game, _post_event, _seat, _settled
    from .test_phone import _phone as _plain_phone

    db = tmp_path / "table.sqlite3"
    server = Server(db, tmp_path)
    try:
        page = _plain_phone(browser)
        streams = []
        page.on("response", lambda r: streams.append(time.time()) if "/stream" in r.url else None)
        url = _new_game(page, server.base)
        for company in ("BME", "BSE"):
            _post_event(url, {"type": "reveal", "company": company})
        _seat(page, "Amy")
        _settled(page, 2)
        page.wait_for_function("() => !!document.getElementById('live')")
        deadline = time.time() + 10
        while not streams and time.time() < deadline:
            page.wait_for_timeout(50)
        assert streams, "the stream did not open"
        page.evaluate(NOTICE_AT)

        stopped = time.time()
        server.stop()
        sync_api.expect(page.locator("#connection")).to_be_visible(timeout=10_000)
        shown = page.evaluate("() => window.rssNotice") / 1000
        polls = [at / 1000 for at in page.evaluate("() => window.rssPolls")]
        print(
            f"\n#connection shown {1000 * (shown - stopped):.0f} ms after the server stopped; first poll sent at "
            + (f"{1000 * (polls[0] - stopped):.0f} ms" if polls else "none")
        )
        assert not polls or shown < polls[0]  # the stream's close said it, before any poll was even sent

        button = page.locator("#c-actions").get_by_role("button", name="Pass", exact=True)
        before = button.bounding_box()
        button.click()
        sync_api.expect(page.locator("#unsent")).to_contain_text("1 tap kept")
        after = button.bounding_box()
        assert abs(after["y"] - before["y"]) + abs(after["x"] - before["x"]) == 0

        reopened = len(streams)
        server = Server(db, tmp_path, port=server.port)
        # marked "entered" by the tap's own answer, or unmarked by the stream's refresh for the same
        # change landing after it (under load): what counts is that it is there, once (its seq below)
        sync_api.expect(page.locator("#c-last")).to_contain_text("Amy passes", timeout=5_000)
        sync_api.expect(page.locator("#connection")).to_be_hidden()
        page.wait_for_timeout(1500)  # and only once
        assert server.state(url.rsplit("/", 1)[1])["seq"] == 3
        deadline = time.time() + 70  # the stream again (the browser's or the extension's retry)
        while len(streams) == reopened and time.time() < deadline:
            page.wait_for_timeout(200)
        assert len(streams) > reopened, "the stream did not come back"
        page.wait_for_timeout(300)
        page.requests = []
        page.on("request", lambda r: page.requests.append(r.url))
        _post_event(url, {"type": "pass", "player": "Brian"})
        _settled(page, 4)
        sync_api.expect(page.locator("#c-last")).to_contain_text("Brian passes")
        assert not [u for u in page.requests if "/version" in u], page.requests  # over the stream
        assert not page.problems, page.problems
    finally:
        server.stop()


def test_a_silent_stream_shows_the_notice_after_two_missed_beats_and_the_phone_follows_again(served, browser):
    """The laptop serving the table sleeps: the phone's stream stays open, but nothing comes (the
    server's processes stopped with SIGSTOP).  Once two heartbeats (5 s each) are missed, the phone
    says so; when the laptop wakes (SIGCONT), the notice goes and the phone follows the game again."""
    from tests.processes import master, workers

    gid = served.new_game(PLAYERS)
    url = f"{served.base}/games/{gid}"
    page = _phone(browser, url)
    page.wait_for_function("() => !!document.getElementById('live')")
    _stream_open(page)
    page.evaluate(NOTICE_AT)
    asleep = [served.proc.pid, master(served.proc.pid), *workers(served.proc.pid)]
    assert None not in asleep and len(asleep) >= 3, asleep
    for pid in asleep:
        os.kill(pid, signal.SIGSTOP)
    stopped = time.time()
    try:
        sync_api.expect(page.locator("#connection")).to_be_visible(timeout=16_000)
        silent = page.evaluate("() => window.rssNotice") / 1000 - stopped
        print(f"\n#connection shown {silent:.1f} s after the server fell silent")
        # not at the first missed beat (a beat is late now and then), at the second: 2 x 5 s, then 1 s of grace
        assert 10.0 <= silent <= 13.0, silent
    finally:
        for pid in asleep:
            os.kill(pid, signal.SIGCONT)
    sync_api.expect(page.locator("#connection")).to_be_hidden(timeout=15_000)
    seq = served.state(gid)["seq"]
    seq = _post(served, gid, seq, CHANGES[0], "after-sleep")
    page.wait_for_function("s => window.rssShown[s] !== undefined", arg=str(seq), timeout=5_000)
    assert not page.problems, page.problems


def test_the_join_view_follows_the_seats_over_the_stream_without_polling(served, browser):
    """The host's join code shows how many seats are taken; another phone taking a seat reaches it
    over the stream (a ``seats`` message, then one fetch), not through the join view's 2-second poll."""
    from .test_phone import _new_game, _seat

    host = _phone(browser, None)
    url = _new_game(host, served.base, names=PLAYERS)  # the host made the game: its Play view shows the code
    _seat(host, PLAYERS[0])
    _stream_open(host)
    host.wait_for_timeout(2500)  # longer than the join view's poll: none goes while the stream is open
    host.requests = []
    other = _phone(browser, url)
    joined = time.time()
    _seat(other, PLAYERS[1])
    line = host.locator("#c-join details.other > summary")
    sync_api.expect(line).to_contain_text(f"2 of {len(PLAYERS)} seats taken", timeout=10_000)
    took = time.time() - joined
    print(f"\nthe host's join view said 2 of {len(PLAYERS)} seats {took * 1000:.0f} ms after the other phone's tap")
    assert not [u for _, u in host.requests if "/seats" in u or "/version" in u], host.requests
    assert not host.problems and not other.problems, host.problems + other.problems
