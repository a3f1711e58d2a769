"""Connections the app never sees: room for a new phone, always (issue 38).

granian accepts connections in its own (Rust) loop and calls the app only once a whole request
head has come. Its head deadline starts with the first byte: a connection that sends nothing is
held for ever, and 17,000 of them, opened in 4.4 s by one client on the wifi, took every
connection a worker may hold, so no new phone could connect. The app cannot refuse what it never
sees, so each worker looks at its own sockets, once a second (``/proc/self/fd``, one ``fstat`` and
the kernel's ``TCP_INFO`` of each: no packet is read). What a look finds is kept: a connection
that talked, or a descriptor that is no connection of ours, is taken at its word between full
looks (every ``FULL_EVERY`` s), and a full look only asks each descriptor which socket it holds.
So each second only the new descriptors and the silent connections are read, and a worker
holding thousands of phones' streams spends almost nothing on it:

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
import stat
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
    inode: int  # the socket's (fstat's st_ino: the number /proc/self/fd names it by)
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
    below the open-file limit is tried instead (a failed fstat costs a microsecond or two)."""
    try:
        return list(map(int, os.listdir("/proc/self/fd")))
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
        return 0  # pragma: no mutate: only without /proc, where no fstat finds a connection and nothing is found either way


def _socket_inode(fd: int) -> int | None:
    """The inode of the socket descriptor ``fd`` holds (None: closed, or no socket). One fstat:
    no path is looked up, unlike a readlink of /proc/self/fd/N (half the cost)."""
    try:
        st = os.fstat(fd)
    except OSError:
        return None
    return st.st_ino if stat.S_ISSOCK(st.st_mode) else None


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


def connections(port: int) -> list[Conn]:
    """This process's established TCP connections accepted on ``port``, in one look (the
    scan keeps what it found instead: ``Reaper``)."""
    found = []
    for fd in _descriptors():
        inode = _socket_inode(fd)
        if inode is None:  # pragma: no mutate: _look of a closed descriptor or of no socket is None too
            continue
        seen = _look(fd, port)
        if seen is not None:
            found.append(Conn(fd, inode, *seen))
    return found


