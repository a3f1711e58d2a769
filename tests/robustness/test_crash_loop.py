"""A worker that dies again right after its restart (issue 18, failure 2), against the real server:
granian sees a crash loop and exits its master by design; ``serve``'s supervisor says why, checks the
database and starts the server again, so the tables are never left without one. Prints the outage."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.processes import master, workers

from .conftest import Http, import_game, load_transcript

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds the processes in Linux /proc")


def _new_worker(pid: int, known: set[int], timeout: float = 10) -> int | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        fresh = [w for w in workers(pid) if w not in known]
        if fresh:
            return fresh[0]
        time.sleep(0.02)
    return None


def test_a_worker_killed_with_its_replacement_within_2_s_never_leaves_the_table_without_a_server(server_factory):
    srv = server_factory()
    client = Http(srv.base)
    gid = import_game(client, {**load_transcript(), "events": []})
    first_master = master(srv.proc.pid)
    known = set(workers(srv.proc.pid))
    assert first_master and len(known) == 2
    kills = 0
    victim = sorted(known)[0]
    # kill a worker, then each replacement as soon as it appears (well within 2 s), until granian gives up
    while master(srv.proc.pid) == first_master and kills < 12:
        os.kill(victim, signal.SIGKILL)
        last_kill = time.monotonic()
        kills += 1
        known.add(victim)
        victim = _new_worker(srv.proc.pid, known, timeout=2)
        if victim is None:
            break
    print(f"\n{kills} worker kills, each replacement killed within 2 s")
    # the tables get a server again: the same game answers
    deadline = time.monotonic() + 20
    status = None
    while time.monotonic() < deadline:
        try:
            status, body = Http(srv.base, timeout=2).json("GET", f"/games/{gid}/state")
            if status == 200 and master(srv.proc.pid) not in (None, first_master):
                break
        except OSError:
            pass
        time.sleep(0.05)
    outage = time.monotonic() - last_kill
    print(f"a new server answered {outage:.1f} s after the last kill (the longest the table was without one)")
    assert status == 200 and master(srv.proc.pid) != first_master, srv.output()[-2000:]
    assert srv.proc.poll() is None
    out = srv.output()
    assert "The server stopped by itself" in out and "starting it again" in out
    assert outage < 15
