"""What one change costs the server in renders: the Play region as each phone of a table fetches it.

``python benchmarks/region.py [--transcript FILE] [--at N ...] [--runs R] [--profile]``

A table of six phones (one per player, each with its seat taken) watches a game imported from a
transcript, cut after N events.  After a change every phone fetches its Play region
(``/games/<id>/r/play``, as htmx does); this prints, per cut, the milliseconds of the first phone's
fetch (nothing rendered yet for this seq) and of the others' (what the table shares is rendered),
and the six together: min and median of R changes.  Through Flask's test client in this process:
no network, no server threads, only the app's own work.  ``--profile`` prints the functions that
took the most time (cProfile, cumulative) over every fetch.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant.web import create_app  # noqa: E402

TRANSCRIPT = Path(__file__).resolve().parent.parent.parent / "shared" / "conformance" / "games" / "83092.json"


def events_of(data: dict) -> list[dict]:
    return [e for e in data["events"] if e.get("type") != "expect" and not e.get("reject")]


def table(app, data: dict, cut: int, seated: bool = True):
    """(game id, one test client per player with its seat taken; ``seated`` False: none taken, as
    the phones of benchmarks/load.py)."""
    header = {k: v for k, v in data.items() if k != "events"}
    host = app.test_client()
    answer = host.post("/games/import", json={**header, "events": events_of(data)[:cut]})
    assert answer.status_code == 303, answer.get_data(as_text=True)[:300]
    gid = answer.get_json()["id"]
    phones = []
    for player in data["players"]:
        phone = app.test_client()
        if not seated:
            phones.append(phone)
            continue
        page = phone.get(f"/games/{gid}").get_data(as_text=True)
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        taken = phone.post(f"/games/{gid}/seat", data={"player": player, "csrf_token": token})
        assert taken.status_code == 303, taken.status_code
        phones.append(phone)
    return gid, phones


def one_change(app, data, cut: int, runs: int, profile: cProfile.Profile | None, seated: bool = True):
    """Render the region for every phone at seq ``cut`` .. ``cut + runs``: a new seq each time, so
    nothing of an earlier change is reused."""
    gid, phones = table(app, data, cut, seated)
    events = events_of(data)
    first, others, together = [], [], []
    headers = {"HX-Request": "true", "HX-Target": "view", "HX-Current-URL": f"http://localhost/games/{gid}"}
    for k in range(runs):
        times = []
        for phone in phones:
            if profile:
                profile.enable()
            t0 = time.perf_counter()
            got = phone.get(f"/games/{gid}/r/play", headers=headers)
            times.append(time.perf_counter() - t0)
            if profile:
                profile.disable()
            assert got.status_code == 200, got.status_code
        first.append(times[0])
        others += times[1:]
        together.append(sum(times))
        seq = json.loads(phones[0].get(f"/games/{gid}/state").get_data())["seq"]
        nxt = events[cut + k] if cut + k < len(events) else {"type": "undo"}
        got = phones[0].post(f"/games/{gid}/events", json={"seq": seq, "event": nxt})
        if got.status_code != 200:  # an event the cut game refuses: an undo changes the seq too
            phones[0].post(f"/games/{gid}/events", json={"seq": seq, "event": {"type": "undo"}})
    return first, others, together


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--transcript", default=str(TRANSCRIPT))
    ap.add_argument("--at", type=int, nargs="*", help="cut the game after these many events (default: 3 cuts)")
    ap.add_argument("--runs", type=int, default=20, help="changes per cut")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--unseated", action="store_true", help="no phone takes a seat (as in benchmarks/load.py)")
    args = ap.parse_args(argv)
    data = json.loads(Path(args.transcript).read_text())
    n = len(events_of(data))
    cuts = args.at or [n // 10, n // 2, n - args.runs - 5]
    profile = cProfile.Profile() if args.profile else None
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"INSTANCE_PATH": folder, "DATABASE": f"{folder}/region.sqlite3"})
        one_change(app, data, cuts[0], 2, None)  # warm up: templates compiled, caches filled
        print(
            f"{Path(args.transcript).name}: the Play region per phone, {len(data['players'])} phones, {args.runs} changes per cut"
        )
        print(f"  {'cut':>5}  {'first phone ms':>16}  {'each other ms':>15}  {'all phones ms':>15}   (min / median)")
        for cut in cuts:
            first, others, together = one_change(app, data, cut, args.runs, profile, not args.unseated)

            def fmt(xs):
                return f"{1000 * min(xs):6.2f} /{1000 * statistics.median(xs):6.2f}"

            print(f"  {cut:>5}  {fmt(first):>16}  {fmt(others):>15}  {fmt(together):>15}")
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(45)
    return 0


if __name__ == "__main__":
    sys.exit(main())
