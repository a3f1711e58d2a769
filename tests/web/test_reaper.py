"""A worker's look at the connections granian holds and the app never sees
(assistant/serve/reaper.py), on real sockets in this process: a listening socket, connections from
two loopback addresses, and the kernel's own account of each."""

from __future__ import annotations

import os
import socket
import sys
import time

import pytest

from assistant.serve.reaper import Reaper, connections

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/fd (Linux)")


class Listener:
    def __init__(self):
        self.srv = socket.socket()
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(64)
        self.port = self.srv.getsockname()[1]
        self.clients: list[socket.socket] = []
        self.accepted: list[socket.socket] = []

    def connect(self, source: str, send: bytes = b"") -> socket.socket:
        client = socket.create_connection(("127.0.0.1", self.port), source_address=(source, 0))
        accepted, _ = self.srv.accept()  # the server's side, as granian holds it
        if send:
            client.sendall(send)
        self.clients.append(client)
        self.accepted.append(accepted)
        return client

    def close(self):
        for s in self.clients + self.accepted + [self.srv]:
            s.close()


def ended(client: socket.socket) -> bool:
    client.settimeout(0.3)
    try:
        return client.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


@pytest.fixture
def listener():
    lst = Listener()
    yield lst
    lst.close()


def test_only_the_connections_accepted_on_the_port_are_seen_with_what_they_sent(listener):
    quiet = listener.connect("127.0.0.2")
    talker = listener.connect("127.0.0.1", b"GET / HTTP/1.1\r\n")
    time.sleep(0.1)
    seen = {c.peer: c for c in connections(listener.port)}
    assert set(seen) == {"127.0.0.1", "127.0.0.2"}  # the clients' own ends are on other ports
    assert seen["127.0.0.1"].received == 16 and seen["127.0.0.2"].received == 0
    assert seen["127.0.0.2"].quiet_ms >= 90
    assert not ended(quiet) and not ended(talker)


def test_past_an_addresss_cap_its_silent_then_newest_connections_end_and_no_other(listener):
    """Cap 3, no deadline reached: the attacker's 6 connections (two talked, four silent) lose 3,
    the newest three silent ones; its oldest silent one and the two that talked stay; the phone's
    two (one silent) are not touched."""
    a_talk = [listener.connect("127.0.0.2", b"GET") for _ in range(2)]
    a_silent = []
    for _ in range(4):
        a_silent.append(listener.connect("127.0.0.2"))
    phone = [listener.connect("127.0.0.1"), listener.connect("127.0.0.1", b"GET")]
    reaper = Reaper(listener.port, head=60, per_client=3)
    first = reaper.scan()  # every connection is first seen now: newest by the order they came
    assert first.crowded == {"127.0.0.2": 3} and first.silent == 0
    assert [ended(c) for c in a_silent].count(True) == 3
    assert not any(ended(c) for c in a_talk + phone)
    assert reaper.scan().crowded == {}  # what is left is within the cap


def test_a_connection_that_sent_nothing_ends_at_the_head_deadline_counted_from_accept(listener):
    silent = listener.connect("127.0.0.2")
    talked = listener.connect("127.0.0.2", b"GET / HTTP/1.1\r\n")
    reaper = Reaper(listener.port, head=0.4, per_client=100)
    assert reaper.scan().silent == 0  # not yet 0.4 s since accept
    assert not ended(silent)
    time.sleep(0.2)  # 0.5 s and more since accept
    assert reaper.scan().silent == 1
    assert ended(silent) and not ended(talked)


