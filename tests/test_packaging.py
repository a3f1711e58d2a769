"""The project is a package: a wheel built from the repository serves every page, with its
CSS and htmx, from a fresh virtual environment and a working directory outside the checkout."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import sysconfig
import time
import tomllib
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

    # a fresh environment that sees the dependencies installed where these tests run (a virtual
    # environment or the system's Python), but not the checkout: the running interpreter's
    # site-packages folders are added as paths (their .pth files, the checkout's editable install
    # among them, are not read)
    env_dir = tmp_path / "venv"
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
