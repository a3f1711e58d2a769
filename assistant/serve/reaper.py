"""Connections the app never sees: room for a new phone, always (issue 38).

granian accepts connections in its own (Rust) loop and calls the app only once a whole request
head has come. Its head deadline starts with the first byte: a connection that sends nothing is
held for ever, and 17,000 of them, opened in 4.4 s by one client on the wifi, took every
connection a worker may hold, so no new phone could connect. The app cannot refuse what it never
sees, so each worker looks at its own sockets, once a second (``/proc/self/fd`` and the kernel's
``TCP_INFO`` of each: no packet is read). A descriptor already seen to be a connection that
talked, or no connection of ours, is taken at its word between full looks (every
``FULL_EVERY`` s): each second only the new descriptors and the silent connections are looked at,
so a worker holding thousands of phones' streams spends almost nothing on it:

* a connection that has received no byte since it was accepted for ``RSS_HEAD_SECONDS`` (30 s,
  granian's own head deadline) is shut down;
* one address holds at most ``RSS_CLIENT_CONNECTIONS`` connections to this worker (2,000, and at
  most a quarter of what the worker's open-file limit leaves): past it, its silent ones and then
  its newest ones are shut down. A phone holds about seven (a browser's six and its stream);
* a scan that finds an address near its cap looks again after 0.2 s, not 1 s.

Shutting a socket down (``shutdown(2)``) ends it for granian too: it reads the end and closes its
own descriptor. The scan takes no descriptor of its own when none is left. Linux only (elsewhere
nothing is done).
"""

from __future__ import annotations

import logging
import os
import socket
import struct
import threading
import time
from dataclasses import dataclass, field

from assistant.store import settings

INTERVAL = 1.0
FULL_EVERY = 5.0  # every descriptor looked at again (one closed and reused meanwhile is found then)
SOON = 0.2  # the next scan when an address is near its cap
RESERVED_FILES = 256  # descriptors kept for the database, the logs and the app's own files
ESTABLISHED = 1  # tcp_info.tcpi_state
TCP_INFO_SIZE = 232
LOG_EVERY = 60.0
TRIED_AT_MOST = 1 << 20  # descriptor numbers tried when none is left to list them (Linux's default nr_open)

log = logging.getLogger("assistant.serve.reaper")


def head_seconds() -> float:
    """``RSS_HEAD_SECONDS``: how long a request head may take to arrive, counted from accept (30 s
    unset: the settings' own default)."""
    return settings.get("RSS_HEAD_SECONDS")