def test_between_full_looks_a_talked_descriptor_is_taken_at_its_word_and_a_full_look_reads_it_again(listener):
    """The talker's descriptor is closed and reused by a silent connection (dup2 puts it there):
    a scan before the next full look still takes it for the talker (no readlink: the point of the
    schedule), the full look finds the silent one past its deadline and ends it."""
    listener.connect("127.0.0.1", b"GET / HTTP/1.1\r\n")
    reaper = Reaper(listener.port, head=0.2, per_client=100, full_every=60)
    first = reaper.scan()
    assert first.seen == 1 and first.silent == 0
    reused = listener.accepted[-1].fileno()
    quiet = listener.connect("127.0.0.2")
    fresh = listener.accepted.pop()
    os.dup2(fresh.fileno(), reused)  # the talker's connection ends; its descriptor is the new one's
    fresh.close()
    time.sleep(0.3)  # past the head deadline
    assert reaper.scan().silent == 0  # taken as the talker: not read again until the full look
    assert not ended(quiet)
    reaper._next_full = 0.0  # the full look is due (every 60 s here)
    assert reaper.scan().silent == 1
    assert ended(quiet)


def test_a_new_connection_is_seen_at_the_next_scan_not_only_at_the_full_look(listener):
    """One more descriptor open than at the last look: the list is read again (a flood from one
    address is met within a scan, and a silent phone at its deadline)."""
    listener.connect("127.0.0.1", b"GET / HTTP/1.1\r\n")
    reaper = Reaper(listener.port, head=0.2, per_client=100, full_every=60)
    assert reaper.scan().seen == 1
    quiet = listener.connect("127.0.0.2")
    assert reaper.scan().seen == 2
    time.sleep(0.3)  # past the head deadline; nothing opened or closed since: only the silent one is read
    assert reaper.scan().silent == 1
    assert ended(quiet)


# -- the settings, the scan's loop and its thread ------------------------------------------------
def test_the_head_deadline_and_the_cap_come_from_the_settings_and_the_open_file_limit(monkeypatch):
    """docs/operations.md: RSS_HEAD_SECONDS 30, RSS_CLIENT_CONNECTIONS 2,000, and at most a quarter
    of what the open-file limit leaves past 256 descriptors (never under 16)."""
    import resource

    from assistant.serve.reaper import client_connections, head_seconds

    monkeypatch.delenv("RSS_HEAD_SECONDS", raising=False)
    monkeypatch.delenv("RSS_CLIENT_CONNECTIONS", raising=False)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        assert head_seconds() == 30.0
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
        assert client_connections() == (2000 if min(hard, 65536) >= 8256 else (min(hard, 65536) - 256) // 4)
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))  # a host's default
        assert client_connections() == 192  # (1,024 - 256) / 4
        resource.setrlimit(resource.RLIMIT_NOFILE, (1027, hard))
        assert client_connections() == 192  # (1,027 - 256) / 4 = 192.75: whole connections
        resource.setrlimit(resource.RLIMIT_NOFILE, (300, hard))
        assert client_connections() == 16  # (300 - 256) / 4 = 11: at least 16
        monkeypatch.setenv("RSS_HEAD_SECONDS", "2.5")
        monkeypatch.setenv("RSS_CLIENT_CONNECTIONS", "100")
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))
        assert head_seconds() == 2.5 and client_connections() == 100
        assert Reaper(1).head_ms == 2500 and Reaper(1).per_client == 100  # a reaper given neither
        assert Reaper(1, head=0.25, per_client=7).head_ms == 250 and Reaper(1, per_client=7).per_client == 7
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


class Stop:
    """The scan loop's stop event, noting how long each wait between two scans was; it stops the
    loop after ``scans`` of them."""

    def __init__(self, scans: int):
        self.waits: list[float] = []
        self.scans = scans

    def is_set(self) -> bool:
        return len(self.waits) >= self.scans

    def wait(self, seconds: float) -> bool:
        self.waits.append(seconds)
        return self.is_set()


def test_the_loop_scans_every_second_and_after_0_2_s_near_a_cap(listener):
    """Cap 4: one address's two connections are far from it (a scan a second); a third makes it
    near (3 of 4: the next scan after 0.2 s)."""
    for _ in range(2):
        listener.connect("127.0.0.2", b"GET")
    reaper = Reaper(listener.port, head=60, per_client=4)
    stop = Stop(2)
    reaper.run(stop)
    listener.connect("127.0.0.2", b"GET")
    near = Stop(1)
    reaper.run(near)
    assert stop.waits == [1.0, 1.0] and near.waits == [0.2]


