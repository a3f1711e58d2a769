"""Replay a transcript's events in-process many times: ``python benchmarks/replay.py FILE [--runs N]``.

Builds a new game and applies every event (checkpoints skipped, refused events refused as in
a real replay, no snapshot output), and prints ``median N.NN ms per replay, M events/s``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant.cli.replay import new_game  # noqa: E402
from assistant.rules import RuleError  # noqa: E402


def replay_once(data, events) -> None:
    game = new_game(data)
    for ev in events:
        try:
            game.apply(ev)
        except RuleError:
            pass


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--runs", type=int, default=200)
    args = ap.parse_args(argv)
    data = json.loads(Path(args.file).read_text())
    events = [e for e in data["events"] if e.get("type") != "expect"]
    replay_once(data, events)  # warm up
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        replay_once(data, events)
        times.append(time.perf_counter() - t0)
    med = statistics.median(times)
    print(f"median {med * 1000:.2f} ms per replay, {len(events) / med:.0f} events/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
