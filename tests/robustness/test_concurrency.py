"""Six phones submit at once against the real server (waitress subprocess) through the JSON door.

In every round all six post for the same seq at the same moment: the same next event with
their own token (and one without), a retry of a token, sometimes an undo, an event the rules
refuse, a malformed body.  Exactly one event is accepted per seq; the log read from the
SQLite file has no gap and no duplicate; every acknowledged token is in it once with its
event; and a serial replay of the log gives the snapshot GET /state shows.
"""

from __future__ import annotations

import random
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

PHONES = 6
ROUNDS = 60
MAX_SECONDS = 60


def test_six_phones_at_once_one_event_per_seq(server_factory):
    data = load_transcript()
    events = table_events(data)
    srv = server_factory()
    gid = import_game(Http(srv.base), header(data))
    url = f"/games/{gid}/events"

    effective = {0: 0}  # seq -> number of effective events then (recorded by the round's winner)
    known = threading.Condition()
    barrier = threading.Barrier(PHONES, timeout=30)
    answers: list[tuple] = []  # (round, phone, kind, token, event, status, body)
    failures: list[BaseException] = []
    stop = time.monotonic() + MAX_SECONDS

    def phone(n: int) -> None:
        client = Http(srv.base)
        rng = random.Random(n)
        try:
            for rnd in range(ROUNDS):
                barrier.wait()
                if time.monotonic() > stop:
                    return
                status, body = client.json("GET", f"/games/{gid}/state")
                assert status == 200, body
                seq = body["seq"]
                with known:
                    assert known.wait_for(lambda seq=seq: seq in effective, timeout=10), f"seq {seq} unknown"
                    k = effective[seq]
                barrier.wait()  # everybody read the same seq: now all post at once
                token = f"p{n}-r{rnd}"
                kind, event = "next", events[k]
                if n == 4 and k > 0 and rng.random() < 0.25:
                    kind, event = "undo", {"type": "undo"}
                elif n == 5:
                    kind, event = "refused", {"type": "pass", "player": "nobody at this table"}
                if n == 5 and rnd % 3 == 0:
                    status, body = client.json("POST", url, {"seq": seq, "token": token, "event": "not an event"})
                    answers.append((rnd, n, "malformed", token, None, status, body))
                    continue
                body_out = {"seq": seq, "event": event}
                if n != 2:  # phone 2 sends no token at all
                    body_out["token"] = token
                status, body = client.json("POST", url, body_out)
                answers.append((rnd, n, kind, body_out.get("token"), event, status, body))
                if status == 200:
                    with known:
                        effective.setdefault(body["seq"], k - 1 if kind == "undo" else k + 1)
                        known.notify_all()
                if n == 3:  # a phone on bad Wi-Fi sends the very same request again
                    again, body2 = client.json("POST", url, body_out)
                    answers.append((rnd, n, "retry", body_out["token"], event, again, body2))
        except BaseException as err:  # noqa: BLE001 - reported below
            failures.append(err)
            barrier.abort()
        finally:
            client.close()

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(PHONES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=MAX_SECONDS + 60)
    assert not failures, failures
    assert not any(t.is_alive() for t in threads)

    # -- the answers: one acceptance per round, clear refusals for the rest -----------------
    rounds = sorted({a[0] for a in answers})
    assert len(rounds) >= 20
    first_answers = [a for a in answers if a[2] != "retry"]
    for rnd in rounds:
        won = [a for a in first_answers if a[0] == rnd and a[5] == 200]
        assert len(won) == 1, [a for a in answers if a[0] == rnd]
    for _rnd, _n, kind, _token, _event, status, body in answers:
        assert status in (200, 400, 409, 422), (kind, status, body)
        assert body, (kind, status)
        if status == 409:
            assert body["error"] and isinstance(body["seq"], int) and isinstance(body["changes"], list)
        if status in (400, 422):
            assert body["error"]
        if kind == "malformed":
            assert status == 400
        if kind == "refused":
            assert status in (409, 422)
    for a in answers:  # a retry gets the first answer's seq when that was accepted
        if a[2] == "retry":
            first = next(b for b in first_answers if b[3] == a[3])
            if first[5] == 200:
                assert (a[5], a[6]) == (200, first[6])
            else:
                assert a[5] == 409

    # -- the log, read from the SQLite file ------------------------------------------------------
    info, rows = read_log(srv.db, gid)
    assert_log_is_whole(rows)
    won = [a for a in first_answers if a[5] == 200]
    assert len(rows) == len(won) == len(rounds)
    by_seq = {a[6]["seq"]: a for a in won}
    assert sorted(by_seq) == [r.seq for r in rows]
    for row in rows:
        a = by_seq[row.seq]
        assert row.token == a[3] and row.event == a[4]

    # -- a serial replay equals what the server shows ----------------------------------------
    status, shown = Http(srv.base).json("GET", f"/games/{gid}/state")
    assert status == 200 and shown.pop("seq") == len(rows)
    assert serial_replay(info, rows).snapshot() == shown
    status, exported = Http(srv.base).json("GET", f"/games/{gid}/export")
    assert exported["events"] == events[: effective[len(rows)]]
