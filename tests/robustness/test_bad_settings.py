"""Every setting is checked once, at start (issue 38 §6): ``serve`` with a value a setting does not
accept stops at once, with one line naming the setting and what it accepts, and no traceback
(before: ``RSS_GRACE_MS=abc`` had the supervisor restart the server over and over, 55 KB of log in
12 s; ``RSS_CREATE_LIMIT=ten/600`` answered every import 500; ``RSS_DB_MAX_MB=big`` a traceback)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from assistant.store import settings

from .conftest import ROOT, free_port

BAD = {
    "RSS_GRACE_MS": "abc",
    "RSS_CREATE_LIMIT": "ten/600",
    "RSS_DB_MAX_MB": "big",
    "RSS_REQUEST_SECONDS": "-3",
    "RSS_PG_POOL": "0",
    "RSS_SAVE_EVERY": "lots",
    "RSS_TRUSTED_PROXIES": "the-proxy",
    "RSS_HEAD_SECONDS": "soon",
}


@pytest.mark.parametrize(("name", "value"), list(BAD.items()))
def test_serve_refuses_a_bad_setting_in_one_line(tmp_path, name, value):
    code, out = _serve(tmp_path, "127.0.0.1", free_port(), **{name: value})
    lines = out.strip().splitlines()
    assert code != 0
    assert lines == [f"{name}={value!r} is not accepted: {name} takes {settings.SETTINGS[name].accepts}."], out
    assert not (tmp_path / "games.sqlite3").exists(), "nothing is set up before the settings are checked"


def _serve(tmp_path, host: str, port: int, **setting: str) -> tuple[int, str]:
    """``serve`` started with these settings; (its exit code, what it printed) once it stopped."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), RSS_SECRET_KEY="t", RSS_INSTANCE=str(tmp_path / "instance"))
    env.update(setting)
    cmd = [sys.executable, "-m", "assistant", "serve", "--host", host, "--port", str(port)]
    cmd += ["--db", str(tmp_path / "games.sqlite3")]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        out, _ = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        pytest.fail(f"serve --host {host} --port {port} {setting} did not stop: {out[-600:]}")
    return proc.returncode, out


def test_serve_refuses_a_host_name_and_a_port_in_use_in_one_line(tmp_path):
    """Where the server cannot listen is said once, at start (before: granian's traceback, and the
    supervisor starting it again for ever: --host localhost, an address of another machine, a port
    another server holds)."""
    code, out = _serve(tmp_path, "localhost", free_port())
    assert code == 2 and out.strip().splitlines() == [
        "--host / RSS_HOST 'localhost' is not accepted: it takes an IP address of this machine "
        "(0.0.0.0: every network, so that phones can join; 127.0.0.1: this machine only)."
    ], out
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out = _serve(tmp_path, "127.0.0.1", port)
    assert code == 2 and len(out.strip().splitlines()) == 1, out
    assert out.startswith(f"Cannot listen on 127.0.0.1 port {port}: Address already in use."), out
    assert not (tmp_path / "games.sqlite3").exists(), "nothing is set up before"


def test_serve_refuses_a_data_folder_it_cannot_make_in_one_line(tmp_path):
    """RSS_INSTANCE naming a folder that cannot be made (under /proc): one line, not a traceback."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), RSS_SECRET_KEY="t", RSS_INSTANCE="/proc/no-such-folder")
    cmd = [sys.executable, "-m", "assistant", "serve", "--host", "127.0.0.1", "--port", str(free_port())]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=30)
    lines = (proc.stdout + proc.stderr).strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1, lines
    assert lines[0].startswith(
        "Cannot start: No such file or directory: /proc/no-such-folder. The data folder (RSS_INSTANCE"
    )
