"""The Host header checked before the app sees it (assistant/serve/hosts.py), in process: the check
itself on hand-picked names, and the WSGI middleware called as a server calls it, with a plain WSGI
app behind it. (Through the real server: tests/robustness/test_hostile_network.py.)

Expected answers come from the module's rule: a DNS name (labels of 1 to 63 letters, digits, ``-``
or ``_``, not starting nor ending with ``-``; at most 253 characters, a trailing dot aside), an IPv4
address or a bracketed IPv6 address, with an optional port 0-65535."""

from __future__ import annotations

import pytest

from assistant.serve.hosts import HostCheck, valid_host

LABEL63 = "a" * 63
NAME253 = ".".join([LABEL63, LABEL63, LABEL63, "b" * 61])  # 63 * 3 + 61 + 3 dots = 253 characters


@pytest.mark.parametrize(
    "host",
    [
        "localhost",
        "x",
        "_",
        "my_host.local",
        "a-b.example",
        "table.local.",  # a trailing dot
        "x.",
        "a-b.",
        "localhost:0",
        "localhost:5000",
        "localhost:65535",
        "localhost:00080",  # five digits
        "192.168.1.20",
        "192.168.1.20:5000",
        "[::1]",
        "[::1]:8080",
        "[::]",  # the unspecified address
        "[::ffff:192.168.1.20]",  # an IPv4 address as IPv6
        "[2001:db8::1]:0",
        LABEL63 + ".example",
        NAME253,
        NAME253 + ".",  # 254 with the trailing dot, which does not count
        NAME253 + ":65535",
    ],
)
def test_a_dns_name_an_ip_address_and_a_port_up_to_65535_are_valid(host):
    assert valid_host(host) is True


@pytest.mark.parametrize(
    "host",
    [
        "",
        ".",
        "a..b",  # an empty label
        ".example",
        "localhost:65536",
        "localhost:99999",
        "localhost:123456",  # six digits
        "localhost:",
        "localhost:-1",
        "localhost:8o",
        "a b",
        "a b.",  # a trailing dot does not make it a name
        NAME253 + "b.",  # 254 characters and the dot
        "bad/host",
        "-a.example",
        "a-.example",
        "a" * 64 + ".example",  # a label of 64
        NAME253 + "b",  # 254 characters
        "::1",  # IPv6 without brackets
        "[::1",
        "[not-ipv6]",
        "[1.2.3.4]",
        "[::1]x",
        "[::1]:65536",
        "h\u00e9.example",  # not ASCII
    ],
)
def test_anything_else_is_not(host):
    assert valid_host(host) is False


class Served:
    """A plain WSGI app behind the check: what it was handed, and a start_response that notes."""

    def __init__(self):
        self.environ = None
        self.status = self.headers = None

    def app(self, environ, start_response):
        self.environ = environ
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"the app"]

    def start_response(self, status, headers):
        self.status, self.headers = status, headers

    def call(self, environ: dict) -> bytes:
        return b"".join(HostCheck(self.app)(environ, self.start_response))


@pytest.mark.parametrize(
    ("environ", "host_seen"),
    [
        ({"SERVER_PORT": "5000"}, "localhost:5000"),
        ({"HTTP_HOST": "", "SERVER_PORT": "8080"}, "localhost:8080"),
        ({"HTTP_HOST": "   ", "SERVER_PORT": "8080"}, "localhost:8080"),
        ({}, "localhost"),
        ({"SERVER_PORT": ""}, "localhost"),
        ({"SERVER_PORT": "http"}, "localhost"),
    ],
)
def test_no_host_is_served_as_localhost_and_the_servers_port(environ, host_seen):
    served = Served()
    assert served.call(dict(environ, PATH_INFO="/")) == b"the app"
    assert served.status == "200 OK" and served.environ["HTTP_HOST"] == host_seen


def test_a_valid_host_reaches_the_app_as_it_came():
    served = Served()
    assert served.call({"HTTP_HOST": "table.local:5000", "SERVER_PORT": "80"}) == b"the app"
    assert served.environ["HTTP_HOST"] == "table.local:5000"


@pytest.mark.parametrize("host", ["a" * 64, "localhost:70000", "[::1", " bad host "])
def test_a_malformed_host_is_a_short_400_the_app_never_sees(host):
    served = Served()
    body = served.call({"HTTP_HOST": host, "SERVER_PORT": "5000"})
    assert served.environ is None  # the app was not called
    assert served.status == "400 Bad Request"
    assert dict(served.headers) == {"Content-Type": "text/plain; charset=utf-8", "Content-Length": str(len(body))}
    text = body.decode("utf-8")
    assert text.startswith("Bad Request:") and "Host header" in text
    assert text.endswith("\n") and text.count("\n") == 1  # one line
