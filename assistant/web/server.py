"""``python -m assistant serve``: the app behind waitress (production WSGI server)."""

from __future__ import annotations

import os
import sys

from waitress import serve
from waitress.task import WSGITask

from assistant.dbcheck import DamagedDatabase
from assistant.web import create_app
from assistant.web.lan import lan_ip

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 5000
THREADS = 8
# Every phone keeps its connection open (keep-alive) for the poll each second: 6 phones at each
# of 50+ tables exceed waitress's default of 100 connections, past which it stops accepting.
CONNECTION_LIMIT = 1000


def keep_alive_without_body(task_class=WSGITask) -> None:
    """Keep the connection open after a 204 (the live-sync poll's "nothing new").

    waitress closes an HTTP/1.1 connection after any response without Content-Length, and a
    204 may not carry one (RFC 9110): every phone's poll, once a second, would then cost a new
    TCP connection (an extra round trip on a poor Wi-Fi, and accept/close work on the server).
    A 204/304 has no body by definition, so the client knows where it ends: keep the
    connection unless the client or the app asked to close it.
    """
    build = task_class.build_response_header
    if getattr(build, "keeps_alive_without_body", False):
        return

    def build_response_header(self):
        keep = (
            self.version == "1.1"
            and not self.has_body
            and not self.close_on_finish
            and self.request.headers.get("CONNECTION", "").lower() != "close"
            and not any(name.lower() == "connection" for name, _ in self.response_headers)
        )
        head = build(self)
        if keep and self.close_on_finish:
            self.close_on_finish = False
            self.response_headers = [(n, v) for n, v in self.response_headers if n.lower() != "connection"]
            head = head.replace(b"\r\nConnection: close", b"", 1)
        return head

    build_response_header.keeps_alive_without_body = True
    task_class.build_response_header = build_response_header


def _settings(host, port, db) -> tuple[str, int, str | None]:
    host = host or os.environ.get("RSS_HOST") or DEFAULT_HOST
    port = port if port is not None else int(os.environ.get("RSS_PORT") or DEFAULT_PORT)
    db = db or os.environ.get("RSS_DB") or None
    return host, port, db


def main(host: str | None = None, port: int | None = None, db: str | None = None) -> int:
    host, port, db = _settings(host, port, db)
    config = {"DATABASE_CHECK": True, "DATABASE_NAMED": bool(db)} | ({"DATABASE": db} if db else {})
    try:
        app = create_app(config)
    except DamagedDatabase as err:
        print(err.message, file=sys.stderr, flush=True)
        return 2
    app.debug = False
    shown = lan_ip() if host in ("0.0.0.0", "::", "") else host
    print(
        f"Rolling Stock Stars table assistant: open http://{shown or 'localhost'}:{port}/ "
        f"on a phone in the same network",
        flush=True,
    )
    print(f"Database: {app.extensions['rss_db_report'].summary()}", flush=True)
    keep_alive_without_body()
    serve(
        app,
        host=host,
        port=port,
        threads=THREADS,
        ident="rss-table",
        connection_limit=CONNECTION_LIMIT,
        asyncore_use_poll=True,
    )  # poll(): select() cannot watch more than 1024 sockets
    return 0
