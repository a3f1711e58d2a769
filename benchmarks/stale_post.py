"""What answering a stale post costs after many undos: ``python benchmarks/stale_post.py [FILE]``.

Imports a transcript (default: the long conformance game, else the project's own game) cut
after ``--at`` events into a store on a temporary SQLite file, enters ``--pairs`` undo/redo
pairs, then times
``Store.changes_since`` for a client that saw the game one event before the cut (what a
409 answer lists), next to one full replay of the game for scale.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant.log.transcript import is_table_event  # noqa: E402
from assistant.store import Store  # noqa: E402

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "conformance" / "games" / "83092.json"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--at", type=int, default=300, help="events in effect before the undos")
    ap.add_argument("--pairs", type=int, nargs="+", default=[0, 100, 300, 500])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    if Path(args.file).exists():
        data = json.loads(Path(args.file).read_text(encoding="utf-8"))
    else:
        from tests.project_games import played_game

        data = played_game()
    events = [e for e in data["events"] if is_table_event(e)]
    head = {k: v for k, v in data.items() if k != "events"}
    at = min(args.at, len(events) - 1)
    with tempfile.TemporaryDirectory(prefix="rss-stale-") as tmp:
        store = Store(Path(tmp) / "stale.sqlite3")
        for pairs in args.pairs:
            gid = store.import_transcript(dict(head, events=events[:at]))
            seq = at
            for _ in range(pairs):
                seq = store.append(gid, seq, events[at])
                seq = store.append(gid, seq, {"type": "undo"})
            times = []
            for _ in range(args.runs):
                t0 = time.perf_counter()
                changes = store.changes_since(gid, at - 1)
                times.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            store._replay(store.get_game(gid), events[:at])
            replay = time.perf_counter() - t0
            print(
                f"{pairs:>4} undo/redo pairs ({2 * pairs + 1} rows after the client's seq): stale answer "
                f"median {1000 * statistics.median(times):.1f} ms, one replay {1000 * replay:.1f} ms, "
                f"{len(changes)} lines"
            )
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
