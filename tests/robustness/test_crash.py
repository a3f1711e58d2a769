"""kill -9 in the middle of submissions: a restarted server has every acknowledged event and no partial one.

Five rounds: start the server on the same SQLite file, submit events as fast as the server takes
them (with the occasional undo), kill the process with SIGKILL at a random moment, then read
the file directly and restart.
"""

from __future__ import annotations

import http.client
import random
import sqlite3
import threading
import time

from .conftest import (
    Http,
    assert_log_is_whole,
    header,
    import_game,
    load_transcript,
    read_log,
    serial_replay,
    table_events,
)

ROUNDS = 5


def test_acknowledged_events_survive_kill_9(server_factory, tmp_path):
    data = load_transcript()
    events = table_events(data)
    db = tmp_path / "crash.sqlite3"
    rng = random.Random(20240905)
    acked: dict[int, tuple[str, dict]] = {}  # seq -> (token, event) the server answered 200 to
    gid = None
    for rnd in range(ROUNDS):
        srv = server_factory(db)
        client = Http(srv.base, timeout=10)
        if gid is None:
            gid = import_game(client, header(data))
        info, rows = read_log(db, gid)
        status, shown = client.json("GET", f"/games/{gid}/state")
        assert status == 200 and shown.pop("seq") == len(rows)
        assert serial_replay(info, rows).snapshot() == shown
        start = (len(rows), len([e for e in serial_replay(info, rows).events]))

        done = threading.Event()
        killed = threading.Event()  # set just before the kill: only then may a request fail
        failures: list[BaseException] = []

        def submit(seq: int, k: int, srv=srv, done=done, killed=killed, rnd=rnd, gid=gid, failures=failures) -> None:
            phone = Http(srv.base, timeout=10)
            n = 0
            try:
                while not done.is_set() and k < len(events):
                    n += 1
                    undo = k > 0 and n % 7 == 0
                    event = {"type": "undo"} if undo else events[k]
                    token = f"r{rnd}-n{n}"
                    status, body = phone.json(
                        "POST", f"/games/{gid}/events", {"seq": seq, "token": token, "event": event}
                    )
                    assert status == 200, body  # the only writer: never stale, never refused
                    seq = body["seq"]
                    acked[seq] = (token, event)
                    k += -1 if undo else 1
            except (OSError, http.client.HTTPException) as err:
                # the server died under us: the answer never came, nothing is acknowledged;
                # before the kill, a broken connection is a failure
                if not killed.is_set():
                    failures.append(err)
            except BaseException as err:  # noqa: BLE001 - re-raised in the test's thread below
                failures.append(err)  # a refused event, a 500 page that is not JSON, ...
            finally:
                phone.close()

        writer = threading.Thread(target=submit, args=start)
        writer.start()
        time.sleep(rng.uniform(0.05, 0.6))
        killed.set()
        srv.kill()
        done.set()
        writer.join(timeout=30)
        assert not writer.is_alive()
        if failures:
            raise failures[0]

        conn = sqlite3.connect(db)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
        info, rows = read_log(db, gid)
        assert_log_is_whole(rows)
        by_seq = {r.seq: r for r in rows}
        for seq, (token, event) in acked.items():
            assert seq in by_seq, f"acknowledged event {seq} lost in round {rnd}"
            assert (by_seq[seq].token, by_seq[seq].event) == (token, event)
        # beyond what was acknowledged: at most the one event whose answer the kill cut off
        assert len(rows) <= max([start[0], *(s for s in acked if s > start[0])]) + 1
        serial_replay(info, rows)  # every row is whole and the log still replays

    assert len(acked) > 20, "the rounds were too short to submit anything"
    srv = server_factory(db)
    info, rows = read_log(db, gid)
    status, shown = Http(srv.base).json("GET", f"/games/{gid}/state")
    assert status == 200 and shown.pop("seq") == len(rows)
    assert serial_replay(info, rows).snapshot() == shown