def test_the_loop_goes_on_after_a_failed_scan(listener, caplog):
    reaper = Reaper(listener.port, head=60, per_client=4)
    reaper.first_seen = None  # a scan that cannot keep what it found fails (the next one does not need it)
    listener.connect("127.0.0.2", b"GET")
    stop = Stop(2)
    with caplog.at_level("ERROR", logger="assistant.serve.reaper"):
        reaper.run(stop)
    assert stop.waits == [1.0, 1.0]  # the next scan a second later all the same (this one does not fail)
    assert [r.getMessage() for r in caplog.records] == ["the connection scan failed"]


def test_the_scan_runs_in_a_daemon_thread_of_its_own(listener):
    import threading

    quiet = listener.connect("127.0.0.2")
    stop = threading.Event()
    thread = Reaper(listener.port, head=0.2, per_client=100).start(stop)
    try:
        assert thread.name == "rss-reaper" and thread.daemon
        deadline = time.monotonic() + 20
        while not ended(quiet):
            assert time.monotonic() < deadline, "the silent connection was never ended"
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()


# -- what a scan finds ---------------------------------------------------------------------------
def test_each_connection_found_is_its_own_descriptor_and_socket(listener):
    """connections(): the worker's descriptor and the kernel's inode of each (the number
    /proc/self/fd names its socket by)."""
    first = listener.connect("127.0.0.2", b"GET")
    second = listener.connect("127.0.0.3")
    time.sleep(0.1)
    fds = [s.fileno() for s in listener.accepted]
    inodes = [inode_named(fd) for fd in fds]
    seen = {c.fd: c for c in connections(listener.port)}
    assert set(seen) == set(fds)
    assert [(seen[fd].inode, seen[fd].peer) for fd in fds] == [(inodes[0], "127.0.0.2"), (inodes[1], "127.0.0.3")]
    assert [seen[fd].received for fd in fds] == [3, 0]
    assert not ended(first) and not ended(second)


def test_between_full_looks_a_silent_connection_is_read_each_scan_until_it_talks_or_its_deadline(listener):
    """Full looks every 60 s: two silent connections are read again at each scan; the one that
    talks is taken at its word from then on, the other ends at its deadline; the count of
    connections seen is right at each scan."""
    talker = listener.connect("127.0.0.2")
    quiet = listener.connect("127.0.0.3")
    reaper = Reaper(listener.port, head=0.5, per_client=100, full_every=60)
    assert reaper.scan().seen == 2
    talker.sendall(b"GET / HTTP/1.1\r\n")
    time.sleep(0.1)
    assert reaper.scan().seen == 2  # the talker is now taken at its word
    assert reaper.scan().seen == 2
    time.sleep(0.5)  # past both deadlines: only the one that never talked ends
    out = reaper.scan()
    assert (out.seen, out.silent) == (2, 1)
    assert ended(quiet) and not ended(talker)


def test_between_full_looks_a_silent_connections_descriptor_reused_is_not_taken_for_it(listener):
    """A silent connection's descriptor closed and given to another connection (dup2), the number
    of descriptors the same: until the full look the scan does not take the new one for the old;
    the full look finds it."""
    listener.connect("127.0.0.2")
    reaper = Reaper(listener.port, head=60, per_client=100, full_every=60)
    assert reaper.scan().seen == 1
    reused = listener.accepted[-1].fileno()
    listener.clients.pop().close()  # the old one's client goes: the descriptors are as many as before
    listener.connect("127.0.0.3")
    fresh = listener.accepted.pop()
    os.dup2(fresh.fileno(), reused)
    fresh.close()
    assert reaper.scan().seen == 0
    reaper._next_full = 0.0
    assert reaper.scan().seen == 1


def test_between_full_looks_a_silent_connection_gone_does_not_hide_the_others(listener):
    """Three silent connections; the first one's descriptor then names a file (the count the same):
    the other two are still read, and end at their deadline."""
    silent = [listener.connect("127.0.0.2") for _ in range(3)]
    reaper = Reaper(listener.port, head=0.4, per_client=100, full_every=60)
    assert reaper.scan().seen == 3
    with open(os.devnull, "rb") as null:
        os.dup2(null.fileno(), listener.accepted[0].fileno())
    time.sleep(0.5)
    out = reaper.scan()
    assert (out.seen, out.silent) == (2, 2)
    assert ended(silent[1]) and ended(silent[2])


