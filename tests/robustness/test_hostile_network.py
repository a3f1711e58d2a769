"""A hostile or clumsy network, against the real server: odd Host headers, a phone seated at 200
games, transcripts saved with a byte order mark.
"""

from __future__ import annotations

import json
import re
import socket
import uuid
from http.cookies import SimpleCookie

import pytest

from .conftest import Http, csrf_of, header, load_transcript, table_events

NEW_GAME = {"format": "rss-table-transcript", "version": 1, "players": ["Amy", "Brian", "Crystal"], "events": []}
CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"')
COOKIE_LIMIT = 4096  # what browsers keep of one cookie (name, value and attributes)


class Phone(Http):
    """One phone: a keep-alive connection that keeps its cookies, as a browser does."""

    def __init__(self, base: str):
        super().__init__(base)
        self.cookies: dict[str, str] = {}
        self.largest_set_cookie = 0

    def request(self, method, path, body=None, headers=None):
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        status, head, data = super().request(method, path, body, headers)
        raw = head.get("set-cookie")
        if raw:
            self.largest_set_cookie = max(self.largest_set_cookie, len(raw))
            jar = SimpleCookie()
            jar.load(raw)
            for name, morsel in jar.items():
                self.cookies[name] = morsel.value
        return status, head, data

    def csrf(self, gid: str | None = None) -> str:
        """The token a page hands out: a game's own for posts to that game, else the home pages'."""
        _, _, page = self.request("GET", f"/games/{gid}" if gid else "/games/new")
        return CSRF_RE.search(page.decode()).group(1)

    def form(self, path: str, fields: dict) -> tuple[int, dict, bytes]:
        from urllib.parse import urlencode

        body = urlencode(fields, doseq=True)
        return self.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})


def raw_get(port: int, path: str, host: bytes | None, version: bytes = b"HTTP/1.1") -> tuple[int, bytes]:
    """One request on a fresh socket, the Host header exactly as given (None: no Host header)."""
    request = b"GET " + path.encode() + b" " + version + b"\r\n"
    if host is not None:
        request += b"Host: " + host + b"\r\n"
    request += b"Connection: close\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1])
    return status, data


def new_game(client: Http) -> str:
    status, body = client.json("POST", "/games/import", NEW_GAME)
    assert status == 303, body
    return body["id"]


# -- Host headers --------------------------------------------------------------------------------------
MALFORMED_HOSTS = {
    "label of 64 characters": b"a" * 64 + b".example",
    "label of 200 characters": b"b" * 200,
    "3 KB of dotted labels": b".".join([b"c" * 60] * 50),
    "3 KB in one label": b"h" * 3000,
    "non-ASCII (UTF-8 bytes)": "h\u00f4te.example".encode(),
    "non-ASCII (Latin-1 bytes)": b"h\xe9\xff",
    "IPv6 literal without its bracket": b"[::1",
    "IPv6 literal, not an address": b"[::g]:80",
    "port 65536": b"localhost:65536",
    "port 99999999": b"localhost:99999999",
    "negative port": b"localhost:-1",
    "port not a number": b"localhost:http",
    "two ports": b"localhost:80:80",
    "user info": b"user@localhost",
    "a path": b"localhost/games",
    "a space": b"local host",
}
FINE_HOSTS = {
    "missing": None,
    "empty": b"",
    "IPv6 loopback with port": b"[::1]:5000",
    "IPv6 literal": b"[2001:db8::1]",
    "IPv4 with port": b"192.168.1.20:5000",
    "port 0": b"localhost:0",
    "port 65535": b"localhost:65535",
    "name with a trailing dot": b"table.local.",
    "label of 63 characters": b"a" * 63 + b".example",
}


def test_malformed_hosts_get_a_400_and_no_log_lines(server_factory):
    srv = server_factory()
    client = Http(srv.base)
    gid = new_game(client)
    paths = ["/", f"/games/{gid}", f"/games/{gid}/c/join", "/games/new", "/no/such/page"]
    before = srv.output().splitlines()
    lines_per_host = {}
    # granian hands the app a header value that is not ASCII as an empty one (a Host left out:
    # served as localhost, never a 500); waitress passes the bytes on and the check refuses them
    blanked = "(granian," in srv.output()
    for name, host in MALFORMED_HOSTS.items():
        start = len(srv.output().splitlines())
        for path in paths:
            status, data = raw_get(srv.port, path, host)
            if blanked and not host.isascii():
                assert status < 500, (name, path, data[:300])
                continue
            assert status == 400, (name, path, data[:300])
            assert b"Host header" in data
        lines_per_host[name] = len(srv.output().splitlines()) - start
    print("server log lines per malformed Host (5 requests each):", lines_per_host)
    assert all(n <= len(paths) for n in lines_per_host.values()), lines_per_host  # at most one line a request
    after = srv.output()
    assert "Traceback" not in after, after[-3000:]
    assert len(after.splitlines()) - len(before) <= len(MALFORMED_HOSTS) * len(paths)
    status, _, _ = client.request("GET", f"/games/{gid}")  # the server is still fine
    assert status == 200


