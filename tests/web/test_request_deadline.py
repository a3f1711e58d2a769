"""Every request's work has a deadline (issue 26, point 1): the engine's automatic loop looks at it
and stops with a clear error, a served request past ``RSS_REQUEST_SECONDS`` is answered 503 with
Retry-After and stores nothing; and ``serve --db postgresql://…`` without the postgresql extra says
which extra to install (point 5)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from werkzeug.test import Client

from assistant.rules.core import deadline
from assistant.rules.registry import STARS
from assistant.store import Store
from tests.project_games import played_game

ROOT = Path(__file__).resolve().parents[2]


def test_the_engine_stops_at_a_passed_deadline_and_goes_on_without_one():
    data = played_game()
    game = STARS.create(data["players"], [])
    setup = len(data["players"])  # the set-up's reveals come first
    for event in data["events"][:setup]:
        game.apply(event)
    # every later event goes through the automatic steps, which look at the deadline
    # (the store applies an event to a fork of its game: a stopped one is dropped whole)
    with deadline.within(-1), pytest.raises(deadline.TooLong, match="longer than the -1 s"):
        game.fork().apply(data["events"][setup])
    with deadline.within(60):
        game.apply(data["events"][setup])
    assert deadline.remaining() is None  # the deadline ended with its block


def test_an_import_past_its_deadline_stores_nothing(tmp_path):
    store = Store(str(tmp_path / "games.sqlite3"))
    with deadline.within(-1), pytest.raises(deadline.TooLong):
        store.import_transcript(played_game())
    assert not store.backend.game_ids()
    assert store.import_transcript(played_game())  # without a deadline it goes in


def test_a_served_request_past_the_deadline_is_a_503_with_retry_after(tmp_path, monkeypatch):
    from assistant.serve.server import served_app

    monkeypatch.setenv("RSS_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("RSS_SECRET_KEY", "deadline")
    wsgi, app = served_app(str(tmp_path / "games.sqlite3"))
    client = Client(wsgi)
    monkeypatch.setenv("RSS_REQUEST_SECONDS", "0.000001")  # any replay takes longer
    resp = client.post("/games/import", json=played_game())
    assert resp.status_code == 503 and resp.headers["Retry-After"] == "5"
    assert "took longer than" in resp.get_data(as_text=True)
    assert not app.extensions["rss_store"].backend.game_ids()
    monkeypatch.setenv("RSS_REQUEST_SECONDS", "30")
    assert client.post("/games/import", json=played_game()).status_code == 303


def test_a_fresh_worker_replaying_a_played_game_past_the_deadline_answers_503(tmp_path, monkeypatch):
    """The deadline is the middleware's (``web/deadlines.py``), not a child process's: a fresh
    worker (nothing cached) over a database holding a played game replays its log on the app's own
    thread for ``GET /state``; past a tiny ``RSS_REQUEST_SECONDS`` the engine stops and the answer
    is the deadline's 503; with time enough, the same request is answered."""
    from assistant.log import saved
    from assistant.serve.server import served_app

    db = str(tmp_path / "games.sqlite3")
    store = Store(db)
    gid = store.import_transcript(played_game())
    rows = store.seq(gid)
    store.close()
    assert rows % saved.EVERY, rows  # rows past the last saved state: the worker replays them

    monkeypatch.setenv("RSS_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("RSS_SECRET_KEY", "deadline")
    monkeypatch.setenv("RSS_REQUEST_SECONDS", "0.000001")  # any replay takes longer
    wsgi, _ = served_app(db)  # a fresh worker: no game cached
    client = Client(wsgi)
    resp = client.get(f"/games/{gid}/state")
    assert resp.status_code == 503 and resp.headers["Retry-After"] == "5", resp.get_data(as_text=True)[:300]
    assert "took longer than the 1e-06 s" in resp.get_data(as_text=True)
    monkeypatch.setenv("RSS_REQUEST_SECONDS", "30")
    resp = client.get(f"/games/{gid}/state")
    assert resp.status_code == 200 and resp.get_json()["seq"] == rows


BLOCK_PSYCOPG = """
import sys
class _NoPsycopg:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("psycopg", "psycopg_pool"):
            raise ImportError(f"No module named {name!r}")
sys.meta_path.insert(0, _NoPsycopg())
"""


@pytest.mark.parametrize(
    "command", [["serve", "--port", "0"], ["check-db"], ["copy-db", "--from", "x.sqlite3", "--to"]]
)
def test_a_postgresql_url_without_the_extra_says_which_extra_to_install(tmp_path, command):
    (tmp_path / "sitecustomize.py").write_text(BLOCK_PSYCOPG)  # a Python without the postgresql extra
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}", RSS_INSTANCE=str(tmp_path / "instance"))
    url = "postgresql://rss:secret@127.0.0.1:9/rss"
    args = [*command, url] if command[0] == "copy-db" else [*command, "--db", url]
    done = subprocess.run(
        [sys.executable, "-m", "assistant", *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert "pip install 'rolling-stock-stars-assistant[postgresql]'" in done.stderr
    assert "Traceback" not in done.stderr and "secret" not in done.stderr


def test_the_front_answers_for_a_silent_app_and_a_request_that_never_got_a_thread(monkeypatch):
    """The front's own deadline (assistant/serve/front.py), on one app thread: a request the app
    holds past RSS_REQUEST_SECONDS is answered (None: the front's 503) a moment later, its thread
    counted as overdue until it ends; a request that waited as long for the thread is answered and
    never runs; a request after them runs."""
    import asyncio
    import threading
    import time

    from assistant.serve.front import BufferedBodies

    release, ran = threading.Event(), []

    def wsgi(environ, start_response):
        ran.append(environ["PATH_INFO"])
        if environ["PATH_INFO"] == "/stuck":
            release.wait(10)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    monkeypatch.setenv("RSS_REQUEST_SECONDS", "0.5")
    front = BufferedBodies(wsgi, threads=1, max_body=1000)

    def environ(path: str) -> dict:
        return {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": ""}

    PHONE = "127.0.0.1"  # the requests' address

    async def table():
        stuck = asyncio.create_task(front._on_a_thread(environ("/stuck"), PHONE))
        await asyncio.sleep(0.1)  # the only thread has taken it
        started = time.monotonic()
        waiting = await front._on_a_thread(environ("/waiting"), PHONE)
        waited = time.monotonic() - started
        held = await stuck
        overdue = front.overdue
        release.set()
        await asyncio.sleep(0.3)  # the stuck request ends; the waiting one must not run then
        return waiting, waited, held, overdue, front.overdue, await front._on_a_thread(environ("/after"), PHONE)

    waiting, waited, held, overdue, overdue_after, after = asyncio.run(table())
    front.pool.shutdown()
    assert waiting is None and 0.4 < waited < 1.5  # answered at its deadline, not later
    assert held is None and overdue == 1 and overdue_after == 0
    assert after == (200, [("Content-Type", "text/plain")], [b"ok"])
    assert ran == ["/stuck", "/after"]  # the request that never got a thread never ran


@pytest.mark.parametrize(
    ("setting", "seconds"),
    [
        (None, 10.0),  # not set: the default
        ("", 10.0),
        ("2.5", 2.5),
        ("30", 30.0),
        ("0", 10.0),  # no time at all is not a deadline: the default
        ("-3", 10.0),
        ("inf", 10.0),  # nor is an endless one
        ("nan", 10.0),
        ("ten", 10.0),  # not a number
    ],
)
def test_the_request_seconds_are_a_positive_finite_number_else_the_default(monkeypatch, setting, seconds):
    from assistant.web.deadlines import request_seconds

    if setting is None:
        monkeypatch.delenv("RSS_REQUEST_SECONDS", raising=False)
    else:
        monkeypatch.setenv("RSS_REQUEST_SECONDS", setting)
    assert request_seconds() == seconds


def test_each_request_runs_within_the_request_seconds(monkeypatch):
    from assistant.web.deadlines import Deadline

    monkeypatch.setenv("RSS_REQUEST_SECONDS", "7")
    seen = []

    def app(environ, start_response):
        seen.append(deadline.remaining())
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    assert Client(Deadline(app)).get("/").status_code == 200
    assert 6 < seen[0] <= 7
    assert deadline.remaining() is None  # and only while it runs