@pytest.mark.parametrize(("talkers", "seen"), [(6, 7), (5, 5)], ids=["near its cap", "below"])
def test_near_an_addresss_cap_the_descriptors_are_listed_again_between_full_looks(listener, talkers, seen):
    """Cap 8: an address with 6 connections is near it (6 of 8 is three quarters), with 5 not. A
    silent connection's descriptor then goes to a new connection, the count the same: near the cap
    the scan lists the descriptors again and finds the new one (6 + 1 seen); below it, the scan
    reads only the silent ones again, drops the one gone and does not see the new one (5)."""
    for _ in range(talkers):
        listener.connect("127.0.0.2", b"GET")
    listener.connect("127.0.0.3")
    reaper = Reaper(listener.port, head=60, per_client=8, full_every=60)
    assert reaper.scan().seen == talkers + 1
    reused = listener.accepted[-1].fileno()
    listener.clients.pop().close()
    listener.connect("127.0.0.4")
    fresh = listener.accepted.pop()
    os.dup2(fresh.fileno(), reused)
    fresh.close()
    assert reaper.scan().seen == seen


# -- what each look takes from the kernel and what it takes at its word ---------------------------
def inode_named(fd: int) -> int:
    """The socket's number as /proc/self/fd names it (``socket:[N]``)."""
    link = os.readlink(f"/proc/self/fd/{fd}")
    assert link.startswith("socket:[") and link.endswith("]")
    return int(link[8:-1])


def fd_and_inode(sock: socket.socket) -> tuple[int, int]:
    return sock.fileno(), inode_named(sock.fileno())


def test_between_full_looks_a_connection_that_talked_is_taken_at_its_word_and_one_that_talks_then_too(listener):
    """The connections a look leaves known, as the worker holds them (descriptor, socket, address,
    bytes received): the first look, a full one, reads each from the kernel and keeps the one that
    talked at its word (1 byte, quiet 0 ms: no call on it from then on); the silent one is read
    again at each look (quiet more than 0 ms), until it has talked (2 bytes): then it too is taken
    at its word, with its own address, even at the next full look.  Each address holds one.  A
    full look is due at the very second it was set for."""
    listener.connect("127.0.0.2", b"GET")
    talker = fd_and_inode(listener.accepted[-1])
    quiet = listener.connect("127.0.0.3")
    silent = fd_and_inode(listener.accepted[-1])
    time.sleep(0.05)
    reaper = Reaper(listener.port, head=60, per_client=100, full_every=60)

    def look(now):
        reaper.look(now)
        assert reaper.held == {"127.0.0.2": 1, "127.0.0.3": 1}
        return sorted((c.fd, c.inode, c.peer, c.received, c.quiet_ms > 0) for c in reaper.found())

    assert look(0.0) == sorted([(*talker, "127.0.0.2", 1, False), (*silent, "127.0.0.3", 0, True)])  # full
    assert reaper._next_full == 60.0
    quiet_ms = reaper.silent[silent[0]].quiet_ms
    time.sleep(0.05)
    assert look(1.0) == sorted([(*talker, "127.0.0.2", 1, False), (*silent, "127.0.0.3", 0, True)])
    assert reaper.silent[silent[0]].quiet_ms >= quiet_ms + 40  # read again
    quiet.sendall(b"hi")
    time.sleep(0.05)
    assert look(2.0) == sorted([(*talker, "127.0.0.2", 1, False), (*silent, "127.0.0.3", 1, False)])
    assert reaper.silent == {}
    assert look(59.9) == look(60.0) == sorted([(*talker, "127.0.0.2", 1, False), (*silent, "127.0.0.3", 1, False)])
    assert reaper._next_full == 120.0  # 60.0 was full: 0 + 60


