"""Odd HTTP straight onto the real server's socket: bytes that are not UTF-8 in the path, a
forged Host, oversize and chunked bodies, a wrong charset.  Always a 4xx (or a plain answer),
never a 5xx, and the server keeps serving."""

from __future__ import annotations

import socket

from .conftest import Http, import_game

TRANSCRIPT = {"format": "rss-table-transcript", "version": 1, "players": ["Amy", "Brian"], "events": []}


def _raw(port: int, request: bytes) -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        try:
            s.sendall(request)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered (413) and closed before reading the whole body: read its answer
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            data += chunk
    status = int(data.split(b" ", 2)[1])
    return status, data


def test_odd_requests_on_the_wire(server_factory):
    srv = server_factory()
    client = Http(srv.base)
    gid = import_game(client, TRANSCRIPT)
    before = client.json("GET", f"/games/{gid}/state")
    close = b"Connection: close\r\n"
    cases = {
        "not UTF-8 in the path": b"GET /games/\xff\xfe/state HTTP/1.1\r\nHost: x\r\n" + close + b"\r\n",
        "escaped non-UTF-8": b"GET /games/%FF%FE/state HTTP/1.1\r\nHost: x\r\n" + close + b"\r\n",
        "odd seq": f"GET /games/{gid}/version?seq=%FF%00 HTTP/1.1\r\nHost: x\r\n".encode() + close + b"\r\n",
        "forged Host": f'GET /games/{gid} HTTP/1.1\r\nHost: "><script>alert(1)</script>\r\n'.encode() + close + b"\r\n",
        "too big": f"POST /games/{gid}/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: 3000000\r\n".encode()
        + close
        + b"\r\n"
        + b"[" * 3_000_000,
        "big import": b"POST /games/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 2500000\r\n" + close + b"\r\n" + b" " * 2_500_000,
        "chunked": b"POST /games/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n" + close + b"\r\n5\r\n[1,2]\r\n0\r\n\r\n",
        "utf-16 claimed": f"POST /games/{gid}/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json; "
        f"charset=utf-16\r\nContent-Length: 4\r\n".encode()
        + close
        + b"\r\n\xff\xfe{\x00",
        "bad method": f"BREW /games/{gid}/state HTTP/1.1\r\nHost: x\r\n".encode() + close + b"\r\n",
        "huge header": f"GET /games/{gid}/state HTTP/1.1\r\nHost: x\r\nX-A: {'a' * 60000}\r\n".encode()
        + close
        + b"\r\n",
    }
    for name, request in cases.items():
        status, data = _raw(srv.port, request)
        assert 200 <= status < 500, (name, status, data[:300])
        if name == "forged Host":
            assert b"<script>alert(1)" not in data
        if name in ("too big", "big import"):
            assert status == 413, name
    assert client.json("GET", f"/games/{gid}/state") == before
    assert Http(srv.base).request("GET", "/")[0] == 200
    assert "Traceback" not in srv.output()


def test_the_poll_keeps_the_connection_open(server_factory):
    """A phone polls every second: a 204 must not cost it a new TCP connection each time."""
    import http.client

    srv = server_factory()
    gid = import_game(Http(srv.base), TRANSCRIPT)
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    conn.connect()
    sock = conn.sock
    for seq in (0, 0, 3, 0, 0):
        conn.request("GET", f"/games/{gid}/version?seq={seq}")
        resp = conn.getresponse()
        resp.read()
        assert resp.status == (204 if seq == 0 else 200)
        assert resp.getheader("Connection") is None and conn.sock is sock, "the server closed the connection"
    conn.request("GET", f"/games/{gid}/version?seq=0", headers={"Connection": "close"})
    resp = conn.getresponse()
    resp.read()
    assert resp.status == 204 and resp.getheader("Connection") == "close"  # unless the client asks
    conn.close()


def test_keep_alive_patch_is_applied_once():
    from waitress.task import WSGITask

    from assistant.serve import server

    class Task(WSGITask):  # a subclass: the test process's own waitress stays as it is
        pass

    server.keep_alive_without_body(Task)
    patched = Task.build_response_header
    server.keep_alive_without_body(Task)
    assert Task.build_response_header is patched and patched.keeps_alive_without_body
    assert not getattr(WSGITask.build_response_header, "keeps_alive_without_body", False)


def test_the_front_answers_a_poll_as_the_app_would(server_factory):
    """The front answers the poll's "nothing new" itself, before any WSGI request (poll.FastPoll.answer):
    the same 204 with the same headers every time, and a poll the app refuses (a malformed Host, a
    400) stays refused however many polls came before it."""
    srv = server_factory()
    gid = import_game(Http(srv.base), TRANSCRIPT)
    close = b"Connection: close\r\n"
    answers = set()
    for _ in range(20):  # new connections: both workers learn the view's 204, then answer it themselves
        status, data = _raw(
            srv.port, f"GET /games/{gid}/version?seq=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode() + close + b"\r\n"
        )
        head = data.split(b"\r\n\r\n", 1)[0].lower().split(b"\r\n")[1:]
        answers.add(
            (
                status,
                tuple(
                    sorted(line.split(b":", 1)[0] for line in head if not line.startswith((b"date", b"content-type")))
                ),
            )
        )
        assert status == 204 and b"x-rss-seq: 0" in data.lower(), data[:300]
    assert len(answers) == 1, answers  # the front's answer and the view's are the same (a 204 has no content)
    for host in (b"a..b", b"x:99999", b"[::zz]"):
        status, data = _raw(
            srv.port,
            f"GET /games/{gid}/version?seq=0 HTTP/1.1\r\n".encode() + b"Host: " + host + b"\r\n" + close + b"\r\n",
        )
        assert status == 400, (host, data[:300])
    assert (
        _raw(srv.port, f"GET /games/{gid}/version?seq=1 HTTP/1.1\r\nHost: x\r\n".encode() + close + b"\r\n")[0] == 200
    )
    assert _raw(srv.port, b"GET /games/nothing-here/version?seq=0 HTTP/1.1\r\nHost: x\r\n" + close + b"\r\n")[0] == 404
