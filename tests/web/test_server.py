"""``python -m assistant serve`` runs the app under waitress and prints the LAN address."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from assistant.rules import Game
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


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class _Served:
    """``python -m assistant serve`` on a free loopback port (a real process, a real socket)."""

    def __init__(self, tmp_path, db):
        self.port = _free_port()
        env = dict(os.environ, RSS_SECRET_KEY="serve-test", PYTHONPATH=str(ROOT), RSS_INSTANCE=str(tmp_path / "inst"))
        env.pop("FLASK_DEBUG", None)
        cmd = [sys.executable, "-m", "assistant", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        cmd += ["--db", str(db)]
        self.proc = subprocess.Popen(
            cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.output = ""
        self.opener = urllib.request.build_opener(_NoRedirect)  # see a 303 itself

    def request(self, path, body=None):
        """(status, headers, text); a JSON body is posted. Waits for the server to listen."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        for _ in range(150):
            try:
                with self.opener.open(req, timeout=5) as resp:
                    return resp.status, resp.headers, resp.read().decode()
            except urllib.error.HTTPError as err:
                return err.code, err.headers, err.read().decode()
            except OSError:
                assert self.proc.poll() is None, self.stop()
                time.sleep(0.1)
        raise AssertionError("the server did not answer")

    def stop(self) -> str:
        self.proc.terminate()
        self.output, _ = self.proc.communicate(timeout=10)
        return self.output


def test_serve_runs_waitress_and_resumes_games(tmp_path):
    db = tmp_path / "served.sqlite3"
    first = _Served(tmp_path, db)
    try:
        status, headers, body = first.request("/")
        assert status == 200 and "New game" in body
        assert headers.get("Server") == "rss-table"  # set by waitress (ident)
        players = ["Amy", "Brian"]
        status, _, body = first.request(
            "/games/import", {"format": "rss-table-transcript", "version": 1, "players": players, "events": []}
        )
        assert status == 303
        gid = json.loads(body)["id"]
        for seq in range(2):  # the two setup reveals, as the table enters them
            _, _, body = first.request(f"/games/{gid}/state")
            company = json.loads(body)["next"]["choices"][0]
            status, _, _ = first.request(
                f"/games/{gid}/events", {"seq": seq, "event": {"type": "reveal", "company": company}}
            )
            assert status == 200
        _, _, body = first.request(f"/games/{gid}/state")
        before = json.loads(body)
    finally:
        out = first.stop()
    assert f"http://127.0.0.1:{first.port}/" in out
    assert db.exists()
    # a new server process on the same file: the game is there, exactly as it was, and goes on
    second = _Served(tmp_path, db)
    try:
        _, _, body = second.request(f"/games/{gid}/state")
        assert json.loads(body) == before and before["seq"] == 2
        assert Game.replay(players, [], before_events(second, gid)).snapshot() == {
            k: v for k, v in before.items() if k != "seq"
        }
        status, _, body = second.request(
            f"/games/{gid}/events", {"seq": 2, "event": {"type": "pass", "player": before["next"]["player"]}}
        )
        assert status == 200 and json.loads(body)["seq"] == 3
    finally:
        second.stop()


def before_events(served, gid) -> list[dict]:
    status, _, body = served.request(f"/games/{gid}/export")
    assert status == 200
    return json.loads(body)["events"]
