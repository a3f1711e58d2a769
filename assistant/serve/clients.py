"""Who a request comes from, as the server shares its turns and caps: the client's address.

The address is the connection's peer, unless that peer is a proxy the host trusts
(``RSS_TRUSTED_PROXIES``, a comma-separated list of addresses, e.g. the load balancer in front of
several servers): then it is the right-most address of ``X-Forwarded-For`` that is not itself a
trusted proxy (the left-most ones are whatever the client wrote). Without the setting the header is
ignored: any client could write it.
"""

from __future__ import annotations

from assistant.store import settings


def trusted_proxies() -> frozenset[str]:
    return settings.get("RSS_TRUSTED_PROXIES")


def client_streams() -> int:
    """``RSS_CLIENT_STREAMS`` (1000): the most streams one address may hold open in a worker."""
    return settings.get("RSS_CLIENT_STREAMS")


def peer_host(peer: str) -> str:
    """The host of an RSGI ``scope.client`` (``host:port``, IPv6 in brackets or not)."""
    peer = peer or ""
    host, sep, _port = peer.rpartition(":")
    host = host if sep else peer
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


def client_address(peer: str, forwarded: str | None, trusted: frozenset[str]) -> str:
    """The request's client address (see the module)."""
    host = peer_host(peer)
    if not trusted or host not in trusted or not forwarded:
        return host
    for hop in reversed([part.strip() for part in forwarded.split(",")]):
        if hop and hop not in trusted:
            return hop
    return host
