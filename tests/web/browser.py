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


@pytest.fixture
def live(tmp_path):
    """The app behind waitress on a free loopback port."""
    from waitress import create_server

    app = make_app(tmp_path / "live.sqlite3")
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"
    server.close()
    app.extensions["rss_store"].close()


@pytest.fixture
def browser():
    """One headless chromium for the test (each phone is a context of it)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
