"""The project is a package: a wheel built from the repository serves every page, with its
CSS and htmx, from a fresh virtual environment and a working directory outside the checkout."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import socket
import subprocess
import sys
import sysconfig
import time
import tomllib
import urllib.error
import urllib.parse
import urllib.request
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_design_cards_top_level_is_there():
    for name in ("pyproject.toml", "assistant", "templates", "static", "tests", "README.md"):
        assert (ROOT / name).exists(), name
    assert not (ROOT / "assistant" / "web" / "templates").exists(), "templates live at the top level only"
    assert not (ROOT / "assistant" / "web" / "static").exists(), "static files live at the top level only"
    assert not list(ROOT.glob("requirements*.txt")), "pyproject.toml is the one list of dependencies"


def test_the_readme_gives_the_two_commands_that_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```sh\n\s*(.+?)\n\s*```", readme.split("## Set-up")[1].split("\n## ")[0], re.S)
    assert len(commands) == 2, commands
    run_app, run_tests = commands
    assert "pip install" in run_app and "rss-assistant serve" in run_app
    assert run_tests.strip() == "bash scripts/test.sh"
    assert "bash scripts/test.sh" in (ROOT / ".ci" / "run").read_text()
    script = (ROOT / "scripts" / "test.sh").read_text()
    for step in (".[test]", "ruff check", "ruff format --check", "pytest"):
        assert step in script, step


def test_the_console_script_is_the_command_line():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert meta["project"]["scripts"]["rss-assistant"] == "assistant.__main__:main"
    assert meta["project"]["requires-python"] == ">=3.11"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=5) as resp:
        return resp.status, resp.headers.get("Content-Type", ""), resp.read()


def _fresh_venv(env_dir: Path) -> Path:
    """A fresh environment that sees the dependencies installed where these tests run (a virtual
    environment or the system's Python), but not the checkout: the running interpreter's
    site-packages folders are added as paths (their .pth files, the checkout's editable install
    among them, are not read).  Its python."""
    venv.create(env_dir, system_site_packages=False, with_pip=False)
    python = env_dir / "bin" / "python"
    own = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    parent = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(own, "_parent_site_packages.pth").write_text("".join(f"{p}\n" for p in sorted(parent)))
    return python


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX venv layout")
def test_a_wheel_serves_the_app_from_another_directory(tmp_path):
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = wheels.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "assistant/templates/table.html" in names
    assert "assistant/static/htmx.min.js" in names and "assistant/static/app.css" in names
    assert not any(n.startswith(("tests/", "templates/", "static/")) for n in names)

    env_dir = tmp_path / "venv"
    python = _fresh_venv(env_dir)
    pip = [sys.executable, "-m", "pip", "--python", str(python)]
    subprocess.run([*pip, "install", "-q", "--no-deps", str(wheel)], check=True)
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "RSS_DB", "RSS_INSTANCE")}
    env.update(RSS_SECRET_KEY="wheel-test", RSS_INSTANCE=str(work / "instance"))
    where = subprocess.run(
        [str(python), "-c", "import assistant; print(assistant.__file__)"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(env_dir) in where, f"the installed copy is used, not the checkout: {where}"

    port = _free_port()
    script = env_dir / "bin" / "rss-assistant"
    proc = subprocess.Popen(
        [str(script), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"

    def log() -> str:
        """What the installed app printed (it has ended or is ended now)."""
        if proc.poll() is None:
            proc.terminate()
        return proc.communicate(timeout=10)[0]

    try:
        for _ in range(150):
            try:
                status, _, home = _get(base + "/")
                break
            except OSError:
                if proc.poll() is not None:
                    raise AssertionError("the installed app ended; its log:\n" + log()) from None
                time.sleep(0.1)
        else:
            raise AssertionError("the installed app did not answer; its log:\n" + log())
        assert status == 200 and b"New game" in home
        status, _, page = _get(base + "/games/new")
        assert status == 200
        assets = re.findall(rb'(?:href|src)="(/static/[^"]+)"', page)
        assert any(a.endswith(b".css") for a in assets) and any(b"htmx" in a for a in assets), assets
        for asset in assets:
            status, ctype, body = _get(base + asset.decode())
            assert status == 200 and body, asset
        status, _, rules = _get(base + "/rules")
        assert status == 200 and b"Canonical rules" in rules
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.communicate(timeout=10)
    assert (work / "instance" / "rss.sqlite3").exists(), "the database is created where the settings say"


class _Served:
    """``rss-assistant serve`` of a virtual environment on a free port, as a user starts it (no
    RSS_INSTANCE, RSS_DB or RSS_SECRET_KEY: the default data folder and the generated secret)."""

    def __init__(self, env_dir: Path, cwd: Path, env: dict):
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [str(env_dir / "bin" / "rss-assistant"), "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(300):
            try:
                _get(self.base + "/")
                return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.1)
        raise AssertionError("the installed app did not answer; its log:\n" + self.stop())

    def stop(self) -> str:
        """Stop it (SIGTERM, as a service manager does); what it printed (a note on the games a
        developer keeps in this checkout's own ``instance/`` left out: they are not this test's)."""
        if self.proc.poll() is None:
            self.proc.terminate()
        out = self.proc.communicate(timeout=15)[0]
        return "".join(line for line in out.splitlines(True) if str(ROOT / "instance") not in line)


class _Phone:
    """A phone's cookies: its seat is signed with the server's secret."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str) -> tuple[int, str]:
        try:
            with self.opener.open(self.base + path, timeout=10) as resp:
                return resp.status, resp.read().decode()
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode()

    def post(self, path: str, data: bytes, content_type: str) -> str:
        req = urllib.request.Request(self.base + path, data=data, headers={"Content-Type": content_type})
        with self.opener.open(req, timeout=10) as resp:
            return resp.url


@pytest.mark.skipif(sys.platform != "linux", reason="the user's data folder as platformdirs names it on Linux")
def test_a_game_made_after_pip_install_dot_is_found_after_pip_install_e(tmp_path):
    """Issue 37: the README's two commands in order (``pip install .``, then the tests' ``pip install
    -e .``) lost the running game.  One data folder whatever the install mode, its secret with it; a
    database an earlier version left in its own default place is used and named on the start line."""
    home = tmp_path / "home"
    home.mkdir()
    env_dir = tmp_path / "venv"
    python = _fresh_venv(env_dir)
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-build-isolation"]
    gone = ("PYTHONPATH", "RSS_DB", "RSS_INSTANCE", "RSS_SECRET_KEY", "XDG_DATA_HOME")
    env = {k: v for k, v in os.environ.items() if k not in gone} | {"HOME": str(home)}
    data = home / ".local" / "share" / "rss-assistant"  # platformdirs' user data folder on Linux
    work = tmp_path / "elsewhere"
    work.mkdir()

    def installed_from() -> str:
        return subprocess.run(
            [str(python), "-c", "import assistant; print(assistant.__file__)"],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()

    def seated(phone: _Phone, gid: str) -> bool:
        status, banner = phone.get(f"/games/{gid}/c/banner")
        assert status == 200, banner
        return "you are <strong>Amy</strong>" in banner

    subprocess.run([*pip, str(ROOT)], check=True, env=env)  # pip install .
    assert installed_from().startswith(str(env_dir)), "a copy in the environment"
    first = _Served(env_dir, work, env)
    try:
        phone = _Phone(first.base)
        game = {"format": "rss-table-transcript", "version": 1, "players": ["Amy", "Brian", "Crystal"], "events": []}
        gid = phone.post("/games/import", json.dumps(game).encode(), "application/json").rsplit("/", 1)[1]
        _, page = phone.get(f"/games/{gid}")
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        phone.post(
            f"/games/{gid}/seat",
            urllib.parse.urlencode({"player": "Amy", "csrf_token": token}).encode(),
            "application/x-www-form-urlencoded",
        )
        assert seated(phone, gid)
    finally:
        said = first.stop()
    assert f"Database: {data / 'rss.sqlite3'}: no file yet" in said, said
    assert (data / "rss.sqlite3").exists() and (data / "secret_key").exists()
    assert not (env_dir / "var").exists(), "nothing in the place of the older versions"

    subprocess.run([*pip, "-e", str(ROOT)], check=True, env=env)  # pip install -e .
    assert installed_from() == str(ROOT / "assistant" / "__init__.py"), "the checkout itself"
    second = _Served(env_dir, work, env)
    try:
        phone.base = second.base
        assert phone.get(f"/games/{gid}")[0] == 200
        assert seated(phone, gid), "the same secret: the phone keeps its seat"
    finally:
        said = second.stop()
    assert f"Database: {data / 'rss.sqlite3'}: 1 game," in said, said
    assert "Games" not in said.split("Database:")[1], said

    # The games where an earlier version's ``pip install .`` kept them (Flask's instance folder of the
    # environment), the data folder not made yet: that folder is used, and the start line says how to move it
    older = env_dir / "var" / "assistant.web-instance"
    older.parent.mkdir()
    data.rename(older)
    third = _Served(env_dir, work, env)
    try:
        phone.base = third.base
        assert phone.get(f"/games/{gid}")[0] == 200
        assert seated(phone, gid), "its secret came with it"
    finally:
        said = third.stop()
    assert f"Database: {older / 'rss.sqlite3'}: 1 game," in said, said
    note = next(line for line in said.splitlines() if line.startswith("Games: "))
    assert f"{older} holds 1 game" in note and str(data) in note, note
    move = note.split("stop the server and run: ", 1)[1]
    subprocess.run(["sh", "-c", move], check=True)  # the command it gives, as a user runs it

    fourth = _Served(env_dir, work, env)
    try:
        phone.base = fourth.base
        assert phone.get(f"/games/{gid}")[0] == 200 and seated(phone, gid)
        # another game in the older place: this server does not show it, and says where it is
        older.mkdir(exist_ok=True)
        other = subprocess.run(
            [str(python), "-c", MAKE_A_GAME, str(older)], cwd=work, env=env, capture_output=True, text=True, check=True
        ).stdout.strip()
        assert fourth.proc.poll() is None
    finally:
        said = fourth.stop()
    assert f"Database: {data / 'rss.sqlite3'}: 1 game," in said and "Games" not in said.split("Database:")[1], said
    notes = subprocess.run(
        [str(python), "-c", "from assistant.store import places; print(*places.choose().notes, sep='\\n')"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert f"Games elsewhere: {older / 'rss.sqlite3'} holds 1 game" in notes, notes
    assert f"rss-assistant copy-db --from {older / 'rss.sqlite3'} --to {data / 'rss.sqlite3'}" in notes, notes
    assert other and other != gid


# one game made by the app itself in the data folder given (the way an earlier version's server made it)
MAKE_A_GAME = """
import sys
from assistant.web import create_app
app = create_app({"INSTANCE_PATH": sys.argv[1], "SECRET_KEY": "older"})
game = {"format": "rss-table-transcript", "version": 1, "players": ["Dirk", "Emma"], "events": []}
print(app.test_client().post("/games/import", json=game).headers["Location"].rsplit("/", 1)[1])
"""