def test_missing_odd_and_fine_hosts_are_served_with_a_working_qr_code(server_factory):
    srv = server_factory()
    gid = new_game(Http(srv.base))
    start = len(srv.output().splitlines())
    for name, host in FINE_HOSTS.items():
        for version in (b"HTTP/1.1", b"HTTP/1.0"):
            status, data = raw_get(srv.port, f"/games/{gid}/c/join", host, version)
            assert status == 200, (name, version, data[:300])
            page = data.decode("utf-8")
            assert '<img class="qr"' in page and "QR code of the join link" in page, name
            status, svg = raw_get(srv.port, f"/games/{gid}/qr.svg", host, version)
            assert status == 200 and b"<svg" in svg, (name, version, svg[:300])
            link = re.search(r'<p class="link"><a href="([^"]+)"', page).group(1)
            assert link.startswith("http://") and link.endswith(f"/games/{gid}"), (name, link)
            assert "waitress.invalid" not in link
    output = srv.output()
    assert "Traceback" not in output
    assert len(output.splitlines()) == start  # nothing logged


# -- the seat cookie -----------------------------------------------------------------------------------
def test_a_phone_seated_at_200_games_still_takes_a_seat(server_factory):
    srv = server_factory()
    phone = Phone(srv.base)
    sizes = []
    gids = []
    for _ in range(200):
        gid = new_game(phone)
        gids.append(gid)
        status, _, _ = phone.form(f"/games/{gid}/seat", {"csrf_token": phone.csrf(gid), "player": "Brian"})
        assert status == 303
        sizes.append(len(phone.cookies["session"]))
    print(
        f"session cookie after 1, 20, 50, 130, 200 games seated: {sizes[0]}, {sizes[19]}, {sizes[49]}, "
        f"{sizes[129]}, {sizes[199]} bytes; largest Set-Cookie header {phone.largest_set_cookie} bytes"
    )
    assert phone.largest_set_cookie < COOKIE_LIMIT
    assert max(sizes[50:]) <= max(sizes[:50]) + 64  # bounded: stops growing
    # the 200th game: the seat holds, and the next seat is taken too
    _, _, banner = phone.request("GET", f"/games/{gids[-1]}/c/banner")
    assert "you are <strong>Brian</strong>" in banner.decode()
    gid = new_game(phone)
    status, _, _ = phone.form(f"/games/{gid}/seat", {"csrf_token": phone.csrf(gid), "player": "Crystal"})
    assert status == 303
    _, _, banner = phone.request("GET", f"/games/{gid}/c/banner")
    assert "you are <strong>Crystal</strong>" in banner.decode()
    _, _, banner = phone.request("GET", f"/games/{gids[0]}/c/banner")  # the oldest seat was let go
    assert "you are" not in banner.decode()


def test_long_names_do_not_blow_the_seat_cookie_either(server_factory):
    srv = server_factory()
    phone = Phone(srv.base)
    long_name = "\u00c9milie-\u00c1ngela " + "\u0429" * 18  # 30 characters, escaped to 6 bytes each in JSON
    game = NEW_GAME | {"players": [long_name, "Brian"]}
    for _ in range(60):
        status, body = phone.json("POST", "/games/import", game)
        assert status == 303
        status, _, _ = phone.form(
            f"/games/{body['id']}/seat", {"csrf_token": phone.csrf(body["id"]), "player": long_name}
        )
        assert status == 303
    print(f"largest Set-Cookie header with 30-character Cyrillic names: {phone.largest_set_cookie} bytes")
    assert phone.largest_set_cookie < COOKIE_LIMIT
    _, _, banner = phone.request("GET", f"/games/{body['id']}/c/banner")
    assert "you are <strong>" in banner.decode()


# -- byte order mark -----------------------------------------------------------------------------------
BOM = b"\xef\xbb\xbf"


def multipart(fields: dict, filename: str, content: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="transcript"; filename="{filename}"\r\n'
        "Content-Type: application/json\r\n\r\n".encode()
        + content
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def test_a_transcript_with_a_byte_order_mark_imports_through_the_form_and_the_json_door(server_factory):
    srv = server_factory()
    data = load_transcript()
    small = header(data, data["events"][:40])
    content = BOM + json.dumps(small, indent=1, ensure_ascii=False).encode("utf-8")
    phone = Phone(srv.base)
    body, ctype = multipart({"csrf_token": phone.csrf()}, "saved-by-notepad.json", content)
    status, head, page = phone.request("POST", "/games/import", body, {"Content-Type": ctype})
    assert status == 303, page[:500]
    form_gid = head["location"].rstrip("/").rsplit("/", 1)[1]

    status, answer = phone.json("POST", "/games/import", content, {"Content-Type": "application/json"})
    assert status == 303, answer
    json_gid = answer["id"]

    plain = Phone(srv.base)
    for gid in (form_gid, json_gid):
        status, state = plain.json("GET", f"/games/{gid}/state")
        assert status == 200 and state["seq"] == len(table_events(small))
    # what is not JSON is still refused with the form's message
    body, ctype = multipart({"csrf_token": phone.csrf()}, "x.json", BOM + b"not json")
    status, _, page = phone.request("POST", "/games/import", body, {"Content-Type": ctype})
    assert status == 400 and b"not a JSON transcript" in page


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"])
def test_the_in_process_form_takes_a_bom_too(client, encoding):
    content = json.dumps(NEW_GAME).encode(encoding)
    from io import BytesIO

    resp = client.post(
        "/games/import",
        data={"csrf_token": csrf_of(client), "transcript": (BytesIO(content), "t.json")},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 303, resp.get_data(as_text=True)[:300]
