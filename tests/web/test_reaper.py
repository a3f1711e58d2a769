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
    reaper.talked = None  # a scan that cannot read what it knew fails
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
    """connections(): the worker's descriptor and the kernel's inode of each; one a scan saw talk
    (``talked``) is taken at its word, with no call on it."""
    first = listener.connect("127.0.0.2", b"GET")
    second = listener.connect("127.0.0.3")
    time.sleep(0.1)
    fds = [s.fileno() for s in listener.accepted]
    inodes = [os.readlink(f"/proc/self/fd/{fd}") for fd in fds]
    seen = {c.fd: c for c in connections(listener.port)}
    assert set(seen) == set(fds)
    assert [(seen[fd].inode, seen[fd].peer) for fd in fds] == [(inodes[0], "127.0.0.2"), (inodes[1], "127.0.0.3")]
    said = {c.fd: c for c in connections(listener.port, {inodes[0]: "as seen before"})}
    assert said[fds[0]] == type(said[fds[0]])(fds[0], inodes[0], "as seen before", 1, 0)
    assert (said[fds[1]].inode, said[fds[1]].peer, said[fds[1]].received) == (inodes[1], "127.0.0.3", 0)
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
