"""Restarting the real server (``python -m assistant serve``) on the same database file: every game
is found exactly as it was (the same snapshot and seq), and play goes on from there."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from .turn_one import PLAYERS, TURN_ONE

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One ``python -m assistant serve`` process on a free loopback port."""

    def __init__(self, db: Path, workdir: Path, port: int | None = None, new_session: bool = False):
        self.port = port or _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = dict(
            os.environ, RSS_SECRET_KEY="restart-test", PYTHONPATH=str(ROOT), RSS_INSTANCE=str(workdir / "instance")
        )
        env.pop("RSS_DB", None)
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
            str(db),
        ]
        self.proc = subprocess.Popen(  # new_session: a process group of its own, as a terminal's
            cmd,
            cwd=workdir,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=new_session,
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(self.base + "/", timeout=2):
                    break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise AssertionError(f"the server did not start:\n{self.output}") from None
                time.sleep(0.1)

    def get(self, path: str):
        with urllib.request.urlopen(self.base + path, timeout=5) as resp:
            return resp.status, resp.read().decode()

    def state(self, gid: str) -> dict:
        status, body = self.get(f"/games/{gid}/state")
        assert status == 200
        return json.loads(body)

    def post_json(self, path: str, body: dict) -> tuple[int, dict]:
        """POST JSON (without following a redirect); returns (status, JSON answer)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        try:
            conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            return resp.status, json.loads(resp.read())
        finally:
            conn.close()

    def new_game(self, players) -> str:
        """A new game through the transcript import (JSON; no session needed)."""
        status, body = self.post_json(
            "/games/import",
            {"format": "rss-table-transcript", "version": 1, "players": list(players), "options": [], "events": []},
        )
        assert status == 303, body
        return body["id"]

    def stop(self) -> None:
        self.proc.terminate()
        self.output, _ = self.proc.communicate(timeout=10)


def test_a_restarted_server_finds_the_games_unchanged(tmp_path):
    db = tmp_path / "table.sqlite3"
    first = Server(db, tmp_path)
    try:
        gid = first.new_game(PLAYERS)
        other = first.new_game(["Dirk", "Emma"])
        seq = 0
        for event in TURN_ONE[:12]:  # into the second auction of turn 1
            status, body = first.post_json(f"/games/{gid}/events", {"seq": seq, "token": f"t{seq}", "event": event})
            assert status == 200, body
            seq = body["seq"]
        status, body = first.post_json(f"/games/{gid}/events", {"seq": seq, "event": {"type": "undo"}})
        assert (status, body) == (200, {"seq": seq + 1})
        seq += 1
        before = {g: first.state(g) for g in (gid, other)}
        history_before = first.get(f"/games/{gid}/c/history")[1]
        export_before = first.get(f"/games/{gid}/export")[1]
    finally:
        first.stop()
    assert before[gid]["seq"] == seq == 13 and before[gid]["auction"]["company"] == "BSE"

    second = Server(db, tmp_path)  # a new process on the same file
    try:
        for g, snap in before.items():
            assert second.state(g) == snap  # the same snapshot and seq
        assert second.get(f"/games/{gid}/c/history")[1] == history_before
        assert second.get(f"/games/{gid}/export")[1] == export_before
        # a retried request from before the restart is answered as the first time, not applied again
        status, body = second.post_json(f"/games/{gid}/events", {"seq": 0, "token": "t0", "event": TURN_ONE[0]})
        assert (status, body) == (200, {"seq": 1})
        # and play goes on where it stopped (the undone event entered again)
        status, body = second.post_json(f"/games/{gid}/events", {"seq": seq, "event": TURN_ONE[11]})
        assert (status, body) == (200, {"seq": seq + 1})
        assert second.state(gid)["next"] == {"player": "Brian", "for": "bid", "company": "BSE"}
    finally:
        second.stop()
    assert "Database: " + str(db) in second.output


def test_a_database_from_before_the_two_handed_persons_still_opens(tmp_path):
    """A file written before the ``persons`` column existed: its games resume, new games keep persons."""
    import sqlite3

    from assistant.store import Store

    db = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(db)
    conn.executescript("""
        CREATE TABLE games (id TEXT PRIMARY KEY, players TEXT NOT NULL, options TEXT NOT NULL, deck TEXT,
                            created TEXT NOT NULL);
        CREATE TABLE events (game_id TEXT REFERENCES games(id), seq INTEGER, event TEXT NOT NULL, token TEXT,
                             created TEXT NOT NULL, PRIMARY KEY (game_id, seq));
        INSERT INTO games VALUES ('old-game', '["Amy", "Brian"]', '[]', NULL, '2024-01-01T00:00:00+00:00');
        INSERT INTO events VALUES ('old-game', 1, '{"type": "reveal", "company": "BME"}', NULL, 'x');
    """)
    conn.commit()
    conn.close()
    store = Store(str(db))
    try:
        info = store.get_game("old-game")
        assert info.persons is None and store.seq("old-game") == 1
        assert store.state("old-game")[1].snapshot()["offering"]["available"] == ["BME"]
        gid = store.create_game(
            ["A (right hand)", "B (left hand)", "B (right hand)", "A (left hand)"],
            ["two_handed"],
            persons=["A", "B"],
            ruleset="rolling-stock-stars",
        )
        assert store.get_game(gid).persons == ["A", "B"]
    finally:
        store.close()
