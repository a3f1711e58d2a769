"""The server's process tree as the tests see it in Linux /proc: ``serve`` is a supervisor, its one
child (``serve --child``) is granian's master, and the master's children are the workers."""

from __future__ import annotations

from pathlib import Path

from assistant.serve.server import PROCESS_NAME


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def master(pid: int) -> int | None:
    """The granian master under the ``serve`` process ``pid`` (None between two starts): the child
    started as ``serve --child``, or so renamed by granian where setproctitle is installed (a
    dependency of the mutation-testing tool): ``rss-assistant server``."""
    for child in children(pid):
        try:
            args = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
            if b"--child" in args or args[0].startswith(PROCESS_NAME.encode()):
                return child
        except OSError:
            continue
    return None


def workers(pid: int) -> list[int]:
    """The worker processes of the ``serve`` process ``pid``."""
    top = master(pid)
    return children(top) if top else []


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet waited for, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
