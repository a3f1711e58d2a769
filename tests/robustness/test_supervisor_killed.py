"""After a kill -9 of ``serve`` (the supervisor), none of its processes stays behind (issue 26): not
granian's master, not its workers, not what a worker started (the fork server, the painter and an
import's trial process, stuck in the middle of its work), and the port is free again."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

from .conftest import Http
from .test_no_request_pins_a_worker import STUCK, tree


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its parent's wait is missing


def test_nothing_of_the_server_stays_after_a_kill_9_of_the_supervisor(server_factory):
    srv = server_factory(env={"RSS_TEST_HOOKS": "1", "RSS_REQUEST_SECONDS": "30"})
    http = Http(srv.base)
    query = urlencode([("game", "rolling-stock-stars"), ("name", "Amy"), ("name", "Brian"), ("cash-0", "3")])
    for _ in range(4):  # both workers: their fork server and painter start on first use
        assert http.request("GET", f"/scores/check.png?{query}")[0] == 200
        assert http.json("POST", "/games/import", dict(STUCK, test_hook=None))[0] == 303
        http.close()
    settled = len(tree(srv.proc.pid))

    def stuck_import():
        try:
            Http(srv.base, timeout=60).request("POST", "/games/import", STUCK)
        except ConnectionError:
            pass  # the kill below ends it without an answer, as it should

    stuck = threading.Thread(target=stuck_import)
    stuck.daemon = True
    stuck.start()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and len(tree(srv.proc.pid)) == settled:
        time.sleep(0.1)  # until the stuck import's trial process runs
    pids = tree(srv.proc.pid)
    assert len(pids) >= 1 + 1 + 2 + 2 + 1, pids  # supervisor, master, 2 workers, a fork server and its tracker, a trial
    os.kill(srv.proc.pid, signal.SIGKILL)
    srv.proc.wait(10)
    until = time.monotonic() + 15
    while time.monotonic() < until and any(alive(p) for p in pids):
        time.sleep(0.1)
    left = [p for p in pids if alive(p)]
    print(f"\n{len(pids)} processes under the supervisor; {len(left)} left after its kill -9")
    assert not left, [Path(f"/proc/{p}/cmdline").read_bytes()[:120] for p in left]
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", srv.port))  # the port is free: nothing listens on it any more
