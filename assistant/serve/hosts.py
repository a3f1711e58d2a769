"""The Host header, checked before the app sees it: a malformed one is a short 400, never a 500.

Werkzeug refuses a Host it cannot encode (a label over 63 characters) while it binds the URL
map, and the error page then cannot build its links: a 500 and a long traceback per request.
A very long Host would also make the join link too long for a QR code.  So:

* no Host, or an empty one (HTTP/1.0 clients, hand-made requests): the request is served as if
  it named ``localhost`` and the server's port, which the join link replaces by the LAN address;
* a Host that is not a DNS name (labels of at most 63 letters, digits, ``-`` or ``_``; at most
  253 characters), an IPv4 address or a bracketed IPv6 address, with an optional port 0-65535:
  400 with a one-line text body, nothing logged.
"""

from __future__ import annotations

import ipaddress
import re

MAX_NAME = 253
_LABEL = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\Z")
_HOST = re.compile(r"(?P<name>\[[^\]]*\]|[^:\[\]]*)(?::(?P<port>[0-9]{1,5}))?\Z")
BODY = b"Bad Request: the Host header is not a valid host name, IP address or port.\n"


def valid_host(host: str) -> bool:
    """True if ``host`` is ``name[:port]`` with a DNS name, an IPv4 or a bracketed IPv6 address."""
    match = _HOST.match(host)
    if not match:
        return False
    port = match.group("port")
    if port is not None and int(port) > 65535:
        return False
    name = match.group("name")
    if name.startswith("["):
        try:
            ipaddress.IPv6Address(name[1:-1])
        except ValueError:
            return False
        return True
    name = name[:-1] if name.endswith(".") else name
    if not name or len(name) > MAX_NAME:
        return False
    return all(_LABEL.match(label) for label in name.split("."))


class HostCheck:
    """WSGI middleware: see the module docstring."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        host = environ.get("HTTP_HOST", "").strip()
        if not host:
            port = environ.get("SERVER_PORT")
            environ["HTTP_HOST"] = f"localhost:{port}" if port and port.isdigit() else "localhost"
        elif not valid_host(host):
            start_response(
                "400 Bad Request",
                [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(BODY)))],
            )
            return [BODY]
        return self.app(environ, start_response)
