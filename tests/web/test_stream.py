"""The game's event stream (issue 28), read off the real server's socket: ``GET /games/<id>/stream``
is ``text/event-stream``; one message per change whose ``id`` is the JSON door's ``seq``; one at
once on connect when the phone's seq (``Last-Event-ID``, else ``?seq=``) is not the current one;
seat changes as a message of their own without an id; a heartbeat comment every 5 s.  A change
entered through any worker, or through another server on the same PostgreSQL, reaches it.
Under waitress there is no stream: the page polls."""

from __future__ import annotations

import http.client
import http.cookiejar
import re
import socket
import time
import urllib.parse
import urllib.request

import pytest

from assistant.serve import stream

from .test_restart import Server
from .turn_one import PLAYERS, TURN_ONE

# The waker looks for changes every TICK_SECONDS (50 ms) and wakes the game's streams at once: a
# change is on the stream well within a second.  A missed wake-up only goes out with the stream's
# next heartbeat (every BEAT_SECONDS, 5 s), so no wait for a change may be as long as a heartbeat.
WAKE_SECONDS = 1.0
assert WAKE_SECONDS < stream.BEAT_SECONDS / 2


class Events:
    """One stream on a socket of its own: the raw text received, and the messages parsed from it."""

    def __init__(self, port: int, path: str, headers: dict | None = None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        head = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Accept: text/event-stream"]
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
        self.raw = b""
        while b"\r\n\r\n" not in self.raw:
            self.raw += self.sock.recv(65536)
        self.head, _, self.raw = self.raw.partition(b"\r\n\r\n")
        self.status = int(self.head.split()[1])

    def text(self) -> str:
        """The body so far, chunked transfer encoding taken off."""
        out, rest = b"", self.raw
        while b"\r\n" in rest:
            size, _, after = rest.partition(b"\r\n")
            n = int(size.split(b";")[0], 16)
            if n == 0 or len(after) < n + 2:
                break
            out, rest = out + after[:n], after[n + 2 :]
        return out.decode()

    def messages(self) -> list[dict]:
        """The dispatched events: {"id": ..., "event": ..., "data": ...} (comments left out)."""
        out = []
        for block in self.text().split("\n\n")[:-1]:
            fields = {}
            for line in block.split("\n"):
                if line and not line.startswith(":"):
                    name, _, value = line.partition(":")
                    if name != "retry":  # the browser's reconnection delay, not part of a message
                        fields[name] = value.removeprefix(" ")
            if "data" in fields:
                out.append(fields)
        return out

    def wait(self, check, seconds: float = WAKE_SECONDS):
        deadline = time.monotonic() + seconds
        while not check(self) and time.monotonic() < deadline:
            self.sock.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                data = self.sock.recv(65536)
            except TimeoutError:
                continue
            if not data:
                break
            self.raw += data
        return check(self)

    def close(self):
        self.sock.close()


def _ids(events: Events) -> list[str]:
    return [m["id"] for m in events.messages() if "id" in m]


@pytest.fixture
def served(tmp_path):
    server = Server(tmp_path / "table.sqlite3", tmp_path)
    yield server
    server.stop()


def _act(server, gid, seq, event, token):
    status, answer = server.post_json(f"/games/{gid}/events", {"seq": seq, "token": token, "event": event})
    assert status == 200, answer
    return answer["seq"]


class _Phone:
    """What a phone does: open the table page (its session and form token), then take a seat."""

    def __init__(self, base: str, gid: str):
        self.base, self.gid = base, gid
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def take(self, player: str) -> None:
        """``player``'s seat (``""``: no seat, just watching)."""
        with self.opener.open(f"{self.base}/games/{self.gid}", timeout=10) as resp:
            page = resp.read().decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({"player": player, "csrf_token": token}).encode()
        with self.opener.open(urllib.request.Request(f"{self.base}/games/{self.gid}/seat", data=body), timeout=10) as r:
            assert r.status == 200  # the redirect to the table page, followed


def _take_seat(base: str, gid: str, player: str) -> None:
    _Phone(base, gid).take(player)


def test_the_stream_sends_the_log_seq_on_connect_and_after_each_change(served):
    gid = served.new_game(PLAYERS)
    seq = 0
    for n, event in enumerate(TURN_ONE[:3]):
        seq = _act(served, gid, seq, event, f"a{n}")
    assert seq == 3
    up_to_date = Events(served.port, f"/games/{gid}/stream?seq=3")
    behind = Events(served.port, f"/games/{gid}/stream?seq=1")
    knows_nothing = Events(served.port, f"/games/{gid}/stream")
    # the browser's own reconnection says what it last had; that wins over the address's seq
    reconnected = Events(served.port, f"/games/{gid}/stream?seq=3", {"Last-Event-ID": "2"})
    streams = [up_to_date, behind, knows_nothing, reconnected]
    for s in streams:
        assert s.status == 200
        assert b"content-type: text/event-stream" in s.head.lower()
    for s in (behind, knows_nothing, reconnected):
        assert s.wait(lambda s: _ids(s)), s.text()
        assert s.messages()[0] == {"id": "3", "data": "3"}, s.text()
    time.sleep(0.3)
    assert _ids(up_to_date) == [], up_to_date.text()  # nothing at once: it has seq 3

    answered = _act(served, gid, 3, TURN_ONE[3], "a3")  # through whichever worker takes the post
    assert answered == 4
    for s in streams:
        assert s.wait(lambda s: "4" in _ids(s)), s.text()
        assert _ids(s)[-1] == "4" and s.messages()[-1]["data"] == "4"
    assert _ids(up_to_date) == ["4"]
    for s in streams:
        s.close()


def test_seat_changes_come_without_an_id_and_a_heartbeat_every_5_seconds(served):
    gid = served.new_game(PLAYERS)
    s = Events(served.port, f"/games/{gid}/stream?seq=0")
    phone = _Phone(served.base, gid)

    def seat_messages(s):
        return sum(m.get("event") == "seats" for m in s.messages())

    phone.take("Amy")  # each seat change: its message within WAKE_SECONDS of the answer to the tap
    assert s.wait(lambda s: seat_messages(s) == 1), s.text()
    seats = next(m for m in s.messages() if m.get("event") == "seats")
    assert "id" not in seats
    phone.take("Brian")  # the same phone changes its seat: a second message
    assert s.wait(lambda s: seat_messages(s) == 2), s.text()
    phone.take("")  # and leaves it
    assert s.wait(lambda s: seat_messages(s) == 3), s.text()
    _take_seat(served.base, gid, "Crystal")  # another phone
    assert s.wait(lambda s: seat_messages(s) == 4), s.text()
    assert _ids(s) == []  # the log did not change
    beats = s.text().count(": beat\n")
    assert s.wait(lambda s: s.text().count(": beat\n") >= beats + 2, seconds=2 * stream.BEAT_SECONDS + 1), s.text()
    assert s.messages()[-1]["event"] == "beat"  # and one the page can see
    s.close()


def test_no_stream_for_a_game_that_does_not_exist(served):
    s = Events(served.port, "/games/nosuchgame/stream")
    assert s.status == 404
    s.close()
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=5)
    conn.request("GET", "/games/nosuchgame/stream?seq=x")
    assert conn.getresponse().status == 404


