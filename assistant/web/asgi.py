"""Slow request bodies never hold the threads that serve the tables (issue 18).

granian's WSGI interface reads a request's body on the app's own thread, and has a deadline only
for the request's head: 16 clients that announce an upload and then send a byte every 2 s held
every app thread, and no page was answered. So granian serves the app through its ASGI interface
and this small front: on the worker's event loop (where a waiting connection costs nothing) it
reads the whole body first, within a deadline, and only then hands the request to the Flask app
on one of the worker's threads. A body that does not arrive in time is answered 408 and never
reaches the app; one larger than the app accepts is refused (413) before it is read.

The deadline: ``BODY_SECONDS`` (15 s), plus one second per ``BODY_RATE`` bytes announced (8 KB/s, a
very slow phone): a 2 MB transcript may take about four minutes.
"""

from __future__ import annotations

import asyncio
import io
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

BODY_SECONDS = 15.0
BODY_RATE = 8 * 1024
POLL_SUFFIX = "/version"


def body_deadline(length: int) -> float:
    """Seconds a body of ``length`` bytes (as announced) may take to arrive."""
    seconds = float(os.environ.get("RSS_BODY_SECONDS") or BODY_SECONDS)
    return seconds + max(length, 0) / BODY_RATE


class BufferedBodies:
    """An ASGI app in front of a WSGI app: bodies buffered on the event loop, the app on threads."""

    def __init__(self, wsgi, threads: int, max_body: int):
        self.wsgi = wsgi
        self.max_body = max_body
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="rss-app")

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        headers = [(k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in scope.get("headers", [])]
        length = next((v for k, v in headers if k == "content-length"), "")
        announced = int(length) if length.isdigit() else 0
        if announced > self.max_body:
            await _answer(send, 413, f"Request body too large: at most {self.max_body} bytes.\n", close=True)
            return
        try:
            body = await asyncio.wait_for(self._body(receive), body_deadline(announced))
        except TimeoutError:
            await _answer(send, 408, "The request's body did not arrive in time.\n", close=True)
            return
        except _TooLarge:
            await _answer(send, 413, f"Request body too large: at most {self.max_body} bytes.\n", close=True)
            return
        except _Gone:
            return
        environ = _environ(scope, headers, body)
        if scope["method"] == "GET" and scope["path"].endswith(POLL_SUFFIX):
            # the live-sync poll, every phone every second: answered from the store's cached seq
            # with one primary-key query (poll.py), quicker than the hop to a thread and back
            status, out_headers, chunks = _run(self.wsgi, environ)
        else:
            loop = asyncio.get_running_loop()
            status, out_headers, chunks = await loop.run_in_executor(self.pool, _run, self.wsgi, environ)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in out_headers],
            }
        )
        await send({"type": "http.response.body", "body": b"".join(chunks)})

    async def __rsgi__(self, scope, protocol):
        """granian's own interface (RSGI): the same front, with a third of the ASGI overhead."""
        if scope.proto != "http":
            return
        headers = [(k.lower(), v) for k, v in scope.headers.items()]
        length = next((v for k, v in headers if k == "content-length"), "")
        announced = int(length) if length.isdigit() else 0
        if announced > self.max_body:
            _reply(protocol, 413, f"Request body too large: at most {self.max_body} bytes.\n")
            return
        body = b""
        if announced or any(k == "transfer-encoding" for k, _ in headers):
            try:
                body = await asyncio.wait_for(self._rsgi_body(protocol), body_deadline(announced))
            except TimeoutError:
                _reply(protocol, 408, "The request's body did not arrive in time.\n")
                return
            except _TooLarge:
                _reply(protocol, 413, f"Request body too large: at most {self.max_body} bytes.\n")
                return
            except Exception:  # the client went away
                return
        environ = _rsgi_environ(scope, headers, body)
        if scope.method == "GET" and scope.path.endswith(POLL_SUFFIX):
            status, out_headers, chunks = _run(self.wsgi, environ)
        else:
            loop = asyncio.get_running_loop()
            status, out_headers, chunks = await loop.run_in_executor(self.pool, _run, self.wsgi, environ)
        protocol.response_bytes(status, out_headers, b"".join(chunks))

    async def _rsgi_body(self, protocol) -> bytes:
        parts, size = [], 0
        async for chunk in protocol:
            size += len(chunk)
            if size > self.max_body:
                raise _TooLarge()
            parts.append(chunk)
        return b"".join(parts)

    async def _body(self, receive) -> bytes:
        parts, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _Gone()
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                raise _TooLarge()
            parts.append(chunk)
            if not message.get("more_body"):
                return b"".join(parts)

    async def _lifespan(self, receive, send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.pool.shutdown(wait=False)
                await send({"type": "lifespan.shutdown.complete"})
                return


class _TooLarge(Exception):
    pass


class _Gone(Exception):
    pass


async def _answer(send, status: int, text: str, close: bool = False) -> None:
    body = text.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _reply(protocol, status: int, text: str) -> None:
    protocol.response_bytes(
        status, [("content-type", "text/plain; charset=utf-8"), ("connection", "close")], text.encode()
    )


def _split(address: str, default_port: str) -> tuple[str, str]:
    host, sep, port = (address or "").rpartition(":")
    return (host, port) if sep else (address or "", default_port)


def _rsgi_environ(scope, headers: list[tuple[str, str]], body: bytes) -> dict:
    """The WSGI environ of an RSGI request."""
    server_host, server_port = _split(scope.server, "80")
    client_host, client_port = _split(scope.client, "")
    asgi_like = {
        "method": scope.method,
        "raw_path": scope.path.encode("utf-8"),
        "path": scope.path,
        "query_string": scope.query_string.encode("latin-1", "replace"),
        "server": (server_host, server_port),
        "client": (client_host, client_port),
        "http_version": scope.http_version,
        "scheme": scope.scheme,
    }
    return _environ(asgi_like, headers, body)


def _environ(scope, headers: list[tuple[str, str]], body: bytes) -> dict:
    """The WSGI environ of an ASGI request (PEP 3333: paths as latin-1 text of the raw bytes)."""
    raw = scope.get("raw_path") or scope["path"].encode("utf-8")
    path = raw.decode("latin-1").split("?", 1)[0]
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", "").encode("utf-8").decode("latin-1"),
        "PATH_INFO": path,
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1] or 80),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": client[0] or "",
        "REMOTE_PORT": str(client[1] or ""),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "CONTENT_LENGTH": str(len(body)) if body else "",
        "rss.body_buffered_at": time.monotonic(),
    }
    for name, value in headers:
        if name == "content-type":
            environ["CONTENT_TYPE"] = value
        elif name == "content-length":
            continue
        else:
            key = "HTTP_" + name.upper().replace("-", "_")
            environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ


def _run(wsgi, environ) -> tuple[int, list[tuple[str, str]], list[bytes]]:
    """Call the WSGI app on this thread: (status, headers, body)."""
    answer: dict = {}

    def start_response(status, headers, exc_info=None):
        if exc_info and answer:
            raise exc_info[1].with_traceback(exc_info[2])
        answer["status"], answer["headers"] = int(status.split(" ", 1)[0]), list(headers)
        return lambda data: answer.setdefault("written", []).append(data)

    result = wsgi(environ, start_response)
    try:
        chunks = list(answer.get("written", [])) + [bytes(c) for c in result]
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    return answer["status"], answer["headers"], chunks
