"""Security checks: unguessable game links, no list of games, the secret key, never debug mode,
a strict Content-Security-Policy on every kind of answer, no stack trace ever shown."""

from __future__ import annotations

import math
import re
import socket
import stat
from pathlib import Path

import pytest

from assistant.store import new_game_id

from .conftest import ROOT, Http, csrf_of, make_app

ALPHABET = re.compile(r"[A-Za-z0-9_-]+")


def test_game_links_carry_at_least_128_random_bits(app, client):
    ids = {new_game_id() for _ in range(2000)}
    assert len(ids) == 2000
    for gid in ids:
        assert ALPHABET.fullmatch(gid) and len(gid) * math.log2(64) >= 128
    # every character position takes many values: the id is random throughout, not a counter
    assert all(len({g[i] for g in ids}) > 50 for i in range(len(next(iter(ids)))))
    csrf = csrf_of(client)
    made = client.post("/games/new", data={"csrf_token": csrf, "name": ["A", "B"]}).headers["Location"]
    imported = client.post(
        "/games/import", json={"format": "rss-table-transcript", "version": 1, "players": ["A", "B"], "events": []}
    ).get_json()["id"]
    for gid in (made.rsplit("/", 1)[1], imported):
        assert ALPHABET.fullmatch(gid) and len(gid) >= 22


def test_nothing_lists_the_games(app, client):
    csrf = csrf_of(client)
    ids = [
        client.post("/games/new", data={"csrf_token": csrf, "name": ["A", "B", str(n)]})
        .headers["Location"]
        .rsplit("/", 1)[1]
        for n in range(3)
    ]
    urls = [
        "/games",
        "/games/",
        "/games/list",
        "/api/games",
        "/games.json",
        "/robots.txt",
        "/sitemap.xml",
        "/.well-known/security.txt",
        "/admin",
        "/debug",
        "/console",
        "/games/%25",
        "/games/*",
    ]
    urls += [r.rule for r in app.url_map.iter_rules() if not r.arguments and "GET" in r.methods]
    fresh = app.test_client()  # a stranger: no cookie, no link
    for url in urls:
        for who in (fresh, client):
            body = who.get(url).get_data().decode("utf-8", "replace")  # some answers are images
            assert not any(gid in body for gid in ids), url
            assert not any(gid[:8] in body for gid in ids), url


def test_secret_key_is_not_in_the_code_and_is_kept_private(tmp_path, monkeypatch):
    sources = "\n".join(p.read_text() for p in (ROOT / "assistant").rglob("*.py"))
    assert not re.search(r"SECRET_KEY['\"]?\s*[:=]\s*['\"][^'\"]", sources)
    assert not re.search(r"secret_key\s*=\s*['\"]", sources)
    monkeypatch.delenv("RSS_SECRET_KEY", raising=False)
    one = make_app(tmp_path, SECRET_KEY=None)
    two = make_app(tmp_path / "other", SECRET_KEY=None)
    key_file = Path(one.instance_path) / "secret_key"
    assert one.config["SECRET_KEY"] != two.config["SECRET_KEY"]  # generated per installation
    assert len(one.config["SECRET_KEY"]) >= 32 and key_file.read_text().strip() == one.config["SECRET_KEY"]
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    for a in (one, two):
        a.extensions["rss_store"].close()


def test_the_run_command_never_runs_in_debug_mode(server_factory):
    """The real ``python -m assistant serve``, with FLASK_DEBUG=1 in its environment."""
    srv = server_factory(env={"FLASK_DEBUG": "1"})  # even when the environment asks for it
    phone = Http(srv.base)
    status, headers, body = phone.request("GET", "/")
    assert status == 200 and headers.get("server") in ("granian", "rss-table")  # granian or waitress, not Werkzeug
    # Werkzeug's debugger, when it wraps an app, answers these itself (its console and resources)
    for path in ("/console", "/?__debugger__=yes&cmd=resource&f=debugger.js", "/?__debugger__=yes&cmd=printpin"):
        status, headers, body = phone.request("GET", path)
        assert b"Werkzeug" not in body and b"__debugger__" not in body and b"console" not in body.lower(), path
        assert "werkzeug" not in headers.get("server", "").lower()
    phone.close()
    main_src = (ROOT / "assistant" / "__main__.py").read_text() + (ROOT / "assistant/serve/server.py").read_text()
    assert "debug=True" not in main_src and ".run(" not in main_src


def test_the_served_app_keeps_hundreds_of_phones_connected(server_factory):
    """Every phone keeps its connection open for the poll: 300 open at once are all answered
    (waitress's default limit of 100 connections would leave the rest waiting unanswered)."""
    srv = server_factory()
    phones = []
    try:
        for _ in range(300):
            phones.append(socket.create_connection(("127.0.0.1", srv.port), timeout=10))
        for n, sock in enumerate(phones):
            sock.sendall(b"GET /games/nothing-here HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            first = sock.recv(64)
            assert first.startswith(b"HTTP/1.1 404"), (n, first)
    finally:
        for sock in phones:
            sock.close()


def test_an_unexpected_error_shows_no_stack_trace(tmp_path):
    app = make_app(tmp_path)

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret detail: /home/user/db password=hunter2")

    for headers in ({}, {"Accept": "application/json"}):
        resp = app.test_client().get("/boom", headers=headers)
        assert resp.status_code == 500
        text = resp.get_data(as_text=True)
        assert "Traceback" not in text and "hunter2" not in text and "RuntimeError" not in text
        assert "Content-Security-Policy" in resp.headers
    app.extensions["rss_store"].close()


@pytest.mark.parametrize("case", ["html", "json", "204", "303", "404", "400", "static", "export", "415", "405"])
def test_every_answer_carries_the_strict_policy(app, client, case):
    csrf = csrf_of(client)
    gid = client.post("/games/new", data={"csrf_token": csrf, "name": ["A", "B"]}).headers["Location"].rsplit("/")[-1]
    resp = {
        "html": lambda: client.get(f"/games/{gid}"),
        "json": lambda: client.get(f"/games/{gid}/state"),
        "204": lambda: client.get(f"/games/{gid}/version?seq=0"),
        "303": lambda: client.post("/games/new", data={"csrf_token": csrf, "name": ["A", "B"]}),
        "404": lambda: client.get("/games/nothing-here"),
        "400": lambda: client.post(f"/games/{gid}/act", data={}),
        "static": lambda: client.get("/static/htmx.min.js"),
        "export": lambda: client.get(f"/games/{gid}/export"),
        "415": lambda: client.post(f"/games/{gid}/events", data="x", content_type="text/plain"),
        "405": lambda: client.delete(f"/games/{gid}"),
    }[case]()
    csp = resp.headers.get("Content-Security-Policy", "")
    directives = dict((d.split(" ", 1) + [""])[:2] for d in (x.strip() for x in csp.split(";")) if d)
    assert directives.get("default-src") == "'self'"
    assert directives.get("script-src") == "'self'" and directives.get("style-src") == "'self'"
    assert directives.get("object-src") == "'none'" and directives.get("frame-ancestors") == "'none'"
    assert directives.get("base-uri") == "'none'" and directives.get("form-action") == "'self'"
    assert "unsafe" not in csp and "*" not in csp and "http" not in csp
    assert resp.headers["X-Content-Type-Options"] == "nosniff"
    assert resp.headers["X-Frame-Options"] == "DENY"
    assert "Access-Control-Allow-Origin" not in resp.headers  # no CORS: the JSON door is same-origin only


def test_session_cookie_is_http_only_and_same_site(client):
    resp = client.get("/games/new")
    cookie = resp.headers.get("Set-Cookie", "")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
