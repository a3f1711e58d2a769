"""A game with a very long log (``python benchmarks/long_log.py [--entries 20000]``): the costs that
grow with the log, measured through the store on a real SQLite file, as a fresh worker meets them.

The game: two players resume at the start of a turn (FORMAT-position.md) with 30,000 each and two
companies on offer, and bid them up one coin at a time, so that every entry stays in effect. Prints
the median milliseconds of the first (cold) state of a worker that has not seen the game, an undo
(and the redo that restores it), a stale post after an undo (the words of what happened
meanwhile), and the export.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant import transcript  # noqa: E402
from assistant.rules import registry  # noqa: E402
from assistant.rules.core import position  # noqa: E402
from assistant.store import Stale, Store  # noqa: E402

PLAYERS = ["Amy", "Brian"]


def long_game(entries: int) -> tuple[dict, list[dict]]:
    """(the position, the events): a bidding war as long as asked for."""
    stars = registry.get("rolling-stock-stars")
    deck = dict(stars.create(PLAYERS).deck_left)
    deck["red"] = 1
    state = {
        "players": {p: {"cash": 30_000, "companies": [], "shares": {}} for p in PLAYERS},
        "corporations": {},
        "foreign_investor": {"cash": 4, "companies": []},
        "offering": {"available": ["BME", "BSE"], "unavailable": []},
        "player_order": PLAYERS,
    }
    pos = {"after": {"turn": 1, "phase": 9}, "state": state, "deck": deck, "out_of_game": []}
    game = position.resume(stars, PLAYERS, [], pos)
    events = []
    while len(events) < entries:
        nxt = game.next or {}
        if nxt.get("for") == "bid":
            event = {"type": "bid", "player": nxt["player"], "company": nxt["company"], "price": game.auction.high + 1}
        elif nxt.get("for") == "investment" and game.available:
            event = {"type": "bid", "player": nxt["player"], "company": game.available[0], "price": 1}
        else:
            break
        game.apply(event)
        events.append(event)
    return pos, events


def timed(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    pos, events = long_game(args.entries)
    path = str(Path(tempfile.mkdtemp()) / "long.sqlite3")
    store = Store(path)
    gid = store.import_transcript(transcript.build(PLAYERS, [], None, events, "benchmark", position=pos))
    print(f"a game of {len(events)} entries")

    def cold():
        fresh = Store(path)  # a worker that has not seen the game
        fresh.state(gid)
        fresh.close()

    def undo():
        seq = store.seq(gid)
        store.append(gid, seq, {"type": "undo"})

    def redo():
        store.append(gid, store.seq(gid), {"type": "redo"})

    def stale():
        seq = store.seq(gid)
        store.append(gid, seq, {"type": "undo"})
        try:
            store.append(gid, seq, {"type": "undo"})  # a phone that did not see the first
        except Stale as err:
            store.changes_since(gid, err.expected)
        store.append(gid, seq + 1, {"type": "redo"})

    def export():
        transcript.dumps(store.export(gid))

    for name, fn in (
        ("first (cold) state", cold),
        ("undo", undo),
        ("redo (restore)", redo),
        ("stale post after an undo", stale),
        ("export", export),
    ):
        print(f"{name:28s} {timed(fn, args.runs):8.1f} ms (median of {args.runs})")


if __name__ == "__main__":
    main()
