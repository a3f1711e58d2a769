"""A restart of PostgreSQL under the phones' posts (issue 38 §6): the pooled connections it closed
are not handed to a request (the pool checks a connection before it lends it), so no phone sees an
error (before: 10-12 posts answered 503 after each postmaster restart).  A throw-away cluster of its
own (tests/pgcluster.py): the session's is shared by other tests."""

from __future__ import annotations

import threading

import pytest

from tests import pgcluster
from tests.project_games import one_per_row, played_game

from .conftest import Http, header, import_game

pytestmark = pytest.mark.server

PHONES = 8  # as many as the worker's threads and pooled connections, so every connection is used


def _post_round(srv, gid: str, events: list[dict], start: int) -> tuple[list[int], int]:
    """Each phone posts the next entry, all at once (one wins, the others are stale): their statuses."""
    statuses: list[int] = []
    lock = threading.Lock()
    gate = threading.Barrier(PHONES)

    def phone(n: int) -> None:
        client = Http(srv.base, timeout=30)
        gate.wait()
        status, _ = client.json("POST", f"/games/{gid}/events", {"seq": start, "event": events[start]})
        with lock:
            statuses.append(status)
        client.close()

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(PHONES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses, start + (200 in statuses)


def test_posts_after_a_postgresql_restart_see_no_error(server_factory):
    why = pgcluster.why_not()
    if why:
        pytest.skip(why)
    with pgcluster.Cluster() as cluster:
        url = cluster.fresh_database("restart")
        srv = server_factory(db=url, env={"RSS_WORKERS": "1", "RSS_THREADS": str(PHONES), "RSS_PG_POOL": "8"})
        data = played_game(limit=120)
        events = one_per_row(data)
        gid = import_game(Http(srv.base), header(data))
        seq = 0
        for _ in range(4):  # every pooled connection opened and used
            statuses, seq = _post_round(srv, gid, events, seq)
            assert sorted(statuses) == [200] + [409] * (PHONES - 1), statuses
        for _restart in range(2):
            cluster.stop("fast")
            cluster.start()
            pgcluster.wait_until_ready(url)
            for _ in range(4):
                statuses, seq = _post_round(srv, gid, events, seq)
                assert sorted(statuses) == [200] + [409] * (PHONES - 1), statuses
        status, body = Http(srv.base).json("GET", f"/games/{gid}/state")
        assert status == 200 and body["seq"] == seq == 12
