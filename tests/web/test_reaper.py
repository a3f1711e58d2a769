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
