"""Helpers for the robustness tests: real servers on loopback, raw HTTP, the SQLite log read directly.

Every test gets its own temporary database.  Servers are ``python -m assistant serve`` subprocesses
bound to 127.0.0.1 on a free port; all traffic stays on this machine.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assistant.log.transcript import is_table_event
from assistant.rules import registry
from assistant.rules.core import position
from assistant.rules.core.game import Game
from assistant.rules.registry import STARS
from assistant.store import Row, effective_events
from assistant.web import create_app
from tests import ASSETS_DIR
from tests.project_games import played_game

ROOT = Path(__file__).resolve().parents[2]
GAMES_DIR = Path(os.environ.get("RSS_CONFORMANCE_GAMES", ROOT.parent / "shared" / "conformance" / "games"))
MAIN_GAME = GAMES_DIR / "83092.json"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def conformance_files() -> list[Path]:
    return sorted(GAMES_DIR.glob("*.json")) if GAMES_DIR.is_dir() else []


def load_transcript(path: Path | None = None) -> dict:
    """A whole game to work on: the project's own (tests/project_games.py), or the transcript at ``path``."""
    if path is None:
        return played_game()
    if not path.exists():
        pytest.skip(f"the public conformance games are not here ({path})")
    return json.loads(path.read_text(encoding="utf-8"))


def written_events(transcript: dict) -> list[dict]:
    """The table's events as a transcript (and the app's export) writes them: no checkpoints, no
    events meant to be refused."""
    return [e for e in transcript["events"] if is_table_event(e)]


def table_events(transcript: dict) -> list[dict]:
    """The events the table entered, one per log row as the app keeps them: no checkpoints, no
    events meant to be refused, and no ``done`` of a phase that had already ended by itself
    because nobody could act in it (a transcript holds it; the app accepts it and writes nothing).
    Played through the engine in live play, only to tell those ``done``s apart."""
    ruleset = registry.get(transcript.get("game") or registry.DEFAULT)
    players, options = transcript["players"], transcript.get("options") or []
    if transcript.get("position") is not None:  # live play, as the store plays (not the replay's convention)
        game = position.resume(ruleset, players, options, transcript["position"], persons=transcript.get("persons"))
    else:
        game = ruleset.create(players, options, deck=transcript.get("deck"), persons=transcript.get("persons"))
    out = []
    for event in transcript["events"]:
        if is_table_event(event) and game.apply(event):
            out.append(event)
    return out


def header(transcript: dict, events=()) -> dict:
    """The transcript's header with other events (e.g. none: a new game to play)."""
    return {k: v for k, v in transcript.items() if k != "events"} | {"events": list(events)}


