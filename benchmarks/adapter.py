"""Our front against a well-kept WSGI adapter, under slow request bodies:
``python benchmarks/adapter.py`` (needs ``pip install a2wsgi``; not a dependency of the app).

The same small WSGI app (``POST /move`` reads its body, ``GET /ping`` answers at once) runs under
granian, one worker with ``--threads`` app threads, in two ways:

* ``front``: our RSGI front (``assistant/serve/front.py``): the body is read on the event loop,
  the app gets a thread once the whole body is there;
* ``a2wsgi``: granian's standard ASGI interface with ``a2wsgi.WSGIMiddleware`` (its ``workers``
  = ``--threads``): the app gets a thread at once and reads the body from it.

Then ``--slow`` clients each start a POST whose body comes one byte every ``--every`` s, and a
phone times a ``GET /ping`` every 0.1 s for ``--seconds``: p50, p99, max and how many took longer
than 2 s. The question is whether a few slow phones (a crowded wifi) stall the others.
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

APP = textwrap.dedent(
    """
    import os, sys
    sys.path.insert(0, os.environ["ADAPTER_ROOT"])

    def wsgi(environ, start_response):
        if environ["REQUEST_METHOD"] == "POST":
            n = int(environ.get("CONTENT_LENGTH") or 0)
            environ["wsgi.input"].read(n)
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
        return [b"ok"]

    def front():
        from assistant.serve.front import BufferedBodies
        return BufferedBodies(wsgi, int(os.environ["ADAPTER_THREADS"]), 1 << 20)

    def a2wsgi():
        from a2wsgi import WSGIMiddleware
        middleware = WSGIMiddleware(wsgi, workers=int(os.environ["ADAPTER_THREADS"]))

        async def app(scope, receive, send):
            # granian's receive() gives an awaitable that is no coroutine, and a2wsgi hands it to
            # asyncio.run_coroutine_threadsafe, which refuses it: every POST fails without this
            async def receiving():
                return await receive()

            await middleware(scope, receiving, send)

        return app
    """
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(kind: str, folder: Path, threads: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    interface = "rsgi" if kind == "front" else "asgi"
    env = {**os.environ, "ADAPTER_ROOT": str(ROOT), "ADAPTER_THREADS": str(threads), "PYTHONPATH": str(folder)}
    cmd = [sys.executable, "-m", "granian", "--interface", interface, "--factory", "--workers", "1"]
    cmd += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning", f"adapter_app:{kind}"]
    proc = subprocess.Popen(cmd, env=env, cwd=folder)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/ping")
            if conn.getresponse().status == 200:
                conn.close()
                return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"{kind}: the server did not start")


def slow_post(port: int, every: float, stop: threading.Event, length: int = 1000) -> None:
    try:
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(f"POST /move HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n".encode())
        for _ in range(length):
            if stop.wait(every):
                break
            sock.sendall(b"x")
        sock.close()
    except OSError:
        pass


def measure(kind: str, args, folder: Path) -> dict:
    proc, port = start(kind, folder, args.threads)
    stop = threading.Event()
    slow = [threading.Thread(target=slow_post, args=(port, args.every, stop), daemon=True) for _ in range(args.slow)]
    for t in slow:
        t.start()
    time.sleep(0.5)
    times, over = [], 0
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        began = time.monotonic()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/ping")
            conn.getresponse().read()
            conn.close()
            times.append(time.monotonic() - began)
        except OSError:
            over += 1
        time.sleep(0.1)
    stop.set()
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    times.sort()
    ms = [t * 1000 for t in times]
    return {
        "answered": len(ms),
        "over 2 s": over,
        "p50": statistics.median(ms) if ms else float("nan"),
        "p99": ms[int(len(ms) * 0.99) - 1] if ms else float("nan"),
        "max": ms[-1] if ms else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--slow", type=int, default=8)
    parser.add_argument("--every", type=float, default=0.5)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    try:
        import a2wsgi  # noqa: F401
    except ImportError:
        raise SystemExit("pip install a2wsgi first (it is not one of the app's dependencies)") from None
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "adapter_app.py").write_text(APP)
        print(f"{args.slow} slow bodies (a byte every {args.every} s), {args.threads} app threads, {args.seconds:g} s:")
        print(f"  {'adapter':8} {'answered':>8} {'over 2 s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
        for kind in ("front", "a2wsgi"):
            r = measure(kind, args, folder)
            print(
                f"  {kind:8} {r['answered']:8} {r['over 2 s']:8} {r['p50']:8.1f} {r['p99']:8.1f} {r['max']:8.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
