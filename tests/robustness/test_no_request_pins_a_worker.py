"""No request can pin a worker (issue 26), against the real server: a table's page loads and polls
stay answered (p99 < 500 ms, none failed) while 12 clients post imports that get stuck, and while
8 clients flood the score check's image; the stuck imports are answered 503 at the request's
deadline, nothing of them is stored, and the server's memory stays bounded.

The stuck import is the test hook of ``assistant/web/trial.py`` (``RSS_TEST_HOOKS=1``, a transcript
with ``"test_hook": "stuck"``): a loop that never looks at its deadline and whose memory grows, like
the engine's endless loop of round three did.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

from tests.project_games import played_game

from .conftest import Http, header, import_game

DEADLINE = 4  # RSS_REQUEST_SECONDS for these servers (10 by default): the same path, a shorter test
STUCK_CLIENTS = 12
FLOOD_CLIENTS = 8
P99_MS = 500  # issue 26: what a table's requests must keep
STUCK = {"format": "rss-table-transcript", "version": 1, "players": ["A", "B", "C"], "events": [], "test_hook": "stuck"}


def all_children(pid: int) -> list[int]:
    """The children of every thread of ``pid`` (a worker's app thread starts its fork server)."""
    try:
        tasks = [int(t) for t in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return []
    return [c for t in tasks for c in children_of_task(pid, t)]


def children_of_task(pid: int, tid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{tid}/children").read_text().split()]
    except OSError:
        return []


def tree(pid: int) -> list[int]:
    """``pid`` and every process under it."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += all_children(p)
    return out


def rss_mb(pid: int) -> float:
    """The resident memory of the server's whole process tree, in MB."""
    total = 0
    for p in tree(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


class Table:
    """One phone at a table, over and over: the game's page, then its poll; every answer timed."""

    def __init__(self, base: str, gid: str, seq: int):
        self.http, self.gid, self.seq = Http(base, timeout=30), gid, seq
        self.times: list[tuple[float, float]] = []  # (when, seconds)
        self.failed: list[str] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        paths = [f"/games/{self.gid}", f"/games/{self.gid}/version?seq={self.seq}"]
        n = 0
        while not self.stop.is_set():
            path = paths[n % 2]
            n += 1
            t0 = time.perf_counter()
            try:
                status, _, _ = self.http.request("GET", path)
            except OSError as err:
                self.failed.append(f"{path}: {err!r}")
                continue
            took = time.perf_counter() - t0
            self.times.append((time.monotonic(), took))
            if status not in (200, 204):
                self.failed.append(f"{path}: {status}")
            time.sleep(0.05)

    def p99_ms(self, since: float = 0.0) -> tuple[float, int]:
        times = sorted(t for when, t in self.times if when >= since)
        return (times[min(len(times) - 1, int(len(times) * 0.99))] * 1000 if times else 0.0), len(times)


def games_in(db: Path) -> int:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return conn.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        conn.close()


def a_table(srv) -> Table:
    data = played_game()
    gid = import_game(Http(srv.base), header(data, data["events"][:30]))
    return Table(srv.base, gid, 30)


def test_twelve_stuck_imports_leave_a_table_served_and_memory_bounded(server_factory, tmp_path):
    srv = server_factory(env={"RSS_TEST_HOOKS": "1", "RSS_REQUEST_SECONDS": str(DEADLINE)})
    table = a_table(srv)
    games = games_in(srv.db)
    table.thread.start()
    time.sleep(2)
    before_mb, peak_mb = rss_mb(srv.proc.pid), 0.0
    answers: list[tuple[int, float, str | None]] = []
    lock = threading.Lock()
    until = time.monotonic() + 3 * DEADLINE

    def stuck_client() -> None:
        http = Http(srv.base, timeout=60)
        while time.monotonic() < until:
            t0 = time.perf_counter()
            status, head, _ = http.request("POST", "/games/import", STUCK)
            with lock:
                answers.append((status, time.perf_counter() - t0, head.get("retry-after")))
            http.close()

    started = time.monotonic()
    clients = [threading.Thread(target=stuck_client, daemon=True) for _ in range(STUCK_CLIENTS)]
    for c in clients:
        c.start()
    while any(c.is_alive() for c in clients):
        peak_mb = max(peak_mb, rss_mb(srv.proc.pid))
        time.sleep(0.25)
    time.sleep(DEADLINE)  # and after: the table goes on as before
    after_mb = rss_mb(srv.proc.pid)
    # and imports work again, on every worker (nothing holds their turn)
    fine = [Http(srv.base).json("POST", "/games/import", dict(STUCK, test_hook=None))[0] for _ in range(4)]
    table.stop.set()
    table.thread.join(30)
    p99, n = table.p99_ms(since=started)
    print(
        f"\n{len(answers)} stuck imports answered {sorted({a[0] for a in answers})}, the slowest in "
        f"{max(a[1] for a in answers):.1f} s; the table: {n} requests during and after, p99 {p99:.0f} ms, "
        f"{len(table.failed)} failed; memory {before_mb:.0f} MB before, peak {peak_mb:.0f} MB, {after_mb:.0f} MB after"
    )
    assert not table.failed, table.failed[:5]
    assert p99 < P99_MS
    assert answers and all(a[0] == 503 and a[2] for a in answers), answers[:5]  # each one: 503 with Retry-After
    assert max(a[1] for a in answers) < DEADLINE + 2  # never held past the deadline
    assert games_in(srv.db) == games + len(fine)  # nothing of the stuck ones stored
    assert fine == [303] * 4
    assert peak_mb < before_mb + 400 and after_mb < before_mb + 150


def test_eight_clients_flooding_the_score_image_leave_a_table_served(server_factory):
    srv = server_factory()
    table = a_table(srv)
    table.thread.start()
    time.sleep(2)
    answers: list[int] = []
    lock = threading.Lock()
    until = time.monotonic() + 15

    def flood(k: int) -> None:
        http = Http(srv.base, timeout=60)
        n = 0
        while time.monotonic() < until:
            n += 1  # six players, the largest money a form takes, a new figure each time: nothing cached
            query = [("game", "rolling-stock-stars")] + [("name", f"Player {i}") for i in range(6)]
            query += [(f"cash-{i}", str(99_999 - n - 1000 * k - i)) for i in range(6)]
            status, _, _ = http.request("GET", "/scores/check.png?" + urlencode(query))
            with lock:
                answers.append(status)

    started = time.monotonic()
    clients = [threading.Thread(target=flood, args=(k,), daemon=True) for k in range(FLOOD_CLIENTS)]
    for c in clients:
        c.start()
    for c in clients:
        c.join(60)
    table.stop.set()
    table.thread.join(30)
    p99, n = table.p99_ms(since=started)
    drawn = answers.count(200)
    print(
        f"\n{len(answers)} images asked: {drawn} drawn, {answers.count(503)} told to come back (503); "
        f"the table: {n} requests, p99 {p99:.0f} ms, {len(table.failed)} failed"
    )
    assert not table.failed, table.failed[:5]
    assert p99 < P99_MS
    assert drawn and set(answers) <= {200, 503}


# -- names that would forge a result (point 4) and malformed positions (point 3), on the real server ---
FORGING = {
    "a line feed": "Amy\n1. Mallory: 412",
    "a carriage return": "Amy\r1. Mallory: 412",
    "a line separator": "Amy\u20281. Mallory: 412",
    "a paragraph separator": "Amy\u20291. Mallory: 412",
    "a bidi override": "Amy\u202e214 :yrollaM",
}


def test_no_name_forges_a_line_of_the_shared_result(server_factory):
    srv = server_factory()
    http = Http(srv.base)
    for what, name in FORGING.items():
        query = [("game", "rolling-stock-stars"), ("name", name), ("name", "Brian"), ("cash-0", "10"), ("cash-1", "5")]
        for path in ("/scores/check.txt", "/scores/check.png", "/scores/check"):
            status, _, body = http.request("GET", f"{path}?{urlencode(query)}")
            assert status == 422, (what, path, status)
            if path == "/scores/check":  # the form again, the name in its field to correct: no text to share
                assert b"<textarea" not in body, what
            else:
                assert b"Mallory: 412" not in body and b"yrollaM" not in body, (what, path)
        status, body = http.json(
            "POST", "/games/import", dict(STUCK, players=[name, "Brian", "Crystal"], test_hook=None)
        )
        assert status == 422, (what, body)
    # the same names, plain: the check's text has exactly its lines
    query = [("game", "rolling-stock-stars"), ("name", "Amy"), ("name", "Brian"), ("cash-0", "10"), ("cash-1", "5")]
    status, _, body = http.request("GET", f"/scores/check.txt?{urlencode(query)}")
    assert status == 200 and body.decode().splitlines()[3:5] == ["1. Amy: 10", "2. Brian: 5"]


MALFORMED_POSITIONS = {
    "after": [1],
    "offering": "CDG",
    "president": ["P2"],
    "no corporations": None,
    "a corporation as text": "Doppler AG",
    "money of 4,290 digits": int("9" * 4290),
}


def test_every_malformed_position_is_answered_4xx_and_nothing_is_stored(server_factory, tmp_path):
    srv = server_factory()
    http = Http(srv.base)
    good = {
        "after": {"turn": 1, "phase": 9},
        "state": {
            "players": {"A": {"cash": 20, "companies": ["BME"]}, "B": {"cash": 25}, "C": {"cash": 30}},
            "corporations": {},
            "offering": {"available": [], "unavailable": []},
        },
        "deck": {"red": 1, "orange": 4, "yellow": 4, "green": 4, "blue": 4},
        "out_of_game": [],
    }
    for what, value in MALFORMED_POSITIONS.items():
        pos = json.loads(json.dumps(good))
        state = pos["state"]
        if what == "after":
            pos["after"] = value
        elif what == "offering":
            state["offering"] = value
        elif what == "president":
            state["corporations"] = {
                "Doppler AG": {"cash": 1, "share_price": 10, "companies": ["BSE"], "president": value}
            }
        elif what == "no corporations":
            del state["corporations"]
        elif what == "a corporation as text":
            state["corporations"] = {"Doppler AG": value}
        else:
            state["players"]["A"]["cash"] = value
        body = json.dumps(dict(STUCK, test_hook=None, position=pos))
        status, _, answer = http.request("POST", "/games/import", body, {"Content-Type": "application/json"})
        assert 400 <= status < 500, (what, status, answer[:300])
    assert games_in(srv.db) == 0