class Http:
    """A tiny keep-alive HTTP/1.1 client for one host (one connection, like one phone)."""

    def __init__(self, base: str, timeout: float = 30, source: str | None = None):
        """``source``: the client's own loopback address (e.g. 127.0.0.2 for a second client on the
        table's wifi); the system's choice (127.0.0.1) when None."""
        host, port = base.removeprefix("http://").split(":")
        self.host, self.port, self.timeout = host, int(port), timeout
        self.source = (source, 0) if source else None
        self.conn = None

    def request(self, method: str, path: str, body=None, headers=None) -> tuple[int, dict, bytes]:
        headers = dict(headers or {})
        if body is not None and not isinstance(body, (bytes, str)):
            body = json.dumps(body)
            headers.setdefault("Content-Type", "application/json")
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(
                    self.host, self.port, timeout=self.timeout, source_address=self.source
                )
            try:
                self.conn.request(method, path, body=body, headers=headers)
                resp = self.conn.getresponse()
                data = resp.read()
                return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()  # a kept-alive connection the server closed: reopen once
                if attempt or method != "GET":
                    raise

    def json(self, method: str, path: str, body=None, headers=None) -> tuple[int, dict]:
        status, _, data = self.request(method, path, body, headers)
        return status, json.loads(data) if data else {}

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class Server:
    """``python -m assistant serve`` on a free loopback port, on a given database file (two worker
    processes unless RSS_WORKERS says otherwise)."""

    def __init__(self, db, workdir: Path, env: dict | None = None, files: int | None = None):
        """``files``: the server's open-file limit (soft and hard), as a host's ``ulimit -n``."""
        self.files = files
        # an SQLite file, or a postgresql:// URL (kept as it is written)
        self.db = db if str(db).startswith("postgresql://") else Path(db)
        self.workdir = Path(workdir)
        self.extra_env = dict(env or {})  # set in the server's environment (e.g. FLASK_DEBUG)
        self.proc = None
        self.port = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20) -> Server:
        self.port = free_port()
        env = dict(
            os.environ,
            RSS_SECRET_KEY="robustness-test",
            PYTHONPATH=str(ROOT),
            RSS_INSTANCE=str(self.workdir / "instance"),
        )
        env.setdefault("RSS_WORKERS", "2")  # several worker processes, whatever the machine has
        env.pop("FLASK_DEBUG", None)
        env.update(self.extra_env)
        cmd = [
            sys.executable,
            "-m",
            "assistant",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--db",
            str(self.db),
        ]
        self.log = open(self.workdir / f"server-{self.port}.log", "w")
        limit = None
        if self.files:
            import resource

            def limit():
                resource.setrlimit(resource.RLIMIT_NOFILE, (self.files, self.files))

        self.proc = subprocess.Popen(
            cmd, cwd=self.workdir, env=env, stdout=self.log, stderr=subprocess.STDOUT, preexec_fn=limit
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}: {self.output()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    pass
                status, _, _ = Http(self.base, timeout=5).request("GET", "/")
                if status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("the server did not start in time")

    def output(self) -> str:
        self.log.flush()
        return (self.workdir / f"server-{self.port}.log").read_text(errors="replace")

    def kill(self) -> None:
        """kill -9: no clean-up, no checkpoint, whatever the server is doing."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.log.close()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        if not self.log.closed:
            self.log.close()


@pytest.fixture
def server_factory(tmp_path):
    servers: list[Server] = []

    def start(db=None, env=None, files=None) -> Server:
        srv = Server(db or tmp_path / "served.sqlite3", tmp_path, env, files).start()
        servers.append(srv)
        return srv

    yield start
    for srv in servers:
        srv.stop()


def import_game(client: Http, transcript: dict) -> str:
    status, body = client.json("POST", "/games/import", transcript)
    assert status == 303, body
    return body["id"]


def read_log(db: Path, gid: str) -> tuple[dict, list[Row]]:
    """The game's header and its event rows, read from the SQLite file directly."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        game = conn.execute("SELECT players, options, deck, persons FROM games WHERE id = ?", [gid]).fetchone()
        rows = conn.execute(
            "SELECT seq, event, token, created FROM events WHERE game_id = ? ORDER BY seq", [gid]
        ).fetchall()
    finally:
        conn.close()
    info = {
        "players": json.loads(game[0]),
        "options": json.loads(game[1]),
        "deck": json.loads(game[2]) if game[2] else None,
        "persons": json.loads(game[3]) if game[3] else None,
    }
    return info, [Row(r[0], json.loads(r[1]), r[2], r[3]) for r in rows]


def serial_replay(info: dict, rows: list[Row]) -> Game:
    return STARS.replay(
        info["players"], info["options"], effective_events(rows), deck=info["deck"], persons=info["persons"]
    )


def assert_log_is_whole(rows: list[Row]) -> None:
    """seq 1..n, no gap, no duplicate; tokens unique."""
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    tokens = [r.token for r in rows if r.token is not None]
    assert len(tokens) == len(set(tokens))


# -- in-process apps (Flask test client), each on its own temporary database -----------------------
CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"')


def make_app(tmp_path, **extra):
    config = {
        "DATABASE": str(tmp_path / "rss.sqlite3"),
        "TESTING": False,
        "SECRET_KEY": "robustness",
        "ASSETS_DIR": ASSETS_DIR,
        "LAN_IP": "192.168.7.7",
        "INSTANCE_PATH": str(tmp_path / "instance"),
    }
    config.update(extra)
    return create_app(config)


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["rss_store"].close()


@pytest.fixture
def client(app):
    return app.test_client()


def csrf_of(client, gid: str | None = None) -> str:
    """The CSRF token a page hands out: a game's own (bound to that game) or the home pages'."""
    page = client.get(f"/games/{gid}/v/more" if gid else "/games/new")
    return CSRF_RE.search(page.get_data(as_text=True)).group(1)


def rename_players(transcript: dict, names: dict) -> dict:
    """The transcript's table events with the players renamed (``names``: old -> new)."""

    def one(event):
        return {k: names.get(v, v) if k in ("player", "announced_by") else v for k, v in event.items()}

    return header(transcript, [one(e) for e in table_events(transcript)]) | {
        "players": [names.get(p, p) for p in transcript["players"]]
    }


def snapshot_and_seq(client, gid) -> dict:
    resp = client.get(f"/games/{gid}/state")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()
