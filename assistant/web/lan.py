"""The join link as phones on the same network can reach it, and its QR code."""

from __future__ import annotations

import ipaddress
import socket
from functools import lru_cache

import qrcode
import qrcode.image.svg
from flask import current_app, request, url_for
from markupsafe import Markup
from qrcode.exceptions import DataOverflowError

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "0.0.0.0", "::", "ip6-localhost"}


def lan_ip() -> str | None:
    """This machine's LAN address: the source address for a route to a private network.

    Connecting a UDP socket sends no packet; it only picks the outgoing interface.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("10.254.254.254", 1))
            ip = sock.getsockname()[0]
    except OSError:
        return None
    if not ip or ipaddress.ip_address(ip).is_loopback or ip == "0.0.0.0":
        return None
    return ip


def _is_loopback(host: str) -> bool:
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        addr = ipaddress.ip_address(name)
    except ValueError:
        return False
    return addr.is_loopback or addr.is_unspecified


def bound_to_this_machine_only() -> bool:
    """The server listens on a loopback address only (``--host 127.0.0.1``): no phone can reach it.

    ``BIND_HOST`` is the address ``serve`` listens on (its ``--host`` / ``RSS_HOST``); unknown (None)
    or every interface (0.0.0.0, ::) is reachable from the network."""
    return bound_to_loopback(current_app.config.get("BIND_HOST"))


def bound_to_loopback(bound: str | None) -> bool:
    """Whether listening on ``bound`` means listening on this machine only."""
    if not bound:
        return False
    name = bound.strip("[]").lower()
    if name in ("0.0.0.0", "::", ""):
        return False
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def external_url(endpoint: str, **values) -> str:
    """Absolute URL for ``endpoint`` at an address the server answers on: the LAN address instead of
    a loopback host when it listens on every interface (or on that one address), else the address
    asked (a server bound to 127.0.0.1 answers there only: ``bound_to_this_machine_only``)."""
    path = url_for(endpoint, **values)
    host = request.host
    name, port = _split_host(host)
    if _is_loopback(name) and not bound_to_this_machine_only():
        bound = (current_app.config.get("BIND_HOST") or "").strip("[]")
        ip = bound if bound and not _is_loopback(bound) else current_app.config.get("LAN_IP") or lan_ip()
        if ip:
            ip = f"[{ip}]" if ":" in ip else ip
            host = f"{ip}:{port}" if port else ip
    return f"{request.scheme}://{host}{path}"


def _split_host(host: str) -> tuple[str, str]:
    if host.startswith("["):
        end = host.find("]")
        rest = host[end + 1 :]
        return host[1:end], rest[1:] if rest.startswith(":") else ""
    if host.count(":") == 1:
        name, port = host.split(":")
        return name, port
    return host, ""


@lru_cache(maxsize=256)
def qr_svg(text: str) -> Markup:
    """The QR code of ``text`` as inline SVG (a pure function of the text, so it is cached)."""
    try:
        img = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    except DataOverflowError:  # longer than a QR code holds (about 2.9 kB): the link below it still works
        return Markup('<p class="qr-missing">This link is too long for a QR code: open it by hand.</p>')
    svg = img.to_string(encoding="unicode")
    if svg.startswith("<?xml"):
        svg = svg.split("?>", 1)[1]
    return Markup(svg.replace("<svg ", '<svg class="qr" role="img" aria-label="QR code of the join link" ', 1))