def client_connections() -> int:
    """``RSS_CLIENT_CONNECTIONS`` (2,000 unset), at most a quarter of what the open-file limit leaves."""
    cap = settings.get("RSS_CLIENT_CONNECTIONS")
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError):
        return cap
    if soft == resource.RLIM_INFINITY:
        return cap
    return max(min(cap, (soft - RESERVED_FILES) // 4), 16)


@dataclass
class Conn:
    """One accepted connection of this worker, as the kernel tells it."""

    fd: int  # the worker's own descriptor (never closed here)
    inode: str
    peer: str
    received: int  # bytes received since accept
    quiet_ms: int  # milliseconds since it last received data (since accept, when it never did)


@dataclass
class Reaped:
    silent: int = 0
    crowded: dict[str, int] = field(default_factory=dict)  # address: connections shut past its cap
    seen: int = 0
    near_cap: bool = False


def _descriptors() -> list[int] | range:
    """This process's descriptors. Listing them takes one more descriptor: when none is left (a
    flood of connections has taken them all, which is when the scan matters most), every number
    below the open-file limit is tried instead (a failed readlink costs a microsecond or two)."""
    try:
        return [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        return range(min(soft, TRIED_AT_MOST))  # never infinite on Linux: the kernel keeps it within nr_open


def _open_count() -> int:
    """How many descriptors this process holds: the size Linux (6.2 and later) gives its fd folder,
    without listing it (0 where it does not: the folder is listed at every look then)."""
    try:
        return os.stat("/proc/self/fd").st_size
    except OSError:
        return 0  # pragma: no mutate: only without /proc, where no readlink succeeds and nothing is found either way


def _look(fd: int, port: int) -> tuple[str, int, int] | None:
    """(peer, bytes received, ms quiet) of descriptor ``fd`` when it is an established TCP
    connection accepted on ``port``. The descriptor itself is used, never duplicated (a flood may
    have left none to spare) and never closed: the socket object is detached before it goes."""
    try:
        sock = socket.socket(fileno=fd)
    except OSError:
        return None
    try:
        if sock.family not in (socket.AF_INET, socket.AF_INET6) or sock.type != socket.SOCK_STREAM:
            return None
        if sock.getsockname()[1] != port:
            return None
        raw = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_SIZE)
        if len(raw) < 136 or raw[0] != ESTABLISHED:
            return None
        return sock.getpeername()[0], struct.unpack_from("Q", raw, 128)[0], struct.unpack_from("I", raw, 52)[0]
    except OSError:
        return None
    finally:
        sock.detach()


def connections(port: int, talked: dict[str, str] | None = None) -> list[Conn]:
    """This process's established TCP connections accepted on ``port``.  ``talked``: the sockets
    (inode: peer) an earlier scan saw receive data; they are not asked again (one readlink each,
    not five calls: a worker holding 3,000 phones' streams scans in a few milliseconds)."""
    found = []
    talked = talked or {}
    for fd in _descriptors():
        try:
            inode = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if not inode.startswith("socket:"):
            continue
        peer = talked.get(inode)
        if peer is not None:
            found.append(Conn(fd, inode, peer, 1, 0))
            continue
        seen = _look(fd, port)
        if seen is not None:
            found.append(Conn(fd, inode, *seen))
    return found


class Reaper:
    """A worker's look at its own connections (see the module)."""

    def __init__(
        self, port: int, head: float | None = None, per_client: int | None = None, full_every: float = FULL_EVERY
    ):
        self.port = port
        self.head_ms = int((head_seconds() if head is None else head) * 1000)
        self.per_client = client_connections() if per_client is None else per_client
        self.first_seen: dict[str, float] = {}  # inode: when a scan first saw it (which is newest)
        self.talked: dict[str, str] = {}  # inode: peer, of the connections that have received data
        # known: descriptor: (inode, peer) taken as read until the next full look; peer None: not a
        # connection on the port (a file, the listener, the database's socket).  silent: descriptor:
        # inode, of the connections that sent nothing yet.  _count: open descriptors at the last
        # look that listed them.  The first look is a full one (the clock is never below 0), which
        # sets all three before it reads them.
        self.known: dict[int, tuple[str, str | None]] = {}  # pragma: no mutate: set by the first look
        self.silent: dict[int, str] = {}  # pragma: no mutate: set by the first look
        self._count = 0  # pragma: no mutate: set by the first look
        self.full_every = full_every
        self._next_full = 0.0
        self._logged = -LOG_EVERY

    def _connections(self, now: float) -> list[Conn]:
        """The connections on the port. A full look reads every descriptor; between full looks,
        while the number of open descriptors stays the same, only the silent connections are
        read again (the rest as the last look found them); when it changes, the list of
        descriptors is read and only the new ones are looked at."""
        count = _open_count()
        if now >= self._next_full:
            self._next_full = now + self.full_every
            self.known = {}
        elif count and count == self._count:
            found = self._again()
            if found is not None:
                return found
        self._count = count
        found, known, silent = [], {}, {}
        for fd in _descriptors():
            inode, peer = self.known.get(fd) or (None, None)
            if inode is None:
                try:
                    inode = os.readlink(f"/proc/self/fd/{fd}")
                except OSError:
                    continue
                peer = self.talked.get(inode)  # None for any other (only sockets are in talked)
                if peer is None and inode.startswith("socket:"):
                    seen = _look(fd, self.port)
                    if seen is not None:
                        found.append(Conn(fd, inode, *seen))
                        if seen[1]:  # it talked: taken at its word from now on
                            known[fd] = (inode, seen[0])
                        else:
                            silent[fd] = inode
                        continue
            known[fd] = (inode, peer)
            if peer is not None:
                found.append(Conn(fd, inode, peer, 1, 0))
        self.known, self.silent = known, silent
        return found

    def _again(self) -> list[Conn] | None:
        """The last look's connections with the silent ones read again; None when an address
        nears its cap (what to shut is then decided on a full list of descriptors)."""
        found = [Conn(fd, inode, peer, 1, 0) for fd, (inode, peer) in self.known.items() if peer is not None]
        for fd, inode in list(self.silent.items()):
            try:
                same = os.readlink(f"/proc/self/fd/{fd}") == inode
            except OSError:
                same = False  # pragma: no mutate: a descriptor whose link cannot be read is closed: _look of it is None too
            seen = _look(fd, self.port) if same else None
            if seen is None:  # closed (its descriptor maybe reused: the next list finds it)
                del self.silent[fd]
                continue
            found.append(Conn(fd, inode, *seen))
            if seen[1]:
                self.known[fd] = (inode, seen[0])
                del self.silent[fd]
        held: dict[str, int] = {}
        for conn in found:
            held[conn.peer] = held.get(conn.peer, 0) + 1
        if any(n * 4 >= self.per_client * 3 for n in held.values()):
            return None
        return found

    def scan(self) -> Reaped:
        now = time.monotonic()
        found = self._connections(now)
        out = Reaped(seen=len(found))
        seen = {}
        by_peer: dict[str, list[Conn]] = {}
        for conn in found:
            seen[conn.inode] = self.first_seen.get(conn.inode, now)
            if conn.received == 0 and conn.quiet_ms >= self.head_ms:
                _shut(conn)
                out.silent += 1
                continue
            by_peer.setdefault(conn.peer, []).append(conn)
        self.first_seen = seen
        self.talked = {c.inode: c.peer for c in found if c.received}
        for peer, held in by_peer.items():
            if len(held) * 4 >= self.per_client * 3:
                out.near_cap = True
            extra = len(held) - self.per_client
            if extra <= 0:
                continue
            # the silent ones first, then the newest
            held.sort(key=lambda c: (c.received != 0, -seen[c.inode]))
            for conn in held[:extra]:
                _shut(conn)
            out.crowded[peer] = extra
        if (out.silent or out.crowded) and now - self._logged >= LOG_EVERY:
            self._logged = now
            crowded = ", ".join(f"{peer}: {n}" for peer, n in sorted(out.crowded.items()))
            log.warning(
                "closed %d connection(s) that sent nothing for %.0f s%s",
                out.silent,
                self.head_ms / 1000,
                f", and past {self.per_client} per address ({crowded})" if crowded else "",
            )
        return out

    def run(self, stop: threading.Event | None = None) -> None:
        stop = stop or threading.Event()
        while not stop.is_set():
            try:
                found = self.scan()
            except Exception:  # noqa: BLE001 - never let the look end the worker
                log.exception("the connection scan failed")
                found = Reaped()
            stop.wait(SOON if found.near_cap or found.crowded else INTERVAL)

    def start(self, stop: threading.Event | None = None) -> threading.Thread | None:
        if not os.path.isdir("/proc/self/fd"):
            return None
        thread = threading.Thread(target=self.run, args=(stop,), name="rss-reaper", daemon=True)
        thread.start()
        return thread


def _shut(conn: Conn) -> None:
    """End the connection (its peer and granian both see the end); the descriptor stays granian's
    to close. Only while it is still the socket the scan saw (a descriptor closed and reused
    meanwhile is left alone)."""
    try:
        if os.readlink(f"/proc/self/fd/{conn.fd}") != conn.inode:
            return
        sock = socket.socket(fileno=conn.fd)
    except OSError:
        return
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        sock.detach()