def test_the_page_opens_the_stream_from_its_seq(served):
    gid = served.new_game(PLAYERS)
    _act(served, gid, 0, TURN_ONE[0], "p0")
    _, page = served.get(f"/games/{gid}")
    assert f'sse-connect="/games/{gid}/stream?seq=1"' in page
    assert re.search(r'<script src="/static/sse\.min\.[0-9a-f]{12}\.js" defer>', page)
    assert 'hx-trigger="every 1s"' in page  # the poll stays: it takes over when the stream cannot stay open
    _, board = served.get(f"/games/{gid}/board")
    assert f'sse-connect="/games/{gid}/stream?seq=1"' in board


def test_without_granian_there_is_no_stream_and_the_page_polls(client, table):
    gid = table.started_game()
    page = client.get(f"/games/{gid}").text
    assert "sse-connect" not in page and "sse.min" not in page
    assert 'hx-trigger="every 1s"' in page
    resp = client.get(f"/games/{gid}/stream")
    assert resp.status_code == 404 and "poll" in resp.text


def test_two_servers_on_postgresql_push_each_others_changes(pg_url, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    one = Server(pg_url, tmp_path / "a")
    try:
        two = Server(pg_url, tmp_path / "b")
        try:
            gid = one.new_game(PLAYERS)
            on_one = Events(one.port, f"/games/{gid}/stream?seq=0")
            on_two = Events(two.port, f"/games/{gid}/stream?seq=0")
            time.sleep(0.5)  # both wakers listen
            assert _act(two, gid, 0, TURN_ONE[0], "pg0") == 1
            assert _act(one, gid, 1, TURN_ONE[1], "pg1") == 2
            for s in (on_one, on_two):
                assert s.wait(lambda s: "2" in _ids(s)), s.text()
                assert _ids(s) == ["1", "2"], s.text()
            _take_seat(two.base, gid, "Crystal")
            assert on_one.wait(lambda s: any(m.get("event") == "seats" for m in s.messages())), on_one.text()
        finally:
            two.stop()
    finally:
        one.stop()


@pytest.mark.parametrize(
    ("last_event_id", "query", "seen"),
    [("", "seq=4", 4), ("7", "seq=4", 7), ("", "", None), ("x", "seq=y", None), (" 3 ", "", 3), ("", "a=1&seq=2", 2)],
)
def test_the_phones_seq_comes_from_last_event_id_then_the_address(last_event_id, query, seen):
    assert stream.seen_seq(last_event_id, query) == seen
