"""A throw-away PostgreSQL cluster for the tests: Debian's ``postgresql`` package, a temporary folder,
a free port on loopback, stopped (and deleted) afterwards.

Debian keeps ``initdb`` and ``pg_ctl`` off the PATH, in the versioned folder of the package
(``/usr/lib/postgresql/<version>/bin``).  PostgreSQL refuses to run as root, so under root the
cluster belongs to the ``postgres`` user (the package creates it) and its commands run as that user.
``why_not()`` says why no cluster can be had here (the tests that need one skip with that reason).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    return Path(found[-1]).parent if found else None


def why_not() -> str | None:
    """None when a cluster can be started here, else the reason (for pytest.skip)."""
    if _bin_dir() is None:
        return "PostgreSQL is not installed (apt-get install postgresql; scripts/test.sh does it)"
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        return "psycopg 3 with its pool is not installed (pip install -e '.[test]')"
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run PostgreSQL as"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """``with Cluster() as c: c.url`` — a running PostgreSQL; ``c.stop()``/``c.start()`` for crash tests."""

    def __init__(self) -> None:
        self.bin = _bin_dir()
        self.root = Path(tempfile.mkdtemp(prefix="rss-pg-"))
        self.data = self.root / "data"
        self.sockets = self.root / "sock"
        self.port = _free_port()
        self.log = self.root / "server.log"

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        cmd = [str(a) for a in args]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=self.root)

    def init(self) -> Cluster:
        self.sockets.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
            shutil.chown(self.sockets, "postgres")
        self._run(self.bin / "initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale")
        return self

    def start(self) -> Cluster:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.sockets} "
            "-c max_connections=200 -c fsync=on"
        )
        self._run(self.bin / "pg_ctl", "-D", self.data, "-l", self.log, "-o", options, "-w", "-t", "60", "start")
        return self

    def stop(self, mode: str = "fast") -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(self.bin / "pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""

    def fresh_database(self, name: str) -> str:
        """A new empty database in this cluster (one per test); its URL."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def __enter__(self) -> Cluster:
        self.init().start()
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.stop("immediate")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def wait_until_ready(url: str, seconds: float = 30) -> None:
    import psycopg

    deadline = time.monotonic() + seconds
    while True:
        try:
            with psycopg.connect(url, connect_timeout=2):
                return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
