"""Bytes and CPU per response for each compression choice: ``python benchmarks/compression.py``.

Renders a table page, a component and the JSON state of a started game with the real app, then
compresses each body with every candidate (zstd, Brotli, gzip at a few levels) and prints the
size and the median time per response.  The app uses zstd 3, then Brotli 4, then gzip 6
(assistant/web/assets.py); static files are compressed once, at start-up.
"""

from __future__ import annotations

import gzip
import statistics
import sys
import tempfile
import time
from pathlib import Path

import brotli
from backports import zstd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant.web import create_app  # noqa: E402

CANDIDATES = {
    "zstd 1": lambda d: zstd.compress(d, 1),
    "zstd 3": lambda d: zstd.compress(d, 3),
    "br 1": lambda d: brotli.compress(d, quality=1),
    "br 4": lambda d: brotli.compress(d, quality=4),
    "br 6": lambda d: brotli.compress(d, quality=6),
    "gzip 1": lambda d: gzip.compress(d, 1),
    "gzip 6": lambda d: gzip.compress(d, 6),
    "gzip 9": lambda d: gzip.compress(d, 9),
}


def _bodies() -> dict[str, bytes]:
    tmp = Path(tempfile.mkdtemp())
    app = create_app({"DATABASE": str(tmp / "b.sqlite3"), "SECRET_KEY": "bench", "INSTANCE_PATH": str(tmp)})
    client = app.test_client()
    page = client.get("/games/new").text
    token = page.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    gid = client.post("/games/new", data={"csrf_token": token, "name": ["Amy", "Brian", "Crystal"]})
    gid = gid.headers["Location"].rsplit("/", 1)[1]
    for _ in range(3):
        snap = client.get(f"/games/{gid}/state").get_json()
        client.post(
            f"/games/{gid}/act",
            data={"csrf_token": token, "seq": snap["seq"], "e.type": "reveal", "e.company": snap["next"]["choices"][0]},
        )
    return {
        "table page": client.get(f"/games/{gid}").data,
        "actions component": client.get(f"/games/{gid}/c/actions").data,
        "state JSON": client.get(f"/games/{gid}/state").data,
    }


def main() -> int:
    for name, body in _bodies().items():
        print(f"{name}: {len(body)} B uncompressed")
        for label, fn in CANDIDATES.items():
            times = []
            for _ in range(200):
                t = time.perf_counter()
                out = fn(body)
                times.append(time.perf_counter() - t)
            print(f"  {label:7s} {len(out):6d} B  {statistics.median(times) * 1e6:7.0f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
