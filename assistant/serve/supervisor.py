"""Keeping the tables' server up: ``serve`` (with granian) runs the server in a child process and
starts it again whenever it stops without being asked to.

granian respawns a worker that dies, but exits by design when a respawned worker fails again
within about 5.5 s (it sees a crash loop), and has no option against it. So the process ``serve``
starts is a small supervisor: it starts the server (``serve --child``: granian's master and its
workers), and when that stops by itself it says why, waits a moment (0.5, 1, 2, then 4 s; back to
0.5 s once the server has run for a minute), checks the database again as at start, and starts it
again. The longest outage is then the wait plus a start: about 5 s. Ctrl-C or SIGTERM stop the
supervisor and the server together; the server also ends if the supervisor is killed (kill -9).

``serve`` sets up the database with the whole app loaded, then becomes the supervisor in the same
process (``exec``: same pid) holding only this module and the database check: about 17 MB instead
of the app's 75 (``serve --supervise`` loads this file without ``assistant.web``'s package, the app).
The plan (the server's arguments, the database) comes in the environment (``ENV_PLAN``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

from assistant.store import backends

BACKOFF = (0.5, 1.0, 2.0, 4.0)  # seconds before the 1st, 2nd, 3rd and later restarts in a row
STABLE_SECONDS = 60  # a server that ran this long counts as well again: the next wait is the first
ASK_AGAIN_SECONDS = 0.5  # a stop signal the server has not acted on is sent again this often
KILL_AFTER_SECONDS = 5.0  # and the server is killed past this (its workers end with it)


ENV_PLAN = "RSS_SUPERVISE"


def plan(argv: list[str], database: str, instance_path: str | None, named: bool) -> str:
    """What ``serve --supervise`` runs (``run_plan``), as the environment carries it."""
    return json.dumps({"argv": argv, "database": database, "instance_path": instance_path, "named": named})


def run_plan() -> int:
    """``serve --supervise``: supervise the server the plan in the environment names."""
    text = os.environ.pop(ENV_PLAN, None)
    if not text:
        print("serve --supervise is started by serve itself.", file=sys.stderr)
        return 2
    given = json.loads(text)
    return supervise(given["argv"], given["database"], given["instance_path"], given["named"])


def wait_before(restarts_in_a_row: int) -> float:
    return BACKOFF[min(restarts_in_a_row, len(BACKOFF)) - 1]


def see_it_stop(child: subprocess.Popen, signum: int) -> None:
    """After a stop signal: the server is asked again until it ends, and killed past
    ``KILL_AFTER_SECONDS``. granian's master can miss one: when a worker ends on the same signal
    (a service manager may signal every process of the service) and the master sees it before
    its own handler has run, it starts a new worker and drops the stop it was asked for."""
    deadline = time.monotonic() + KILL_AFTER_SECONDS
    while time.monotonic() < deadline:
        try:
            child.wait(timeout=ASK_AGAIN_SECONDS)
            return
        except subprocess.TimeoutExpired:
            child.send_signal(signum)
    if child.poll() is None:
        print(f"The server did not stop within {KILL_AFTER_SECONDS:g} s: ended it.", file=sys.stderr, flush=True)
        child.kill()


def supervise(argv: list[str], database: str, instance_path: str | None, named: bool) -> int:
    """Run ``python -m assistant <argv>`` (the server) until asked to stop; 0, or 2 when the
    database cannot be used any more."""
    stopping = False
    child: subprocess.Popen | None = None

    def stop(signum, _frame) -> None:
        nonlocal stopping
        first = not stopping
        stopping = True
        if child is not None and child.poll() is None:
            child.send_signal(signum)
            if first:
                threading.Thread(target=see_it_stop, args=(child, signum), name="rss-stop", daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    in_a_row = 0
    while True:
        started = time.monotonic()
        # in a process group of its own: Ctrl-C in a terminal (a signal to every process of the
        # terminal's group) reaches this supervisor only, which asks granian's master to stop; the
        # master stops its workers. A worker stopping on the signal by itself could be taken by
        # the master for one that crashed and be started again in place of the stop.
        child = subprocess.Popen([sys.executable, "-m", "assistant", *argv], process_group=0)
        code = child.wait()
        if stopping:
            return 0
        up = time.monotonic() - started
        in_a_row = 1 if up >= STABLE_SECONDS else in_a_row + 1
        wait = wait_before(in_a_row)
        print(
            f"The server stopped by itself (exit code {code}, after {up:.1f} s; restart {in_a_row} in a row): "
            f"checking the database and starting it again in {wait:g} s.",
            file=sys.stderr,
            flush=True,
        )
        deadline = time.monotonic() + wait
        while not stopping and time.monotonic() < deadline:
            time.sleep(0.05)
        if stopping:
            return 0
        try:
            backends.check_before_start(database, instance_path, named=named)
        except backends.DatabaseDamaged as err:
            print(f"Not started again: {err.message}", file=sys.stderr, flush=True)
            return 2
