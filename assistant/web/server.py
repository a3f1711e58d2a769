"""``python -m assistant serve``: the app behind waitress (production WSGI server)."""

from __future__ import annotations

import os

from waitress import serve

from assistant.web import create_app
from assistant.web.lan import lan_ip

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 5000
THREADS = 8


def _settings(host, port, db) -> tuple[str, int, str | None]:
    host = host or os.environ.get("RSS_HOST") or DEFAULT_HOST
    port = port if port is not None else int(os.environ.get("RSS_PORT") or DEFAULT_PORT)
    db = db or os.environ.get("RSS_DB") or None
    return host, port, db


def main(host: str | None = None, port: int | None = None, db: str | None = None) -> int:
    host, port, db = _settings(host, port, db)
    app = create_app({"DATABASE": db} if db else None)
    app.debug = False
    shown = lan_ip() if host in ("0.0.0.0", "::", "") else host
    print(f"Rolling Stock Stars table assistant: open http://{shown or 'localhost'}:{port}/ "
          f"on a phone in the same network", flush=True)
    print(f"Database: {app.config['DATABASE']}", flush=True)
    serve(app, host=host, port=port, threads=THREADS, ident="rss-table")
    return 0
