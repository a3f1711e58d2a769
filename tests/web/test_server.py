"""``python -m assistant serve`` runs the app under waitress and prints the LAN address."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from assistant.web import server

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_settings_come_from_arguments_then_environment(monkeypatch):
    monkeypatch.delenv("RSS_HOST", raising=False)
    monkeypatch.delenv("RSS_PORT", raising=False)
    monkeypatch.delenv("RSS_DB", raising=False)
    assert server._settings(None, None, None) == ("0.0.0.0", 5000, None)
    monkeypatch.setenv("RSS_HOST", "127.0.0.1")
    monkeypatch.setenv("RSS_PORT", "5123")
    monkeypatch.setenv("RSS_DB", "/tmp/x.sqlite3")
    assert server._settings(None, None, None) == ("127.0.0.1", 5123, "/tmp/x.sqlite3")
    assert server._settings("::1", 7000, "y.db") == ("::1", 7000, "y.db")


def test_serve_runs_waitress_and_resumes_games(tmp_path):
    port = _free_port()
    db = tmp_path / "served.sqlite3"
    env = dict(os.environ, RSS_SECRET_KEY="serve-test", PYTHONPATH=str(ROOT), RSS_INSTANCE=str(tmp_path / "inst"))
    cmd = [sys.executable, "-m", "assistant", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        body = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as resp:
                    body = resp.read().decode()
                    server_header = resp.headers.get("Server", "")
                break
            except OSError:
                time.sleep(0.1)
        assert body is not None and "New game" in body
        assert server_header == "rss-table"  # set by waitress (ident)
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
    assert f"http://127.0.0.1:{port}/" in out
    assert db.exists()
