"""Who a request comes from (assistant/serve/clients.py), in process: the peer's host, the address
behind a trusted proxy, and the two settings (docs/operations.md: RSS_TRUSTED_PROXIES, none by
default; RSS_CLIENT_STREAMS, 1000). The address decides the turns and the caps of
tests/robustness/test_fair_share.py."""

from __future__ import annotations

import pytest

from assistant.serve.clients import client_address, client_streams, peer_host, trusted_proxies


@pytest.mark.parametrize(
    ("peer", "host"),
    [
        ("127.0.0.1:5000", "127.0.0.1"),
        ("192.168.1.20:1", "192.168.1.20"),
        ("[::1]:8080", "::1"),  # IPv6 in brackets
        ("2001:db8::1:8080", "2001:db8::1"),  # or not: the port is after the last colon
        ("[2001:db8::1]:443", "2001:db8::1"),
        ("phone.local", "phone.local"),  # no port
        ("", ""),
        (None, ""),
        ("[::1:5000", "[::1"),  # one bracket only: kept as it came
        ("::1]:5000", "::1]"),
    ],
)
def test_the_peers_host_is_its_address_without_the_port(peer, host):
    assert peer_host(peer) == host


PROXY = frozenset({"10.0.0.5"})
PROXIES = frozenset({"10.0.0.5", "10.0.0.6"})


@pytest.mark.parametrize(
    ("peer", "forwarded", "trusted", "address"),
    [
        # no trusted proxy: the header is anyone's to write, and ignored
        ("127.0.0.2:5123", "10.9.9.9", frozenset(), "127.0.0.2"),
        # a peer that is not a trusted proxy cannot pass for another address
        ("192.168.1.30:40000", "192.168.1.20", PROXY, "192.168.1.30"),
        # the trusted proxy: the right-most address it did not add itself, spaces aside
        ("10.0.0.5:40000", "6.6.6.6, 192.168.1.20", PROXY, "192.168.1.20"),
        ("10.0.0.5:40000", "6.6.6.6,192.168.1.20 ", PROXY, "192.168.1.20"),
        ("10.0.0.5:40000", "192.168.1.20, 10.0.0.5", PROXY, "192.168.1.20"),
        # two proxies in a row, both trusted: the address before them
        ("10.0.0.5:40000", "6.6.6.6, 192.168.1.20, 10.0.0.6", PROXIES, "192.168.1.20"),
        # empty hops are skipped
        ("10.0.0.5:40000", "192.168.1.20, , ", PROXY, "192.168.1.20"),
        # the trusted proxy with no header, an empty one, or only proxies in it: the proxy is the client
        ("10.0.0.5:1", None, PROXY, "10.0.0.5"),
        ("10.0.0.5:1", "", PROXY, "10.0.0.5"),
        ("10.0.0.5:1", "10.0.0.6, 10.0.0.5", PROXIES, "10.0.0.5"),
        ("10.0.0.5:1", " , ", PROXY, "10.0.0.5"),
        # an IPv6 proxy
        ("[fd00::5]:443", "192.168.1.20", frozenset({"fd00::5"}), "192.168.1.20"),
    ],
)
def test_the_client_address(peer, forwarded, trusted, address):
    assert client_address(peer, forwarded, trusted) == address


def test_the_settings(monkeypatch):
    monkeypatch.delenv("RSS_TRUSTED_PROXIES", raising=False)
    monkeypatch.delenv("RSS_CLIENT_STREAMS", raising=False)
    assert trusted_proxies() == frozenset() and client_streams() == 1000
    monkeypatch.setenv("RSS_TRUSTED_PROXIES", "10.0.0.5, 10.0.0.6")
    monkeypatch.setenv("RSS_CLIENT_STREAMS", "7")
    assert trusted_proxies() == PROXIES and client_streams() == 7
