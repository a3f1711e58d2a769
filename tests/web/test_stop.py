"""Stopping the real server while phones hold their game's event stream open (issue 37, §2): on
Ctrl-C (SIGINT) or a service manager's SIGTERM the streams end at once, the whole process tree is
gone within 3 s (before granian's kill timeout, which a worker held by a stream waited out), and
nothing listens on the port after."""

from __future__ import annotations

import os
import signal
import socket
import time
from pathlib import Path

import pytest

from tests.processes import alive

from .test_restart import Server
from .test_stream import Events
from .turn_one import PLAYERS

STOP_WITHIN = 3.0  # seconds (issue 37: "the server is gone within 3 s")
STREAMS_END_WITHIN = 1.0  # "streams close at once": well before the workers' kill timeout


def _tree(pid: int) -> list[int]:
    """``pid`` and every process under it (read from each process's parent in /proc)."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    tree, grew = {pid}, True
    while grew:
        more = {child for child, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return sorted(tree)


def _what(pid: int) -> str:
    """A process's name and state, for a failure's message."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        name = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "gone"
    return f"{stat.rsplit(')', 1)[1].split()[0]} {name.strip()[:80]}"


def _ended(events: Events) -> bool:
    """The stream's connection was closed by the server (end of file, or a reset)."""
    try:
        events.sock.settimeout(0.05)
        while True:
            data = events.sock.recv(65536)
            if not data:
                return True
            events.raw += data
    except TimeoutError:
        return False
    except OSError:
        return True


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the process tree from Linux /proc")
@pytest.mark.parametrize(
    "signum, group",
    [(signal.SIGINT, False), (signal.SIGTERM, False), (signal.SIGINT, True)],
    ids=["SIGINT", "SIGTERM", "Ctrl-C in a terminal (SIGINT to every process of the group)"],
)
def test_a_stop_with_streams_open_ends_them_at_once_and_leaves_nothing_listening(tmp_path, signum, group):
    server = Server(tmp_path / "table.sqlite3", tmp_path, new_session=group)
    try:
        gid = server.new_game(PLAYERS)
        streams = [Events(server.port, f"/games/{gid}/stream?seq=0") for _ in range(6)]
        assert all(s.status == 200 for s in streams)
        tree = _tree(server.proc.pid)
        assert len(tree) >= 3, tree  # the supervisor, granian's master, its workers

        assert not any(_ended(s) for s in streams), "the streams are open before the stop"
        sent = time.monotonic()
        if group:
            os.killpg(server.proc.pid, signum)
        else:
            server.proc.send_signal(signum)
        streams_ended = None
        while time.monotonic() - sent < STOP_WITHIN + 2:
            if streams_ended is None and all(_ended(s) for s in streams):
                streams_ended = time.monotonic() - sent
            if server.proc.poll() is not None and not any(alive(p) for p in tree):
                break
            time.sleep(0.02)
        gone = time.monotonic() - sent
        output = server.proc.communicate(timeout=10)[0] if server.proc.poll() is not None else ""
        assert streams_ended is not None and streams_ended < STREAMS_END_WITHIN, (streams_ended, output)
        left = {p: _what(p) for p in tree if alive(p)}
        assert gone < STOP_WITHIN, f"still running {gone:.1f} s after the signal: {left}\n{output}"
        # (granian may still say "Killing worker-N after it refused to gracefully stop" under load: its
        # join returns when the worker's files are closed, a moment before the exiting worker is reaped;
        # the kill then only ends what is ending. Before this fix the kill came after the full 3 s.)
        with pytest.raises(OSError), socket.create_connection(("127.0.0.1", server.port), timeout=1):
            pass
        for s in streams:
            s.close()
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.communicate(timeout=10)