def test_a_full_look_takes_a_socket_a_scan_saw_talk_at_its_word(listener):
    """At a full look too, a descriptor that still holds the socket a scan saw talk is not asked
    again (one fstat, not five calls); one whose socket is not the one known is read again."""
    listener.connect("127.0.0.2", b"GET")
    talker = fd_and_inode(listener.accepted[-1])
    listener.connect("127.0.0.3", b"GET /")
    other = fd_and_inode(listener.accepted[-1])
    time.sleep(0.05)
    reaper = Reaper(listener.port, head=60, per_client=100, full_every=60)
    reaper.scan()
    assert {fd: reaper.known[fd] for fd in (talker[0], other[0])} == {
        talker[0]: (talker[1], "127.0.0.2"),
        other[0]: (other[1], "127.0.0.3"),
    }
    reaper.known[talker[0]] = (talker[1], "as seen before")
    reaper.known[other[0]] = (other[1] + 1, "127.0.0.3")  # another socket than the one it holds
    reaper._next_full = 0.0
    assert reaper.scan().seen == 2
    assert reaper.known[talker[0]] == (talker[1], "as seen before")
    assert reaper.known[other[0]] == other_known(other)
    assert reaper.held == {"127.0.0.2": 1, "127.0.0.3": 1}


def other_known(other):
    return (other[1], "127.0.0.3")


def test_a_descriptor_closed_while_the_list_is_read_does_not_end_the_look(listener):
    """The list of descriptors names the one the listing itself used (closed by then), here below
    the connections' (a hole left by a file closed): the look goes on past it."""
    hole = os.open(os.devnull, os.O_RDONLY)
    listener.connect("127.0.0.2", b"GET")
    quiet = listener.connect("127.0.0.3")
    os.close(hole)  # the listing takes this number, lower than the sockets'
    assert all(s.fileno() > hole for s in listener.accepted)
    assert sorted(c.peer for c in connections(listener.port)) == ["127.0.0.2", "127.0.0.3"]
    reaper = Reaper(listener.port, head=60, per_client=100)
    assert reaper.scan().seen == 2
    assert not ended(quiet)


def test_with_no_descriptor_left_every_number_below_the_limit_is_looked_at(listener):
    """A flood has taken every descriptor (listing /proc/self/fd fails): the scan tries each number
    below the open-file limit and still finds the connections, and ends the silent one at its deadline."""
    import resource

    from assistant.serve.reaper import _descriptors

    listener.connect("127.0.0.2", b"GET")
    quiet = listener.connect("127.0.0.3")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    taken = []
    highest = max(int(name) for name in os.listdir("/proc/self/fd"))
    while True:  # every free number up to the highest in use taken: the next one is past the limit
        fd = os.open(os.devnull, os.O_RDONLY)
        if fd > highest:
            os.close(fd)
            break
        taken.append(fd)
    time.sleep(0.3)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (fd, hard))
        with pytest.raises(OSError):
            os.listdir("/proc/self/fd")
        found = _descriptors()
        peers = sorted(c.peer for c in connections(listener.port))
        out = Reaper(listener.port, head=0.2, per_client=100).scan()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        for each in taken:
            os.close(each)
    assert found == range(fd)
    assert peers == ["127.0.0.2", "127.0.0.3"]
    assert (out.seen, out.silent) == (2, 1)
    assert ended(quiet)


def test_past_an_addresss_cap_the_newest_silent_connections_end_first(listener):
    """Cap 3: two silent connections seen at one scan, two more at the next: one of the two newer
    ends, the older two stay."""
    older = [listener.connect("127.0.0.2") for _ in range(2)]
    reaper = Reaper(listener.port, head=60, per_client=3)
    assert reaper.scan().crowded == {}
    time.sleep(0.01)
    newer = [listener.connect("127.0.0.2") for _ in range(2)]
    assert reaper.scan().crowded == {"127.0.0.2": 1}
    assert [ended(c) for c in newer].count(True) == 1
    assert not any(ended(c) for c in older)


