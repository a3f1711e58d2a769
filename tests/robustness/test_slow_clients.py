"""One client holding 1,100 slow or idle connections open does not block the other tables, and a
body announced far over the limit is refused (413) before the server reads it.  Against the real
server (``python -m assistant serve``, worker processes).  Timing figures are printed, never
asserted beyond "answered at all within a few seconds": benchmarks/slow_clients.py measures them.
"""

from __future__ import annotations

import socket
import time

import pytest

from tests.project_games import played_game

from .conftest import Http, header, import_game

SLOW = 1100
ROUNDS = 3


def _raise_file_limit(wanted: int) -> None:
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"this test holds {wanted} sockets; the file limit here is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def test_1100_slow_connections_leave_other_tables_served(server_factory):
    _raise_file_limit(SLOW + 500)
    data = played_game()
    srv = server_factory()
    table = Http(srv.base, timeout=10)
    gid = import_game(table, header(data, data["events"][:10]))
    held: list[socket.socket] = []
    try:
        for n in range(SLOW):
            s = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
            if n % 2:  # half of them start a request and send a header line now and then
                s.sendall(f"GET /games/{gid}/version?seq=0 HTTP/1.1\r\nHost: x\r\n".encode())
            held.append(s)  # the other half say nothing at all
        worst = 0.0
        seq = 10
        for rnd in range(ROUNDS):
            for s in held[1::2]:
                try:
                    s.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    pass  # the server may cut a slow client off: that is a defence too
            table.close()  # a phone on Wi-Fi reconnects now and then: a new connection each round
            t0 = time.perf_counter()
            status, _, _ = table.request("GET", f"/games/{gid}/version?seq={seq}")
            assert status == 204
            status, body = table.json("POST", f"/games/{gid}/events", {"seq": seq, "event": data["events"][seq]})
            assert status == 200, body
            seq = body["seq"]
            status, _, page = table.request("GET", f"/games/{gid}")
            assert status == 200 and b"c-actions" in page
            worst = max(worst, time.perf_counter() - t0)
            print(f"round {rnd}: poll, move and page of another table answered in {1000 * worst:.0f} ms")
            time.sleep(1)
        # a new phone (a new connection) gets in too
        status, body = Http(srv.base, timeout=10).json("GET", f"/games/{gid}/state")
        assert status == 200 and body["seq"] == seq
    finally:
        for s in held:
            s.close()
    assert "Traceback" not in srv.output()


def test_an_announced_900_mb_body_is_refused_unread(server_factory):
    srv = server_factory()
    client = Http(srv.base)
    gid = import_game(client, header(played_game(), []))
    for path in ("/games/import", f"/games/{gid}/events"):
        with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:
            s.sendall(
                f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Content-Length: 900000000\r\n\r\n".encode()
                + b'{"seq": 0, "event": '  # a little of it, and no more: the answer must come anyway
            )
            t0 = time.perf_counter()
            answer = b""
            while b"\r\n\r\n" not in answer:
                chunk = s.recv(65536)  # the socket's timeout (10 s) fails the test if no answer comes
                if not chunk:
                    break
                answer += chunk
            status = int(answer.split(b" ", 2)[1])
            print(f"{path}: {status} after {1000 * (time.perf_counter() - t0):.1f} ms, 20 of 900,000,000 bytes sent")
            assert status == 413, answer[:300]
    assert client.json("GET", f"/games/{gid}/state")[0] == 200  # and the server goes on
