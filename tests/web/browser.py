"""Shared pieces of the real-browser tests: Debian's chromium driven by Playwright (no browser
download), a phone viewport, and the app behind waitress on a free loopback port."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from .conftest import make_app

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PHONE = {"width": 360, "height": 740}
NEEDS_CHROMIUM = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (scripts/test.sh)")


class LiveServer:
    """The app behind waitress on a loopback port that can be stopped and started again (same port)."""

    def __init__(self, app, port: int = 0):
        self.app = app
        self.port = port
        self.server = None
        self.thread = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        from waitress import create_server

        self.server = create_server(self.app, host="127.0.0.1", port=self.port, threads=4)
        self.port = self.server.effective_port
        self.thread = threading.Thread(target=self._serve, args=(self.server,), daemon=True)
        self.thread.start()

    def _serve(self, server) -> None:
        try:
            server.run()
        except OSError:  # its sockets closed under its select() by stop(): the end it was asked for
            if server is self.server:
                raise

    def stop(self) -> None:
        """Close the listener and every open connection: the phones see a dropped server."""
        server, self.server = self.server, None
        if server is None:
            return
        from waitress import wasyncore

        server.task_dispatcher.shutdown()
        wasyncore.close_all(server._map)  # the listener, the trigger and every open connection
        self.thread.join(timeout=10)


@pytest.fixture
def live_server(tmp_path):
    """A ``LiveServer`` (``.url``, ``.stop()``, ``.start()``) over a fresh database."""
    app = make_app(tmp_path / "live.sqlite3")
    srv = LiveServer(app)
    srv.start()
    yield srv
    srv.stop()
    app.extensions["rss_store"].close()


@pytest.fixture
def live(tmp_path):
    """The app behind waitress on a free loopback port."""
    app = make_app(tmp_path / "live.sqlite3")
    srv = LiveServer(app)
    srv.start()
    yield srv.url
    srv.stop()  # its thread ends quietly (LiveServer._serve)
    app.extensions["rss_store"].close()


@pytest.fixture
def browser():
    """One headless chromium for the test (each phone is a context of it)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
