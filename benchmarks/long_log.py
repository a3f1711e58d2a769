"""A game with a very long log (``python benchmarks/long_log.py [--entries 20000]``): the costs that
grow with the log, measured through the store on a real SQLite file, as a fresh worker meets them.

The game: two players resume at the start of a turn (FORMAT-position.md) with 30,000 each and two
companies on offer, and bid them up one coin at a time, so that every entry stays in effect. Prints
the median milliseconds of the first (cold) state of a worker that has not seen the game, an undo
(and the redo that restores it), a stale post after an undo (the words of what happened
meanwhile), and the export; then the same through the web app (Flask's test client): the first
(cold) page of a new app, an undo and a stale post through the JSON door, the export (cold: a new
app's first) and the Log's full history.

A long game's state is saved in the database every ``assistant/log/saved.py``'s EVERY rows; ``--no-saved``
measures the same without saved states (every worker replays the log from its start).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant.log import saved as saved_states  # noqa: E402
from assistant.log import transcript
from assistant.store import Stale, Store  # noqa: E402
from assistant.web import create_app  # noqa: E402
from tests.project_games import bidding_war  # noqa: E402

PLAYERS = ["Amy", "Brian"]


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
    parser.add_argument("--no-saved", action="store_true", help="no saved states: replay from the start")
    args = parser.parse_args()
    every = 10**9 if args.no_saved else saved_states.EVERY
    pos, events = bidding_war(args.entries)
    tmp = Path(tempfile.mkdtemp())
    path = str(tmp / "long.sqlite3")
    store = Store(path, save_every=every)
    gid = store.import_transcript(transcript.build(PLAYERS, [], None, events, "benchmark", position=pos))
    print(f"a game of {len(events)} entries" + (" (no saved states)" if args.no_saved else ""))

    def cold():
        fresh = Store(path, save_every=every)  # a worker that has not seen the game
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

    def cold_export():
        fresh = Store(path, save_every=every)
        transcript.dumps(fresh.export(gid))
        fresh.close()

    print("the store:")
    for name, fn in (
        ("first (cold) state", cold),
        ("undo", undo),
        ("redo (restore)", redo),
        ("stale post after an undo", stale),
        ("export", export),
        ("export (cold)", cold_export),
    ):
        print(f"  {name:30s} {timed(fn, args.runs):8.1f} ms (median of {args.runs})")
    store.close()

    def new_app():
        app = create_app({"DATABASE": path, "SECRET_KEY": "bench", "INSTANCE_PATH": str(tmp), "SAVE_EVERY": every})
        return app.test_client()

    small = Store(path).create_game(PLAYERS, ruleset="rolling-stock-stars")

    def cold_page():
        assert new_app().get(f"/games/{gid}").status_code == 200

    apps = []

    def first_page():  # a worker that has served other tables (its templates compiled), not this one
        app = new_app()
        assert app.get(f"/games/{small}").status_code == 200
        apps.append(app)

    def first_page_timed():
        assert apps.pop().get(f"/games/{gid}").status_code == 200

    client = new_app()
    client.get(f"/games/{gid}")

    def post(seq, event, **more):
        return client.post(f"/games/{gid}/events", json={"seq": seq, "event": event, **more})

    def web_undo():
        seq = client.get(f"/games/{gid}/state").get_json()["seq"]
        assert post(seq, {"type": "undo"}, confirm=True).status_code == 200
        assert post(seq + 1, {"type": "redo"}).status_code == 200

    def web_stale():
        seq = client.get(f"/games/{gid}/state").get_json()["seq"]
        assert post(seq, {"type": "undo"}, confirm=True).status_code == 200
        assert post(seq, {"type": "undo"}, confirm=True).status_code == 409  # the phone that did not see it
        assert post(seq + 1, {"type": "redo"}).status_code == 200

    def web_export():
        assert client.get(f"/games/{gid}/export").status_code == 200

    def web_cold_export():
        assert new_app().get(f"/games/{gid}/export").status_code == 200

    def full_history():
        page = client.get(f"/games/{gid}/v/log?history=all")
        assert page.status_code == 200 and page.text.count("<li") >= len(events), "the full history lists every entry"

    print("through the web app:")
    for _ in range(args.runs):
        first_page()
    print(
        f"  {'first page of the game':30s} {timed(first_page_timed, args.runs):8.1f} ms (median of {args.runs};"
        " a worker that has served other tables)"
    )
    for name, fn in (
        ("first page of a new app", cold_page),
        ("undo + redo (JSON door)", web_undo),
        ("undo + stale post + redo", web_stale),
        ("export", web_export),
        ("export (cold)", web_cold_export),
        ("the Log's full history", full_history),
    ):
        print(f"  {name:30s} {timed(fn, args.runs):8.1f} ms (median of {args.runs})")


if __name__ == "__main__":
    main()
