"""Slow request bodies (issue 18, failure 1), against the real server (2 workers x 4 threads):
clients that announce an upload to /games/import and trickle one byte every 2 s no longer hold
the app's threads (bodies are read on the event loop, front.py), so pages and polls of a game
stay answered within 2 s; a body that stalls past its deadline gets 408 and never reaches the app."""

from __future__ import annotations

import socket
import threading
import time

from .conftest import Http, Server, import_game, load_transcript

TRICKLERS = 20  # more than the app's threads (2 workers x 4)


def _trickle(port: int, stop: threading.Event, opened: list) -> None:
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    opened.append(s)
    head = (
        "POST /games/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Content-Length: 100000\r\n\r\n"
    )
    try:
        s.sendall(head.encode())
        while not stop.is_set():
            s.sendall(b" ")
            stop.wait(2)
    except OSError:
        pass


def test_trickling_uploads_leave_every_page_and_poll_answered(tmp_path):
    srv = Server(tmp_path / "games.sqlite3", tmp_path).start()
    stop, opened = threading.Event(), []
    try:
        client = Http(srv.base)
        gid = import_game(client, {**load_transcript(), "events": []})
        threads = [
            threading.Thread(target=_trickle, args=(srv.port, stop, opened), daemon=True) for _ in range(TRICKLERS)
        ]
        for t in threads:
            t.start()
        time.sleep(3)  # every trickler has announced its body and is sending it a byte at a time
        times = []
        for i in range(10):
            started = time.monotonic()
            page = Http(srv.base, timeout=5)
            status, _, body = page.request("GET", f"/games/{gid}" if i % 2 else "/", headers={"Accept": "text/html"})
            poll, _, _ = page.request("GET", f"/games/{gid}/version?seq=0")
            times.append(time.monotonic() - started)
            assert status == 200 and poll in (200, 204)
            page.close()
        print(f"\nwith {TRICKLERS} trickling uploads: 10 page loads + polls, slowest {max(times):.2f} s")
        assert max(times) < 2
    finally:
        stop.set()
        for s in opened:
            s.close()
        srv.stop()


def test_a_body_that_stalls_past_its_deadline_gets_408(tmp_path):
    srv = Server(tmp_path / "games.sqlite3", tmp_path, env={"RSS_BODY_SECONDS": "2"}).start()
    try:
        s = socket.create_connection(("127.0.0.1", srv.port), timeout=15)
        s.sendall(
            b"POST /games/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        )
        started = time.monotonic()
        answer = s.recv(4096).decode("latin-1")
        waited = time.monotonic() - started
        print(f"\na stalled body answered after {waited:.1f} s: {answer.splitlines()[0]}")
        assert answer.startswith("HTTP/1.1 408") and 1.5 < waited < 6
        s.close()
        assert "Traceback" not in srv.output()
    finally:
        srv.stop()