class Reaper:
    """A worker's look at its own connections (see the module).

    What the last look found is kept: ``known`` (descriptor: (inode, peer)) holds the connections
    that talked, taken at their word until the next full look, and the descriptors that are no
    connection of ours (peer None); ``silent`` (descriptor: Conn) the connections that sent
    nothing yet, read again at every scan; ``held`` (address: connections) is kept with them, so
    that a scan between full looks costs the silent connections only, whatever the worker holds."""

    def __init__(
        self, port: int, head: float | None = None, per_client: int | None = None, full_every: float = FULL_EVERY
    ):
        self.port = port
        self.head_ms = int((head_seconds() if head is None else head) * 1000)
        self.per_client = client_connections() if per_client is None else per_client
        self.first_seen: dict[int, float] = {}  # inode: when a scan first saw it (which is newest)
        self.known: dict[int, tuple[int, str | None]] = {}
        self.silent: dict[int, Conn] = {}
        self.held: dict[str, int] = {}
        # open descriptors at the last look, and whether the last scan found an address near its
        # cap (the next look lists them then): the first look is a full one, which reads neither
        self._count = 0  # pragma: no mutate: see above
        self._near = False  # pragma: no mutate: see above
        self.full_every = full_every
        self._next_full = 0.0  # the first look is a full one (the clock is never below 0)
        self._logged: float | None = None  # when a scan last logged what it ended

    def found(self) -> list[Conn]:
        """The connections as the last look left them: one that talked as (1 byte, 0 ms quiet)."""
        talked = [Conn(fd, inode, peer, 1, 0) for fd, (inode, peer) in self.known.items() if peer is not None]
        return talked + list(self.silent.values())

    def look(self, now: float) -> None:
        """Bring what is known up to date. A full look asks every descriptor which socket it holds
        (one fstat each: a descriptor closed and reused meanwhile is found then); between full
        looks, while the number of open descriptors stays the same and no address is near its
        cap, only the silent connections are read again (the rest as the last look found them);
        when it changes, the list of descriptors is read and only the new ones are looked at."""
        count = _open_count()
        if now >= self._next_full:
            self._next_full = now + self.full_every
            self._list(full=True)
        elif count and count == self._count and not self._near:
            self._again()
        else:
            self._list()
        self._count = count

    def _list(self, full: bool = False) -> None:
        listed = _descriptors()
        fds = set(listed)
        for fd in (self.known.keys() | self.silent.keys()) - fds:  # closed since
            self._drop(fd)
        if full:  # the same socket still behind each known descriptor?
            known, new, fstat, is_socket = self.known, [], os.fstat, stat.S_ISSOCK  # thousands: no call more
            for fd in listed:
                entry = known.get(fd)
                if entry is None:
                    new.append(fd)
                    continue
                try:
                    st = fstat(fd)
                except OSError:  # closed since it was listed
                    self._drop(fd)
                    continue
                if st.st_ino != entry[0] or not is_socket(st.st_mode):
                    self._drop(fd)
                    new.append(fd)
        else:
            new = fds - self.known.keys()  # the silent ones among them: read again
        now = time.monotonic()
        for fd in new:
            inode = _socket_inode(fd)
            was = self.silent.get(fd)
            if was is not None:  # read again: the same socket keeps when it was first seen
                self._drop(fd, forget=was.inode != inode)
            if inode is None:
                continue  # closed, or no socket: looked at again at the next list
            seen = _look(fd, self.port)
            if seen is None:
                self.known[fd] = (inode, None)
                continue
            conn = Conn(fd, inode, *seen)
            if conn.received:
                self.known[fd] = (inode, conn.peer)
            else:
                self.silent[fd] = conn
            self.held[conn.peer] = self.held.get(conn.peer, 0) + 1
            self.first_seen.setdefault(inode, now)

    def _again(self) -> None:
        """The silent connections read again: gone, talked (taken at its word from now on) or
        still silent (how long now)."""
        for fd, conn in list(self.silent.items()):
            seen = _look(fd, self.port) if _socket_inode(fd) == conn.inode else None
            if seen is None:  # closed (its descriptor maybe reused: the next list finds it)
                self._drop(fd)
            elif seen[1]:
                del self.silent[fd]
                self.known[fd] = (conn.inode, seen[0])
            else:
                self.silent[fd] = Conn(fd, conn.inode, *seen)

    def _drop(self, fd: int, forget: bool = True) -> None:
        """Forget descriptor ``fd``: its connection (if it was one) no longer counts."""
        conn = self.silent.pop(fd, None)
        inode, peer = (conn.inode, conn.peer) if conn is not None else self.known.pop(fd)
        if forget:
            self.first_seen.pop(inode, None)
        if peer is not None:
            left = self.held[peer] - 1
            if left:
                self.held[peer] = left
            else:
                del self.held[peer]

    def scan(self) -> Reaped:
        now = time.monotonic()
        self.look(now)
        out = Reaped(seen=sum(self.held.values()))
        for fd, conn in list(self.silent.items()):
            if conn.quiet_ms >= self.head_ms:
                _shut(conn)
                self._drop(fd)
                out.silent += 1
        crowded = {peer: n - self.per_client for peer, n in self.held.items() if n > self.per_client}
        self._near = out.near_cap = any(n * 4 >= self.per_client * 3 for n in self.held.values())
        if crowded:
            by_peer: dict[str, list[Conn]] = {}
            for conn in self.found():
                if conn.peer in crowded:
                    by_peer.setdefault(conn.peer, []).append(conn)
            for peer, extra in crowded.items():
                # the silent ones first, then the newest
                held = sorted(by_peer[peer], key=lambda c: (c.received != 0, -self.first_seen.get(c.inode, now)))
                for conn in held[:extra]:
                    _shut(conn)
                    self._drop(conn.fd)
                out.crowded[peer] = extra
        if (out.silent or out.crowded) and (self._logged is None or now - self._logged >= LOG_EVERY):
            self._logged = now
            crowded_said = ", ".join(f"{peer}: {n}" for peer, n in sorted(out.crowded.items()))
            log.warning(
                "closed %d connection(s) that sent nothing for %.0f s%s",
                out.silent,
                self.head_ms / 1000,
                f", and past {self.per_client} per address ({crowded_said})" if crowded_said else "",
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
    if _socket_inode(conn.fd) != conn.inode:
        return
    try:
        sock = socket.socket(fileno=conn.fd)
    except OSError:
        return
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        sock.detach()
