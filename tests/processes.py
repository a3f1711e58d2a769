"""The server's process tree as the tests see it in Linux /proc: ``serve`` is a supervisor, its one
child (``serve --child``) is granian's master, and the master's children are the workers."""

from __future__ import annotations

from pathlib import Path


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def master(pid: int) -> int | None:
    """The granian master under the ``serve`` process ``pid`` (None between two starts)."""
    for child in children(pid):
        try:
            if b"--child" in Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0"):
                return child
        except OSError:
            continue
    return None


def workers(pid: int) -> list[int]:
    """The worker processes of the ``serve`` process ``pid``."""
    top = master(pid)
    return children(top) if top else []
