"""``serve`` sets up the database with the whole app, then becomes the supervisor afresh in the same
process (exec): what it holds from then on is the supervisor, not the app (about 17 MB instead of
75 MB in the server's process tree)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.processes import master

from .conftest import Http

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the processes in Linux /proc")


def test_the_supervisor_holds_no_app_once_the_server_runs(server_factory):
    srv = server_factory()
    assert Http(srv.base).request("GET", "/")[0] == 200
    pid = srv.proc.pid
    assert master(pid), "the server runs under the supervisor"
    maps = Path(f"/proc/{pid}/maps").read_text()
    # the app's compiled modules (Jinja's and Werkzeug's markupsafe, the asset minifiers) are not loaded
    assert "markupsafe" not in maps and "rjsmin" not in maps, "the supervisor still holds the app"
    rss_kb = next(
        int(line.split()[1])
        for line in Path(f"/proc/{pid}/status").read_text().splitlines()
        if line.startswith("VmRSS:")
    )
    print(f"\nthe supervisor's memory: {rss_kb / 1024:.1f} MB")