def test_what_a_scan_ended_is_logged_once_a_minute(listener, caplog):
    """One line per minute at most, with the head deadline (in whole seconds: 1.5 is 2), the cap
    and each crowded address (in order) with how many of its connections ended."""
    listener.connect("127.0.0.7", b"GET")  # within the cap: the addresses after it are still looked at
    for peer in ("127.0.0.4", "127.0.0.2"):
        for _ in range(3):
            listener.connect(peer, b"GET")
    reaper = Reaper(listener.port, head=1.5, per_client=2)
    with caplog.at_level("WARNING", logger="assistant.serve.reaper"):
        out = reaper.scan()
        assert (out.silent, out.crowded) == (0, {"127.0.0.4": 1, "127.0.0.2": 1})
        for _ in range(3):
            listener.connect("127.0.0.5", b"GET")
        assert reaper.scan().crowded["127.0.0.5"] == 1  # ended, and not logged: within the minute
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "WARNING",
            "closed 0 connection(s) that sent nothing for 2 s, and past 2 per address (127.0.0.2: 1, 127.0.0.4: 1)",
        )
    ]
    caplog.clear()
    silent_only = Reaper(listener.port, head=0.6, per_client=100)
    quiet = listener.connect("127.0.0.6")
    time.sleep(0.7)
    with caplog.at_level("WARNING", logger="assistant.serve.reaper"):
        assert silent_only.scan().silent == 1
    assert ended(quiet)
    assert [r.getMessage() for r in caplog.records] == ["closed 1 connection(s) that sent nothing for 1 s"]


def test_an_address_is_near_its_cap_at_three_quarters_of_it(listener):
    """Cap 8: five connections are not near it (20 < 24), six are (24)."""
    for _ in range(5):
        listener.connect("127.0.0.2", b"GET")
    reaper = Reaper(listener.port, head=60, per_client=8)
    assert reaper.scan().near_cap is False
    listener.connect("127.0.0.2", b"GET")
    assert reaper.scan().near_cap is True


def test_a_datagram_socket_on_the_port_and_a_local_socket_pair_are_no_connections(listener):
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", listener.port))
    udp.connect(("127.0.0.2", listener.port))
    pair = socket.socketpair()
    listener.connect("127.0.0.3", b"GET")
    try:
        assert [c.peer for c in connections(listener.port)] == ["127.0.0.3"]
        assert Reaper(listener.port, head=60, per_client=100).scan().seen == 1
    finally:
        udp.close()
        for each in pair:
            each.close()


def test_a_kernels_account_up_to_the_bytes_received_is_enough_and_a_shorter_one_is_none(listener, monkeypatch):
    """tcp_info's bytes received end at byte 136: a kernel giving 136 bytes of it (asked for no
    more here) tells a connection; one giving 135 tells nothing the scan can use (no error either)."""
    from assistant.serve import reaper

    listener.connect("127.0.0.2", b"GET")
    time.sleep(0.05)
    monkeypatch.setattr(reaper, "TCP_INFO_SIZE", 136)
    assert [(c.peer, c.received) for c in connections(listener.port)] == [("127.0.0.2", 3)]
    monkeypatch.setattr(reaper, "TCP_INFO_SIZE", 135)
    assert connections(listener.port) == []


def test_the_descriptors_are_listed_from_the_kernel_while_one_is_left(listener):
    """Each number listed is an open descriptor but the one the listing itself used (closed after)."""
    from assistant.serve.reaper import _descriptors

    listener.connect("127.0.0.2")

    def closed(fd):
        try:
            os.fstat(fd)
        except OSError:
            return True
        return False

    listed = list(_descriptors())
    assert {s.fileno() for s in listener.accepted + [listener.srv]} <= set(listed)
    assert len([fd for fd in listed if closed(fd)]) <= 1


def test_a_descriptors_socket_is_the_one_proc_names_and_a_file_or_a_closed_one_holds_none(listener):
    from assistant.serve.reaper import _socket_inode

    listener.connect("127.0.0.2")
    accepted = listener.accepted[-1].fileno()
    assert _socket_inode(accepted) == inode_named(accepted)
    with open(os.devnull, "rb") as null:
        assert _socket_inode(null.fileno()) is None
    closed = os.open(os.devnull, os.O_RDONLY)
    os.close(closed)
    assert _socket_inode(closed) is None


