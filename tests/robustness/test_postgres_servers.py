"""Several app servers on one PostgreSQL (issue 20), each the real ``serve`` (granian, two worker
processes) on its own port: a game made on one is played on the other, polls see changes made
through either, same-seq races split over both give exactly one winner, a kill -9 of one server in a
burst of posts loses and doubles no acknowledged event, and nothing is written to the working
directory."""

from __future__ import annotations

import json
import threading
import time

import pytest

from tests.project_games import one_per_row, played_game

from .conftest import Http, Row, assert_log_is_whole, header, import_game

pytestmark = pytest.mark.server


def _rows(url: str, gid: str) -> list[Row]:
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT seq, event, token, created FROM events WHERE game_id = %s ORDER BY seq", [gid]
        ).fetchall()
    return [Row(r[0], json.loads(r[1]), r[2], r[3]) for r in rows]


@pytest.fixture
def two_servers(pg_url, server_factory, tmp_path):
    a = server_factory(db=pg_url)
    b = server_factory(db=pg_url)
    return a, b


def test_a_game_made_on_one_server_is_played_on_the_other_and_polls_see_it(two_servers, pg_url, tmp_path):
    a, b = two_servers
    data = played_game(limit=40)
    gid = import_game(Http(a.base), header(data))
    status, state = Http(b.base).json("GET", f"/games/{gid}/state")
    assert status == 200 and state["seq"] == 0
    seq = 0
    for n, event in enumerate(data["events"][:20]):
        server = (a, b)[n % 2]
        status, body = Http(server.base).json("POST", f"/games/{gid}/events", {"seq": seq, "event": event})
        assert status == 200, body
        seq = body["seq"]
        other = (b, a)[n % 2]
        status, _, _ = Http(other.base).request("GET", f"/games/{gid}/version?seq={seq - 1}")
        assert status != 204, "the other server's poll must see the change"
        status, _, _ = Http(other.base).request("GET", f"/games/{gid}/version?seq={seq}")
        assert status == 204
    assert Http(a.base).json("GET", f"/games/{gid}/state")[1] == Http(b.base).json("GET", f"/games/{gid}/state")[1]
    assert [r.event for r in _rows(pg_url, gid)] == data["events"][:20]
    # nothing of the games is written where the servers run
    written = [p.name for p in tmp_path.rglob("*") if p.suffix in (".sqlite3", ".db") or "-wal" in p.name]
    assert written == []


def test_forty_rounds_of_ten_way_races_over_two_servers_give_one_winner_each(two_servers, pg_url):
    a, b = two_servers
    data = played_game(limit=60)
    events = one_per_row(data)[:40]
    gid = import_game(Http(a.base), header(data))
    clients = [Http(s.base) for s in (a, b) for _ in range(5)]
    for seq, event in enumerate(events):
        answers: list[tuple[int, dict]] = [None] * 10
        start = threading.Barrier(10)

        def post(n, seq=seq, event=event, answers=answers, start=start):
            start.wait()
            answers[n] = clients[n].json(
                "POST", f"/games/{gid}/events", {"seq": seq, "token": f"r{seq}-{n}", "event": event}
            )

        threads = [threading.Thread(target=post, args=(n,)) for n in range(10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        statuses = sorted(status for status, _ in answers)
        assert statuses == [200] + [409] * 9, (seq, answers)
    rows = _rows(pg_url, gid)
    assert_log_is_whole(rows)
    assert [r.event for r in rows] == events


def test_a_kill_9_of_one_server_in_a_burst_of_posts_loses_and_doubles_nothing(two_servers, pg_url):
    a, b = two_servers
    data = played_game(limit=400)
    events = one_per_row(data)
    gid = import_game(Http(a.base), header(data))
    acked: dict[int, tuple[str, dict]] = {}
    lock = threading.Lock()
    done = threading.Event()
    errors: list[BaseException] = []

    def phone(n: int) -> None:
        client = Http((a, b)[n % 2].base, timeout=10)
        try:
            while not done.is_set():
                try:
                    status, body = client.json("GET", f"/games/{gid}/state")
                    seq = body["seq"]
                    if seq >= len(events):
                        return
                    token = f"p{n}-{seq}"
                    status, body = client.json(
                        "POST", f"/games/{gid}/events", {"seq": seq, "token": token, "event": events[seq]}
                    )
                except OSError:  # its server was killed: go on through the other one
                    client.close()
                    client = Http(b.base, timeout=10)
                    time.sleep(0.05)
                    continue
                if status == 200:
                    with lock:
                        assert body["seq"] not in acked, "two acknowledgements for one seq"
                        acked[body["seq"]] = (token, events[seq])
                else:
                    assert status == 409, body
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    phones = [threading.Thread(target=phone, args=(n,)) for n in range(6)]
    for t in phones:
        t.start()
    deadline = time.monotonic() + 60
    while len(acked) < len(events) // 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    killed_at = len(acked)
    a.kill()
    while time.monotonic() < deadline and any(t.is_alive() for t in phones) and len(acked) < killed_at + 20:
        time.sleep(0.05)
    done.set()
    for t in phones:
        t.join(timeout=60)
    assert not errors, errors
    rows = _rows(pg_url, gid)
    assert_log_is_whole(rows)
    by_seq = {r.seq: r for r in rows}
    for seq, (token, event) in acked.items():
        assert (by_seq[seq].token, by_seq[seq].event) == (token, event)
    assert len(acked) > killed_at, "events were acknowledged after the kill, through the other server"
    assert [r.event for r in rows] == events[: len(rows)]
