"""What a worker's connection scan costs (assistant/serve/reaper.py), in CPU of its own thread:
``python benchmarks/reaper_scan.py [--connections 6000] [--churn 10] [--seconds 20]``.

This process holds ``--connections`` accepted connections on a port of its own, each from one of
200 loopback addresses and each having sent a byte (a phone's stream and requests); a child
process holds the other ends.  Each simulated second, ``--churn`` of them close and as many new
ones open and talk, and one scan runs with the clock moved on by a second (a full look every
``FULL_EVERY`` of them, as in the server).  Prints the scan's CPU milliseconds per simulated
second (median of the seconds, and the full looks' and the others' medians apart).  Run it in two
checkouts to compare (``--root`` names the one whose reaper is timed).  Needs ``ulimit -n`` at
least twice ``--connections`` plus 500 (the child's ends are counted apart).
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import statistics
import sys
import time
from pathlib import Path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--connections", type=int, default=6000)
    ap.add_argument("--churn", type=int, default=10)
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    args = ap.parse_args(argv)
    sys.path.insert(0, args.root)
    from assistant.serve import reaper

    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(4096)
    port = srv.getsockname()[1]
    orders, done = os.pipe()
    child = os.fork()
    if child == 0:  # the phones: opens what it is told to, keeps every end open
        ends, n = [], 0
        with os.fdopen(orders, "rb", buffering=0) as told:
            while True:
                many = int.from_bytes(told.read(4), "big")
                if not many:
                    os._exit(0)
                for _ in range(many):
                    c = socket.create_connection(("127.0.0.1", port), source_address=(f"127.0.0.{2 + n % 200}", 0))
                    c.sendall(b"G")
                    ends.append(c)
                    n += 1
    os.close(orders)

    def open_(many: int) -> list[socket.socket]:
        os.write(done, many.to_bytes(4, "big"))
        return [srv.accept()[0] for _ in range(many)]

    held = open_(args.connections)
    time.sleep(0.2)  # every byte arrived
    scan = reaper.Reaper(port, head=30, per_client=100_000)
    clock = [0.0]
    real = time.monotonic
    reaper.time.monotonic = lambda: clock[0]  # the scan's seconds are simulated ones
    full, other = [], []
    try:
        for second in range(args.seconds + 1):
            for sock in held[: args.churn]:
                sock.close()
            held = held[args.churn :] + open_(args.churn)
            time.sleep(0.01)
            started = time.thread_time()
            out = scan.scan()
            spent = 1000 * (time.thread_time() - started)
            if second:  # the first look of all is not counted
                (full if second % int(reaper.FULL_EVERY) == 0 else other).append(spent)
            clock[0] += 1.0
    finally:
        reaper.time.monotonic = real
        os.write(done, (0).to_bytes(4, "big"))
        os.waitpid(child, 0)
    every = full + other
    print(
        f"{args.root}: {out.seen} connections seen, churn {args.churn}/s: "
        f"{statistics.mean(every):.2f} ms of CPU per second (full looks {statistics.median(full):.2f} ms, "
        f"the others {statistics.median(other):.2f} ms)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
