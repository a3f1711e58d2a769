"""Imports and resumed games are tried first in a process of their own (issue 26).

An import or a resumed game hands the engine a transcript or a position nobody has seen yet: the
one request a stranger on the table's wifi can make costly at will (a position where the engine
found no end, round three).  So before the worker's own thread imports it, the import is tried in
a child process with nothing at stake: the same ``Store.import_transcript`` on a throw-away SQLite
file, at low priority (nice 10), under a CPU limit (the request's deadline) and a memory limit
(``RSS_TRIAL_MB`` above its start, default 512), killed at the request's deadline.  Only an import
the trial ended is done for real, in the worker, which then knows it ends: a stuck one costs a
niced process for at most ``RSS_REQUEST_SECONDS`` and never an app thread's CPU or the worker's
memory.  At most one trial runs per worker at a time (``costly.py``: others wait a second, then 503).

Why a process and not a worker that drains and exits: a Python thread cannot be stopped, and a
worker that exits drops every connection it holds (the phones of its tables) and, if its
replacement is stuck again within about 5 s, granian stops the whole server; a child process is
simply killed, and the deadline, CPU and memory limits hold for it whatever it is stuck in.
The child is forked from a small server process started once per worker (multiprocessing's
``forkserver``), so a trial costs a fork, not a new interpreter.

For the tests only, ``RSS_TEST_HOOKS=1`` in the server's environment lets a transcript with
``"test_hook": "stuck"`` get stuck like the engine did (a loop that never looks at its deadline,
its memory growing), and one with ``"test_hook": "fail"`` fail like a bug would (an unexpected
error, a 500: what the bounded error log is tested with, ``errorlog.py``); without that variable
the key is ignored like any unknown key.
"""

from __future__ import annotations

import math
import os
import resource
import tempfile
import time

from flask import current_app
from werkzeug.exceptions import ServiceUnavailable

from assistant.rules.core import deadline
from assistant.store import ImportRefused, Store, settings
from assistant.web import costly
from assistant.web.db import get_store
from assistant.web.deadlines import RETRY_AFTER, request_seconds

TRIAL_MB = 512  # memory a trial may take above what it starts with
ENV_HOOKS = "RSS_TEST_HOOKS"


class TooCostly(ServiceUnavailable):
    name = "Too costly"


def import_transcript(data) -> str:
    """The store's ``import_transcript``, once a trial in a process of its own has ended (app config
    ``TRIAL_PROCESS``, set by ``serve``; else the import runs on this thread, within its deadline)."""
    if _hook(data) == "fail":
        raise RuntimeError("test hook: an import failing like a bug")
    store = get_store()
    with costly.turn("trial"):
        if current_app.config.get("TRIAL_PROCESS"):
            _try(data, store.save_every)
        else:
            _maybe_stuck(data)
        return store.import_transcript(data)


def _try(data, save_every: int) -> None:
    """Raise what the import would raise (ImportRefused), or TooLong / TooCostly."""
    seconds = deadline.remaining()
    seconds = request_seconds() if seconds is None else max(seconds, 0.1)
    try:
        answer = costly.in_a_child(_trial, (data, save_every, seconds), seconds)
    except costly.ChildDied as err:
        current_app.logger.warning("an import's trial process died: %s", err)
        raise TooCostly(
            description="The import could not be tried: nothing was stored.", retry_after=RETRY_AFTER
        ) from None
    kind = answer[0]
    if kind == "refused":
        raise ImportRefused(answer[1], answer[2], answer[3])
    if kind == "too long":
        raise deadline.TooLong(request_seconds())
    if kind == "memory":
        raise TooCostly(
            description=(
                f"Working this game out needs more memory than the server gives one import ({_trial_mb()} MB): "
                "nothing was stored."
            ),
            retry_after=RETRY_AFTER,
        )
    # "ok", or an error of the trial itself: the import proper says what it is


def _trial_mb() -> int:
    return settings.get("RSS_TRIAL_MB")


def _limit(seconds: float) -> None:
    """In the child: CPU and memory limits."""
    cpu = math.ceil(seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    size = _vm_size()
    if size:
        limit = size + _trial_mb() * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _vm_size() -> int | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _trial(data, save_every: int, seconds: float) -> tuple:
    """The child: import into a throw-away database, and say how it went."""
    try:
        _limit(seconds)
        with deadline.within(seconds):
            _maybe_stuck(data)
            folder = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
            with tempfile.TemporaryDirectory(prefix="rss-trial-", dir=folder) as where:
                store = Store(os.path.join(where, "trial.sqlite3"), save_every)
                try:
                    store.import_transcript(data)
                finally:
                    store.close()
        return ("ok",)
    except ImportRefused as err:
        return ("refused", err.reason, err.index, err.problems)
    except deadline.TooLong:
        return ("too long",)
    except MemoryError:
        return ("memory",)
    except Exception as err:  # noqa: BLE001 - the import proper, in the worker, reports it
        return ("error", repr(err)[:200])


def _hook(data) -> str | None:
    """The test hook a transcript asks for (``RSS_TEST_HOOKS=1`` only; else None)."""
    if os.environ.get(ENV_HOOKS) != "1" or not isinstance(data, dict):
        return None
    return data.get("test_hook")


def _maybe_stuck(data) -> None:
    """Test hook (``RSS_TEST_HOOKS=1`` only): get stuck like an engine that never ends."""
    if _hook(data) != "stuck":
        return
    grown = []
    while True:  # never looks at the deadline: only the process's limits or the front end it
        grown.append(bytearray(64 * 1024))
        end = time.monotonic() + 0.01
        while time.monotonic() < end:
            pass
