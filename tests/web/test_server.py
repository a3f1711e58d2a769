"""``python -m assistant serve``: granian with several worker processes (or waitress), the LAN
address printed, settings from arguments then the environment, workers that end with the server."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from assistant.log import transcript
from assistant.rules.registry import STARS
from assistant.serve import server
from assistant.web import MAX_BODY
from tests.processes import alive
from tests.processes import workers as worker_pids

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_settings_come_from_arguments_then_environment(monkeypatch):
    for name in ("RSS_HOST", "RSS_PORT", "RSS_DB", "RSS_WORKERS", "RSS_THREADS", "RSS_SERVER"):
        monkeypatch.delenv(name, raising=False)
    assert server._settings(None, None, None) == ("0.0.0.0", 5000, None)
    # the documented defaults (README: one worker per CPU, at most 4; 4 threads each; granian)
    for cpus, workers in ((None, 1), (1, 1), (2, 2), (4, 4), (16, 4)):
        monkeypatch.setattr(server.os, "cpu_count", lambda cpus=cpus: cpus)
        s = server.settings()
        assert (s.workers, s.threads, s.server) == (workers, 4, "granian"), cpus
    monkeypatch.setenv("RSS_HOST", "127.0.0.1")
    monkeypatch.setenv("RSS_PORT", "5123")
    monkeypatch.setenv("RSS_DB", "/tmp/x.sqlite3")
    monkeypatch.setenv("RSS_WORKERS", "3")
    monkeypatch.setenv("RSS_THREADS", "6")
    monkeypatch.setenv("RSS_SERVER", "waitress")
    assert server._settings(None, None, None) == ("127.0.0.1", 5123, "/tmp/x.sqlite3")
    assert server._settings("::1", 7000, "y.db") == ("::1", 7000, "y.db")
    s = server.settings()
    assert (s.workers, s.threads, s.server) == (3, 6, "waitress")
    assert server.settings(workers=1, threads=2).workers == 1
    monkeypatch.setenv("RSS_SERVER", "gunicorn")
    # a value it does not accept stops serve's start, in one line naming the setting and what it takes
    with pytest.raises(SystemExit, match="RSS_SERVER='gunicorn' is not accepted: RSS_SERVER takes granian or waitress"):
        server.env_settings.check()


def test_where_the_server_cannot_listen_is_said_in_one_line():
    """A host name (granian binds IP addresses only), an address of another machine and a port in
    use each stopped granian in every start, and the supervisor started it again for ever."""
    port = _free_port()

    def where(host, port=port, server="granian"):
        return server_settings(host, port, server)

    assert server.cannot_listen(where("127.0.0.1")) is None
    assert server.cannot_listen(where("localhost", server="waitress")) is None  # waitress resolves a name
    assert server.cannot_listen(where("localhost")) == (
        "--host / RSS_HOST 'localhost' is not accepted: it takes an IP address of this machine "
        "(0.0.0.0: every network, so that phones can join; 127.0.0.1: this machine only)."
    )
    assert server.cannot_listen(where("999.1.1.1")).startswith("--host / RSS_HOST '999.1.1.1' is not accepted")
    # 192.0.2.1 is TEST-NET-1 (RFC 5737): no machine's own address
    assert server.cannot_listen(where("192.0.2.1")) == (
        f"Cannot listen on 192.0.2.1 port {port}: Cannot assign requested address. Is another server on that "
        "port (choose another with --port), or is the address not this machine's (--host)?"
    )
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        for server_name in ("granian", "waitress"):
            said = server.cannot_listen(where("127.0.0.1", busy, server_name))
            assert said.startswith(f"Cannot listen on 127.0.0.1 port {busy}: Address already in use."), said


def server_settings(host: str, port: int, which: str) -> server.Settings:
    return server.Settings(host=host, port=port, db=None, workers=1, threads=1, server=which)


def _start(tmp_path, *extra, env=None):
    port = _free_port()
    db = tmp_path / "served.sqlite3"
    env = dict(
        os.environ,
        RSS_SECRET_KEY="serve-test",
        PYTHONPATH=str(ROOT),
        RSS_INSTANCE=str(tmp_path / "inst"),
        **(env or {}),
    )
    cmd = [sys.executable, "-m", "assistant", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)]
    proc = subprocess.Popen(
        cmd + list(extra), cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    body = None
    for _ in range(150):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as resp:
                body = resp.read().decode()
            break
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.1)
    return proc, port, db, body


@pytest.mark.parametrize("which", ["granian", "waitress"])
def test_serve_runs_and_prints_the_address(tmp_path, which):
    proc, port, db, body = _start(tmp_path, "--workers", "2", env={"RSS_SERVER": which})
    try:
        assert body is not None and "New game" in body
        # bound to 127.0.0.1: the join link is an address it answers on, and says phones cannot reach it
        game = json.dumps(transcript.build(["Amy", "Brian", "Crystal"], [], None, [], "join link test")).encode()
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/games/import", data=game, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            gid = resp.url.rsplit("/", 1)[1]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/{gid}/c/join", timeout=10) as resp:
            join = resp.read().decode()
        assert f'<a href="http://127.0.0.1:{port}/games/{gid}">' in join
        assert "Phones cannot reach this address: the server listens on this machine only (127.0.0.1)." in join
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=15)
    assert f"http://127.0.0.1:{port}/ on this machine (phones cannot reach it" in out
    assert f"({which}," in out
    assert db.exists()


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the process tree from Linux /proc")
def test_workers_end_with_the_server_even_after_kill_9(tmp_path):
    proc, port, _db, body = _start(tmp_path, "--workers", "2")
    try:
        assert body is not None
        workers = worker_pids(proc.pid)
        assert len(workers) == 2, workers
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(w) for w in workers), "a worker outlived the server"
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=10)


def test_body_limit_is_the_apps_limit(tmp_path):
    from assistant.web import create_app

    app = create_app({"DATABASE": str(tmp_path / "x.sqlite3"), "SECRET_KEY": "k", "INSTANCE_PATH": str(tmp_path)})
    assert app.config["MAX_CONTENT_LENGTH"] == MAX_BODY == server.BodyLimit(app).limit
    app.extensions["rss_store"].close()


def test_the_polls_nothing_new_skips_flask_with_the_views_headers(tmp_path):
    from assistant.web import create_app

    app = create_app({"DATABASE": str(tmp_path / "x.sqlite3"), "SECRET_KEY": "k", "INSTANCE_PATH": str(tmp_path)})
    server.below_flask(app)  # as the server serves it
    seen = []
    app.before_request(lambda: seen.append(1))
    client = app.test_client()
    game = {"format": "rss-table-transcript", "version": 1, "players": ["Amy", "Brian"], "events": []}
    gid = client.post("/games/import", json=game).get_json()["id"]
    client.get(f"/games/{gid}")  # a session, as a phone has
    first = client.get(f"/games/{gid}/version?seq=0")  # through the view (and learned)
    assert first.status_code == 204
    seen.clear()
    fast = client.get(f"/games/{gid}/version?seq=0")
    assert fast.status_code == 204 and fast.data == b"" and not seen  # Flask never saw it
    assert fast.headers["X-RSS-Seq"] == "0" and fast.headers["Cache-Control"] == "no-store"
    dropped = ("set-cookie", "vary", "content-type", "content-length")
    assert {k: v for k, v in fast.headers.items() if k.lower() not in dropped} == {
        k: v for k, v in first.headers.items() if k.lower() not in dropped
    }
    # everything else is the view's: a new seq, an odd seq, an unknown game
    for url, status in (
        (f"/games/{gid}/version?seq=5", 200),
        (f"/games/{gid}/version?seq=x", 200),
        (f"/games/{gid}/version", 200),
        (f"/games/{gid}/version?seq=0&history=all", 204),
        ("/games/nosuchgame/version?seq=0", 404),
    ):
        seen.clear()
        resp = client.get(url)
        assert resp.status_code == status and seen, url
    app.extensions["rss_store"].close()


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


def test_serve_resumes_games_in_a_new_server_process(tmp_path):
    db = tmp_path / "served.sqlite3"
    first = _Served(tmp_path, db)
    try:
        status, headers, body = first.request("/")
        assert status == 200 and "New game" in body
        assert headers.get("Server") == "granian"  # the default server, never the development one
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
        assert STARS.replay(players, [], before_events(second, gid)).snapshot() == {
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


def in_a_worker(tmp_path, code: str):
    """Run ``code`` in a fresh Python process as a worker's (argv[1]: a new database); the JSON its
    last line prints."""
    env = dict(os.environ, RSS_INSTANCE=str(tmp_path / "instance"), PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "games.sqlite3")],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_worker_compiles_every_template_before_it_answers(tmp_path):
    """A template compiled at its first use in the middle of a game (a phase's form, the final
    scoring) took up to 0.1 s in every thread that needed it at once, and a table's six phones
    waited.  A worker's app (``served_app``, in a process of its own as granian's worker) has
    every template of the templates folder compiled before it answers anything."""
    on_disk = sorted(
        str(path.relative_to(ROOT / "templates"))
        for path in (ROOT / "templates").rglob("*")
        if path.suffix in (".html", ".svg")
    )
    assert len(on_disk) > 50
    code = (
        "import json, sys\n"
        "from assistant.serve.server import served_app\n"
        "_, app = served_app(sys.argv[1])\n"
        "print(json.dumps(sorted(name for _, name in app.jinja_env.cache.keys())))\n"
    )
    assert in_a_worker(tmp_path, code) == on_disk


def test_a_worker_collects_all_its_garbage_ten_times_less_often(tmp_path):
    """A full garbage collection looks at every object a worker made since it started, the cached
    games' states among them, and answers nothing meanwhile (15 to 90 ms each under 200 tables).
    A worker's app (``served_app``, in a process of its own) starts one after 100 collections of
    the middle generation instead of Python's 10.

    By hand: 300,000 lists kept alive (as the cached games grow) are 300,000 / 700 = 428 young
    collections, so 42 of the middle generation. Python's default starts a full collection once
    more than 10 of those have run since the last one (at the 11th, 22nd and 33rd: 3 times; each
    time the objects new since the last one are more than a quarter of those it holds); with 100,
    none."""
    code = (
        "import gc, json, sys\n"
        "from assistant.serve.server import served_app\n"
        "served_app(sys.argv[1])\n"
        "gc.collect()\n"
        "before = gc.get_stats()[2]['collections']\n"
        "kept = [[i] for i in range(300_000)]\n"
        "print(json.dumps(gc.get_stats()[2]['collections'] - before))\n"
    )
    assert in_a_worker(tmp_path, code) == 0
