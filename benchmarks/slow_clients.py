"""Slow and idle connections against a real server: ``python benchmarks/slow_clients.py``.

Starts ``python -m assistant serve`` on loopback (a temporary database), opens ``--slow``
connections from one client (half send a request head one header line every ``--every``
seconds, half say nothing), and meanwhile times another table for ``--seconds``: a poll on a
kept-alive connection every 0.2 s, and a poll on a new connection, a move and the table page
each second.  Prints p50 / p99 / max per kind and how many slow connections the server still
holds.  ``--server waitress`` measures the fallback.
"""

from __future__ import annotations

import argparse
import http.client
import json
import resource
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.load import DEFAULT_TRANSCRIPT, ServerProcess  # noqa: E402


def _request(conn, method, path, body=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    resp = conn.getresponse()
    return resp.status, resp.read()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--slow", type=int, default=1100)
    ap.add_argument("--every", type=float, default=20.0, help="seconds between header lines of a slow client")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--server", choices=("granian", "waitress"))
    ap.add_argument("--workers", type=int)
    ap.add_argument("--transcript", default=str(DEFAULT_TRANSCRIPT))
    args = ap.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.slow + 1000)), hard))
    if Path(args.transcript).exists():
        data = json.loads(Path(args.transcript).read_text(encoding="utf-8"))
    else:
        from tests.project_games import played_game

        data = played_game()
    events = [e for e in data["events"] if e.get("type") != "expect" and not e.get("reject")]
    with tempfile.TemporaryDirectory(prefix="rss-slow-") as tmp:
        srv = ServerProcess(Path(tmp), workers=args.workers, server=args.server)
        try:
            conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
            status, body = _request(conn, "POST", "/games/import", {**data, "events": events[:20]})
            gid, seq = json.loads(body)["id"], 20
            held, stop = [], threading.Event()
            for n in range(args.slow):
                s = socket.create_connection(("127.0.0.1", srv.port), timeout=30)
                if n % 2:
                    s.sendall(f"GET /games/{gid}/version?seq=0 HTTP/1.1\r\nHost: x\r\n".encode())
                held.append(s)

            def drip():
                while not stop.wait(args.every):
                    for s in held[1::2]:
                        try:
                            s.sendall(b"X-Slow: 1\r\n")
                        except OSError:
                            pass

            threading.Thread(target=drip, daemon=True).start()
            times: dict[str, list[float]] = {
                "poll (kept alive)": [],
                "poll (new connection)": [],
                "move": [],
                "page": [],
            }
            failures = 0
            end = time.monotonic() + args.seconds
            tick = 0
            while time.monotonic() < end:
                tick += 1
                try:
                    t0 = time.perf_counter()
                    _request(conn, "GET", f"/games/{gid}/version?seq={seq}")
                    times["poll (kept alive)"].append(time.perf_counter() - t0)
                    if tick % 5 == 0:
                        fresh = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
                        t0 = time.perf_counter()
                        _request(fresh, "GET", f"/games/{gid}/version?seq={seq}")
                        times["poll (new connection)"].append(time.perf_counter() - t0)
                        fresh.close()
                        t0 = time.perf_counter()
                        status, body = _request(
                            conn, "POST", f"/games/{gid}/events", {"seq": seq, "event": events[seq]}
                        )
                        times["move"].append(time.perf_counter() - t0)
                        seq = json.loads(body)["seq"] if status == 200 else seq
                        t0 = time.perf_counter()
                        _request(conn, "GET", f"/games/{gid}")
                        times["page"].append(time.perf_counter() - t0)
                except OSError:
                    failures += 1
                    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
                time.sleep(0.2)
            stop.set()
            still = 0
            for s in held:
                try:
                    s.sendall(b"X-Slow: 1\r\n")
                    still += 1
                except OSError:
                    pass
                s.close()
        finally:
            srv.stop()
    print(
        f"server={args.server or 'default'} workers={args.workers or 'default'}: {args.slow} slow/idle connections "
        f"(a header line every {args.every:g} s), {args.seconds:g} s measured"
    )
    for kind, values in times.items():
        if values:
            values.sort()
            print(
                f"  {kind:<22} n={len(values):>4}  p50 {1000 * statistics.median(values):8.1f} ms  "
                f"p99 {1000 * values[int(0.99 * (len(values) - 1))]:8.1f} ms  max {1000 * values[-1]:8.1f} ms"
            )
    print(f"  requests failed: {failures}; slow connections the server still held at the end: {still}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