def test_a_connection_closed_between_full_looks_no_longer_counts_nor_is_remembered(listener):
    """Two talkers and a silent one from one address; one talker closes (fewer descriptors: the
    list is read again): two are held, and only their sockets are remembered as first seen; the
    silent one's descriptor then goes to another connection, which is read (one more descriptor)
    and remembered in its place."""
    for _ in range(2):
        listener.connect("127.0.0.2", b"GET")
    listener.connect("127.0.0.2")
    reaper = Reaper(listener.port, head=60, per_client=100, full_every=60)
    assert reaper.scan().seen == 3
    listener.clients.pop(0).close()
    listener.accepted.pop(0).close()
    out = reaper.scan()
    assert out.seen == 2 and reaper.held == {"127.0.0.2": 2}
    assert set(reaper.first_seen) == {inode_named(s.fileno()) for s in listener.accepted}
    reused = listener.accepted[-1].fileno()
    listener.connect("127.0.0.3")
    fresh = listener.accepted.pop()
    os.dup2(fresh.fileno(), reused)  # the silent one ends; its number holds the new connection
    fresh.close()
    assert reaper.scan().seen == 2 and reaper.held == {"127.0.0.2": 1, "127.0.0.3": 1}
    assert set(reaper.first_seen) == {inode_named(s.fileno()) for s in listener.accepted}


def is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def test_a_known_descriptor_closed_when_the_full_look_lists_them_is_forgotten_and_the_look_goes_on(listener):
    """Every free number below the connections' is taken: the talker's descriptor, closed, is the
    lowest free one, so listing the descriptors uses it and names it, closed again when it is
    asked which socket it holds: the talker is forgotten, and the silent connection opened after
    it (a higher number) is still found."""
    taken = []
    highest = max(int(name) for name in os.listdir("/proc/self/fd"))
    while True:
        fd = os.open(os.devnull, os.O_RDONLY)
        taken.append(fd)
        if fd > highest:
            break
    try:
        listener.connect("127.0.0.2", b"GET")
        talker = listener.accepted[-1]
        reaper = Reaper(listener.port, head=60, per_client=100, full_every=60)
        assert reaper.scan().seen == 1
        listener.connect("127.0.0.3")
        assert listener.accepted[-1].fileno() > talker.fileno()
        number = talker.fileno()
        talker.close()
        listener.accepted.remove(talker)
        assert all(is_open(fd) for fd in range(number)) and not is_open(number)
        reaper._next_full = 0.0
        out = reaper.scan()
    finally:
        for each in taken:
            os.close(each)
    assert number not in reaper.known
    assert out.seen == 1 and reaper.held == {"127.0.0.3": 1}


def test_a_socket_held_by_two_descriptors_counts_twice_and_one_closed_leaves_the_other_counted(listener):
    """A talker's descriptor duplicated (two descriptors, one socket: the scan counts descriptors);
    the copy closed, the other is still the address's, taken at its word; past the address's cap
    of 1 the newer connection is shut (the talker's first sighting went with the copy: it counts
    as seen now, and a silent one goes first anyway), the scan going on."""
    listener.connect("127.0.0.2", b"GET")
    copy = os.dup(listener.accepted[-1].fileno())
    reaper = Reaper(listener.port, head=60, per_client=100, full_every=60)
    assert reaper.scan().seen == 2 and reaper.held == {"127.0.0.2": 2}
    os.close(copy)
    reaper._next_full = (
        0.0  # (a list of the descriptors may take the copy's number itself: the full look sees it closed)
    )
    assert reaper.scan().seen == 1 and reaper.held == {"127.0.0.2": 1}
    reaper.per_client = 1
    later = listener.connect("127.0.0.2", b"GET")
    out = reaper.scan()
    assert (out.seen, out.crowded) == (2, {"127.0.0.2": 1})
    assert reaper.held == {"127.0.0.2": 1}
    assert [ended(listener.clients[0]), ended(later)].count(True) == 1
